"""fsatlas article new: a Hugo article pinned to two runs (site/articles.py), ready to edit."""
import os
import re
import sys

from .. import outfile
from ..errors import UserError
from ..results import comparison, shares
from ..site import articles
from .compare import compared, validated


def add_parser(sub):
    p = sub.add_parser("article", help="write a new article pinned to the runs it compares")
    verbs = p.add_subparsers(dest="verb", metavar="VERB", required=True)
    new = verbs.add_parser("new", help="fsatlas article new TITLE A.json B.json, TITLE --runs-a A1.json A2.json "
                                       "--runs-b B1.json B2.json, or TITLE R.json --a ext4 --b xfs",
                           description="Writes content/articles/<slug>.md: front matter naming the runs and the "
                                       "comparison, the comparison's table and each run's chart as shortcodes. "
                                       "Across result files the run is the unit: a verdict needs at least two runs "
                                       "on each side (--runs-a, --runs-b), as fsatlas compare decides.")
    new.add_argument("title")
    new.add_argument("files", nargs="*", metavar="RESULT", help="two result files, or one with --a and --b")
    new.add_argument("--a", metavar="SIDE", help="within one result: a filesystem or filesystem:variant")
    new.add_argument("--b", metavar="SIDE")
    new.add_argument("--runs-a", nargs="+", metavar="RESULT", help="several runs of side A (with --runs-b)")
    new.add_argument("--runs-b", nargs="+", metavar="RESULT", help="several runs of side B")
    new.add_argument("--content", default="content", help="the site's content folder (default: content)")
    new.add_argument("--note", action="append", default=[], metavar="TEXT",
                     help="a sentence the article opens with (fsatlas measure: a change not reached)")
    new.add_argument("--draft", action="store_true", help="write the article as a draft (Hugo does not publish it)")
    p.set_defaults(func=run)


# A side as the comparison's key and the article's shortcode hold it: a filesystem name, and a
# variant's, as the result schema allows them (no quote, brace or space can reach the shortcode),
# in every spelling shares.configuration reads ("ext4:" is ext4, as compare and measure take it).
SIDE = re.compile(r"^[a-z0-9][a-z0-9_+.-]{0,63}(?::(?:[a-z0-9][a-z0-9_+.-]{0,99})?)?$")


def _check_side(result: dict, option: str, spec: str) -> None:
    """spec must name a filesystem (or filesystem:variant) the result measured."""
    if not SIDE.match(spec):
        raise UserError("a filesystem, or filesystem:variant, of lower-case letters, digits and _+.-",
                        field=option, found=repr(spec[:80]))
    of_import = shares.imported(result)
    sides = {(c["filesystem"], c.get("variant", "defaults")) for c in result["cells"] if c["status"] == "ok"}
    if shares.configuration(spec, of_import) not in sides:
        known = ", ".join(sorted(shares.spelled(side, of_import) for side in sides)[:20])
        raise UserError(f"no measured cell of {spec} in {result['id']}", field=option, expected=f"one of {known}")


def run(args) -> int:
    if not args.title.strip() or not args.content:  # "" as a folder would be the current one, unasked
        raise UserError("expected a non-empty text", field="TITLE" if args.content else "--content",
                        found=repr(args.title[:80] if args.content else args.content))
    usage = "expected two result files, one with --a and --b, or --runs-a and --runs-b"
    several = bool(args.runs_a or args.runs_b)
    if several and (args.files or args.a or args.b or not (args.runs_a and args.runs_b)) or not several and not (
            len(args.files) == 2 and not (args.a or args.b) or len(args.files) == 1 and args.a and args.b):
        raise UserError(usage)
    docs = validated(args.runs_a + args.runs_b if several else args.files)
    if several:  # each run once on its side, as compare counts it (comparison.between refuses one on both)
        ids = [d["id"] for d in docs]
        entry = {side: list(dict.fromkeys(ids[:len(args.runs_a)] if side == "a" else ids[len(args.runs_a):]))
                 for side in ("a", "b")}
        docs = list({d["id"]: d for d in docs}.values())
    elif len(docs) == 2:
        entry = {"a": docs[0]["id"], "b": docs[1]["id"]}
    else:
        for option, spec in (("--a", args.a), ("--b", args.b)):
            _check_side(docs[0], option, spec)
        of_import = shares.imported(docs[0])
        a, b = shares.two_configurations(args.a, args.b, of_import)  # the article names each by its shortest spelling
        entry = {"result": docs[0]["id"], "a": shares.spelled(a, of_import), "b": shares.spelled(b, of_import)}
    # the rows the article will show, as `fsatlas compare` makes them: a run against itself (the
    # same file, its id, or its content under another id) is refused in compare's own line
    rows = compared(args.files, args.runs_a, args.runs_b, args.a, args.b, False, usage)[2]
    untested = "" if any(r["status"] == "tested" for r in rows) else comparison.tests_used(rows)
    path = os.path.join(args.content, "articles", f"{articles.slug(args.title)}.md")
    if os.path.lexists(path):
        raise UserError("an article of that name exists; choose another title or edit it", where=path)
    text = articles.scaffold(args.title, entry, [d["id"] for d in docs], args.note, args.draft, untested)
    with outfile.replacing(path) as f:
        f.write(text)
    print(f"wrote {path}: pinned to {', '.join(d['id'] for d in docs)}; "
          f"their result files must be in data/results when the site is built", file=sys.stderr)
    return 0
