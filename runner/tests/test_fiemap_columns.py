"""The rules of the three FIEMAP columns (run/probes_generic.py: extents_answer, delalloc_answer,
tail_answer), over extent maps the tests did not choose, each answer compared with the rule as
Documentation/filesystems/fiemap.rst states the flags: FIEMAP_EXTENT_MERGED marks blocks addressed
one by one (no extents, however long the merged runs); FIEMAP_EXTENT_DELALLOC is delayed
allocation, and nothing else: FIEMAP_EXTENT_UNKNOWN alone ("currently unknown": an inaccessible
volume, or no storage allocated yet) cannot tell, nor can an extent FIEMAP_EXTENT_UNWRITTEN at
physical byte 0, as F2FS maps a block it reserved; FIEMAP_EXTENT_DATA_TAIL ("packed into a block
with data from other files") is tail packing, and FIEMAP_EXTENT_DATA_INLINE ("located within a
meta data block") is inline data, not a tail: cannot tell. A refusal of FIEMAP is "cannot tell",
never "no"."""
from hypothesis import given, strategies as st

from fsatlas.run.probes_generic import (FIEMAP_EXTENT_DATA_INLINE, FIEMAP_EXTENT_DATA_TAIL, FIEMAP_EXTENT_DELALLOC,
                                        FIEMAP_EXTENT_MERGED, FIEMAP_EXTENT_UNKNOWN, TAIL_BYTES, delalloc_answer,
                                        extents_answer, tail_answer)

FLAGS = st.sampled_from([0, 0x1, 0x2, 0x8, 0x100, 0x800, 0x2000]).flatmap(  # LAST, UNKNOWN, ENCODED, NOT_ALIGNED, ...
    lambda base: st.sets(st.sampled_from([0, FIEMAP_EXTENT_MERGED, FIEMAP_EXTENT_DELALLOC, FIEMAP_EXTENT_UNKNOWN,
                                          FIEMAP_EXTENT_DATA_TAIL, FIEMAP_EXTENT_DATA_INLINE])).map(
        lambda extra: base | sum(extra)))
BLOCKS = st.sampled_from([512, 1024, 2048, 4096, 65536])
EXTENT = st.tuples(st.integers(0, 1 << 40), st.one_of(st.just(0), st.integers(0, 1 << 40)), st.integers(1, 1 << 27), FLAGS)
REFUSED = st.sampled_from(["EOPNOTSUPP", "ENOTSUP", "ENOTTY", "EINVAL"])


@given(st.lists(EXTENT, min_size=1, max_size=20), BLOCKS)
def test_extents_are_runs_longer_than_a_block_none_merged(found, block):
    got = extents_answer(found, block)
    merged = any(f & FIEMAP_EXTENT_MERGED for *_, f in found)
    assert got["status"] == "ok"
    assert got["value"] == ("yes" if not merged and max(n for _, _, n, _ in found) > block else "no"), (found, got)


@given(BLOCKS, st.integers(-1, 1))
def test_extents_beside_one_block(block, beside):
    """A run of exactly one block (or a byte less) is no extent; one byte more is."""
    run = [(0, 1 << 20, block + beside, 0)]
    assert extents_answer(run, block)["value"] == ("yes" if beside > 0 else "no")
    assert extents_answer([(0, 0, block * 1024, FIEMAP_EXTENT_MERGED)], block)["value"] == "no"


@given(REFUSED, BLOCKS)
def test_a_refused_fiemap_cannot_tell(refused, block):
    for got in (extents_answer(refused, block), delalloc_answer(refused, []), tail_answer(refused, [None, 7], block)):
        assert got["status"] == "not available" and refused in got["detail"], got
        assert "value" not in got


@given(st.lists(EXTENT, max_size=10), st.one_of(REFUSED, st.lists(EXTENT, max_size=10)))
def test_delayed_allocation_is_a_pending_extent_placed_by_fsync(before, after):
    got = delalloc_answer(before, after)

    def unplaced(e):  # fiemap.rst: DELALLOC "its physical location has not been allocated yet"; UNKNOWN "currently unknown"
        return e[3] & (0x4 | 0x2)
    pending = any(e[3] & 0x4 for e in before)  # delayed allocation is DELALLOC, word for word
    placed = not isinstance(after, str) and after and not any(unplaced(e) for e in after)
    if not before:
        assert got["status"] == "not available"
    elif not pending and any(e[3] & 0x2 for e in before):  # UNKNOWN alone: an unknown place is not a pending one
        assert got["status"] == "not available" and "FIEMAP_EXTENT_UNKNOWN" in got["detail"] and "value" not in got, got
    elif not pending and any(e[3] & 0x800 and e[1] == 0 for e in before):  # unwritten at byte 0: no flag fiemap.rst defines
        assert got["status"] == "not available" and "fiemap.rst" in got["detail"], got
    elif not pending:
        assert got["value"] == "no"
    elif placed:
        assert got["value"] == "yes" and str(f"{after[0][1]:,}") in got["detail"]
    else:
        assert got["status"] == "failed"


@given(st.integers(1, 1 << 40))
def test_f2fs_s_reserved_block_is_no_answer_by_fiemap_and_a_preallocated_one_is_placed(physical):
    """F2FS (6.1 and 6.12 guests): unsynced data as FIEMAP_EXTENT_UNWRITTEN at byte 0, then placed
    by fsync: fiemap.rst defines no such flag as a pending allocation, so FIEMAP cannot tell (the
    cell rests on F2FS's source comment instead); the same flag at a byte of the device
    (fallocate's preallocated extent): placed."""
    placed = [(0, physical, 1 << 20, 0x1)]
    got = delalloc_answer([(0, 0, 1 << 20, 0x1801)], placed)
    assert got["status"] == "not available" and "value" not in got and "0x1801" in got["detail"]
    assert delalloc_answer([(0, physical, 1 << 20, 0x1801)], placed)["value"] == "no"


@given(BLOCKS, st.lists(EXTENT, max_size=6), FLAGS, st.integers(0, TAIL_BYTES))
def test_a_tail_is_packed_only_where_the_extent_holding_it_says_so(block, others, flags, start_back):
    """Only the extent holding the file's last byte decides, and only FIEMAP_EXTENT_DATA_TAIL is a
    packed tail (DATA_INLINE there: cannot tell); a flag on any other extent (just beside the
    tail) is not the tail's."""
    size = block + TAIL_BYTES
    start = size - 1 - start_back
    holding = (start, 1 << 30, start_back + 1, flags)
    found = [e for e in others if not e[0] <= size - 1 < e[0] + e[2]] + [holding]
    got = tail_answer(found, [], block)
    if flags & FIEMAP_EXTENT_DATA_TAIL:
        assert got["value"] == "yes", got
    elif flags & FIEMAP_EXTENT_DATA_INLINE:
        assert got["status"] == "not available" and "value" not in got and "DATA_INLINE" in got["detail"], got
    else:
        assert got["value"] == "no", got
    before_tail = [(0, 4096, size - 1, FIEMAP_EXTENT_DATA_INLINE)]  # ends one byte short of the tail
    assert tail_answer(before_tail, [], block)["status"] == "failed"


@given(BLOCKS, st.integers(1, 1 << 30), st.integers(1, 1 << 30))
def test_a_tail_by_fibmap(block, first, second):
    """Where FIEMAP is refused: no block of its own, or one block for both files' tails, is
    packed; two blocks are not."""
    assert tail_answer("EOPNOTSUPP", [0, second], block)["value"] == "yes"
    assert tail_answer("EOPNOTSUPP", [first, first], block)["value"] == "yes"
    assert tail_answer("EOPNOTSUPP", [first, second], block)["value"] == ("yes" if first == second else "no")


@given(st.integers(0, 1 << 30), st.sampled_from([0x1, 0x801, 0x1801, 0x1001]), st.integers(1, 1 << 27), st.integers(1, 1 << 40))
def test_a_yes_recorded_under_the_earlier_rule_is_read_again_by_fiemap_rst(physical, flags, size, after):
    """Issue #63, round 2, item 7: records made before the rule followed fiemap.rst kept the
    numbers they read ("FIEMAP gave no place (flags 0x1801, physical byte 0) ..."); a page and
    check-data read them as the current rule would answer those numbers, and say so."""
    from fsatlas.run.probes_generic import read_now
    detail = (f"1 MiB written and not synced: FIEMAP gave no place (flags {flags:#x}, physical byte {physical:,}) for "
              f"{size:,} bytes; after fsync it lay at byte {after:,}")
    got = read_now({"probe": "delayed_allocation", "filesystem": "f2fs", "status": "ok", "value": "yes", "detail": detail})
    now = delalloc_answer([(0, physical, size, flags)], [(0, after, size, 0)])
    assert got["status"] == now["status"] and got.get("value") == now.get("value")
    assert "earlier rule" in got["detail"] and got["detail"].startswith(now["detail"])
    same = {"probe": "extents", "status": "ok", "value": "yes", "detail": detail}
    assert read_now(same) is same  # another probe's finding as recorded


def test_the_committed_f2fs_records_read_as_fiemap_cannot_tell():
    from pathlib import Path
    from fsatlas.site import probes as site_probes
    rows = site_probes.rows(str(Path(__file__).resolve().parents[2] / "data"), {}, lambda *a: None)
    f2fs = rows["f2fs"]["delayed_allocation"]
    assert f2fs and all(r["status"] == "not available" and "earlier rule" in r["detail"] for r in f2fs), f2fs
    assert all(r["shown"] == "yes" for fs in ("ext4", "xfs", "btrfs", "nilfs2") for r in rows[fs]["delayed_allocation"]
               if r["status"] == "ok")  # FIEMAP_EXTENT_DELALLOC: as recorded


@given(st.integers(1, 1 << 40), st.integers(1, 1 << 40), st.sampled_from([0x2, 0x3, 0x802, 0x1002]))
def test_unknown_alone_is_no_delayed_allocation_and_delalloc_beside_it_is(physical, after, flags):
    """The adversary's case and its neighbour: unsynced data flagged FIEMAP_EXTENT_UNKNOWN without
    DELALLOC, placed by fsync, cannot tell; the same with DELALLOC (which sets UNKNOWN) is yes."""
    placed = [(0, after, 1 << 20, 0x1)]
    got = delalloc_answer([(0, physical, 1 << 20, flags)], placed)
    assert got["status"] == "not available" and "value" not in got, got
    assert delalloc_answer([(0, physical, 1 << 20, flags | FIEMAP_EXTENT_DELALLOC)], placed)["value"] == "yes"


def test_committed_records_read_the_same_under_the_corrected_rules():
    """fiemap.rst's rule re-read over every committed delayed-allocation and tail-packing finding:
    none kept a flag the correction reads otherwise (UNKNOWN without DELALLOC, DATA_INLINE on a
    tail), so no committed cell changes."""
    import json
    import re
    from pathlib import Path

    from fsatlas.run.probes_generic import read_now
    data = Path(__file__).resolve().parents[2] / "data" / "probes"
    seen = 0
    for path in sorted(data.glob("*.json")):
        for f in json.loads(path.read_text())["findings"]:
            if f["probe"] not in ("delayed_allocation", "tail_packing"):
                continue
            seen += 1
            flags = [int(x, 16) for x in re.findall(r"flags (0x[0-9a-f]+)", f.get("detail", ""))]
            if f["probe"] == "tail_packing":
                assert not any(x & FIEMAP_EXTENT_DATA_INLINE for x in flags), (path.name, f)
            elif f.get("value") == "yes":
                now = read_now(f)
                assert now.get("value") == "yes" or "earlier rule" in now["detail"], (path.name, f)
                assert "FIEMAP_EXTENT_DELALLOC" in now["detail"] or now["status"] != "ok", (path.name, now)
    assert seen > 20
