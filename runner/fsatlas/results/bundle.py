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

from . import privacy, resultfile
from .. import outfile
from ..errors import UserError

SUFFIX = ".tar.gz"
MAX_MEMBER_BYTES = 64 * 1024 * 1024  # one repetition's raw output (fio json+ with latency bins: a few MB)
# Unpacked, all members: the committed standard runs' are 2.9 to 4.6 MiB. At 256 MiB, 40,000 of
# fio's full reports (6.6 KB each) took validate 10.1 s and 525 MiB, past its 10 s and 512 MiB.
MAX_TOTAL_BYTES = 128 * 1024 * 1024
MAX_MEMBERS = resultfile.MAX_RAW_FILES
MAX_BUNDLE_BYTES = 128 * 1024 * 1024  # compressed
MAX_HEADER_BYTES = 64 * 1024  # a pax or GNU long-name header: a name and a few numbers (ours: under 300 bytes)
MAX_PADDING_BYTES = 64 * 1024  # zeros after the end-of-archive blocks (tar pads to records of 10,240 bytes)
BLOCK = 512
OWNER_BYTES = 32  # a tar header's uname and gname fields: a pax record may hold no longer one
GZIP_NAME_BYTES = 255  # the file name in a gzip header (gzip writes the input's name; ours none)


BASELINE_FOLDERS = ("baseline", "baseline_after")  # the raw device's reports, before and after the filesystems


def baseline_member(field: str, job: str, rep: int) -> str:
    """The member holding fio's report of one repetition of a baseline job (field: target.baseline
    or target.baseline_after), as the runner writes it."""
    return f"{field}/{resultfile.raw_dir_name(job)}/rep-{rep}.json"


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
        left = resultfile.leftover(entry, mode)
        if left:
            problems.append(left)
            continue
        if stat.S_ISDIR(mode) and PACKED.fullmatch(entry.name):  # a pack cut short: nothing reads it
            problems.append(resultfile.Problem("warning", entry.path, "", "expected no folder a pack cut short "
                                               "left (fsatlas migrate --data removes it, as would deleting it); "
                                               "nothing reads or publishes it"))
            continue
        if not stat.S_ISREG(mode):
            found = resultfile.kind_of(mode)
        elif rid not in ids:
            # (an import killed between its two renames leaves one: the message says what to do)
            found = "a file that is no result's bundle" if rid is None else \
                f"the bundle of {rid!r}, which has no result file (an interrupted import, or a result removed " \
                f"without it: delete the bundle, or import again)"
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


# What a bundle's tar stream may hold, read block by block before tarfile sees it: tarfile's own
# header parser (TarInfo.frombuf) decides each header's type, size and checksum, and only these
# types pass, so the walk and tarfile can never read one archive two ways. Regular files and
# folders (links, devices and pipes reach member_problem, which names them); at most one
# metadata header before a member: a pax extended header ("x", what fsatlas's own bundles use for
# a long or non-ASCII name) or a GNU long name ("L", GNU tar's). Global pax headers ("g"),
# Solaris's "X" (which tarfile reads as pax), GNU long links, sparse files and every other type
# are refused, as are chains of metadata headers (tarfile applies them inside out).
MEMBER_TYPES = (tarfile.REGTYPE, tarfile.AREGTYPE, tarfile.DIRTYPE, tarfile.SYMTYPE, tarfile.LNKTYPE,
                tarfile.CHRTYPE, tarfile.BLKTYPE, tarfile.FIFOTYPE)
META_TYPES = (tarfile.XHDTYPE, tarfile.GNUTYPE_LONGNAME)
# The pax keywords a bundle may use: tarfile writes path (and size, the times, owners) and
# reads them as plain fields; hdrcharset, GNU.sparse.* and the rest change how tarfile reads.
PAX_KEYS = frozenset({b"path", b"size", b"mtime", b"atime", b"ctime", b"uid", b"gid", b"uname", b"gname"})
PAX_RECORD = re.compile(rb"([1-9][0-9]{0,5}) ")  # "%d %s=%s\n": the length of the whole record
MAX_METADATA_BYTES = 8 * 1024 * 1024  # all metadata headers of a bundle together (50,000 long names)
TEXT = ("utf-8", "surrogateescape")  # how names are decoded, by the walk and by tarfile alike


class BoundedTar:
    """The tar stream inside one gzip member, read in bounded pieces and checked block by block
    before tarfile sees it: every header parsed by tarfile's own parser and of a type tarfile
    reads as plainly (MEMBER_TYPES, META_TYPES), every header's size within its bound (a pax
    or GNU long-name header of 1 GiB would otherwise be read whole into memory), all metadata
    together within MAX_METADATA_BYTES, pax records framed by their lengths exactly as tarfile
    reads them (a newline inside a record is no record's end) and of known keys, and nothing
    after the archive's end (the first zero block, as tarfile takes it) but a little zero
    padding (no trailing bytes, no second gzip member, unchecked and published)."""

    CHUNK = 1 << 16

    def __init__(self, f, where: str):
        self.f, self.where = f, where
        self.inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)  # gzip framing, one member
        self.pending, self.pos = b"", 0  # decompressed; handed out up to pos
        self.header = b""  # the bytes of the block being parsed
        self.skip = 0  # data bytes (whole blocks) still to pass before the next header
        self.ended = False  # the end-of-archive block was seen
        self.padding = 0
        self.pax_size = None  # a pax header's size= for the next member
        self.pax_path = None  # and its path= (or a GNU long name)
        self.count = 0  # members seen, as tarfile numbers them
        self.meta = None  # bytes of a metadata header being collected
        self.meta_kind = None  # the type of the metadata header before the next member, if any
        self.meta_total = 0  # bytes of metadata headers so far
        self.gzip_done = False
        self.head_checked = False  # _gzip_header, on the first piece read
        self.parsed = {}  # header block -> its TarInfo, parsed here, until tarfile takes it

        class WalkedTarInfo(tarfile.TarInfo):
            """Hands tarfile the header this walk parsed from the same block (its own parser's
            answer, not made twice: 18 µs a header), parsing only a block the walk did not."""

            @classmethod
            def frombuf(cls, buf, encoding, errors):
                info = self.parsed.pop(buf, None) if (encoding, errors) == TEXT else None
                return info if info is not None else tarfile.TarInfo.frombuf(buf, encoding, errors)
        self.tarinfo = WalkedTarInfo

    def _fail(self, message: str, member: str | None = None):
        raise UserError(message, where=f"{self.where} member {self.count} ({member[:200]!r})" if member else self.where)

    def _gzip_header(self, data: bytes) -> None:
        """gzip's header (RFC 1952), which zlib passes over unread: no extra field nor comment
        (unbounded, and published), and a file name of at most GZIP_NAME_BYTES, screened."""
        if len(data) < 10 or data[:3] != b"\x1f\x8b\x08":
            return  # not gzip: zlib says so
        flags = data[3]
        if flags & 0x14:  # FEXTRA, FCOMMENT
            self._fail("expected a gzip header without an extra field or a comment (published unread), found "
                       + " and ".join(w for bit, w in ((4, "an extra field"), (16, "a comment")) if flags & bit))
        if flags & 0x08:  # FNAME, NUL-terminated
            end = data.find(b"\0", 10, 10 + GZIP_NAME_BYTES + 1)
            if end < 0:
                self._fail(f"expected a gzip header's file name of at most {GZIP_NAME_BYTES} bytes, found a longer one")
            private = privacy.finding(data[10:end].decode("latin-1"))
            if private:
                self._fail(f"private: the gzip header's file name {private}; the bundle is published")

    def _more(self) -> bytes:
        """The next decompressed piece, or b"" at the end of the gzip member."""
        while not self.gzip_done:
            data = self.inflate.unconsumed_tail or self.f.read(self.CHUNK)
            if not self.head_checked:
                self.head_checked = True
                self._gzip_header(data)
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
                    self._read_meta(self.meta)
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
            self.ended = True  # tarfile ends at the first zero block: what follows must be zeros
            if self.meta_kind is not None:
                self._fail("expected a member after a metadata header (pax or long name), found the archive's end")
            return
        if block[124:125] in (b"\x80", b"\xff"):  # base-256 (GNU): only for sizes beyond 8 GiB
            self.count += 1
            self._fail("expected a member size in octal, found a base-256 one (beyond 8 GiB)")
        try:
            info = tarfile.TarInfo.frombuf(block, *TEXT)
        except tarfile.HeaderError as e:  # tarfile would take it for the archive's end
            self.count += 1
            self._fail(f"expected a tar header, found damage ({e})")
        self.parsed[block] = info  # for tarfile, which reads this block next (WalkedTarInfo)
        name, size = info.name, info.size
        for field in ("uname", "gname"):
            if getattr(info, field):
                self._owner(field, getattr(info, field).encode("utf-8", "surrogateescape"), name)
        if info.type in META_TYPES:
            if self.meta_kind is not None:
                self.count += 1
                self._fail("expected at most one metadata header (pax or long name) before a member, found two", name)
            self.meta_total += size
            if size > MAX_HEADER_BYTES or self.meta_total > MAX_METADATA_BYTES:
                self.count += 1
                self._fail(f"expected a metadata header (pax or long name) of at most {MAX_HEADER_BYTES} bytes, "
                           f"and at most {MAX_METADATA_BYTES} in all, found one of {size} ({self.meta_total} in all)",
                           name)
            self.meta_kind, self.meta = info.type, b""
            self.skip = -(-size // BLOCK) * BLOCK
            if not self.skip:
                self._read_meta(b"")
                self.meta = None
            return
        self.count += 1
        if info.type not in MEMBER_TYPES:
            self._fail(f"expected regular files and folders only, found a tar header of type {info.type!r} "
                       f"(a global or Solaris pax header, a GNU long link, a sparse file or another kind)", name)
        self.meta_kind = None
        if self.pax_path is not None:
            name, self.pax_path = self.pax_path.decode("utf-8", "replace"), None
        if self.pax_size is not None:
            size, self.pax_size = self.pax_size, None
        if size > MAX_MEMBER_BYTES:
            self._fail(f"member too large: expected at most {MAX_MEMBER_BYTES} bytes a member, found {size}", name)
        # tarfile skips data after a regular file's header only (a folder's size is not read)
        self.skip = -(-size // BLOCK) * BLOCK if info.isreg() else 0

    def _read_meta(self, data: bytes) -> None:
        """A GNU long name (the name up to its first NUL), or a pax header's records, each framed by
        its length as tarfile's _proc_pax reads it, up to the first NUL; refused where a record is
        not framed so (tarfile refuses it too) or is a key outside PAX_KEYS, so the size and path
        the walk takes are those tarfile takes."""
        if self.meta_kind == tarfile.GNUTYPE_LONGNAME:
            self.pax_path = data.split(b"\0", 1)[0]
            return
        pos = 0
        if data.rstrip(b"\0").count(b"\0"):  # tarfile stops at the first NUL: what follows is published unread
            self._fail("expected nothing but NUL padding after a pax header's records, found more bytes",
                       f"pax header before member {self.count + 1}")
        while pos < len(data) and data[pos] != 0:
            match = PAX_RECORD.match(data, pos)
            end = pos + int(match.group(1)) - 1 if match else len(data)
            key, equals, value = data[match.end():end].partition(b"=") if match else (b"", b"", b"")
            if end >= len(data) or data[end] != 0x0A or not equals:
                self._fail("expected pax records framed as '<length> <key>=<value>\\n', found damage",
                           f"pax header before member {self.count + 1}")
            if key not in PAX_KEYS or b"\n" in value or b"\0" in value:
                self._fail(f"expected pax records of {', '.join(sorted(k.decode() for k in PAX_KEYS))} with no "
                           f"newline or NUL in a value, found {key[:100]!r}", f"pax header before member {self.count + 1}")
            if key == b"size":
                if not value.isdigit() or not value.isascii():
                    self._fail(f"expected a number in a pax header's size record, found {value[:100]!r}")
                self.pax_size = int(value)
            elif key == b"path":
                self.pax_path = value
            elif key in (b"uname", b"gname"):
                self._owner(key.decode(), value, f"pax header before member {self.count + 1}")
            pos = end + 1

    def _owner(self, field: str, value: bytes, place: str) -> None:
        """An owner's name (pax uname/gname, or the header's own fields): published with the
        bundle, so bounded as the header's field is (32 bytes) and screened as a member is."""
        if len(value) > OWNER_BYTES:
            self._fail(f"expected an owner name ({field}) of at most {OWNER_BYTES} bytes, as a tar header holds, "
                       f"found {len(value):,}", place)
        private = value and privacy.finding(value.decode("utf-8", "replace"))
        if private:
            self._fail(f"private: the {field} of a tar header {private}; the bundle is published", place)

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
        """Reads what tarfile left after the end of the archive: padding, then nothing. An
        archive that never reached its end-of-archive zero block (its last member's data cut
        short, or a partial block after it, which tarfile takes for the end and passes over
        unread) is refused: nothing after the last member but those zeros."""
        while not self.gzip_done:
            self.pending, self.pos = b"", 0
            piece = self._more()
            if piece:
                self._walk(piece)
        if not self.ended:
            found = f"{len(self.header)} bytes of a partial block" if self.header.strip(b"\0") else \
                f"{self.skip} bytes of member {self.count}'s data missing" if self.skip else "no end-of-archive block"
            self._fail(f"expected the archive's end-of-archive zero blocks after its last member, found {found}")


def _members(f, where: str) -> dict[str, bytes]:
    out, total = {}, 0
    stream = BoundedTar(f, where)
    try:
        with tarfile.open(fileobj=stream, mode="r|", tarinfo=stream.tarinfo, encoding=TEXT[0],
                          errors=TEXT[1]) as archive:  # a stream: one pass, nothing seeks
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
    with outfile.replacing(dest, binary=True, durable=True) as raw_file:
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
    # renamed away in one step, then removed: a removal cut short (a kill) leaves no part of the
    # folder where unpack would take it for a newer one than the bundle (#60 round 40)
    gone = _packed(out_dir, rid)
    shutil.rmtree(gone, ignore_errors=True)
    if os.path.lexists(folder(out_dir, rid)):
        os.rename(folder(out_dir, rid), gone)
    shutil.rmtree(gone, ignore_errors=True)
    return len(members)


def _packed(out_dir: str, rid: str) -> str:
    """Where pack moves raw/<id>/ to before it removes it."""
    return os.path.join(os.path.dirname(folder(out_dir, rid)), f".{rid}.packed")


PACKED = re.compile(r"\.[A-Za-z0-9][A-Za-z0-9._-]{0,199}\.packed")  # _packed's folder name (an id: resultfile.ID)


def finish_packs(out_dir: str) -> None:
    """Removes what packs cut short left in raw/ (_packed: a kill during the removal, #65 round 54)."""
    raw = os.path.join(out_dir, "raw")
    for name in os.listdir(raw) if os.path.isdir(raw) else ():
        if PACKED.fullmatch(name):
            shutil.rmtree(os.path.join(raw, name), ignore_errors=True)


def unpack(out_dir: str, rid: str) -> None:
    """raw/<id>.tar.gz back into raw/<id>/, for a run that is resumed; nothing when the folder
    is there already (a run that was killed before it could pack) or there is no bundle."""
    shutil.rmtree(_packed(out_dir, rid), ignore_errors=True)  # what a pack cut short left
    if os.path.lexists(folder(out_dir, rid)) or not os.path.lexists(path(out_dir, rid)):
        return
    for name, data in read(out_dir, rid).items():  # names checked: relative, no '..'
        dest = os.path.join(folder(out_dir, rid), *name.split("/"))
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, "xb") as f:
            f.write(data)
