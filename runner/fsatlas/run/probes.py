"""Feature probes: what a filesystem does when asked, tried on a fresh loop image.

Each probe answers one column of the feature matrix (data/feature_columns.yaml) by
experiment: it adds ACL entries until the kernel refuses, grows an image while it is mounted,
flips a byte under a file, and so on. Every command it runs and every answer it gets is
written to a transcript, kept as the probe's raw output; the answer is a value ("yes", "no")
or a limit (a number with its unit), with the detail that shows it ("ENAMETOOLONG at 256
bytes"). A probe that cannot run here is "not available" with the reason, never a guess.
"""
import errno
import functools
import os
import shutil
import subprocess
import sys
import time

from . import filesystems, interrupts, probe_tools, probes_generic, target
from .probe_findings import IMAGE_BYTES, Finding, Transcript, errno_name, KernelLog, made_and_mounted

GROW_BYTES = 256 * 1024 * 1024
SHRINK_BYTES = 128 * 1024 * 1024


def _largest(ok, low: int, high: int) -> int:
    """The largest n in [low, high] with ok(n) true, given ok(low) is true and ok is monotone:
    steps that double until one fails, then halving (a limit of 500 costs 18 tries, not 30
    tries of up to 70,000 ACL entries)."""
    step = 1
    while low + step <= high and ok(low + step):
        low += step
        step *= 2
    high = min(high, low + step - 1)
    while low < high:
        mid = (low + high + 1) // 2
        if ok(mid):
            low = mid
        else:
            high = mid - 1
    return low


# --- probes on one mounted filesystem --------------------------------------------------------
# The letters a name is made of, to learn the unit a filesystem counts a name's length in: bytes
# (ext4's EXT4_NAME_LEN 255), UTF-16 code units (NTFS: 255 "Unicode characters", Microsoft's
# limits table; NTFS and HFS+ keep names in UTF-16) or characters: "n" is one byte and one unit;
# "α" (U+03B1) two UTF-8 bytes and one UTF-16 unit, with no decomposition (HFS+ keeps names
# decomposed, NFD: "é" would be two units there, e and its accent); "😀" (U+1F600) four bytes and
# two units (a surrogate pair).
NAME_LETTERS = {"byte": "n", "two_bytes": "\u03b1", "two_units": "\U0001F600"}
TWO_BYTES = NAME_LETTERS["two_bytes"]
NAME_CEILING = 4096


def max_filename_length(mnt: str, log: Transcript) -> Finding:
    """The longest name created, in the unit the filesystem counts: the most ASCII letters, then
    the most two-byte letters; if their bytes are more than the ASCII letters' (ntfs-3g takes 255
    'α', 510 bytes), bytes are not what is counted, and the most four-byte letters (two UTF-16
    units each) tell UTF-16 units (half as many) from characters (as many)."""
    refusals = {}

    def ok(letter, n):
        path = os.path.join(mnt, letter * n)
        try:
            with open(path, "w"):
                pass
            os.unlink(path)
            return True
        except OSError as e:
            refusals[letter, n] = errno_name(e)
            return False

    def most(kind):
        letter = NAME_LETTERS[kind]
        if not ok(letter, 1):
            log.note(f"open(O_CREAT) of a name of one {letter!r}: refused with {refusals[letter, 1]}")
            return None
        n = _largest(lambda k: ok(letter, k), 1, NAME_CEILING // len(letter.encode()))
        log.note(f"open(O_CREAT) of names of n {letter!r} ({len(letter.encode())} UTF-8 bytes, "
                 f"{len(letter.encode('utf-16-le')) // 2} UTF-16 units each): {n} created ({n * len(letter.encode())} "
                 f"bytes), {n + 1} refused with {refusals.get((letter, n + 1))}")
        return n
    if not ok("n", 1):
        return Finding(status="failed", detail=f"cannot create a one-letter name: {refusals['n', 1]}")
    n = most("byte")
    e = most("two_bytes")
    if e is None or 2 * e <= n:  # the two-byte letters ran out where the bytes did: bytes are counted
        return Finding.limit(n, "bytes", f"a name of {n + 1} bytes was refused with {refusals.get(('n', n + 1))}"
                             + (f"; of '{TWO_BYTES}' (2 bytes each) {e} were taken ({2 * e} bytes)" if e else ""),
                             at_least=n == NAME_CEILING)
    a = most("two_units")
    letters = NAME_LETTERS["two_units"]
    if a is None or 2 * a <= e:  # a letter of two units counts twice (or is refused): UTF-16 units
        return Finding.limit(e, "UTF-16 code units",
                             f"{n} ASCII letters and {e} '{TWO_BYTES}' ({2 * e} bytes) were taken, and {a or 0} U+1F600"
                             f"{outside_bmp(e, a)}; {e + 1} '{TWO_BYTES}' were refused with "
                             f"{refusals.get((TWO_BYTES, e + 1))} and {(a or 0) + 1} U+1F600 with "
                             f"{refusals.get((letters, (a or 0) + 1))}")
    return Finding.limit(e, "characters", f"{n} ASCII letters, {e} '{TWO_BYTES}' ({2 * e} bytes) and {a} U+1F600 "
                         f"({2 * a} UTF-16 units) were taken: the filesystem counts characters")


def outside_bmp(units: int, taken: int | None) -> str:
    """What the most letters outside the BMP (U+1F600) taken say beside a limit of units UTF-16
    code units: two units each (a surrogate pair) where the limit holds half as many, else the
    units each took, read from where they stopped (issue #63: HFS+ took 63 and refused 64 under a
    limit of 255, four units each, not two), and that the limit in such characters is lower."""
    if not taken:
        return ": none was taken"
    if taken == units // 2:
        return f" (two UTF-16 units each, a surrogate pair: {2 * taken} units)"
    each = units // taken  # the whole number of units u with u * taken <= units < u * (taken + 1)
    fits = each * (taken + 1) > units
    return (f": fewer than the {units // 2} surrogate pairs {units} units hold, so each counted as more than two units"
            + (f" ({each} each: {each * taken} units taken, {each * (taken + 1)} refused)" if fits else "")
            + f"; for characters outside the BMP the limit is {taken} characters")


def _fresh(mnt: str, name: str) -> str:
    """A new empty file for one try. A limit probe sets its whole value at once on a file that
    never held one: a value replaced in place can be bounded by what the old one left behind
    (Btrfs refuses to enlarge an xattr whose leaf has run out of room), not by the filesystem."""
    path = os.path.join(mnt, name)
    open(path, "w").close()
    return path


# The mount option that makes a filesystem keep POSIX ACLs where its default mount keeps none:
# ntfs-3g(8) (2022.10.3): "acl: Enable setting Posix ACLs on created files and use them for access
# control"; the kernel's ntfs3 page: "acl: Support POSIX ACLs", built in only with
# CONFIG_NTFS3_FS_POSIX_ACL. ntfs-3g takes its options when its daemon starts, so the probe
# unmounts and mounts again with the option (mount_again), and without it once done.
ACL_MOUNT_OPTIONS = {"ntfs": ["acl"], "ntfs3": ["acl"]}


def _acl_entries(path: str, log: Transcript | None = None) -> int:
    """The entries getfacl reads back from path (3 where only the permission bits are kept), in
    the transcript when log is given."""
    argv = ["getfacl", "--numeric", "--omit-header", path]
    done = log.run(argv) if log else subprocess.run(argv, capture_output=True, text=True)
    return len([line for line in done.stdout.splitlines() if line and not line.startswith("#")])


def acl_max_entries(mnt: str, log: Transcript, mount_again=None) -> Finding:
    """The most entries one file's access ACL keeps: the 4 base entries and n named users, each n
    set at once on a new file and read back whole by getfacl (ntfs-3g on Linux 6.1 accepted 8,191
    and read back 3: accepted is not kept). mount_again(options, log) mounts the image again with
    these options (a MountAgain of the filesystem's ACL_MOUNT_OPTIONS), for one whose default mount
    refuses or drops a single named entry; the finding says the option was used."""
    if not shutil.which("setfacl"):
        return Finding.unavailable("setfacl is not installed (package acl)")
    path = _fresh(mnt, "acl-probe")
    spec = os.path.join(os.path.dirname(mnt), "acl-spec")
    last = {}

    def ok(named, keep=False):
        with open(spec, "w") as f:
            f.write("user::rw-\ngroup::r--\nmask::r--\nother::---\n")
            f.write("".join(f"user:{100000 + i}:r--\n" for i in range(named)))
        target = _fresh(mnt, f"acl-probe-{named}")
        done = subprocess.run(["setfacl", f"--set-file={spec}", target], capture_output=True, text=True)
        kept = 0 if done.returncode else _acl_entries(target)
        if done.returncode:
            last[named] = f"refused ({done.stderr.strip().split(': ')[-1]})"
        elif kept != named + 4:
            last[named] = f"accepted, but getfacl read back {kept} entries"
        if not keep:
            os.unlink(target)
        return kept == named + 4

    def one_entry():  # setfacl's answer to one named entry, and the entries then read back
        done = log.run(["setfacl", "-m", "u:100000:r", path])
        return done, (0 if done.returncode else _acl_entries(path, log))
    first, entries = one_entry()
    options = _xattr_options(first.stderr, mnt, log) if first.returncode else ""
    if options:
        first, entries = one_entry()
    if entries > 3 or not mount_again:
        return _acl_limit(mnt, log, first, entries, options, ok, last)
    without = _refused_or_dropped(first, entries)  # by default: mounted again with the ACL option
    refused = mount_again(mount_again.options, log)
    if refused:
        return Finding.unavailable(f"setfacl {without} by default, and the mount with the option "
                                   f"{','.join(mount_again.options)}, which keeps ACLs, was refused: {refused}")
    try:
        path = _fresh(mnt, "acl-probe")
        first, entries = one_entry()
        return _acl_limit(mnt, log, first, entries, f" with the mount option {','.join(mount_again.options)} "
                                                    f"(off by default: without it setfacl {without})", ok, last)
    finally:
        mount_again((), log)  # the default mount again, for the probes after this one


def _acl_limit(mnt: str, log: Transcript, first, entries: int, options: str, ok, last: dict) -> Finding:
    """acl_max_entries once one named entry was tried (first, and the entries getfacl then read):
    "no" where it was refused or dropped, else the limit found by _largest and read back."""
    if first.returncode:
        return Finding.value("no", f"setfacl refused a single entry{options}: {first.stderr.strip().split(': ')[-1]}")
    if entries <= 3:  # accepted, not kept
        return Finding.value("no", f"setfacl was accepted{options}, but getfacl reads back {entries} entries, the "
                                   f"permission bits: no ACL is kept")
    named = _largest(ok, 1, 70000)
    total = named + 4  # the owner, owning group, mask and other entries
    log.note(f"setfacl --set-file with the 4 base entries and n named users, each on a new file, then getfacl: "
             f"n={named} set and read back, n={named + 1} {last.get(named + 1)}")
    ok(named, keep=True)
    entries = _acl_entries(os.path.join(mnt, f"acl-probe-{named}"), log)
    if entries != total:
        return Finding(status="failed", detail=f"getfacl shows {entries} entries where {total} were set")
    return Finding.limit(total, "entries", f"{total} entries set and read back{options}; one more was "
                         f"{last.get(named + 1)}", at_least=named == 70000)


class MountAgain:
    """Unmounts a probe's image and mounts it again with other options (options: those a probe
    asks for), each command in the probe's transcript. A refused mount returns the refusal in the
    kernel's words (its new messages naming the device, the filesystem or an option) or mount's,
    and the image is mounted again as it was; '' once mounted."""

    def __init__(self, spec: dict, image, options: list):
        self.spec, self.image, self.options = spec, image, options

    def __call__(self, options, log: Transcript) -> str:
        words = tuple(w for w in (self.spec.get("kernel_fs"), *options) if w)  # ntfs3's refusal names no device
        log.run(["umount", self.image.mountpoint])
        with KernelLog() as news:
            done = log.mount(self.spec, self.image, options)
            told = news.lines(self.image.device, words, log) if done.returncode else []
        if done.returncode == 0:
            return ""
        if options:
            log.mount(self.spec, self.image)
        return "; ".join(told[-2:]) or done.stderr.strip()[-200:] or f"mount exited {done.returncode}"


def _refused_or_dropped(done, entries: int) -> str:
    if done.returncode:
        return f"refused a single entry ({done.stderr.strip().split(': ')[-1]})"
    return f"was accepted, but getfacl read back {entries} entries, the permission bits"


def xattr_max_value(mnt: str, log: Transcript) -> Finding:
    refusals = {}

    def ok(n):
        path = _fresh(mnt, f"xattr-probe-{n}")
        try:
            os.setxattr(path, "user.fsatlas", b"v" * n)
            return True
        except OSError as e:
            refusals[n] = errno_name(e)
            return False
        finally:
            os.unlink(path)
    options = "" if ok(1) else _xattr_options(refusals[1], mnt, log)
    if not ok(1):
        return Finding.value("no", f"a user xattr of one byte was refused{options} with {refusals[1]}")
    n = _largest(ok, 1, 1 << 20)
    log.note(f"setxattr(user.fsatlas) of n bytes, each on a new file: {n} set, {n + 1} refused with {refusals.get(n + 1)}")
    detail = f"a value of {n + 1} bytes was refused{options} with {refusals.get(n + 1)}"
    if n == 65536:
        detail += " (65,536 bytes is the kernel's own limit for any filesystem, XATTR_SIZE_MAX)"
    return Finding.limit(n, "bytes", detail)


XATTR_TOTAL_CEILING = 4 * 1024 * 1024  # the probe stops here (a lower bound, said so): 4,096 calls, bearable emulated


def xattr_max_total(mnt: str, log: Transcript) -> Finding:
    """The total of user xattr values one file holds: 1 KiB values under new names until the
    filesystem refuses one (or the probe's own ceiling)."""
    path = os.path.join(mnt, "xattr-total-probe")
    open(path, "w").close()
    value = b"t" * 1024

    def fill() -> tuple[int, str | None]:
        total = 0
        while total < XATTR_TOTAL_CEILING:
            try:
                os.setxattr(path, f"user.t{total // len(value)}", value)
            except OSError as e:
                return total, errno_name(e)
            total += len(value)
        return total, None
    total, refused = fill()
    options = _xattr_options(refused, mnt, log) if total == 0 else ""
    if options:
        total, refused = fill()
    log.note(f"setxattr(user.tN) of 1 KiB each{options}: {total // 1024} set, then {refused or 'the probe stopped'}")
    os.unlink(path)
    if total == 0:
        return Finding.value("no", f"a user xattr of 1 KiB was refused{options} with {refused}")
    if refused is None:
        return Finding.limit(total, "bytes", f"{total // 1024} values of 1 KiB set on one file{options}; the probe "
                                             f"stops at {XATTR_TOTAL_CEILING >> 20} MiB", at_least=True)
    return Finding.limit(total, "bytes", f"{total // 1024} values of 1 KiB set on one file{options}; the next was "
                                         f"refused with {refused}")


WITH_OPTIONS = " with the mount options acl,user_xattr (off by default here)"


def _xattr_options(refusal: str | None, mnt: str, log: Transcript) -> str:
    """Some filesystems keep ACLs and user xattrs only when mounted with acl,user_xattr
    (reiserfs): where a refusal says "not supported", remount with them and return the words
    that say so (WITH_OPTIONS) for the caller to try again; "" where that does not apply."""
    if refusal not in ("ENOTSUP", "EOPNOTSUPP") and "not supported" not in (refusal or ""):
        return ""
    done = log.run(["mount", "-o", "remount,acl,user_xattr", mnt])
    return WITH_OPTIONS if done.returncode == 0 else ""


def max_file_size(mnt: str, log: Transcript) -> Finding:
    path = os.path.join(mnt, "size-probe")
    refusals = {}

    def ok(n):
        try:
            os.truncate(path, n)
            return True
        except OSError as e:
            refusals[n] = errno_name(e)
            return False
    open(path, "w").close()
    n = _largest(ok, 0, (1 << 63) - 1)
    log.note(f"truncate(2) to n bytes (sparse): {n} accepted, {n + 1} refused with {refusals.get(n + 1)}")
    os.truncate(path, 0)
    refused = f"{n + 1} bytes was refused with {refusals.get(n + 1)}" if n + 1 in refusals else \
        "the kernel's own ceiling for every filesystem (a signed 64-bit file offset), reached"
    if refusals.get(n + 1) == "ENOSPC":  # the image, not the format, ran out: a lower bound
        os.unlink(path)
        return Finding.limit(n, "bytes", f"a sparse file of {n} bytes was accepted; {refused}: the "
                             f"{IMAGE_BYTES // 2**20} MiB image could not hold the metadata of a larger one", at_least=True)
    try:
        with open(path, "r+b") as f:  # a byte written at the last offset, not only a size set
            f.seek(n - 1)
            f.write(b"x")
            f.flush()
            os.fsync(f.fileno())
        log.note(f"wrote one byte at offset {n - 1}: accepted")
    except OSError as e:
        log.note(f"wrote one byte at offset {n - 1}: {errno_name(e)}")
        return Finding(status="failed", detail=f"a size of {n} bytes was accepted but a byte at its end "
                                                f"was refused ({errno_name(e)})")
    finally:
        os.unlink(path)
    return Finding.limit(n, "bytes", f"a sparse file of {n} bytes took a byte at its last offset; {refused}")


def reflink(mnt: str, log: Transcript) -> Finding:
    source, copy = os.path.join(mnt, "reflink-a"), os.path.join(mnt, "reflink-b")
    with open(source, "wb") as f:
        f.write(os.urandom(1 << 20))
    done = log.run(["cp", "--reflink=always", source, copy])
    if done.returncode == 0:
        return Finding.value("yes", "cp --reflink=always shared the extents of a 1 MiB file")
    return Finding.value("no", f"cp --reflink=always was refused: {done.stderr.strip().split(': ')[-1]}")


def snapshots(fs: str, mnt: str, log: Transcript) -> Finding:
    if fs != "btrfs":
        return Finding.unavailable(f"fsatlas knows no snapshot command of {fs} itself (only btrfs subvolume "
                                   f"snapshot); snapshots by LVM or a layer below are not the filesystem's")
    with open(os.path.join(mnt, "before"), "w") as f:
        f.write("kept\n")
    done = log.run(["btrfs", "subvolume", "snapshot", "-r", mnt, os.path.join(mnt, "snap")])
    if done.returncode:
        return Finding.value("no", f"btrfs subvolume snapshot failed: {done.stderr.strip()}")
    os.unlink(os.path.join(mnt, "before"))
    kept = os.path.exists(os.path.join(mnt, "snap", "before"))
    log.note(f"deleted the file after the snapshot; the snapshot {'still holds' if kept else 'lost'} it")
    return Finding.value("yes" if kept else "no", "a read-only snapshot kept a file deleted after it was taken")


# How each filesystem is asked for case-insensitive names: its mkfs options, and whether a folder
# must then be marked (chattr +F) or the whole volume folds. ext4 and F2FS fold per folder on a
# volume made with casefold (the kernel's ext4 and F2FS pages; F2FS names its encoding with -C);
# HFS+ folds every name unless made as case-sensitive HFSX (mkfs.hfsplus -s, its manual page);
# XFS made with -n version=ci folds ASCII letters in every directory (mkfs.xfs(8), xfsprogs 6.1),
# JFS made with -O every name, for OS/2 (jfs_mkfs(8), jfsutils 1.1.15).
CASE_FOLDING = {"ext4": (["-O", "casefold"], True), "f2fs": (["-O", "casefold", "-C", "utf8"], True),
                "hfsplus": ([], False), "xfs": (["-n", "version=ci"], False), "jfs": (["-O"], False)}


def case_insensitive(fs: str, spec: dict, scratch: str, log: Transcript) -> Finding:
    if fs not in CASE_FOLDING:
        return Finding.unavailable(f"fsatlas knows no case-insensitive mode of {fs} (it probes ext4's and F2FS's "
                                   f"casefold, XFS's version=ci, JFS's -O and HFS+'s default)")
    options, per_folder = CASE_FOLDING[fs]
    how = " ".join(["mkfs", *options] + (["and chattr +F"] if per_folder else [])) if options else "the default mkfs"
    with target.LoopImage(scratch, IMAGE_BYTES) as image:
        refused = made_and_mounted(spec, image, options, log)
        if refused:
            return refused
        folder = os.path.join(image.mountpoint, "folded")
        os.mkdir(folder)
        if per_folder:
            done = log.run(["chattr", "+F", folder])
            if done.returncode:
                return Finding.value("no", f"chattr +F was refused: {done.stderr.strip()}")
        open(os.path.join(folder, "Name"), "w").close()
        same = os.path.exists(os.path.join(folder, "NAME"))
        log.note(f"created folded/Name; folded/NAME {'exists' if same else 'does not exist'}")
        return Finding.value("yes" if same else "no", f"with {how}, a file created as "
                             f"'Name' {'is' if same else 'is not'} found as 'NAME'")


CHECKSUM_ERRNOS = (errno.EIO, errno.EBADMSG, errno.EUCLEAN)  # what a failed checksum returns; other errors are not one


def checksums_data(spec: dict, image, log: Transcript) -> Finding:
    """Writes a file of a pattern found nowhere else, unmounts, flips the first byte of every
    copy of its blocks in the image (a log-structured filesystem such as NILFS2 may hold more
    than one), mounts again and reads the file: an I/O error is a checksum at work."""
    pattern = b"fsatlas-checksum-probe-" + os.urandom(8).hex().encode()
    block = (pattern * (4096 // len(pattern) + 1))[:4096]
    path = os.path.join(image.mountpoint, "checksummed")
    with open(path, "wb") as f:
        f.write(block * 16)
        f.flush()
        os.fsync(f.fileno())
    filesystems.unmount(image.mountpoint)
    log.run(["blockdev", "--flushbufs", image.device])
    offsets = _find_all(image.image, block)
    if not offsets:
        return Finding(status="failed", detail="the file's data was not found in the image as written "
                                               "(compressed or encrypted by default?)")
    _flip(image.image, offsets, 0xFF)
    log.note(f"flipped the first byte of each of the {len(offsets)} copies of the file's 4 KiB blocks in the image "
             f"(at offsets {', '.join(map(str, offsets[:20]))}{' ...' if len(offsets) > 20 else ''})")
    with KernelLog() as news:  # from the mount on: what the kernel says of the image
        filesystems.mount(spec, image.device, image.mountpoint, [])
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            log.note(f"reading the file back: {errno_name(e)}")
            if e.errno not in CHECKSUM_ERRNOS:
                # A mount that checks the newest log's checksum (NILFS2's recovery) goes back to an
                # earlier state and says why: the file, written in that log, is then gone.
                told = [line.split("): ", 1)[-1].strip() for line in news.lines(image.device, (), log)
                        if "checksum" in line.lower()]
                if told and e.errno == errno.ENOENT:
                    return Finding.value("yes", f"mounted again, the kernel found a checksum wrong ({told[-1][:120]!r}) "
                                                f"and went back to an earlier state: the file was gone, not read changed")
                return Finding(status="failed", detail=f"the file could not be read back ({errno_name(e)}), "
                                                       f"which is not a checksum's refusal")
            return Finding.value("yes", f"reading the file after the first byte of each of its blocks was flipped "
                                        f"on the disk failed with {errno_name(e)}")
    if data == block * 16:
        return Finding(status="failed", detail="the file read back unchanged, although every copy of its blocks "
                                               "found in the image was changed")
    log.note("reading the file back: no error, the flipped bytes are in the data")
    return Finding.value("no", "the file's blocks, their first byte flipped on the disk, were read back changed, "
                               "without error")


def checksums_metadata(spec: dict, image, log: Transcript) -> Finding:
    """Names a file with a pattern found nowhere else, unmounts, flips one byte of the name in
    every copy of the directory's metadata on the image, mounts again and lists the folder: an
    error (or a refused mount) is a metadata checksum at work; the changed name, read without
    one, is none."""
    name = "fsatlas-meta-" + os.urandom(6).hex()
    folder = os.path.join(image.mountpoint, "meta")
    os.mkdir(folder)
    open(os.path.join(folder, name), "w").close()
    target.sync(image.mountpoint)
    filesystems.unmount(image.mountpoint)
    log.run(["blockdev", "--flushbufs", image.device])
    # Where the name is stored, as UTF-8 or UTF-16 (NTFS, HFS+, JFS), found by its first and its
    # last twelve characters apart: NTFS writes a fix-up word over the last two bytes of each
    # sector of an index record, which may fall inside one copy of the name. The byte flipped is
    # the sixth character's low byte of each piece found.
    pieces = (name[:12], name[-12:])
    offsets = sorted({offset + 5 * size + low
                      for piece in pieces
                      for encoding, size, low in (("utf-8", 1, 0), ("utf-16-le", 2, 0), ("utf-16-be", 2, 1))
                      for offset in _find_all(image.image, piece.encode(encoding))})
    if not offsets:
        return Finding(status="failed", detail="the file's name was not found in the image as written")
    _flip(image.image, offsets, 0x01)  # in every copy: a mirror would otherwise repair the read
    log.note(f"flipped a byte of the name at {len(offsets)} place(s) of the image: {offsets[:8]}")
    with KernelLog() as news:  # from the mount on: what the kernel says of the image
        done = log.mount(spec, image)
        if done.returncode:
            said = news.says(image.device, log)
            return Finding.value("yes", f"after one byte of a file name was flipped on the disk the mount was refused"
                                        + (f": {said}" if said else ""))
        try:
            names = os.listdir(folder)
        except OSError as e:
            said = news.says(image.device, log)
            log.note(f"listing the folder: {errno_name(e)}")
            if e.errno not in CHECKSUM_ERRNOS:
                return Finding(status="failed", detail=f"listing the folder failed with {errno_name(e)}, which is not "
                                                       f"a checksum's refusal")
            return Finding.value("yes", f"listing a folder after a byte of a name in it was flipped on the disk failed "
                                        f"with {errno_name(e)}" + (f" ({said})" if said else ""))
    log.note(f"listing the folder: {names}")
    if name in names:
        return Finding(status="failed", detail="the folder listed the name unchanged: the flipped bytes were not the ones read")
    return Finding.value("no", "a byte of a file name flipped on the disk was listed changed, without an error")


def _flip(image_path: str, offsets, mask: int) -> None:
    """XORs the byte at each offset of the image file with mask, on the disk when it returns."""
    with open(image_path, "r+b") as f:
        for at in offsets:
            f.seek(at)
            byte = f.read(1)
            f.seek(at)
            f.write(bytes([byte[0] ^ mask]))
        f.flush()
        os.fsync(f.fileno())


def _find_all(image_path: str, pattern: bytes) -> list[int]:
    found, at = [], 0
    while (offset := _find(image_path, pattern, at)) is not None:
        found.append(offset)
        at = offset + 1
    return found


def _find(image_path: str, pattern: bytes, start: int = 0) -> int | None:
    chunk = 8 << 20
    with open(image_path, "rb") as f:
        os.posix_fadvise(f.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)  # the loop device wrote past the cache
        f.seek(start)
        at, tail = start, b""
        while True:
            interrupts.raise_if_interrupted()  # a scan of the image takes seconds a pass: a signal stops it
            data = f.read(chunk)
            if not data:
                return None
            found = (tail + data).find(pattern)
            if found >= 0:
                return at - len(tail) + found
            tail = data[-len(pattern):]
            at += len(data)


# --- resizing ----------------------------------------------------------------------------------
# JFS resizes through its mount option (the kernel's JFS page: resize[=blocks], on a remount;
# without a value to the whole device) and NILFS2 through nilfs-resize, both while mounted.
# resize_reiserfs (its man page, reiserfsprogs 3.6.27) resizes an unmounted filesystem and grows
# a mounted one. A mounted F2FS is resized by the kernel's F2FS_IOC_RESIZE_FS ioctl
# (include/uapi/linux/f2fs.h: _IOW(0xf5, 16, __u64), the new block count; fs/f2fs/gc.c), asked
# here through Python as no tool in f2fs-tools 1.15 calls it; resize.f2fs works unmounted.
# ntfsresize (ntfs-3g 2022.10.3, ntfsresize(8): "an unmounted DEVICE") is asked while mounted too,
# so its refusal is recorded in its own words; -f answers its confirmation prompt.
F2FS_RESIZE_IOCTL = ("import fcntl, os, struct, sys; fcntl.ioctl(os.open(sys.argv[1], os.O_RDONLY), 0x4008F510, "
                     "struct.pack('Q', int(sys.argv[2])))")
GROW = {"ext2": ["resize2fs", "{dev}"], "ext3": ["resize2fs", "{dev}"], "ext4": ["resize2fs", "{dev}"],
        "xfs": ["xfs_growfs", "{mnt}"], "btrfs": ["btrfs", "filesystem", "resize", "max", "{mnt}"],
        "jfs": ["mount", "-o", "remount,resize", "{mnt}"], "nilfs2": ["nilfs-resize", "-y", "{dev}"],
        "reiserfs": ["resize_reiserfs", "{dev}"],
        "f2fs": [sys.executable, "-c", F2FS_RESIZE_IOCTL, "{mnt}", "{grown_blocks}"],
        "ntfs": ["ntfsresize", "-f", "{dev}"]}
SHRINK_MOUNTED = {"ext2": ["resize2fs", "{dev}", "{size_k}K"], "ext3": ["resize2fs", "{dev}", "{size_k}K"],
                  "ext4": ["resize2fs", "{dev}", "{size_k}K"], "xfs": ["xfs_growfs", "-D", "{size_blocks}", "{mnt}"],
                  "btrfs": ["btrfs", "filesystem", "resize", "{size_k}K", "{mnt}"],
                  "jfs": ["mount", "-o", "remount,resize={size_blocks}", "{mnt}"],
                  "nilfs2": ["nilfs-resize", "-y", "{dev}", "{size_k}K"],
                  "reiserfs": ["resize_reiserfs", "-s", "{size_k}K", "{dev}"],
                  "f2fs": [sys.executable, "-c", F2FS_RESIZE_IOCTL, "{mnt}", "{size_blocks}"],
                  "ntfs": ["ntfsresize", "-f", "-s", "{size_k}k", "{dev}"]}
SHRINK_UNMOUNTED = {"ext2": ["resize2fs", "{dev}", "{size_k}K"], "ext3": ["resize2fs", "{dev}", "{size_k}K"],
                    "ext4": ["resize2fs", "{dev}", "{size_k}K"],
                    "reiserfs": ["resize_reiserfs", "-s", "{size_k}K", "{dev}"],
                    "f2fs": ["resize.f2fs", "-s", "-t", "{size_sectors}", "{dev}"],
                    "ntfs": ["ntfsresize", "-f", "-s", "{size_k}k", "{dev}"]}
# resize_reiserfs asks before shrinking ("You are running BETA version of reiserfs shrinker ...
# Do you want to continue? [y/N]"): the probe says yes, as a user who wants the shrink would.
SHRINK_ANSWER = {"reiserfs": "y\n"}
CHECK_FIRST = {"ext2": ["e2fsck", "-f", "-y", "{dev}"], "ext3": ["e2fsck", "-f", "-y", "{dev}"],
               "ext4": ["e2fsck", "-f", "-y", "{dev}"]}  # resize2fs refuses a filesystem not checked since mounted
# What the kernel asks of the caller to resize while mounted (fs/ext4/resize.c ext4_resize_begin:
# CAP_SYS_RESOURCE; xfs_growfs and btrfs resize: CAP_SYS_ADMIN). A container may lack them.
CAPABILITY = {"ext2": ("CAP_SYS_RESOURCE", 24), "ext3": ("CAP_SYS_RESOURCE", 24), "ext4": ("CAP_SYS_RESOURCE", 24),
              "xfs": ("CAP_SYS_ADMIN", 21), "btrfs": ("CAP_SYS_ADMIN", 21), "jfs": ("CAP_SYS_ADMIN", 21),
              "nilfs2": ("CAP_SYS_ADMIN", 21), "reiserfs": ("CAP_SYS_ADMIN", 21), "f2fs": ("CAP_SYS_ADMIN", 21),
              "ntfs": ("CAP_SYS_ADMIN", 21)}
for _table in (GROW, SHRINK_MOUNTED, SHRINK_UNMOUNTED, CAPABILITY):
    _table["ntfs3"] = _table["ntfs"]  # ntfsresize works on the device, whichever driver mounts it
NO_OFFLINE_TOOL = {"xfs": "xfs_growfs, XFS's only resize tool, works on a mounted filesystem",
                   "btrfs": "btrfs filesystem resize works on a mounted filesystem",
                   "jfs": "JFS resizes only through a remount's resize option; jfsutils has no resize tool",
                   "nilfs2": "nilfs-resize, NILFS2's only resize tool, works on a mounted filesystem"}


def _lacks(capability_bit: int) -> bool:
    with open("/proc/self/status", encoding="utf-8") as f:
        effective = next(line for line in f if line.startswith("CapEff:")).split()[1]
    return not (int(effective, 16) >> capability_bit) & 1


def _total_bytes(mnt: str) -> int:
    st = os.statvfs(mnt)
    return st.f_blocks * st.f_frsize


def _argv(template, **values):
    return [part.format(**values) for part in template]


def resize(fs: str, spec: dict, scratch: str, log: Transcript) -> dict:
    """online_grow, online_shrink and offline_shrink, on one image: grown by GROW_BYTES while
    mounted, then shrunk by SHRINK_BYTES while mounted, then (unmounted) by SHRINK_BYTES more."""
    if fs not in GROW:
        reason = f"fsatlas knows no resize tool of {fs}"
        return {k: Finding.unavailable(reason) for k in ("online_grow", "online_shrink", "offline_shrink")}
    out = {}
    with target.LoopImage(scratch, IMAGE_BYTES) as image:
        filesystems.mkfs(spec, image.device, [])
        filesystems.mount(spec, image.device, image.mountpoint, [])
        before = _total_bytes(image.mountpoint)
        with open(image.image, "r+b") as f:
            f.truncate(IMAGE_BYTES + GROW_BYTES)
        log.run(["losetup", "-c", image.device])
        block = os.statvfs(image.mountpoint).f_frsize  # the unit of JFS's resize= and F2FS's ioctl, and XFS's -D
        done = log.run(_argv(GROW[fs], dev=image.device, mnt=image.mountpoint,
                             grown_blocks=(IMAGE_BYTES + GROW_BYTES) // block))
        grown = _total_bytes(image.mountpoint)
        log.note(f"size as statfs reports it: {before} bytes before, {grown} after")
        capability, bit = CAPABILITY[fs]
        if done.returncode == 0 and grown > before:
            out["online_grow"] = Finding.value("yes", f"grown from {before} to {grown} bytes while mounted")
        elif _lacks(bit):
            out["online_grow"] = Finding.unavailable(f"refused for want of {capability}, which this process "
                                                     f"lacks (a container's limit, not the filesystem's)")
        else:
            out["online_grow"] = Finding.value("no", f"growing while mounted left {grown} bytes "
                                                     f"({(done.stderr or done.stdout).strip()[-200:]})")
        size = grown - SHRINK_BYTES if grown > before else before - SHRINK_BYTES
        done = log.run(_argv(SHRINK_MOUNTED[fs], dev=image.device, mnt=image.mountpoint, size_k=size // 1024,
                             size_blocks=size // block, size_sectors=size // 512), timeout=600)
        shrunk = _total_bytes(image.mountpoint)
        log.note(f"size as statfs reports it: {shrunk} bytes after asking for {size}")
        told = (done.stderr or done.stdout).strip()
        if done.returncode == 0 and shrunk < grown:
            out["online_shrink"] = Finding.value("yes", f"shrunk from {grown} to {shrunk} bytes while mounted")
        elif _lacks(bit) and "not supported" not in told:
            out["online_shrink"] = Finding.unavailable(f"refused for want of {capability}, which this process "
                                                       f"lacks (a container's limit, not the filesystem's)")
        else:
            out["online_shrink"] = Finding.value("no", "shrinking while mounted was refused: "
                                                       f"{(done.stderr or done.stdout).strip()[-200:]}")
        filesystems.unmount(image.mountpoint)
        if fs in NO_OFFLINE_TOOL:
            out["offline_shrink"] = Finding.unavailable(NO_OFFLINE_TOOL[fs])
            return out
        if fs in CHECK_FIRST:
            log.run(_argv(CHECK_FIRST[fs], dev=image.device), timeout=300)
        size = shrunk - SHRINK_BYTES
        done = log.run(_argv(SHRINK_UNMOUNTED[fs], dev=image.device, size_k=size // 1024, size_sectors=size // 512),
                       timeout=300, answer=SHRINK_ANSWER.get(fs))
        filesystems.mount(spec, image.device, image.mountpoint, [])
        after = _total_bytes(image.mountpoint)
        log.note(f"size as statfs reports it after mounting again: {after} bytes")
        if done.returncode == 0 and after < shrunk:
            out["offline_shrink"] = Finding.value("yes", f"shrunk from {shrunk} to {after} bytes unmounted")
        else:
            out["offline_shrink"] = Finding.value("no", "shrinking unmounted was refused: "
                                                        f"{(done.stderr or done.stdout).strip()[-200:]}")
    return out


# --- one filesystem --------------------------------------------------------------------------
MOUNTED = {"max_filename_length": max_filename_length, "acl_max_entries": acl_max_entries,
           "xattr_max_value": xattr_max_value, "xattr_max_total": xattr_max_total,
           "max_file_size": max_file_size, "reflink": reflink, "sparse_files": probes_generic.sparse_files,
           "deduplication": probes_generic.dedupe, "creation_time": probes_generic.creation_time,
           "copy_on_write": probes_generic.copy_on_write, "any_byte_names": probes_generic.any_byte_names,
           "extents": probes_generic.extents, "delayed_allocation": probes_generic.delayed_allocation,
           "tail_packing": probes_generic.tail_packing}
TIMESTAMPS = ("timestamp_range", "year_2038", "timestamp_resolution")
PROBES = tuple(MOUNTED) + ("snapshots", "defrag", "dump_restore", "checksums_data", "checksums_metadata",
                           "case_insensitive", "inline_data", "compression", "encryption", "hard_link_limit", "quota_user_group", "quota_project",
                           "online_grow", "online_shrink", "offline_shrink") + TIMESTAMPS


def probe_filesystem(fs: str, spec: dict, scratch: str, only=None) -> list[tuple[str, Finding, str]]:
    """(probe, finding, transcript) of every probe on fs (or of those in `only`); each probe's
    error fails it alone."""
    out = []
    wanted = lambda *names: only is None or any(n in only for n in names)  # noqa: E731
    mounted_by = []  # the driver, learnt at the first mount of the probes' own (else on an image of its own)

    def attempt(name, body):
        if not wanted(name):
            return
        interrupts.raise_if_interrupted()  # a signal, or another lane's failure (commands/probe.py)
        log = Transcript()
        started = time.monotonic()
        try:
            found = body(log)
        except KeyboardInterrupt:
            raise
        except Exception as e:  # a probe that breaks fails alone, saying how
            log.note(f"{type(e).__name__}: {e}")
            found = Finding(status="failed", detail=f"{type(e).__name__}: {str(e)[:300]}")
        found["seconds"] = round(time.monotonic() - started, 3)
        out.append((name, found, log.text()))

    on_one_image = (*MOUNTED, "snapshots", "defrag", "dump_restore", "checksums_data")
    if wanted(*on_one_image):
        with target.LoopImage(scratch, IMAGE_BYTES) as image:
            filesystems.mkfs(spec, image.device, [])
            filesystems.mount(spec, image.device, image.mountpoint, [])
            mnt = image.mountpoint
            mounted_by.append(filesystems.driver(spec, image.device, mnt))
            again = MountAgain(spec, image, ACL_MOUNT_OPTIONS[fs]) if fs in ACL_MOUNT_OPTIONS else None
            here = dict(MOUNTED, acl_max_entries=functools.partial(acl_max_entries, mount_again=again))
            for name, probe in here.items():
                attempt(name, lambda log, probe=probe: probe(mnt, log))
            attempt("snapshots", lambda log: snapshots(fs, mnt, log))
            attempt("defrag", lambda log: probe_tools.defrag(fs, mnt, log))
            attempt("dump_restore", lambda log: probe_tools.dump_restore(fs, spec, image, scratch, log))
            attempt("checksums_data", lambda log: checksums_data(spec, image, log))
    if wanted("checksums_metadata"):
        with target.LoopImage(scratch, IMAGE_BYTES) as image:  # a fresh image: the data probe left one broken
            filesystems.mkfs(spec, image.device, [])
            filesystems.mount(spec, image.device, image.mountpoint, [])
            attempt("checksums_metadata", lambda log: checksums_metadata(spec, image, log))
    attempt("case_insensitive", lambda log: case_insensitive(fs, spec, scratch, log))
    attempt("inline_data", lambda log: probes_generic.inline_data(fs, spec, scratch, log))
    attempt("compression", lambda log: probe_tools.compression(fs, spec, scratch, log))
    attempt("encryption", lambda log: probes_generic.encryption(fs, spec, scratch, log))
    attempt("hard_link_limit", lambda log: probes_generic.hard_link_limit(spec, scratch, log))
    for names, body in ((("quota_user_group", "quota_project"), lambda log: probe_tools.quotas(fs, spec, scratch, log)),
                        (TIMESTAMPS, lambda log: probes_generic.timestamps(spec, scratch, log)),
                        (("online_grow", "online_shrink", "offline_shrink"), lambda log: resize(fs, spec, scratch, log))):
        if wanted(*names):
            out += [row for row in _several(names, body) if wanted(row[0])]
    if out:  # every finding names the driver (its answer may hold for that driver alone)
        driver = mounted_by[0] if mounted_by else mounting_driver(spec, scratch)
        out = [(name, {**found, "driver": driver}, text) for name, found, text in out]
    return out


def mounting_driver(spec: dict, scratch: str) -> str:
    """The driver this machine mounts the filesystem with (filesystems.driver), learnt on an
    image of its own: ext2 by the ext2 or the ext4 driver, NTFS by ntfs-3g or ntfs3. Every
    finding records it, as its answer may hold for that driver only."""
    with target.LoopImage(scratch, IMAGE_BYTES) as image:
        filesystems.mkfs(spec, image.device, [])
        filesystems.mount(spec, image.device, image.mountpoint, [])
        return filesystems.driver(spec, image.device, image.mountpoint)


def _several(names, body) -> list[tuple[str, Finding, str]]:
    """Probes answered together by one body (one image): each gets the shared transcript; an
    error fails them all, saying how."""
    interrupts.raise_if_interrupted()
    log = Transcript()
    try:
        found = body(log)
    except KeyboardInterrupt:
        raise
    except Exception as e:
        log.note(f"{type(e).__name__}: {e}")
        found = {k: Finding(status="failed", detail=f"{type(e).__name__}: {str(e)[:300]}") for k in names}
    return [(name, found.get(name) or Finding(status="failed", detail="the probe stopped before it"), log.text())
            for name in names]
