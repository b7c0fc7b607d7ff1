"""Schema version 2 (issue 65): a result file stores what was measured once, and what derives
from it is made when the file is read (resultfile.readable), by the one writer's inverse
(resultfile.stored). The rules, tested over generated results rather than one example:
- reading a migrated result gives every figure a page or the export shows as reading the old
  one did: samples, summaries, units, better, raw references, counters (read(migrate(old)) ==
  read(old));
- migrating is idempotent, byte for byte, and `fsatlas migrate` on the committed fixtures too;
- a version 2 file storing a derived figure, or a unit or better the metric table contradicts,
  is refused at its JSON Pointer (and one that agrees with the table is not)."""
import copy
import json
import math
import shutil

from hypothesis import HealthCheck, assume, given, settings, strategies as st

from testutil import FIXTURES, write_json
from fsatlas.cli import main
from fsatlas.results import metrics, resultfile, stats
from fsatlas.results.resultfile import raw_dir_name
from fsatlas.results.validation import validate_file

BASE = json.loads((FIXTURES / "results" / "fixture-valid.json").read_text())
RID = BASE["id"]
KNOWN = sorted(metrics.KNOWN)
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

values = st.one_of(st.integers(0, 2**40), st.floats(0, 1e15, allow_nan=False, allow_infinity=False))
samples = st.lists(values, min_size=1, max_size=7)


@st.composite
def metric_sets(draw):
    """{name: metric summary} as a version 1 file holds them: known metrics with the table's
    unit and better, an imported one the table lacks with its own, a PTS scale."""
    out = {}
    for name in draw(st.lists(st.sampled_from(KNOWN), min_size=1, max_size=4, unique=True)):
        out[name] = _summary(draw(samples), *metrics.KNOWN[name])
    if draw(st.booleans()):
        out["odd_metric"] = _summary(draw(samples), draw(st.sampled_from(["ops/s", "s", "bytes"])),
                                     draw(st.sampled_from(["higher", "lower"])))
    if draw(st.booleans()):
        out["pts_final_score"] = {**_summary(draw(samples), "pts", "higher"), "pts_scale": "Final Score"}
    return out


def _summary(values_: list, unit: str, better: str) -> dict:
    made = stats.summarize(values_, unit, better)
    made["samples"] = list(values_)  # ints stay ints, as a file holds them
    return made


counts = st.integers(0, 2**40)
io_rows = st.fixed_dictionaries({k: counts for k in ("reads", "read_sectors", "writes", "write_sectors", "flushes")})


@st.composite
def host_rows(draw, n: int):
    optional = draw(st.sets(st.sampled_from(["seconds", "helpers_cpu_s"])))  # the same in every repetition
    share = st.floats(0, 100, allow_nan=False)
    least = {"seconds": 0.001}  # a repetition's wall time: at least the grain the runner records (contention.MIN_SECONDS)
    return [{**{k: draw(st.floats(least.get(k, 0), 1e6, allow_nan=False)) for k in sorted(optional)},
             "steal_pct": draw(share), "iowait_pct": draw(share), "others_cpu_s": draw(st.floats(0, 1e6, allow_nan=False)),
             "load1": draw(st.one_of(st.none(), st.floats(0, 500, allow_nan=False)))} for _ in range(n)]


@st.composite
def cells(draw, i: int):
    key = f"ext4|-|{draw(st.sampled_from(['-', 'noatime', 'data=journal,commit=5']))}|w{i}"
    status = draw(st.sampled_from(["ok", "ok", "ok", "skipped"]))
    cell = {**copy.deepcopy(BASE["cells"][0]), "key": key, "workload": f"w{i}", "status": status}
    cell.pop("reason", None)
    if status != "ok":
        return {**cell, "metrics": {}, "raw": [], "reason": "not in this kernel"}
    cell["metrics"] = draw(metric_sets())
    reps = draw(st.integers(1, 5))
    kind = draw(st.sampled_from(["rule", "rule", "other-name", "import"]))
    if kind == "rule":  # the runner's: the rule gives them
        ext = draw(st.sampled_from(["json", "txt"]))
        cell["raw"] = [f"raw/{RID}/{raw_dir_name(key)}/rep-{k}.{ext}" for k in range(1, reps + 1)]
    elif kind == "other-name":  # just beside the rule: numbered from 0, which it does not give
        cell["raw"] = [f"raw/{RID}/{raw_dir_name(key)}/rep-{k}.json" for k in range(reps)]
    else:
        cell["raw"] = [f"raw/{RID}/{k:03d}-out.txt" for k in range(1, reps + 1)]
    for field in ("device_io", "timed_io"):
        cell.pop(field, None)
        if draw(st.booleans()):
            cell[field] = draw(st.lists(io_rows, min_size=reps, max_size=reps))
    cell.pop("host", None)
    if draw(st.booleans()):
        cell["host"] = draw(host_rows(reps))
    if draw(st.booleans()):
        cell["clients"] = {"client-1": draw(metric_sets()), "client-2": draw(metric_sets())}
    return cell


@st.composite
def old_results(draw):
    """A version 1 result (the read form): the fixture's head, generated cells and baselines."""
    n = draw(st.integers(1, 6))
    result = copy.deepcopy(BASE)
    result["cells"] = [draw(cells(i)) for i in range(n)]
    for field in resultfile.BASELINES:
        result["target"].pop(field, None)
        if draw(st.booleans()):
            result["target"][field] = {"seq-write": draw(metric_sets())}
    return result


@SETTINGS
@given(old_results())
def test_reading_a_migrated_result_gives_every_figure_reading_the_old_one_gave(old):
    resultfile.check_stored(old)  # a valid version 1 file
    new = resultfile.stored(old)
    resultfile.check_stored(new)  # a valid version 2 file
    assert new["schema_version"] == 2
    read = resultfile.readable(new)
    assert read == {**old, "schema_version": 2}  # samples, summaries, units, better, raw, counters, clients
    assert resultfile.readable(old) == read  # a version 1 file is read as its migration
    assert resultfile.version_of(new) == 2 and resultfile.schema_problems(new, "x") == []


@SETTINGS
@given(old_results())
def test_migrating_is_idempotent_byte_for_byte(old):
    once = resultfile.stored(old)
    again = resultfile.stored(resultfile.readable(once))
    assert again == once and resultfile.dumped(again) == resultfile.dumped(once)
    assert resultfile.stored(once) == once  # the stored form is its own stored form


@SETTINGS
@given(old_results())
def test_each_metric_read_is_byte_for_byte_what_the_runner_summarizes(old):
    """readable computes its summaries without stats.summarize's calls and dicts (issue 65: 2.2 ms
    a quick result): each metric read is, as JSON bytes, unit, better (and pts_scale), the
    samples as stored, then the figures stats.moments and half_width give of them (the way
    summarize took them before), in the order every page's JSON keeps."""
    read = resultfile.readable(resultfile.stored(old))
    metric_sets = [c["metrics"] for c in read["cells"]]
    metric_sets += [m for c in read["cells"] for m in c.get("clients", {}).values()]
    metric_sets += [m for field in resultfile.BASELINES for m in read["target"].get(field, {}).values()]
    for named in metric_sets:
        for metric in named.values():
            made = stats.moments(metric["samples"])
            half = stats.half_width(made["stddev"], len(metric["samples"]))
            head = {k: metric[k] for k in ("unit", "better", "pts_scale") if k in metric}
            expected = {**head, "samples": metric["samples"], **{k: made[k] for k in resultfile.DERIVED[:4]},
                        "ci95": [made["mean"] - half, made["mean"] + half]}
            assert json.dumps(metric) == json.dumps(expected)


@SETTINGS
@given(old_results(), st.data())
def test_a_stored_derived_figure_is_refused_at_its_pointer(old, data):
    new = resultfile.stored(old)
    places = [(["cells", i, "metrics", name], m) for i, c in enumerate(new["cells"]) for name, m in c["metrics"].items()]
    places += [(["cells", i, "clients", label, name], m) for i, c in enumerate(new["cells"])
               for label, named in c.get("clients", {}).items() for name, m in named.items()]
    places += [(["target", f, job, name], m) for f in resultfile.BASELINES for job, named in new["target"].get(f, {}).items()
               for name, m in named.items()]
    assume(places)
    where, metric = data.draw(st.sampled_from(places))
    field = data.draw(st.sampled_from(resultfile.DERIVED))
    summary = stats.summarize(metric["samples"], "s", "lower")  # the right value: stored, it is still refused
    metric[field] = summary[field]
    problems = resultfile.schema_problems(new, "x")
    assert [p.path for p in problems] == [resultfile.pointer([*where, field])], [str(p) for p in problems]
    assert f"expected no {field}" in problems[0].message


@SETTINGS
@given(old_results(), st.data())
def test_a_unit_or_better_the_metric_table_contradicts_is_refused_and_one_it_agrees_with_is_not(old, data):
    new = resultfile.stored(old)
    known = [(i, name) for i, c in enumerate(new["cells"]) for name in c["metrics"] if name in metrics.KNOWN]
    assume(known)
    i, name = data.draw(st.sampled_from(known))
    metric = new["cells"][i]["metrics"][name]
    unit, better = metrics.KNOWN[name]
    metric.update(unit=unit, better=better)  # the table's own: stored again, still read alike
    assert resultfile.stored_problems(new, "x") == [] and resultfile.readable(new) == resultfile.readable(resultfile.stored(old))
    field = data.draw(st.sampled_from(["unit", "better"]))
    choices = sorted({"bytes/s", "ops/s", "s", "ns", "bytes", "percent"} - {unit}) if field == "unit" else \
        ["higher" if better == "lower" else "lower"]
    metric[field] = data.draw(st.sampled_from(choices))
    problems = resultfile.stored_problems(new, "x")
    assert [p.path for p in problems] == [f"/cells/{i}/metrics/{name}/{field}"]


def test_a_metric_the_table_lacks_must_keep_its_unit(tmp_path):
    old = copy.deepcopy(BASE)
    old["cells"][0]["metrics"] = {"odd_metric": _summary([1, 2, 3], "ops/s", "higher")}
    new = resultfile.stored(old)
    assert new["cells"][0]["metrics"]["odd_metric"] == {"unit": "ops/s", "better": "higher", "samples": [1, 2, 3]}
    del new["cells"][0]["metrics"]["odd_metric"]["unit"]
    assert [p.path for p in resultfile.stored_problems(new, "x")] == ["/cells/0/metrics/odd_metric/unit"]


def test_counter_columns_of_unequal_length_are_refused_at_the_short_one():
    old = copy.deepcopy(BASE)
    old["cells"][0]["host"] = [{"steal_pct": 0, "iowait_pct": 1, "others_cpu_s": 2, "load1": None}] * 3
    new = resultfile.stored(old)
    assert new["cells"][0]["host"]["load1"] == [None, None, None]
    new["cells"][0]["host"]["iowait_pct"].pop()
    assert [p.path for p in resultfile.stored_problems(new, "x")] == ["/cells/0/host/iowait_pct"]


def test_validate_refuses_a_stored_mean_in_one_line_at_its_pointer(out_dir, capsys):
    path = out_dir / "results" / f"{RID}.json"
    new = resultfile.stored(resultfile.readable(json.loads(path.read_text())))
    name = next(iter(new["cells"][0]["metrics"]))
    new["cells"][0]["metrics"][name]["mean"] = 1.0
    path.write_text(json.dumps(new))
    problems = [p for p in validate_file(str(path)) if p.severity == "error"]
    assert [p.path for p in problems] == [f"/cells/0/metrics/{name}/mean"]
    assert main(["validate", "--no-cache", str(path)]) == 1
    assert f"{path}: error: /cells/0/metrics/{name}/mean: expected no mean" in capsys.readouterr().err


def test_migrate_rewrites_the_fixtures_readably_and_a_second_run_changes_no_byte(out_dir, capsys):
    results = out_dir / "results"
    before = {p.name: resultfile.load_result(str(p)) for p in results.glob("*.json")}
    assert main(["migrate", str(results)]) == 0
    after = {p.name: p.read_bytes() for p in results.glob("*.json")}
    for name, data in after.items():
        assert json.loads(data)["schema_version"] == 2
        read = resultfile.load_result(str(results / name))
        _close(read, {**before[name], "schema_version": 2})
        assert [p for p in validate_file(str(results / name)) if p.severity == "error"] == []
    assert main(["migrate", str(results)]) == 0
    assert {p.name: p.read_bytes() for p in results.glob("*.json")} == after
    assert "0 of 1 results written" in capsys.readouterr().err


def test_migrate_refuses_what_it_cannot_read_in_one_line_and_writes_nothing(out_dir, capsys):
    results = out_dir / "results"
    good = (results / f"{RID}.json").read_bytes()
    broken = copy.deepcopy(BASE)
    broken["id"] = "broken"
    broken["cells"][0]["metrics"]["throughput"]["unit"] = "furlongs"
    write_json(results / "broken.json", broken)
    assert main(["migrate", str(results)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "broken.json" in err and "/cells/0/metrics/throughput/unit" in err
    assert (results / f"{RID}.json").read_bytes() == good  # nothing written, the readable one neither


def _close(a, b, where=""):
    """a == b, floats within 1e-9 relative (a version 1 file's stored summaries, rounded by its
    writer, against the same recomputed)."""
    if isinstance(a, float) or isinstance(b, float):
        assert math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9), (where, a, b)
    elif isinstance(a, dict):
        assert a.keys() == b.keys(), where
        for k in a:
            _close(a[k], b[k], f"{where}/{k}")
    elif isinstance(a, list):
        assert len(a) == len(b), where
        for k, (x, y) in enumerate(zip(a, b)):
            _close(x, y, f"{where}/{k}")
    else:
        assert a == b, (where, a, b)


def _places(old: dict) -> list:
    """(JSON Pointer parts, metric) of every metric a version 1 file stores summaries of: the
    cells', their clients' and the baselines'."""
    out = [(["target", field, job, name], m) for field in resultfile.BASELINES
           for job, named in old["target"].get(field, {}).items() for name, m in named.items()]
    for i, cell in enumerate(old["cells"]):
        out += [(["cells", i, "metrics", name], m) for name, m in cell["metrics"].items()]
        out += [(["cells", i, "clients", label, name], m) for label, named in cell.get("clients", {}).items()
                for name, m in named.items()]
    return out


@SETTINGS
@given(old_results(), st.data())
def test_a_version_1_file_is_read_as_its_migration(old, data):
    """#65 round 52: readers showed a version 1 file's stored mean, which validate accepts within
    its tolerance of the samples' (a shown 8,720 became 8,730 once migrated), and its baselines'
    summaries unchecked. A stored summary moved anywhere within the tolerance: the file is
    still accepted, and every figure read of it is its migration's, the samples' own."""
    from fsatlas.results.validation import REL_TOL, stored_summary_problems
    assume(_places(old))
    where, metric = data.draw(st.sampled_from(_places(old)))
    field = data.draw(st.sampled_from(["mean", "median", "stddev", "rsd_pct"]))
    assume(metric[field] > 1)
    before = metric[field]
    metric[field] *= 1 + data.draw(st.floats(-REL_TOL / 2, REL_TOL / 2).filter(bool))
    assume(metric[field] != before)  # not lost in the float's rounding
    resultfile.check_stored(old)
    assert stored_summary_problems(old, "x") == []
    migrated = resultfile.stored(old)
    read = resultfile.readable(old)
    assert read == resultfile.readable(migrated) == resultfile.readable(json.loads(json.dumps(migrated)))
    node = read
    for part in where:
        node = node[part]
    assert node[field] != metric[field]  # the samples' figure, not the one stored


@SETTINGS
@given(old_results(), st.data())
def test_a_version_1_summary_that_is_not_its_samples_is_refused_at_its_place(old, data):
    """validate's rule that a version 1 file's summaries are its samples', for every metric that
    stores them (round 52: never checked for the baselines or the clients). The place is worked
    out here from where the summary was changed."""
    from fsatlas.results.validation import stored_summary_problems
    assume(_places(old))
    where, metric = data.draw(st.sampled_from(_places(old)))
    field = data.draw(st.sampled_from(["mean", "median", "rsd_pct", "ci95/0", "ci95/1"]))
    name, _, index = field.partition("/")
    value = metric[name][int(index)] if index else metric[name]
    assume(value > 1)
    changed = value * data.draw(st.sampled_from([0.25, 0.9, 1.01, 4.0]))
    if index:
        metric[name][int(index)] = changed
    else:
        metric[name] = changed
    found = [p.path for p in stored_summary_problems(old, "x")]
    assert resultfile.pointer(where) + "/" + field in found, found


@SETTINGS
@given(old_results(), st.data())
def test_a_version_1_file_validate_accepts_is_one_migrate_converts(old, data):
    """Round 52: counters whose repetitions name other fields, a baseline in another unit, and a
    failed cell's empty counters passed validate and stopped migrate. Whatever is changed of a
    generated file, check_stored (validate's and every reader's check of a stored file) accepts
    it exactly where its migration is a file it accepts."""
    kind = data.draw(st.sampled_from(["host-fields", "baseline-unit", "empty-counters", "none"]))
    if kind == "host-fields":
        hosts = [c for c in old["cells"] if len(c.get("host", [])) > 1]
        assume(hosts)
        rows = data.draw(st.sampled_from(hosts))["host"]
        rows[-1] = {**rows[-1], "seconds": 1.0} if "seconds" not in rows[-1] else \
            {k: v for k, v in rows[-1].items() if k != "seconds"}
    elif kind == "baseline-unit":
        assume(old["target"].get("baseline"))
        named = old["target"]["baseline"]["seq-write"]
        name = data.draw(st.sampled_from(sorted(n for n in named if n in metrics.KNOWN)))
        named[name]["unit"] = data.draw(st.sampled_from(["ops/s", "s", "bytes", "%"]).filter(
            lambda u: u != metrics.KNOWN[name][0]))
    elif kind == "empty-counters":
        old["cells"].append({**copy.deepcopy(BASE["cells"][0]), "key": "ext4|-|-|wx", "workload": "wx",
                             "status": "failed", "reason": "mkfs failed", "metrics": {}, "raw": [],
                             "device_io": [], "timed_io": [], "host": []})
    try:
        resultfile.check_stored(old)
        accepted = True
    except resultfile.UserError:
        accepted = False
    try:
        migrated = resultfile.stored(old)
        resultfile.check_stored(migrated)
        converts = True
    except resultfile.UserError:
        converts = False
    assert accepted == converts, kind
    assert accepted == (kind in ("empty-counters", "none")), kind
    if accepted:
        assert resultfile.readable(old) == resultfile.readable(migrated)


def test_migrate_converts_no_file_when_one_of_them_cannot_be(tmp_path, capsys):
    """Round 52: migrate rewrote a good version 1 file, then refused the next one's new form.
    A folder of a convertible file and one whose host counters name other fields from one
    repetition to the next, each with its bundle (migrate refuses what validate does: round 55):
    one located line, exit 1, and both files keep their bytes."""
    good = copy.deepcopy(BASE)
    bad = copy.deepcopy(BASE)
    bad["id"] = "fixture-valid-2"
    bad["cells"] = [dict(c, raw=[r.replace("raw/fixture-valid/", "raw/fixture-valid-2/") for r in c["raw"]])
                    for c in bad["cells"]]
    (tmp_path / "raw").mkdir()
    for rid in ("fixture-valid", "fixture-valid-2"):
        shutil.copy(FIXTURES / "raw" / "fixture-valid.tar.gz", tmp_path / "raw" / f"{rid}.tar.gz")
    cell = next(c for c in bad["cells"] if c["status"] == "ok")
    cell["host"] = [{"steal_pct": 0.0, "iowait_pct": 0.0, "others_cpu_s": 0.1, "load1": 0.5},
                    {"steal_pct": 0.0, "iowait_pct": 0.0, "others_cpu_s": 0.1, "load1": 0.5, "seconds": 2.0}]
    cell["host"] += [cell["host"][0]] * (len(cell["raw"]) - 2)
    folder = tmp_path / "results"
    paths = [write_json(folder / f"{d['id']}.json", d) for d in (good, bad)]
    before = [p.read_bytes() for p in paths]
    assert main(["migrate", *map(str, paths)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{paths[1]}: /cells/{bad['cells'].index(cell)}/host/1" in err[0], err
    assert [p.read_bytes() for p in paths] == before


@SETTINGS
@given(st.integers(1, 6), st.data())
def test_a_runners_references_name_each_repetition_by_the_rule(reps, data):
    """#65 round 52: a runner's cell whose references came in another order (rep-2, rep-1, ...),
    its samples and counters swapped to match, was accepted; and one spelling the rule's
    references out, where the writer stores {reps, ext}. Repetition n's file is rep-n: the
    places where a drawn order breaks that (worked out here) are refused, and a version 2
    file spelling the rule out is refused at the cell's raw."""
    from fsatlas.results import validation
    doc = resultfile.readable(copy.deepcopy(BASE))
    i = next(k for k, c in enumerate(doc["cells"]) if c["status"] == "ok")
    cell = doc["cells"][i]
    rule = resultfile.raw_references(doc["id"], cell["key"], reps, "json")
    order = data.draw(st.permutations(range(reps)))
    cell["raw"] = [rule[k] for k in order]
    found = [p.path for p in validation.structure_problems(doc, "x") if p.path.startswith(f"/cells/{i}/raw/")]
    assert found == [f"/cells/{i}/raw/{j}" for j, k in enumerate(order) if k != j]
    cell["raw"] = rule
    spelled = {**resultfile.stored(doc), "cells": [dict(c) for c in resultfile.stored(doc)["cells"]]}
    spelled["cells"][i]["raw"] = rule
    assert [p.path for p in resultfile.stored_problems(spelled, "x")] == [f"/cells/{i}/raw"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(old_results(), st.data())
def test_migrate_converts_a_version_1_file_only_where_validate_accepts_it(tmp_path_factory, capsys, old, data):
    """#65 round 53: migrate dropped a version 1 file's summaries that its samples contradict
    (which validate refuses) and wrote a file that validate then accepted; and converted
    references in reverse order into a file validate refuses. A generated file, a summary
    changed beyond the tolerance or a cell's references reversed, or nothing: migrate writes it
    exactly when validate accepts it, else refuses it in one line at the place validate names
    first, the file unchanged. (These files have no bundle, which validate refuses since round
    55: test_migrate_machines converts files with theirs.)"""
    from fsatlas.results import validation
    assume(_places(old))
    kind = data.draw(st.sampled_from(["summary", "raw-order", "none"]))
    if kind == "summary":
        where, metric = data.draw(st.sampled_from(_places(old)))
        assume(metric["mean"] > 1)
        metric["mean"] *= 1.5
    elif kind == "raw-order":
        cells = [c for c in old["cells"] if len(c["raw"]) > 1  # a runner's references, by the rule
                 and c["raw"] == resultfile.raw_references(RID, c["key"], len(c["raw"]), c["raw"][0].rsplit(".", 1)[1])]
        assume(cells)
        cells[0]["raw"].reverse()
    path = write_json(tmp_path_factory.mktemp("m") / "results" / f"{RID}.json", old)
    before = path.read_bytes()
    expected = [p for p in validation.check_paths([str(path)], None)[1] if p.severity == "error"]
    code = main(["migrate", str(path)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == (1 if expected else 0), (kind, expected, err)
    if expected:
        assert path.read_bytes() == before and len(err) == 1 and f"{path}: {expected[0].path or '/'}: " in err[0], err
    else:
        assert validation.structure_problems(resultfile.load_result(str(path)), str(path)) == []


@SETTINGS
@given(old_results(), st.data(), st.from_regex(r"[a-z_]{3,12}", fullmatch=True))
def test_a_field_version_1_does_not_allow_is_named_at_its_own_place_alone(old, data, field):
    """#65 round 53: a version 1 metric holding one unknown field ("geomean") was refused with
    five lines calling its own summaries ("expected no mean", version 2's rule) and the field
    last. Any such field at any metric: one problem, at the field's place."""
    assume(_places(old))
    where, metric = data.draw(st.sampled_from(_places(old)))
    assume(field not in metric and field not in ("pts_scale",))
    metric[field] = 5
    found = resultfile.schema_problems(old, "x")
    assert [p.path for p in found] == [resultfile.pointer([*where, field])], found
