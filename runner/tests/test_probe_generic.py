"""The generic probes (run/probes_generic.py, and the generic quota and compression fallbacks of
run/probe_tools.py) on ext4, XFS and Btrfs on this kernel, each answer checked against the
kernel's documented behaviour: the limits are the kernel's constants (fs/ext4/ext4.h
EXT4_LINK_MAX 65000, fs/btrfs/ctree.h BTRFS_LINK_MAX 65535), FIDEDUPERANGE is implemented by
XFS (with reflink, mkfs.xfs's default since xfsprogs 5.1) and Btrfs and not by ext4 (ioctl_fideduperange(2):
EOPNOTSUPP), fscrypt by ext4 made with -O encrypt and not by XFS or Btrfs (fscrypt.rst lists
ext4, F2FS, UBIFS and CephFS), statx's btime by all three, and 2038 and nanoseconds held by
ext4's 256-byte inodes, XFS and Btrfs (ext4.rst "Inode Timestamps"; xfs bigtime); an overwritten
block moves on Btrfs (btrfs(5): data copy-on-write unless nodatacow) and stays put on ext4 and XFS;
a 60-byte file's data is inline on ext4 made with -O inline_data (ext4(5)) and on Btrfs (max_inline,
btrfs(5)), and in a block of its own on XFS, which keeps only directories and symbolic links in the
inode; a name may hold any byte but NUL and '/' on all three (path_resolution(7)), where ntfs-3g,
which keeps names in UTF-16, refuses bytes that are no UTF-8 (libntfs-3g/unistr.c: EILSEQ)."""
import json

import pytest

from fsatlas.cli import main
from fsatlas.results import probefile
from testutil import loop_state, scratch_left

# one worker runs them (--dist loadgroup): their module's fixture is then made once, not once a worker
pytestmark = [pytest.mark.root, pytest.mark.xdist_group("probe-generic")]
GENERIC = ("sparse_files", "deduplication", "hard_link_limit", "creation_time", "encryption", "timestamp_range",
           "year_2038", "timestamp_resolution", "compression", "quota_user_group", "quota_project", "copy_on_write",
           "inline_data", "any_byte_names", "extents", "delayed_allocation", "tail_packing")


@pytest.fixture(scope="module")
def found(tmp_path_factory):
    out = tmp_path_factory.mktemp("generic")
    scratch = out / "scratch"
    assert main(["probe", "--fs", "ext4,xfs,btrfs", "--probe", ",".join(GENERIC), "--out", str(out),
                 "--scratch", str(scratch), "--machine", "probe-box"]) == 0
    assert loop_state(out) == ([], []) and scratch_left(scratch) == []
    (path,) = probefile.files(str(out))
    assert probefile.problems(path) == []
    data = json.loads(open(path, encoding="utf-8").read())
    # the record names the package of every program its transcripts ran: stat (coreutils), chattr (e2fsprogs), mount
    assert {"coreutils", "e2fsprogs", "mount"} <= set(data["tool"]), data["tool"]
    return {(f["filesystem"], f["probe"]): f for f in data["findings"]}


def _answer(finding):
    return finding.get("value", finding.get("limit"))


@pytest.mark.parametrize("fs,probe,expected", [
    ("ext4", "sparse_files", "yes"), ("xfs", "sparse_files", "yes"), ("btrfs", "sparse_files", "yes"),
    ("ext4", "deduplication", "no"), ("xfs", "deduplication", "yes"), ("btrfs", "deduplication", "yes"),
    ("ext4", "hard_link_limit", 65000), ("btrfs", "hard_link_limit", 65535),
    ("ext4", "creation_time", "yes"), ("xfs", "creation_time", "yes"), ("btrfs", "creation_time", "yes"),
    ("ext4", "encryption", "yes"), ("xfs", "encryption", "no"), ("btrfs", "encryption", "no"),
    ("ext4", "year_2038", "yes"), ("xfs", "year_2038", "yes"), ("btrfs", "year_2038", "yes"),
    ("ext4", "timestamp_resolution", 1), ("xfs", "timestamp_resolution", 1), ("btrfs", "timestamp_resolution", 1),
    ("ext4", "compression", "no"), ("xfs", "compression", "no"), ("btrfs", "compression", "yes"),
    ("btrfs", "quota_user_group", "no"), ("btrfs", "quota_project", "no"),
    ("ext4", "copy_on_write", "no"), ("xfs", "copy_on_write", "no"), ("btrfs", "copy_on_write", "yes"),
    ("ext4", "inline_data", "yes"), ("xfs", "inline_data", "no"), ("btrfs", "inline_data", "yes"),
    ("ext4", "any_byte_names", "yes"), ("xfs", "any_byte_names", "yes"), ("btrfs", "any_byte_names", "yes"),
    ("ext4", "extents", "yes"), ("xfs", "extents", "yes"), ("btrfs", "extents", "yes"),
    ("ext4", "delayed_allocation", "yes"), ("xfs", "delayed_allocation", "yes"), ("btrfs", "delayed_allocation", "yes"),
    ("ext4", "tail_packing", "no"), ("xfs", "tail_packing", "no"), ("btrfs", "tail_packing", "no"),
])
def test_a_generic_probe_answers_as_the_kernel_documents(found, fs, probe, expected):
    finding = found[(fs, probe)]
    assert finding["status"] == "ok" and _answer(finding) == expected, finding


def test_inline_data_where_the_kernel_maps_no_extents(tmp_path):
    """ntfs-3g answers no FIEMAP through FUSE, and FIBMAP maps no block to a 60-byte file: NTFS
    keeps so small a file's data resident in its MFT record."""
    out = tmp_path / "out"
    assert main(["probe", "--fs", "ntfs", "--probe", "inline_data", "--out", str(out), "--scratch",
                 str(tmp_path / "scratch"), "--machine", "probe-box"]) == 0
    (path,) = probefile.files(str(out))
    (finding,) = json.loads(open(path, encoding="utf-8").read())["findings"]
    assert finding["status"] == "ok" and finding["value"] == "yes", finding
    assert "FIBMAP mapped no block" in finding["detail"] and "FIEMAP" in finding["detail"]


def test_a_block_map_is_no_extents_and_a_refused_fiemap_cannot_tell(tmp_path):
    """ext2 keeps a file's blocks in indirect blocks: the ext4 driver that mounts it here flags
    FIEMAP's merged runs FIEMAP_EXTENT_MERGED (fiemap.rst: a block based addressing scheme), so
    no extents, and no delayed allocation; ntfs-3g through FUSE refuses FIEMAP, which is "cannot
    tell", never "no", while its tails are told by FIBMAP (a block of each's own)."""
    out = tmp_path / "out"
    assert main(["probe", "--fs", "ext2,ntfs", "--probe", "extents,delayed_allocation,tail_packing", "--out", str(out),
                 "--scratch", str(tmp_path / "scratch"), "--machine", "probe-box"]) == 0
    (path,) = probefile.files(str(out))
    got = {(f["filesystem"], f["probe"]): f for f in json.loads(open(path, encoding="utf-8").read())["findings"]}
    ext2 = got["ext2", "extents"]
    assert ext2["value"] == "no" and "FIEMAP_EXTENT_MERGED" in ext2["detail"] and ext2["driver"] == "ext4", ext2
    assert got["ext2", "delayed_allocation"]["value"] == "no", got["ext2", "delayed_allocation"]
    for probe in ("extents", "delayed_allocation"):
        ntfs = got["ntfs", probe]
        assert ntfs["status"] == "not available" and ntfs["detail"].startswith("cannot tell by FIEMAP"), ntfs
    tail = got["ntfs", "tail_packing"]
    assert tail["value"] == "no" and "FIBMAP put the tails" in tail["detail"], tail
    assert loop_state(out) == ([], []) and scratch_left(tmp_path / "scratch") == []


def test_refusals_name_the_kernel_s_words(found):
    assert "ENOTSUP" in found[("ext4", "deduplication")]["detail"] or "EOPNOTSUPP" in found[("ext4", "deduplication")]["detail"]
    assert "EMLINK" in found[("ext4", "hard_link_limit")]["detail"]
    assert found[("xfs", "hard_link_limit")]["at_least"] is True  # XFS's limit (2^32 - 1) is above the ceiling
    assert "Unknown parameter 'usrquota'" in found[("btrfs", "quota_user_group")]["detail"]
    assert "accepted and ignored" in found[("ext4", "compression")]["detail"]  # chattr +c took, no block saved
    assert "-O encrypt" in found[("ext4", "encryption")]["detail"]
    # ext4 keeps dates to 10 May 2446 22:38:55, its documented maximum (34-bit seconds: 2^34 - 1
    # - 2^31); the column's range ends there, and the first second past it is changed, told beside
    ext4, xfs = found[("ext4", "timestamp_range")], found[("xfs", "timestamp_range")]
    assert ext4["value"] == "yes" and "2446-05-10 22:38:55)" in ext4["detail"], ext4
    assert ext4["detail"].endswith("(2446-05-10 22:38:56, past the range, did not)"), ext4
    assert xfs["value"] == "yes" and xfs["detail"].endswith("(2446-05-10 22:38:56, past the range, came back as set)")  # bigtime: to 2486
    assert "FIEMAP put the file's first block at byte" in found[("btrfs", "copy_on_write")]["detail"]


def test_btrfs_mounted_nodatacow_overwrites_in_place(tmp_path):
    """The copy-on-write probe's control: the same Btrfs, mounted nodatacow (btrfs(5): new files
    are overwritten in place), says no."""
    from fsatlas.run import filesystems, matrix, probe_findings, probes_generic, target
    spec = matrix.load().filesystems["btrfs"]
    with target.LoopImage(str(tmp_path / "scratch"), 512 << 20) as image:
        filesystems.mkfs(spec, image.device, [])
        filesystems.mount(spec, image.device, image.mountpoint, ["nodatacow"])
        found = probes_generic.copy_on_write(image.mountpoint, probe_findings.Transcript())
    assert found["value"] == "no" and "stayed in place" in found["detail"], found
    assert scratch_left(tmp_path / "scratch") == []


def test_a_refused_quota_option_is_told_in_this_mounts_own_words(tmp_path):
    """An older kernel line naming the same option (another filesystem's refusal, written here
    into the kernel log) is never given as this mount's reason: only lines the mount added count,
    and a mount refused without a kernel line is told by mount's own message."""
    from fsatlas.run import matrix, probe_findings, probe_tools
    with open("/dev/kmsg", "w") as kmsg:
        kmsg.write("fsatlas-test: Unknown parameter 'usrquota'\n")
    spec = dict(matrix.load().filesystems["ext4"], mount_type="fsatlas-no-such-type")  # refused before the kernel
    log = probe_findings.Transcript()
    found = probe_tools._generic_quota_options("ext4", spec, str(tmp_path / "scratch"), log)
    told = found["quota_user_group"]
    assert told["value"] == "no" and "fsatlas-test" not in told["detail"], told
    assert "fsatlas-no-such-type" in told["detail"]
    assert scratch_left(tmp_path / "scratch") == []


def test_btrfs_limits_are_the_leafs_not_the_methods(tmp_path):
    """The ACL and xattr probes set each try on a new file, so Btrfs's limits are its own:
    fs/btrfs/ctree.h's BTRFS_MAX_XATTR_SIZE, a 16 KiB node less its header (101 bytes), one item
    (25) and one dir item (30), is 16,228 bytes for name and value together (fs/btrfs/xattr.c
    refuses more with ENOSPC): 16,216 bytes of value under the 12-byte name user.fsatlas, and
    (16,228 - 23 bytes of system.posix_acl_access - a 4-byte header) / 8 bytes an entry = 2,025
    entries. Growing one attribute in place had stopped at 1,960 entries and 16,170 bytes."""
    out, scratch = tmp_path / "out", tmp_path / "scratch"
    assert main(["probe", "--fs", "btrfs", "--probe", "acl_max_entries,xattr_max_value", "--out", str(out),
                 "--scratch", str(scratch), "--machine", "probe-box"]) == 0
    (path,) = probefile.files(str(out))
    got = {f["probe"]: f["limit"] for f in json.loads(open(path).read())["findings"]}
    leaf = 16384 - 101 - 25 - 30
    assert got == {"xattr_max_value": leaf - len("user.fsatlas"),
                   "acl_max_entries": (leaf - len("system.posix_acl_access") - 4) // 8}
    assert scratch_left(scratch) == []


def test_ntfs_3g_takes_only_names_that_are_utf_8(tmp_path):
    assert main(["probe", "--fs", "ntfs", "--probe", "any_byte_names", "--out", str(tmp_path),
                 "--scratch", str(tmp_path / "scratch"), "--machine", "probe-box"]) == 0
    (path,) = probefile.files(str(tmp_path))
    (finding,) = json.loads(open(path, encoding="utf-8").read())["findings"]
    assert finding["status"] == "ok" and finding["value"] == "no", finding
    # a lone byte from 0x80 up is no UTF-8; every ASCII byte, and 'é' as UTF-8, is taken
    assert "0x80-0xff: refused (EILSEQ)" in finding["detail"] and "'né' in UTF-8: taken" in finding["detail"]
    assert loop_state(tmp_path) == ([], [])
