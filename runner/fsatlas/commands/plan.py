"""fsatlas plan: the cells a run would do, what this machine can't run and why, a time estimate,
and a check of the scratch space before any work."""
import json
import os
import shutil
import sys

from ..run import filesystems, matrix as matrix_mod, sizes, system
from . import list_option

SETUP_S = 0.5  # per repetition: cache drop, directory setup and teardown
GROUP_S = 3.0  # per group: image, losetup, mkfs, mount, unmount


def add_parser(sub):
    p = sub.add_parser("plan", help="list the cells a run would do and estimate its time")
    add_selection_options(p)
    p.add_argument("--scratch", help="where the loop images would go (checked for space)")
    p.add_argument("--json", action="store_true", help="print the plan as JSON")
    p.set_defaults(func=run)


def add_selection_options(p):
    p.add_argument("--profile", default=None, help="matrix profile: quick (default), standard, full, or your own")
    p.add_argument("--matrix", help="a matrix file of your own instead of the standard one")
    p.add_argument("--fs", action="append", metavar="FS", help="only these filesystems (repeat or comma-separate)")
    p.add_argument("--workload", action="append", metavar="W", help="only these workloads")
    p.add_argument("--variant", action="append", metavar="V",
                   help="only these option variants ('defaults' for none); see the matrix file")
    p.add_argument("--cell", action="append", metavar="KEY", help="only the cells with these keys (repeat)")


def select(args, profile_name=None):
    matrix = matrix_mod.load(args.matrix)
    keys = [k for k in args.cell or []]
    profile = matrix.profile(profile_name or args.profile or "quick", list_option(args.fs),
                             list_option(args.workload), list_option(args.variant), keys)
    return matrix, profile


def estimate_cell_seconds(cell) -> float:
    p = cell.parameters
    if "runtime" in p:
        return float(p["runtime"]) + SETUP_S
    size = sizes.parse_size(p["size"]) if "size" in p else 0
    # sequential I/O at an assumed 200 MB/s; small files at an assumed 5,000 ops/s per phase
    if cell.kind in ("fio", "dd"):
        rate = 200e6 if cell.kind == "fio" else 5e6
        return size * int(p.get("numjobs", 1)) / rate + SETUP_S
    if cell.kind == "smallfiles":
        return int(p.get("files", 1000)) * len(p.get("phases", [1] * 5)) / 5000 + SETUP_S
    if cell.kind == "treecopy":
        return int(p.get("files", 20000)) / 2000 + SETUP_S
    return SETUP_S + 1


def scratch_need(profile) -> int:
    """The loop image, plus the generated source tree kept beside it during the run."""
    trees = [int(c.parameters.get("files", 0)) for c in profile.cells if c.kind == "treecopy"]
    return profile.image_bytes + max(trees, default=0) * 20_000


def build_plan(matrix, profile, scratch=None) -> dict:
    reasons = {fs: filesystems.unavailable_reason(fs, matrix.filesystems[fs])
               for fs in {c.filesystem for c in profile.cells}}
    cells = [{"key": c.key, "filesystem": c.filesystem, "workload": c.workload, "variant": c.variant,
              "status": "skipped" if reasons[c.filesystem] else "planned",
              **({"reason": reasons[c.filesystem]} if reasons[c.filesystem] else {}),
              "flags": list(c.flags), "estimate_seconds": round(estimate_cell_seconds(c) * profile.repetitions, 1)}
             for c in profile.cells]
    runnable = [c for c in profile.cells if not reasons[c.filesystem]]
    groups = {c.group for c in runnable}
    estimate = sum(estimate_cell_seconds(c) for c in runnable) * profile.repetitions + GROUP_S * len(groups)
    warnings = []
    memory = system.collect_memory_bytes()
    if memory and profile.image_bytes < memory:
        warnings.append(f"the image ({profile.image_bytes / 2**30:.1f} GiB) fits in the page cache "
                        f"({memory / 2**30:.1f} GiB of memory): figures rely on direct I/O and dropped caches")
    plan = {"profile": profile.name, "repetitions": profile.repetitions, "adaptive": profile.adaptive,
            "image_bytes": profile.image_bytes, "cells": cells, "estimate_seconds": round(estimate),
            "warnings": warnings}
    if scratch:
        plan["scratch"] = {"path": scratch, "free_bytes": _free(scratch), "needed_bytes": scratch_need(profile)}
    return plan


def _free(path) -> int:
    while not os.path.exists(path):
        path = os.path.dirname(path) or "."
    return shutil.disk_usage(path).free


def check_scratch(plan) -> None:
    from ..errors import UserError
    s = plan.get("scratch")
    if s and s["free_bytes"] < s["needed_bytes"]:
        raise UserError("not enough free space for the loop image and the source tree", where=s["path"],
                        expected=f"{s['needed_bytes'] / 2**30:.1f} GiB free",
                        found=f"{s['free_bytes'] / 2**30:.1f} GiB")


def run(args) -> int:
    matrix, profile = select(args)
    plan = build_plan(matrix, profile, os.path.abspath(args.scratch or ".scratch"))
    if args.json:
        print(json.dumps(plan, indent=1))
    else:
        for cell in plan["cells"]:
            extra = f"  skipped: {cell['reason']}" if cell["status"] == "skipped" else ""
            flags = f"  [{', '.join(cell['flags'])}]" if cell["flags"] else ""
            print(f"{cell['key']}{flags}{extra}")
        planned = sum(c["status"] == "planned" for c in plan["cells"])
        print(f"{planned} cells to run, {len(plan['cells']) - planned} skipped, {profile.repetitions} repetitions "
              f"each{' (more while noisy)' if profile.adaptive else ''}, about {plan['estimate_seconds'] / 60:.0f} min")
        for warning in plan["warnings"]:
            print(f"warning: {warning}", file=sys.stderr)
    check_scratch(plan)
    return 0
