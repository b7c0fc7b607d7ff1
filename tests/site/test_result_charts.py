"""Issue 65: a result page's throughput chart is drawn by fsatlas aggregate in Python
(site/result_chart.py: Vega's 46 ms a chart is 460 s at 10,000 results). The rule: each panel
of the picture, a workload's, draws what Vega draws from the same spec and rows, to the tenth
of a pixel its build drawing keeps: the same bars (place, size, colour, paleness, outline and
<title> words), whiskers, dots and flag letters, and the same axes (grid, ticks, labels, their
words and captions). Only where the panels sit differs (a simpler grid). The independent
implementation is Vega itself, drawing the rows as a page's figure is drawn (draw-charts.mjs).
Rows: the committed results' own throughput rows (cell_rows and throughput_rows, as the build
writes them) reshaped by hypothesis (which rows, the figures' scale, intervals and repetitions
dropped, flags, cells not measured), and rows made up whole (two bars of one label, which Vega
stacks; intervals below zero; words that need escaping; a zero mean)."""
import json
import re
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from fsatlas.results.resultfile import readable
from fsatlas.site import aggregate, result_chart
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
# each example draws a dozen charts through Node: shrinking one took over five minutes; a
# failing example is reported whole
NO_SHRINK = [Phase.explicit, Phase.reuse, Phase.generate]


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


# bytes a second: none, or from a byte in a thousand seconds to 5 GB/s (below 1e-300, d3's own
# arithmetic turns to NaN, which test_any_rows_are_drawn_without_failing covers); and samples up
# to the 1e18 validate allows, whose interval (stats.bounded_interval) may reach 1e30 (#65 round
# 31: ticks past 1e21 MB/s differed from d3's by an ulp, and the y title's place by its cap)
FIGURES = st.one_of(st.just(0.0), st.floats(1e-3, 5e9))
SAMPLES = st.one_of(FIGURES, st.floats(5e9, 1e18))
HALVES = st.one_of(FIGURES, st.floats(1e15, 1e30))


@st.composite
def made_up(draw, index: int) -> tuple[str, list[dict]]:
    """(id, rows): rows no run wrote, with what the committed ones lack."""
    rows = []
    labels = draw(st.lists(st.sampled_from(["ext4", "xfs", "btrfs zstd", 'a<b>&"c\'', "ext4 numjobs=4"]),
                           min_size=1, max_size=4))
    for n, label in enumerate(labels):
        workload = draw(st.sampled_from(["seq-write", "rand-read-4k", "w&<1>"]))
        samples = draw(st.lists(SAMPLES, min_size=1, max_size=5))
        mean = sum(samples) / len(samples) if draw(st.booleans()) else 0.0
        half = draw(HALVES)
        interval = len(samples) > 1 and draw(st.booleans())
        rows.append({"result": f"m{index}", "machine": "m-1", "machine_name": draw(st.sampled_from(["m-1", "Box <2>"])),
                     "key": f"{label}|{workload}|{n}", "label": label, "filesystem": label.split()[0],
                     "variant": "defaults", "workload": workload, "mkfs": "defaults", "mount": "defaults",
                     "status": "ok", "reason": "", "flags": draw(st.lists(st.sampled_from(FLAGS), unique=True, max_size=2)),
                     "metric": "throughput", "mean": mean, "ci_low": mean - half if interval else None,
                     "ci_high": mean + half if interval else None, "rsd_pct": 1.5, "n": len(samples), "samples": samples,
                     "shown": {"mean": "1.0", "rsd": "1 %", "ci": "0–2" if interval else "—"}})
    return f"m{index:02d}", rows


def panels(svg: str) -> dict:
    """{panel title: what it draws}: each panel's marks and axes, as the markup says them."""
    ns = "{http://www.w3.org/2000/svg}"
    cell = next(g for g in ET.fromstring(svg).iter(ns + "g") if g.get("class") == "mark-group role-scope cell")
    out = {}
    for panel in cell:
        def groups(prefix):
            return [g for g in panel.iter(ns + "g") if (g.get("class") or "").startswith(prefix)]

        def marks(prefix, *attrs):
            return sorted(tuple(c.text if a == "text" else c.get(a) for a in attrs) for g in groups(prefix) for c in g)

        def axis_part(axis, cls, *attrs):
            return [tuple(c.text if a == "text" else c.get(a) for a in attrs)
                    for g in axis.iter(ns + "g") if g.get("class") == cls for c in g]
        title = groups("mark-text role-title-text")[0][0].text or ""
        out[title] = {
            "bars": sorted((p.get("d"), p.get("fill"), p.get("fill-opacity"), p.get("stroke"), p.get("stroke-width"),
                            p.find(ns + "title").text) for g in groups("mark-rect role-mark") for p in g),
            "whiskers": marks("mark-rule role-mark", "transform", "x2", "y2", "stroke"),
            "dots": marks("mark-symbol role-mark", "cx", "cy", "r", "fill", "opacity"),
            "letters": marks("mark-text role-mark", "transform", "text", "font-size", "font-weight", "fill"),
            "axes": [(a.get("aria-label"), a[0].get("transform"),
                      *(axis_part(a, cls, *attrs) for cls, attrs in (
                          ("mark-rule role-axis-grid", ("transform", "x2", "y2")),
                          ("mark-rule role-axis-tick", ("transform", "x2", "y2")),
                          ("mark-text role-axis-label", ("transform", "text")),
                          ("mark-rule role-axis-domain", ("transform", "x2", "y2")),
                          ("mark-text role-axis-title", ("transform", "text")))))
                     for a in panel.iter(ns + "g") if a.get("class") == "mark-group role-axis"]}
    return out


def drawn_by_vega(tmp: Path, charts: list) -> dict:
    (tmp / "rows").mkdir()
    for rid, rows in charts:
        (tmp / "rows" / f"{rid}.json").write_text(json.dumps(rows))
    return drawn_each_alone(tmp, [rid for rid, _ in charts])


def same_panels(charts: list, vega: dict) -> None:
    for rid, rows in charts:
        ours = result_chart.svg(rows)
        if not any(r["status"] == "ok" and r["metric"] == "throughput" for r in rows):
            assert ours == "", rid  # no bar: the browser says so
            continue
        theirs = panels(vega[rid])
        mine = panels(ours)
        assert sorted(mine) == sorted(theirs), rid
        for name in theirs:
            for part in theirs[name]:
                assert mine[name][part] == theirs[name][part], (rid, name, part)


def many_charts(make, fewest: int, most: int):
    """A tuple of (id, rows), fewest to most of them, each from make(its index)."""
    return st.integers(fewest, most).flatmap(lambda n: st.tuples(*(make(k) for k in range(n))))


# each example draws its charts through Node once
AGAINST_VEGA = settings(max_examples=3, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck),
                        phases=NO_SHRINK)


@AGAINST_VEGA
@given(many_charts(reshaped, 6, 10))
def test_a_result_chart_has_the_panels_vega_draws_from_a_committed_runs_rows(tmp_path_factory, charts):
    same_panels(charts, drawn_by_vega(tmp_path_factory.mktemp("charts"), charts))


@AGAINST_VEGA
@given(many_charts(made_up, 8, 12))
def test_a_result_chart_has_the_panels_vega_draws_from_rows_no_run_wrote(tmp_path_factory, charts):
    same_panels(charts, drawn_by_vega(tmp_path_factory.mktemp("charts"), charts))


@pytest.mark.parametrize("value", [0.0, 0.1, 0.35, 1.125, 6990.0, 1234567.8, 5e-7, 2.5e-3, 999.5, 1e21])
def test_the_bars_words_format_numbers_as_d3_format_does(value):
    """d3-format's ",.3~r" (its bar's title), beside d3-format itself in Node."""
    node = subprocess.run(["node", "-e", f"console.log(require('d3-format').format(',.3~r')({value!r}))"],
                          capture_output=True, text=True, cwd=REPO, check=True)
    assert result_chart.format_rounded(value) == node.stdout.strip()


# any text but the characters XML 1.0 has not, which no XML parser reads (validate refuses them)
WORDS = st.text(st.characters(blacklist_categories=("Cc", "Cs"), blacklist_characters="\ufffe\uffff"), max_size=6)
JUNK = st.one_of(st.none(), st.booleans(), st.floats(), st.integers(-10**400, 10**400), st.text(max_size=4),
                 st.lists(st.floats(), max_size=3))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(WORDS, WORDS, st.lists(st.floats(0, 1e300), min_size=1, max_size=3),
                          st.one_of(st.none(), st.floats(-1e300, 1e300))), min_size=1, max_size=8))
def test_any_rows_are_drawn_without_failing(made):
    """Whatever figures and words a row holds (validate bounds them no further than finite and
    not negative), the picture is drawn and is SVG."""
    rows = [{"result": "r", "machine": "m", "machine_name": "m", "label": label, "filesystem": label, "workload": workload,
             "status": "ok", "flags": [], "metric": "throughput", "mean": sum(samples) / len(samples), "n": len(samples),
             "ci_low": low, "ci_high": None if low is None else abs(low), "samples": samples, "shown": {}}
            for label, workload, samples, low in made]
    picture = result_chart.svg(rows)
    assert sorted(panels(picture)) == sorted({r["workload"] for r in rows})


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(JUNK, st.fixed_dictionaries({
    "metric": st.just("throughput"), "status": st.just("ok"), "workload": st.one_of(JUNK, st.text()),
    "label": st.one_of(JUNK, st.text()), "filesystem": st.one_of(JUNK, st.text()), "mean": JUNK, "ci_low": JUNK,
    "ci_high": JUNK, "samples": st.one_of(JUNK, st.lists(JUNK, max_size=3)), "flags": JUNK,
    "machine_name": st.one_of(JUNK, st.text()), "n": JUNK, "shown": st.one_of(JUNK, st.dictionaries(st.text(), JUNK))})),
    max_size=6))
def test_rows_no_run_could_write_are_drawn_or_left_out_and_never_break_the_page(rows):
    """Rows aggregate.throughput_rows cannot write (figures null, text, NaN, infinite or past a
    double, an interval with one end, rows that are no object, words with any character) are
    drawn as far as they go and never raise; the picture is well-formed XML (no character XML
    has not, nothing that escapes the markup) or "" where no row has a finite mean."""
    picture = result_chart.svg(rows)
    if picture:
        ET.fromstring(picture)
        assert "<script" not in picture


def test_v8s_powers_of_ten_are_node_s():
    """d3 computes tick steps with Math.pow(10, k), which V8 gets an ulp off the nearest double
    for some k (1e26 among them): result_chart.pow10 is V8's, asked of this machine's Node."""
    node = subprocess.run(["node", "-e", "for (let k=-340; k<=320; k++) console.log(String(Math.pow(10, k)))"],
                          capture_output=True, text=True, check=True)  # String: JSON has no Infinity
    assert [result_chart.pow10(k) for k in range(-340, 321)] == [float(v) for v in node.stdout.split()]
