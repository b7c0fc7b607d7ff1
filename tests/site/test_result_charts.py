"""Issue 65: a build draws every result page's throughput chart from the spec compiled and
parsed once per drawer, each chart in a view of its own with its rows put into the spec's named
data set (scripts/draw-charts.mjs --results). The rule: a chart so drawn is the same SVG, byte
for byte, as the same rows drawn the way a page's figure is drawn (the other mode of
draw-charts.mjs, an independent path: the spec compiled with the rows inside it), whatever
charts the drawer drew before it. Rows: the committed results' own throughput rows (cell_rows
and throughput_rows, as the build writes them), reshaped by hypothesis (which rows, the
figures' scale, intervals and repetitions dropped, flags, cells not measured). One view reused
for chart after chart failed this rule (its ticks came out in another order)."""
import json
import re
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from fsatlas.results.resultfile import readable
from fsatlas.site import aggregate
from sitebuild import REPO

pytestmark = pytest.mark.site
DRAW = REPO / "scripts" / "draw-charts.mjs"
SPEC = REPO / "assets" / "charts" / "throughput.vl.json"
COMMITTED = sorted((REPO / "data" / "results").glob("*.json"))


def throughput_rows(path: Path) -> list[dict]:
    result = readable(json.loads(path.read_text()))
    return aggregate.throughput_rows(aggregate.cell_rows(result), result["system"]["machine"])


BASES = {p.stem: throughput_rows(p) for p in COMMITTED}
FLAGS = ["noisy", "cached", "cache-unknown", "emulated"]


@st.composite
def reshaped(draw, index: int) -> tuple[str, list[dict]]:
    """(id, rows): one committed result's rows, some of them, their figures scaled, with or
    without an interval or repetitions, with other flags, or not measured."""
    name = draw(st.sampled_from(sorted(BASES)))
    rows = [dict(r) for r in BASES[name]]
    keep = draw(st.lists(st.booleans(), min_size=len(rows), max_size=len(rows)))
    rows = [r for r, k in zip(rows, keep) if k] or rows[:1]
    factor = draw(st.sampled_from([1e-3, 0.5, 1, 7.3, 1e3]))
    for row in rows:
        if row["status"] != "ok":
            continue
        row["mean"] *= factor
        row["samples"] = [s * factor for s in row["samples"]]
        if row["ci_low"] is not None:
            row["ci_low"], row["ci_high"] = row["ci_low"] * factor, row["ci_high"] * factor
        if draw(st.integers(0, 5)) == 0:  # one sample: no interval
            row.update(samples=row["samples"][:1], n=1, ci_low=None, ci_high=None, rsd_pct=None)
        row["flags"] = draw(st.lists(st.sampled_from(FLAGS), unique=True, max_size=2))
        if draw(st.integers(0, 7)) == 0:
            row.update(status="skipped", reason="not on this kernel", metric=None, mean=None, ci_low=None,
                       ci_high=None, rsd_pct=None, n=None, samples=None)
            row.pop("shown", None)
    return f"r{index:02d}-{name}", rows


def drawn_one_after_another(tmp: Path, ids: list[str]) -> dict:
    """{id: SVG} as the build draws result charts: one drawer, the spec parsed once, in this order."""
    done = subprocess.run(["node", DRAW, "--results", SPEC, tmp / "rows", tmp / "cache-results"],
                          input="".join(f"{i}\n" for i in ids), capture_output=True, text=True, cwd=REPO, timeout=300)
    assert done.returncode == 0, done.stderr
    files = dict(line.split("\t", 1) for line in done.stdout.splitlines())
    assert sorted(files) == sorted(ids), done.stderr
    return {i: Path(f).read_text() for i, f in files.items()}


def drawn_each_alone(tmp: Path, ids: list[str]) -> dict:
    """{id: SVG} as a page's figure is drawn: each page's chart compiled with its rows inside."""
    site = tmp / "site"
    (site / "spec").mkdir(parents=True)
    (site / "spec" / "throughput.vl.json").write_bytes(SPEC.read_bytes())
    (site / "rows").mkdir()
    for i in ids:
        (site / "rows" / f"{i}.json").write_bytes((tmp / "rows" / f"{i}.json").read_bytes())
        (site / i).mkdir()
        (site / i / "index.html").write_text(
            f'<html><body><figure class="chart" data-rows="/rows/{i}.json" data-spec="/spec/throughput.vl.json" '
            f'data-chart="throughput"><div class="chart-view"></div></figure></body></html>')
    done = subprocess.run(["node", DRAW, site, tmp / "cache-pages"], capture_output=True, text=True, cwd=REPO, timeout=300)
    assert done.returncode == 0, done.stderr
    out = {}
    for i in ids:
        found = re.search(r'<div class="chart-view">(<svg.*</svg>)</div>', (site / i / "index.html").read_text(), re.S)
        assert found, f"{i}: not drawn as a page's figure: {done.stderr}"
        out[i] = found.group(1)
    return out


@settings(max_examples=4, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.lists(st.integers(0, 10**6), min_size=5, max_size=9, unique=True).flatmap(
    lambda seeds: st.tuples(*(reshaped(k) for k in range(len(seeds))))))
def test_a_result_chart_drawn_from_the_spec_parsed_once_is_the_chart_compiled_with_its_rows(tmp_path_factory, charts):
    tmp = tmp_path_factory.mktemp("charts")
    (tmp / "rows").mkdir()
    for rid, rows in charts:
        (tmp / "rows" / f"{rid}.json").write_text(json.dumps(rows))
    ids = [rid for rid, _ in charts]
    alone = drawn_each_alone(tmp, ids)
    together = drawn_one_after_another(tmp, ids)
    assert together == alone
    # and in the other order: what came before a chart changes nothing of it
    for kept in (tmp / "cache-results").iterdir():
        kept.unlink()
    assert drawn_one_after_another(tmp, ids[::-1]) == alone
