"""`fsatlas measure`'s note, where a comparison was not reached, gives the reason the report's row
for it gives (issue #60, round 15, finding 13: with one repetition the note said "not testable,
no spread" where the row said "n = 1"): both come from the comparison's own words
(comparison.describe of the row)."""
import types

from hypothesis import given, settings, strategies as st

from fsatlas.commands import measure as measure_cmd
from fsatlas.run import measure
from fsatlas.site import report

A, B = types.SimpleNamespace(key="ext4|-|-|w"), types.SimpleNamespace(key="xfs|-|-|w")


def _result(a: list, b: list) -> dict:
    """One run of the pair measure runs: A and B in the same rounds, throughput and the seconds it
    took (not a scaled copy of it, which the report leaves out: comparison.distinct)."""
    def cell(fs, samples, offset):
        return {"key": f"{fs}|-|-|w", "filesystem": fs, "workload": "w", "status": "ok",
                "started": [f"2026-11-29T00:00:{2 * i + offset:02d}Z" for i in range(len(samples))],
                "metrics": {"throughput": {"samples": samples, "unit": "bytes/s", "better": "higher"},
                            "seconds": {"samples": [1e3 / (s + 1) for s in samples], "unit": "s", "better": "lower"}}}
    return {"id": "r", "cells": [cell("ext4", a, 0), cell("xfs", b, 1)]}


def _note(a: list, b: list, change: float = 3.0) -> tuple[dict, str]:
    pair = measure.outcome(_result(a, b), [(A, B)], change)[0]
    return pair, measure_cmd._why_missed(pair)


def test_one_repetition_the_note_says_n_1_as_the_row_does():
    pair, note = _note([100.0], [120.0])
    rows = report.within(_result([100.0], [120.0]), "ext4", "xfs")
    assert not pair["reached"] and "n = 1" in note
    assert all(f"{r['status']}: {r['why']}" in note for r in rows)
    assert "no spread" not in note


samples = st.integers(1, 4).flatmap(lambda n: st.tuples(
    st.lists(st.sampled_from([100.0, 0.0]) | st.floats(1, 1e6), min_size=n, max_size=n),
    st.lists(st.sampled_from([100.0, 0.0]) | st.floats(1, 1e6), min_size=n, max_size=n)))


@settings(max_examples=40, deadline=None)
@given(pair_samples=samples | st.sampled_from([([100.0] * 3, [100.0] * 3), ([0.0] * 2, [5.0, 6.0])]))
def test_a_note_gives_the_reasons_the_reports_rows_give(pair_samples):
    a, b = pair_samples
    pair, note = _note(a, b)
    rows = {r["metric"]: r for r in report.within(_result(a, b), "ext4", "xfs", all_metrics=True)}
    untested = [name for name in pair["metrics"] if rows[name]["status"] != "tested"]
    for name in pair["metrics"]:  # what the command prints of the metric is what the report's row says
        if name in untested:
            assert measure_cmd._not_testable(pair, name) == f"{rows[name]['status']}: {rows[name]['why']}"
        elif pair["metrics"][name] is None:  # tested, with no change within reach at 80 % power (2 pairs)
            assert not measure_cmd._not_testable(pair, name).startswith("not test")
    if untested and len(untested) == len(pair["metrics"]):  # nothing tested: the note is those reasons
        assert note == "; ".join(dict.fromkeys(measure_cmd._not_testable(pair, n) for n in untested))
        assert all(f"{r['status']}: {r['why']}" in note for r in rows.values())


@settings(max_examples=30, deadline=None)
@given(a=st.lists(st.floats(1e3, 1e9), min_size=2, max_size=6), b=st.lists(st.floats(1e3, 1e9), min_size=2, max_size=6),
       block=st.sampled_from([512, 4096, 1048576]))
def test_measure_waits_only_on_the_rows_the_report_shows(a, b, block):
    """measure's stopping rule reads each headline metric's row as the report makes it: one row
    for throughput and the iops that scale its samples (the report never shows an iops row
    beside it), with the report's own smallest detectable change."""
    n = min(len(a), len(b))
    result = _result(a[:n], b[:n])
    for cell in result["cells"]:
        cell["metrics"]["iops"] = {"samples": [s / block for s in cell["metrics"]["throughput"]["samples"]],
                                   "unit": "IO/s", "better": "higher"}
    pair = measure.outcome(result, [(A, B)], 3.0)[0]
    rows = {r["metric"]: r for r in report.within(result, "ext4", "xfs")}
    assert set(pair["metrics"]) == set(rows) and "throughput" in rows and "iops" not in rows
    for name, row in rows.items():
        assert pair["metrics"][name] == (row["detectable_pct"] if row["status"] == "tested" else None)
