"""The fio workload drops the page cache only for jobs that go through it."""
from contextlib import nullcontext
from types import SimpleNamespace

import pytest

from fsatlas.run.workloads import fio


@pytest.mark.parametrize("direct,drops", [(1, 0), ("1", 0), (0, 1), (None, 1)])
def test_caches_are_dropped_unless_the_job_uses_direct_io(monkeypatch, direct, drops):
    dropped = []
    monkeypatch.setattr(fio, "run_job", lambda *args: {"throughput": 1.0})
    parameters = {"rw": "write", "bs": "1M"} | ({} if direct is None else {"direct": direct})
    cell = SimpleNamespace(workload="seq-write", parameters=parameters)
    ctx = SimpleNamespace(drop=lambda: dropped.append(1), workdir="/nowhere", timeout=10, raw=lambda ext: "/nowhere/r.json",
                          timed=nullcontext)  # the device counters of the timed part: none here
    assert fio.run(cell, ctx) == {"throughput": 1.0}
    assert len(dropped) == drops
