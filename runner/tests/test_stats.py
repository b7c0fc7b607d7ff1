import math
import os
import subprocess
import sys

import pytest
from hypothesis import given, strategies as st

from fsatlas.results import stats
from fsatlas.results.stats import summarize


def test_three_samples_against_values_computed_by_hand():
    # samples 10, 12, 14: mean 12, sample variance ((4+0+4)/2) = 4, stddev 2,
    # t(0.975, 2) = 4.302652729911275, half-width = 4.30265 * 2 / sqrt(3) = 4.968275
    m = summarize([10, 12, 14], "bytes/s", "higher")
    assert m["mean"] == 12
    assert m["median"] == 12
    assert m["stddev"] == pytest.approx(2.0)
    assert m["rsd_pct"] == pytest.approx(100 * 2 / 12)
    assert m["ci95"] == pytest.approx([12 - 4.968275, 12 + 4.968275], abs=1e-5)
    assert m["samples"] == [10.0, 12.0, 14.0]


def test_one_sample_has_no_spread():
    m = summarize([5.5], "s", "lower")
    assert m["stddev"] == 0 and m["rsd_pct"] == 0 and m["ci95"] == [5.5, 5.5]


def test_even_count_median_and_t_quantile():
    # 1,2,3,4: mean 2.5, stddev sqrt(5/3) = 1.290994, t(0.975,3) = 3.182446
    m = summarize([4, 1, 3, 2], "ops/s", "higher")
    assert m["median"] == 2.5
    half = 3.182446305284263 * math.sqrt(5 / 3) / 2
    assert m["ci95"] == pytest.approx([2.5 - half, 2.5 + half])


def test_no_samples_is_an_error():
    with pytest.raises(ValueError):
        summarize([], "s", "lower")


def test_an_interval_is_never_shown_below_zero():
    """Samples 1, 10, 100: mean 37, sd 54.9, t(0.975, 2) = 4.303, so the t-interval runs from
    -99.3 to 173. The logarithms (0, 2.303, 4.605) give 10 × exp(±4.303 × 2.303 / √3) = 0.033 to 3,050."""
    from fsatlas.results import stats
    metric = stats.summarize([1, 10, 100], "s", "lower")
    assert metric["ci95"][0] < 0
    low, high = stats.bounded_interval(metric)
    assert low == pytest.approx(0.0328, rel=1e-2) and high == pytest.approx(3049, rel=1e-2)
    steady = stats.summarize([10, 11, 12], "s", "lower")
    assert stats.bounded_interval(steady) == steady["ci95"]  # a plain interval above zero is kept
    assert stats.bounded_interval(stats.summarize([0, 10, 100], "s", "lower"))[0] == 0.0
    # 5e-324 and 1e18, both valid samples: their logarithms' interval ends past exp()'s range,
    # so the interval is cut at zero as with a zero sample (exp() raised OverflowError)
    wide = stats.summarize([5e-324, 1e18], "bytes/s", "higher")
    assert stats.bounded_interval(wide) == [0.0, wide["ci95"][1]] and math.isfinite(wide["ci95"][1])


def test_scipy_starts_no_blas_threads_to_spin_beside_the_workers():
    """fsatlas multiplies no matrices: its processes keep one thread once scipy is imported (without
    the setting, OpenBLAS's threads made it 3 on this 2-core machine)."""
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    done = subprocess.run([sys.executable, "-c", "from fsatlas.results import stats; stats.t_quantile(2); "
                           "print(next(l for l in open('/proc/self/status') if l.startswith('Threads')))"],
                          env=env, capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["Threads:", "1"]


def test_an_interval_always_holds_its_own_mean():
    """Rule (issue 62): an interval contains its own mean. Positive, skewed samples (one far
    above the rest, as latency tails are) gave a geometric interval below the arithmetic mean:
    149 ms shown with "7.47 ms - 120 ms"."""
    from hypothesis import given, settings, strategies as st
    from fsatlas.results import stats

    positive = st.floats(min_value=1e-6, max_value=1e9, allow_nan=False, allow_infinity=False)

    @settings(max_examples=300)
    @given(st.lists(positive, min_size=2, max_size=12), st.floats(min_value=1.0, max_value=1e4))
    def holds(samples, spike):
        metric = stats.summarize(samples + [max(samples) * spike], "s", "lower")
        low, high = stats.bounded_interval(metric)
        assert 0.0 <= low <= metric["mean"] <= high

    holds()
    # beside the named example: seven steady samples and one far tail
    metric = stats.summarize([5.0] * 7 + [1000.0], "s", "lower")
    low, high = stats.bounded_interval(metric)
    assert low <= metric["mean"] <= high


@given(st.floats(0, 1e300, allow_nan=False), st.integers(1, 30))
def test_equal_samples_are_their_value_without_spread(value, n):
    """Rule: n equal samples have that value as mean and median, and no spread (stddev 0, rsd 0,
    ci95 [v, v]), as statistics.stdev says; [0.05] * 3 had a mean of 0.05000000000000001 and a
    stddev of 8.5e-18, so an interval that was no point."""
    metric = summarize([value] * n, "bytes/s", "higher")
    assert (metric["mean"], metric["median"], metric["stddev"], metric["rsd_pct"]) == (value, value, 0.0, 0.0)
    assert metric["ci95"] == [value, value]


def test_stats_table():
    """T_975, which spares reading a result scipy's import, is scipy's Student's t at 0.975 to
    the last bit for each of its degrees of freedom, and t_quantile past it is scipy's too."""
    from scipy.special import stdtrit
    assert [float(stdtrit(df, 0.975)) for df in range(1, len(stats.T_975) + 1)] == list(stats.T_975)
    assert stats.t_quantile(len(stats.T_975) + 1) == float(stdtrit(len(stats.T_975) + 1, 0.975))
    assert stats.t_quantile(3) is stats.T_975[2]
