"""fsatlas import, what a third adversary round found (issue 64): each rule checked from the rule
over inputs hypothesis picks (the tools' own outputs under tests/fixtures/samples, and fio 3.33's
own report edited as fio would write it)."""
import datetime as dt
import json
import os
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from fsatlas.cli import main
from fsatlas.commands import import_
from fsatlas.results.importers import fio
from test_import_round3 import _jobs  # BASE (fio 3.33's report) with the jobs named
from testutil import SAMPLES, raw_files

# (format, extra arguments, outputs of that tool that are not the same run)
TOOLS = [
    ("pts", [], [SAMPLES / "pts" / "schema-two-systems.xml", SAMPLES / "pts" / "display-server-versions.xml"]),
    ("fio", ["--filesystem", "ext4"], [SAMPLES / "fio" / "sweep" / f"ext4-iodepth-{d}.json" for d in (1, 16, 64)]),
    ("iozone", ["--filesystem", "ext4"], [SAMPLES / "iozone" / "single-test-ssd-2009.txt"]),
    ("bonnie", ["--filesystem", "ext4"], [SAMPLES / "bonnie" / "bonnie-1.96-stdout.txt"]),
    ("dd", ["--filesystem", "ext4"], [SAMPLES / "dd" / "dd-9.1-english.txt", SAMPLES / "dd" / "dd-9.1-french.txt"]),
]


def _files(folder) -> list[str]:
    return sorted(os.path.relpath(os.path.join(d, f), folder) for d, _, fs in os.walk(folder) for f in fs)


# --- 1: a refused import writes nothing; identical outputs are refused naming both files ---------
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tool=st.sampled_from(TOOLS), data=st.data())
def test_the_same_output_twice_is_one_line_naming_both_and_nothing_written(tmp_path_factory, capsys, tool, data):
    fmt, extra, samples = tool
    tmp = tmp_path_factory.mktemp("same")
    distinct = [str(shutil.copy(s, tmp / f"{k}-{s.name}")) for k, s in enumerate(samples)]
    twice = data.draw(st.sampled_from(distinct))
    copy = data.draw(st.booleans())  # the path itself again, or a byte-identical copy under another name
    again = str(shutil.copy(twice, tmp / "copy-of-it")) if copy else twice
    files = data.draw(st.permutations(distinct + [again]))
    out = tmp / "out"
    os.makedirs(out / "results")
    (out / "results" / "earlier.json").write_text("{}")  # what was there stays, and nothing is added
    code = main(["import", fmt, *files, *extra, "--out", str(out)])
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert code == 1 and len(lines) == 1, captured.err
    assert twice in lines[0] and again in lines[0] and "same output" in lines[0]
    assert _files(out) == ["results/earlier.json"] and captured.out == ""


# --- 2: every field read from a fio report is type-checked, the refusal located ------------------
FIO_REPORTS = {"one job": SAMPLES / "fio" / "sweep" / "ext4-iodepth-1.json",
               "client/server": SAMPLES / "fio" / "fio-3.33-client-server-two-groups.json"}
WRONG = {  # a value of each type fio never writes for the field
    "jobname": st.one_of(st.integers(), st.lists(st.text(max_size=3), max_size=2), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2), st.booleans()),
    "groupid": st.one_of(st.lists(st.integers(0, 3), max_size=2), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
                         st.text(max_size=3), st.booleans(), st.floats(allow_nan=False, allow_infinity=False), st.integers(max_value=-1)),
    "error": st.one_of(st.lists(st.integers(0, 3), max_size=2), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
                       st.text(max_size=3), st.booleans(), st.floats(allow_nan=False, allow_infinity=False)),
}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(report=st.sampled_from(sorted(FIO_REPORTS)), field=st.sampled_from(sorted(WRONG)), data=st.data())
def test_a_field_of_the_wrong_type_is_one_located_line(tmp_path_factory, capsys, report, field, data):
    tmp = tmp_path_factory.mktemp("type")
    doc = json.loads(FIO_REPORTS[report].read_text())
    lists = [name for name in ("jobs", "client_stats") if doc.get(name)]
    name = data.draw(st.sampled_from(lists))
    index = data.draw(st.integers(0, len(doc[name]) - 1))
    value = data.draw(WRONG[field])
    doc[name][index][field] = value
    path = tmp / "report.json"
    path.write_text(json.dumps(doc))
    out = tmp / "out"
    code = main(["import", "fio", str(path), "--filesystem", "ext4", "--out", str(out)])
    err = capsys.readouterr().err.strip()
    assert code == 1 and len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert f"/{name}/{index}/{field}" in err and str(path) in err
    assert not out.exists() or _files(out) == []


# --- 3: identical measurements are refused, whatever surrounds them ------------------------------
BASE = SAMPLES / "fio" / "sweep" / "ext4-iodepth-1.json"


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(notes=st.lists(st.text("abcdefgh ,:{}\"0123456789", min_size=1, max_size=400), max_size=30),
       indent=st.sampled_from([None, 0, 1, 4]), spacing=st.integers(0, 6000))
def test_one_fio_run_written_out_again_is_refused_whatever_surrounds_it(tmp_path_factory, capsys, notes, indent, spacing):
    """fio prints "note:" lines before its JSON (fio 3.33: "note: both iodepth >= 1 and synchronous
    I/O engine are selected, queue depth will be capped at 1"); any number of them, the report
    laid out again, or spaces before its time: still the one run, its time the report's own."""
    tmp = tmp_path_factory.mktemp("same-run")
    doc = json.loads(BASE.read_text())
    body = json.dumps(doc, indent=indent)
    body = body.replace('"timestamp"', " " * spacing + '"timestamp"', 1)
    again = tmp / "again.json"
    again.write_text("".join(f"note: {line}\n" for line in notes) + body + "\n")
    assert fio.measured(again.read_text(), str(again)) == fio.measured(BASE.read_text(), str(BASE))
    code = main(["import", "fio", str(BASE), str(again), "--filesystem", "ext4", "--out", str(tmp / "out")])
    err = capsys.readouterr().err.strip()
    assert code == 1 and len(err.splitlines()) == 1 and "the same run as FILE 1" in err, err
    assert not (tmp / "out").exists() or _files(tmp / "out") == []


PTS = SAMPLES / "pts" / "schema-two-systems.xml"
STAMPS = re.findall(r"<TimeStamp>([^<]*)</TimeStamp>", PTS.read_text())


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changed=st.integers(0, len(STAMPS) - 1), when=st.datetimes(dt.datetime(1991, 1, 1), dt.datetime(2025, 1, 1)),
       first=st.booleans())
def test_a_pts_system_given_twice_is_refused_when_another_system_changed(tmp_path_factory, capsys, changed, when, first):
    """The same file with one system's TimeStamp changed: the other system's runs (its TimeStamp
    and every figure) are in both files, imported once, so the import is refused naming it."""
    assume(f"{when:%Y-%m-%d %H:%M:%S}" != STAMPS[changed])  # else the same bytes, refused as the same output
    tmp = tmp_path_factory.mktemp("pts-same")
    text = PTS.read_text()
    old = f"<TimeStamp>{STAMPS[changed]}</TimeStamp>"
    edited = tmp / "edited.xml"
    edited.write_text(text.replace(old, f"<TimeStamp>{when:%Y-%m-%d %H:%M:%S}</TimeStamp>", 1))
    files = [str(PTS), str(edited)] if first else [str(edited), str(PTS)]
    code = main(["import", "pts", *files, "--out", str(tmp / "out")])
    err = capsys.readouterr().err.strip()
    assert code == 1 and len(err.splitlines()) == 1 and "the same run as system" in err, err
    others = re.findall(r"<Identifier>([^<]*)</Identifier>", text)[:len(STAMPS)]
    assert repr(others[1 - changed]) in err and files[1] in err
    assert not (tmp / "out").exists() or _files(tmp / "out") == []


# --- 4: PTS times go through the check_time fio's and IOzone's go through -------------------------
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(stamp=st.one_of(
    st.builds(lambda y, mo, d, h, mi, s: f"{y:04d}-{mo:02d}-{d:02d} {h:02d}:{mi:02d}:{s:02d}",
              st.integers(1990, 2025), st.integers(13, 99), st.integers(1, 28), st.integers(0, 23), st.integers(0, 59), st.integers(0, 59)),
    st.builds(lambda y, d, h: f"{y:04d}-02-{d:02d} {h:02d}:00:00", st.integers(1990, 2025), st.integers(30, 99), st.integers(0, 99)),
    st.datetimes(dt.datetime(1900, 1, 1), dt.datetime(1989, 12, 31)).map(lambda t: f"{t:%Y-%m-%d %H:%M:%S}"),
    st.datetimes(dt.datetime.now() + dt.timedelta(days=2), dt.datetime(9999, 1, 1)).map(lambda t: f"{t:%Y-%m-%d %H:%M:%S}"),
    st.sampled_from(["2021-13-45 99:99:99", "yesterday", "2021-03-02"])))
def test_a_pts_time_that_is_no_date_or_out_of_range_is_refused_located(tmp_path_factory, capsys, stamp):
    tmp = tmp_path_factory.mktemp("pts-time")
    edited = tmp / "edited.xml"
    edited.write_text(PTS.read_text().replace(f"<TimeStamp>{STAMPS[0]}</TimeStamp>", f"<TimeStamp>{stamp}</TimeStamp>", 1))
    code = main(["import", "pts", str(edited), "--out", str(tmp / "out")])
    err = capsys.readouterr().err.strip()
    assert code == 1 and len(err.splitlines()) == 1 and "<TimeStamp>" in err and str(edited) in err, err
    assert not (tmp / "out").exists() or _files(tmp / "out") == []


# --- 9: clones' figures are exact decimal arithmetic of the printed figures, rounded once ---------
PRINTED = st.decimals(min_value=0, max_value=100, places=2, allow_nan=False, allow_infinity=False)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(usr=st.lists(PRINTED, min_size=2, max_size=5), sys_=st.lists(PRINTED, min_size=5, max_size=5),
       iops=st.lists(st.decimals(min_value=1, max_value=10**6, places=3), min_size=5, max_size=5))
def test_clones_cpu_and_iops_are_exact_decimal_arithmetic(tmp_path_factory, capsys, usr, sys_, iops):
    """Decimal (an implementation independent of the importer's Fraction) of fio's printed figures:
    usr_cpu 1.9 and 4.8 have the mean 3.35, not 3.3499999999999996."""
    from decimal import Decimal, getcontext
    getcontext().prec = 60
    tmp = tmp_path_factory.mktemp("exact")
    doc = json.loads(BASE.read_text())
    job = doc["jobs"][0]
    doc["jobs"] = []
    for k, u in enumerate(usr):
        clone = json.loads(json.dumps(job))
        clone["usr_cpu"], clone["sys_cpu"] = float(u), float(sys_[k])
        side = clone["read"]
        side["total_ios"] = 1000 * (k + 1)
        side["runtime"] = side["total_ios"] * 1000 / float(iops[k])  # fio's iops = 1000 x total_ios / runtime
        side["iops"] = float(iops[k])
        side["io_bytes"] = side["total_ios"] * 4096
        side["bw_bytes"] = round(1000 * side["io_bytes"] / side["runtime"])
        side["bw"] = side["bw_bytes"] // 1024
        side["io_kbytes"] = side["io_bytes"] // 1024  # as fio writes them beside io_bytes (check_sides)
        doc["jobs"].append(clone)
    path = tmp / "clones.json"
    path.write_text(json.dumps(doc))
    (cell,) = fio.parse(path.read_text(), str(path))
    assert cell.values["cpu_usr_pct"] == float(sum(usr) / len(usr))
    assert cell.values["cpu_sys_pct"] == float(sum(sys_[:len(usr)]) / len(usr))
    assert cell.values["iops"] == float(sum(Decimal(repr(float(i))) for i in iops[:len(usr)]))


# --- 5: a host name a tool's field gives is redacted wherever it occurs ----------------------------
# (a name that is a word of the tools' own text, "write" or "mode", would be replaced in their
# headings too: the figures no longer read back, refused by validate; not what is checked here)
TOOL_WORDS = set(re.findall(r"[a-z0-9-]+", ((SAMPLES / "fio" / "fio-3.33-client-server-two-groups.json").read_text()
                                              + (SAMPLES / "iozone" / "auto-mode-ramdisk-2010.txt").read_text()).lower()))
HOST = st.from_regex(r"[a-z][a-z0-9-]{2,10}( [a-z0-9]{1,3})?", fullmatch=True).filter(
    lambda n: n != "localhost" and not n.startswith(("client-", "host", "user", "home"))
    and not set(re.findall(r"[a-z0-9-]+", n)) & TOOL_WORDS)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=HOST)
def test_a_fio_server_s_host_name_is_redacted_in_its_paths_too(tmp_path_factory, capsys, name):
    """fio client/server: --redact replaces each "hostname" value, and the same name inside a
    "directory" path ("/srv/build box 7/d1") too."""
    tmp = tmp_path_factory.mktemp("host")
    text = (SAMPLES / "fio" / "fio-3.33-client-server-two-groups.json").read_text()
    text = text.replace('"127.0.0.1"', json.dumps(name)).replace("/tmp/fs/d1", f"/srv/{name}/d1")
    path = tmp / "cs.json"
    path.write_text(text)
    out = tmp / "out"
    code = main(["import", "fio", str(path), "--filesystem", "ext4", "--redact", "--out", str(out)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    (result_path,) = captured.out.split()
    result = json.loads(open(result_path).read())
    kept = b"".join(raw_files(out, result).values()).decode()
    assert name not in kept and "/srv/[redacted]/d1" in kept


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=HOST.filter(lambda n: " " not in n), redact=st.booleans())
def test_iozone_s_machine_line_host_name_is_refused_or_redacted_whole(tmp_path_factory, capsys, name, redact):
    """IOzone's "Machine = Linux vflare 2.6.34 ..." is uname -a: its second word is the host's
    name. Without --redact the import is refused naming it, with --redact it is replaced."""
    tmp = tmp_path_factory.mktemp("iozone-host")
    text = (SAMPLES / "iozone" / "auto-mode-ramdisk-2010.txt").read_text().replace("vflare", name)
    path = tmp / "io.txt"
    path.write_text(text.replace("/home/ngupta", "/root"))  # the sample's home folder aside: the name alone
    out = tmp / "out"
    code = main(["import", "iozone", str(path), "--filesystem", "ext4", "--out", str(out), *(["--redact"] if redact else [])])
    captured = capsys.readouterr()
    if not redact:
        assert code == 1 and f"line 1 looks like a host name ({name!r})" in captured.err and "--redact" in captured.err
        assert not out.exists() or _files(out) == []
        return
    assert code == 0, captured.err
    result = json.loads(open(captured.out.split()[0]).read())
    kept = b"".join(raw_files(out, result).values()).decode()
    assert re.search(rf"(?<![a-z0-9-]){re.escape(name)}(?![a-z0-9-])", kept) is None
    assert kept.splitlines()[0].startswith("        Machine = Linux [redacted] 2.6.34")


# --- 6: one normal form per option as fio reads it (differential against fio 3.33 itself) ---------
def _fio_reads(option: str, value: str) -> list[str]:
    """What fio 3.33 stores for NAME=VALUE: the out= lines of `fio --parse-only --debug=parse`."""
    run = subprocess.run(["fio", "--parse-only", "--debug=parse", "--name=a", f"--{option}={value}"],
                         capture_output=True, text=True, timeout=30)
    return re.findall(r"ret=(-?\d+), out=(\d+)", run.stdout + run.stderr)


SPELLED = {"time": ["", "us", "ms", "s", "m", "h"], "int": ["", "k", "K", "m", "M"]}
OPTIONS = [(n, "time") for n in ("thinktime", "thinktime_spin", "thinktime_iotime", "max_latency", "ramp_time",
                                 "latency_target", "runtime")] + [(n, "int") for n in ("iodepth", "nrfiles", "thinktime_blocks")]


def _spelling(kind):
    plain = st.tuples(st.integers(0, 3000), st.sampled_from(SPELLED[kind])).map(lambda t: f"{t[0]}{t[1]}")
    return st.one_of(plain, st.integers(0, 5000).map(hex))


@pytest.mark.skipif(shutil.which("fio") is None, reason="fio is not installed")
@settings(max_examples=6, deadline=None)
@given(option=st.sampled_from(OPTIONS), data=st.data())
def test_two_spellings_are_one_option_exactly_when_fio_reads_them_as_one(option, data):
    name, kind = option
    a, b = data.draw(_spelling(kind)), data.draw(_spelling(kind))
    fio_a, fio_b = _fio_reads(name, a), _fio_reads(name, b)
    assume(fio_a and fio_b and all(r == "0" for r, _ in fio_a + fio_b))  # both spellings fio accepts
    ours = [fio.job_options({"job options": {name: v}}, {}, "x", "/jobs/0") for v in (a, b)]
    assert (ours[0] == ours[1]) == (fio_a == fio_b), (name, a, b, fio_a, fio_b, ours)


@pytest.mark.parametrize("a, b", [({"rw": "rw"}, {"rw": "readwrite"}), ({"bs": "4k,8k", "rw": "randread"}, {"bs": "4k", "rw": "randread"}),
                                  ({"bs": "8k,4k", "rw": "write"}, {"bs": "4k", "rw": "write"}), ({"bs": "0x1000"}, {"bs": "4k"}),
                                  ({"thinktime": "1m"}, {"thinktime": "60000000"}), ({"thinktime": "1ms"}, {"thinktime": "1000"})])
def test_the_named_spellings_are_one(a, b):
    """rw=rw is readwrite (fio --cmdhelp=rw: both "Sequential read and write mix"); a read-only
    job's bs=4k,8k is 4k reads (bs=4k: fio's default bs is 4096); thinktime=1m is a minute."""
    assert fio.job_options({"job options": a}, {}, "x", "/jobs/0") == fio.job_options({"job options": b}, {}, "x", "/jobs/0")
    assert fio.job_options({"job options": {"thinktime": "1m"}}, {}, "x", "/jobs/0") != \
        fio.job_options({"job options": {"thinktime": "1048576"}}, {}, "x", "/jobs/0")


# --- 7: an option given at fio's default is the option left out -------------------------------------
def _cmdhelp_defaults() -> dict[str, str]:
    """Each option `fio --cmdhelp=all` lists with the default its `fio --cmdhelp=NAME` states."""
    names = re.findall(r"^\s*([a-z][a-z0-9_]*)\s*:", subprocess.run(["fio", "--cmdhelp=all"], capture_output=True,
                                                                      text=True, timeout=60).stdout, re.M)
    def help_of(name):
        return name, subprocess.run(["fio", f"--cmdhelp={name}"], capture_output=True, text=True, timeout=60).stdout
    out = {}
    with ThreadPoolExecutor(8) as pool:  # 210 short runs of fio
        for name, text in pool.map(help_of, sorted(set(names))):
            found = re.search(r"^\s*default: (.*)$", text, re.M)
            if found and found.group(1).strip() not in ("no default", "(null)", ""):
                out[name] = found.group(1).strip()
    return out


@pytest.mark.skipif(shutil.which("fio") is None, reason="fio is not installed")
def test_every_option_at_the_default_fio_states_is_the_option_left_out():
    """Walks every option of fio's --cmdhelp with its stated default, and the options whose
    default the HOWTO states beside it (no limit, the same as another option)."""
    defaults = _cmdhelp_defaults()
    assert len(defaults) > 50  # fio 3.33 states about a hundred
    # (ioengine's default is the platform's; filename_format, a place, is not compared)
    skipped = {"ioengine", "filename_format"}
    named = {"ramp_time": "0", "rate": "0", "rate_iops": "0", "max_latency": "0", "sync": "0", "unified_rw_reporting": "0",
             "cpus_allowed_policy": "shared", "kb_base": "1024", "bs": "4k", "rw": "read"}
    left_out = fio.job_options({"job options": {}}, {}, "x", "/jobs/0")
    differ = {}
    for name, value in {**defaults, **named}.items():
        if name in skipped:
            continue
        given = fio.job_options({"job options": {name: value}}, {}, "x", "/jobs/0")
        if given != left_out:
            differ[name] = (value, {k: v for k, v in given.items() if left_out.get(k) != v})
    assert differ == {}
    for options in ({"iodepth": "8", "iodepth_low": "8"}, {"bs": "8k", "ba": "8k"}, {"bs": "8k", "ba": "8192"}):
        (name, value), *_ = options.items()
        assert fio.job_options({"job options": options}, {}, "x", "/jobs/0") == \
            fio.job_options({"job options": {name: value}}, {}, "x", "/jobs/0")


# --- 8: a refusal names fio's options, and only those that differ for the job it names ---------------
OTHER = {"fsync": "1", "ioengine": "sync", "direct": "1", "rwmixread": "30"}


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(depths=st.tuples(st.sampled_from(["1", "2", "8"]), st.sampled_from(["16", "32"])), other=st.sampled_from(sorted(OTHER)),
       first=st.booleans())
def test_a_multi_job_refusal_names_only_what_differs_for_its_job(tmp_path_factory, capsys, depths, other, first):
    """Job a swept in iodepth, job b changed in one other option: the refusal names b and that
    option alone (not a's iodepth)."""
    tmp = tmp_path_factory.mktemp("multi")
    base = {"rw": "randread", "bs": "4k", "iodepth": None, "direct": None}
    a, b = ("a", 0), ("b", 1)
    one = _jobs((a[0], {**base, "iodepth": depths[0]}, 0), (b[0], base, 1))
    two = _jobs((a[0], {**base, "iodepth": depths[1]}, 0), (b[0], {**base, other: OTHER[other]}, 1))
    paths = [tmp / "one.json", tmp / "two.json"]
    for path, doc in zip(paths, (one, two) if first else (two, one)):
        path.write_text(json.dumps(doc))
    code = main(["import", "fio", *map(str, paths), "--filesystem", "ext4", "--out", str(tmp / "out")])
    err = capsys.readouterr().err.strip()
    assert code == 1 and len(err.splitlines()) == 1, err
    named = re.search(r"files of job '([^']*)' differ in (.*?); expected", err)
    assert named and named.group(1).endswith("b") and named.group(2) == other, err
    assert "iodepth" not in err.split(" found ")[1] and "jobs_in_report" not in err


def test_group_reporting_is_named_by_fio_s_option():
    """numjobs=2 with and without group_reporting: fio writes one entry or two; the refusal names
    group_reporting, not the importer's own count."""
    parsed = []
    for i, (numjobs, entries) in enumerate((("2", 2), ("2", 1))):
        doc = _jobs(*[("j", {"rw": "randread", "bs": "4k", "numjobs": numjobs}, 0)] * entries)
        parsed.append((f"raw/x/{i}", fio.parse(json.dumps(doc), f"{i}.json")))
    with pytest.raises(Exception) as refused:
        import_.swept(parsed, ["0.json", "1.json"])
    assert "differ in group_reporting" in str(refused.value)
