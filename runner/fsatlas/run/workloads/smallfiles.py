"""Many small files: create, stat, read, rename and delete, each phase timed.

Reproduces the Namesys Mongo benchmark (seminar page: 100, 1,000 and 10,000-byte files),
bonnie++ -n, and the 2004 test that created 50,000 files in sequence. Files are spread
over `directories` folders; caches are dropped before each phase after create, so stat and
read reach the filesystem, and create ends with a sync so its data is on the device.
"""
import json
import os
import time

from ...results import metrics
from .. import target
from .context import CpuMeter

PHASES = metrics.SMALL_FILE_PHASES
METRICS = metrics.SMALL_FILES


def _paths(root, files, directories):
    for i in range(files):
        yield os.path.join(root, f"d{i % directories:04d}", f"f{i:07d}")


def run(cell, ctx) -> dict:
    p = cell.parameters
    files, directories = int(p.get("files", 1000)), max(1, int(p.get("directories", 1)))
    size, phases = int(p.get("file_size", 0)), list(p.get("phases", PHASES))
    unknown = set(phases) - set(PHASES)
    if unknown:
        raise ValueError(f"unknown small-file phases {sorted(unknown)}; expected some of {PHASES}")
    payload = b"x" * size
    for d in range(directories):
        os.mkdir(os.path.join(ctx.workdir, f"d{d:04d}"))
    target.sync(ctx.workdir)
    seconds = {}
    deadline = time.monotonic() + ctx.timeout

    def timed(name, op):
        if time.monotonic() > deadline:
            raise TimeoutError(f"small-files exceeded its budget of {ctx.timeout:.0f} s before {name}")
        if name != "create":
            ctx.drop()
        with ctx.timed():
            start = time.perf_counter()
            for path in _paths(ctx.workdir, files, directories):
                op(path)
            if name in ("create", "rename", "delete"):
                target.sync(ctx.workdir)
            seconds[name] = time.perf_counter() - start

    def create(path):
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        if payload:
            os.write(fd, payload)
        os.close(fd)

    def read(path):
        fd = os.open(path, os.O_RDONLY)
        while os.read(fd, 65536):
            pass
        os.close(fd)

    renamed = "delete" in phases and "rename" in phases
    ops = {"create": create, "stat": os.stat, "read": read,
           "rename": lambda path: os.rename(path, path + ".r"),
           "delete": (lambda path: os.unlink(path + ".r")) if renamed else os.unlink}
    with CpuMeter() as cpu:
        for phase in PHASES:
            if phase in phases:
                timed(phase, ops[phase])
    with open(ctx.raw(".json"), "w", encoding="utf-8") as f:
        json.dump({"files": files, "directories": directories, "file_size": size, "seconds": seconds,
                   "cpu": cpu.values}, f, indent=1)
    return {**{f"{name}_per_s": files / s for name, s in seconds.items() if s > 0}, **cpu.values}
