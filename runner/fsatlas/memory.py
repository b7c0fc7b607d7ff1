"""The memory a command that reads contributed files allows itself (validate, import): an
address-space limit (RLIMIT_AS), as defense in depth behind the bounds each reader keeps, so
that no input can take the machine whatever a reader misses. Running out is a MemoryError,
reported as one located line (validation: the result file; import: its inputs), never a
traceback.

The limit is BUDGET beyond the address space the process holds when the command starts, with
the modules the checks load (scipy, numpy and their thread pools' reservations) loaded first:
run from a shell that is about 1.2 GiB in all; run in-process (the tests) it does not depend on
what the process loaded before. It is restored when the command ends, and forked workers
inherit it (each its own). Validate's peak is 87 MiB resident on the committed results; make
perf's hostile row measures the worst input's.
"""
import contextlib
import gc
import importlib
import resource

BUDGET = 1 << 30  # bytes of address space a command may add to what it started with
TOO_MUCH = (f"expected input that validate and import can read within {BUDGET >> 20} MiB of memory, "
            f"found one that needs more")


def address_space() -> int:
    """The bytes of address space this process holds now (VmSize)."""
    with open("/proc/self/statm", encoding="ascii") as f:
        return int(f.read().split()[0]) * resource.getpagesize()


@contextlib.contextmanager
def limited(preload: tuple = ()):
    """Within: at most BUDGET bytes of address space beyond what the process holds once
    the preload modules are imported; never above a limit already set."""
    for name in preload:
        importlib.import_module(name)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = address_space() + BUDGET
    for bound in (soft, hard):
        if bound != resource.RLIM_INFINITY:
            limit = min(limit, bound)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        yield limit
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


@contextlib.contextmanager
def collector_off():
    """Within: Python's cyclic collector off (as it was after). For a command that holds
    millions of objects with no cycles to find, such as a rebuild's saved aggregation and
    compare tables: each full collection walks all of them, and four took 0.2 s of an aggregate
    of 10,000 unchanged results that took 1.07 s (PERFORMANCE.md, 2026-12-01)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
