"""The rule: a fio report's own clocks agree. fio writes its three from one reading of the clock
(stat.c, __show_run_stats: gettimeofday): "timestamp", its whole seconds; "timestamp_ms", its
milliseconds (fio 2.12 on; a client's report, client.c, has none); "time", ctime() of those seconds
in the machine's local time zone. validate refuses, in every fio report it reads in a bundle (a
runner's cells, its raw-device baselines and fill, an import's outputs), a timestamp_ms outside
the second timestamp names, and a time that is not that second in a zone offset that exists (a
whole number of quarter hours from -12 h to +14 h, less up to 27 leap seconds in a right/ zone:
adversary round 83), naming the member and the pointer (adversary
round 81, finding 3: timestamp_ms edited, its span moved into another session, timestamp left as
it was, passed). A report without timestamp_ms or time is not refused for that.

Checked on every fio report of the committed bundles and every sample under tests/: as they are,
and with timestamp_ms moved by any amount, or time rewritten as any other second or as the same
second in any offset, each verdict decided by this test's own arithmetic."""
import contextlib
import datetime as dt
import json
import re
import shutil
import tempfile
from pathlib import Path

from hypothesis import given, settings, strategies as st

from fsatlas.cli import main
from fsatlas.results import bundle, validation
from testutil import RESULTS, SAMPLES, edit_member

DATA = RESULTS.parent
DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _reports() -> dict:
    """{address: bytes} of every fio JSON report the committed bundles and the samples hold."""
    out = {}
    for path in sorted(RESULTS.glob("*.json")):
        for name, data in bundle.read(str(DATA), path.stem).items():
            if b'"fio version"' in data[:4096]:
                out[f"raw/{path.stem}/{name}"] = data
    for path in sorted((SAMPLES / "fio").rglob("*.json")):
        out[str(path.relative_to(SAMPLES))] = path.read_bytes()
    return out


REPORTS = _reports()
CLOCKED = sorted(a for a, data in REPORTS.items() if b'"timestamp_ms"' in data)  # fio 2.12 on, not a client's
TIMED = sorted(a for a, data in REPORTS.items() if b'"time"' in data)


def _value(data: bytes, key: str):
    return json.loads(data[data.index(b"{"):])[key]


def _with(data: bytes, key: str, value) -> bytes:
    """data with the value of its top-level key set to value, every other byte as it was."""
    pattern = rb'("' + key.encode() + rb'"\s*:\s*)("[^"]*"|-?[0-9]+)'
    edited, count = re.subn(pattern, lambda m: m.group(1) + json.dumps(value).encode(), data, count=1)
    assert count == 1
    return edited


def _ctime(t: int, windows: bool) -> str:
    """t (seconds since the epoch, read as a local clock's) as fio writes "time": glibc's ctime pads
    the day of the month to two places, fio's own on Windows (os/windows/posix.c) does not."""
    d = dt.datetime(1970, 1, 1) + dt.timedelta(seconds=t)
    day = f"{d.day}" if windows else f"{d.day:2d}"
    return f"{DAYS[d.weekday()]} {MONTHS[d.month - 1]} {day} {d:%H:%M:%S} {d.year}"


def _refusal(address: str, data: bytes) -> str | None:
    """What validate's one reader of a bundle member makes of data: why it cannot be read, or None."""
    return validation._read_member(data, address, {})[2]


def test_every_committed_report_and_sample_has_clocks_that_agree():
    assert len(CLOCKED) > 1000 and len(TIMED) > len(CLOCKED)  # the client's sample has no timestamp_ms
    refused = {a: why for a, data in REPORTS.items() if (why := _refusal(a, data)) and re.match("at /time(stamp_ms)?:", why)}
    assert refused == {}


def _offsets():
    """Seconds a local clock may be ahead of UTC: every offset there is, about the edges, and any."""
    return st.one_of(st.integers(-48, 56).map(lambda q: 900 * q), st.integers(-50400, 57600),
                     st.integers(-10 ** 9, 10 ** 9))


@settings(max_examples=300, deadline=None, database=None)
@given(address=st.sampled_from(CLOCKED), moved=st.one_of(st.integers(-2000, 2000), st.integers(-10 ** 13, 10 ** 13)))
def test_a_timestamp_ms_outside_timestamps_second_is_refused_at_its_pointer(address, moved):
    data = REPORTS[address]
    stamp, ms = _value(data, "timestamp"), _value(data, "timestamp_ms") + moved
    why = _refusal(address, _with(data, "timestamp_ms", ms))
    if stamp * 1000 <= ms <= stamp * 1000 + 999:
        assert why is None or "/timestamp_ms" not in why, why
    else:
        assert why is not None and why.startswith("at /timestamp_ms: expected ") and f"found {ms}" in why, why


@settings(max_examples=300, deadline=None, database=None)
@given(address=st.sampled_from(TIMED), offset=_offsets(), windows=st.booleans())
def test_a_time_is_that_second_in_a_zone_offset_there_is(address, offset, windows):
    data = REPORTS[address]
    text = _ctime(_value(data, "timestamp") + offset, windows)
    why = _refusal(address, _with(data, "time", text))
    if any((offset + leap) % 900 == 0 and -12 * 3600 <= offset + leap <= 14 * 3600 for leap in range(28)):
        assert why is None, (text, why)  # a zone's offset, less the leap seconds a right/ zone counts
    else:
        assert why is not None and why.startswith("at /time: expected ") and json.dumps(text) in why, (text, why)


@settings(max_examples=100, deadline=None, database=None)
@given(address=st.sampled_from(TIMED), offset=st.integers(-48, 56).map(lambda q: 900 * q), other=st.integers(1, 6),
       spelled=st.sampled_from(["day", "lower", "empty", "number", "iso"]))
def test_a_time_of_another_weekday_or_no_ctime_is_refused(address, offset, other, spelled):
    data = REPORTS[address]
    real = _ctime(_value(data, "timestamp") + offset, False)
    text = {"day": DAYS[(DAYS.index(real[:3]) + other) % 7] + real[3:], "lower": real.lower(), "empty": "",
            "number": _value(data, "timestamp"), "iso": real[4:]}[spelled]
    why = _refusal(address, _with(data, "time", text))
    assert why is not None and why.startswith("at /time: expected "), (text, why)


def test_a_report_without_timestamp_ms_or_time_is_not_refused_for_it():
    for address in CLOCKED[::50]:
        data = re.sub(rb'\s*"(timestamp_ms|time)"\s*:\s*("[^"]*"|[0-9]+),', b"", REPORTS[address])
        assert b'"timestamp_ms"' not in data and b'"time"' not in data
        assert _refusal(address, data) is None, address


# --- validate, for each place a report stands in a bundle ----------------------------------------

SMALL = "20261125T174924Z-m-05e18e6041-standard"  # a runner's cells and raw-device baseline
FILLED = "20261127T143616Z-m-b6d0b06748-standard"  # the only committed run with the baseline's fill record
IMPORTED = SAMPLES / "fio" / "two-filesystems"


def _placed(out: Path, kind: str) -> tuple[str, str, str]:
    """(result path, its id, a fio member) of a data folder made in out for a report that stands as kind."""
    if kind == "import":
        files = sorted(str(p) for p in IMPORTED.glob("ext4-*.json"))
        assert main(["import", "fio", *files, "--filesystem", "ext4", "--out", str(out)]) == 0
        (path,) = (out / "results").glob("*.json")
        rid = path.stem
        return str(path), rid, sorted(bundle.read(str(out), rid))[-1]
    rid = FILLED if kind == "fill" else SMALL
    (out / "results").mkdir(parents=True)
    (out / "raw").mkdir()
    shutil.copy(RESULTS / f"{rid}.json", out / "results")
    shutil.copy(DATA / "raw" / f"{rid}.tar.gz", out / "raw")
    members = bundle.read(str(out), rid)
    name = {"cell": next(n for n in sorted(members) if not n.startswith("baseline/") and b'"fio version"' in members[n]),
            "baseline": "baseline/seq-read/rep-2.json", "fill": "baseline/fill.json"}[kind]
    return str(out / "results" / f"{rid}.json"), rid, name


@settings(max_examples=16, deadline=None, database=None)
@given(kind=st.sampled_from(["cell", "baseline", "fill", "import"]), field=st.sampled_from(["timestamp_ms", "time"]),
       moved=st.integers(1, 86400), later=st.booleans(), honest=st.integers(-48, 56).map(lambda q: 900 * q))
def test_validate_refuses_a_report_whose_clocks_disagree_wherever_it_stands(kind, field, moved, later, honest):
    """timestamp_ms moved out of its second, or time moved by seconds that are no zone's offset,
    is refused naming the member and the pointer; time rendered in another real offset passes."""
    moved = moved if later else -moved
    with tempfile.TemporaryDirectory() as tmp, contextlib.chdir(tmp):
        path, rid, name = _placed(Path(tmp) / "data", kind)
        data = bundle.read("data", rid)[name]
        stamp = _value(data, "timestamp")
        if field == "timestamp_ms":
            edited = _with(data, "timestamp_ms", _value(data, "timestamp_ms") + 1000 * moved)
        else:
            # seconds off every zone's offset, and off it by more than the leap seconds a right/ zone counts
            edited = _with(data, "time", _ctime(stamp + honest + moved // 900 * 900 + 1 + moved % 800, False))
        honestly = _with(data, "time", _ctime(stamp + honest, True))
        for member, refused in ((edited, True), (honestly, False)):
            edit_member("data", rid, f"raw/{rid}/{name}", lambda old: member)
            errors = [p for p in validation.validate_files([path], None) if p.severity == "error"]
            if refused:
                assert any(f"raw/{rid}/{name}" in p.message and f"/{field}: expected " in p.message for p in errors), errors
            else:
                assert errors == [], errors


ZONEINFO = Path("/usr/share/zoneinfo")
ZONES = sorted(str(p.relative_to(ZONEINFO)) for p in ZONEINFO.rglob("*")
               if p.is_file() and p.name[:1].isupper() and "posix" not in p.parts)


@settings(max_examples=200, deadline=None, database=None)
@given(address=st.sampled_from(TIMED), zone=st.sampled_from(ZONES or ["UTC"]))
def test_a_time_as_the_c_library_writes_it_in_any_zone_passes(address, zone):
    """Differential against glibc: fio's time is ctime() in the machine's zone, any zone tzdata
    holds, the right/ zones that count leap seconds among them (adversary round 83)."""
    data = REPORTS[address]
    text = _ctime_in(zone, _value(data, "timestamp"))
    assert _refusal(address, _with(data, "time", text)) is None, (zone, text)


def _ctime_in(zone: str, t: int) -> str:
    """glibc's ctime() of the second t in zone (as TZ names it); the process's own zone restored after."""
    import os
    import time
    before = os.environ.get("TZ")
    os.environ["TZ"] = zone
    time.tzset()
    try:
        return time.ctime(t)
    finally:
        os.environ.pop("TZ") if before is None else os.environ.__setitem__("TZ", before)
        time.tzset()


# the POSIX seconds at which a UTC day ended with a leap second since fio began (2005), as tzdata's
# leapseconds file lists them: before 1979 some zones were off the quarter hour (Pacific/Kiritimati
# -10:40), which no report of fio's was written in
LEAP_SECOND_ENDS = (1136073600, 1230768000, 1341100800, 1435708800, 1483228800)


@settings(max_examples=100, deadline=None, database=None)
@given(address=st.sampled_from(TIMED), zone=st.sampled_from([z for z in ZONES if z.startswith("right/")] or ["UTC"]),
       end=st.sampled_from(LEAP_SECOND_ENDS), near=st.integers(-3, 40))
def test_a_time_written_about_a_leap_second_in_a_right_zone_passes(address, zone, end, near):
    """glibc writes second 60 in a right/ zone as a leap second is inserted (adversary round 84):
    reports written about each leap second since fio began, in any right/ zone, pass."""
    data = _with(REPORTS[address], "timestamp", end + near)
    if b'"timestamp_ms"' in data:
        data = _with(data, "timestamp_ms", (end + near) * 1000 + 500)
    text = _ctime_in(zone, end + near)
    assert _refusal(address, _with(data, "time", text)) is None, (zone, end + near, text)
