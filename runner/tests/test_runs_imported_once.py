"""One run is imported once into a folder, whatever output holds it (adversary of #65, round 74):
a run (one dd summary) that an earlier import into the folder holds is refused in any output,
named by the input's line and the earlier result, and so is an output holding one run twice
over two of its inputs. A dd run is its summary as dd reads it: quoted as in a reply, the same;
a fio terse line is a run, and lines of one job and group (runs appended to a log, or numjobs
clones: terse does not tell) are never summed unless the user says they are clones; runs not imported yet are imported, and every result validate accepts.

The expected answers come from the drawn runs themselves (which run sits on which line of which
file), not from the importer's reading."""
import contextlib
import datetime as real
import json
import re
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, assume, example, given, settings, strategies as st

from fsatlas.cli import main
from fsatlas.commands import import_
from fsatlas.results.resultfile import readable
from fsatlas.results.validation import reviewed, validate_file
from testutil import SAMPLES


@contextlib.contextmanager
def _clock():
    """import_'s clock moving a second at each reading: every import its own id, no sleeping."""
    now = [real.datetime(2026, 12, 1, 12, 0, 0)]

    class Clock(real.datetime):
        @classmethod
        def now(cls, tz=None):
            now[0] += real.timedelta(seconds=1)
            return now[0].replace(tzinfo=tz)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(import_, "dt", SimpleNamespace(**{**vars(real), "datetime": Clock}))
        yield


def _dd_run(k: int) -> str:
    """Run k of a log: GNU dd's three lines, its time its own."""
    return f"64+0 records in\n64+0 records out\n67108864 bytes (67 MB, 64 MiB) copied, 0.05{k:02d}987 s, 1.2 GB/s\n"


def _imported(capsys, fmt: str, paths: list, out, *options) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["import", fmt, *map(str, paths), "--filesystem", "ext4", *options, "--out", str(out)])
    captured = capsys.readouterr()
    if code == 0:  # what the importer writes, validate accepts
        for path in captured.out.split():
            assert [p for p in reviewed(validate_file(path)) if p.severity == "error"] == [], path
    return code, captured.err


def _files(out) -> dict:
    return {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}


def _readable(path, cell) -> dict:
    """cell as the result's read form holds it (schema 2 stores no summaries)."""
    result = json.loads(path.read_text())
    return readable(result)["cells"][result["cells"].index(cell)]


RUNS = st.lists(st.integers(0, 7), min_size=1, max_size=5, unique=True)
QUOTES = ["> ", ">> ", "> > ", ">", "    ", "\t", "  > ", "| "]  # e-mail and GitHub replies, indented code


def _quoted(text: str, prefix: str) -> str:
    return "".join(prefix + line for line in text.splitlines(True))




@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(first=RUNS, second=RUNS, quotes=st.tuples(st.sampled_from(["", *QUOTES]), st.sampled_from(["", *QUOTES])))
@example(first=[0, 1], second=[0, 1, 2], quotes=("", ""))  # the log grown by a run (`dd ... 2>> dd.log`)
@example(first=[0, 1, 2], second=[1], quotes=("", ""))  # a run of it alone
@example(first=[0, 1], second=[2, 3], quotes=("", ""))  # runs after it: new
@example(first=[0], second=[0], quotes=("", "> "))  # quoted as in a reply
@example(first=[0, 1], second=[2, 1], quotes=(">> ", "    "))
def test_a_dd_log_split_into_two_imports_is_refused_at_its_first_run_imported_already(tmp_path_factory, capsys,
                                                                                      first, second, quotes):
    """Any split of dd runs into two logs imported one after the other into one folder, each
    maybe quoted as in an e-mail or a GitHub reply (each line after "> ", ">> ", indented: the
    output it quotes): where they share a run, the second import is refused at the first of its
    lines that holds one, in one line naming that input, its line and the earlier result, and
    nothing is written; where they share none it is imported."""
    folder = tmp_path_factory.mktemp("dd-log")
    (folder / "a.txt").write_text(_quoted("".join(map(_dd_run, first)), quotes[0]))
    (folder / "b.txt").write_text(_quoted("".join(map(_dd_run, second)), quotes[1]))
    out = folder / "out"
    with _clock():
        assert _imported(capsys, "dd", [folder / "a.txt"], out)[0] == 0
        (earlier,) = (out / "results").iterdir()
        before = _files(out)
        code, err = _imported(capsys, "dd", [folder / "b.txt"], out)
    shared = [p for p, k in enumerate(second) if k in first]
    if not shared:
        assert code == 0, err
        return
    line = 3 * shared[0] + 3  # its summary: the third line of the run's three
    assert code == 1 and len(err.strip().splitlines()) == 1, err
    assert f"{folder / 'b.txt'}: line {line}: " in err and "imported already" in err and str(earlier) in err, err
    assert f"line {3 * first.index(second[shared[0]]) + 3} of its 001-a.txt" in err, err
    assert _files(out) == before


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(first=RUNS, second=RUNS)
def test_two_inputs_of_one_import_holding_one_run_are_refused(tmp_path_factory, capsys, first, second):
    """Two logs given to one import that share a run would count it twice: refused at the second
    input's first line holding one, naming the first input's line."""
    folder = tmp_path_factory.mktemp("dd-two")
    (folder / "a.txt").write_text("".join(map(_dd_run, first)))
    (folder / "b.txt").write_text("".join(map(_dd_run, second)) + "\n")  # never the same bytes
    out = folder / "out"
    with _clock():
        code, err = _imported(capsys, "dd", [folder / "a.txt", folder / "b.txt"], out)
    shared = [p for p, k in enumerate(second) if k in first]
    if not shared:
        assert code == 0, err
        return
    assert code == 1 and len(err.strip().splitlines()) == 1, err
    if second == first:  # every figure the same: refused before, as one output given twice
        assert "the same run as FILE 1" in err, err
        return
    assert f"{folder / 'b.txt'}: line {3 * shared[0] + 3}: " in err, err
    assert f"line {3 * first.index(second[shared[0]]) + 3} of {folder / 'a.txt'}" in err, err
    assert not (out / "results").exists() or not list((out / "results").iterdir())


DD_SAMPLES = sorted((SAMPLES / "dd").glob("*.txt"))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sample=st.sampled_from(DD_SAMPLES), quote=st.sampled_from(QUOTES))
def test_each_dd_sample_quoted_is_refused_and_a_figure_changed_is_not(tmp_path_factory, capsys, sample, quote):
    """dd's own outputs, in every locale the samples hold, quoted: refused as imported already;
    the same quoted output with each run's time changed in one digit is other runs, imported."""
    folder = tmp_path_factory.mktemp("dd-sample")
    text = sample.read_text()
    (folder / "q.txt").write_text(_quoted(text, quote))
    out = folder / "out"
    with _clock():
        assert _imported(capsys, "dd", [sample], out)[0] == 0
        code, err = _imported(capsys, "dd", [folder / "q.txt"], out)
        assert code == 1 and "imported already" in err and len(err.strip().splitlines()) == 1, err
        # every run's time changed in its last digit (each sample's summaries write "S s")
        other = re.sub(r"(\d[.,]\d*)(\d)(?= s\b)", lambda m: m[1] + str((int(m[2]) + 1) % 10), text)
        assert other != text
        (folder / "other.txt").write_text(_quoted(other, quote))
        code, err = _imported(capsys, "dd", [folder / "other.txt"], out)
        assert code == 0, err


TERSE_LINE = (SAMPLES / "fio" / "fio-3.33-terse-v5.txt").read_text().splitlines()[1]  # rand-read, group 1


def _terse_run(k: int) -> str:
    """Run k of `fio --minimal job.fio >> log`: the sample's rand-read line with its runtime k ms
    longer, its bandwidth and IOPS as fio computes them from the same I/O (16384 KiB)."""
    fields = TERSE_LINE.split(";")
    runtime = int(fields[8]) + k
    fields[6], fields[7], fields[8] = str(16384 * 1000 // runtime), str(4096 * 1000 // runtime), str(runtime)
    return ";".join(fields) + "\n"


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(runs=st.lists(st.integers(0, 30), min_size=2, max_size=5, unique=True), again=st.integers(0, 4),
       reading=st.sampled_from([None, "runs", "clones"]))
@example(runs=[0, 1], again=0, reading=None)  # the adversary's log: two runs, refused rather than summed
def test_a_terse_log_of_appended_runs_is_never_summed_silently(tmp_path_factory, capsys, runs, again, reading):
    """A terse log of k runs of one job appended one after another: without --terse-lines it is
    refused in one line naming its first two lines and the option; with --terse-lines runs each
    line is a repetition (the cell's samples are the lines' own figures); with clones they are
    summed, as the user said. Either way, a line of the log imported again alone is refused as
    imported already, naming its line and the earlier result."""
    folder = tmp_path_factory.mktemp("terse")
    (folder / "log.txt").write_text("".join(map(_terse_run, runs)))
    out = folder / "out"
    with _clock():
        code, err = _imported(capsys, "fio", [folder / "log.txt"], out, *(("--terse-lines", reading) if reading else ()))
        if reading is None:
            assert code == 1 and len(err.strip().splitlines()) == 1, err
            assert f"{folder / 'log.txt'}: lines 1 and 2 are both job 'rand-read' of group 1" in err, err
            assert "--terse-lines clones" in err and "--terse-lines runs" in err, err
            assert not out.exists() or not list(out.rglob("*.json"))
            return
        assert code == 0, err
        (path,) = (out / "results").iterdir()
        (cell,) = [c for c in json.loads(path.read_text())["cells"] if c["workload"] == "fio-rand-read"]
        bandwidths = [16384 * 1000 // (int(TERSE_LINE.split(";")[8]) + k) * 1024 for k in runs]
        if reading == "runs":
            assert cell["parameters"]["jobs_in_report"] == 1
            assert _readable(path, cell)["metrics"]["throughput"]["samples"] == bandwidths
        else:
            assert cell["parameters"]["jobs_in_report"] == len(runs)
            assert _readable(path, cell)["metrics"]["throughput"]["samples"] == [sum(bandwidths)]
        k = again % len(runs)
        (folder / "one.txt").write_text(_terse_run(runs[k]))
        before = _files(out)
        code, err = _imported(capsys, "fio", [folder / "one.txt"], out)
    assert code == 1 and len(err.strip().splitlines()) == 1, err
    assert f"{folder / 'one.txt'}: line 1: a run imported already, in the result {path} (line {k + 1} of its " in err, err
    assert _files(out) == before


def test_numjobs_clones_in_json_are_summed_without_being_asked(tmp_path, capsys):
    """fio's JSON says which entries are one run's clones (one report): summed as ever, no option
    asked (the numjobs sweep's samples: one entry a clone)."""
    out = tmp_path / "out"
    with _clock():
        code, err = _imported(capsys, "fio", [SAMPLES / "fio" / "sweep-numjobs" / "numjobs-2.json"], out)
    assert code == 0, err
    (path,) = (out / "results").iterdir()
    assert [c["parameters"]["jobs_in_report"] for c in json.loads(path.read_text())["cells"]] == [2]
    # --terse-lines says nothing of a JSON report: refused, not passed over (adversary of #65, round 76)
    for reading in ("runs", "clones"):
        code, err = _imported(capsys, "fio", [SAMPLES / "fio" / "sweep-numjobs" / "numjobs-2.json"], tmp_path / reading,
                              "--terse-lines", reading)
        assert code == 1 and err.count("\n") == 1 and "--terse-lines given for fio's JSON report" in err, err
        assert not (tmp_path / reading).exists()


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(runs=st.lists(st.integers(0, 7), min_size=1, max_size=5), terse=st.booleans())
@example(runs=[0, 1, 0, 1], terse=False)  # `cat old.log grown.log > all.log` (adversary of #65, round 76)
@example(runs=[0, 0], terse=True)
@example(runs=[1, 0, 1], terse=False)  # two runs that printed one time (round 78)
def test_a_run_held_twice_in_one_input_is_refused_at_its_second_line(tmp_path_factory, capsys, runs, terse):
    """One input holding a run twice (a dd summary, a terse line): refused at the line of its
    second copy, naming a line of the first, nothing written; each run once, it imports (the hand
    count: which run sits on which line). A dd summary repeated is a copy where it follows its
    first or a run beside it is repeated beside it too (a log and its grown copy, a session pasted
    twice); alone, it is two runs that printed one byte count and time (BSD's microseconds:
    adversary of #65, round 78), each imported."""
    folder = tmp_path_factory.mktemp("twice")
    if terse:
        text, lines = "".join(_terse_run(k) for k in runs), list(range(1, len(runs) + 1))
        options = ("--terse-lines", "runs")
    else:
        text, lines = "".join(_dd_run(k) for k in runs), [3 * i + 3 for i in range(len(runs))]
        options = ()

    def copy_of(j: int, i: int) -> bool:
        return runs[i] == runs[j] and (terse or i == j - 1 or (i > 0 and runs[i - 1] == runs[j - 1])
                                       or (j + 1 < len(runs) and runs[i + 1] == runs[j + 1]))
    path = folder / "log.txt"
    path.write_text(text)
    code, err = _imported(capsys, "fio" if terse else "dd", [path], folder / "out", *options)
    copy = next((j for j in range(len(runs)) if any(copy_of(j, i) for i in range(j))), None)
    if copy is None:
        assert code == 0, err
        return
    assert code == 1 and err.count("\n") == 1, err
    found = re.search(rf"{re.escape(str(path))}: line {lines[copy]}: a run that line (\d+) holds too", err)
    assert found and int(found[1]) in [lines[i] for i in range(copy) if runs[i] == runs[copy]], err
    if terse:
        assert int(found[1]) == lines[runs.index(runs[copy])], err
    assert not (folder / "out").exists() or _files(folder / "out") == {}


IOZONE = (SAMPLES / "iozone" / "throughput-mode-beegfs.txt").read_text()
BONNIE = next(line for line in (SAMPLES / "bonnie" / "bonnie-1.96-stdout.txt").read_text().splitlines()
              if line.startswith("1.96,"))


def _iozone_run(k: int) -> tuple[str, int]:
    """Run k of an IOzone log (`iozone -t 1 ... >> log`): the sample with every Children and
    Parent figure k kB/s higher (a run of its own measures each anew), and the number of its
    first Children line within the run."""
    return re.sub(r"(=\s+)(\d+\.\d+)( kB/sec)", lambda m: f"{m.group(1)}{float(m.group(2)) + k:.2f}{m.group(3)}", IOZONE), 2


def _bonnie_run(k: int) -> tuple[str, int]:
    """Run k of a bonnie++ CSV log: the sample's line with every rate (a figure over 100 after its
    size) k higher: a run of its own measures each anew."""
    fields = BONNIE.split(",")
    fields[6:] = [(str(int(f) + k) if f.isdigit() else f"{float(f) + k:.1f}")
                  if re.fullmatch(r"\d+(\.\d+)?", f) and float(f) > 100 else f for f in fields[6:]]
    return ",".join(fields) + "\n", 1


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tool=st.sampled_from(["iozone", "bonnie"]), first=RUNS, second=st.lists(st.integers(0, 7), min_size=1, max_size=4))
@example(tool="iozone", first=[0], second=[0, 1])  # `iozone ... >> log`, imported again grown (round 77)
@example(tool="bonnie", first=[0], second=[1, 1])  # one CSV line twice in one input
def test_iozone_and_bonnie_runs_are_imported_once(tmp_path_factory, capsys, tool, first, second):
    """IOzone's outputs and bonnie++'s CSV lines appended to a log (adversary of #65, round 77):
    a run held twice in one input is refused at its second copy's line; one an earlier import
    holds, at its line; otherwise the log imports (the hand count: which run sits where)."""
    make = _iozone_run if tool == "iozone" else _bonnie_run
    folder = tmp_path_factory.mktemp(tool)

    def log(runs):  # (text, line of each run's key line)
        text, at = "", []
        for k in runs:
            run, line = make(k)
            at.append(text.count("\n") + line)
            text += run if run.endswith("\n") else run + "\n"
        return text, at
    (folder / "a.txt").write_text(log(first)[0])
    text, at = log(second)
    (folder / "b.txt").write_text(text)
    out = folder / "out"
    with _clock():
        assert _imported(capsys, tool, [folder / "a.txt"], out, "--redact")[0] == 0
        before = _files(out)
        code, err = _imported(capsys, tool, [folder / "b.txt"], out, "--redact")
    twice = next((i for i, k in enumerate(second) if k in second[:i]), None)
    held = next((i for i, k in enumerate(second) if k in first), None)
    if twice is None and held is None:
        assert code == 0, err
        return
    assert code == 1 and err.count("\n") == 1 and _files(out) == before, err
    if twice is not None:  # a copy within this input is found before the earlier results are read
        assert f"line {at[twice]}: a run that line {at[second.index(second[twice])]} holds too" in err, err
    else:
        assert f"line {at[held]}: a run imported already" in err, err


# what a logger writes before each line of a program's output: `ts`, syslog, journald, Jenkins' timestamper
STAMPS = ["%b %d %H:%M:%S ", "%b %e %H:%M:%S iozone[4242]: ", "[%Y-%m-%dT%H:%M:%S.%fZ] ", "%H:%M:%S | ",
          "%Y-%m-%d %H:%M:%S,%f "]


def _logged(text: str, quote: str, stamp: str, start: real.datetime) -> str:
    """text with each line after quote and its own time in stamp's shape, a second after the last."""
    return "".join(quote + (start + real.timedelta(seconds=i)).strftime(stamp) + line
                   for i, line in enumerate(text.splitlines(True)))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(first=RUNS, second=st.lists(st.integers(0, 7), min_size=1, max_size=3, unique=True),
       quote=st.sampled_from(["", *QUOTES]), stamp=st.sampled_from(["", *STAMPS]),
       start=st.datetimes(real.datetime(2000, 1, 1), real.datetime(2035, 1, 1)), together=st.booleans())
@example(first=[0], second=[0], quote="> ", stamp="", start=real.datetime(2024, 1, 15), together=False)  # a reply
@example(first=[0], second=[0], quote="", stamp=STAMPS[0], start=real.datetime(2024, 1, 15), together=True)  # `ts`
def test_an_iozone_run_quoted_or_after_a_logger_s_time_is_one_run(tmp_path_factory, capsys, first, second, quote,
                                                                  stamp, start, together):
    """An IOzone throughput-mode run is what its Children lines are read as (adversary of #65,
    round 78): the log of runs `second`, each line quoted or after a logger's time, is refused at
    the first Children line of a run of `first`, imported before or (together) earlier in the same
    input; with no run of `first` it imports."""
    folder = tmp_path_factory.mktemp("iozone-logged")
    runs_a, runs_b = [_iozone_run(k)[0] for k in first], [_iozone_run(k)[0] for k in second]
    text_a = "".join(r if r.endswith("\n") else r + "\n" for r in runs_a)
    text_b = _logged("".join(r if r.endswith("\n") else r + "\n" for r in runs_b), quote, stamp, start)
    lines_a, run_lines = text_a.count("\n"), IOZONE.rstrip("\n").count("\n") + 1
    out = folder / "out"
    with _clock():
        if together:
            (folder / "b.txt").write_text(text_a + text_b)
        else:
            (folder / "a.txt").write_text(text_a)
            (folder / "b.txt").write_text(text_b)
            assert _imported(capsys, "iozone", [folder / "a.txt"], out, "--redact")[0] == 0
        before = _files(out) if out.exists() else {}
        code, err = _imported(capsys, "iozone", [folder / "b.txt"], out, "--redact")
    held = next((i for i, k in enumerate(second) if k in first), None)
    if held is None:
        assert code == 0, err
        return
    line, earlier = (lines_a if together else 0) + run_lines * held + 2, run_lines * first.index(second[held]) + 2
    assert code == 1 and err.count("\n") == 1 and (_files(out) if out.exists() else {}) == before, err
    assert f"{folder / 'b.txt'}: line {line}: " in err, err
    assert (f"a run that line {earlier} holds too" if together else f"imported already, in the result") in err, err


# dd's summary of `bs=4k count=1` as BSD/macOS (%.6f secs), busybox (%f seconds) and GNU (%g s) print it
DD_SUMMARIES = {
    "bsd": lambda t: f"4096 bytes transferred in {t:.6f} secs ({4096 / t:.0f} bytes/sec)",
    "busybox": lambda t: f"4096 bytes (4.0KB) copied, {t:f} seconds, {4096 / t / 2 ** 20:.1f}MB/s",
    "gnu": lambda t: f"4096 bytes (4.1 kB, 4.0 KiB) copied, {t:g} s, {4096 / t / 1e6:.1f} MB/s",
}


def _short_runs(rnd, n: int, pool: int) -> list[float]:
    """The times of n short runs, each of a pool of microsecond times (so that runs print one
    time often), as distinct runs do: none the time of the run before it, no two neighbours in
    the times of two others (what a copy would show)."""
    times, pairs = [], set()
    choices = [(40 + k) * 1e-6 for k in range(pool)]
    for _ in range(n):
        allowed = [t for t in choices if not times or (t != times[-1] and (times[-1], t) not in pairs)]
        if not allowed:
            break
        times.append(rnd.choice(allowed))
        if len(times) > 1:
            pairs.add((times[-2], times[-1]))
    return times


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rnd=st.randoms(use_true_random=False), n=st.integers(2, 14), pool=st.integers(3, 8),
       shape=st.sampled_from(sorted(DD_SUMMARIES)), copy=st.sampled_from([None, "grown", "twice", "overlap"]),
       cut=st.integers(0, 20))
def test_short_dd_runs_of_one_printed_time_are_runs_of_their_own_and_a_copy_is_not(tmp_path_factory, capsys, rnd, n,
                                                                                   pool, shape, copy, cut):
    """A log of short dd runs whose summaries print one time now and then (BSD's, busybox's
    microseconds: adversary of #65, round 78) imports each run as a repetition, its throughput
    the hand count's; the same log with a stretch of it copied in (`cat old.log grown.log`, a
    session pasted twice, two pieces that overlap) is refused, in one line, by its first or second
    summary at the latest, naming a line of the same figures before it (where the runs beside the
    junction print the times of two runs beside each other before, it is refused there: what
    the log shows is a copy of them too)."""
    times = _short_runs(rnd, n, pool)
    n = len(times)
    copied = {None: [], "grown": list(range(1 + cut % n)), "twice": list(range(n)),
              "overlap": list(range(cut % n, n))}[copy]
    order = (copied + list(range(n))) if copy == "grown" else list(range(n)) + copied
    folder = tmp_path_factory.mktemp("dd-short")
    path = folder / "dd.log"
    path.write_text("".join(f"1+0 records in\n1+0 records out\n{DD_SUMMARIES[shape](times[k])}\n" for k in order))
    code, err = _imported(capsys, "dd", [path], folder / "out", "--workload", "tiny-block-write")
    if copy is None:
        assert code == 0, err
        (result,) = (folder / "out" / "results").iterdir()
        (cell,) = json.loads(result.read_text())["cells"]
        printed = [float(re.search(r"in ([\d.]+) secs|, ([\d.e-]+) s(?:econds)?,", DD_SUMMARIES[shape](t)).group(
            1 if shape == "bsd" else 2)) for t in times]
        assert _readable(result, cell)["metrics"]["throughput"]["samples"] == pytest.approx([4096 / t for t in printed])
        return
    first = len(copied) if copy == "grown" else n  # where the copy (or the grown log) begins again
    assert code == 1 and err.count("\n") == 1, err
    found = re.search(rf"{re.escape(str(path))}: line (\d+): a run that line (\d+) holds too", err)
    assert found and int(found[1]) % 3 == 0 and int(found[2]) % 3 == 0, err
    at, earlier = int(found[1]) // 3 - 1, int(found[2]) // 3 - 1
    assert earlier < at <= first + 1 and times[order[earlier]] == times[order[at]], err


PTS = (SAMPLES / "pts" / "schema-two-systems.xml").read_text()
PTS_SYSTEMS = re.findall(r"  <System>.*?</System>\n", PTS, re.S)
PTS_RESULTS = re.findall(r"  <Result>.*?</Result>\n", PTS, re.S)
PTS_NAMES = [re.search(r"<Identifier>(.*?)</Identifier>", s)[1] for s in PTS_SYSTEMS]


def _entries(result: str, systems) -> list[tuple[int, str]]:
    """(system, its <Entry>) of each entry of the sample's result of the given systems."""
    return [(s, e) for e in re.findall(r"      <Entry>.*?</Entry>\n", result, re.S) for s in systems
            if f"<Identifier>{PTS_NAMES[s]}</Identifier>" in e]


def _pts_file(systems: list, results: list, rename: bool = False, days: int = 0) -> tuple[str, list]:
    """The sample as PTS would have written it with only these systems and results (a result
    without an entry of them, or a system without an entry, not at all), each system renamed, or
    its TimeStamp days later; and (result, [(system, whether it has runs)]) of each result
    written, in order."""
    systems = [s for s in systems if any(_entries(PTS_RESULTS[r], [s]) for r in results)]
    text, written = PTS[:PTS.index("  <System>")] + "".join(PTS_SYSTEMS[s] for s in systems), []
    for r in results:
        mine = _entries(PTS_RESULTS[r], systems)
        if mine:
            head, tail = PTS_RESULTS[r].split("      <Entry>", 1)[0], PTS_RESULTS[r].rsplit("</Entry>\n", 1)[1]
            text += head + "".join(e for _, e in mine) + tail
            written.append((r, [(s, "<RawString></RawString>" not in e) for s, e in mine]))
    text += "</PhoronixTestSuite>\n"
    if rename:  # phoronix-test-suite rename-identifier-in-result-file: the same runs
        text = text.replace(" on NVMe</Identifier>", " on NVMe, renamed</Identifier>")
    stamp = "%Y-%m-%d %H:%M:%S"
    return re.sub(r"(?<=<TimeStamp>)[^<]+", lambda m: (real.datetime.strptime(m[0], stamp) + real.timedelta(days=days))
                  .strftime(stamp), text), written


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(systems=st.sets(st.sampled_from([0, 1]), min_size=1), added=st.sets(st.sampled_from([0, 1])),
       results=st.sets(st.integers(0, len(PTS_RESULTS) - 1), min_size=1),
       more=st.sets(st.integers(0, len(PTS_RESULTS) - 1)), rename=st.booleans(), days=st.sampled_from([0, 0, 1, 7]),
       together=st.booleans())
@example(systems={0}, added={1}, results={4, 5, 6}, more=set(), rename=False, days=0,
         together=False)  # a second system added
@example(systems={0}, added=set(), results={0, 1}, more=set(), rename=False, days=7,
         together=False)  # a week later, one identifier
@example(systems={0}, added=set(), results={4}, more=set(), rename=False, days=0, together=True)  # one file twice
@example(systems={0}, added=set(), results={4}, more={5}, rename=False, days=0, together=True)  # and grown by a test
def test_a_pts_file_grown_by_systems_or_tests_is_refused_at_its_first_entry_imported_already(
        tmp_path_factory, capsys, systems, added, results, more, rename, days, together):
    """A PTS result file imported, then the file as PTS grew it (a system or a test added, the
    systems renamed): refused at the first of its entries with runs that the earlier file held,
    naming that entry and the earlier one, nothing written (adversary of #65, round 78: the first
    system's runs of one figure a test were imported twice). The same file of runs stamped a day
    or a week later is other runs, whatever figures they share (a disk's 0.7 MB/s and 180 IOPS
    recur): imported. Given together to one import, the two files are refused alike, naming both."""
    folder = tmp_path_factory.mktemp("pts-grown")
    earlier, held = _pts_file(sorted(systems), sorted(results))
    assume(held)  # a file of no system is none PTS writes
    later, grown = _pts_file(sorted(systems | added), sorted(results | more), rename, days)
    (folder / "a.xml").write_text(earlier)
    (folder / "b.xml").write_text(later)
    out = folder / "out"
    with _clock():
        if not together:
            assert _imported(capsys, "pts", [folder / "a.xml"], out)[0] == 0
        before = _files(out) if out.exists() else {}
        code, err = _imported(capsys, "pts", [folder / "a.xml", folder / "b.xml"][not together:], out)
    ran = {(r, s) for r, entries in held for s, runs in entries if runs}  # the earlier file's runs
    first = next(((n, r, s) for n, (r, entries) in enumerate(grown) for s, _ in entries if (r, s) in ran), None)
    if days or first is None:
        assert code == 0, err
        return
    n, r, s = first
    name = PTS_NAMES[s] + (", renamed" if rename else "")
    test = re.search(r"<Identifier>(.*?)</Identifier>", PTS_RESULTS[r])[1]
    was = next(k for k, (q, _) in enumerate(held) if q == r)
    assert code == 1 and err.count("\n") == 1 and (_files(out) if out.exists() else {}) == before, err
    if together:  # named as one system twice (every figure alike) or by the first entry both hold
        assert f"{folder / 'b.xml'}: " in err and str(folder / "a.xml") in err, err
        return
    assert f"{folder / 'b.xml'}: Result {n + 1} ({test}), Entry {name!r}: a run imported already" in err, err
    assert f"(Result {was + 1} ({test}), Entry {PTS_NAMES[s]!r} of its 001-a.xml)" in err, err
