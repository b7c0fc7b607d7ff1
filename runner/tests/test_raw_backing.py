"""Every figure is backed by a raw member of the format its cell's source writes, whose own
counts agree with its rates (issue #61, third round, items 1, 2 and 5):

- a cell's raw member is in the format its workload's kind writes in the standard matrix (fio's
  report for seq-write), or for an import the format of its tool (tool.imported_from); another
  tool's output (a PTS XML, an IOzone or bonnie++ report, dd's line) is refused at each raw
  reference, whatever the result leaves out;
- a fio report holds, for each direction of each job, the counts fio writes (io_bytes, runtime,
  total_ios, bw or bw_bytes, iops, a latency), and its rates are fio's own arithmetic of them;
- a figure too large for a float and JSON nested past what a parser takes are one located line.
"""
import json
import os

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from fsatlas.cli import main
from fsatlas.errors import UserError
from fsatlas.results import resultfile
from fsatlas.results.importers import fio
from fsatlas.results.validation import reviewed, validate_file
from testutil import RESULTS, SAMPLES, edit_member, raw_files, write_json

RID = "fixture-valid"
EXAMPLES = int(os.environ.get("FSATLAS_FUZZ_EXAMPLES", "40"))


def _readable(path) -> bool:
    from fsatlas.results import validation
    try:
        validation.parse_raw(path.read_text(errors="replace"), path.name)
    except UserError:
        return False
    return True


# Other tools' real outputs, each of which the validator reads as its own tool's
OTHER_TOOLS = sorted(p for tool in ("pts", "iozone", "bonnie", "dd") for p in (SAMPLES / tool).iterdir() if _readable(p))


def _errors(path) -> list[str]:
    return [f"{p.path} {p.message}" for p in reviewed(validate_file(str(path)), allow_all=True) if p.severity == "error"]


@settings(max_examples=max(EXAMPLES // 4, 8),
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_another_tools_output_never_backs_a_runner_fio_cell(out_dir, valid_result, data):
    """Rule: the raw format is the one the cell's workload kind writes (fio's, for the fixture's
    seq-write and rand-read-4k cells); any other tool's output under it is refused at the raw
    reference's JSON Pointer, with tool.imported_from left out as a runner's result has it."""
    ok = [i for i, c in enumerate(valid_result["cells"]) if c["status"] == "ok"]
    i = data.draw(st.sampled_from(ok), label="cell")
    cell = valid_result["cells"][i]
    replaced = data.draw(st.sets(st.sampled_from(range(len(cell["raw"]))), min_size=1), label="repetitions")
    sample = data.draw(st.sampled_from(OTHER_TOOLS), label="other tool's output")
    originals = {k: edit_member(out_dir, RID, cell["raw"][k], lambda old: sample.read_bytes()) for k in replaced}
    try:
        errors = _errors(out_dir / "results" / f"{RID}.json")
        wrong = {int(e.split()[0].rsplit("/", 1)[1]) for e in errors
                 if e.startswith(f"/cells/{i}/raw/") and " under a cell of workload " in e}
        assert wrong == replaced, (sample.name, errors)
    finally:
        for k, old in originals.items():
            edit_member(out_dir, RID, cell["raw"][k], lambda _: old)


def _pts(value: float, scale: str) -> str:
    return f"""<Result><Identifier>pts/fio-2.1.0</Identifier>
 <Description>Type: Sequential Write - Engine: Linux AIO - Direct: Yes - Block Size: 1MB</Description>
 <Scale>{scale}</Scale><Proportion>HIB</Proportion><Data><Entry><Identifier>box</Identifier><Value>{value}</Value>
 <RawString>{value}</RawString></Entry></Data></Result>"""


def test_a_hand_written_pts_xml_backs_no_runner_fio_cell(out_dir, valid_result):
    """Issue #61's example: a runner's seq-write cell cut to throughput and IOPS, its members
    a PTS XML stating 9999 MB/s and 9999 IOPS, its samples alike: refused at each reference."""
    from fsatlas.results import stats
    cell = valid_result["cells"][0]
    cell["metrics"] = {name: stats.summarize([9999e6 if name == "throughput" else 9999.0] * len(cell["raw"]),
                                             m["unit"], m["better"])
                       for name, m in cell["metrics"].items() if name in ("throughput", "iops")}
    cell["flags"] = []
    xml = ("<?xml version=\"1.0\"?>\n<PhoronixTestSuite><Generated><TestClient>Phoronix Test Suite v10.8.4"
           "</TestClient></Generated><System><Identifier>box</Identifier><Hardware>Processor: X</Hardware>"
           "<Software>OS: Y, File-System: ext4</Software></System>" + _pts(9999.0, "MB/s") + _pts(9999.0, "IOPS")
           + "</PhoronixTestSuite>\n").encode()
    for reference in cell["raw"]:
        edit_member(out_dir, RID, reference, lambda _: xml)
    errors = _errors(write_json(out_dir / "results" / f"{RID}.json", valid_result))
    assert [e.split(":")[0] for e in errors] == [f"/cells/0/raw/{k} cannot recompute figures from {raw}"
                                                  for k, raw in enumerate(cell["raw"])], errors
    assert all("a Phoronix Test Suite result XML under a cell of workload 'seq-write'; expected the output of fio"
               in e for e in errors), errors


def _imported(tmp_path, tool, *samples):
    out = tmp_path / "imp"
    assert main(["import", tool, *map(str, samples), "--filesystem", "ext4",
                 "--out", str(out)]) == 0
    (path,) = (out / "results").iterdir()
    assert _errors(path) == []
    return out, path, json.loads(path.read_text())


def test_an_import_is_backed_by_its_tools_output_alone(tmp_path):
    """Rule, for an import: its tool's format. A real fio report under an IOzone import's cell is
    refused; and leaving tool.imported_from out of the import makes it a runner's result, whose
    cells (IOzone's "rewrite" is the matrix's fio workload of that name) no IOzone report backs."""
    out, path, result = _imported(tmp_path, "iozone", SAMPLES / "iozone" / "single-test-ssd-2009.txt")
    cell = next(c for c in result["cells"] if c["status"] == "ok")
    index = result["cells"].index(cell)
    old = edit_member(out, result["id"], cell["raw"][0],
                      lambda _: (SAMPLES / "fio" / "fio-3.33-json-plus.json").read_bytes())
    assert any(e.startswith(f"/cells/{index}/raw/0 ") and "expected the output of iozone" in e for e in _errors(path))
    edit_member(out, result["id"], cell["raw"][0], lambda _: old)
    del result["tool"]["imported_from"]
    write_json(path, result)
    errors = _errors(path)
    ok = [i for i, c in enumerate(result["cells"]) if c["status"] == "ok"]
    # refused at each cell: its members are outside a runner's folders (raw_place_problem), and
    # IOzone's report backs none of a runner's cells (the members moved into them: select)
    assert {i for i in ok if any(e.startswith(f"/cells/{i}/raw/0 expected a member of the folder of this cell's key")
                                 for e in errors)} == set(ok), errors
    from fsatlas.results import bundle
    members = bundle.read(str(out), result["id"])
    moved = {}
    for cell in result["cells"]:
        for k, reference in enumerate(cell["raw"]):
            name = f"{resultfile.raw_dir_name(cell['key'])}/rep-{k + 1}.txt"  # named as a runner names them
            moved[name] = members[bundle.member_of(result["id"], reference)]
            cell["raw"][k] = f"raw/{result['id']}/{name}"
    bundle.write(moved, bundle.path(str(out), result["id"]))
    errors = _errors(write_json(path, result))
    assert {i for i in ok if any(e.startswith(f"/cells/{i}/raw/0 ") and "IOzone's report under a cell" in e
                                 for e in errors)} == set(ok), errors


def test_a_fio_report_cut_down_to_the_figures_read_is_refused(out_dir, valid_result):
    """Issue #61's summary: {"fio version", jobs: [{job options, CPU, write: {bw_bytes, iops,
    lat_ns}}]} with the throughput doubled and the cell's figures alike: refused at each raw
    reference, naming the place in the report that lacks fio's counts."""
    cell = valid_result["cells"][0]
    for k, reference in enumerate(cell["raw"]):
        def cut(old):
            report = json.loads(old)
            job = report["jobs"][0]
            side = job["write"]
            return json.dumps({"fio version": report["fio version"], "jobs": [{
                "jobname": job["jobname"], "job options": job["job options"], "usr_cpu": job["usr_cpu"],
                "sys_cpu": job["sys_cpu"], "read": {"bw_bytes": 0, "iops": 0, "lat_ns": {"mean": 0}},
                "write": {"bw_bytes": side["bw_bytes"] * 2, "iops": side["iops"] * 2, "lat_ns": side["lat_ns"]}}]}).encode()
        edit_member(out_dir, RID, reference, cut)
    errors = _errors(out_dir / "results" / f"{RID}.json")
    for k in range(len(cell["raw"])):
        assert any(e.startswith(f"/cells/0/raw/{k} ") and "at /jobs/0/read/runtime: runtime is missing" in e
                   for e in errors), errors


def _reports():
    """Every real fio JSON report of the tests' fixtures: the samples and the fixture's raw."""
    from testutil import FIXTURES
    from fsatlas.results import bundle
    found = {f"{p.name}": p.read_text() for p in sorted((SAMPLES / "fio").rglob("*.json"))}
    for name, data in bundle.read(str(FIXTURES), RID).items():
        if name.endswith(".json"):
            found[name] = data.decode()
    return found


REPORTS = _reports()


def _sides(report: dict):
    """(pointer, side) of each direction with rates large enough that fio's rounding (1 unit)
    cannot hide a change by a half."""
    for name in ("jobs", "client_stats"):
        for i, job in enumerate(report.get(name) or []):
            for direction in fio.SIDES:
                side = job.get(direction)
                if isinstance(side, dict) and side.get("runtime") and min(
                        side.get(k, 100) for k in ("bw", "bw_bytes", "iops")) >= 100:
                    yield f"/{name}/{i}/{direction}", side


@pytest.mark.parametrize("name", sorted(REPORTS))
def test_every_real_fio_report_agrees_with_its_counts(name):
    """The rule's other half: fio's own reports, every version here, pass as they are."""
    fio.check_sides(fio.fio_json.parse(REPORTS[name], name), name, False)


@settings(max_examples=EXAMPLES)
@given(data=st.data())
def test_one_count_or_rate_of_a_real_report_changed_is_refused_at_its_side(data):
    """Rule: bw ~ 1000 x io_bytes / runtime and iops ~ 1000 x total_ios / runtime, to fio's
    rounding; a real report with one of those fields changed (scaled, removed, made a string) is
    refused, located at the direction of the job it changed."""
    name = data.draw(st.sampled_from(sorted(REPORTS)), label="report")
    report = fio.fio_json.parse(REPORTS[name], name)
    sides = list(_sides(report))
    if not sides:
        return
    pointer, side = data.draw(st.sampled_from(sides), label="side")
    # iops only where fio wrote the count it follows from: before 2.2 (no total_ios) a doubled iops is
    # the report of a block size half as large, which no field of that JSON states (check_sides)
    # bw beside bw_bytes and io_kbytes beside io_bytes: fio 3's integers of them (// 1024)
    key = data.draw(st.sampled_from([k for k in ("io_bytes", "runtime", "bw_bytes", "bw", "iops", "total_ios", "io_kbytes")
                                     if k in side and (k != "iops" or "total_ios" in side)
                                     and (k != "io_kbytes" or side[k] >= 100)]), label="field")
    twin = key in ("bw", "io_kbytes") and ("bw_bytes" in side or "io_bytes" in side)
    how = data.draw(st.sampled_from(["scale", "string"] if twin else ["scale", "remove", "string"]), label="how")
    if how == "scale":
        factor = data.draw(st.one_of(st.floats(1.5, 1000), st.floats(0.001, 0.6)), label="factor")
        side[key] = type(side[key])(side[key] * factor)
    elif how == "remove":
        del side[key]
    else:
        side[key] = str(side[key])
    with pytest.raises(UserError) as caught:
        fio.check_sides(report, name, False)
    assert caught.value.field.startswith(pointer + "/"), (caught.value.field, pointer)


def test_a_doubled_throughput_inside_a_real_report_is_refused(out_dir, valid_result):
    """Issue #61: bw_bytes and iops doubled in the runner's own report, the cell's samples alike."""
    cell = valid_result["cells"][0]

    def doubled(old):
        report = json.loads(old)
        report["jobs"][0]["write"]["bw_bytes"] *= 2
        report["jobs"][0]["write"]["iops"] *= 2
        return json.dumps(report).encode()
    edit_member(out_dir, RID, cell["raw"][0], doubled)
    errors = _errors(out_dir / "results" / f"{RID}.json")
    assert any(e.startswith("/cells/0/raw/0 ") and "at /jobs/0/write/bw_bytes" in e for e in errors), errors


def test_a_figure_too_large_for_a_float_or_json_too_deep_is_one_line(tmp_path, capsys):
    """A 400-digit bw_bytes, and a report nested 100,000 levels deep: `import` and `validate` say
    where in one line (exit 1), never a traceback."""
    report = json.loads((SAMPLES / "fio" / "fio-3.33-gtod-reduce.json").read_text())
    report["jobs"][0]["write"]["bw_bytes"] = int("9" * 400)
    huge = tmp_path / "huge.json"
    huge.write_text(json.dumps(report))
    deep = tmp_path / "deep.json"
    deep.write_text('{"jobs": ' + "[" * 100_000 + "]" * 100_000 + "}")
    for path, expected in ((huge, "/jobs/0/write/bw_bytes: an integer of 400 digits"), (deep, "JSON nested more than 64 levels deep")):
        code = main(["import", "fio", str(path), "--filesystem", "ext4", "--out", str(tmp_path / "o")])
        err = capsys.readouterr().err
        assert code == 1 and len(err.strip().splitlines()) == 1 and expected in err and str(path) in err, err


def test_a_runner_record_with_a_count_too_large_for_a_float_is_refused_not_raised(out_dir, valid_result):
    """validation's _runner_record compares a count with the bound, not float() of it."""
    cell = valid_result["cells"][0]
    edit_member(out_dir, RID, cell["raw"][0],
                lambda _: b'{"rate": "deliveries_per_s", "count": 1' + b"0" * 400 + b', "seconds": 1}')
    errors = _errors(out_dir / "results" / f"{RID}.json")
    assert any(e.startswith("/cells/0/raw/0 ") and "not the output of a tool" in e for e in errors), errors


SAMPLE_LISTS = st.lists(st.floats(1e-3, 1e12, allow_nan=False), min_size=1, max_size=12)


@settings(max_examples=EXAMPLES)
@given(samples=SAMPLE_LISTS, data=st.data())
def test_rsd_and_ci95_are_recomputed_from_the_samples(samples, data):
    """Rule (DESIGN.md): rsd_pct = 100 x stddev / |mean|, ci95 = mean -+ t(0.975, n-1) x
    stddev / sqrt(n), [mean, mean] for one sample. Checked against scipy.stats' own interval;
    either figure changed by more than the tolerance is refused at its place."""
    import math
    import statistics

    from scipy import stats as scipy_stats
    from fsatlas.results import stats
    from fsatlas.results.validation import metric_problems
    metric = stats.summarize(samples, "bytes/s", "higher")
    assert metric_problems("throughput", metric) == []
    mean = statistics.fmean(samples)
    if len(samples) > 1 and statistics.stdev(samples) > 0:
        low, high = scipy_stats.t.interval(0.95, len(samples) - 1, loc=mean,
                                           scale=statistics.stdev(samples) / math.sqrt(len(samples)))
        assert math.isclose(metric["ci95"][0], low, rel_tol=1e-9, abs_tol=1e-6)
        assert math.isclose(metric["ci95"][1], high, rel_tol=1e-9, abs_tol=1e-6)
    else:
        assert metric["ci95"] == [metric["mean"]] * 2
    field = data.draw(st.sampled_from(["rsd_pct", "ci95/0", "ci95/1"]), label="field")
    factor = data.draw(st.one_of(st.floats(1.001, 100), st.floats(0.01, 0.999)), label="factor")
    name, _, index = field.partition("/")
    old = metric[name][int(index)] if index else metric[name]
    new = old * factor if old else factor  # rsd 0 (one sample, or equal ones) becomes positive
    if index:
        metric[name][int(index)] = new
    else:
        metric[name] = new
    assert [where for _, where, _ in metric_problems("throughput", metric)] == [f"/{field}"]


def test_issue_61s_rsd_and_interval_are_refused(out_dir, valid_result):
    """Issue #61: rsd_pct 0.01 and ci95 [mean x 0.999, mean x 1.5] on every metric of a cell."""
    for metric in valid_result["cells"][0]["metrics"].values():
        metric["rsd_pct"], metric["ci95"] = 0.01, [metric["mean"] * 0.999, metric["mean"] * 1.5]
    path = write_json(out_dir / "results" / f"{RID}.json", valid_result)
    errors = _errors(path)
    for name in valid_result["cells"][0]["metrics"]:
        assert any(e.startswith(f"/cells/0/metrics/{name}/ci95/1 ") for e in errors), errors
        assert any(e.startswith(f"/cells/0/metrics/{name}/rsd_pct ") for e in errors), errors


@settings(max_examples=max(EXAMPLES // 4, 8),
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_raw_reference_is_its_own_repetitions_member_in_its_cells_folder(out_dir, valid_result, data):
    """Rule (item 4): a cell's raw references are unique, and each names a member in the folder
    its key names (resultfile.raw_dir_name, the runner's rule). Issue #61's examples: one member
    named three times (one measurement as n = 3), an xfs cell naming ext4's members, its figures
    copied along; here any repetition made another one's or another cell's, refused at it."""
    import copy
    valid_result = copy.deepcopy(valid_result)  # the fixture is the same object in every example
    ok = [i for i, c in enumerate(valid_result["cells"]) if c["status"] == "ok"]
    i = data.draw(st.sampled_from(ok), label="cell")
    cell = valid_result["cells"][i]
    other = valid_result["cells"][data.draw(st.sampled_from(ok), label="whose member")]
    k = data.draw(st.sampled_from(range(len(cell["raw"]))), label="repetition")
    m = data.draw(st.sampled_from(range(len(other["raw"]))), label="its repetition")
    if other is cell and m == k:
        return
    cell["raw"][k] = other["raw"][m]
    errors = _errors(write_json(out_dir / "results" / f"{RID}.json", valid_result))
    expected = "again" if other is cell else "expected a member of the folder of this cell's key"
    place = max(k, m) if other is cell else k
    assert any(e.startswith(f"/cells/{i}/raw/{place} ") and expected in e for e in errors), errors


def test_issue_61s_xfs_cell_on_ext4s_members_and_one_member_thrice(out_dir, valid_result):
    ext4, xfs = valid_result["cells"][0], dict(valid_result["cells"][0])
    xfs.update(key="xfs|-|-|seq-write", filesystem="xfs")
    valid_result["cells"][1] = xfs  # the fixture's xfs cell, its own members left unread
    errors = _errors(write_json(out_dir / "results" / f"{RID}.json", valid_result))
    for k in range(3):
        assert any(e.startswith(f"/cells/1/raw/{k} expected a member of the folder of this cell's key "
                                f"(xfs__-__-__seq-write/)") for e in errors), errors
    ext4["raw"] = [ext4["raw"][0]] * 3
    errors = _errors(write_json(out_dir / "results" / f"{RID}.json", valid_result))
    assert any(e.startswith("/cells/0/raw/1 expected each repetition's own raw file") for e in errors), errors
    assert any(e.startswith("/cells/0/raw/2 expected each repetition's own raw file") for e in errors), errors


def test_an_imports_members_are_its_input_files_at_the_top_of_the_bundle(tmp_path):
    """For an import the rule is import_._member's: input file n as NNN-name, at the top."""
    from fsatlas.results import bundle
    out, path, result = _imported(tmp_path, "fio", *sorted((SAMPLES / "fio" / "two-filesystems").glob("ext4-*.json")))
    members = bundle.read(str(out), result["id"])
    moved = {f"ext4__-__-__x/{name}": data for name, data in members.items()}
    bundle.write(moved, bundle.path(str(out), result["id"]))
    for cell in result["cells"]:
        cell["raw"] = [f"raw/{result['id']}/ext4__-__-__x/{r.rsplit('/', 1)[1]}" for r in cell["raw"]]
    errors = _errors(write_json(path, result))
    assert any(e.startswith("/cells/0/raw/0 expected an imported input file at the top of the bundle") for e in errors), errors


STANDARD = "20261127T143616Z-m-b6d0b06748-standard"  # a committed result with every kind the runner writes


def _sources(tmp_path):
    """(label, result, members) of every kind of source: a committed standard
    result (fio, dd and each of the runner's own records) and an import of each tool."""
    from fsatlas.results import bundle
    rid = STANDARD
    result = resultfile.readable(json.loads((RESULTS / f"{rid}.json").read_text()))
    out = [("runner", result, bundle.read(str(RESULTS.parent), rid))]
    for tool, sample in (("dd", "dd/dd-9.1-english.txt"), ("bonnie", "bonnie/bonnie-1.96-stdout.txt"),
                         ("iozone", "iozone/single-test-ssd-2009.txt"), ("fio", "fio/fio-3.33-json-plus.json"),
                         ("fio", "fio/fio-3.33-terse-v5.txt")):
        imported = tmp_path / sample.replace("/", "-")
        assert main(["import", tool, str(SAMPLES / sample), "--filesystem", "ext4", "--redact", "--out", str(imported)]) == 0
        data = resultfile.readable(json.loads(next((imported / "results").iterdir()).read_text()))
        out.append((sample, data, bundle.read(str(imported), data["id"])))
    return out


def test_every_metric_of_every_kind_of_cell_is_recomputed_from_its_raw(tmp_path):
    """Rule: every figure of every cell is recomputed from raw output in its source's format.
    For one measured cell of each workload of every kind of source, each metric it carries with
    one sample changed, and each CPU share added where it lacks one (dd's text holds none), is
    refused at that metric's JSON Pointer; the cell as written passes."""
    from fsatlas.results import metrics
    from fsatlas.results.validation import raw_problems, recorded_fio
    checked = set()
    for label, result, members in _sources(tmp_path):
        memo, seen, rid, imported_from = {}, set(), result["id"], result["tool"].get("imported_from")
        for cell in result["cells"]:
            if cell["status"] != "ok" or cell["workload"] in seen:
                continue
            seen.add(cell["workload"])
            assert raw_problems(cell, rid, members, memo, imported_from, recorded_fio(result)) == [], (label, cell["key"])
            for name in sorted(set(cell["metrics"]) | set(metrics.CPU)):
                changed = json.loads(json.dumps(cell))
                metric = changed["metrics"].setdefault(name, json.loads(json.dumps(next(iter(cell["metrics"].values())))))
                if name in cell["metrics"]:
                    metric["samples"][0] = metric["samples"][0] * 2 + 1
                refused = raw_problems(changed, rid, members, memo, imported_from, recorded_fio(result))
                assert any(where.startswith(f"/metrics/{name}") for _, where, _ in refused), (label, cell["key"], name)
                checked.add((label, name))
    assert {"throughput", "cpu_usr_pct"} <= {name for label, name in checked if label == "dd/dd-9.1-english.txt"}


def test_a_dd_cell_holding_only_cpu_shares_is_refused(out_dir):
    """Issue #61, third round: a dd cell whose figures are CPU shares alone (dd prints none)."""
    rid = STANDARD
    result = resultfile.readable(json.loads((RESULTS / f"{rid}.json").read_text()))
    index, cell = next((i, c) for i, c in enumerate(result["cells"])
                       if c["workload"] == "tiny-block-write" and c["status"] == "ok")
    throughput = cell["metrics"].pop("throughput")
    cell["metrics"]["cpu_usr_pct"] = {**throughput, "unit": "percent", "better": "lower"}
    (out_dir / "raw" / f"{rid}.tar.gz").write_bytes((RESULTS.parent / "raw" / f"{rid}.tar.gz").read_bytes())
    errors = _errors(write_json(out_dir / "results" / f"{rid}.json", result))
    assert any(e.startswith(f"/cells/{index}/metrics/cpu_usr_pct expected only figures") for e in errors), errors


VERSIONED = sorted(name for name, text in REPORTS.items() if '"clat_ns"' in text and '"fio version"' in text)


@settings(max_examples=EXAMPLES)
@given(data=st.data())
def test_a_report_stating_a_version_its_fields_contradict_is_refused(data):
    """Rule: the version a report states does not loosen its checks: a fio 3.x report (clat_ns,
    io_kbytes, bw_bytes) stating any version before the one that added its keys is refused at a
    key fio had not yet written (or at the version, before fio 1.0); as written, it passes."""
    name = data.draw(st.sampled_from(VERSIONED), label="report")
    report = fio.fio_json.parse(REPORTS[name], name)
    own = report["fio version"]
    major = data.draw(st.integers(0, 3), label="major")
    minor = data.draw(st.integers(0, 1 if major == 3 else 99), label="minor")
    report["fio version"] = f"fio-{major}.{minor}"
    if major < 3 or any("bw_bytes" in side for _, side in _sides(report)):
        with pytest.raises(UserError) as caught:
            fio.check_sides(report, name, False)
        assert caught.value.field.rsplit("/", 1)[1] in fio.FROM_3_0 + ("bw_bytes", "fio version"), caught.value.field
    report["fio version"] = own
    fio.check_sides(report, name, False)


@pytest.mark.parametrize("stated", ["fio-2.1", "fio-3.34", "fio-3.33-dirty"])
def test_a_raw_report_stating_another_version_than_the_result_records_is_refused(out_dir, valid_result, stated):
    """Issue #61, third round: rep-1.json edited to "fio version": "fio-2.1", total_ios deleted and
    iops doubled (the cell alike) while the result records tool.fio fio-3.33: refused at the raw
    reference, as is any version the result does not record."""
    assert valid_result["tool"]["fio"] == "fio-3.33"
    cell = valid_result["cells"][0]

    def older(old):
        report = json.loads(old)
        report["fio version"] = stated
        side = report["jobs"][0]["write"]
        del side["total_ios"]
        side["iops"] *= 2
        cell["metrics"]["iops"]["samples"][0] = side["iops"]
        return json.dumps(report).encode()
    edit_member(out_dir, RID, cell["raw"][0], older)
    errors = _errors(write_json(out_dir / "results" / f"{RID}.json", valid_result))
    assert any(e.startswith("/cells/0/raw/0 ") for e in errors), errors


ONE_SAMPLE = {"dd": "dd/dd-9.1-english.txt", "fio": "fio/fio-3.33-gtod-reduce.json",
              "bonnie": "bonnie/bonnie-1.96-stdout.txt", "iozone": "iozone/single-test-ssd-2009.txt"}


@settings(max_examples=max(EXAMPLES // 4, 8), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_workload_the_format_cannot_back_is_refused_at_the_option(tmp_path, capsys, data):
    """Rule: import --workload naming a standard workload whose kind the format's output cannot
    back (validation.kind_may_back) is refused at --workload in one line, never an import that
    fails validate ('please report it': issue 61, third round, import dd --workload seq-write)."""
    from fsatlas.results.validation import kind_may_back, workload_kinds
    tool = data.draw(st.sampled_from(sorted(ONE_SAMPLE)), label="format")
    workload = data.draw(st.sampled_from(sorted(workload_kinds())), label="workload")
    out = tmp_path / f"{tool}-{workload}"
    code = main(["import", tool, str(SAMPLES / ONE_SAMPLE[tool]), "--filesystem", "ext4", "--redact",
                 "--workload", workload, "--out", str(out)])
    err = capsys.readouterr().err
    assert "please report" not in err
    if not kind_may_back(tool, workload):
        assert code == 1 and "--workload" in err.splitlines()[-1] and err.count("\n") == 1, err


def test_import_dd_as_seq_write_is_refused_at_the_option(tmp_path, capsys):
    assert main(["import", "dd", str(SAMPLES / ONE_SAMPLE["dd"]), "--filesystem", "ext4", "--workload", "seq-write",
                 "--out", str(tmp_path / "o")]) == 1
    assert capsys.readouterr().err.startswith("fsatlas import: --workload: 'seq-write' is a workload the standard matrix runs with fio")


TERSE = sorted(p for p in (SAMPLES / "fio").iterdir() if "terse" in p.name)


@settings(max_examples=EXAMPLES)
@given(data=st.data())
def test_a_terse_figure_changed_is_named_by_its_line_and_field(data):
    """Rule: an error in a terse report names the file's line and the field in it (the line's
    fields numbered from 1, and which direction's figure it is), never a JSON Pointer into a
    text file (issue 61, third round: "/jobs/0/write/bw" for a terse input)."""
    from fsatlas.results import fio_terse
    sample = data.draw(st.sampled_from(TERSE), label="sample")
    lines = sample.read_text().splitlines()
    places = fio_terse.report("\n".join(lines), "x")[fio_terse.PLACES]
    line, fields = data.draw(st.sampled_from(places), label="job")
    direction, keys = data.draw(st.sampled_from(sorted(fields.items())), label="direction")
    values = lines[line - 1].split(";")
    if float(values[keys["runtime"] - 1]) == 0 or float(values[keys["bw"] - 1]) < 100:
        return  # no rate to contradict
    key = data.draw(st.sampled_from(["io_bytes", "bw", "runtime"]), label="figure")
    values[keys[key] - 1] = str(int(float(values[keys[key] - 1]) * 2 + 7))
    lines[line - 1] = ";".join(values)
    with pytest.raises(UserError) as caught:
        fio.parse("\n".join(lines), "in.txt")
    error = caught.value
    assert error.where == f"in.txt:{line}" and "/jobs/" not in str(error), str(error)
    number = int(error.field.split()[1])
    assert number in keys.values() and error.field.endswith(f"({direction} {next(k for k, n in keys.items() if n == number)})")
