"""The rules of issue 60 (items 1, 2, 7) and issue 62 (item 3) on the one comparison module:
the run is the unit across result files (comparison.design decides, from a hand-written table),
what besides the filesystem differs keeps a row from "better"/"worse", one test per set of
samples (iops is throughput scaled), the equivalence margin below every claim's expected change,
and a ratio's interval never below zero."""
import glob
import itertools
import json
import math

import pytest
import yaml
from hypothesis import assume, given, settings, strategies as st
from scipy import stats as scipy_stats

from fsatlas.cli import main
from fsatlas.results import comparison
from testutil import RESULTS, rescaled_run
from fsatlas.results.resultfile import readable  # a result file in the read form (schema 2 stores no summaries)

REPO = RESULTS.parents[1]

MACHINE = {"machine": "m-1", "cpu_model": "Xeon", "cpu_count": 2, "memory_bytes": 2**34, "kernel": "6.1.0",
           "os": "Debian GNU/Linux 12 (bookworm)", "virtualization": "kvm"}
TARGET = {"kind": "loop-image", "backing_filesystem": "ext4", "backing_device": "vda", "image_bytes": 2**30}


QUIET = {"others_cpu_s": 0.0, "steal_pct": 0.0, "iowait_pct": 0.5, "seconds": 1.0, "load1": 0.1}  # a repetition's host record


def result(rid: str, cells: dict, system: dict | None = None, target: dict | None = None, profile="quick") -> dict:
    """A result file's fields that comparison.between reads: cells {key: {metric: samples}}."""
    return {"id": rid, "profile": profile, "system": {**MACHINE, **(system or {})}, "target": {**TARGET, **(target or {})},
            "tool": {"runner": "0.1.0", "fio": "fio-3.33"},
            "cells": [{"key": key, "status": "ok", "started": [], "host": [QUIET] * len(next(iter(ms.values()), [])),
                       "metrics": {name: {"samples": list(s), "better": "higher", "unit": "bytes/s"}
                                   for name, s in ms.items()}} for key, ms in cells.items()]}


def run_factors(rid, **changed):
    return {**comparison.factors(result(rid, {})), **changed}


# The hand-written table: (side A's runs, side B's runs, interleaved, design, tested, why)
A1, A2, B1, B2 = (run_factors(r) for r in ("a1", "a2", "b1", "b2"))
DESIGNS = [
    ([A1], [A1], True, comparison.PAIRED, True, ""),
    ([A1], [A1], False, comparison.REPETITIONS, True, ""),
    ([A1], [B1], False, comparison.ONE_RUN, False, "not tested: one run per side"),
    ([A1], [B1], True, comparison.ONE_RUN, False, "not tested: one run per side"),  # interleaved means nothing across files
    ([A1, A1], [B1, B1], False, comparison.ONE_RUN, False, "not tested: one run per side"),  # one run named twice
    ([A1, A2], [B1], False, comparison.ONE_RUN, False, "not tested: one run on side B"),
    ([A1], [B1, B2], False, comparison.ONE_RUN, False, "not tested: one run on side A"),
    ([A1, A2], [B1, B2], False, comparison.RUN_MEANS, True, ""),
    ([A1, A2], [A1, A2], False, comparison.RUN_MEANS, False, "not tested: run a1, a2 on both sides"),
    ([A1, A2], [A2, B1], False, comparison.RUN_MEANS, False, "not tested: run a2 on both sides"),
]


@pytest.mark.parametrize("side_a,side_b,pairs,kind,tested,why", DESIGNS)
def test_the_design_follows_the_table(side_a, side_b, pairs, kind, tested, why):
    plan = comparison.design(side_a, side_b, pairs)
    assert (plan["design"], plan["tested"], plan["why"]) == (kind, tested, why)
    assert plan["differ"] == []


@pytest.mark.parametrize("factor,value", [("machine", "m-2, Epyc"), ("kernel", "6.18"), ("storage", "nvme0n1"),
                                          ("profile", "standard")])
def test_each_factor_that_differs_is_named_and_only_it(factor, value):
    plan = comparison.design([A1, A2], [run_factors("b1", **{factor: value}), B2])
    assert plan["differ"] == [factor]


def test_factors_see_machine_cpu_memory_kernel_storage_and_profile():
    base = result("r", {})
    for changed in ({"system": {"cpu_model": "Epyc"}}, {"system": {"memory_bytes": 2**33}}, {"system": {"machine": "m-9"}},
                    {"system": {"kernel": "6.2"}}, {"target": {"backing_device": "nvme0n1"}},
                    {"target": {"kind": "device"}}, {"profile": "standard"}):
        other = result("r2", {}, changed.get("system"), changed.get("target"), changed.get("profile", "quick"))
        assert comparison.design([comparison.factors(base)], [comparison.factors(other)])["differ"], changed


samples = st.lists(st.floats(1.0, 1e9), min_size=2, max_size=6)


@settings(max_examples=60)
@given(a=samples, b=samples, machine=st.booleans())
def test_two_single_run_files_never_yield_a_verdict(a, b, machine):
    assume(a != b)  # the same samples are one run's content: refused (test_a_run_counts_once...)
    run_a = result("a", {"ext4|-|-|seq-write": {"throughput": a}})
    run_b = result("b", {"ext4|-|-|seq-write": {"throughput": b}}, {"machine": "m-2"} if machine else None)
    # and runs whose values the other holds (90 % of them): one run (comparison.shared_print)
    assume(comparison.shared_print(comparison.cell_prints(run_a), [comparison.cell_prints(run_b)]) is None)
    rows = comparison.between(run_a, run_b)
    assert rows and all(r["verdict"] == "not tested" and r["p"] is None and r["ratio_ci95"] is None for r in rows)
    assert all(r["why"] == "one run per side" for r in rows)
    assert rows[0]["ratio"] == pytest.approx((sum(b) / len(b)) / (sum(a) / len(a)))


def test_the_issues_example_two_identical_runs_give_no_finding():
    """xfs sqlite-commits, B/A 27.3 within run B's repetitions: across files, not tested."""
    [row] = comparison.between(result("a", {"xfs|-|-|sqlite-commits": {"commits_per_s": [10.0, 11.0, 10.5]}}),
                               result("b", {"xfs|-|-|sqlite-commits": {"commits_per_s": [280.0, 290.0, 285.0]}}))
    assert row["verdict"] == "not tested" and row["ratio"] == pytest.approx(27.3, rel=0.01)


@pytest.mark.filterwarnings("ignore:Precision loss")
@settings(max_examples=40)
@given(runs_a=st.lists(samples, min_size=2, max_size=4), runs_b=st.lists(samples, min_size=2, max_size=4))
def test_several_runs_a_side_are_tested_on_run_means_as_scipy_does(runs_a, runs_b):
    assume(len({tuple(s) for s in runs_a + runs_b}) == len(runs_a + runs_b))  # the same samples: one run (once())
    side_a = [result(f"a{i}", {"k": {"throughput": s}}) for i, s in enumerate(runs_a)]
    side_b = [result(f"b{i}", {"k": {"throughput": s}}) for i, s in enumerate(runs_b)]
    # and (nearly) the same samples in another order: one run too (comparison.shared_print)
    prints = [comparison.cell_prints(r) for r in side_a + side_b]
    assume(not any(comparison.shared_print(p, [q]) for p, q in itertools.combinations(prints, 2)))
    [row] = comparison.between(side_a, side_b)
    assert row["design"] == comparison.RUN_MEANS and (row["n_a"], row["n_b"]) == (len(runs_a), len(runs_b))
    means_a, means_b = ([math.log(sum(s) / len(s)) for s in runs] for runs in (runs_a, runs_b))
    if row["status"] == "tested":
        assert row["p"] == pytest.approx(scipy_stats.ttest_ind(means_b, means_a, equal_var=False).pvalue, rel=1e-6)
    else:
        assert row["verdict"] == "not testable"


def test_a_difference_between_machines_is_never_better_or_worse():
    fast, slow = [[100.0, 101.0], [102.0, 100.5], [101.0, 99.0]], [[50.0, 51.0], [50.5, 49.0], [51.0, 50.0]]
    side_a = [result(f"a{i}", {"k": {"throughput": s}}) for i, s in enumerate(slow)]
    for changed, verdict in (({}, "better"), ({"machine": "m-2"}, "differs"), ({"kernel": "6.18"}, "differs")):
        side_b = [result(f"b{i}", {"k": {"throughput": s}}, changed) for i, s in enumerate(fast)]
        [row] = comparison.between(side_a, side_b)
        assert row["significant"] and row["verdict"] == verdict, changed
        assert ("not the filesystem's alone" in comparison.describe(row)) == bool(changed)


@settings(max_examples=60)
# throughputs from 10 kB/s: below, fio's whole byte hides a factor 1.5 (test_comparison_factors' fio arithmetic)
@given(x=st.lists(st.floats(1e4, 1e9), min_size=2, max_size=6), y=st.lists(st.floats(1e4, 1e9), min_size=2, max_size=6),
       c=st.floats(1e-3, 1e6), d=st.floats(1.5, 3.0))
def test_a_metric_that_is_another_scaled_is_not_a_second_test(x, y, c, d):
    assume(max(x + y) > 1.001 * min(x + y))  # equal samples are every metric's scaled: one test is right there
    names = ["throughput", "iops", "lat_mean_ns"]
    a = {"throughput": x, "iops": [v / c for v in x], "lat_mean_ns": [1e9 / v for v in x]}
    b = {"throughput": y, "iops": [v / c for v in y], "lat_mean_ns": [1e9 / v for v in y]}
    assert comparison.distinct(names, a, b) == ["throughput", "lat_mean_ns"]
    # just beside: iops scaled by another constant on side B is another measurement, kept
    b_other = {**b, "iops": [v / (c * d) for v in y]}
    assert comparison.distinct(names, a, b_other) == names


def test_a_results_iops_row_is_gone_where_it_repeats_throughput():
    # measured: a quick ext4 fsync-write-4k, bytes/s over IOPS 4095.997209, 4095.999917, 4095.994493 (fio's rounding)
    throughput = [4317000.0, 4320100.0, 4316500.0]
    iops = [t / r for t, r in zip(throughput, (4095.997209, 4095.999917, 4095.994493))]
    cells = {"ext4|-|-|fsync-write-4k": {"throughput": throughput, "iops": iops}}
    # four runs: four contents, each sample its own (one factor a run would be a scaled copy)
    runs = [result(rid, {k: {n: [v * (1 + i / 100) * (1 + 1e-4 * ((i + 1) * (j + 1) % 5)) for j, v in enumerate(s)]
                             for n, s in ms.items()} for k, ms in cells.items()})
            for i, rid in enumerate(("a1", "a2", "b1", "b2"))]
    rows = comparison.between(runs[:2], runs[2:])
    assert [r["metric"] for r in rows] == ["throughput"]


def test_the_equivalence_margin_lies_below_every_claims_expected_change():
    expected = []
    for path in glob.glob(str(REPO / "data" / "mount_options" / "*.yaml")):
        for claim in (yaml.safe_load(open(path, encoding="utf-8")) or {}).get("claims", []):
            if claim.get("expected_change_pct"):
                expected.append(abs(float(claim["expected_change_pct"])))
    assert expected and comparison.EQUIVALENCE_MARGIN_PCT < min(expected)
    row = comparison.compare([100.0, 101.0, 99.0, 100.5], [104.0, 105.5, 103.5, 104.5], "higher")
    comparison.adjust([row], comparison.BH)
    assert row["verdict"] == "better" and not row["equivalent"]  # a 4 % change is not "no effect"


nonnegative = st.lists(st.one_of(st.just(0.0), st.floats(0.0, 100.0), st.floats(0.0, 1e12)), min_size=2, max_size=9)


@settings(max_examples=300)
@given(a=nonnegative, b=nonnegative, scale=st.sampled_from(["log", "linear"]), paired=st.booleans())
def test_a_ratios_interval_is_never_below_zero(a, b, scale, paired):
    row = comparison.compare(a, b, "lower", scale, paired)
    if row["ratio_ci95"] is not None:
        low, high = row["ratio_ci95"]
        assert 0 <= low <= high and row["ratio"] >= 0


def test_the_issues_cpu_example_and_just_beside_it():
    """'seq-write CPU in user mode 0.204x (-0.227-0.634)': percent samples, compared on the linear scale."""
    for a, b in (([2.9, 4.4, 3.9, 4.2, 4.6, 3.6, 0.8, 2.0, 1.6], [0.0, 0.7, 0.3, 0.0, 0.0, 1.6, 0.5, 0.4, 0.0]),
                 ([1.0, 5.0], [0.0, 0.4]), ([0.1, 9.0, 0.1], [0.0, 0.0, 0.3])):
        row = comparison.compare(a, b, "lower", "linear")
        assert row["status"] == "tested" and 0 < row["ratio_ci95"][0] < row["ratio"] < row["ratio_ci95"][1]
        # the test of the logarithm of the ratio of the means (delta method), whose interval it is
        mean_a, mean_b = sum(a) / len(a), sum(b) / len(b)
        sd_a, sd_b = (float(scipy_stats.tstd(v)) for v in (a, b))
        assert row["p"] == pytest.approx(float(scipy_stats.ttest_ind_from_stats(
            math.log(mean_b), sd_b / mean_b, len(b), math.log(mean_a), sd_a / mean_a, len(a), equal_var=False).pvalue))


def test_compare_takes_several_runs_a_side_and_names_what_differs(tmp_path, capsys):

    files = sorted(RESULTS.glob("*-quick.json"))[:2]
    standard = sorted(RESULTS.glob("*-m-05e18e6041-standard.json"))[:2]
    # the committed runs before 20261127 recorded no contention: copies that record it (else not tested)
    assert main(["compare", "--runs-a", *(rescaled_run(f, 1.0, tmp_path) for f in files),
                 "--runs-b", *(rescaled_run(f, 1.0, tmp_path) for f in standard)]) == 0
    out = capsys.readouterr().out
    assert "tested on the runs' means" in out and " detect " in out and "p equiv" in out
    a, b = (readable(json.loads(f.read_text())) for f in files)
    differ = comparison.design([comparison.factors(a)], [comparison.factors(b)])["differ"]
    assert main(["compare", str(files[0]), str(files[1])]) == 0
    out = capsys.readouterr().out
    assert "not tested (one run per side" in out and not any(line.endswith((" better", " worse")) for line in out.splitlines())
    assert (f"The sides differ in {', '.join(differ)}" in out) if differ else "are the same on both sides" in out
    assert main(["compare", str(files[0])]) == 1
    assert "expected fsatlas compare A.json B.json" in capsys.readouterr().err


def test_the_compare_page_and_the_explorer_take_their_view_across_runs_from_design():
    from fsatlas.site import aggregate, explorer, pairs
    plan = comparison.design([A1], [B1])
    assert pairs.across_runs()["why"] == plan["why"] == "not tested: one run per side"
    assert explorer.pairs_across()["why"] == plan["why"]
    path = sorted(RESULTS.glob("*-standard.json"))[-1]
    doc = readable(json.loads(path.read_text()))
    fs = next(c["filesystem"] for c in doc["cells"] if c["status"] == "ok")
    side = pairs.side(fs, aggregate.digest(doc))
    assert side["factors"] == comparison.factors(doc)  # what the page compares between the two runs picked


@settings(max_examples=40)
@given(st.lists(st.floats(1, 1e9), min_size=2, max_size=6), st.lists(st.floats(1, 1e9), min_size=2, max_size=6),
       st.sampled_from(["import-fio", "import-pts", "import-bonnie"]))
def test_an_imports_repetitions_are_never_tested_against_each_other(a, b, profile):
    # rule (#64): within one import, two sides' repetitions ran one after the other, never interleaved
    run = {"run": "R", "profile": profile}
    plan = comparison.design([run], [run], interleaved_pairs=False)
    row = comparison.compare_design([a], [b], "higher", "log", plan)
    assert row["status"] == "not tested" and "interleaved" in row["why"] and row["p"] is None
    assert comparison.adjust([row], comparison.BH)[0]["verdict"] == "not tested"
    # just beside it: the runner's own run, the same samples, is tested as before
    runner = comparison.design([{"run": "R", "profile": "quick"}], [{"run": "R", "profile": "quick"}])
    assert runner["tested"] and runner["design"] == comparison.REPETITIONS


def _cell(others_cpu_s: float, seconds: float = 10.0) -> dict:
    return {"wall_seconds": 3 * seconds,
            "host": [{"others_cpu_s": others_cpu_s, "steal_pct": 0.0, "iowait_pct": 1.0, "seconds": seconds}] * 3}


@settings(max_examples=60)
@given(st.floats(0, 20), st.floats(0, 20))
def test_a_row_whose_sides_differ_in_contention_gets_no_verdict(cpu_a, cpu_b):
    # rule (#60 item 4): contention beyond the threshold between the sides, or a repetition of
    # one past it where the other's of that round is not (round 56), -> said instead of a verdict,
    # decided by results/contention alone (a hand count of its threshold here)
    from fsatlas.results import contention
    share = [(c if c > contention.RESOLUTION_CPU_S else 0.0) / 10.0 for c in (cpu_a, cpu_b)]
    beyond = abs(share[0] - share[1]) > contention.OTHERS_CPU_SHARE or (share[0] > contention.OTHERS_CPU_SHARE) != (share[1] > contention.OTHERS_CPU_SHARE)
    found = comparison.contended([(None, _cell(cpu_a))], [(None, _cell(cpu_b))])
    assert bool(found) == beyond
    run = {"run": "R", "profile": "quick"}
    plan = comparison.design([run], [run], contended=found)
    assert plan["tested"] is not beyond
    if beyond:
        assert "contention differs: " in plan["why"] and "other processes' CPU" in plan["why"]


def test_the_issues_contended_example_through_between():
    # the issue's sqlite-commits cell: other processes' CPU 5.1, 8.6 and 3.5 s a repetition on one side
    quiet, busy = _cell(0.2, 4.0), _cell(5.7, 4.0)
    a = {"id": "A", "system": {}, "target": {}, "profile": "quick", "cells": [
        {"key": "xfs|-|-|sqlite-commits", "status": "ok", "parameters": {}, **quiet,
         "metrics": {"commits_per_s": {"unit": "ops/s", "better": "higher", "samples": [10.0, 11.0, 12.0]}}}]}
    runs = [a, {**a, "id": "A2"}], [{**a, "id": "B", "cells": [{**a["cells"][0], **busy, "metrics": {
        "commits_per_s": {"unit": "ops/s", "better": "higher", "samples": [300.0, 310.0, 320.0]}}}]},
                                    {**a, "id": "B2", "cells": [{**a["cells"][0], **busy, "metrics": {
        "commits_per_s": {"unit": "ops/s", "better": "higher", "samples": [290.0, 300.0, 305.0]}}}]}]
    row, = comparison.between(*runs)
    assert row["verdict"] == "not tested" and "contention differs" in row["why"]


@settings(max_examples=40)
@given(st.lists(st.sampled_from(["fio-3.28", "fio-3.33", "fio-3.38"]), min_size=1, max_size=4),
       st.lists(st.sampled_from(["fio-3.28", "fio-3.33", "fio-3.38"]), min_size=1, max_size=4))
def test_an_imported_cells_own_tool_versions_are_its_tools_factor(versions_a, versions_b):
    # rule (#64 item 1 with #60 item 2): each file's fio version is kept per repetition, and two sides
    # whose files' versions are not one and the same are named as differing in tools
    run = {"run": "R", "profile": "import-fio", "tools": "fio " + "; ".join(sorted(set(versions_a + versions_b)))}
    cell = lambda versions: {"parameters": {"bs": "4k"}, "imported_runs": [{"raw": f"raw/R/{i}", "tool": v}
                                                                            for i, v in enumerate(versions)]}
    plan = comparison.design([comparison.cell_factors(run, cell(versions_a))], [comparison.cell_factors(run, cell(versions_b))])
    assert ("tools" in plan["differ"]) == (set(versions_a) != set(versions_b))
    assert "parameters" not in plan["differ"]
