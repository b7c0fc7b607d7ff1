"""fio's terse output (--minimal, or --output-format=terse), versions 2 to 5, read into the
report fio 2.x's JSON would hold for the same jobs, so that one reader (importers/fio) makes
cells of both.

The fields are those fio's man page lists under TERSE OUTPUT (fio 3.33): a line per job,
"version;[fio version;]jobname;groupid;error" (the fio version from terse version 3 on), then a
block per direction (read, write, and trim in versions 2, 4 and 5; one "mixed" block under
unified_rw_reporting), then the CPU shares. A block is the I/O in KiB, the bandwidth in KiB/s,
the IOPS and the runtime; submission, completion and total latency in microseconds, each min,
max, mean, stdev, with 20 completion-latency percentiles ("99.000000%=1352") between the last
two; the bandwidth statistics; and in version 5 also the bandwidth's sample count and the IOPS
statistics. The number of blocks is read, not assumed: the field after the last one is the
user CPU share, the only field written with a "%" there.
"""
import re

from . import figures
from ..errors import UserError

BLOCK = {2: 41, 3: 41, 4: 41, 5: 47}  # fields of one direction's block, by terse version
# fio 1.x's version 2 block (the line fio's man page still shows, "2;card0;0;0;7139336;121836;
# 60004;1;10109;..."): I/O, bandwidth, runtime, the three latencies, the bandwidth statistics;
# no IOPS and no percentiles, so its 13th field holds no "%=".
OLD_BLOCK = 20
_LINE = re.compile(r"^[2-5];")
MIN_SEPARATORS = 77  # fio 1.x's version 2 line, the shortest: 78 fields
_STATED = re.compile(r"^[3-5];fio-[^;]*;")  # versions 3 to 5 name fio's version: a terse line however short
_SIDES = {1: ("mixed",), 2: ("read", "write"), 3: ("read", "write", "trim")}  # by the number of blocks


def _is_line(line: str) -> bool:
    return bool(_STATED.match(line) or (_LINE.match(line) and line.count(";") >= MIN_SEPARATORS))


# a line (as str.splitlines ends lines) that begins with a terse version: one search over the
# text, which no JSON report passes, before each line is judged (validate asked it of every fio
# report, and judged some 300 lines of each)
_VERSION_AT_LINE_START = re.compile("(?:\\A|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029])[2-5];")
# the same after a line's end alone: a search that begins with a class of characters is made
# one scan for them (14 against 5 µs a small JSON report), the text's start asked apart
_VERSION_AFTER_LINE_END = re.compile("[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029][2-5];")


def is_terse(text: str) -> bool:
    begins = text[:2] in ("2;", "3;", "4;", "5;") or bool(_VERSION_AFTER_LINE_END.search(text))
    return begins and any(_is_line(line) for line in text.splitlines())


def lines(text: str) -> list[tuple[int, str]]:
    """(number, line) of each terse line of text (_is_line), its line end left out: a line is one
    job's run (or one of its clones')."""
    return [(number, line.rstrip("\r")) for number, line in enumerate(text.splitlines(), 1) if _is_line(line)]


def job_names(text: str) -> list[tuple[int, int]]:
    """(start, end) in text of the job name of each terse line (_is_line): the user's words, any
    characters but ";" (fio's jobname=, or the job file's section name)."""
    spans = []
    for version in _VERSION_AT_LINE_START.finditer(text):  # the lines that begin as terse lines, by one search
        at = version.end() - 2
        line = figures.LINE.match(text, at).group(1)
        if _is_line(line):
            fields = line.split(";", 3)
            skip = 1 if fields[0] == "2" else 2  # version 2 states no fio version
            start = at + sum(len(f) + 1 for f in fields[:skip])
            spans.append((start, start + len(fields[skip])))
    return spans


def version(text: str) -> str | None:
    """The fio version a terse line states (versions 3 to 5 do)."""
    for line in text.splitlines():
        if _STATED.match(line):
            return line.split(";", 2)[1][:50]
    return None


# Where each figure check_sides reads sits in a direction's block, from its first field
_AT = {"io_bytes": 0, "bw": 1, "iops": 2, "runtime": 3}
_OLD_AT = {"io_bytes": 0, "bw": 1, "runtime": 2}


def report(text: str, where: str) -> dict:
    """fio's terse lines as fio 2.x's JSON report, and under PLACES, for each job, its line's
    number and {direction: {key: the field's number in the line}} (place: an error in the text
    is named by line and field, not by a JSON Pointer the file does not have)."""
    jobs, places = [], []
    for number, line in lines(text):
        jobs.append(_job(line.split(";"), f"{where}:{number}", fields := {}))
        places.append((number, fields))
    if not jobs:
        raise UserError("no terse line in fio output", where=where,
                        expected="lines of fio --minimal (terse versions 2 to 5)")
    return {"jobs": jobs, PLACES: places}


PLACES = "terse places"  # a key fio's JSON never writes (it has a space)


def place(report: dict, where: str, error: UserError) -> UserError:
    """error, whose field is a JSON Pointer /jobs/N/<direction>/<key> into report (check_sides),
    named instead by the terse line and field it came from: "FILE:LINE: field 48 (write bw)"."""
    parts = error.field.split("/")
    if len(parts) != 5 or parts[1] != "jobs" or not parts[2].isdigit() or int(parts[2]) >= len(report.get(PLACES, ())):
        return error
    line, fields = report[PLACES][int(parts[2])]
    number = fields.get(parts[3], {}).get(parts[4])
    return UserError(error.message, where=f"{where}:{line}", expected=error.expected, found=error.found,
                     field=f"field {number} ({parts[3]} {parts[4]})" if number else f"{parts[3]} {parts[4]}")


def _job(fields: list, where: str, places: dict) -> dict:
    terse = _number(fields[0], 0, where, int)
    head = 4 if terse == 2 else 5
    size = BLOCK[terse] if terse != 2 or "%=" in _at(fields, head + 12) else OLD_BLOCK
    blocks, starts, at = [], [], head
    while True:
        if at + size >= len(fields):
            raise UserError(f"{len(fields)} fields", where=where,
                            expected=f"a terse version {terse} line: {head} fields, a block of {size} per direction, "
                                     f"then the CPU shares")
        blocks.append((_block if size != OLD_BLOCK else _old_block)(fields[at:at + size], at, where))
        starts.append({k: at + 1 + i for k, i in (_AT if size != OLD_BLOCK else _OLD_AT).items()})
        at += size
        if fields[at].endswith("%"):
            break
        if len(blocks) == 3:
            raise UserError(f"field {at + 1}", where=where, expected="the user CPU share (such as 14.595833%) "
                                                                   "after at most three directions", found=repr(fields[at]))
    places.update(zip(_SIDES[len(blocks)], starts))
    return {"jobname": fields[head - 3], "groupid": _number(fields[head - 2], head - 2, where, int),
            "error": _number(fields[head - 1], head - 1, where, int),
            **dict(zip(_SIDES[len(blocks)], blocks)),
            "usr_cpu": _number(fields[at].rstrip("%"), at, where), "sys_cpu": _number(fields[at + 1].rstrip("%"), at + 1, where)}


def _block(block: list, at: int, where: str) -> dict:
    """One direction, in fio 2.x JSON's keys and units (KiB, KiB/s, microseconds)."""
    numbers = {offset: _number(block[offset], at + offset, where) for offset in (*range(12), *range(32, 36))}
    percentiles = {}
    for offset in range(12, 32):
        share, _, value = block[offset].partition("%=")
        share, value = _number(share, at + offset, where), _number(value, at + offset, where)
        if share > 0:  # "0%=0" fills the 20 places when fio computed fewer percentiles
            percentiles[f"{share:f}"] = value
    return {"io_bytes": numbers[0], "bw": numbers[1], "iops": numbers[2], "runtime": numbers[3],
            "slat": _stats(numbers, 4), "clat": {**_stats(numbers, 8), "percentile": percentiles},
            "lat": _stats(numbers, 32)}


def _old_block(block: list, at: int, where: str) -> dict:
    numbers = [_number(text, at + offset, where) for offset, text in enumerate(block[:15])]
    return {"io_bytes": numbers[0], "bw": numbers[1], "runtime": numbers[2], "slat": _stats(numbers, 3),
            "clat": _stats(numbers, 7), "lat": _stats(numbers, 11)}


def _stats(numbers, first: int) -> dict:
    """A latency's four figures from the first of them on, as fio's JSON names them."""
    return dict(zip(("min", "max", "mean", "stddev"), (numbers[first + i] for i in range(4))))


def _at(fields: list, index: int) -> str:
    return fields[index] if index < len(fields) else ""


def _number(text: str, index: int, where: str, kind=float):
    try:
        return figures.number(text, kind)
    except ValueError:
        raise UserError(f"field {index + 1}", where=where, expected="a number", found=repr(text[:40])) from None
