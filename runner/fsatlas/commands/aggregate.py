"""fsatlas aggregate: derives data/aggregates/ and the per-result pages from data/results/."""
from .. import aggregate as aggregate_mod


def add_parser(sub):
    p = sub.add_parser("aggregate", help="derive the site's data from the result files")
    p.add_argument("--data", default="data", help="data folder holding results/ (default: data)")
    p.add_argument("--pages", default="build/content/results",
                   help="folder for the generated result pages (default: build/content/results)")
    p.set_defaults(func=run)


def run(args) -> int:
    summary = aggregate_mod.aggregate(f"{args.data}/results", f"{args.data}/aggregates", args.pages)
    print(f"aggregated {summary['results']} result files (latest: {summary['latest']})")
    return 0
