"""What the mount-option claims need of a run. Each claim names pairs of cells (the option's
cell and its baseline) and the change it expects; in an adaptive profile, the interleaved
rounds of such a pair go on while the smallest change its repetitions could detect (the
comparison module's, paired, 80 % power) is larger than that change, up to the repetition cap.
The rule looks at the spread only, never at the difference seen so far, so stopping does not
bias the test the claim is later judged by. A claim expecting no change aims at the
equivalence margin. The claims are read from the knowledge base beside the runner
(data/mount_options/); without one, nothing changes."""
import glob
import math
import os

import yaml

from .. import safe_yaml
from ..results import comparison, metrics

MOUNT_OPTIONS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))), "data", "mount_options")  # the checkout's (the runner may not import site/)


def claim_comparisons(option: dict):
    """(claim, comparison, metric) of each comparison a mount-option file's claims make: a
    comparison is judged on its own metric where it names one, else on its claim's (the site's
    claims evaluation reads them here too)."""
    for claim in option["claims"]:
        for row in claim["measured_by"]:
            yield claim, row, row.get("metric", claim["metric"])


def load(directory: str | None = None) -> dict:
    """{(option cell key, baseline cell key): (metric, the change in percent to be detectable)}:
    where two claims name one pair, the smaller change. directory: the mount-option files
    (default: data/mount_options of the checkout)."""
    aims = {}
    for path in sorted(glob.glob(os.path.join(directory or MOUNT_OPTIONS, "*.yaml"))):
        try:
            with open(path, encoding="utf-8") as f:
                option = safe_yaml.load(f.read())
            found = [((row["cell"], row["baseline"]), metric,
                      abs(float(claim.get("expected_change_pct") or 0)) or comparison.EQUIVALENCE_MARGIN_PCT)
                     for claim, row, metric in claim_comparisons(option)]
            if not all(math.isfinite(expected) for _, _, expected in found):
                continue  # .nan or .inf: check-data names it; no aim of that file is kept
        except (OSError, UnicodeDecodeError, yaml.YAMLError, AttributeError, KeyError, TypeError, ValueError):
            continue  # check-data names a broken file; a run only loses that file's aims
        for pair, metric, expected in found:
            if pair not in aims or expected < aims[pair][1]:
                aims[pair] = (metric, expected)
    return aims


def behind(states: list, aims: dict, cap: int) -> set:
    """The cell runs (execution.CellRun) of this round that a claim's pair still needs: both
    sides are below the cap and could not yet detect the claim's change."""
    by_key = {s.cell.key: s for s in states if not s.failed}
    wanted = set()
    for (cell_key, base_key), (metric, change_pct) in aims.items():
        option, base = by_key.get(cell_key), by_key.get(base_key)
        if not option or not base or max(option.reps, base.reps) >= cap:
            continue
        a, b = base.samples.get(metric, []), option.samples.get(metric, [])
        if len(a) >= 2 and len(b) >= 2 and undetected(a, b, metric, change_pct, plan(base, option)):
            wanted |= {option, base}
    return wanted


def plan(state_a, state_b) -> dict:
    """comparison.cells_plan() of two cell runs (execution.CellRun) of one run so far: the pair
    decided as the report will decide it (report.within): interleaved rounds, the parameters,
    the contention of the repetitions run (a cell's host records only where every repetition
    has one, as the result file keeps them)."""
    run = comparison.factors(state_a.run.result)

    def cell(state) -> dict:
        return {"key": state.cell.key, "parameters": state.record.get("parameters") or {},
                "started": list(state.started), "wall_seconds": state.seconds,
                **({"host": list(state.host)} if state.host and len(state.host) == state.reps else {})}
    return comparison.cells_plan(run, cell(state_a), run, cell(state_b))


def undetected(a: list, b: list, metric: str, change_pct: float, plan: dict) -> bool:
    """Whether samples A and B of METRIC could not yet detect CHANGE_PCT: the row of the pair as
    plan (comparison.cells_plan(), plan()) decides it, through comparison.row_of as the report
    makes it, is tested and the smallest change it detects unknown or larger. Not testable (no
    spread) or not tested (contention or parameters differ) is not undetected: more rounds do
    not make that row a test."""
    unit, better = metrics.KNOWN.get(metric, ("", "higher"))
    entry = {"unit": unit, "better": better}
    row = comparison.row_of("", metric, [{**entry, "samples": a}], [{**entry, "samples": b}], plan)
    return row["status"] == "tested" and (row["detectable_pct"] is None or row["detectable_pct"] > change_pct)
