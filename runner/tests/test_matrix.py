import pytest

from fsatlas import matrix
from fsatlas.cli import main
from fsatlas.errors import UserError


def test_standard_matrix_profiles_expand_to_keyed_cells():
    m = matrix.load()
    quick = m.profile("quick")
    assert {c.filesystem for c in quick.cells} == {"ext2", "ext3", "ext4", "xfs", "btrfs"}
    assert quick.repetitions >= 3
    keys = [c.key for c in quick.cells]
    assert len(keys) == len(set(keys))
    assert "ext4|-|-|seq-write" in keys


def test_selection_by_filesystem_and_workload():
    profile = matrix.load().profile("quick", ["xfs"], ["seq-read", "rand-write-4k"])
    assert [c.key for c in profile.cells] == ["xfs|-|-|seq-read", "xfs|-|-|rand-write-4k"]


def test_unknown_names_are_user_errors():
    m = matrix.load()
    with pytest.raises(UserError, match="ntfs9"):
        m.profile("quick", ["ntfs9"])
    with pytest.raises(UserError, match="/profiles/huge"):
        m.profile("huge")


@pytest.mark.parametrize("text,field", [
    ("[1, 2", "line"),
    ("filesystems: {}\nworkloads: {}\nprofiles: {}\n", "/filesystems"),
    ("filesystems: {ext4: {mkfs: [mkfs.ext4]}}\nworkloads: {w: {kind: fio}}\n"
     "profiles: {p: {image_size: lots, repetitions: 3, filesystems: [ext4], workloads: {w: {}}}}\n",
     "/profiles/p/image_size"),
    ("filesystems: {ext4: {mkfs: [mkfs.ext4]}}\nworkloads: {w: {kind: fio}}\n"
     "profiles: {p: {image_size: 1G, repetitions: 0, filesystems: [ext4], workloads: {w: {}}}}\n",
     "/profiles/p/repetitions"),
    ("filesystems: {ext4: {mkfs: [mkfs.ext4]}}\nworkloads: {w: {kind: fio}}\n"
     "profiles: {p: {image_size: 1G, repetitions: 3, filesystems: [zfs], workloads: {w: {}}}}\n",
     "/profiles/p/filesystems"),
])
def test_bad_matrix_file_names_file_and_field(tmp_path, capsys, text, field):
    path = tmp_path / "matrix.yaml"
    path.write_text(text)
    assert main(["plan", "--matrix", str(path), "--profile", "p"]) == 1
    err = capsys.readouterr().err
    assert str(path) in err and field in err
    assert "Traceback" not in err


def test_plan_json_lists_cells_and_estimate(capsys):
    import json
    assert main(["plan", "--profile", "quick", "--fs", "ext4", "--json"]) == 0
    plan = json.loads(capsys.readouterr().out)
    assert [c["filesystem"] for c in plan["cells"]] == ["ext4"] * 4
    assert plan["estimate_seconds"] > 0


def test_size_parsing():
    assert matrix.parse_size("512M") == 512 * 2**20
    assert matrix.parse_size("2G") == 2 * 2**30
    with pytest.raises(UserError):
        matrix.parse_size("1.5G")
