"""mkfs time and mount time of the filesystem on the loop image.

Reproduces the 2006 magazine's remarks on mkfs and mount times (ext3 about 5 minutes to
make 200 GB; ReiserFS over 10 s to mount 200 GB). Runs on the group's loop image before
the filesystem the other workloads use is made.
"""
import json
import time

from .. import filesystems
from . import run_tool

METRICS = {"seconds": ("s", "lower")}


def run(cell, ctx) -> dict:
    phase = cell.parameters.get("phase")
    image, spec = ctx.image, ctx.fs_spec
    if image is None:
        raise ValueError("mkfs and mount times need a loop image or device, not a directory")
    mkfs_argv = [*spec["mkfs"], *cell.mkfs_options, image.device]
    start = time.perf_counter()
    run_tool(mkfs_argv, ctx.timeout, "mkfs")
    seconds = time.perf_counter() - start
    if phase == "mount":
        ctx.drop()
        start = time.perf_counter()
        filesystems.mount(spec, image.device, image.mountpoint, cell.mount_options)
        seconds = time.perf_counter() - start
        filesystems.unmount(image.mountpoint)
    elif phase != "mkfs":
        raise ValueError(f"lifecycle phase {phase!r} is not mkfs or mount")
    with open(ctx.raw(".json"), "w", encoding="utf-8") as f:
        json.dump({"phase": phase, "mkfs": mkfs_argv, "mount_options": list(cell.mount_options),
                   "seconds": seconds}, f, indent=1)
    return {"seconds": seconds}
