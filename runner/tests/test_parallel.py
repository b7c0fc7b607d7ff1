"""results.parallel.map_batches: the modules its workers need are imported once, before the fork,
its function comes with the fork too, and its batches shrink towards the end."""
import functools
import os
import pickle
import sys
import threading
from pathlib import Path

import pytest

from fsatlas.results import parallel


def _seen_in_worker(name, batch):
    """Whether the module was in this worker's sys.modules before the batch ran (then it came
    with the fork), and the worker's process id."""
    return [(name in sys.modules, os.getpid())] * len(batch)


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="one core: map_batches runs in this process, with no fork")
def test_preloaded_modules_come_with_the_fork(tmp_path, monkeypatch):
    name = "fsatlas_preload_probe"
    (tmp_path / f"{name}.py").write_text("VALUE = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, name, raising=False)
    items = list(range(parallel.PARALLEL_FROM * 2))
    seen = [v for _, values in parallel.map_batches(functools.partial(_seen_in_worker, name), items) for v in values]
    assert {pid for _, pid in seen} - {os.getpid()}, "ran in worker processes"
    assert not any(present for present, _ in seen) and name not in sys.modules  # no preload: not imported anywhere
    seen = [v for _, values in parallel.map_batches(functools.partial(_seen_in_worker, name), items, preload=(name,))
            for v in values]
    assert all(present for present, _ in seen) and name in sys.modules
    monkeypatch.delitem(sys.modules, name)


@pytest.mark.parametrize("n", [100, 125, 2000, 10007])
def test_batches_cover_every_item_in_order_and_shrink_towards_the_end(n):
    batches = parallel._batches(list(range(n)), 2)
    assert [x for batch in batches for x in batch] == list(range(n))
    sizes = [len(batch) for batch in batches]
    assert max(sizes) <= parallel.MAX_BATCH and sizes == sorted(sizes, reverse=True)
    assert sizes[-16:] == [1] * 16  # the last items go one by one: neither worker waits long for the other


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="one core: map_batches runs in this process, with no fork")
def test_the_function_comes_with_the_fork_and_is_never_pickled():
    """A function holding what pickle refuses (a lock, as a closure) runs in the workers all the
    same: only the batches travel, not the function (nor the 300 KB the aggregator's holds)."""
    lock = threading.Lock()
    with pytest.raises(TypeError):
        pickle.dumps(lock)

    def doubled(batch):
        with lock:
            return [(2 * x, os.getpid()) for x in batch]
    items = list(range(parallel.PARALLEL_FROM * 2))
    out = [v for _, values in parallel.map_batches(doubled, items) for v in values]
    assert [v for v, _ in out] == [2 * x for x in items]
    assert {pid for _, pid in out} - {os.getpid()}, "ran in worker processes"


def test_collector_off_restores_the_collector_as_it_was():
    """memory.collector_off (the aggregate's, the site's and map_batches'): off within, as it was
    after, whether it was on or off and whether the body raised."""
    import gc
    from fsatlas import memory
    was = gc.isenabled()
    try:
        for before in (True, False):
            (gc.enable if before else gc.disable)()
            try:
                with memory.collector_off():
                    assert not gc.isenabled()
                    raise KeyError("the body raised")
            except KeyError:
                pass
            assert gc.isenabled() is before
            list(parallel.map_batches(len, [[1]] * (2 * parallel.PARALLEL_FROM)))
            assert gc.isenabled() is before
    finally:
        (gc.enable if was else gc.disable)()


TERMINATED_AT_ONCE = """
import sys, time
sys.path.insert(0, sys.argv[1])
from fsatlas.results import parallel
from fsatlas.run import interrupts
import multiprocessing
interrupts.install()
with interrupts.held():  # the parent's handler, forked with each worker, only notes a SIGTERM here
    for _ in range(20):
        pool = parallel._forked_pool(multiprocessing.get_context("fork"), 2, len)
        pool.terminate()  # at once: before a worker has made SIGTERM its default
        pool.join()
print("joined")
"""


def test_a_pool_terminated_as_it_starts_is_joined():
    """The rule: terminating map_batches's pool at any moment ends its workers (a worker that
    met SIGTERM before its own setup kept the parent's handler, and the parent waited for it
    for ever: a 29-minute hang in the suite). Twenty pools terminated as they start, each joined."""
    import subprocess
    import sys
    runner = str(Path(__file__).resolve().parents[1])
    done = subprocess.run([sys.executable, "-c", TERMINATED_AT_ONCE, runner], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "joined", done.stderr
