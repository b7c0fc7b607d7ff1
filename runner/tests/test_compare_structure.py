"""Issue 60, round 17 (findings 1, 3, 4, 6): each rule tested from the rule over inputs hypothesis
draws, beside the adversary's example:
- a run's factors are derived by the code from the document (comparison.factors), never read from
  a key a file carries: the schema names no such key, so validate, and so compare, refuse any key
  it does not name at the top or in a cell, at its place, in one line; and a document's rows are
  the same whatever keys it carries beside the schema's (cell_pairs.within);
- a field the schema keeps per repetition holds one value a repetition (validation.
  repetition_problems), and contention of repetitions without host records is unknown;
- contention that cannot be computed as a finite number (a wall time below
  contention.MIN_SECONDS, 1e-320 s in the example) is unknown: across files, not tested;
- compare checks a file's structure as validate does, the raw references' form and place
  included: one function (validation.structure_problems) for both."""
import copy
import json
import math

import pytest
from hypothesis import given, settings, strategies as st

from fsatlas.cli import main
from fsatlas.results import comparison, contention, resultfile, validation
from fsatlas.site import report
from test_compare_inputs import KEYS, QUIET, run, stored, verdicts
from test_compare_unknowns import _quiet
from testutil import RESULTS

SCHEMA = resultfile.schema()
NAMED = {"top": set(SCHEMA["properties"]), "cell": set(SCHEMA["$defs"]["cell"]["properties"])}
JSON = st.recursive(st.none() | st.booleans() | st.integers(-10, 10) | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                    max_leaves=6)
# what a forged file may claim: the factors' own shape, with any origin and run
FORGED = st.one_of(JSON, st.builds(lambda origin, rid: {**comparison.factors(run("other", 9)), "origin": origin, "run": rid},
                                   st.sampled_from(["runner", "import", "x"]), st.sampled_from(["f", "other"])))
EXTRA = st.one_of(st.sampled_from(["factors", "run_factors", "origin", "design"]),
                  st.from_regex(r"\A[a-z_]{1,12}\Z"))


# --- 1: factors are derived, never read from the file ------------------------------------------

@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["top", "cell"]), EXTRA, FORGED, st.integers(0, len(KEYS) - 1), st.booleans())
def test_a_key_the_schema_does_not_name_is_refused_at_its_place_and_never_changes_a_row(where, name, value, at, of_import):
    if name in NAMED[where]:
        return
    doc = run("f", 1)
    if of_import:  # an import's marks: its repetitions are never paired, whatever the file claims
        doc.update(profile="import-fio", tool={**doc["tool"], "imported_from": "fio"},
                   cells=[{**c, "variant": "imported"} for c in doc["cells"]])
    forged = copy.deepcopy(doc)
    (forged if where == "top" else forged["cells"][at])[name] = value
    place = f"/{name}" if where == "top" else f"/cells/{at}/{name}"
    problems = resultfile.schema_problems(resultfile.stored(forged), "f.json")
    assert [p.path for p in problems] == [resultfile.pointer([*place.split("/")[1:]])]
    assert problems[0].message.startswith(f"expected no field {json.dumps(name)} here")
    # the code never reads it: the rows (and their design) are those of the file without it
    assert verdicts(report.within(forged, "ext4", "xfs", True)) == verdicts(report.within(doc, "ext4", "xfs", True))


@pytest.mark.parametrize("forged", [
    {"factors": "x"}, {"factors": {"origin": "runner"}}, {"factors": None},
    {"run_factors": 5}, {"run_factors": {"run": "f", "origin": "runner", "profile": "standard"}}])
def test_the_adversarys_forged_factors_are_refused_in_one_line_and_read_by_nothing(tmp_path, capsys, forged):
    """impfac*.json, x_*.json: an fio import claiming a runner's factors had the paired test; wrong
    shapes raised KeyError, AttributeError, TypeError."""
    doc = run("20261127T143616Z-m-import-fio-0a1b2c", 1)
    doc.update(profile="import-fio", tool={**doc["tool"], "imported_from": "fio"},
               cells=[{**c, "variant": "imported"} for c in doc["cells"]])
    honest = report.within(doc, "ext4", "xfs")
    assert all(not r["paired"] and "an import's repetitions ran in no interleaved rounds" in r["why"] for r in honest)
    name, value = next(iter(forged.items()))
    if name == "factors":
        doc[name] = value
    else:
        for cell in doc["cells"]:
            cell[name] = value
    assert verdicts(report.within(doc, "ext4", "xfs")) == verdicts(honest)
    path = stored(tmp_path / f"{doc['id']}.json", doc)
    for argv in (["compare", path, "--a", "ext4", "--b", "xfs"], ["report", path, "--a", "ext4", "--b", "xfs", "--no-chart"],
                 ["article", "new", "t", path, "--a", "ext4", "--b", "xfs", "--content", str(tmp_path / "c")]):
        assert main(argv) == 1
        err = capsys.readouterr().err
        where = "/factors" if name == "factors" else "/cells/0/run_factors"
        assert err.count("\n") == 1 and f"{path}: {where}: expected no field" in err and "Traceback" not in err
    assert not (tmp_path / "c").exists()


# --- 3: one value a repetition; records for some repetitions leave contention unknown ------------

@settings(max_examples=40, deadline=None)
@given(st.sampled_from(validation.PER_REPETITION), st.integers(0, len(KEYS) - 1), st.integers(0, 12))
def test_a_field_kept_per_repetition_holds_one_value_a_repetition(field, at, count):
    doc = _quiet(run("r", 1))
    cell = doc["cells"][at]
    reps = len(cell["metrics"]["throughput"]["samples"])
    cell.setdefault(field, copy.deepcopy(cell["device_io"]))
    cell[field] = (cell[field] * 2)[:count]
    found = [p for p in validation.structure_problems(doc, "r.json")]
    if count == reps:
        assert found == []
    else:
        assert [(p.path, p.message) for p in found] == [
            (f"/cells/{at}/{field}", f"expected {reps} values, one a repetition (as many as each metric's samples), "
                                     f"found {count}")]
    if field == "host" and 0 < count < reps:  # the repetitions without a record: their contention unknown
        assert contention.unknown(cell) == f"host records for {count} of its {reps} repetitions"
        assert contention.summary(cell) == dict.fromkeys(contention.LIMITS)


@settings(max_examples=20, deadline=None)
@given(st.sets(st.integers(0, 8), min_size=1, max_size=8), st.booleans())
def test_any_subset_of_repetitions_with_host_records_is_contention_unknown_across_files(kept, on_a):
    """E1zh1/E2zh1: others' CPU 0 s in the first repetition and 30 s in the others, the host
    records cut to the first: p 0.033 "better" on main; with every record, contention differs."""
    a = [_quiet(run(rid, i, keys=KEYS[:1])) for i, rid in enumerate(("c1", "c2"))]
    b = [_quiet(run(rid, 5 + i, 1.05, keys=KEYS[:1])) for i, rid in enumerate(("e1", "e2"))]
    for r in b:
        r["cells"][0]["host"] = [{**rep, "others_cpu_s": 0.0 if i == 0 else 30.0} for i, rep in enumerate(r["cells"][0]["host"])]
    (full,) = [r for r in comparison.between(a, b) if r["metric"] == "throughput"]
    assert full["verdict"] == "not tested" and "contention differs" in full["why"]
    side = a if on_a else b
    for r in side:
        r["cells"][0]["host"] = [rep for i, rep in enumerate(r["cells"][0]["host"]) if i in kept]
    (row,) = [r for r in comparison.between(a, b) if r["metric"] == "throughput"]
    assert row["verdict"] == "not tested" and row["p"] is None
    assert f"contention unknown on side {'A' if on_a else 'B'} (host records for {len(kept)} of its 9 repetitions" \
        in row["why"]


# --- 4: contention that is not finite is unknown --------------------------------------------------

WALLS = st.one_of(st.floats(0, contention.MIN_SECONDS, exclude_max=True), st.floats(allow_nan=True, allow_infinity=True),
                  st.sampled_from([1e-320, 5e-324, 1e-300, 0.001, 1e308]), st.integers(0, 10))


@settings(max_examples=200, deadline=None)
@given(WALLS, st.one_of(st.floats(0, 1e18), st.sampled_from([math.inf, math.nan, 30.0])), st.booleans())
def test_contention_is_a_finite_number_or_unknown(wall, used, on_record):
    rep = {**QUIET, "others_cpu_s": used}
    rep.pop("seconds")
    found = contention.measures({**rep, "seconds": wall} if on_record else rep, None if on_record else wall)
    share = found["others_cpu"]
    computable = math.isfinite(used) and math.isfinite(wall) and wall >= contention.MIN_SECONDS \
        and math.isfinite((used if used > contention.RESOLUTION_CPU_S else 0.0) / wall)
    assert (share is not None) == computable
    if computable:
        assert share == (used if used > contention.RESOLUTION_CPU_S else 0.0) / wall
    cell = {"metrics": {"throughput": {"samples": [1.0, 2.0]}}, "host": [{**rep, "seconds": wall}] * 2}
    summary = contention.summary(cell)
    assert all(v is None or math.isfinite(v) for v in summary.values())
    assert (summary["others_cpu"] is None) == (not computable) == bool(contention.unknown(cell))


def test_the_adversarys_wall_time_of_1e_320_is_contention_unknown_not_the_same():
    """W1-W4: 30 s of others' CPU over a wall time of 1e-320 s on both sides, an infinite share
    whose difference (nan) passed no threshold: p 0.033 "better" on main."""
    a = [_quiet(run(rid, i, keys=KEYS[:1])) for i, rid in enumerate(("w1", "w2"))]
    b = [_quiet(run(rid, 5 + i, 1.05, keys=KEYS[:1])) for i, rid in enumerate(("w3", "w4"))]
    for r in a + b:
        cell = r["cells"][0]
        cell["host"] = [{k: v for k, v in {**rep, "others_cpu_s": 30.0}.items() if k != "seconds"} for rep in cell["host"]]
        cell["wall_seconds"] = 1e-320
    (row,) = [r for r in comparison.between(a, b) if r["metric"] == "throughput"]
    assert row["verdict"] == "not tested" and row["p"] is None
    assert "contention unknown on side A (other processes' CPU not computable" in row["why"]
    assert "contention unknown on side B" in row["why"]
    # and a file holding it is refused at its place (the schema's bound: the grain the runner records)
    problems = resultfile.schema_problems(resultfile.stored(a[0]), "w1.json")
    assert [p.path for p in problems] == ["/cells/0/wall_seconds"]
    # just beside it: the shortest wall time the runner records is computable, and differs from a quiet side
    cell = copy.deepcopy(a[0]["cells"][0])
    cell["wall_seconds"] = contention.MIN_SECONDS * len(cell["host"])
    assert contention.unknown(cell) == "" and contention.difference(cell, _quiet(run("q", 3, keys=KEYS[:1]))["cells"][0])


# --- 6: compare checks a file's structure as validate does -----------------------------------------

RAW_EDITS = {
    "another id's bundle": lambda raw, rid: raw.replace(f"raw/{rid}/", "raw/zzz/", 1),
    "up and out": lambda raw, rid: "raw/zzz/../../../etc/passwd",
    "dot dot inside": lambda raw, rid: raw.replace("/rep-", "/../rep-", 1),
    "another cell's folder": lambda raw, rid: raw.replace("seq-", "rand-", 1),
    "empty part": lambda raw, rid: raw.replace("/rep-", "//rep-", 1),
    "the first repetition again": lambda raw, rid: raw.rsplit("/", 1)[0] + "/rep-1.json",
    "unchanged": lambda raw, rid: raw,
}


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(sorted(RAW_EDITS)), st.integers(0, len(KEYS) - 1), st.integers(1, 8), st.booleans())
def test_compare_refuses_a_file_for_the_structure_validate_refuses_it_for(tmp_path_factory, edit, at, rep, dup_key):
    tmp = tmp_path_factory.mktemp("raw")
    doc = run("c1raw", 1)
    cell = doc["cells"][at]
    cell["raw"][rep] = RAW_EDITS[edit](cell["raw"][rep], doc["id"])
    if dup_key:
        doc["cells"].append(copy.deepcopy(doc["cells"][0]))
    path = stored(tmp / "c1raw.json", doc)
    others = [stored(tmp / f"{r}.json", run(r, i + 2)) for i, r in enumerate(("c2", "d1", "d2"))]
    # validate says each problem of the structure (and what follows from it: a repetition's report
    # named twice ran before the second one started), and compare refuses the file with its first line
    expected = [(p.path, p.message) for p in validation.validate_file(path) if p.severity == "error"]
    structure = [(p.path, p.message) for p in validation.structure_problems(resultfile.load_result(path), path)]
    assert set(structure) <= set(expected) and bool(structure) == bool(expected) == (edit != "unchanged" or dup_key)
    from fsatlas.commands.compare import compared
    if expected:
        with pytest.raises(Exception) as e:
            compared([], [path, others[0]], others[1:], None, None, False, "usage")
        assert str(e.value) == f"{path}: {expected[0][0] or '/'}: {expected[0][1]}"
    else:
        assert compared([], [path, others[0]], others[1:], None, None, False, "usage")[2]


def test_the_adversarys_raw_path_out_of_the_bundle_is_refused_by_compare(tmp_path, capsys):
    """C1raw2.json: raw ["raw/zzz/../../../etc/passwd"], refused by validate, tested by compare on main."""
    doc = run("c1raw2", 1)
    doc["cells"][0]["raw"] = ["raw/zzz/../../../etc/passwd"]
    paths = [stored(tmp_path / "c1raw2.json", doc)] + [stored(tmp_path / f"{r}.json", run(r, i + 2))
                                                       for i, r in enumerate(("c2", "d1", "d2"))]
    assert main(["compare", "--runs-a", *paths[:2], "--runs-b", *paths[2:]]) == 1
    err = capsys.readouterr().err
    assert err == (f"fsatlas compare: {paths[0]}: /cells/0/raw/0: expected raw/c1raw2/…, a member of raw/c1raw2.tar.gz, "
                   f"found raw/zzz/../../../etc/passwd\n")


# --- 2: a cell's mount options in effect and its driver are factors across runs -------------------

MOUNTS = ("rw,relatime,discard=async", "rw,relatime,nodiscard", "rw,noatime")


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(MOUNTS), min_size=4, max_size=4), st.lists(st.sampled_from(["kernel", "fuse"]),
                                                                        min_size=4, max_size=4))
def test_a_cell_mounted_otherwise_or_through_another_driver_gets_no_verdict_across_runs(mounts, drivers):
    """#60 round 51: two runs a side, alike but for btrfs's mount options as the kernel reported
    them (discard=async, then nodiscard once the matrix changed), gave "worse" under a header
    saying nothing differed. Two runs a side, B's figures 30 % lower, each run's cells mounted
    with options and a driver drawn here: a row says better, worse or equivalent only where every
    run of both sides mounted that cell alike through one driver (worked out here), and names the
    factor where not. Within one run, ext4 against xfs, their own mounts are what is compared."""
    runs = [run(rid, i, 1.0 if i < 2 else 0.7, keys=KEYS[:1]) for i, rid in enumerate(("m1", "m2", "m3", "m4"))]
    for doc, mount, driver in zip(runs, mounts, drivers):
        for cell in doc["cells"]:
            cell["effective_mount_options"], cell["driver"] = mount, driver
    rows = [r for r in comparison.between(runs[:2], runs[2:]) if r["metric"] == "throughput"]
    alike = len(set(mounts)) == 1 and len(set(drivers)) == 1
    assert rows and all((r["verdict"] in ("better", "worse", "equivalent")) == alike for r in rows), (mounts, drivers, rows)
    for r in rows:
        assert ("mount options" in r["differ"]) == (len(set(mounts)) > 1)
        assert ("driver" in r["differ"]) == (len(set(drivers)) > 1)
    one = run("w", 9)
    ext4, xfs = (next(c for c in one["cells"] if c["key"] == k) for k in ("ext4|-|-|seq-write", "xfs|-|-|seq-write"))
    ext4["effective_mount_options"], xfs["effective_mount_options"] = mounts[0], "rw,relatime,attr2,inode64"
    ext4["driver"], xfs["driver"] = drivers[0], "kernel"
    factors = comparison.factors(one)
    plan = comparison.cells_plan(factors, ext4, factors, xfs)
    assert not {"mount options", "driver"} & set(plan["differ"])


STANDARD_WITH_HOST = RESULTS / "20261127T143616Z-m-b6d0b06748-standard.json"


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_a_counter_column_of_another_length_is_the_one_named(data):
    """The rule (round 58): where one column of a cell's host or device counters holds more or
    fewer values than the cell's repetitions, the problem names that column and the repetitions'
    count (a hand count of the samples), never a column that is right."""
    doc = json.loads(STANDARD_WITH_HOST.read_text())
    cells = [i for i, c in enumerate(doc["cells"]) if isinstance(c.get("host"), dict) and len(c["host"]) > 1]
    i = data.draw(st.sampled_from(cells), label="cell")
    column = data.draw(st.sampled_from(sorted(doc["cells"][i]["host"])), label="column")
    reps = max(len(m["samples"]) for m in doc["cells"][i]["metrics"].values())
    values = doc["cells"][i]["host"][column]
    change = data.draw(st.integers(-len(values), 3).filter(lambda k: k != 0), label="change")
    doc["cells"][i]["host"][column] = values[:len(values) + change] if change < 0 else values + values[:change]
    problems = [p for p in resultfile.stored_problems(doc, "f.json") if "/host/" in p.path]
    assert [(p.path, p.message) for p in problems] == \
        [(f"/cells/{i}/host/{column}", f"expected {reps} values (one a repetition), found {len(values) + change}")]
