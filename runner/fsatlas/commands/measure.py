"""fsatlas measure A B: the publishing path. Runs two configurations (a filesystem, or
filesystem:variant) interleaved on this machine, round after round, until every headline
comparison can detect the stated change or the round cap is reached (run/measure.py), then
writes the report (`--report FILE`, as `fsatlas report R.json --a A --b B` does) or the
article (`--article TITLE`, as `fsatlas article new` does) from that one run."""
import argparse
import os
import sys

from .. import outfile
from ..errors import UserError
from ..results import shares
from ..run import leftovers, matrix as matrix_mod, measure
from ..run.workloads import fio
from . import article, list_option, plan, report


def add_parser(sub):
    p = sub.add_parser("measure", help="run A against B interleaved until every headline comparison can detect "
                                       "a stated change, then write the report or article",
                       description="fsatlas measure ext4 xfs --report ext4-xfs.md, or fsatlas measure ext4 "
                                   "ext4:noatime --article 'noatime on ext4' (a side is a filesystem, or "
                                   "filesystem:variant)")
    p.add_argument("a", metavar="A", help="side A: a filesystem, or filesystem:variant")
    p.add_argument("b", metavar="B", help="side B")
    p.add_argument("--profile", default="quick", help="the profile whose sizes and planned rounds are used (default: quick)")
    p.add_argument("--matrix", help="a matrix file of your own instead of the standard one")
    p.add_argument("--workload", action="append", metavar="W", help="only these workloads (default: all both sides have)")
    p.add_argument("--change", type=float, default=measure.DEFAULT_CHANGE_PCT, metavar="PCT",
                   help=f"the change every headline comparison must be able to detect (default: {measure.DEFAULT_CHANGE_PCT:g} %%)")
    p.add_argument("--max-rounds", type=int, default=measure.DEFAULT_MAX_ROUNDS, metavar="N",
                   help=f"the round cap (default: {measure.DEFAULT_MAX_ROUNDS})")
    p.add_argument("--scratch", default=None, help="folder for the loop images (default: .scratch)")
    p.add_argument("--machine", help="a label for this machine (default: a short salted hash, never the hostname)")
    p.add_argument("--out", default="data", help="output folder holding results/ and raw/ (default: data)")
    write = p.add_mutually_exclusive_group()
    write.add_argument("--report", metavar="FILE", help="write the report here (.md or .html)")
    write.add_argument("--article", metavar="TITLE", help="write content/articles/<slug>.md pinned to the run")
    p.add_argument("--content", default="content", help="with --article: the site's content folder (default: content)")
    p.add_argument("--data", default="data", help="with --report: the curated data, for the feature differences")
    p.add_argument("--no-chart", action="store_true", help="with --report: leave the chart out (it needs node)")
    p.set_defaults(func=run)


def run(args) -> int:
    if os.geteuid() != 0:
        raise UserError("loop devices, mkfs and mount need root: run as root (sudo)")
    if not args.change > 0:
        raise UserError("the change to detect must be above 0", field="--change", expected="a percentage above 0",
                        found=str(args.change))
    matrix = matrix_mod.load(args.matrix)
    for option, spec in (("A", args.a), ("B", args.b)):  # named as given, not as the --fs/--variant of run
        name, variant = shares.configuration(spec)
        if name not in matrix.filesystems:
            raise UserError("unknown filesystem", field=option, found=repr(spec),
                            expected="one of " + ", ".join(sorted(matrix.filesystems)))
        if variant != "defaults" and name not in matrix.variants.get(variant, {}).get("filesystems", [name]):
            raise UserError(f"variant {variant!r} of {option} does not apply to {name}", field=option, found=repr(spec))
        if variant != "defaults" and variant not in matrix.variants:
            raise UserError("unknown variant", field=option, found=repr(spec),
                            expected="filesystem:variant with one of " + ", ".join(sorted(matrix.variants)))
    fs, variants = (list(dict.fromkeys(part)) for part in zip(*map(shares.configuration, (args.a, args.b))))
    wanted = list_option(args.workload)
    profile = matrix.profile(args.profile, fs, wanted, variants)
    pairs = measure.sides(profile, args.a, args.b)
    covered = {a.workload for a, _ in pairs}
    left = [w for w in wanted if w not in covered]
    if left:  # a workload one side's variant does not run is named, not dropped
        raise UserError(f"{args.a} and {args.b} do not both run {', '.join(left)}", field="--workload",
                        expected="one of " + ", ".join(sorted(covered)), found=", ".join(left))
    profile = profile.subset(c for pair in pairs for c in pair)
    out, scratch = outfile.named(args.out), fio.folder(args.scratch or ".scratch", "--scratch")
    checked = plan.build_plan(matrix, profile, scratch)
    plan.check_scratch(checked)
    with leftovers.ScratchLock(scratch):
        for line in leftovers.clean(scratch):
            print(f"cleanup of an earlier run that died: {line}", file=sys.stderr)
        path, result, pairs = measure.run_pair(matrix, profile, out, scratch, args.a, args.b, args.change,
                                               args.max_rounds, args.machine)
    for pair in pairs:
        shown = ", ".join(f"{name} {_not_testable(pair, name) if d is None else f'{d:.1f} %'}"
                          for name, d in pair["metrics"].items())
        state = "reached" if pair["reached"] else "NOT reached (cap or not testable)"
        print(f"{pair['workload']}: {pair['rounds']} rounds, smallest detectable change {shown or pair.get('why', '')}: "
              f"{args.change:g} % {state}", file=sys.stderr)
    print(path)
    missed = [f"{p['workload']}: the smallest detectable change did not reach {args.change:g} % (not reached: "
              f"{_why_missed(p)}); its comparisons may miss a change of that size" for p in pairs if not p["reached"]]
    sides = [f"--a={args.a}", f"--b={args.b}", *(f"--note={m}" for m in missed)]  # '=': a value may start with -
    if args.report:
        return through(report, "report", [path, *sides, f"--out={args.report}", f"--data={args.data}",
                                          *(["--no-chart"] if args.no_chart else [])])
    if args.article:
        return through(article, "article", ["new", f"--content={args.content}", *sides, *(["--draft"] if missed else []),
                                            "--", args.article, path])
    return 0


def _why_missed(pair: dict) -> str:
    """Why a pair did not reach the change: the cap, or its rows' own reasons in the report's words
    (comparison.describe: "not testable: n = 1 on one side: ...")."""
    if any(v is not None for v in pair["metrics"].values()):
        return f"round cap, {pair['rounds']} rounds"
    if pair["metrics"]:
        return "; ".join(dict.fromkeys(_not_testable(pair, name) for name in pair["metrics"]))
    return pair.get("why") or "not run"


def _not_testable(pair: dict, name: str) -> str:
    return pair.get("whys", {}).get(name) or "not testable"


def through(module, name: str, argv: list) -> int:
    """Runs another command as its own command line would: its arguments parsed by its own
    parser, so every option it has (and gains) takes its default."""
    parser = argparse.ArgumentParser(prog="fsatlas")
    module.add_parser(parser.add_subparsers(dest="command"))
    return module.run(parser.parse_args([name, *argv]))
