"""mkfs time and mount time of the filesystem on the loop image.

Reproduces the 2006 magazine's remarks on mkfs and mount times (ext3 about 5 minutes to
make 200 GB; ReiserFS over 10 s to mount 200 GB). Runs on the group's loop image before
the filesystem the other workloads use is made.
"""
import json
import time

from .. import filesystems
from ...results import metrics
from .context import CpuMeter, run_tool

METRICS = metrics.LIFECYCLE


def run(cell, ctx) -> dict:
    phase = cell.parameters.get("phase")
    image, spec = ctx.image, ctx.fs_spec
    if image is None:
        raise ValueError("mkfs and mount times need a loop image or device, not a directory")
    mkfs_argv = [*spec["mkfs"], *cell.mkfs_options, image.device]
    if phase not in ("mkfs", "mount"):
        raise ValueError(f"lifecycle phase {phase!r} is not mkfs or mount")
    with CpuMeter() as cpu:
        run_tool(mkfs_argv, ctx.timeout, "mkfs")
    if phase == "mount":
        ctx.drop()
        with CpuMeter() as cpu:
            filesystems.mount(spec, image.device, image.mountpoint, cell.mount_options)
        filesystems.unmount(image.mountpoint)
    seconds = cpu.wall
    with open(ctx.raw(".json"), "w", encoding="utf-8") as f:
        json.dump({"phase": phase, "mkfs": mkfs_argv, "mount_options": list(cell.mount_options),
                   "seconds": seconds, "cpu": cpu.values}, f, indent=1)
    return {"seconds": seconds, **cpu.values}
