"""Recomputation cannot be dodged: a raw member is read as the tool's output the cell names,
every metric of a cell must be one its raw file gives, and its parameters must be those the
raw file's measurement ran with. Each dodge an attacker tried (issue #42, 2b) is refused with
a located line; the unchanged files pass (the fixture, and an import of a public sample)."""
import json

from fsatlas.cli import main
from fsatlas.results.validation import reviewed, validate_file
from testutil import SAMPLES, edit_member, write_json

RID = "fixture-valid"


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
    assert any(e.startswith("/cells/0/metrics/throughput expected only figures") and "found throughput" in e
               for e in errors), errors
    assert not any(e.startswith("/cells/0/metrics/cpu_") for e in errors)  # fio's JSON would give them: not these
    assert not any(e.startswith("/cells/1") for e in errors)


def _imported(tmp_path, tool, sample):
    out = tmp_path / "imp"
    assert main(["import", tool, str(sample), "--filesystem", "ext4", "--machine", "importer", "--out", str(out)]) == 0
    (path,) = (out / "results").iterdir()
    assert _errors(path) == []  # as imported
    return out, path, json.loads(path.read_text())


def test_an_imported_dd_cell_whose_raw_is_a_runner_shape_is_refused(tmp_path):
    out, path, result = _imported(tmp_path, "dd", SAMPLES / "dd" / "dd-9.1-english.txt")
    cell = result["cells"][0]
    edit_member(out, result["id"], cell["raw"][0], lambda old: json.dumps(
        {name: m["samples"][0] for name, m in cell["metrics"].items()} | {"seconds": 1}).encode())
    errors = _errors(path)
    assert any("/cells/0/raw/0 cannot recompute" in e and "fsatlas's own raw files under an imported result" in e
               and "expected the output of dd" in e for e in errors), errors


def test_a_metric_the_raw_output_cannot_back_is_refused(tmp_path):
    out, path, result = _imported(tmp_path, "dd", SAMPLES / "dd" / "dd-9.1-english.txt")
    cell = result["cells"][0]
    cell["metrics"]["lat_p99_ns"] = {**cell["metrics"]["throughput"], "unit": "ns", "better": "lower"}
    write_json(path, result)
    errors = _errors(path)
    assert any(e.startswith("/cells/0/metrics/lat_p99_ns expected only figures") for e in errors), errors


def test_a_cpu_share_on_an_imported_fio_cell_is_refused_unless_fio_printed_it(tmp_path):
    """fio's JSON holds its CPU shares: a cell may carry them; BESIDE_RAW is for dd and the
    runner's own workloads only. A gtod_reduce job has no latency: one added is refused."""
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
