"""fsatlas validate: checks result files (or folders of them), one line per problem."""
import sys

from .. import memory
from ..results import resultfile, stats, validation
from ..errors import UserError, one_line


def add_parser(sub):
    p = sub.add_parser("validate", help="check result files against the schema and the rules beyond it")
    p.add_argument("paths", nargs="+", metavar="PATH", help="result files or folders of them")
    p.add_argument("--no-cache", action="store_true",
                   help=f"check every file again, ignoring earlier outcomes kept in {validation.CACHE_FILE}")
    p.add_argument("--allow-private", action="store_true",
                   help="report what looks private (host, user and e-mail names, serials, addresses) as warnings, "
                        f"not errors: for a maintainer who checked it (or list it in data/{validation.REVIEWED_FILE})")
    p.add_argument("--max-bytes", type=int, default=resultfile.MAX_FILE_BYTES, metavar="N",
                   help=f"refuse a result file larger than N bytes before reading it (default {resultfile.MAX_FILE_BYTES})")
    p.set_defaults(func=run)


PER_FILE = 20  # problems listed per file: a broken file of 5,000 cells would otherwise print 5,000 lines


def run(args) -> int:
    with memory.limited(stats.PRELOAD):
        return _run(args)


def _run(args) -> int:
    files, problems = validation.check_paths(
        args.paths, None if args.no_cache else validation.CACHE_FILE, args.allow_private,
        max_bytes=None if args.max_bytes == resultfile.MAX_FILE_BYTES else args.max_bytes)
    if not files and not problems:
        raise UserError("no result files (*.json) found", where=", ".join(args.paths))
    shown = {}
    for problem in problems:
        shown[problem.file] = shown.get(problem.file, 0) + 1
        if shown[problem.file] <= PER_FILE:
            print(problem, file=sys.stderr if problem.severity == "error" else sys.stdout)
    for file, count in shown.items():
        if count > PER_FILE:
            print(f"{one_line(file)}: … and {count - PER_FILE} more problems", file=sys.stderr)
    errors = sum(p.severity == "error" for p in problems)
    warnings = len(problems) - errors
    # A clean check says so in words: "0 warnings" in every `make` reads, to a reader or a
    # script searching the output for "warning", as if something were wrong.
    said = ", ".join(f"{n} {word}{'' if n == 1 else 's'}" for n, word in ((errors, "error"), (warnings, "warning")) if n)
    print(f"{len(files)} file{'' if len(files) == 1 else 's'} checked: {said or 'no problems'}")
    return 1 if errors else 0
