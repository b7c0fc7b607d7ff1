"""fsatlas cleanup: removes what a run that died (SIGKILL, power loss) left behind.

Only folders a run marked as its own (owner.json) and whose process is gone are touched:
their mounts, the loop devices of their images, processes still inside them, the folders.
"""
import os
import sys

from ..run import leftovers
from ..errors import UserError


def add_parser(sub):
    p = sub.add_parser("cleanup", help="remove the mounts, loop devices and images of runs that died")
    p.add_argument("--scratch", default=".scratch", help="the runs' scratch directory (default: .scratch)")
    p.add_argument("--directory", metavar="DIR", action="append", default=[],
                   help="also a folder measured with run --directory (repeatable)")
    p.set_defaults(func=run)


def run(args) -> int:
    if os.geteuid() != 0 and not args.directory:
        raise UserError("unmounting and detaching loop devices need root: run as root (sudo)")
    done = []
    scratch = os.path.abspath(args.scratch)
    if os.path.isdir(scratch):
        with leftovers.ScratchLock(scratch):  # refuses while a live run uses it
            done += leftovers.clean(scratch)
    for folder in args.directory:
        if not os.path.isdir(folder):
            raise UserError("not a directory", where=folder, field="--directory")
        done += leftovers.clean(os.path.abspath(folder))
    for line in done:
        print(line)
    print(f"cleanup: {sum(l.startswith('removed') for l in done)} leftover folder(s) removed", file=sys.stderr)
    return 0
