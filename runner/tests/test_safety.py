"""Safety and faults, caused for real: devices in every state that must be refused, signals
mid-run, a SIGKILLed run's leftovers, two runs on one scratch, a full filesystem, fio
crashing or hanging, a missing tool. Never a disk of this machine: loop devices only."""
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fsatlas.run import devices, leftovers
from fsatlas.cli import main
from fsatlas.errors import UserError
from testutil import loop_state, raw_files, scratch_left
from fsatlas.results.resultfile import readable  # a result file in the read form (schema 2 stores no summaries)

pytestmark = pytest.mark.root
FSATLAS = [sys.executable, "-m", "fsatlas.cli"]


@pytest.fixture
def loopdev(tmp_path):
    """A fresh loop device (partition scanning on) over a sparse image; torn down whatever its state."""
    made = []

    def make(size=256 * 2**20):
        image = tmp_path / f"disk{len(made)}.img"
        with open(image, "wb") as f:
            f.truncate(size)
        dev = subprocess.run(["losetup", "--find", "--show", "--partscan", str(image)], capture_output=True,
                             text=True, check=True).stdout.strip()
        made.append(dev)
        return dev

    yield make
    for dev in made:
        for line in Path("/proc/swaps").read_text().splitlines()[1:]:
            if line.split()[0].startswith(dev):
                subprocess.run(["swapoff", line.split()[0]])
        for line in Path("/proc/self/mounts").read_text().splitlines():
            if line.split()[0].startswith(dev):
                subprocess.run(["umount", line.split()[1]])
        subprocess.run(["losetup", "-d", dev])


def sh(*argv):
    subprocess.run(argv, capture_output=True, check=True)


def test_only_block_devices_and_only_with_destroy_data(tmp_path, loopdev):
    plain = tmp_path / "file"
    plain.write_text("x")
    with pytest.raises(UserError, match="not a block device"):
        devices.check(str(plain), True, None)
    dev = loopdev()
    with pytest.raises(UserError, match="--destroy-data"):
        devices.check(dev, False, None)
    devices.check(dev, True, None)  # blank, unused: allowed


def test_mounted_device_is_refused(tmp_path, loopdev):
    dev = loopdev()
    sh("mkfs.ext4", "-q", dev)
    (tmp_path / "m").mkdir()
    sh("mount", dev, str(tmp_path / "m"))
    reasons = devices.refusals(dev, confirm=dev)
    assert reasons == [f"{dev} is mounted on {tmp_path / 'm'}"]


def test_partitioned_device_with_a_mounted_partition_is_refused(tmp_path, loopdev):
    dev = loopdev()
    subprocess.run(["sfdisk", "-q", dev], input="label: gpt\n,64M\n,\n", text=True, capture_output=True, check=True)
    sh("partx", "-u", dev)
    part = f"{dev}p2"
    for _ in range(50):
        if os.path.exists(part):
            break
        time.sleep(0.1)
    sh("mkfs.ext4", "-q", part)
    (tmp_path / "m").mkdir()
    sh("mount", part, str(tmp_path / "m"))
    reasons = devices.refusals(dev, confirm=dev)
    assert any(r.startswith(f"{part} is mounted") for r in reasons), reasons
    with pytest.raises(UserError) as e:
        devices.check(dev, True, dev)
    assert dev in str(e.value) and part in str(e.value)


def test_signature_needs_the_name_repeated(loopdev):
    dev = loopdev(320 * 2**20)  # xfs's smallest
    sh("mkfs.xfs", "-q", dev)
    (reason,) = devices.refusals(dev)
    assert "xfs" in reason and f"--confirm-device {dev}" in reason
    assert devices.refusals(dev, confirm="/dev/loop999") == [reason]  # another name is no confirmation
    assert devices.refusals(dev, confirm=dev) == []


def test_partition_table_is_a_signature(loopdev):
    dev = loopdev()
    subprocess.run(["sfdisk", "-q", dev], input="label: dos\n,\n", text=True, capture_output=True, check=True)
    (reason,) = devices.refusals(dev)
    assert "dos partition table" in reason


def test_swap_device_is_refused(loopdev):
    dev = loopdev()
    sh("mkswap", dev)
    done = subprocess.run(["swapon", dev], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"this kernel or container refuses swapon on a loop device: {done.stderr.strip()}")
    assert f"{dev} is in use as swap" in devices.refusals(dev, confirm=dev)


def _fake_sysfs(tmp_path, dev, holder, uuid=""):
    """This kernel has no md or device-mapper: a sysfs tree where DEV is held by HOLDER."""
    name = os.path.basename(dev)
    base = tmp_path / "sys" / "class" / "block"
    (base / name / "holders").mkdir(parents=True)
    (base / name / "dev").write_text(Path(f"/sys/class/block/{name}/dev").read_text())
    (base / name / "holders" / holder).mkdir()
    (base / holder / "dm").mkdir(parents=True)
    (base / holder / "dm" / "uuid").write_text(uuid)
    (base / holder / "dm" / "name").write_text("vg0-data")
    return devices.Tables(sysfs=str(tmp_path / "sys"))


@pytest.mark.parametrize("holder,uuid,kind", [("md0", "", "md RAID"), ("dm-0", "LVM-abc", "LVM"),
                                              ("dm-1", "CRYPT-LUKS2-x", "device-mapper")])
def test_held_device_is_refused(tmp_path, loopdev, holder, uuid, kind):
    dev = loopdev()
    (reason,) = devices.refusals(dev, confirm=dev, tables=_fake_sysfs(tmp_path, dev, holder, uuid))
    assert holder in reason and kind in reason and dev in reason


def test_device_holding_the_root_filesystem_is_refused(tmp_path, loopdev):
    dev = loopdev()
    number = Path(f"/sys/class/block/{os.path.basename(dev)}/dev").read_text().strip()
    mountinfo = tmp_path / "mountinfo"
    mountinfo.write_text(f"22 1 {number} / / rw,relatime shared:1 - ext4 {dev} rw\n")
    reasons = devices.refusals(dev, confirm=dev, tables=devices.Tables(mountinfo=str(mountinfo)))
    assert reasons == [f"{dev} holds the running root filesystem"]
    # a mount point as the kernel writes it (fs/proc_namespace.c mangles space, tab, newline and
    # backslash to octal) is named as the path it is
    mountinfo.write_text(f"22 1 {number} / /mnt/a\\040b\\011c\\134d rw,relatime shared:1 - ext4 {dev} rw\n")
    reasons = devices.refusals(dev, confirm=dev, tables=devices.Tables(mountinfo=str(mountinfo)))
    assert reasons == [f"{dev} is mounted on /mnt/a b\tc\\d"]


def test_run_on_a_device_and_refusal_from_the_cli(tmp_path, loopdev, capsys):
    dev = loopdev(512 * 2**20)
    out = tmp_path / "out"
    argv = ["run", "--profile", "tiny", "--fs", "ext4", "--workload", "seq-write", "--out", str(out),
            "--scratch", str(tmp_path / "scratch"), "--device", dev]
    assert main(argv) == 1
    assert "--destroy-data" in capsys.readouterr().err
    assert main(argv + ["--destroy-data"]) == 0
    (path,) = (out / "results").iterdir()
    result = readable(json.loads(path.read_text()))
    assert result["target"]["kind"] == "block-device" and result["target"]["device_bytes"] == 512 * 2**20
    assert result["cells"][0]["status"] == "ok"
    # the run left its ext4 on the device: the next run must be told to confirm
    capsys.readouterr()
    assert main(argv + ["--destroy-data"]) == 1
    err = capsys.readouterr().err
    assert dev in err and "ext4" in err and "--confirm-device" in err


def _start(tmp_path, *extra, workloads="seq-write,seq-read,rand-read-4k,rand-write-4k"):
    out, scratch = tmp_path / "out", tmp_path / "scratch"
    return subprocess.Popen([*FSATLAS, "run", "--profile", "tiny", "--fs", "ext4,xfs", "--workload", workloads,
                             "--out", str(out), "--scratch", str(scratch), *extra],
                            stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            # a test run from a background job inherits SIGINT ignored: a user's run does not
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL)), out, scratch


def _wait_for_mount(scratch, proc, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(f" {scratch}/" in line for line in Path("/proc/self/mounts").read_text().splitlines()):
            return
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    raise AssertionError("the run never mounted anything")


def test_sigint_mid_run_then_resume(tmp_path):
    before = loop_state(tmp_path)
    proc, out, scratch = _start(tmp_path, workloads="seq-write,rand-read-4k")  # 4 cells: enough to stop between
    _wait_for_mount(scratch, proc)
    time.sleep(1)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err[-3000:]  # what it printed, should a run ever miss the Ctrl-C again
    assert loop_state(tmp_path) == before and scratch_left(scratch) == []
    (path,) = (out / "results").iterdir()
    result = readable(json.loads(path.read_text()))
    assert result["complete"] is False
    done = {c["key"]: c for c in result["cells"] if c["status"] == "ok"}
    assert len(done) < len(result["cells"])
    assert not (out / "raw" / result["id"]).exists()  # packed when interrupted
    kept = {r for r in raw_files(out, result) if "/baseline/" not in r}
    assert kept == {r for c in result["cells"] for r in c["raw"]}  # the interrupted repetition left none
    assert main(["run", "--resume", result["id"], "--profile", "tiny", "--fs", "ext4,xfs", "--workload",
                 "seq-write,rand-read-4k", "--out", str(out), "--scratch", str(scratch)]) == 0
    resumed = readable(json.loads(path.read_text()))
    assert resumed["complete"] is True and all(c["status"] == "ok" for c in resumed["cells"])
    for cell in resumed["cells"]:
        if cell["key"] in done:
            assert cell == done[cell["key"]]  # finished cells were not redone
    # each session is recorded where it fell (#60 round 30): the second after the first, adding up to
    # the wall time, every repetition within one; and validate takes the file, baseline and reports
    (first, second) = resumed["sessions"]
    assert first["began"] + first["seconds"] <= second["began"] and result["sessions"] == [first]
    assert abs(first["seconds"] + second["seconds"] - resumed["wall_seconds"]) <= 0.002
    assert all(any(s["began"] <= t <= s["began"] + s["seconds"] for s in (first, second))
               for c in resumed["cells"] for t in c["started"])
    assert main(["validate", "--no-cache", str(path)]) == 0
    assert loop_state(tmp_path) == before


def _kill_mid_run(tmp_path):
    proc, out, scratch = _start(tmp_path)
    _wait_for_mount(scratch, proc)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)
    assert any(f" {scratch}/" in line for line in Path("/proc/self/mounts").read_text().splitlines())
    return out, scratch


def test_sigkill_leftovers_are_removed_by_cleanup_and_only_those(tmp_path, capsys):
    before = loop_state(tmp_path)
    out, scratch = _kill_mid_run(tmp_path)
    (scratch / "not-fsatlas").mkdir()
    alive = Path(leftovers.owned_dir(str(scratch)))  # a live run's folder (this test process owns it)
    assert main(["cleanup", "--scratch", str(scratch)]) == 0
    printed = capsys.readouterr().out
    assert "unmounted" in printed and "detached /dev/loop" in printed
    assert loop_state(tmp_path) == before
    assert scratch_left(scratch) == sorted(["not-fsatlas", alive.name])


def test_a_filesystem_left_frozen_by_a_killed_run_is_thawed_and_removed(tmp_path, capsys):
    """A run killed between target.quiesce's freeze and thaw leaves its filesystem frozen: unmounted
    so, its superblock stays alive, detached, and holds the loop device for good (round 21: three
    loop devices were left this way). cleanup thaws it first."""
    before = loop_state(tmp_path)
    out, scratch = _kill_mid_run(tmp_path)
    points = [line.split()[1] for line in Path("/proc/self/mounts").read_text().splitlines() if f" {scratch}/" in line]
    assert points
    for point in points:  # frozen now, if the kill did not already leave it so (fsfreeze then says busy)
        done = subprocess.run(["fsfreeze", "--freeze", point], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0 or "busy" in done.stderr, done.stderr
    assert main(["cleanup", "--scratch", str(scratch)]) == 0
    assert loop_state(tmp_path) == before


def test_sigkill_leftovers_are_removed_by_the_next_run(tmp_path):
    before = loop_state(tmp_path)
    out, scratch = _kill_mid_run(tmp_path)
    done = subprocess.run([*FSATLAS, "run", "--profile", "tiny", "--fs", "ext4", "--workload", "create-files",
                           "--out", str(tmp_path / "out2"), "--scratch", str(scratch)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "cleanup of an earlier run that died" in done.stderr
    assert loop_state(tmp_path) == before and scratch_left(scratch) == []


def test_two_runs_on_one_scratch_do_not_mix(tmp_path, capsys):
    proc, out, scratch = _start(tmp_path, workloads="seq-write")  # its 2 cells outlast the second run's refusal
    _wait_for_mount(scratch, proc)
    assert main(["run", "--profile", "tiny", "--fs", "ext4", "--workload", "seq-write", "--out",
                 str(tmp_path / "other"), "--scratch", str(scratch)]) == 1
    err = capsys.readouterr().err
    assert "another fsatlas run" in err and str(proc.pid) in err and str(scratch) in err
    assert main(["cleanup", "--scratch", str(scratch)]) == 1  # nor does cleanup touch a live run
    _, stderr = proc.communicate(timeout=300)
    assert proc.returncode == 0, stderr
    (path,) = (out / "results").iterdir()
    assert all(c["status"] == "ok" for c in readable(json.loads(path.read_text()))["cells"])


def _fault_matrix(tmp_path, fio_job, budget=60):
    matrix = tmp_path / "matrix.yaml"
    matrix.write_text(f"""
filesystems:
  ext4: {{mkfs: [mkfs.ext4, -F, -q]}}
workloads:
  faulty: {{kind: fio, primary: throughput, fio: {fio_job}}}
  create-files: {{kind: smallfiles, primary: create_per_s, parameters: {{phases: [create], file_size: 0, directories: 1}}}}
profiles:
  p:
    image_size: 128M
    repetitions: 1
    filesystems: [ext4]
    workloads: {{faulty: {{budget_s: {budget}}}, create-files: {{files: 200}}}}
""")
    return matrix


def _run_faulty(tmp_path, matrix, capsys, env=None):
    before = loop_state(tmp_path)
    out, scratch = tmp_path / "out", tmp_path / "scratch"
    argv = [*FSATLAS, "run", "--matrix", str(matrix), "--profile", "p", "--out", str(out), "--scratch", str(scratch)]
    done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    assert loop_state(tmp_path) == before and scratch_left(scratch) == []
    (path,) = (out / "results").iterdir()
    cells = {c["workload"]: c for c in readable(json.loads(path.read_text()))["cells"]}
    assert cells["create-files"]["status"] == "ok"  # the run went on after the fault
    assert cells["faulty"]["status"] == "failed" and cells["faulty"]["metrics"] == {}
    assert f"failed: {cells['faulty']['key']}" in done.stderr  # the summary lists it
    return cells["faulty"]["reason"]


def test_a_full_filesystem_fails_its_cell_with_the_tools_message(tmp_path, capsys):
    reason = _run_faulty(tmp_path, _fault_matrix(tmp_path, "{rw: write, bs: 1M, size: 400M}"), capsys)
    assert "No space left on device" in reason


def test_a_hanging_fio_is_stopped(tmp_path, capsys):
    # fio would write for 10 minutes; the workload's budget (1 s + fsatlas's 30 s grace) stops it
    matrix = _fault_matrix(tmp_path, "{rw: write, bs: 4k, size: 8M, time_based: 1, runtime: 600}", budget=1)
    started = time.monotonic()
    reason = _run_faulty(tmp_path, matrix, capsys)
    assert "did not finish within 31 s" in reason and time.monotonic() - started < 120


def _bin_with(tmp_path, fio_script=None):
    """A PATH like this machine's, with fio replaced (or left out when FIO_SCRIPT is None)."""
    tools = tmp_path / "bin"
    tools.mkdir()
    for folder in ("/usr/local/bin", "/usr/bin", "/bin"):
        for name in os.listdir(folder) if os.path.isdir(folder) else []:
            if name != "fio" and not (tools / name).exists():
                (tools / name).symlink_to(os.path.join(folder, name))
    if fio_script:
        (tools / "fio").write_text(fio_script)
        (tools / "fio").chmod(0o755)
    return {**os.environ, "PATH": f"{tools}:/usr/local/sbin:/usr/sbin:/sbin"}


def test_a_crashing_fio_fails_its_cell(tmp_path, capsys):
    real = shutil.which("fio")
    # the real fio, with its job file from stdin, killed by SIGSEGV after a second of work
    crash = (f'#!/bin/sh\njob=$(mktemp)\ncat > "$job"\n'
             f'for a; do shift; [ "$a" = "-" ] && a="$job"; set -- "$@" "$a"; done\n'
             f'{real} "$@" &\npid=$!\nsleep 1\nkill -SEGV $pid\nwait $pid\nexit $?\n')
    matrix = _fault_matrix(tmp_path, "{rw: write, bs: 4k, size: 8M, time_based: 1, runtime: 5}")
    reason = _run_faulty(tmp_path, matrix, capsys, env=_bin_with(tmp_path, crash))
    assert "fio exited 139" in reason


def test_a_missing_tool_fails_its_cell(tmp_path, capsys):
    matrix = _fault_matrix(tmp_path, "{rw: write, bs: 1M, size: 8M}")
    reason = _run_faulty(tmp_path, matrix, capsys, env=_bin_with(tmp_path))
    assert "fio is not installed" in reason


def test_non_root_is_told_what_root_is_needed_for(tmp_path):
    # a forked child gives up root for good (uid 65534) and runs the command in-process: the
    # checkout may sit in a folder that user cannot even read
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        try:
            sys.stderr = os.fdopen(write, "w")  # pytest captures sys.stderr; the parent reads this pipe
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
            code = main(["run", "--profile", "tiny", "--out", str(tmp_path / "o")])
        except BaseException:
            code = 99
        sys.stderr.flush()
        os._exit(code)
    os.close(write)
    _, status = os.waitpid(pid, 0)
    with os.fdopen(read) as f:
        err = f.read()
    assert os.waitstatus_to_exitcode(status) == 1, err
    assert "loop devices, mkfs and mount need root" in err and "--directory" in err
    assert "Traceback" not in err


def test_a_ctrl_c_just_after_losetup_attached_leaves_no_loop_device(tmp_path, monkeypatch):
    """Ctrl-C landing inside a loop image's setup, after losetup attached the device and before
    the image was handed to the run (the with statement not yet entered, so no __exit__):
    the device is detached and the folder removed all the same."""
    from fsatlas.run import target
    before = loop_state(tmp_path)
    real_run = subprocess.run

    def interrupted(argv, *args, **kwargs):
        done = real_run(argv, *args, **kwargs)
        if argv[0] == "losetup" and "--find" in argv:
            raise KeyboardInterrupt  # the device is attached; its name never reaches the run
        return done

    monkeypatch.setattr(target.subprocess, "run", interrupted)
    scratch = tmp_path / "scratch"
    with pytest.raises(KeyboardInterrupt):
        with target.LoopImage(str(scratch), 64 * 2**20):
            pytest.fail("the with body ran")
    monkeypatch.setattr(target.subprocess, "run", real_run)
    assert loop_state(tmp_path) == before and scratch_left(scratch) == []


def test_a_ctrl_c_whose_exception_python_swallowed_still_stops_the_run(tmp_path, monkeypatch):
    """Python drops an exception raised inside a destructor ("Exception ignored in ..."), so the
    KeyboardInterrupt of a Ctrl-C landing there never reaches the run (a CI run once went on to
    the end and exited 0). The signal is remembered: the run stops before its next repetition
    and says it is incomplete."""
    from fsatlas.run import execution, interrupts
    before = loop_state(tmp_path)
    finish = execution.CellRun.finish

    def finish_then_a_swallowed_ctrl_c(self):
        finish(self)
        interrupts.received.append(signal.SIGINT)  # the handler ran; its exception went nowhere

    monkeypatch.setattr(execution.CellRun, "finish", finish_then_a_swallowed_ctrl_c)
    out, scratch = tmp_path / "out", tmp_path / "scratch"
    assert main(["run", "--profile", "tiny", "--fs", "ext4", "--workload", "seq-write,seq-read",
                 "--out", str(out), "--scratch", str(scratch)]) == 130
    (path,) = (out / "results").iterdir()
    result = readable(json.loads(path.read_text()))
    assert result["complete"] is False
    assert sorted(c["status"] for c in result["cells"]) == ["failed", "ok"]  # the second never ran
    assert loop_state(tmp_path) == before and scratch_left(scratch) == []


def test_loop_state_sees_the_loop_devices_under_its_folder_and_no_others(tmp_path):
    """The check every test above relies on can fail: a device attached to an image under the
    test's folder is seen; one attached by someone else, elsewhere, is not."""
    mine, theirs = tmp_path / "mine", tmp_path.parent / f"{tmp_path.name}-theirs"
    attached = []
    try:
        for folder in (mine, theirs):
            folder.mkdir()
            (folder / "img").write_bytes(bytes(1 << 20))
            attached.append(subprocess.run(["losetup", "--find", "--show", str(folder / "img")],
                                           capture_output=True, text=True, check=True).stdout.strip())
        assert loop_state(mine) == ([attached[0]], [])
        assert loop_state(theirs) == ([attached[1]], [])
    finally:
        for device in attached:
            subprocess.run(["losetup", "--detach", device], check=True)
        shutil.rmtree(theirs, ignore_errors=True)
    assert loop_state(mine) == ([], [])
