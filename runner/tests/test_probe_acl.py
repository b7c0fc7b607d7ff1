"""The ACL entry probe where the default mount keeps no ACL: ntfs-3g keeps POSIX ACLs only with its
acl option (ntfs-3g(8)), so the probe mounts the image again with it, finds the limit and records
the option. The limit is checked against a hand count made here without the probe's code: a
mount of its own (ntfs-3g -o acl on an image file), setfacl at the limit and one entry above, and
getfacl. The FUSE of Linux 6.12 passes a POSIX ACL to any daemon in at most one page (fs/fuse/acl.c,
fuse_set_acl: posix_acl_xattr_size(count) > PAGE_SIZE is E2BIG): 4 bytes of header and 8 an
entry, (4096 - 4) // 8 = 511 entries on 4 KiB pages; that of 6.1 passed ntfs-3g a plain xattr."""
import json
import os
import subprocess

import pytest
from hypothesis import given, settings, strategies as st

from fsatlas.cli import main
from fsatlas.results import bundle, probefile
from fsatlas.run import filesystems, matrix, probe_findings, probes, target
from testutil import loop_state, scratch_left

pytestmark = pytest.mark.root

BASE = "user::rw-\ngroup::r--\nmask::r--\nother::---\n"


def _set(spec_file, target_file, named: int) -> subprocess.CompletedProcess:
    """setfacl of the 4 base entries and `named` named users, all at once, on a new file."""
    with open(spec_file, "w") as f:
        f.write(BASE + "".join(f"user:{200000 + i}:r--\n" for i in range(named)))
    open(target_file, "w").close()
    return subprocess.run(["setfacl", f"--set-file={spec_file}", target_file], capture_output=True, text=True)


def _read_back(path) -> int:
    out = subprocess.run(["getfacl", "-n", "--omit-header", path], capture_output=True, text=True, check=True).stdout
    return sum(1 for line in out.splitlines() if line.strip() and not line.startswith("#"))


@pytest.fixture
def ntfs_with_acl(tmp_path):
    """An NTFS image file mounted by ntfs-3g with its acl option: the hand count's own mount."""
    if filesystems.unavailable_reason("ntfs", matrix.load().filesystems["ntfs"]):
        pytest.skip("ntfs-3g is not installed")
    image, mnt = tmp_path / "hand.img", tmp_path / "hand"
    with open(image, "wb") as f:
        f.truncate(16 << 20)
    subprocess.run(["mkntfs", "-F", "-Q", "-q", str(image)], capture_output=True, check=True)
    mnt.mkdir()
    subprocess.run(["ntfs-3g", "-o", "acl", str(image), str(mnt)], capture_output=True, check=True)
    try:
        yield mnt
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True)


def test_the_ntfs_3g_acl_limit_is_the_hand_count_with_the_acl_option(tmp_path, ntfs_with_acl):
    out, scratch = tmp_path / "out", tmp_path / "scratch"
    assert main(["probe", "--fs", "ntfs", "--probe", "acl_max_entries,max_filename_length", "--out", str(out),
                 "--scratch", str(scratch), "--machine", "probe-box"]) == 0
    assert loop_state(tmp_path / "out") == ([], []) and scratch_left(scratch) == []
    (path,) = probefile.files(str(out))
    assert probefile.problems(path) == []
    data = json.loads(open(path, encoding="utf-8").read())
    found = {f["probe"]: f for f in data["findings"]}
    acl = found["acl_max_entries"]
    assert acl["status"] == "ok" and acl["unit"] == "entries" and not acl["at_least"], acl
    limit = acl["limit"]
    # the option is in the finding, with what the default mount did, and the refusal one above
    assert "with the mount option acl (off by default: without it setfacl was accepted, but getfacl read back 3 " \
           "entries" in acl["detail"] and "Argument list too long" in acl["detail"], acl
    # the transcript: the default mount dropped the entry, the acl mount kept it, and the default came back
    text = bundle.read(str(out / "probes"), data["id"])["ntfs/acl_max_entries.txt"].decode()
    mounts = [line for line in text.splitlines() if line.startswith(("$ mount ", "$ umount "))]
    assert [m.split()[1] for m in mounts] == ["umount", "mount", "umount", "mount"], mounts
    assert " -t ntfs-3g -o acl " in mounts[1] and " -o " not in mounts[3], mounts
    # the probe after it ran on the default mount as before: 255 UTF-16 units (ntfs-3g's own, any option)
    assert found["max_filename_length"]["limit"] == 255
    # the hand count on a mount of its own: the limit is taken and read back whole, one more refused
    hand_spec = tmp_path / "hand-spec"
    at = _set(hand_spec, ntfs_with_acl / "at", limit - 4)
    assert at.returncode == 0 and _read_back(ntfs_with_acl / "at") == limit, at.stderr
    above = _set(hand_spec, ntfs_with_acl / "above", limit - 3)
    assert above.returncode != 0 and "Argument list too long" in above.stderr, above
    # the kernel's rule (fs/fuse/acl.c of 6.12, read; 6.18 measured alike): one page of 4 + 8 bytes an entry
    if tuple(int(x) for x in os.uname().release.split(".")[:2]) >= (6, 12):
        assert limit == (os.sysconf("SC_PAGE_SIZE") - 4) // 8

    @settings(max_examples=12, deadline=None, database=None)
    @given(st.integers(min_value=1, max_value=limit - 4))
    def below(named):  # any count under the limit, not chosen here, is kept entry for entry
        target_file = ntfs_with_acl / f"below-{named}"
        done = _set(hand_spec, target_file, named)
        assert done.returncode == 0 and _read_back(target_file) == named + 4, done.stderr
        os.unlink(target_file)
    below()


def test_a_refused_mount_option_is_told_in_the_kernels_words_and_the_image_mounted_again(tmp_path):
    """MountAgain, which the ACL probe mounts with (ntfs3 without CONFIG_NTFS3_FS_POSIX_ACL refuses
    acl): a refused option comes back in the kernel's own words and the default mount is made
    again; an accepted one is in effect until the default is asked for again."""
    spec = matrix.load().filesystems["ext4"]
    with target.LoopImage(str(tmp_path / "scratch"), 64 << 20) as image:
        filesystems.mkfs(spec, image.device, [])
        filesystems.mount(spec, image.device, image.mountpoint, [])
        log = probe_findings.Transcript()
        again = probes.MountAgain(spec, image, ["fsatlas_no_such_option"])
        refused = again(again.options, log)
        assert "fsatlas_no_such_option" in refused and filesystems.is_mounted(image.mountpoint), refused
        assert "fsatlas_no_such_option" not in filesystems.effective_options(image.mountpoint)
        assert again(["noatime"], log) == "" and "noatime" in filesystems.effective_options(image.mountpoint)
        assert again((), log) == "" and "noatime" not in filesystems.effective_options(image.mountpoint)
        assert log.text().count("$ umount ") == 3
        filesystems.unmount(image.mountpoint)
    assert loop_state(tmp_path) == ([], [])
