"""Work spread over every core, for the per-result-file steps of a first build."""
import os

from .. import memory

PARALLEL_FROM = 50  # items before a second process pays for itself


def map_batches(fn, items: list, preload: tuple = ()):
    """(batch, fn(batch)) for consecutive batches of items, in order, yielded as they come: in
    forked worker processes when there are many, else in this process, all items one batch. fn comes
    with the fork and only the batches are pickled (fn and what it holds, such as the
    aggregator's knowledge of 308 KB, were pickled with every batch). A worker sends back one
    value a batch, so fn can reduce what its items gave before it is pickled: the digests of 64
    quick results took 42 ms to pickle and unpickle, the state of their fold (124 KB) 1.5 ms.
    Yielded, not returned as a list: 10,000 digests of quick results held at once took 3.5 GiB.
    preload: the modules fn imports, imported here before the workers are forked, so that they
    come with the fork instead of being imported by each worker (scipy.special is 0.45 s of CPU,
    statsmodels's tests over a second)."""
    workers = min(os.cpu_count() or 1, len(items) // PARALLEL_FROM)
    if workers < 2:
        if items:
            with memory.collector_off():  # as in a worker, forked with it off (below): validate of one
                value = fn(items)  # file of 50,000 fio reports spent 0.5 s of 10 in full collections
            yield items, value
        return
    batches = _batches(items, workers)
    import gc
    import importlib
    import multiprocessing
    for name in preload:
        importlib.import_module(name)
    # What the Python manual advises before a fork: the objects there are then (the modules
    # loaded) are left out of every collection, so a worker's collector neither walks them
    # again and again nor writes to their pages (which the fork shares until written).
    gc.freeze()
    # And the collector is off here until the pool is done: what the caller keeps of each value
    # grows with every value, and the values held no cycles to find (10,000 quick results: 71
    # full collections, each walking all it kept, took 9.7 s of the 18 this process spent).
    try:  # initargs come with the fork (a worker the pool starts again too), unpickled
        with memory.collector_off(), _forked_pool(multiprocessing.get_context("fork"), workers, fn) as pool:
            yield from zip(batches, pool.imap(_worker_fn, batches))
    finally:
        gc.unfreeze()


def _forked_pool(context, workers: int, fn):
    """A pool whose workers are forked with SIGTERM blocked, unblocked by each once its own
    handler is the default (_worker_setup): a terminate() that came before that met the
    parent's handler, forked with it, which only noted the signal, and the parent then waited
    for that worker for ever (a hang of 29 minutes in the test suite, 2026-12-02)."""
    import signal
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    try:
        return context.Pool(workers, initializer=_worker_setup, initargs=(fn,))
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


_fn = None  # in a worker: map_batches's fn (_worker_setup)


def _worker_fn(batch: list):
    return _fn(batch)


MAX_BATCH = 64  # items a batch at most: what a worker holds and sends back at once


def _batches(items: list, workers: int) -> list[list]:
    """Consecutive batches of items, each an eighth of what is left for each worker (MAX_BATCH
    at most), so they shrink towards the end: the workers finish within about one item of each
    other, where batches of one size left one core alone with up to a whole batch (64 quick
    results, about 0.8 s at the 12 ms each takes)."""
    out, start = [], 0
    while start < len(items):
        size = max(1, min(MAX_BATCH, (len(items) - start) // (workers * 8)))
        out.append(items[start:start + size])
        start += size
    return out


WORKER_GC_THRESHOLD = 100_000  # container objects allocated between two collections of the youngest


def _worker_setup(fn) -> None:
    """A worker keeps fn (map_batches's, run by _worker_fn), and ends quietly when the pool terminates
    it (SIGTERM) and leaves a Ctrl-C to the parent, instead of each printing the traceback of
    the KeyboardInterrupt fsatlas's own handlers, forked with it, would raise. Its collector
    runs a 140th as often as by default (700): what a worker makes of a result (its document,
    rows and tables) holds no cycles and is freed by reference counting, yet with the default it
    ran about four collections a result, 6 % of its time (600 quick results checked and derived
    in one process); at 10,000 it still took 4 to 7 % of the workers' CPU (2,000 quick results:
    21.7 to 22.9 s user, 20.6 to 21.1 s at 100,000, the same as with no collector at all). A
    quick result allocates a few thousand containers, so the youngest generation still holds at
    most a few dozen results' worth."""
    import gc
    import signal
    global _fn
    _fn = fn
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})  # blocked at the fork (_forked_pool)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    gc.set_threshold(WORKER_GC_THRESHOLD, *gc.get_threshold()[1:])
    gc.enable()  # off in the parent while the pool runs, and so at the fork
