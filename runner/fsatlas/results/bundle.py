"""One result's raw output as one compressed archive: data/raw/<id>.tar.gz beside results/<id>.json.

A cell's raw reference `raw/<id>/<cell>/rep-1.json` names the member `<cell>/rep-1.json` of
raw/<id>.tar.gz, so `tar -xzf raw/<id>.tar.gz -C raw/<id>` lays out exactly the paths the
result names. A pull request adds two files; 222 raw files of a quick result become one of
about 60 KB (README, Performance: tar.gz against tar.xz and zip, size and read speed).

While a run goes on, its raw files are written into the folder raw/<id>/ (fio writes its
report there, --resume continues there); pack() turns the folder into the bundle when the run
stops. Reading never writes anything: members are read into memory, within limits, and a
member that is not a plain file (absolute, `..`, a link, a device) is refused
with its place named, as is an archive whose members add up to more than MAX_TOTAL_BYTES
(a tar bomb is a contribution too).
"""
import gzip
import io
import os
import shutil
import stat
import tarfile
import tempfile
import zlib

from . import resultfile
from ..errors import UserError

SUFFIX = ".tar.gz"
MAX_MEMBER_BYTES = 64 * 1024 * 1024  # one repetition's raw output (fio json+ with latency bins: a few MB)
MAX_TOTAL_BYTES = 256 * 1024 * 1024  # a standard run's raw output is about 15 MB
MAX_MEMBERS = 100_000
MAX_BUNDLE_BYTES = 128 * 1024 * 1024  # compressed


def path(out_dir: str, rid: str) -> str:
    return os.path.join(out_dir, "raw", rid + SUFFIX)


def folder(out_dir: str, rid: str) -> str:
    """Where a run writes its raw files until pack()."""
    return os.path.join(out_dir, "raw", rid)


def relative(rid: str) -> str:
    """The bundle's path inside the data folder, as messages and the site name it."""
    return f"raw/{rid}{SUFFIX}"


def member_of(rid: str, reference: str) -> str:
    """The member a cell's raw reference names: raw/<id>/x -> x."""
    prefix = f"raw/{rid}/"
    return reference[len(prefix):] if reference.startswith(prefix) else reference


def read(out_dir: str, rid: str) -> dict[str, bytes]:
    """Every regular member of raw/<id>.tar.gz, by name; UserError naming the bundle and the
    member when the bundle is missing, not a regular file, damaged, or holds what it may not."""
    where = relative(rid)
    if not os.path.lexists(path(out_dir, rid)):
        raise UserError(f"expected the raw output bundle {where}, found none")
    try:
        data = resultfile.read_regular(path(out_dir, rid), MAX_BUNDLE_BYTES)  # no link followed, bounded
    except UserError as e:
        raise UserError(e.body, where=where) from None
    return _members(io.BytesIO(data), where)


def _members(f, where: str) -> dict[str, bytes]:
    out, total = {}, 0
    try:
        with tarfile.open(fileobj=f, mode="r|gz") as archive:  # a stream: one pass, nothing seeks
            for n, info in enumerate(archive):
                place = f"{where} member {n + 1} ({info.name[:200]!r})"
                if n >= MAX_MEMBERS:
                    raise UserError(f"expected at most {MAX_MEMBERS} members", where=where)
                problem = member_problem(info)
                if problem:
                    raise UserError(problem, where=place)
                if info.isdir():
                    continue
                total += info.size
                if info.size > MAX_MEMBER_BYTES or total > MAX_TOTAL_BYTES:
                    raise UserError("member too large", where=place, expected=f"at most {MAX_MEMBER_BYTES} bytes a member "
                                    f"and {MAX_TOTAL_BYTES} in all", found=f"{info.size} bytes ({total} so far)")
                if info.name in out:
                    raise UserError("expected each member once, found it twice", where=place)
                out[info.name] = archive.extractfile(info).read()
    except (tarfile.TarError, EOFError, zlib.error, gzip.BadGzipFile, OSError) as e:
        raise UserError(f"expected a tar archive compressed with gzip, found damage: {e}", where=where) from None
    return out


def member_problem(info: tarfile.TarInfo) -> str | None:
    """Why a member may not be in a bundle, or None."""
    parts = info.name.rstrip("/").split("/") if info.isdir() else info.name.split("/")
    if info.name.startswith("/") or any(p in ("", ".", "..") for p in parts):
        return "expected a relative name without '.', '..' or empty parts"
    if not (info.isfile() or info.isdir()):
        kind = "a symbolic link" if info.issym() else "a hard link" if info.islnk() else "a device or pipe"
        return f"expected regular files only, found {kind}"
    return None


def write(members: dict[str, bytes], dest: str) -> None:
    """Writes the members (name -> bytes) as a tar.gz at dest, through a temporary file and a
    rename. The same members always give the same bytes: sorted, no times, owners or modes.
    gzip level 6: level 9 makes a quick result's bundle 11 % smaller (48 against 54 KB) in 3.6
    times the time (25 against 7 ms)."""
    directory = os.path.dirname(os.path.abspath(dest))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=SUFFIX, dir=directory)
    try:
        with os.fdopen(fd, "wb") as raw_file:
            with gzip.GzipFile(filename="", mode="wb", fileobj=raw_file, mtime=0, compresslevel=6) as zipped:
                with tarfile.open(fileobj=zipped, mode="w", format=tarfile.PAX_FORMAT) as archive:
                    for name in sorted(members):
                        info = tarfile.TarInfo(name)
                        info.size, info.mode, info.mtime = len(members[name]), 0o644, 0
                        archive.addfile(info, io.BytesIO(members[name]))
            raw_file.flush()
            os.fsync(raw_file.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, dest)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def folder_members(out_dir: str, rid: str) -> dict[str, bytes]:
    """The regular files under raw/<id>/ as members; links and devices are refused (never followed)."""
    top, out = folder(out_dir, rid), {}
    for here, folders, files in os.walk(top):
        for name in folders + files:
            full = os.path.join(here, name)
            mode = os.lstat(full).st_mode
            if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)):
                raise UserError("expected only folders and regular files", where=os.path.relpath(full, out_dir))
        for name in files:
            full = os.path.join(here, name)
            with open(full, "rb") as f:
                out[os.path.relpath(full, top)] = f.read()
    return out


def pack(out_dir: str, rid: str) -> int:
    """raw/<id>/ into raw/<id>.tar.gz (replacing it), then the folder is removed; no bundle
    for a run that wrote no raw file. Returns the number of members."""
    members = folder_members(out_dir, rid)
    if members:
        write(members, path(out_dir, rid))
    shutil.rmtree(folder(out_dir, rid), ignore_errors=True)
    return len(members)


def unpack(out_dir: str, rid: str) -> None:
    """raw/<id>.tar.gz back into raw/<id>/, for a run that is resumed; nothing when the folder
    is there already (a run that was killed before it could pack) or there is no bundle."""
    if os.path.lexists(folder(out_dir, rid)) or not os.path.lexists(path(out_dir, rid)):
        return
    for name, data in read(out_dir, rid).items():  # names checked: relative, no '..'
        dest = os.path.join(folder(out_dir, rid), *name.split("/"))
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, "xb") as f:
            f.write(data)
