"""Programs make setup unpacks from pinned packages (run/packages.txt) outside apt's sources:
found first on PATH by every fsatlas command, and working."""
import os
import shutil
import subprocess
from importlib import resources

from fsatlas.run import filesystems, matrix, tools


def test_each_pinned_program_is_found_and_mkfs_hfsplus_makes_a_volume(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", "/usr/sbin:/usr/bin:/sbin:/bin")
    tools.find_pinned_programs()
    lines = [line.split() for line in (resources.files("fsatlas") / "run" / "packages.txt").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    assert lines, "packages.txt pins nothing"
    for name, version, sha256, path, programs in lines:
        assert len(sha256) == 64 and path.endswith(f"{name}_{version}_amd64.deb"), name
        for program in programs.split(","):
            found = shutil.which(os.path.basename(program))
            assert found and os.path.dirname(found) == str(tools.PINNED_PROGRAMS), program
    image = tmp_path / "hfs.img"
    image.write_bytes(b"")
    os.truncate(image, 64 * 2**20)
    done = subprocess.run(["mkfs.hfsplus", str(image)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "HFS Plus volume" in done.stdout, done.stdout + done.stderr
    with open(image, "rb") as f:
        f.seek(1024)
        assert f.read(2) == b"H+"  # the volume header's signature (Apple TN1150)
    # and the availability check no longer names the tool, only (on this host) the kernel
    assert "mkfs.hfsplus" not in filesystems.unavailable_reason("hfsplus", matrix.load().filesystems["hfsplus"])
