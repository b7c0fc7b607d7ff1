"""Issue 60, round 15 (findings 4, 5, 8, 9, 10, 12): what `fsatlas compare` (and report, article
new) may count and compare, each rule tested from the rule over inputs hypothesis draws, beside
the adversary's examples:
- a file on either side is a checked result: validate's structure refused with validate's line;
- one id with two contents, or one cell's samples in two files (a copy, a subset under a new
  id), is never two runs, whatever the order of the files; a file named twice counts once;
- a metric whose unit or direction differs between the files is not tested;
- across files, a side with no host records has unknown contention: not tested, said;
- an import's repetitions never get the paired test, whatever `started` its cells carry;
- a configuration has one spelling (ext4 = ext4: = ext4:defaults) in every command."""
import copy
import functools
import itertools
import json
import random

import pytest
from hypothesis import assume, given, settings, strategies as st

from fsatlas.cli import main
from fsatlas.errors import UserError
from fsatlas.results import comparison, resultfile, shares, validation
from fsatlas.site import report
from testutil import FIXTURES, RESULTS, derived_run, in_slot, under_id, write_derived, write_json, written_at

KEYS = ("ext4|-|-|seq-write", "ext4|-|-|seq-read", "xfs|-|-|seq-write", "xfs|-|-|seq-read")
QUIET = {"others_cpu_s": 0.0, "steal_pct": 0.0, "iowait_pct": 0.5, "seconds": 1.0, "load1": 0.1}


def _source():
    """The newest committed standard run that recorded its host's contention in the cells KEYS."""
    for path in sorted(RESULTS.glob("*-standard.json"), reverse=True):
        doc = resultfile.load_result(str(path))
        cells = [c for c in doc["cells"] if c["key"] in KEYS and c["status"] == "ok" and c.get("host")]
        if len(cells) == len(KEYS):
            return path
    raise AssertionError("no committed standard run with host records for " + ", ".join(KEYS))


SOURCE = _source()


def run(rid: str, seed: int, factor: float = 1.0, keys=KEYS) -> dict:
    """A run of its own (read form): SOURCE's cells KEYS, made from its raw output with each
    repetition's figures times factor and its own jitter of +-1 % (seed), so no two runs share a
    sample (testutil.derived_run: its samples are those validate recomputes from that output)."""
    return copy.deepcopy(_made(rid, seed, factor, tuple(keys)))


@functools.lru_cache(maxsize=256)
def _made(rid: str, seed: int, factor: float, keys: tuple) -> dict:
    rnd = random.Random(seed)
    return derived_run(SOURCE, rid, seed, lambda key, j: factor * (1 + rnd.uniform(-0.01, 0.01)), keys)


def stored(path, doc) -> str:
    """doc written as validate, and so compare, requires it: in a data folder of its own named
    after path (path without .json: results/<id>.json and the bundle of its raw output,
    testutil.write_derived); returns the result file's path."""
    return write_derived(str(path)[:-len(".json")], doc)


def verdicts(rows: list) -> list:
    return sorted((r["key"], r["metric"], r["verdict"], r["why"], None if r["p"] is None else round(r["p"], 12))
                  for r in rows)


def outcome(side_a: list, side_b: list):
    """The rows' verdicts of between(), or the refusal's words."""
    try:
        return verdicts(comparison.between(side_a, side_b))
    except UserError as e:
        return ("refused", "one run under two ids" in e.message or "one id names one run" in e.message)


# --- 5: a file is a checked result ---------------------------------------------------------------

@settings(max_examples=15, deadline=None)
@given(st.integers(0, len(KEYS) - 1), st.integers(0, len(KEYS)))
def test_a_cell_key_twice_is_refused_by_compare_with_validates_line(tmp_path_factory, first, at):
    tmp = tmp_path_factory.mktemp("dup")
    doc = run("dup", 1)
    doc["cells"].insert(at, copy.deepcopy(doc["cells"][first]))  # a cell's key twice: counted as a second run on main
    path = stored(tmp / "dup.json", doc)
    others = [stored(tmp / f"{r}.json", run(r, i + 2)) for i, r in enumerate(("a2", "b1", "b2"))]
    expected = [p for p in validation.structure_problems(resultfile.load_result(path), path)]
    assert expected and expected[0].message.startswith("expected a unique key")
    # the same line validate prints for it, after its words for the file's name and bundle
    assert any(p.path == expected[0].path and p.message == expected[0].message for p in validation.validate_file(path))
    with pytest.raises(UserError) as e:
        from fsatlas.commands.compare import compared
        compared([], [path, others[0]], others[1:], None, None, False, "usage")
    assert str(e.value) == f"{path}: {expected[0].path}: {expected[0].message}"


def test_the_adversarys_duplicate_key_example_is_one_line_and_status_1(tmp_path, capsys):
    doc = run("c1dup", 1)
    doc["cells"].append(copy.deepcopy(doc["cells"][0]))
    paths = [stored(tmp_path / "c1dup.json", doc)] + [stored(tmp_path / f"{r}.json", run(r, i + 2))
                                                      for i, r in enumerate(("c2", "n1", "n2"))]
    assert main(["compare", "--runs-a", *paths[:2], "--runs-b", *paths[2:]]) == 1
    err = capsys.readouterr().err
    assert err == f"fsatlas compare: {paths[0]}: /cells/4/key: expected a unique key, found the key of /cells/0\n"
    assert main(["report", "--runs-a", *paths[:2], "--runs-b", *paths[2:], "--no-chart"]) == 1
    assert "/cells/4/key: expected a unique key" in capsys.readouterr().err


# --- 4: one run is never two -----------------------------------------------------------------------

@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(KEYS), min_size=1, max_size=len(KEYS), unique=True), st.booleans(), st.booleans(),
       st.randoms())
def test_any_subset_copy_of_a_run_under_a_new_id_is_not_a_second_run(keys, on_b, bare, rnd):
    original = run("q", 1)
    copied = copy.deepcopy({**original, "id": "q-copy", "cells": [c for c in original["cells"] if c["key"] in keys]})
    for c in copied["cells"]:  # its cells without their start times and host records
        if bare:
            c.pop("started", None)
            c.pop("host", None)
    side_a, side_b = [original, run("a2", 2)], [run("b1", 3, 1.1), run("b2", 4, 1.1)]
    (side_b if on_b else side_a).append(copied)
    rnd.shuffle(side_a)
    rnd.shuffle(side_b)
    if on_b:  # a run (or a cell of it) on both sides
        with pytest.raises(UserError, match="a run compared with itself"):
            comparison.between(side_a, side_b)
    elif len(keys) == len(KEYS):  # the whole run again: one content, counted once
        rows = comparison.between(side_a, side_b)
        assert {r["runs_a"] for r in rows} == {2}
        assert verdicts(rows) == verdicts(comparison.between([original, run("a2", 2)], side_b))
    else:
        with pytest.raises(UserError, match="one run under two ids"):
            comparison.between(side_a, side_b)


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 4), st.integers(2, 3), st.integers(0, 2), st.booleans(), st.randoms())
def test_permutations_of_the_files_on_a_side_never_change_a_verdict(n_a, n_b, named_twice, same_id, rnd):
    side_a = [run(f"a{i}", i, 1.0) for i in range(n_a)] + [run("a0", 0, 1.0)] * named_twice
    side_b = [run(f"b{i}", 10 + i, 1.02) for i in range(n_b)]
    if same_id:  # another file claims run a0's id with other samples (the adversary's Xsameid.json)
        side_a.append(run("a0", 99, 1.0))
    first = outcome(side_a, side_b)
    for _ in range(3):
        a, b = side_a[:], side_b[:]
        rnd.shuffle(a)
        rnd.shuffle(b)
        assert outcome(a, b) == first
    assert (first == ("refused", True)) == same_id


def test_the_adversarys_same_id_and_subset_files_are_refused_naming_both_files(tmp_path, capsys):
    q = run("q", 1)
    paths = {"Q.json": q, "Xsameid.json": run("q", 7), "Qsub.json": {**under_id(copy.deepcopy(q), "q-copy"),
                                                                     "cells": under_id(q, "q-copy")["cells"][1:]},
             "B1.json": run("b1", 3, 1.1), "B2.json": run("b2", 4, 1.1)}
    p = {name: stored(tmp_path / name, doc) for name, doc in paths.items()}
    for order in itertools.permutations(["Q.json", "Xsameid.json"]):
        assert main(["compare", "--runs-a", *(p[n] for n in order), "--runs-b", p["B1.json"], p["B2.json"]]) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and p["Q.json"] in err and p["Xsameid.json"] in err and "one id names one run" in err
    for order in itertools.permutations(["Q.json", "Qsub.json"]):
        assert main(["compare", "--runs-a", *(p[n] for n in order), "--runs-b", p["B1.json"], p["B2.json"]]) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and p["Qsub.json"] in err and "one run under two ids" in err
    # the same file named twice: counted once, and said
    assert main(["compare", "--runs-a", p["Q.json"], p["Q.json"], "--runs-b", p["B1.json"], p["B2.json"]]) == 0
    out = capsys.readouterr().out
    assert "q counted once: named twice" in out and "Design: not tested: one run on side A" in out
    md = tmp_path / "r.md"
    assert main(["report", "--runs-a", p["Q.json"], p["Q.json"], "--runs-b", p["B1.json"], p["B2.json"],
                 "--no-chart", "--out", str(md)]) == 0
    assert "q counted once\\: named twice" in md.read_text() and md.read_text().startswith("# q (A) against")


# --- 8: units and directions -----------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["s", "pts-like", "ops/s"]), st.sampled_from(["higher", "lower"])),
                min_size=4, max_size=4))
def test_a_row_whose_files_disagree_on_unit_or_direction_is_not_tested(kinds):
    runs = [run(rid, i, 1.0 if rid[0] == "a" else 1.3, keys=KEYS[:1]) for i, rid in enumerate(("a1", "a2", "b1", "b2"))]
    for r, (unit, better) in zip(runs, kinds):  # a metric fsatlas does not know carries its own unit and better
        cell = r["cells"][0]
        cell["metrics"] = {"score": {**cell["metrics"]["throughput"], "unit": unit, "better": better}}
    for a_first, first, second in ((True, (runs[:2], kinds[:2]), (runs[2:], kinds[2:])),
                                   (False, (runs[2:], kinds[2:]), (runs[:2], kinds[:2]))):
        (row,) = comparison.between(first[0], second[0], all_metrics=True)
        shown = [[" / ".join(dict.fromkeys(k[i] for k in side[1])) for side in (first, second)] for i in (0, 1)]
        if len({u for u, _ in kinds}) > 1:
            assert row["verdict"] == "not tested" and row["ratio"] is None
            assert row["why"] == "units differ (A {}, B {})".format(*shown[0])
        elif len({b for _, b in kinds}) > 1:
            assert row["verdict"] == "not tested" and row["why"] == "directions differ (A {}, B {})".format(*shown[1])
        else:
            # the runs b are 1.3 times the runs a: B's side is better where higher is, from either side
            assert row["status"] == "tested" and row["verdict"] == ("better" if a_first == (kinds[0][1] == "higher")
                                                                    else "worse")


# --- 9: contention unknown on a side ---------------------------------------------------------------

@settings(max_examples=30, deadline=None)
@given(st.lists(st.booleans(), min_size=4, max_size=4))
def test_a_side_without_host_records_is_not_tested_and_named(recorded):
    runs = [run(rid, i, 1.0 if rid[0] == "a" else 3.0, keys=KEYS[:1]) for i, rid in enumerate(("a1", "a2", "b1", "b2"))]
    for r, known in zip(runs, recorded):
        if not known:
            r["cells"][0].pop("host")
    (row,) = [r for r in comparison.between(runs[:2], runs[2:]) if r["metric"] == "throughput"]
    for side, part in (("A", recorded[:2]), ("B", recorded[2:])):
        missing = [r["id"] for r, known in zip(runs[:2] if side == "A" else runs[2:], part) if not known]
        assert (f"contention unknown on side {side} (no host records in run {', '.join(missing)})" in row["why"]) \
            == bool(missing)
    assert (row["status"] == "tested") == all(recorded)
    if all(recorded):  # 3x apart, clean records on both sides: the verdict stands as before
        assert row["verdict"] == "better"


def test_the_adversarys_busy_side_against_one_with_no_records_gets_no_verdict():
    busy = [run(rid, i, keys=KEYS[:1]) for i, rid in enumerate(("h1", "h2"))]
    for r in busy:  # 5.77 CPUs of other processes a repetition
        r["cells"][0]["host"] = [{**QUIET, "others_cpu_s": 5.77}] * len(r["cells"][0]["host"])
    bare = [run(rid, 5 + i, 0.9, keys=KEYS[:1]) for i, rid in enumerate(("n1", "n2"))]
    for r in bare:
        r["cells"][0].pop("host")
    (row,) = [r for r in comparison.between(busy, bare) if r["metric"] == "throughput"]
    assert row["verdict"] == "not tested" and "contention unknown on side B (no host records in run n1, n2)" in row["why"]


# --- 10: an import's repetitions are never paired ----------------------------------------------------

def _interleaved(n: int, start: float, gap: float) -> tuple[list, list]:
    return [start + 2 * i * gap for i in range(n)], [start + (2 * i + 1) * gap for i in range(n)]


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 6), st.floats(0, 1e6), st.floats(0.5, 100),
       st.sampled_from([("import-fio", "fio"), ("import-pts", "pts"), ("quick", "fio"), ("import-fio", None)]))
def test_an_imports_repetitions_never_get_the_paired_test_whatever_started_they_carry(n, start, gap, origin):
    profile, imported_from = origin
    rnd = random.Random(n)
    doc = {"id": "imp", "profile": profile, "system": {}, "target": {},
           "tool": {"runner": "0.1.0", **({"imported_from": imported_from} if imported_from else {})}, "cells": []}
    for fs, started in zip(("ext4", "xfs"), _interleaved(n, start, gap)):
        doc["cells"].append({"key": f"{fs}|-|-|fio-randread", "filesystem": fs, "workload": "fio-randread",
                             "variant": "imported", "status": "ok", "parameters": {}, "started": started,
                             "metrics": {"throughput": {"unit": "bytes/s", "better": "higher",
                                                        "samples": [1e8 * (1 + rnd.random()) for _ in range(n)]}}})
    (row,) = report.within(doc, "ext4", "xfs")
    assert row["paired"] is False and row["status"] == "not tested"
    assert "an import's repetitions ran in no interleaved rounds" in row["why"]
    # just beside it: the runner's own run, the same samples and starts, is paired
    own = {**doc, "profile": "quick", "tool": {"runner": "0.1.0"},
           "cells": [{**c, "variant": "defaults"} for c in doc["cells"]]}
    (row,) = report.within(own, "ext4", "xfs")
    assert row["paired"] is True and row["status"] == "tested"


# --- 12: one spelling of a configuration ------------------------------------------------------------

SPELLINGS = {False: ("{}", "{}:", "{}:defaults"), True: ("{}", "{}:", "{}:defaults", "{}:imported", "{}:imported-defaults")}


@settings(max_examples=40, deadline=None)
@given(st.booleans(), st.sampled_from(["ext4", "xfs"]), st.data())
def test_every_spelling_of_a_configuration_names_it_and_a_against_itself_is_refused(of_import, fs, data):
    a, b = (data.draw(st.sampled_from(SPELLINGS[of_import])).format(fs) for _ in range(2))
    assert shares.configuration(a, of_import) == shares.configuration(b, of_import) == \
        (fs, shares.IMPORTED if of_import else shares.DEFAULTS)
    with pytest.raises(UserError, match="same configuration"):
        shares.two_configurations(a, b, of_import)
    doc = run("r", 1)
    if of_import:
        doc = {**doc, "profile": "import-fio", "cells": [{**c, "variant": "imported"} for c in doc["cells"]]}
    with pytest.raises(UserError, match="same configuration"):
        report.within(doc, a, b)
    # just beside it: a variant is another configuration
    other = data.draw(st.sampled_from(["noatime", "imported-noatime"] if of_import else ["noatime"]))
    assert shares.configuration(f"{fs}:{other}", of_import) != shares.configuration(a, of_import)


def test_compare_report_and_article_refuse_a_against_itself_spelled_two_ways(tmp_path, capsys):
    path = stored(tmp_path / "r.json", run("r", 1))
    for argv in (["compare", path, "--a", "ext4", "--b", "ext4:defaults"], ["compare", path, "--a", "ext4:", "--b", "ext4"],
                 ["report", path, "--a", "ext4", "--b", "ext4:", "--no-chart"],
                 ["article", "new", "t", path, "--a", "ext4", "--b", "ext4:defaults", "--content", str(tmp_path / "c")]):
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "A and B are the same configuration (ext4:defaults)" in err, argv
    assert not (tmp_path / "c").exists()


TWO = FIXTURES / "samples" / "fio" / "two-filesystems"


@pytest.mark.parametrize("spelled", ["ext4,ext4,ext4:defaults,ext4:defaults", "ext4:imported,ext4:imported,ext4,ext4",
                                     "ext4,ext4:,ext4,ext4:"])
def test_import_as_never_makes_two_variants_of_one_configuration_nor_merges_files_named_apart(tmp_path, capsys, spelled):
    files = [str(TWO / n) for n in ("ext4-rep1.json", "ext4-rep2.json", "xfs-rep1.json", "xfs-rep2.json")]
    assert main(["import", "fio", *files, "--as", spelled, "--out", str(tmp_path / "o")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "name one configuration (ext4:imported)" in err
    assert not (tmp_path / "o" / "results").exists() or not any((tmp_path / "o" / "results").iterdir())
    # one spelling a configuration: each side one variant, the default's
    first = spelled.split(",")[0]
    assert main(["import", "fio", *files, "--as", f"{first},{first},xfs,xfs", "--out", str(tmp_path / "p")]) == 0
    (path,) = capsys.readouterr().out.split()
    cells = json.loads(open(path).read())["cells"]
    assert sorted((c["filesystem"], c["variant"]) for c in cells) == [("ext4", "imported"), ("xfs", "imported")]


@settings(max_examples=20, deadline=None)
@given(st.lists(st.sampled_from([4096.0, 8192.0, 12288.0]), min_size=2, max_size=5))
def test_two_runs_that_measure_a_size_alike_are_still_two_runs(sizes):
    # just beside the copies: separate runs repeat a size in whole blocks (xfs tree-copy's bytes_used,
    # 335835136 or 335867904 in both committed standard runs), never every measured sample
    runs = [run(rid, i, 1.0 if rid[0] == "a" else 1.2) for i, rid in enumerate(("a1", "a2", "b1", "b2"))]
    for r in runs:
        for c in r["cells"]:
            c["metrics"]["bytes_used"] = {"unit": "bytes", "better": "lower", "samples": list(sizes)}
        r["cells"].append({**copy.deepcopy(r["cells"][0]), "key": "ext4|-|-|space", "started": [], "host": [],
                           "metrics": {"bytes_used": {"unit": "bytes", "better": "lower", "samples": list(sizes)}}})
    rows = comparison.between(runs[:2], runs[2:], all_metrics=True)
    assert {r["runs_a"] for r in rows} == {r["runs_b"] for r in rows} == {2}


@settings(max_examples=6, deadline=None)
@given(sides=st.permutations(["ext4", "ext4", "xfs", "xfs"]))
def test_an_imports_site_digest_is_compared_as_its_file(tmp_path_factory, sides):
    """The compare page decides an import's cells from its site digest (aggregate.digest), which
    keeps the run's origin in its factors, not the profile and tool fields the file has: each
    pair of its configurations gets the rows the file gets (a digest had been read as a runner's
    run, its "ext4" as ext4:defaults, and had no cells to compare)."""
    from fsatlas.site import aggregate
    tmp = tmp_path_factory.mktemp("imp")
    source = json.loads((FIXTURES / "samples" / "fio" / "fio-3.33-gtod-reduce.json").read_text())
    outputs = []
    for i in range(len(sides)):
        outputs.append(tmp / f"r{i}.json")
        outputs[-1].write_text(json.dumps(written_at(dict(source), source["timestamp"] + i)))
    assert main(["import", "fio", *map(str, outputs), "--as", ",".join(sides), "--out", str(tmp / "out")]) == 0
    (path,) = (tmp / "out" / "results").iterdir()
    result = resultfile.readable(resultfile.load_json(str(path)))
    aggregate.derive_flags(result)
    made = aggregate.digest(result)
    assert shares.imported(result) and made["factors"]["origin"] == shares.IMPORT
    for a, b in (("ext4", "xfs"), ("xfs", "ext4")):
        assert verdicts(report.within(made, a, b, run_of=lambda cell: made["factors"])) \
            == verdicts(report.within(result, a, b))
