"""Issue #61, what no input may take: validate's memory whatever a result file or its bundle
holds. A 63 MB fio json+ report validates within 512 MiB (its latency bins are never parsed),
validate and import set their own address-space limit and report reaching it as one located
line, and (hypothesis) result files and bundles mutated anywhere (bytes, tar headers, pax
records, JSON values, member names) never make validate print a traceback or pass the bound."""
import gzip
import io
import json
import os
import sys
import tarfile

import orjson
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from fsatlas import memory
from fsatlas.cli import main
from fsatlas.results import bundle, fio_json
from test_bundle_bounds import _header, _pax
from test_fuzz import mutate
from testutil import FIXTURES, SAMPLES, edit_member, peak_alone, write_json

RID = "fixture-valid"
BOUND = 512 * 2**20  # validate's memory bound (make perf's rows)
EXAMPLES = int(os.environ.get("FSATLAS_FUZZ_EXAMPLES", "40"))


def json_plus(report: bytes, size: int) -> bytes:
    """fio's report with a json+ latency histogram ("bins") of about size bytes in its first
    clat_ns: the shape of issue #61's 63 MB file, every figure fsatlas reads unchanged."""
    document = json.loads(report)
    lines = (size - len(report)) // 27  # a bin line: 25 to 26 characters and ",\n"
    bins = ",\n".join(f'            "{100000 + i}" : {i % 97 + 1}' for i in range(lines))
    text = json.dumps(document, indent=2)
    return text.replace('"clat_ns": {', '"clat_ns": {\n          "bins" : {\n' + bins + '\n          },', 1).encode()


@pytest.fixture
def fio_fixture(out_dir, valid_result):
    path = write_json(out_dir / "results" / f"{RID}.json", valid_result)
    return out_dir, path, valid_result["cells"][0]["raw"][0]


def test_a_64_mb_json_plus_report_validates_within_the_bound(fio_fixture):
    """Issue #61: 1.34 GB for a 63 MB json+ report, 862 MiB here before (this one is 64 MiB, the most a member may be); its bins are cut before
    it is parsed, its figures recomputed as from the report without them. One character beyond
    the BMP in it (a third round: 793 MiB, every character decoded into 4 bytes before the bins
    were cut) changes nothing: they are cut from the bytes (fio_json.bytes_without_bins)."""
    out, path, reference = fio_fixture
    for rep in (reference, reference.replace("rep-1", "rep-2")):  # two repetitions, as issue #61's file
        edit_member(out, RID, rep, lambda old: json_plus(old, 65_500_000).replace(  # 64 MiB at most a member
            b"{", '{"note": "\U0001F600", '.encode(), 1))
    code, err, _, peak = peak_alone([sys.executable, "-m", "fsatlas.cli", "validate", "--no-cache", path], out)
    assert code == 0, err
    assert peak < BOUND, peak >> 20


@settings(max_examples=EXAMPLES)
@given(st.lists(st.tuples(st.from_regex(r"\d{1,6}", fullmatch=True), st.integers(0, 10**9)), max_size=8),
       st.sampled_from(["", " ", "\n  "]), st.text(max_size=12))
def test_only_bins_of_bucket_counts_are_cut(buckets, space, other):
    """Differential: the report without bins (fio_json.without_bins) parses to the report with its
    bins emptied where they hold bucket counts only, and to the report unchanged where a bin
    holds anything else (a string is never dropped unscreened)."""
    counts = "{" + ",".join(f'{space}"{k}"{space}:{space}{v}' for k, v in buckets) + space + "}"
    text = f'{{"jobs": [{{"clat_ns": {{"bins"{space}:{space}{counts}, "mean": 1}}}}]}}'
    assert orjson.loads(fio_json.without_bins(text, "x")) == {"jobs": [{"clat_ns": {"bins": {}, "mean": 1}}]}
    odd = text.replace(counts, "{" + json.dumps(other) + ': "v"' + ("," if buckets else "") + counts[1:])
    assert orjson.loads(fio_json.without_bins(odd, "x")) == orjson.loads(odd)


def test_reaching_the_address_space_limit_is_one_located_line(fio_fixture, monkeypatch, capsys):
    """Defense in depth: with a budget smaller than one member needs, validate names the file in
    one line and exits 1; the limit is lifted when the command ends."""
    out, path, reference = fio_fixture
    edit_member(out, RID, reference, lambda old: json_plus(old, 40_000_000))
    code, err = _with_budget(24 * 2**20, ["validate", "--no-cache", str(path)])
    assert code == 1
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    assert err.startswith(f"{path}: error:") and "memory" in err, err
    before = memory.resource.getrlimit(memory.resource.RLIMIT_AS)  # and in-process, the limit is lifted after
    monkeypatch.setattr(memory, "BUDGET", 24 * 2**20)
    main(["validate", "--no-cache", str(path)])
    assert memory.resource.getrlimit(memory.resource.RLIMIT_AS) == before


def _with_budget(budget: int, argv: list) -> tuple[int, str]:
    """fsatlas ARGV in a fresh interpreter whose memory.BUDGET is budget: the limit is address
    space beyond what the process holds, and a test worker that ran other tests first holds freed
    heap it can reuse without asking for more (the limit was then not reached: a flaky test)."""
    import subprocess
    import sys
    code = (f"import sys; from fsatlas import memory; memory.BUDGET = {budget}; "
            f"from fsatlas.cli import main; sys.exit(main({argv!r}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    return done.returncode, done.stderr


def test_import_reaching_its_limit_names_its_inputs(tmp_path, monkeypatch, capsys):
    report = (SAMPLES / "fio" / "fio-3.33-json-plus.json").read_bytes()
    source = tmp_path / "big.json"
    source.write_bytes(json_plus(report, 40_000_000))
    code, err = _with_budget(24 * 2**20, ["import", "fio", str(source), "--filesystem", "ext4", "--out", str(tmp_path / "o")])
    assert code == 1 and err.splitlines() == [f"fsatlas import: {source}: {memory.TOO_MUCH}"], err
    assert not (tmp_path / "o" / "results").exists()


# --- result files and bundles mutated anywhere ----------------------------------------------
def _fixture_parts(valid_result) -> tuple[dict, bytes]:
    """(the fixture result, its bundle's tar stream uncompressed): what each example mutates."""
    with open(bundle.path(str(FIXTURES), RID), "rb") as f:
        return valid_result, gzip.decompress(f.read())


def _headers(tar: bytes) -> list[int]:
    """The offset of each member's own header block in a tar stream (after its pax header)."""
    with tarfile.open(fileobj=io.BytesIO(tar), mode="r:") as archive:
        return [info.offset_data - 512 for info in archive.getmembers()]


def _checksummed(block: bytearray) -> bytearray:
    block[148:156] = b" " * 8
    block[148:156] = b"%06o\0 " % sum(block)
    return block


PAX_KEYS = ["path", "size", "hdrcharset", "GNU.sparse.map", "GNU.sparse.size", "linkpath", "comment", "uid"]
pax_records = st.lists(st.tuples(st.sampled_from(PAX_KEYS), st.one_of(
    st.text(max_size=30), st.integers(0, 2**40).map(str), st.just("1\n9 size=1"))), min_size=1, max_size=4)


@st.composite
def mutation(draw, headers: list[int]):
    """One change to (result, tar stream): a JSON value, bytes, a header's type, size or name,
    or a pax header before a member."""
    kind = draw(st.sampled_from(["json", "bytes", "type", "size", "name", "pax"]))
    if kind == "json":
        return kind, None  # made by _apply, from the test's data (test_fuzz.mutate)
    if kind == "bytes":
        return kind, (draw(st.integers(0, 2**20)), draw(st.binary(min_size=1, max_size=16)))
    at = draw(st.sampled_from(headers))
    if kind == "type":
        return kind, (at, draw(st.sampled_from([b"x", b"X", b"g", b"L", b"K", b"S", b"7", b"5", b"2", b"V", b"\0"])))
    if kind == "size":
        return kind, (at, draw(st.one_of(st.integers(0, 8**11 - 1), st.sampled_from([1 << 30, 3 << 30, 60 << 20]))))
    if kind == "name":
        return kind, (at, draw(st.binary(min_size=1, max_size=100)))
    return kind, (at, draw(pax_records))


def _renamed(tar: bytes, index: int, name: str) -> bytes:
    """The tar stream with its member at index renamed (tarfile writes a pax path where needed)."""
    members = {}
    with tarfile.open(fileobj=io.BytesIO(tar), mode="r:") as archive:
        for i, info in enumerate(archive.getmembers()):
            members[name if i == index else info.name] = archive.extractfile(info).read()
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.PAX_FORMAT) as archive:
        for member, data in members.items():
            info = tarfile.TarInfo(member)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return out.getvalue()


def _apply(result: dict, tar: bytes, change, data) -> tuple[dict, bytes]:
    kind, what = change
    if kind == "json":
        return mutate(result, data), tar
    if kind == "bytes":
        at, piece = what
        at %= len(tar)
        return result, tar[:at] + piece + tar[at + len(piece):]
    at = what[0]
    block = bytearray(tar[at:at + 512])
    if kind == "type":
        block[156:157] = what[1]
    elif kind == "size":
        block[124:136] = b"%011o\0" % what[1]
    elif kind == "name":
        block[:100] = what[1].ljust(100, b"\0")[:100]
    else:
        records = _pax([f"{k}={v}".encode("utf-8", "surrogateescape") for k, v in what[1]])
        pax = _header(b"pax", b"x", len(records)) + records + bytes(-len(records) % 512)
        return result, tar[:at] + pax + tar[at:]
    return result, tar[:at] + bytes(_checksummed(block)) + tar[at + 512:]


@settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                        HealthCheck.too_slow])
@given(st.data())
def test_mutated_results_and_bundles_never_traceback_nor_pass_the_bound(tmp_path_factory, capsys, valid_result, data):
    """Issue #61's property: whatever is mutated, validate ends in lines (0 or 1), and the
    process's peak memory (its high-water mark, measured here) grows by less than the bound."""
    import resource
    result, tar = _fixture_parts(valid_result)
    start = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    rename = data.draw(st.none() | st.tuples(st.integers(0, 5), st.text(min_size=1, max_size=120)))
    if rename:  # first: a member name, then the stream as bytes
        tar = _renamed(tar, *rename)
    for change in data.draw(st.lists(mutation(_headers(tar)), min_size=0 if rename else 1, max_size=3)):
        result, tar = _apply(result, tar, change, data)
    out = tmp_path_factory.mktemp("fz")
    (out / "results").mkdir()
    (out / "raw").mkdir()
    (out / "results" / f"{RID}.json").write_text(json.dumps(result))
    (out / "raw" / f"{RID}.tar.gz").write_bytes(gzip.compress(tar, compresslevel=1))
    code = main(["validate", "--no-cache", str(out / "results")])
    err = capsys.readouterr().err
    assert code in (0, 1) and "Traceback" not in err, err
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - start
    assert grown < BOUND, grown >> 20


def test_a_bin_keyed_by_a_closing_brace_is_kept_whole():
    # found by the differential test above: with every quantifier possessive, Python 3.11.2's re
    # matched '"bins":{"}' and the cut left broken JSON
    text = '{"jobs": [{"clat_ns": {"bins":{"}": "v", "1": 2}, "mean": 1}}]}'
    assert orjson.loads(fio_json.without_bins(text, "x")) == orjson.loads(text)


def test_import_reaching_its_limit_in_its_own_validation_names_its_inputs(tmp_path, monkeypatch, capsys):
    # where the limit is reached while import checks what it wrote (validate_file turns the
    # MemoryError into a problem), the line is still the limit's, naming the inputs (ci-local hit it)
    from fsatlas.results import validation
    from fsatlas.results.resultfile import Problem
    source = SAMPLES / "fio" / "fio-3.33-json-plus.json"
    monkeypatch.setattr(validation, "validate_file", lambda path, *a, **k: [Problem("error", path, "", memory.TOO_MUCH)])
    assert main(["import", "fio", str(source), "--filesystem", "ext4", "--out", str(tmp_path / "o")]) == 1
    assert capsys.readouterr().err.splitlines() == [f"fsatlas import: {source}: {memory.TOO_MUCH}"]
    assert not (tmp_path / "o" / "results").exists()


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(50, 1000))  # from 50: a quick run's cells copied 1,000 times stay within the file's 16 MB
def test_repetitions_named_beyond_a_bundles_members_are_refused_before_they_are_spelled_out(tmp_path_factory, reps):
    """#65 round 52: a result's compact raw form ({"reps": n}) is spelled out into n references
    as it is read; 5,000 cells of 1,000 repetitions (2.3 MB) took validate 38 s and 1.1 GB
    before it refused them. The raw files a document names in all may not pass what one bundle
    holds (bundle.MAX_MEMBERS): validate refuses the cell where the count first passes it (the
    count worked out here by hand), in one line, within the memory bound; at the bound, no such
    refusal."""
    runner = FIXTURES.parent.parent
    quick = sorted((runner.parent / "data" / "results").glob("*quick*.json"))[0]
    doc = json.loads(quick.read_text())
    ok = [c for c in doc["cells"] if isinstance(c["raw"], dict) and c["raw"]["reps"]]
    # enough cells of `reps` each to pass the bound: copies of the run's cells (a key twice is
    # refused later, by the structure's rules; this bound comes first)
    grown = [dict(ok[k % len(ok)]) for k in range(bundle.MAX_MEMBERS // reps + 2)]
    for cell in grown:
        cell["raw"] = {"reps": reps, "ext": cell["raw"]["ext"]}
    doc["cells"] = grown
    folder = tmp_path_factory.mktemp("reps") / "results"
    folder.mkdir()
    path = folder / f"{doc['id']}.json"
    path.write_text(json.dumps(doc))
    code, err, _, peak = peak_alone([sys.executable, "-m", "fsatlas.cli", "validate", path], cwd=runner)
    first_over = next(i for i in range(len(grown)) if (i + 1) * reps > bundle.MAX_MEMBERS)
    assert code == 1 and peak < BOUND, (code, peak)
    assert f"{path}: error: /cells/{first_over}/raw: expected at most {bundle.MAX_MEMBERS:,} raw files named" in err, err
    assert "Traceback" not in err
    doc["cells"] = grown[:bundle.MAX_MEMBERS // reps]  # at most the bound: not this refusal
    path.write_text(json.dumps(doc))
    _, err, _, _ = peak_alone([sys.executable, "-m", "fsatlas.cli", "validate", path], cwd=runner)
    assert "raw files named in all" not in err
