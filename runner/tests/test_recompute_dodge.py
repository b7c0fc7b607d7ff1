"""Recomputation cannot be dodged: a raw member is read as the tool's output the cell names,
every metric of a cell must be one its raw file gives, and its parameters must be those the
raw file's measurement ran with. Each dodge an attacker tried (issue #42, 2b) is refused with
a located line; the unchanged files pass (the fixture, and an import of a public sample)."""
import json
import os
import shutil

import pytest
from hypothesis import given, settings, strategies as st

from fsatlas.cli import main
from fsatlas.results import bundle, resultfile
from fsatlas.results.validation import reviewed, validate_file
from testutil import RESULTS, SAMPLES, edit_member, write_json

RID = "fixture-valid"
EXAMPLES = int(os.environ.get("FSATLAS_FUZZ_EXAMPLES", "40"))


def _errors(path) -> list[str]:
    return [f"{p.path} {p.message}" for p in reviewed(validate_file(str(path)), allow_all=True) if p.severity == "error"]


def _doubled(cell):
    for metric in cell["metrics"].values():
        metric["samples"] = [2 * s for s in metric["samples"]]
        for field in ("mean", "median", "stddev"):
            metric[field] *= 2
        metric["ci95"] = [2 * x for x in metric["ci95"]]


def test_a_fio_raw_replaced_by_a_runner_shape_backs_no_figure(out_dir, valid_result):
    cell = valid_result["cells"][0]
    _doubled(cell)
    path = write_json(out_dir / "results" / f"{RID}.json", valid_result)
    for reference in cell["raw"]:
        edit_member(out_dir, RID, reference, lambda old: b'{"seconds": 1}')
    errors = _errors(path)
    assert [e.split(":")[0] for e in errors] == [f"/cells/0/raw/{k} cannot recompute figures from {raw}"
                                                  for k, raw in enumerate(cell["raw"])], errors
    assert all("not the output of a tool fsatlas reads" in e for e in errors)


def _imported(tmp_path, tool, sample):
    out = tmp_path / "imp"
    assert main(["import", tool, str(sample), "--filesystem", "ext4", "--out", str(out)]) == 0
    (path,) = (out / "results").iterdir()
    assert _errors(path) == []  # as imported
    return out, path, json.loads(path.read_text())


def test_an_imported_dd_cell_whose_raw_is_a_runner_shape_is_refused(tmp_path):
    out, path, result = _imported(tmp_path, "dd", SAMPLES / "dd" / "dd-9.1-english.txt")
    cell = result["cells"][0]
    edit_member(out, result["id"], cell["raw"][0], lambda old: json.dumps(
        {name: m["samples"][0] for name, m in cell["metrics"].items()} | {"seconds": 1}).encode())
    errors = _errors(path)
    assert any("/cells/0/raw/0 cannot recompute" in e and "not the output of a tool fsatlas reads" in e
               for e in errors), errors


def test_a_metric_the_raw_output_cannot_back_is_refused(tmp_path):
    out, path, result = _imported(tmp_path, "dd", SAMPLES / "dd" / "dd-9.1-english.txt")
    cell = result["cells"][0]
    cell["metrics"]["lat_p99_ns"] = {**cell["metrics"]["throughput"], "unit": "ns", "better": "lower"}
    write_json(path, result)
    errors = _errors(path)
    assert any(e.startswith("/cells/0/metrics/lat_p99_ns expected only figures") for e in errors), errors


def test_a_cpu_share_on_an_imported_fio_cell_is_refused_unless_fio_printed_it(tmp_path):
    """fio's JSON holds its CPU shares: a cell may carry them, as the runner's own records hold
    theirs (dd's text holds none). A gtod_reduce job has no latency: one added is refused."""
    out, path, result = _imported(tmp_path, "fio", SAMPLES / "fio" / "fio-3.33-gtod-reduce.json")
    cell = next(c for c in result["cells"] if c["status"] == "ok")
    assert "lat_p99_ns" not in cell["metrics"]
    cell["metrics"]["lat_p99_ns"] = {**cell["metrics"]["throughput"], "unit": "ns", "better": "lower"}
    write_json(path, result)
    assert any("/metrics/lat_p99_ns expected only figures" in e for e in _errors(path))


def test_a_cell_whose_parameters_differ_from_its_one_measurement_is_refused(tmp_path):
    out, path, result = _imported(tmp_path, "iozone", SAMPLES / "iozone" / "single-test-ssd-2009.txt")
    index, cell = next((i, c) for i, c in enumerate(result["cells"]) if c["status"] == "ok")
    key = next(k for k in cell["parameters"] if isinstance(cell["parameters"][k], int))
    cell["parameters"][key] = cell["parameters"][key] * 2
    write_json(path, result)
    errors = _errors(path)
    assert any(e.startswith(f"/cells/{index}/raw/0 cannot recompute") and "other parameters than the cell names"
               and f"{key}=" in e for e in errors), errors


def test_a_fio_report_with_a_string_of_megabytes_is_refused_before_it_is_screened(tmp_path, out_dir, valid_result):
    """fio's JSON is bounded only by the member limit; its strings are screened one by one, so one
    string of 2 MB (a job name) is refused by its length instead."""
    import json as json_
    path = write_json(out_dir / "results" / f"{RID}.json", valid_result)
    reference = valid_result["cells"][0]["raw"][0]

    def long_name(old):
        report = json_.loads(old)
        report["jobs"][0]["jobname"] = "x" * 2_000_000
        return json_.dumps(report).encode()
    edit_member(out_dir, RID, reference, long_name)
    assert any(e.startswith("/cells/0/raw/0 cannot recompute") and "found one of 2,000,000" in e for e in _errors(path))


# A committed quick result: target.baseline holds the raw device's figures on four jobs, each
# from three fio reports in its bundle (baseline/<job>/rep-N.json).
QUICK = "20261123T203301Z-m-042018a7f3-quick"


@pytest.fixture
def quick(tmp_path):
    out = tmp_path / "data"
    for folder, name in (("results", f"{QUICK}.json"), ("raw", f"{QUICK}{bundle.SUFFIX}")):
        (out / folder).mkdir(parents=True)
        shutil.copy(RESULTS.parent / folder / name, out / folder / name)
    path = out / "results" / f"{QUICK}.json"
    assert _errors(path) == []
    return out, path, resultfile.readable(json.loads(path.read_text()))


def test_the_raw_device_s_figures_are_recomputed_from_its_reports(quick):
    """They decide each cell's cached flag and its share of the device: doubled, with no report
    to back them, a cached cell would pass for one the disk served."""
    out, path, result = quick
    throughput = result["target"]["baseline"]["seq-read"]["throughput"]
    throughput["samples"] = [2 * s for s in throughput["samples"]]
    for field in ("mean", "median", "stddev"):
        throughput[field] *= 2
    throughput["ci95"] = [2 * x for x in throughput["ci95"]]
    write_json(path, result)
    members = bundle.read(str(out), QUICK)
    expected = []
    for k in range(3):  # each report's read bw_bytes, as fio wrote it
        report = json.loads(members[f"baseline/seq-read/rep-{k + 1}.json"])
        found = report["jobs"][0]["read"]["bw_bytes"]
        expected.append(f"/target/baseline/seq-read/throughput/samples/{k} expected {found:.6g} recomputed from "
                        f"raw/{QUICK}/baseline/seq-read/rep-{k + 1}.json, found {2 * found:.6g}")
    assert _errors(path) == expected


def test_a_baseline_report_replaced_or_missing_is_refused_at_its_job(quick):
    out, path, _ = quick
    edit_member(out, QUICK, f"raw/{QUICK}/baseline/seq-read/rep-2.json",
                lambda old: b'{"phase": "mkfs", "mkfs": [], "seconds": 1}')
    members = bundle.read(str(out), QUICK)
    del members["baseline/rand-write-4k/rep-3.json"]
    bundle.write(members, bundle.path(str(out), QUICK))
    assert _errors(path) == [
        f"/target/baseline/rand-write-4k expected the raw device's figures recomputed from fio's report "
        f"baseline/rand-write-4k/rep-3.json in raw/{QUICK}.tar.gz, found no such member",
        f"/target/baseline/seq-read expected fio's JSON report of the raw device's job in "
        f"raw/{QUICK}/baseline/seq-read/rep-2.json, found the output of another tool or one of fsatlas's own raw files"]


def test_a_member_no_check_reads_is_not_published(quick):
    """Bytes no figure comes from were published unread, however private: every member is a
    measured cell's raw output or the raw device's."""
    out, path, _ = quick
    members = bundle.read(str(out), QUICK)
    members["notes/ssh-config.txt"] = b"Host box\n  User alice\n"
    members["baseline/fill.json"] = b"dd: copied by alice@example.org\n"  # the fill record: read as fio's report
    bundle.write(members, bundle.path(str(out), QUICK))
    errors = _errors(path)
    assert errors == [
        f"/target/baseline expected fio's JSON report of the raw device's job in raw/{QUICK}/baseline/fill.json, found "
        "not the output of a tool fsatlas reads (fio JSON, bonnie++, IOzone, dd) nor one of fsatlas's own raw files",
        f" expected every member of raw/{QUICK}.tar.gz to be read before it is published (a measured cell's raw "
        "output, or the raw device's baseline reports), found 1 that none reads: 'notes/ssh-config.txt'"]
    private = [f"{p.path} {p.message}" for p in validate_file(str(path)) if p.message.startswith("private")]
    assert private == [f"/target/baseline private: raw/{QUICK}/baseline/fill.json: line 1 looks like an e-mail "
                       "address ('alice@example.org'); raw output is published"]
    assert main(["validate", str(path)]) == 1


def test_a_baseline_job_is_named_as_a_cell_s_job(quick):
    """Its name becomes a folder of the bundle and a JSON Pointer in every message: a workload,
    or workload|dimensions, of at most 300 characters, as a cell's key is bounded."""
    out, path, result = quick
    figures = result["target"]["baseline"]["seq-read"]
    result["target"]["baseline"].update({"x" * 301: figures, "../../etc": figures})
    write_json(path, result)
    assert _errors(path) == [
        "/target/baseline expected a name of at most 300 characters, found 301",
        '/target/baseline expected a name matching ^[a-z0-9][a-z0-9-]*(\\|[A-Za-z0-9_.,:=+^/@%|-]+)?$, found "../../etc"']


def _stubbed(out_dir, result, index, stub):
    """Cell index of the fixture with its throughput doubled, every other figure but the CPU
    shares dropped, and each repetition's raw member replaced by stub(the doubled throughput)."""
    cell = result["cells"][index]
    cell["metrics"] = {k: m for k, m in cell["metrics"].items() if k in ("throughput", "cpu_usr_pct", "cpu_sys_pct")}
    _doubled({"metrics": {"throughput": cell["metrics"]["throughput"]}})
    path = write_json(out_dir / "results" / f"{RID}.json", result)
    for reference, sample in zip(cell["raw"], cell["metrics"]["throughput"]["samples"]):
        edit_member(out_dir, RID, reference, lambda old, s=sample: json.dumps(stub(s)).encode())
    return path


@pytest.mark.parametrize("stub", [
    lambda s: {"rate": "throughput", "count": s, "seconds": 1},  # issue #61's stub
    lambda s: {"rate": "throughput", "count": 2 * s, "seconds": 2, "cpu": {}},
    lambda s: {"rate": "deliveries_per_s", "count": s, "seconds": 1},  # a durability record's own rate
    lambda s: {"files": s, "seconds": {"create": 1}},  # the small-files record
    lambda s: {"tree": {}, "seconds": 1, "bytes_used": s},  # the tree-copy record
    lambda s: {"phase": "mkfs", "mkfs": [], "seconds": 1},  # the lifecycle record
])
def test_a_runner_record_backs_no_fio_cell_whatever_the_result_declares(out_dir, valid_result, stub):
    """Issue #61: the result leaves tool.imported_from out, as a runner result does; which raw
    shape may back a cell is the cell's workload's kind in the project's matrix (seq-write: fio),
    not any field of the file."""
    assert "imported_from" not in valid_result["tool"]
    path = _stubbed(out_dir, valid_result, 0, stub)
    errors = _errors(path)
    assert errors and all(e.startswith("/cells/0/") for e in errors), errors
    assert any(e.startswith("/cells/0/raw/0 cannot recompute") for e in errors), errors


def test_a_runner_record_backs_only_a_cell_of_the_workload_it_is_written_for(quick):
    """Beside the named example: mail-delivery's record under the sqlite-commits cell (both
    durability records, one shape), and a small-files record under create-files (one kind: passes)."""
    out, path, result = quick
    cells = {c["workload"]: (i, c) for i, c in enumerate(result["cells"]) if c["status"] == "ok"}
    i, small = cells["small-files"]
    j, create = cells["create-files"]
    members = bundle.read(str(out), QUICK)
    for rep, raw in enumerate(create["raw"]):  # create-files' own record: kind smallfiles, as small-files
        assert json.loads(members[bundle.member_of(QUICK, raw)])["seconds"].keys() == {"create"}
    small["workload"] = "mail-delivery"
    write_json(path, result)
    errors = _errors(path)
    assert errors and all(e.startswith(f"/cells/{i}/") for e in errors), errors
    assert any(f"/cells/{i}/raw/0 cannot recompute" in e and "small-files" in e for e in errors), errors


@pytest.mark.parametrize("summary", [
    "{n} bytes (1 GB, 1 GiB) copied, 1 s, 1 GB/s",  # dd's summary line alone
    "16+0 records in\n16+0 records out\n{n} bytes (1 GB, 1 GiB) copied, 1 s, 1 GB/s",  # dd's whole output
    '{{"seconds": 1, "bytes_used": {n}}}',  # a JSON document with a summary's figures
])
def test_dd_s_summary_backs_no_fio_cell(out_dir, valid_result, summary):
    """A summary (bytes over seconds) is no fio job's report: under seq-write (kind fio in the
    matrix) it is refused, whole dd output or line alone."""
    path = _stubbed(out_dir, valid_result, 0, lambda s: None)
    for reference, sample in zip(valid_result["cells"][0]["raw"],
                                 valid_result["cells"][0]["metrics"]["throughput"]["samples"]):
        edit_member(out_dir, RID, reference, lambda old, s=sample: summary.format(n=int(s)).encode())
    errors = _errors(path)
    assert errors and all(e.startswith("/cells/0/") for e in errors), errors
    assert any(e.startswith("/cells/0/raw/0 cannot recompute") for e in errors), errors


def test_an_iozone_import_under_a_workload_name_validates(tmp_path):
    """--workload x makes "x-rewrite" and "x-record-rewrite": each cell is its own test's, the
    longest name its workload ends with (the public sample imported so was refused by validate:
    two measurements of "rewrite" matched x-record-rewrite)."""
    out = tmp_path / "imp"
    assert main(["import", "iozone", str(SAMPLES / "iozone" / "auto-mode-ramdisk-2010.txt"), "--filesystem", "ext4",
                 "--workload", "x", "--redact", "--out", str(out)]) == 0
    (path,) = (out / "results").iterdir()
    workloads = {c["workload"] for c in json.loads(path.read_text())["cells"]}
    assert {"x-rewrite", "x-record-rewrite"} <= workloads
    assert _errors(path) == []


@settings(max_examples=EXAMPLES)
@given(st.lists(st.tuples(st.sampled_from(["read", "rewrite", "record-rewrite", "seq-read"]),
                          st.dictionaries(st.sampled_from(["a", "b", "too_fast_to_measure"]), st.integers(0, 2), max_size=3)),
                max_size=12),
       st.sampled_from(["read", "x-rewrite", "x-record-rewrite", "y-read", "seq-read", "z"]),
       st.dictionaries(st.sampled_from(["a", "b", "c", "too_fast_to_measure"]), st.integers(0, 2), max_size=3),
       st.booleans())
def test_the_indexed_lookup_finds_what_a_scan_finds(measured, workload, parameters, by_workload):
    """Differential: validation.Found's index against a scan of every measurement (the rule as
    select() states it), on measurements and cells none of which was chosen by hand."""
    from fsatlas.results.importers.measurement import Measurement
    from fsatlas.results import validation
    found = [Measurement(w, p, {}, {}) for w, p in measured]
    cell = {"workload": workload, "parameters": parameters}
    scan = found
    if by_workload:
        ends = [m.workload for m in found if workload.endswith("-" + m.workload)]
        scan = [m for m in found if m.workload == workload] or \
            [m for m in found if ends and m.workload == max(ends, key=len)]
    if len(scan) > 1:
        scan = [m for m in scan if not any(k in parameters and k not in validation.NOTES and str(parameters[k]) != str(v)
                                           for k, v in m.parameters.items())]
    assert validation.Found(found).matching(cell, by_workload) == scan


def test_the_indexed_lookup_compares_sizes_in_one_spelling_as_a_scan_does():
    """The index (a cell naming every parameter compared) spells sizes as _differing does: the
    matrix's size=256k is the fio importer's 256K, whichever path the lookup takes."""
    from fsatlas.results.importers.measurement import Measurement
    from fsatlas.results import validation
    found = [Measurement("w", {"rw": "read", "size": s}, {}, {}) for s in ("256K", "1M")]
    for parameters in ({"rw": "read", "size": "256k"}, {"size": "256k"}, {"size": "262144"}):
        assert validation.Found(found).matching({"workload": "w", "parameters": parameters}, False) == found[:1]


def test_a_runner_record_with_other_parameters_than_its_cell_is_refused(quick):
    """Beside issue #61's example: the small-files record under its own workload, its file count
    doubled (so every rate is) and the cell's figures doubled to match: the count is the cell's
    files parameter, which the record must have run with."""
    out, path, result = quick
    i, cell = next((i, c) for i, c in enumerate(result["cells"]) if c["workload"] == "small-files" and c["status"] == "ok")
    for reference in cell["raw"]:
        edit_member(out, QUICK, reference, lambda old: json.dumps({**json.loads(old), "files": 2 * json.loads(old)["files"]}).encode())
    _doubled({"metrics": {k: m for k, m in cell["metrics"].items() if k.endswith("_per_s")}})
    write_json(path, result)
    errors = _errors(path)
    assert errors and all(e.startswith(f"/cells/{i}/") for e in errors), errors
    assert any(e.startswith(f"/cells/{i}/raw/0 cannot recompute") and "other parameters" in e
               and f"files={2 * cell['parameters']['files']}" in e for e in errors), errors


def test_a_tool_s_output_backs_no_cell_of_a_workload_the_runner_records_itself(out_dir, valid_result):
    """The other side: fio's report (recomputed, parameters and all) under a cell renamed
    mail-delivery, which the matrix measures with the runner's own record only."""
    valid_result["cells"][0]["workload"] = "mail-delivery"
    path = write_json(out_dir / "results" / f"{RID}.json", valid_result)
    errors = _errors(path)
    assert errors and all(e.startswith("/cells/0/") for e in errors), errors
    assert any(e.startswith("/cells/0/raw/0 cannot recompute") and "fio's output under a cell of workload "
               "'mail-delivery', which the matrix runs with maildelivery" in e for e in errors), errors
