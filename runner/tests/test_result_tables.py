"""The result tables fsatlas renders as HTML: every value escaped, shown as the reader wrote it."""
import pytest
from hypothesis import given, strategies as st

from testutil import table_rows
from fsatlas.site import result_tables
from fsatlas.results.resultfile import readable  # a result file in the read form (schema 2 stores no summaries)

EVIL = '<script>alert("x")</script><img src=x onerror=alert(1)>"\'&'
SHOWN = {"mean": "1.0 MB/s", "median": "1.0 MB/s", "ci": "0.9 MB/s – 1.1 MB/s", "rsd": "5.0 %"}


def test_every_value_is_escaped_and_reads_back_as_written():
    ok = {"key": f"ext4|{EVIL}", "metric": EVIL, "unit": "bytes/s", "status": "ok", "reason": "", "n": 3,
          "shown": SHOWN}
    failed = {"key": EVIL, "metric": None, "unit": None, "status": "failed", "reason": EVIL, "n": None, "shown": None}
    # figures in a unit the site does not know are escaped too (the schema refuses such a unit)
    foreign = {**ok, "metric": "iops", "unit": EVIL, "shown": dict.fromkeys(SHOWN, f"1.0 {EVIL}")}
    html = result_tables.metrics_table([ok, foreign, failed])
    assert "<script" not in html and "<img" not in html
    # a metric's words for readers (metrics.label), its name beside them where they differ
    assert table_rows(html) == [[ok["key"], EVIL, "1.0 MB/s", "1.0 MB/s", "0.9 MB/s – 1.1 MB/s", "5.0 %", "3"],
                                ["I/O operations per second iops"] + [f"1.0 {EVIL}"] * 4 + ["3"],
                                [EVIL, f"failed: {EVIL}"]]

    row = {"key": f"{EVIL}|-|-|seq-write|bs={EVIL}", "filesystem": EVIL, "workload": "seq-write", "variant": EVIL, "mkfs": EVIL, "mount": EVIL,
           "status": "ok", "reason": "", "flags": [EVIL], "n": 3, "shown": SHOWN}
    html = result_tables.throughput_table([row, {**row, "status": "skipped", "reason": EVIL}])
    assert "<script" not in html and "<img" not in html
    assert table_rows(html) == [[EVIL, f"seq-write bs={EVIL}", EVIL, f"{EVIL} / {EVIL}", "1.0 MB/s", "0.9 MB/s – 1.1 MB/s",
                                 "5.0 %", "3", f"ok {EVIL}", "", ""],
                                [EVIL, f"seq-write bs={EVIL}", EVIL, f"{EVIL} / {EVIL}", "", f"skipped: {EVIL}", ""]]


def test_each_throughput_row_shows_the_raw_device_on_its_own_job_and_the_host():
    key = "ext4|-|-|seq-read"
    result = {"target": {"baseline_written": True,
                         "baseline": {"seq-read": {"throughput": {"mean": 742e6, "rsd_pct": 1.2, "samples": [742e6] * 3}},
                                      "rewrite": {"throughput": {"mean": 600e6, "rsd_pct": 9.0,
                                                                 "samples": [600e6] * 3}}}},
              "cells": [{"key": key, "workload": "seq-read", "status": "ok",
                         "host": [{"steal_pct": 0.0, "iowait_pct": 2.0, "others_cpu_s": 0.1, "load1": 0.5},
                                  {"steal_pct": 1.0, "iowait_pct": 4.0, "others_cpu_s": 0.2, "load1": 0.6}]},
                        {"key": "ext4|-|-|rewrite", "workload": "rewrite", "status": "ok"}]}
    row = {"key": key, "filesystem": "ext4", "workload": "seq-read", "variant": "defaults", "mkfs": "", "mount": "",
           "status": "ok", "reason": "", "flags": [], "n": 3, "shown": SHOWN}
    rewrite = {**row, "key": "ext4|-|-|rewrite", "workload": "rewrite"}
    cells = table_rows(result_tables.throughput_table([row, rewrite], result))
    assert cells[0][-2:] == ["742", "steal 0.5 %, I/O wait 3.0 %, other processes 0.30 s CPU"]
    assert cells[1][-2:] == ["600 (cannot judge: unstable, RSD 9.0 %)", ""]


def test_the_overview_gives_each_figure_as_its_difference_from_the_rows_best():
    """Rule (#62; round 11): on each row of a run at a glance, "best" marks the best figure among
    those a ranking ranks (none flagged cached, cache-unknown or emulated: flags.UNRANKED), and
    only it; a flagged figure says it is not ranked and is set against nothing; every other one
    is its percent difference from that best, which reads 0 % or −100 % only when it is so.
    Worked out here from each committed result file with more than one filesystem."""
    import json
    import re
    from pathlib import Path
    from fsatlas.results.comparison import HEADLINE
    from fsatlas.site import aggregate
    rows_seen, unranked_seen = 0, 0
    for path in sorted((Path(__file__).resolve().parents[2] / "data" / "results").glob("*.json")):
        result = readable(json.loads(path.read_text()))
        made = result_tables.overview_table(aggregate.cell_rows(result))
        filesystems = re.findall(r'<th scope="col">([^<]+)</th>', made)[2:]
        if len(filesystems) < 2:
            continue
        shown = {}
        for row in re.findall(r"<tr><th scope=\"row\">(.*?)</tr>", made):
            workload, rest = row.split("</th>", 1)
            metric, *cells = (re.sub(r"<[^>]+>", "", td) for td in re.findall(r"<td[^>]*>(.*?)</td>", rest))
            shown[(workload, metric)] = dict(zip(filesystems, cells))
        expected = {}
        for c in result["cells"]:
            if c["status"] != "ok" or c.get("variant", "defaults") != "defaults":
                continue
            parts = c["key"].split("|")
            workload = c["workload"] + (f" {parts[4]}" if len(parts) > 4 else "")
            for name, m in c["metrics"].items():
                if name in HEADLINE and m["mean"] > 0:
                    expected.setdefault((workload, name), {})[c["filesystem"]] = (m, set(c.get("flags", [])))
        assert set(shown) == set(expected) and shown, path.name
        for line, figures in expected.items():
            higher = next(iter(figures.values()))[0]["better"] == "higher"
            ranked = [m["mean"] for m, marks in figures.values() if not marks & {"cached", "cache-unknown", "emulated"}]
            best = (max if higher else min)(ranked) if ranked else None
            for fs in filesystems:
                said = shown[line][fs]
                if fs not in figures:
                    assert said == "–"
                    continue
                m, marks = figures[fs]
                unranked = sorted(marks & {"cached", "cache-unknown", "emulated"})
                if unranked:
                    unranked_seen += 1
                    assert said == "not ranked: " + ", ".join(unranked), (path.name, line, fs)
                    continue
                if m["mean"] == best:
                    assert said == "best", (path.name, line, fs)
                    continue
                gap = 100 * (m["mean"] / best if higher else best / m["mean"]) - 100
                figure = float(said.removesuffix(" %").replace("\u2212", "-").replace(",", ""))
                assert abs(figure - gap) <= 0.005 * abs(gap) and figure not in (0, -100), (path.name, line, fs, said, gap)
            rows_seen += 1
    assert rows_seen > 100 and unranked_seen > 0


@given(st.floats(min_value=1e-12, max_value=1e4, allow_nan=False))
def test_a_gap_reads_as_a_tie_or_as_nothing_only_when_it_is_so(share):
    """gap_shown: the difference of share % from 100 %, to within half a percent of itself (three
    significant digits), never "0 %" or "−100 %" unless it is exactly that."""
    said = result_tables.gap_shown(share)
    figure = float(said.removesuffix(" %").replace("\u2212", "-").replace(",", ""))
    gap = share - 100
    assert abs(figure - gap) <= 0.005 * abs(gap) + 1e-12
    assert figure not in (0, -100) or gap in (0, -100)


def _imports(tmp_path):
    """Every result file the importer makes of the tools' own outputs (fixtures/samples), one
    import a file (--redact: some name their host); a file the importer refuses makes none."""
    import contextlib
    import io
    import json
    from testutil import SAMPLES
    from fsatlas.cli import main
    out = tmp_path / "imports"
    for sample in sorted(p for p in SAMPLES.glob("*/*") if p.suffix != ".md"):
        tool = sample.parent.name
        args = ["import", tool, str(sample), "--redact", "--out", str(out)] + ([] if tool == "pts" else ["--filesystem", "ext4"])
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            main(args)
    return [readable(json.loads(p.read_text())) for p in sorted((out / "results").glob("*.json"))]


def test_every_run_and_import_with_a_figure_gets_an_overview_that_links_each_figure_to_its_cell(tmp_path):
    """Rule (#62, third round): every result with a figure has a run at a glance, whatever it
    measured: several filesystems (a heat map), one filesystem or an import (one column, which
    says no comparison is possible). Each figure in it links to its cell's rows among every
    cell's (metrics_table's ids). Over every committed result and every import of every sample."""
    import json
    import re
    from pathlib import Path
    from fsatlas.site import aggregate
    committed = [readable(json.loads(p.read_text())) for p in
                 sorted((Path(__file__).resolve().parents[2] / "data" / "results").glob("*.json"))]
    imported = _imports(tmp_path)
    assert len(imported) >= 20
    single = 0
    for result in committed + imported:
        rows = aggregate.cell_rows(result)
        made = result_tables.overview_table(rows)
        figures = [r for r in rows if r["status"] == "ok" and r["mean"] and r["mean"] > 0]
        assert bool(made) == bool(figures), result["id"]
        if not made:
            continue
        ids = set(re.findall(r'<tbody id="([^"]+)">', result_tables.metrics_table(rows)))
        links = re.findall(r'<a href="cells/#([^"]+)"', made)
        assert links and set(links) <= ids, result["id"]
        assert len(links) == len(re.findall(r"<td class=\"num[^\"]*\"><a ", made)) == \
            len(re.findall(r'<td class="num', made)) - made.count("heat-none"), result["id"]
        columns = len(re.findall(r'<th scope="col">', made)) - 2
        if columns == 1:  # nothing to set a figure against: said, and no shade implies one
            single += 1
            assert "It measured one filesystem" in made and "heat-" not in made, result["id"]
        else:
            assert "heat-0" in made and "It measured one filesystem" not in made, result["id"]
    assert single >= 10


SLOT_NAMES = st.from_regex(r"[a-z]{1,8}(-[a-z]{1,8}){0,2}", fullmatch=True).filter(lambda n: n != "end")


@given(st.dictionaries(SLOT_NAMES, st.text(max_size=60).map(result_tables.escape), max_size=6), st.data())
def test_a_tables_file_reads_back_as_written_and_no_part_of_it_reads_at_all(made, data):
    """pack then unpack gives every slot's HTML unchanged, in UTF-8; any shorter start of the
    file (one cut short), or the file with bytes put in anywhere, is refused rather than read as
    tables."""
    packed = result_tables.pack(made)
    assert result_tables.unpack(packed) == {n.encode(): h.encode() for n, h in made.items()}
    cut = data.draw(st.integers(0, len(packed) - 1))
    with pytest.raises(ValueError):
        result_tables.unpack(packed[:cut])
    at, more = data.draw(st.integers(0, len(packed))), data.draw(st.binary(min_size=1, max_size=3))
    with pytest.raises(ValueError):  # a file grown anywhere (line ends converted) is no tables file either
        result_tables.unpack(packed[:at] + more + packed[at:])


@pytest.mark.parametrize("made", [{"a": "x<!--fsatlas-slot b-->y"}, {"a-": "x"}, {"end": ""}, {"A": "x"}])
def test_a_table_that_would_not_read_back_is_not_packed(made):
    """A table holding the mark, or a name that "-->" could end early, that names the last slot, or
    that no page's slot can have."""
    with pytest.raises(ValueError):
        result_tables.pack(made)
