"""Issue 60, rule 1 (round 15, finding 3): a table's p-values are adjusted over one rule of
families everywhere: its headline metrics form one family and its other metrics a second
(comparison.adjust_table). So adding other metrics to a table, as `--all-metrics` and the
compare page do, never changes a headline row's adjusted p or verdict. On main the page adjusted
every metric together and `compare` the headline ones: rewrite throughput "better" (p adj
0.025) in one, "inconclusive" (0.051) in the other. Property-based over tables hypothesis draws,
within one run (report.within: `compare R --a A --b B`, the page) and across runs
(comparison.between: `compare --runs-a ... --runs-b ...`), with other metrics that may scale a
headline one (read_iops of throughput: one test, distinct())."""
import copy

from hypothesis import assume, given, settings, strategies as st

from fsatlas.errors import UserError
from fsatlas.results import comparison
from fsatlas.site import report

SYSTEM = {"machine": "m-1", "kernel": "6.1.0", "os": "Debian GNU/Linux 12 (bookworm)", "arch": "x86_64",
          "cpu_model": "AMD EPYC", "cpu_count": 2, "memory_bytes": 2**34}
HEADLINE = ["throughput", "iops", "seconds"]
OTHERS = ["lat_mean_us", "read_iops", "cpu_sys_pct"]
UNITS = {"throughput": "bytes/s", "iops": "ops/s", "seconds": "s", "lat_mean_us": "us", "read_iops": "ops/s",
         "cpu_sys_pct": "%"}
BETTER = {"seconds": "lower", "lat_mean_us": "lower", "cpu_sys_pct": "lower"}

noise = st.lists(st.floats(-0.3, 0.3, allow_nan=False), min_size=2, max_size=6)
# a metric: its repetitions' noise on each side, a shift of B against A, or the samples of a metric
# before it times a constant (None: its own figures)
metric = st.tuples(noise, noise, st.floats(0.5, 2.0), st.sampled_from([None, 0.5, 4096.0]))
cell = st.tuples(st.dictionaries(st.sampled_from(HEADLINE), metric, min_size=1),
                 st.dictionaries(st.sampled_from(OTHERS), metric, min_size=1))


def _samples(names: dict, side: int) -> dict:
    """name -> samples of one side: each metric's own noise, or the first drawn metric's samples scaled."""
    out = {}
    for name, (na, nb, shift, scaled) in names.items():
        if scaled is not None and out:
            out[name] = [v * scaled for v in next(iter(out.values()))]
        else:
            out[name] = [100.0 * (1 + v) * (shift if side else 1.0) for v in (nb if side else na)]
    return out


def _run(rid: str, cells: list, others: bool, fs=("ext4", "xfs"), side_of_fs=(0, 1)) -> dict:
    """A result file of one run: each drawn cell for each filesystem, with or without its other metrics."""
    out = []
    for i, (head, other) in enumerate(cells):
        names = {**head, **(other if others else {})}
        for f, side in zip(fs, side_of_fs):
            samples = _samples(names, side)
            out.append({"key": f"{f}|-|-|job{i}", "filesystem": f, "workload": f"job{i}", "variant": "defaults",
                        "status": "ok", "started": [], "parameters": {"rw": "read"},
                        "metrics": {n: {"samples": v, "unit": UNITS[n], "better": BETTER.get(n, "higher")}
                                    for n, v in samples.items()}})
    return {"id": rid, "profile": "quick", "system": SYSTEM, "target": {"kind": "directory"},
            "tool": {"fio": "fio-3.33"}, "cells": out}


def _headline(rows: list) -> dict:
    return {(r["key"], r["metric"]): (r["p_adjusted"], r["verdict"], r["family"]) for r in rows
            if r["metric"] in comparison.HEADLINE}


@settings(max_examples=60, deadline=None)
@given(cells=st.lists(cell, min_size=1, max_size=4))
def test_other_metrics_never_change_a_headline_rows_adjusted_p_or_verdict_within_a_run(cells):
    plain, more = _run("r", cells, False), _run("r", cells, True)
    want = _headline(report.within(plain, "ext4", "xfs"))
    assert want  # every drawn cell has a headline metric
    assert _headline(report.within(plain, "ext4", "xfs", all_metrics=True)) == want
    assert _headline(report.within(more, "ext4", "xfs", all_metrics=True)) == want  # `--all-metrics`, the page
    assert _headline(report.within(more, "ext4", "xfs")) == want


@settings(max_examples=30, deadline=None)
@given(cells=st.lists(cell, min_size=1, max_size=3), drift=st.floats(0.9, 1.1))
def test_other_metrics_never_change_a_headline_rows_adjusted_p_or_verdict_across_runs(cells, drift):
    def runs(others: bool) -> tuple:  # ext4 alone in each run: two runs a side, side B shifted
        sides = []
        for side in (0, 1):
            made = []
            for k, factor in enumerate((1.0, drift)):
                r = _run(f"r{side}{k}", cells, others, fs=("ext4",), side_of_fs=(side,))
                for c in r["cells"]:
                    for m in c["metrics"].values():
                        # each sample its own: one factor for all is a scaled copy (comparison.scaled)
                        m["samples"] = [v * factor * (1 + 1e-6 * (j + 1) * k) for j, v in enumerate(m["samples"])]
                made.append(r)
            sides.append(made)
        return sides
    def headline(sides, **kw) -> dict:
        try:
            return _headline(comparison.between(*copy.deepcopy(sides), **kw))
        except UserError as e:  # runs drawn alike (noise of 0, a metric drawn the same on both sides)
            assume("same samples" not in str(e))  # are one run to compare, not this rule's case
            raise
    plain, more = runs(False), runs(True)
    want = headline(plain)
    assert want
    assert headline(more, all_metrics=True) == want
    assert headline(more) == want
