"""The one way fsatlas writes a file: `with replacing(path) as f: f.write(...)`.

What is written goes to a temporary file in the target's own folder (so the rename cannot cross
filesystems), which is renamed over the target only when the target is a regular file or
nothing: a device, FIFO, socket, directory or symbolic link named as the target is refused in
one line (UserError), before anything is written and again just before the rename. `-` means
standard output, which gets the content only once all of it is written (spooled to a nameless
temporary file). A missing folder is made; a folder that cannot be made or written, a folder in
the path that is a file, or a full disk is a UserError naming the target, never a traceback,
and the temporary file is removed. export, report, article, import (results and bundles, through
resultfile.write_atomic and bundle.write), run, probe and migrate write through it.

(Between the last check and the rename another process could put a device there: rename(2)
has no "only over a regular file" flag. The checks stop the mistakes and the hostile command
lines of one user; they are no lock against a second one racing the first.)
"""
import contextlib
import ctypes
import errno
import fcntl
import io
import os
import stat
import sys
import tempfile

from .errors import UserError

STDOUT = "-"
# The temporary file beside a target: one form whatever the target, so that one a killed write
# left (kill -9 between mkstemp and the rename) is known as such by the listings of data/results
# and data/raw, never taken for a result or a bundle (#65 round 52: ".tmp-x.json" made validate
# and migrate refuse the folder until removed by hand)
TEMP_PREFIX, TEMP_SUFFIX = ".tmp-", ".fsatlas-tmp"


def is_temporary(name: str) -> bool:
    """Whether a file name is that of a temporary file fsatlas writes before a rename (replacing()'s,
    or temporary_for()'s): never a result's, a bundle's or a page's, which start with a letter or digit."""
    return name.startswith(TEMP_PREFIX) and name.endswith(TEMP_SUFFIX)


def temporary_for(path: str) -> str:
    """The temporary file beside path, named in the one form the listings and the site's mirror
    know, for the build's own outputs (one writer each, tens of thousands a build: no mkstemp):
    a killed aggregate left "<target>.tmp", which the site then published (#65 round 53)."""
    folder, name = os.path.split(path)
    return os.path.join(folder, TEMP_PREFIX + name + TEMP_SUFFIX)


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISLNK, "a symbolic link"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"))


def refusal(path: str) -> str | None:
    """Why path may not be replaced by a regular file (in words), or None where it may: it is
    a regular file or nothing."""
    if path == "":
        return "expected a file name, found an empty one"
    if path.endswith(("/", os.sep)) or os.path.basename(path) in ("", ".", ".."):
        return "expected a file name, found a folder's"
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        return "expected a folder before the file name, found a file"
    except OSError as e:
        return f"cannot look at it: {e.strerror}"
    if stat.S_ISREG(mode):
        return None
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    return f"expected a regular file or a new name to write, found {kind} (never replaced)"


def check(path: str) -> None:
    """Raises the UserError refusal(path) words, if any."""
    why = refusal(path)
    if why:
        raise UserError(why, where=path or "''")


def folder(path: str) -> str:
    """path as a folder to write in, made where missing; a UserError where it cannot be (a file
    in the way, no permission, a read-only filesystem), or where it is empty or `-` (standard
    output to every command writing one file: a folder named "-" was made)."""
    named(path)
    if os.path.lexists(path) and not os.path.isdir(path):
        raise UserError("expected a folder, found a file", where=path)
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        where = e.filename if isinstance(e.filename, str) else path  # the part in the way, if not path itself
        why = "expected a folder, found a file" if isinstance(e, (FileExistsError, NotADirectoryError)) else \
            f"cannot make the folder: {e.strerror}"
        raise UserError(why, where=where) from None
    return path


def named(path: str) -> str:
    """The absolute path of an output folder, refused where it is empty or `-` (standard output
    to every command writing one file: import --out - made a folder named "-")."""
    if path in ("", STDOUT):
        raise UserError(f"expected a folder to write in, found {'an empty name' if not path else repr(path)}"
                        + (", which means standard output where a command writes one file" if path else ""),
                        where=path or "''")
    return os.path.abspath(path)


def _file_end(stream) -> int | None:
    """Where a write to stream begins, if stream is a regular file (> out.csv, or >> appending at
    its end), so that a failed write can be taken back; None for a pipe, a terminal or a device."""
    try:
        fd = stream.fileno()
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None
        return st.st_size if fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_APPEND else os.lseek(fd, 0, os.SEEK_CUR)
    except (OSError, ValueError, io.UnsupportedOperation):
        return None


_LIBC = ctypes.CDLL(None, use_errno=True)
_LIBC.fallocate.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_longlong, ctypes.c_longlong]
_KEEP_SIZE, _PUNCH_HOLE = 0x01, 0x02  # FALLOC_FL_* of <linux/falloc.h>


def _fallocate(fd: int, mode: int, offset: int, length: int) -> None:
    if _LIBC.fallocate(fd, mode, offset, length) != 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code))


def _reserve(fd: int, offset: int, length: int) -> bool:
    """Whether the disk space for length bytes at offset of the regular file fd was taken before a
    byte of them is written (fallocate(2), the file's size kept: an O_APPEND write still lands at
    its end). Where the disk is full the OSError comes here, before anything the file held is
    overwritten (1<>file). False on a filesystem without fallocate: a full disk can then still stop
    the copy partway, and what it overwrote stays overwritten."""
    if not length:
        return False
    try:
        _fallocate(fd, _KEEP_SIZE, offset, length)
    except OSError as e:
        if e.errno in (errno.EOPNOTSUPP, errno.EINVAL, errno.ENODEV, errno.ESPIPE, errno.EBADF):
            return False
        _unreserve(fd, offset, length)  # what a refused reservation took, past the file's end
        raise
    return True


def _unreserve(fd: int, offset: int, length: int) -> None:
    """The space of [offset, offset + length) past the file's end given back."""
    with contextlib.suppress(OSError):
        end = os.fstat(fd).st_size
        if offset + length > end:
            _fallocate(fd, _PUNCH_HOLE | _KEEP_SIZE, end, offset + length - end)


def _saved(fd: int, offset: int, length: int):
    """The bytes of [offset, offset + length) of the file fd, kept in a nameless temporary file
    (bounded by the disk, not memory), so that a copy that fails partway can put them back; None
    where fd cannot be read (opened write-only)."""
    kept = tempfile.TemporaryFile()
    end = offset + length
    try:
        while offset < end:
            chunk = os.pread(fd, min(1 << 20, end - offset), offset)
            if not chunk:
                break
            kept.write(chunk)
            offset += len(chunk)
    except OSError as e:
        kept.close()
        if e.errno == errno.EBADF:
            return None
        raise
    return kept


def _put_back(fd: int, offset: int, kept) -> None:
    """What _saved kept, written back where it was: into blocks the file already has, which a full
    disk does not refuse."""
    with contextlib.suppress(OSError):
        kept.seek(0)
        while chunk := kept.read(1 << 20):
            view = memoryview(chunk)
            while view:
                offset += (n := os.pwrite(fd, view, offset))
                view = view[n:]


def _copy_all(source, stream) -> None:
    """source's bytes to the binary stream, all of them or an OSError: a BufferedWriter returns a
    short count, without an error, where the disk filled up after part of a write (> a full disk)."""
    while chunk := source.read(1 << 20):
        view = memoryview(chunk)
        while view:
            view = view[stream.write(view):]
    stream.flush()


def move_into_place(tmp: str, path: str) -> None:
    """Renames the finished file tmp over path, where path is a regular file or nothing."""
    check(path)
    try:
        os.replace(tmp, path)
    except OSError as e:
        raise UserError(f"cannot write: {e.strerror}", where=path) from None


def _mode(path: str) -> int:
    """The mode of the file written as path: an existing target's own, else what open(2) would
    give a new file under the process's umask (0666 less the umask), as any tool writing it would."""
    with contextlib.suppress(OSError):
        return stat.S_IMODE(os.stat(path).st_mode)
    umask = os.umask(0o022)  # read by setting it (the only portable way), then put back
    os.umask(umask)
    return 0o666 & ~umask


@contextlib.contextmanager
def replacing(path: str, binary: bool = False, durable: bool = False):
    """A file object to write path's new content to; the content replaces path only when the
    block ends without an exception. durable: flushed to the disk before the rename (result
    files, bundles). binary: bytes, else UTF-8 text."""
    if path == STDOUT:
        # Spooled to a nameless temporary file (on the disk, so memory stays bounded) and copied
        # out only when the block ends without an exception: a refusal met halfway (a bad file
        # among good ones) leaves standard output empty, as it leaves a named target untouched.
        if sys.stdout is None or getattr(sys.stdout, "closed_descriptor", False):  # started closed (>&-)
            raise UserError("cannot write: standard output is closed", where=STDOUT)
        spooled = f"cannot write the output's spool in {tempfile.gettempdir()} (TMPDIR)"
        try:
            spool = tempfile.TemporaryFile("w+b")
        except OSError as e:
            raise UserError(f"{spooled}: {e.strerror}", where=STDOUT) from None
        handed = spool if binary else io.TextIOWrapper(spool, encoding="utf-8")
        kept = None
        try:
            try:
                yield handed
                handed.flush()
            except OSError as e:
                if e.filename is not None:  # an input's error (it names its file): the caller's to word
                    raise
                raise UserError(f"{spooled}: {e.strerror or e}", where=STDOUT) from None
            length = spool.seek(0, os.SEEK_END)
            spool.seek(0)
            started, old_size = None, 0
            try:
                sys.stdout.flush()
                started = _file_end(sys.stdout)
                if started is not None:
                    fd = sys.stdout.fileno()
                    old_size = os.fstat(fd).st_size
                    if not _reserve(fd, started, length) and started < old_size:
                        # no room reserved (ext2 has no fallocate): the bytes the copy overwrites are
                        # kept to be put back (#60 round 22)
                        try:
                            kept = _saved(fd, started, min(old_size, started + length) - started)
                        except OSError as e:
                            raise UserError(f"{spooled}: {e.strerror or e}", where=STDOUT) from None
                _copy_all(spool, sys.stdout.buffer)
            except OSError as e:  # the reader stopped reading (| head), a full disk (> /dev/full)
                # a regular file: what the copy overwrote is put back (#60 round 22), what it added
                # is taken back (round 20), and nothing it held before is cut (round 21: 1<>file)
                if started is not None:
                    if kept:
                        _put_back(sys.stdout.fileno(), started, kept)
                    with contextlib.suppress(OSError):
                        os.ftruncate(sys.stdout.fileno(), max(started, old_size))
                    _unreserve(sys.stdout.fileno(), started, length)
                # standard output goes to /dev/null, so that Python's own flush at exit says nothing more
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
                if isinstance(e, BrokenPipeError):
                    raise UserError("standard output was closed before everything was written", where=STDOUT) from None
                raise UserError(f"cannot write: {e.strerror}", where=STDOUT) from None
        finally:
            with contextlib.suppress(OSError):  # what a full disk kept in its buffer is dropped with it
                handed.close()
            if kept:
                kept.close()
        return
    check(path)
    directory = folder(os.path.dirname(os.path.abspath(path)))
    try:
        fd, tmp = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=TEMP_SUFFIX, dir=directory)
    except OSError as e:
        raise UserError(f"cannot write in its folder: {e.strerror}", where=path) from None
    try:
        with os.fdopen(fd, "wb" if binary else "w", **({} if binary else {"encoding": "utf-8"})) as f:
            try:
                yield f
                f.flush()
                if durable:
                    os.fsync(f.fileno())
            except OSError as e:
                if e.filename is not None:  # an input's error (it names its file): the caller's to word
                    raise
                raise UserError(f"cannot write: {e.strerror}", where=path) from None
        os.chmod(tmp, _mode(path))  # mkstemp makes 0600
        move_into_place(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
