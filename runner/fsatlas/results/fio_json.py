"""Reads fio's JSON output (--output-format=json) into fsatlas metric values.

fio may print notes before the JSON document ("note: both iodepth >= 1 and synchronous I/O
engine..."), so parsing starts at the first line that opens an object, and messages after it,
which are read past; a second report in the same file is refused.
"""
import json
import math
import re

import orjson

from . import figures, resultfile
from ..errors import UserError

# fio's percentile keys for the latency metrics fsatlas reports.
PERCENTILES = {"lat_p50_ns": "50.000000", "lat_p99_ns": "99.000000", "lat_p999_ns": "99.900000"}


# fio's json+ output adds each latency histogram's buckets ("bins": {"<ns>": count, ...}, up to
# 1,856 a histogram, any number in a hostile file): nothing fsatlas reads, and the bulk of the
# parsed tree (a 63 MB json+ report took validate 1.34 GB). They are cut from the text before
# it is parsed, only where they hold bucket counts alone (digits), so nothing the privacy screen
# reads is dropped; what is left is bounded by MAX_REPORT_CHARS. Each run of white space stands
# between two fixed tokens, so nothing backtracks over it; the buckets' repeat is possessive, so
# the matcher keeps no state a bucket (2 million buckets: 0.3 s, where a plain repeat took 4x
# the memory). Only that one: with every quantifier possessive, Python 3.11.2 matched
# '"bins":{"}' (a '}' key), and the cut left broken JSON.
BUCKET = r'"\d{1,20}"\s*:\s*\d{1,20}\s*'
BINS = re.compile(r'"bins"\s*:\s*\{\s*(?:' + BUCKET + r'(?:,\s*' + BUCKET + r')*+)?\}')
# fio's report beside its bins: 6.6 KB a job (the fixture's), so 4 MiB holds 600 jobs. The worst
# document of 8 MiB for validate ("[[],[],...]": 2.8 million lists, parsed, walked for strings
# and parsed again) took 7.8 s and 338 MB, too near its 10 s; half of it, half as long.
MAX_REPORT_CHARS = 4 * 1024 * 1024


_BINS_BYTES = re.compile(BINS.pattern.encode())


def bytes_without_bins(data: bytes) -> bytes:
    """The bytes of fio's report with its bins cut (BINS, on bytes: ASCII digits and spaces) before
    they are decoded: one character beyond the BMP makes Python hold every character of the text
    in 4 bytes, and a 64 MB json+ report 256 MB before its bins could be cut from the text (793
    MiB to validate). without_bins cuts what is left (figures in other digits) as before."""
    return _BINS_BYTES.sub(b'"bins": {}', data) if b'"bins"' in data else data


def without_bins(text: str, where: str) -> str:
    """fio's report without the buckets of its latency histograms (BINS), as text; a UserError
    where what is left is longer than MAX_REPORT_CHARS."""
    if '"bins"' in text:
        text = BINS.sub('"bins": {}', text)
    if len(text) > MAX_REPORT_CHARS:
        raise UserError(f"a JSON report of {len(text):,} characters besides its latency bins", where=where,
                        expected=f"fio's JSON report of at most {MAX_REPORT_CHARS:,} (json+'s bins aside)")
    return text


class _TooLong(float):
    """An integer literal of more digits than fio's counters (unsigned 64-bit: 20) have: read as
    inf, its digits kept, and refused at its JSON Pointer (_not_finite); never int() of them,
    which takes time growing with their square and is refused past 4,300 digits."""

    def __new__(cls, digits: str):
        number = super().__new__(cls, math.inf)
        number.digits = digits
        return number


def _integer(digits: str) -> int | float:
    return _TooLong(digits) if len(digits.lstrip("-")) > 20 else int(digits)


class _NoDouble(ValueError):
    """A number literal no double holds as written (its text the argument)."""


def _float(text: str) -> float:
    """float(text), where a figure written as not 0 is not read as 0.0 (1e-400: orjson and json
    both read it so, and nothing after the parse could tell). A literal beyond a double (1e400)
    is read as inf, as NaN and Infinity are, and refused after the parse at its JSON Pointer
    (_not_finite)."""
    value = float(text)
    if figures.lost_to_zero(text, value):
        raise _NoDouble(text)
    return value


# the literals a double may not hold, which orjson reads as 0.0: an exponent of three digits or
# more (1e-400), or 40 digits and points and more in a row (0.000…0001, about 340 zeros: adversary
# of #65, round 74; with an exponent of two digits, one needs 200 places to leave a double's
# range). fio writes neither, so a report holding one is read by json, which checks every float
# literal (_float). So does an integer of more than 20 digits, which orjson reads as a float and
# json's _integer as one no double holds: refused whatever else the report holds. One digit first,
# the three forms after it: a search 1.7x the exponent's alone (99 against 57 µs a 6.6 KB report),
# where three alternatives each tried from its own start took 429 µs (validate of a bundle's
# 20,000 full reports: 37 s, make perf).
_EXTREME_LITERAL = re.compile(r"[0-9](?:[eE][-+]?[0-9]{3}|[0-9.]{39}|[0-9]{20})")
# Every text the search finds holds 21 digits and points in a row, or an exponent of three digits:
# with each of those characters made NUL (and E, - made e, +), a look for those two shapes in C
# (17 against 95 µs a 6.6 KB report) tells the texts the search need not be run on (validate of
# 20,000 full reports spent 2.6 s of 9.7 in it).
_NUMBER_CHARACTERS = str.maketrans({**{c: "\0" for c in "0123456789."}, "E": "e", "-": "+"})


def has_extreme_literal(text: str, start: int = 0) -> bool:
    """Whether text from start holds a literal of _EXTREME_LITERAL's."""
    shapes = text.translate(_NUMBER_CHARACTERS)
    if "\0" * 21 not in shapes and "e\0\0\0" not in shapes and "e+\0\0\0" not in shapes:
        return False
    return _EXTREME_LITERAL.search(text, start) is not None


# How deep a fio report may nest: fio's own go 7 levels (jobs, a job, read, clat_ns, percentile).
# Python's json recurses a level a bracket: ~1,100 under "jobs" (which orjson, limited to 1,024,
# hands on to it) ended in a RecursionError traceback.
MAX_DEPTH = 64
_NESTING = re.compile(r'"(?:[^"\\]|\\.)*+"|[\[\]{}]')


def within_depth(text: str, start: int, where: str) -> None:
    """A UserError naming the line where the JSON text from start nests deeper than MAX_DEPTH
    (brackets inside strings aside); one pass of one pattern, no parse."""
    depth = 0
    for match in _NESTING.finditer(text, start):
        char = match.group()
        if char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                line = text.count("\n", 0, match.start()) + 1
                raise UserError(f"JSON nested more than {MAX_DEPTH} levels deep at line {line}", where=where,
                                expected="fio's JSON report (a few levels)")
        elif char in "]}":
            depth -= 1


def _not_finite(report) -> tuple | None:
    """(JSON Pointer, value) of the first NaN, Infinity or literal beyond a double (read as inf) in
    a report json parsed (orjson refuses them all): fio writes none (printf's "nan" is no JSON), so
    a report holding one was edited, whether or not its field is one fio's figures are read from
    (a NaN in disk_util passed into the kept raw output: adversary of #65, round 74). None where
    every number is finite."""
    stack = [((), report)]
    while stack:
        at, node = stack.pop()
        if isinstance(node, float) and not math.isfinite(node):
            return resultfile.pointer(at), node
        if isinstance(node, (dict, list)):
            items = node.items() if isinstance(node, dict) else enumerate(node)
            stack.extend((at + (k,), v) for k, v in reversed(list(items)))
    return None


def _number_at(text: str, literal: str, start: int) -> int:
    """Where the number literal stands in the JSON text from start: its first place outside
    a string (the same text in a note before it is no number: adversary round 80)."""
    found = re.compile(r'"(?:[^"\\]|\\.)*+"|(?<![0-9.eE+-])' + re.escape(literal) + r"(?![0-9.eE+-])")
    return next((m.start() for m in found.finditer(text, start) if m.group()[0] != '"'), start)


def parse(text: str, where: str = "fio output") -> dict:
    text = without_bins(text, where)
    start = text.find("\n{") + 1 if not text.lstrip().startswith("{") else text.find("{")
    if start < 0 or text[start:start + 1] != "{":
        raise UserError("no JSON document in fio output", where=where)
    if not has_extreme_literal(text, start):
        try:  # orjson decodes fio's reports 3.5x faster; json has the last word on what orjson refuses
            return orjson.loads(text[start:])
        except orjson.JSONDecodeError:
            pass
    within_depth(text, start, where)  # before json, which recurses where orjson gave up
    try:  # fio prints some messages after the report ("fio: file hash not empty on exit")
        report, end = json.JSONDecoder(parse_int=_integer, parse_float=_float).raw_decode(text, start)
    except json.JSONDecodeError as e:
        line = text.count("\n", 0, e.pos) + 1
        raise UserError(f"malformed JSON at line {line}: {e.msg}", where=where) from None
    except _NoDouble as e:
        line = text.count("\n", 0, _number_at(text, e.args[0], start)) + 1
        raise UserError(f"a number of {e.args[0][:40]!r} at line {line}", where=where,
                        expected="fio's figures, numbers a double holds as written (not 0 read from a figure that is not)") from None
    unheld = _not_finite(report)
    if unheld:
        place, number = unheld
        raise UserError(f"an integer of {len(number.digits.lstrip('-')):,} digits" if isinstance(number, _TooLong)
                        else f"a number fio never writes ({number!r})", where=where, field=place,
                        expected="fio's figures: finite numbers, integers of at most 20 digits")
    rest = text[end:].lstrip()
    if rest.startswith(("{", "[")):
        line = text.count("\n", 0, len(text) - len(rest)) + 1
        raise UserError(f"a second JSON document at line {line}", where=where,
                        expected="one fio report a file (each file is one repetition)")
    return report


def job_metrics(job: dict, direction: str) -> dict:
    """Metric values of one fio job (or group-reported job) in one direction ('read'/'write')."""
    side = job[direction]
    values = {
        "throughput": figures.json_number(side["bw_bytes"]),
        "iops": figures.json_number(side["iops"]),
        "lat_mean_ns": figures.json_number(side["lat_ns"]["mean"]),
        "cpu_usr_pct": figures.json_number(job["usr_cpu"]),
        "cpu_sys_pct": figures.json_number(job["sys_cpu"]),
    }
    percentiles = side.get("clat_ns", {}).get("percentile", {})
    for name, key in PERCENTILES.items():
        if key in percentiles:
            values[name] = figures.json_number(percentiles[key])
    values.update(sync_metrics(job, side, values["lat_mean_ns"]))
    return values


def sync_metrics(job: dict, side: dict, lat_mean_ns: float) -> dict:
    """A job that syncs (fsync= or fdatasync=) times the syncs apart from the writes, in "sync"
    (fio 3.5 on): a durable write costs both, and the write call alone is the smaller part
    (fsync-write-4k on a loop device: writes of 11-21 µs, fdatasyncs of 1-7 ms). The runner and
    the importer (which recomputes the runner's figures) both read them here."""
    sync = job.get("sync", {}).get("lat_ns", {}) if isinstance(job.get("sync"), dict) else {}
    if not (isinstance(sync, dict) and sync.get("N") and side.get("total_ios")):
        return {}
    values = {"sync_lat_mean_ns": figures.json_number(sync["mean"]),
              "write_sync_lat_mean_ns": lat_mean_ns + figures.json_number(sync["mean"]) * sync["N"] / side["total_ios"]}
    for name, key in PERCENTILES.items():
        if key in sync.get("percentile", {}):
            values["sync_" + name] = figures.json_number(sync["percentile"][key])
    return values


def job_folders(document) -> tuple | None:
    """The folder each job of a parsed report ran in: its own `directory` option, else the
    global one (None for a job that names neither); None for a document with no list of jobs
    (fio's client mode writes client_stats)."""
    if not isinstance(document, dict) or not isinstance(document.get("jobs"), list):
        return None
    shared = document.get("global options")
    default = shared.get("directory") if isinstance(shared, dict) else None
    folders = []
    for job in document["jobs"]:
        own = job.get("job options") if isinstance(job, dict) else None
        folder = own.get("directory", default) if isinstance(own, dict) else default
        folders.append(folder if isinstance(folder, str) else None)
    return tuple(folders)


def report_span(document) -> tuple[float, float] | None:
    """(when fio's jobs began running at the latest, when it wrote the report at the earliest), in
    seconds since the epoch, from a parsed report: its `timestamp_ms` less the longest of its jobs'
    per-direction `runtime` (milliseconds; `job_runtime` adds up a group's jobs). fio set its files
    up before that, so a job began no later. A report of fio's client mode (client_stats, no jobs)
    has no timestamp_ms: its whole-second `timestamp` gives the same span, each end moved inward
    by the second it was cut to. None where these are missing."""
    if not isinstance(document, dict):
        return None
    def number(value):
        return isinstance(value, int) and not isinstance(value, bool)
    jobs = document.get("jobs") if "jobs" in document else document.get("client_stats")
    runtimes = [job[d]["runtime"] for job in jobs if isinstance(job, dict) for d in ("read", "write", "trim")
                if isinstance(job.get(d), dict) and number(job[d].get("runtime"))] if isinstance(jobs, list) else []
    if not runtimes:
        return None
    if number(document.get("timestamp_ms")):
        return (document["timestamp_ms"] - max(runtimes)) / 1000, document["timestamp_ms"] / 1000
    if "jobs" not in document and number(document.get("timestamp")):
        return document["timestamp"] + 1 - max(runtimes) / 1000, float(document["timestamp"])
    return None
