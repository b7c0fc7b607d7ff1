"""fsatlas report: a publishable comparison of two runs, or of two filesystems or variants of
one run, as one self-contained Markdown or HTML file (site/report.py)."""
import sys

from .. import outfile
from ..results import comparison, shares
from ..site import report
from .compare import compared, counted_once


def add_parser(sub):
    p = sub.add_parser("report", help="a publishable comparison of two result files, or of two sides of one",
                       description="fsatlas report A.json B.json, or fsatlas report --runs-a A1.json A2.json --runs-b "
                                   "B1.json B2.json (several runs a side: tested on the runs' means; one run a side "
                                   "gives ratios, not tested), or fsatlas report A.json --a ext4 --b xfs "
                                   "(a side is a filesystem, or filesystem:variant)")
    p.add_argument("files", nargs="*", metavar="RESULT", help="one result file (with --a and --b) or two")
    p.add_argument("--runs-a", nargs="+", metavar="RESULT", help="several runs of side A (with --runs-b)")
    p.add_argument("--runs-b", nargs="+", metavar="RESULT", help="several runs of side B")
    p.add_argument("--a", metavar="SIDE", help="within one result: side A, a filesystem or filesystem:variant")
    p.add_argument("--b", metavar="SIDE", help="within one result: side B")
    p.add_argument("--format", choices=("md", "html"), default=None, help="default: from --out's suffix, else md")
    p.add_argument("--out", help="the file to write (default, or -: standard output)")
    p.add_argument("--all-metrics", action="store_true", help="every metric, not only the headline ones")
    p.add_argument("--data", default="data", help="the curated data, for the feature differences (default: data)")
    p.add_argument("--no-chart", action="store_true", help="leave the chart out (it needs node)")
    p.add_argument("--note", action="append", default=[], metavar="TEXT",
                   help="a sentence printed under the header (fsatlas measure: a change not reached)")
    p.set_defaults(func=run)


def run(args) -> int:
    a, b, rows = compared(args.files, args.runs_a, args.runs_b, args.a, args.b, args.all_metrics,
                          "expected two result files, --runs-a and --runs-b with several each, or one file with --a "
                          "and --b")
    if args.a:  # two sides of one result
        sides = (f"{args.a} in {a[0]['id']}", f"{args.b} in {a[0]['id']}")
        features = report.feature_differences(shares.configuration(args.a)[0], shares.configuration(args.b)[0],
                                              args.data)
    else:  # a run named twice counts once, and says so (compare's header)
        sides = tuple(" + ".join(dict.fromkeys(r["id"] for r in runs)) for runs in (a, b))
        features = []
    doc = report.build(a, b, rows, sides, features, (args.a, args.b) if args.a else ())
    doc["notes"] = ([] if args.a else counted_once(comparison.once(a)[1] + comparison.once(b)[1])) + args.note
    fmt = args.format or ("html" if (args.out or "").endswith((".html", ".htm")) else "md")
    svg = "" if args.no_chart else report.ratio_chart(doc["rows"], f"{sides[1]} / {sides[0]}")
    text = report.html_page(doc, svg) if fmt == "html" else report.markdown(doc, svg)
    out = args.out if args.out is not None else outfile.STDOUT  # "" is refused, not standard output
    with outfile.replacing(out) as f:
        f.write(text)
    if out != outfile.STDOUT:
        print(f"wrote {out}: {len(doc['rows'])} comparisons", file=sys.stderr)
    return 0
