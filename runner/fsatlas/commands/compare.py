"""fsatlas compare A B: per-cell ratios of two result files, and whether each differs significantly.

Like `asv compare`: a ratio B/A of the means per cell and metric; the difference counts as
significant when Welch's t-test on the two cells' samples gives p below results.stats.ALPHA
(the claims on the site use the same test).
"""
import sys

from ..results import resultfile, stats
from ..errors import UserError

HEADLINE = ("throughput", "create_per_s", "stat_per_s", "read_per_s", "rename_per_s", "delete_per_s",
            "seconds", "bytes_used", "iops")


def add_parser(sub):
    p = sub.add_parser("compare", help="per-cell ratios of two result files, with significance")
    p.add_argument("a", metavar="A", help="the reference result file")
    p.add_argument("b", metavar="B", help="the result file compared with it")
    p.add_argument("--all-metrics", action="store_true", help="every metric, not only the headline ones")
    p.add_argument("--only-significant", action="store_true", help="hide differences within the noise")
    p.set_defaults(func=run)


def load_checked(path):
    data = resultfile.load_json(path)
    resultfile.check(data, path)
    return data


def comparisons(a: dict, b: dict, all_metrics=False) -> list[dict]:
    cells_b = {c["key"]: c for c in b["cells"]}
    rows = []
    for cell in a["cells"]:
        other = cells_b.get(cell["key"])
        if not other:
            continue
        for name, ma in cell["metrics"].items():
            mb = other["metrics"].get(name)
            if not mb or (not all_metrics and name not in HEADLINE):
                continue
            ratio = mb["mean"] / ma["mean"] if ma["mean"] else None
            test = stats.welch(ma["mean"], ma["stddev"], len(ma["samples"]), mb["mean"], mb["stddev"], len(mb["samples"]))
            if ratio is None or not test["significant"]:
                verdict = "same"
            else:
                better = (ratio > 1) == (ma["better"] == "higher")
                verdict = "better" if better else "worse"
            rows.append({"key": cell["key"], "metric": name, "a": ma["mean"], "b": mb["mean"], "unit": ma["unit"],
                         "ratio": ratio, "significant": test["significant"], "p": test["p"], "verdict": verdict})
    return rows


def run(args) -> int:
    a, b = load_checked(args.a), load_checked(args.b)
    rows = comparisons(a, b, args.all_metrics)
    if not rows:
        raise UserError("the two result files share no measured cell", where=f"{args.a}, {args.b}")
    width = max(len(r["key"]) for r in rows)
    print(f"{'cell':<{width}}  {'metric':<14} {'A':>12} {'B':>12}  {'B/A':>6}  {'p':>7}  verdict")
    for r in rows:
        if args.only_significant and not r["significant"]:
            continue
        ratio = f"{r['ratio']:.3f}" if r["ratio"] is not None else "-"
        print(f"{r['key']:<{width}}  {r['metric']:<14} {r['a']:>12.4g} {r['b']:>12.4g}  {ratio:>6}  {r['p']:>7.2g}  "
              f"{r['verdict']}{'' if r['significant'] else ' (not significant: Welch)'}")
    worse = sum(r["verdict"] == "worse" for r in rows)
    better = sum(r["verdict"] == "better" for r in rows)
    print(f"{len(rows)} comparisons: {better} significantly better, {worse} significantly worse in B", file=sys.stderr)
    return 0
