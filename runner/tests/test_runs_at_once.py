"""The rule: two files of one machine that ran at once (one created instant, or one begun while the
other ran: created plus wall_seconds) are not two independent runs, and compare refuses them on
one side or on both (#60 round 18, finding 5: one run's repetitions split into two files under two
ids made a second "run", and its halves' means, which share one run's conditions, were tested as
runs; round 19: a run begun during another's set-up). Runs of one machine one after the other are
never refused: the committed ones, checked against a hand reading of their clocks."""
import copy
import datetime as dt
import itertools
import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from fsatlas.errors import UserError
from fsatlas.results import bundle, comparison, resultfile, validation
from fsatlas.results.validation import PER_REPETITION
from testutil import RESULTS, in_slot, under_id, written_at

SOURCE = RESULTS / "20261127T143616Z-m-b6d0b06748-standard.json"  # a runner's run with `started` in every cell
OTHER = RESULTS / "20261125T174924Z-m-05e18e6041-standard.json"  # another machine's run


def _read(path):
    return resultfile.readable(json.loads(path.read_text()))


def _clock_only(path) -> dict:
    """The run at path without its raw-device baselines, which the halves of a split would share
    (comparison.cell_prints): only its clock then tells them one run."""
    doc = _read(path)
    return {**doc, "target": {k: v for k, v in doc["target"].items() if k not in ("baseline", "baseline_after")}}


def _take(cell: dict, reps: list) -> dict:
    """The cell with only the repetitions reps (indexes), every per-repetition field alike."""
    out = copy.deepcopy(cell)
    for m in out["metrics"].values():
        m["samples"] = [m["samples"][i] for i in reps]
    for field in (*PER_REPETITION, "raw"):
        if isinstance(out.get(field), list):
            out[field] = [out[field][i] for i in reps]
    return out


def split(doc: dict, rnd: random.Random, cut: bool) -> tuple[dict, dict]:
    """One run's repetitions dealt into two files under two ids: each cell's repetitions split at
    random (a cell of one repetition goes whole to one side, a cell may go whole to either), or,
    cut, those that started before a moment of the run into one and the rest into the other."""
    halves = ([], [])
    ok = [c for c in doc["cells"] if c["status"] == "ok"]
    moment = rnd.choice(sorted(t for c in ok for t in c["started"])) if cut else None
    for cell in ok:
        reps = len(next(iter(cell["metrics"].values()))["samples"])
        mine = ([i for i in range(reps) if cell["started"][i] < moment] if cut
                else sorted(rnd.sample(range(reps), rnd.randint(0, reps))))
        rest = [i for i in range(reps) if i not in mine]
        for half, taken in zip(halves, (mine, rest)):
            if taken:
                half.append(_take(cell, taken))
    return ({**under_id(doc, doc["id"][:-4] + "part"), "cells": halves[0]},
            {**under_id(doc, doc["id"][:-4] + "rest"), "cells": halves[1]})


@settings(max_examples=15, deadline=None, database=None)
@given(seed=st.integers(0, 10 ** 6), across=st.booleans(), cut=st.booleans())
def test_one_runs_repetitions_split_into_two_files_are_refused(seed, across, cut):
    first, second = split(_clock_only(SOURCE), random.Random(seed), cut)
    if not first["cells"] or not second["cells"]:
        return  # every repetition on one side: one file, nothing to tell
    other = in_slot(under_id(_read(OTHER), "20261125T174924Z-other"), 3)
    side_a, side_b = ([first], [second, other]) if across else ([first, second], [other])
    with pytest.raises(UserError, match="ran on one machine at once") as refused:
        comparison.between(side_a, side_b)
    assert first["id"] in refused.value.message and second["id"] in refused.value.message


OLD = RESULTS / "20261123T030418Z-m-042018a7f3-standard.json"  # a run from before `started` was recorded


@settings(max_examples=6, deadline=None, database=None)
@given(seed=st.integers(0, 10 ** 6), spelling=st.sampled_from(["Z", "+00:00", ".000000+00:00"]))
def test_a_split_is_refused_without_start_times_and_however_created_is_spelled(seed, spelling):
    """Round 19, findings 2 and 3: one created instant spelled two ways, and a run whose cells
    record no start times (the committed runs before 2026-11-24), split as before."""
    first, second = split(_clock_only(OLD), random.Random(seed), cut=False)
    if not first["cells"] or not second["cells"]:
        return
    second = {**second, "created": second["created"].replace("Z", spelling)}
    with pytest.raises(UserError, match="ran on one machine at once"):
        comparison.between([first, second], [_read(SOURCE)])


def _clock(doc: dict, created: str, wall: float, starts: list) -> dict:
    """doc with its created time, wall time and every cell's start times set (the runs built below)."""
    cells = [{**c, "started": [starts[i % len(starts)] for i in range(len(c["started"]))]}
             for c in doc["cells"] if c["status"] == "ok" and c.get("started")]
    return {**doc, "created": created, "wall_seconds": wall, "cells": cells}


def test_a_run_begun_while_another_ran_on_the_machine_is_refused_and_one_after_it_is_not():
    """Round 19, findings 1 and 4: a run begun during another's set-up (its repetitions all before
    the other's) is refused; one begun after another ended is not, even in the same second; a run
    made during a resumed run's pause is not refused (the pause is not recorded: the rule's limit)."""
    doc = _read(SOURCE)
    long = _clock(under_id(doc, "20261125T100000Z-m-b6d0b06748-standard"), "2026-11-25T10:00:00Z", 92.0, [60.0, 80.0])
    short = _clock(under_id(doc, "20261125T100002Z-m-b6d0b06748-standard"), "2026-11-25T10:00:02Z", 5.0, [1.0, 3.0])
    assert "one began at 2026-11-25 10:00:02 UTC" in comparison.ran_at_once(long, short)
    assert comparison.ran_at_once(short, long) == comparison.ran_at_once(long, short)
    after = {**short, "created": "2026-11-25T10:01:32Z"}  # the second the long one ended in: 10:01:32.0
    assert comparison.ran_at_once(long, after) == ""
    assert "one began" in comparison.ran_at_once(long, {**short, "created": "2026-11-25T10:01:30Z"})
    paused = {**long, "wall_seconds": 60.0}  # its last repetition started at 80 s of 60: a pause
    during = {**short, "created": "2026-11-25T10:01:10Z"}  # between its repetitions at 60 s and 80 s
    assert comparison.ran_at_once(paused, during) == ""
    # before its first repetition it was setting up (round 25: a cut run's later half, claiming an
    # earlier start, read as paused while the earlier half began within it)
    assert "one began at 2026-11-25 10:00:50 UTC" in comparison.ran_at_once(paused, {**during, "created": "2026-11-25T10:00:50Z"})


def test_runs_of_one_machine_one_after_the_other_are_never_refused():
    """The committed runs, each read by hand (created plus wall_seconds from the file's text)."""
    spans = []
    for p in sorted(RESULTS.glob("*.json")):
        doc = json.loads(p.read_text())
        began = dt.datetime.strptime(doc["created"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc).timestamp()
        spans.append((p, began, began + doc["wall_seconds"]))
    for (p, a0, a1), (q, b0, b1) in itertools.combinations(spans, 2):
        assert b0 > a1 or a0 > b1  # one after the other, whatever the machine
        assert comparison.ran_at_once(_read(p), _read(q)) == "", (p.name, q.name)
    pair = sorted(RESULTS.glob("20261125T*-m-05e18e6041-standard.json"))  # one machine, one after the other
    assert comparison.between(_read(pair[0]), _read(pair[1]))


CIVM = RESULTS / "20261124T192938Z-fsatlas-ci-vm-standard.json"  # its last repetition starts after its wall time


def _moved(doc: dict, seconds: float, drop_wall: bool) -> dict:
    """doc claiming to have begun `seconds` later, its start times moved back by as much: every
    repetition keeps its time on the machine's clock (round 20's split2.py)."""
    created = dt.datetime.fromisoformat(doc["created"].replace("Z", "+00:00")) + dt.timedelta(seconds=seconds)
    cells = [{**c, "started": [round(t - seconds, 3) for t in c["started"]]} if c.get("started") else c
             for c in doc["cells"]]
    out = {**doc, "created": f"{created:%Y-%m-%dT%H:%M:%SZ}", "cells": cells}
    if drop_wall:
        out.pop("wall_seconds", None)
    return out


@settings(max_examples=15, deadline=None, database=None)
@given(seed=st.integers(0, 10 ** 6), source=st.sampled_from([SOURCE, CIVM]), seconds=st.integers(-900, 900),
       drop_wall=st.booleans())
def test_a_split_whose_half_claims_another_created_time_is_refused(seed, source, seconds, drop_wall):
    """Round 20, findings 1-3: a half moved in created time with its start times moved back (so its
    repetitions keep their times), its wall time dropped, or a run whose last repetition starts
    after its wall time (read as resumed), is still one run with the other half."""
    first, second = split(_clock_only(source), random.Random(seed), cut=False)
    if len(first["cells"]) < 2 or len(second["cells"]) < 2:
        return
    if drop_wall:
        first.pop("wall_seconds", None)
    with pytest.raises(UserError, match="ran on one machine at once"):
        comparison.between([first, _moved(second, seconds, drop_wall)], [_read(OTHER)])


@settings(max_examples=15, deadline=None, database=None)
@given(seed=st.integers(0, 10 ** 6), later=st.integers(1, 3600), wall=st.sampled_from(["dropped", "cut"]))
def test_a_run_cut_in_two_where_its_clock_has_a_gap_is_still_one_run(seed, later, wall):
    """Round 22, finding 1: cut at a moment of the run, the first half's wall time dropped or cut
    to its last start, the second half claiming to begin after that start (its start times moved
    back: every repetition keeps its time on the machine's clock). On the clock they are two runs
    one after the other; both hold the run's raw-device baseline, which a run measures once."""
    first, second = split(_read(SOURCE), random.Random(seed), cut=True)
    if not first["cells"] or not second["cells"]:
        return
    last = max(t for c in first["cells"] for t in c["started"])
    first.pop("wall_seconds")
    if wall == "cut":
        first["wall_seconds"] = last
    second = _moved(second, last + later, drop_wall=False)
    with pytest.raises(UserError, match="one run under two ids") as refused:
        comparison.between([first, second], [_read(OTHER)])
    assert "baseline" in refused.value.message


FORMATS = st.sampled_from(["fio", "x", "pts", "bonnie"])
# an import's three marks, any of them absent; a runner's file (none at all) as often as an import
MARKS = st.one_of(st.just((None, None, None)), st.tuples(*(st.one_of(st.none(), FORMATS),) * 3))


def _marked(doc: dict, id_format, profile_format, tool_format) -> dict:
    """doc with the marks of an import naming these formats (None: that mark absent)."""
    out = under_id(doc, doc["id"].replace("-standard", f"-import-{id_format}-standard")) if id_format else dict(doc)
    if profile_format:
        out["profile"] = f"import-{profile_format}"
    out["tool"] = {**out["tool"], **({"imported_from": tool_format} if tool_format else {})}
    return out


@settings(max_examples=15, deadline=None, database=None)
@given(seed=st.integers(0, 10 ** 6), marks=st.tuples(*(st.one_of(st.none(), FORMATS),) * 3).filter(any))
def test_a_split_run_named_an_import_is_still_one_run(seed, marks):
    """Round 21, finding 5: the halves' ids renamed ...-import-x-... (an import's mark), so that the
    clock was not read: a file with repetition start times is read by them, whatever it is called."""
    first, second = split(_clock_only(SOURCE), random.Random(seed), cut=False)
    if not first["cells"] or not second["cells"]:
        return
    with pytest.raises(UserError, match="ran on one machine at once"):
        comparison.between([_marked(first, *marks)], [_marked(second, *marks), _read(OTHER)])


@settings(max_examples=30, deadline=None, database=None)
@given(marks=st.tuples(*(st.one_of(st.none(), FORMATS),) * 3))
def test_an_imports_marks_name_one_format_or_none(marks):
    """validate (structure_problems, which compare's loader applies too) refuses a file whose id,
    profile and tool.imported_from do not agree: all three naming one format (an import), or
    none (a run of the runner); counted here by hand from the marks given."""
    doc = _marked(_read(SOURCE), *marks)
    present = [m for m in marks if m]
    agree = not present or (len(present) == 3 and len(set(present)) == 1)
    found = [p for p in validation.structure_problems(doc, "f.json") if "imported_from to name one format" in p.message]
    assert (found == []) is agree, (marks, found)
    if not agree:
        (problem,) = found
        assert problem.path == next((w for w, m in zip(("/id", "/profile", "/tool/imported_from"), marks) if not m), "/id")


_MEMBERS = {}


def _members(path):
    """The raw bundle's members of the committed run at path, read once."""
    if path not in _MEMBERS:
        _MEMBERS[path] = bundle.read(str(path.parent.parent), path.stem)
    return _MEMBERS[path]


def _stamp(data: bytes) -> int:
    """fio's timestamp in a report, read by this test's own pattern, not by fio's importer."""
    import re
    return int(re.search(rb'"timestamp"\s*:\s*(\d+)', data).group(1))


@settings(max_examples=25, deadline=None, database=None)
@given(source=st.sampled_from([SOURCE, OTHER]), shift=st.integers(-7200, 7200))
def test_a_file_whose_raw_device_was_measured_off_its_clock_is_refused(source, shift):
    """Rounds 23 and 24: the later half of a cut run, claiming a later start, held the earlier
    half's baseline (all of it, some repetitions or jobs, or under baseline_after), or the run's
    baseline_after as its baseline. A run measures its raw device after it begins, and its
    baseline before its first repetition: validate refuses a report (a job's or the fill
    record's) that fio wrote before `created` (2 s allowed for the clock), or a baseline one
    written after the first repetition started or after fio wrote the first cell's report. Here
    `created` is moved, the repetitions' offsets kept; the verdict expected is worked out from
    fio's timestamps."""
    doc = _read(source)
    members = _members(source)
    began = dt.datetime.fromisoformat(doc["created"].replace("Z", "+00:00")) + dt.timedelta(seconds=shift)
    first = began.timestamp() + min(t for c in doc["cells"] if c["status"] == "ok" for t in c.get("started") or [])
    stamps = {name: _stamp(data) for name, data in members.items() if name.startswith(("baseline/", "baseline_after/"))}
    cell_reports = [_stamp(members[ref.split("/", 2)[2]]) for c in doc["cells"] if c["status"] == "ok"
                    for ref in c["raw"] if b'"timestamp"' in members[ref.split("/", 2)[2]][:4096]]
    latest = min([first, *cell_reports])  # before the first repetition began, and before fio wrote its first report
    expected = any(t < began.timestamp() - validation.CLOCK_SLACK_S for t in stamps.values()) or \
        any(t > latest for name, t in stamps.items() if name.startswith("baseline/"))
    found, _ = validation.baseline_problems({**doc, "created": f"{began:%Y-%m-%dT%H:%M:%SZ}"}, members, {})
    assert bool(found) is expected, (shift, found[:1])
    assert all("written at" in message for _, message in found)


def _retimed(data: bytes, how: str) -> bytes:
    """A report with its timestamp made unreadable as a round-24 adversary did, no figure changed."""
    import re
    line = re.search(rb'"timestamp"\s*:\s*\d+,?\n', data).group(0)
    return {"twice": data.replace(line, b'"clock" : {"timestamp" : 1000000000},\n' + line, 1),
            "dropped": data.replace(line, b"", 1),
            "fraction": data.replace(line, re.sub(rb"\d+", lambda m: m.group(0) + b".5", line, 1), 1),
            "future": data.replace(line, re.sub(rb"\d+", b"4102444800", line, 1), 1)}[how]


@settings(max_examples=12, deadline=None, database=None)
@given(how=st.sampled_from(["twice", "dropped", "fraction", "future"]), pick=st.randoms())
def test_a_raw_device_report_whose_time_cannot_be_read_is_refused(how, pick):
    """Round 24, break 2: a report whose timestamp was written twice, removed, or made no whole
    second or a future one was passed over by the clock's rule; the runner's fio always writes
    one, so it is refused. Twice: a second value in an object of its own (a key written twice in
    one object is read, as every JSON reader reads it, as its last value: validate reads fio's
    reports by their parse since round 27)."""
    doc = _read(SOURCE)
    members = dict(_members(SOURCE))
    name = pick.choice(sorted(n for n in members if n.startswith(("baseline/", "baseline_after/"))))
    members[name] = _retimed(members[name], how)
    found, _ = validation.baseline_problems(doc, members, {})
    assert found and any(name in message and "timestamp" in message for _, message in found), found[:2]


@settings(max_examples=15, deadline=None, database=None)
@given(dropped=st.sets(st.sampled_from(sorted(_read(SOURCE)["target"]["baseline"]))))
def test_a_baseline_after_job_without_its_baseline_is_refused_by_validate_and_compare(dropped):
    """Round 24, break 1: the later half of a cut run kept the run's baseline_after alone. The
    runner measures baseline_after's jobs again after the filesystems: each is a job of the
    baseline. Refused by structure_problems, which compare's loader applies, at each job's pointer."""
    doc = _read(SOURCE)
    doc = {**doc, "target": {**doc["target"], "baseline": {k: v for k, v in doc["target"]["baseline"].items()
                                                              if k not in dropped}}}
    found = validation.structure_problems(doc, "x.json")
    lacking = sorted(set(doc["target"].get("baseline_after") or {}) & dropped)
    assert [p.path for p in found] == [resultfile.pointer(["target", "baseline_after", job]) for job in lacking]


@settings(max_examples=15, deadline=None, database=None)
@given(seed=st.integers(0, 10 ** 6), earlier=st.integers(1, 3600))
def test_a_cut_runs_later_half_claiming_an_earlier_start_is_still_one_run(seed, earlier):
    """Round 25, break 2: the later half of a run cut at a moment claims to have begun `earlier`
    seconds before the run did, its start times kept on the machine's clock and its wall time
    its own running time, so that it reads as a resumed run that paused. It still ran from its
    claimed start to its first repetition, and the earlier half began within that."""
    first, second = split(_clock_only(SOURCE), random.Random(seed), cut=True)
    if not first["cells"] or not second["cells"]:
        return
    starts = [t for c in second["cells"] for t in c["started"]]
    second = _moved(second, -earlier, drop_wall=False)
    second["wall_seconds"] = max(starts) - min(starts) + 1.0
    assert comparison.run_clock(second).spans  # known to have run until its first repetition
    with pytest.raises(UserError, match="ran on one machine at once"):
        comparison.between([first, second], [_read(OTHER)])


@settings(max_examples=10, deadline=None, database=None)
@given(seed=st.integers(0, 10 ** 6), after=st.integers(1, 3600), spelling=st.sampled_from(["as fio wrote it", "keys last", "escaped"]))
def test_a_later_half_holding_the_runs_baseline_after_as_its_baseline_is_refused_without_start_times(seed, after, spelling):
    """Round 25, break 1: the later half of a cut run held the run's baseline_after (measured after
    every filesystem) as its baseline, with every start time removed so that no repetition's start
    bounds it. fio's own reports of its cells do: the baseline was written after them. No
    committed run has a baseline_after, so its reports are stood for by the baseline's, stamped
    `after` seconds after the last of the half's cell reports (what a baseline_after holds).
    fio's seconds are whole: a baseline_after written within the second of every one of the
    half's cell reports is not told (a tiny run's limit). Each cell report of fio's is written
    again with its clock's keys last (round 26: a reader of the report's head missed them), or
    with its "timestamp" key spelled with a JSON escape, the same key to any JSON reader (round
    27: a reader of its bytes missed it)."""
    doc = _read(SOURCE)
    _, later = split(doc, random.Random(seed), cut=True)
    later["cells"] = [{k: v for k, v in c.items() if k != "started"} for c in later["cells"]]
    members = dict(_members(SOURCE))
    reports = [ref.split("/", 2)[2] for c in later["cells"] for ref in c["raw"]]
    stamps = [_stamp(members[name]) for name in reports if b'"timestamp"' in members[name][:4096]]
    if not stamps:
        return  # no fio report among its cells (mkfs-time, mount-time): nothing of fio's to bound it by
    for name in reports if spelling != "as fio wrote it" else []:
        if b'"fio version"' in members[name]:
            report = json.loads(members[name])
            clock = {k: report.pop(k) for k in ("timestamp", "timestamp_ms", "time") if k in report}
            members[name] = json.dumps({**report, **clock}, indent=2).encode()
            if spelling == "escaped":
                members[name] = members[name].replace(b'"timestamp":', b'"time\\u0073tamp":')
                assert b'"timestamp"' not in members[name] and json.loads(members[name])["timestamp"] == clock["timestamp"]
    for name in [n for n in members if n.startswith("baseline/")]:  # every clock of it, as fio writes them
        members[name] = json.dumps(written_at(json.loads(members[name]), max(stamps) + after), indent=2).encode()
    found, _ = validation.baseline_problems({**later, "id": doc["id"]}, members, {})
    assert any("before the run's first repetition" in message for _, message in found), found[:2]


@settings(max_examples=30, deadline=None, database=None)
@given(marks=MARKS,
       wall=st.sampled_from([None, "12", "zero", 12.5, -1.0, -0.0005, 0.0, 0.0005, 1.0, 3600.0]),
       source=st.sampled_from([SOURCE, OTHER, CIVM]))
def test_a_runners_file_records_its_wall_time_at_least_its_cells_time(marks, wall, source):
    """Round 26: a cut run's later half dropped its wall time (and its start times), so its clock
    had no end; round 27: it wrote 0 or 5 s there. The runner writes wall_seconds in every file it
    saves, an interrupted run's too, and a run lasts at least as long as its cells took one after
    another: a file with no import mark is refused at /wall_seconds without a number there, or
    with one below the sum of its cells' wall_seconds (a wall drawn here is that sum plus an
    offset: the sum itself, half a millisecond or one second either way, an hour more; or 0 or
    12.5 s); an import records none and is not. Expected by a hand sum of the cells' times."""
    doc = _marked(_read(source), *marks)
    cells = sum(c["wall_seconds"] for c in doc["cells"] if "wall_seconds" in c)
    doc.pop("wall_seconds")
    if wall is not None:
        doc["wall_seconds"] = 0.0 if wall == "zero" else wall if isinstance(wall, str) or wall == 12.5 else round(cells + wall, 3)
    refused = [p for p in validation.structure_problems(doc, "x.json") if p.path == "/wall_seconds"]
    given_wall = doc.get("wall_seconds")
    short = isinstance(given_wall, float) and given_wall < cells - 0.001 * (len(doc["cells"]) + 1)
    assert bool(refused) is (not any(marks) and (not isinstance(given_wall, float) or short)), (given_wall, cells, refused)
    assert all(c.get("wall_seconds") is not None for c in doc["cells"] if c["status"] == "ok")


def test_a_fio_report_that_states_no_version_is_refused():
    """Round 27: a cell report of fio's whose "fio version" key was spelled with a JSON escape
    stated no version to the reader of its bytes, and skipped the check that the version it
    states is the one the result records. fio states it in every report: one stating none is
    refused, at the repetition's raw reference."""
    doc = _read(SOURCE)
    members = dict(_members(SOURCE))
    cell = next(c for c in doc["cells"] if c["status"] == "ok" and b'"fio version"' in members[c["raw"][0].split("/", 2)[2]])
    name = cell["raw"][0].split("/", 2)[2]
    assert validation.raw_problems(cell, doc["id"], members, {}, fio_versions=validation.recorded_fio(doc)) == []
    members[name] = members[name].replace(b'"fio version"', b'"fio\\u0020version"')
    assert json.loads(members[name])["fio version"]
    found = validation.raw_problems(cell, doc["id"], members, {}, fio_versions=validation.recorded_fio(doc))
    assert [(where, "states no fio version" in message) for _, where, message in found] == [("/raw/0", True)], found


RUNNER_ONLY = ("wall_seconds", *PER_REPETITION)


@settings(max_examples=30, deadline=None, database=None)
@given(marks=MARKS, seed=st.integers(0, 10 ** 6))
def test_an_import_holds_nothing_only_the_runner_measures(marks, seed):
    """Round 27: the later half of a cut run named itself an import (whose clock compare cannot
    read) and kept the run's baseline repetitions and its cells' runner-only fields. fsatlas
    import writes no raw-device baseline (it refuses one in the system file) and no cell field
    only the runner measures (a cell's wall time, start times, device counters, contention): a
    file with any import mark holding one is refused at its pointer; a runner's file is not.
    Expected by a hand list of the fields the file holds."""
    doc, pick = _marked(_read(SOURCE), *marks), random.Random(seed)
    doc["target"] = {k: v for k, v in doc["target"].items() if k not in bundle.BASELINE_FOLDERS or pick.random() < 0.5}
    if any(marks):  # a runner's file keeps what the runner records (a cell's wall time is required)
        doc["cells"] = [{k: v for k, v in c.items() if k not in RUNNER_ONLY or pick.random() < 0.2} for c in doc["cells"]]
    expected = sorted([f"/target/{f}" for f in (*bundle.BASELINE_FOLDERS, "baseline_written") if f in doc["target"]]
                      + [f"/cells/{i}/{f}" for i, c in enumerate(doc["cells"]) for f in RUNNER_ONLY if f in c]) if any(marks) else []
    found = sorted(p.path for p in validation.structure_problems(doc, "x.json")
                   if p.path.startswith("/target/") or p.path.rsplit("/", 1)[-1] in RUNNER_ONLY)
    assert found == expected


@settings(max_examples=20, deadline=None, database=None)
@given(source=st.sampled_from([SOURCE, OTHER]), dropped=st.integers(1, 20), seed=st.integers(0, 10 ** 6))
def test_a_runners_cell_without_its_wall_time_is_refused(source, dropped, seed):
    """Round 28, break 1: a cut run's later half dropped its cells' wall times, so that the rule
    'the run lasts at least as long as its cells took' had nothing to add up. The runner records
    every ok cell's wall time in a run with a raw-device baseline: one without it is refused at
    its pointer. A run of many clients (`fsatlas run --clients`, a directory, no baseline)
    records none, and is not."""
    doc, pick = _read(source), random.Random(seed)
    ok = [i for i, c in enumerate(doc["cells"]) if c["status"] == "ok"]
    gone = sorted(pick.sample(ok, min(dropped, len(ok))))
    for i in gone:
        doc["cells"][i] = {k: v for k, v in doc["cells"][i].items() if k != "wall_seconds"}
    found = [p.path for p in validation.structure_problems(doc, "x.json") if p.path.endswith("/wall_seconds")]
    assert found == [f"/cells/{i}/wall_seconds" for i in gone]
    clients = {**doc, "target": {"kind": "directory", "shared_filesystem": "nfs", "clients": 2, "caches_dropped": False}}
    assert [p.path for p in validation.structure_problems(clients, "x.json") if p.path.endswith("/wall_seconds")] == []


def _cell_reports(doc: dict, members: dict) -> list[tuple[str, int]]:
    """(pointer, fio's timestamp) of each ok cell's fio report, read by this test's own pattern."""
    import re
    out = []
    for i, c in enumerate(doc["cells"]):
        for j, ref in enumerate(c["raw"] if c["status"] == "ok" else []):
            found = re.search(rb'"timestamp"\s*:\s*(\d+)', members[ref.split("/", 2)[2]])
            if found and b'"fio version"' in members[ref.split("/", 2)[2]]:
                out.append((f"/cells/{i}/raw/{j}", int(found.group(1))))
    return out


@settings(max_examples=25, deadline=None, database=None)
@given(source=st.sampled_from([SOURCE, OTHER]), earlier=st.integers(0, 9000), starts=st.booleans(), extra=st.integers(0, 30),
       wall=st.sampled_from(["its own", "its cells'"]))
def test_a_runners_fio_report_written_after_its_clock_ends_is_refused(source, earlier, starts, extra, wall):
    """Round 28, break 2: a cut run's later half claimed to begin `earlier` seconds before the run,
    its wall time its cells' sum and a second, its start times removed (or kept on the machine's
    clock, which moves them later by as much): fio wrote its reports after its claimed clock
    ended. Here the wall time is the run's own or its cells' sum, plus `extra` seconds. A
    runner's file whose start times show no pause has every fio report written by its created
    time, plus how long it ran, plus PAUSE_SLACK; a later one is refused at its pointer.
    Expected from fio's timestamps read by this test's own pattern and the clock worked out here."""
    doc = _read(source)
    members = _members(source)
    created = dt.datetime.fromisoformat(doc["created"].replace("Z", "+00:00")) - dt.timedelta(seconds=earlier)
    doc = {**doc, "created": f"{created:%Y-%m-%dT%H:%M:%SZ}"}
    own = doc["wall_seconds"] if wall == "its own" else sum(c["wall_seconds"] for c in doc["cells"] if "wall_seconds" in c)
    doc["wall_seconds"] = round(own + extra, 3)
    for c in doc["cells"]:
        if starts and c.get("started"):
            c["started"] = [t + earlier for t in c["started"]]
        elif not starts:
            c.pop("started", None)
    offsets = [t for c in doc["cells"] if c["status"] == "ok" for t in c.get("started") or []]
    last = max(offsets, default=0.0)
    paused = last > doc["wall_seconds"] + comparison.PAUSE_SLACK
    by = created.timestamp() + max(doc["wall_seconds"], last) + comparison.PAUSE_SLACK
    expected = [] if paused else [where for where, stamp in _cell_reports(doc, members) if stamp > by]
    found = [where for where, _ in validation.cell_clock_problems(doc, members, {})]
    assert found == expected, (earlier, starts, extra, found[:3], expected[:3])
    if earlier == 0 and wall == "its own":
        assert found == []  # the genuine run: every report within its clock


@settings(max_examples=25, deadline=None, database=None)
@given(source=st.sampled_from(sorted(RESULTS.glob("*.json"))), later=st.one_of(st.integers(0, 3), st.integers(0, 2 * 86400)),
       starts=st.booleans())
def test_a_runners_fio_report_written_before_its_run_began_is_refused(source, later, starts):
    """A split run's later half created `later` seconds after the run (a day, in issue #60's
    round 75), its start times kept or removed: a runner's fio report was written after its run
    began, its created time, to CLOCK_SLACK_S (fio's second and created's are cut alike); an
    earlier one is refused at its pointer. Expected from fio's timestamps read by this test's own
    pattern; every committed run, unmoved, has none."""
    doc = _read(source)
    members = _members(source)
    created = dt.datetime.fromisoformat(doc["created"].replace("Z", "+00:00")) + dt.timedelta(seconds=later)
    doc = {**doc, "created": f"{created:%Y-%m-%dT%H:%M:%SZ}"}
    if not starts:
        doc["cells"] = [{k: v for k, v in c.items() if k != "started"} for c in doc["cells"]]
    expected = [where for where, stamp in _cell_reports(doc, members)
                if stamp < created.timestamp() - validation.CLOCK_SLACK_S]
    found = [where for where, _ in validation.cell_clock_problems(doc, members, {})]
    assert found == expected, (later, found[:3], expected[:3])
    if later == 0:
        assert found == []


@settings(max_examples=12, deadline=None, database=None)
@given(how=st.sampled_from(["float", "string", "dropped", "twice"]), pick=st.randoms())
def test_a_runners_fio_cell_report_whose_time_cannot_be_read_is_refused(how, pick):
    """Round 28, break 3: a cell report of the runner's fio whose timestamp was written as a
    float or a string gave no clock, and the baseline no bound. The runner's fio writes one whole
    second in every report: one holding none, or two, is refused at its pointer."""
    import re
    doc = _read(SOURCE)
    members = dict(_members(SOURCE))
    where, _ = pick.choice(_cell_reports(doc, members))
    i, j = (int(x) for x in where.split("/")[2::2])
    name = doc["cells"][i]["raw"][j].split("/", 2)[2]
    line = re.search(rb'"timestamp"\s*:\s*(\d+)', members[name])
    members[name] = {"float": members[name].replace(line.group(0), line.group(0) + b".0", 1),
                     "string": members[name].replace(line.group(0), line.group(0).replace(line.group(1), b'"' + line.group(1) + b'"'), 1),
                     "dropped": members[name].replace(line.group(0), b'"clock" : 0', 1),
                     "twice": members[name].replace(line.group(0), b'"clock" : {"timestamp" : 1000000000}, ' + line.group(0), 1)}[how]
    json.loads(members[name])
    found = validation.cell_clock_problems(doc, members, {})
    assert [w for w, m in found] == [where] and "one whole second" in found[0][1], found[:2]


@settings(max_examples=15, deadline=None, database=None)
@given(seed=st.integers(0, 10 ** 6), before=st.floats(0.0, 2.0), short=st.integers(1, 3000))
def test_a_cut_runs_earlier_half_that_fakes_a_pause_is_still_one_run(seed, before, short):
    """Round 29: one run cut at a moment. The earlier half keeps its id, created time and start
    times, and claims a wall time `short` seconds short of its last start (its cells' sum and a
    second, in the attack), so that it reads as a resumed run that paused, whose known end is its
    first repetition. The later half drops its start times and claims to begin `before` seconds
    before the earlier half's first repetition, with the run's remaining wall time. It then ran
    across every repetition of the earlier half after the first: compare refuses them as one run."""
    first, second = split(_clock_only(SOURCE), random.Random(seed), cut=True)
    if not first["cells"] or not second["cells"]:
        return
    starts = sorted(t for c in first["cells"] for t in c["started"])
    if len(starts) < 2 or starts[-1] - starts[0] < 3:
        return
    first["wall_seconds"] = max(starts[-1] - short, 0.0)
    began = dt.datetime.fromisoformat(first["created"].replace("Z", "+00:00")) + dt.timedelta(seconds=starts[0] - before)
    second = {**second, "created": f"{began:%Y-%m-%dT%H:%M:%SZ}",
              "wall_seconds": round(_read(SOURCE)["wall_seconds"] - (starts[0] - before), 3),
              "cells": [{k: v for k, v in c.items() if k != "started"} for c in second["cells"]]}
    with pytest.raises(UserError, match="ran on one machine at once"):
        comparison.between([first, second], [_read(OTHER)])


_MEMOS = {}


def _spans(path) -> dict:
    """(cell index, repetition) -> (when fio's jobs began, when fio wrote the report), in seconds
    since the epoch, read by this test's own patterns: timestamp_ms less the longest job_runtime
    (read once a file)."""
    import re
    if ("spans", path) in _MEMOS:
        return _MEMOS["spans", path]
    result, members, out = resultfile.readable(json.loads(path.read_text())), _members(path), {}
    for i, cell in enumerate(result["cells"]):
        for j, ref in enumerate(cell.get("raw") or [] if cell["status"] == "ok" else []):
            data = members.get(bundle.member_of(result["id"], ref), b"")
            written = re.search(rb'"timestamp_ms"\s*:\s*(\d+)', data)
            runtimes = [int(x) for x in re.findall(rb'"job_runtime"\s*:\s*(\d+)', data)]
            if written and runtimes:
                out[i, j] = ((int(written.group(1)) - max(runtimes)) / 1000, int(written.group(1)) / 1000)
    _MEMOS["spans", path] = out
    return out


@settings(max_examples=40, deadline=None, database=None)
@given(data=st.data())
def test_a_start_time_moved_past_its_repetitions_fio_jobs_is_refused(data):
    """The rule (#60 round 58): a runner's repetition starts before its fio jobs run, and the
    cell's next repetition after they ended (the start times decide the paired test). A start
    moved later than its jobs began, or earlier than the previous repetition's jobs ended, or two
    starts swapped, is refused at that cell's started; the file's own starts pass."""
    result = resultfile.readable(json.loads(CIVM.read_text()))
    spans, members = _spans(CIVM), _members(CIVM)
    began = dt.datetime.fromisoformat(result["created"].replace("Z", "+00:00")).timestamp()
    cells = sorted({i for i, j in spans if (i, 1) in spans and len(result["cells"][i]["started"]) > 1})
    i = data.draw(st.sampled_from(cells), label="cell")
    starts = result["cells"][i]["started"]
    memo = _MEMOS.setdefault(CIVM, {})  # each report parsed once for every example
    assert validation.started_problems(result, members, memo) == []
    j = data.draw(st.integers(0, len(starts) - 1), label="repetition")
    how = data.draw(st.sampled_from(["after its jobs began", "before the previous ended", "swapped"]), label="how")
    d = data.draw(st.floats(0.3, 3600), label="seconds")
    edited = list(starts)
    if how == "after its jobs began":
        edited[j] = spans[i, j][0] - began + d
    elif how == "before the previous ended" and j > 0:
        edited[j] = spans[i, j - 1][1] - began - d
    else:
        k = data.draw(st.integers(0, len(starts) - 1).filter(lambda k: k != j), label="other")
        edited[j], edited[k] = edited[k], edited[j]
    if edited == starts:
        return
    result["cells"][i]["started"] = edited
    found = validation.started_problems(result, members, memo)
    assert found and found[0][0].startswith(f"/cells/{i}/started/"), (how, j, found)


@settings(max_examples=20, deadline=None, database=None)
@given(data=st.data())
def test_start_times_out_of_order_are_refused_in_any_cell(data):
    """Round 62: a cell's repetitions run one after another whatever records them: a runner's own
    record (mail-delivery, sqlite-commits) took a start edited before the previous one's."""
    result = resultfile.readable(json.loads(CIVM.read_text()))
    members, memo = _members(CIVM), _MEMOS.setdefault(CIVM, {})
    cells = [i for i, c in enumerate(result["cells"]) if c["status"] == "ok" and len(c.get("started") or []) > 1]
    i = data.draw(st.sampled_from(cells), label="cell")
    starts = result["cells"][i]["started"]
    j = data.draw(st.integers(1, len(starts) - 1), label="repetition")
    edited = list(starts)
    edited[j] = edited[j - 1] - data.draw(st.floats(0, 100), label="before the previous by")
    result["cells"][i]["started"] = edited
    found = validation.started_problems(result, members, memo)
    assert found and found[0][0].startswith(f"/cells/{i}/started/"), found
