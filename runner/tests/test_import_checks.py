"""fsatlas import, what an adversary found (issue 64, second round): files are repetitions only
when every option fio recorded agrees, a sweep when exactly one of iodepth, numjobs, bs differs
(in fio's spellings, its defaults filled in), else refused naming the option; terse files are
compared on what their figures show; a variant is part of a cell's key; every side of a result
sweeps the same option; one output is not two repetitions; each file keeps its own time and
version; PTS drops no run; and bad input is one located line, never a traceback.

The rules are checked against an independent reading of the inputs (a hand-written size parser,
a count of the options that differ), over inputs hypothesis makes from real fio reports."""
import copy
import datetime as dt
import json
import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, assume, example, given, settings, strategies as st

from fsatlas.cli import main
from fsatlas.commands import import_
from fsatlas.errors import UserError
from fsatlas.results.importers import fio, iozone, pts
from fsatlas.results.validation import reviewed, validate_file
from testutil import SAMPLES, written_at
from fsatlas.results.resultfile import readable  # a result file in the read form (schema 2 stores no summaries)

FIO = SAMPLES / "fio"
BASE = json.loads((FIO / "sweep" / "ext4-iodepth-1.json").read_text())  # one job, randread 4k, libaio, fio 3.33
TERSE = (FIO / "fio-3.33-terse-v5.txt").read_text()
UNITS = {"": 1, "b": 1, "k": 1024, "kb": 1024, "kib": 1000, "m": 1024 ** 2, "mb": 1024 ** 2, "mib": 1000 ** 2,
         "g": 1024 ** 3, "gib": 1000 ** 3}  # fio 3.33, kb_base=1024: KiB, MiB, GiB are powers of 1000 (HOWTO)


def _report(options: dict, drop=(), version="fio-3.33", stamp=1795902457, bw=None) -> dict:
    """BASE with its job's options set (None: left out), the keys in drop removed; bw: another
    throughput in bytes/s, reached as fio would report it, by another runtime for the same I/O
    (fio's rates are its counts over its runtime: importers/fio.check_sides refuses a rate alone
    changed)."""
    report = copy.deepcopy(BASE)
    job = report["jobs"][0]
    opts = {k: v for k, v in {**job["job options"], **options}.items() if v is not None and k not in drop}
    job["job options"] = opts
    report["fio version"] = version
    written_at(report, stamp)
    if bw is not None:
        side = job["read"]
        side["runtime"] = runtime = max(1, round(1000 * side["io_bytes"] / bw))
        side["bw_bytes"] = 1000 * side["io_bytes"] // runtime
        side["bw"] = side["bw_bytes"] // 1024
        side["iops"] = 1000 * side["total_ios"] / runtime
    return report


def _parsed(reports: list) -> list:
    return [(f"raw/x/{i}", fio.parse(json.dumps(r), f"f{i}.json")) for i, r in enumerate(reports)]


def _import(tmp_path, capsys, *argv) -> tuple[int, str, list]:
    out = tmp_path / "out"
    code = main(["import", *argv, "--out", str(out)])
    captured = capsys.readouterr()
    results = []
    if code == 0:
        for path in captured.out.split():  # an output the importer accepts is a file validate accepts
            assert [p for p in reviewed(validate_file(path), allow_all=True) if p.severity == "error"] == []
            results.append(readable(json.loads(open(path).read())))
    return code, captured.err, results


def _write(tmp_path, name: str, report: dict) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(report, indent=1))
    return str(path)


# --- 1 and 3: every option compared, in one spelling ----------------------------------------

SPELLINGS = {  # option -> values a file may hold (None: left out); the values of one list item are one setting
    "bs": [["4k", "4K", "4096", "4kb"], ["8k", "8192"], ["4KiB", "4000"]],  # KiB: 1000 in fio's default kb_base
    "iodepth": [[None, "1"], ["4"]],
    "fsync": [[None], ["1"]],
    "runtime": [["2"], ["5"]],
    "rwmixread": [[None], ["30"]],
    "size": [["64M", "64m", "65536k"], ["16M"]],
}


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.fixed_dictionaries({name: st.tuples(st.integers(0, len(v) - 1), st.integers(0, 4))
                                       for name, v in SPELLINGS.items()}), min_size=2, max_size=4))
def test_files_are_repetitions_a_sweep_or_refused_by_every_option_fio_recorded(choices):
    """The rule, through fio's own parser, against a count of the settings that differ: none ->
    repetitions, one cell; exactly one of iodepth or bs -> a sweep of it; any other (fsync,
    runtime, rwmixread, size), or two -> refused naming it. Spellings of one setting are one."""
    reports, settings_ = [], []
    for choice in choices:
        options, setting = {}, {}
        for name, (which, spelling) in choice.items():
            values = SPELLINGS[name][which]
            options[name] = values[spelling % len(values)]
            setting[name] = which
        reports.append(_report(options))
        settings_.append(setting)
    differing = sorted(name for name in SPELLINGS if len({s[name] for s in settings_}) > 1)
    parsed = _parsed(reports)
    files = [f"f{i}.json" for i in range(len(reports))]
    if not differing or (len(differing) == 1 and differing[0] in import_.SWEEP):
        assert import_.swept(parsed, files) == (differing[0] if differing else None)
        # one spelling in the parameters (and so in the key a sweep makes of them)
        assert len({m.parameters["bs"] for _, ms in parsed for m in ms}) == len({s["bs"] for s in settings_})
    else:
        with pytest.raises(UserError) as refused:
            import_.swept(parsed, files)
        message = str(refused.value)
        assert "\n" not in message and "None" not in message
        assert any(name in message for name in differing if name not in import_.SWEEP) or len(differing) > 1


@given(st.integers(0, 10 ** 6), st.sampled_from(sorted(UNITS)), st.booleans(),
       st.integers(0, 10 ** 6), st.sampled_from(sorted(UNITS)))
def test_one_size_in_any_spelling_is_one_canonical_text(n, unit, upper, m, other):
    """canonical_size against a hand count of bytes: two spellings give one text exactly when
    they are the same number of bytes (fio's default kb_base=1024)."""
    a, b = f"{n}{unit.upper() if upper else unit}", f"{m}{other}"
    assert fio.size_bytes(a) == n * UNITS[unit]
    assert (fio.canonical_size(a) == fio.canonical_size(b)) == (n * UNITS[unit] == m * UNITS[other])


def test_options_fio_could_not_have_written_are_refused_located():
    for value, found in ((["1"], "list"), ("1\n2", "several lines")):
        with pytest.raises(UserError) as refused:
            fio.parse(json.dumps(_report({"iodepth": value})), "in.json")
        assert str(refused.value).startswith("in.json: /jobs/0/job options/iodepth: ") and found in str(refused.value)
    with pytest.raises(UserError, match=r"in.json: /jobs/0/job options: options of type list"):
        report = _report({})
        report["jobs"][0]["job options"] = []
        fio.parse(json.dumps(report), "in.json")


def test_all_options_reach_the_export(tmp_path, capsys):
    a = _write(tmp_path, "a.json", _report({"fsync": "1", "runtime": "2"}))
    b = _write(tmp_path, "b.json", _report({"fsync": "1", "runtime": "2"}, bw=BASE["jobs"][0]["read"]["bw_bytes"] + 1))
    code, err, (result,) = _import(tmp_path, capsys, "fio", a, b, "--filesystem", "ext4")
    assert code == 0, err
    out = tmp_path / "s.jsonl"
    assert main(["export", str(tmp_path / "out" / "results"), "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    options = {json.dumps(json.loads(r["options"]), sort_keys=True) for r in rows}
    assert len(options) == 1 and json.loads(options.pop())["fsync"] == "1"
    assert {r["system"] for r in rows} == {"system not recorded"}
    assert "directory" not in result["cells"][0]["parameters"]  # a path, never kept


# --- 2: terse --------------------------------------------------------------------------------

def _terse(bw_kib: int, iops: int) -> str:
    """The terse v5 sample's job as a read job of bw_kib KiB/s at iops (fields 6 and 7: the read
    side's bandwidth and IOPS; field 5 its KiB)."""
    fields = TERSE.strip().split("\n")[-1].split(";")
    fields[5], fields[6], fields[7], fields[8] = str(bw_kib * 2), str(bw_kib), str(iops), "2000"
    return ";".join(fields) + "\n"


@settings(max_examples=40)
@given(st.lists(st.tuples(st.sampled_from([4, 8, 64, 1024]), st.integers(50, 20000)), min_size=2, max_size=3))
def test_terse_files_are_compared_on_the_block_size_their_figures_show(runs):
    """Terse records no options: files whose bandwidth over IOPS gives different block sizes
    are no repetitions of one job (refused); those that agree are."""
    texts = [_terse(kib * iops, iops) for kib, iops in runs]
    parsed = [(f"raw/x/{i}", fio.parse(t, f"t{i}.txt")) for i, t in enumerate(texts)]
    if len({kib for kib, _ in runs}) > 1:
        with pytest.raises(UserError, match="bs_from_rate"):
            import_.swept(parsed, [f"t{i}.txt" for i in range(len(runs))])
    else:
        assert import_.swept(parsed, [f"t{i}.txt" for i in range(len(runs))]) is None
        assert {m.parameters["bs_from_rate"] for _, ms in parsed for m in ms} == {fio.canonical_size(f"{runs[0][0]}k")}


# --- 4, 5, 6: variants, sides, one output once -----------------------------------------------

def test_variants_of_one_filesystem_are_two_cells_compare_takes(tmp_path, capsys):
    a = _write(tmp_path, "a.json", _report({}))
    b = _write(tmp_path, "b.json", _report({}, bw=BASE["jobs"][0]["read"]["bw_bytes"] * 2))
    code, err, (result,) = _import(tmp_path, capsys, "fio", a, b, "--as", "ext4:fast,ext4:slow")
    assert code == 0, err
    assert sorted(c["variant"] for c in result["cells"]) == ["imported-fast", "imported-slow"]
    assert len({c["key"] for c in result["cells"]}) == 2
    (path,) = (tmp_path / "out" / "results").iterdir()
    assert main(["compare", str(path), "--a", "ext4:imported-fast", "--b", "ext4:imported-slow"]) == 0
    assert "throughput" in capsys.readouterr().out


def test_sides_sweeping_different_options_are_refused_and_one_sweep_pairs_every_side(tmp_path, capsys):
    e1, e4 = (_write(tmp_path, f"e{d}.json", _report({"iodepth": d})) for d in ("1", "4"))
    x4k, x8k = (_write(tmp_path, f"x{b}.json", _report({"bs": b}, bw=7)) for b in ("4k", "8k"))
    code, err, _ = _import(tmp_path, capsys, "fio", e1, e4, x4k, x8k, "--as", "ext4,ext4,xfs,xfs")
    assert code == 1 and err.count("\n") == 1 and "ext4:imported iodepth, xfs:imported bs" in err
    x1 = _write(tmp_path, "x1.json", _report({}, drop=("iodepth",), bw=9))  # iodepth left out: fio's 1
    x4 = _write(tmp_path, "x4.json", _report({"iodepth": "4"}, bw=11))
    code, err, (result,) = _import(tmp_path, capsys, "fio", e1, x1, x4, "--as", "ext4,xfs,xfs")
    assert code == 0, err
    assert sorted(c["key"] for c in result["cells"]) == [
        "ext4|-|-|fio-randread-4k|iodepth=1", "xfs|-|-|fio-randread-4k|iodepth=1", "xfs|-|-|fio-randread-4k|iodepth=4"]
    (path,) = (tmp_path / "out" / "results").iterdir()
    assert main(["compare", str(path), "--a", "ext4", "--b", "xfs"]) == 0
    assert "iodepth=1" in capsys.readouterr().out


def test_one_output_given_twice_is_refused_by_its_content(tmp_path, capsys):
    a = _write(tmp_path, "a.json", _report({}))
    copy_ = tmp_path / "copy.json"
    copy_.write_bytes(open(a, "rb").read())
    reformatted = tmp_path / "jq.json"  # the same report written out again: still one run
    reformatted.write_text(json.dumps(json.loads(copy_.read_text())))
    for files, found in (((a, a), "the same output as FILE 1"), ((a, str(copy_)), "the same output as FILE 1"),
                         ((a, str(reformatted)), "the same run as FILE 1")):
        code, err, _ = _import(tmp_path, capsys, "fio", *files, "--filesystem", "ext4")
        assert code == 1 and err.count("\n") == 1 and found in err
    assert not (tmp_path / "out" / "results").exists()


# --- 7: each file's own time and version ------------------------------------------------------

def test_each_file_keeps_its_own_measured_time_and_fio_version(tmp_path, capsys):
    old = _write(tmp_path, "old.json", _report({}, version="fio-3.28", stamp=1700000000))
    new = _write(tmp_path, "new.json", _report({}, version="fio-3.33", stamp=1795902457, bw=5))
    code, err, (result,) = _import(tmp_path, capsys, "fio", old, new, "--filesystem", "ext4")
    assert code == 0, err
    (cell,) = result["cells"]
    runs = {os.path.basename(r["raw"]).split("-", 1)[1]: r for r in cell["imported_runs"]}
    assert runs["old.json"]["tool"] == "fio-3.28" and runs["old.json"]["measured"]["time"] == "2023-11-14T22:13:20Z"
    assert runs["new.json"]["tool"] == "fio-3.33" and runs["new.json"]["measured"]["time"] == "2026-11-28T21:47:37Z"
    assert [r["raw"] for r in cell["imported_runs"]] == cell["raw"]
    assert result["measured"]["time"] == "2023-11-14T22:13:20Z" and result["tool"]["fio"] == "fio-3.28; fio-3.33"


# --- 8: PTS drops no run ----------------------------------------------------------------------

PTS_TWO = (SAMPLES / "pts" / "schema-two-systems.xml").read_text()


def _pts_result(scale: str, entries: list[tuple[str, str]], description="Test: A") -> str:
    data = "".join(f"<Entry><Identifier>{s}</Identifier><Value></Value><RawString>{r}</RawString></Entry>" for s, r in entries)
    return (f"<Result><Identifier>pts/custom-1.0.0</Identifier><Title>T</Title><AppVersion>1</AppVersion>"
            f"<Arguments>x</Arguments><Description>{description}</Description><Scale>{scale}</Scale>"
            f"<Proportion>{'LIB' if scale in ('Seconds', 'Milliseconds') else 'HIB'}</Proportion><Data>{data}</Data></Result>")


def _pts_file(*results: str) -> str:
    head = PTS_TWO[:PTS_TWO.index("<Result>")]
    return head + "".join(results) + "</PhoronixTestSuite>"


def test_pts_runs_are_never_dropped_silently():
    systems = [s["identifier"] for s in pts.systems(PTS_TWO, "x.xml")]
    one = systems[0]
    cases = {  # two units of one figure; a system no <System> names; twins of different run counts
        "a second throughput": _pts_file(_pts_result("MB/s", [(one, "1:2:3")]), _pts_result("GB/s", [(one, "4:5:6")])),
        "a second seconds": _pts_file(_pts_result("Seconds", [(one, "1:2")]), _pts_result("Milliseconds", [(one, "4:5")])),
        "naming no <System>": _pts_file(_pts_result("MB/s", [(one, "1:2:3"), ("ghost box", "5:5:5")])),
        "1 runs of iops": _pts_file(_pts_result("MB/s", [(one, "1:2:3")]), _pts_result("IOPS", [(one, "7")])),
        "a run without a value": _pts_file(_pts_result("MB/s", [(one, "100::102")])),
        "a run of '-100'": _pts_file(_pts_result("MB/s", [(one, "-100:1:2")])),
    }
    for found, text in cases.items():
        with pytest.raises(UserError) as refused:
            pts.parse(text, "x.xml")
        assert found in str(refused.value) and "\n" not in str(refused.value) and "None" not in str(refused.value)
    kept = pts.parse(_pts_file(_pts_result("MB/s", [(one, "1:2:3")]), _pts_result("IOPS", [(one, "7:8:9")])), "x.xml")
    assert [sorted(m.values) for m in kept] == [["iops", "throughput"]] * 3


def test_pts_without_a_system_layer_says_its_virtualization_was_not_recorded(tmp_path, capsys):
    code, err, results = _import(tmp_path, capsys, "pts", str(SAMPLES / "pts" / "schema-two-systems.xml"))
    assert code == 0, err
    for result in results:
        layer = pts.fields(result["system"]["pts_software"]).get("System Layer")
        assert result["system"]["virtualization"] == (layer or "not recorded")
    assert main(["export", str(tmp_path / "out" / "results"), "--out", str(tmp_path / "s.jsonl")]) == 0


# --- 9 and 10: one located line, never a traceback --------------------------------------------

LEAVES = [("/jobs/0/read/lat_ns/mean", ("jobs", 0, "read", "lat_ns", "mean")), ("/jobs/0/usr_cpu", ("jobs", 0, "usr_cpu")),
          ("/jobs/0/read/bw_bytes", ("jobs", 0, "read", "bw_bytes")), ("/jobs/0/read/iops", ("jobs", 0, "read", "iops")),
          ("/jobs/0/read/clat_ns/percentile/99.000000", ("jobs", 0, "read", "clat_ns", "percentile", "99.000000"))]


@settings(max_examples=60)
@given(st.sampled_from(LEAVES), st.one_of(st.text(max_size=5), st.floats(max_value=-1e-9), st.floats(min_value=1e19),
                                          st.none(), st.lists(st.integers(), max_size=2), st.booleans()))
def test_a_figure_that_is_no_measurement_is_one_line_naming_the_input_and_its_place(leaf, value):
    report = copy.deepcopy(BASE)
    node = report
    for part in leaf[1][:-1]:
        node = node[part]
    node[leaf[1][-1]] = value
    try:
        measurements = fio.parse(json.dumps(report), "in.json")
    except UserError as e:
        assert str(e).startswith("in.json: /jobs/0") and "\n" not in str(e)
        return
    # what parse accepts is a figure a result may hold (a string of digits fio-like, True as 1)
    for m in measurements:
        assert all(0 <= v <= fio.MAX_FIGURE for v in m.values.values())


@given(st.one_of(st.integers(-10 ** 13, 10 ** 13), st.floats(allow_nan=True), st.text(max_size=12), st.booleans()))
def test_fio_s_timestamp_is_a_time_from_1990_to_now_or_one_located_line(stamp):
    text = json.dumps({"fio version": "fio-3.33", "timestamp": stamp, "jobs": []})
    try:
        found = fio.measured(text, "in.json")
    except UserError as e:
        assert str(e).startswith("in.json: /timestamp: ")
        return
    when = dt.datetime.fromisoformat(found["time"].replace("Z", "+00:00"))
    assert dt.datetime(1990, 1, 1, tzinfo=dt.timezone.utc) <= when <= dt.datetime.now(dt.timezone.utc)
    assert found["utc"] and int(float(stamp)) == int(when.timestamp())


def test_fio_s_local_time_stands_in_for_a_missing_timestamp_and_an_impossible_one_is_named():
    local = fio.measured('{"fio version": "fio-3.33", "time": "Sat Nov 28 22:43:42 2026", "jobs": []}', "in.json")
    assert local == {"time": "2026-11-28T22:43:42", "utc": False, "from": "fio time (the machine's local time)"}
    for bad, place in (('"time": "Sun Feb 30 25:61:00 2026"', "/time"), ('"time": 12', "/time"),
                       ('"timestamp": 4102444800', "/timestamp"), ('"timestamp": 0', "/timestamp"),
                       ('"timestamp": 1, "timestamp": 1795905822', "/timestamp")):  # the parser keeps the last
        with pytest.raises(UserError, match=f"^in.json: {place}: "):
            fio.measured('{"fio version": "fio-3.33", ' + bad + ', "jobs": []}', "in.json")


def test_iozone_s_run_began_that_is_no_date_is_named_by_its_line():
    text = (SAMPLES / "iozone" / "single-test-ssd-2009.txt").read_text()
    line = text[:text.index("Run began")].count("\n") + 1
    for began in ("Run began: 2009-11-01 12:02:42", "Run began: Sun Nov  1 12:02:42 CET 2009",
                  "Run began: Sun Feb 30 12:02:42 2009"):
        changed = text.replace("Run began: Sun Nov  1 12:02:42 2009", began)
        with pytest.raises(UserError, match=f"^in.txt: line {line}: Run began"):
            iozone.measured(changed, "in.txt")


def test_a_fifo_is_refused_not_read_forever(tmp_path):
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-m", "fsatlas.cli", "import", "fio", str(fifo), "--filesystem", "ext4",
                           "--out", str(tmp_path / "o")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and done.stderr == f"fsatlas import: {fifo}: a FIFO, not a regular file; expected a file the tool wrote\n"


def test_output_closed_by_its_reader_is_one_line(tmp_path, capsys):
    a = _write(tmp_path, "a.json", _report({}))
    b = _write(tmp_path, "b.json", _report({}, bw=3))
    code, err, _ = _import(tmp_path, capsys, "fio", a, b, "--as", "ext4,xfs")
    assert code == 0, err
    (path,) = (tmp_path / "out" / "results").iterdir()
    compare = subprocess.Popen([sys.executable, "-m", "fsatlas.cli", "compare", str(path), "--a", "ext4", "--b", "xfs"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    compare.stdout.close()  # `| head` that read nothing
    assert compare.wait(timeout=60) == 1
    assert compare.stderr.read().decode().count("\n") == 1


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ios=st.integers(1, 10 ** 6), bs=st.sampled_from([512, 1536, 4096, 16384]), runtime=st.integers(1, 20000),
       off=st.integers(-3, 3))
def test_a_fio_2_report_whose_bw_fio_computed_from_bytes_is_taken(tmp_path_factory, ios, bs, runtime, off):
    """The rule (round 58, finding 6): fio before 3.0 writes io_bytes in KiB (bytes >> 10) and bw
    as floor(1000 x bytes / runtime / 1024) (stat.c): every such report is taken, the import then
    validated; a bw further from that than fio's rounding allows is refused at the field. Beside
    the named 32,769 I/Os of 512 bytes in 210 ms."""
    report = json.loads((FIO / "fio-2.17-perfkit-two-groups.json").read_text())
    side = report["jobs"][0]["read"]
    written = ios * bs
    true_bw = 1000 * written // runtime // 1024
    side.update(io_bytes=written >> 10, bw=true_bw + off, runtime=runtime, total_ios=ios, iops=1000 * ios / runtime)
    tmp = tmp_path_factory.mktemp("fio2")
    path = tmp / "fio2.json"
    path.write_text(json.dumps(report))
    # by hand: the bw fio writes for any byte count io_bytes stands for (io_bytes << 10 plus up to
    # 1023 bytes it does not hold) lies from lowest to highest
    lowest, highest = 1000 * (written >> 10 << 10) // runtime // 1024, 1000 * ((written >> 10 << 10) + 1023) // runtime // 1024
    figure = true_bw + off
    got = main(["import", "fio", str(path), "--filesystem", "ext4", "--out", str(tmp / "out")])
    if lowest <= figure <= highest:  # a bw fio could have written: taken, and valid
        assert got == 0
        [result] = (tmp / "out" / "results").glob("*.json")
        assert not [p for p in validate_file(str(result)) if p.severity == "error"]
    elif figure < lowest * (1 - 1e-9) - 1 or figure > highest * (1 + 1e-9) + 3:  # beyond fio's rounding (and a
        # float's, 1e-9 of the figure) of any such count: refused
        assert got == 1


DD_RUNS = [f"64+0 records in\n64+0 records out\n67108864 bytes (67 MB, 64 MiB) copied, 0.05{k}6987 s, 1.2 GB/s\n"
           for k in range(5)]


LABELS = [(), ("--this-machine",), ("--this-machine", "--machine", "box-b")]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(first=st.lists(st.integers(0, 4), min_size=1, max_size=3, unique=True),
       second=st.lists(st.integers(0, 4), min_size=1, max_size=3, unique=True),
       labels=st.tuples(st.sampled_from(LABELS), st.sampled_from(LABELS)))
def test_an_output_imported_into_a_folder_is_refused_there_again_in_any_company(tmp_path_factory, capsys, first,
                                                                               second, labels):
    """The rule (#65 round 60): one tool output is one run: a second import into the folder of an
    output it holds already is refused, alone or among others, in another order or under another
    machine label; outputs it does not hold are imported beside it."""
    folder = tmp_path_factory.mktemp("again")
    for k, text in enumerate(DD_RUNS):
        (folder / f"dd{k}.txt").write_text(text)
    out = folder / "out"

    def imported(picks, label):
        capsys.readouterr()
        code = main(["import", "dd", *(str(folder / f"dd{k}.txt") for k in picks), "--filesystem", "ext4",
                     *label, "--out", str(out)])
        return code, capsys.readouterr().err
    assert imported(first, labels[0])[0] == 0
    before = sorted(p.name for p in out.rglob("*"))
    import time
    time.sleep(1.01 - time.time() % 1)  # another second: another id even for the same outputs and label
    code, err = imported(second, labels[1])
    if set(first) & set(second):
        assert code == 1 and "imported already" in err and len(err.strip().splitlines()) == 1, err
        assert sorted(p.name for p in out.rglob("*")) == before
    else:
        assert code == 0, err


BONNIE_LINE = (SAMPLES / "bonnie" / "bonnie-1.97-plus-signs.csv").read_text().strip().split(",")


def _bonnie_run(k: int, timed: bool = False) -> str:
    """A bonnie++ 1.97 CSV line of its own: the sample's, with its seed and block figures moved by
    k; timed: its sequential create measured (the sample's is +++++, too fast to measure)."""
    line = list(BONNIE_LINE)
    line[4] = str(int(line[4]) + k)
    line[7], line[9], line[11] = (str(int(line[i]) + k) for i in (7, 9, 11))
    if timed:
        line[24], line[25] = str(1400 + k), "5"
    return ",".join(line) + "\n"


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(runs=st.lists(st.integers(1, 3), min_size=1, max_size=3), timed=st.lists(st.booleans(), min_size=9, max_size=9))
def test_outputs_of_one_or_several_runs_each_import_together_as_their_repetitions(tmp_path_factory, capsys, runs,
                                                                                   timed):
    """The rule (#65 rounds 60 and 61): outputs the importer takes one at a time are taken
    together, their runs the cell's repetitions in order, and validate accepts the result
    (bonnie++ run once, then with -x 2: refused as "an output fsatlas import should have refused";
    so was one -x 2 output whose test was +++++ in one run and measured in the other)."""
    folder = tmp_path_factory.mktemp("bonnie-runs")
    files, k = [], 0
    for n in runs:
        path = folder / f"b{len(files)}.csv"
        path.write_text("".join(_bonnie_run(k + j, timed[k + j]) for j in range(n)))
        files.append(str(path))
        k += n
    capsys.readouterr()
    assert main(["import", "bonnie", *files, "--filesystem", "ext4", "--redact", "--out", str(folder / "out")]) == 0, \
        capsys.readouterr().err
    (path,) = capsys.readouterr().out.split()
    assert [p for p in reviewed(validate_file(path)) if p.severity == "error"] == []
    cells = readable(json.loads(open(path).read()))["cells"]
    block = next(c for c in cells if c["workload"] == "seq-write")
    expected = [(int(BONNIE_LINE[9]) + j) * 1024 for j in range(sum(runs))]  # K/sec, in order
    assert block["metrics"]["throughput"]["samples"] == expected
    # and the repetitions the raw files hold are the samples, no fewer, no more
    result = json.loads(open(path).read())
    i = next(i for i, c in enumerate(result["cells"]) if c["workload"] == "seq-write")
    for edit in (lambda s: s[:-1], lambda s: s + s[-1:]):
        edited = copy.deepcopy(result)
        samples = edited["cells"][i]["metrics"]["throughput"]["samples"]
        edited["cells"][i]["metrics"]["throughput"]["samples"] = edit(samples)
        if not edited["cells"][i]["metrics"]["throughput"]["samples"]:
            continue
        with open(path, "w") as f:
            json.dump(edited, f)
        assert any(p.path.startswith(f"/cells/{i}/metrics/throughput") for p in validate_file(path)
                   if p.severity == "error")


@pytest.mark.parametrize("rewrite", [lambda t: t.replace("\n", "\r\n"), lambda t: json.dumps(json.loads(t))])
def test_one_fio_report_rewritten_is_still_imported_once_into_a_folder(tmp_path, capsys, rewrite):
    """Round 62: the same fio report with other line ends or spacing (other bytes, the same
    figures) imported beside itself as another filesystem made a second result of one run."""
    source = SAMPLES / "fio" / "fio-3.33-json-plus.json"
    out = tmp_path / "out"
    assert main(["import", "fio", str(source), "--filesystem", "ext4", "--out", str(out)]) == 0
    before = sorted(p.name for p in out.rglob("*"))
    (tmp_path / "again.json").write_text(rewrite(source.read_text()))
    capsys.readouterr()
    assert main(["import", "fio", str(tmp_path / "again.json"), "--filesystem", "xfs", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "imported already" in err and len(err.strip().splitlines()) == 1, err
    assert sorted(p.name for p in out.rglob("*")) == before


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tool=st.sampled_from(["dd", "iozone"]),
       copy_as=st.sampled_from(["crlf", "spaces", "trailing", "bom", "utf-16", "summary alone", "prompt"]))
@example(tool="dd", copy_as="summary alone")
@example(tool="dd", copy_as="prompt")
@example(tool="iozone", copy_as="spaces")
def test_an_output_of_one_figure_a_cell_copied_with_other_spacing_is_refused_as_imported(tmp_path_factory, capsys, tool,
                                                                                         copy_as):
    """The rule (adversary of #65, round 71): an output imported into a folder is refused there
    again however its lines end, its words are spaced or its text is encoded: dd's and IOzone's
    cells hold one figure a repetition, which output_prints cannot tell from a coincidence, so the
    outputs' words are compared. dd's summary lines are its output: pasted alone, or with the
    shell's prompt and command, they are the same. Another output (a figure changed) is
    imported beside it."""
    assume(tool == "dd" or copy_as not in ("summary alone", "prompt"))
    source = {"dd": SAMPLES / "dd" / "dd-9.1-english.txt", "iozone": SAMPLES / "iozone" / "single-test-ssd-2009.txt"}[tool]
    text = source.read_text()
    spaced = text.replace(" ", "  ") if tool == "dd" else text.replace("\t", "        ")  # IOzone's columns kept
    copied = {"crlf": text.replace("\n", "\r\n").encode(), "spaces": spaced.encode(),
              "trailing": (text.rstrip("\n") + "  \n\n").encode(), "bom": b"\xef\xbb\xbf" + text.encode(),
              "utf-16": text.encode("utf-16"),
              "summary alone": "".join(line for line in text.splitlines(True) if " copied, " in line).encode(),
              "prompt": f"$ dd if=/dev/zero of=/mnt/2024_01_15/f bs=1M count=64\n{text}$\n".encode()}[copy_as]
    tmp = tmp_path_factory.mktemp("again")
    (tmp / "copy.txt").write_bytes(copied)
    options = ["--filesystem", "ntfs", "--workload", "tiny-block-write"] if tool == "dd" else ["--filesystem", "btrfs"]
    out = tmp / "data"
    assert main(["import", tool, str(source), *options, "--out", str(out)]) == 0
    import time
    time.sleep(1.01 - time.time() % 1)  # another second: another id, so the output itself is what is refused
    capsys.readouterr()
    assert main(["import", tool, str(tmp / "copy.txt"), *options, "--out", str(out)]) == 1
    assert "imported already" in capsys.readouterr().err
    figure = {"dd": "0.0546987 s", "iozone": "44632"}[tool]  # the time dd took; IOzone's write figure
    (tmp / "other.txt").write_text(text.replace(figure, {"dd": "0.0546988 s", "iozone": "44633"}[tool]))
    assert main(["import", tool, str(tmp / "other.txt"), *options, "--out", str(out)]) == 0
