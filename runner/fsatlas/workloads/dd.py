"""dd with tiny blocks: one file written 32 bytes at a time, then fsync'd.

Reproduces the 2014 blog's dd test (bs=32 to a USB disk), where NTFS through FUSE wrote at
0.6 MB/s against 22-24 MB/s for the kernel filesystems: per-call overhead, not the disk.
"""
import os
import re

from . import CPU_METRICS, CpuMeter, run_tool
from ..matrix import parse_size

METRICS = {"throughput": ("bytes/s", "higher"), **CPU_METRICS}
# "4194304 bytes (4.2 MB, 4.0 MiB) copied, 1.23 s, 3.4 MB/s"
SUMMARY = re.compile(r"^(\d+) bytes .*copied, ([0-9.eE+-]+) s,", re.M)


def parse_summary(text: str) -> tuple[int, float]:
    """(bytes, seconds) from dd's closing summary line."""
    match = SUMMARY.search(text)
    if not match:
        raise ValueError("no dd summary line ('N bytes ... copied, S s, ...') in dd output")
    return int(match.group(1)), float(match.group(2))


def run(cell, ctx) -> dict:
    bs = int(cell.parameters.get("bs", 32))
    count = max(1, parse_size(cell.parameters.get("size", "4M")) // bs)
    ctx.drop()
    with CpuMeter() as cpu:
        done = run_tool(["dd", "if=/dev/zero", f"of={os.path.join(ctx.workdir, 'dd.out')}", f"bs={bs}",
                         f"count={count}", "conv=fsync"], ctx.timeout, "dd")
    with open(ctx.raw(".txt"), "w", encoding="utf-8") as f:
        f.write(done.stderr)
    size, seconds = parse_summary(done.stderr)
    if seconds <= 0:
        raise ValueError("dd finished too fast to measure; raise size in the profile")
    return {"throughput": size / seconds, **cpu.values}
