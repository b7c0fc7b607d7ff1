"""What a run leaves in its scratch directory, and removing it after a run that died.

Every folder a run makes for its work is named fsatlas-<pid>-… and holds owner.json with the
run's process id and that process's start time, so a reused process id is not taken for
the owner. A run holds an exclusive lock on SCRATCH/.fsatlas.lock while it lives; the kernel
releases it when the process dies, even by SIGKILL. The next run or `fsatlas cleanup` then
removes the folders whose owner is gone, and only those: the mounts below them, the loop
devices whose image is inside them, the processes still using them, then the folders.
"""
import contextlib
import fcntl
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile

from ..errors import UserError

OWNER, LOCK = "owner.json", ".fsatlas.lock"


def _start_time(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as f:
            return f.read().rsplit(")", 1)[1].split()[19]  # field 22: start time in clock ticks
    except (OSError, IndexError):
        return ""


def owned_dir(parent: str, prefix: str = "") -> str:
    """A new folder in PARENT marked as this process's."""
    path = tempfile.mkdtemp(prefix=f"fsatlas-{os.getpid()}-{prefix}", dir=parent)
    with open(os.path.join(path, OWNER), "w", encoding="utf-8") as f:
        json.dump({"pid": os.getpid(), "start_time": _start_time(os.getpid())}, f)
    return path


def owner_alive(path: str) -> bool:
    try:
        with open(os.path.join(path, OWNER), encoding="utf-8") as f:
            owner = json.load(f)
        return _start_time(int(owner["pid"])) == str(owner["start_time"])
    except (OSError, ValueError, KeyError, TypeError):
        return False


def dead_dirs(parent: str) -> list:
    """Folders in PARENT that a run made (they carry owner.json) and whose run is gone."""
    try:
        names = sorted(os.listdir(parent))
    except OSError:
        return []
    return [os.path.join(parent, n) for n in names
            if n.startswith("fsatlas-") and os.path.isfile(os.path.join(parent, n, OWNER))
            and not owner_alive(os.path.join(parent, n))]


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


_OCTAL = re.compile(r"\\([0-7]{3})")


def mounts() -> list[list[str]]:
    """The fields of each line of /proc/self/mounts (source, mount point, type, options, ...),
    the source and mount point as the kernel knows them: it writes a space, tab, newline or
    backslash in them as an octal escape (\\040, \\011, \\012, \\134: show_vfsmnt and
    mangle in fs/proc_namespace.c), and a mount point with a space is otherwise never found."""
    with open("/proc/self/mounts", encoding="utf-8") as f:
        rows = [line.split() for line in f]
    return [[unmangle(v) if i < 2 else v for i, v in enumerate(r)] for r in rows if len(r) >= 4]


def unmangle(field: str) -> str:
    """A path field of the kernel's mount tables (/proc/self/mounts, mountinfo) as the path it is."""
    return _OCTAL.sub(lambda m: chr(int(m.group(1), 8)), field)


def _mounts_below(folder: str) -> list:
    return sorted({r[1] for r in mounts() if _inside(r[1], folder)}, key=len, reverse=True)


def loops_below(folder: str) -> list:
    found = []
    for name in sorted(os.listdir("/sys/block")) if os.path.isdir("/sys/block") else []:
        try:
            with open(f"/sys/block/{name}/loop/backing_file", encoding="utf-8") as f:
                backing = f.read().strip().removesuffix(" (deleted)")
        except OSError:
            continue
        if _inside(backing, folder):
            found.append(f"/dev/{name}")
    return found


def _users_of(folder: str) -> list:
    """Process ids (not ours) with their working directory or an open file below FOLDER."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            links = [os.readlink(f"/proc/{entry}/cwd")] + \
                [os.readlink(f"/proc/{entry}/fd/{fd}") for fd in os.listdir(f"/proc/{entry}/fd")]
        except OSError:
            continue
        if any(_inside(link, folder) for link in links):
            pids.append(int(entry))
    return pids


FIFREEZE, FITHAW = 0xC0045877, 0xC0045878  # _IOWR('X', 119 and 120, int): include/uapi/linux/fs.h


def thaw(mountpoint: str) -> None:
    """The filesystem at mountpoint thawed, if a run died while it was frozen (target.quiesce,
    SIGKILL between its freeze and thaw): unmounted frozen, its superblock would stay alive,
    detached and frozen, and hold its loop device for good. A filesystem not frozen answers
    EINVAL: nothing to do."""
    with contextlib.suppress(OSError):
        fd = os.open(mountpoint, os.O_RDONLY | os.O_NONBLOCK)
        try:
            fcntl.ioctl(fd, FITHAW, 0)
        finally:
            os.close(fd)


def remove(folder: str) -> list:
    """Tears down what a dead run left in FOLDER; returns what was done, one line each."""
    done = []
    for pid in _users_of(folder):
        try:
            os.kill(pid, signal.SIGKILL)
            done.append(f"stopped process {pid} still using {folder}")
        except OSError:
            pass
    for point in _mounts_below(folder):
        thaw(point)
        if subprocess.run(["umount", point], capture_output=True, timeout=120).returncode != 0:
            subprocess.run(["umount", "-l", point], capture_output=True, timeout=60)
        done.append(f"unmounted {point}")
    for device in loops_below(folder):
        subprocess.run(["losetup", "-d", device], capture_output=True, timeout=60)
        done.append(f"detached {device}")
    shutil.rmtree(folder, ignore_errors=True)
    done.append(f"removed {folder}")
    return done


def clean(parent: str) -> list:
    return [line for folder in dead_dirs(parent) for line in remove(folder)]


class ScratchLock:
    """Held while a run uses a scratch directory: a second run there is refused, not mixed in."""

    def __init__(self, scratch: str):
        self.path, self.file = os.path.join(scratch, LOCK), None

    def __enter__(self):
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        self.file = open(self.path, "a+", encoding="utf-8")
        try:
            fcntl.flock(self.file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.file.seek(0)
            holder = self.file.read().strip() or "unknown"
            self.file.close()
            raise UserError(f"another fsatlas run (process {holder}) is using this scratch directory; wait for it "
                            "to finish or give this run its own --scratch", where=os.path.dirname(self.path)) from None
        self.file.truncate(0)
        self.file.write(str(os.getpid()))
        self.file.flush()
        return self

    def __exit__(self, *exc):
        self.file.close()  # closing releases the lock; the file stays, empty of meaning
        return False
