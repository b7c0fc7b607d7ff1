"""The repetition rule: at least the planned count; in adaptive profiles repeat while the primary
metric's RSD is above 3.5 %, up to 3x the planned count, then flag noisy; fixed profiles only flag.

The workload here is a scripted sequence of values, because what is tested is the runner's rule,
not a measurement; real workloads are tested on real filesystems in test_run_loop.py.
"""
import types

import pytest

from fsatlas.run import execution, matrix
from fsatlas.run.workloads import KINDS


def scripted_kind(values):
    it = iter(values)
    return types.SimpleNamespace(METRICS={"throughput": ("bytes/s", "higher")},
                                 run=lambda cell, ctx: {"throughput": next(it)})


def run_one(monkeypatch, tmp_path, values, adaptive, planned=3):
    monkeypatch.setitem(KINDS, "scripted", scripted_kind(values))
    cell = matrix.Cell("ext4", "w", "scripted", primary="throughput")
    profile = matrix.Profile("p", 1 << 20, planned, adaptive, [cell])
    result = {"id": "r", "created": "2026-11-24T00:00:00Z", "target": {}, "cells": []}
    run = execution.Run(None, profile, str(tmp_path), None, result)
    (record,) = run.records_for([cell], {})
    run.run_cell(cell, record, None, {})
    return record


def test_steady_values_stop_at_the_planned_count(monkeypatch, tmp_path):
    record = run_one(monkeypatch, tmp_path, [100, 101, 100, 999], adaptive=True)
    assert record["metrics"]["throughput"]["samples"] == [100, 101, 100]
    assert record["flags"] == []


def test_noisy_values_repeat_up_to_three_times_planned_then_flag(monkeypatch, tmp_path):
    values = [100, 150] * 10
    record = run_one(monkeypatch, tmp_path, values, adaptive=True)
    assert len(record["metrics"]["throughput"]["samples"]) == 9
    assert record["flags"] == ["noisy"]


def test_repetition_stops_once_the_spread_settles(monkeypatch, tmp_path):
    # RSD of (100, 108, 100) is 4.4 %; with 104 it is 3.7 %; with another 104 it is 3.2 %: stop at 5
    record = run_one(monkeypatch, tmp_path, [100, 108, 100, 104, 104, 104, 104], adaptive=True)
    assert record["metrics"]["throughput"]["samples"] == [100, 108, 100, 104, 104]
    assert record["flags"] == []


def test_fixed_profile_flags_without_repeating(monkeypatch, tmp_path):
    record = run_one(monkeypatch, tmp_path, [100, 150, 100, 150], adaptive=False)
    assert record["metrics"]["throughput"]["samples"] == [100, 150, 100]
    assert record["flags"] == ["noisy"]


@pytest.mark.parametrize("planned", [3, 5])
def test_at_least_the_planned_count(monkeypatch, tmp_path, planned):
    record = run_one(monkeypatch, tmp_path, [50] * 20, adaptive=True, planned=planned)
    assert len(record["metrics"]["throughput"]["samples"]) == planned


def test_cached_flag_when_above_the_raw_device(monkeypatch, tmp_path):
    monkeypatch.setitem(KINDS, "scripted", scripted_kind([300, 300, 300]))
    cell = matrix.Cell("ext4", "w", "scripted", primary="throughput", baseline="w")
    profile = matrix.Profile("p", 1 << 20, 3, False, [cell])
    base = {"throughput": {"mean": 200.0, "rsd_pct": 1.0}}  # the raw device on the cell's own job, written first
    run = execution.Run(None, profile, str(tmp_path), None, {"id": "r", "created": "2026-11-24T00:00:00Z",
                                                             "target": {"baseline": {"w": base}, "baseline_written": True},
                                                             "cells": []})
    (record,) = run.records_for([cell], {})
    run.run_cell(cell, record, None, {})
    assert record["flags"] == ["cached"]  # 300 > 1.2 x 200
