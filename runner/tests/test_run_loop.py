"""The runner on real loop-mounted filesystems with real fio (root)."""
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from testutil import loop_state
from fsatlas.cli import main
from fsatlas.validation import validate_file

pytestmark = pytest.mark.root


def run_tiny(tmp_path, *extra):
    out, scratch = tmp_path / "out", tmp_path / "scratch"
    before = loop_state()
    code = main(["run", "--profile", "tiny", "--out", str(out), "--scratch", str(scratch),
                 "--machine", "test-box", *extra])
    assert code == 0
    assert loop_state() == before, "the run left a loop device or mount behind"
    assert not os.listdir(scratch), "the run left files in the scratch directory"
    (path,) = (out / "results").iterdir()
    assert [p for p in validate_file(str(path)) if p.severity == "error"] == []
    return out, json.loads(path.read_text())


def test_one_filesystem_every_workload(tmp_path):
    out, result = run_tiny(tmp_path, "--fs", "ext4")
    assert result["complete"] is True and result["wall_seconds"] > 0
    assert result["system"]["machine"] == "test-box"
    assert result["system"]["kernel"] == os.uname().release
    assert result["tool"]["fio"].startswith("fio-")
    assert result["target"]["kind"] == "loop-image" and result["target"]["loop_direct_io"] is True
    assert [c["workload"] for c in result["cells"]] == ["seq-write", "seq-read", "rand-read-4k", "rand-write-4k"]
    for cell in result["cells"]:
        assert cell["status"] == "ok", cell.get("reason")
        assert "rw" in cell["effective_mount_options"].split(",")
        tp = cell["metrics"]["throughput"]
        assert len(tp["samples"]) == 3 and all(v > 0 for v in tp["samples"])
        assert cell["metrics"]["lat_p99_ns"]["mean"] > 0
        # every sample is recomputable from fio's own JSON kept beside the result
        for raw, sample in zip(cell["raw"], tp["samples"]):
            report = json.loads((out / raw).read_text())
            side = "read" if "read" in cell["parameters"]["rw"] else "write"
            assert report["jobs"][0][side]["bw_bytes"] == sample


def test_all_five_filesystems(tmp_path):
    _, result = run_tiny(tmp_path, "--workload", "seq-write,rand-read-4k")
    by_fs = {}
    for cell in result["cells"]:
        by_fs.setdefault(cell["filesystem"], []).append(cell)
    assert sorted(by_fs) == ["btrfs", "ext2", "ext3", "ext4", "xfs"]
    for fs, cells in by_fs.items():
        for cell in cells:
            assert cell["status"] == "ok", (fs, cell.get("reason"))
    xfs = by_fs["xfs"][0]["effective_mount_options"]
    assert "logbufs=" in xfs  # read back from /proc/self/mounts, not typed in


def test_filesystem_the_kernel_lacks_is_a_recorded_skip(tmp_path):
    matrix = tmp_path / "matrix.yaml"
    matrix.write_text("""
filesystems:
  nofs: {mkfs: [mkfs.ext4, -F, -q], kernel_fs: fsatlas-no-such-fs}
  ext4: {mkfs: [mkfs.ext4, -F, -q]}
workloads:
  seq-write: {kind: fio, measures_disk: true, fio: {rw: write, bs: 1M, direct: 1, ioengine: libaio}}
profiles:
  p: {image_size: 256M, repetitions: 3, filesystems: [nofs, ext4], workloads: {seq-write: {size: 16M}}}
""")
    out = tmp_path / "out"
    assert main(["run", "--matrix", str(matrix), "--profile", "p", "--out", str(out),
                 "--scratch", str(tmp_path / "s")]) == 0
    (path,) = (out / "results").iterdir()
    cells = {c["filesystem"]: c for c in json.loads(path.read_text())["cells"]}
    assert cells["nofs"]["status"] == "skipped"
    assert "fsatlas-no-such-fs" in cells["nofs"]["reason"]
    assert cells["nofs"]["metrics"] == {} and cells["nofs"]["raw"] == []
    assert cells["ext4"]["status"] == "ok"


def test_sigterm_mid_run_tears_everything_down(tmp_path):
    out, scratch = tmp_path / "out", tmp_path / "scratch"
    before = loop_state()
    proc = subprocess.Popen([sys.executable, "-m", "fsatlas.cli", "run", "--profile", "tiny", "--fs", "ext4,xfs",
                             "--out", str(out), "--scratch", str(scratch)],
                            stderr=subprocess.PIPE, text=True)
    seen = ""
    deadline = time.monotonic() + 60
    while "xfs" not in seen and time.monotonic() < deadline:  # wait until the second group runs
        seen += proc.stderr.readline()
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=120)
    assert proc.returncode == 130
    assert loop_state() == before
    assert not os.listdir(scratch)
    (path,) = (out / "results").iterdir()
    result = json.loads(path.read_text())
    assert result["complete"] is False
    assert [c["status"] for c in result["cells"] if c["filesystem"] == "ext4"] == ["ok"] * 4
    assert [p for p in validate_file(str(path)) if p.severity == "error"] == []
