"""fsatlas article new: a Hugo article pinned to two runs (site/articles.py), ready to edit."""
import os
import sys

from ..errors import UserError
from ..site import articles
from .compare import load_checked


def add_parser(sub):
    p = sub.add_parser("article", help="write a new article pinned to the runs it compares")
    verbs = p.add_subparsers(dest="verb", metavar="VERB", required=True)
    new = verbs.add_parser("new", help="fsatlas article new TITLE A.json B.json, or TITLE R.json --a ext4 --b xfs",
                           description="Writes content/articles/<slug>.md: front matter naming the runs and the "
                                       "comparison, the comparison's table and each run's chart as shortcodes.")
    new.add_argument("title")
    new.add_argument("files", nargs="+", metavar="RESULT", help="two result files, or one with --a and --b")
    new.add_argument("--a", metavar="SIDE", help="within one result: a filesystem or filesystem:variant")
    new.add_argument("--b", metavar="SIDE")
    new.add_argument("--content", default="content", help="the site's content folder (default: content)")
    p.set_defaults(func=run)


def run(args) -> int:
    docs = [load_checked(f) for f in args.files]
    if len(docs) == 2 and not (args.a or args.b):
        entry = {"a": docs[0]["id"], "b": docs[1]["id"]}
    elif len(docs) == 1 and args.a and args.b:
        entry = {"result": docs[0]["id"], "a": args.a, "b": args.b}
    else:
        raise UserError("expected two result files, or one with --a and --b")
    path = os.path.join(args.content, "articles", f"{articles.slug(args.title)}.md")
    if os.path.exists(path):
        raise UserError("an article of that name exists; choose another title or edit it", where=path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = f"{path}.fsatlas-tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(articles.scaffold(args.title, entry, [d["id"] for d in docs]))
    os.replace(tmp, path)
    print(f"wrote {path}: pinned to {', '.join(d['id'] for d in docs)}; "
          f"their result files must be in data/results when the site is built", file=sys.stderr)
    return 0
