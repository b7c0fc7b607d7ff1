"""Summary statistics of repeated measurements, as DESIGN.md defines them.

stddev is the sample standard deviation (n-1); rsd_pct = 100*stddev/|mean|;
ci95 = mean +- t(0.975, n-1)*stddev/sqrt(n); one sample gives stddev 0 and ci95 [mean, mean].
"""
import math
import os
import sys
from functools import lru_cache

# scipy's import starts OpenBLAS's threads, which busy-wait for work before they sleep; nothing here
# multiplies matrices, so they would only take CPU from the processes that validate and derive
# (0.10 to 0.17 s of the aggregating process's 0.53 to 0.56 s on 1,000 results). A user's own
# setting wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


PRELOAD = ("scipy.special",)  # what t_quantile imports: parallel.map_batches's preload for the checks


# Student's t at 0.975 for 1 to 64 degrees of freedom, as scipy.special.stdtrit gives them (each
# float exactly: test_stats_table): reading one result needs no more (the matrix plans 3
# repetitions, adaptive ones up to 9), and importing scipy took 0.23 s of adding one result to
# 10,000 under cProfile.
T_975 = (
    12.706204736432095, 4.302652729696142, 3.182446305284263, 2.7764451051977987, 2.570581835636314,
    2.4469118511449692, 2.3646242515927844, 2.306004135204166, 2.2621571628540993, 2.2281388519649385,
    2.200985160082949, 2.1788128296634177, 2.1603686564610127, 2.1447866879169273, 2.131449545559323,
    2.1199052992210112, 2.1098155778331806, 2.10092204024096, 2.093024054408263, 2.0859634472658364,
    2.079613844727662, 2.0738730679040147, 2.0686576104190406, 2.0638985616280205, 2.059538552753294,
    2.055529438642871, 2.0518305164802833, 2.048407141795244, 2.045229642132703, 2.0422724563012373,
    2.0395134463964077, 2.036933343460101, 2.0345152974493383, 2.032244509317718, 2.0301079282503425,
    2.0280940009804502, 2.0261924630291093, 2.024394163911969, 2.0226909200367604, 2.0210753903062733,
    2.019540970441376, 2.018081702818444, 2.016692199227824, 2.0153675744437636, 2.014103388880846,
    2.0128955989194286, 2.0117405137297655, 2.010634757624232, 2.0095752371292397, 2.008559112100761,
    2.007583770315836, 2.006646805061688, 2.0057459953178687, 2.004879288188057, 2.004044783289146,
    2.003240718847872, 2.002465459291007, 2.0017174841452356, 2.0009953780882674, 2.00029782201426,
    1.9996235849949393, 1.9989715170333786, 1.998340542520741, 1.9977296543176926,
)


@lru_cache(maxsize=None)
def t_quantile(df: int) -> float:
    """Student's t at 0.975: T_975's, else scipy's. scipy is imported here, not at the top, and
    only its special functions (0.45 s, where scipy.stats takes 0.93 s; the same value, which
    scipy.stats computes with this very function): most fsatlas commands never need it."""
    if 1 <= df <= len(T_975):
        return T_975[df - 1]
    from scipy.special import stdtrit
    return float(stdtrit(df, 0.975))


def figures(values) -> tuple[float, float, float]:
    """(mean, median, stddev) of a non-empty list of numbers; moments' figures without its dict
    and its copy as floats (the same values: ints within 2^53 add up and sort as their floats
    do), for the checks that take them of every metric of every file (a quick result's 425)."""
    n = len(values)
    ordered, half = sorted(values), n // 2  # statistics.median, the same way
    if ordered[0] == ordered[-1]:  # equal samples: their value and no spread ([0.05] * 3 summed to 0.05000000000000001)
        return ordered[0], ordered[0], 0.0
    mean = math.fsum(values) / n  # statistics.fmean, without its call
    # two passes over floats with fsum, not statistics.stdev: within 3e-16 of it, and without
    # its fractions (validating a 20-cell quick result: 24.5 ms with them, 21.9 ms without)
    stddev = math.sqrt(math.fsum([(v - mean) ** 2 for v in values]) / (n - 1))
    return mean, ordered[half] if n % 2 else (ordered[half - 1] + ordered[half]) / 2, stddev


def shown_rsd(metric: dict) -> float | None:
    """The RSD the site shows of a metric summary: None for one sample, which has no spread
    (its stddev 0 and rsd_pct 0, as the result file stores them, would read as "0.0 %"), and for
    a mean of zero, of which no spread is a percent (a job that moved 0 bytes read "RSD 0.0 %")."""
    return metric["rsd_pct"] if len(metric["samples"]) > 1 and metric["mean"] else None


def rsd_pct(mean: float, stddev: float) -> float:
    """100*stddev/|mean|, 0 for a zero mean."""
    return 100.0 * stddev / abs(mean) if mean else 0.0


def half_width(stddev: float, n: int) -> float:
    """ci95's half width, t(0.975, n-1)*stddev/sqrt(n); 0 for one sample."""
    return t_quantile(n - 1) * stddev / math.sqrt(n) if n > 1 else 0.0


def moments(samples) -> dict:
    """mean, median, stddev and rsd_pct: everything but the interval (which needs scipy)."""
    values = [float(v) for v in samples]
    if not values:
        raise ValueError("summarize needs at least one sample")
    mean, median, stddev = figures(values)
    return {"samples": values, "mean": mean, "median": median, "stddev": stddev, "rsd_pct": rsd_pct(mean, stddev)}


def summarize(samples, unit: str, better: str) -> dict:
    mean, median, stddev, rsd, ci95 = summary_figures(samples)
    return {"unit": unit, "better": better, "samples": [float(v) for v in samples], "mean": mean, "median": median,
            "stddev": stddev, "rsd_pct": rsd, "ci95": ci95}


def summary_figures(samples) -> tuple:
    """(mean, median, stddev, rsd_pct, ci95) of samples, as summarize gives them, without its
    dicts and calls: what every read of a result file computes of each of its metrics (a
    quick result's 605: resultfile.readable took 3.3 ms a file, 1.4 of them in summarize)."""
    values = [float(v) for v in samples]
    if not values:
        raise ValueError("summarize needs at least one sample")
    mean, median, stddev = figures(values)
    half = half_width(stddev, len(values))
    return mean, median, stddev, rsd_pct(mean, stddev), [mean - half, mean + half]


def bounded_interval(metric: dict) -> list[float] | None:
    """The 95 % interval the site shows for a metric summary; None for one sample, which has no
    interval (the result file's ci95 [mean, mean], DESIGN's contract, is no interval of zero
    width: issue 62's "966–966"). Every quantity fsatlas reports is
    at least zero (a rate, a time, a size, a share of CPU), so while the result file's t-interval
    (DESIGN's ci95) stays at or above zero it is shown as it is; below that, the t-interval of the
    samples' logarithms, taken back: a geometric interval, never negative and as lopsided as the
    spread of a positive quantity is. With a zero among the samples it is cut at zero, and so it
    is where the geometric interval's end is beyond the largest float (samples 5e-324 and 1e18,
    both valid, spread over 342 powers of ten: exp() of the end raised OverflowError), and where
    the geometric interval (around the geometric mean) misses the arithmetic mean the site shows
    beside it (skewed samples: ext2 seq-write lat_p999 149 ms with an interval 7.47-120 ms): the
    t-interval cut at zero holds the mean always, and still 95 % of the time the true mean, which
    is never below zero."""
    if len(metric["samples"]) < 2:
        return None
    low, high = metric["ci95"]
    if low >= 0:
        return [low, high]
    samples = metric["samples"]
    if len(samples) > 1 and all(v > 0 for v in samples):
        logs = moments([math.log(v) for v in samples])
        half = half_width(logs["stddev"], len(samples))
        if logs["mean"] + half < LOG_MAX_FLOAT:
            geometric = [math.exp(logs["mean"] - half), math.exp(logs["mean"] + half)]
            if geometric[0] <= metric["mean"] <= geometric[1]:
                return geometric
    return [0.0, high]


LOG_MAX_FLOAT = math.log(sys.float_info.max)  # the largest x whose exp() is a float (709.78)
