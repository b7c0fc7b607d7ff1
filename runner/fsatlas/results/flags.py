"""The flags that follow from a cell's samples, its repetitions' host contention and the raw
device's baseline, derived by one function that the runner (when it writes a cell), `validate`
(a warning where a file's stored flags disagree) and `aggregate` (which shows the derived ones)
all call, so that every file, old or contributed, is judged by the same rule.

- noisy: the primary metric's 95 % interval is wider than +-NOISY_HALF_WIDTH_PCT of its mean,
  so its spread blocks a conclusion at that size (the repetitions' RSD above RSD_LIMIT_PCT,
  the Phoronix Test Suite's rule, only decides whether to repeat);
- cached: a cell that went through the page cache with a throughput above CACHED_FACTOR times
  what the raw device delivered on the same job (the cell's own workload and dimensions, run on
  the raw loop device after it was filled with data, so no read comes from a hole): the page
  cache, not the disk, served it;
- above-device: the same for a cell that asked for O_DIRECT, which bypasses the page cache, so
  "cached" would be the wrong word: the figure needs another explanation (the methodology page
  lists what can explain it) and stays ranked, with this mark;
- cache-unknown / baseline-unknown: the baseline cannot tell (measured on an unwritten image,
  or unstable: its own repetitions varied by more than RSD_LIMIT_PCT even after repeating), for
  a cell through the page cache / one with O_DIRECT: every cell of that job says "cannot tell",
  whatever its I/O path;
- page-cache: a write workload that ends in the page cache (buffered, no fsync, fdatasync or
  final fsync): its figure is the page cache's speed, ranked apart from the device workloads;
- contended: a repetition's contention (results/contention: other processes' CPU, steal or
  I/O wait) passed its threshold, and repeating it (in adaptive profiles) did not clear it.
Other flags (not-striped, emulated) describe the setup, not the figures, and are kept as stored.
"""
import math

from . import contention, stats

RSD_LIMIT_PCT = 3.5
NOISY_HALF_WIDTH_PCT = 10.0
CACHED_FACTOR = 1.2
DERIVED = ("noisy", "cached", "above-device", "cache-unknown", "baseline-unknown", "page-cache", "contended")
UNRANKED = frozenset({"cached", "cache-unknown", "emulated"})  # figures that are no measure of the filesystem on its disk
# fio parameters that make a write durable before the job ends
DURABLE = ("end_fsync", "fsync", "fdatasync", "sync", "fsync_on_close", "write_barrier")
# The metric whose spread decides, where the matrix names none (an imported or contributed cell):
# the first of these the cell has. For every workload of the standard matrix it is the one
# the matrix names as primary.
PRIMARY_ORDER = ("throughput", "read_throughput", "write_throughput", "iops", "create_per_s", "deliveries_per_s",
                 "commits_per_s", "seconds", "bytes_used", "lat_mean_ns")


def primary_metric(metrics: dict) -> str | None:
    return next((name for name in PRIMARY_ORDER if name in metrics), next(iter(metrics), None))


def baseline_name(workload: str, key: str) -> str:
    """The raw-device job a cell is measured against: its own workload and dimensions
    (concurrent-writers with numjobs=4 against four writers on the raw device)."""
    parts = key.split("|")
    return f"{workload}|{parts[4]}" if len(parts) > 4 and parts[4] else workload


def baseline_throughput(target: dict, workload: str, key: str) -> tuple[dict | None, bool]:
    """(the raw device's throughput summary on the cell's job, or None; whether it can judge
    the cell: measured on written data, target.baseline_written, and stable, its own spread
    within RSD_LIMIT_PCT)."""
    tp = (target.get("baseline") or {}).get(baseline_name(workload, key), {}).get("throughput")
    return tp, bool(tp and target.get("baseline_written") and tp["rsd_pct"] <= RSD_LIMIT_PCT)


def buffered(cell: dict) -> bool:
    """Whether the cell's job went through the page cache (no O_DIRECT, or a FUSE driver)."""
    return str(cell.get("parameters", {}).get("direct", 0)) != "1" or cell.get("driver") == "fuse"


def noisy(samples) -> bool:
    if len(samples) < 2:
        return False
    mean, _, stddev = stats.figures(samples)
    if not mean:
        return False
    half = stats.t_quantile(len(samples) - 1) * stddev / math.sqrt(len(samples))
    return 100 * half / abs(mean) > NOISY_HALF_WIDTH_PCT


def page_cache(cell: dict) -> bool:
    """Whether the cell is a write workload whose data may still be in the page cache when its
    figure is taken: an fio job (it names rw) that writes, buffered, with no fsync, fdatasync,
    sync or final fsync (the matrix's background-writes; run/matrix/standard.yaml says io: page-cache)."""
    params = cell.get("parameters", {})
    rw = str(params.get("rw", ""))
    if not rw or "write" not in rw and not rw.endswith("rw") or not buffered(cell):
        return False
    return not any(str(params.get(name, 0)) not in ("0", "", "False", "false") for name in DURABLE)


def derive(cell: dict, target: dict, primary: str | None = None) -> list[str]:
    """The cell's flags: its stored setup flags and the derived ones, in a stable order.
    target: the result's target (its baseline, and whether that was measured on written data)."""
    metrics = cell.get("metrics") or {}
    kept = [f for f in cell.get("flags", []) if f not in DERIVED]
    derived = []
    name = primary or primary_metric(metrics)
    if name and noisy(metrics.get(name, {}).get("samples", [])):
        derived.append("noisy")
    got = metrics.get("throughput", {}).get("mean")
    base, judges = baseline_throughput(target, cell["workload"], cell["key"])
    through_cache = buffered(cell)
    if got and base:
        if not judges:
            derived.append("cache-unknown" if through_cache else "baseline-unknown")
        elif got > CACHED_FACTOR * base["mean"]:
            derived.append("cached" if through_cache else "above-device")
    if page_cache(cell):
        derived.append("page-cache")
    if contention.contended_reps(cell):
        derived.append("contended")
    return kept + derived
