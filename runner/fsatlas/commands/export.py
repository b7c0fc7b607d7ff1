"""fsatlas export: every sample of every result file as one tidy table (results/export.py), to
Parquet, CSV or JSON Lines; the same table from Python is fsatlas.results.export.frame()."""
import os
import sys

from .. import outfile
from ..results import export


def add_parser(sub):
    p = sub.add_parser("export", help="every sample as one row, to Parquet, CSV or JSON Lines",
                       description="Columns: " + ", ".join(export.COLUMNS))
    p.add_argument("paths", nargs="*", metavar="PATH", default=["data/results"],
                   help="result files or folders of them (default: data/results)")
    p.add_argument("--format", choices=export.FORMATS, default=None,
                   help="the output's format (default: from --out's suffix, else parquet)")
    p.add_argument("--out", default=None, help="the file to write, - for standard output (default: fsatlas-samples.<format>)")
    p.add_argument("--where", action="append", default=[], metavar="COL=VAL",
                   help="keep rows whose column has one of these comma-separated values (COL!=VAL: none of "
                        "them); repeat to combine, e.g. --where filesystem=ext4,xfs --where metric=throughput")
    p.add_argument("--all", dest="all_cells", action="store_true",
                   help="also one row per failed or skipped cell, with its status and reason and no value "
                        "(default: only the samples of cells with status ok)")
    p.set_defaults(func=run)


def run(args) -> int:
    where = export.parse_where(args.where)
    fmt = args.format
    if fmt is None and args.out:
        fmt = next((f for f in export.FORMATS if args.out.lower().endswith("." + f)), None)  # x.CSV is CSV
    fmt = fmt or "parquet"
    out = args.out if args.out is not None else f"fsatlas-samples.{fmt}"  # "" is refused, not the default
    rows = export.write(args.paths, out, fmt, where, args.all_cells)
    shown = "standard output" if out == outfile.STDOUT else os.path.abspath(out)
    print(f"wrote {rows:,} {'rows' if args.all_cells else 'samples'} to {shown} ({fmt})", file=sys.stderr)
    return 0
