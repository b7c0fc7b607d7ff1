"""The one comparison of two sets of repetitions that fsatlas makes: `fsatlas compare`, the
claims of the mount-option guides, the rankings and the pages that show a ratio all call it,
so a difference is called significant (or "no effect" shown) by one rule everywhere.

- The test: Welch's t-test (statsmodels' CompareMeans) on the metric's scale (metrics.SCALE: the logarithm for
  rates, times and sizes, whose effects are ratios; for percentages, the logarithm of the ratio of
  their means, below), or the paired t-test where both sides ran in the same interleaved rounds.
- The effect: a ratio B/A with a 95 % interval, always the quantity the test is about and the
  inversion of that test, so the interval holds the ratio, leaves 1 out exactly when p < ALPHA
  (the interval of one comparison: a row whose adjusted p is not significant may still leave 1
  out, and a page says the interval is unadjusted) and lies on the side of 1 the verdict names.
  On the log scale, the ratio of the geometric means (row "ratio_of"), exp of the difference of
  the logarithms' means, and its interval exp of that difference's: not the ratio of the
  arithmetic means, which a skewed side (a = [1, 1], b = [1, 1, 1, 1, 1, 14]: 3.17 against
  1.55, p = 0.36) can put outside the test's interval or on the other side of 1. Where the
  test is not made (n = 1, no spread), the ratio of the means. On the linear scale (percentages:
  samples may be 0, so the samples have no logarithms, but their positive means have), the
  logarithm of the ratio of the means with its standard error by the delta method,
  se^2 = s_b^2 / (n_b mean_b^2) + s_a^2 / (n_a mean_a^2) (paired: the variance of
  b_i / mean_b - a_i / mean_a over n), Welch-Satterthwaite's degrees of freedom (paired: n - 1);
  its t-test gives p and its interval, exponentiated, the ratio's: always above zero, holding
  the ratio, widening upward as a ratio's does. Not Fieller's interval: it inverts the test
  on the difference exactly, but when a mean is within its own interval of zero (CPU percentages
  near 0) it reaches below zero or is unbounded, no interval of a ratio of positive means; and
  not the interval of the difference divided by A's mean (what the page showed before), which
  goes below zero and was clipped there. A mean of zero on the linear scale has no logarithm:
  not testable.
- The design (design(), the one place that decides it): inside one run, the repetitions of
  the two cells (paired where they ran in the same interleaved rounds). Across result files
  the run is the unit, since repetitions inside one run share its conditions and their spread
  is not the spread between runs: a verdict only with at least two runs on each side, tested on
  the runs' means; with one run on a side, the ratio and "not tested". What else a figure
  depends on (FACTORS: the machine, the host kernel, the guest it ran in and whether emulated,
  the OS, virtualization and container, the storage, the tools' versions, the profile; across
  files, the cell's parameters too) is the same only when every run of both sides has one
  value of it. Where it differs between the sides, or varies within a side ("mixed": 9 runs
  on one machine and 1 on another against the reverse mixes machines in other proportions),
  a difference is not the filesystem's: the row says "differs" and names them, never "better"
  or "worse", and never "equivalent" (inconclusive). Cells whose parameters differ (an
  imported cell's key leaves them out: iodepth 1 against 32) are not tested at all, the
  parameters named. Within one run, a filesystem's own parameters (a FUSE driver without
  O_DIRECT runs buffered) are part of what is compared.
- A run counts once: a run is identified by its id and by its content (every measured cell's
  key, parameters and samples: the same output imported twice gets two ids, one content); a
  run named twice on a side counts once, and a run on both sides is refused (UserError). One
  id in two files that differ (one_id(), on either side or both), or one cell's samples in two
  runs (a copy under a new id, its samples reordered, repetitions appended or removed, metrics
  or cells dropped, down to one repetition a cell or one metric: shared_print()), is refused
  whatever the order of the files, in one line naming both files: one run is never two.
- What is not compared: a metric whose unit (what its figures mean: a PTS result's includes
  its pts_scale, unit_of()) or direction (better) differs between the files (agreement():
  "units differ", "directions differ"), and, across files, a side whose contention is unknown
  (no host records, or records it cannot be computed from: contention_unknown()), as an
  unrecorded factor.
- Not testable: either side with fewer than two repetitions, or no spread at all; never p = 0.
- Many comparisons: p adjusted by Holm within a family (a claim's comparisons) or by
  Benjamini-Hochberg across a table (statsmodels' multipletests); a difference is significant
  when its adjusted p is below ALPHA. A table's families (adjust_table(), the one rule of
  `compare`, `report`, articles, the compare page, the explorer's quoted rows and the
  rankings, which quote the compare table's row): its headline metrics (HEADLINE) are one
  family and its other metrics a second, so a headline row's adjusted p and verdict are the
  same whether or not the other metrics are shown (`--all-metrics`, the page).
- "No effect": two one-sided tests (statsmodels' ttost) against a margin of +-margin_pct;
  equivalent when their adjusted p is below ALPHA, never from a large p alone. The margin, +-2 %,
  lies below the smallest change any claim of data/mount_options expects (5 %), so "no effect"
  can be told apart from a claimed effect.
- One test per cell's samples: a metric whose samples are another's scaled by one constant
  (iops = throughput / block size), up to the rounding of each figure (STEP: fio's whole bytes
  and six decimals of iops, and SCALED_REL), is not a second row of the same test (distinct()).
- The smallest change the row's own test could detect: the change at which that test has 80 %
  power (POWER) at ALPHA, two-sided, given the row's sample sizes and its samples' spreads
  taken as the true ones: Welch's test (unpaired rows, and the runs' means across files) from
  each side's own variance (welch_detectable()), the paired test from the spread of the
  differences (the noncentral t: _detectable()), the linear scale's test of the logarithm of
  the ratio of the means from the samples' relative spreads (ratio_detectable(): a simulation
  of that statistic with a fixed seed); so a claim smaller than that says "cannot tell at this
  n", and `measure` repeats until it is small enough.
"""
from collections import Counter
import datetime as dt
import itertools
import json
import math
import warnings
from functools import lru_cache

from ..errors import UserError
from . import machines, metrics, resultfile, shares, stats  # stats sets OpenBLAS's thread count before scipy is imported
from .shares import PAUSE_SLACK, run_clock  # a run's clock, which validate reads too

ALPHA = 0.05
POWER = 0.8  # the power at which the smallest detectable effect is given
EQUIVALENCE_MARGIN_PCT = 2.0  # "no effect": within +-2 % (a ratio between 1/1.02 and 1.02 on the log scale),
# below the smallest change a claim expects (5 %: runner/tests/test_comparison_design.py checks every claim)
HOLM, BH = "holm", "fdr_bh"  # within a family; across a table
METHOD_NAMES = {HOLM: "Holm", BH: "Benjamini-Hochberg"}


def interleaved(started_a, started_b) -> bool:
    """Whether two cells ran in the same rounds (one repetition of each a round, in either order:
    A B, B A...): the same count of repetitions, and each round's two starts before either start
    of the next round."""
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
    ratio, change = _ratio_of_means(mean_a, mean_b)
    row = {"n_a": len(a), "n_b": len(b), "mean_a": mean_a, "mean_b": mean_b, "better": better,
           "ratio": ratio, "change_pct": change, "ratio_of": "means",
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
    if scale == "linear":
        if mean_a <= 0 or mean_b <= 0:
            row["why"] = (f"a mean of zero or below ({mean_a:.3g}, {mean_b:.3g}): the ratio has no logarithm, "
                          f"so no interval")
            return row
        return _log_ratio_of_means(row, x, y, paired, margin_pct)
    low, high = -math.log1p(margin_pct / 100), math.log1p(margin_pct / 100)
    with warnings.catch_warnings():
        # one side's samples all equal (a size measured exactly each time): Welch's test then
        # rests on the other side's spread, as it should; numpy may warn of a zero variance
        warnings.simplefilter("ignore", RuntimeWarning)
        p, (ci_low, ci_high), p_eq, detectable = _tests(x, y, paired, low, high, spread)
    diff, ci_low, ci_high = float(y.mean() - x.mean()), float(ci_low), float(ci_high)
    try:  # what the test is about: the ratio of the geometric means, and its interval
        ratio, ratio_ci = math.exp(diff), [math.exp(ci_low), math.exp(ci_high)]
        detectable_pct = math.expm1(detectable) * 100 if detectable is not None else None
    except OverflowError:  # exp() of an interval hundreds of powers of ten wide
        ratio_ci = None
    if ratio_ci is None or not all(math.isfinite(v) for v in ratio_ci + [ratio, p, p_eq]):
        row["why"] = "the interval of B/A is not a finite number (samples spread over hundreds of powers of ten)"
        return row
    if detectable_pct is not None and not math.isfinite(detectable_pct):
        detectable_pct = None
    row.update(status="tested", why="", paired=paired, p=float(p), p_equivalent=float(p_eq),
               ratio=ratio, change_pct=math.expm1(diff) * 100, ratio_of="geometric means",
               ratio_ci95=[float(ratio_ci[0]), float(ratio_ci[1])], detectable_pct=detectable_pct,
               test=("paired t-test" if paired else "Welch's t-test") + " on logarithms")
    return row


def _log_ratio_of_means(row: dict, x, y, paired: bool, margin_pct: float) -> dict:
    """compare()'s row on the linear scale, both means above zero: the t-test of the logarithm
    of the ratio of the means (the delta method, module docstring), its 95 % interval turned
    into the ratio's, the two one-sided tests of equivalence within +-margin_pct on the same
    statistic, and the smallest detectable change from the samples' relative spread."""
    import numpy as np
    from scipy.stats import t as student
    mean_x, mean_y = row["mean_a"], row["mean_b"]
    estimate = math.log(mean_y) - math.log(mean_x)  # not log(mean_y / mean_x): that quotient may round to 0
    rel_x, rel_y = x / mean_x, y / mean_y  # each sample relative to its side's mean: the delta method's terms
    var_x, var_y = float(rel_x.var(ddof=1)), float(rel_y.var(ddof=1))
    if paired:
        n = len(x)
        spread = float((rel_y - rel_x).std(ddof=1))
        se, df = spread / math.sqrt(n), n - 1
        cov = float(np.cov(rel_x, rel_y, ddof=1)[0, 1])
        change = ratio_detectable(n, n, *(_sig(v) for v in (var_x, var_y, cov)), True)  # the power of this test
    else:
        se = math.sqrt(var_x / len(x) + var_y / len(y))
        df = ((var_x / len(x) + var_y / len(y)) ** 2 / ((var_x / len(x)) ** 2 / (len(x) - 1) + (var_y / len(y)) ** 2
                                                         / (len(y) - 1))) if se else 0.0
        change = ratio_detectable(len(x), len(y), _sig(var_x), _sig(var_y))  # the power of this test
    if not math.isfinite(se):
        row["why"] = "the interval of B/A is not a finite number (samples spread over hundreds of powers of ten)"
        return row
    if not se > 1e-12 * max(1.0, abs(estimate)):  # B's samples A's times one constant, to the last bits
        row["why"] = "no spread in the repetitions relative to their means"
        return row
    margin = math.log1p(margin_pct / 100)
    half = float(student.ppf(1 - ALPHA / 2, df)) * se
    p = float(2 * student.sf(abs(estimate) / se, df))
    p_eq = float(max(student.sf((estimate + margin) / se, df), student.cdf((estimate - margin) / se, df)))
    try:
        ratio_ci = [math.exp(estimate - half), math.exp(estimate + half)]
    except OverflowError:  # exp() of an interval hundreds of powers of ten wide
        ratio_ci = [0.0, math.inf]
    if not (all(math.isfinite(v) for v in ratio_ci + [p, p_eq]) and ratio_ci[0] > 0):
        row["why"] = "the interval of B/A is not a finite number (samples spread over hundreds of powers of ten)"
        return row
    try:
        detectable = math.expm1(change) * 100 if change is not None else None
    except OverflowError:
        detectable = None
    row.update(status="tested", why="", paired=paired, p=p, p_equivalent=p_eq, ratio_ci95=ratio_ci,
               detectable_pct=detectable,
               test=("paired t-test" if paired else "Welch's t-test") + " on the logarithm of the ratio of the means")
    return row


# what the comparisons import: parallel.map_batches's preload where workers make them
PRELOAD = ("numpy", "statsmodels.stats.weightstats", "statsmodels.stats.multitest", "scipy.special",
           "scipy.optimize", "scipy.stats")


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
        k = _detectable(len(x))
        return p, d.tconfint_mean(ALPHA), p_eq, (k * spread if k is not None else None)
    means = weightstats.CompareMeans(weightstats.DescrStatsW(y), weightstats.DescrStatsW(x))
    p = means.ttest_ind(usevar="unequal")[1]
    p_eq = means.ttost_ind(low, high, usevar="unequal")[0]
    return (p, means.tconfint_diff(ALPHA, usevar="unequal"), p_eq,
            welch_detectable(len(x), len(y), float(x.var(ddof=1)), float(y.var(ddof=1))))


HEADLINE = ("throughput", "create_per_s", "stat_per_s", "read_per_s", "rename_per_s", "delete_per_s",
            "seconds", "bytes_used", "iops", "deliveries_per_s", "commits_per_s",
            "read_throughput", "write_throughput")  # the metrics a table compares unless asked for all

# The designs design() chooses between
PAIRED = "paired"  # one run, two cells in the same interleaved rounds: the paired test of their repetitions
REPETITIONS = "repetitions"  # one run, two cells not interleaved: Welch's test of their repetitions
RUN_MEANS = "run means"  # across result files, two or more runs a side: Welch's test of the runs' means
ONE_RUN = "one run"  # across result files, one run on a side: the ratio, not tested
FACTORS = ("machine", "kernel", "guest", "os", "virtualization", "storage", "tools", "profile", "parameters",
           "mount options", "driver")
# what besides the filesystem a figure depends on: the run's (factors()) and the cell's (cell_factors())
FACTOR_NAMES = "machine, kernel, guest, OS, virtualization, storage, tools and profile"  # a run's factors()


NOT_RECORDED = "not recorded"
# system fields that are not the machine's hardware: its own factors, its display name, what was
# recorded, a run's own time (an import's PTS timestamp) and PTS's Software line (its OS and
# kernel are factors of their own; a desktop's update made one machine two: round 59)
NOT_MACHINE = frozenset({"machine", "arch", "cpu_model", "cpu_count", "memory_bytes", "machine_name", "recorded",
                         "kernel", "os", "virtualization", "container", "pts_timestamp", "pts_software"})
IMPORT, RUNNER = shares.IMPORT, shares.RUNNER  # a run's origin (factors())


def they_differ(names: list) -> str:
    """'kernel differs', 'machine and kernel differ', 'machine, kernel and storage differ' ("" for none)."""
    names = list(names)
    if not names:
        return ""
    joined = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    return f"{joined} {'differs' if len(names) == 1 else 'differ'}"


def factors(result: dict) -> dict:
    """What a run's figures depend on besides the filesystem, each as one comparable string: the
    machine (its label, architecture, CPU, CPU count, memory), the host kernel, the guest a run
    ran in (target.guest: its kernel, package, hypervisor, accelerator, emulated or not; "none"),
    the OS, the virtualization and container it ran under, the storage (the target and the
    device under it), the tools' versions (tool: fio, mkfs, the runner...) and the profile; with
    the run's id and its origin (IMPORT or RUNNER, from its profile and tool fields:
    shares.imported). Takes a result file's fields; a cell's parameters are cell_factors()'s."""
    system, target, tool = result.get("system") or {}, result.get("target") or {}, result.get("tool") or {}
    if not resultfile.system_recorded(system):  # a label alone: the machine is not known to be any other's
        system = {}
    memory = system.get("memory_bytes")
    # a fact the schema names not, which a --system file may add (cpu_mhz, storage_model): the
    # machine's too, so two files differing in it never read as one machine (round 58)
    more = [f"{k} {system[k]}" for k in sorted(system) if k not in NOT_MACHINE and system[k] not in (None, "")]
    machine = ", ".join(filter(None, (system.get("machine"), system.get("arch"), system.get("cpu_model"),
                                      f"{system['cpu_count']} CPUs" if system.get("cpu_count") else "",
                                      machines.memory_text(memory) if memory else "", *more)))
    # every field of the target but its measurements, a nested one (a disk described as an
    # object) as canonical JSON: dropped, two disks read as the same storage (round 58)
    storage = ", ".join(f"{k} {json.dumps(target[k], sort_keys=True) if isinstance(target[k], (dict, list)) else target[k]}"
                        for k in sorted(target) if k not in ("baseline", "baseline_after", "baseline_written", "guest")
                        and target[k] not in (None, "", {}, []))
    guest = target.get("guest")
    guest = ", ".join(f"{k} {guest[k]}" for k in sorted(guest)) if isinstance(guest, dict) and guest else "none"
    virtualization = ", ".join(f"{k} {system[k]}" for k in ("virtualization", "container") if system.get(k))
    tools = ", ".join(f"{k} {tool[k]}" for k in sorted(tool) if tool[k] not in (None, ""))
    return {"run": result["id"], "origin": IMPORT if shares.imported(result) else RUNNER,
            "machine": machine or NOT_RECORDED, "kernel": system.get("kernel") or NOT_RECORDED,
            "guest": guest, "os": system.get("os") or NOT_RECORDED,
            "virtualization": virtualization or NOT_RECORDED, "storage": storage or NOT_RECORDED,
            "tools": tools or NOT_RECORDED, "profile": result.get("profile") or NOT_RECORDED}


def cell_factors(run: dict, cell: dict) -> dict:
    """run (factors() of a result) with the cell's parameters as one comparable string (canonical
    JSON): an imported cell's key leaves its parameters out (iodepth=1 and 32 under one job name).
    An imported cell's tools are its own outputs' versions (imported_runs): the files of one
    import may come from several fio versions, and a side that mixes them is "mixed" in tools."""
    own = sorted({r["tool"] for r in cell.get("imported_runs") or () if r.get("tool")})
    return {**run, "parameters": json.dumps(cell.get("parameters") or {}, sort_keys=True, default=str),
            # the options the kernel reports it mounted with, and the driver: one key is another
            # configuration where the matrix's defaults changed (btrfs nodiscard against discard=async,
            # #60 round 51: "worse" across runs whose headers said nothing differed)
            "mount options": cell.get("effective_mount_options", ""), "driver": cell.get("driver", ""),
            **({"tools": " / ".join(own)} if own else {})}


def cells_plan(run_a: dict, cell_a: dict, run_b: dict, cell_b: dict) -> dict:
    """design() of one cell against another, each with the factors() of its run: the cells'
    parameters and own tools (cell_factors()), whether they ran in the same interleaved rounds
    (one and the same run only) and whether their contention differs (contended(); across runs,
    or unknown: contention_unknown()). What `compare R --a X --b Y`, the compare page, the
    explorer, the rankings and the guides' claims decide a pair of cells by: a result file's
    cells, or a site digest's (aggregate.digest keeps what this reads)."""
    same_run = run_a["run"] == run_b["run"]
    factors_a, factors_b = cell_factors(run_a, cell_a), cell_factors(run_b, cell_b)
    if cell_a["key"] != cell_b["key"]:  # two configurations: how each mounts is part of what is compared
        for f in (factors_a, factors_b):
            del f["mount options"], f["driver"]
    return design([factors_a], [factors_b],
                  same_run and interleaved(cell_a.get("started"), cell_b.get("started")),
                  contended([(run_a, cell_a)], [(run_b, cell_b)]),
                  "" if same_run else contention_unknown([(run_a, cell_a)], [(run_b, cell_b)]))


def design(side_a: list, side_b: list, interleaved_pairs: bool = False, contended: str = "",
           contention_unknown: str = "") -> dict:
    """How B is compared with A, decided here only (`compare`, `report`, `article new`, the
    compare page, the explorer, the rankings and the guides' claims call it; a pair of cells
    through cells_plan()). side_a, side_b: the factors() (or cell_factors())
    of each run on that side, a run named twice counted once; interleaved_pairs: within one
    run, whether the two cells ran in the same rounds.
    Returns {design, tested, why, runs_a, runs_b, differ, mixed}:
    - one and the same run on both sides: PAIRED if interleaved, else REPETITIONS (tested);
    - across runs, at least two on each side: RUN_MEANS (tested, n = runs);
    - otherwise ONE_RUN: the ratio, "not tested: one run per side" (or on side A / B);
    - a run on both sides (but one and the same run) is not tested, the run named.
    A factor is the same only when every run of both sides has one and the same recorded value
    of it (a system not recorded, as an import without --system has it, is not shown to be the
    same as any); otherwise it is in differ, and in mixed too where it varies within a side (9
    runs on one machine and 1 on another against the reverse: the sides' means mix machines in
    other proportions, so their difference may be the machines'). Any factor in differ keeps a
    tested row from being called better, worse or equivalent (adjust()); differing parameters
    (cell_factors()) keep it from being tested at all: "not tested: parameters differ (...)".
    Nor is a row tested where the two sides ran under different contention (contended: what
    results/contention.difference() says of the two cells), or where both sides are cells of
    one import: a tool's repetitions ran one after the other, each filesystem's in its own
    stretch of the host's time, so their spread is not the spread between the sides' conditions
    (issue #64; a runner's sequential cells share one run's bookkeeping of rounds and contention,
    an import's none). An import is known by its origin (factors()' origin, or its profile),
    never by the `started` times its cells may carry: the paired test needs a run of fsatlas's
    runner in interleaved rounds (#60 round 15: crafted `started` in an fio import got one).
    contention_unknown: across files, why contention is not known on a side (contention_unknown()),
    which keeps a row from being tested as an unrecorded factor keeps one from a verdict."""
    side_a, side_b = (list({f["run"]: f for f in reversed(side)}.values())[::-1] for side in (side_a, side_b))
    runs_a, runs_b = [f["run"] for f in side_a], [f["run"] for f in side_b]
    present = [k for k in FACTORS if any(k in f for f in side_a + side_b)]
    values = {k: ([f.get(k, NOT_RECORDED) for f in side_a], [f.get(k, NOT_RECORDED) for f in side_b])
              for k in present}
    mixed = [k for k in present if len(set(values[k][0])) > 1 or len(set(values[k][1])) > 1]
    one_run = runs_a == runs_b and len(runs_a) == 1
    differ = [k for k in present if k in mixed or set(values[k][0]) != set(values[k][1])
              or not one_run and NOT_RECORDED in values[k][0] + values[k][1]]  # unknown: not shown to be the same
    out = {"runs_a": len(runs_a), "runs_b": len(runs_b), "differ": differ, "mixed": mixed, "tested": True, "why": ""}
    whys = [f"parameters differ ({_parameters_differ(*values['parameters'])})"] if "parameters" in differ else []
    shared = [r for r in runs_a if r in runs_b]
    if shared and not one_run:  # between() refuses it; a page's choice may still hold it
        whys.append(f"run {', '.join(shared)} on both sides")
    if one_run and (side_a[0].get("origin") == IMPORT or shares.imported(side_a[0])):
        # whatever `started` an import's cells carry: rounds are the runner's, decided by the result's origin
        interleaved_pairs = False
        whys.append("an import's repetitions ran in no interleaved rounds")
    if contended:
        whys.append(f"contention differs: {contended}")
    if contention_unknown:
        whys.append(contention_unknown)
    if one_run:
        out["design"] = PAIRED if interleaved_pairs else REPETITIONS
    elif len(runs_a) >= 2 and len(runs_b) >= 2:
        out["design"] = RUN_MEANS
    else:
        one = "per side" if len(runs_a) < 2 and len(runs_b) < 2 else ("on side A" if len(runs_a) < 2 else "on side B")
        out["design"], whys = ONE_RUN, [f"one run {one}"] + whys
    return {**out, "tested": False, "why": "not tested: " + "; ".join(whys)} if whys else out


def _parameters_differ(side_a: list, side_b: list) -> str:
    """The parameters whose values differ, with each side's values: "iodepth A=1 B=32" (no "; ",
    which separates the reasons of a row's why)."""
    dicts_a, dicts_b = [json.loads(v) for v in side_a], [json.loads(v) for v in side_b]
    names = sorted({k for d in dicts_a + dicts_b for k in d})
    parts = []
    for k in names:
        va, vb = (list(dict.fromkeys(str(d.get(k, "-")) for d in ds)) for ds in (dicts_a, dicts_b))
        if len(va) > 1 or len(vb) > 1 or va != vb:
            parts.append(f"{k} A={'/'.join(va)} B={'/'.join(vb)}")
    return ", ".join(parts)


def compare_design(samples_a: list, samples_b: list, better: str, scale: str, plan: dict) -> dict:
    """B against A as plan (from design()) says; samples_a, samples_b: per run, its repetitions.
    The row of compare(), with the design, the run counts and the differing factors."""
    flat_a, flat_b = [v for run in samples_a for v in run], [v for run in samples_b for v in run]
    kind = plan["design"]
    if kind == RUN_MEANS:
        row = compare([_mean(run) for run in samples_a if run], [_mean(run) for run in samples_b if run],
                      better, scale)
        if row["test"]:
            row["test"] += ", of the runs' means"
    else:
        row = compare(flat_a, flat_b, better, scale, paired=kind == PAIRED)
    if not plan["tested"]:  # one run a side, or parameters that differ: the ratio only
        mean_a, mean_b = _mean(flat_a), _mean(flat_b)
        ratio, change = _ratio_of_means(mean_a, mean_b)  # untested: no geometric means of a test
        row.update(mean_a=mean_a, mean_b=mean_b, n_a=len(flat_a), n_b=len(flat_b), ratio_ci95=None, p=None,
                   ratio=ratio, change_pct=change, ratio_of="means",
                   p_equivalent=None, detectable_pct=None, paired=False, test=None, status="not tested",
                   why=plan["why"][len("not tested: "):])
    return {**row, "design": kind, "runs_a": plan["runs_a"], "runs_b": plan["runs_b"], "differ": list(plan["differ"])}


def distinct(names: list, side_a: dict, side_b: dict) -> list:
    """names without each metric whose samples, on both sides, are those of a metric before it
    scaled by one constant (iops = throughput / block size): one test per set of samples.
    side_a, side_b: metric name -> its samples (all runs' repetitions, in order)."""
    of = tested_as(names, side_a, side_b)
    return [name for name in names if of[name] == name]


def tested_as(names: list, side_a: dict, side_b: dict) -> dict:
    """name -> the metric whose test it is: itself, or the metric before it whose samples it
    scales on both sides (distinct() keeps one row for them; a ranking of iops quotes the row of
    throughput). Headline metrics come first, so a headline metric is never left out for
    another one and a table's headline family (adjust_table) is the same with or without the
    other metrics."""
    out, kept = {}, []
    for name in sorted(names, key=lambda n: n not in HEADLINE):
        out[name] = next((k for k in kept if _scaled(side_a[name], side_a[k], side_b[name], side_b[k],
                                                      *((STEP[name], STEP[k]) if name in STEP and k in STEP
                                                        else (0.0, 0.0)))), name)
        if out[name] == name:
            kept.append(name)
    return out


# The step of a metric's figures as fio writes them (JSON: bw_bytes in whole bytes, cut by an integer
# division; iops to six decimals): a figure lies within one step of its exact value, so a ratio of
# two within the sum of their steps relative to the figures. Steps count between two such figures
# only (iops and throughput: one count of I/Os); any other pair is held to SCALED_REL
STEP = {"throughput": 1.0, "read_throughput": 1.0, "write_throughput": 1.0, "iops": 1e-6,
        "read_iops": 1e-6, "write_iops": 1e-6}
SCALED_REL = 1e-4  # beyond the steps: fio's own arithmetic (a ratio moves by 1.5e-6 at 1,000 IOPS, measured)


def _scaled(xa, ya, xb, yb, step_x: float = 0.0, step_y: float = 0.0) -> bool:
    """Whether x = c * y, with one c > 0 for every sample of both sides, up to the rounding of
    each figure: each ratio x/y lies within SCALED_REL plus the steps of x and y (relative to
    the figures) of c, i.e. the intervals of all ratios share a point. At 1 kB/s a whole
    byte is 5e-4 of the figure, beyond a fixed 1e-4: the tolerance follows the rounding."""
    if len(xa) != len(ya) or len(xb) != len(yb) or not xa or not xb:
        return False
    if min(ya + yb) <= 0 or min(xa + xb) <= 0:
        return False
    low, high = 0.0, math.inf
    for x, y in zip(xa + xb, ya + yb):
        ratio, slack = x / y, SCALED_REL + step_x / x + step_y / y
        low, high = max(low, ratio * (1 - slack)), min(high, ratio * (1 + slack))
    return low <= high


def between(a, b, all_metrics: bool = False, files: tuple = ()) -> list[dict]:
    """Every (cell, metric) that both sides measured, compared as design() says and adjusted as
    one table (Benjamini-Hochberg): the rows of `fsatlas compare`, `fsatlas report` and
    articles. a, b: a result file each, or a list of result files each (several runs a side);
    files: (A's file names, B's), which a refusal names (default: the runs' ids).
    A run counts once on its side, and one id or one cell's samples in two files that are not
    one run is refused (_once()); a run, or a cell's samples, on both sides is refused (UserError),
    as are two files of one machine at once, on one side or across (ran_at_once()).
    A row is not tested where its metric's unit or direction (better) is not one and the same
    in every cell of both sides (agreement()), nor across files where a side's contention is
    unknown (contention_unknown())."""
    a, b = (list(x) if isinstance(x, (list, tuple)) else [x] for x in (a, b))
    files_a, files_b = (list(names) or [r["id"] for r in runs] for names, runs in zip(files or ((), ()), (a, b)))
    one_id(a + b, files_a + files_b)  # one id in two files that differ, whichever sides they are on
    (kept_a, _), (kept_b, _) = _once(a, files_a, ids_checked=True), _once(b, files_b, ids_checked=True)
    file_of = {id(r): f for r, f in zip(a + b, files_a + files_b)}
    outputs_b = [output_prints(r) for r, _, _ in kept_b]
    for r, digest, prints in kept_a:
        twin = next((n for n, (o, d, _) in enumerate(kept_b) if o["id"] == r["id"] or d == digest), None)
        copied = shared_print(prints, [p for _, _, p in kept_b]) or shared_output(output_prints(r), outputs_b)
        if twin is not None or copied:
            other = kept_b[copied[0] if twin is None else twin][0]
            raise UserError("a run compared with itself shows nothing of the filesystems: "
                            + (f"{other['id']} is on both sides" if other["id"] == r["id"] else
                               f"{r['id']} (A) and {other['id']} (B) hold the same samples"
                               + (f" of {copied[1]}" if twin is None else ""))
                            + f" ({file_of[id(r)]}, {file_of[id(other)]})")
        for other, _, _ in kept_b:  # one run's repetitions split over the two sides
            _not_at_once(r, other, file_of[id(r)], file_of[id(other)])
    side_a, side_b = [r for r, _, _ in kept_a], [r for r, _, _ in kept_b]
    cells_a, cells_b = _cells_by_key(side_a), _cells_by_key(side_b)
    rows = []
    for key, of_a in cells_a.items():
        of_b = cells_b.get(key)
        if not of_b:
            continue
        single = len(of_a) == len(of_b) == 1
        plan = design([cell_factors(f, c) for f, c in of_a], [cell_factors(f, c) for f, c in of_b],
                      single and interleaved(of_a[0][1].get("started"), of_b[0][1].get("started")),
                      contended(of_a, of_b), contention_unknown(of_a, of_b))
        names = [n for n in of_a[0][1]["metrics"] if (all_metrics or n in HEADLINE)
                 and all(n in c["metrics"] for _, c in of_a + of_b)]
        samples = [{n: [v for _, c in runs for v in c["metrics"][n]["samples"]] for n in names} for runs in (of_a, of_b)]
        for name in distinct(names, *samples):
            entries = [[c["metrics"][name] for _, c in runs] for runs in (of_a, of_b)]
            rows.append(row_of(key, name, *entries, plan))
    return adjust_table(rows)


def row_of(key: str, name: str, side_a: list, side_b: list, plan: dict) -> dict:
    """The row of metric NAME of cell KEY: side_a, side_b: the metric's entry ({unit, better,
    samples}) in each run's cell of that side; compared as plan (design()) says, unless the
    entries disagree on unit or direction (agreement()): then not tested, and with units that
    differ no ratio either (seconds over points is no ratio)."""
    why = agreement(side_a, side_b)
    if why:
        plan = {**plan, "tested": False, "why": (plan["why"] + "; " if plan["why"] else "not tested: ") + why}
    first = side_a[0]
    row = compare_design([m["samples"] for m in side_a], [m["samples"] for m in side_b],
                         first["better"], metrics.scale(name), plan)
    if why.startswith("units"):
        row.update(ratio=None, change_pct=None)
    return {"key": key, "metric": name, "unit": first["unit"], **row}


def agreement(side_a: list, side_b: list) -> str:
    """Why the metric entries of a row (each run's cell, side A's and B's) cannot be compared:
    "units differ (A s, B pts)" or "directions differ (A lower, B higher)" where the unit or
    better is not one and the same in every entry ("A s / pts" where a side holds two); ""
    where they agree. Known metrics have the metric table's (validate); one fsatlas does not
    know carries its own in each file, and side A's first run is no judge of side B's. A PTS
    metric's unit includes its pts_scale (unit_of())."""
    for field, word in (("unit", "units"), ("better", "directions")):
        found = [list(dict.fromkeys(unit_of(m) if field == "unit" else str(m.get(field)) for m in side))
                 for side in (side_a, side_b)]
        if len(found[0]) > 1 or len(found[1]) > 1 or found[0] != found[1]:
            return f"{word} differ (A {' / '.join(found[0])}, B {' / '.join(found[1])})"
    return ""


def unit_of(metric: dict) -> str:
    """What a metric entry's figures mean: its unit, and for a PTS result (unit pts) the scale
    PTS wrote beside it ("pts (MB/s)"): points of MB/s and points of seconds are not one unit."""
    unit = str(metric.get("unit"))
    return f"{unit} ({metric['pts_scale']})" if metric.get("pts_scale") is not None else unit


def contended(of_a: list, of_b: list) -> str:
    """What results/contention finds between any cell of side A and any of side B (each a list
    of (factors, cell)): the first difference beyond a threshold, or "". Within one run a measure
    one cell's records give and the other's cannot is a difference (unknown is not the same), and
    so is a round past a threshold on one side only; across runs contention_unknown() says the
    first of the side, and contention is compared side against side (contention.sides_differ())."""
    from . import contention
    runs = [{(f or {}).get("run") for f, _ in side} for side in (of_a, of_b)]
    within = runs[0] == runs[1] and len(runs[0]) == 1
    if not within:  # across files: side against side, never run against run
        return contention.sides_differ([c for _, c in of_a], [c for _, c in of_b])
    return next(filter(None, (contention.difference(a, b) for _, a in of_a for _, b in of_b)), "")


def contention_unknown(of_a: list, of_b: list) -> str:
    """Across result files (each side a list of (factors, cell)): "contention unknown on side A
    (no host records in run X)" where a side's cell recorded none or records from which a measure
    cannot be computed (contention.unknown(): records for some repetitions only, no wall time or one
    too short to divide by, a share not finite), as a run factor not recorded
    is not shown to be the same as any (design()); "" where every cell recorded it. Within one
    run the two cells share its host, recorded or not."""
    from . import contention
    parts = []
    for name, side in (("A", of_a), ("B", of_b)):
        whys = {}  # why -> the runs it holds for
        for f, c in side:
            why = contention.unknown(c)
            if why and f["run"] not in whys.setdefault(why, []):
                whys[why].append(f["run"])
        if whys:
            parts.append(f"contention unknown on side {name} ("
                         + ", ".join(f"{why} in run {', '.join(runs)}" for why, runs in whys.items()) + ")")
    return "; ".join(parts)


def runs_contention_unknown(runs_a: list, runs_b: list) -> str:
    """contention_unknown() of two sides of runs (result files), over every measured cell: what a
    header says before the rows, each of which says it of its own cells."""
    return contention_unknown(*([(factors(r), c) for r in runs for c in r["cells"] if c.get("status") == "ok"]
                                for runs in (runs_a, runs_b)))


def runs_plan(runs_a: list, runs_b: list, rows: list, within: bool = False) -> tuple[dict, list, list, list]:
    """(the design a comparison's header states, the runs of side A each once, side B's, [(id
    left out, id kept)] as once() says): what `compare`'s header, `report` and an article's
    comparison each say above the same rows (ROWS, as between() or report.within() made them).
    Across files contention is judged cell by cell: where some cells lack host records, only
    their rows are untested (the plan's "untested" says how many and why), not the design as a
    whole. within: two sides of one run, whose cells share its host, recorded or not."""
    (kept_a, dropped_a), (kept_b, dropped_b) = once(runs_a), once(runs_b)
    fa, fb = [factors(r) for r in kept_a], [factors(r) for r in kept_b]
    unknown = "" if within else runs_contention_unknown(kept_a, kept_b)
    plan = design(fa, fb, contention_unknown=unknown)
    if unknown and any(r["status"] == "tested" for r in rows):  # some cells recorded it on both sides
        untested = sum("contention unknown" in (r.get("why") or "") for r in rows)
        plan = {**design(fa, fb), "untested": f"{untested} of {len(rows)} rows not tested: {unknown}"}
    return plan, kept_a, kept_b, dropped_a + dropped_b


def content(result: dict) -> str:
    """What identifies a run's content: every measured cell's key, parameters and samples (the
    figures a comparison tests), as a digest. The same output imported twice gets two ids and
    one content; two separate runs never repeat every sample to the last bit."""
    import hashlib
    cells = sorted([c["key"], json.dumps(c.get("parameters") or {}, sort_keys=True, default=str),
                    sorted([n, [float(v) for v in m["samples"]]] for n, m in c["metrics"].items())]
                   for c in result["cells"] if c.get("status") == "ok")
    return hashlib.sha256(json.dumps(cells).encode()).hexdigest()


# A copy whose every figure was moved by a unit in the last place (403056240 written as
# 403056240.00000006: #60 round 19, finding 5) is the same measurement: values are compared to
# this many significant digits, far below any measured spread and above a double's last digits.
PRINT_DIGITS = 12


def output_prints(result: dict) -> dict:
    """{(parameters, one repetition's figures): its cell's key} of each repetition of an imported
    result: every metric's value of that repetition to PRINT_DIGITS digits, under the parameters
    its output ran with (not the key: an output imported as another filesystem is the same
    output). Two runs that hold one such repetition hold one tool output, as import refuses one
    output given twice ("the same run as FILE"): two fio outputs imported together, and one of
    them again beside a third, counted as two runs where they shared too few values for
    shared_print (round 61). A repetition of one figure (dd, IOzone) cannot tell an output from a
    coincidence (OUTPUT_FIGURES). A runner's repetitions are not outputs imported: a fast steady
    cell's figures repeat between its independent runs (varied()). A PTS result's repetitions are
    its system's runs, which PTS stamps with their time: their coarse figures (0.7 MB/s, 180 IOPS)
    repeat between a disk's runs a week apart, their TimeStamp does not (adversary of #65, round 78)."""
    if not shares.imported(result):
        return {}
    out = {}
    stamp = (result.get("system") or {}).get("pts_timestamp")
    for c in result["cells"]:
        if c.get("status") != "ok" or not c.get("metrics"):
            continue
        stated = {**(c.get("parameters") or {}), **({"pts_timestamp": stamp} if stamp else {})}
        params = json.dumps(_same_numbers(stated), sort_keys=True, default=str)
        for j in range(max(len(m["samples"]) for m in c["metrics"].values())):
            figures = tuple(sorted((name, float(f"{float(m['samples'][j]):.{PRINT_DIGITS}g}"))
                                   for name, m in c["metrics"].items() if j < len(m["samples"])))
            if len(figures) >= OUTPUT_FIGURES:
                out[(params, figures)] = c["key"]
    return out


# A repetition identifies its output with this many figures: fio's (rates, latencies and their
# percentiles, CPU shares), bonnie++'s. One figure alone does not: dd's rate from seconds printed
# to 0.01 s, which independent runs share (test_runs_once: one value of three in common)
OUTPUT_FIGURES = 2


def shared_output(outputs: dict, others: list) -> tuple | None:
    """(the index in others, the cell key) of the first of others (output_prints() of runs) that
    holds a repetition of outputs, or None."""
    for n, other in enumerate(others):
        common = outputs.keys() & other.keys()
        if common:
            return n, outputs[min(common)]
    return None


def cell_prints(result: dict) -> dict:
    """{(cell key, parameters): {metric: its samples' values to PRINT_DIGITS significant digits,
    as a multiset (Counter)}} of each measured cell, over every metric but a size in bytes (which
    moves in whole blocks: xfs tree-copy's bytes_used repeats between runs), and the start times
    of the cell's repetitions as one more ("started"); and of each job of the target's raw-device
    baselines, keyed ("baseline: <job>" or "baseline_after: <job>", "{}"). Multisets, not the
    samples in their order: a copy whose samples were reordered, a repetition appended or removed,
    or a metric or cell dropped keeps the values of what it kept (shared_print())."""
    def values(metrics: dict) -> dict:
        return {name: Counter(float(f"{float(v):.{PRINT_DIGITS}g}") for v in m["samples"])
                for name, m in metrics.items() if m.get("unit") != "bytes"}
    out = {}
    for c in result["cells"]:
        if c.get("status") != "ok":
            continue
        out[(c["key"], json.dumps(_same_numbers(c.get("parameters") or {}), sort_keys=True, default=str))] = \
            values(c["metrics"]) | ({"started": Counter(str(t) for t in c["started"])} if c.get("started") else {})
    # the raw device's jobs are measured once a run, and a run's every file holds them: two files
    # of one run cut in two at a gap in its clock share them (#60 round 22, finding 1)
    target = result.get("target") or {}
    for field in ("baseline", "baseline_after"):
        for job, metrics in (target.get(field) or {}).items():
            out[(f"{field}: {job}", "{}")] = values(metrics)
    return out


def _same_numbers(parameters: dict) -> dict:
    """A cell's parameters with each whole float written as the integer it equals (32.0 as 32): one
    setting however a file spells it (#60 round 18: a copy whose bs read 32.0 counted as another run)."""
    return {k: int(v) if type(v) is float and v.is_integer() else v for k, v in parameters.items()}


# Two files hold one run's cell where it holds SHARED_METRICS metrics or more in both and, over
# them, COPY_SHARE or more of one file's distinct values are among the other's (distinct_share()):
# a copy finds every value it kept, whatever it dropped, reordered or repeated. By chance a fio
# cell shares at most all but its mean latency (a mean of whole nanoseconds over its I/Os, which
# coincides as rarely as a continuous figure): the values of 6 of its 7 metrics, 0.857 where
# each holds as many (reached by 3 of 20,000 simulated pairs of independent fio cells of 10 ms to
# 1 s and 1 to 9 repetitions, each of one repetition over 10 to 20 ms). Measured over the runs
# named below: no cell of an independent pair shares more than 0.36 (tiny xfs seq-read).
# The rule of round 16 (most metrics sharing two values) took independent cells of coarse
# figures for one run: throughput and iops are one count over whole milliseconds (a 100 ms cell
# at 5 % spread holds a handful of values), CPU shares clock ticks, latency percentiles histogram
# bins (test_two_independent_runs_at_the_figures_resolution_are_never_one_run found it); it
# caught a copy with one metric of seven or eight changed throughout (0.857, 0.875), which
# held_metrics() catches from HELD_VALUES repetitions: most metrics, SHARED_METRICS at least, of
# which one file's HELD_VALUES or more distinct values are all among the other's (in 30,000
# simulated pairs of such cells: 0 from 3 values; from 2, 3 pairs of 100 ms cells).
SHARED_METRICS, HELD_VALUES = 3, 3

# And two files hold one run where, over every (cell, metric) both hold, at least COPY_SHARE of
# the values compared are found in the other file (shared()), of COPY_VALUES compared or more: a
# copy gives 1 whatever it dropped or reordered, so this catches what the rule per cell cannot:
# cells of one or two metrics (dd imports, tiny-block-write) or of one repetition. Measured
# (2026-11-29) over the result files found on this machine, 96 files of 65 distinct inputs: 44
# runs (the committed results, make perf's A/A quick runs, the helpers' tiny, quick and standard
# runs, three tiny runs of 90 cells made for this) and dd imports: of 184 pairs of distinct inputs
# holding 3 values or more in common, none shares more than 0.33 (1 of 3: the adversary's dd
# imports, seconds to 0.01), runs 0.26 (14 of 54: tiny, 16 I/Os over whole milliseconds, CPU
# shares of 0), the 14 pairs of 1,000 values or more 0.071 (132 of 1,860: two tiny runs).
# What runs share by chance grows as their figures are coarser and fewer: simulated over 200,000
# pairs of independent normal draws, three dd figures of 1 GiB over seconds to 0.01 (about 2.5 s)
# reach 0.9 in 7e-5 of pairs at 4 % spread and 6e-3 at 1 %; dd of coreutils 9.1 prints 6 digits
# (0 in 200,000). A file of so few so coarse figures is the rule's limit, and so is a copy whose
# values were jittered (each its own noise; one factor for all is caught: scaled()), or cut and
# then repeated within one metric of a cell of few metrics (the rule per cell catches it from
# three): no rule on exact values tells those from a run.
COPY_SHARE, COPY_VALUES = 0.9, 3
# And where, pooled over all cells (each metric's values of every cell together, whatever cell
# holds them), COPY_SHARE of POOLED_VALUES or more are the other's: a copy whose cells were
# relabelled (ext4's figures under xfs's key: #60 round 18) keeps its values, only not under the
# same cells. Pooled, coarse figures coincide more (the same CPU share of 0 or latency bin in
# many cells): over the files above, pairs of distinct inputs shared up to 0.69 of 16 values
# (two tiny runs) but at most 0.36 of 50 values or more (173 of 480: a quick and a standard run);
# of fine() values alone, at most 0.37 (54 of 148: a standard and a tiny run).
POOLED_VALUES = 50


def pooled(prints: dict) -> dict:
    """cell_prints() with every cell's values of a metric in one multiset (start times left out:
    they are the run's clock, not the cells' figures)."""
    out: dict = {}
    for values in prints.values():
        for name, counted in values.items():
            if name != "started":
                out.setdefault(name, Counter()).update(counted)
    return {("every cell", ""): out}


# A value of fewer significant digits than this (523 MB/s as Phoronix Test Suite rounds it, a
# CPU share of 0, 0.05 s) is one that independent runs give alike, so the run-wide rules leave it
# out: two PTS imports of 523, 523, 524 and 524, 523, 523 MB/s were refused as one run (#60
# round 18, finding 6). A copy of such figures is then no longer told from a run: the rule's limit.
FINE_DIGITS = 4


def fine(value) -> bool:
    """Whether a value has FINE_DIGITS significant digits or more (Python's shortest repr)."""
    return len(repr(abs(float(value))).split("e")[0].replace(".", "").strip("0")) >= FINE_DIGITS


def shared(prints: dict, theirs: dict) -> tuple[int, int]:
    """(values found, values compared) between two runs' cell_prints(): over every (cell, metric)
    both hold, the smaller multiset of fine() values is compared and what the two multisets hold
    in common found. A copy finds every value it compares, whatever it dropped or reordered;
    counted as often as each file holds it, a value repeated counts against a run only as often
    as the other holds it too."""
    found = compared = 0
    for cell, values in prints.items():
        other = theirs.get(cell, {})
        for m in values.keys() & other.keys():
            mine, its = (Counter({v: n for v, n in c.items() if fine(v)}) for c in (values[m], other[m]))
            compared += min(mine.total(), its.total())
            found += (mine & its).total()
    return found, compared


def distinct_share(values: dict, theirs: dict) -> float:
    """Of one cell's metrics both prints hold ({metric: Counter}), the share of one side's distinct
    values that the other holds, in the direction where it is larger."""
    common = values.keys() & theirs.keys()
    def found_in(x: dict, y: dict) -> float:
        return sum(len(x[m].keys() & y[m].keys()) for m in common) / max(sum(len(x[m]) for m in common), 1)
    return max(found_in(values, theirs), found_in(theirs, values))


# A copy whose every value of a metric was multiplied by one factor (1 + 1e-9 moved each past
# PRINT_DIGITS: #60 round 56) keeps the ratios between its values: the two sides' values, sorted,
# stand in one ratio to within SCALE_TOLERANCE (relative), far below the 1e-12 PRINT_DIGITS
# leaves and far above any chance agreement of HELD_VALUES fine() values of independent runs.
SCALE_TOLERANCE = 1e-9


def scalable(x: Counter, y: Counter) -> bool:
    """Whether two multisets of one metric can be told one another's multiple: as many values,
    varied() and fine() on each side."""
    return x.total() == y.total() and varied(x) and varied(y) and all(map(fine, x.keys() | y.keys()))


def scaled(x: Counter, y: Counter) -> bool:
    """Whether two multisets of one metric are scalable() and y's sorted values are x's times one
    factor (SCALE_TOLERANCE)."""
    if not scalable(x, y) or 0 in x:
        return False
    ratios = [b / a for a, b in zip(sorted(x.elements()), sorted(y.elements()))]
    return ratios[0] > 0 and all(abs(r / ratios[0] - 1) <= SCALE_TOLERANCE for r in ratios)


def held_metrics(values: dict, theirs: dict) -> bool:
    """Whether most of one cell's metrics both prints hold, and SHARED_METRICS at least, are held:
    every distinct value of one side, HELD_VALUES of them or more, is among the other's, or the
    two sides' values stand in one ratio (scaled())."""
    common = values.keys() & theirs.keys()
    held = sum(any(varied(x[m]) and x[m].keys() <= y[m].keys()
                   for x, y in ((values, theirs), (theirs, values))) or (m != "started" and scaled(values[m], theirs[m]))
               for m in common)
    return held >= SHARED_METRICS and 2 * held > len(common)


def varied(values: Counter) -> bool:
    """Whether a metric's values are HELD_VALUES distinct ones or more, and most of its samples
    distinct: a fast steady fio cell's throughput over whole milliseconds, or its latency bins,
    take a handful of values over 9 to 27 repetitions, which independent runs share whole (round
    59: of 300 modelled pairs, 60 at 9 repetitions and 175 at 27 were refused as one run:
    test_runs_once._fixed_size_cell)."""
    return len(values) >= HELD_VALUES and 2 * len(values) >= values.total()


def shared_print(prints: dict, others: list) -> tuple | None:
    """(the index in others, what they share: a cell key, or "their common cells (N of M
    values)") of the first of others (cell_prints() of runs) that holds one of prints' cells as
    SHARED_METRICS says, or the run as COPY_SHARE says (by cell, or pooled over cells:
    POOLED_VALUES), or None: one run's measurement, however the copy was edited (samples
    reordered, repetitions appended or removed, metrics, cells or repetitions dropped, cells
    relabelled)."""
    for n, other in enumerate(others):
        for cell, values in prints.items():
            theirs = other.get(cell, {})
            # a runner's start times (seconds from the run's start, to the millisecond) are its own
            # clock's: two runs never start HELD_VALUES repetitions of a cell at the same instants,
            # a copy whose every figure was moved a little does (adversary of #60, round 70)
            if len(values.get("started", {}).keys() & theirs.get("started", {}).keys()) >= HELD_VALUES:
                return n, f"{cell[0]} (its repetitions' start times)"
            if len(values.keys() & theirs.keys()) >= SHARED_METRICS and (
                    distinct_share(values, theirs) >= COPY_SHARE or held_metrics(values, theirs)):
                return n, cell[0]
        found, compared = shared(prints, other)
        if compared >= COPY_VALUES and found >= COPY_SHARE * compared:
            return n, f"their common cells ({found} of {compared} values)"
        found, compared = shared(pooled(prints), pooled(other))
        if compared >= POOLED_VALUES and found >= COPY_SHARE * compared:
            return n, f"their cells, under other keys ({found} of {compared} values)"
        found, compared = scaled_share(prints, other)
        if compared and found >= COPY_SHARE * compared:
            return n, f"their common cells, each metric's values times one factor ({found} of {compared} metrics)"
    return None


def scaled_share(prints: dict, theirs: dict) -> tuple[int, int]:
    """(metrics scaled, metrics compared) over every (cell, metric) both runs' cell_prints() hold
    scalable(): a scaled copy of cells of one or two metrics (dd imports), which held_metrics()
    cannot judge alone."""
    found = compared = 0
    for cell, values in prints.items():
        other = theirs.get(cell, {})
        for m in values.keys() & other.keys() - {"started"}:
            if scalable(values[m], other[m]):
                compared += 1
                found += scaled(values[m], other[m])
    return found, compared


def once(results: list, files: list | None = None) -> tuple[list, list]:
    """(results with each run once, in order; [(the id left out, the id it repeats)]): a run
    named twice (the same id and content), or its output imported twice under another id (the
    same content()), counts once; one id with two contents, or a cell's samples in two runs
    that are not one, is refused (_once())."""
    kept, dropped = _once(results, files)
    return [r for r, _, _ in kept], dropped


def _once(results: list, files: list | None = None, ids_checked: bool = False) -> tuple[list, list]:
    """once()'s answer, each run kept with its content() and cell_prints(), so that between()
    digests each run once. files: the file each result was read from, which a refusal names
    (default: its id). Refused (UserError), whatever the order of the files: one id in two files
    that differ (one_id()), two runs that share a cell-metric's samples (shared_print()) but
    not their content (one run under two ids: a copy of it, edited or a subset of its cells;
    counting it twice would make one run two), and two runs of one machine at once
    (ran_at_once()). Of two ids with one content (an output imported twice) the smaller is kept,
    so that the order of the files never decides which run's other fields (contention, system)
    count. ids_checked: one_id() was run over these files already
    (between() runs it over both sides at once: each file serialised whole once, not twice)."""
    files = list(files or [r["id"] for r in results])
    if not ids_checked:
        one_id(results, files)
    kept, dropped, kept_files, seen, outputs = [], [], [], {}, {}
    for i in sorted(range(len(results)), key=lambda i: (results[i]["id"], files[i])):
        r = results[i]
        digest = content(r)
        twin = seen.get(r["id"]) or seen.get(digest)
        if twin:
            n = next(n for n, (k, _, _) in enumerate(kept) if k["id"] == twin)
            _one_system(kept[n][0], r, kept_files[n], files[i])
            dropped.append((r["id"], twin))
            continue
        prints = cell_prints(r)
        hit = shared_print(prints, [p for _, _, p in kept])
        if hit:
            other = kept[hit[0]][0]["id"]
            raise UserError(f"{kept_files[hit[0]]} and {files[i]} hold the same samples of {hit[1]}: one "
                            f"run under two ids ({other}, {r['id']}: a copy of it, edited or a subset of its cells), "
                            f"not two runs; name it once")
        outputs[id(r)] = output_prints(r)
        hit = shared_output(outputs[id(r)], [outputs[id(k)] for k, _, _ in kept])
        if hit:
            raise UserError(f"{kept_files[hit[0]]} and {files[i]} hold one tool output (a repetition of {hit[1]} with "
                            f"the same figures): one output imported into two results, not two runs; name one")
        for (k, _, _), file in zip(kept, kept_files):
            _not_at_once(k, r, file, files[i])
        kept.append((r, digest, prints))
        kept_files.append(files[i])
        seen.update({r["id"]: r["id"], digest: r["id"]})
    return kept, dropped


def _one_system(a: dict, b: dict, file_a: str, file_b: str) -> None:
    """Refuses two files of one content (the same samples: one measurement) that record other run
    factors (factors(): a kernel, machine or storage): counted once, the file kept would decide
    which system the figures are said to come from (adversary of #60, round 70)."""
    fa, fb = factors(a), factors(b)
    differ = [k for k in FACTORS if k in fa and fa[k] != fb.get(k)]
    if differ:
        raise UserError(f"{file_a} and {file_b} hold the same samples but record other {', '.join(differ)}: one "
                        f"measurement cannot come from two systems; name the file that records where it ran")


def _not_at_once(a: dict, b: dict, file_a: str, file_b: str) -> None:
    met = ran_at_once(a, b)
    if met:
        raise UserError(f"{file_a} and {file_b} ran on one machine at once ({met}): one run split in two, or "
                        f"two runs that shared the machine, not two independent runs; name one")


def _interleave(mine: list, theirs: list) -> bool:
    """Whether a repetition of theirs started between two of mine, and one of mine between two of
    theirs: the two runs' repetitions alternate on the clock (a run made during another's pause
    lies between two of the other's, and none of the other's lies between two of its own)."""
    def between(xs, ys):
        return bool(xs) and any(xs[0] < y < xs[-1] for y in ys)
    return between(mine, theirs) and between(theirs, mine)


def ran_at_once(a: dict, b: dict) -> str:
    """Why two runs are not independent by their clocks (in words), or '', for two runs of one
    machine (recorded, and the same):
    - one created instant (the second a run began), however it is spelled;
    - one begun while the other ran (its start within a stretch run_clock() knows the other ran in,
      by more than the second created is rounded to where the start is known only to the second);
    - a repetition of one begun while the other ran (#60 round 29: a cut run's earlier half kept
      its start times and claimed a wall time short of them, so it read as paused and its known
      end was its first repetition; the later half, which claimed to begin within the second
      before it, ran across all of the earlier half's repetitions);
    - a stretch of one on the clock while the other ran (two recorded sessions sharing an instant,
      however each began);
    - or their repetitions alternate on the clock (_interleave()), whatever their created times say.
    Runs of one machine one after the other do none of these; one run's repetitions split into two
    files (#60 round 18, finding 5; rounds 19 and 20: dealt, cut at a moment, created spelled
    otherwise or moved with its start times, wall time dropped) do, as do two runs sharing the
    machine. A run made during another's recorded pause (between its sessions) is not refused: the
    runner records where a resumed run paused (`sessions`, #60 round 30), and validate refuses a
    file whose start times show a pause it does not record. Two halves of one run each given
    invented sessions around their own repetitions, consistent with fio's clock, are not told
    from two runs: the limit of times rewritten consistently."""
    # one machine: the same recorded machine, or the same label (#60 round 38: a half whose CPU's
    # name was edited was another machine to the first test, though its label named the same host)
    machine, labels = factors(a)["machine"], [str((r.get("system") or {}).get("machine") or "") for r in (a, b)]
    if not (machine != NOT_RECORDED and machine == factors(b)["machine"]) and not (labels[0] and labels[0] == labels[1]):
        return ""
    clocks = run_clock(a), run_clock(b)
    if None in clocks:
        return ""
    def at(t):
        try:
            return f"{dt.datetime.fromtimestamp(t, dt.timezone.utc):%Y-%m-%d %H:%M:%S} UTC"
        except (OverflowError, ValueError, OSError):  # a time no calendar holds (validate refuses it)
            return f"{t:.0f} s after 1970"
    if clocks[0].created == clocks[1].created:
        return f"both began at {at(clocks[0].created)}"
    for one, other in ((clocks[1], clocks[0]), clocks):
        # a time of one is known to the second created is cut to, unless its sessions are recorded;
        # a span is where a run is known to have been running (run_clock)
        slack = 0 if one.exact else 1
        for start, end in other.spans:
            if start <= one.began and one.began + slack <= end:
                return f"one began at {at(one.began)}, while the other ran from {at(start)} to {at(end)}"
    for (s, e), (start, end) in itertools.product(clocks[0].spans, clocks[1].spans):
        if s <= end and start <= e:  # two sessions on the clock at once, however each began
            return f"one ran from {at(s)} to {at(e)}, while the other ran from {at(start)} to {at(end)}"
    for one, other in ((clocks[1], clocks[0]), clocks):
        slack = 0 if one.exact else 1
        for start, end in other.spans:
            inside = [t for t in one.starts if start <= t and t + slack <= end]
            if inside:
                return f"a repetition of one began at {at(inside[0])}, while the other ran from {at(start)} to {at(end)}"
    a_starts, b_starts = clocks[0].starts, clocks[1].starts
    # two runs that record their sessions, none shared, ran one while the other paused, however their
    # repetitions alternate (round 38: A interrupted, B run, A resumed); the rest is read by them
    if not (clocks[0].exact and clocks[1].exact) and _interleave(a_starts, b_starts):
        return f"their repetitions alternate on the clock between {at(max(a_starts[0], b_starts[0]))} and " \
               f"{at(min(a_starts[-1], b_starts[-1]))}"
    return ""


def one_id(results: list, files: list) -> None:
    """Refuses (UserError, one line naming two of the files) one id in two files that differ in
    anything (two files claim one run: which is it?), whatever other files are named and in
    whatever order: of each id's files, sorted, the first and the first that differs from it."""
    by_id: dict = {}
    for r, file in zip(results, files):
        by_id.setdefault(r["id"], []).append((_whole(r), str(file)))
    for rid in sorted(by_id):
        held = sorted(by_id[rid])
        other = next((file for whole, file in held if whole != held[0][0]), None)
        if other is not None:
            raise UserError(f"{held[0][1]} and {other} both hold run {rid}, and differ: one id names one "
                            f"run (is one of them edited, or another run given its id?)")


def _whole(result: dict) -> str:
    """A result as canonical JSON: two files of one id are one run only where it is the same."""
    return json.dumps(result, sort_keys=True, default=str)


def _cells_by_key(results: list) -> dict:
    """key -> [(factors of the run, its cell)] of every measured cell, in the runs' order; a key
    twice in one run is refused (validate's "expected a unique key"): it would count as a second run."""
    out: dict[str, list] = {}
    for result in results:
        run = factors(result)
        keys = set()
        for i, cell in enumerate(result["cells"]):
            if cell["key"] in keys:
                raise UserError("expected a unique key, found one an earlier cell has", where=result["id"],
                                field=f"/cells/{i}/key")
            keys.add(cell["key"])
            if cell["status"] == "ok":
                out.setdefault(cell["key"], []).append((run, cell))
    return out


def adjust(rows: list, method: str) -> list:
    """Adjusts the p-values of the tested rows as one family (method HOLM or BH) and gives each
    row its verdict: better, worse, differs (significant where the sides differ in more than the
    filesystem: design()'s differ; not significant there, inconclusive, never equivalent: another
    factor may hide the filesystems' difference), equivalent, inconclusive, not tested (one run a
    side across files, parameters that differ) or not testable. Returns rows."""
    tested = [r for r in rows if r["status"] == "tested"]
    if tested:
        p_diff = _corrected([r["p"] for r in tested], method)
        p_equal = _corrected([r["p_equivalent"] for r in tested], method)
        for r, pd, pe in zip(tested, p_diff, p_equal):
            r.update(p_adjusted=float(pd), p_equivalent_adjusted=float(pe), adjustment=METHOD_NAMES[method],
                     family=len(tested), significant=bool(pd < ALPHA), equivalent=bool(pe < ALPHA))
            if r.get("differ"):  # a difference, or none, may be the other factors': never the filesystem's
                r["verdict"] = "differs" if r["significant"] else "inconclusive"
            elif r["significant"]:
                r["verdict"] = "better" if (r["ratio"] > 1) == (r["better"] == "higher") else "worse"
            else:
                r["verdict"] = "equivalent" if r["equivalent"] else "inconclusive"
    for r in rows:
        if r["status"] != "tested":
            r.update(p_adjusted=None, p_equivalent_adjusted=None, adjustment=METHOD_NAMES[method],
                     family=len(tested), significant=False, equivalent=False,
                     verdict="not tested" if r["status"] == "not tested" else "not testable")
    return rows


HEADLINE_FAMILY, OTHER_FAMILY = "headline metrics", "other metrics"  # a table's two families (adjust_table)


def adjust_table(rows: list) -> list:
    """A table's rows (between(), site/report.within()) adjusted by Benjamini-Hochberg in two
    families: the rows of headline metrics (HEADLINE) and the rows of the others, each row
    naming its family (family_of). A headline row's adjusted p and verdict so depend on the
    headline rows alone: the same in `compare` and `compare --all-metrics`, on the compare page
    (every metric) and in the rankings that quote it. Returns rows."""
    for name in (HEADLINE_FAMILY, OTHER_FAMILY):
        members = [r for r in rows if (r["metric"] in HEADLINE) == (name == HEADLINE_FAMILY)]
        adjust(members, BH)
        for r in members:
            r["family_of"] = name
    return rows


def tests_used(rows: list) -> str:
    """The sentence naming the test and the family its p-values were adjusted over: the rows
    tested, not the table (a table of 572 rows with 3 tested is a family of 3); where no row was
    tested, no test is named, only why and that each row gives the ratio."""
    tested = [r for r in rows if r["status"] == "tested"]
    if not tested:
        whys = list(dict.fromkeys(part.split(" (")[0] for r in rows if r.get("why") for part in r["why"].split("; ")))
        return (f"No row was tested ({'; '.join(whys) or 'no row'}): each gives the ratio B/A of the means, "
                f"with no p and no verdict.")
    tests = " and ".join(dict.fromkeys(  # the ratio a row shows is the one its test is about
        r["test"] + (" (B/A of the geometric means)" if r["ratio_of"] == "geometric means" else "") for r in tested))
    families = list(dict.fromkeys(r.get("family_of") for r in rows))

    def over(members: list, tested: list, name: str | None) -> str:
        return (f"the {len(tested)} tested {'row' if len(tested) == 1 else 'rows'}" + (f" of {name}" if name else "")
                + (f" (of {len(members)})" if len(members) != len(tested) else ""))
    parts = [over(members, [r for r in members if r["status"] == "tested"], name) for name in families
             for members in [[r for r in rows if r.get("family_of") == name]]]
    separately = " and, as a family of its own, ".join(parts) if len(parts) > 1 else parts[0]
    return f"{tests}; p adjusted by {tested[0]['adjustment']} over {separately}."


def describe(row: dict) -> str:
    """One sentence of a compared row's test, for a page or a terminal."""
    if row["status"] != "tested":
        return f"{row['status']}: {row['why']}"
    low, high = row["ratio_ci95"]
    text = (f"{row['test']}: B/A {row['ratio']:.3g} (95 % interval {low:.3g}-{high:.3g}), p = {row['p']:.2g}, "
            f"{row['adjustment']}-adjusted over {row['family']} comparisons p = {row['p_adjusted']:.2g}")
    if row["verdict"] == "equivalent":
        text += f"; equivalent within +-{row['margin_pct']:g} % (two one-sided tests, adjusted p = {row['p_equivalent_adjusted']:.2g})"
    elif row["verdict"] == "differs":
        text += f"; a difference, but the runs differ in {', '.join(row['differ'])} too: not the filesystem's alone"
    elif row.get("differ"):
        text += (f"; not judged: the runs differ in {', '.join(row['differ'])} too, which may hide or make a "
                 f"difference")
    elif row["verdict"] == "inconclusive":
        text += f"; neither a difference nor equivalence within +-{row['margin_pct']:g} % is shown"
    if row["p_equivalent_adjusted"] is not None and row["verdict"] != "equivalent":
        text += f"; equivalence within +-{row['margin_pct']:g} %: adjusted p = {row['p_equivalent_adjusted']:.2g}"
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
def _detectable(n: int) -> float | None:
    """The standardized effect (in standard deviations of the paired differences) detectable
    with POWER at ALPHA by the paired test of n pairs: the noncentral t's two tails, exact for
    this test, solved by scipy's brentq. Not statsmodels' TTestPower solver: at 2 pairs it
    stops where its own power is 0.785. Unpaired rows (Welch's test) are welch_detectable()'s."""
    from scipy import optimize, stats as scipy_stats
    if n < 2:
        return None
    df = n - 1
    critical = float(scipy_stats.t.ppf(1 - ALPHA / 2, df))

    def power(effect: float) -> float:  # the upper tail as the lower one: nct's cdf far below is nan in scipy 1.16
        return float(scipy_stats.nct.sf(critical, df, effect) + scipy_stats.nct.sf(critical, df, -effect)) - POWER

    high = 4.0
    while power(high) < 0 and high < 1e6:
        high *= 2
    if not (power(0.0) < 0 < power(high)):
        return None
    return float(optimize.brentq(power, 0.0, high, rtol=1e-12)) / math.sqrt(n)


RATIO_DRAWS, RATIO_SEED = 1 << 14, 20261129  # ratio_detectable's simulation: its draws (power within
# about 0.003 of the figure's) and its fixed seed, so a row's figure is one number wherever it is made


def _sig(value: float) -> float:
    """value to 6 significant digits: the key of ratio_detectable's cache (a spread known to the
    sixth digit moves the figure far less than the simulation's own grain)."""
    return float(f"{value:.6g}")


@lru_cache(maxsize=4096)
def ratio_detectable(n_a: int, n_b: int, var_a: float, var_b: float, cov: float = 0.0,
                     paired: bool = False) -> float | None:
    """The logarithm of the ratio of the means at which the linear scale's test (the delta
    method's t-test of log(mean_b / mean_a), _log_ratio_of_means) has POWER at ALPHA, two-sided,
    with the samples' relative variances (var_a, var_b: of each sample over its side's mean; cov:
    of the pairs, paired) taken as the true ones and normal samples. Not welch_detectable() of
    those variances: that is the power of a difference of normal means, and this statistic's
    numerator is a difference of logarithms of means and its standard error divides by those
    random means (2 against 2, relative spreads 0.3: power 0.766 at Welch's figure, #60 round 16).
    By simulation with a fixed seed (RATIO_DRAWS draws): B's ratio moves its mean only, so the
    statistic is delta + L with L and its rejection bound S drawn once, and the power at delta is
    the share of draws with delta > S - L or delta < -S - L: the smallest such delta at which it
    reaches POWER is read off the sorted draws. Unpaired, each side's mean is normal and its
    variance a scaled chi-square (independent); paired, the pairs are drawn whole. A draw whose
    mean is zero or below is no test (compare(): not testable), so never a rejection."""
    import numpy as np
    from scipy import special
    if n_a < 2 or n_b < 2 or not (var_a >= 0 and var_b >= 0) or not var_a + var_b > 0:
        return None
    rng = np.random.default_rng(RATIO_SEED)
    if paired:
        n, draws = n_a, max(1 << 11, RATIO_DRAWS // max(1, n_a // 8))  # n pairs a draw: bounded work
        reach = math.sqrt(var_a * var_b)  # a correlation within [-1, 1] after _sig's rounding
        cov_m = np.array([[var_a, min(max(cov, -reach), reach)], [min(max(cov, -reach), reach), var_b]])
        with warnings.catch_warnings():  # a correlation of 1 to the last bit: eigh's -1e-18 eigenvalue
            warnings.simplefilter("ignore", RuntimeWarning)
            pairs = rng.multivariate_normal([0.0, 0.0], cov_m, size=(draws, n), method="eigh")
        a, b = 1 + pairs[..., 0], 1 + pairs[..., 1]
        mean_a, mean_b = a.mean(axis=1), b.mean(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            diffs = b / mean_b[:, None] - a / mean_a[:, None]
            se = diffs.std(axis=1, ddof=1) / math.sqrt(n)
        critical = float(special.stdtrit(n - 1, 1 - ALPHA / 2))
    else:
        draws = RATIO_DRAWS
        mean_a = 1 + math.sqrt(var_a / n_a) * rng.standard_normal(draws)
        mean_b = 1 + math.sqrt(var_b / n_b) * rng.standard_normal(draws)
        k_a, k_b = n_a - 1, n_b - 1
        with np.errstate(divide="ignore", invalid="ignore"):
            part_a = var_a * rng.chisquare(k_a, draws) / k_a / mean_a ** 2 / n_a  # s_a^2 / (n_a mean_a^2)
            part_b = var_b * rng.chisquare(k_b, draws) / k_b / mean_b ** 2 / n_b
            se = np.sqrt(part_a + part_b)
            df = (part_a + part_b) ** 2 / (part_a ** 2 / k_a + part_b ** 2 / k_b)
        # t's quantile at each draw's Welch-Satterthwaite df (between min(k) and k_a + k_b): read off
        # 256 exact ones, spaced evenly in log df, where it is smooth (within 0.05 % of stdtrit's)
        grid = np.geomspace(min(k_a, k_b), k_a + k_b, 256)
        critical = np.interp(np.log(np.clip(np.nan_to_num(df, nan=1.0), grid[0], grid[-1])), np.log(grid),
                             special.stdtrit(grid, 1 - ALPHA / 2))
    with np.errstate(divide="ignore", invalid="ignore"):
        ok = (mean_a > 0) & (mean_b > 0) & np.isfinite(se) & (se > 0)
        shift = np.where(ok, np.log(np.where(ok, mean_b, 1.0)) - np.log(np.where(ok, mean_a, 1.0)), 0.0)
        bound = np.where(ok, critical * se, np.inf)
    upper, lower = np.sort(bound - shift), np.sort(-bound - shift)  # rejected where delta > upper or < lower
    upper = upper[np.isfinite(upper)]
    if not upper.size:
        return None
    # the power just above each candidate delta (each upper, from the smallest): those below it on
    # the upper side, and the lower bounds still above it
    power = (np.arange(1, upper.size + 1) + (draws - np.searchsorted(lower, upper, side="right"))) / draws
    reached = np.nonzero((power >= POWER) & (upper >= 0))[0]
    return float(upper[reached[0]]) if reached.size else None


def welch_detectable(n_a: int, n_b: int, var_a: float, var_b: float) -> float | None:
    """The difference of the means (on the samples' scale) at which Welch's test of n_a and n_b
    repetitions whose variances are var_a and var_b (the samples' own, taken as the true ones)
    has POWER at ALPHA, two-sided: the test the unpaired rows are given, so a row's detectable
    change is what its own test detects. Not Student's power from a pooled spread: with 9
    repetitions against 3 and spreads 1 to 5, Welch's power at Student's figure is 0.17 to 0.21."""
    if n_a < 2 or n_b < 2 or not (var_a >= 0 and var_b >= 0) or not var_a + var_b > 0:
        return None
    se2 = var_a / n_a + var_b / n_b
    if not math.isfinite(se2) or se2 <= 0:
        return None
    k = _welch_lambda(n_a, n_b, (var_a / n_a) / se2)
    return k * math.sqrt(se2) if k is not None else None


WELCH_STEP, WELCH_REACH = 0.12, 4.8  # _welch_lambda's grid: its step and reach in sinh's argument


@lru_cache(maxsize=4096)
def _welch_lambda(n_a: int, n_b: int, share_a: float) -> float | None:
    """The difference of the means, in standard deviations of the difference of the sample means,
    at which Welch's test has POWER at ALPHA; share_a: A's part of that variance (var_a / n_a
    over var_a / n_a + var_b / n_b). Exact up to the quadrature (against a grid 2.4 times as
    fine: within 1e-5 of the figure for 2 to 40 repetitions a side, 1e-4 at 100 against 2), about
    0.8 ms of CPU for each new set of sizes and spreads, where the noncentral t with the
    Welch-Satterthwaite degrees of freedom is an approximation that breaks at the smallest
    samples (2 and 2 repetitions, equal spreads: power 0.48 at its figure, since the test's
    degrees of freedom are themselves random there). The test rejects when |mean difference| >
    t(df) * se, df and se from the sample variances, which are var_a * 2X / k_a and
    var_b * 2Y / k_b (k = n - 1) with X and Y gammas of k_a / 2 and k_b / 2 (half chi-squares);
    X + Y, a gamma of (k_a + k_b) / 2, is independent of G = X / (X + Y), a beta of k_a / 2 and
    k_b / 2. Given G and X + Y the rejection is two normal tails, so the power is their mean over
    the two, each integrated by the trapezoid rule after a sinh substitution (of the logit of G
    and of the logarithm of X + Y), which converges twice exponentially; the figure is then found
    by scipy's brentq. Checked against simulations of Welch's test (tests/test_comparison_power.py)."""
    import numpy as np
    from scipy import optimize, special
    k_a, k_b = n_a - 1, n_b - 1
    alpha_g, beta_g, shape = k_a / 2, k_b / 2, (k_a + k_b) / 2
    u = np.arange(-WELCH_REACH, WELCH_REACH + WELCH_STEP / 2, WELCH_STEP)
    stretch, density = np.sinh(u), np.cosh(u) * WELCH_STEP
    spread_s = math.sqrt(special.polygamma(1, alpha_g) + special.polygamma(1, beta_g))  # the logit-beta's
    s = math.log(alpha_g / beta_g) + spread_s * stretch
    weight_s = np.exp(alpha_g * special.log_expit(s) + beta_g * special.log_expit(-s)
                      - special.betaln(alpha_g, beta_g)) * spread_s * density
    spread_t = math.sqrt(special.polygamma(1, shape))  # the log-gamma's
    t = math.log(shape) + spread_t * stretch
    weight_t = np.exp(shape * t - np.exp(t) - special.gammaln(shape)) * spread_t * density
    g = special.expit(s)
    part_a, part_b = (2 * share_a / k_a) * g, (2 * (1 - share_a) / k_b) * (1 - g)  # se^2's two parts, over 2 (X + Y)
    with np.errstate(divide="ignore", invalid="ignore", under="ignore"):
        of_a = part_a / (part_a + part_b)  # Welch-Satterthwaite's df from A's share: no square to underflow
        df = 1 / (of_a ** 2 / k_a + (1 - of_a) ** 2 / k_b)
    critical = special.stdtrit(df, 1 - ALPHA / 2) * np.sqrt(part_a + part_b)
    bound = np.outer(critical, np.exp(t / 2)).ravel()  # the rejection bound of |difference| / its sd
    weight = np.outer(weight_s, weight_t).ravel()
    # what is left out weighs below 1e-6 together (6,561 points at most); a bound that is no number
    # lies where both variances' draws are 0 to the last bit (a share of 1 - 1e-17 is 1.0)
    kept = (weight > 1e-10) & np.isfinite(bound)
    bound, weight = bound[kept], weight[kept]
    if not weight.size:
        return None

    def power(effect: float) -> float:  # minus POWER
        return float(weight @ (special.ndtr(effect - bound) + special.ndtr(-effect - bound))) - POWER

    low, high = 0.0, 4.0  # at no change the power is the test's size, below POWER
    while power(high) < 0:
        if high > 1e6:
            return None
        low, high = high, 2 * high
    return float(optimize.brentq(power, low, high, xtol=1e-5))  # the figure is at least 2.8: 4e-6 of it


def _ratio_of_means(mean_a: float, mean_b: float) -> tuple:
    """B/A of two means and the change in percent; None where A's is 0 or the quotient is beyond
    the largest float (A's mean near the smallest one, B's not)."""
    if not mean_a:
        return None, None
    ratio, change = mean_b / mean_a, 100 * (mean_b - mean_a) / mean_a
    return (ratio, change) if math.isfinite(ratio) and math.isfinite(change) else (None, None)


def _mean(values) -> float:
    return math.fsum(values) / len(values) if values else 0.0
