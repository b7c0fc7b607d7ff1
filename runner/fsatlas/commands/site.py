"""fsatlas site: builds the Hugo site from the generated pages, rendering again only what changed."""
import argparse

from .. import memory
from ..site import build as site


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, found {text!r}")
    return value


def add_parser(sub):
    p = sub.add_parser("site", help="build the site with Hugo, rendering only the result pages that changed")
    p.add_argument("--root", default=".", help="the site's folder: config.toml, content/, build/ (default: .)")
    p.add_argument("--destination", default="public", help="the built site, relative to --root (default: public)")
    p.add_argument("--base-url", metavar="URL", help="the address the site is published at (Hugo's baseURL)")
    p.add_argument("--batch", type=_positive, default=site.BATCH,
                   help=f"result pages per Hugo run; bounds Hugo's memory (default: {site.BATCH})")
    p.set_defaults(func=run)


def run(args) -> int:
    with memory.collector_off():  # the mirror's listings and manifest hold no cycles: the collector only walked them
        built = site.Site(args.root, args.base_url).build(args.destination, args.batch)
    print(f"built {args.destination}: {built['rendered']} of {built['pages']} result pages rendered"
          + (f" ({built['refilled']} more given a new sentence on the other runs)" if built["refilled"] else "")
          + f", {built['copied']} files copied, {built['removed']} removed")
    return 0
