"""One first build's `fsatlas aggregate`, timed: its wall time, its own CPU and its workers'
(getrusage), and the wall time of the steps after the workers, on a site root of your own (a
folder holding data/results/ and data/raw/, as scripts/perf.py or tests/site/sitebuild.py's
synthetic_results make them). Every output and cache under the root is removed first.

    .venv/bin/python scripts/aggregate_cpu.py ROOT
    RUNNER=/path/to/other/checkout/runner .venv/bin/python scripts/aggregate_cpu.py ROOT

RUNNER measures another version of the code on the same results (a worktree of an older
commit, with that commit's curated data/ files in ROOT): how PERFORMANCE.md separates what the
code added from what the machine's day did. Drop the page cache first (echo 3 >
/proc/sys/vm/drop_caches) for a cold read."""
import functools
import os
import resource
import shutil
import sys
import time

sys.path.insert(0, os.environ.get("RUNNER") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "runner"))
from fsatlas.site import aggregate  # noqa: E402

STEPS = ("compare_tables", "judged", "latest_rows")  # what the parent does once the workers are done


def main(root: str) -> None:
    spent = dict.fromkeys(STEPS, 0.0)
    for name in STEPS:
        if hasattr(aggregate, name):  # an older version may lack a step
            def timed(*args, _f=getattr(aggregate, name), _name=name, **kwargs):
                start = time.perf_counter()
                try:
                    return _f(*args, **kwargs)
                finally:
                    spent[_name] += time.perf_counter() - start
            setattr(aggregate, name, functools.wraps(getattr(aggregate, name))(timed))
    for folder in ("build", os.path.join("data", "aggregates")):  # build/static too, as fsatlas aggregate writes it
        shutil.rmtree(os.path.join(root, folder), ignore_errors=True)
    os.chdir(root)
    start = time.perf_counter()
    aggregate.aggregate("data", os.path.join("build", "content"), articles_dir=os.path.join("content", "articles"))  # as fsatlas aggregate runs it
    wall = time.perf_counter() - start
    own, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"aggregate {wall:.2f} s; CPU: own {own.ru_utime:.2f} s user {own.ru_stime:.2f} s system, "
          f"workers {workers.ru_utime:.2f} s user {workers.ru_stime:.2f} s system; "
          + ", ".join(f"{name} {seconds:.2f} s" for name, seconds in spent.items()))


if __name__ == "__main__":
    if len(sys.argv) != 2 or not os.path.isdir(os.path.join(sys.argv[1], "data", "results")):
        sys.exit("usage: aggregate_cpu.py ROOT (a folder holding data/results/)")
    main(sys.argv[1])
