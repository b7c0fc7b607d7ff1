"""The result tables fsatlas renders as HTML: every value escaped, shown as the reader wrote it."""
from testutil import table_rows
from fsatlas.site import result_tables

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

    row = {"filesystem": EVIL, "workload": "seq-write", "variant": EVIL, "mkfs": EVIL, "mount": EVIL,
           "status": "ok", "reason": "", "flags": [EVIL], "n": 3, "shown": SHOWN}
    html = result_tables.throughput_table([row, {**row, "status": "skipped", "reason": EVIL}])
    assert "<script" not in html and "<img" not in html
    assert table_rows(html) == [[EVIL, "seq-write", EVIL, f"{EVIL} / {EVIL}", "1.0 MB/s", "0.9 MB/s – 1.1 MB/s",
                                 "5.0 %", "3", f"ok {EVIL}", "", ""],
                                [EVIL, "seq-write", EVIL, f"{EVIL} / {EVIL}", "", f"skipped: {EVIL}", ""]]


def test_each_throughput_row_shows_the_raw_device_on_its_own_job_and_the_host():
    key = "ext4|-|-|seq-read"
    result = {"target": {"baseline_written": True,
                         "baseline": {"seq-read": {"throughput": {"mean": 742e6, "rsd_pct": 1.2}},
                                      "rewrite": {"throughput": {"mean": 600e6, "rsd_pct": 9.0}}}},
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
