"""Feature probes that ask a filesystem's own tools: online defragmentation, a dump and restore
round trip, user, group and project quotas, transparent compression.

Each tool is named per filesystem below; a filesystem without one here is asked through the
kernel's generic interface where there is one (the quota mount options, the compression file
attribute), else "not available" with that reason, never a "no". A "no" is only what a tool or
the kernel answered when asked.
"""
import errno
import fcntl
import os
import shutil
import struct
import subprocess
import threading

from . import filesystems, leftovers, target
from .probe_findings import IMAGE_BYTES, Finding, KernelLog, Transcript

DEFRAG = {"ext4": ["e4defrag", "{file}"], "xfs": ["xfs_fsr", "-v", "{file}"],
          "btrfs": ["btrfs", "filesystem", "defragment", "{file}"]}
# dump writes the whole filesystem to a file; restore reads it back into an empty folder.
DUMP = {"ext2": (["dump", "-0", "-f", "{dump}", "{dev}"], ["restore", "-r", "-f", "{dump}"]),
        "ext3": (["dump", "-0", "-f", "{dump}", "{dev}"], ["restore", "-r", "-f", "{dump}"]),
        "ext4": (["dump", "-0", "-f", "{dump}", "{dev}"], ["restore", "-r", "-f", "{dump}"]),
        "xfs": (["xfsdump", "-l", "0", "-L", "fsatlas", "-M", "fsatlas", "-f", "{dump}", "{mnt}"],
                ["xfsrestore", "-f", "{dump}", "{into}"]),
        "btrfs": (["btrfs", "send", "-f", "{dump}", "{mnt}/dump-snap"], ["btrfs", "receive", "-f", "{dump}", "{into}"])}
# How each filesystem is made and mounted with quotas. ext4 keeps them in hidden inodes (its
# quota and project features) and XFS in its own metadata; the others use the quota files
# quotacheck makes, turned on with quotaon. A 1 MiB hard limit is then set (setquota, xfs_quota).
QUOTA_MKFS = {"ext4": ["-O", "quota,project"]}
QUOTA_MOUNT = {"ext2": ["usrquota", "grpquota"], "ext3": ["usrquota", "grpquota"],
               "ext4": ["usrquota", "grpquota", "prjquota"], "xfs": ["uquota", "gquota", "pquota"],
               "jfs": ["usrquota", "grpquota"], "reiserfs": ["usrquota", "grpquota"], "f2fs": ["usrquota", "grpquota"]}
QUOTA_FILES = {"ext2", "ext3", "jfs", "reiserfs", "f2fs"}
PROJECT_ID = "4242"
NOBODY = 65534
COMPRESS = {"btrfs": ["compress=zstd"]}  # mount options that turn compression on
COMPRESSIBLE_BYTES = 64 * 1024 * 1024


def _fill(path: str, size: int, data: bytes = b"fsatlas " * 512) -> None:
    with open(path, "wb") as f:
        for _ in range(size // len(data)):
            f.write(data)
        f.flush()
        os.fsync(f.fileno())


# ext2 and ext3 have no defragmenter of their own; e4defrag refuses them by their type's name
# ("Filesystem is not ext4 filesystem"), so the kernel is asked directly with the request e4defrag
# sends, EXT4_IOC_MOVE_EXT (include/uapi/linux/ext4.h: _IOWR('f', 15, struct move_extent), 40
# bytes). The ext4 driver, which serves them where the kernel has no ext2 driver, moves only
# extent-mapped files (fs/ext4/move_extent.c: EOPNOTSUPP otherwise); an ext2 driver knows no such
# request (ENOTTY). Either refusal is the kernel's "no".
ASK_KERNEL = {"ext2", "ext3"}
EXT4_IOC_MOVE_EXT = 0xC028660F
MOVE_EXTENT = struct.Struct("IIQQQQ")  # reserved, donor_fd, orig_start, donor_start, len, moved_len


def _written(path: str) -> None:
    with open(path, "wb") as f:  # 64 small appends with fsync between: several extents
        for _ in range(64):
            f.write(os.urandom(64 * 1024))
            f.flush()
            os.fsync(f.fileno())


def _move_extents(path: str, log: Transcript) -> Finding:
    """The kernel's answer to EXT4_IOC_MOVE_EXT on a file of the mounted filesystem, a donor of the
    same size beside it: "yes" where it moved blocks, "no" where it refused the request."""
    _written(path + "-donor")
    orig, donor = os.open(path, os.O_RDWR), os.open(path + "-donor", os.O_RDWR)
    try:
        request = bytearray(MOVE_EXTENT.pack(0, donor, 0, 0, 16, 0))
        fcntl.ioctl(orig, EXT4_IOC_MOVE_EXT, request)
        moved = MOVE_EXTENT.unpack(request)[5]
    except OSError as e:
        if e.errno not in (errno.EOPNOTSUPP, errno.ENOTTY):
            raise
        log.note(f"ioctl(EXT4_IOC_MOVE_EXT) on {path} with a donor file: {errno.errorcode[e.errno]} ({e.strerror})")
        return Finding.value("no", f"the kernel refused the online defragmentation request e4defrag sends "
                                   f"(EXT4_IOC_MOVE_EXT) on a file of the mounted filesystem: {e.strerror}")
    finally:
        os.close(orig)
        os.close(donor)
    log.note(f"ioctl(EXT4_IOC_MOVE_EXT) on {path} with a donor file: {moved} blocks moved")
    return Finding.value("yes", f"the kernel moved {moved} blocks of a file (EXT4_IOC_MOVE_EXT, what e4defrag sends)")


def defrag(fs: str, mnt: str, log: Transcript) -> Finding:
    if fs not in DEFRAG and fs not in ASK_KERNEL:
        return Finding.unavailable(f"fsatlas knows no online defragmenter of {fs}")
    path = os.path.join(mnt, "defrag-probe")
    _written(path)
    if fs in ASK_KERNEL:
        return _move_extents(path, log)
    done = log.run([part.format(file=path) for part in DEFRAG[fs]])
    tool = DEFRAG[fs][0] if DEFRAG[fs][0] != "btrfs" else "btrfs filesystem defragment"
    if done.returncode == 0:
        return Finding.value("yes", f"{tool} ran on a file of the mounted filesystem and succeeded")
    return Finding.value("no", f"{tool} on a file of the mounted filesystem failed: "
                               f"{(done.stderr or done.stdout).strip()[-200:]}")


# A dump and a restore of the probe's one file take 0.03 to 0.5 s, and at most 4.4 s in an
# emulated guest (the committed probe records). dump once ran into a timeout of 300 s in a
# probe; 40 dumps in a row of a fresh ext4 image afterwards all ended within a limit of 20 s.
# Likely cause, found later: two probe lanes shared one working folder (see dump_restore); of
# three runs of three lanes with that folder, one took 61 s, as long as this timeout (its
# transcript was not kept). A dump past it fails the probe, saying so (probes.attempt).
DUMP_TIMEOUT = 60


def dump_restore(fs: str, spec: dict, image, scratch: str, log: Transcript) -> Finding:
    """A level-0 dump of the filesystem holding a file with a user xattr, restored into an empty
    folder: the round trip holds when the file and its xattr come back."""
    if fs not in DUMP:
        return Finding.unavailable(f"fsatlas knows no dump and restore tool of {fs}")
    dump_cmd, restore_cmd = DUMP[fs]
    if not shutil.which(dump_cmd[0]):
        return Finding.unavailable(f"{dump_cmd[0]} is not installed")
    # a folder of its own: the probe lanes (one a filesystem, at once) share scratch, and a shared
    # dump-probe/ let one lane delete the other's dump and restore folder while it ran (CI, stop 55:
    # ext4's restore "not installed", its working folder gone)
    mnt, work = image.mountpoint, leftovers.owned_dir(scratch, "dump-probe-")
    into = os.path.join(mnt if fs == "btrfs" else work, "restored")  # btrfs receives into a btrfs folder
    os.makedirs(into)
    try:
        content = os.urandom(256 * 1024)
        with open(os.path.join(mnt, "dumped"), "wb") as f:
            f.write(content)
        xattr = True
        try:
            os.setxattr(os.path.join(mnt, "dumped"), "user.fsatlas", b"kept")
        except OSError:
            xattr = False
        target.sync(mnt)
        if fs == "btrfs":  # send takes a read-only snapshot
            log.run(["btrfs", "subvolume", "snapshot", "-r", mnt, os.path.join(mnt, "dump-snap")])
        values = dict(dump=os.path.join(work, "dump"), dev=image.device, mnt=mnt, into=into)
        done = log.run([p.format(**values) for p in dump_cmd], timeout=DUMP_TIMEOUT)
        if done.returncode:
            return Finding.value("no", f"{dump_cmd[0]} failed: {(done.stderr or done.stdout).strip()[-200:]}")
        # restore -r names its temporary file after the dump's date in seconds and creates it
        # with O_EXCL (restore/dirs.c of dump 0.4b47, Debian's): two lanes' restores of dumps
        # made in the same second would collide in /tmp, so each has its own TMPDIR
        done = log.run([p.format(**values) for p in restore_cmd], timeout=DUMP_TIMEOUT, cwd=into,
                       env={"TMPDIR": work})
        if done.returncode:
            return Finding.value("no", f"{restore_cmd[0]} failed: {(done.stderr or done.stdout).strip()[-200:]}")
        found = [os.path.join(root, "dumped") for root, _, names in os.walk(into) if "dumped" in names]
        log.note(f"restored copies of the file: {found}")
        if not found:
            return Finding(status="failed", detail=f"{restore_cmd[0]} succeeded but the file is not among what it restored")
        with open(found[0], "rb") as f:
            same = f.read() == content
        try:
            kept = os.getxattr(found[0], "user.fsatlas") == b"kept"
        except OSError:
            kept = False
        pair = " and ".join(" ".join(c[:2]) if c[0] == "btrfs" else c[0] for c in (dump_cmd, restore_cmd))
        if not same:
            return Finding.value("no", f"{pair} ran, but the file came back changed")
        return Finding.value("yes", f"{pair} brought a file back unchanged"
                             + ("" if not xattr else ", with its user xattr" if kept else ", without its user xattr"))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _write_as(uid: int, path: str, size: int) -> str:
    """Writes size bytes to path as uid in a child process; '' or the error's name. The child
    starts in the file's folder (entered as root), so the folders above need not let uid in."""
    script = ("import errno, os, sys\n"
              "try:\n"
              f"    f = open({os.path.basename(path)!r}, 'wb')\n"
              f"    for _ in range({size} // 65536): f.write(b'q' * 65536); f.flush(); os.fsync(f.fileno())\n"
              "    f.close()\n"
              "except OSError as e:\n"
              "    print(errno.errorcode.get(e.errno, e.errno)); sys.exit(1)\n")
    done = subprocess.run(["python3", "-c", script], capture_output=True, text=True, timeout=120,
                          cwd=os.path.dirname(path), user=uid, group=uid, extra_groups=[])
    return done.stdout.strip() if done.returncode else ""


def _limit_held(kind: str, setting, refused: str) -> Finding:
    """What a 4 MiB write under a 1 MiB `kind` limit says: EDQUOT is a quota at work; a write
    refused otherwise is the probe's failure, never a no."""
    if setting.returncode:
        return Finding.value("no", f"setting a {kind} limit failed: {(setting.stderr or setting.stdout).strip()[-200:]}")
    if refused == "EDQUOT":
        return Finding.value("yes", f"a {kind} limit of 1 MiB stopped a 4 MiB write with EDQUOT")
    if refused:
        return Finding(status="failed", detail=f"the 4 MiB write under a 1 MiB {kind} limit failed with {refused}, not EDQUOT")
    return Finding.value("no", f"a {kind} limit of 1 MiB was set, and a 4 MiB write went through")


def quotas(fs: str, spec: dict, scratch: str, log: Transcript) -> dict:
    """quota_user_group and quota_project: a 1 MiB hard limit set for user nobody (and for a
    project folder), then 4 MiB written under it: EDQUOT is a quota at work."""
    if fs not in QUOTA_MOUNT:
        return _generic_quota_options(fs, spec, scratch, log)
    out = {}
    with target.LoopImage(scratch, IMAGE_BYTES) as image:
        filesystems.mkfs(spec, image.device, QUOTA_MKFS.get(fs, []))
        with KernelLog() as news:
            done = log.mount(spec, image, QUOTA_MOUNT[fs])
            said = news.says(image.device, log) if done.returncode else ""
        if done.returncode:
            if "CONFIG_QUOTA" in said or "quota support not available" in said.lower():  # the kernel's build, not the format
                found = Finding.unavailable(f"the running kernel ({os.uname().release}) has no quota support: {said}")
            else:
                found = Finding.value("no", f"mounting with {','.join(QUOTA_MOUNT[fs])} was refused"
                                            + (f": {said}" if said else f": {done.stderr.strip()[-200:]}"))
            return {"quota_user_group": found, "quota_project": found}
        mnt = image.mountpoint
        if fs == "xfs":
            user = log.run(["xfs_quota", "-x", "-c", f"limit -u bhard=1m {NOBODY}", mnt])
        else:
            if fs in QUOTA_FILES:  # ext4's hidden quota inodes are turned on by the mount itself
                log.run(["quotacheck", "-cugm", mnt], timeout=300)
                on = log.run(["quotaon", "-ug", mnt])
                if on.returncode and "already on" not in on.stderr:  # the kernel's quota, not the format, may be missing
                    said = (on.stderr or on.stdout).strip().splitlines() or ["no message"]
                    found = Finding.unavailable(f"quotaon was refused on Linux {os.uname().release}: {said[-1][-200:]}")
                    return {"quota_user_group": found, "quota_project": found}
            user = log.run(["setquota", "-u", str(NOBODY), "0", "1024", "0", "0", mnt])
        folder = os.path.join(mnt, "nobody")
        os.mkdir(folder)
        os.chown(folder, NOBODY, NOBODY)
        refused = _write_as(NOBODY, os.path.join(folder, "big"), 4 << 20) if user.returncode == 0 else ""
        log.note(f"4 MiB written as uid {NOBODY} under a 1 MiB limit: {refused or 'accepted'}")
        out["quota_user_group"] = _limit_held("user", user, refused)
        if "prjquota" not in QUOTA_MOUNT[fs] and "pquota" not in QUOTA_MOUNT[fs]:
            out["quota_project"] = Finding.unavailable(f"fsatlas knows no project quota of {fs}")
            return out
        project = os.path.join(mnt, "project")
        os.mkdir(project)
        os.chmod(project, 0o777)
        if fs == "xfs":
            log.run(["xfs_quota", "-x", "-c", f"project -s -p {project} {PROJECT_ID}", mnt])
            limit = log.run(["xfs_quota", "-x", "-c", f"limit -p bhard=1m {PROJECT_ID}", mnt])
        else:
            log.run(["chattr", "-p", PROJECT_ID, "+P", project])
            limit = log.run(["setquota", "-P", PROJECT_ID, "0", "1024", "0", "0", mnt])
        refused = _write_as(NOBODY, os.path.join(project, "big"), 4 << 20) if limit.returncode == 0 else ""
        log.note(f"4 MiB written into project {PROJECT_ID} under a 1 MiB limit: {refused or 'accepted'}")
        out["quota_project"] = _limit_held("project", limit, refused)
    return out


# The kernel's refusal of a mount option names the option, not the device: two filesystems probed
# at once (commands/probe.py) take turns, so neither reads the other's message as its own.
MOUNT_OPTION_MESSAGES = threading.Lock()


def _generic_quota_options(fs: str, spec: dict, scratch: str, log: Transcript) -> dict:
    """For a filesystem without quota tools named above: whether the kernel takes the generic
    quota mount options (usrquota,grpquota; prjquota), the VFS's names for them
    (Documentation/filesystems/quota.rst). A refusal is a "no"; an acceptance alone proves no
    limit, so it is "not available" until a tool sets one."""
    out = {}
    for probe, options in (("quota_user_group", ["usrquota", "grpquota"]), ("quota_project", ["prjquota"])):
        with target.LoopImage(scratch, IMAGE_BYTES) as image:
            filesystems.mkfs(spec, image.device, [])
            words = [f"'{o}'" for o in options]
            with MOUNT_OPTION_MESSAGES, KernelLog() as news:  # one mount at a time: another lane's refusal reads alike
                done = log.mount(spec, image, options)
                lines = news.lines(None, words, log) if done.returncode else []
            said = lines[-1].strip() if lines else ""  # btrfs: Unknown parameter 'usrquota'
        driver = spec.get("mount_type", "the kernel") if spec.get("driver") == "fuse" else "the kernel"
        if done.returncode:
            out[probe] = Finding.value("no", f"{driver} refused mount -o {','.join(options)}"
                                             + (f": {said}" if said else f": {done.stderr.strip()[-200:]}"))
        else:  # a FUSE driver may take an option it ignores: no more than "not available" either way
            out[probe] = Finding.unavailable(f"{driver} took mount -o {','.join(options)}, but fsatlas knows no tool "
                                             f"that sets a limit on {fs}")
    return out


def compression(fs: str, spec: dict, scratch: str, log: Transcript) -> Finding:
    """64 MiB of a repeated phrase written with compression on: it is on when the filesystem's
    used space grows by less than half of that. On a filesystem with no compression mount option
    named above, on is the generic file attribute (chattr +c, FS_COMPR_FL): a refusal is a "no",
    and an attribute accepted but ignored is one too."""
    with target.LoopImage(scratch, IMAGE_BYTES) as image:
        filesystems.mkfs(spec, image.device, [])
        options = COMPRESS.get(fs, [])
        done = log.mount(spec, image, options)
        if done.returncode and options:
            return Finding.value("no", f"mounting with {','.join(options)} was refused: {done.stderr.strip()[-200:]}")
        if done.returncode:
            return Finding(status="failed", detail=f"the filesystem did not mount: {done.stderr.strip()[-200:]}")
        path = os.path.join(image.mountpoint, "compressible")
        how = f"with {','.join(options)}" if options else "with chattr +c"
        if not options:
            open(path, "w").close()
            flag = log.run(["chattr", "+c", path])
            said = flag.stderr.strip().split(": ", 1)[-1].split(" on /")[0][:200]  # chattr: <why> while … on <path>
            if flag.returncode and "while reading flags" in said:  # FS_IOC_GETFLAGS unanswered (FUSE)
                return Finding.unavailable(f"the {fs} driver answers no file-attribute ioctl, so chattr +c cannot ask it: {said}")
            if flag.returncode:
                return Finding.value("no", f"chattr +c (FS_COMPR_FL) was refused: {said}")
        target.sync(image.mountpoint)
        before = _used(image.mountpoint)
        _fill(path, COMPRESSIBLE_BYTES)
        target.sync(image.mountpoint)
        grown = _used(image.mountpoint) - before
        log.note(f"used space grew by {grown} bytes for {COMPRESSIBLE_BYTES} bytes written")
        mib = COMPRESSIBLE_BYTES >> 20
        if grown < COMPRESSIBLE_BYTES // 2:
            return Finding.value("yes", f"{how}, {mib} MiB of repeated text took {grown / 2**20:.1f} MiB of the filesystem")
        return Finding.value("no", f"{how}, {mib} MiB of repeated text took {grown / 2**20:.1f} MiB: not compressed"
                                   + ("" if options else " (the attribute was accepted and ignored)"))


def _used(mnt: str) -> int:
    st = os.statvfs(mnt)
    return (st.f_blocks - st.f_bfree) * st.f_frsize
