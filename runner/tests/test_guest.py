"""A guest booted from the pinned stock kernel (run/kernels.txt, unpacked by make setup): the
filesystems this machine's kernel lacks are probed there, and a run there has its cells
flagged emulated when the guest was. Slow (a guest boots in 16-20 s emulated)."""
import json
import os
import threading
import time

import pytest

from testutil import loop_state
from fsatlas.cli import main
from fsatlas.results import probefile
from fsatlas.results.validation import validate_file
from fsatlas.run import guest
from fsatlas.results.resultfile import readable  # a result file in the read form (schema 2 stores no summaries)

# one worker runs them in turn (scripts/test.sh: --dist loadgroup): the KVM trial that decides
# whether a guest is emulated (KVM_TRIAL_S where /dev/kvm cannot boot a stock kernel) is then made once
pytestmark = [pytest.mark.root, pytest.mark.xdist_group("guest")]
KERNEL = "debian-6.1"


def test_probe_in_a_guest_reaches_a_filesystem_the_host_lacks(tmp_path):
    before = loop_state(tmp_path)
    # two quick probes, not all: emulated, acl_max_entries alone took 170 s of this test's 334 s
    # (it is tried on the host's filesystems by test_probe; make perf times the whole guest run)
    assert main(["probe", "--kernel", KERNEL, "--fs", "jfs", "--probe", "max_filename_length,reflink",
                 "--out", str(tmp_path), "--machine", "guest-box"]) == 0
    assert loop_state(tmp_path) == before
    (path,) = probefile.files(str(tmp_path))
    assert probefile.problems(path) == []
    data = json.loads(open(path).read())  # a probe record (probefile), not a result
    image = guest.kernel_image(KERNEL)
    assert data["system"]["kernel"] == image.name.removeprefix("vmlinuz-")  # the guest's kernel, not this one's
    assert data["guest"]["kernel"] == KERNEL and data["guest"]["package"].startswith("linux-image-6.1.0-")
    assert data["emulated"] is data["guest"]["emulated"] is guest.emulated(image)
    found = {f["probe"]: f for f in data["findings"] if f["filesystem"] == "jfs"}
    assert sorted(found) == ["max_filename_length", "reflink"]
    assert found["max_filename_length"]["limit"] == 255
    assert found["reflink"]["value"] == "no"


def test_a_run_in_an_emulated_guest_flags_its_cells(tmp_path):
    assert main(["run", "--kernel", KERNEL, "--profile", "tiny", "--fs", "ext4", "--workload", "seq-write",
                 "--out", str(tmp_path), "--machine", "guest-box"]) == 0
    (path,) = (tmp_path / "results").glob("*.json")
    assert [p for p in validate_file(str(path)) if p.severity == "error"] == []
    result = readable(json.loads(path.read_text()))
    assert result["system"]["kernel"].startswith("6.1.0-") and result["target"]["guest"]["kernel"] == KERNEL
    (cell,) = [c for c in result["cells"] if c["status"] == "ok"]
    assert ("emulated" in cell["flags"]) is result["target"]["guest"]["emulated"]
    # an emulated guest measures no raw-device baseline: its speed is the emulator's
    assert ("baseline" in result["target"]) is not result["target"]["guest"]["emulated"]
    assert (tmp_path / "raw" / f"{result['id']}.tar.gz").is_file()


def _trial_processes() -> list[str]:
    """Processes still running the KVM trial's guest: the shell and virtme-run hold its command
    (echo fsatlas-kvm-ok) as text, QEMU in base64."""
    import base64
    marks = ("fsatlas-kvm-ok", base64.b64encode(b"echo fsatlas-kvm-ok").decode().rstrip("="))
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = open(f"/proc/{pid}/cmdline", "rb").read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if any(mark in cmdline for mark in marks):
            found.append(pid)
    return found


def test_the_kvm_trial_leaves_no_guest_running(monkeypatch):
    """Where /dev/kvm exists but cannot boot a stock kernel, the trial times out: its QEMU must go
    with it (it was left spinning at 100 % of a core, one per fsatlas process that asked)."""
    if not os.access("/dev/kvm", os.R_OK | os.W_OK):
        pytest.skip("no /dev/kvm here: the trial is never started")
    before = _trial_processes()
    # a trial cut short leaves what a timed-out one does, without waiting KVM_TRIAL_S for it; the
    # answer it caches is dropped after, so this worker's next guest tries the real trial
    monkeypatch.setattr(guest, "KVM_TRIAL_S", 5)
    guest.emulated.cache_clear()
    seen, trial = [], threading.Thread(target=guest.emulated, args=(guest.kernel_image(KERNEL),))
    trial.start()
    while trial.is_alive():
        seen += [pid for pid in _trial_processes() if pid not in before]
        time.sleep(0.2)
    guest.emulated.cache_clear()
    assert seen  # the trial did start its guest: its going is what is checked
    deadline = time.monotonic() + 10  # a killed QEMU leaves the process table a moment after its parent returns
    while [pid for pid in _trial_processes() if pid not in before] and time.monotonic() < deadline:
        time.sleep(0.1)
    assert [pid for pid in _trial_processes() if pid not in before] == []
