"""Which driver mounted a filesystem, recorded with every probe finding (an ext2 answer may be
ext4's driver's), and names measured in the unit the filesystem counts: NTFS's 255 is UTF-16
code units (Microsoft's limits table), so a name of 255 two-byte letters, 510 bytes, is taken.
The letter is one no normalization splits ('α'): HFS+ keeps names decomposed, where 'é' is two
units."""
import glob
import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from fsatlas.cli import main
from fsatlas.results import probefile
from fsatlas.run import filesystems, matrix, probe_findings, target
from testutil import loop_state, scratch_left

DATA_DIR = str(Path(__file__).resolve().parents[2] / "data")

pytestmark = pytest.mark.root


@pytest.fixture(scope="module")
def found(tmp_path_factory):
    out = tmp_path_factory.mktemp("driver")
    scratch = out / "scratch"
    assert main(["probe", "--fs", "ext2,ext4,ntfs", "--probe", "max_filename_length,creation_time", "--out", str(out),
                 "--scratch", str(scratch), "--machine", "probe-box"]) == 0
    assert loop_state(out) == ([], []) and scratch_left(scratch) == []
    (path,) = probefile.files(str(out))
    assert probefile.problems(path) == []
    return {(f["filesystem"], f["probe"]): f for f in json.loads(open(path, encoding="utf-8").read())["findings"]}


def _kernel_says_ext4_mounted(news: probe_findings.KernelLog, device: str) -> bool:
    """The independent witness: the ext4 driver logs 'mounting ext2 file system using the ext4
    subsystem' (fs/ext4/super.c) when it, not the ext2 driver, mounts an ext2 filesystem."""
    return any("using the ext4 subsystem" in line for line in news.lines(device))


def test_the_driver_that_mounted_ext2_is_the_one_the_kernel_names(tmp_path, found):
    spec = matrix.load().filesystems["ext2"]
    with target.LoopImage(str(tmp_path / "scratch"), 64 << 20) as image:
        filesystems.mkfs(spec, image.device, [])
        with probe_findings.KernelLog() as news:  # this mount's messages, not an earlier image's on the device
            filesystems.mount(spec, image.device, image.mountpoint, [])
            by_ext4 = _kernel_says_ext4_mounted(news, image.device)
        driver = filesystems.driver(spec, image.device, image.mountpoint)
    assert driver == ("ext4" if by_ext4 else "ext2"), (driver, by_ext4)
    # every finding of the probe record names the same driver
    assert {found["ext2", p]["driver"] for p in ("max_filename_length", "creation_time")} == {driver}
    assert found["ext4", "creation_time"]["driver"] == "ext4"


def test_ntfs_names_its_fuse_driver(found):
    assert {found["ntfs", p]["driver"] for p in ("max_filename_length", "creation_time")} == {"ntfs-3g (FUSE)"}
    # ntfs-3g gives no birth time through statx; ntfs3 would (its row, probed in a guest)
    assert found["ntfs", "creation_time"]["value"] == "no"


def test_ntfs_names_are_counted_in_utf16_units_and_ext4_s_in_bytes(found):
    ntfs, ext4 = found["ntfs", "max_filename_length"], found["ext4", "max_filename_length"]
    assert (ntfs["limit"], ntfs["unit"]) == (255, "UTF-16 code units"), ntfs
    # 255 'α' (510 bytes) taken, a 256th refused; a letter of two UTF-16 units counts twice: 127
    assert "255 'α' (510 bytes) were taken" in ntfs["detail"] and "127 U+1F600" in ntfs["detail"], ntfs
    assert (ext4["limit"], ext4["unit"]) == (255, "bytes") and "of 'α' (2 bytes each) 127 were taken" in ext4["detail"]


def test_the_unit_follows_the_letters_whatever_the_limits(monkeypatch, tmp_path):
    """The rule beside the named examples: a filesystem counting bytes, UTF-16 units or
    characters, at limits other than 255, gets that unit and limit (a directory whose open() a
    fake refuses past the limit in the fake's unit)."""
    from fsatlas.run import probes
    real_open = open

    def counting(unit, limit):
        def fake_open(path, mode="r", *a, **k):
            name = os.path.basename(path)
            size = {"bytes": len(name.encode()), "UTF-16 code units": len(name.encode("utf-16-le")) // 2,
                    "characters": len(name)}[unit]
            if "w" in mode and size > limit:
                raise OSError(36, "File name too long")
            return real_open(path, mode, *a, **k)
        return fake_open

    # the folder lies on this machine's own filesystem, whose 255 bytes bound every name: the
    # fake's limits keep its longest names (four bytes a character) within them
    for unit, limits in (("bytes", (1, 2, 3, 100, 254, 255)), ("UTF-16 code units", (1, 2, 3, 17, 63, 127)),
                         ("characters", (1, 2, 3, 17, 62, 63))):
        for limit in limits:
            monkeypatch.setattr("builtins.open", counting(unit, limit))
            got = probes.max_filename_length(str(tmp_path), probe_findings.Transcript())
            monkeypatch.setattr("builtins.open", real_open)
            assert (got["limit"], got["unit"]) == (limit, unit), (unit, limit, got)


@settings(max_examples=25)
@given(st.integers(4, 60), st.integers(2, 4))
def test_letters_outside_the_bmp_are_reported_as_they_counted(tmp_path_factory, limit, each):
    """Issue #63: HFS+ (through Linux) took 63 U+1F600 and refused 64 under a limit of 255 UTF-16
    units, and the finding called them two units each. A fake counting a BMP letter as one unit
    and a letter outside it as `each` units: the limit stays in UTF-16 units, and the text says
    two units each only where they counted two, else the limit in such letters."""
    from fsatlas.run import probes
    import builtins
    real_open, folder = builtins.open, tmp_path_factory.mktemp("names")

    def fake_open(path, mode="r", *a, **k):
        name = os.path.basename(path)
        if "w" in mode and sum(each if ord(c) > 0xFFFF else 1 for c in name) > limit:
            raise OSError(36, "File name too long")
        return real_open(path, mode, *a, **k)
    builtins.open = fake_open
    try:
        got = probes.max_filename_length(str(folder), probe_findings.Transcript())
    finally:
        builtins.open = real_open
    assert (got["limit"], got["unit"]) == (limit, "UTF-16 code units"), got
    taken = limit // each
    assert f"and {taken} U+1F600" in got["detail"] and f"{taken + 1} U+1F600 with ENAMETOOLONG" in got["detail"], got
    if taken == limit // 2:
        assert "two UTF-16 units each" in got["detail"], got
    else:
        assert "two UTF-16 units each" not in got["detail"], got
        assert f"for characters outside the BMP the limit is {taken} characters" in got["detail"], got


def test_the_hfsplus_records_say_what_their_transcripts_show():
    """The committed HFS+ findings of 63 U+1F600 under 255 units: four units each, not two."""
    seen = 0
    for path in sorted(glob.glob(os.path.join(DATA_DIR, "probes", "*.json"))):
        for f in json.load(open(path))["findings"]:
            if (f["filesystem"], f["probe"]) == ("hfsplus", "max_filename_length") and "U+1F600" in f["detail"]:
                seen += 1
                assert "two UTF-16 units each" not in f["detail"] and "4 each" in f["detail"], (path, f["detail"])
                assert "the limit is 63 characters" in f["detail"], f["detail"]
    assert seen


NEW_RECORD = "20261128T221323Z-m-b6d0b06748-probe"  # ext2 and ext3 findings, each naming its driver


def _new_record_copy(folder: Path) -> tuple[Path, dict]:
    import shutil
    (folder / "probes" / "raw").mkdir(parents=True)
    src = Path(DATA_DIR) / "probes"
    shutil.copy(src / "raw" / f"{NEW_RECORD}.tar.gz", folder / "probes" / "raw")
    return folder / "probes" / f"{NEW_RECORD}.json", json.loads((src / f"{NEW_RECORD}.json").read_text())


@settings(max_examples=20)
@given(st.data())
def test_a_new_finding_without_its_driver_is_refused_where_two_drivers_mount_it(tmp_path_factory, data):
    """Issue #63: the driver is missing on older records; a new record's finding on ext2, ext3 or
    NTFS must name it (another filesystem's finding may leave it out)."""
    path, record = _new_record_copy(tmp_path_factory.mktemp("p"))
    i = data.draw(st.integers(0, len(record["findings"]) - 1))
    del record["findings"][i]["driver"]
    path.write_text(json.dumps(record))
    paths = [p.path for p in probefile.problems(str(path))]
    assert (f"/findings/{i}/driver" in paths) is (record["findings"][i]["filesystem"] in probefile.MANY_DRIVERS), paths
    record["created"] = "2026-11-27T10:00:00Z"  # before the driver was recorded: the page says so instead
    path.write_text(json.dumps(record))
    assert f"/findings/{i}/driver" not in [p.path for p in probefile.problems(str(path))]


def test_the_page_says_driver_not_recorded_where_the_record_lacks_it():
    from fsatlas.site import probes as site_probes
    rows = site_probes.rows(DATA_DIR, {}, lambda *a: None)
    from fsatlas.results import bundle
    newest = {}
    for path in sorted(glob.glob(os.path.join(DATA_DIR, "probes", "*.json"))):
        r = json.load(open(path))
        members = bundle.read(os.path.join(DATA_DIR, "probes"), r["id"])
        for f in r["findings"]:
            key = (f["filesystem"], f["probe"], site_probes.kernel_release(r["system"]["kernel"]))
            # an older record names no driver, but its transcript's mount -t may (ntfs-3g, or ext4 for ext2)
            said = members[bundle.member_of(r["id"], f["raw"])]
            shown = {"ntfs": b"mount -t ntfs-3g ", "ext2": b"mount -t ext4 ", "ext3": b"mount -t ext4 "}.get(f["filesystem"])
            if newest.get(key, ("",))[0] < r["created"]:
                newest[key] = (r["created"], "driver" in f or bool(shown and shown in said))
    missing = inferred = 0
    for fs in probefile.MANY_DRIVERS:
        for probe, found in rows.get(fs, {}).items():
            for row in found:
                lacks = not newest[fs, probe, row["release"]][1]
                assert row["driver_missing"] is lacks, (fs, probe, row)
                assert not (row["driver_inferred"] and lacks) and (not row["driver_inferred"] or row["driver"])
                missing += lacks
                inferred += row["driver_inferred"]
    assert missing  # the older records of ext2, ext3 and NTFS
    assert inferred  # older NTFS findings whose transcripts show mount -t ntfs-3g
    assert not any(row["driver_missing"] for fs, by in rows.items() if fs not in probefile.MANY_DRIVERS
                   for found in by.values() for row in found)
