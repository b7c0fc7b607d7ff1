"""Summary statistics of repeated measurements, as DESIGN.md defines them.

stddev is the sample standard deviation (n-1); rsd_pct = 100*stddev/|mean|;
ci95 = mean +- t(0.975, n-1)*stddev/sqrt(n); one sample gives stddev 0 and ci95 [mean, mean].
"""
import math
import statistics

from scipy.stats import t as student_t


def summarize(samples, unit: str, better: str) -> dict:
    values = [float(v) for v in samples]
    if not values:
        raise ValueError("summarize needs at least one sample")
    n = len(values)
    mean = statistics.fmean(values)
    stddev = statistics.stdev(values) if n > 1 else 0.0
    half = student_t.ppf(0.975, n - 1) * stddev / math.sqrt(n) if n > 1 else 0.0
    return {
        "unit": unit,
        "better": better,
        "samples": values,
        "mean": mean,
        "median": statistics.median(values),
        "stddev": stddev,
        "rsd_pct": 100.0 * stddev / abs(mean) if mean else 0.0,
        "ci95": [mean - half, mean + half],
    }
