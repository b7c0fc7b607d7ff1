"""What a workload module is given and uses to run one repetition: its context (RepContext),
a CPU meter, and the one way to run an external tool."""
import contextlib
import os
import resource
import time
from dataclasses import dataclass, field

from .. import evidence, target
from ..tools import run as run_tool  # noqa: F401  (the workload modules use it)


@dataclass
class RepContext:
    workdir: str
    raw_base: str  # absolute path without extension for this repetition's raw output
    out: str  # the output folder; raw paths in the result are relative to it
    timeout: float
    fs_spec: dict
    image: object = None  # the LoopImage, for workloads that make and mount filesystems
    drop_caches: bool = True
    shared: dict = field(default_factory=dict)  # per-run resources (the generated source tree)
    raw_files: list = field(default_factory=list)
    timed_io: dict | None = None  # the device's counters over the timed part(s) only (timed())

    @contextlib.contextmanager
    def timed(self):
        """Wraps the part of a repetition its figure is taken from: the loop device's counters
        over it are added to timed_io (several parts, as small-files' phases, add up), so a
        claim is judged on what the timed work asked of the device, not the layout before it
        or the cache drop between."""
        device = getattr(self.image, "device", None)
        before = evidence.device_stat(device)
        try:
            yield
        finally:
            after = evidence.device_stat(device)
            if before and after:
                self.timed_io = {k: (self.timed_io or {}).get(k, 0) + after[k] - before[k] for k in before}

    def raw(self, ext: str) -> str:
        path = self.raw_base + ext
        self.raw_files.append(os.path.relpath(path, self.out))
        return path

    def drop(self) -> None:
        """Caches dropped (as root), the filesystem under test synced first: the repetition's
        folder on it, or the device itself where no filesystem is mounted (mkfs before mount-time)."""
        if self.drop_caches:
            target.drop_caches(self.workdir or self.image.device)




class CpuMeter:
    """CPU used by fsatlas and its children while the block runs, as % of one CPU of wall time
    (the way fio and bonnie++ report it). Given the repetition's context, the block is its
    timed part (RepContext.timed)."""

    def __init__(self, ctx: RepContext | None = None):
        self.timed = ctx.timed() if ctx else contextlib.nullcontext()

    def __enter__(self):
        self.timed.__enter__()
        self.start = time.perf_counter(), _cpu_times()
        return self

    def __exit__(self, *exc):
        self.timed.__exit__(*exc)
        wall = time.perf_counter() - self.start[0]
        usr, sys_ = (a - b for a, b in zip(_cpu_times(), self.start[1]))
        self.wall = wall
        self.values = {"cpu_usr_pct": 100 * usr / wall if wall else 0.0,
                       "cpu_sys_pct": 100 * sys_ / wall if wall else 0.0}
        return False


def _cpu_times():
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + kids.ru_utime, me.ru_stime + kids.ru_stime
