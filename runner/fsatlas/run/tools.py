"""Running the external tools a run depends on (fio, mkfs, mount, dd, cp).

A failure becomes a RuntimeError carrying the tool's own message, so the cell that ran it
is recorded as failed with that message and the run goes on. On a timeout or an
interruption the tool and every process it started are killed: fio runs each job in a
child process that makes itself a session of its own (setsid), so neither killing fio nor
its process group would stop it, and it would go on writing into a mount that must be
unmounted. The tool also dies with fsatlas (PR_SET_PDEATHSIG); what may still outlive a
SIGKILLed run is found and stopped by the leftovers cleanup.
"""
import ctypes
import os
import signal
import subprocess
import tempfile
import time
from pathlib import Path

_PR_SET_PDEATHSIG = 1
busy_seconds = 0.0  # wall time spent inside tools so far: what the runner's own overhead is measured against
TOOLS_DIR = Path(__file__).resolve().parents[3] / ".tools"  # what make setup puts in the checkout (an editable install)
PINNED_PROGRAMS = TOOLS_DIR / "sbin"  # programs of the pinned packages (run/packages.txt), which apt does not ship


PINNED_LIST = Path(__file__).with_name("packages.txt")


def pinned_versions() -> dict:
    """Each pinned package's version, as run/packages.txt pins it (name -> version)."""
    out = {}
    for line in PINNED_LIST.read_text(encoding="utf-8").splitlines():
        fields = line.split()
        if fields and not line.startswith("#"):
            out[fields[0]] = fields[1]
    return out


def pinned_package(path: str) -> str | None:
    """The pinned package a program's real path lies in (.tools/packages/NAME/...), or None."""
    packages = TOOLS_DIR / "packages"
    try:
        return Path(os.path.realpath(path)).relative_to(packages.resolve()).parts[0]
    except (ValueError, IndexError, OSError):
        return None


def find_pinned_programs() -> None:
    """Puts PINNED_PROGRAMS first on PATH (when make setup made it), so that mkfs.hfsplus is
    found like any installed tool, here and in a guest, which runs fsatlas from this checkout."""
    # os.path.isdir: False, not PermissionError, for a user who may not read the checkout
    if os.path.isdir(PINNED_PROGRAMS) and str(PINNED_PROGRAMS) not in os.environ.get("PATH", "").split(os.pathsep):
        os.environ["PATH"] = os.pathsep.join(filter(None, (str(PINNED_PROGRAMS), os.environ.get("PATH"))))


def _die_with_parent() -> None:
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass  # not Linux: the cleanup of leftovers still stops such a process


def descendants(pid: int) -> list:
    """Every living process below PID, read from /proc."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="utf-8") as f:
                    parent = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def kill_tree(pid: int) -> None:
    """Kills pid and every process below it. The tree is stopped before any kill, and read again
    after each round of stops until it holds no process not yet stopped: a stopped process forks
    nothing, and a killed parent's children move to init and are lost. Read once and killed at
    once, a QEMU that virtme-run started between the read and the kills was left running (the
    KVM trial's, twice in a ci-local run)."""
    stopped: list[int] = []
    new = [pid]
    while new:
        for victim in new:
            _signal(victim, signal.SIGSTOP)
        stopped += new
        new = [p for p in descendants(pid) if p not in stopped]
    for victim in stopped:
        _signal(victim, signal.SIGKILL)


def _signal(pid: int, signum: int) -> None:
    try:
        os.kill(pid, signum)
    except ProcessLookupError:
        pass


def in_own_session(argv, timeout, input: str = "", cwd=None, env=None, daemon: bool = False) -> subprocess.CompletedProcess:
    """argv run to its end in a session of its own, its exit status whatever it is (a probe's
    answer may be a refusal). Once it ends, whatever of its session outlives it is killed; on a
    timeout or an interruption (raised again) it is killed with every process below it. A dump in
    a probe ran into its 300 s timeout where it takes 0.05 s, and one of its helper processes was
    still asleep ten minutes later, holding the probe's loop device open and the pipes that
    subprocess.run waits on to close. So its output goes to files, read once it has ended.
    start_new_session, not preexec_fn, which is unsafe in the probe lanes' threads.
    daemon: argv starts a process meant to outlive it (a FUSE mount's daemon: ntfs-3g forks it
    and returns, and it leaves the session when it calls setsid, a moment later): what outlives
    a normal end is left alone, or, on a loaded machine, the daemon was killed before it left and
    its mount answered "Transport endpoint is not connected".
    FileNotFoundError when argv[0] is not installed."""
    with tempfile.TemporaryFile() as stdin, tempfile.TemporaryFile() as stdout, tempfile.TemporaryFile() as stderr:
        stdin.write(input.encode())
        stdin.seek(0)
        proc = subprocess.Popen(argv, stdin=stdin, stdout=stdout, stderr=stderr, cwd=cwd, env=env,
                                start_new_session=True)
        try:
            proc.wait(timeout)
            ended = True
        except BaseException:
            kill_tree(proc.pid)  # read while it lives: a killed process's children are no longer below it
            proc.wait()
            ended = False
            raise
        finally:
            if not (daemon and ended):
                try:  # a session's id stays reserved while any member lives: no other process is hit
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        stdout.seek(0)
        stderr.seek(0)
        return subprocess.CompletedProcess(argv, proc.returncode, stdout.read().decode(errors="replace"),
                                           stderr.read().decode(errors="replace"))


def run(argv, timeout, what, input=None) -> subprocess.CompletedProcess:
    global busy_seconds
    started = time.monotonic()
    try:
        return _run(argv, timeout, what, input)
    finally:
        busy_seconds += time.monotonic() - started


def _run(argv, timeout, what, input) -> subprocess.CompletedProcess:
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=_die_with_parent)
    except FileNotFoundError:
        raise RuntimeError(f"{what} is not installed: {argv[0]} was not found on PATH") from None
    try:
        stdout, stderr = proc.communicate(input, timeout=timeout)
    except BaseException as e:  # a timeout, or SIGINT/SIGTERM arriving as KeyboardInterrupt
        kill_tree(proc.pid)
        proc.communicate()
        if isinstance(e, subprocess.TimeoutExpired):
            raise RuntimeError(f"{what} did not finish within {timeout:.0f} s and was stopped "
                               f"({' '.join(argv)})") from None
        raise
    done = subprocess.CompletedProcess(argv, proc.returncode, stdout, stderr)
    if done.returncode < 0:
        raise RuntimeError(f"{what} was killed by {signal.Signals(-done.returncode).name} ({' '.join(argv)})")
    if done.returncode != 0:
        message = (done.stderr or done.stdout).strip()
        raise RuntimeError(f"{what} exited {done.returncode} ({' '.join(argv)}): {message[-500:]}")
    return done
