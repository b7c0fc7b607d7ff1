"""Importers: other tools' outputs turned into fsatlas result files.

Each format module exposes `parse(text, where, workload) -> list[Measurement]` for one input
file. Several input files are repetitions of the same test: measurements with the same
workload and parameters across files become the samples of one cell. The input files are
kept as the raw output of the result, so every figure can be traced back.
"""
import codecs
import re

from . import bonnie, dd, fio, iozone, pts
from .. import fio_json
from ...errors import UserError

FORMATS = {"fio": fio, "bonnie": bonnie, "dd": dd, "iozone": iozone, "pts": pts}


def detect(text: str):
    """The format module that reads this output, or None: each says whether the text looks like
    its tool's. fio's JSON is asked first: it is most raw files, and its test is the cheapest."""
    for module in (fio, pts, iozone, bonnie, dd):
        if module.looks_like(text):
            return module
    return None


# A tool's text report (bonnie++, IOzone, dd, PTS XML, fio's normal or terse output): a day of
# dd's progress lines (one a second, about 70 bytes) is 6 MB. Screened for private text at about
# 9 MB/s (42 MB of dd's progress lines in 4.7 s), then parsed, so bounded, one file and all a
# result's together, to keep `validate` within seconds; fio's JSON (numbers, read by orjson)
# only by bundle.MAX_MEMBER_BYTES.
MAX_TEXT_BYTES = 8 * 1024 * 1024
MAX_TEXT_TOTAL = 16 * 1024 * 1024


def is_json_report(data: bytes) -> bool:
    """Whether data is fio's JSON report (maybe after notes fio printed first) or another JSON
    document: its first 64 KiB holds an opening brace before any line of text of its own
    format would."""
    head = data[:65536].lstrip()
    return head[:1] in (b"{", b"[") or (b"\n{" in head and b'"fio version"' in head)


def text_of(data: bytes, where: str) -> str:
    """The text a tool wrote, from the bytes of its output file: UTF-16 where a byte order mark
    says so (PowerShell's `>` writes it), else UTF-8, a byte that is not (an 8-bit locale's é in
    an old dd summary) replaced, which no importer needs: they read figures and ASCII words."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16", "replace")
    if len(data) > MAX_TEXT_BYTES and not is_json_report(data):
        raise UserError(f"a text report of {len(data):,} bytes", where=where,
                        expected=f"a tool's text output of at most {MAX_TEXT_BYTES:,} bytes (fio's JSON may be larger)")
    if b"\0" in data[:65536]:
        raise UserError("a binary file, not text", where=where,
                        expected="the text the tool printed (IOzone's -b spreadsheet is not read: give its report)")
    if is_json_report(data):  # json+'s bins cut before decoding, not after (fio_json.bytes_without_bins)
        data = fio_json.bytes_without_bins(data)
    declared = declared_encoding(data)
    if declared:
        try:
            return data.decode(declared, "replace")
        except (UnicodeError, ValueError):  # a codec that refuses even with "replace" (idna's long labels)
            pass
    return data.decode("utf-8-sig", "replace")


_XML_DECLARATION = re.compile(rb'^<\?xml[^>]{0,200}?encoding\s*=\s*["\']([A-Za-z0-9._-]{1,40})["\']')


def declared_encoding(data: bytes) -> str | None:
    """The encoding an XML document declares for itself where Python knows it as a text encoding
    that reads ASCII as ASCII (not "hex" nor "base64", which crashed validate: round 59) and it is not
    UTF-8 (a Phoronix Test Suite file declaring ISO-8859-1: its é read as UTF-8 was two
    replacement characters in the result's os, round 58), else None."""
    match = _XML_DECLARATION.match(data.lstrip(codecs.BOM_UTF8))
    if not match:
        return None
    try:
        info = codecs.lookup(match.group(1).decode("ascii"))
        if b"<?xml".decode(info.name) != "<?xml":  # a text encoding that reads ASCII as ASCII (not EBCDIC)
            return None
    except (LookupError, UnicodeError, ValueError, TypeError):  # "hex", "base64", "undefined", "idna" (round 59)
        return None
    if not getattr(info, "_is_text_encoding", True):
        return None
    return None if info.name in ("utf-8", "utf-16", "utf-16-le", "utf-16-be") else info.name
