import math

import pytest

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
