"""make perf's within-run A/A verdict (scripts/perf_aa.py, issue #60), from its rule: on the
families it pools, a test whose family rate is at most about 2.5 % passes, and one whose rate is
10 % or more fails, each with probability >= 95 %; the judgment is on the pooled share (at most
1 in 20); too few families never pass. The chances are exact binomial sums (scipy) over every
outcome, each outcome judged by the function itself, not by the module's own formula."""
import functools
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from scipy import stats

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))
import perf_aa  # noqa: E402


@functools.cache
def passing(families: int) -> list:
    """The outcomes (flagged counts, 0 to FAMILIES) the function passes."""
    return [k for k in range(families + 1) if perf_aa.judge([(k, families)])["passed"]]


def chance_of_pass(families: int, rate: float) -> float:
    """P(the verdict passes) when each of FAMILIES families is flagged with probability RATE:
    the binomial probability of every outcome the function passes, summed."""
    return float(stats.binom.pmf(passing(families), families, rate).sum())


def test_the_default_size_tells_a_valid_test_from_a_broken_one():
    families = perf_aa.DEFAULT_RUNS * perf_aa.FAMILIES_PER_RUN
    assert families >= perf_aa.MIN_FAMILIES
    for rate in (0.0, 0.01, 0.02, 0.025):
        assert chance_of_pass(families, rate) >= 0.95, rate
    for rate in (0.10, 0.15, 0.5):
        assert 1 - chance_of_pass(families, rate) >= 0.95, rate


def assert_both_chances(families: int) -> None:
    assert chance_of_pass(families, 0.02) >= 0.95
    assert chance_of_pass(families, 0.025) >= 0.95
    assert 1 - chance_of_pass(families, 0.10) >= 0.95


# beside the default size: the counts a run that loses or gains a cell gives, and any PERF_AA_RUNS.
# The chances saw-tooth with the count, lowest just below a multiple of 20 (159, 179...)
@pytest.mark.parametrize("families", [perf_aa.MIN_FAMILIES + 19, perf_aa.MIN_FAMILIES + 20])
def test_counts_beside_the_minimum_keep_both_chances(families):
    assert_both_chances(families)


@settings(max_examples=4, deadline=None)
@given(st.integers(min_value=perf_aa.MIN_FAMILIES, max_value=300))
def test_every_count_from_the_minimum_on_keeps_both_chances(families):
    assert_both_chances(families)


def test_the_minimum_is_the_fewest_that_keeps_both_chances():
    # one count below it, a valid or a broken test gets the wrong verdict more than 5 % of the time
    below = perf_aa.MIN_FAMILIES - 1
    assert not perf_aa.judge([(0, below)])["passed"]
    allowed = below // 20  # what would pass on the share alone
    valid = stats.binom.cdf(allowed, below, perf_aa.VALID_RATE)
    broken = stats.binom.sf(allowed, below, perf_aa.BROKEN_RATE)
    assert min(valid, broken) < 0.95
    # and one run (the old row) is far from it: a 10 % test passes 39 % of the time on 20 families
    assert stats.binom.cdf(1, 20, 0.10) > 0.39


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=40).flatmap(
    lambda n: st.tuples(st.integers(min_value=0, max_value=n), st.just(n))), max_size=12))
def test_the_verdict_is_on_the_pooled_share(per_run):
    verdict = perf_aa.judge(per_run)
    flagged, families = sum(f for f, _ in per_run), sum(n for _, n in per_run)
    assert (verdict["flagged"], verdict["families"]) == (flagged, families)
    assert verdict["passed"] == (families >= perf_aa.MIN_FAMILIES and 20 * flagged <= families)
    assert verdict["passed"] == (verdict["verdict"] == "pass")
    # any other split of the same totals into runs gets the same verdict
    assert perf_aa.judge([(flagged, families)])["verdict"] == verdict["verdict"]
    if families:
        # the 95 % Clopper-Pearson interval, against its beta-quantile form
        low = stats.beta.ppf(0.025, flagged, families - flagged + 1) if flagged else 0.0
        high = stats.beta.ppf(0.975, flagged + 1, families - flagged) if flagged < families else 1.0
        assert verdict["interval"] == pytest.approx((low, high), abs=1e-9)
        assert verdict["interval"][0] <= flagged / families <= verdict["interval"][1]


def test_no_families_never_pass():
    for per_run in ([], [(0, 0)], [(0, 0)] * 10):
        verdict = perf_aa.judge(per_run)
        assert (verdict["passed"], verdict["verdict"], verdict["interval"]) == (False, "too few families", None)
        assert "0 families" in verdict["why"]


def test_fewer_families_than_the_minimum_say_why():
    # one clean run of 20 (what the row judged before) and the minimum less one, nothing flagged
    for per_run in ([(0, 20)], [(0, perf_aa.MIN_FAMILIES - 1)]):
        verdict = perf_aa.judge(per_run)
        assert not verdict["passed"] and verdict["verdict"] == "too few families"
        assert f"fewer than the {perf_aa.MIN_FAMILIES}" in verdict["why"]


def test_the_boundary_of_the_share():
    n = perf_aa.MIN_FAMILIES
    assert perf_aa.judge([(n // 20, n)])["passed"]  # exactly 1 in 20
    failed = perf_aa.judge([(n // 20 + 1, n)])
    assert failed["verdict"] == "fail" and "more than" in failed["why"]
    assert perf_aa.judge([(0, n)])["passed"]
    assert not perf_aa.judge([(n, n)])["passed"]


@pytest.mark.parametrize("per_run", [[(3, 2)], [(-1, 20)], [(0, -1)]])
def test_impossible_counts_are_refused(per_run):
    with pytest.raises(ValueError):
        perf_aa.judge(per_run)
