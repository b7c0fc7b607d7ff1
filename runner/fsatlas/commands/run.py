"""fsatlas run: runs the matrix on loop images and writes DIR/results/<id>.json and DIR/raw/<id>/."""
import os
import sys

from .. import execution
from ..errors import UserError
from . import plan


def add_parser(sub):
    p = sub.add_parser("run", help="run the matrix and write a result file")
    plan.add_selection_options(p)
    p.add_argument("--scratch", default=None,
                   help="directory for the loop images (default: OUT/../.scratch, i.e. beside the data)")
    p.add_argument("--machine", help="a label for this machine (default: a short salted hash, never the hostname)")
    p.add_argument("--out", default="data", help="output folder holding results/ and raw/ (default: data)")
    p.set_defaults(func=run)


def run(args) -> int:
    if os.geteuid() != 0:
        raise UserError("making loop devices, mkfs and mount need root: run as root (sudo)")
    matrix, profile = plan.select(args)
    out = os.path.abspath(args.out)
    scratch = os.path.abspath(args.scratch or os.path.join(out, "..", ".scratch"))
    path, result = execution.run_profile(matrix, profile, out, scratch, args.machine)
    for cell in result["cells"]:
        if cell["status"] == "failed":
            print(f"failed: {cell['key']}: {cell['reason']}", file=sys.stderr)
    print(path)
    return 0
