"""fsatlas compare A B: per-cell ratios of two result files, and whether each differs significantly.

Like `asv compare`: a ratio B/A of the means per cell and metric with its 95 % interval, and
the test of results.comparison (the one the site's claims and rankings use): Welch's t-test on
the metric's scale, its p adjusted by Benjamini-Hochberg across the whole table, equivalence
within +-5 % by two one-sided tests, and "not testable" where a side has one repetition.
"""
import sys

from ..results import comparison, resultfile
from ..errors import UserError


def add_parser(sub):
    p = sub.add_parser("compare", help="per-cell ratios of two result files (or two sides of one), with corrected significance",
                       description="fsatlas compare A.json B.json, or fsatlas compare R.json --a ext4 --b xfs")
    p.add_argument("a", metavar="A", help="the reference result file")
    p.add_argument("b", metavar="B", nargs="?", help="the result file compared with it (or --a and --b)")
    p.add_argument("--a", dest="side_a", metavar="SIDE", help="within one result: side A, a filesystem or filesystem:variant")
    p.add_argument("--b", dest="side_b", metavar="SIDE", help="within one result: side B")
    p.add_argument("--all-metrics", action="store_true", help="every metric, not only the headline ones")
    p.add_argument("--only-significant", action="store_true", help="hide differences within the noise")
    p.set_defaults(func=run)


def load_checked(path):
    data = resultfile.load_json(path)
    resultfile.check(data, path)
    return data


def run(args) -> int:
    if args.b and not (args.side_a or args.side_b):
        a, b = load_checked(args.a), load_checked(args.b)
        rows = comparison.between(a, b, args.all_metrics)
    elif not args.b and args.side_a and args.side_b:
        from ..site import report  # the same pairing of cells as `fsatlas report R --a X --b Y`
        rows = report.within(load_checked(args.a), args.side_a, args.side_b, args.all_metrics)
    else:
        raise UserError("expected two result files, or one with --a and --b", where="fsatlas compare")
    if not rows:
        raise UserError("the two result files share no measured cell", where=", ".join(filter(None, (args.a, args.b))))
    width = max(len(r["key"]) for r in rows)
    print(f"{'cell':<{width}}  {'metric':<16} {'A':>11} {'B':>11} {'n':>5}  {'B/A':>6} {'95 % interval':>15}  "
          f"{'p':>7} {'p adj':>7}  verdict")
    for r in rows:
        if args.only_significant and not r["significant"]:
            continue
        ratio = f"{r['ratio']:.3f}" if r["ratio"] is not None else "-"
        interval = f"{r['ratio_ci95'][0]:.3f}-{r['ratio_ci95'][1]:.3f}" if r["ratio_ci95"] else "-"
        p = f"{r['p']:7.2g} {r['p_adjusted']:7.2g}" if r["status"] == "tested" else f"{'-':>7} {'-':>7}"
        verdict = r["verdict"] if r["status"] == "tested" else f"not testable ({r['why']})"
        print(f"{r['key']:<{width}}  {r['metric']:<16} {r['mean_a']:>11.4g} {r['mean_b']:>11.4g} "
              f"{r['n_a']:>2}/{r['n_b']:<2}  {ratio:>6} {interval:>15}  {p}  {verdict}")
    count = {v: sum(r["verdict"] == v for r in rows) for v in ("better", "worse", "equivalent", "inconclusive", "not testable")}
    print(f"{len(rows)} comparisons (Welch's t-test on each metric's scale, p adjusted by Benjamini-Hochberg "
          f"across the table, alpha {comparison.ALPHA:g}): {count['better']} significantly better, "
          f"{count['worse']} significantly worse in B; {count['equivalent']} equivalent within "
          f"+-{comparison.EQUIVALENCE_MARGIN_PCT:g} %, {count['inconclusive']} inconclusive, "
          f"{count['not testable']} not testable", file=sys.stderr)
    return 0
