"""Targets a run measures on. Loop images in a scratch directory are the default; a block
device only when the user named it and devices.check let it through.

Each target is a context manager: whatever happens inside (an error, SIGINT, SIGTERM), on
exit the filesystem is unmounted, the loop device detached and the image deleted. Those
signals are held back during the teardown, so a second Ctrl-C cannot cut it short.
"""
import ctypes
import errno
import fcntl
import functools
import os
import shutil
import signal
import stat
import subprocess
import time

from . import filesystems, leftovers
from ..errors import UserError

_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


class _SignalsHeld:
    """SIGINT and SIGTERM wait (pending) until the block is done, then arrive as usual."""

    def __enter__(self):
        self.before = signal.pthread_sigmask(signal.SIG_BLOCK, ())  # the mask as it is, unchanged
        try:
            signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
        except BaseException:  # a signal that came just before: unblock, or every later one waits forever
            signal.pthread_sigmask(signal.SIG_SETMASK, self.before)
            raise

    def __exit__(self, *exc):
        signal.pthread_sigmask(signal.SIG_SETMASK, self.before)
        return False


def _mount_of(path: str) -> list:
    """The /proc/self/mounts fields (source, mount point, type, options, ...) of the mount that
    holds path, or []."""
    real = os.path.realpath(path)
    best = []
    for fields in leftovers.mounts():
        mnt = fields[1]
        if (real == mnt or real.startswith(mnt.rstrip("/") + "/")) and len(mnt) >= len(best[1] if best else ""):
            best = fields
    return best


def backing_filesystem(path: str) -> str:
    fields = _mount_of(path)
    return fields[2] if fields else ""


def storage_under(path: str) -> dict:
    """What holds path (a loop image's folder, a directory measured): the host filesystem, its
    mount options (those naming a path left out: they say where, not how), and the block device
    under it with its model and whether it is rotational, as the kernel reports them (no serial)."""
    fields = _mount_of(path)
    if not fields:
        return {}
    out = {"backing_filesystem": fields[2],
           "backing_mount_options": ",".join(o for o in fields[3].split(",") if "/" not in o)[:500]}
    if fields[0].startswith("/dev/") and os.path.exists(fields[0]):
        from . import devices  # the description a named device gets, for the device under the image
        described = devices.describe(fields[0])
        out["backing_device"] = os.path.basename(os.path.realpath(fields[0]))[:100]
        out["backing_rotational"] = described["rotational"]
        if described.get("device_model"):
            out["backing_device_model"] = described["device_model"]
    return out


class BlockDevice:
    """A block device the user named (and devices.check allowed): formatted, never deleted.
    The mount point lives in a folder of the scratch directory marked as this run's."""

    direct_io = True

    def __init__(self, device: str | None, scratch: str):
        self.device, self.scratch = device, scratch
        self.workdir = self.mountpoint = None

    def __enter__(self):
        os.makedirs(self.scratch, exist_ok=True)
        with _SignalsHeld():  # the folder and its owner mark appear together
            self.workdir = leftovers.owned_dir(self.scratch)
        self.mountpoint = os.path.join(self.workdir, "mnt")
        os.mkdir(self.mountpoint)
        return self

    def _release(self) -> None:
        """What the target gives back besides the mount and the folder: nothing, for a device."""

    def __exit__(self, *exc):
        with _SignalsHeld():
            if self.mountpoint:
                filesystems.unmount(self.mountpoint)
            self._release()
            if self.workdir:
                shutil.rmtree(self.workdir, ignore_errors=True)
                self.workdir = None
        return False


class LoopImage(BlockDevice):
    """A sparse image file in the scratch directory attached to a loop device with direct I/O."""

    def __init__(self, scratch: str, size_bytes: int):
        super().__init__(None, scratch)
        self.size_bytes, self.image, self.direct_io = size_bytes, None, False

    def __enter__(self):
        os.makedirs(self.scratch, exist_ok=True)
        if shutil.disk_usage(self.scratch).free < self.size_bytes:
            raise UserError("not enough free space for the loop image", where=self.scratch,
                            expected=f"{self.size_bytes} bytes free",
                            found=f"{shutil.disk_usage(self.scratch).free}")
        super().__enter__()
        try:
            self.image = os.path.join(self.workdir, "image")
            with open(self.image, "wb") as f:
                f.truncate(self.size_bytes)
            done = subprocess.run(["losetup", "--find", "--show", "--direct-io=on", self.image],
                                  capture_output=True, text=True)
            if done.returncode != 0 and "Invalid argument" in done.stderr:  # tmpfs (a guest's /tmp): no O_DIRECT
                done = subprocess.run(["losetup", "--find", "--show", self.image], capture_output=True, text=True)
            if done.returncode != 0:
                raise RuntimeError(f"losetup failed: {done.stderr.strip()}")
            self.device = done.stdout.strip()
            self.direct_io = _loop_direct_io(self.device)
        except BaseException:  # a failure or a Ctrl-C half way (with is not there yet to call __exit__)
            self.__exit__(None, None, None)
            raise
        return self

    def _release(self) -> None:
        """Detaches the image's loop device, and any other backed by a file in its folder: one
        losetup attached before a Ctrl-C cut it short, its name never read."""
        devices = [self.device] if self.device else []
        if self.workdir:
            devices += [d for d in leftovers.loops_below(os.path.realpath(self.workdir)) if d not in devices]
        for device in devices:
            subprocess.run(["losetup", "-d", device], capture_output=True)
        self.device = None


def _loop_direct_io(device: str) -> bool:
    try:
        with open(f"/sys/block/{os.path.basename(device)}/loop/dio", encoding="utf-8") as f:
            return f.read().strip() == "1"
    except OSError:
        return False


_libc = ctypes.CDLL(None, use_errno=True)
_libc.sync_file_range.argtypes = [ctypes.c_int, ctypes.c_int64, ctypes.c_int64, ctypes.c_uint]
SYNC_FILE_RANGE_WAIT_BEFORE, SYNC_FILE_RANGE_WRITE, SYNC_FILE_RANGE_WAIT_AFTER = 1, 2, 4  # include/uapi/linux/fs.h


# wall time in sync() and quiesce() so far: the kernel writing a filesystem's dirty state, which a
# cell's settle_seconds counts apart from the runner's own time (execution.CellRun.rep)
settled_seconds = 0.0


def _settling(step):
    """step, its wall time added to settled_seconds (once, where one calls the other)."""
    @functools.wraps(step)
    def timed(*args, **kwargs):
        global settled_seconds
        before, started = settled_seconds, time.monotonic()
        try:
            return step(*args, **kwargs)
        finally:
            settled_seconds = before + time.monotonic() - started
    return timed


@_settling
def sync(path: str) -> None:
    """Writes what is dirty on the filesystem holding PATH, and nothing else: syncfs(2) on a
    descriptor of PATH (a FUSE mount's too: the kernel writes the block device under a fuseblk
    mount, as sync(2) would). PATH a block device with no filesystem (the raw-device baseline,
    mkfs before mount-time): fsync(2) of the device, its own cached pages and one flush. Never
    sync(2) (os.sync, `sync`): that flushes every filesystem of the machine, other users'
    devices and other tests' loop devices, and its cost lands in the caller's timed part."""
    fd = os.open(path, os.O_RDONLY)
    try:
        if stat.S_ISBLK(os.fstat(fd).st_mode):
            os.fsync(fd)
        elif _libc.syncfs(fd) != 0:
            err = ctypes.get_errno()
            raise OSError(err, f"syncfs: {os.strerror(err)}", path)
    finally:
        os.close(fd)


@_settling
def quiesce(path: str) -> None:
    """sync(PATH), then its filesystem frozen and thawed at once (FIFREEZE, FITHAW): a freeze
    writes what a filesystem still holds back after a sync; XFS's log then needs no covering
    records (left alone, an idle XFS wrote 11 times, with 6 flushes, in the minute after a
    repetition's files were deleted, into whatever ran then: #60 round 21, finding 3). Only for
    a filesystem the runner made: a freeze stalls every writer of it. One that cannot be frozen
    (FUSE, or one frozen already) is synced only. Ctrl-C and SIGTERM wait until it is thawed; a
    run killed in between leaves it frozen, and its teardown thaws it (leftovers.thaw)."""
    sync(path)
    fd = os.open(path, os.O_RDONLY)
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM, signal.SIGHUP})
    frozen = False
    try:
        try:
            fcntl.ioctl(fd, leftovers.FIFREEZE, 0)
            frozen = True
        except OSError as e:
            if e.errno not in (errno.EOPNOTSUPP, errno.ENOTTY, errno.EINVAL, errno.EPERM, errno.EBUSY):
                raise
    finally:
        try:
            if frozen:
                fcntl.ioctl(fd, leftovers.FITHAW, 0)
        finally:
            os.close(fd)
            signal.pthread_sigmask(signal.SIG_SETMASK, held)


def mount_for_workloads(spec: dict, device: str, mountpoint: str, options) -> str:
    """filesystems.mount() with the filesystem's workload_mount options (the matrix: no background
    work of the filesystem's own while workloads are timed) before the cell's, so that a variant
    naming the same setting (discard=async, init_itable=20) has the last word, as the kernel reads
    a mount's options in order; then quiesced: what the mount itself left to write (Btrfs's first
    transaction, 136 KiB committed 30 s later) is written before any workload, not in the first
    one's timed part."""
    effective = filesystems.mount(spec, device, mountpoint, [*spec.get("workload_mount", []), *options])
    quiesce(mountpoint)
    return effective


def write_out(folder: str) -> None:
    """Writes the data of every file under FOLDER, this run's own (the generated source tree on
    the host), to its device and waits for it, touching no other file: sync_file_range(2), started
    on all of them before it waits on any; data only, no flush. Left dirty, the host would write
    them back during a later timed part (sync(2) before each repetition once did this, for every
    file of the machine)."""
    paths = [os.path.join(here, name) for here, _, names in os.walk(folder) for name in names]
    for flags in (SYNC_FILE_RANGE_WRITE, SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER):
        for path in paths:
            fd = os.open(path, os.O_RDONLY)
            try:
                if _libc.sync_file_range(fd, 0, 0, flags) != 0:
                    err = ctypes.get_errno()
                    raise OSError(err, f"sync_file_range: {os.strerror(err)}", path)
            finally:
                os.close(fd)


def drop_caches(path: str) -> bool:
    """Empties the page cache so a measurement reads the device, not memory; False if not
    allowed. PATH is what is measured (a folder on the filesystem under test, or the raw
    device): only it is synced first (sync); the drop itself writes nothing, so other
    filesystems' dirty pages stay dirty and only their clean pages leave memory."""
    sync(path)
    try:
        with open("/proc/sys/vm/drop_caches", "w", encoding="utf-8") as f:
            f.write("3\n")
        return True
    except OSError:
        return False
