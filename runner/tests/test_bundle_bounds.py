"""A bundle is read with bounds on everything before tarfile sees it: metadata headers (pax, GNU
long names) bounded before they are read, nothing after the archive's end, memory small
whatever the header claims (a pax header of 1 GiB validated at 2.14 GB before)."""
import gzip
import io
import resource
import tarfile
import zlib

import pytest

from fsatlas.errors import UserError
from fsatlas.results import bundle


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
