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
import re
import shutil
import stat
import tarfile
import zlib

from . import resultfile
from .. import outfile
from ..errors import UserError

SUFFIX = ".tar.gz"
MAX_MEMBER_BYTES = 64 * 1024 * 1024  # one repetition's raw output (fio json+ with latency bins: a few MB)
# Unpacked, all members: the committed standard runs' are 2.9 to 4.6 MiB. At 256 MiB, 40,000 of
# fio's full reports (6.6 KB each) took validate 10.1 s and 525 MiB, past its 10 s and 512 MiB.
MAX_TOTAL_BYTES = 128 * 1024 * 1024
# Each member is read, recomputed and screened (about 0.09 ms for a small fio report): 100,000
# took validate 8.7 s, too near its 10 s for a slower machine; 50,000 take 4.7 s (make perf).
# Ten repetitions of every cell a file may hold (5,000); a standard run's bundle holds 1,900.
MAX_MEMBERS = 50_000
MAX_BUNDLE_BYTES = 128 * 1024 * 1024  # compressed
MAX_HEADER_BYTES = 64 * 1024  # a pax or GNU long-name header: a name and a few numbers (ours: under 300 bytes)
MAX_PADDING_BYTES = 64 * 1024  # zeros after the end-of-archive blocks (tar pads to records of 10,240 bytes)
BLOCK = 512


def raw_dir_name(key: str) -> str:
    """The folder in a bundle holding the raw files of a cell (by its key) or of a job of the raw
    device's baseline (by its name): a key may hold any mount or mkfs option, a folder name may not."""
    return re.sub(r"[^A-Za-z0-9._=,+-]", "_", key.replace("|", "__"))


BASELINE_FOLDERS = ("baseline", "baseline_after")  # the raw device's reports, before and after the filesystems


def baseline_member(field: str, job: str, rep: int) -> str:
    """The member holding fio's report of one repetition of a baseline job (field: target.baseline
    or target.baseline_after), as the runner writes it."""
    return f"{field}/{raw_dir_name(job)}/rep-{rep}.json"


FILL_MEMBER = "fill.json"  # beside a baseline's jobs: fio's report of filling the device first


def baseline_reports(target: dict):
    """(field, job, the members of its repetitions' reports, in order) for each job of the raw
    device's baseline in a result's target: one report a sample, as the runner writes them and
    validation recomputes them."""
    for field in BASELINE_FOLDERS:
        for job, figures in (target.get(field) or {}).items():
            reps = max((len(m["samples"]) for m in figures.values()), default=0)
            yield field, job, [baseline_member(field, job, rep) for rep in range(1, reps + 1)]


def path(out_dir: str, rid: str) -> str:
    return os.path.join(out_dir, "raw", rid + SUFFIX)


def folder(out_dir: str, rid: str) -> str:
    """Where a run writes its raw files until pack()."""
    return os.path.join(out_dir, "raw", rid)


def relative(rid: str) -> str:
    """The bundle's path inside the data folder, as messages and the site name it."""
    return f"raw/{rid}{SUFFIX}"


def stray(results_folder: str, files: list[str]) -> list[resultfile.Problem]:
    """A problem for each entry of the raw/ folder beside results_folder that is not the bundle
    of one of these result files (a regular <id>.tar.gz): nothing else there is read or
    published, so nothing else may come in with a contribution. A folder raw/<id>/ of a listed
    result is left to its own check (the older layout, which `fsatlas migrate` packs)."""
    raw = os.path.join(os.path.dirname(os.path.abspath(results_folder)), "raw")
    if os.path.basename(os.path.abspath(results_folder)) != "results" or not os.path.isdir(raw):
        return []
    ids = {os.path.basename(f)[:-len(".json")] for f in files}
    problems = []
    for entry in sorted(os.scandir(raw), key=lambda e: e.name):
        mode = entry.stat(follow_symlinks=False).st_mode
        rid = entry.name[:-len(SUFFIX)] if entry.name.endswith(SUFFIX) else None
        if entry.name in resultfile.TOLERATED and stat.S_ISREG(mode) or stat.S_ISDIR(mode) and entry.name in ids:
            continue
        if not stat.S_ISREG(mode):
            found = resultfile.kind_of(mode)
        elif rid not in ids:
            found = "a file that is no result's bundle" if rid is None else f"the bundle of {rid!r}, which has no result file"
        else:
            continue
        problems.append(resultfile.Problem("error", entry.path, "", f"expected only the raw bundles of the result files "
                                           f"(<id>{SUFFIX}, regular files) in {raw}, found {found}; nothing else there "
                                           f"is read or published"))
    return problems


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


class BoundedTar:
    """The tar stream inside one gzip member, read in bounded pieces and checked block by block
    before tarfile sees it: every header's size within its bound (a pax or GNU long-name header
    of 1 GiB would otherwise be read whole into memory), and nothing after the archive's end
    but a little zero padding (no trailing bytes, no second gzip member, unchecked and published)."""

    CHUNK = 1 << 16

    def __init__(self, f, where: str):
        self.f, self.where = f, where
        self.inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)  # gzip framing, one member
        self.pending, self.pos = b"", 0  # decompressed; handed out up to pos
        self.header = b""  # the bytes of the block being parsed
        self.skip = 0  # data bytes (whole blocks) still to pass before the next header
        self.zeros = 0  # zero blocks in a row: two end the archive
        self.ended = False  # the end-of-archive blocks were seen
        self.padding = 0
        self.pax_size = None  # a pax header's size= for the next member
        self.pax_path = None  # and its path=
        self.count = 0  # members seen, as tarfile numbers them
        self.meta = None  # bytes of a pax header being collected (for its size=)
        self.gzip_done = False

    def _fail(self, message: str, member: str | None = None):
        raise UserError(message, where=f"{self.where} member {self.count} ({member[:200]!r})" if member else self.where)

    def _more(self) -> bytes:
        """The next decompressed piece, or b"" at the end of the gzip member."""
        while not self.gzip_done:
            data = self.inflate.unconsumed_tail or self.f.read(self.CHUNK)
            if not data:
                if not self.inflate.eof:
                    self._fail("expected a tar archive compressed with gzip, found damage: the gzip stream ends early")
                self.gzip_done = True
                break
            out = self.inflate.decompress(data, self.CHUNK)
            if self.inflate.eof:
                if self.inflate.unused_data or self.f.read(1):
                    self._fail("expected nothing after the gzip stream's end, found more bytes (another gzip "
                               "member or appended data): only one archive is read and published")
                self.gzip_done = True
            if out:
                return out
        return b""

    def _walk(self, data: bytes) -> None:
        """Follows the tar structure through data, raising where a bound is crossed."""
        i = 0
        while i < len(data):
            if self.ended:
                if data[i:].strip(b"\0"):
                    self._fail("expected nothing after the archive's end, found more bytes")
                self.padding += len(data) - i
                if self.padding > MAX_PADDING_BYTES:
                    self._fail(f"expected at most {MAX_PADDING_BYTES} bytes of padding after the archive's end, "
                               f"found more")
                return
            if self.skip:
                take = min(self.skip, len(data) - i)
                if self.meta is not None:
                    self.meta += data[i:i + take]
                self.skip -= take
                i += take
                if not self.skip and self.meta is not None:
                    self._read_pax(self.meta)
                    self.meta = None
                continue
            take = min(BLOCK - len(self.header), len(data) - i)
            self.header += data[i:i + take]
            i += take
            if len(self.header) == BLOCK:
                self._block(self.header)
                self.header = b""

    def _block(self, block: bytes) -> None:
        if not block.strip(b"\0"):
            self.zeros += 1
            self.ended = self.zeros >= 2
            return
        self.zeros = 0
        kind, size = block[156:157], self._size(block[124:136])
        prefix = block[345:500].split(b"\0")[0] if block[257:262] == b"ustar" else b""
        name = ((prefix + b"/" if prefix else b"") + block[:100].split(b"\0")[0]).decode("utf-8", "replace")
        if kind in (b"x", b"g", b"L", b"K"):  # pax extended, pax global, GNU long name, GNU long link
            if size > MAX_HEADER_BYTES:
                self.count += 1
                self._fail(f"expected a metadata header (pax or long name) of at most {MAX_HEADER_BYTES} bytes, "
                           f"found one of {size}", name)
            self.meta = b"" if kind == b"x" else None
        else:
            self.count += 1
            if self.pax_path is not None:
                name, self.pax_path = self.pax_path.decode("utf-8", "replace"), None
            if self.pax_size is not None:
                size, self.pax_size = self.pax_size, None
            if size > MAX_MEMBER_BYTES:
                self._fail(f"member too large: expected at most {MAX_MEMBER_BYTES} bytes a member, found {size}", name)
        self.skip = -(-size // BLOCK) * BLOCK
        if not self.skip and self.meta is not None:
            self.meta = None

    def _size(self, field: bytes) -> int:
        if field[:1] in (b"\x80", b"\xff"):  # base-256 (GNU): only for sizes beyond 8 GiB
            self._fail("expected a member size in octal, found a base-256 one (beyond 8 GiB)")
        try:
            return int(field.strip(b"\0 ") or b"0", 8)
        except ValueError:
            self._fail("expected a tar header with an octal size, found damage")

    def _read_pax(self, data: bytes) -> None:
        for record in data.split(b"\n"):
            _, _, keyword = record.partition(b" ")
            key, sep, value = keyword.partition(b"=")
            if sep and key == b"size":
                try:
                    self.pax_size = int(value)
                except ValueError:
                    self._fail("expected a number in a pax header's size record")
            elif sep and key == b"path":
                self.pax_path = value

    def read(self, n: int = -1) -> bytes:
        while n < 0 or len(self.pending) - self.pos < n:
            piece = self._more()
            if not piece:
                break
            self._walk(piece)
            self.pending = self.pending[self.pos:] + piece  # what is left is under one read's size
            self.pos = 0
        end = len(self.pending) if n < 0 else min(self.pos + n, len(self.pending))
        out, self.pos = self.pending[self.pos:end], end
        return out

    def finish(self) -> None:
        """Reads what tarfile left after the end of the archive: padding, then nothing."""
        while not self.gzip_done:
            self.pending, self.pos = b"", 0
            piece = self._more()
            if piece:
                self._walk(piece)


def _members(f, where: str) -> dict[str, bytes]:
    out, total = {}, 0
    stream = BoundedTar(f, where)
    try:
        with tarfile.open(fileobj=stream, mode="r|") as archive:  # a stream: one pass, nothing seeks
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
        stream.finish()
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
    times the time (25 against 7 ms). (outfile.replacing: only over a regular file or nothing.)"""
    with outfile.replacing(dest, binary=True, durable=True, suffix=SUFFIX) as raw_file:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw_file, mtime=0, compresslevel=6) as zipped:
            with tarfile.open(fileobj=zipped, mode="w", format=tarfile.PAX_FORMAT) as archive:
                for name in sorted(members):
                    info = tarfile.TarInfo(name)
                    info.size, info.mode, info.mtime = len(members[name]), 0o644, 0
                    archive.addfile(info, io.BytesIO(members[name]))


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
