"""The fsatlas command line: one entry point, one module per subcommand.

Exit status: 0 success, 1 a problem reported to the user, 2 wrong usage, 130 interrupted.
"""
import argparse
import os
import sys

from . import SCHEMA_VERSION, __version__, memory
from .run import interrupts, system
from .run.tools import find_pinned_programs
from .commands import (aggregate, article, check_data, cleanup, compare, export, import_, measure, migrate, plan,
                       probe, report, run, site, validate)
from .errors import UserError

COMMANDS = {"plan": plan, "run": run, "validate": validate, "aggregate": aggregate, "compare": compare,
            "check-data": check_data, "import": import_, "cleanup": cleanup, "site": site,
            "migrate": migrate, "probe": probe, "export": export, "report": report, "article": article,
            "measure": measure}


def version_text() -> str:
    fio = system.tool_version(["fio", "--version"]) or "fio not found"
    return f"fsatlas {__version__} (result schema {SCHEMA_VERSION}, {fio})"


class _Version(argparse.Action):
    """--version, asking fio for its version only when asked (not on every command)."""

    def __call__(self, parser, namespace, values, option_string=None):
        print(version_text())
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fsatlas", description="Filesystem benchmark matrix runner.")
    parser.add_argument("--version", action=_Version, nargs=0, help="show the runner, schema and fio versions")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, module in COMMANDS.items():
        module.add_parser(sub)
    return parser


def main(argv=None) -> int:
    for stream in (sys.stdout, sys.stderr):  # a lone surrogate quoted in a message prints as \udc80, not a traceback
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        return int(e.code or 0)
    interrupts.install()
    find_pinned_programs()  # before any command looks for mkfs.hfsplus
    try:
        return args.func(args) or 0
    except UserError as e:
        print(f"fsatlas {args.command}: {e}", file=sys.stderr)
        return 1
    except MemoryError:  # past the limit validate and import set themselves (memory.limited)
        print(f"fsatlas {args.command}: {memory.TOO_MUCH}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # any command's output read by `| head`, which stopped reading: as outfile's one line
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # and no second error at exit's flush
        print(f"fsatlas {args.command}: -: standard output was closed before everything was written", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("fsatlas: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
