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
(results/flags). differs() says whether two cells' contention differs: a mean by more than a
threshold, or a round past one on one side only, so that a comparison says so instead of giving
a verdict (results/comparison calls it).
"""
import math
from fractions import Fraction
import statistics

OTHERS_CPU_SHARE = 0.5  # of one CPU
RESOLUTION_CPU_S = 0.1  # ten clock ticks of /proc/stat: below it a short repetition's share is the counter's grain
STEAL_PCT = 5.0
IOWAIT_PCT = 50.0


MIN_SECONDS = 0.001  # the grain of the wall times the runner records (run/evidence, run/execution round to it)


def measures(rep: dict, seconds: float | None = None) -> dict:
    """A repetition's contention in the thresholds' units: {"others_cpu": share of one CPU,
    "steal_pct", "iowait_pct"}, each None (unknown) where it cannot be computed: a field missing
    or not a finite number, and other processes' share where the wall time is unknown or below
    MIN_SECONDS (nothing the runner records is shorter: a wall time of 1e-320 s made 30 s of
    others' CPU an infinite share on both sides, and inf - inf, nan, passed no threshold: #60
    round 17), or where the share is not finite. seconds: its wall time, where the record has none
    (older files: the cell's wall time over its repetitions)."""
    def number(value):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
        return float(value) if ok else None
    wall, used = number(rep.get("seconds", seconds)), number(rep.get("others_cpu_s"))
    others = None if used is None or wall is None or wall < MIN_SECONDS \
        else number((used if used > RESOLUTION_CPU_S else 0.0) / wall)
    return {"others_cpu": others, "steal_pct": number(rep.get("steal_pct")),
            "iowait_pct": number(rep.get("iowait_pct"))}


LIMITS = {"others_cpu": OTHERS_CPU_SHARE, "steal_pct": STEAL_PCT, "iowait_pct": IOWAIT_PCT}
WORDS = {"others_cpu": ("other processes' CPU", "{:.2f} CPUs"), "steal_pct": ("steal", "{:.1f} %"),
         "iowait_pct": ("I/O wait", "{:.1f} %")}


def passes(rep: dict, seconds: float | None = None) -> list[str]:
    """The measures of one repetition's host record above their threshold ([] if none)."""
    found = measures(rep, seconds)
    return [name for name, limit in LIMITS.items() if found[name] is not None and found[name] > limit]


def _rep_seconds(cell: dict) -> float | None:
    host = cell.get("host") or []
    wall = cell.get("wall_seconds")
    return wall / len(host) if host and isinstance(wall, (int, float)) and wall else None


def _past(cell: dict) -> set:
    """{(repetition, measure)} of each threshold a repetition of the cell passed."""
    seconds = _rep_seconds(cell)
    return {(i, name) for i, rep in enumerate(cell.get("host") or []) for name in passes(rep, seconds)}


def contended_reps(cell: dict) -> list[int]:
    """The (0-based) repetitions of a cell whose host record passes a threshold."""
    return sorted({i for i, _ in _past(cell)})


def repetitions(cell: dict) -> int:
    """How many repetitions a cell ran: its metrics' samples (validate refuses host records of
    another count: validation.repetition_problems); without metrics, its host records."""
    counts = [len(m["samples"]) for m in (cell.get("metrics") or {}).values() if isinstance(m, dict) and "samples" in m]
    return max(counts) if counts else len(cell.get("host") or [])


def summary(cell: dict) -> dict | None:
    """The cell's mean contention over its repetitions (None without host records): a measure
    is known only where every repetition's record gives it, so host records for some of its
    repetitions only leave every measure unknown (the others' contention is not recorded)."""
    host = cell.get("host") or []
    if not host:
        return None
    if len(host) != repetitions(cell):
        return dict.fromkeys(LIMITS)
    seconds = _rep_seconds(cell)
    each = [measures(rep, seconds) for rep in host]
    return {name: (_finite(statistics.fmean(v[name] for v in each)) if all(v[name] is not None for v in each) else None)
            for name in LIMITS}


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def unknown(cell: dict) -> str:
    """Why the cell's contention cannot be known, or "": no host records, records for some of its
    repetitions only, or a measure that cannot be computed from them (no wall time or one below
    MIN_SECONDS, a share that is not finite, a field missing): the measures summary() gives as
    None. Unknown is never "the same" as anything (results/comparison)."""
    found = summary(cell)
    if found is None:
        return "no host records"
    if len(cell["host"]) != repetitions(cell):
        return f"host records for {len(cell['host'])} of its {repetitions(cell)} repetitions"
    missing = [WORDS[name][0] for name, value in found.items() if value is None]
    return f"{' and '.join(missing)} not computable from its host records" if missing else ""


def difference(cell_a: dict, cell_b: dict, unknown_differs: bool = True) -> str:
    """The first measure whose mean contention differs between the two cells by more than its
    threshold, as "other processes' CPU 0.85 CPUs against 0.05 CPUs a repetition (more than 0.50
    CPUs apart)", or one that one cell's records give and the other's cannot ("other processes'
    CPU unknown against 0.05 CPUs a repetition": unknown is not the same); "" where none does or
    neither side recorded any; else where a repetition of one cell passed a threshold and the
    other's of that round did not pass that one ("3 of side A's 8 repetitions ran with other
    processes' CPU above 0.50 CPUs, side B's of those rounds did not"). unknown_differs=False:
    only measures both give (across files comparison.contention_unknown() says what a side's
    records cannot give)."""
    a, b = summary(cell_a), summary(cell_b)
    if not a and not b:
        return ""
    a, b = a or dict.fromkeys(LIMITS), b or dict.fromkeys(LIMITS)
    for name, limit in LIMITS.items():
        word, fmt = WORDS[name]
        if unknown_differs and (a[name] is None) != (b[name] is None):
            shown = ["unknown" if v is None else fmt.format(v) for v in (a[name], b[name])]
            return f"{word} {shown[0]} against {shown[1]} a repetition (unknown is not the same)"
        if a[name] is not None and b[name] is not None and abs(a[name] - b[name]) > limit:
            return (f"{word} {fmt.format(a[name])} against {fmt.format(b[name])} a repetition "
                    f"(more than {fmt.format(limit)} apart)")
    # a repetition past a threshold (one the runner's retries did not clear) is not averaged away
    # where the other side's repetition of that round did not pass that threshold: #60 round 56's
    # rewrite, 3 of 8 repetitions above half a CPU of others' work, had a mean below it and got a
    # verdict; round 58: steal in one side's round, I/O wait in the other's, is not alike. Both
    # sides past one threshold in the same rounds is alike: the paired rounds share it.
    # Across result files rounds are not paired (a run's round 0 is not another's): unknown_differs
    # False leaves it to sides_past(), over each side's cells together.
    if not unknown_differs:
        return ""
    past = {"A": _past(cell_a), "B": _past(cell_b)}
    for side, other, cell in (("A", "B", cell_a), ("B", "A", cell_b)):
        only = past[side] - past[other]
        if only:
            return _ran_with(len({i for i, _ in only}), side, repetitions(cell), {name for _, name in only},
                             f"side {other}'s of those rounds did not")
    return ""


def sides_differ(cells_a: list, cells_b: list) -> str:
    """Across result files, each side's cells taken together (rounds of two runs are not paired,
    nor is one run of a side with one of the other: round 59 found A1 with steal compared with
    B2 without, while B1 had it too): the sides' mean contention over all their repetitions
    (difference()), then a threshold one side's repetitions passed and the other's never did
    (sides_past()); "" where neither."""
    def pooled(cells):
        host = [{**rep, "seconds": rep.get("seconds", _rep_seconds(cell))}
                for cell in cells for rep in (cell.get("host") or []) if isinstance(rep, dict)]
        return {"host": host} if host and all(len(c.get("host") or []) == repetitions(c) for c in cells) else {}
    return difference(pooled(cells_a), pooled(cells_b), unknown_differs=False) or sides_past(cells_a, cells_b)


def sides_past(cells_a: list, cells_b: list) -> str:
    """Across result files, where rounds are not paired: a threshold that a larger share of one
    side's repetitions passed than of the other's, as "36 of side A's 36 repetitions ran with
    steal above 5.0 %, 4 of side B's 36" (or "none of side B's", or "side B's not recorded" where
    its cells hold no host records); "" where each threshold was
    passed by the same share of both. Within one run a round past a threshold on one side only
    differs; across files the count is what can be held against the other side's (round 60: a
    side past steal in every repetition got a verdict against one past it in a ninth, while one
    repetition against none differed; round 59: a threshold passed on both sides was alike
    whatever its share, every cell of one side paired with every cell of the other)."""
    def side(name, cells):
        counts = {limit: 0 for limit in LIMITS}
        for cell in cells:
            for _, passed in _past(cell):
                counts[passed] += 1
        return name, counts, sum(repetitions(c) for c in cells)
    sides = [side("A", cells_a), side("B", cells_b)]
    # a side whose cells lack host records passed nothing anyone knows of (round 75: "none of side
    # A's" was said of a side whose contention was unknown)
    recorded = {name: all(c.get("host") and len(c["host"]) == repetitions(c) for c in cells)
                for name, cells in (("A", cells_a), ("B", cells_b))}
    for name in LIMITS:
        # the side with the larger share first (reps 0: no share); equal shares are alike
        (more, count, reps), (other, theirs, their_reps) = sorted(
            ((s, counts[name], reps) for s, counts, reps in sides), key=lambda x: -Fraction(x[1], x[2] or 1))
        if Fraction(count, reps or 1) == Fraction(theirs, their_reps or 1):
            continue
        return _ran_with(count, more, reps, {name},
                         f"{theirs} of side {other}'s {their_reps}" if theirs
                         else f"none of side {other}'s" if recorded[other] else f"side {other}'s not recorded")
    return ""


def _ran_with(count: int, side: str, reps: int, names: set, but: str) -> str:
    """"3 of side A's 8 repetitions ran with steal above 5.0 % or I/O wait above 50.0 %, <but>"."""
    past = " or ".join(f"{WORDS[name][0]} above {WORDS[name][1].format(LIMITS[name])}"
                       for name in sorted(names, key=list(LIMITS).index))
    return f"{count} of side {side}'s {reps} repetitions ran with {past}, {but}"


def differs(cell_a: dict, cell_b: dict) -> str:
    """Why two cells' figures cannot be compared for their filesystems: their mean contention
    differs by more than a threshold in one of the measures, or a repetition of one passed one
    where the other's of that round did not (a sentence), or "" where neither holds or a side
    recorded none."""
    found = difference(cell_a, cell_b)
    return (f"The two sides ran under different contention: {found}, so the difference may be the host's, "
            "not the filesystems'.") if found else ""
