"""The one comparison module (results/comparison.py): Welch's test on the metric's scale, the
ratio's interval, Holm and Benjamini-Hochberg, equivalence, not testable, paired rounds."""
import json
import math
import random
from pathlib import Path

import pytest
from scipy.stats import gmean, t as t_dist, ttest_ind, ttest_ind_from_stats, ttest_rel

from fsatlas.cli import main
from fsatlas.results import comparison, stats
from testutil import derived_run, in_slot, under_id, write_derived

FIXTURE = Path(__file__).parent / "fixtures" / "results" / "fixture-valid.json"


def _rows(ps):
    return [{"status": "tested", "p": p, "p_equivalent": 1.0, "ratio": 1.1, "better": "higher"} for p in ps]


# Worked by hand from p = 0.01, 0.04, 0.03, 0.005 (four comparisons).
# Holm: sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04, each at least
# the one before: 0.02, 0.03, 0.06, 0.06. Benjamini-Hochberg: p * 4 / rank = 0.02, 0.02, 0.04,
# 0.04, each at most the one after.
@pytest.mark.parametrize("method,expected", [(comparison.HOLM, [0.03, 0.06, 0.06, 0.02]),
                                             (comparison.BH, [0.02, 0.04, 0.04, 0.02])])
def test_corrections_match_the_hand_worked_values(method, expected):
    rows = comparison.adjust(_rows([0.01, 0.04, 0.03, 0.005]), method)
    assert [r["p_adjusted"] for r in rows] == pytest.approx(expected)
    assert [r["significant"] for r in rows] == [p < 0.05 for p in expected]
    assert all(r["family"] == 4 for r in rows)


# a = 100, 102, 98 (mean 100, sd 2); b = 110, 111, 109 (mean 110, sd 1): a percentage's samples may be 0,
# so the test is of the logarithm of the ratio of the means, log 1.1 = 0.0953, its standard error by the delta
# method sqrt(0.02^2 / 3 + (1/110)^2 / 3) = 0.01268, t = 7.51, Welch-Satterthwaite df = 2.79.
def test_a_percentage_is_tested_on_the_logarithm_of_its_ratio_of_means():
    row = comparison.compare([100, 102, 98], [110, 111, 109], "lower", scale="linear")
    se = math.sqrt(0.02 ** 2 / 3 + (1 / 110) ** 2 / 3)
    assert row["p"] == pytest.approx(float(ttest_ind_from_stats(math.log(110), 1 / 110, 3, math.log(100), 0.02, 3,
                                                                equal_var=False).pvalue))
    assert row["p"] == pytest.approx(0.0061, abs=0.0005)
    df = (se ** 2) ** 2 / ((0.02 ** 2 / 3) ** 2 / 2 + ((1 / 110) ** 2 / 3) ** 2 / 2)
    half = float(t_dist.ppf(0.975, df)) * se
    assert row["ratio_ci95"] == pytest.approx([1.1 * math.exp(-half), 1.1 * math.exp(half)])


def test_a_rate_is_tested_on_its_logarithms_and_its_ratio_interval_holds_the_ratio():
    a, b = [100.0, 120.0, 90.0, 105.0], [150.0, 170.0, 140.0, 180.0]
    row = comparison.compare(a, b, "higher")
    assert row["scale"] == "log" and row["status"] == "tested"
    assert row["p"] == pytest.approx(float(ttest_ind([math.log(v) for v in b], [math.log(v) for v in a],
                                                     equal_var=False).pvalue))
    assert row["ratio"] == pytest.approx(float(gmean(b) / gmean(a))) and row["ratio_of"] == "geometric means"
    assert row["ratio_ci95"][0] < row["ratio"] < row["ratio_ci95"][1]


@pytest.mark.parametrize("a,b,why", [([100.0], [100.5], "n = 1"), ([100.0, 100.0], [100.5, 100.5], "no spread"),
                                     ([100.0, 101.0, 99.0], [200.0], "n = 1")])
def test_one_repetition_or_no_spread_is_not_testable_never_p_zero(a, b, why):
    [row] = comparison.adjust([comparison.compare(a, b, "higher")], comparison.BH)
    assert row["status"] == "not testable" and row["verdict"] == "not testable" and why in row["why"]
    assert row["p"] is None and not row["significant"]


def test_equivalence_needs_a_narrow_interval_not_a_large_p():
    narrow = comparison.compare([100.0, 100.4, 99.6, 100.1], [100.2, 99.9, 100.3, 100.0], "higher")
    wide = comparison.compare([100.0, 80.0, 120.0], [95.0, 125.0, 85.0], "higher")
    comparison.adjust([narrow], comparison.HOLM), comparison.adjust([wide], comparison.HOLM)
    assert narrow["verdict"] == "equivalent" and narrow["p_equivalent_adjusted"] < 0.05
    assert wide["p"] > 0.5 and wide["verdict"] == "inconclusive"
    assert wide["detectable_pct"] > 20 > narrow["detectable_pct"]


def test_rounds_that_interleave_are_paired():
    assert comparison.interleaved([0, 10, 20], [5, 15, 25])
    assert not comparison.interleaved([0, 1, 2], [10, 11, 12])  # one after the other
    assert not comparison.interleaved([0, 10], [5, 15, 25])
    # a host that drifts: both sides move together, and the paired test sees the 2 % through it
    drift = [100.0, 110.0, 90.0, 105.0]
    a, b = drift, [v * 1.02 + d for v, d in zip(drift, (0.1, -0.1, 0.05, -0.05))]
    paired, unpaired = comparison.compare(a, b, "higher", paired=True), comparison.compare(a, b, "higher")
    assert paired["paired"] and paired["p"] == pytest.approx(float(ttest_rel([math.log(v) for v in b],
                                                                           [math.log(v) for v in a]).pvalue))
    assert paired["p"] < 0.05 < unpaired["p"]


def test_two_identical_runs_compared_many_times_stay_within_5_percent_after_correction():
    """An A/A comparison: 200 cells whose two sides come from one distribution (3.5 % spread)."""
    rng = random.Random(7)
    rows = [comparison.compare([rng.gauss(100, 3.5) for _ in range(3)], [rng.gauss(100, 3.5) for _ in range(3)],
                               "higher") for _ in range(200)]
    raw = sum(r["p"] < 0.05 for r in rows)
    comparison.adjust(rows, comparison.BH)
    assert sum(r["significant"] for r in rows) <= 0.05 * len(rows) and raw > sum(r["significant"] for r in rows)


def test_compare_of_two_single_sample_results_says_not_testable(tmp_path, capsys):
    """Two single fio runs 0.5 % apart: never "better" or "worse"."""
    paths = []
    for slot, (name, factor) in enumerate((("a", 1.0), ("b", 1.005))):
        # two runs made from the fixture's raw output, each figure of B's 0.5 % higher: ids and times of
        # their own (one id on both sides is a run against itself, one time one run), cut to their
        # first repetition and written with the bundle they are recomputed from, as validate requires
        doc = derived_run(FIXTURE, f"fixture-valid-{name}", slot, lambda key, j: factor)
        for cell in doc["cells"]:
            if cell["status"] == "ok":
                cell["raw"] = cell["raw"][:1]
                for metric in cell["metrics"].values():
                    metric.update(stats.summarize(metric["samples"][:1], metric["unit"], metric["better"]))
        paths.append(write_derived(tmp_path / name, doc))
    assert main(["compare", str(paths[0]), str(paths[1])]) == 0
    captured = capsys.readouterr()
    lines = [line for line in captured.out.splitlines() if "|" in line.split(" ")[0]]  # the rows, not the header
    assert lines and all("not tested (one run per side" in line for line in lines)
    assert "0 significantly better, 0 significantly worse" in captured.err


# Every sample the schema accepts lies in [0, 1e18], the smallest positive float (5e-324) among them.
@pytest.mark.parametrize("a,b,why", [
    ([5e-324, 5e-324 * 2], [1e18, 9e17], "beyond the range of a number"),  # B/A = 3e341
    ([5e-324, 1e18], [1.0, 2.0], "not a finite number"),  # logs -744 and 41: exp() of the interval's end overflows
    ([1.0, 1e18, 5e-324], [2.0, 3.0, 4.0], "not a finite number"),
])
def test_samples_at_the_ends_of_what_a_file_may_hold_are_not_testable_never_a_traceback(a, b, why):
    for paired in (False, True):
        [row] = comparison.adjust([comparison.compare(a, b, "higher", paired=paired)], comparison.HOLM)
        assert row["status"] == "not testable" and why in row["why"], row
        assert all(v is None or math.isfinite(v) for v in (row["ratio"], row["change_pct"], row["detectable_pct"]))
        assert json.loads(json.dumps(row, allow_nan=False)) == row  # what pages and --json print


def test_any_samples_a_file_may_hold_give_finite_figures_or_not_testable():
    rng = random.Random(42)
    ends = [0.0, 5e-324, 1e-310, 1e-300, 1.0, 3.0, 1e9, 1e17, 1e18]
    for _ in range(3000):
        a, b = ([rng.choice(ends) * rng.choice([1, 1, 0.5, 0.9]) for _ in range(rng.choice([2, 3, 5]))] for _ in "ab")
        row = comparison.compare(a, b, "higher", rng.choice(["log", "linear"]), rng.random() < 0.3)
        if row["status"] == "tested":
            assert all(math.isfinite(v) for v in (row["ratio"], row["p"], row["p_equivalent"], *row["ratio_ci95"])), (a, b)
            assert 0 <= row["p"] <= 1
        json.dumps(row, allow_nan=False)
