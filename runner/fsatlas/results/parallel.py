"""Work spread over every core, for the per-result-file steps of a first build."""
import os

PARALLEL_FROM = 50  # items before a second process pays for itself


def map_on_cores(fn, items: list):
    """fn(item) for each item, in order, yielded as they come: in forked worker processes when
    there are many (fn and what it holds are pickled once per chunk). Yielded, not returned as
    a list: 10,000 digests of quick results held at once took 3.5 GiB."""
    workers = min(os.cpu_count() or 1, len(items) // PARALLEL_FROM)
    if workers < 2:
        yield from map(fn, items)
        return
    import multiprocessing
    with multiprocessing.get_context("fork").Pool(workers, initializer=_worker_signals) as pool:
        yield from pool.imap(fn, items, chunksize=max(1, min(64, len(items) // (workers * 8))))


def _worker_signals() -> None:
    """A worker ends quietly when the pool terminates it (SIGTERM) and leaves a Ctrl-C to the
    parent, instead of each printing the traceback of the KeyboardInterrupt fsatlas's own
    handlers, forked with it, would raise."""
    import signal
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
