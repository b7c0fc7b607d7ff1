"""Issue #63, round 2, item 5: a finding filed under a row of the matrix is checked against the
driver that mounted it: ntfs3's findings under the ntfs-3g row (filesystem 'ntfs') are refused,
whether the record names the driver or only its transcript's `mount -t` shows it. The rows and
their drivers are written here apart from the module."""
import json
import re
import shutil
import tarfile
from pathlib import Path

from hypothesis import given, settings, strategies as st

from fsatlas.results import probefile

PROBES = Path(__file__).resolve().parents[2] / "data" / "probes"
NTFS3_RECORD = "20261128T215745Z-m-b6d0b06748-probe"  # the 6.12 guest's ntfs3 findings, each naming ntfs3
ROWS = {"ext2": {"ext2", "ext4"}, "ext3": {"ext3", "ext4"}, "ext4": {"ext4"}, "ntfs": {"ntfs-3g (FUSE)"}, "ntfs3": {"ntfs3"},
        "xfs": {"xfs"}, "btrfs": {"btrfs"}}
DRIVERS = sorted(set().union(*ROWS.values()))
_COPY = {}


def _mounted_with_ntfs3(raw: str) -> bool:
    """Whether the finding's transcript (read from the bundle with tarfile) mounts with ntfs3."""
    with tarfile.open(PROBES / "raw" / f"{NTFS3_RECORD}.tar.gz") as tar:
        name = next(n for n in tar.getnames() if n.endswith(raw.split("/", 2)[2]))
        return re.search(rb"mount -t ntfs3(\s|$)", tar.extractfile(name).read()) is not None


def _copy(factory) -> Path:
    if "dir" not in _COPY:
        folder = factory.mktemp("rows")
        (folder / "raw").mkdir()
        shutil.copy(PROBES / "raw" / f"{NTFS3_RECORD}.tar.gz", folder / "raw")
        _COPY["dir"] = folder
    return _COPY["dir"] / f"{NTFS3_RECORD}.json"


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_a_finding_under_a_row_its_driver_does_not_mount_is_refused(tmp_path_factory, data):
    path = _copy(tmp_path_factory)
    record = json.loads((PROBES / f"{NTFS3_RECORD}.json").read_text())
    i = data.draw(st.integers(0, len(record["findings"]) - 1))
    row = data.draw(st.sampled_from(sorted(ROWS)))
    driver = data.draw(st.sampled_from(DRIVERS))
    record["findings"][i].update(filesystem=row, driver=driver)
    path.write_text(json.dumps(record))
    said = {p.path for p in probefile.problems(str(path))}
    assert (f"/findings/{i}/driver" in said) is (driver not in ROWS[row]), (row, driver, said)
    # where the transcript shows mount -t ntfs3, the ntfs-3g row refuses it, the driver left out or not
    del record["findings"][i]["driver"]
    path.write_text(json.dumps(record))
    said = {p.path for p in probefile.problems(str(path))}
    assert (f"/findings/{i}/filesystem" in said) is (row == "ntfs" and _mounted_with_ntfs3(record["findings"][i]["raw"])), (row, said)


def test_the_committed_records_file_every_finding_under_its_driver_s_row():
    for path in probefile.files(str(PROBES.parent)):
        assert probefile.problems(path) == [], path
