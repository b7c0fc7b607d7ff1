"""fsatlas probe: features tried on real loop filesystems, with the transcript of each try
kept, and the probe result file's checks (check-data)."""
import json
import shutil
from pathlib import Path

import pytest

from testutil import loop_state, scratch_left, write_json
from fsatlas.cli import main
from fsatlas.results import bundle, probefile
from fsatlas.run import filesystems, matrix

REPO = Path(__file__).resolve().parents[2]


def _findings(data):
    return {(f["filesystem"], f["probe"]): f for f in data["findings"]}


@pytest.mark.root
def test_probes_on_ext4_and_btrfs_record_what_the_kernel_did(tmp_path, capsys):
    before = loop_state(tmp_path)
    scratch = tmp_path / "scratch"
    assert main(["probe", "--fs", "ext4,btrfs,jfs", "--out", str(tmp_path), "--scratch", str(scratch),
                 "--machine", "probe-box"]) == 0
    assert loop_state(tmp_path) == before and scratch_left(scratch) == []
    (path,) = (tmp_path / "probes").glob("*.json")
    assert probefile.problems(str(path)) == []
    data = json.loads(path.read_text())
    found = _findings(data)
    # what Linux itself fixes: NAME_MAX, and the kernel's own limit on an xattr value
    for fs in ("ext4", "btrfs"):
        assert (found[fs, "max_filename_length"]["limit"], found[fs, "max_filename_length"]["unit"]) == (255, "bytes")
        assert "ENAMETOOLONG" in found[fs, "max_filename_length"]["detail"]
        assert 0 < found[fs, "xattr_max_value"]["limit"] <= 65536
    assert found["ext4", "reflink"]["value"] == "no" and found["btrfs", "reflink"]["value"] == "yes"
    assert found["btrfs", "snapshots"]["value"] == "yes" and found["ext4", "snapshots"]["status"] == "not available"
    assert found["ext4", "checksums_data"]["value"] == "no"  # metadata_csum covers metadata only
    assert found["btrfs", "checksums_data"]["value"] == "yes" and "EIO" in found["btrfs", "checksums_data"]["detail"]
    assert found["ext4", "acl_max_entries"]["limit"] < found["btrfs", "acl_max_entries"]["limit"]  # 4 KiB block, 16 KiB node
    assert found["btrfs", "online_grow"]["value"] == "yes" and found["btrfs", "offline_shrink"]["status"] == "not available"
    assert found["ext4", "offline_shrink"]["value"] == "yes"
    # the tools' probes: e4defrag and btrfs defragment, dump/restore and send/receive round trips
    assert found["ext4", "defrag"]["value"] == found["btrfs", "defrag"]["value"] == "yes"
    assert found["ext4", "dump_restore"]["value"] == found["btrfs", "dump_restore"]["value"] == "yes"
    assert "btrfs send and btrfs receive" in found["btrfs", "dump_restore"]["detail"]
    # a flipped byte of a file name: ext4's metadata_csum and btrfs's tree checksums both notice
    assert found["ext4", "checksums_metadata"]["value"] == found["btrfs", "checksums_metadata"]["value"] == "yes"
    assert found["btrfs", "compression"]["value"] == "yes" and found["ext4", "compression"]["value"] == "no"
    assert "accepted and ignored" in found["ext4", "compression"]["detail"]  # chattr +c, the generic attribute
    # all of a file's xattrs share the inode and one 4 KiB block on ext4: 3 of 1 KiB fit
    assert found["ext4", "xattr_max_total"]["limit"] == 3 * 1024 and "ENOSPC" in found["ext4", "xattr_max_total"]["detail"]
    # a 1 MiB limit stops a 4 MiB write, or the kernel's own words say it was built without quotas
    for name in ("quota_user_group", "quota_project"):
        quota = found["ext4", name]
        assert quota.get("value") == "yes" and "EDQUOT" in quota["detail"] or \
            quota["status"] == "not available" and "CONFIG_QUOTA" in quota["detail"], quota
    # each finding's commands and answers are in the bundle
    members = bundle.read(str(tmp_path / "probes"), data["id"])
    for finding in data["findings"]:
        assert bundle.member_of(data["id"], finding["raw"]) in members
    assert b"$ cp --reflink=always" in members["btrfs/reflink.txt"]
    spec = matrix.load().filesystems["jfs"]
    reason = filesystems.unavailable_reason("jfs", spec)
    if reason:  # this kernel lacks it: a recorded skip with its reason, never a finding
        assert data["skipped"] == [{"filesystem": "jfs", "reason": reason}]
        assert not any(f["filesystem"] == "jfs" for f in data["findings"])


def test_check_data_refuses_a_probe_result_that_does_not_hold(tmp_path, capsys):
    data_dir = tmp_path / "data"
    top = str(REPO / "data")
    shutil.copytree(top, data_dir, ignore=lambda folder, names: [n for n in names if folder == top and
                                                                  n in ("results", "raw", "aggregates")])
    rid = "20261125T000000Z-box-probe"
    finding = {"filesystem": "ext4", "probe": "reflink", "status": "ok", "value": "no", "detail": "refused",
               "raw": f"raw/{rid}/ext4/reflink.txt"}
    good = {"schema_version": 1, "id": rid, "created": "2026-11-25T00:00:00Z", "tool": {"runner": "x"},
            "system": {"machine": "box", "kernel": "6.1", "os": "x", "cpu_model": "x", "cpu_count": 1,
                       "memory_bytes": 1, "virtualization": "none"}, "skipped": [], "findings": [finding]}
    probefile.write(str(data_dir), good, {"ext4/reflink.txt": b"$ cp --reflink=always a b\n[exit 1]\n"})
    assert main(["check-data", "--data", str(data_dir)]) == 0
    cases = [
        ({**finding, "limit": 3}, "/findings/0", ""),  # a yes/no and a limit at once
        ({**finding, "status": "not available"}, "/findings/0", ""),  # a value without an ok
        ({**finding, "raw": f"raw/{rid}/ext4/other.txt"}, "/findings/0/raw", "expected a member of"),
    ]
    path = data_dir / "probes" / f"{rid}.json"
    for broken, pointer, words in cases:
        write_json(path, {**good, "findings": [broken]})
        capsys.readouterr()
        assert main(["check-data", "--data", str(data_dir)]) == 1
        err = capsys.readouterr().err
        assert f"{path}: error: {pointer}" in err and words in err, err


def test_the_site_keeps_the_newest_finding_of_each_kernel_newest_kernel_first(tmp_path):
    from fsatlas.site import probes as probe_rows
    data_dir = tmp_path / "data"
    shutil.copytree(REPO / "data" / "probes", data_dir / "probes")
    # a later run on 6.1 that found otherwise replaces the earlier 6.1 finding, never the 6.18 one
    (guest,) = [p for p in (data_dir / "probes").glob("*.json")  # the 6.1 run that tried ext4's reflinks
                if json.loads(p.read_text())["system"]["kernel"].startswith("6.1.")
                and any((f["filesystem"], f["probe"]) == ("ext4", "reflink") for f in json.loads(p.read_text())["findings"])]
    later = json.loads(guest.read_text())
    rid = later["id"].replace("T07", "T23")
    members = bundle.read(str(data_dir / "probes"), later["id"])
    later.update(id=rid, created=later["created"].replace("T07", "T23"))
    for finding in later["findings"]:
        finding["raw"] = finding["raw"].replace(guest.stem, rid)
        if (finding["filesystem"], finding["probe"]) == ("ext4", "reflink"):
            finding.update(value="yes", detail="a later try")
    probefile.write(str(data_dir), later, {m: members[m] for m in members})
    facts = {"ext4": {"features": {"reflink": {"value": "no"}}}}
    shown = probe_rows.rows(str(data_dir), facts, lambda *_: None)["ext4"]["reflink"]
    assert [(row["release"], row["shown"], row["agreement"]) for row in shown] == [
        ("6.18", "no", "agrees"), ("6.12", "no", "agrees"), ("6.1", "yes", "disagrees")]
    assert shown[2]["result"] == rid and probe_rows.kernel_release("6.1.0-56-amd64") == "6.1"
    assert (shown[0]["since"], shown[0]["before"], shown[0]["before_release"]) == ("6.12", "yes", "6.1")


@pytest.mark.root
def test_probe_runs_only_the_probes_named(tmp_path, capsys):
    scratch = tmp_path / "scratch"
    assert main(["probe", "--fs", "ext4", "--probe", "reflink,online_shrink", "--out", str(tmp_path),
                 "--scratch", str(scratch), "--machine", "probe-box"]) == 0
    (path,) = (tmp_path / "probes").glob("*.json")
    data = json.loads(path.read_text())
    assert sorted(f["probe"] for f in data["findings"]) == ["online_shrink", "reflink"]
    assert probefile.problems(str(path)) == [] and scratch_left(scratch) == []
    capsys.readouterr()
    assert main(["probe", "--fs", "ext4", "--probe", "reflinks", "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--probe" in err[0] and "reflinks" in err[0] and "max_filename_length" in err[0]


@pytest.mark.root
def test_case_insensitive_names_are_asked_for_as_each_mkfs_makes_them(tmp_path):
    """ext4 with casefold and chattr +F finds 'Name' as 'NAME' (where the kernel mounts it); XFS
    made with -n version=ci either does the same for ASCII names or is refused by a kernel built
    without its deprecated ASCII folding, in the kernel's own words; ext2 has no such mode."""
    scratch = tmp_path / "scratch"
    assert main(["probe", "--fs", "ext4,xfs,ext2", "--probe", "case_insensitive", "--out", str(tmp_path),
                 "--scratch", str(scratch), "--machine", "probe-box"]) == 0
    (path,) = (tmp_path / "probes").glob("*.json")
    found = _findings(json.loads(path.read_text()))
    assert probefile.problems(str(path)) == [] and scratch_left(scratch) == []
    for fs, how in (("ext4", "mkfs -O casefold and chattr +F"), ("xfs", "mkfs -n version=ci")):
        f = found[fs, "case_insensitive"]
        if f["status"] == "ok":
            assert f["value"] == "yes" and f"with {how}, a file created as 'Name' is found as 'NAME'" in f["detail"]
        else:  # this kernel's build refused the mount, and says so
            assert f["status"] == "not available" and "would not mount it" in f["detail"], f
    xfs = found["xfs", "case_insensitive"]
    assert xfs["status"] == "ok" or "ascii-ci" in xfs["detail"].lower() or "case-insensitiv" in xfs["detail"].lower()
    assert found["ext2", "case_insensitive"]["status"] == "not available"


@pytest.mark.root
def test_ntfsresize_refuses_a_mounted_ntfs_and_shrinks_an_unmounted_one(tmp_path):
    """ntfsresize(8), ntfs-3g 2022.10.3: it resizes an NTFS on an unmounted device; asked while
    ntfs-3g has it mounted, it refuses in its own words, which the probe records as the answer."""
    assert main(["probe", "--fs", "ntfs", "--probe", "online_grow,online_shrink,offline_shrink", "--out", str(tmp_path),
                 "--scratch", str(tmp_path / "scratch"), "--machine", "probe-box"]) == 0
    (path,) = (tmp_path / "probes").glob("*.json")
    found = {f["probe"]: f for f in json.loads(path.read_text())["findings"]}
    for probe in ("online_grow", "online_shrink"):
        assert found[probe]["value"] == "no" and "You must 'umount' it first" in found[probe]["detail"], found[probe]
    assert found["offline_shrink"]["value"] == "yes", found["offline_shrink"]
    assert scratch_left(tmp_path / "scratch") == []


def test_every_resizable_filesystem_has_each_step_or_says_why_not():
    """The resize probe takes each filesystem through grow, shrink while mounted, then shrink
    unmounted: a filesystem with the first has the second and its capability, and either a tool
    for the third or the reason it has none (never both)."""
    from fsatlas.run import probes
    for fs in probes.GROW:
        assert fs in probes.SHRINK_MOUNTED and fs in probes.CAPABILITY, fs
        assert (fs in probes.SHRINK_UNMOUNTED) != (fs in probes.NO_OFFLINE_TOOL), fs
    assert set(probes.CHECK_FIRST) <= set(probes.SHRINK_UNMOUNTED)


@pytest.mark.root
def test_sigterm_stops_both_probe_lanes_and_leaves_nothing(tmp_path):
    """ntfs and ext4 are probed at once (commands/probe.py); a SIGTERM while both run stops
    each lane at its next probe (or ntfs-3g's hard links within 1,024 links), every image of
    both lanes is detached and unmounted, and no probe file is written. checksums_metadata
    keeps each lane mounted for seconds (8 s on ext4, 7 s through ntfs-3g, measured), so both
    lanes hold a mount at once however loaded the machine; with hard links alone the ext4 lane
    was done in under 2 s and could end before ntfs-3g had mounted."""
    import signal
    import subprocess
    import sys
    import time
    if filesystems.unavailable_reason("ntfs", matrix.load().filesystems["ntfs"]):
        pytest.skip("ntfs-3g is not installed")
    scratch, out = tmp_path / "scratch", tmp_path / "out"
    before = loop_state(tmp_path)
    proc = subprocess.Popen([sys.executable, "-m", "fsatlas.cli", "probe", "--fs", "ext4,ntfs",
                             "--probe", "reflink,checksums_metadata,hard_link_limit,timestamp_range",
                             "--out", str(out), "--scratch", str(scratch)], stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:  # ntfs is the slow lane: wait until both lanes hold a mount
        mounts = loop_state(tmp_path)[1]
        if any("fuseblk" in m for m in mounts) and any(" ext4 " in m for m in mounts):
            break
        time.sleep(0.05)
    else:  # stopped as a user stops it, so that its own cleanup leaves no loop device behind
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=120)
        pytest.fail("the two lanes never held a mount at the same time")
    proc.send_signal(signal.SIGTERM)
    started = time.monotonic()
    err = proc.communicate(timeout=120)[1]
    assert proc.returncode == 130, err[-2000:]
    assert time.monotonic() - started < 60  # not the minute ntfs-3g's links would take to the end
    assert loop_state(tmp_path) == before
    assert scratch_left(scratch) == []
    assert not list(out.glob("probes/*.json"))


def test_check_data_refuses_a_tool_version_the_probe_record_does_not_list(tmp_path, capsys):
    """A probe source's text, or a fact citing only probes, that names a tool's version its
    probe record lacks is refused at its place; the same version, recorded, passes."""
    import yaml
    data_dir = tmp_path / "data"
    top = str(REPO / "data")
    shutil.copytree(top, data_dir, ignore=lambda folder, names: [n for n in names if folder == top and
                                                                  n in ("results", "raw", "aggregates")])
    assert main(["check-data", "--data", str(data_dir)]) == 0
    sources_path = data_dir / "sources.yaml"
    sources = yaml.safe_load(sources_path.read_text())
    i, source = next((i, s) for i, s in enumerate(sources) if s.get("probe", "").startswith("20261127T094554Z"))
    record = json.loads((data_dir / "probes" / f"{source['probe']}.json").read_text())
    held = record["tool"]["xfsdump"].split("-")[0]  # "3.1.11" of "3.1.11-0.1"
    for claim, refused in ((f"xfsrestore of xfsdump {held}", False), ("xfsrestore of xfsdump 3.2", True),
                           ("mkfs.hfsplus of hfsprogs 540.1", True)):
        sources[i] = {**source, "publisher": f"this project ({claim})"}
        sources_path.write_text(yaml.safe_dump(sources, allow_unicode=True, sort_keys=False))
        capsys.readouterr()
        assert main(["check-data", "--data", str(data_dir)]) == (1 if refused else 0), claim
        err = capsys.readouterr().err
        if refused:
            assert f"{sources_path}: error: /{i}/publisher: expected a version of" in err and claim.split(" of ")[1].split()[0] in err


def test_the_newest_answer_says_since_which_probed_kernel_it_holds():
    from fsatlas.site.probes import since
    row = lambda release, shown, status="ok": {"release": release, "shown": shown, "status": status}  # noqa: E731
    found = [row("6.18", "yes"), row("6.12", "yes"), row("6.1", "no")]
    since(found)
    assert (found[0]["since"], found[0]["before"], found[0]["before_release"]) == ("6.12", "no", "6.1")
    found = [row("6.18", "no"), row("6.12", "yes"), row("6.1", "yes")]
    since(found)
    assert (found[0]["since"], found[0]["before"]) == ("6.18", "yes")
    same = [row("6.18", "yes"), row("6.12", "failed", "failed"), row("6.1", "yes")]
    since(same)
    assert "since" not in same[0]


def _running(pid: int) -> bool:
    """Whether pid is a process that still runs (a zombie waiting for its parent does not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _gone_soon(pids) -> bool:
    import time
    deadline = time.monotonic() + 10
    while any(map(_running, pids)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not any(map(_running, pids))


def test_a_probed_tool_leaves_no_process_behind_once_it_ends():
    """What a tool leaves running in its session is killed once it ends (a dump helper once slept
    on for good, holding the probe's loop device and the pipes the probe waited on), and the
    transcript has its output, answer and exit status at once, not at the timeout."""
    import time
    from fsatlas.run.probe_findings import Transcript
    log = Transcript()
    started = time.monotonic()
    done = log.run(["sh", "-c", "sleep 300 & echo $!; read answer; echo \"got $answer\" >&2; exit 3"],
                   timeout=120, answer="y\n")
    assert time.monotonic() - started < 30
    assert done.returncode == 3 and done.stderr.strip() == "got y"
    assert _gone_soon([int(done.stdout)])
    assert "[exit 3]" in log.text() and "got y" in log.text()


def test_a_probed_tool_past_its_timeout_is_stopped_with_all_it_started(tmp_path):
    """On a timeout the tool is killed with every process below it, one that made itself a
    session of its own (setsid) too, and the timeout is raised for the probe to report."""
    import subprocess
    from fsatlas.run.probe_findings import Transcript
    pids = tmp_path / "pids"
    with pytest.raises(subprocess.TimeoutExpired):
        Transcript().run(["sh", "-c", f"sleep 300 & echo $! > {pids}; setsid sleep 300 & echo $! >> {pids}; wait"],
                         timeout=2)
    started = [int(p) for p in pids.read_text().split()]
    assert len(started) == 2 and _gone_soon(started)


@pytest.mark.root
def test_probe_lanes_at_once_each_dump_and_restore_in_a_folder_of_their_own(tmp_path):
    """The lanes share the scratch folder and start together, so their dump_restore probes run
    at the same time: each must work in a folder of its own (a shared dump-probe/ was deleted by
    one lane under the other's restore, which then read as "restore: not installed")."""
    scratch = tmp_path / "scratch"
    before = loop_state(tmp_path)
    assert main(["probe", "--fs", "ext2,ext3,ext4", "--probe", "dump_restore", "--out", str(tmp_path),
                 "--scratch", str(scratch), "--machine", "probe-box"]) == 0
    (path,) = (tmp_path / "probes").glob("*.json")
    found = {f["filesystem"]: f for f in json.loads(path.read_text())["findings"] if f["probe"] == "dump_restore"}
    assert {fs: f["value"] for fs, f in found.items()} == {"ext2": "yes", "ext3": "yes", "ext4": "yes"}, found
    assert loop_state(tmp_path) == before and scratch_left(scratch) == []
