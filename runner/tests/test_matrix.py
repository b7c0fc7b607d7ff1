import json

import pytest

from fsatlas.run import matrix, sizes
from fsatlas.cli import main
from fsatlas.errors import UserError

FIVE = {"ext2", "ext3", "ext4", "xfs", "btrfs"}


def test_quick_profile_covers_every_workload_on_the_five_filesystems():
    m = matrix.load()
    quick = m.profile("quick")
    assert {c.filesystem for c in quick.cells} == FIVE
    for fs in FIVE:
        assert {c.workload for c in quick.cells if c.filesystem == fs} == set(m.workloads)
    keys = [c.key for c in quick.cells]
    assert len(keys) == len(set(keys))
    assert "ext4|-|-|seq-write" in keys
    assert quick.repetitions == 3 and not quick.adaptive


def test_dimensions_sweep_into_keyed_cells():
    quick = matrix.load().profile("quick", ["ext4"], ["small-files"])
    assert [c.key for c in quick.cells] == [f"ext4|-|-|small-files|file_size={s}" for s in (100, 1000, 10000)]
    assert [c.parameters["file_size"] for c in quick.cells] == [100, 1000, 10000]


def test_standard_profile_has_every_option_variant_and_the_wider_filesystems():
    m = matrix.load()
    std = m.profile("standard")
    assert std.adaptive
    assert {c.variant for c in std.cells} == {"defaults", *m.variants}
    assert {"ntfs", "f2fs", "jfs", "reiserfs", "nilfs2", "bcachefs", "hfsplus"} <= {c.filesystem for c in std.cells}
    journal = [c for c in std.cells if c.variant == "data-journal"]
    assert {c.filesystem for c in journal} == {"ext3", "ext4", "reiserfs"}
    assert all(c.mount_options == ("data=journal",) for c in journal)
    assert "ext3|-|data=journal|buffered-write" in {c.key for c in journal}
    striped = [c for c in std.cells if c.variant == "ext-stripe-aligned"]
    assert striped and all(c.flags == ("not-striped",) for c in striped)
    assert striped[0].mkfs_options == ("-E", "stride=16,stripe-width=64")


def test_selection_by_filesystem_workload_variant_and_key():
    m = matrix.load()
    profile = m.profile("quick", ["xfs"], ["seq-read", "rand-write-4k"])
    assert [c.key for c in profile.cells] == ["xfs|-|-|seq-read", "xfs|-|-|rand-write-4k"]
    only = m.profile("standard", ["ext4"], None, ["noatime"])
    assert {c.variant for c in only.cells} == {"noatime"}
    keyed = m.profile("quick", keys=["btrfs|-|-|tree-copy"])
    assert [c.key for c in keyed.cells] == ["btrfs|-|-|tree-copy"]
    with pytest.raises(UserError, match="--cell"):
        m.profile("quick", keys=["btrfs|-|-|nothing"])


def test_unknown_names_are_user_errors():
    m = matrix.load()
    with pytest.raises(UserError, match="ntfs9"):
        m.profile("quick", ["ntfs9"])
    with pytest.raises(UserError, match="/profiles/huge"):
        m.profile("huge")
    with pytest.raises(UserError, match="--variant"):
        m.profile("standard", None, None, ["data=fast"])
    # a workload of the matrix that the profile does not size (tiny has no background-writes):
    # refused with the profile's own list, never run with no runtime or a KeyError
    with pytest.raises(UserError, match=r"/profiles/tiny/workloads.*'background-writes'.*one of seq-write"):
        m.profile("tiny", None, ["background-writes"])


GOOD_HEAD = "filesystems: {ext4: {mkfs: [mkfs.ext4]}}\nworkloads: {w: {kind: fio}}\n"


@pytest.mark.parametrize("text,field", [
    ("[1, 2", "line"),
    ("filesystems: {}\nworkloads: {}\nprofiles: {}\n", "/filesystems"),
    (GOOD_HEAD + "profiles: {p: {image_size: lots, repetitions: 3, filesystems: [ext4], workloads: {w: {}}}}\n",
     "/profiles/p/image_size"),
    (GOOD_HEAD + "profiles: {p: {image_size: 1G, repetitions: 0, filesystems: [ext4], workloads: {w: {}}}}\n",
     "/profiles/p/repetitions"),
    (GOOD_HEAD + "profiles: {p: {image_size: 1G, repetitions: 3, filesystems: [zfs], workloads: {w: {}}}}\n",
     "/profiles/p/filesystems"),
    (GOOD_HEAD + "profiles: {p: {image_size: 1G, repetitions: 3, filesystems: [ext4], workloads: {w: {budget_s: -1}}}}\n",
     "/profiles/p/workloads/w/budget_s"),
    ("filesystems: {ext4: {mkfs: [mkfs.ext4]}}\nworkloads: {w: {kind: magic}}\n"
     "profiles: {p: {image_size: 1G, repetitions: 3, filesystems: [ext4], workloads: {w: {}}}}\n",
     "/workloads/w/kind"),
    ("filesystems: {ext4: {mkfs: [mkfs.ext4], workload_mount: noinit_itable}}\nworkloads: {w: {kind: fio}}\n"
     "profiles: {p: {image_size: 1G, repetitions: 3, filesystems: [ext4], workloads: {w: {}}}}\n",
     "/filesystems/ext4/workload_mount"),
    (GOOD_HEAD + "variants: {v: {filesystems: [ext4], workloads: [nope]}}\n"
     "profiles: {p: {image_size: 1G, repetitions: 3, filesystems: [ext4], workloads: {w: {}}}}\n",
     "/variants/v/workloads"),
])
def test_bad_matrix_file_names_file_and_field(tmp_path, capsys, text, field):
    path = tmp_path / "matrix.yaml"
    path.write_text(text)
    assert main(["plan", "--matrix", str(path), "--profile", "p"]) == 1
    err = capsys.readouterr().err
    assert str(path) in err and field in err
    assert "Traceback" not in err


def test_plan_json_lists_cells_skips_and_estimate(capsys, tmp_path):
    assert main(["plan", "--profile", "standard", "--fs", "ext4,jfs", "--json", "--scratch", str(tmp_path)]) == 0
    plan = json.loads(capsys.readouterr().out)
    jfs = [c for c in plan["cells"] if c["filesystem"] == "jfs"]
    assert jfs and all(c["status"] == "skipped" and "jfs" in c["reason"] for c in jfs)
    assert all(c["status"] == "planned" for c in plan["cells"] if c["filesystem"] == "ext4")
    assert plan["estimate_seconds"] > 0
    assert plan["scratch"]["needed_bytes"] >= plan["image_bytes"]


def test_plan_refuses_a_scratch_too_small(tmp_path, capsys):
    matrix_file = tmp_path / "m.yaml"
    matrix_file.write_text(GOOD_HEAD + "profiles: {p: {image_size: 100000T, repetitions: 3, filesystems: [ext4], "
                                       "workloads: {w: {}}}}\n")
    assert main(["plan", "--matrix", str(matrix_file), "--profile", "p", "--scratch", str(tmp_path)]) == 1
    assert "not enough free space" in capsys.readouterr().err


def test_size_parsing():
    assert sizes.parse_size("512M") == 512 * 2**20
    assert sizes.parse_size("2G") == 2 * 2**30
    with pytest.raises(UserError):
        sizes.parse_size("1.5G")


def test_fuse_filesystems_run_fio_buffered_with_a_final_fsync():
    cells = matrix.load().profile("standard", ["ntfs", "ext4"], ["seq-write"], ["defaults"]).cells
    params = {c.filesystem: c.parameters for c in cells}
    assert params["ntfs"]["direct"] == 0 and params["ntfs"]["end_fsync"] == 1
    assert params["ext4"]["direct"] == 1 and "end_fsync" not in params["ext4"]


def test_variant_selects_exactly_the_variants_named():
    """--variant V runs the cells of the variants named and no other ('defaults' for none):
    `--variant defaults` alone ran every variant the profile plans (4 ext4 seq-write cells of
    the standard profile, not 1). Over every profile and every choice of one or two variants."""
    from hypothesis import given, settings, strategies as st
    m = matrix.load()

    @settings(max_examples=60)
    @given(st.sampled_from(sorted(m.profiles)), st.lists(st.sampled_from(["defaults", *m.variants]), min_size=1, max_size=2, unique=True))
    def check(profile, variants):
        cells = m.profile(profile, variants=variants).cells
        assert {c.variant for c in cells} <= set(variants)
        assert any(c.variant == "defaults" for c in cells) == ("defaults" in variants)
    check()
    assert [c.key for c in m.profile("standard", ["ext4"], ["seq-write"], ["defaults"]).cells] == ["ext4|-|-|seq-write"]
