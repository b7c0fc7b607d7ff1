"""What a cache compares to know a file is unchanged: its size and a digest of its content.

A size and mtime would do on one machine, but a fresh checkout gives every file a new mtime,
and the publishing workflow builds from a fresh checkout with the previous build's caches
restored: keyed on mtimes, every one of 10,000 results would be checked again. So, as git's
index does, the digest of each file is remembered with the size, mtime, ctime and inode it was
taken at (MEMO_FILE), and the file is read again only when one of those changes: once after a
checkout (1.8 s for 10,000 quick results and their bundles here), never on an ordinary rebuild.
The ctime and inode catch a file changed and given its old mtime back (`touch -r`, `cp -p`,
`rsync -a`), which size and mtime alone took for unchanged (its page kept its old chart). Not
caught, as in git ("racily clean" entries): a file written again, to the same size, within one
tick of the kernel's clock after it was read, which leaves its mtime and ctime as they were.
"""
import hashlib
import json
import os
import stat

from . import resultfile
from ..errors import UserError

MEMO_FILE = os.path.join("build", "cache", "signatures.json")
_memo: dict | None = None
_changed = False
_taken: dict = {}  # what this process hashed since taken() was last called


def as_opened(path: str) -> str:
    """path spelled so that its text names the file the kernel opens: a '..' after a name goes up
    from wherever that name leads, which normpath, abspath and the caches take as text
    (adversary round 84: tmp/L/../d1/r.json, L a link to x/sub, is tmp/x/d1/r.json to the kernel
    and tmp/d1/r.json to normpath, so a kept outcome and a bundle of another file answered for it).
    Such a path has its folder resolved (realpath; the file itself, were it a link, is refused where
    it is read); any other is as given."""
    if ".." not in path:
        return path
    parts = [p for p in path.split(os.sep) if p not in ("", ".")]
    named = next((i for i, p in enumerate(parts) if p != ".."), len(parts))  # leading ..: from the working folder
    if ".." not in parts[named:]:
        return path
    folder, name = os.path.split(path)
    return os.path.realpath(path) if name in ("", ".", "..") else os.path.join(os.path.realpath(folder), name)


def cache_key(path: str) -> str:
    """A file's name in a cache: relative to the working folder, as the caches themselves are
    (build/cache/), so a checkout elsewhere (the pull-request check builds in base/) finds them.
    A relative path that stays below the working folder is that already, once normalized:
    with relpath(), 40,000 calls, adding one result to 10,000 took 0.25 s more (PERFORMANCE.md)."""
    normal = os.path.normpath(as_opened(path))
    if not os.path.isabs(normal):
        if normal != ".." and not normal.startswith(".." + os.sep):
            return normal
        return os.path.relpath(normal)
    # an absolute path below the working folder (make perf's and the workflows' --data) is cut at
    # it, as relpath would: relpath's own work took 0.28 s of an aggregate of 10,000 unchanged results
    cwd = os.getcwd()
    base = cwd.rstrip(os.sep)  # "" at the root, where relpath does it ("//x", which POSIX keeps, too)
    if base and normal.startswith(base + os.sep):
        return normal[len(base) + 1:]
    return os.path.relpath(normal, cwd)


def stat_signature(path: str) -> list | None:
    """[size, mtime in ns] of a file, or None when it is gone: what make would compare (for
    files only fsatlas writes, whose caches never outlive them)."""
    try:
        st = os.lstat(path)  # a link is not followed: it is refused, and its target is not ours to look at
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns]


def signature(path: str) -> list | None:
    """[size, SHA-256 of the content (16 hex digits)] of a regular file, None when it is gone
    (or is not a regular file: it is refused, never read)."""
    key = cache_key(path)
    known, found = _remembered(key)
    return found if known else _hashed(key)


def signatures(paths: list) -> list:
    """signature() of each path; the files the memo does not answer for are read on a thread a
    core (hashlib and file reads let go of the interpreter): 10,000 quick results in 1.0 s,
    where one thread took 2.3 s."""
    keys = [cache_key(path) for path in paths]
    out = [_remembered(key) for key in keys]
    todo = [key for key, (known, _) in zip(keys, out) if not known]
    if len(todo) < 2 * CHUNK:
        hashed = map(_hashed, todo)
    else:
        from concurrent.futures import ThreadPoolExecutor
        with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
            hashed = iter(list(pool.map(_hashed, todo, chunksize=CHUNK)))
    return [found if known else next(hashed) for known, found in out]


def _remembered(key: str) -> tuple[bool, list | None]:
    """(True, the signature) when a stat and the memo tell it (a rebuild looks at 20,000 files
    this way), (False, None) when the file has to be read."""
    memo = _load()
    try:
        st = os.lstat(key)  # a link is not followed: it is refused, and its target is not ours to look at
    except OSError:
        return True, None
    if not stat.S_ISREG(st.st_mode):
        return True, None
    known = memo.get(key)
    if known and known[:2] == [st.st_size, st.st_mtime_ns] and known[3:] == _stamps(st):
        return True, [st.st_size, known[2]]
    return False, None


def _stamps(st: os.stat_result) -> list:
    """What a memo entry keeps of a file beside its size, mtime and digest: its ctime and inode."""
    return [st.st_ctime_ns, st.st_ino]


def _hashed(key: str) -> list | None:
    """The signature of a file read now, remembered by the size, mtime, ctime and inode it was read at."""
    try:
        fd = os.open(key, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    st = os.fstat(fd)  # what is hashed, not what was listed
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        return None
    with os.fdopen(fd, "rb") as f:
        digest = _short(hashlib.file_digest(f, "sha256"))
    _remember_one(key, [st.st_size, st.st_mtime_ns, digest, *_stamps(st)])
    return [st.st_size, digest]


def of_read(key: str, st: os.stat_result, data: bytes) -> list:
    """The signature of data, a file's content as read (st: the file's fstat before the read),
    remembered as if the file had been hashed: a worker that reads a result file anyway takes
    its digest from the bytes (0.08 ms), where reading every file again first held up a first
    build of 10,000 by 1.2 to 2.7 s. Not remembered when the file grew or shrank while it was read."""
    digest = _short(hashlib.sha256(data))
    if len(data) == st.st_size:
        _remember_one(key, [st.st_size, st.st_mtime_ns, digest, *_stamps(st)])
    return [len(data), digest]


def linked(path: str) -> None:
    """A file the caller has just hard-linked elsewhere (aggregate publishes result files and
    bundles so): a link changes its ctime, not its content, so a digest remembered of it, of the
    same size, mtime and inode, takes the new ctime (else the next build reads every published
    file again)."""
    key = cache_key(path)
    known = _load().get(key)
    try:
        st = os.lstat(key)
    except OSError:
        return
    if known and known[:2] == [st.st_size, st.st_mtime_ns] and known[4] == st.st_ino:  # _load keeps 5-item entries
        _remember_one(key, [*known[:3], *_stamps(st)])


def _short(sha256) -> str:
    """The digest as a signature holds it: 16 hex digits of the SHA-256."""
    return sha256.hexdigest()[:16]


def _remember_one(key: str, entry: list) -> None:
    global _changed
    _load()[key] = _taken[key] = entry
    _changed = True


def taken() -> dict:
    """The digests this process took since the last call: what a worker sends back for the
    parent to remember (remember) and save, as a forked worker's memo is its own."""
    global _taken
    out, _taken = _taken, {}
    return out


def remember(entries: dict) -> None:
    """Takes in the digests another process took (taken)."""
    global _changed
    if entries:
        _load().update(entries)
        _changed = True


CHUNK = 64  # paths a thread takes at once


def _load() -> dict:
    global _memo
    if _memo is None:
        try:
            with open(MEMO_FILE, encoding="utf-8") as f:
                _memo = json.load(f)
            # only entries of the shape this module writes: [size, mtime, digest, ctime, inode]
            # (a hand-edited or foreign entry made a rebuild raise a TypeError, round 34)
            _memo = {k: v for k, v in _memo.items() if _entry(v)} if isinstance(_memo, dict) else {}
        except (OSError, ValueError):
            _memo = {}
    return _memo


def _entry(value) -> bool:
    """Whether a memo entry is [size, mtime ns, 16 hex digits, ctime ns, inode]."""
    return (isinstance(value, list) and len(value) == 5 and isinstance(value[2], str)
            and all(isinstance(v, int) and not isinstance(v, bool) for v in (value[0], value[1], value[3], value[4])))


def save() -> None:
    """Keeps the digests taken (of files still there) for the next process."""
    global _changed
    if _memo is not None and _changed:
        try:
            resultfile.write_atomic(MEMO_FILE, {k: v for k, v in _memo.items() if os.path.lexists(k)},
                                    compact=True, durable=False)
        except UserError:
            pass  # a folder that cannot be written (a read-only checkout): the digests are taken again next time
        _changed = False
