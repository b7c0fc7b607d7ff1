"""fsatlas import, second round (issue 64): what the tool's own output recorded (system, time,
mount options, every figure) is kept; several outputs become one result, of two filesystems or
of a sweep; the export carries every figure exactly. The expected figures are read by hand off
the raw text of the samples (SOURCES.md names each)."""
import json
import math
import platform

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from fsatlas.cli import main
from fsatlas.results import export, machines, resultfile
from fsatlas.results.validation import reviewed, validate_file
from fsatlas.site import aggregate, explorer, report
from testutil import SAMPLES
from fsatlas.results.resultfile import readable  # a result file in the read form (schema 2 stores no summaries)

FIO = SAMPLES / "fio"
SWEEP = sorted((FIO / "sweep").glob("ext4-iodepth-*.json"), key=lambda p: int(p.stem.rsplit("-", 1)[1]))
TWO = FIO / "two-filesystems"


def _import(tmp_path, capsys, *argv):
    out = tmp_path / "out"
    assert main(["import", *argv, "--out", str(out)]) == 0, capsys.readouterr().err
    captured = capsys.readouterr()
    paths = captured.out.split()
    for path in paths:  # every output the importer accepts is a file validate accepts
        assert [p for p in reviewed(validate_file(path), allow_all=True) if p.severity == "error"] == []
    return [readable(json.loads(open(p).read())) for p in paths], paths, captured.err


def _fio_figure(path, field):
    return json.loads(path.read_text())["jobs"][0]["read"][field]


# --- 1. provenance ---------------------------------------------------------------------------

def test_without_system_or_this_machine_the_result_says_system_not_recorded(tmp_path, capsys):
    (result,), (path,), err = _import(tmp_path, capsys, "fio", str(FIO / "fio-3.33-json-plus.json"), "--filesystem", "ext4")
    system = result["system"]
    assert system["recorded"] == "none" and set(system) == {"machine", "recorded"}
    # no machine label it cannot back: not this machine's, one naming this import alone
    assert system["machine"].startswith("unrecorded-")
    assert "system not recorded" in err and "--this-machine" in err
    # fio's own timestamp (1795644390 s, its "time" Wed Nov 25 22:06:30 2026), not the import's
    assert result["measured"] == {"time": "2026-11-25T22:06:30Z", "utc": True, "from": "fio timestamp (when fio wrote the report)"}
    assert result["created"] != result["measured"]["time"]
    # pages and the export say so
    assert machines.system_line(result).startswith("system not recorded")
    assert dict((label, value(result)) for label, value in report.SYSTEM_ROWS)["Kernel"] == "system not recorded"
    rows = export.frame(path)
    assert set(rows["system"]) == {"system not recorded"} and rows["cpu_model"].isna().all() and rows["kernel"].isna().all()
    assert set(rows["measured"]) == {"2026-11-25T22:06:30Z"}


def test_this_machine_and_a_system_file_say_where_the_facts_come_from(tmp_path, capsys):
    (here,), _, err = _import(tmp_path / "a", capsys, "fio", str(FIO / "fio-3.33-json-plus.json"), "--filesystem", "ext4",
                              "--this-machine")
    assert here["system"]["recorded"] == "this-machine" and here["system"]["kernel"] == platform.release()
    assert "system not recorded" not in err
    system = tmp_path / "system.yaml"
    system.write_text("system: {machine: dl380, kernel: 5.15.0-91-generic, os: Ubuntu 22.04, cpu_model: Xeon Gold 6230, "
                      "cpu_count: 80, memory_bytes: 412316860416, virtualization: none}\n")
    (given_,), _, _ = _import(tmp_path / "b", capsys, "fio", str(FIO / "fio-3.33-json-plus.json"), "--filesystem", "ext4",
                              "--system", str(system))
    assert given_["system"]["recorded"] == "file" and given_["system"]["machine"] == "dl380"
    assert main(["import", "fio", str(FIO / "fio-3.33-json-plus.json"), "--filesystem", "ext4", "--system", str(system),
                 "--this-machine", "--out", str(tmp_path / "c")]) == 2  # argparse: one or the other


FACT_VALUES = {"kernel": "6.1.0", "os": "Debian 12", "cpu_model": "x", "cpu_count": 2, "memory_bytes": 2**30,
               "virtualization": "none"}


@settings(max_examples=60)
@given(recorded=st.sampled_from(["run", "tool", "file", "this-machine", "none", None]),
       facts=st.sets(st.sampled_from(resultfile.SYSTEM_FACTS)))
def test_the_schema_holds_either_every_fact_or_none_with_system_not_recorded(recorded, facts):
    """The rule: a system with recorded "none" holds no fact (no invented CPU or kernel); any
    other holds every fact. Checked over every subset of the facts, against the schema itself."""
    system = {"machine": "m", **{k: FACT_VALUES[k] for k in facts}}
    if recorded:
        system["recorded"] = recorded
    doc = {"schema_version": 1, "id": "x", "created": "2026-01-01T00:00:00Z", "tool": {"runner": "x"},
           "system": system, "target": {"kind": "directory"}, "cells": []}
    accepted = not [p for p in resultfile.schema_problems(doc, "x.json") if p.path.startswith("/system")]
    assert accepted == (not facts if recorded == "none" else facts == set(resultfile.SYSTEM_FACTS))


@given(utc=st.booleans(), zulu=st.booleans())
def test_measured_says_utc_exactly_when_its_time_ends_in_z(utc, zulu):
    doc = {"schema_version": 1, "id": "x", "created": "2026-01-01T00:00:00Z", "tool": {"runner": "x"},
           "system": {"machine": "m", "recorded": "none"}, "target": {"kind": "directory"}, "cells": [],
           "measured": {"time": "2025-06-30T23:59:59" + ("Z" if zulu else ""), "utc": utc, "from": "x"}}
    # schema_problems: msgspec and fastjsonschema first (what the runner and validate use), jsonschema after
    accepted = not [p for p in resultfile.schema_problems(doc, "x.json") if p.path.startswith("/measured")]
    assert accepted == (utc == zulu) == resultfile.schema_valid_fast(doc)


def test_iozone_s_run_began_line_is_the_measurement_time(tmp_path, capsys):
    (result,), _, _ = _import(tmp_path, capsys, "iozone", str(SAMPLES / "iozone" / "single-test-ssd-2009.txt"),
                              "--filesystem", "ext4", "--redact")
    # "Run began: Sun Nov  1 12:02:42 2009": the machine's local time, its offset not written
    assert result["measured"] == {"time": "2009-11-01T12:02:42", "utc": False, "from": "IOzone Run began"}


# --- 2. several outputs as one result: two filesystems ---------------------------------------

def test_two_filesystems_imported_as_one_result_give_an_ext4_against_xfs_report(tmp_path, capsys):
    files = [TWO / "ext4-rep1.json", TWO / "ext4-rep2.json", TWO / "xfs-rep1.json", TWO / "xfs-rep2.json"]
    (result,), (path,), _ = _import(tmp_path, capsys, "fio", *map(str, files), "--as", "ext4,ext4,xfs,xfs")
    cells = {c["filesystem"]: c for c in result["cells"]}
    assert set(cells) == {"ext4", "xfs"} and {c["variant"] for c in cells.values()} == {"imported"}
    ext4 = [_fio_figure(f, "bw_bytes") for f in files[:2]]  # 357854480, 662884685
    xfs = [_fio_figure(f, "bw_bytes") for f in files[2:]]  # 305332043, 845362406
    assert cells["ext4"]["metrics"]["throughput"]["samples"] == ext4
    assert cells["xfs"]["metrics"]["throughput"]["samples"] == xfs
    # the earliest of the four reports' own timestamps (ext4-rep1: 1795902464)
    assert result["measured"]["time"] == "2026-11-28T21:47:44Z"
    rows = {r["metric"]: r for r in report.within(result, "ext4", "xfs")}
    assert math.isclose(rows["throughput"]["ratio"], (sum(xfs) / 2) / (sum(ext4) / 2), rel_tol=1e-12)
    assert rows["throughput"]["paired"] is False  # imported repetitions ran in no interleaved rounds
    assert main(["compare", path, "--a", "ext4", "--b", "xfs"]) == 0
    out = capsys.readouterr().out
    assert "randread-4k" in out and f"{(sum(xfs) / 2) / (sum(ext4) / 2):.3f}" in out
    md = tmp_path / "report.md"
    assert main(["report", path, "--a", "ext4", "--b", "xfs", "--out", str(md), "--no-chart"]) == 0
    text = md.read_text()
    assert "ext4 in " in text and "xfs in " in text and "system not recorded" in text
    assert main(["article", "new", "ext4 against xfs, imported", path, "--a", "ext4", "--b", "xfs",
                 "--content", str(tmp_path / "content")]) == 0
    (article,) = (tmp_path / "content" / "articles").iterdir()
    assert result["id"] in article.read_text()


def test_as_names_one_filesystem_a_file(tmp_path, capsys):
    files = [str(TWO / "ext4-rep1.json"), str(TWO / "xfs-rep1.json")]
    assert main(["import", "fio", *files, "--as", "ext4", "--out", str(tmp_path / "o")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--as" in err and "1 for 2 files" in err
    assert main(["import", "fio", *files, "--as", "ext4,xfs", "--filesystem", "ext4", "--out", str(tmp_path / "o")]) == 1
    assert not (tmp_path / "o").exists() or not any((tmp_path / "o").rglob("*.json"))


# --- 3. sweeps ----------------------------------------------------------------------------

def test_an_iodepth_sweep_of_three_files_is_one_result_with_three_dimensions(tmp_path, capsys):
    (result,), (path,), err = _import(tmp_path, capsys, "fio", *map(str, SWEEP), "--filesystem", "ext4")
    cells = {c["key"].rsplit("|", 1)[1]: c for c in result["cells"]}
    assert set(cells) == {"iodepth=1", "iodepth=16", "iodepth=64"}
    for path_, depth in zip(SWEEP, ("1", "16", "64")):
        cell = cells[f"iodepth={depth}"]
        assert cell["parameters"]["iodepth"] == depth
        assert cell["metrics"]["throughput"]["samples"] == [_fio_figure(path_, "bw_bytes")]
        assert cell["metrics"]["lat_mean_ns"]["samples"] == [_fio_figure(path_, "lat_ns")["mean"]]
    assert "sweep of iodepth: 1, 16, 64" in err
    # the explorer's scaling view reads the swept parameter as a number
    digest = aggregate.digest(result)
    described = [explorer.describe(c) for c in digest["cells"]]
    assert sorted((d["dimName"], d["dimValue"]) for d in described) == [("iodepth", 1.0), ("iodepth", 16.0), ("iodepth", 64.0)]
    rows = export.frame(path)
    assert set(rows["iodepth"]) == {"1", "16", "64"} and set(rows["bs"]) == {"4k"} and set(rows["rw"]) == {"randread"}


def test_a_numjobs_sweep_sums_each_file_s_clones_into_its_cell(tmp_path, capsys):
    """Without group_reporting fio lists a job once per clone: the clones' count differs with
    numjobs, as it must, and is no second swept option."""
    files = [FIO / "sweep-numjobs" / f"numjobs-{n}.json" for n in (1, 2, 4)]
    (result,), _, err = _import(tmp_path, capsys, "fio", *map(str, files), "--filesystem", "ext4")
    cells = {c["key"].rsplit("=", 1)[1]: c for c in result["cells"]}
    assert set(cells) == {"1", "2", "4"} and "sweep of numjobs: 1, 2, 4" in err
    for n, path in zip(("1", "2", "4"), files):
        jobs = json.loads(path.read_text())["jobs"]
        assert len(jobs) == int(n) and cells[n]["parameters"]["jobs_in_report"] == int(n)
        assert cells[n]["metrics"]["throughput"]["samples"] == [float(sum(j["write"]["bw_bytes"] for j in jobs))]


def test_files_of_one_job_differing_in_two_options_are_refused_naming_them(tmp_path, capsys):
    other = tmp_path / "bs.json"
    other.write_text(SWEEP[2].read_text().replace('"bs" : "4k"', '"bs" : "64k"'))
    assert main(["import", "fio", str(SWEEP[0]), str(other), "--filesystem", "ext4", "--out", str(tmp_path / "o")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "differ in iodepth, bs" in err and "bs.json: iodepth=64, bs=64k" in err


@given(st.integers(min_value=1, max_value=10**6), st.sampled_from(["", "k", "K", "m", "M", "g", "KiB", "mb"]),
       st.sampled_from(["iodepth", "bs", "numjobs"]))
def test_sweep_axis_reads_fio_s_sizes(number, suffix, name):
    power = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30}[suffix[:1].lower()]
    assert explorer.sweep_axis.__wrapped__(f"job=a,{name}={number}{suffix}") == (name, float(number * power))


# --- 5. nothing dropped: the export ----------------------------------------------------------

def test_the_export_carries_job_options_exact_floats_and_with_all_the_failed_cells(tmp_path, capsys):
    (result,), (path,), _ = _import(tmp_path, capsys, "fio", str(FIO / "fio-3.33-one-job-fails.json"), "--filesystem", "ext4")
    out = tmp_path / "s.jsonl"
    assert main(["export", path, "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    samples = {(c["key"], name): m["samples"] for c in result["cells"] if c["status"] == "ok" for name, m in c["metrics"].items()}
    assert len(rows) == sum(map(len, samples.values())) and {r["status"] for r in rows} == {"ok"}
    for r in rows:  # every value read back is the very float of the result file
        assert r["value"] == samples[(r["cell"], r["metric"])][r["repetition"] - 1]
    assert {r["rw"] for r in rows} and all(r["ioengine"] for r in rows)
    assert main(["export", path, "--out", str(tmp_path / "all.parquet"), "--all"]) == 0
    every = pd.read_parquet(tmp_path / "all.parquet")
    failed = every[every["status"] == "failed"]
    assert len(failed) == 1 and "error 28" in failed["reason"].iloc[0] and failed["value"].isna().all()
    assert len(every) == len(rows) + 1


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_a_json_line_reads_back_as_the_same_float(value):
    assert json.loads(export.json_line({"value": value}))["value"] == value


# --- 4. PTS keeps what PTS recorded ----------------------------------------------------------

def test_pts_mount_options_from_its_system_json_are_the_effective_ones(tmp_path, capsys):
    """PTS writes the tested disk's mount options, read from /proc/mounts, in each system's
    <JSON> as "disk-mount-options" (pts_test_run_manager.php; pts_result_file.php writes the
    element after <Notes>)."""
    source = tmp_path / "with-json.xml"
    options = "attr2,inode64,logbsize=32k,logbufs=8,noquota,relatime,rw"
    text = (SAMPLES / "pts" / "schema-two-systems.xml").read_text()
    marker = "<TimeStamp>2021-03-02 10:02:13</TimeStamp>\n    <TestClientVersion>10.8.4</TestClientVersion>\n    <Notes></Notes>"
    assert marker in text
    source.write_text(text.replace(marker, marker + f'\n    <JSON>{{"disk-scheduler":"NONE","disk-mount-options":"{options}"}}</JSON>'))
    (ext4, xfs), _, _ = _import(tmp_path, capsys, "pts", str(source))
    assert {c["effective_mount_options"] for c in xfs["cells"]} == {options}
    assert {c["effective_mount_options"] for c in ext4["cells"]} == {""}  # its system recorded none


@settings(max_examples=80)
@given(st.lists(st.fixed_dictionaries({"iodepth": st.sampled_from(["1", "16"]), "bs": st.sampled_from(["4k", "1M"]),
                                       "rw": st.sampled_from(["read", "randread"])}), min_size=1, max_size=4))
def test_files_are_repetitions_a_sweep_of_one_option_or_refused(runs):
    """The rule over every combination of three options across up to four files: no option
    differs -> repetitions; exactly one of iodepth, numjobs, bs differs -> a sweep of it;
    anything else -> a refusal naming what differs."""
    from fsatlas.commands import import_
    from fsatlas.errors import UserError
    from fsatlas.results.importers.measurement import Measurement
    parsed = [(f"raw/x/{i}", [Measurement("fio-job", dict(p), {"iops": 1.0}, {"iops": ("ops/s", "higher")})])
              for i, p in enumerate(runs)]
    differing = sorted(name for name in ("iodepth", "bs", "rw") if len({p[name] for p in runs}) > 1)
    files = [f"f{i}.json" for i in range(len(runs))]
    if len(differing) <= 1 and differing != ["rw"]:
        assert import_.swept(parsed, files) == (differing[0] if differing else None)
    else:
        with pytest.raises(UserError) as refused:
            import_.swept(parsed, files)
        assert all(name in str(refused.value) for name in differing)


def test_a_pts_scale_without_an_fsatlas_unit_beside_a_known_one_is_kept_in_its_cell(tmp_path, capsys):
    """pts/fio's twin results share one description: with the IOPS twin's scale one fsatlas has
    no unit for, its runs (RawString 90880:91648:90871) stay, under that scale, beside MB/s."""
    source = tmp_path / "odd-scale.xml"
    source.write_text((SAMPLES / "pts" / "schema-two-systems.xml").read_text().replace("<Scale>IOPS</Scale>", "<Scale>Widgets</Scale>", 1))
    (ext4, _), _, _ = _import(tmp_path, capsys, "pts", str(source))
    metrics = next(c for c in ext4["cells"] if c["workload"] == "rand-read-4k")["metrics"]
    assert metrics["throughput"]["samples"] == [355e6, 358e6, 355e6]
    assert metrics["pts_widgets"]["samples"] == [90880, 91648, 90871]
    assert (metrics["pts_widgets"]["unit"], metrics["pts_widgets"]["pts_scale"]) == ("pts", "Widgets")


def test_pts_takes_no_system_or_per_file_filesystem_it_would_ignore(tmp_path, capsys):
    for extra in (["--this-machine"], ["--as", "ext4"], ["--system", str(tmp_path / "s.yaml")]):
        assert main(["import", "pts", str(SAMPLES / "pts" / "schema-two-systems.xml"), *extra,
                     "--out", str(tmp_path / "o")]) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and extra[0] in err and "PTS records" in err
    assert not (tmp_path / "o").exists()


# --- what an import writes of its outputs is held against them ----------------------------------

@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    """One import of each format that records provenance: (its folder, its result's path)."""
    out = tmp_path_factory.mktemp("provenance")
    sources = [("fio", [TWO / "ext4-rep1.json", TWO / "ext4-rep2.json"]),
               ("iozone", [SAMPLES / "iozone" / "single-test-ssd-2009.txt"]),
               ("dd", [SAMPLES / "dd" / "dd-9.1-english.txt", SAMPLES / "dd" / "dd-9.1-german.txt"]),
               ("bonnie", [SAMPLES / "bonnie" / "bonnie-1.96-stdout.txt"])]
    made = []
    for k, (fmt, files) in enumerate(sources):
        folder = out / f"{k}-{fmt}"
        assert main(["import", fmt, *map(str, files), "--filesystem", "ext4", "--redact", "--out", str(folder)]) == 0
        made.append((folder, next((folder / "results").glob("*.json"))))
    return made


def _moved(time: str, seconds: int) -> str:
    import datetime as dt
    zone = time.endswith("Z")
    when = dt.datetime.fromisoformat(time.rstrip("Z")) + dt.timedelta(seconds=seconds)
    return when.isoformat() + ("Z" if zone else "")


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_an_edited_or_removed_self_written_field_of_an_import_is_refused(imported, tmp_path_factory, data):
    """The rule (#65 round 60): what an import writes from its outputs (each ok cell's
    imported_runs: each output's own time and tool version; the result's measured, the earliest;
    the cell's parameters, its measurement's) is what its raw outputs state. Whichever of them is
    moved, changed or removed, validate refuses the file at that place."""
    import shutil
    folder, path = data.draw(st.sampled_from(imported), label="import")
    result = json.loads(path.read_text())
    ok = [i for i, c in enumerate(result["cells"]) if c["status"] == "ok"]
    i = data.draw(st.sampled_from(ok), label="cell")
    cell = result["cells"][i]
    runs = cell.get("imported_runs") or []
    edits = ["drop runs", "drop parameter", "retype parameter"] + \
        (["move measured", "drop measured"] if "measured" in result else [])
    edits += [f"{what} {k}" for k, run in enumerate(runs) for what, key in
              (("move time", "measured"), ("drop time", "measured"), ("change tool", "tool"), ("drop tool", "tool"))
              if key in run]
    edit = data.draw(st.sampled_from(edits), label="edit")
    seconds = data.draw(st.integers(-10 ** 8, 10 ** 8).filter(bool), label="seconds")
    place = f"/cells/{i}"
    if edit == "drop runs":
        del cell["imported_runs"]
    elif edit == "drop parameter":
        key = data.draw(st.sampled_from(sorted(k for k in cell["parameters"] if k not in ("group", "too_fast_to_measure"))))
        del cell["parameters"][key]
    elif edit == "retype parameter":  # the same value to a reader that casts (round 61: "1" for 1, 0.0 or false for 0)
        key = data.draw(st.sampled_from(sorted(cell["parameters"])))
        value = cell["parameters"][key]
        others = [str(value)] if not isinstance(value, str) else \
            ([int(value)] if value.isdigit() else []) + [value.upper() if value.upper() != value else value.lower() + "x"]
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            others += [float(value) if isinstance(value, int) else int(value), bool(value)]
        cell["parameters"][key] = data.draw(st.sampled_from([v for v in others if json.dumps(v) != json.dumps(value)]))
    elif edit == "move measured":
        result["measured"]["time"], place = _moved(result["measured"]["time"], seconds), "/measured"
    elif edit == "drop measured":
        del result["measured"]
        place = "/measured"
    else:
        what, k = edit.rsplit(" ", 1)
        run = runs[int(k)]
        if what == "move time":
            run["measured"]["time"] = _moved(run["measured"]["time"], seconds)
        elif what == "change tool":
            run["tool"] = data.draw(st.text("abcfio-.0123456789 ", min_size=1, max_size=20).filter(lambda t: t != run["tool"]))
        else:
            del run["measured" if what == "drop time" else "tool"]
    edited = tmp_path_factory.mktemp("edited")
    (edited / "results").mkdir()
    shutil.copytree(folder / "raw", edited / "raw")
    (edited / "results" / path.name).write_text(json.dumps(result))
    errors = [p for p in validate_file(str(edited / "results" / path.name)) if p.severity == "error"]
    assert any(p.path.startswith(place) for p in errors), (edit, [(p.path, p.message) for p in errors])
