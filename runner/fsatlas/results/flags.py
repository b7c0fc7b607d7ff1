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
- cache-unknown / baseline-unknown: the baseline cannot tell (no baseline of the job, measured
  on an unwritten image, one repetition, unstable: its own repetitions varied by more than
  RSD_LIMIT_PCT even after repeating, before the filesystems or when measured again after them,
  or drifted by more than that between the two), or the cell has no throughput to judge, for a
  cell the page cache may have served / one with O_DIRECT or a write that waits for the device
  (fsync, fdatasync, sync, end_fsync): every cell of that job says "cannot tell", whatever its I/O path;
- page-cache: a write workload that ends in the page cache (buffered, no fsync, fdatasync or
  final fsync): its figure is the page cache's speed, ranked apart from the device workloads;
- contended: a repetition's contention (results/contention: other processes' CPU, steal or
  I/O wait) passed its threshold, and repeating it (in adaptive profiles) did not clear it.
- emulated: the run's guest was emulated (target.guest), so its figures are the emulator's.
Other flags (not-striped) describe the setup, not the figures, and are kept as stored.
"""
import math
import re
from functools import lru_cache

from . import contention, stats

RSD_LIMIT_PCT = 3.5
NOISY_HALF_WIDTH_PCT = 10.0
CACHED_FACTOR = 1.2
DERIVED = ("noisy", "cached", "above-device", "cache-unknown", "baseline-unknown", "page-cache", "contended",
           "emulated")
UNRANKED = frozenset({"cached", "cache-unknown", "emulated"})  # figures that are no measure of the filesystem on its disk
# fio parameters that make a write durable before the job ends
DURABLE = ("end_fsync", "fsync", "fdatasync", "sync", "fsync_on_close", "write_barrier")
# The metric whose spread decides, where the matrix names none for the cell's workload (an
# imported or contributed cell): the first of these the cell has, else the first by name.
PRIMARY_ORDER = ("throughput", "read_throughput", "write_throughput", "iops", "create_per_s", "deliveries_per_s",
                 "commits_per_s", "seconds", "bytes_used", "lat_mean_ns")


def primary_metric(metrics: dict, workload: str | None = None) -> str | None:
    """The metric whose spread decides a cell's flags: the one the standard matrix names primary
    for its workload, as the runner decides (tree-read's read_per_s, which PRIMARY_ORDER lacks:
    readers took the file's first key, and a file with its keys sorted was "noisy" on its CPU
    share: round 61); else PRIMARY_ORDER's; never the order of the file's keys."""
    named = matrix_workloads().get(workload, {}).get("primary") if workload else None
    if named in metrics:
        return named
    return next((name for name in PRIMARY_ORDER if name in metrics), min(metrics, default=None))


def baseline_name(workload: str, key: str) -> str:
    """The raw-device job a cell is measured against: its own workload and dimensions
    (concurrent-writers with numjobs=4 against four writers on the raw device)."""
    parts = key.split("|")
    return f"{workload}|{parts[4]}" if len(parts) > 4 and parts[4] else workload


def baseline_throughput(target: dict, workload: str, key: str) -> tuple[dict | None, bool]:
    """(the raw device's throughput summary on the cell's job, or None; whether it can judge
    the cell: baseline_doubt finds nothing against it)."""
    tp = (target.get("baseline") or {}).get(baseline_name(workload, key), {}).get("throughput")
    return tp, not baseline_doubt(target, workload, key)


def baseline_doubt(target: dict, workload: str, key: str) -> str:
    """Why the job's baseline cannot judge the cell, in the words the result page shows; "" where
    it can: measured on written data (target.baseline_written), in two repetitions or more (one
    has no spread: its rsd 0 says nothing), stable (its spread recorded and within
    RSD_LIMIT_PCT) and not drifted (where the device was measured again after the filesystems,
    target.baseline_after, that measurement is held to the same three tests, and the two means
    differ by no more than RSD_LIMIT_PCT, the same bound: #60 round 56's after measurement with
    an RSD of 40 % judged drift by its mean alone)."""
    name = baseline_name(workload, key)
    tp = (target.get("baseline") or {}).get(name, {}).get("throughput")
    after = (target.get("baseline_after") or {}).get(name, {}).get("throughput")
    if not tp:
        return "no baseline of this job"
    if not target.get("baseline_written"):
        return "measured before the device was filled with data"
    doubt = _unsteady(tp)
    if doubt:
        return doubt
    if after:
        doubt = _unsteady(after)
        if doubt:
            return f"measured again after the filesystems: {doubt}"
    if drifted(tp, after):
        return (f"drifted by {100 * (after['mean'] / tp['mean'] - 1):+.1f} % between before and after the "
                f"filesystems (bound {RSD_LIMIT_PCT:g} %)")
    return ""


def _unsteady(tp: dict) -> str:
    """Why one measurement of the raw device cannot judge (its repetitions, mean and spread); "" where it can."""
    if len(tp.get("samples") or []) < 2:
        return "one repetition, no spread to judge"
    rsd, mean = tp.get("rsd_pct"), tp.get("mean")
    if not _finite(mean) or mean <= 0:
        return "no positive mean"
    if not _finite(rsd):  # NaN passed every bound (round 57)
        return "its spread not recorded"
    if rsd > RSD_LIMIT_PCT:
        return f"unstable, RSD {rsd:.1f} %"
    return ""


def _finite(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def drifted(before: dict, after: dict | None) -> bool:
    """Whether the device's figure moved between its measurement before the filesystems and
    after them by more than RSD_LIMIT_PCT of the first (no second measurement: no drift seen)."""
    if not after or not isinstance(after.get("mean"), (int, float)):
        return False
    return 100 * abs(after["mean"] - before["mean"]) / before["mean"] > RSD_LIMIT_PCT


# fio's reading of a boolean or integer option (fio 3.33's parser, asked with --parse-only
# --debug=parse): the leading integer of the text, decimal or 0x hexadecimal, a fraction
# truncated (0.9 is 0, 1.9 is 1, -1 is true) and any suffix after it ignored for the truth
# (1k, 1abc); a bare option (direct with no value) is 1. Words (true, yes, on) fio 3.33 refuses;
# JSON's and YAML's true and false are taken as 1 and 0.
_FIO_INT = re.compile(r"[-+]?(0x[0-9a-f]+|[0-9]+)", re.I)
_TRUE = {"true", "yes", "on"}  # newer or older fio's words, if any: never read as 0
_SYNC_OFF = {"none", "0"}  # fio's sync=: none (or 0) writes as usual; sync (or 1) opens O_SYNC, dsync O_DSYNC


def fio_true(value) -> bool:
    """An fio option's value as fio reads it: true where the integer it reads is not 0."""
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, (int, float)):
        return math.isfinite(value) and int(value) != 0
    text = str(value).strip().lower()
    if text == "" or text in _TRUE:
        return True
    found = _FIO_INT.match(text)
    return bool(found) and int(found.group(1), 16 if found.group(1).startswith("0x") else 10) != 0


def fio_sync(value) -> bool:
    """Whether fio's sync= value opens the file synchronously (sync, dsync, 1)."""
    if value is None or isinstance(value, bool):
        return bool(value)
    text = str(value).strip().lower()
    return text not in _SYNC_OFF and (text in ("sync", "dsync") or fio_true(text))


MATRIX = "run/matrix/standard.yaml"  # the project's matrix (run.matrix checks it; results may not import run)


@lru_cache(maxsize=1)
def matrix_workloads() -> dict[str, dict]:
    """{workload: its entry} of the project's matrix, read as data."""
    from importlib import resources
    from .. import safe_yaml
    return safe_yaml.load((resources.files("fsatlas") / MATRIX).read_text(encoding="utf-8"))["workloads"]


def waits_for_device(cell: dict) -> bool:
    """Whether the cell's figure is taken only after its writes reached the device: an fio job
    that writes with a durability option (durable()), or a workload of the project's matrix that
    is no fio job and flushes (its `flushes`: dd's conv=fsync, the runner's own records'
    fsyncs), which its parameters do not spell."""
    if writes(cell):
        return durable(cell)
    entry = matrix_workloads().get(cell.get("workload"), {})
    return entry.get("kind") != "fio" and entry.get("flushes", "none") != "none"


def buffered(cell: dict) -> bool:
    """Whether the cell's job went through the page cache: neither direct= nor buffered=0 asks
    for O_DIRECT (fio's buffered= is direct='s inverse, default 1), or a FUSE driver."""
    params = cell.get("parameters", {})
    direct = fio_true(params["direct"]) if "direct" in params else False
    if "buffered" in params and not fio_true(params["buffered"]):
        direct = True
    return not direct or cell.get("driver") == "fuse"


def noisy(samples) -> bool:
    if len(samples) < 2:
        return False
    mean, _, stddev = stats.figures(samples)
    if not mean:
        return False
    return 100 * stats.half_width(stddev, len(samples)) / abs(mean) > NOISY_HALF_WIDTH_PCT


def writes(cell: dict) -> bool:
    """Whether the cell is an fio job (it names rw=, or fio's other spelling readwrite=) that writes."""
    params = cell.get("parameters", {})
    rw = str(params.get("rw") or params.get("readwrite") or "")
    return bool(rw) and ("write" in rw or rw.endswith("rw"))


def durable(cell: dict) -> bool:
    """Whether the job waits for its writes to reach the device before its figure is taken: any
    of DURABLE set as fio reads it (sync= by its own words)."""
    params = cell.get("parameters", {})
    return any((fio_sync if name == "sync" else fio_true)(params[name]) for name in DURABLE if name in params)


def page_cache(cell: dict) -> bool:
    """Whether the cell is a write workload whose data may still be in the page cache when its
    figure is taken: an fio job that writes, buffered, with no fsync, fdatasync, sync or final
    fsync (the matrix's background-writes; run/matrix/standard.yaml says io: page-cache)."""
    return writes(cell) and buffered(cell) and not durable(cell)


# What a text table (fsatlas compare, report) says each flag means beside a row that has it, as
# the site's legend and methodology page say it at length
MEANINGS = {
    "noisy": f"the main measure's 95 % interval is wider than +-{NOISY_HALF_WIDTH_PCT:g} % of its mean",
    "cached": f"through the page cache at over {CACHED_FACTOR:g} times the raw device on the same job: the cache "
              "answered, not the disk (not ranked)",
    "above-device": f"O_DIRECT at over {CACHED_FACTOR:g} times the raw device on the same job: no cache explains it "
                    "(methodology, figures above the raw device); ranked with this mark",
    "cache-unknown": "through the page cache, and the raw device's figure cannot tell whether the cache served it "
                     "(not ranked)",
    "baseline-unknown": "the raw device's figure for its job cannot tell (none, unwritten, one repetition, unstable "
                        "or drifted)",
    "page-cache": "a write that ends in the page cache: the cache's speed, ranked apart from the device workloads",
    "contended": "a repetition's other processes' CPU, steal or I/O wait passed its threshold",
    "emulated": "measured in an emulated guest (not ranked)",
}


def legend(names) -> str:
    """"Flags: above-device: ...; page-cache: ..." for the flags named (in MEANINGS' order), or ""."""
    names = set(names)
    shown = [n for n in MEANINGS if n in names]
    return ("Flags: " + "; ".join(f"{n}: {MEANINGS[n]}" for n in shown) + ".") if shown else ""


def derive(cell: dict, target: dict, primary: str | None = None) -> list[str]:
    """The cell's flags: its stored setup flags and the derived ones, in a stable order.
    target: the result's target (its baseline, and whether that was measured on written data)."""
    metrics = cell.get("metrics") or {}
    kept = [f for f in cell.get("flags", []) if f not in DERIVED]
    derived = []
    name = primary or primary_metric(metrics, cell.get("workload"))
    if name and noisy(metrics.get(name, {}).get("samples", [])):
        derived.append("noisy")
    got = metrics.get("throughput", {}).get("mean")
    base, judges = baseline_throughput(target, cell["workload"], cell["key"])
    through_cache = buffered(cell)
    if metrics and (base or "throughput" in metrics and not page_cache(cell)):  # page-cache: the cache's speed, labelled
        if not judges or not isinstance(got, (int, float)) or got <= 0:
            # a buffered write that waits for the device (fsync, fdatasync, sync, end_fsync) before
            # its figure is taken was not served by the cache alone: it stays ranked, as O_DIRECT does
            served = through_cache and not (waits_for_device(cell) and cell.get("driver") != "fuse")
            derived.append("cache-unknown" if served else "baseline-unknown")
        elif got > CACHED_FACTOR * base["mean"]:
            derived.append("cached" if through_cache else "above-device")
    if page_cache(cell):
        derived.append("page-cache")
    if contention.contended_reps(cell):
        derived.append("contended")
    if (target.get("guest") or {}).get("emulated") is True:  # every cell of a run in an emulated guest (round 61)
        derived.append("emulated")
    return kept + derived
