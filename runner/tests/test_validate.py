"""The schema and the validator: a valid file passes, each broken one fails naming its field."""
import functools
import json
import os
import re
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from testutil import as_result, edit_member, mutated, setting, write_json
from fsatlas.cli import main
from fsatlas.results import validation
from fsatlas.results.validation import validate_file


def test_valid_fixture_passes(out_dir, capsys):
    assert main(["validate", str(out_dir / "results")]) == 0
    assert capsys.readouterr().out.strip() == "1 file checked: no problems"


def _delete(path):
    def change(data):
        target = data
        for part in path[:-1]:
            target = target[part]
        del target[path[-1]]
    return change


BROKEN = [
    ("missing system", _delete(["system"]), "/system"),
    ("wrong schema version", setting(["schema_version"], 3), "/schema_version"),
    ("bad id characters", setting(["id"], "a b"), "/id"),
    ("id differs from file name", setting(["id"], "other-id"), "/id"),
    ("created not UTC ISO", setting(["created"], "yesterday"), "/created"),
    ("created in the future", setting(["created"], "2999-01-01T00:00:00Z"), "/created"),
    ("unknown target kind", setting(["target", "kind"], "tape"), "/target/kind"),
    ("cpu_count not an integer", setting(["system", "cpu_count"], "two"), "/system/cpu_count"),
    ("unknown status", setting(["cells", 0, "status"], "great"), "/cells/0/status"),
    ("skipped cell without reason", _delete(["cells", 2, "reason"]), "/cells/2/reason"),
    ("unknown unit", setting(["cells", 0, "metrics", "throughput", "unit"], "MiB/s"),
     "/cells/0/metrics/throughput/unit"),
    ("wrong unit for the metric", setting(["cells", 0, "metrics", "throughput", "unit"], "ops/s"),
     "/cells/0/metrics/throughput/unit"),
    ("negative stddev", setting(["cells", 0, "metrics", "throughput", "stddev"], -1),
     "/cells/0/metrics/throughput/stddev"),
    ("mean not from the samples", setting(["cells", 0, "metrics", "throughput", "mean"], 1.0),
     "/cells/0/metrics/throughput/mean"),
    ("negative sample", setting(["cells", 0, "metrics", "iops", "samples"], [-1.0, 2.0, 3.0]),
     "/cells/0/metrics/iops/samples/0"),
    ("raw file missing", setting(["cells", 0, "raw", 0], "raw/fixture-valid/nothing/rep-1.json"),
     "/cells/0/raw/0"),
    ("duplicate key", setting(["cells", 1, "key"], "ext4|-|-|seq-write"), "/cells/1/key"),
    ("ok cell without metrics", setting(["cells", 0, "metrics"], {}), "/cells/0/metrics"),
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


# Realistic positives: what contributors' own files were seen to carry.
PRIVATE = [
    ("notes", "ran on box 00:1a:2b:3c:4d:5e", "MAC"),
    ("notes", "server at 192.168.10.7", "IPv4"),
    ("notes", "NFS server fe80::21a:2bff:fe3c:4d5e", "IPv6"),
    ("submitter", "alice@build01.example.com", "e-mail"),
    ("submitter", "Jo Bloggs <jo.bloggs@uni-example.ac.uk>", "e-mail"),
    ("notes", "ran on db-07.storage.example.cloud", "host name"),
    ("notes", "measured on nas.lan", "host name"),
    ("notes", "fio files in /home/alice/bench", "home folder"),
    ("notes", "fio files in /h\u200bome/alice/bench", "home folder"),  # split by a zero-width space
    ("/target/device_model", "Samsung SSD 970 EVO S5SUNG0N123456Z", "serial"),
    ("notes", "copied from C:\\Users\\bob\\Desktop", "home folder"),
    ("notes", "run as user=carol", "user name"),
    ("notes", "disk serial: WD-WCC4E1234567", "serial"),
    ("notes", "disk S4EWNX0N123456A, firmware 2B2QEXM7", "serial"),
    ("/system/machine", "alice-laptop", "personal machine"),
    ("notes", "on bobs_macbook_pro", "personal machine"),
]
# Realistic negatives: what honest files hold and must pass.
NOT_PRIVATE = [
    "kernel 6.18.44-fc-v669, e2fsprogs 1.47.0, fio-3.33, ext4 on /dev/loop0",
    "Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz; AMD EPYC 7B13 64-Core Processor",
    "raw output in rep-1.json, job file seq-write.fio, image ext4.img, script run.sh",
    "started Mon Nov 23 20:33:01 2026, tested on my laptop",
    "mkfs -E stride=16,stripe-width=64; mount -o data=journal,commit=60",
    "Debian GNU/Linux 12 (bookworm), QEMU HARDDISK, machine m-042018a7f3",
    "fio directory .scratch/fsatlas-30092-pc_0uq6x4/mnt/rep-1",  # a temporary folder's name
    "scratch was /root/fsatlas/.scratch",  # root is no person
]


def _place(data, field, value):
    if field.startswith("/"):
        parts = field.strip("/").split("/")
        setting(parts, value)(data)
        return field
    data[field] = value
    return "/" + field


@pytest.mark.parametrize("field,value,what", PRIVATE)
def test_what_looks_private_is_refused_naming_the_field(out_dir, valid_result, capsys, field, value, what):
    where = _place(valid_result, field, value)
    file = write_json(out_dir / "results" / "fixture-valid.json", valid_result)
    assert main(["validate", str(file)]) == 1
    err = capsys.readouterr().err
    assert f"error: {where}: private: " in err and what in err and "published" in err
    assert main(["validate", "--allow-private", str(file)]) == 0  # a maintainer who checked it
    assert f"warning: {where}: private: " in capsys.readouterr().out


def test_a_reviewed_finding_is_a_warning(out_dir, valid_result, capsys):
    valid_result["notes"] = "measured on nas.lan"
    file = write_json(out_dir / "results" / "fixture-valid.json", valid_result)
    (out_dir / "privacy-reviewed.txt").write_text("# checked by a maintainer\nfixture-valid /notes\n")
    assert main(["validate", str(file)]) == 0
    assert "(reviewed)" in capsys.readouterr().out


@pytest.mark.parametrize("text", NOT_PRIVATE)
def test_versions_kernels_and_files_are_not_mistaken_for_private_names(out_dir, valid_result, capsys, text):
    valid_result["notes"] = text
    file = write_json(out_dir / "results" / "fixture-valid.json", valid_result)
    assert main(["validate", str(file)]) == 0
    assert "private" not in capsys.readouterr().out


def test_raw_output_is_searched_too(out_dir, capsys):
    def private(text):
        report = json.loads(text)
        report["global options"]["directory"] = "/home/alice/fsatlas/.scratch/rep-2"
        return json.dumps(report).encode()
    edit_member(out_dir, "fixture-valid", "raw/fixture-valid/ext4__-__-__seq-write/rep-2.json", private)
    assert main(["validate", str(out_dir / "results")]) == 1
    err = capsys.readouterr().err
    assert "/cells/0/raw/1: private: raw/fixture-valid/ext4__-__-__seq-write/rep-2.json" in err
    assert "/global options/directory" in err and "/home/alice" in err


def test_samples_must_match_their_raw_fio_output(out_dir, valid_result, capsys):
    from fsatlas.results import stats
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
    from fsatlas.results import parallel
    synthetic_results(tmp_path / "data", parallel.PARALLEL_FROM * 2)
    for run in range(5):
        work = tmp_path / f"run{run}"  # a fresh outcome cache: every file checked again
        work.mkdir()
        done = subprocess.run([sys.executable, "-m", "fsatlas.cli", "validate", str(tmp_path / "data" / "results")],
                              cwd=work, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]


def test_one_label_on_two_machines_is_a_warning(out_dir, valid_result, capsys):
    """Cloned machines share /etc/machine-id: the committed Xeon and EPYC results had one label."""
    as_result(out_dir, dict(valid_result, system=dict(valid_result["system"], cpu_model="AMD EPYC 7B13")), "fixture-other")
    assert main(["validate", str(out_dir / "results")]) == 0  # a warning does not block
    out = capsys.readouterr().out
    assert "warning: /system/machine: the label" in out and "AMD EPYC 7B13" in out
    assert valid_result["system"]["cpu_model"] in out


def test_the_default_machine_label_hashes_the_hardware_too(monkeypatch):
    from fsatlas.run import system
    first = system.default_machine_label()
    monkeypatch.setattr(system, "collect_cpu", lambda: ("Another CPU", 2))
    assert system.default_machine_label() != first and first.startswith("m-")


def _collector_state(_batch) -> tuple:
    import gc
    return gc.isenabled(), gc.get_threshold()[0]


def test_workers_collect_garbage_and_the_parent_is_as_it_was_after_the_pool():
    """The parent's collector is off and its objects frozen while the pool runs (parallel):
    each worker's is on (with a higher first threshold), and the parent's is as before after."""
    import gc
    from fsatlas.results import parallel
    before = gc.isenabled(), gc.get_threshold(), gc.get_freeze_count()
    items = list(range(parallel.PARALLEL_FROM * 2))
    done = list(parallel.map_batches(_collector_state, items))
    assert [item for batch, _ in done for item in batch] == items  # every item, in order, once
    assert {state for _, state in done} == {(True, parallel.WORKER_GC_THRESHOLD)}
    assert (gc.isenabled(), gc.get_threshold(), gc.get_freeze_count()) == before


def test_signatures_taken_on_every_core_are_those_taken_one_by_one(tmp_path, monkeypatch):
    """filesig.signatures hashes on threads: the same [size, digest] as signature, in order,
    None for a file gone or a link; and each remembered for the next signature()."""
    from fsatlas.results import filesig
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(filesig, "_memo", None)
    paths = []
    for i in range(3 * filesig.CHUNK):
        path = tmp_path / f"f{i}"
        path.write_bytes(bytes([i % 256]) * (i * 37))
        paths.append(str(path))
    (tmp_path / "link").symlink_to(paths[0])
    paths[5:5] = [str(tmp_path / "gone"), str(tmp_path / "link")]
    import hashlib
    expected = [None if p.endswith(("gone", "link")) else
                [os.path.getsize(p), hashlib.sha256(open(p, "rb").read()).hexdigest()[:16]] for p in paths]
    assert filesig.signatures(paths) == expected
    monkeypatch.setattr(hashlib, "file_digest", None)  # a memo hit reads nothing
    assert [filesig.signature(p) for p in paths] == expected


def test_a_batch_hands_on_each_files_value_before_it_checks_the_next(out_dir):
    """What then makes of a file is taken by gather before the next file is read, so a worker
    holds one file's document and value at a time, not a batch's (aggregate folds each digest so);
    a gather that takes none leaves every file checked all the same."""
    path = str(out_dir / "results" / "fixture-valid.json")
    events = []

    def then(p, extra, raw, data, signature):
        events.append(("made", extra))
        return extra

    def gather(values):
        for _, _, value in values:
            events.append(("taken", value))
        return "gathered"
    batch = [(path, True, True, k) for k in range(3)]
    done, gathered, _ = validation._check_batch(None, False, then, gather, batch)
    assert events == [("made", 0), ("taken", 0), ("made", 1), ("taken", 1), ("made", 2), ("taken", 2)]
    assert gathered == "gathered"
    assert len(done) == 3 and all(not [p for p in found if p.severity == "error"] for found, *_ in done)
    events.clear()
    done, gathered, _ = validation._check_batch(None, False, then, lambda values: None, batch)
    assert gathered is None and len(done) == 3 and events == [("made", 0), ("made", 1), ("made", 2)]


def test_a_bundle_is_checked_even_where_no_cell_reads_it(out_dir, valid_result, capsys):
    """Rule: every member of a bundle is read before it is published. A result whose every cell
    failed names no member; its bundle was never opened (#62 round 12: a member
    ../../escape.txt, a symlink to /etc/shadow and a device passed as "no problems")."""
    import io
    import tarfile
    for cell in valid_result["cells"]:
        cell.update(status="failed", reason="mkfs failed", metrics={}, raw=[])
    file = write_json(out_dir / "results" / "fixture-valid.json", valid_result)
    # the fixture's own bundle, whose members no cell now reads
    assert main(["validate", str(file)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "fixture-valid.json" in err[0] and "none reads" in err[0], err
    # a hostile one, refused with the member named
    bundle_file = out_dir / "raw" / "fixture-valid.tar.gz"
    with tarfile.open(bundle_file, "w:gz") as t:
        info = tarfile.TarInfo("../../escape.txt")
        info.size = 4
        t.addfile(info, io.BytesIO(b"=cmd"))
        info = tarfile.TarInfo("link")
        info.type, info.linkname = tarfile.SYMTYPE, "/etc/shadow"
        t.addfile(info)
    assert main(["validate", str(file)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "fixture-valid" in err[0] and ("escape.txt" in err[0] or "link" in err[0]), err
    # none at all: nothing to read, nothing wrong
    bundle_file.unlink()
    assert main(["validate", str(file)]) == 0


@functools.lru_cache(maxsize=1)
def _committed_cells() -> tuple:
    from fsatlas.results import resultfile
    repo = Path(__file__).resolve().parents[2]
    return tuple(c for p in sorted((repo / "data" / "results").glob("*.json"))
                 for c in resultfile.readable(json.loads(p.read_text()))["cells"])


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["filesystem", "workload", "mkfs_options", "mount_options", "variant", None]),
       st.sampled_from(["ext4", "btrfs", "seq-read", "noatime", "defaults"]), st.integers(0, 10_000))
def test_a_cell_s_key_names_what_it_measured(field, value, pick):
    """Round 34 (#65): a btrfs cell relabelled ext4 passed validate, and /filesystems/ext4/ then
    showed two seq-write figures. Any committed cell, one of its fields set to another value (or
    none changed): the key check refuses it exactly where, by hand, the key's first four parts are
    no longer its filesystem, mkfs options, mount options and workload, or "defaults" is the
    variant of a cell with options."""
    cells = _committed_cells()
    cell = dict(cells[pick % len(cells)])
    if field in ("mkfs_options", "mount_options"):
        cell[field] = [value]
    elif field:
        cell[field] = value
    parts = cell["key"].split("|")
    if parts[0] == f"{cell['filesystem']}:{cell.get('variant')}":  # an import's variant
        parts[0] = cell["filesystem"]
    options = bool(cell.get("mkfs_options") or cell.get("mount_options"))
    by_hand = parts[:4] == [cell["filesystem"], ",".join(cell.get("mkfs_options") or []) or "-",
                            ",".join(cell.get("mount_options") or []) or "-", cell["workload"]] \
        and not (cell.get("variant") == "defaults" and options)
    assert (validation.key_problem(cell) == "") is by_hand, (field, value, cell["key"])


OPTION_TEXT = st.text(st.sampled_from("ab^@:/%,=._+-"), min_size=1, max_size=6)


@settings(max_examples=200, deadline=None)
@given(OPTION_TEXT, OPTION_TEXT)
def test_two_cells_never_share_a_raw_folder(first, second):
    """#65 round 52: resultfile.raw_dir_name folds ':', '^', '/', '@' and '%' into '_', so ext3
    "-O ^dir_index" and "-O @dir_index" named one folder: a copied cell published one measurement
    as two configurations. Two runner cells, mkfs options drawn from those characters: refused at
    the second cell's key exactly where their keys differ and their folders (worked out by
    raw_dir_name) are one."""
    from fsatlas.results import resultfile
    doc = resultfile.readable(json.loads((Path(__file__).parent / "fixtures" / "results" / "fixture-valid.json").read_text()))
    cell = next(c for c in doc["cells"] if c["status"] == "ok")
    cells = []
    for option in (first, second):
        key = f"{cell['filesystem']}|-O,{option}|-|{cell['workload']}"
        raw = [f"raw/{doc['id']}/{resultfile.raw_dir_name(key)}/{r.rpartition('/')[2]}" for r in cell["raw"]]
        cells.append({**cell, "key": key, "mkfs_options": ["-O", option], "mount_options": [], "raw": raw})
    doc["cells"] = cells
    found = [p for p in validation.structure_problems(doc, "x") if "raw folder" in p.message]
    folded = resultfile.raw_dir_name(cells[0]["key"]) == resultfile.raw_dir_name(cells[1]["key"])
    assert bool(found) == (folded and first != second), found
    assert all(p.path == "/cells/1/key" for p in found)


def test_no_two_cells_of_the_matrix_share_a_raw_folder():
    """The runner never writes such a pair: every cell of every profile of the matrix, with
    every option variant, has a raw folder of its own."""
    from fsatlas.results import resultfile
    from fsatlas.run import matrix
    m = matrix.load()
    keys = {c.key for name in m.profiles for c in m.profile(name, variants=["defaults", *m.variants]).cells}
    assert len(keys) > 300 and len({resultfile.raw_dir_name(k) for k in keys}) == len(keys)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["NaN", "Infinity", "-Infinity", "1" * 4301, "-" + "9" * 5000]), st.data())
def test_a_value_json_does_not_allow_is_refused_at_its_line_and_column(value, data):
    """#60 round 51: NaN, and an integer of more digits than Python converts, were refused
    with "malformed JSON: ..." and no place, the second with Python's advice to the
    programmer. Put at a drawn sample of the fixture, pretty-printed: the line of the value and
    a column within it, found here by searching the text, and no word of Python's."""
    from fsatlas.errors import UserError
    from fsatlas.results import resultfile
    doc = json.loads((Path(__file__).parent / "fixtures" / "results" / "fixture-valid.json").read_text())
    ok = [c for c in doc["cells"] if c["status"] == "ok"]
    cell = data.draw(st.sampled_from(ok))
    samples = next(iter(cell["metrics"].values()))["samples"]
    samples[data.draw(st.integers(0, len(samples) - 1))] = "@MARK@"
    text = json.dumps(doc, indent=2)
    offset = text.index('"@MARK@"')
    line, column = text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset)
    with pytest.raises(UserError) as e:
        resultfile.parse_json(text.replace('"@MARK@"', value).encode(), "r.json")
    found = re.search(r"malformed JSON at line (\d+), column (\d+): ", e.value.message)
    assert found and int(found.group(1)) == line and column <= int(found.group(2)) < column + len(value), e.value.message
    assert "sys." not in e.value.message and "set_int_max_str_digits" not in e.value.message
