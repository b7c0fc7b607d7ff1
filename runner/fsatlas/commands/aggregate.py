"""fsatlas aggregate: derives data/aggregates/ and the generated pages from data/."""
from .. import memory
from ..site import aggregate as aggregate_mod


def add_parser(sub):
    p = sub.add_parser("aggregate", help="derive the site's data and generated pages from data/")
    p.add_argument("--data", default="data", help="data folder holding results/, features/, ... (default: data)")
    p.add_argument("--content", default="build/content",
                   help="folder for the generated pages (default: build/content, mounted into Hugo's content)")
    p.add_argument("--articles", default="content/articles",
                   help="the articles whose front matter names comparisons to compute (default: content/articles)")
    p.set_defaults(func=run)


def run(args) -> int:
    with memory.collector_off():  # what it holds has no cycles: the collector only walked it
        summary = aggregate_mod.aggregate(args.data, args.content, articles_dir=args.articles)
    print(f"aggregated {summary['results']} result files, {summary['derived']} of them new or changed "
          f"(latest: {summary['latest']})")
    return 0
