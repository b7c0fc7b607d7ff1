"""fsatlas measure A B (issue 60, item 3): A and B interleaved on this machine, round after round,
until every headline comparison can detect the stated change or the round cap is reached; then
the report or the article, from that one run."""
import json
import tempfile
import time
import types

import pytest
from hypothesis import given, settings, strategies as st

from fsatlas.cli import main
from fsatlas.commands import measure as measure_cmd
from fsatlas.results import comparison
from fsatlas.results.resultfile import readable
from fsatlas.run import evidence, execution, matrix, measure
from fsatlas.run.workloads import KINDS
from test_repetitions import scripted_meter
from testutil import loop_state, rounds_from_starts, scratch_left


def _rule(a, b, planned, cap, change, names):
    """The rounds the rule gives, counted by hand: the first count from the planned one on at which
    every headline metric's paired comparison detects CHANGE (or is not testable: no spread), else the cap."""
    for k in range(planned, cap + 1):
        rows = [comparison.compare(a[n][:k], b[n][:k], "higher", "log", paired=True) for n in names]
        if all(r["status"] != "tested" or r["detectable_pct"] is not None and r["detectable_pct"] <= change
               for r in rows):
            return k
    return cap


def _rule_of_cells(result, a, b, planned, cap, change, names):
    """_rule over a run's two cells as the report decides each row after k rounds: the rounds' host
    records count too (two sides whose other processes' CPU differs past the threshold make the
    row "not tested", which more rounds do not wait for: a loaded host stops at the planned count)."""
    result = readable(result)  # the read form: a record per repetition
    run = comparison.factors(result)
    a, b = ({c["key"]: c for c in result["cells"]}[cell["key"]] for cell in (a, b))

    def first(cell, k):
        return {**cell, "started": cell["started"][:k], **({"host": cell["host"][:k]} if "host" in cell else {})}
    for k in range(planned, cap + 1):
        plan = comparison.cells_plan(run, first(a, k), run, first(b, k))
        rows = [comparison.row_of("", n, *([{"unit": "", "better": "higher", "samples": c["metrics"][n]["samples"][:k]}]
                                           for c in (a, b)), plan) for n in names]
        if all(r["status"] != "tested" or r["detectable_pct"] is not None and r["detectable_pct"] <= change
               for r in rows):
            return k
    return cap


values = st.lists(st.floats(50, 150), min_size=12, max_size=12)
steady = st.sampled_from([[100.0] * 12])  # a metric without spread: not testable, never waited for


@settings(max_examples=25)
@given(a=values, b=values, iops_a=st.one_of(values, steady), change=st.floats(0.5, 60), planned=st.integers(2, 4), cap=st.integers(4, 12))
def test_rounds_go_on_until_every_headline_comparison_detects_the_change_or_the_cap(a, b, iops_a, change, planned, cap):
    iops_b = b if iops_a != [100.0] * 12 else iops_a
    streams = {"ext4|-|-|w": iter(zip(a, iops_a)), "xfs|-|-|w": iter(zip(b, iops_b))}

    def run(cell, ctx):
        tp, iops = next(streams[cell.key])
        time.sleep(0.003)  # starts (kept to the ms) that tell the rounds apart, as the report reads them
        return {"throughput": tp, "iops": iops, "lat_mean_ns": 1.0}  # lat: not a headline metric, never waited for
    cells = [matrix.Cell("ext4", "w", "scripted", primary="throughput"),
             matrix.Cell("xfs", "w", "scripted", primary="throughput")]
    with pytest.MonkeyPatch.context() as mp, tempfile.TemporaryDirectory() as out:
        mp.setitem(KINDS, "scripted", types.SimpleNamespace(
            METRICS={"throughput": ("bytes/s", "higher"), "iops": ("ops/s", "higher"), "lat_mean_ns": ("ns", "lower")},
            run=run))
        mp.setattr(evidence, "Meter", scripted_meter([]))
        run_ = execution.Run(None, matrix.Profile("p", 1 << 20, planned, False, cells), out, None,
                             {"id": "r", "created": "2026-11-24T00:00:00Z", "target": {}, "cells": []})
        run_.round_cap, run_.aims_rule, run_.claim_aims = cap, measure.lagging, {("xfs|-|-|w", "ext4|-|-|w"): change}
        records = run_.records_for(cells, {})
        run_.run_interleaved([(c, r, None, {}, None, "") for c, r in zip(cells, records)])
    got_a, got_b = (r["metrics"]["throughput"]["samples"] for r in records)
    n = _rule({"throughput": a, "iops": iops_a}, {"throughput": b, "iops": iops_b}, planned, cap, change,
              ["throughput", "iops"])
    assert len(got_a) == len(got_b) == n
    assert got_a == a[:n] and got_b == b[:n]


def test_a_side_given_twice_or_missing_is_refused_in_one_line(capsys):
    assert main(["measure", "ext4", "ext4:defaults", "--profile", "quick"]) == 1
    assert "the same configuration" in capsys.readouterr().err
    assert main(["measure", "ext4", "nosuchfs", "--profile", "quick"]) == 1
    assert capsys.readouterr().err.count("\n") == 1
    # an unknown variant is named by the side that gives it, not by run's --variant
    assert main(["measure", "ext4", "ext4:nosuch", "--profile", "quick"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("fsatlas measure: B: unknown variant") and "--variant" not in err and err.count("\n") == 1
    # a workload one side's variant does not run is named, not dropped
    assert main(["measure", "ext4", "ext4:noatime", "--profile", "quick", "--workload", "tree-read,seq-write"]) == 1
    err = capsys.readouterr().err
    assert "--workload" in err and "seq-write" in err and err.count("\n") == 1


MATRIX = """
filesystems:
  ext4: {mkfs: [mkfs.ext4, -F, -q]}
  xfs: {mkfs: [mkfs.xfs, -f, -q]}
workloads:
  seq-write: {kind: fio, primary: throughput, fio: {rw: write, bs: 1M, direct: 1, ioengine: libaio}}
profiles:
  p: {image_size: 512M, repetitions: 2, filesystems: [ext4, xfs], workloads: {seq-write: {size: 8M}}}
"""


@pytest.mark.root
def test_measure_runs_the_pair_interleaved_and_writes_the_report(tmp_path, capsys):
    (tmp_path / "m.yaml").write_text(MATRIX)
    before = loop_state(tmp_path)
    report = tmp_path / "report.md"
    assert main(["measure", "ext4", "xfs", "--matrix", str(tmp_path / "m.yaml"), "--profile", "p", "--change", "0.5",
                 "--max-rounds", "3", "--out", str(tmp_path / "out"), "--scratch", str(tmp_path / "s"),
                 "--report", str(report), "--no-chart"]) == 0
    assert loop_state(tmp_path) == before and scratch_left(tmp_path / "s") == []
    err = capsys.readouterr().err
    (path,) = (tmp_path / "out" / "results").iterdir()
    cells = {c["key"]: c for c in json.loads(path.read_text())["cells"]}
    a, b = cells["ext4|-|-|seq-write"], cells["xfs|-|-|seq-write"]
    assert a["status"] == b["status"] == "ok"
    rounds = rounds_from_starts({"cells": [a, b]}, [a["key"], b["key"]])
    assert all(sorted(r) == sorted([a["key"], b["key"]]) for r in rounds)  # round after round, one of each
    assert len({r[0] for r in rounds}) == 2, rounds  # A first in some rounds, B in others (issue 60)
    assert comparison.interleaved(a["started"], b["started"])
    n = len(a["started"])
    assert n == _rule_of_cells(json.loads(path.read_text()), a, b, 2, 3, 0.5, ["throughput", "iops"])
    assert f"seq-write: {n} rounds" in err
    text = report.read_text()
    assert "ext4 in " in text and "seq-write" in text and path.stem in text
    # a change the rounds could not detect is said in the report itself, not only on stderr (0.5 %
    # in three rounds of 8 MiB writes: beyond what their spread can detect)
    assert "NOT reached" in err and "the smallest detectable change did not reach 0.5 % (not reached" in text


def test_measure_writes_through_the_commands_own_parsers(tmp_path):
    """measure hands report and article new their arguments as their own command lines would
    (measure.through): every option either has (and gains) takes its default, and a change not
    reached is said in the report and keeps the article a draft."""
    import frontmatter
    from pathlib import Path
    from fsatlas.commands import article, report
    path = next((Path(__file__).resolve().parents[2] / "data" / "results").glob("20261127T143616Z*.json"))
    out = tmp_path / "r.md"
    note = "seq-write: the smallest detectable change did not reach 3 % (not reached: round cap)"
    assert measure_cmd.through(report, "report", [str(path), "--a", "ext4", "--b", "xfs", "--out", str(out),
                                                  "--no-chart", "--note", note]) == 0
    assert "did not reach 3 % (not reached" in out.read_text()
    for extra, draft in (([], False), (["--note", note, "--draft"], True)):
        content = tmp_path / f"c{draft}"
        assert measure_cmd.through(article, "article", ["new", "T", str(path), "--a", "ext4", "--b", "xfs",
                                                        "--content", str(content), *extra]) == 0
        page = frontmatter.load(content / "articles" / "t.md")
        assert page["draft"] is draft and ("not reached" in page.content) is draft


@pytest.mark.root  # measure refuses to start without root
def test_measure_article_not_reached_is_a_draft_that_says_so(tmp_path, monkeypatch, capsys):
    """The wiring of --article from measure's own command line (the run itself is the root test's):
    a pair at its cap gives a draft opening with what was not reached."""
    from pathlib import Path
    import frontmatter
    path = next((Path(__file__).resolve().parents[2] / "data" / "results").glob("20261127T143616Z*.json"))
    for reached in (False, True):
        pairs = [{"workload": "seq-write", "rounds": 12, "metrics": {"throughput": 4.2 if not reached else 2.0},
                  "reached": reached}]
        monkeypatch.setattr(measure, "run_pair", lambda *a, **k: (str(path), {}, pairs))
        content = tmp_path / str(reached)
        assert main(["measure", "ext4", "xfs", "--scratch", str(tmp_path / "s"), "--out", str(tmp_path / "o"),
                     "--article", "-x title", "--content", str(content)]) == 0
        page = frontmatter.load(content / "articles" / "x-title.md")
        assert page["draft"] is not reached
        assert ("did not reach 3 % (not reached" in page.content) is not reached
    capsys.readouterr()


@pytest.mark.root
def test_measure_refuses_two_sides_mounted_alike(tmp_path, capsys):
    """ext4 against ext4:relatime (the default) is one configuration as the kernel mounts it:
    refused by the effective settings before anything is measured, and nothing is left."""
    (tmp_path / "m.yaml").write_text(MATRIX.replace("filesystems: [ext4, xfs], workloads", "filesystems: [ext4], "
                                                    "variants: all, workloads") + """variants:
  relatime: {filesystems: [ext4], mount: [relatime], workloads: [seq-write]}
""")
    before = loop_state(tmp_path)
    argv = ["--matrix", str(tmp_path / "m.yaml"), "--profile", "p", "--out", str(tmp_path / "out"),
            "--scratch", str(tmp_path / "s")]
    assert main(["measure", "ext4", "ext4:relatime", *argv]) == 1
    err = capsys.readouterr().err
    assert "one configuration as mounted" in err and err.count("\n") == 1
    assert loop_state(tmp_path) == before and scratch_left(tmp_path / "s") == []
    assert not list((tmp_path / "out").glob("results/*.json"))  # no result of a run that measured nothing
