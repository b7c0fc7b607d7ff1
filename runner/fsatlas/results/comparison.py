"""The one comparison of two sets of repetitions that fsatlas makes: `fsatlas compare`, the
claims of the mount-option guides, the rankings and the pages that show a ratio all call it,
so a difference is called significant (or "no effect" shown) by one rule everywhere.

- The test: Welch's t-test (statsmodels' CompareMeans) on the metric's scale (metrics.SCALE: the logarithm for
  rates, times and sizes, whose effects are ratios; the values themselves for percentages),
  or the paired t-test where both sides ran in the same interleaved rounds.
- The effect: the ratio of the means B/A with a 95 % interval, taken from the interval of the
  difference on the metric's scale (on the log scale, the same relative widths around B/A).
- Not testable: either side with fewer than two repetitions, or no spread at all; never p = 0.
- Many comparisons: p adjusted by Holm within a family (a claim's comparisons, a ranking's
  neighbours) or by Benjamini-Hochberg across a table (statsmodels' multipletests); a
  difference is significant when its adjusted p is below ALPHA.
- "No effect": two one-sided tests (statsmodels' ttost) against a margin of +-margin_pct;
  equivalent when their adjusted p is below ALPHA, never from a large p alone.
- The smallest effect the two samples could detect (80 % power at ALPHA; statsmodels' power
  solvers), so a claim smaller than that says "cannot tell at this n".
"""
import math
import warnings
from functools import lru_cache

from . import metrics, stats  # stats sets OpenBLAS's thread count before scipy is imported

ALPHA = 0.05
POWER = 0.8  # the power at which the smallest detectable effect is given
EQUIVALENCE_MARGIN_PCT = 5.0  # "no effect": within +-5 % (a ratio between 1/1.05 and 1.05 on the log scale)
HOLM, BH = "holm", "fdr_bh"  # within a family; across a table
METHOD_NAMES = {HOLM: "Holm", BH: "Benjamini-Hochberg"}


def interleaved(started_a, started_b) -> bool:
    """Whether two cells ran in the same rounds (A, B, A, B...): the same count of repetitions,
    and each round's two starts before either start of the next round."""
    if not started_a or not started_b or len(started_a) != len(started_b) or len(started_a) < 2:
        return False
    rounds = list(zip(started_a, started_b))
    return all(max(now) < min(nxt) for now, nxt in zip(rounds, rounds[1:]))


def compare(a, b, better: str, scale: str = "log", paired: bool = False,
            margin_pct: float = EQUIVALENCE_MARGIN_PCT) -> dict:
    """B against A from their samples. Returns the means, n, ratio B/A with its 95 % interval,
    the raw p of the difference and of equivalence (adjust() turns them into a verdict), the
    smallest detectable change in percent, and status "tested" or "not testable" with why."""
    a, b = [float(v) for v in a], [float(v) for v in b]
    mean_a, mean_b = _mean(a), _mean(b)
    ratio, change = (mean_b / mean_a, 100 * (mean_b - mean_a) / mean_a) if mean_a else (None, None)
    if ratio is not None and not (math.isfinite(ratio) and math.isfinite(change)):
        ratio = change = None  # beyond the largest float: A's mean near the smallest one, B's not
    row = {"n_a": len(a), "n_b": len(b), "mean_a": mean_a, "mean_b": mean_b, "better": better,
           "ratio": ratio, "change_pct": change,
           "ratio_ci95": None, "p": None, "p_equivalent": None, "detectable_pct": None, "margin_pct": margin_pct,
           "paired": False, "scale": scale, "test": None, "status": "not testable", "why": ""}
    if len(a) < 2 or len(b) < 2:
        row["why"] = f"n = {min(len(a), len(b))} on one side: a test needs at least two repetitions on each"
        return row
    if not mean_a:
        row["why"] = "A's mean is zero: no ratio"
        return row
    if ratio is None:
        row["why"] = f"B/A is beyond the range of a number (means {mean_a:.3g} and {mean_b:.3g})"
        return row
    if scale == "log" and min(a + b) <= 0:
        scale = row["scale"] = "linear"  # a zero or negative sample has no logarithm
    x, y = (list(map(math.log, a)), list(map(math.log, b))) if scale == "log" else (a, b)
    paired = paired and len(a) == len(b)
    if paired:
        diffs = [q - p for p, q in zip(x, y)]
        spread = stats.moments(diffs)["stddev"]
    else:
        spread = max(stats.moments(x)["stddev"], stats.moments(y)["stddev"])
    if spread <= 1e-12 * max(1.0, abs(_mean(x))):  # none, or only the last bits of a float
        row["why"] = "no spread in the repetitions" + (" of either side" if not paired else "' paired differences")
        return row
    import numpy as np
    x, y = np.asarray(x), np.asarray(y)
    if scale == "log":
        low, high = -math.log1p(margin_pct / 100), math.log1p(margin_pct / 100)
    else:
        low, high = -margin_pct / 100 * abs(mean_a), margin_pct / 100 * abs(mean_a)
    with warnings.catch_warnings():
        # one side's samples all equal (a size measured exactly each time): Welch's test then
        # rests on the other side's spread, as it should; numpy may warn of a zero variance
        warnings.simplefilter("ignore", RuntimeWarning)
        p, (ci_low, ci_high), p_eq, detectable = _tests(x, y, paired, low, high, spread)
    diff, ci_low, ci_high = float(y.mean() - x.mean()), float(ci_low), float(ci_high)
    try:
        if scale == "log":  # the interval's relative widths, placed around the ratio of the means
            ratio_ci = [ratio * math.exp(ci_low - diff), ratio * math.exp(ci_high - diff)]
            detectable_pct = math.expm1(detectable) * 100 if detectable is not None else None
        else:
            ratio_ci = [(mean_a + ci_low) / mean_a, (mean_a + ci_high) / mean_a]
            detectable_pct = 100 * detectable / abs(mean_a) if detectable is not None else None
    except OverflowError:  # exp() of an interval hundreds of powers of ten wide
        ratio_ci = None
    if ratio_ci is None or not all(math.isfinite(v) for v in ratio_ci + [p, p_eq]):
        row["why"] = "the interval of B/A is not a finite number (samples spread over hundreds of powers of ten)"
        return row
    if detectable_pct is not None and not math.isfinite(detectable_pct):
        detectable_pct = None
    row.update(status="tested", why="", paired=paired, p=float(p), p_equivalent=float(p_eq),
               ratio_ci95=[float(ratio_ci[0]), float(ratio_ci[1])], detectable_pct=detectable_pct,
               test=("paired t-test" if paired else "Welch's t-test") + (" on logarithms" if scale == "log" else ""))
    return row


# what the comparisons import: parallel.map_batches's preload where workers make them
PRELOAD = ("numpy", "statsmodels.stats.weightstats", "statsmodels.stats.multitest", "statsmodels.stats.power")


def _tests(x, y, paired: bool, low: float, high: float, spread: float):
    """(p of the difference, its 95 % interval on the scale, the equivalence p, the smallest
    detectable difference on the scale), all from statsmodels: CompareMeans gives Welch's test,
    its interval and the two one-sided tests from one pass over the samples (scipy's ttest_ind
    gives the same figures, to the last bits, at 2.3 times the cost: 0.40 ms against 0.18 ms a
    comparison, and the compare page makes thousands)."""
    from statsmodels.stats import weightstats
    if paired:
        d = weightstats.DescrStatsW(y - x)
        p = d.ttest_mean(0)[1]
        p_eq = weightstats.ttost_paired(y, x, low, high)[0]
        k = _detectable(len(x), None)
        return p, d.tconfint_mean(ALPHA), p_eq, (k * spread if k is not None else None)
    means = weightstats.CompareMeans(weightstats.DescrStatsW(y), weightstats.DescrStatsW(x))
    p = means.ttest_ind(usevar="unequal")[1]
    p_eq = means.ttost_ind(low, high, usevar="unequal")[0]
    pooled = math.sqrt(((len(x) - 1) * x.var(ddof=1) + (len(y) - 1) * y.var(ddof=1)) / (len(x) + len(y) - 2))
    k = _detectable(len(x), len(y))
    return p, means.tconfint_diff(ALPHA, usevar="unequal"), p_eq, (k * pooled if k is not None else None)


def compare_metrics(ma: dict, mb: dict, name: str, paired: bool = False) -> dict:
    """compare() of two metric summaries of a result file (samples, better), on the metric's scale."""
    return compare(ma["samples"], mb["samples"], ma["better"], metrics.scale(name), paired)


HEADLINE = ("throughput", "create_per_s", "stat_per_s", "read_per_s", "rename_per_s", "delete_per_s",
            "seconds", "bytes_used", "iops", "deliveries_per_s", "commits_per_s",
            "read_throughput", "write_throughput")  # the metrics a table compares unless asked for all


def between(a: dict, b: dict, all_metrics: bool = False) -> list[dict]:
    """Every (cell, metric) two result files both measured, compared and adjusted as one table
    (Benjamini-Hochberg): the rows of `fsatlas compare`, `fsatlas report` and articles."""
    cells_b = {c["key"]: c for c in b["cells"] if c["status"] == "ok"}
    rows = []
    for cell in a["cells"]:
        other = cells_b.get(cell["key"])
        if not other or cell["status"] != "ok":
            continue
        for name, ma in cell["metrics"].items():
            mb = other["metrics"].get(name)
            if mb and (all_metrics or name in HEADLINE):
                rows.append({"key": cell["key"], "metric": name, "unit": ma["unit"], **compare_metrics(ma, mb, name)})
    return adjust(rows, BH)


def adjust(rows: list, method: str) -> list:
    """Adjusts the p-values of the tested rows as one family (method HOLM or BH) and gives each
    row its verdict: better, worse, equivalent, inconclusive or not testable. Returns rows."""
    tested = [r for r in rows if r["status"] == "tested"]
    if tested:
        p_diff = _corrected([r["p"] for r in tested], method)
        p_equal = _corrected([r["p_equivalent"] for r in tested], method)
        for r, pd, pe in zip(tested, p_diff, p_equal):
            r.update(p_adjusted=float(pd), p_equivalent_adjusted=float(pe), adjustment=METHOD_NAMES[method],
                     family=len(tested), significant=bool(pd < ALPHA), equivalent=bool(pe < ALPHA))
            if r["significant"]:
                r["verdict"] = "better" if (r["ratio"] > 1) == (r["better"] == "higher") else "worse"
            else:
                r["verdict"] = "equivalent" if r["equivalent"] else "inconclusive"
    for r in rows:
        if r["status"] != "tested":
            r.update(p_adjusted=None, p_equivalent_adjusted=None, adjustment=METHOD_NAMES[method],
                     family=len(tested), significant=False, equivalent=False, verdict="not testable")
    return rows


def describe(row: dict) -> str:
    """One sentence of a compared row's test, for a page or a terminal."""
    if row["status"] != "tested":
        return f"not testable: {row['why']}"
    low, high = row["ratio_ci95"]
    text = (f"{row['test']}: B/A {row['ratio']:.3g} (95 % interval {low:.3g}-{high:.3g}), p = {row['p']:.2g}, "
            f"{row['adjustment']}-adjusted over {row['family']} comparisons p = {row['p_adjusted']:.2g}")
    if row["verdict"] == "equivalent":
        text += f"; equivalent within +-{row['margin_pct']:g} % (two one-sided tests, adjusted p = {row['p_equivalent_adjusted']:.2g})"
    elif row["verdict"] == "inconclusive":
        text += f"; neither a difference nor equivalence within +-{row['margin_pct']:g} % is shown"
    if row["detectable_pct"] is not None:
        text += f"; the smallest change these repetitions could detect is about {row['detectable_pct']:.2g} %"
    return text


def _corrected(p_values: list, method: str) -> list:
    """statsmodels' multipletests, adjusted p-values. Its Holm branch calls gc.collect() on every
    call (statsmodels 0.15, stats/multitest.py): a full collection of the caller's heap, 38 ms a
    call in an aggregate of 1,000 results and 66 calls; the collection is skipped for the call."""
    import gc
    from statsmodels.stats.multitest import multipletests
    collect, gc.collect = gc.collect, lambda generation=2: 0
    try:
        return multipletests(p_values, ALPHA, method)[1]
    finally:
        gc.collect = collect


@lru_cache(maxsize=4096)
def _detectable(n_a: int, n_b: int | None) -> float | None:
    """The standardized effect detectable with POWER at ALPHA by the two-sample test of n_a and
    n_b repetitions (or, n_b None, the paired test of n_a pairs): it depends on nothing else,
    and statsmodels' solver is a root search (4 ms a comparison)."""
    from statsmodels.stats import power
    solver, sizes = (power.TTestPower(), {"nobs": n_a}) if n_b is None else \
        (power.TTestIndPower(), {"nobs1": n_a, "ratio": n_b / n_a})
    try:
        d = float(solver.solve_power(effect_size=None, alpha=ALPHA, power=POWER, alternative="two-sided", **sizes))
    except (ValueError, RuntimeError, ZeroDivisionError):
        return None
    return d if math.isfinite(d) and d > 0 else None


def _mean(values) -> float:
    return math.fsum(values) / len(values) if values else 0.0
