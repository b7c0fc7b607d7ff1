"""A publishable comparison of two configurations measured for it (`fsatlas measure A B`).

A and B (a filesystem, or filesystem:variant) run on this machine in one run, each on a freshly
made loop image of the same size, all mounted at once, and per workload in rounds: one
repetition of each a round, A or B first by turns (execution.Run.run_interleaved, round_order),
so a host whose speed drifts, and the order within a round, move both alike and the paired test
of results/comparison applies. Rounds go on while any headline comparison of the pair
(results/comparison.HEADLINE, the metrics a report compares) could not yet detect the stated
change (the comparison module's smallest detectable change, paired, 80 % power) and the round
cap is not reached. The rule reads the spread only, never the difference seen so far, so
stopping does not bias the test the report then makes. In-run contention is handled as in the
adaptive profiles (a contended repetition is run again).
"""
import contextlib

from . import claim_aims, execution, target
from ..errors import UserError
from ..results import comparison, shares

DEFAULT_CHANGE_PCT = 3.0
DEFAULT_MAX_ROUNDS = 12


def sides(profile, a_spec: str, b_spec: str) -> list[tuple]:
    """[(cell of A, cell of B)] for each workload (and dimensions) both sides have in the profile;
    mkfs-time and mount-time, which make their own filesystems, are left out."""
    def pick(spec):
        fs, variant = shares.configuration(spec)
        return {(c.workload, tuple(sorted(c.dimensions.items()))): c for c in profile.cells
                if c.filesystem == fs and c.variant == variant and c.kind != "lifecycle"}
    shares.two_configurations(a_spec, b_spec)  # one run cannot hold a cell twice
    side_a, side_b = pick(a_spec), pick(b_spec)
    for spec, found in ((a_spec, side_a), (b_spec, side_b)):
        if not found:
            raise UserError(f"no cell of {spec} in profile {profile.name!r}", field="A B",
                            expected="a filesystem or filesystem:variant that `fsatlas plan` lists", found=spec)
    pairs = [(side_a[k], side_b[k]) for k in side_a if k in side_b]
    if not pairs:
        raise UserError(f"{a_spec} and {b_spec} share no workload in profile {profile.name!r}", field="A B")
    return pairs


def same(pairs: list, mounted: dict, a_spec: str, b_spec: str) -> None:
    """Refuses A and B whose filesystems are made and mounted alike: the same filesystem, mkfs
    options and the mount options the kernel reports (ext4 against ext4:relatime, the default,
    measures one configuration twice), compared as mounted, not by name."""
    for a, b in pairs:
        if a.group in mounted and b.group in mounted and a.filesystem == b.filesystem and a.group[1] == b.group[1] \
                and mounted[a.group][1] == mounted[b.group][1]:
            raise UserError(f"{a_spec} and {b_spec} are one configuration as mounted (mount options "
                            f"{mounted[a.group][1]!r} both): there is nothing to compare", field="A B",
                            expected="two configurations whose effective settings differ", found=f"{a_spec} {b_spec}")


def lagging(states: list, aims: dict, cap: int) -> set:
    """The cell runs of this round a pair still needs: AIMS {(B's key, A's key): change in %};
    a pair is needed while both sides are below CAP rounds and one of its headline metrics needs
    more rounds (needs_more)."""
    by_key = {s.cell.key: s for s in states if not s.failed}
    wanted = set()
    for (b_key, a_key), change_pct in aims.items():
        b, a = by_key.get(b_key), by_key.get(a_key)
        if not a or not b or max(a.reps, b.reps) >= cap:
            continue
        pair = claim_aims.plan(a, b)
        if any(needs_more(a.samples[name], b.samples.get(name, []), name, change_pct, pair)
               for name in a.samples if name in comparison.HEADLINE):
            wanted |= {a, b}
    return wanted


def needs_more(a: list, b: list, name: str, change_pct: float, plan: dict) -> bool:
    """Whether the pair's samples of metric NAME need another round to detect CHANGE_PCT (the
    comparison module's smallest detectable change, paired): fewer than two rounds, or tested
    and the change below what they detect. A metric not testable after two rounds (no spread on
    either side: a size, a count) is not waited for: more rounds of it add none. plan: the pair's
    design (claim_aims.plan()), as the report decides the row."""
    return len(a) < 2 or len(a) != len(b) or claim_aims.undetected(a, b, name, change_pct, plan)


def run_pair(matrix, profile, out, scratch, a_spec, b_spec, change_pct=DEFAULT_CHANGE_PCT,
             max_rounds=DEFAULT_MAX_ROUNDS, machine=None) -> tuple:
    """Runs A against B as the module says; returns (the result file's path, the result, each
    pair's outcome [{workload key, rounds, metrics: {name: detectable %}, reached}])."""
    pairs = sides(profile, a_spec, b_spec)
    if max_rounds < profile.repetitions:
        raise UserError("the round cap is below the profile's planned repetitions", field="--max-rounds",
                        expected=f"at least {profile.repetitions}", found=str(max_rounds))
    sub = profile.subset([c for pair in pairs for c in pair])
    target_info = {"kind": "loop-image", **target.storage_under(scratch), "image_bytes": sub.image_bytes,
                   "loop_direct_io": True}
    result = execution.new_result(sub, machine, out, target_info)
    run = execution.Run(matrix, sub, out, scratch, result)
    run.round_cap, run.aims_rule = max_rounds, lagging
    run.claim_aims = {(b.key, a.key): change_pct for a, b in pairs}
    run.progress = execution.Progress(2 * len(pairs) * sub.repetitions)

    def body():
        pending = []
        for cell in sub.cells:
            pending += execution._pending(run, [cell], matrix.filesystems[cell.filesystem])
        with contextlib.ExitStack() as stack:
            mounted = execution.mount_groups(run, stack, pending)  # first: A and B must differ as mounted
            same(pairs, mounted, a_spec, b_spec)
            execution._measure_baseline(run)
            records = dict((c.key, r) for c, r in pending)
            for a, b in pairs:
                units = [(c, records[c.key], mounted[c.group][0].mountpoint, matrix.filesystems[c.filesystem],
                          mounted[c.group][0], mounted[c.group][1]) for c in (a, b)
                         if c.key in records and c.group in mounted]
                if len(units) == 2:
                    run.run_interleaved(units)
                run.save(False)
        execution._measure_baseline(run, "baseline_after")

    path, result = execution._run(run, body)
    return path, result, outcome(result, pairs, change_pct)


def outcome(result: dict, pairs: list, change_pct: float) -> list[dict]:
    """Each pair's rounds and its headline metrics' smallest detectable change (None where not
    testable, what its row says in whys), and whether every testable one reached CHANGE_PCT."""
    cells = {c["key"]: c for c in result["cells"]}
    run = comparison.factors(result)
    out = []
    for a, b in pairs:
        ca, cb = cells[a.key], cells[b.key]
        if ca["status"] != "ok" or cb["status"] != "ok":
            out.append({"workload": a.key.split("|", 3)[3], "rounds": 0, "metrics": {}, "reached": False,
                        "why": ca.get("reason") or cb.get("reason") or "not run"})
            continue
        # each headline row as the report makes it (report.within): the pair's design, and one
        # row for a metric and the ones that scale its samples (iops of throughput)
        plan = comparison.cells_plan(run, ca, run, cb)
        names = [n for n in ca["metrics"] if n in cb["metrics"] and n in comparison.HEADLINE]
        tested_as = comparison.tested_as(names, *({n: c["metrics"][n]["samples"] for n in names} for c in (ca, cb)))
        found, whys = {}, {}
        for name in (n for n in names if tested_as[n] == n):
            row = comparison.row_of(a.key, name, [ca["metrics"][name]], [cb["metrics"][name]], plan)
            found[name] = row["detectable_pct"] if row["status"] == "tested" else None
            if row["status"] != "tested":
                whys[name] = comparison.describe(row)  # "not testable: n = 1 ...", as the report's row says
            elif found[name] is None:  # the test has not 80 % power for any change within reach
                whys[name] = f"tested, but no change is detectable with 80 % power at n = {row['n_a']}"
        tested = [v for v in found.values() if v is not None]
        out.append({"workload": a.key.split("|", 3)[3], "rounds": len(ca["started"]), "metrics": found,
                    "whys": whys, "reached": bool(tested) and all(v <= change_pct for v in tested)})
    return out
