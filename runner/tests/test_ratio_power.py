"""The smallest detectable change a percent-metric row prints (issue #60, round 16, finding 6):
a row on the linear scale is the delta method's t-test of log(mean_b / mean_a)
(comparison._log_ratio_of_means), and the change it prints is where THAT test has 80 % power,
with the samples' relative spreads taken as the true ones. Checked by simulation with a fixed
seed, as the round did (2 against 2, relative spread 0.3: power 0.766 at the figure Welch's
power of a difference of means gave), over sizes and spreads hypothesis draws, paired and not,
against a vectorized implementation of the test written here from its formula (itself checked
against compare() on a few draws)."""
import math

import numpy as np
from hypothesis import given, settings, strategies as st
from scipy import stats

from fsatlas.results import comparison

# the simulation's own grain: at 20,000 datasets the share's standard error is 0.003, and the
# figure's (comparison.RATIO_DRAWS) about as much: TOLERANCE is some five of both together
DATASETS, TOLERANCE = 20_000, 0.025


def _draw(rng, n_a, n_b, cv_a, cv_b, rho, paired, ratio, count):
    if paired:
        cov = [[cv_a ** 2, rho * cv_a * cv_b], [rho * cv_a * cv_b, cv_b ** 2]]
        e = rng.multivariate_normal([0, 0], cov, size=(count, n_a))
        return 1 + e[..., 0], ratio * (1 + e[..., 1])
    return 1 + cv_a * rng.standard_normal((count, n_a)), ratio * (1 + cv_b * rng.standard_normal((count, n_b)))


def _p(a, b, paired):
    """The p of the delta method's test of each row of a against b (nan where a mean is not above 0),
    from the formula: se^2 = s_b^2 / (n_b mean_b^2) + s_a^2 / (n_a mean_a^2), Welch-Satterthwaite's df;
    paired: the variance of b_i / mean_b - a_i / mean_a over n, df n - 1."""
    m_a, m_b = a.mean(axis=1), b.mean(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        rel_a, rel_b = a / m_a[:, None], b / m_b[:, None]
        if paired:
            n = a.shape[1]
            se, df = (rel_b - rel_a).std(axis=1, ddof=1) / math.sqrt(n), np.full(len(a), n - 1.0)
        else:
            va, vb = rel_a.var(axis=1, ddof=1) / a.shape[1], rel_b.var(axis=1, ddof=1) / b.shape[1]
            se, df = np.sqrt(va + vb), (va + vb) ** 2 / (va ** 2 / (a.shape[1] - 1) + vb ** 2 / (b.shape[1] - 1))
        t = (np.log(m_b) - np.log(m_a)) / se
        p = 2 * stats.t.sf(np.abs(t), df)
    return np.where((m_a > 0) & (m_b > 0), p, np.nan)


def _printed(n_a, n_b, cv_a, cv_b, rho, paired, rng) -> float:
    """The detectable change compare() prints for samples of means 1 whose relative spreads (and,
    paired, correlation) are exactly cv_a, cv_b (rho): the figure the row shows."""
    if paired:
        z = rng.standard_normal((n_a, 2))
        z -= z.mean(axis=0)
        z = z @ np.linalg.inv(np.linalg.cholesky(np.cov(z.T))).T  # sample covariance exactly I
        z = z @ np.linalg.cholesky(np.array([[cv_a ** 2, rho * cv_a * cv_b], [rho * cv_a * cv_b, cv_b ** 2]])).T
        a, b = 1 + z[:, 0], 1 + z[:, 1]
    else:
        a, b = ((z - z.mean()) / z.std(ddof=1) for z in (rng.standard_normal(n_a), rng.standard_normal(n_b)))
        a, b = 1 + cv_a * a, 1 + cv_b * b
    row = comparison.compare(list(a), list(b), "higher", "linear", paired=paired)
    assert row["status"] == "tested" and row["scale"] == "linear" and row["paired"] == paired, row
    return row["detectable_pct"]


def _power(n_a, n_b, cv_a, cv_b, rho, paired, seed):
    """(the printed change in %, the simulated power of the row's test at it)."""
    rng = np.random.default_rng(seed)
    change = _printed(n_a, n_b, cv_a, cv_b, rho, paired, rng)
    a, b = _draw(rng, n_a, n_b, cv_a, cv_b, rho, paired, 1 + change / 100, DATASETS)
    p = _p(a, b, paired)
    return change, float(np.mean(np.nan_to_num(p, nan=1.0) < comparison.ALPHA))


def test_the_vectorized_test_is_compares():
    rng = np.random.default_rng(1)
    for paired in (False, True):
        a, b = _draw(rng, 3, 3, 0.2, 0.3, 0.5, paired, 1.2, 20)
        mine = _p(a, b, paired)
        for i in range(len(a)):
            row = comparison.compare(list(a[i]), list(b[i]), "higher", "linear", paired=paired)
            assert row["status"] == "tested" and math.isclose(row["p"], mine[i], rel_tol=1e-9)


def test_the_rounds_example_has_80_percent_power_at_its_printed_change():
    change, power = _power(2, 2, 0.3, 0.3, 0.0, False, seed=7)  # 0.766 at the figure Welch's power gave
    assert abs(power - comparison.POWER) < TOLERANCE, (change, power)
    change, power = _power(3, 3, 0.3, 0.3, 0.0, True, seed=9)  # paired, 3 pairs: 0.782
    assert abs(power - comparison.POWER) < TOLERANCE, (change, power)
    change, power = _power(2, 9, 0.5, 0.05, 0.0, False, seed=11)  # 0.772
    assert abs(power - comparison.POWER) < TOLERANCE, (change, power)


@settings(max_examples=12, deadline=None)
@given(n_a=st.integers(2, 12), n_b=st.integers(2, 12), cv_a=st.floats(0.02, 0.5), cv_b=st.floats(0.02, 0.5),
       rho=st.floats(-0.8, 0.8), paired=st.booleans(), seed=st.integers(0, 2 ** 32 - 1))
def test_a_percent_rows_printed_change_has_80_percent_power_for_its_own_test(n_a, n_b, cv_a, cv_b, rho, paired, seed):
    if paired:
        n_a = n_b = max(n_a, 3)  # two pairs have no correlation to set: the named example is 3
    change, power = _power(n_a, n_b, cv_a, cv_b, rho, paired, seed)
    assert abs(power - comparison.POWER) < TOLERANCE, (change, power)
