"""The flags that follow from a cell's samples and the raw device's baseline, derived by one
function that the runner (when it writes a cell), `validate` (a warning where a file's stored
flags disagree) and `aggregate` (which shows the derived ones) all call, so that every file,
old or contributed, is judged by the same rule.

- noisy: the primary metric's repetitions vary by more than RSD_LIMIT_PCT (relative standard
  deviation; the Phoronix Test Suite's rule);
- cached: a throughput above CACHED_FACTOR times what the raw device delivered on the same
  access pattern: the page cache, not the disk, served it.
Other flags (not-striped, emulated) describe the setup, not the figures, and are kept as stored.
"""
from . import stats

RSD_LIMIT_PCT = 3.5
CACHED_FACTOR = 1.2
DERIVED = ("noisy", "cached")
# The metric whose spread decides, where the matrix names none (an imported or contributed cell):
# the first of these the cell has. For every workload of the standard matrix it is the one
# the matrix names as primary.
PRIMARY_ORDER = ("throughput", "read_throughput", "write_throughput", "iops", "create_per_s", "deliveries_per_s",
                 "commits_per_s", "seconds", "bytes_used", "lat_mean_ns")


def primary_metric(metrics: dict) -> str | None:
    return next((name for name in PRIMARY_ORDER if name in metrics), next(iter(metrics), None))


def derive(cell: dict, baseline_throughput: float | None, primary: str | None = None) -> list[str]:
    """The cell's flags: its stored setup flags and the derived ones, in a stable order."""
    metrics = cell.get("metrics") or {}
    kept = [f for f in cell.get("flags", []) if f not in DERIVED]
    derived = []
    name = primary or primary_metric(metrics)
    samples = metrics.get(name, {}).get("samples", []) if name else []
    if len(samples) > 1 and stats.moments(samples)["rsd_pct"] > RSD_LIMIT_PCT:
        derived.append("noisy")
    got = metrics.get("throughput", {}).get("mean")
    if baseline_throughput and got and got > CACHED_FACTOR * baseline_throughput:
        derived.append("cached")
    return kept + derived
