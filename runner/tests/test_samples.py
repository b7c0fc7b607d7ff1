"""Outputs that other people's tools wrote (fixtures/samples, each named in SOURCES.md), imported
as a contributor would, checked against figures worked out by hand from the raw text (the
arithmetic is in the comments), and validated: every figure recomputes from its raw file."""
import json

import pytest

from testutil import SAMPLES, edit_member, write_json
from fsatlas.cli import main
from fsatlas.results.validation import reviewed, validate_file
from fsatlas.results import resultfile


def test_every_sample_is_named_with_its_source():
    """SOURCES.md names each file here (folder/name, in backquotes) with where it was published
    or how it was made."""
    sources = (SAMPLES / "SOURCES.md").read_text()
    unnamed = [str(p.relative_to(SAMPLES)) for p in sorted(SAMPLES.rglob("*"))
               if p.is_file() and p.name != "SOURCES.md" and f"`{p.relative_to(SAMPLES)}`" not in sources]
    assert not unnamed, unnamed


def _import(tmp_path, capsys, fmt, *files, extra=()):
    out = tmp_path / "out"
    redact = ("--redact",) if fmt == "bonnie" else ()  # bonnie++'s machine name, a host name (test_tool_host_fields)
    argv = ["import", fmt, *map(str, files), "--filesystem", "ext4", "--out", str(out), *extra, *redact]
    assert main(argv) == 0, capsys.readouterr().err
    (path,) = (out / "results").iterdir()
    assert [p for p in reviewed(validate_file(str(path)), allow_all=True) if p.severity == "error"] == []
    err = capsys.readouterr().err
    return resultfile.readable(json.loads(path.read_text())), err


def _refused(tmp_path, capsys, fmt, file, *words):
    out = tmp_path / "refused"
    assert main(["import", fmt, str(file), "--filesystem", "ext4", "--out", str(out)]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(file) in err and all(w in err for w in words), err
    assert not out.exists() or not any(out.rglob("*.json"))  # nothing written


def _cells(result):
    return {c["parameters"].get("job", c["workload"]): c for c in result["cells"]}


def _sample(cell, metric):
    (value,) = cell["metrics"][metric]["samples"]
    return value


def test_fio_2_1_4_five_jobs_without_options(tmp_path, capsys):
    """fio 2.x: no bw_bytes (bw in KiB/s), latencies in microseconds, no job options."""
    result, _ = _import(tmp_path, capsys, "fio", SAMPLES / "fio" / "fio-2.1.4-perfkit-five-jobs.json")
    cells = _cells(result)
    assert set(cells) == {"sequential_write", "sequential_read", "random_write_test", "random_read_test",
                          "random_read_test_parallel"}  # five jobs, five cells: none merged
    write = cells["sequential_write"]
    assert write["parameters"]["rw"] == "write" and write["parameters"]["bs"] == "not stated"  # from its name
    assert _sample(write, "throughput") == 68118 * 1024  # "bw" : 68118 KiB/s = 69,752,832 B/s
    assert _sample(write, "iops") == 133
    assert _sample(write, "lat_mean_ns") == pytest.approx(478737.47 * 1000)  # lat mean 478737.47 us
    assert _sample(write, "lat_p99_ns") == 823296 * 1000  # clat 99.000000 : 823296 us
    assert "read_throughput" not in write["metrics"]  # the read side did no I/O
    read = cells["sequential_read"]
    assert read["parameters"]["rw"] == "read" and _sample(read, "throughput") == 129836 * 1024
    assert _sample(read, "lat_p50_ns") == 264192 * 1000
    assert cells["random_write_test"]["parameters"]["rw"] == "randwrite"
    assert _sample(cells["random_write_test"], "throughput") == 6443 * 1024
    assert cells["random_read_test_parallel"]["parameters"]["rw"] == "randread"
    assert _sample(cells["random_read_test_parallel"], "iops") == 323
    assert result["tool"]["fio"] == "fio-2.1.4"


def test_fio_3_1_bandwidth_in_kib_and_latencies_in_ns(tmp_path, capsys):
    result, _ = _import(tmp_path, capsys, "fio", SAMPLES / "fio" / "fio-3.1-gvisor-sync-write.json")
    (cell,) = result["cells"]
    assert cell["parameters"]["rw"] == "write" and cell["parameters"]["bs"] == "4k"  # job options: fio's 4096, in one spelling
    assert _sample(cell, "throughput") == 1753471 * 1024  # no bw_bytes before 3.2: 1,795,554,304 B/s
    assert _sample(cell, "iops") == pytest.approx(438367.892977)
    assert _sample(cell, "lat_mean_ns") == pytest.approx(2117.878979)  # lat_ns mean, already ns
    assert _sample(cell, "lat_p999_ns") == 11328  # clat_ns 99.900000
    assert result["tool"]["fio"] == "fio-3.1"


def test_fio_client_server_with_two_groups_sums_each_group(tmp_path, capsys):
    """fio 3.33 wrote one 'All clients' entry, for the last group, holding both groups' figures
    (write 8388608000 beside read 89240510): each group is summed from its clients instead."""
    result, _ = _import(tmp_path, capsys, "fio", SAMPLES / "fio" / "fio-3.33-client-server-two-groups.json")
    cells = _cells(result)
    assert _sample(cells["seq-write"], "throughput") == 4194304000 + 4194304000
    assert _sample(cells["rand-read"], "throughput") == 44620255 + 48489063  # the two clients' read bw_bytes
    assert "write_throughput" not in cells["rand-read"]["metrics"]


def test_fio_a_failed_job_is_a_failed_cell_and_the_rest_import(tmp_path, capsys):
    result, _ = _import(tmp_path, capsys, "fio", SAMPLES / "fio" / "fio-3.33-one-job-fails.json")
    cells = _cells(result)
    failed = cells["write-to-dev-full"]
    assert failed["status"] == "failed" and "error 28" in failed["reason"] and failed["metrics"] == {}
    assert cells["good-write"]["status"] == "ok"
    assert _sample(cells["good-write"], "throughput") == 4194304000  # its bw_bytes


def test_fio_a_report_of_one_failed_job_is_refused(tmp_path, capsys):
    report = json.loads((SAMPLES / "fio" / "fio-3.33-one-job-fails.json").read_text().split("\n", 1)[1])
    report["jobs"] = [j for j in report["jobs"] if j["error"]]
    alone = tmp_path / "failed.json"
    alone.write_text(json.dumps(report))
    _refused(tmp_path, capsys, "fio", alone, "fio job 'write-to-dev-full' ended with error 28")


def test_fio_latencies_gtod_reduce_did_not_measure_are_left_out(tmp_path, capsys):
    result, _ = _import(tmp_path, capsys, "fio", SAMPLES / "fio" / "fio-3.33-gtod-reduce.json")
    (cell,) = result["cells"]
    raw = json.loads((SAMPLES / "fio" / "fio-3.33-gtod-reduce.json").read_text())["jobs"][0]["read"]
    assert raw["lat_ns"]["N"] == 0 and raw["clat_ns"]["N"] == 0
    assert not [m for m in cell["metrics"] if m.startswith("lat_")]  # "N" : 0: not a 0 ns latency
    assert _sample(cell, "throughput") == raw["bw_bytes"]


def test_fio_a_report_cut_short_by_a_signal_is_imported_with_a_note(tmp_path, capsys):
    result, err = _import(tmp_path, capsys, "fio", SAMPLES / "fio" / "fio-3.33-stopped-by-signal.json")
    assert "stopped by signal 2" in result["notes"] and "note: " in err
    (cell,) = result["cells"]
    assert cell["status"] == "ok"


@pytest.mark.parametrize("name,size,seconds", [
    ("dd-9.1-english.txt", 67108864, 0.0546987),    # "copied, 0.0546987 s"
    ("dd-9.1-german.txt", 67108864, 0.0523228),     # "kopiert, 0,0523228 s": a decimal comma
    ("dd-9.1-french.txt", 67108864, 0.0490636),     # "octets (…) copiés, 0,0490636 s"
    ("dd-9.1-spanish.txt", 67108864, 0.0535927),    # es_ES: English words, decimal comma
    ("dd-9.1-portuguese-brazil.txt", 67108864, 0.0465069),
    ("dd-9.1-german-status-progress.txt", 3145728000, 9.59888),  # the progress lines are not runs
    ("dd-old-coreutils.txt", 536870912, 0.61208),   # "(537 MB) copied", first of two runs
    ("dd-9.1-chinese-simplified.txt", 67108864, 0.0428698),  # "输出了 64+0 块记录", "已复制，0.0428698 s，"
    ("dd-9.1-ukrainian.txt", 67108864, 0.0416072),  # "скопійовано 67108864 байтів": the words first
])
def test_dd_in_every_locale(tmp_path, capsys, name, size, seconds):
    result, _ = _import(tmp_path, capsys, "dd", SAMPLES / "dd" / name)
    (cell,) = result["cells"]
    assert cell["metrics"]["throughput"]["samples"][0] == pytest.approx(size / seconds)


@pytest.mark.parametrize("summary,size,seconds", [
    ("1048576 bytes transferred in 0.003190 seconds (328713355 bytes/sec)", 1048576, 0.00319),  # coreutils 5
    ("1048576 bytes transferred in 0.003190 secs (328713355 bytes/sec)", 1048576, 0.00319),  # BSD
    ("1048576 bytes (1.0MB) copied, 0.002851 seconds, 350.7MB/s", 1048576, 0.002851),  # busybox
    ("1 byte copied, 5.2e-05 s, 19.2 kB/s", 1, 5.2e-05),  # too few bytes to abbreviate, %g seconds
    ("1048576 bytes (1049 kB, 1024 KiB) transferred 0.002s, 524 MB/s", 1048576, 0.002),  # FreeBSD 13
    ("1048576 bytes (1.0 M) copied, 0.001 s, 1.0 G/s", 1048576, 0.001),  # toybox (Android)
])
def test_dd_summaries_of_other_dd_programs(tmp_path, capsys, summary, size, seconds):
    run = tmp_path / "dd.txt"
    run.write_text(f"2048+0 records in\n2048+0 records out\n{summary}\n")
    result, _ = _import(tmp_path, capsys, "dd", run)
    assert result["cells"][0]["metrics"]["throughput"]["samples"][0] == pytest.approx(size / seconds)


def test_bonnie_1_03_lines_without_a_format_field(tmp_path, capsys):
    """bonnie++ 1.03's 27 fields: no format or version field (the table above says 1.03b/1.03c),
    no latencies; K/sec is KiB/s."""
    result, _ = _import(tmp_path / "b", capsys, "bonnie", SAMPLES / "bonnie" / "bonnie-1.03b-stdout.txt")
    cells = _cells(result)
    assert result["tool"]["bonnie"] == "bonnie++ 1.03b"
    assert _sample(cells["char-write"], "throughput") == 29266 * 1024  # Per Chr 29266 K/sec
    assert _sample(cells["seq-write"], "throughput") == 42015 * 1024  # Block 42015
    assert _sample(cells["rewrite"], "throughput") == 15601 * 1024
    assert _sample(cells["seq-read"], "throughput") == 30907 * 1024 and _sample(cells["seq-read"], "cpu_total_pct") == 2
    assert _sample(cells["random-seeks"], "iops") == 74.7
    assert cells["bonnie-files-sequential"]["status"] == "skipped"  # all +++++
    assert "lat_max_ns" not in cells["seq-write"]["metrics"]
    result, _ = _import(tmp_path / "c", capsys, "bonnie", SAMPLES / "bonnie" / "bonnie-1.03c-stdout.txt")
    cells = _cells(result)
    assert result["tool"]["bonnie"] == "bonnie++ 1.03c"
    assert _sample(cells["seq-read"], "throughput") == 43981 * 1024 and _sample(cells["char-read"], "cpu_total_pct") == 84
    files = cells["bonnie-files-sequential"]
    assert _sample(files, "create_per_s") == 17923 and files["parameters"]["too_fast_to_measure"] == "seq_stat,seq_del"


def test_bonnie_1_96_and_1_93c_lines_of_48_fields(tmp_path, capsys):
    """bonnie++ 1.96's line as it ran with I/O tests (48 fields, its table above naming each
    column: the layout 1.97 kept), and 1.93c's, the oldest of that layout."""
    result, _ = _import(tmp_path / "96", capsys, "bonnie", SAMPLES / "bonnie" / "bonnie-1.96-stdout.txt")
    cells = _cells(result)
    assert result["tool"]["bonnie"] == "bonnie++ 1.96"
    assert _sample(cells["seq-write"], "throughput") == 47554 * 1024  # Block 47554 K/sec
    assert _sample(cells["seq-write"], "lat_max_ns") == 21760 * 1e6  # Latency 21760ms
    assert _sample(cells["seq-read"], "throughput") == 85261 * 1024 and _sample(cells["random-seeks"], "iops") == 105.5
    files = cells["bonnie-files-sequential"]
    assert _sample(files, "create_per_s") == 4024 and _sample(files, "delete_per_s") == 30207  # stat: +++++
    # each phase's own latency, from the line's last six fields: 338us,390us,463us (sequential
    # create, stat, delete), 359us,58us,518us (random); a stat too fast to rate keeps its latency
    assert [_sample(files, f"{p}_lat_max_ns") for p in ("create", "stat", "delete")] == [338e3, 390e3, 463e3]
    random = cells["bonnie-files-random"]
    assert [_sample(random, f"{p}_lat_max_ns") for p in ("create", "stat", "delete")] == [359e3, 58e3, 518e3]
    assert "lat_max_ns" not in files["metrics"] and _sample(random, "create_per_s") == 15362
    result, _ = _import(tmp_path / "93", capsys, "bonnie", SAMPLES / "bonnie" / "bonnie-1.93c-stdout.txt")
    cells = _cells(result)
    assert result["tool"]["bonnie"] == "bonnie++ 1.93c"
    assert _sample(cells["seq-read"], "throughput") == 566685 * 1024 and _sample(cells["random-seeks"], "iops") == 3144
    assert _sample(cells["char-write"], "lat_max_ns") == 753 * 1e6


def test_bonnie_formats_1_91a_1_92_1_92a_and_1_92b(tmp_path, capsys):
    """The four formats between format 2 (1.90a to 1.91) and 1.93c's, each from its release
    built and run here; the figures read off each CSV line by hand (K/sec is KiB/s)."""
    result, _ = _import(tmp_path / "91", capsys, "bonnie", SAMPLES / "bonnie" / "bonnie-1.91c-stdout.txt")
    cells = _cells(result)  # 1.91a,1.91b,sample-box,1G,,+++++,+++,1102949,47,1397475,46,...,2574.4,13,16,...
    assert result["tool"]["bonnie"] == "bonnie++ 1.91b"  # the 1.91c release prints 1.91b, in format 1.91a
    assert _sample(cells["seq-write"], "throughput") == 1102949 * 1024 and _sample(cells["seq-write"], "cpu_total_pct") == 47
    assert _sample(cells["rewrite"], "throughput") == 1397475 * 1024 and _sample(cells["random-seeks"], "iops") == 2574.4
    assert "throughput" not in cells["char-write"]["metrics"] and _sample(cells["char-write"], "lat_max_ns") == 391e3
    assert _sample(cells["random-seeks"], "lat_max_ns") == 23315e3 and cells["seq-write"]["parameters"]["file_size"] == "1G"
    result, _ = _import(tmp_path / "92", capsys, "bonnie", SAMPLES / "bonnie" / "bonnie-1.92-stdout.txt")
    cells = _cells(result)  # 1.92,1.92,sample-box,1G,,3686,99,1080677,48,1361143,46,5757,99,+++++,+++,2554.9,18,...
    assert _sample(cells["char-write"], "throughput") == 3686 * 1024 and _sample(cells["char-read"], "throughput") == 5757 * 1024
    assert "throughput" not in cells["seq-read"]["metrics"] and _sample(cells["seq-read"], "lat_max_ns") == 4081e3
    assert _sample(cells["random-seeks"], "iops") == 2554.9 and _sample(cells["bonnie-files-sequential"], "create_lat_max_ns") == 4040e3
    result, _ = _import(tmp_path / "92a", capsys, "bonnie", SAMPLES / "bonnie" / "bonnie-1.92a-stdout.txt")
    cells = _cells(result)  # 1.92a,1.92a,sample-box,1795818170,1G,,3850,98,1103671,53,1075928,37,5494,97,+++++,+++,2573.9,...
    assert _sample(cells["char-write"], "throughput") == 3850 * 1024 and _sample(cells["seq-write"], "throughput") == 1103671 * 1024
    assert _sample(cells["random-seeks"], "iops") == 2573.9 and cells["seq-write"]["parameters"]["file_size"] == "1G"
    assert _sample(cells["char-write"], "lat_max_ns") == 3479e3 and _sample(cells["bonnie-files-random"], "create_lat_max_ns") == 188e3
    result, _ = _import(tmp_path / "92b", capsys, "bonnie", SAMPLES / "bonnie" / "bonnie-1.92b-stdout.txt")
    cells = _cells(result)  # 1.92b,1.92b,sample-box,1,1795818165,1G,,3585,98,958456,59,1260824,48,5327,99,+++++,+++,2571,17,...
    assert _sample(cells["seq-write"], "throughput") == 958456 * 1024 and _sample(cells["rewrite"], "throughput") == 1260824 * 1024
    assert _sample(cells["random-seeks"], "iops") == 2571 and _sample(cells["seq-write"], "lat_max_ns") == 3552e3
    assert "sample-box" not in json.dumps(result)  # the name field is a host name


def test_bonnie_1_96_stdout_with_its_table(tmp_path, capsys):
    """47 fields (no chunk size); the table above the CSV line is bonnie++'s own stdout."""
    result, _ = _import(tmp_path, capsys, "bonnie", SAMPLES / "bonnie" / "bonnie-1.96-files-only-stdout.txt")
    cells = {c["workload"]: c for c in result["cells"]}
    assert set(cells) == {"bonnie-files-sequential", "bonnie-files-random"}  # -s 0: no block tests
    seq = cells["bonnie-files-sequential"]["metrics"]
    assert seq["create_per_s"]["samples"] == [1702] and seq["stat_per_s"]["samples"] == [2025]
    assert seq["delete_per_s"]["samples"] == [1332]
    # all four a line, each phase's own: Latency 3874ms 6645ms 8659ms (sequential create, stat,
    # delete) and 505ms 7257ms 9627ms (random), the line's last six fields
    latencies = {kind: [cells[f"bonnie-files-{kind}"]["metrics"][f"{p}_lat_max_ns"]["samples"][0]
                        for p in ("create", "stat", "delete")] for kind in ("sequential", "random")}
    assert latencies == {"sequential": [3874e6, 6645e6, 8659e6], "random": [505e6, 7257e6, 9627e6]}
    assert result["tool"]["bonnie"] == "bonnie++ 1.96"
    assert "fslab3" not in json.dumps(result)  # the name field is a host name


def test_bonnie_2_00_stdout_keeps_latencies_of_tests_too_fast_to_time(tmp_path, capsys):
    result, _ = _import(tmp_path, capsys, "bonnie", SAMPLES / "bonnie" / "bonnie-2.00-full-stdout.txt")
    cells = {c["workload"]: c for c in result["cells"]}
    assert cells["char-write"]["metrics"]["throughput"]["samples"] == [4372 * 1024]  # 4372k
    seq_write = cells["seq-write"]  # put_block +++++, its latency 389us measured
    assert "throughput" not in seq_write["metrics"] and seq_write["metrics"]["lat_max_ns"]["samples"] == [389e3]
    assert seq_write["parameters"]["too_fast_to_measure"] == "put_block,put_block_cpu"


@pytest.mark.parametrize("sample,change,words", [
    ("bonnie-1.97-plus-signs.csv", lambda line: line + ",extra", "exactly 48 comma-separated fields for format 1.97"),
    ("bonnie-1.97-plus-signs.csv", lambda line: line.rsplit(",", 1)[0], "exactly 48 comma-separated fields for format 1.97"),
    # each older layout counts its own fields: 1.92a's seed makes 47, and 1.92's line has 46
    ("bonnie-1.92a-stdout.txt", lambda line: line.rsplit(",", 1)[0], "exactly 47 comma-separated fields for format 1.92a"),
    ("bonnie-1.92-stdout.txt", lambda line: line.replace("1.92,1.92,", "1.92a,1.92,", 1), "exactly 47 comma-separated fields for format 1.92a"),
])
def test_bonnie_a_line_with_a_field_too_many_or_too_few_is_refused(tmp_path, capsys, sample, change, words):
    broken = tmp_path / "broken.csv"
    broken.write_text(change((SAMPLES / "bonnie" / sample).read_text().strip().splitlines()[-1]) + "\n")
    _refused(tmp_path, capsys, "bonnie", broken, f"{broken}:1", words)


def test_iozone_report_of_only_the_spreadsheet_part_is_refused_saying_so(tmp_path, capsys):
    _refused(tmp_path, capsys, "iozone", SAMPLES / "iozone" / "throughput-R-report-only-beegfs.txt",
             "only IOzone's -R spreadsheet report was found")


def test_validate_rechecks_bonnie_stdout_and_catches_a_doubled_figure(tmp_path, capsys):
    result, _ = _import(tmp_path, capsys, "bonnie", SAMPLES / "bonnie" / "bonnie-1.96-files-only-stdout.txt")
    path = next((tmp_path / "out" / "results").iterdir())
    cell = next(c for c in result["cells"] if c["workload"] == "bonnie-files-sequential")
    from fsatlas.results import stats
    cell["metrics"]["create_per_s"] = stats.summarize([1702 * 2], "ops/s", "higher")
    write_json(path, result)
    assert main(["validate", "--allow-private", str(path)]) == 1
    assert "expected 1702 recomputed from raw/" in capsys.readouterr().err


def test_a_raw_file_that_does_not_parse_is_an_error(tmp_path, capsys):
    result, _ = _import(tmp_path, capsys, "dd", SAMPLES / "dd" / "dd-9.1-german.txt")
    edit_member(tmp_path / "out", result["id"], result["cells"][0]["raw"][0], lambda _: b"garbage\n")
    assert main(["validate", str(tmp_path / "out" / "results")]) == 1
    err = capsys.readouterr().err
    assert "error: /cells/0/raw/0: cannot recompute figures" in err and "not the output of a tool" in err


def test_fio_3_16_mixed_job_with_total_latency_percentiles(tmp_path, capsys):
    """randrw under group_reporting, percentiles under lat_ns (lat_percentiles=1), not clat_ns."""
    sample = SAMPLES / "fio" / "fio-3.16-superbench-randrw-lat-percentiles.json"
    result, _ = _import(tmp_path, capsys, "fio", sample)
    (cell,) = result["cells"]
    assert _sample(cell, "read_throughput") == 348743777 and _sample(cell, "write_throughput") == 348450387
    assert _sample(cell, "read_iops") == pytest.approx(85138.890741)
    assert cell["parameters"]["numjobs"] == "4" and cell["parameters"]["iodepth"] == "64"  # global options
    # each side keeps its latencies (the lat_ns percentiles, read from the raw text by hand)
    assert _sample(cell, "read_lat_p99_ns") == 2244608 and _sample(cell, "write_lat_p99_ns") == 2072576
    assert _sample(cell, "read_lat_mean_ns") == pytest.approx(1446562.147113)
    assert _sample(cell, "write_lat_mean_ns") == pytest.approx(1560749.444938)
    # one side alone (the write side emptied): its percentiles come from lat_ns
    report = json.loads(sample.read_text())
    job = report["jobs"][0]
    job["job options"]["rw"] = "randread"
    job["write"] = dict(job["trim"])
    alone = tmp_path / "read-only.json"
    alone.write_text(json.dumps(report))
    result, _ = _import(tmp_path / "alone", capsys, "fio", alone)
    (cell,) = result["cells"]
    assert _sample(cell, "lat_p99_ns") == 2244608 and _sample(cell, "lat_p50_ns") == 1417216


def test_fio_2_17_two_groups_with_options_in_both_places(tmp_path, capsys):
    """fio 2.17: group_reporting and the engine in global options, rw and bs in each job's
    options, two groups; bw in KiB/s, latencies in microseconds; "filename" twice in the
    global options, as that fio wrote it."""
    result, _ = _import(tmp_path, capsys, "fio", SAMPLES / "fio" / "fio-2.17-perfkit-two-groups.json")
    cells = _cells(result)
    read = cells["rand_16k_read_100%-io-depth-1-num-jobs-2"]
    assert read["parameters"]["rw"] == "randread" and read["parameters"]["bs"] == "16k"
    assert read["parameters"]["ioengine"] == "libaio" and read["parameters"]["numjobs"] == "2"
    assert _sample(read, "throughput") == 129386 * 1024  # 132,491,264 B/s
    assert _sample(read, "iops") == pytest.approx(8086.673998)
    assert _sample(read, "lat_mean_ns") == pytest.approx(245.531122 * 1000)  # lat mean, us
    assert _sample(read, "lat_p50_ns") == 96 * 1000 and _sample(read, "lat_p99_ns") == 1352 * 1000
    assert _sample(read, "cpu_sys_pct") == pytest.approx(4.039596)
    write = cells["rand_16k_write_100%-io-depth-1-num-jobs-2"]
    assert write["parameters"]["rw"] == "randwrite" and write["parameters"]["group"] == 1
    assert _sample(write, "throughput") == 39312 * 1024  # 40,255,488 B/s
    assert _sample(write, "lat_mean_ns") == pytest.approx(810.977136 * 1000)
    assert _sample(write, "lat_p999_ns") == 5728 * 1000
    assert result["tool"]["fio"] == "fio-2.17"


def test_fio_3_33_json_plus_with_latency_bins(tmp_path, capsys):
    """json+ adds clat_ns "bins"; the figures are read as from plain json."""
    result, _ = _import(tmp_path, capsys, "fio", SAMPLES / "fio" / "fio-3.33-json-plus.json")
    cells = _cells(result)
    write, read = cells["seq-write"], cells["rand-read"]
    assert write["parameters"]["bs"] == "64k" and read["parameters"]["rw"] == "randread"
    assert _sample(write, "throughput") == 5592405333  # bw_bytes
    assert _sample(read, "throughput") == 74898285 and _sample(read, "iops") == pytest.approx(18285.714286)
    assert _sample(read, "lat_mean_ns") == pytest.approx(54456.921387)  # lat_ns mean
    assert _sample(read, "lat_p99_ns") == 81408 and _sample(read, "lat_p999_ns") == 171008
    assert result["tool"]["fio"] == "fio-3.33"


def test_fio_terse_line_of_fio_1_x_from_fios_own_man_page(tmp_path, capsys):
    """The example line of fio's man page (TERSE OUTPUT): terse version 2 as fio 1.x wrote it,
    20 fields a direction, no IOPS, no percentiles."""
    result, _ = _import(tmp_path, capsys, "fio", SAMPLES / "fio" / "fio-1.x-terse-v2-manpage-example.txt")
    (cell,) = result["cells"]
    assert cell["parameters"]["job"] == "card0" and cell["parameters"]["rw"] == "not stated"
    assert _sample(cell, "read_throughput") == 121836 * 1024  # field 6, KiB/s
    assert _sample(cell, "write_throughput") == 122104 * 1024  # field 26
    assert _sample(cell, "cpu_usr_pct") == pytest.approx(14.595833) and _sample(cell, "cpu_sys_pct") == pytest.approx(19.394167)
    assert "read_iops" not in cell["metrics"]
    assert "fio" not in result["tool"]  # version 2 names no fio version


def test_fio_1_x_and_3_33_terse_lines_import_as_one_file_validate_accepts(tmp_path, capsys):
    """#60 round 28: an import of fio 1.x's terse line (version 2, which states no fio version)
    beside fio 3.33's records fio-3.33, and validate then refused the 1.x report for stating
    none; an import's reports are what its tool wrote. Both import, and the file validates."""
    result, _ = _import(tmp_path, capsys, "fio", SAMPLES / "fio" / "fio-1.x-terse-v2-manpage-example.txt",
                        SAMPLES / "fio" / "fio-3.33-terse-v5.txt")
    assert result["tool"]["fio"] == "fio-3.33" and len(result["cells"]) == 3


def test_fio_terse_version_5(tmp_path, capsys):
    """47 fields a direction (bandwidth samples and IOPS statistics added), trim included."""
    result, _ = _import(tmp_path, capsys, "fio", SAMPLES / "fio" / "fio-3.33-terse-v5.txt")
    cells = _cells(result)
    read, write = cells["rand-read"], cells["seq-write"]
    assert _sample(read, "throughput") == 78019 * 1024 and _sample(read, "iops") == 19504  # fields 7, 8
    assert _sample(read, "lat_mean_ns") == pytest.approx(50.420874 * 1000)  # field 40, microseconds
    assert _sample(read, "lat_p50_ns") == 48 * 1000 and _sample(read, "lat_p99_ns") == 73 * 1000  # "50.000000%=48"
    assert _sample(read, "lat_p999_ns") == 195 * 1000 and _sample(read, "cpu_sys_pct") == pytest.approx(42.105263)
    assert _sample(write, "throughput") == 4096000 * 1024 and _sample(write, "lat_mean_ns") == pytest.approx(8029.621)
    assert result["tool"]["fio"] == "fio-3.33"


def test_fio_terse_version_3_unmeasured_latencies_unified_sides_and_clones(tmp_path, capsys):
    sample = SAMPLES / "fio" / "fio-3.33-terse-v3-gtod-unified-clones.txt"
    # a line per clone: as terse output reads, runs appended to one log; which one is the user's to say
    _refused(tmp_path, capsys, "fio", sample, "lines 3 and 4 are both job 'clones' of group 2", "--terse-lines clones")
    result, _ = _import(tmp_path, capsys, "fio", sample, extra=("--terse-lines", "clones"))
    cells = _cells(result)
    gtod = cells["gtod"]
    assert _sample(gtod, "throughput") == 80313 * 1024 and "lat_mean_ns" not in gtod["metrics"]  # all zeros
    unified = cells["unified"]  # one block (89 fields in all): reads and writes together
    assert _sample(unified, "throughput") == 148945 * 1024 and _sample(unified, "lat_mean_ns") == pytest.approx(26189.015)
    assert _sample(unified, "cpu_sys_pct") == pytest.approx(53.703704)
    clones = cells["clones"]  # numjobs=2: two lines, summed
    assert clones["parameters"]["jobs_in_report"] == 2 and _sample(clones, "throughput") == 2 * 4096000 * 1024


def test_fio_normal_output_is_refused_saying_what_to_run(tmp_path, capsys):
    _refused(tmp_path, capsys, "fio", SAMPLES / "fio" / "fio-3.33-normal-output.txt", "normal output", "--output-format=json")


def test_outputs_saved_as_utf16_or_in_an_8_bit_locale_and_binary_files(tmp_path, capsys):
    """PowerShell's `>` saves fio's report as UTF-16 with a byte order mark; a French dd of an
    ISO-8859-1 locale writes "copiés" with one byte é. Both are read, at import and when
    validate recomputes the figures from the bundle; a binary file is refused saying so."""
    sample = SAMPLES / "fio" / "fio-3.1-gvisor-sync-write.json"
    utf16 = tmp_path / "utf16.json"
    utf16.write_bytes(sample.read_text().encode("utf-16"))
    result, _ = _import(tmp_path / "u", capsys, "fio", utf16)  # _import validates, recomputing
    assert _sample(result["cells"][0], "throughput") == 1753471 * 1024
    latin1 = tmp_path / "dd-fr.txt"
    latin1.write_bytes("16+0 enregistrements lus\n16+0 enregistrements écrits\n"
                       "1048576 octets (1,0 MB, 1,0 MiB) copiés, 0,00123 s, 852 MB/s\n".encode("latin-1"))
    result, _ = _import(tmp_path / "l", capsys, "dd", latin1)
    assert _sample(result["cells"][0], "throughput") == pytest.approx(1048576 / 0.00123)
    binary = tmp_path / "iozone.xls"
    binary.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(600))  # an OLE2 spreadsheet's start
    _refused(tmp_path, capsys, "iozone", binary, "a binary file, not text", "-b spreadsheet")
