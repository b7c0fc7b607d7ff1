"""Issue 62 (fifth round): one sample has no interval and no spread. Every figure the site shows
with its interval or RSD says so for n = 1 ("no interval: n = 1", RSD "–") and gives the charts
no whisker (its interval null), and shows a real interval for n >= 2; through the real
functions that compute and print them (aggregate's rows, digests and cells, knowledge's
rankings, the explorer's chunk)."""
import copy
import json
import re

import pytest
from hypothesis import given, settings, strategies as st

from testutil import FIXTURES
from fsatlas.results import stats
from fsatlas.results.resultfile import readable
from fsatlas.site import aggregate, explorer, knowledge

RESULT = readable(json.loads((FIXTURES / "results" / "fixture-valid.json").read_text()))
CELL = next(i for i, c in enumerate(RESULT["cells"]) if c["status"] == "ok" and "throughput" in c["metrics"])
EQUAL_ENDS = re.compile(r"^(.+?)\s*–\s*\1$")  # "966–966", "1.2 GB/s – 1.2 GB/s"


def _with_samples(values) -> dict:
    """fixture-valid with one cell's throughput (and every other metric of it) summarized from values."""
    result = copy.deepcopy(RESULT)
    cell = result["cells"][CELL]
    cell["metrics"] = {name: stats.summarize(values, m["unit"], m["better"]) for name, m in cell["metrics"].items()}
    return result


def _check(words_or_figures: list[str], n: int) -> None:
    for text in words_or_figures:
        if n == 1:
            assert text in (knowledge.NO_INTERVAL, knowledge.NO_RSD), text
        else:
            assert text not in (knowledge.NO_INTERVAL, knowledge.NO_RSD), text


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(min_value=1e-3, max_value=1e12, allow_nan=False), min_size=1, max_size=5))
def test_one_sample_has_no_interval_and_no_spread_wherever_it_is_shown(values):
    result = _with_samples(values)
    n, key = len(values), result["cells"][CELL]["key"]
    rows = [r for r in aggregate.cell_rows(result) if r["key"] == key]
    digest = aggregate.digest(result, aggregate.cell_rows(result))
    assert rows
    for row in rows:
        assert row["n"] == n
        if n == 1:  # null, not [mean, mean] and 0.0 %
            assert row["ci_low"] is None and row["ci_high"] is None and row["rsd_pct"] is None
        else:
            assert row["ci_low"] <= row["mean"] <= row["ci_high"] and row["rsd_pct"] >= 0
        _check([row["shown"]["ci"], row["shown"]["rsd"]], n)
    (tp,) = [r for r in aggregate.throughput_rows(rows, "a machine") if r["metric"] == "throughput"]
    _check([tp["shown"]["ci"], tp["shown"]["rsd"]], n)
    (cell,) = [c for c in digest["cells"] if c["key"] == key]
    shown = aggregate.shown_cells({key: cell})[key]["metrics"]
    for m in shown.values():
        _check([m["ci"], m["rsd"], knowledge.interval(m)], n)
    (rule_row,) = aggregate.rule_throughput_rows({key: {**cell, "shared": True, "result": result["id"],
                                                        "machine": "m-0", "machine_name": "a machine",
                                                        "mkfs": "", "mount": ""}})
    _check([rule_row["shown"]["ci"], rule_row["shown"]["rsd"]], n)
    assert (rule_row["ci_low"] is None) == (n == 1)
    made = explorer.chunk(result, aggregate.cell_rows(result), digest["cells"])
    chunk, keys = made["rows"], made["keys"]
    at = [i for i, ki in enumerate(chunk["k"]) if keys[ki] == key]
    assert at
    for i in at:
        assert (chunk["lo"][i] is None, chunk["hi"][i] is None, chunk["rsd"][i] is None) == (n == 1,) * 3
    for ranking in knowledge.rankings([digest]).values():
        for r in ranking["ranked"] + ranking["excluded"]:
            if r["n"] == 1:
                assert r["interval"] == knowledge.NO_INTERVAL and r["shown_low"] is None and r["shown_high"] is None
            else:
                assert not EQUAL_ENDS.match(r["interval"]) or r["shown_low"] == r["shown_high"]


@given(st.floats(min_value=0, max_value=1e15, allow_nan=False), st.sampled_from(["bytes/s", "ops/s", "s", "ns", "percent"]))
def test_an_interval_is_words_only_where_there_is_none(value, unit):
    assert knowledge.shown_interval(None, None, unit) == knowledge.NO_INTERVAL
    assert knowledge.shown_rsd(None) == knowledge.NO_RSD
    assert knowledge.shown_interval(value, value * 2, unit) != knowledge.NO_INTERVAL
    assert knowledge.shown_rsd(value) == f"{value:,.1f} %"


@given(st.lists(st.sampled_from([0.0, 0.0, 1.0, 2.5, 1e6]), min_size=1, max_size=6))
def test_an_rsd_is_shown_only_where_it_is_a_percent_of_something(samples):
    """Rule: RSD is the spread as a percent of the mean: none for one sample, none for a mean of
    zero (round 13: a fio job that moved 0 bytes read "RSD 0.0 %"); else 100·stdev/mean, as
    Python's statistics module computes it."""
    import statistics
    from fsatlas.results import stats
    shown = stats.shown_rsd(stats.moments(samples))
    mean = statistics.fmean(samples)
    if len(samples) == 1 or mean == 0:
        assert shown is None
    else:
        assert shown == pytest.approx(100 * statistics.stdev(samples) / mean)
