"""The rule (#60 round 30): a runner's file records each session it ran in (`sessions`: its start
in seconds after created, to the millisecond, and how long it ran; a resumed run adds one), so a
pause is read where it fell, not guessed from the wall time. Its sessions run one after another,
add up to its wall time, and hold every repetition's start and every fio report it holds (from
when fio's jobs began to when fio wrote the report, by fio's own millisecond clock). A file that
records none may not show a pause. compare reads two files' clocks by their sessions. Expected
figures come from this file's own reading of the committed run and its reports (patterns over
the bytes, not fio's importer)."""
import datetime as dt
import json
import re

from hypothesis import example, given, settings, strategies as st

from fsatlas.results import bundle, comparison, fio_json, resultfile, shares, validation
from testutil import RESULTS, under_id

SOURCE = RESULTS / "20261127T143616Z-m-b6d0b06748-standard.json"  # a runner's run, with `started` and its bundle
DOC = resultfile.readable(json.loads(SOURCE.read_text()))
MEMBERS = bundle.read(str(SOURCE.parent.parent), SOURCE.stem)
CREATED = dt.datetime.fromisoformat(DOC["created"].replace("Z", "+00:00")).timestamp()
STARTS = sorted(t for c in DOC["cells"] if c["status"] == "ok" for t in c["started"])


def _span(data: bytes):
    """(began, written) of a report of fio's in seconds after created, by hand: timestamp_ms less the
    longest "runtime" of a read, write or trim section (a job's own "job_runtime" is not one)."""
    written = re.search(rb'"timestamp_ms"\s*:\s*(\d+)', data)
    runtimes = [int(x) for x in re.findall(rb'"(?:read|write|trim)"\s*:\s*\{[^{}]*?"runtime"\s*:\s*(\d+)', data)]
    if not written or not runtimes:
        return None
    return (int(written.group(1)) - max(runtimes)) / 1000 - CREATED, int(written.group(1)) / 1000 - CREATED


# where each report's span is answered for: a cell's repetition, or a baseline's job or fill record
REPORTS = {}
for i, cell in enumerate(DOC["cells"]):
    for j, ref in enumerate(cell["raw"] if cell["status"] == "ok" else ()):
        name = bundle.member_of(DOC["id"], ref)
        if b'"fio version"' in MEMBERS[name][:4096]:
            REPORTS[name] = f"/cells/{i}/raw/{j}"
for field, job, names in bundle.baseline_reports(DOC["target"]):
    REPORTS.update((name, resultfile.pointer(["target", field, job])) for name in names)
REPORTS.update((f"{field}/{bundle.FILL_MEMBER}", resultfile.pointer(["target", field]))
               for field in bundle.BASELINE_FOLDERS if f"{field}/{bundle.FILL_MEMBER}" in MEMBERS)
SPANS = {name: _span(MEMBERS[name]) for name in REPORTS}
FIRST = min(min(s for s, _ in SPANS.values()), STARTS[0])  # the earliest thing the run did, after created
LAST = max(max(e for _, e in SPANS.values()), STARTS[-1])


def _with(sessions: list, wall: float | None = None) -> dict:
    """DOC recording these sessions [(began, seconds)], its wall time their sum unless given."""
    total = round(sum(s for _, s in sessions), 3)
    return {**DOC, "sessions": [{"began": b, "seconds": s} for b, s in sessions],
            "wall_seconds": total if wall is None else wall}


def test_the_committed_run_with_one_session_around_it_is_whole():
    """The named example's base: one session from just before the run's first deed to its wall
    time validates, reports and all; the figures hand-read from the bundle."""
    assert len(SPANS) == 682 and all(SPANS.values())  # every report of the run carries both fields
    doc = _with([(round(FIRST - 0.01, 3), DOC["wall_seconds"])])
    assert round(FIRST - 0.01, 3) + DOC["wall_seconds"] >= LAST
    assert validation.session_structure(doc) == []
    assert validation.report_session_problems(doc, MEMBERS, {}) == []


@settings(max_examples=25, deadline=None, database=None)
@given(wall_less=st.floats(0, 400), recorded=st.booleans())
@example(wall_less=DOC["wall_seconds"] - sum(c["wall_seconds"] for c in DOC["cells"] if c["status"] == "ok"),
         recorded=False)  # round 30: the earlier half's wall time cut to its cells' sum
def test_a_file_whose_start_times_show_a_pause_records_its_sessions(wall_less, recorded):
    """A wall time short of the last repetition's start by more than PAUSE_SLACK is a pause; without
    sessions the file is refused at /sessions (by validate and by compare's loader, which share
    structure_problems); with sessions it is read by them."""
    wall = round(DOC["wall_seconds"] - wall_less, 3)
    doc = {**DOC, "wall_seconds": wall}
    if recorded:  # the pause where this test puts it: before the last repetition
        first = round(STARTS[-1] - FIRST - 1.0, 3)
        doc = _with([(round(FIRST - 0.01, 3), first), (STARTS[-1] - 0.5, round(wall - first, 3))], wall)
    found = [p for p in validation.structure_problems(doc, "x.json") if p.path == "/sessions"]
    paused = STARTS[-1] > wall + shares.PAUSE_SLACK
    assert bool(found) is (paused and not recorded), (wall, found)


SESSIONS = st.lists(st.tuples(st.floats(0, 6000).map(lambda x: round(x, 3)), st.floats(0, 6000).map(lambda x: round(x, 3))),
                    min_size=1, max_size=4)


@settings(max_examples=60, deadline=None, database=None)
@given(sessions=SESSIONS, off=st.sampled_from([0.0, 0.0005, 0.004, -0.004, 1.0]))
@example(sessions=[(FIRST - 0.01, 97.0), (200.0, 4700.0)], off=0.0)  # a pause where repetitions started
def test_sessions_run_in_order_add_up_to_the_wall_time_and_hold_every_start(sessions, off):
    """Each session begins after the one before it ended (a millisecond allowed for rounding), their
    seconds add up to the wall time (a millisecond a session and one more), and each repetition
    started within one (a millisecond either side). By hand: the pointers expected."""
    doc = _with(sessions, round(sum(s for _, s in sessions) + off, 3))
    expected, end = set(), 0.0
    for i, (b, s) in enumerate(sessions):
        if b < end - 0.001:
            expected.add(f"/sessions/{i}/began")
        end = b + s
    if round(abs(off) * 1000) > len(sessions) + 1:
        expected.add("/sessions")
    for i, cell in enumerate(DOC["cells"]):
        outside = [j for j, t in enumerate(cell["started"] if cell["status"] == "ok" else ())
                   if all(t < b - 0.001 or t > b + s + 0.001 for b, s in sessions)]
        if outside:
            expected.add(f"/cells/{i}/started/{outside[0]}")
    assert {where for where, _ in validation.session_structure(doc)} == expected


@settings(max_examples=30, deadline=None, database=None)
@given(cut=st.floats(0, 1).map(lambda x: round(FIRST + x * (LAST - FIRST), 3)), gap=st.floats(0.001, 120))
@example(cut=97.9, gap=0.06)  # round 30's cut: the earlier half's first repetition at 97.964 s
def test_every_fio_report_ran_within_one_session(cut, gap):
    """A pause recorded at `cut` for `gap` seconds: each report of fio's (a cell's, a baseline job's,
    the fill record's) that did not run within one of the two sessions, 0.25 s allowed for the two
    clocks, is refused at its pointer, once a pointer; the expectation from this test's own reading
    of timestamp_ms and the runtimes in each report's bytes."""
    head = round(cut - (FIRST - 0.01), 3)
    rest = round(LAST + 1 - (cut + gap), 3)
    doc = _with([(round(FIRST - 0.01, 3), head), (round(cut + gap, 3), max(rest, 0.0))])
    spans = [(b, b + s) for b, s in ((round(FIRST - 0.01, 3), head), (round(cut + gap, 3), max(rest, 0.0)))]
    slack = validation.SESSION_SLACK_S
    expected = {REPORTS[name] for name, (b, e) in SPANS.items()
                if not any(lo - slack <= b and e <= hi + slack for lo, hi in spans)}
    found = validation.report_session_problems(doc, MEMBERS, {})
    assert {where for where, _ in found} == expected
    assert len(found) == len(expected) and all("outside them" in message for _, message in found)


def _exact(rid: str, created: str, began: float, seconds: float, starts: list) -> dict:
    """A run of DOC's machine, recording one session, its repetitions started at `starts` (offsets)."""
    cells = [{**c, "started": [starts[k % len(starts)] for k in range(len(c["started"]))]}
             for c in DOC["cells"][:3]]
    return {**under_id(DOC, rid), "created": created, "sessions": [{"began": began, "seconds": seconds}],
            "wall_seconds": seconds, "cells": cells}


@settings(max_examples=60, deadline=None, database=None)
@given(a_began=st.integers(0, 999), a_len=st.integers(1, 5000), b_at=st.integers(1000, 12000), b_len=st.integers(1, 3000))
@example(a_began=200, a_len=4800, b_at=4999, b_len=1000)  # b begins 1 ms before a ends, in a's last second
@example(a_began=200, a_len=4800, b_at=5001, b_len=1000)  # and 1 ms after: one after the other
def test_two_runs_recording_sessions_ran_at_once_exactly_when_their_sessions_meet(a_began, a_len, b_at, b_len):
    """Two runs of one machine each recording one session (times in milliseconds after 10:00:00):
    compare finds them at once exactly when their sessions share an instant, to the millisecond;
    the second created is cut to no longer hides a start (#60 round 30). By hand from the four
    times."""
    a0, a1 = a_began / 1000, (a_began + a_len) / 1000
    b0, b1 = b_at / 1000, (b_at + b_len) / 1000
    a = _exact("20261125T100000Z-m-b6d0b06748-standard", "2026-11-25T10:00:00Z", a0, a1 - a0, [a0, a1])
    whole = int(b0)  # b's created second, its session's start after it
    b = _exact(f"20261125T1000{whole:02d}Z-m-b6d0b06748-standard", f"2026-11-25T10:00:{whole:02d}Z",
               round(b0 - whole, 3), round(b1 - b0, 3), [round(b0 - whole, 3), round(b1 - whole, 3)])
    met = max(a0, b0) <= min(a1, b1)  # the two sessions share an instant
    assert bool(comparison.ran_at_once(a, b)) is met, (a0, a1, b0, b1)


def test_a_run_made_in_a_recorded_pause_is_not_refused_and_one_across_its_edge_is():
    """A run begun and ended within another's recorded pause is two runs one after the other on the
    clock; begun 1 ms before the pause ended (within its last second), it ran at once."""
    a = {**_exact("20261125T100000Z-m-b6d0b06748-standard", "2026-11-25T10:00:00Z", 0.2, 10.0, [0.3, 50.5]),
         "sessions": [{"began": 0.2, "seconds": 10.0}, {"began": 50.2, "seconds": 10.0}], "wall_seconds": 20.0}
    during = _exact("20261125T100020Z-m-b6d0b06748-standard", "2026-11-25T10:00:20Z", 0.5, 29.0, [0.6, 29.4])
    assert comparison.ran_at_once(a, during) == ""
    across = _exact("20261125T100020Z-m-b6d0b06748-standard", "2026-11-25T10:00:20Z", 0.5, 29.701, [0.6, 29.4])
    assert "while the other ran" in comparison.ran_at_once(a, across)


def test_a_client_mode_report_is_placed_by_its_whole_second_and_a_job_report_needs_its_milliseconds():
    """fio's client mode writes client_stats and no timestamp_ms: its span is its whole-second
    timestamp, each end moved inward by the second it was cut to (by hand from the sample: written at
    1795546103, its longest runtime 188 ms). A report of jobs without timestamp_ms has no span, and a
    file recording sessions is refused at the report (the runner's fio writes it)."""
    from testutil import SAMPLES
    client = json.loads((SAMPLES / "fio" / "fio-3.33-client-server-two-groups.json").read_text())
    assert fio_json.report_span(client) == (1795546103 + 1 - 0.188, 1795546103.0)
    name = next(n for n, p in REPORTS.items() if p.startswith("/cells/"))
    members = {**MEMBERS, name: re.sub(rb'"timestamp_ms"\s*:\s*\d+,?', b"", MEMBERS[name], count=1)}
    doc = _with([(round(FIRST - 0.01, 3), DOC["wall_seconds"])])
    found = validation.report_session_problems(doc, members, {})
    assert [where for where, _ in found] == [REPORTS[name]] and "timestamp_ms" in found[0][1]


@settings(max_examples=25, deadline=None, database=None)
@given(mantissa=st.integers(1, 99), exponent=st.integers(300, 5000), sign=st.sampled_from(["", "-"]),
       field=st.sampled_from(["wall_seconds", "sessions"]))
def test_a_number_beyond_a_double_is_refused_at_its_place(tmp_path_factory, mantissa, exponent, sign, field):
    """JSON's reader makes 1e999 infinity, so a wall time or a session could never end and every
    later run would read as at once: validate and compare's loader (resultfile.value_problems)
    refuse a number that is not finite at its JSON Pointer; one a double holds is read. By hand:
    Python's float of the same text."""
    token = f"{sign}{mantissa}.5e{exponent}"
    text = json.dumps({**json.loads(SOURCE.read_text()), field: "X"}).replace('"X"', token if field == "wall_seconds"
                                                                            else '[{"began": %s, "seconds": 1}]' % token)
    path = tmp_path_factory.mktemp("inf") / f"{DOC['id']}.json"
    path.write_text(text)
    found = resultfile.value_problems(resultfile.load_json(str(path)))
    beyond = float(token) in (float("inf"), float("-inf"))
    place = "/wall_seconds" if field == "wall_seconds" else "/sessions/0/began"
    assert [where for where, _ in found] == ([place] if beyond or abs(float(token)) > 1e18 else [])


def _resumed(doc: dict, tmp_path, members: dict | None = None) -> dict:
    """doc as the runner's --resume takes it up (execution.Run), its bundle of members beside it, and
    saves it at once: the file it writes, read back."""
    import copy
    from fsatlas.run import execution, matrix
    if members:
        (tmp_path / "raw").mkdir(exist_ok=True)
        bundle.write(members, bundle.path(str(tmp_path), doc["id"]))
    m = matrix.load()
    run = execution.Run(m, m.profile(doc["profile"]), str(tmp_path), None, copy.deepcopy(doc))
    return resultfile.readable(json.loads(open(run.save(False)).read()))


def test_a_run_stopped_in_its_baseline_then_resumed_records_its_sessions_whole(tmp_path):
    """Round 38, break 1: a run interrupted before its first cell kept its session but the resumed
    run left its seconds out of the wall time (taken only where cells were recorded)."""
    stopped = {**DOC, "cells": [], "sessions": [{"began": 0.307, "seconds": 2.858}], "wall_seconds": 2.858}
    saved = _resumed(stopped, tmp_path)
    assert saved["sessions"][0] == {"began": 0.307, "seconds": 2.858} and len(saved["sessions"]) == 2
    assert validation.session_structure(saved) == []


@settings(max_examples=15, deadline=None, database=None)
@given(cut=st.sampled_from(sorted({round(e, 3) for name, (_, e) in SPANS.items() if REPORTS[name].startswith("/cells/")})),
       facts=st.floats(0.0, 1.0))
@example(cut=sorted(e for name, (_, e) in SPANS.items() if REPORTS[name].startswith("/cells/"))[-1], facts=1.0)
def test_a_file_from_before_sessions_resumed_now_holds_every_report_in_its_first(tmp_path_factory, cut, facts):
    """Round 38, break 2: a run of the runner from before sessions were recorded, interrupted just
    after fio wrote a report and resumed by this runner, got a first session from created to its
    wall time; but its wall clock had begun after created's second and the system's facts, so the
    report fell outside; round 40: padded by PAUSE_SLACK, it took in a run begun just after. The
    committed run cut at the end of a cell's report (the cells begun and written by then kept, their
    reports and the baseline's its bundle, baseline_after dropped), its wall clock begun `facts`
    seconds before its first deed, its wall time the cut less that start: taken up as a resumed run,
    every report it holds lies in its sessions, they pass validate's rules, and a run begun half a
    second after the cut did not run at once with it."""
    kept = [c for c in DOC["cells"] if c["status"] == "ok" and max(c["started"]) <= cut and all(
        SPANS[bundle.member_of(DOC["id"], r)][1] <= cut + 1e-6 for r in c["raw"] if bundle.member_of(DOC["id"], r) in SPANS)]
    wall_start = max(FIRST - facts, 0.0)
    doc = {**DOC, "cells": kept, "wall_seconds": round(cut - wall_start, 3), "complete": False,
           "target": {k: v for k, v in DOC["target"].items() if k != "baseline_after"}}
    doc.pop("sessions", None)
    named = {bundle.member_of(DOC["id"], r) for c in kept for r in c["raw"]}
    members = {n: d for n, d in MEMBERS.items() if n in named or n.startswith("baseline/")}
    saved = _resumed(doc, tmp_path_factory.mktemp("legacy"), members)
    assert validation.session_structure(saved) == []
    assert validation.report_session_problems(saved, members, {}) == []
    # and it claims no time it did not run (round 40: ten seconds more took in a run begun just after)
    whole = int(CREATED + cut + 0.5)
    after = _exact(f"{dt.datetime.fromtimestamp(whole, dt.timezone.utc):%Y%m%dT%H%M%S}Z-m-b6d0b06748-standard",
                   f"{dt.datetime.fromtimestamp(whole, dt.timezone.utc):%Y-%m-%dT%H:%M:%S}Z",
                   round(CREATED + cut + 0.5 - whole, 3), 5.0, [round(CREATED + cut + 0.6 - whole, 3)])
    assert comparison.ran_at_once({**saved, "sessions": saved["sessions"][:1], "wall_seconds": saved["sessions"][0]["seconds"]},
                                  after) == ""


@settings(max_examples=20, deadline=None, database=None)
@given(seconds=st.sampled_from([10.0, 3600.0, 86400.0 * 30, 1e9, 1e12, 1e15]), recorded=st.booleans())
def test_a_clock_that_runs_past_now_is_refused_and_compare_never_fails_on_it(seconds, recorded):
    """Round 38, break 3: a session or a wall time of 10^12 s passed validate and made compare's
    message fail on a year past 9999. A run's clock ends by now (and the hour a clock may be ahead):
    refused at /sessions or /wall_seconds where it does not, by hand from the created time; compare
    words any clock without failing."""
    doc = {**DOC, "wall_seconds": seconds}
    if recorded:
        doc["sessions"] = [{"began": 0.0, "seconds": seconds}]
    found = [where for where, message in validation.session_structure(doc) if "ended by" in message]
    future = CREATED + seconds > dt.datetime.now(dt.timezone.utc).timestamp() + validation.CLOCK_SKEW.total_seconds()
    assert found == ([("/sessions" if recorded else "/wall_seconds")] if future else []), (seconds, found)
    later = {**_exact("20261129T000000Z-m-b6d0b06748-standard", "2026-11-29T00:00:00Z", 0.5, 10.0, [1.0, 9.0])}
    assert isinstance(comparison.ran_at_once(doc, later), str)


def test_a_half_whose_cpu_was_renamed_is_still_on_its_host():
    """Round 38, break 4: one half's cpu_model edited made the two halves two machines, so their
    clocks were not read; the machine's label names the host. Two runs of one label whose sessions
    share an instant ran at once, whatever their CPU's name."""
    a = _exact("20261125T100000Z-m-b6d0b06748-standard", "2026-11-25T10:00:00Z", 0.2, 100.0, [1.0, 99.0])
    b = _exact("20261125T100050Z-m-b6d0b06748-standard", "2026-11-25T10:00:50Z", 0.1, 20.0, [1.0, 19.0])
    b = {**b, "system": {**b["system"], "cpu_model": "AMD EPYC Processor"}}
    assert comparison.factors(a)["machine"] != comparison.factors(b)["machine"]
    assert "while the other ran" in comparison.ran_at_once(a, b)


def test_two_runs_whose_recorded_sessions_alternate_ran_one_after_the_other():
    """Round 38's question: A interrupted, B run, A resumed, B resumed; their repetitions alternate
    on the clock, but their recorded sessions never meet: two runs, not one. Without sessions the
    alternation still reads as one run."""
    a = {**_exact("20261125T100000Z-m-b6d0b06748-standard", "2026-11-25T10:00:00Z", 0.2, 10.0, [1.0, 35.0]),
         "sessions": [{"began": 0.2, "seconds": 10.0}, {"began": 30.0, "seconds": 10.0}], "wall_seconds": 20.0}
    b = {**_exact("20261125T100012Z-m-b6d0b06748-standard", "2026-11-25T10:00:12Z", 0.0, 8.0, [1.0, 53.0]),
         "sessions": [{"began": 0.0, "seconds": 8.0}, {"began": 50.0, "seconds": 8.0}], "wall_seconds": 16.0}
    assert comparison.ran_at_once(a, b) == ""
    unrecorded = [{k: v for k, v in r.items() if k != "sessions"} for r in (a, b)]
    assert comparison.ran_at_once(*unrecorded)


def test_a_signal_while_the_bundle_and_the_result_are_written_waits_for_both():
    """Round 40, break 1: a Ctrl-C in the run's last pack (or a second one in the handler's) cut the
    writing short. Inside interrupts.held() a signal is remembered, not raised; after it, asked."""
    import os
    import signal
    import pytest
    from fsatlas.run import interrupts
    interrupts.install()
    signal.signal(signal.SIGINT, interrupts._handler)  # install() leaves an ignored SIGINT ignored (a test worker's)
    try:
        with interrupts.held():
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(1000):  # the handler runs between bytecodes: give it many
                pass
            inside = list(interrupts.received)
        assert inside == [signal.SIGINT]
        with pytest.raises(KeyboardInterrupt):
            interrupts.raise_if_interrupted()
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        interrupts.received.clear()


def test_a_pack_cut_short_in_its_removal_leaves_the_bundle_whole(tmp_path, monkeypatch):
    """Round 40, break 1: a signal in the removal of raw/<id>/ after the bundle was written left part
    of the folder, which a resume took for newer than the bundle and packed over it: raw files lost
    for good. The folder is renamed away in one step before it is removed: a removal cut short after
    one file leaves the bundle whole, and unpack gives back every member."""
    import shutil
    rid = DOC["id"]
    members = {n: MEMBERS[n] for n in sorted(MEMBERS)[:20]}
    for name, data in members.items():
        dest = tmp_path / "raw" / rid / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(data)
    real = shutil.rmtree

    def cut_short(path, ignore_errors=False, **kw):
        files = sorted(p for p in __import__("pathlib").Path(path).rglob("*") if p.is_file())
        if files:
            files[0].unlink()
            raise KeyboardInterrupt("signal 2")
        return real(path, ignore_errors=ignore_errors, **kw)
    monkeypatch.setattr(bundle.shutil, "rmtree", cut_short)
    try:
        bundle.pack(str(tmp_path), rid)
    except KeyboardInterrupt:
        pass
    monkeypatch.setattr(bundle.shutil, "rmtree", real)
    bundle.unpack(str(tmp_path), rid)
    assert bundle.folder_members(str(tmp_path), rid) == members


def test_resuming_a_complete_run_leaves_its_file_as_it_is(tmp_path, capsys):
    """Round 42, break 2: --resume of a run with every cell measured added a session of a run that
    measured nothing, which another run going on then made "at once". The file is left byte for byte."""
    from fsatlas.cli import main
    from fsatlas.commands.run import RESUME_FACTS
    from fsatlas.run import system
    doc = json.loads(SOURCE.read_text())
    doc["cells"] = [c for c in doc["cells"] if c["status"] == "ok"]
    doc["complete"] = True
    here = system.collect_system(None)  # a run of this system, which a resume may go on with
    # every fact a resume compares, and the tools' versions, are this machine's (CI runs elsewhere)
    doc["system"] = {**doc["system"], **{k: here[k] for k in RESUME_FACTS if k in here}}
    doc["tool"] = {**doc.get("tool", {}), **system.collect_tools()}
    (tmp_path / "results").mkdir()
    path = tmp_path / "results" / SOURCE.name
    path.write_text(json.dumps(doc))
    before = path.read_bytes()
    assert main(["run", "--resume", DOC["id"], "--out", str(tmp_path)]) == 0
    assert path.read_bytes() == before and "nothing to resume" in capsys.readouterr().err


@settings(max_examples=10, deadline=None, database=None)
@given(exponent=st.integers(12, 18), sign=st.sampled_from([1, -1]), field=st.sampled_from(["timestamp", "timestamp_ms"]))
def test_a_report_dated_where_no_calendar_reaches_is_one_line(exponent, sign, field):
    """Round 42, break 3: fio's timestamp of 10^15 s, or timestamp_ms of ±10^18, failed the message
    that says when it was written (a year past 9999). Each is refused in words, never a traceback."""
    name = next(n for n, p in REPORTS.items() if p.startswith("/cells/"))
    members = {**MEMBERS, name: re.sub(rb'("' + field.encode() + rb'"\s*:\s*)\d+', lambda m: m.group(1) + str(sign * 10 ** exponent).encode(),
                                       MEMBERS[name], count=1)}
    doc = _with([(round(FIRST - 0.01, 3), DOC["wall_seconds"])])
    found = validation.cell_clock_problems(doc, members, {}) + validation.report_session_problems(doc, members, {})
    cell = doc["cells"][int(REPORTS[name].split("/")[2])]
    found += [(where, m) for _, where, m in validation.raw_problems(cell, doc["id"], members, {},
                                                                    fio_versions=validation.recorded_fio(doc))]
    # refused where the rules read that field: against the report's other clocks where it is read
    # (importers.fio.check_clocks), timestamp_ms by the sessions, timestamp by the clock (a late one
    # past its end, an early one before created)
    assert found, (field, sign, exponent)
    assert all(isinstance(m, str) and "\n" not in m for _, m in found)
