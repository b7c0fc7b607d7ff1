"""The rule: a "no" in a probe is only what a tool or the kernel answered when asked. ext2 and
ext3 have no defragmenter of their own, and e4defrag refuses them by their type's name, not by
asking the kernel; so the probe asks the kernel with the request e4defrag sends
(EXT4_IOC_MOVE_EXT), and records its refusal. Beside it: the same request, built the same way,
moves blocks on ext4, so the refusal is the filesystem's and not a malformed request."""
import json
import subprocess

import pytest

from fsatlas.cli import main
from fsatlas.run import probe_tools
from fsatlas.run.probe_findings import Transcript
from testutil import loop_state

pytestmark = pytest.mark.root


def test_ext2_and_ext3_defrag_is_the_kernels_refusal(tmp_path):
    before = loop_state(tmp_path)
    assert main(["probe", "--fs", "ext2,ext3", "--probe", "defrag", "--out", str(tmp_path),
                 "--scratch", str(tmp_path / "scratch"), "--machine", "probe-box"]) == 0
    assert loop_state(tmp_path) == before
    (path,) = (tmp_path / "probes").glob("*.json")
    found = {f["filesystem"]: f for f in json.loads(path.read_text())["findings"] if f["probe"] == "defrag"}
    for fs in ("ext2", "ext3"):
        assert found[fs]["value"] == "no" and "EXT4_IOC_MOVE_EXT" in found[fs]["detail"], found[fs]
        assert "not supported" in found[fs]["detail"] or "Inappropriate ioctl" in found[fs]["detail"]


@pytest.mark.parametrize("fs, moved", [("ext4", True), ("ext3", False)])
def test_the_same_request_moves_blocks_on_ext4_only(tmp_path, fs, moved):
    image, mnt = tmp_path / "hand.img", tmp_path / "hand"
    with open(image, "wb") as f:
        f.truncate(32 << 20)
    subprocess.run([f"mkfs.{fs}", "-q", "-F", str(image)], check=True, capture_output=True)
    mnt.mkdir()
    subprocess.run(["mount", "-o", "loop", str(image), str(mnt)], check=True, capture_output=True)
    try:
        probe_tools._written(str(mnt / "f"))
        finding = probe_tools._move_extents(str(mnt / "f"), Transcript())
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True)
    assert (finding["value"] == "yes") is moved, finding
