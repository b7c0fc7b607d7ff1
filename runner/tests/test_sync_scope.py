"""A benchmark touches only the device it measures (issue #60): the runner's sync (target.sync,
the cache drop, the workloads' syncs) writes and flushes the filesystem under test alone, by
syncfs(2), or the raw device alone, by fsync(2); sync(2) would flush every filesystem of the
machine, other users' and other tests' loop devices. Judged on loop devices of this test's own
by their counters (Documentation/admin-guide/iostats.rst, read by evidence.device_stat: sectors
written, flushes completed): each bystander holds dirty data sync(2) would write; what was
synced shows its writes, and each bystander, synced by itself afterwards, shows that its dirty
data was still there to write. tree-copy's source tree, the run's own files, is written out
alone (target.write_out). The mount points lie under a folder whose name holds a space, a tab
and a backslash (escaped in the kernel's mount table); one filesystem is NTFS through FUSE
(ntfs-3g: syncfs reaches the block device under a fuseblk mount, with no flush)."""
import contextlib
import os
import shutil

import pytest

from fsatlas.run import evidence, filesystems, matrix, target
from fsatlas.run.workloads import lifecycle, smallfiles, treecopy
from fsatlas.run.workloads.context import RepContext
from testutil import loop_state

pytestmark = pytest.mark.root
DIRTY = 256 << 10  # bytes left unsynced on each bystander before each step
# ext4's inode tables zeroed by mkfs: else the kernel's ext4lazyinit thread zeroes one group's
# table at a time after the mount (CI saw one 1024-sector write on a bystander in each try)
QUIET_MKFS = {"ext4": ["-E", "lazy_itable_init=0,lazy_journal_init=0"]}
TRIES = 3  # any process's sync(2) on this machine writes the bystanders too: a step is judged clean once in TRIES


def _dirty(image) -> None:
    """DIRTY bytes written and not synced: into a file on a mounted filesystem, else into the raw
    device's page cache, through a descriptor held open (the last close of a block device writes
    its cache: blkdev_release)."""
    if os.path.ismount(image.mountpoint):
        # a new file each time: ext4 writes a file truncated and written again when it is closed (auto_da_alloc)
        with open(os.path.join(image.mountpoint, f"dirty-{os.urandom(6).hex()}"), "xb") as f:
            f.write(os.urandom(DIRTY))
    else:
        os.pwrite(image.held, os.urandom(DIRTY), 32 << 20)


def _grown(before: dict, image) -> dict:
    after = evidence.device_stat(image.device)
    return {k: after[k] - before[k] for k in ("writes", "write_sectors", "flushes")}


def _only(step, measured, bystanders, flushes: bool) -> dict:
    """Runs step with every bystander dirty; asserts that the measured device was written (and
    flushed, where its filesystem flushes) and that no bystander was, in one try of TRIES at
    least; returns what the measured device received."""
    seen = []
    for _ in range(TRIES):
        for image in bystanders:
            _dirty(image)
        before = {image.device: evidence.device_stat(image.device) for image in [measured, *bystanders]}
        step()
        got = _grown(before[measured.device], measured)
        touched = {image.device: _grown(before[image.device], image) for image in bystanders}
        for image in bystanders:  # each one's dirty data was there to write: its own sync writes it now
            own = evidence.device_stat(image.device)
            target.sync(image.mountpoint if os.path.ismount(image.mountpoint) else image.device)
            assert _grown(own, image)["write_sectors"] > 0 or touched[image.device]["write_sectors"] > 0, image.device
        assert got["write_sectors"] > 0 and (got["flushes"] > 0 or not flushes), got
        seen.append(touched)
        if not any(any(t.values()) for t in touched.values()):
            return got
    pytest.fail(f"{step.__name__}: a bystander was written or flushed in each of {TRIES} tries: {seen}")


def test_the_runner_syncs_only_the_filesystem_or_device_it_measures(tmp_path):
    m = matrix.load()
    specs = m.filesystems
    scratch = str(tmp_path / "scratch with space,\ttab and \\ backslash")  # the kernel escapes all three in its mount table
    before = loop_state(tmp_path)
    with contextlib.ExitStack() as stack:
        def image(fs, options=()):
            made = stack.enter_context(target.LoopImage(scratch, 64 << 20))
            if fs:
                filesystems.mkfs(specs[fs], made.device, QUIET_MKFS.get(fs, []))
                filesystems.mount(specs[fs], made.device, made.mountpoint, list(options))
            return made
        a, b = image("ext4"), image("ext4", ["commit=300"])  # b's journal commits only when synced
        raw = image(None)
        raw.held = os.open(raw.device, os.O_WRONLY)
        stack.callback(os.close, raw.held)
        fuse = image("ntfs") if not filesystems.unavailable_reason("ntfs", specs["ntfs"]) else None
        assert " " in a.mountpoint and filesystems.effective_options(a.mountpoint) and filesystems.is_mounted(a.mountpoint)
        others = [x for x in (b, fuse) if x]

        folder = os.path.join(a.mountpoint, "rep 1")
        os.mkdir(folder)

        def fill_a():
            _dirty(a)
            target.sync(folder)
        assert _only(fill_a, a, [*others, raw], flushes=True)["write_sectors"] >= DIRTY // 512

        def drop_a():
            _dirty(a)
            assert target.drop_caches(folder)
        assert _only(drop_a, a, [*others, raw], flushes=True)["write_sectors"] >= DIRTY // 512

        # a real cell's repetition: small-files syncs after create, rename and delete and drops before stat and read
        cell = m.profile("tiny", ["ext4"], ["small-files"]).cells[0]
        out = tmp_path / "out"
        out.mkdir()

        def small_files():
            os.makedirs(folder)
            ctx = RepContext(folder, str(out / "rep"), str(out), cell.budget_s, specs["ext4"], a, True, {})
            assert smallfiles.run(cell, ctx)["create_per_s"] > 0
            shutil.rmtree(folder)
        os.rmdir(folder)
        _only(small_files, a, [*others, raw], flushes=True)

        def raw_device():
            _dirty(raw)
            target.sync(raw.device)
        got = _only(raw_device, raw, [a, *others], flushes=True)
        assert got["write_sectors"] >= DIRTY // 512

        if fuse:
            def fuse_step():
                _dirty(fuse)
                target.sync(fuse.mountpoint)
            got = _only(fuse_step, fuse, [a, b, raw], flushes=False)  # ntfs-3g asks for no flush
            assert got["write_sectors"] >= DIRTY // 512

        # tree-copy's source tree, the run's own files on the host, is written out alone (sync_file_range)
        made = {}

        def own_files():
            tree = os.path.join(b.mountpoint, f"tree-{os.urandom(4).hex()}")
            made.update(treecopy.generate_tree(tree, 40))
            target.write_out(tree)
        got = _only(own_files, b, [a, *others[1:], raw], flushes=False)
        assert got["write_sectors"] >= made["bytes"] // 512

        # mount-time's drop between its mkfs and its mount: no filesystem mounted, the device is what it syncs
        mount_cell = m.profile("tiny", ["ext4"], ["mount-time"]).cells[0]

        def mount_time():
            ctx = RepContext(None, str(out / "mount"), str(out), mount_cell.budget_s, specs["ext4"], raw, True, {})
            assert lifecycle.run(mount_cell, ctx)["seconds"] > 0
        _only(mount_time, raw, [a, *others], flushes=False)
    assert loop_state(tmp_path) == before
