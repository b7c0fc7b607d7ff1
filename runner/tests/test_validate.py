"""The schema and the validator: a valid file passes, each broken one fails naming its field."""
import json

import pytest

from testutil import mutated, write_json
from fsatlas.cli import main
from fsatlas.validation import validate_file


def test_valid_fixture_passes(out_dir, capsys):
    assert main(["validate", str(out_dir / "results")]) == 0
    assert "0 errors" in capsys.readouterr().out


def _set(path, value):
    def change(data):
        target = data
        for part in path[:-1]:
            target = target[part]
        target[path[-1]] = value
    return change


def _delete(path):
    def change(data):
        target = data
        for part in path[:-1]:
            target = target[part]
        del target[path[-1]]
    return change


BROKEN = [
    ("missing system", _delete(["system"]), "/system"),
    ("wrong schema version", _set(["schema_version"], 2), "/schema_version"),
    ("bad id characters", _set(["id"], "a b"), "/id"),
    ("id differs from file name", _set(["id"], "other-id"), "/id"),
    ("created not UTC ISO", _set(["created"], "yesterday"), "/created"),
    ("created in the future", _set(["created"], "2999-01-01T00:00:00Z"), "/created"),
    ("unknown target kind", _set(["target", "kind"], "tape"), "/target/kind"),
    ("cpu_count not an integer", _set(["system", "cpu_count"], "two"), "/system/cpu_count"),
    ("unknown status", _set(["cells", 0, "status"], "great"), "/cells/0/status"),
    ("skipped cell without reason", _delete(["cells", 2, "reason"]), "/cells/2/reason"),
    ("unknown unit", _set(["cells", 0, "metrics", "throughput", "unit"], "MiB/s"),
     "/cells/0/metrics/throughput/unit"),
    ("wrong unit for the metric", _set(["cells", 0, "metrics", "throughput", "unit"], "ops/s"),
     "/cells/0/metrics/throughput/unit"),
    ("negative stddev", _set(["cells", 0, "metrics", "throughput", "stddev"], -1),
     "/cells/0/metrics/throughput/stddev"),
    ("mean not from the samples", _set(["cells", 0, "metrics", "throughput", "mean"], 1.0),
     "/cells/0/metrics/throughput/mean"),
    ("negative sample", _set(["cells", 0, "metrics", "iops", "samples"], [-1.0, 2.0, 3.0]),
     "/cells/0/metrics/iops/samples/0"),
    ("raw file missing", _set(["cells", 0, "raw", 0], "raw/fixture-valid/nothing/rep-1.json"),
     "/cells/0/raw/0"),
    ("duplicate key", _set(["cells", 1, "key"], "ext4|-|-|seq-write"), "/cells/1/key"),
    ("ok cell without metrics", _set(["cells", 0, "metrics"], {}), "/cells/0/metrics"),
]


@pytest.mark.parametrize("name,change,path", BROKEN, ids=[b[0] for b in BROKEN])
def test_broken_file_fails_naming_the_field(out_dir, valid_result, name, change, path, capsys):
    file = write_json(out_dir / "results" / "fixture-valid.json", mutated(valid_result, change))
    problems = [p for p in validate_file(str(file)) if p.severity == "error"]
    assert problems, name
    assert any(p.path == path for p in problems), [str(p) for p in problems]
    assert main(["validate", str(file)]) == 1
    err = capsys.readouterr().err
    assert str(file) in err and path in err


def test_malformed_json_reports_line_and_column(tmp_path, capsys):
    file = tmp_path / "results" / "bad.json"
    file.parent.mkdir()
    file.write_text('{\n  "id": "bad",\n  "cells": [1, 2,,]\n}\n')
    assert main(["validate", str(file)]) == 1
    err = capsys.readouterr().err
    assert "line 3, column" in err and str(file) in err


def test_nan_is_rejected(out_dir, valid_result, capsys):
    file = out_dir / "results" / "fixture-valid.json"
    text = json.dumps(valid_result).replace('"mean": ', '"mean": NaN, "x": ', 1)
    file.write_text(text)
    assert main(["validate", str(file)]) == 1
    assert "NaN" in capsys.readouterr().err


def test_missing_file_is_a_clear_error(tmp_path, capsys):
    assert main(["validate", str(tmp_path / "nope.json")]) == 1
    assert "nope.json" in capsys.readouterr().err


@pytest.mark.parametrize("field,value,what", [
    ("notes", "ran on box 00:1a:2b:3c:4d:5e", "MAC"),
    ("notes", "server at 192.168.10.7", "IPv4"),
    ("submitter", "alice@build01.example.com", "host name"),
    ("notes", "fio files in /home/alice/bench", "home folder"),
    ("notes", "disk serial: WD-WCC4E1234567", "serial"),
])
def test_privacy_findings_are_warnings_naming_the_field(out_dir, valid_result, capsys, field, value, what):
    valid_result[field] = value
    file = write_json(out_dir / "results" / "fixture-valid.json", valid_result)
    assert main(["validate", str(file)]) == 0  # a warning does not block
    out = capsys.readouterr().out
    assert f"warning: /{field}:" in out and what in out and "published" in out


def test_versions_and_kernels_are_not_mistaken_for_addresses(out_dir, valid_result, capsys):
    valid_result["notes"] = "kernel 6.18.44-fc-v669, e2fsprogs 1.47.0, fio-3.33, ext4 on /dev/loop0"
    file = write_json(out_dir / "results" / "fixture-valid.json", valid_result)
    assert main(["validate", str(file)]) == 0
    assert "warning" not in capsys.readouterr().out.replace("0 warnings", "")


def test_samples_must_match_their_raw_fio_output(out_dir, valid_result, capsys):
    from fsatlas import stats
    cell = valid_result["cells"][0]
    samples = list(cell["metrics"]["throughput"]["samples"])
    samples[1] *= 1.5  # a summary that the raw output does not support, though consistent in itself
    cell["metrics"]["throughput"] = stats.summarize(samples, "bytes/s", "higher")
    file = write_json(out_dir / "results" / "fixture-valid.json", valid_result)
    assert main(["validate", str(file)]) == 1
    err = capsys.readouterr().err
    assert "/cells/0/metrics/throughput/samples/1" in err and "recomputed from raw/" in err


def test_ids_are_unique_across_folders(out_dir, tmp_path, capsys):
    import shutil
    other = tmp_path / "elsewhere" / "results"
    shutil.copytree(out_dir / "results", other)
    assert main(["validate", str(out_dir / "results"), str(other)]) == 1
    assert "no other result file has" in capsys.readouterr().err


def test_validating_on_every_core_prints_no_traceback(tmp_path):
    """The pool's workers, terminated when the checks are done, end without a word (they
    printed the KeyboardInterrupt of fsatlas's SIGTERM handler in 6 runs out of 15)."""
    import subprocess
    import sys

    from sitebuild import synthetic_results
    from fsatlas import cores
    synthetic_results(tmp_path / "data", cores.PARALLEL_FROM * 2)
    for run in range(5):
        work = tmp_path / f"run{run}"  # a fresh outcome cache: every file checked again
        work.mkdir()
        done = subprocess.run([sys.executable, "-m", "fsatlas.cli", "validate", str(tmp_path / "data" / "results")],
                              cwd=work, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
