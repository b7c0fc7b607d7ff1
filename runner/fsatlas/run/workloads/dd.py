"""dd with tiny blocks: one file written 32 bytes at a time, then fsync'd.

Reproduces the 2014 blog's dd test (bs=32 to a USB disk), where NTFS through FUSE wrote at
0.6 MB/s against 22-24 MB/s for the kernel filesystems: per-call overhead, not the disk.
"""
import os

from ...results import metrics
from .context import run_tool
from ..sizes import parse_size
from ...results.dd_output import parse_summary

METRICS = metrics.DD
def run(cell, ctx) -> dict:
    bs = int(cell.parameters.get("bs", 32))
    count = max(1, parse_size(cell.parameters.get("size", "4M")) // bs)
    ctx.drop()
    # no CPU shares: dd's text, the raw output every figure is recomputed from, holds none
    with ctx.timed():
        done = run_tool(["dd", "if=/dev/zero", f"of={os.path.join(ctx.workdir, 'dd.out')}", f"bs={bs}",
                         f"count={count}", "conv=fsync"], ctx.timeout, "dd")
    with open(ctx.raw(".txt"), "w", encoding="utf-8") as f:
        f.write(done.stderr)
    size, seconds = parse_summary(done.stderr)
    if seconds <= 0:
        raise ValueError("dd finished too fast to measure; raise size in the profile")
    return {"throughput": size / seconds}
