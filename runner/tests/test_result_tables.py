"""The result tables fsatlas renders as HTML: every value escaped, shown as the reader wrote it."""
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
    assert table_rows(html) == [[ok["key"], EVIL, "1.0 MB/s", "1.0 MB/s", "0.9 MB/s – 1.1 MB/s", "5.0 %", "3"],
                                ["iops"] + [f"1.0 {EVIL}"] * 4 + ["3"],
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
    """The committed newest run at a glance (#62): every headline figure of its default cells, as
    a percent of the best filesystem's on its row, worked out here from the result file."""
    import json
    import re
    from pathlib import Path
    from fsatlas.results.comparison import HEADLINE
    from fsatlas.site import aggregate
    path = next((Path(__file__).resolve().parents[2] / "data" / "results").glob("20261127T143616Z*.json"))
    result = readable(json.loads(path.read_text()))
    made = result_tables.overview_table(aggregate.cell_rows(result))
    filesystems = re.findall(r'<th scope="col">([^<]+)</th>', made)[2:]
    shown = {}
    for row in re.findall(r"<tr><th scope=\"row\">(.*?)</tr>", made):
        workload, rest = row.split("</th>", 1)
        metric, *cells = re.findall(r"<td[^>]*>(.*?)</td>", rest)
        shown[(workload, metric)] = dict(zip(filesystems, cells))
    expected = {}
    for c in result["cells"]:
        if c["status"] != "ok" or c.get("variant", "defaults") != "defaults":
            continue
        parts = c["key"].split("|")
        workload = c["workload"] + (f" {parts[4]}" if len(parts) > 4 else "")
        for name, m in c["metrics"].items():
            if name in HEADLINE and m["mean"] > 0:
                expected.setdefault((workload, name), {})[c["filesystem"]] = m
    assert set(shown) == set(expected) and len(shown) > 20
    for line, figures in expected.items():
        higher = next(iter(figures.values()))["better"] == "higher"
        best = (max if higher else min)(m["mean"] for m in figures.values())
        for fs in filesystems:
            if fs not in figures:
                assert shown[line][fs] == "–"
                continue
            share = 100 * (figures[fs]["mean"] / best if higher else best / figures[fs]["mean"])
            assert shown[line][fs] == ("best" if share >= 99.5 else f"{share - 100:+.0f} %".replace("-", "−")), (line, fs)
    assert sum(v == "best" for cells in shown.values() for v in cells.values()) >= len(shown)
