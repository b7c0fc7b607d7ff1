"""IOzone's report on standard output, in its two shapes:

- the table of auto mode and single tests (`iozone -a`, `-s SIZE -r REC -i N`): one row per
  file size and record size, a column per test, blank where the test was not run. The
  columns are right-aligned under their header, so a figure belongs to the header whose
  last character it lines up with;
- the throughput mode (`-t N`, `-l/-u`): 'Children see throughput for N initial writers'.

IOzone's kB is 1024 bytes; with -O it reports operations per second instead. Each table
row or throughput line is one measurement; the -R "Excel" report below the table repeats
the same figures and is not read again.
"""
import datetime as dt
import math
import re

from ...errors import UserError
from .. import figures
from .measurement import Bounds, Measurement, check_time

# IOzone's column or throughput label -> (workload, rw as fio would name it)
TABLE_TESTS = {
    "write": "seq-write", "rewrite": "rewrite", "read": "seq-read", "reread": "reread",
    "random read": "rand-read", "random write": "rand-write", "bkwd read": "backward-read",
    "record rewrite": "record-rewrite", "stride read": "stride-read", "fwrite": "fwrite",
    "frewrite": "frewrite", "fread": "fread", "freread": "freread",
}
THROUGHPUT_TESTS = {
    "initial writers": "seq-write", "rewriters": "rewrite", "readers": "seq-read", "re-readers": "reread",
    "random readers": "rand-read", "random writers": "rand-write", "reverse readers": "backward-read",
    "stride readers": "stride-read", "mixed workload": "mixed", "pwrite writers": "pwrite",
    "pread readers": "pread", "fwriters": "fwrite", "freaders": "fread", "re-fwriters": "frewrite",
    "re-freaders": "freread", "random mix": "mixed",
}
# [ \t], not \s: from each of n blank lines \s* ran over all the rest, n² steps before any
# import's format was known (100,000 newlines: 75 s; adversary of #65, round 71)
_HEADER = re.compile(r"^[ \t]*(kB|KB)[ \t]+reclen[ \t]+write\b", re.M)
# the figure is any word before the unit, read or refused (_read): "nan kB/sec" passed the line over
# (and "482 114.97" or nothing there: a figure split or deleted, refused, where the line was passed over: round 76)
_CHILDREN = re.compile(r"Children see throughput for\s+(\d+)\s+([A-Za-z -]+?)\s*=[ \t]*([^\n]*?)[ \t]*(kB/sec|KB/sec|ops/sec)",
                       re.I | re.ASCII)
_RECORD = re.compile(r"Record [Ss]ize (?:= )?(\d+) (?:kBytes|Kbytes|kB|KB)", re.ASCII)
_FILE = re.compile(r"(?:Each process writes a|File size set to) (\d+) (?:kByte|KByte|kB|KB)", re.ASCII)


def _unit(text: str) -> tuple:
    """(metric, factor to base units, unit, better) from IOzone's 'Output is in ...' line."""
    if re.search(r"Output is in operations per second", text, re.I):
        return "iops", 1.0, "ops/s", "higher"
    return "throughput", 1024.0, "bytes/s", "higher"


def _columns(group_line: str, header_line: str) -> list:
    """(name, last column) of each test in the two header lines; 'random' etc. above a
    word join it ('random' over 'read' is 'random read')."""
    out = []
    for match in re.finditer(r"\S+", header_line):
        end = match.end()
        above = [m.group() for m in re.finditer(r"\S+", group_line) if abs(m.end() - end) <= 2]
        out.append(((above[0] + " " if above else "") + match.group(), end))
    return out


def _lines(text: str, pos: int):
    """(start, line) of each line of text[pos:].splitlines(), one at a time, nothing copied but
    each line: the table's rows are read lazily from a header on, not the whole rest of the text
    split once a header (20,000 headers took 63 s to import, the work growing with the square of
    the report's size; #61)."""
    while pos < len(text):
        line = figures.LINE.match(text, pos)
        pos = line.end()
        yield line.start(), line.group(1)


def _line_before(text: str, end: int) -> str:
    """text[:end].rstrip("\n").rsplit("\n", 1)[-1], without the copy of text[:end]."""
    while end and text[end - 1] == "\n":
        end -= 1
    return text[text.rfind("\n", 0, end) + 1:end]


class _LineNumbers:
    """The number (from 1, lines ended by "\n") of the line holding a place in text, counted on
    from the place asked before: asked in order, all of them take one pass over the text."""

    def __init__(self, text: str):
        self.text, self.at, self.number = text, 0, 1

    def __call__(self, pos: int) -> int:
        if pos < self.at:
            self.at, self.number = 0, 1
        self.number += self.text.count("\n", self.at, pos)
        self.at = pos
        return self.number


# A figure of IOzone's: it prints non-negative decimal numbers (printf's %ld, %.2f) in ASCII digits
_FIGURE = re.compile(r"\d+(?:\.\d+)?", re.ASCII)
_EXPECTED = "IOzone's figures: non-negative decimal numbers (a double's)"


def _row_like(found: int, tokens: int, columns: list) -> bool:
    """Whether a line of found figures among its tokens is a row IOzone wrote with a word where a
    figure stood: three figures or more, no more words than the table has columns ("nan" where
    1048576 stood, the rest moved left, ended the table without a word: adversary of #65, round
    76). IOzone's other lines hold fewer figures; its Excel report comes after a blank line."""
    return found >= 3 and tokens <= len(columns)


def _rows(text: str):
    """(columns, line number, tokens) of each row of each table IOzone wrote. A row IOzone wrote
    is a line of figures alone, one whose first word ends under the first column (the file
    size, which IOzone right-aligns there) beside at least one figure, or one like a row with a
    word where a figure stood (_row_like): such a line is read
    whole or refused (_table), never where the table ends ("nan" or "-434998" in row 5 dropped
    rows 5 to 7 without a word: adversary of #65, round 74). The table ends at a blank line after
    its rows, or at any other line (IOzone's "iozone test complete.", a header, a message)."""
    numbers = _LineNumbers(text)
    for header in _HEADER.finditer(text):
        before = _line_before(text, header.start())
        line_end = text.find("\n", header.start())
        header_line = text[header.start():line_end if line_end >= 0 else len(text)]
        columns = _columns(before if "random" in before else "", header_line)
        if [c[0] for c in columns[:2]] not in (["kB", "reclen"], ["KB", "reclen"]):
            continue
        rows = 0
        for start, row in _lines(text, line_end + 1) if line_end >= 0 else ():
            tokens = list(re.finditer(r"\S+", row))
            if not tokens:
                if rows:
                    break
                continue
            figures_in = [bool(_FIGURE.fullmatch(t.group())) for t in tokens]
            if not all(figures_in) and not (any(figures_in) and abs(tokens[0].end() - columns[0][1]) <= 3) \
                    and not _row_like(sum(figures_in), len(tokens), columns):
                break
            rows += 1
            yield columns, numbers(start), tokens


def _read(token: str, where: str, line: int, factor: float) -> float:
    """An IOzone figure as the double it names; a UserError naming its line where it is none
    (nan, -434998, 1e400) or none a double holds, as written or times factor, its unit's in
    base units (0.000…0001 read as 0.0, 400 digits read as inf: adversary of #65, round 74)."""
    try:
        if not _FIGURE.fullmatch(token):
            raise ValueError(token)
        value = figures.number(token)
        if not math.isfinite(value * factor):
            raise ValueError(token)
        return value
    except ValueError:
        shown = token if len(token) <= 40 else f"{token[:18]}…{token[-18:]}"  # 0.000…0001's last digit too
        raise UserError(f"a figure of {shown!r}", where=where, field=f"line {line}", expected=_EXPECTED) from None


# How far right of its header word a table's first figure of a column ends: under it (IOzone
# 3.2xx, 3.3xx) or one past it (3.4xx's read and random read, a character wider). None ends before
# its word: a figure that does was cut short (a log cut where IOzone was writing the row), and so
# is one ending further past it, the start of a figure cut under a column left blank.
_PAST_HEADER = 1


def _unended(text: str) -> bool:
    """Whether text's last line has no line end (str.splitlines' ends, as figures.LINE's)."""
    return bool(text) and text[-1].splitlines() != [""]


def _count(bound: Bounds, m: Measurement, where: str, line: int) -> None:
    bound.add((m.workload, tuple(sorted(m.dimensions.items()))), m, where, f"line {line}")  # as import_ keys a cell


def _table(text: str, where: str, metric: tuple, bound: Bounds) -> list:
    name, factor, unit, better = metric
    out = []
    last_line = text.count("\n") + 1 if _unended(text) else None
    table = None
    for columns, line, tokens in _rows(text):
        if columns is not table:  # a table's first row: its figures' ends and columns the rest must have
            table, ends, tests, first = columns, {}, None, line
        if line == last_line:  # IOzone ends each row; a row without its end may have been cut in a figure
            raise UserError("a table row without its line end", where=where, field=f"line {line}",
                            expected="IOzone's rows, each ended by a line end (an output cut while IOzone "
                                     "wrote a row ends in it)")
        values = {}
        for token in tokens:
            value = _read(token.group(), where, line, factor)
            column = min(columns, key=lambda c: abs(c[1] - token.end()))
            # where the column's figures end in the rows above, else under its header word or past it:
            # a figure cut short ends before (752151 cut to 7521 was read as 7521: adversary of #65, round 78),
            # so of two rows that differ the one ending before is named
            end, at = ends.setdefault(column[0], (token.end() if 0 <= token.end() - column[1] <= _PAST_HEADER else None, line))
            if token.end() != end or column[0] in values:
                earlier = column[0] not in values and end is not None and token.end() > end
                raise UserError(f"a figure that lines up with no column: {token.group()[:40]!r}", where=where,
                                field=f"line {at if earlier else line}",
                                expected="IOzone's right-aligned columns, each figure ending where its column's "
                                         "figures end (one cut short ends before)")
            values[column[0]] = value
        tests, held = tests or set(values), set(values)
        if held != tests:  # IOzone runs a table's tests in every row: a row cut at a column holds fewer
            raise UserError(f"a row of {len(held)} figures where the table's first row holds {len(tests)}",
                            where=where, field=f"line {first if held > tests else line}",
                            expected="every row of a table holding the columns of its first row (a row cut short holds fewer)")
        if "kB" not in values and "KB" not in values or "reclen" not in values:
            raise UserError("a table row without file size and record size", where=where, field=f"line {line}")
        size_kib = values.pop("kB", values.pop("KB", 0))
        record_kib = values.pop("reclen")
        for label, value in values.items():
            workload = TABLE_TESTS.get(label)
            if workload:
                out.append(Measurement(workload, {"file_size_kib": int(size_kib), "record_kib": int(record_kib)},
                                       {name: value * factor}, {name: (unit, better)},
                                       dimensions={"record_kib": int(record_kib), "file_size_kib": int(size_kib)}))
                _count(bound, out[-1], where, line)
    return out


def _children(text: str):
    """The 'Children see throughput' lines of the tests fsatlas reads."""
    return (m for m in _CHILDREN.finditer(text) if m.group(2).strip().lower() in THROUGHPUT_TESTS)


def _throughput(text: str, where: str, metric: tuple, bound: Bounds) -> list:
    name, factor, unit, better = metric
    record = _RECORD.search(text)
    size = _FILE.search(text)
    out = []
    numbers = _LineNumbers(text)
    for match in _children(text):
        workload = THROUGHPUT_TESTS[match.group(2).strip().lower()]
        line = numbers(match.start(3))
        value = _read(match.group(3), where, line, 1.0 if match.group(4).lower() == "ops/sec" else factor)
        ops = match.group(4).lower() == "ops/sec"
        params = {"processes": int(match.group(1))}
        if record:
            params["record_kib"] = int(record.group(1))
        if size:
            params["file_size_kib"] = int(size.group(1))
        metric_name, metric_factor, metric_unit = ("iops", 1.0, "ops/s") if ops else (name, factor, unit)
        out.append(Measurement(workload, params, {metric_name: value * metric_factor},
                               {metric_name: (metric_unit, better)}, dimensions={"threads": int(match.group(1))}))
        _count(bound, out[-1], where, line)
    return out


def looks_like(text: str) -> bool:
    return "Children see throughput" in text or bool(_HEADER.search(text)) or bool(_EXCEL.search(text))


_VERSION = re.compile(r"Version \$Revision: ([\d.]+) \$", re.ASCII)


def tool_version(text: str) -> str | None:
    match = _VERSION.search(text)
    return f"IOzone {match.group(1)}" if match else None


# The -R ("Excel") report: "Writer report" blocks of auto mode, a "Throughput report ..." block of -t
_EXCEL = re.compile(r'^"(?:[A-Za-z -]+ report|Throughput report[^"]*)"\s*$', re.M)


def _read_lines(text: str) -> list:
    """The numbers of the lines this module reads a figure from: the tables' rows, the Children
    lines of the tests read, the first record size and file size lines, the version. The rest
    may hold the user's words, which IOzone repeats ("Command line used:", "Machine = Linux host
    6.1.0-1_2 ...") or a user pastes before its output (the command and its prompt, with paths of
    "/mnt/2024_01_15/file1": adversary of #65, round 74)."""
    read = [number for _, number, _ in _rows(text)]
    numbers = _LineNumbers(text)
    read += [numbers(m.start(k)) for m in _children(text) for k in (1, 3)]
    for pattern in (_RECORD, _FILE, _VERSION):
        match = pattern.search(text)
        if match:
            read.append(text.count("\n", 0, match.start(1)) + 1)
    return read


def run_lines(text: str) -> list[tuple[int, str]]:
    """(number, key) of each line that holds a measurement of one run: a table's row, its words;
    a Children line read, what is read from it (threads, test, figure, unit), not its words: quoted
    ("> "), or after the time `ts` or a syslog wrote, it is the same run (adversary of #65, round
    78: its words made it another run). One key twice, in one output or in two, is one run's
    figures twice (import_._output_keys: a log of IOzone's outputs appended, `iozone ... >> log`)."""
    lines = text.split("\n")
    numbers = _LineNumbers(text)
    keys = {number: lines[number - 1] for _, number, _ in _rows(text)}
    for m in _children(text):
        keys[numbers(m.start())] = f"Children {m[1]} {' '.join(m[2].lower().split())} = {m[3]} {m[4].lower()}"
    return sorted(keys.items())


def parse(text: str, where: str, workload: str | None = None) -> list:
    figures.refuse_edited_lines(text, where, "IOzone's", _read_lines)
    metric = _unit(text)
    bound = Bounds()  # table rows and Children lines alike, refused at the line past a bound (round 78)
    out = _table(text, where, metric, bound) + _throughput(text, where, metric, bound)
    if not out and _EXCEL.search(text):
        raise UserError("only IOzone's -R spreadsheet report was found", where=where,
                        expected="IOzone's standard output as it printed it: the table above the -R report "
                                 "(a 'kB reclen write rewrite ...' header) or the 'Children see throughput' lines")
    if not out:
        raise UserError("no IOzone results", where=where,
                        expected="IOzone's table (a 'kB reclen write rewrite ...' header) or "
                                 "'Children see throughput for N initial writers = X kB/sec' lines")
    if workload:
        for m in out:
            m.workload = f"{workload}-{m.workload}"
    return out


def measured(text: str, where: str = "") -> dict | None:
    """When the run began, from IOzone's own line ("Run began: Sun Nov  1 12:02:42 2009", the
    machine's local time, its offset not written). A line that holds no such date (another
    format, a zone, an impossible date) is refused, naming its line."""
    match = re.search(r"^[ \t]*Run began:[ \t]*(.*)$", text, re.M)
    if not match:
        return None
    try:  # strptime reads any script's digits: "12:02:4２" is no time IOzone wrote (round 61)
        when = dt.datetime.strptime(" ".join(figures.ascii_text(match.group(1)).split()), "%a %b %d %H:%M:%S %Y")
    except ValueError:
        raise UserError(f"Run began: {match.group(1).strip()[:60]}", where=where,
                        field=f"line {text.count(chr(10), 0, match.start()) + 1}",
                        expected="IOzone's date, as \"Run began: Sun Nov  1 12:02:42 2009\" (no zone)") from None
    found = {"time": f"{when:%Y-%m-%dT%H:%M:%S}", "utc": False, "from": "IOzone Run began"}
    return check_time(found, when.replace(tzinfo=dt.timezone.utc), where, f"line {text.count(chr(10), 0, match.start()) + 1}")
