"""fsatlas plan: the cells a run would do, what this machine can't run and why, and a time estimate."""
import json

from .. import filesystems, matrix as matrix_mod
from . import list_option


def add_parser(sub):
    p = sub.add_parser("plan", help="list the cells a run would do and estimate its time")
    add_selection_options(p)
    p.add_argument("--json", action="store_true", help="print the plan as JSON")
    p.set_defaults(func=run)


def add_selection_options(p):
    p.add_argument("--profile", default="quick", help="matrix profile (default: quick)")
    p.add_argument("--matrix", help="a matrix file of your own instead of the standard one")
    p.add_argument("--fs", action="append", metavar="FS", help="only these filesystems (repeat or comma-separate)")
    p.add_argument("--workload", action="append", metavar="W", help="only these workloads")


def select(args):
    matrix = matrix_mod.load(args.matrix)
    profile = matrix.profile(args.profile, list_option(args.fs), list_option(args.workload))
    return matrix, profile


def estimate_seconds(profile) -> float:
    # runtime caps each fio repetition; 2 s covers setup, cache drop and teardown.
    per_rep = [float(c.parameters.get("runtime", 10)) + 2 for c in profile.cells]
    return sum(per_rep) * profile.repetitions


def build_plan(matrix, profile) -> dict:
    reasons = {fs: filesystems.unavailable_reason(fs, matrix.filesystems[fs])
               for fs in {c.filesystem for c in profile.cells}}
    cells = [{"key": c.key, "filesystem": c.filesystem, "workload": c.workload,
              "status": "skipped" if reasons[c.filesystem] else "planned",
              **({"reason": reasons[c.filesystem]} if reasons[c.filesystem] else {})}
             for c in profile.cells]
    runnable = [c for c in profile.cells if not reasons[c.filesystem]]
    return {"profile": profile.name, "repetitions": profile.repetitions,
            "image_bytes": profile.image_bytes, "cells": cells,
            "estimate_seconds": estimate_seconds(matrix_mod.Profile(profile.name, profile.image_bytes,
                                                                    profile.repetitions, runnable))}


def run(args) -> int:
    matrix, profile = select(args)
    plan = build_plan(matrix, profile)
    if args.json:
        print(json.dumps(plan, indent=1))
        return 0
    for cell in plan["cells"]:
        extra = f"  skipped: {cell['reason']}" if cell["status"] == "skipped" else ""
        print(f"{cell['key']}{extra}")
    planned = sum(c["status"] == "planned" for c in plan["cells"])
    print(f"{planned} cells to run, {len(plan['cells']) - planned} skipped, "
          f"{profile.repetitions} repetitions each, about {plan['estimate_seconds'] / 60:.1f} min")
    return 0
