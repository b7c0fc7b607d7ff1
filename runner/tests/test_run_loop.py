"""The runner on real loop-mounted filesystems with real fio, dd, mkfs and mount (root)."""
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fsatlas.cli import main
from fsatlas.results import comparison, flags
from fsatlas.run import execution, matrix, target
from fsatlas.run.sizes import parse_size
from fsatlas.run.workloads import fio
from fsatlas.results.validation import validate_file
from testutil import derived_run, loop_state, raw_files, rounds_from_starts, scratch_left, write_derived, write_json
from fsatlas.results.resultfile import readable  # a result file in the read form (schema 2 stores no summaries)

pytestmark = pytest.mark.root

EXPECTED_METRICS = {
    "seq-write": {"throughput", "iops", "lat_p99_ns", "cpu_usr_pct", "cpu_sys_pct"},
    "seq-read": {"throughput", "iops", "lat_p99_ns"},
    "rewrite": {"throughput"},
    "buffered-write": {"throughput", "iops"},
    "rand-read-4k": {"throughput", "iops", "lat_mean_ns"},
    "rand-write-4k": {"throughput", "iops"},
    "concurrent-writers": {"throughput"},
    "tiny-block-write": {"throughput"},
    "small-files": {"create_per_s", "stat_per_s", "read_per_s", "rename_per_s", "delete_per_s", "cpu_sys_pct"},
    "create-files": {"create_per_s", "cpu_usr_pct"},
    "tree-copy": {"seconds", "bytes_used", "cpu_sys_pct"},
    "tree-read": {"read_per_s", "cpu_sys_pct"},
    "mkfs-time": {"seconds", "cpu_sys_pct"},
    "mount-time": {"seconds", "cpu_usr_pct"},
    "fsync-write-4k": {"throughput", "iops", "lat_p99_ns", "sync_lat_p99_ns", "write_sync_lat_mean_ns"},
    "mail-delivery": {"deliveries_per_s", "cpu_sys_pct"},
    "sqlite-commits": {"commits_per_s", "cpu_usr_pct"},
}


def run_cli(tmp_path, *args, profile="tiny"):
    out, scratch = tmp_path / "out", tmp_path / "scratch"
    before = loop_state(tmp_path)
    code = main(["run", "--profile", profile, "--out", str(out), "--scratch", str(scratch),
                 "--machine", "test-box", *args])
    assert code == 0
    assert loop_state(tmp_path) == before, "the run left a loop device or mount behind"
    assert scratch_left(scratch) == [], "the run left files in the scratch directory"
    return out


def only_result(out):
    (path,) = (out / "results").iterdir()
    problems = validate_file(str(path))
    assert [p for p in problems if p.severity == "error"] == []
    # the flags the runner stored are those validate derives (derived again after baseline_after)
    assert [p for p in problems if p.path.endswith("/flags")] == []
    result = readable(json.loads(path.read_text()))
    # a cell's time inside tools and settling the filesystem (syncfs, freezes) is part of its own
    # wall time (make perf's overhead row takes both from it), allowing for rounding each to 1 ms
    for cell in result["cells"]:
        if cell["status"] == "ok" and "tool_seconds" in cell:
            assert 0 <= cell["settle_seconds"] and cell["tool_seconds"] + cell["settle_seconds"] <= cell["wall_seconds"] + 0.002
    return path, result


def test_one_filesystem_every_workload(tmp_path, capsys):
    out = run_cli(tmp_path, "--fs", "ext4")
    _, result = only_result(out)
    assert result["complete"] is True and result["wall_seconds"] > 0
    # each repetition's folder synced before and frozen after its workload: measured apart (the
    # lifecycle workloads, mkfs-time and mount-time, have no folder to settle)
    kinds = {name: w["kind"] for name, w in matrix.load().workloads.items()}
    assert all(c["settle_seconds"] > 0 for c in result["cells"] if c["status"] == "ok" and kinds[c["workload"]] != "lifecycle")
    assert result["system"]["machine"] == "test-box"
    assert result["system"]["kernel"] == os.uname().release
    assert result["tool"]["fio"].startswith("fio-")
    assert result["target"]["kind"] == "loop-image" and result["target"]["loop_direct_io"] is True
    # the storage under the image, as findmnt and sysfs say it (no option naming a path)
    source, fstype, options = subprocess.run(["findmnt", "-n", "-o", "SOURCE,FSTYPE,OPTIONS", "-T", str(tmp_path)],
                                             capture_output=True, text=True, check=True).stdout.split()
    assert result["target"]["backing_filesystem"] == fstype
    assert result["target"]["backing_mount_options"] == ",".join(o for o in options.split(",") if "/" not in o)
    if source.startswith("/dev/"):
        disk = os.path.basename(os.path.realpath(source))
        assert result["target"]["backing_device"] == disk
        rotational = Path(f"/sys/class/block/{disk}/queue/rotational")
        if rotational.exists():
            assert result["target"]["backing_rotational"] == (rotational.read_text().strip() == "1")
    # every O_DIRECT fio cell's own job on the raw device, filled first, before and after the filesystems
    jobs = {flags.baseline_name(c["workload"], c["key"]) for c in result["cells"] if str(c["parameters"].get("direct")) == "1"}
    assert set(result["target"]["baseline"]) == set(result["target"]["baseline_after"]) == jobs
    assert {"rewrite", "concurrent-writers|numjobs=2", "seq-read", "rand-read-4k"} <= jobs
    assert result["target"]["baseline_written"] is True
    assert all(m["throughput"]["mean"] > 0 for m in result["target"]["baseline"].values())
    # each repetition's device counters: an O_DIRECT stream asks for no flush, fdatasync after
    # each of fsync-write-4k's 64 writes asks for one each time. The device's flush counter is not
    # this run's alone: ext4's journal commits (two flushes each on a loop device, which has no
    # FUA) and any process's sync(2), which flushes every filesystem of the machine, count on it
    # too: 5, 16 and 37 in seq-write's three timed parts once, with another test beside it, when
    # the runner still called sync(2) between layout and reading (it syncs only what it measures
    # now: test_sync_scope; other processes on the machine may still). So seq-write is bounded by the flushes
    # its writes would ask (its median below the fewest fsync-write-4k asked in any repetition);
    # the whole repetition also holds the commits of what ran before it
    by_workload = {c["workload"]: c for c in result["cells"]}
    assert all(len(c["device_io"]) == 3 and len(c["host"]) == 3 for c in result["cells"])
    seq, synced = by_workload["seq-write"], by_workload["fsync-write-4k"]
    assert statistics.median(r["flushes"] for r in seq["timed_io"]) < min(r["flushes"] for r in synced["timed_io"]), \
        (seq["timed_io"], synced["timed_io"])
    # the timed part lies inside its repetition: its counters are never above the whole repetition's
    for c in result["cells"]:
        if c["workload"] in ("mkfs-time", "mount-time"):
            assert "timed_io" not in c  # it makes its own filesystem: no counters of one device around it
            continue
        assert len(c["timed_io"]) == 3, c["key"]
        assert all(t[f] <= w[f] for t, w in zip(c["timed_io"], c["device_io"]) for f in t), c["key"]
    assert all(r["flushes"] >= 32 for r in by_workload["fsync-write-4k"]["device_io"])
    # a job whose file fio writes first (a read, or overwrite=1) is laid out before its timed part:
    # a read's timed part writes next to nothing, rewrite's its file once, not twice (#60 round 21)
    for c in result["cells"]:
        if fio.lays_out(c["parameters"]):
            file_sectors = parse_size(c["parameters"]["size"]) // 512
            most = file_sectors // 20 if fio.DIRECTION[c["parameters"]["rw"]] == "read" else file_sectors * 3 // 2
            assert all(t["write_sectors"] < most for t in c["timed_io"]), (c["key"], c["timed_io"], most)
    assert all(r["reads"] > 0 for r in by_workload["seq-read"]["device_io"])
    workloads = {c["workload"] for c in result["cells"]}
    assert workloads == set(EXPECTED_METRICS)
    raws = raw_files(out, result)
    for cell in result["cells"]:
        assert cell["status"] == "ok", (cell["key"], cell.get("reason"))
        assert EXPECTED_METRICS[cell["workload"]] <= set(cell["metrics"]), cell["key"]
        for metric in cell["metrics"].values():
            assert len(metric["samples"]) == 3 and all(v >= 0 for v in metric["samples"])
        assert len(cell["raw"]) == 3 and set(cell["raw"]) <= set(raws)
        if cell["workload"] != "mkfs-time" and cell["workload"] != "mount-time":
            # the matrix's workload_mount: ext4 zeroes no inode table while workloads are timed
            assert {"rw", "noinit_itable"} <= set(cell["effective_mount_options"].split(",")), cell["key"]
    by_key = {c["key"]: c for c in result["cells"]}
    # every fio sample is recomputable from fio's own JSON kept beside the result
    seq = by_key["ext4|-|-|seq-write"]
    for raw, sample in zip(seq["raw"], seq["metrics"]["throughput"]["samples"]):
        assert json.loads(raws[raw])["jobs"][0]["write"]["bw_bytes"] == sample
    assert {"ext4|-|-|small-files|file_size=100", "ext4|-|-|small-files|file_size=10000"} <= set(by_key)
    assert by_key["ext4|-|-|tree-copy"]["metrics"]["bytes_used"]["mean"] > 300 * 1000  # 300 files, ~14 KB each
    dd_raw = raws[by_key["ext4|-|-|tiny-block-write"]["raw"][0]].decode()
    assert "copied" in dd_raw
    assert not (out / "raw" / result["id"]).exists()  # packed into the bundle when the run ended
    shaped_like_it_validate(out, tmp_path, capsys)


def shaped_like_it_validate(out: Path, tmp_path: Path, capsys) -> None:
    """make perf's scale rows are shaped like a result the runner writes now: synthetic results
    shaped like this one are files validate accepts without a word. Those shaped like a run of
    2026-11-30 were refused (#65): their fio reports kept the template's times, and validate bounds
    a run's baseline by its own clock (#60), which each synthetic result moves."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "site"))
    from sitebuild import synthetic_results
    (template,) = (out / "results").iterdir()
    synthetic_results(tmp_path / "synthetic", 3, template=template)
    capsys.readouterr()
    code = main(["validate", "--no-cache", str(tmp_path / "synthetic" / "results")])
    said = capsys.readouterr()
    assert (code, said.out.strip().splitlines()[-1:], said.err) == (0, ["3 files checked: no problems"], ""), said.out[-3000:]


def test_the_baseline_is_measured_on_written_data_like_the_cells(tmp_path):
    """A sparse image reads its holes from nothing (5,592 MB/s against 678 on written data):
    the fill leaves no hole, and the raw device's seq-read is then no more than 1.5x ext4's
    O_DIRECT seq-read on the same kind of image. Not bounded the other way: how much of each
    the host's own cache holds is not the fill's to decide (on one day the raw device read at
    0.52-0.67x of ext4, whose file had just been written, in 6 of 10 runs, within 1.5x in the other 4)."""
    size = 64 << 20
    with target.LoopImage(str(tmp_path / "holes"), size) as image:
        with open(image.image, "rb") as f:
            assert os.lseek(f.fileno(), 0, os.SEEK_HOLE) == 0  # a fresh image is one hole
        execution.fill_device(image.device, str(tmp_path / "fill.json"), 60)
        with open(image.image, "rb") as f:
            assert os.lseek(f.fileno(), 0, os.SEEK_HOLE) == size  # none left
    out = run_cli(tmp_path, "--fs", "ext4", "--workload", "seq-read")
    _, result = only_result(out)
    raw = result["target"]["baseline"]["seq-read"]["throughput"]["mean"]
    fs = next(c for c in result["cells"] if c["key"] == "ext4|-|-|seq-read")["metrics"]["throughput"]["mean"]
    assert raw / fs <= 1.5, (raw, fs)


def test_all_five_filesystems(tmp_path):
    out = run_cli(tmp_path, "--workload", "seq-write,small-files,mount-time")
    _, result = only_result(out)
    by_fs = {}
    for cell in result["cells"]:
        by_fs.setdefault(cell["filesystem"], []).append(cell)
    assert sorted(by_fs) == ["btrfs", "ext2", "ext3", "ext4", "xfs"]
    for fs, cells in by_fs.items():
        for cell in cells:
            assert cell["status"] == "ok", (fs, cell["key"], cell.get("reason"))
    xfs = [c for c in by_fs["xfs"] if c["workload"] == "seq-write"][0]
    assert "logbufs=" in xfs["effective_mount_options"]  # read back from /proc/self/mounts


EXT4_SEQ_WRITE = """
filesystems:
  ext4: {mkfs: [mkfs.ext4, -F, -q]}
workloads:
  seq-write: {kind: fio, primary: throughput, fio: {rw: write, bs: 1M, direct: 1, ioengine: libaio}}
"""  # the start of a small matrix of the tests' own


def test_option_variants_and_a_rejected_mount_option(tmp_path):
    matrix = tmp_path / "matrix.yaml"
    matrix.write_text(EXT4_SEQ_WRITE + """variants:
  journal: {filesystems: [ext4], mount: [data=journal], workloads: [seq-write]}
  bogus: {filesystems: [ext4], mount: [data=fastest], workloads: [seq-write]}
  aligned: {filesystems: [ext4], mkfs: [-E, "stride=16,stripe-width=64"], striped: true, workloads: [seq-write]}
profiles:
  p: {image_size: 256M, repetitions: 3, filesystems: [ext4], variants: all, workloads: {seq-write: {size: 8M}}}
""")
    out = run_cli(tmp_path, "--matrix", str(matrix), profile="p")
    _, result = only_result(out)
    cells = {c["variant"]: c for c in result["cells"]}
    assert cells["journal"]["status"] == "ok"
    assert "data=journal" in cells["journal"]["effective_mount_options"]
    assert cells["bogus"]["status"] == "failed"
    assert "mount" in cells["bogus"]["reason"] and "data=fastest" in cells["bogus"]["reason"]
    assert cells["aligned"]["status"] == "ok" and cells["aligned"]["flags"][:1] == ["not-striped"]
    assert cells["defaults"]["status"] == "ok"


def test_filesystem_the_kernel_lacks_is_a_recorded_skip(tmp_path):
    out = run_cli(tmp_path, "--fs", "jfs,reiserfs,f2fs", "--workload", "seq-write", profile="standard")
    _, result = only_result(out)
    assert {c["filesystem"] for c in result["cells"]} == {"jfs", "reiserfs", "f2fs"}
    for cell in result["cells"]:
        assert cell["status"] == "skipped" and cell["filesystem"] in cell["reason"]
        assert cell["metrics"] == {} and cell["raw"] == []
    # nothing to judge by the raw device: no baseline job was run for them
    assert not result["target"].get("baseline") and not result["target"].get("baseline_after")


def test_ntfs_through_fuse(tmp_path):
    out = run_cli(tmp_path, "--fs", "ntfs", "--workload", "seq-write,tiny-block-write", profile="tiny")
    _, result = only_result(out)
    for cell in result["cells"]:
        assert cell["status"] == "ok", cell.get("reason")
        assert cell["driver"] == "fuse"
        assert cell["metrics"]["throughput"]["mean"] > 0


def test_resume_reruns_only_unfinished_cells(tmp_path):
    out = run_cli(tmp_path, "--fs", "ext4", "--workload", "seq-write,create-files")
    path, result = only_result(out)
    kept = result["cells"][0]
    result["cells"][1].update(status="failed", reason="interrupted", metrics={}, raw=[])
    result["complete"] = False
    write_json(path, result)
    run_cli(tmp_path, "--fs", "ext4", "--workload", "seq-write,create-files", "--resume", result["id"])
    _, resumed = only_result(out)
    assert resumed["id"] == result["id"] and resumed["complete"] is True
    assert resumed["cells"][0] == kept  # not redone
    assert resumed["cells"][1]["status"] == "ok" and resumed["cells"][1]["metrics"]["create_per_s"]["mean"] > 0


def test_directory_mode_measures_an_existing_folder_and_deletes_only_its_own(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "keep.txt").write_text("not fsatlas's")
    out = tmp_path / "out"
    assert main(["run", "--profile", "tiny", "--directory", str(folder), "--out", str(out),
                 "--workload", "seq-write,create-files,mkfs-time"]) == 0
    assert sorted(os.listdir(folder)) == ["keep.txt"]
    _, result = only_result(out)
    assert result["target"]["kind"] == "directory"
    cells = {c["workload"]: c for c in result["cells"]}
    assert cells["seq-write"]["status"] == "ok" and cells["create-files"]["status"] == "ok"
    assert cells["mkfs-time"]["status"] == "skipped"


def test_compare_two_runs(tmp_path, capsys):
    out = run_cli(tmp_path, "--fs", "ext4", "--workload", "create-files")
    path, result = only_result(out)
    # another run half as fast, made from this one's raw output (each figure of its records halved, its
    # samples recomputed from them, as validate requires): its own id (one run named on both sides is
    # refused), each repetition its own factor (a copy of A's figures would make it A's run:
    # comparison.shared_print) and its own time (two files of one machine at once are one run:
    # comparison.ran_at_once)
    doc = derived_run(path, f"{result['id']}-b", 1, lambda key, j: 0.5 * (1 + (j - 1) / 1e5))
    b = write_derived(tmp_path / "b", doc)
    capsys.readouterr()
    assert main(["compare", str(path), str(b)]) == 0
    line = [l for l in capsys.readouterr().out.splitlines() if "create_per_s" in l][0]
    # one run a side: the ratio, never a verdict (the run is the unit across files: comparison.design)
    assert "0.500" in line and "not tested (one run per side" in line and "worse" not in line
    assert main(["compare", str(path), str(path)]) == 1  # a run compared with itself


def test_sigterm_mid_run_tears_everything_down(tmp_path):
    out, scratch = tmp_path / "out", tmp_path / "scratch"
    before = loop_state(tmp_path)
    proc = subprocess.Popen([sys.executable, "-m", "fsatlas.cli", "run", "--profile", "tiny", "--fs", "ext4,xfs",
                             "--workload", "seq-write,seq-read", "--out", str(out), "--scratch", str(scratch)],
                            stderr=subprocess.PIPE, text=True)
    seen = ""
    deadline = time.monotonic() + 60
    while "xfs" not in seen and time.monotonic() < deadline:  # wait until the second group runs
        seen += proc.stderr.readline()
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=120)
    assert proc.returncode == 130
    assert loop_state(tmp_path) == before
    assert scratch_left(scratch) == []
    path, result = only_result(out)
    assert result["complete"] is False
    assert [c["status"] for c in result["cells"] if c["filesystem"] == "ext4"] == ["ok"] * 2
    assert {c["status"] for c in result["cells"] if c["filesystem"] == "xfs"} == {"failed"}


def test_interleaved_variants_alternate_their_repetitions(tmp_path):
    """With interleave, a variant and its baseline run in rounds, one repetition of each a round,
    on two fresh images of one size; each sample's start time records the order, which changes
    from round to round (issue 60: no cell first in every round) and is the one the result's
    round_seed gives."""
    matrix = tmp_path / "matrix.yaml"
    matrix.write_text(EXT4_SEQ_WRITE + """  mail-delivery: {kind: maildelivery, primary: deliveries_per_s, flushes: per-operation}
variants:
  noatime: {filesystems: [ext4], mount: [noatime], workloads: [seq-write, mail-delivery]}
profiles:
  p: {image_size: 256M, repetitions: 3, interleave: true, filesystems: [ext4], variants: all,
      workloads: {seq-write: {size: 8M}, mail-delivery: {messages: 20}}}
""")
    out = run_cli(tmp_path, "--matrix", str(matrix), profile="p")
    _, result = only_result(out)
    cells = {c["key"]: c for c in result["cells"]}
    assert all(c["status"] == "ok" for c in cells.values())
    for workload in ("seq-write", "mail-delivery"):
        a, b = cells[f"ext4|-|noatime|{workload}"], cells[f"ext4|-|-|{workload}"]
        assert len(a["started"]) == len(b["started"]) == 3
        keys = [a["key"], b["key"]]
        rounds = rounds_from_starts(result, keys)
        assert [sorted(r) for r in rounds] == [sorted(keys)] * 3, rounds  # one repetition of each a round
        assert 0 < [r[0] for r in rounds].count(a["key"]) < 3, rounds  # first in some rounds, second in others
        assert comparison.interleaved(a["started"], b["started"]) and comparison.interleaved(b["started"], a["started"])
        assert rounds == [execution.round_order(keys, r, result["round_seed"]) for r in range(3)]
    assert "noatime" in cells["ext4|-|noatime|seq-write"]["effective_mount_options"]
    assert "noatime" not in cells["ext4|-|-|seq-write"]["effective_mount_options"].split(",")


def test_an_interrupt_between_a_raw_file_and_its_cell_leaves_no_orphan(tmp_path):
    """The race test_sigint_mid_run_then_resume once hit: Ctrl-C after a repetition wrote its
    raw file, before its cell took it (or a baseline job's first report, before the job took its
    figures). What is packed is what validate reads: the cells' raw files, the reports of the
    baseline's jobs and its fill record."""
    from types import SimpleNamespace
    from fsatlas.run import execution
    rid = "20261125T000000Z-m-race"
    top = tmp_path / "raw" / rid
    for rel in ("ext4__-__-__seq-write/rep-1.json", "ext4__-__-__seq-read/rep-1.json", "baseline/fill.json",
                "baseline/seq-read/rep-1.json", "baseline/rand-read-4k/rep-1.json"):
        (top / rel).parent.mkdir(parents=True, exist_ok=True)
        (top / rel).write_text("{}")
    measured = {"throughput": {"samples": [1.0]}}
    run = SimpleNamespace(out=str(tmp_path), result={"id": rid, "target": {"baseline": {"seq-read": measured}}, "cells": [
        {"status": "ok", "raw": [f"raw/{rid}/ext4__-__-__seq-write/rep-1.json"]},
        {"status": "failed", "raw": []}]})  # seq-read's rep 1 was written, then Ctrl-C
    execution._drop_unreferenced_raw(run)
    left = sorted(str(p.relative_to(top)) for p in top.rglob("*.json"))
    assert left == ["baseline/fill.json", "baseline/seq-read/rep-1.json", "ext4__-__-__seq-write/rep-1.json"]
