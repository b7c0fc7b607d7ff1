"""fsatlas compare A B: per-cell ratios of two result files, and whether each differs significantly.

Like `asv compare`: a ratio B/A per cell and metric (of the geometric means where the test is on
logarithms: comparison.compare), and the test of
results.comparison (the one the site's claims and rankings use). Across result files the run
is the unit (comparison.design): with one run a side, each row gives the ratio and "not tested:
one run per side"; with several runs a side (`--runs-a A1 A2 --runs-b B1 B2`, as `fsatlas report` takes them; `R --a ext4 --b xfs` compares two sides of one result), Welch's t-test on the
runs' means, on the metric's scale, its p adjusted by Benjamini-Hochberg across the table,
equivalence within +-EQUIVALENCE_MARGIN_PCT by two one-sided tests, and the smallest change
the runs could detect. The header names what besides the filesystems differs between the two
sides or varies within one (comparison.FACTORS): a difference it could explain is "differs",
never "better", "worse" or "equivalent"; a cell whose parameters differ is not tested. A run
counts once; a run on both sides is refused (comparison.between).

What may be counted and compared (#60 round 15), each decided once in results/comparison:
- every file is one `fsatlas validate` accepts, checked by validate's own check with its raw
  bundle (every figure recomputed from the tools' output, the clocks against their timestamps;
  its outcome cached as validate caches it): one it refuses is refused with validate's line
  (validation.validated; #60: a run split into two files, or jittered copies of it, were
  counted as several runs when only their structure was checked);
- a file named twice counts once, and says so; two files with one id that differ in anything
  (on one side or across the sides), or two files holding one cell's samples (a run and a copy
  of it under a new id, its samples reordered, repetitions appended or removed, metrics or cells
  dropped), are refused in one line naming both files: one run is never two (_once, one_id);
- a row whose metric's unit or direction (better) is not the same in every file of both sides
  is "not tested: units differ" / "directions differ" (agreement);
- across files, a side with no host records has unknown contention: not tested, saying so, as
  an unrecorded factor is not the same as any (contention_unknown); the thresholds stay those
  of results/contention;
- an import's repetitions never get the paired test, whatever `started` its cells carry: its
  origin decides, known by any of its marks (shares.imported; design);
- a configuration has one spelling (results/shares.configuration): ext4, ext4: and
  ext4:defaults are one, and `R --a ext4 --b ext4:defaults` is refused as measure refuses it.
"""
import argparse
import sys

from ..results import comparison, flags, resultfile, validation
from ..errors import UserError

USAGE = ("fsatlas compare A.json B.json (one run a side: ratios, not tested), "
         "fsatlas compare --runs-a A1.json A2.json ... --runs-b B1.json B2.json ... (several runs a side: tested on "
         "run means), or fsatlas compare R.json --a ext4 --b xfs (two sides of one run)")


def add_parser(sub):
    p = sub.add_parser("compare", help="per-cell ratios of two result files (or sets of runs, or two sides of one), "
                                       "with corrected significance",
                       description=USAGE + ". Repetitions inside one run share its conditions, so a verdict across "
                                           "result files needs at least two runs on each side; the header says which of "
                                           + comparison.FACTOR_NAMES + " differ between the sides.",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("files", nargs="*", metavar="RESULT", help="two result files: A (the reference) and B; or one with --a and --b")
    p.add_argument("--runs-a", nargs="+", metavar="RESULT", help="several runs of side A (the reference)")
    p.add_argument("--runs-b", nargs="+", metavar="RESULT", help="several runs of side B")
    p.add_argument("--a", dest="side_a", metavar="SIDE", help="within one result: side A, a filesystem or filesystem:variant")
    p.add_argument("--b", dest="side_b", metavar="SIDE", help="within one result: side B")
    p.add_argument("--all-metrics", action="store_true", help="every metric, not only the headline ones")
    p.add_argument("--only-significant", action="store_true", help="hide differences within the noise")
    p.set_defaults(func=run)


validated = validation.validated  # what compare, report and article new read


def compared(files: list, runs_a, runs_b, side_a, side_b, all_metrics: bool, usage: str) -> tuple[list, list, list]:
    """(the runs of side A, those of side B, the comparison rows) of `A B`, of `--runs-a ...
    --runs-b ...`, or of `R --a X --b Y` (two sides of one result: site/report.within), as
    compare and report take them; usage: the UserError's text for any other combination."""
    if side_a or side_b:
        if len(files) != 1 or not (side_a and side_b) or runs_a or runs_b:
            raise UserError(usage)
        from ..site import report  # the same pairing of cells as `fsatlas report R --a X --b Y`
        result, = validated(files)
        rows = report.within(result, side_a, side_b, all_metrics)
        report.mark_flags(rows, [result], [result], (side_a, side_b))
        return [result], [result], rows
    if len(files) == 2 and not (runs_a or runs_b):
        paths_a, paths_b = [files[0]], [files[1]]
    elif runs_a and runs_b and not files:
        paths_a, paths_b = runs_a, runs_b
    else:
        raise UserError(usage)
    docs = validated(paths_a + paths_b)
    a, b = docs[:len(paths_a)], docs[len(paths_a):]
    rows = comparison.between(a, b, all_metrics, (paths_a, paths_b))
    if not rows:
        raise UserError("the two sides share no measured cell", where=", ".join(paths_a + paths_b))
    from ..site import report  # each row's flags, as report shows them
    report.mark_flags(rows, a, b)
    return a, b, rows


def header(runs_a: list, runs_b: list, rows: list, sides: tuple = ()) -> list[str]:
    """Lines naming the runs of each side (each once) and which of comparison.FACTORS differ
    between them or vary within a side (mixed), and the design (comparison.runs_plan, over
    ROWS). sides: (A, B) of `R --a A --b B`, two sides of one run, whose cells' own tools (an
    import's outputs' versions: comparison.cell_factors) are the sides' tools."""
    plan, runs_a, runs_b, dropped = comparison.runs_plan(runs_a, runs_b, rows, within=bool(sides))
    fa, fb = [comparison.factors(r) for r in runs_a], [comparison.factors(r) for r in runs_b]
    if sides:
        from ..site import report
        fa, fb = ([{**fa[0], "tools": tool} for tool in report.side_tools(runs_a[0], spec)] or fa for spec in sides)
        tools = [set(f["tools"] for f in fs) for fs in (fa, fb)]
        if tools[0] != tools[1] or len(tools[0]) > 1 or len(tools[1]) > 1:
            plan = {**plan, "differ": [*plan["differ"], "tools"],
                    "mixed": [*plan["mixed"], *(["tools"] if len(tools[0]) > 1 or len(tools[1]) > 1 else [])]}
    lines = [f"A: {', '.join(r['id'] for r in runs_a)}", f"B: {', '.join(r['id'] for r in runs_b)}"]
    lines += counted_once(dropped)
    if plan["differ"]:
        lines.append(f"The sides differ in {', '.join(plan['differ'])}: a difference may be theirs, not the "
                     f"filesystems'; such rows say \"differs\", never better, worse or equivalent.")
        for k in plan["differ"]:
            lines.append(f"  {k}{' (mixed: it varies within a side)' if k in plan['mixed'] else ''}: "
                         f"A {' / '.join(dict.fromkeys(f[k] for f in fa))}; B {' / '.join(dict.fromkeys(f[k] for f in fb))}")
    else:
        lines.append(f"{comparison.FACTOR_NAMES[0].upper()}{comparison.FACTOR_NAMES[1:]} are the same on both sides.")
    lines.append("Design: " + {comparison.RUN_MEANS: f"{plan['runs_a']} and {plan['runs_b']} runs, "
                                                     + ("tested on the runs' means" if plan["tested"] else plan["why"])
                                                     + (f"; {plan['untested']}" if plan.get("untested") else ""),
                               comparison.ONE_RUN: plan["why"] + " (a verdict needs two runs or more on each side)"}
                 .get(plan["design"], "one run: its repetitions"))
    return lines


def counted_once(dropped: list) -> list[str]:
    """The sentences saying which runs counted once (comparison.once's [(id left out, id kept)]),
    as compare's header and report's notes print them."""
    return [f"{rid} counted once: " + ("named twice" if rid == twin else f"the same samples as {twin}")
            for rid, twin in dropped]


def run(args) -> int:
    from ..site import report  # each row's flags, as report shows them
    a, b, rows = compared(args.files, args.runs_a, args.runs_b, args.side_a, args.side_b, args.all_metrics,
                          f"expected {USAGE}")
    print("\n".join(header(a, b, rows, (args.side_a, args.side_b) if args.side_a else ())))
    width = max(len(r["key"]) for r in rows)
    print(f"{'cell':<{width}}  {'metric':<16} {'A':>11} {'B':>11} {'n':>5}  {'B/A':>6} {'95 % interval':>15}  "
          f"{'p':>7} {'p adj':>7} {'detect':>7} {'p equiv':>7}  verdict")
    for r in rows:
        if args.only_significant and not r["significant"]:
            continue
        ratio = f"{r['ratio']:.3f}" if r["ratio"] is not None else "-"
        interval = f"{r['ratio_ci95'][0]:.3f}-{r['ratio_ci95'][1]:.3f}" if r["ratio_ci95"] else "-"
        tested = r["status"] == "tested"
        p = f"{r['p']:7.2g} {r['p_adjusted']:7.2g}" if tested else f"{'-':>7} {'-':>7}"
        detect = f"{r['detectable_pct']:6.3g}%" if r["detectable_pct"] is not None else "-"
        p_eq = f"{r['p_equivalent_adjusted']:7.2g}" if tested else "-"
        others = [k for k in r["differ"] if k != "parameters"]  # differing parameters: the why names them already
        verdict = {"differs": f"differs ({comparison.they_differ(r['differ'])} too)"}.get(r["verdict"], r["verdict"]) \
            if tested else f"{r['status']} ({r['why']}{'; ' + comparison.they_differ(others) if others else ''})"
        marks = report.flags_text(r)
        print(f"{r['key']:<{width}}  {r['metric']:<16} {r['mean_a']:>11.4g} {r['mean_b']:>11.4g} "
              f"{r['n_a']:>2}/{r['n_b']:<2}  {ratio:>6} {interval:>15}  {p} {detect:>7} {p_eq:>7}  {verdict}"
              + (f"  [{marks}]" if marks else ""))
    count = {v: sum(r["verdict"] == v for r in rows)
             for v in ("better", "worse", "differs", "equivalent", "inconclusive", "not tested", "not testable")}
    how = comparison.tests_used(rows).rstrip(".")
    if any(r["status"] == "tested" for r in rows):
        how += (f", alpha {comparison.ALPHA:g}; detect: the smallest change the repetitions could detect at "
                f"{comparison.POWER:g} power; p equiv: two one-sided tests within "
                f"+-{comparison.EQUIVALENCE_MARGIN_PCT:g} %, adjusted")
    print(f"{len(rows)} comparisons ({how}): {count['better']} significantly better, "
          f"{count['worse']} significantly worse in B, {count['differs']} different where more than the filesystem "
          f"differs; {count['equivalent']} equivalent, {count['inconclusive']} inconclusive, "
          f"{count['not tested']} not tested, {count['not testable']} not testable", file=sys.stderr)
    shown = flags.legend(f for r in rows for side in r["flags"] for f in side)
    if shown:
        print(shown, file=sys.stderr)
    return 0
