"""Feature probes through the kernel's generic interfaces, the same on every filesystem: sparse
files (SEEK_HOLE, include/uapi/linux/fs.h), deduplication (FIDEDUPERANGE), hard links (link(2)
until EMLINK), creation time (statx's btime, read by coreutils' stat %W), the bytes a name may hold
(open(2) with O_CREAT, then readdir), timestamps (utimensat,
read back after a remount), encryption (fscrypt's FS_IOC_GET_ENCRYPTION_POLICY,
Documentation/filesystems/fscrypt.rst), copy-on-write (where an overwritten block lies, by
FIEMAP, Documentation/filesystems/fiemap.rst, or the older FIBMAP) and inline data (FIEMAP's
FIEMAP_EXTENT_DATA_INLINE flag, or no block at all), and FIEMAP's map of a file's extents, of
data not yet written back, and of a file's tail. A kernel's refusal is a
measured "no", with its errno in the transcript; no filesystem's own tool is needed.
"""
import errno
import fcntl
import os
import re
import struct

from . import filesystems, interrupts, target
from .probe_findings import IMAGE_BYTES, Finding, Transcript, errno_name, made_and_mounted

# _IOWR(0x94, 54, struct file_dedupe_range): the header is 24 bytes, each destination 32
FIDEDUPERANGE = 0xC0189436
FILE_DEDUPE_RANGE_SAME, FILE_DEDUPE_RANGE_DIFFERS = 0, 1
# _IOWR('f', 11, struct fiemap): a 32-byte header, then 56-byte extents; FIBMAP is _IO(0x00, 1)
FS_IOC_FIEMAP, FIEMAP_FLAG_SYNC, FIBMAP = 0xC020660B, 0x1, 1
# an extent's flags (include/uapi/linux/fiemap.h; what each means: Documentation/filesystems/fiemap.rst)
FIEMAP_EXTENT_UNKNOWN, FIEMAP_EXTENT_DELALLOC = 0x2, 0x4  # data with no known place / with no place yet
FIEMAP_EXTENT_DATA_INLINE = 0x200  # the extent's data lies in the filesystem's metadata
FIEMAP_EXTENT_DATA_TAIL = 0x400  # "packed into a block with data from other files"
FIEMAP_EXTENT_MERGED = 0x1000  # a file without extents (blocks addressed one by one), adjacent blocks merged
FIEMAP_EXTENT_UNWRITTEN = 0x800  # "allocated but its data has not been initialized" (fiemap.rst)
# mkfs options that enable inline data where it is a feature of the format, off by default
# (ext4(5): "inline_data"); elsewhere the filesystem is asked as its mkfs makes it
INLINE_MKFS = {"ext4": ["-O", "inline_data"]}
INLINE_BYTES = 60  # a file small enough for any filesystem's inline space (ext4's i_block holds 60)
# _IOW('f', 21, struct fscrypt_policy_v1): 12 bytes
FS_IOC_GET_ENCRYPTION_POLICY = 0x400C6615
# mkfs options that enable fscrypt where it is a feature of the format (ext4(5) and
# mkfs.f2fs(8): "encrypt"); on others the ioctl answers for the filesystem as made
ENCRYPT_MKFS = {"ext4": ["-O", "encrypt"], "f2fs": ["-O", "encrypt"]}
HARD_LINK_CEILING = 70_000  # above ext4's 65,000 (EXT4_LINK_MAX); XFS's 2^32 - 1 is left untried
# The dates each filesystem is asked to keep, as seconds since 1970: one second before 1970, the
# first second of the signed 32-bit range (13 December 1901, -2^31), the first past its end (19
# January 2038), the first past the unsigned range (7 February 2106), the first past 64-bit
# nanoseconds (2262), and the last second ext4's extra epoch bits hold, its documented maximum:
# 2446-05-10 22:38:55, 2^34 - 1 - 2^31 s (EXT4_EXTRA_TIMESTAMP_MAX in fs/ext4/ext4.h; the table of
# Documentation/filesystems/ext4/inodes.rst, "Inode Timestamps", ends there). The column asks
# whether dates from 1901 to 2446 are kept, so its ends are those of the range, not one past them.
EXT4_TIMESTAMP_MAX = 2**34 - 1 - 2**31
DATES = {"1969-12-31 23:59:59": -1, "1901-12-13 20:45:52": -2**31, "2038-01-19 03:14:08": 2**31,
         "2106-02-07 06:28:16": 2**32, "2262-04-11 23:47:17": 9223372037, "2446-05-10 22:38:55": EXT4_TIMESTAMP_MAX}
BEYOND = {"2446-05-10 22:38:56": EXT4_TIMESTAMP_MAX + 1}  # told beside the answer, never part of it
FRACTION_NS = 987_654_321  # a fraction of a second whose every digit differs from the next
NAME_BYTES = [b for b in range(1, 256) if b != 0x2F]  # what a name may hold on Linux (path_resolution(7))


def sparse_files(mnt: str, log: Transcript) -> Finding:
    """One byte written 64 MiB into a new file: sparse when the file holds far fewer blocks than
    its size; SEEK_HOLE says whether the kernel reports the hole too."""
    path = os.path.join(mnt, "sparse")
    size = 64 << 20
    with open(path, "wb") as f:
        f.seek(size - 1)
        f.write(b"x")
        f.flush()
        os.fsync(f.fileno())
        try:
            hole = os.lseek(f.fileno(), 0, os.SEEK_HOLE)
            said = f"lseek(SEEK_HOLE, 0) = {hole}"
        except OSError as e:
            hole, said = None, f"lseek(SEEK_HOLE) refused: {errno_name(e)}"
    allocated = os.stat(path).st_blocks * 512
    os.unlink(path)
    log.note(f"a file of {size} bytes with one byte written at its end: {allocated} bytes allocated; {said}")
    reported = "SEEK_HOLE finds the hole at offset 0" if hole == 0 else "SEEK_HOLE reports no hole"
    if allocated < size // 16:
        return Finding.value("yes", f"one byte written 64 MiB into a file took {allocated:,} bytes; {reported}")
    return Finding.value("no", f"one byte written 64 MiB into a file took {allocated:,} bytes; {reported}")


def copy_on_write(mnt: str, log: Transcript) -> Finding:
    """1 MiB written and synced, then its first 64 KiB overwritten in place (no truncation) and
    synced: copy-on-write when the file's first block then lies somewhere else on the device.
    The place is FIEMAP's physical byte, or, where the filesystem maps no extents (HFS+,
    ReiserFS, a FUSE driver), FIBMAP's block number; neither, and the probe cannot say."""
    path = os.path.join(mnt, "overwrite")
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        os.write(fd, os.urandom(1 << 20))
        os.fsync(fd)
        before = _first_block(fd, log)
        if before is None:
            return Finding(status="not available", detail="the kernel placed no block of the file: "
                                                          "it refused both FIEMAP and FIBMAP (see the transcript)")
        os.pwrite(fd, os.urandom(64 << 10), 0)
        os.fsync(fd)
        target.sync(mnt)  # what a filesystem defers to its next commit is written too
        after = _first_block(fd, log)
    finally:
        os.close(fd)
        os.unlink(path)
    how, where = before[0], ("byte" if before[0] == "FIEMAP" else "block")
    if after is None or after[0] != how:
        return Finding(status="failed", detail=f"{how} placed the first block before the overwrite, not after it")
    if after[1] == before[1]:
        return Finding.value("no", f"an overwrite of written, synced data stayed in place: {how} put the file's first "
                                   f"block at {where} {before[1]:,} before and after")
    return Finding.value("yes", f"an overwrite of written, synced data went elsewhere: {how} put the file's first "
                                f"block at {where} {before[1]:,} before and at {after[1]:,} after")


def inline_data(fs: str, spec: dict, scratch: str, log: Transcript) -> Finding:
    """Two files of INLINE_BYTES written and synced: their data is inline when FIEMAP flags the
    first one's extent FIEMAP_EXTENT_DATA_INLINE, or, where the kernel maps no extents, when
    FIBMAP maps no block to it or puts both files in one block (packed into the filesystem's own
    structures, as ReiserFS packs tails into its tree); an extent or a block of its own, and it is not."""
    options = INLINE_MKFS.get(fs, [])
    how = f"made with mkfs {' '.join(options)}" if options else "as its mkfs makes it"
    with target.LoopImage(scratch, IMAGE_BYTES) as image:
        refused = made_and_mounted(spec, image, options, log)
        if refused:
            return refused
        paths = [os.path.join(image.mountpoint, name) for name in ("a", "b")]
        for path in paths:  # written and closed: ReiserFS packs a small file's tail when it is closed
            with open(path, "wb") as f:
                f.write(b"i" * INLINE_BYTES)
                f.flush()
                os.fsync(f.fileno())
        target.sync(image.mountpoint)
        fds = [os.open(path, os.O_RDONLY) for path in paths]
        try:
            blocks = os.fstat(fds[0]).st_blocks
            log.note(f"wrote {INLINE_BYTES} bytes to each of two files, closed them and synced: st_blocks {blocks}")
            extent = _fiemap(fds[0], log)
            if isinstance(extent, str):  # the kernel maps no extents here
                return _inline_by_block_map([_fibmap(fd, log) for fd in fds], blocks, how, f"FIEMAP {extent}")
        finally:
            for fd in fds:
                os.close(fd)
    mapped, _, physical, flags = extent
    if mapped and flags & FIEMAP_EXTENT_DATA_INLINE:
        return Finding.value("yes", f"a file of {INLINE_BYTES} bytes, {how}: FIEMAP flagged its data inline "
                                    f"(FIEMAP_EXTENT_DATA_INLINE)")
    if mapped:
        return Finding.value("no", f"a file of {INLINE_BYTES} bytes, {how}: FIEMAP mapped it to a block of its own "
                                   f"(byte {physical:,}, flags {flags:#x})")
    return Finding(status="failed", detail=f"FIEMAP mapped no extent of a written, synced file of {INLINE_BYTES} bytes")


def _inline_by_block_map(numbers: list, blocks: int, how: str, refused: str) -> Finding:
    """Where the kernel maps no extents, from FIBMAP's block of each of the two small files: no
    block (0), or one block for both, is data kept in the filesystem's own structures; a block of
    each's own is not. Without FIBMAP, no block counted (st_blocks 0) is inline, while a count of
    sectors cannot tell (ntfs-3g counts one for data resident in a file's MFT record)."""
    first, second = numbers
    if first is not None and first >= 0 and second is not None:
        if first == 0:
            return Finding.value("yes", f"a file of {INLINE_BYTES} bytes, {how}: FIBMAP mapped no block to its "
                                        f"written, synced data ({refused}; st_blocks {blocks})")
        if first == second:
            return Finding.value("yes", f"two files of {INLINE_BYTES} bytes, {how}: FIBMAP put both in block {first:,}, "
                                        f"packed together ({refused})")
        return Finding.value("no", f"two files of {INLINE_BYTES} bytes, {how}: FIBMAP put them in blocks {first:,} and "
                                   f"{second:,}, each its own ({refused})")
    if blocks == 0:
        return Finding.value("yes", f"a file of {INLINE_BYTES} bytes, {how}, was given no block (st_blocks 0; "
                                    f"{refused}, FIBMAP refused)")
    return Finding.unavailable(f"the kernel maps no blocks here ({refused}, FIBMAP refused), and st_blocks "
                               f"({blocks}) cannot tell inline data from a block of its own")


def _fiemap(fd: int, log: Transcript):
    """FIEMAP (synced) of the file's first 4 KiB: (extents mapped, the first's logical and physical
    byte, its flags), or the errno's name when the kernel refuses."""
    extents = _extents(fd, log, 4096, count=1)
    if isinstance(extents, str):
        return extents
    return (len(extents), *extents[0][:2], extents[0][3]) if extents else (0, 0, 0, 0)


def _extents(fd: int, log: Transcript, length: int, count: int = 64, sync: bool = True):
    """FIEMAP of the file's first length bytes (synced first unless sync is False): its extents,
    up to count, each (logical byte, physical byte, length, flags); or the errno's name when the
    kernel refuses."""
    request = bytearray(struct.pack("=QQIIII", 0, length, FIEMAP_FLAG_SYNC if sync else 0, 0, count, 0)
                        + bytes(56 * count))
    said = f"ioctl(FS_IOC_FIEMAP, first {length:,} bytes{'' if sync else ', not synced'})"
    try:
        fcntl.ioctl(fd, FS_IOC_FIEMAP, request)
    except OSError as e:
        log.note(f"{said}: {errno_name(e)}")
        return errno_name(e)
    mapped = struct.unpack_from("=I", request, 20)[0]
    extents = [struct.unpack_from("=QQQ", request, 32 + 56 * k) + struct.unpack_from("=I", request, 32 + 56 * k + 40)
               for k in range(min(mapped, count))]
    log.note(f"{said}: {mapped} extent(s)" + "".join(f"; logical {lo}, physical {ph}, length {n}, flags {fl:#x}"
                                                     for lo, ph, n, fl in extents))
    return extents


EXTENT_BYTES = 8 << 20  # written at once and synced: contiguous on a fresh image, longer than any block
TAIL_BYTES = 100  # a file's tail past its last whole block: smaller than any block


def _cannot_tell(refused: str) -> Finding:
    return Finding.unavailable(f"cannot tell by FIEMAP: the kernel refused it ({refused})")


def extents(mnt: str, log: Transcript) -> Finding:
    """8 MiB written at once and synced, then mapped by FIEMAP: the filesystem keeps extents when
    it maps the file in runs longer than one block (st_blksize), none flagged
    FIEMAP_EXTENT_MERGED. fiemap.rst sets that flag "when a file does not support extents, i.e.,
    it uses a block based addressing scheme", the kernel having merged adjacent blocks into
    extents only for the answer: a block map (ext2's and ext3's indirect blocks, ext4's driver
    flagging them) is "no" however long its runs, and so is a map of single blocks. A driver that
    merged a block map's runs without the flag would look like extents; the finding names the
    driver, and a filesystem's documents may say otherwise. A kernel that refuses FIEMAP cannot
    tell."""
    path = os.path.join(mnt, "extents")
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        os.write(fd, os.urandom(EXTENT_BYTES))
        os.fsync(fd)
        block = os.fstat(fd).st_blksize
        found = _extents(fd, log, EXTENT_BYTES, count=512)
    finally:
        os.close(fd)
        os.unlink(path)
    return extents_answer(found, block)


def extents_answer(found, block: int) -> Finding:
    """The extents column from FIEMAP's answer (the extents' list, or the errno's name of a
    refusal) for EXTENT_BYTES written at once, by the rule of extents()."""
    if isinstance(found, str):
        return _cannot_tell(found)
    if not found:
        return Finding(status="failed", detail=f"FIEMAP mapped no extent of {EXTENT_BYTES >> 20} MiB written and synced")
    longest = max(n for _, _, n, _ in found)
    runs = f"{len(found)} run{'s' * (len(found) > 1)}, the longest {longest:,} bytes ({longest // block:,} blocks of {block:,})"
    if any(flags & FIEMAP_EXTENT_MERGED for *_, flags in found):
        return Finding.value("no", f"FIEMAP gave {EXTENT_BYTES >> 20} MiB written at once as {runs}, flagged "
                                   f"FIEMAP_EXTENT_MERGED: blocks addressed one by one, merged for the answer")
    if longest > block:
        return Finding.value("yes", f"FIEMAP mapped {EXTENT_BYTES >> 20} MiB written at once in {runs}, "
                                    f"none flagged FIEMAP_EXTENT_MERGED")
    return Finding.value("no", f"FIEMAP mapped {EXTENT_BYTES >> 20} MiB written at once block by block: {runs}")


def delayed_allocation(mnt: str, log: Transcript) -> Finding:
    """1 MiB written and not synced, mapped by FIEMAP without FIEMAP_FLAG_SYNC at once, then
    again after fsync: delayed allocation when the first map gives the data no place and the
    second places it; no when the unsynced data already has a place on the device. Delayed
    allocation is what Documentation/filesystems/fiemap.rst calls it, word for word, and nothing
    else: FIEMAP_EXTENT_DELALLOC ("Delayed allocation - while there is data for this extent, its
    physical location has not been allocated yet"). FIEMAP_EXTENT_UNKNOWN alone is not it: "The
    location of this extent is currently unknown. This may indicate the data is stored on an
    inaccessible volume or that no storage has been allocated for the file yet" - either, so the
    probe cannot tell (DELALLOC sets UNKNOWN too, never the reverse). An extent flagged
    FIEMAP_EXTENT_UNWRITTEN at physical byte 0 is neither: fiemap.rst calls an unwritten extent
    allocated, and gives byte 0 no meaning; F2FS maps a block it reserved (NEW_ADDR) so (its
    source's comment says "reserved delalloc block should be mapped for fiemap", fs/f2fs/data.c),
    and the answer there is that FIEMAP cannot tell, the comment being a document, not this
    experiment. A map of nothing before the sync cannot tell a pending allocation from none
    either, nor can a kernel that refuses FIEMAP."""
    path = os.path.join(mnt, "delalloc")
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        os.write(fd, os.urandom(1 << 20))
        before = _extents(fd, log, 1 << 20, sync=False)
        os.fsync(fd)
        after = _extents(fd, log, 1 << 20, sync=False)
    finally:
        os.close(fd)
        os.unlink(path)
    return delalloc_answer(before, after)


def delalloc_answer(before, after) -> Finding:
    """The delayed-allocation column from FIEMAP's answers (extents, or a refusal's errno name)
    before and after fsync, by the rule of delayed_allocation()."""
    if isinstance(before, str):
        return _cannot_tell(before)
    if not before:
        return Finding.unavailable("cannot tell by FIEMAP: it mapped nothing of 1 MiB written and not yet synced, "
                                   "neither a place nor a pending allocation")
    pending = [e for e in before if e[3] & FIEMAP_EXTENT_DELALLOC]
    unknown = [e for e in before if e[3] & FIEMAP_EXTENT_UNKNOWN and not e[3] & FIEMAP_EXTENT_DELALLOC]
    if not pending and unknown:
        return Finding.unavailable(f"cannot tell by FIEMAP: 1 MiB written and not synced was flagged FIEMAP_EXTENT_UNKNOWN "
                                   f"without FIEMAP_EXTENT_DELALLOC (flags {unknown[0][3]:#x}), a place fiemap.rst calls "
                                   f"unknown (an inaccessible volume, or no storage allocated yet), not delayed allocation"
                                   + (f"; after fsync it lay at byte {after[0][1]:,}" if after and not isinstance(after, str) else ""))
    unwritten_at_0 = [e for e in before if e[3] & FIEMAP_EXTENT_UNWRITTEN and e[1] == 0]
    if not pending and unwritten_at_0:
        return Finding.unavailable(f"cannot tell by FIEMAP: 1 MiB written and not synced was mapped unwritten at physical "
                                   f"byte 0 (flags {unwritten_at_0[0][3]:#x}), which fiemap.rst calls neither a pending "
                                   f"allocation (FIEMAP_EXTENT_DELALLOC) nor an unknown place (FIEMAP_EXTENT_UNKNOWN)"
                                   + (f"; after fsync it lay at byte {after[0][1]:,}" if after and not isinstance(after, str) else ""))
    if not pending:
        return Finding.value("no", f"1 MiB written and not synced already lay at byte {before[0][1]:,} (FIEMAP flags "
                                   f"{before[0][3]:#x}, no FIEMAP_EXTENT_DELALLOC): placed as it was written")
    if isinstance(after, str) or not after or any(_unplaced(e) for e in after):
        return Finding(status="failed", detail="FIEMAP gave unsynced data no place, and after fsync it was not "
                                               f"placed ({after or 'no extent'})")
    return Finding.value("yes", f"1 MiB written and not synced: FIEMAP flagged FIEMAP_EXTENT_DELALLOC for {sum(e[2] for e in pending):,} "
                                f"bytes; after fsync it lay at byte {after[0][1]:,}")


# how delalloc_answer recorded a "yes" under its earlier rule, which took physical byte 0 for no place
RECORDED_NO_PLACE = re.compile(r"FIEMAP gave no place \(flags (0x[0-9a-f]+), physical byte ([\d,]+)\) for ([\d,]+) bytes; "
                               r"after fsync it lay at byte ([\d,]+)")


def read_now(finding: dict) -> dict:
    """A finding as the current rule reads it: a delayed-allocation "yes" recorded under the earlier
    rule (physical byte 0 taken for no place) is read again by delalloc_answer from the numbers its
    detail kept, and says so; any other finding as recorded."""
    said = RECORDED_NO_PLACE.search(str(finding.get("detail", "")))
    if finding.get("probe") != "delayed_allocation" or not said:
        return finding
    flags, physical, size, after = int(said[1], 16), *(int(said[n].replace(",", "")) for n in (2, 3, 4))
    again = delalloc_answer([(0, physical, size, flags)], [(0, after, size, 0)])
    out = {k: v for k, v in finding.items() if k not in ("value", "limit", "unit", "at_least")}
    return {**out, **again, "detail": f"{again['detail']} (read again by fiemap.rst's rule from what this record kept; "
                                      f"it said {finding.get('value', finding['status'])} under an earlier rule)"}


def _unplaced(extent) -> bool:
    """An extent FIEMAP gives no known place on the device (fiemap.rst: DELALLOC sets UNKNOWN), such
    as data still unplaced after fsync; delayed allocation itself is DELALLOC alone."""
    return bool(extent[3] & (FIEMAP_EXTENT_DELALLOC | FIEMAP_EXTENT_UNKNOWN))


def tail_packing(mnt: str, log: Transcript) -> Finding:
    """Two files of one block and TAIL_BYTES, written, closed and synced: a tail is packed when
    FIEMAP flags the extent holding the first file's last bytes FIEMAP_EXTENT_DATA_TAIL ("Data
    is packed into a block with data from other files", fiemap.rst), and only then;
    FIEMAP_EXTENT_DATA_INLINE ("Data is located within a meta data block") is inline data, not a
    tail packed with other files' data, so the probe cannot tell from it; a block of its own is
    no. Where the kernel maps no extents, FIBMAP of the block holding each tail: none (0), or
    one block for both files, is packed; a block of each's own is not (ReiserFS keeps tails in
    its tree, and has no FIEMAP). Neither, and the probe cannot tell."""
    paths = [os.path.join(mnt, f"tail-{n}") for n in "ab"]
    for path in paths:  # written and closed: ReiserFS packs a tail when the file is closed
        with open(path, "wb") as f:
            block = os.fstat(f.fileno()).st_blksize
            f.write(os.urandom(block + TAIL_BYTES))
            f.flush()
            os.fsync(f.fileno())
    target.sync(mnt)
    size = block + TAIL_BYTES
    fds = [os.open(path, os.O_RDONLY) for path in paths]
    try:
        found = _extents(fds[0], log, size)
        numbers = [_fibmap(fd, log, 1) for fd in fds] if isinstance(found, str) else []
    finally:
        for fd in fds:
            os.close(fd)
        for path in paths:
            os.unlink(path)
    return tail_answer(found, numbers, block)


def tail_answer(found, numbers: list, block: int) -> Finding:
    """The tail-packing column from FIEMAP's answer for a file of block + TAIL_BYTES bytes (its
    extents, or a refusal's errno name) and, where FIEMAP was refused, FIBMAP's block of each of
    the two files' tails (None where refused), by the rule of tail_packing()."""
    size = block + TAIL_BYTES
    what = f"a file of {size:,} bytes (a block of {block:,} and {TAIL_BYTES} more)"
    if isinstance(found, str):
        first, second = numbers
        if first is None or second is None:
            return Finding.unavailable(f"cannot tell by FIEMAP (refused: {found}) nor FIBMAP (refused)")
        if first == 0 or first == second:
            return Finding.value("yes", f"{what}: FIBMAP put the tails of two such files "
                                        + ("in no block of their own" if first == 0 else f"both in block {first:,}")
                                        + f" (FIEMAP {found})")
        return Finding.value("no", f"{what}: FIBMAP put the tails of two such files in blocks {first:,} and "
                                   f"{second:,}, each its own (FIEMAP {found})")
    tail = [e for e in found if e[0] <= size - 1 < e[0] + e[2]]
    if not tail:
        return Finding(status="failed", detail=f"FIEMAP mapped no extent holding the last byte of {what}, written and synced")
    flags = tail[0][3]
    if flags & FIEMAP_EXTENT_DATA_TAIL:
        return Finding.value("yes", f"{what}: FIEMAP flagged the extent holding its tail FIEMAP_EXTENT_DATA_TAIL "
                                    f"(flags {flags:#x}): packed into a block with data from other files")
    if flags & FIEMAP_EXTENT_DATA_INLINE:
        return Finding.unavailable(f"cannot tell by FIEMAP: {what}: the extent holding its tail is flagged "
                                   f"FIEMAP_EXTENT_DATA_INLINE (flags {flags:#x}), data within a metadata block, which "
                                   f"fiemap.rst does not call packed with other files' data (FIEMAP_EXTENT_DATA_TAIL)")
    return Finding.value("no", f"{what}: FIEMAP put its tail in an extent of {tail[0][2]:,} bytes at byte "
                               f"{tail[0][1]:,}, in blocks of its own (flags {flags:#x})")


def _fibmap(fd: int, log: Transcript, index: int = 0) -> int | None:
    """FIBMAP's block number of the file's block index (0: none), or None when it is refused."""
    block = bytearray(struct.pack("=i", index))
    try:
        fcntl.ioctl(fd, FIBMAP, block)
    except OSError as e:
        log.note(f"ioctl(FIBMAP, block {index}): {errno_name(e)}")
        return None
    number = struct.unpack("=i", bytes(block))[0]
    log.note(f"ioctl(FIBMAP, block {index}): block {number}")
    return number


def _first_block(fd: int, log: Transcript):
    """("FIEMAP", physical byte) or ("FIBMAP", block number) of the file's first block, or None."""
    extent = _fiemap(fd, log)
    if not isinstance(extent, str) and extent[0]:
        return "FIEMAP", extent[2] - extent[1]
    number = _fibmap(fd, log)
    return ("FIBMAP", number) if number and number > 0 else None


def dedupe(mnt: str, log: Transcript) -> Finding:
    """Two files of the same 1 MiB, then FIDEDUPERANGE from the first onto the second."""
    data = os.urandom(1 << 20)
    paths = [os.path.join(mnt, f"dedupe-{n}") for n in "ab"]
    for path in paths:
        with open(path, "wb") as f:
            f.write(data)
            os.fsync(f.fileno())
    with open(paths[0], "rb") as src, open(paths[1], "r+b") as dest:
        request = bytearray(struct.pack("=QQHHI", 0, len(data), 1, 0, 0) + struct.pack("=qQQiI", dest.fileno(), 0, 0, 0, 0))
        try:
            fcntl.ioctl(src.fileno(), FIDEDUPERANGE, request)
        except OSError as e:
            log.note(f"ioctl(FIDEDUPERANGE, 1 MiB of two identical files): {errno_name(e)}")
            return Finding.value("no", f"the kernel refused FIDEDUPERANGE with {errno_name(e)}")
    _, _, deduped, status, _ = struct.unpack("=qQQiI", bytes(request[24:56]))
    log.note(f"ioctl(FIDEDUPERANGE, 1 MiB of two identical files): bytes_deduped={deduped}, status={status}")
    for path in paths:
        os.unlink(path)
    if status == FILE_DEDUPE_RANGE_SAME and deduped:
        return Finding.value("yes", f"FIDEDUPERANGE shared {deduped:,} bytes of two identical files")
    why = "the ranges differ" if status == FILE_DEDUPE_RANGE_DIFFERS else errno.errorcode.get(-status, str(status))
    return Finding.value("no", f"FIDEDUPERANGE deduplicated nothing ({why})")


def hard_link_limit(spec: dict, scratch: str, log: Transcript) -> Finding:
    """Links to one file, in one folder, until the filesystem refuses one (EMLINK, as the kernel's
    link(2) says) or HARD_LINK_CEILING; on an image of its own, thrown away with the links (the
    dump probe's xfsrestore of 70,000 links ran two minutes before it was stopped, and through
    FUSE an unlink costs as much as a link)."""
    with target.LoopImage(scratch, IMAGE_BYTES) as image:
        filesystems.mkfs(spec, image.device, [])
        filesystems.mount(spec, image.device, image.mountpoint, [])
        return _count_links(image.mountpoint, log)


def _count_links(mnt: str, log: Transcript) -> Finding:
    folder = os.path.join(mnt, "links")
    os.mkdir(folder)
    source = os.path.join(folder, "f")
    open(source, "w").close()
    refused = None
    for n in range(1, HARD_LINK_CEILING):
        if n % 1024 == 0:
            interrupts.raise_if_interrupted()  # ntfs-3g takes a minute to its limit
        try:
            os.link(source, os.path.join(folder, f"{n}"))
        except OSError as e:
            refused = errno_name(e)
            break
    count = os.stat(source).st_nlink
    log.note(f"link(2) to one file in one folder: {count} links held"
             + (f", the next refused with {refused}" if refused else f", stopped at fsatlas's ceiling of {HARD_LINK_CEILING}"))
    # (ntfs-3g refuses link 8,191 with ERANGE, its own limit: any refusal ends the count)
    return Finding.limit(count, "links", f"a file held {count:,} names" + (f"; one more was refused with {refused}"
                         if refused else f"; fsatlas stopped there"), at_least=refused is None)


def any_byte_names(mnt: str, log: Transcript) -> Finding:
    """A file named with each byte but NUL and '/', made, listed and removed in turn: yes when
    every name is taken and listed as given; else no, with the bytes refused and the kernel's
    errno (a driver that keeps names in UTF-16 refuses a byte that is no UTF-8 on its own), or
    listed otherwise; and whether 'é' as UTF-8 is taken. Each byte follows its own value in hex,
    so '.' makes no folder name and no two names differ only in case (a case-insensitive driver
    would make the second under the first one's cached name)."""
    folder = os.fsencode(mnt)
    before = set(os.listdir(folder))
    refused: dict[str, list[int]] = {}
    for byte in NAME_BYTES:
        why = _made_and_listed(folder, b"%02x" % byte + bytes([byte]), before, log)
        if why:
            refused.setdefault(why, []).append(byte)
    accented = _made_and_listed(folder, "né".encode(), before, log)
    for why, codes in refused.items():
        log.note(f"names ending in the byte(s) {_ranges(codes)}: {why}")
    log.note(f"each of the {len(NAME_BYTES)} bytes but NUL and '/' tried after its hex value (create, list, unlink): "
             f"{len(NAME_BYTES) - sum(map(len, refused.values()))} taken; 'né' in UTF-8: {accented or 'taken'}")
    if not refused:
        return Finding.value("yes", "every byte but NUL and '/' was taken in a name and listed as given")
    said = "; ".join(f"{_ranges(codes)}: {why}" for why, codes in refused.items())
    return Finding.value("no", f"names with these bytes were not kept as given: {said}; 'né' in UTF-8: "
                               f"{accented or 'taken'}"[:400])


def _made_and_listed(folder: bytes, name: bytes, before: set, log: Transcript) -> str:
    """'' when a file of this name is made and listed under exactly this name (then removed),
    else why not: the errno of the refusal, or that the folder lists it otherwise. before: the
    folder's entries beforehand."""
    path = os.path.join(folder, name)
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
    except OSError as e:
        return f"refused ({errno_name(e)})"
    new = set(os.listdir(folder)) - before
    if new != {name}:
        log.note(f"made as {name!r}, listed as {sorted(new)!r}")
    for entry in new:
        os.unlink(os.path.join(folder, entry))
    return "" if new == {name} else "listed under another name"


def _ranges(codes: list) -> str:
    """'0x01-0x03, 0x3a' for the byte values given, in order."""
    out, start = [], codes[0]
    for prev, cur in zip(codes, codes[1:] + [None]):
        if cur is None or cur != prev + 1:
            out.append(f"0x{start:02x}" if start == prev else f"0x{start:02x}-0x{prev:02x}")
            start = cur
    return ", ".join(out)


def creation_time(mnt: str, log: Transcript) -> Finding:
    """statx's birth time of a new file, as coreutils' stat prints it (%W: 0 or '-' when the
    filesystem gives none)."""
    path = os.path.join(mnt, "born")
    open(path, "w").close()
    done = log.run(["stat", "--format=%W", path])
    os.unlink(path)
    born = done.stdout.strip()
    if done.returncode == 0 and born.lstrip("-").isdigit() and int(born) > 0:
        return Finding.value("yes", f"statx gave a new file a birth time ({born} s since 1970)")
    return Finding.value("no", f"statx gave a new file no birth time (stat %W printed {born!r})")


def timestamps(spec: dict, scratch: str, log: Transcript) -> dict:
    """timestamp_range, year_2038 and timestamp_resolution: each of DATES (and a time with
    FRACTION_NS) set as a file's modification time, read back after an unmount and a mount (from
    the disk, not the inode cache)."""
    with target.LoopImage(scratch, IMAGE_BYTES) as image:
        filesystems.mkfs(spec, image.device, [])
        filesystems.mount(spec, image.device, image.mountpoint, [])
        names = {}
        for k, (label, seconds) in enumerate({**DATES, **BEYOND}.items()):
            names[label] = os.path.join(image.mountpoint, f"t{k}")
            open(names[label], "w").close()
            try:
                os.utime(names[label], ns=(seconds * 10**9, seconds * 10**9))
            except OSError as e:
                log.note(f"utimensat({label}): {errno_name(e)}")
        fine = os.path.join(image.mountpoint, "fine")
        open(fine, "w").close()
        os.utime(fine, ns=(1_700_000_000 * 10**9 + FRACTION_NS,) * 2)
        log.run(["umount", image.mountpoint])
        log.mount(spec, image)
        kept = {}
        for label, seconds in {**DATES, **BEYOND}.items():
            back = os.stat(names[label]).st_mtime_ns // 10**9
            kept[label] = back == seconds
            log.note(f"mtime set to {label} UTC ({seconds}): read back {back} ({'kept' if kept[label] else 'changed'})")
        got = os.stat(fine).st_mtime_ns - 1_700_000_000 * 10**9
        log.note(f"mtime set to 1700000000.{FRACTION_NS:09d}: read back a fraction of {got} ns")
    held = sorted(label for label in DATES if kept[label])  # the labels sort as their dates
    changed = sorted(label for label in DATES if not kept[label])
    past = "; ".join(f"{label}, past the range, {'came back as set' if kept[label] else 'did not'}" for label in BEYOND)
    out = {"timestamp_range": Finding.value(
        "no" if changed else "yes", f"of the dates tried, {len(held)} came back as set ({', '.join(held) or 'none'})"
        + (f" and {len(changed)} did not ({', '.join(changed)})" if changed else "") + f" ({past})")}
    out["year_2038"] = Finding.value("yes" if kept["2038-01-19 03:14:08"] else "no",
                                     "19 January 2038 03:14:08 UTC (2^31 s) " + ("came back as set" if kept["2038-01-19 03:14:08"]
                                                                              else "did not come back as set"))
    grain = next((g for g in (1, 10, 100, 1000, 10**4, 10**5, 10**6, 10**7, 10**8, 10**9, 2 * 10**9)
                  if got == FRACTION_NS - FRACTION_NS % g), None)
    out["timestamp_resolution"] = (Finding.limit(grain, "ns", f"a time of .{FRACTION_NS:09d} s came back as "
                                                 f".{got:09d} s") if grain and got >= 0 else
                                   Finding(status="failed", detail=f"a time's fraction came back as {got} ns"))
    return out


def encryption(fs: str, spec: dict, scratch: str, log: Transcript) -> Finding:
    """FS_IOC_GET_ENCRYPTION_POLICY on a new folder: ENODATA is a folder fscrypt could encrypt
    (none set), EOPNOTSUPP or ENOTTY a filesystem that cannot; where encryption is a feature of
    the format (ENCRYPT_MKFS), asked again on a filesystem made with it."""
    answers = []
    for options in ([], *([ENCRYPT_MKFS[fs]] if fs in ENCRYPT_MKFS else [])):
        with target.LoopImage(scratch, IMAGE_BYTES) as image:
            filesystems.mkfs(spec, image.device, options)
            filesystems.mount(spec, image.device, image.mountpoint, [])
            folder = os.path.join(image.mountpoint, "secret")
            os.mkdir(folder)
            fd = os.open(folder, os.O_RDONLY)
            try:
                fcntl.ioctl(fd, FS_IOC_GET_ENCRYPTION_POLICY, bytearray(12))
                said = "a policy"
            except OSError as e:
                said = errno_name(e)
            finally:
                os.close(fd)
        made = f"made with mkfs {' '.join(options)}" if options else "made with defaults"
        log.note(f"FS_IOC_GET_ENCRYPTION_POLICY on a new folder ({made}): {said}")
        answers.append((made, said))
        if said == "ENODATA":
            return Finding.value("yes", f"fscrypt: a new folder has no policy yet (ENODATA) on a filesystem {made}")
    return Finding.value("no", "fscrypt refused: " + "; ".join(f"{said} ({made})" for made, said in answers))
