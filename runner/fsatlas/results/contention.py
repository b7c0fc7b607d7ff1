"""When the host's contention makes a repetition, or a comparison of two cells, untrustworthy.

A repetition records (run/evidence.py) the share of the CPUs the hypervisor stole, the share
idle waiting for I/O, and the CPU seconds other processes used meanwhile: every process but
fsatlas, its children and the workload's own helpers (the FUSE daemon serving the mount, the
kernel threads serving the loop device), whose work is the workload's. Its thresholds:

- other processes' CPU above OTHERS_CPU_SHARE of one CPU over the repetition's wall time, where
  it is more than RESOLUTION_CPU_S (a few ticks in a short repetition are the counter's grain) (two
  quick runs of one cell, compared across files, differed by 5.1 against 0.28 s of it a
  repetition and the comparison called a 27x "difference" significant);
- steal above STEAL_PCT of the CPU time: the hypervisor ran someone else on our CPUs;
- I/O wait above IOWAIT_PCT: the workload's own waiting idles at most about one CPU of a
  two-CPU machine (50 %), so beyond it something else is waiting for the disk too.

In an adaptive profile a repetition past a threshold is run again, up to the cap
(run/execution.CONTENTION_RETRIES); one that stays past it marks the cell `contended`
(results/flags). differs() says whether two cells' contention differs by more than a threshold,
so that a comparison says so instead of giving a verdict (results/comparison calls it).
"""
import statistics

OTHERS_CPU_SHARE = 0.5  # of one CPU
RESOLUTION_CPU_S = 0.1  # ten clock ticks of /proc/stat: below it a short repetition's share is the counter's grain
STEAL_PCT = 5.0
IOWAIT_PCT = 50.0


def measures(rep: dict, seconds: float | None = None) -> dict:
    """A repetition's contention in the thresholds' units: {"others_cpu": share of one CPU (None
    where its wall time is unknown), "steal_pct", "iowait_pct"}. seconds: its wall time, where the
    record has none (older files: the cell's wall time over its repetitions)."""
    wall = rep.get("seconds", seconds)
    others = rep["others_cpu_s"] if rep["others_cpu_s"] > RESOLUTION_CPU_S else 0.0
    return {"others_cpu": others / wall if wall else None,
            "steal_pct": rep["steal_pct"], "iowait_pct": rep["iowait_pct"]}


LIMITS = {"others_cpu": OTHERS_CPU_SHARE, "steal_pct": STEAL_PCT, "iowait_pct": IOWAIT_PCT}
WORDS = {"others_cpu": ("other processes' CPU", "{:.2f} CPUs"), "steal_pct": ("steal", "{:.1f} %"),
         "iowait_pct": ("I/O wait", "{:.1f} %")}


def passes(rep: dict, seconds: float | None = None) -> list[str]:
    """The measures of one repetition's host record above their threshold ([] if none)."""
    found = measures(rep, seconds)
    return [name for name, limit in LIMITS.items() if found[name] is not None and found[name] > limit]


def _rep_seconds(cell: dict) -> float | None:
    host = cell.get("host") or []
    return cell["wall_seconds"] / len(host) if host and cell.get("wall_seconds") else None


def contended_reps(cell: dict) -> list[int]:
    """The (0-based) repetitions of a cell whose host record passes a threshold."""
    seconds = _rep_seconds(cell)
    return [i for i, rep in enumerate(cell.get("host") or []) if passes(rep, seconds)]


def summary(cell: dict) -> dict | None:
    """The cell's mean contention over its repetitions (None without host records)."""
    host = cell.get("host") or []
    if not host:
        return None
    seconds = _rep_seconds(cell)
    each = [measures(rep, seconds) for rep in host]
    return {name: (statistics.fmean(v[name] for v in each) if all(v[name] is not None for v in each) else None)
            for name in LIMITS}


def difference(cell_a: dict, cell_b: dict) -> str:
    """The first measure whose mean contention differs between the two cells by more than its
    threshold, as "other processes' CPU 0.85 CPUs against 0.05 CPUs a repetition (more than 0.50
    CPUs apart)"; "" where none does or a side recorded none."""
    a, b = summary(cell_a), summary(cell_b)
    if not a or not b:
        return ""
    for name, limit in LIMITS.items():
        if a[name] is not None and b[name] is not None and abs(a[name] - b[name]) > limit:
            word, fmt = WORDS[name]
            return (f"{word} {fmt.format(a[name])} against {fmt.format(b[name])} a repetition "
                    f"(more than {fmt.format(limit)} apart)")
    return ""


def differs(cell_a: dict, cell_b: dict) -> str:
    """Why two cells' figures cannot be compared for their filesystems: their mean contention
    differs by more than a threshold in one of the measures (a sentence), or "" where it does
    not or a side recorded none."""
    found = difference(cell_a, cell_b)
    return (f"The two sides ran under different contention: {found}, so the difference may be the host's, "
            "not the filesystems'.") if found else ""
