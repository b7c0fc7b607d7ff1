"""Importers against real outputs of the real tools, produced here on a loop mount (root)."""
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from fsatlas.run import filesystems, leftovers, target
from testutil import SAMPLES, raw_files, write_json
from fsatlas.cli import main
from fsatlas.results.validation import reviewed, validate_file
from fsatlas.results.resultfile import readable  # a result file in the read form (schema 2 stores no summaries)

pytestmark = pytest.mark.root
EXT4 = {"mkfs": ["mkfs.ext4", "-F", "-q"]}


@pytest.fixture(scope="module")
def mounted(tmp_path_factory):
    scratch = tmp_path_factory.mktemp("import-scratch")
    with target.LoopImage(str(scratch), 512 * 2**20) as image:
        filesystems.mkfs(EXT4, image.device, [])
        filesystems.mount(EXT4, image.device, image.mountpoint, [])
        yield image.mountpoint


def imported(tmp_path, capsys, *argv):
    out = tmp_path / "out"
    redact = ["--redact"] if argv[0] == "bonnie" else []  # bonnie++'s machine name, a host name (test_tool_host_fields)
    assert main(["import", *argv, "--filesystem", "ext4", "--this-machine", "--machine", "importer", "--out", str(out), *redact]) == 0
    (path,) = (out / "results").iterdir()
    # Public samples carry what their authors' machines wrote (a home folder in IOzone's command
    # line): privacy findings are a maintainer's call (test_a_public_sample_s_home_folder_is_found).
    assert [p for p in reviewed(validate_file(str(path)), allow_all=True) if p.severity == "error"] == []
    capsys.readouterr()
    return out, readable(json.loads(path.read_text()))


def test_a_public_sample_s_home_folder_is_refused_at_import_or_redacted(tmp_path, capsys):
    """IOzone prints its command line, a home folder in this public sample: the import refuses
    with the line and the option that redacts, and writes nothing; with --redact the kept raw
    output has [redacted] there, the result records it, validate passes, figures unchanged."""
    sample = SAMPLES / "iozone" / "auto-mode-ramdisk-2010.txt"
    refused = tmp_path / "refused"
    assert main(["import", "iozone", str(sample), "--filesystem", "ext4", "--out", str(refused)]) == 1
    err = capsys.readouterr().err
    assert f"{sample}: the result would not pass validate: /cells/0/raw/0: private:" in err
    assert "line 4 looks like a user's home folder ('/home/ngupta')" in err and "--redact" in err
    assert "line 1 looks like a host name ('vflare')" in err
    assert sorted(p.name for p in refused.rglob("*")) == []  # nothing written, not even a temporary folder
    out, result = imported(tmp_path, capsys, "iozone", str(sample), "--redact")
    (path,) = (out / "results").iterdir()
    assert [p for p in validate_file(str(path)) if p.severity == "error"] == []
    (text,) = raw_files(out, result).values()
    line = text.decode().splitlines()[3]
    assert "[redacted]" in line and "ngupta" not in line and "/home/" not in line
    # and the host name in IOzone's "Machine = Linux vflare 2.6.34 ..." (uname -a's nodename)
    machine = text.decode().splitlines()[0]
    assert machine.startswith("        Machine = Linux [redacted] 2.6.34 ") and "vflare" not in text.decode()
    raw = result["cells"][0]["raw"][0]
    assert result["redactions"] == [{"raw": raw, "what": "a host name", "count": 1},
                                    {"raw": raw, "what": "a user's home folder", "count": 1}]
    original = sample.read_text().splitlines()
    assert [l for l in text.decode().splitlines() if l not in original] == [machine, line]  # those lines alone changed


JOBS = """
[global]
directory={dir}
size=16M
ioengine=psync
[seq-write]
rw=write
bs=1M
numjobs=2
[random-read]
rw=randread
bs=4k
runtime=1
time_based=1
[mixed]
rw=randrw
bs=4k
runtime=1
time_based=1
"""


def run_fio(directory, job, tmp_path, name, *extra):
    jobfile = tmp_path / f"{name}.fio"
    jobfile.write_text(job.format(dir=directory))
    done = subprocess.run(["fio", *extra, str(jobfile)], capture_output=True, text=True, check=True)
    output = tmp_path / f"{name}.json"
    output.write_text(done.stdout)
    return output


def test_fio_clones_of_a_job_sum_and_each_job_is_a_cell(mounted, tmp_path, capsys):
    runs = [run_fio(mounted, JOBS, tmp_path, f"run{i}", "--output-format=json") for i in (1, 2)]
    out, result = imported(tmp_path, capsys, "fio", *map(str, runs))
    cells = {c["parameters"]["rw"]: c for c in result["cells"]}
    assert set(cells) == {"write", "randread", "randrw"}
    assert {c["parameters"]["job"] for c in result["cells"]} == {"seq-write", "random-read", "mixed"}
    write = cells["write"]
    assert write["parameters"]["jobs_in_report"] == 2
    for run, sample in zip(runs, write["metrics"]["throughput"]["samples"]):
        jobs = [j for j in json.loads(run.read_text()[run.read_text().find("{"):])["jobs"] if j["jobname"] == "seq-write"]
        assert len(jobs) == 2 and sample == sum(j["write"]["bw_bytes"] for j in jobs)  # numjobs clones summed
    assert len(write["metrics"]["throughput"]["samples"]) == 2
    assert "lat_p99_ns" not in write["metrics"]  # percentiles of two jobs cannot be combined
    assert "lat_p99_ns" in cells["randread"]["metrics"]
    mixed = cells["randrw"]["metrics"]
    assert {"read_throughput", "write_throughput", "read_iops", "write_iops"} <= set(mixed)
    assert "throughput" not in mixed
    assert {r for c in result["cells"] for r in c["raw"]} <= set(raw_files(out, result))


def test_fio_json_plus_with_group_reporting(mounted, tmp_path, capsys):
    run = run_fio(mounted, JOBS.replace("[global]", "[global]\ngroup_reporting=1\nstonewall=1"), tmp_path, "gr",
                  "--output-format=json+")
    _, result = imported(tmp_path, capsys, "fio", str(run), "--workload", "grouped")
    assert result["cells"] and all(c["status"] == "ok" for c in result["cells"])
    assert all(c["metrics"][next(iter(c["metrics"]))]["mean"] > 0 for c in result["cells"])


def test_fio_notes_before_the_json(tmp_path, capsys):
    run = tmp_path / "noted.json"
    sample = run_fio(tmp_path, "[w]\ndirectory={dir}\nrw=write\nbs=64k\nsize=4M\n", tmp_path, "w", "--output-format=json")
    run.write_text("note: both iodepth >= 1 and synchronous I/O engine are selected, queue depth will be capped at 1\n"
                   + sample.read_text())
    _, result = imported(tmp_path, capsys, "fio", str(run))
    assert result["cells"][0]["metrics"]["throughput"]["mean"] > 0


def test_fio_messages_after_the_json_are_read_past_and_a_second_report_refused(tmp_path, capsys):
    sample = run_fio(tmp_path, "[w]\ndirectory={dir}\nrw=write\nbs=64k\nsize=4M\n", tmp_path, "w", "--output-format=json")
    run = tmp_path / "closing.json"
    run.write_text(sample.read_text() + "fio: file hash not empty on exit\n")  # as 2>&1 captures it
    _, result = imported(tmp_path, capsys, "fio", str(run))
    assert result["cells"][0]["metrics"]["throughput"]["mean"] > 0
    twice = tmp_path / "twice.json"
    twice.write_text(sample.read_text() * 2)  # two runs appended to one file
    assert main(["import", "fio", str(twice), "--filesystem", "ext4", "--out", str(tmp_path / "t")]) == 1
    err = capsys.readouterr().err
    assert "a second JSON document at line" in err and "one fio report a file" in err and len(err.splitlines()) == 1


def test_fio_client_server_counts_all_clients_once(tmp_path, capsys):
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(["fio", f"--server=ip:127.0.0.1,{port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        import time
        time.sleep(1)
        job = tmp_path / "cs.fio"
        (tmp_path / "cs").mkdir()
        job.write_text(f"[w]\ndirectory={tmp_path / 'cs'}\nrw=write\nbs=1M\nsize=8M\n")
        client = f"--client=ip:127.0.0.1,{port}"
        done = subprocess.run(["fio", client, client, "--output-format=json", str(job)], capture_output=True,
                              text=True, timeout=120, check=True)
    finally:
        server.terminate()
        server.wait(timeout=10)
    report_path = tmp_path / "cs.json"
    report_path.write_text(done.stdout)
    report = json.loads(done.stdout[done.stdout.find("{"):])
    total = next(j for j in report["client_stats"] if j["jobname"] == "All clients")["write"]["bw_bytes"]
    _, result = imported(tmp_path, capsys, "fio", str(report_path))
    (cell,) = result["cells"]
    assert cell["metrics"]["throughput"]["samples"] == [total]


def test_fio_report_quoted_down_to_its_all_clients_entry(tmp_path, capsys):
    """People quote a client/server report's sum alone (fio 2.x's units, one mixed side under
    unified_rw_reporting, no CPU figures): that entry is the measurement; a CPU share it lacks
    is left out, not stored as 0 %. It keeps the counts its rates come from (io_bytes, runtime,
    total_ios: importers/fio.check_sides); a quote without its runtime is refused there."""
    mixed = {"io_bytes": 2021176, "bw": 16653, "iops": 2252.49, "total_ios": 273369,
             "lat": {"min": 431, "max": 3781314, "mean": 1782.92, "stddev": 19405.44}}
    report = {"fio version": "fio-2.6", "global options": {"unified_rw_reporting": "1"}, "client_stats": [
        {"jobname": "All clients", "groupid": 0, "error": 0, "mixed": mixed}]}
    path = tmp_path / "quoted.json"
    path.write_text(json.dumps(report))
    assert main(["import", "fio", str(path), "--filesystem", "ext4", "--out", str(tmp_path / "no")]) == 1
    assert capsys.readouterr().err.strip().endswith("/client_stats/0/mixed/runtime: runtime is missing; "
                                                    "expected a number from 0 to 1e+18, as fio writes for each "
                                                    "direction of a job")
    mixed["runtime"] = 121367  # ms: 2,021,176 KiB at 16,653 KiB/s
    path.write_text(json.dumps(report))
    _, result = imported(tmp_path, capsys, "fio", str(path))
    (cell,) = result["cells"]
    metrics = {name: m["mean"] for name, m in cell["metrics"].items()}
    # 16,653 KiB/s x 1,024 = 17,052,672 B/s; 1,782.92 us = 1,782,920 ns
    assert metrics == {"throughput": 17052672.0, "iops": 2252.49, "lat_mean_ns": 1782920.0}
    assert result["tool"]["fio"] == "fio-2.6"


def test_bonnie_csv_from_a_real_run(mounted, tmp_path, capsys):
    runs = []
    for i in (1, 2):
        done = subprocess.run(["bonnie++", "-d", mounted, "-s", "256:4k", "-r", "128", "-n", "1", "-u", "root", "-q"],
                              capture_output=True, text=True, timeout=600, check=True)
        path = tmp_path / f"bonnie{i}.csv"
        path.write_text(done.stdout)
        runs.append(path)
    _, result = imported(tmp_path, capsys, "bonnie", *map(str, runs))
    cells = {c["workload"]: c for c in result["cells"]}
    line = runs[0].read_text().splitlines()[0].split(",")
    assert line[0] == "1.98"
    for workload, cell in cells.items():
        if cell["status"] == "ok":
            assert all(v >= 0 for m in cell["metrics"].values() for v in m["samples"])
        else:
            assert "+++++" in cell["reason"] and cell["metrics"] == {}
    columns = {"char-write": 9, "seq-write": 11, "rewrite": 13, "char-read": 15, "seq-read": 17}  # format 1.98
    lines = [run.read_text().splitlines()[0].split(",") for run in runs]
    checked = 0
    for workload, column in columns.items():
        if all(other[column].strip("+") for other in lines):  # both runs timed it
            assert cells[workload]["metrics"]["throughput"]["samples"] == [float(o[column]) * 1024 for o in lines]  # K/s = KiB/s
            checked += 1
        else:  # +++++ in a run: no throughput (not every run measured it), the latencies both measured kept
            assert "throughput" not in cells[workload]["metrics"]
            assert workload in cells and "+++++" not in json.dumps(cells[workload]["metrics"])
    assert checked
    assert "vm" not in json.dumps(result["cells"])  # bonnie++'s host name field is never imported
    assert result["system"]["machine"] == "importer"


def test_dd_summary_lines(mounted, tmp_path, capsys):
    logs = []
    for i in (1, 2, 3):
        done = subprocess.run(["dd", "if=/dev/zero", f"of={mounted}/dd{i}", "bs=32", "count=20000", "conv=fsync"],
                              capture_output=True, text=True, check=True)
        path = tmp_path / f"dd{i}.txt"
        path.write_text(done.stderr)
        logs.append(path)
    _, result = imported(tmp_path, capsys, "dd", *map(str, logs), "--workload", "tiny-block-write")
    (cell,) = result["cells"]
    assert cell["workload"] == "tiny-block-write" and len(cell["metrics"]["throughput"]["samples"]) == 3
    import re
    size, seconds = re.search(r"^(\d+) bytes .*copied, ([0-9.]+) s", logs[0].read_text(), re.M).groups()
    assert cell["metrics"]["throughput"]["samples"][0] == pytest.approx(int(size) / float(seconds))


def test_dd_summary_in_every_translation_of_this_coreutils(tmp_path):
    """Each language this machine's coreutils is translated into (LANGUAGE picks the words,
    C.UTF-8 needs no generated locale): the byte count is bs x count, and the seconds are
    positive and no more than the wall time around dd."""
    import glob
    import time
    from fsatlas.results.dd_output import parse_summary
    languages = sorted(p.split("/")[-3] for p in glob.glob("/usr/share/locale/*/LC_MESSAGES/coreutils.mo"))
    assert len(languages) > 20, languages
    for language in languages:
        began = time.monotonic()
        done = subprocess.run(["dd", "if=/dev/zero", f"of={tmp_path / 'out'}", "bs=4k", "count=64"], check=True,
                              capture_output=True, text=True, env={"LANGUAGE": language, "LC_ALL": "C.UTF-8"})
        wall = time.monotonic() - began
        size, seconds = parse_summary(done.stderr)
        assert size == 64 * 4096 and 0 < seconds <= wall, (language, done.stderr)


@pytest.mark.parametrize("fmt,text,message", [
    ("fio", "this is not json", "no JSON document"),
    ("fio", '{"jobs": []}', "no jobs"),
    ("fio", '{"jobs": [{"jobname": "x"}]}', "read and write"),
    ("fio", ";".join((SAMPLES / "fio" / "fio-3.33-terse-v3-gtod-unified-clones.txt").read_text().split(";")[:60]),
     "expected a terse version 3 line"),  # cut short in its second block
    ("fio", "3;fio-3.33;job;0;0;" + ";".join(["x"] * 125) + "\n", "field 6; expected a number, found 'x'"),
    ("bonnie", "hello,world\n", "no bonnie++ CSV line"),
    ("bonnie", "1.98,2.00a,h,1,1,1M,,8192,5,abc" + "," * 40 + "\n", "expected a number or +++++"),
    ("bonnie", "2,1.90f,h,2G,,478740,99" + "," * 10 + "\n", "exactly 45 comma-separated fields for format 2"),
    ("dd", "nothing to see\n", "no dd summary line"),
    ("iozone", "Output is in kBytes/sec\n", "no IOzone results"),
    ("iozone", "      kB  reclen   write\n   16384   4   100   999999\n", "lines up with no column"),
])
def test_broken_inputs_are_clear_errors(tmp_path, capsys, fmt, text, message):
    path = tmp_path / "broken.txt"
    path.write_text(text)
    assert main(["import", fmt, str(path), "--filesystem", "ext4", "--out", str(tmp_path / "o")]) == 1
    err = capsys.readouterr().err
    assert message in err and "broken.txt" in err and "Traceback" not in err
    assert not (tmp_path / "o" / "results").exists()  # nothing half-written


def test_system_file_is_validated(tmp_path, capsys):
    system = tmp_path / "system.yaml"
    system.write_text("system: {kernel: 6.1.0, os: Debian 12, cpu_model: x, cpu_count: many, memory_bytes: 1, virtualization: none}\n")
    log = tmp_path / "dd.txt"
    log.write_text("640000 bytes (640 kB, 625 KiB) copied, 0.5 s, 1.3 MB/s\n")
    assert main(["import", "dd", str(log), "--filesystem", "ext4", "--system", str(system), "--out", str(tmp_path / "o")]) == 1
    err = capsys.readouterr().err
    assert "system.yaml" in err and "/system/cpu_count" in err


def test_a_system_file_brings_no_raw_device_figures(tmp_path, capsys):
    """validate recomputes target.baseline from the runner's fio reports, which an import has
    none of: refused at the system file, not after the import as a validate failure."""
    system = tmp_path / "system.yaml"
    system.write_text("system: {kernel: 6.1.0, os: Debian 12, cpu_model: x, cpu_count: 4, memory_bytes: 1, virtualization: none}\n"
                      "target: {kind: directory, baseline: {seq-write: {}}}\n")
    log = tmp_path / "dd.txt"
    log.write_text("640000 bytes (640 kB, 625 KiB) copied, 0.5 s, 1.3 MB/s\n")
    assert main(["import", "dd", str(log), "--filesystem", "ext4", "--system", str(system), "--out", str(tmp_path / "o")]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"fsatlas import: {system}: /target/baseline: expected the machine's facts only") and "\n" not in err
    assert not (tmp_path / "o").exists()


def test_iozone_table_lines_figures_up_with_their_columns(tmp_path, capsys):
    _, result = imported(tmp_path, capsys, "iozone", str(SAMPLES / "iozone" / "single-test-ssd-2009.txt"))
    cells = {c["workload"]: c for c in result["cells"]}
    # -i 0 -i 2: write, rewrite, random read, random write; the blank read columns are not tests
    assert sorted(cells) == ["rand-read", "rand-write", "rewrite", "seq-write"]
    assert cells["rand-write"]["metrics"]["throughput"]["samples"] == [11304 * 1024]  # IOzone's kB is KiB
    assert cells["rand-read"]["metrics"]["throughput"]["samples"] == [24719 * 1024]
    assert cells["seq-write"]["parameters"] == {"file_size_kib": 16384, "record_kib": 4}


def test_iozone_auto_mode_gives_a_cell_per_record_and_file_size(tmp_path, capsys):
    _, result = imported(tmp_path, capsys, "iozone", str(SAMPLES / "iozone" / "auto-mode-ramdisk-2010.txt"), "--redact")
    assert len(result["cells"]) == 7 * 9  # 7 rows, 9 tests each
    by_key = {c["key"]: c for c in result["cells"]}
    cell = by_key["ext4|-|-|stride-read|record_kib=1024,file_size_kib=1048576"]
    assert cell["metrics"]["throughput"]["samples"] == [734151 * 1024]
    assert by_key["ext4|-|-|backward-read|record_kib=512,file_size_kib=1048576"]["metrics"]["throughput"]["mean"] \
        == 1093451 * 1024


def test_iozone_throughput_mode_kb_and_ops(tmp_path, capsys):
    _, result = imported(tmp_path, capsys, "iozone", str(SAMPLES / "iozone" / "throughput-mode-beegfs.txt"))
    cells = {c["workload"]: c for c in result["cells"]}
    assert sorted(cells) == ["reread", "rewrite", "seq-read", "seq-write"]  # the -R report is not counted twice
    assert cells["seq-write"]["metrics"]["throughput"]["samples"] == [pytest.approx(477185.91 * 1024)]
    assert cells["seq-write"]["parameters"] == {"processes": 1, "record_kib": 4}
    _, result = imported(tmp_path / "ops", capsys, "iozone", str(SAMPLES / "iozone" / "throughput-mode-ops-beegfs.txt"))
    cells = {c["workload"]: c for c in result["cells"]}
    assert cells["seq-read"]["metrics"] == {"iops": cells["seq-read"]["metrics"]["iops"]}
    assert cells["seq-read"]["metrics"]["iops"]["samples"] == [1994.33]


def test_iozone_raw_file_is_checked_against_the_summary(tmp_path, capsys):
    out, result = imported(tmp_path, capsys, "iozone", str(SAMPLES / "iozone" / "single-test-ssd-2009.txt"))
    path = out / "results" / f"{result['id']}.json"
    result["cells"][0]["metrics"]["throughput"]["samples"] = [1.0]
    result["cells"][0]["metrics"]["throughput"].update(mean=1.0, median=1.0, ci95=[1.0, 1.0])
    write_json(path, result)
    problems = [p for p in validate_file(str(path)) if p.severity == "error"]
    assert any("recomputed from" in p.message for p in problems)


def test_published_bonnie_and_dd_samples(tmp_path, capsys):
    _, result = imported(tmp_path, capsys, "bonnie", str(SAMPLES / "bonnie" / "bonnie-1.97-plus-signs.csv"))
    cells = {c["workload"]: c for c in result["cells"]}
    assert cells["seq-write"]["metrics"]["throughput"]["samples"] == [761540 * 1024]
    # getc is +++++ (too fast to time); its latency column says 3599us: 3,599,000 ns, kept
    char_read = cells["char-read"]
    assert char_read["status"] == "ok" and "throughput" not in char_read["metrics"]
    assert char_read["metrics"]["lat_max_ns"]["samples"] == [3599 * 1000]
    assert char_read["parameters"]["too_fast_to_measure"] == "getc,getc_cpu"
    assert cells["bonnie-files-sequential"]["metrics"]["create_lat_max_ns"]["samples"] == [848 * 1000]
    assert "Jacob" not in json.dumps(result)  # bonnie++'s name field is a host name: never imported
    _, result = imported(tmp_path / "dd", capsys, "dd", str(SAMPLES / "dd" / "dd-old-coreutils.txt"))
    (cell,) = result["cells"]
    assert cell["metrics"]["throughput"]["samples"] == [pytest.approx(536870912 / 0.61208),
                                                        pytest.approx(536870912 / 0.515241)]


def test_bonnie_1_90_and_1_91_format_2(tmp_path, capsys):
    """bonnie++ 1.90f and 1.91, built from their source and run here: format 2, 45 fields. The
    figures below are read off their CSV lines by hand."""
    _, result = imported(tmp_path / "f", capsys, "bonnie", str(SAMPLES / "bonnie" / "bonnie-1.90f-stdout.txt"))
    assert result["tool"]["bonnie"] == "bonnie++ 1.90f"
    cells = {c["workload"]: c for c in result["cells"]}
    assert cells["char-write"]["metrics"]["throughput"]["samples"] == [478740 * 1024]
    assert cells["seq-write"]["metrics"]["throughput"]["samples"] == [508465 * 1024]
    assert cells["seq-write"]["metrics"]["cpu_total_pct"]["samples"] == [77]
    assert cells["seq-write"]["metrics"]["lat_max_ns"]["samples"] == [528 * 1000]
    assert cells["rewrite"]["metrics"]["throughput"]["samples"] == [1645369 * 1024]
    assert cells["char-read"]["metrics"]["throughput"]["samples"] == [475400 * 1024]
    assert "throughput" not in cells["seq-read"]["metrics"]  # +++++
    # 1.90f's seeks column, 690142, is the 2 GiB file's KiB over the seek test's time: left out
    seeks = cells["random-seeks"]
    assert "iops" not in seeks["metrics"] and "1.90f" in seeks["parameters"]["seeks_left_out"]
    assert seeks["metrics"]["cpu_total_pct"]["samples"] == [3] and seeks["metrics"]["lat_max_ns"]["samples"] == [2838 * 1000]
    assert cells["bonnie-files-random"]["metrics"]["create_lat_max_ns"]["samples"] == [1677 * 1000]
    assert all("seeks_left_out" not in c["parameters"] for c in result["cells"] if c["workload"] != "random-seeks")
    _, result = imported(tmp_path / "g", capsys, "bonnie", str(SAMPLES / "bonnie" / "bonnie-1.91-stdout.txt"))
    cells = {c["workload"]: c for c in result["cells"]}
    assert cells["random-seeks"]["metrics"]["iops"]["samples"] == [2616.8]  # 1.91 prints seeks per second
    assert cells["seq-write"]["metrics"]["throughput"]["samples"] == [1344716 * 1024]
    assert cells["bonnie-files-sequential"]["metrics"]["create_lat_max_ns"]["samples"] == [1695 * 1000]
    assert "sample-box" not in json.dumps(result["cells"])  # the name field is a host name: never imported


def test_a_figure_only_a_later_bonnie_run_measured_keeps_its_unit(tmp_path, capsys):
    """The first run printed +++++ (too fast to time) where the second printed a number."""
    text = (SAMPLES / "bonnie" / "bonnie-1.97-plus-signs.csv").read_text()
    first, second = tmp_path / "1.csv", tmp_path / "2.csv"
    first.write_text(text)
    second.write_text(text.replace("+++++", "1234", 1))
    _, result = imported(tmp_path / "out", capsys, "bonnie", str(first), str(second))
    assert all(m["unit"] for c in result["cells"] for m in c["metrics"].values())
    # char-read: throughput in the second run only, latency in both: only what every run measured is kept
    (char_read,) = [c for c in result["cells"] if c["workload"] == "char-read"]
    assert set(char_read["metrics"]) == {"lat_max_ns"} and len(char_read["metrics"]["lat_max_ns"]["samples"]) == 2


@pytest.mark.parametrize("unified", ["1", "both"])
def test_fio_unified_rw_reporting_is_read_as_fio_reported_it(mounted, tmp_path, capsys, unified):
    """unified_rw_reporting=1: fio reports reads and writes together as one "mixed" side, the
    cell's plain throughput; =both: read and write as well, which are kept (mixed is their sum)."""
    job = "[global]\ndirectory={dir}\nsize=8M\nbs=4k\ndirect=1\n[together]\nrw=randrw\n"
    raw = run_fio(mounted, job, tmp_path, "unified", "--output-format=json", f"--unified_rw_reporting={unified}")
    report = json.loads(raw.read_text())["jobs"][0]
    out, result = imported(tmp_path, capsys, "fio", str(raw))
    (cell,) = result["cells"]
    if unified == "1":
        assert "read" not in report and cell["metrics"]["throughput"]["samples"] == [report["mixed"]["bw_bytes"]]
    else:
        assert cell["metrics"]["read_throughput"]["samples"] == [report["read"]["bw_bytes"]]
        assert cell["metrics"]["write_throughput"]["samples"] == [report["write"]["bw_bytes"]]
        assert not any(name.startswith("mixed") for name in cell["metrics"])
    assert [p for p in validate_file(str(next((out / "results").iterdir()))) if p.severity == "error"] == []


def test_a_bonnie_output_naming_its_machine_imports_only_redacted(tmp_path, capsys):
    """bonnie++ prints the machine's name on three lines; a redacted import keeps every figure."""
    sample = SAMPLES / "bonnie" / "bonnie-1.96-stdout.txt"
    named = tmp_path / "named.txt"
    named.write_text(sample.read_text().replace("rakku", "alice-laptop.example.lan"))
    assert main(["import", "bonnie", str(named), "--filesystem", "ext4", "--out", str(tmp_path / "no")]) == 1
    assert "looks like a host name ('alice-laptop.example.lan')" in capsys.readouterr().err
    _, plain = imported(tmp_path / "plain", capsys, "bonnie", str(sample))
    _, redacted = imported(tmp_path / "redacted", capsys, "bonnie", str(named), "--redact")
    assert redacted["redactions"][0]["what"] == "a host name" and redacted["redactions"][0]["count"] == 3
    assert [c["metrics"] for c in redacted["cells"]] == [c["metrics"] for c in plain["cells"]]


def test_outputs_larger_than_a_bundle_holds_are_refused_before_anything_is_written(tmp_path, capsys, monkeypatch):
    """Every input is kept in the result's bundle, which unpacks to at most bundle.MAX_TOTAL_BYTES
    (validate's bounds): more is one line naming the inputs, not a validate failure after the import."""
    from fsatlas.results import bundle
    sample = SAMPLES / "fio" / "fio-3.33-json-plus.json"
    monkeypatch.setattr(bundle, "MAX_TOTAL_BYTES", 2 * sample.stat().st_size - 1)
    assert main(["import", "fio", str(sample), str(sample), "--filesystem", "ext4", "--out", str(tmp_path / "o")]) == 1
    err = capsys.readouterr().err.strip()
    assert f"outputs of {2 * sample.stat().st_size:,} bytes in all" in err and "\n" not in err
    assert not (tmp_path / "o").exists()


def test_a_staging_folder_an_import_left_when_killed_is_removed_by_the_next_and_ignored_by_git(tmp_path, capsys):
    """The rule: an import stages in out/fsatlas-<pid>-import-*, marked with its process; the
    next import into out removes such a folder whose process is gone, says so, and leaves one
    whose process lives (another import at work); git ignores the pattern (#65 round 55: a
    killed import left a hidden folder that nothing named). Killed for real: SIGKILL while
    the process holds its staging folder."""
    out = tmp_path / "data"
    out.mkdir()
    code = ("import os, sys; from fsatlas.run import leftovers; print(leftovers.owned_dir(sys.argv[1], 'import-'), "
            "flush=True); os.kill(os.getpid(), 9)")
    killed = subprocess.run([sys.executable, "-c", code, str(out)], capture_output=True, text=True)
    assert killed.returncode == -signal.SIGKILL
    dead = killed.stdout.strip()
    alive = leftovers.owned_dir(str(out), "import-")  # this process's: an import still at work
    assert main(["import", "iozone", str(SAMPLES / "iozone" / "auto-mode-ramdisk-2010.txt"), "--filesystem", "ext4",
                 "--redact", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert not os.path.exists(dead) and f"removed {dead}" in err
    assert os.path.isdir(alive) and alive not in err
    assert sorted(p.name for p in out.iterdir()) == sorted(["raw", "results", os.path.basename(alive)])
    repo = Path(__file__).resolve().parents[2]
    ignored = subprocess.run(["git", "-C", str(repo), "check-ignore", "-q", f"data/{os.path.basename(dead)}/raw/x"])
    assert ignored.returncode == 0


def _clock(monkeypatch, tick: int) -> None:
    """import_'s clock from 2026-12-01 12:00:00 UTC, moving tick seconds at each reading."""
    import datetime as real
    from types import SimpleNamespace
    from fsatlas.commands import import_
    now = [real.datetime(2026, 12, 1, 12, 0, 0) - real.timedelta(seconds=tick)]

    class Clock(real.datetime):
        @classmethod
        def now(cls, tz=None):
            now[0] += real.timedelta(seconds=tick)
            return now[0].replace(tzinfo=tz)
    monkeypatch.setattr(import_, "dt", SimpleNamespace(**{**vars(real), "datetime": Clock}))


def test_an_import_never_replaces_another_result_of_its_id(tmp_path, capsys, monkeypatch):
    """The rule: an import writes a result file only where none of its id is, or where the one
    there holds the same bytes (the same import again); an id is the second, the label, the tool
    and the outputs' digest, so the same output imported as xfs in the second it was imported as
    ext4 would take ext4's file (#65 round 55: it did, silently). The clock is held at one second."""
    _clock(monkeypatch, tick=0)  # every import in one second
    out = tmp_path / "data"
    sample = str(SAMPLES / "iozone" / "auto-mode-ramdisk-2010.txt")

    def imported(filesystem):
        return main(["import", "iozone", sample, "--filesystem", filesystem, "--redact", "--out", str(out)])
    assert imported("ext4") == 0
    capsys.readouterr()
    (written,) = (out / "results").iterdir()
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert imported("xfs") == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "already there" in err and str(out) in err, err
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    assert imported("ext4") == 0  # the same import again: the same bytes, kept
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


@pytest.mark.parametrize("labels", [("Box1", "box1"), ("lab-A", "LAB-a")])
def test_an_import_never_writes_an_id_that_differs_from_one_there_only_in_case(tmp_path, capsys, monkeypatch, labels):
    """The rule: an import leaves its folder one that validate accepts: an id differing from one
    there only in case (--machine Box1, then box1, in one second) is refused in one line, the
    folder as it was (round 58: both were written and validate refused the folder)."""
    _clock(monkeypatch, tick=0)  # every import in one second
    out = tmp_path / "data"
    sample = str(SAMPLES / "dd" / "dd-old-coreutils.txt")

    def imported(label):
        return main(["import", "dd", sample, "--filesystem", "ext4", "--this-machine", "--machine", label,
                     "--out", str(out)])
    assert imported(labels[0]) == 0
    capsys.readouterr()
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert imported(labels[1]) == 1
    err = capsys.readouterr().err
    # the same output under a label of other case: its runs are in the folder already, which is
    # said first (import_._not_imported_before); the id's case alone where that result is unread
    assert err.count("\n") == 1 and ("only in case" in err or "a run imported already" in err), err
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    assert main(["validate", str(out / "results")]) == 0


@pytest.mark.parametrize("figure", ["-5", "1e400"])
def test_a_result_an_import_would_refuse_is_refused_naming_the_input_and_the_place(tmp_path, capsys, figure):
    """The rule (round 58): a refusal names the file the user gave and the place, never the
    result's file, which is not written: bonnie++'s block write of -5 or 1e400 KiB/s (no figure a
    double holds: refused at the input's line and field, before any result is made)."""
    text = (SAMPLES / "bonnie" / "bonnie-1.97-plus-signs.csv").read_text().replace("761540", figure, 1)
    source = tmp_path / "bonnie.csv"
    source.write_text(text)
    out = tmp_path / "data"
    assert main(["import", "bonnie", str(source), "--filesystem", "ext4", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    place = "put_block: line 1" if figure == "1e400" else "/cells/0/metrics/"
    assert err.count("\n") == 1 and err.startswith(f"fsatlas import: {source}: ") and place in err, err
    assert not (out / "results").exists() or not list((out / "results").iterdir())


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cpu=st.sampled_from(["AMD EPYC 7763", "Intel Xeon Gold 6130", "Apple M2"]), cores=st.integers(1, 128))
def test_a_system_file_without_a_label_gets_one_from_its_facts(tmp_path_factory, cpu, cores):
    """The rule (round 58): an import's --system file without a machine label (and no --machine)
    is labelled from its own facts: the same facts one label, other facts another, never this
    machine's label (it named another machine's facts)."""
    from fsatlas.commands import import_
    from fsatlas.run import system
    tmp = tmp_path_factory.mktemp("sys")
    labels = []
    for n in (cores, cores, cores + 1):
        path = tmp / f"s{n}-{len(labels)}.yaml"
        facts = {k: v for k, v in system.collect_system(None).items() if k != "machine"}  # every fact a file gives
        path.write_text(yaml.safe_dump({"system": {**facts, "cpu_model": cpu, "cpu_count": n}}))
        labels.append(import_._system(str(path), None, False, "d")[0]["machine"])
    assert labels[0] == labels[1] != labels[2] and system.default_machine_label() not in labels


@pytest.mark.parametrize("second", ["ext4", "xfs"])
def test_outputs_imported_before_are_refused_a_second_later(tmp_path, capsys, monkeypatch, second):
    """The rule (round 58): one output is imported once into a folder: a second later (another
    id, the same label, tool and outputs' digest), as the same or another filesystem, it is
    refused naming the result it became, which stays as it was."""
    _clock(monkeypatch, tick=1)  # each import a second after the one before
    out = tmp_path / "data"
    sample = str(SAMPLES / "dd" / "dd-old-coreutils.txt")
    assert main(["import", "dd", sample, "--filesystem", "ext4", "--out", str(out)]) == 0
    (first,) = (out / "results").iterdir()
    capsys.readouterr()
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert main(["import", "dd", sample, "--filesystem", second, "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "imported already" in err and str(first) in err, err
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
