"""The fsatlas command line: one entry point, one module per subcommand.

Exit status: 0 success, 1 a problem reported to the user, 2 wrong usage, 130 interrupted.
"""
import argparse
import errno
import importlib
import os
import sys

from . import SCHEMA_VERSION, __version__, memory
from .run import interrupts, system
from .run.tools import find_pinned_programs
from .errors import UserError

# command -> its module in fsatlas.commands, imported only when its command is run (or for the
# whole help): importing every command took 0.2 s of each run, twice a rebuild (aggregate, site)
COMMANDS = {"plan": "plan", "run": "run", "validate": "validate", "aggregate": "aggregate", "compare": "compare",
            "check-data": "check_data", "import": "import_", "cleanup": "cleanup", "site": "site",
            "migrate": "migrate", "probe": "probe", "export": "export", "report": "report", "article": "article",
            "measure": "measure"}


def version_text() -> str:
    fio = system.tool_version(["fio", "--version"]) or "fio not found"
    return f"fsatlas {__version__} (result schema {SCHEMA_VERSION}, {fio})"


class _Version(argparse.Action):
    """--version, asking fio for its version only when asked (not on every command)."""

    def __call__(self, parser, namespace, values, option_string=None):
        print(version_text())
        parser.exit()


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of `command` alone (the one main() is asked to run)."""
    parser = argparse.ArgumentParser(prog="fsatlas", description="Filesystem benchmark matrix runner.")
    parser.add_argument("--version", action=_Version, nargs=0, help="show the runner, schema and fio versions")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in [command] if command in COMMANDS else COMMANDS:
        importlib.import_module(f".commands.{COMMANDS[name]}", __package__).add_parser(sub)
    return parser


def main(argv=None) -> int:
    for stream in (sys.stdout, sys.stderr):  # a lone surrogate quoted in a message prints as \udc80, not a traceback
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    words = sys.argv[1:] if argv is None else argv
    parser = build_parser(words[0] if words else None)
    stdout = sys.stdout
    # every write to standard output watched, --version's and --help's too; one closed (>&-:
    # Python's None, whose print() wrote nothing and exited 0) fails its first write (round 59)
    watched = sys.stdout = _Watched(stdout if stdout is not None else _Closed())
    command = words[0] if words and words[0] in COMMANDS else ""
    try:
        try:
            args = parser.parse_args(argv)
        except SystemExit as e:
            return int(e.code or 0)
        command = args.command
        interrupts.install()
        find_pinned_programs()  # before any command looks for mkfs.hfsplus
        return args.func(args) or 0
    except UserError as e:
        print(f"{_name(command)}: {e}", file=sys.stderr)
        return 1
    except MemoryError:  # past the limit validate and import set themselves (memory.limited)
        print(f"{_name(command)}: {memory.TOO_MUCH}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # any command's output read by `| head`, which stopped reading: as outfile's one line
        _silence(stdout)  # and no second error at exit's flush
        print(f"{_name(command)}: -: standard output was closed before everything was written", file=sys.stderr)
        return 1
    except OSError as e:
        if e is not watched.failed:
            raise
        # standard output on a full disk (> /dev/full) or closed: one line, as outfile says it of a file (round 58)
        _silence(stdout)
        print(f"{_name(command)}: -: cannot write standard output: {e.strerror}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("fsatlas: interrupted", file=sys.stderr)
        return 130
    finally:
        sys.stdout = stdout


def _name(command: str) -> str:
    return f"fsatlas {command}" if command else "fsatlas"


def _silence(stdout) -> None:
    """Standard output's descriptor pointed at /dev/null, so that the exit's flush of what it
    still buffers raises nothing more (none where it was closed)."""
    if stdout is not None:
        os.dup2(os.open(os.devnull, os.O_WRONLY), stdout.fileno())


class _Closed:
    """Standard output started closed (>&-): each write fails as a write to a closed descriptor."""
    closed_descriptor = True

    def write(self, text):
        raise OSError(errno.EBADF, "standard output is closed")

    def flush(self):
        pass

    def fileno(self):
        raise OSError(errno.EBADF, "standard output is closed")

    def isatty(self):
        return False


class _Watched:
    """Standard output, remembering the OSError a write or flush of it raised: a command's own
    print() failing is told from any other OSError."""
    def __init__(self, stream):
        self.stream, self.failed = stream, None

    def write(self, text):
        try:
            return self.stream.write(text)
        except OSError as e:
            self.failed = e
            raise

    def flush(self):
        try:
            return self.stream.flush()
        except OSError as e:
            self.failed = e
            raise

    def __getattr__(self, name):
        return getattr(self.stream, name)


if __name__ == "__main__":
    sys.exit(main())
