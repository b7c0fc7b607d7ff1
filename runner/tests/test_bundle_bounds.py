"""A bundle is read with bounds on everything before tarfile sees it: metadata headers (pax, GNU
long names) bounded before they are read, nothing after the archive's end, memory small
whatever the header claims (a pax header of 1 GiB validated at 2.14 GB before)."""
import gzip
import io
import resource
import tarfile
import zlib

import os

import pytest
from hypothesis import given, settings, strategies as st

from fsatlas.errors import UserError
from fsatlas.results import bundle

EXAMPLES = int(os.environ.get("FSATLAS_FUZZ_EXAMPLES", "40"))


def _tar(members: dict, fmt=tarfile.PAX_FORMAT) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=fmt) as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def _header(name: bytes, kind: bytes, size: int) -> bytes:
    """One tar header block declaring `size` bytes of data of this kind, with a right checksum."""
    block = bytearray(512)
    block[:len(name)] = name
    block[100:108] = b"0000644\0"
    block[124:136] = b"%011o\0" % size
    block[156:157] = kind
    block[257:263] = b"ustar\0"
    block[148:156] = b" " * 8
    block[148:156] = b"%06o\0 " % sum(block)
    return bytes(block)


def _gzip_stream(chunks) -> bytes:
    """gzip of the concatenated chunks, made piece by piece (a GiB of zeros never in memory)."""
    z = zlib.compressobj(6, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    return b"".join(z.compress(c) for c in chunks) + z.flush()


def _zeros(total: int, piece: int = 1 << 24):
    while total > 0:
        yield bytes(min(piece, total))
        total -= piece


@pytest.mark.parametrize("kind,size,words", [
    (b"x", 1 << 30, "metadata header"),  # a pax header of 1 GiB
    (b"L", 512 << 20, "metadata header"),  # a GNU long name of 512 MiB
    (b"0", 3 << 30, "member too large"),
])
def test_a_header_claiming_too_much_is_refused_before_it_is_read(kind, size, words):
    data = _gzip_stream([_header(b"big", kind, size), *_zeros(1 << 20)])  # the refusal comes at the header
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(UserError, match=words) as caught:
        bundle._members(io.BytesIO(data), "raw/x.tar.gz")
    assert "member 1 ('big')" in str(caught.value)
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert grown_mb < 64, grown_mb  # kilobytes, on Linux


def test_zeros_after_the_end_of_the_archive_are_refused_beyond_the_padding():
    archive = _tar({"a/rep-1.json": b"{}"})
    fine = gzip.compress(archive + bytes(10240))  # padding to a record, as tar writes it
    assert bundle._members(io.BytesIO(fine), "raw/x.tar.gz") == {"a/rep-1.json": b"{}"}
    bloated = _gzip_stream([archive, *_zeros(8 << 20)])  # 8 MiB of zeros after the end
    with pytest.raises(UserError, match="padding after the archive's end"):
        bundle._members(io.BytesIO(bloated), "raw/x.tar.gz")


def test_bytes_or_a_second_gzip_member_after_the_archive_are_refused():
    first = gzip.compress(_tar({"a/rep-1.json": b"{}"}))
    hidden = gzip.compress(_tar({"../../escape": b"planted"}, fmt=tarfile.GNU_FORMAT))
    for data in (first + hidden, first + b"junk"):
        with pytest.raises(UserError, match="nothing after the gzip stream's end"):
            bundle._members(io.BytesIO(data), "raw/x.tar.gz")
    with pytest.raises(UserError, match="nothing after the archive's end"):
        bundle._members(io.BytesIO(gzip.compress(_tar({"a": b"1"}) + b"\x01")), "raw/x.tar.gz")


def test_a_pax_path_names_the_member_a_bound_refuses():
    long_name = "d/" + "x" * 150 + "/rep-1.json"  # beyond ustar's 100 bytes: PAX writes a path= record
    data = _tar({long_name: b"{}"})
    assert bundle._members(io.BytesIO(gzip.compress(data)), "raw/x.tar.gz") == {long_name: b"{}"}


def test_a_bundle_of_more_members_than_validate_reads_in_its_time_is_refused():
    """Every member is read, recomputed and screened: 100,000 small fio reports took validate
    8.7 s (bundle.MAX_MEMBERS). Empty members here: only the count is at fault."""
    names = {f"c{i}/rep-1.json": b"" for i in range(bundle.MAX_MEMBERS + 1)}
    data = gzip.compress(_tar(names, tarfile.GNU_FORMAT), compresslevel=1)
    with pytest.raises(UserError, match=f"expected at most {bundle.MAX_MEMBERS} members") as caught:
        bundle._members(io.BytesIO(data), "raw/x.tar.gz")
    assert caught.value.where == "raw/x.tar.gz"
    names.popitem()
    assert len(bundle._members(io.BytesIO(gzip.compress(_tar(names, tarfile.GNU_FORMAT), compresslevel=1)),
                               "raw/x.tar.gz")) == bundle.MAX_MEMBERS


def test_members_adding_up_to_more_than_validate_reads_in_its_bounds_are_refused():
    """At 256 MiB, 40,000 of fio's full reports took validate 10.1 s and 525 MiB (its bounds: 10 s,
    512 MiB); the refusal names the member that crossed bundle.MAX_TOTAL_BYTES."""
    piece = bundle.MAX_TOTAL_BYTES // 4  # a quarter each: the fifth member crosses the bound

    def members():
        for i in range(1, 6):
            yield _header(f"part-{i}".encode(), b"0", piece)
            yield from _zeros(piece)
        yield bytes(1024)
    with pytest.raises(UserError, match="member too large") as caught:
        bundle._members(io.BytesIO(_gzip_stream(members())), "raw/x.tar.gz")
    assert caught.value.where == "raw/x.tar.gz member 5 ('part-5')" and f"{bundle.MAX_TOTAL_BYTES} in all" in str(caught.value)


def _pax(records: list[bytes]) -> bytes:
    """A pax header's data: each record framed by its length (which counts its own digits)."""
    return b"".join(next(b"%d %s\n" % (n, r) for n in range(len(r) + 3, len(r) + 12)
                         if n == len(b"%d %s\n" % (n, r))) for r in records)


def _with_data(header: bytes, data: bytes) -> bytes:
    return header + data + bytes(-len(data) % 512)


def _refused_small(chunks, words: str) -> UserError:
    """The bundle made of chunks is refused with words in the message, memory barely grown."""
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(UserError, match=words) as caught:
        bundle._members(io.BytesIO(_gzip_stream(chunks)), "raw/x.tar.gz")
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert grown_mb < 64, grown_mb
    return caught.value


def test_a_pax_record_holding_a_newline_is_read_as_tarfile_reads_it():
    """Issue #61: the real size= first, then a path whose value holds a newline and a fake
    "size=1": split at newlines, the last size read 1 and the member passed; tarfile reads the
    records by their lengths, took 3 GiB and the walk let it (5.36 GB of memory from 1.07 MB)."""
    big = 3 << 30
    records = _pax([b"size=%d" % big, b"path=a\n9 size=1"])
    assert tarfile.TarInfo.frombuf(_header(b"a", b"0", 1), "utf-8", "strict").size == 1
    error = _refused_small([_with_data(_header(b"pax", b"x", len(records)), records), _header(b"a", b"0", 1),
                            *_zeros(1 << 20)], "pax records")
    assert "newline" in str(error)
    # the same size alone is taken as tarfile takes it: the member's, refused by its bound
    records = _pax([b"size=%d" % big, b"path=a"])
    _refused_small([_with_data(_header(b"pax", b"x", len(records)), records), _header(b"a", b"0", 1),
                    *_zeros(1 << 20)], "member too large")


@pytest.mark.parametrize("kind", [b"X", b"g", b"K", b"S", b"7", b"V"])
def test_header_types_outside_the_whitelist_are_refused(kind):
    """Issue #61: a chain of Solaris X headers, which tarfile reads as pax (3.05 GB from 765 KB);
    beside it every type tarfile reads otherwise than as a plain member or one pax header."""
    chain = [_with_data(_header(b"x%d" % i, kind, 60 << 20), b"") for i in range(3)]
    _refused_small([chain[0], *_zeros(1 << 20)], "tar header of type")


def test_two_metadata_headers_before_a_member_are_refused():
    """tarfile applies a chain of pax headers inside out: one metadata header a member, at most."""
    records = _pax([b"path=a"])
    pax = _with_data(_header(b"pax", b"x", len(records)), records)
    longname = _with_data(_header(b"././@LongLink", b"L", 2), b"b\0")
    for first, second in ((pax, pax), (pax, longname), (longname, pax)):
        _refused_small([first, second, _header(b"a", b"0", 0), bytes(1024)], "at most one metadata header")


@pytest.mark.parametrize("record,words", [
    (b"hdrcharset=BINARY", "pax records"), (b"GNU.sparse.size=10", "pax records"),
    (b"size=\xd9\xa1\xd9\xa2", "a number"), (b"size=1_0", "a number"),  # int() takes both: tarfile's decoded text
])
def test_pax_keys_and_values_outside_the_whitelist_are_refused(record, words):
    records = _pax([record])
    _refused_small([_with_data(_header(b"pax", b"x", len(records)), records), _header(b"a", b"0", 0), bytes(1024)],
                   words)


def test_a_pax_header_misframed_or_a_bad_checksum_is_damage_not_the_end():
    """tarfile ends a stream quietly at a header it cannot read (after the first): the members
    behind it would be published unread."""
    records = _pax([b"path=a"])[:-1] + b"x"  # the record's last byte is no newline
    _refused_small([_with_data(_header(b"pax", b"x", len(records)), records), _header(b"a", b"0", 0), bytes(1024)],
                   "framed")
    good = _with_data(_header(b"a", b"0", 2), b"{}")
    bad = bytearray(_with_data(_header(b"b", b"0", 2), b"{}"))
    bad[0:1] = b"c"  # the checksum no longer matches
    _refused_small([good, bytes(bad), bytes(1024)], "damage")
    _refused_small([good, bytes(512), good, bytes(1024)], "nothing after the archive's end")  # one zero block ends it


def test_all_metadata_is_bounded_together():
    def one(i):
        records = _pax([b"path=%06d" % i + b"p" * 60_000])
        return _with_data(_header(b"pax", b"x", len(records)), records) + _header(b"a", b"0", 0)
    count = bundle.MAX_METADATA_BYTES // len(_pax([b"path=000000" + b"p" * 60_000])) + 1
    _refused_small([one(i) for i in range(count)] + [bytes(1024)], "in all")
    assert len(bundle._members(io.BytesIO(_gzip_stream([one(i) for i in range(count - 1)] + [bytes(1024)])),
                               "raw/x.tar.gz")) == count - 1


def _without_end(members: dict) -> bytes:
    """A tar of these members whose end-of-archive blocks (and the record's zero padding) are cut."""
    tar = _tar(members)
    last = max(i for i in range(0, len(tar), 512) if tar[i:i + 512].strip(b"\0")) + 512
    return tar[:last]


@settings(max_examples=EXAMPLES)
@given(tail=st.binary(min_size=1, max_size=511).filter(lambda b: b.strip(b"\0")), ended=st.booleans())
def test_nothing_after_the_last_member_but_the_end_of_archive_zeros(tail, ended):
    """Rule (issue #61 item 9): after the last member only the end-of-archive zero blocks (and
    zero padding). A partial block of any bytes after the last member, with or without the end
    blocks, is refused; cutting the end blocks alone is refused too; the whole archive passes."""
    members = {"a/rep-1.json": b'{"x": 1}', "b.txt": b"hello"}
    assert bundle._members(io.BytesIO(gzip.compress(_tar(members))), "raw/x.tar.gz") == members
    body = _tar(members) if ended else _without_end(members)
    with pytest.raises(UserError, match="after") as caught:
        bundle._members(io.BytesIO(gzip.compress(body + tail)), "raw/x.tar.gz")
    assert "raw/x.tar.gz" in str(caught.value)
    with pytest.raises(UserError, match="end-of-archive zero blocks"):
        bundle._members(io.BytesIO(gzip.compress(_without_end(members))), "raw/x.tar.gz")


SECRET = "alice@example.com /home/alice/.ssh/id_rsa"


def _pax_member(records: bytes, name: bytes = b"a.txt", data: bytes = b"hello") -> bytes:
    """A pax header of these bytes (its size theirs), then a member, then the archive's end."""
    pad = lambda b: b + bytes(-len(b) % 512)  # noqa: E731
    return (_header(b"././@PaxHeader", b"x", len(records)) + pad(records) + _header(name, b"0", len(data))
            + pad(data) + bytes(1024))


def _record(key: bytes, value: bytes) -> bytes:
    body = b" " + key + b"=" + value + b"\n"
    n = len(body) + 1
    while len(str(n)) + len(body) != n:
        n += 1
    return str(n).encode() + body


@settings(max_examples=EXAMPLES)
@given(tail=st.binary(min_size=1, max_size=2000).filter(lambda b: b.strip(b"\0")))
def test_nothing_but_nul_after_a_pax_headers_records(tail):
    """Rule (item 8): a pax header's data is its records; tarfile stops at the first NUL, so any
    other byte after it would be published unread."""
    records = _record(b"path", b"a.txt")
    assert bundle._members(io.BytesIO(gzip.compress(_pax_member(records + b"\0" * 7))), "r") == {"a.txt": b"hello"}
    with pytest.raises(UserError, match="nothing but NUL padding after a pax header's records"):
        bundle._members(io.BytesIO(gzip.compress(_pax_member(records + b"\0" + tail))), "r")


@settings(max_examples=EXAMPLES)
@given(field=st.sampled_from([b"uname", b"gname"]), padding=st.text(st.characters(codec="ascii", categories=["L", "N"]),
                                                                     max_size=70_000))
def test_an_owner_name_is_bounded_and_screened(field, padding):
    """Rule (item 8): pax uname/gname hold at most what a tar header's field does (32 bytes),
    and what they hold is screened as a member's text is; the header's own fields alike."""
    value = (SECRET + padding).encode()
    with pytest.raises(UserError, match="at most 32 bytes" if len(value) > 32 else "private"):
        bundle._members(io.BytesIO(gzip.compress(_pax_member(_record(field, value)))), "r")
    short = padding[:32].encode()
    if short:
        records = _record(field, short)
        try:
            assert bundle._members(io.BytesIO(gzip.compress(_pax_member(records))), "r") == {"a.txt": b"hello"}
        except UserError as e:  # a name that itself looks private (this machine's user name, a serial)
            assert "private" in str(e)
    info = tarfile.TarInfo("a.txt")
    info.size, info.uname = 5, "alice@example.com"
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT) as archive:
        archive.addfile(info, io.BytesIO(b"hello"))
    with pytest.raises(UserError, match="private: the uname"):
        bundle._members(io.BytesIO(gzip.compress(buf.getvalue())), "r")


@pytest.mark.parametrize("flag,field,words", [
    (0x10, SECRET.encode() * 1000 + b"\0", "a comment"),
    (0x04, b"\x10\x00" + b"x" * 16, "an extra field"),
    (0x08, b"x" * 300 + b"\0", "file name of at most 255 bytes"),
    (0x08, SECRET.encode() + b"\0", "private: the gzip header's file name"),
])
def test_a_gzip_headers_text_is_refused_or_bounded_and_screened(flag, field, words):
    """Rule (item 8): gzip's FCOMMENT and FEXTRA are refused (zlib passes over them unread, any
    length); FNAME is bounded and screened; a plain name passes."""
    body = gzip.compress(_tar({"a.txt": b"hello"}), mtime=0)
    assert body[3] == 0
    with_field = lambda flags, extra: body[:3] + bytes([flags]) + body[4:10] + extra + body[10:]  # noqa: E731
    assert bundle._members(io.BytesIO(with_field(0x08, b"bundle.tar\0")), "r") == {"a.txt": b"hello"}
    with pytest.raises(UserError, match=words):
        bundle._members(io.BytesIO(with_field(flag, field)), "r")
