"""fsatlas validate: checks result files (or folders of them), one line per problem."""
import os
import sys

from .. import validation
from ..errors import UserError


def add_parser(sub):
    p = sub.add_parser("validate", help="check result files against the schema and the rules beyond it")
    p.add_argument("paths", nargs="+", metavar="PATH", help="result files or folders of them")
    p.add_argument("--no-cache", action="store_true",
                   help=f"check every file again, ignoring earlier outcomes kept in {validation.CACHE_FILE}")
    p.set_defaults(func=run)


def result_files(paths) -> list:
    files = []
    for path in paths:
        if os.path.isdir(path):
            files += sorted(os.path.join(path, n) for n in os.listdir(path) if n.endswith(".json"))
        else:
            files.append(path)
    return files


def run(args) -> int:
    files = result_files(args.paths)
    if not files:
        raise UserError("no result files (*.json) found", where=", ".join(args.paths))
    problems = validation.validate_files(files, None if args.no_cache else validation.CACHE_FILE)
    problems += validation.duplicate_ids(files)
    for problem in problems:
        print(problem, file=sys.stderr if problem.severity == "error" else sys.stdout)
    errors = sum(p.severity == "error" for p in problems)
    print(f"{len(files)} files checked: {errors} errors, {len(problems) - errors} warnings")
    return 1 if errors else 0
