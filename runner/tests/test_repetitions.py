"""The repetition rule: at least the planned count; in adaptive profiles repeat while the primary
metric's RSD is above 3.5 %, up to 3x the planned count, then flag noisy; fixed profiles only flag.

The workload here is a scripted sequence of values, because what is tested is the runner's rule,
not a measurement; real workloads are tested on real filesystems in test_run_loop.py.
"""
import tempfile
import time
import types

import pytest

from hypothesis import given, settings, strategies as st

from fsatlas.results import comparison, contention
from fsatlas.run import evidence, execution, matrix
from fsatlas.run.workloads import KINDS


@pytest.fixture(autouse=True)
def quiet_host(monkeypatch):
    """The spread rules are tested on scripted values: the host's real contention (this machine
    is shared) must not make the runner repeat them; the contention rule's tests script it."""
    monkeypatch.setattr(evidence, "Meter", scripted_meter([]))


def scripted_meter(contended):
    """A Meter whose host record passes the other processes' CPU threshold where the next item of
    CONTENDED is true (then never)."""
    it = iter(contended)

    class Meter:
        def __init__(self, device):
            pass

        def done(self):
            busy = 2.0 if next(it, False) else 0.0
            return None, {"steal_pct": 0.0, "iowait_pct": 0.0, "others_cpu_s": busy, "load1": 1.0, "seconds": 1.0,
                          "helpers_cpu_s": 0.0}
    return Meter


def scripted_kind(values):
    it = iter(values)
    return types.SimpleNamespace(METRICS={"throughput": ("bytes/s", "higher")},
                                 run=lambda cell, ctx: {"throughput": next(it)})


def run_one(monkeypatch, tmp_path, values, adaptive, planned=3):
    monkeypatch.setitem(KINDS, "scripted", scripted_kind(values))
    cell = matrix.Cell("ext4", "w", "scripted", primary="throughput")
    profile = matrix.Profile("p", 1 << 20, planned, adaptive, [cell])
    # a stable raw-device baseline of the job far above the cell's figures: the flags are the repetitions' own
    base = {"throughput": {"mean": 1e9, "rsd_pct": 0.0, "samples": [1e9] * 3}}
    result = {"id": "r", "created": "2026-11-24T00:00:00Z", "target": {"baseline": {"w": base}, "baseline_written": True},
              "cells": []}
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
    base = {"throughput": {"mean": 200.0, "rsd_pct": 1.0, "samples": [198.0, 200.0, 202.0]}}  # the raw device on the
    # cell's own job, written first
    run = execution.Run(None, profile, str(tmp_path), None, {"id": "r", "created": "2026-11-24T00:00:00Z",
                                                             "target": {"baseline": {"w": base}, "baseline_written": True},
                                                             "cells": []})
    (record,) = run.records_for([cell], {})
    run.run_cell(cell, record, None, {})
    assert record["flags"] == ["cached"]  # 300 > 1.2 x 200


def run_pair(monkeypatch, tmp_path, base_values, option_values, aims, adaptive=True, ran=None, result=None):
    """The option's cell and its baseline in interleaved rounds, as a filesystem's variants run;
    RAN (a list) gets each repetition's cell key in the order they ran; RESULT: the run's result
    document (a resumed run's holds its round_seed)."""
    streams = {"ext4|-|-|w": iter(base_values), "ext4|-|commit=60|w": iter(option_values)}
    ran = [] if ran is None else ran
    monkeypatch.setitem(KINDS, "scripted", types.SimpleNamespace(
        METRICS={"throughput": ("bytes/s", "higher")},
        # a few ms a repetition: the record's starts (to the ms) tell the rounds apart, as the
        # report's test of interleaving (comparison.interleaved) reads them and the stopping rule with it
        run=lambda cell, ctx: ran.append(cell.key) or time.sleep(0.003) or {"throughput": next(streams[cell.key])}))
    cells = [matrix.Cell("ext4", "w", "scripted", primary="throughput"),
             matrix.Cell("ext4", "w", "scripted", mount_options=("commit=60",), variant="commit-60", primary="throughput")]
    run = execution.Run(None, matrix.Profile("p", 1 << 20, 3, adaptive, cells), str(tmp_path), None,
                        {"id": "r", "created": "2026-11-24T00:00:00Z", "target": {}, "cells": []}
                        if result is None else result)
    run.claim_aims = aims
    records = run.records_for(cells, {})
    run.run_interleaved([(c, r, None, {}, None, "") for c, r in zip(cells, records)])
    return [r["metrics"]["throughput"]["samples"] for r in records]


# RSD under 3.5 % on each side (the spread rule stops at 3), but the paired differences wander by ~2 %
BASE = [100, 103, 100, 102, 101, 103, 100, 102, 101, 100]
OPTION = [101, 100, 103, 100, 102, 101, 103, 100, 101, 102]
AIM = {("ext4|-|commit=60|w", "ext4|-|-|w"): ("throughput", 5.0)}


def test_rounds_go_on_until_the_pair_can_detect_the_change_its_claim_expects(monkeypatch, tmp_path):
    base, option = run_pair(monkeypatch, tmp_path, BASE, OPTION, AIM)
    n = len(base)
    assert len(option) == n and 3 < n <= 9
    detectable = [comparison.compare(BASE[:k], OPTION[:k], "higher", "log", paired=True)["detectable_pct"]
                  for k in range(3, 10)]
    # the first round count whose detectable change is within the claim's 5 %, or the cap
    assert n == next((k for k, d in zip(range(3, 10), detectable) if d <= 5.0), 9), detectable
    assert detectable[0] > 5.0


@settings(max_examples=60)
@given(cells=st.integers(2, 6), rounds=st.integers(2, 12), seed=st.integers(0, execution.ROUND_SEEDS - 1),
       names=st.lists(st.text("abcdefgh|-=,", min_size=1, max_size=12), min_size=6, max_size=6, unique=True),
       shuffle=st.randoms(use_true_random=False))
def test_no_cell_holds_one_place_in_every_round(cells, rounds, seed, names, shuffle):
    """The rule of interleaved rounds (issue 60): the order within a round is counterbalanced.
    Counted by hand over any cells and rounds: each round runs every cell once; no cell holds
    one place in every round; each cell's count in each place is any other's, +-1 (for two
    cells: first in half the rounds, +-1 for an odd count, here even +-0.5); over a whole block
    (k rounds, 2k for an odd k) each cell goes first of each pair in half the rounds and follows
    each other cell directly equally often; the orders come back from the recorded seed
    whatever order the keys are given in."""
    keys = names[:cells]
    orders = [execution.round_order(keys, r, seed) for r in range(rounds)]
    for order in orders:
        assert sorted(order) == sorted(keys)
    for key in keys:
        places = [order.index(key) for order in orders]
        assert len(set(places)) > 1, (key, orders)
        for place in range(cells):
            assert rounds // cells <= places.count(place) <= -(-rounds // cells), (key, place, orders)
    if cells == 2:
        firsts = [order[0] for order in orders].count(keys[0])
        assert abs(firsts - rounds / 2) <= 0.5
    block = [execution.round_order(keys, r, seed) for r in range(cells * (1 + cells % 2))]
    for a in keys:
        for b in keys:
            if a != b:
                assert sum(o.index(a) < o.index(b) for o in block) * 2 == len(block), (a, b, block)
                assert sum(o.index(b) == o.index(a) + 1 for o in block) * cells == len(block), (a, b, block)
    given_otherwise = shuffle.sample(keys, cells)
    assert [execution.round_order(given_otherwise, r, seed) for r in range(rounds)] == orders
    started, now = {key: [] for key in keys}, 0.0  # repetitions of any length, run in these orders
    for order in orders:
        for key in order:
            started[key].append(now)
            now += shuffle.uniform(0.001, 100)
    assert all(comparison.interleaved(started[a], started[b]) for a in keys for b in keys if a != b)


def test_the_order_of_a_block_of_rounds_is_drawn_not_fixed():
    """Not a fixed rotation (A B, B A, A B…) that a periodic disturbance could follow: over seeds,
    a pair's second block of two rounds starts with either cell, and three cells' first three
    rounds come in more than two sequences (rows of their Williams square)."""
    pair = {tuple(execution.round_order(["a", "b"], 2, seed)) for seed in range(40)}
    assert pair == {("a", "b"), ("b", "a")}
    squares = {tuple(tuple(execution.round_order(["a", "b", "c"], r, seed)) for r in range(3)) for seed in range(40)}
    assert len(squares) > 2


def test_interleaved_rounds_run_in_the_recorded_seeds_orders(monkeypatch, tmp_path):
    """A run's rounds (here the claim-aims path, past the planned count) run in the orders of the
    result's round_seed: one the file already holds (a resumed run) is kept, and a new run draws
    one and records it; each side goes first in half the rounds, +-1."""
    keys = ["ext4|-|-|w", "ext4|-|commit=60|w"]
    for seed in (7, None):
        ran, result = [], {"id": "r", "created": "2026-11-24T00:00:00Z", "target": {}, "cells": []}
        if seed is not None:
            result["round_seed"] = seed
        base, _ = run_pair(monkeypatch, tmp_path, BASE, OPTION, AIM, ran=ran, result=result)
        assert result["round_seed"] == seed or seed is None  # a resumed run's seed is kept
        assert isinstance(result["round_seed"], int) and 0 <= result["round_seed"] < execution.ROUND_SEEDS
        rounds = [ran[i:i + 2] for i in range(0, len(ran), 2)]
        assert len(rounds) == len(base) > 3
        assert rounds == [execution.round_order(keys, r, result["round_seed"]) for r in range(len(rounds))]
        assert abs([r[0] for r in rounds].count(keys[0]) - len(rounds) / 2) <= 1


def test_without_a_claim_on_the_pair_or_in_a_fixed_profile_the_planned_count_stands(monkeypatch, tmp_path):
    assert [len(s) for s in run_pair(monkeypatch, tmp_path, BASE, OPTION, {})] == [3, 3]
    assert [len(s) for s in run_pair(monkeypatch, tmp_path, BASE, OPTION, AIM, adaptive=False)] == [3, 3]


def test_a_claim_the_spread_can_never_resolve_stops_at_three_times_planned(monkeypatch, tmp_path):
    wide = {("ext4|-|commit=60|w", "ext4|-|-|w"): ("throughput", 0.1)}
    assert [len(s) for s in run_pair(monkeypatch, tmp_path, BASE, OPTION, wide)] == [9, 9]


def test_the_aims_are_the_knowledge_base_claims_pairs():
    from fsatlas.run import claim_aims
    aims = claim_aims.load()
    assert aims[("ext4|-|commit=60|background-writes", "ext4|-|-|background-writes")] == ("throughput", 5.0)
    # data=journal halving writes: the claim expects -50 %
    assert aims[("ext4|-|data=journal|buffered-write", "ext4|-|data=ordered|buffered-write")] == ("throughput", 50.0)


def test_a_broken_claims_file_costs_only_its_own_aims(tmp_path):
    from fsatlas.run import claim_aims
    (tmp_path / "a.yaml").write_text("claims:\n  - {metric: throughput, expected_change_pct: 10, measured_by: "
                                     "[{cell: 'ext4|-|x|w', baseline: 'ext4|-|-|w'}]}\n")
    (tmp_path / "b.yaml").write_text("claims:\n  - {metric: throughput, expected_change_pct: lots, measured_by: []}\n")
    (tmp_path / "c.yaml").write_text("claims: [unclosed\n")
    (tmp_path / "d.yaml").write_text("- a list, not an option\n")
    assert claim_aims.load(str(tmp_path)) == {("ext4|-|x|w", "ext4|-|-|w"): ("throughput", 10.0)}


@settings(max_examples=40)
@given(planned=st.integers(1, 4), contended=st.lists(st.booleans(), max_size=16), adaptive=st.booleans())
def test_a_contended_repetition_is_run_again_up_to_the_cap_and_marks_its_cell_if_it_stays(planned, contended, adaptive):
    values = list(range(1, 40))  # each attempt's own value: which were kept shows which attempts counted
    with pytest.MonkeyPatch.context() as mp, tempfile.TemporaryDirectory() as tmp:
        mp.setattr(evidence, "Meter", scripted_meter(contended))
        record = run_one(mp, tmp, values, adaptive=adaptive, planned=planned)
    # the rule, counted by hand: attempt i of a repetition is kept when it is not contended or is its last allowed
    retries = execution.CONTENTION_RETRIES if adaptive else 0
    attempts, kept, stays = iter(enumerate(contended + [False] * 100)), [], []
    for _ in range(planned):
        for tried in range(retries + 1):
            i, busy = next(attempts)
            if not busy or tried == retries:
                kept.append(values[i])
                stays.append(busy)
                break
    samples = record["metrics"]["throughput"]["samples"]
    if adaptive:  # the values' spread makes the spread rule add repetitions past the planned ones
        assert len(samples) >= planned
        samples = samples[:planned]
    assert samples == kept
    assert [bool(contention.passes(h)) for h in record["host"]][:planned] == stays
    assert ("contended" in record["flags"]) == any(bool(contention.passes(h)) for h in record["host"])
