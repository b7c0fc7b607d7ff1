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
import re

from ...errors import UserError
from .. import figures
from .measurement import Measurement, check_time

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
_CHILDREN = re.compile(r"Children see throughput for\s+(\d+)\s+([A-Za-z -]+?)\s*=\s*([\d.]+)\s*(kB/sec|KB/sec|ops/sec)", re.I | re.ASCII)
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
    """text[pos:].splitlines(), one line at a time, nothing copied but each line: the table's rows
    are read lazily from a header on, not the whole rest of the text split once a header (20,000
    headers took 63 s to import, the work growing with the square of the report's size; #61)."""
    while pos < len(text):
        line = figures.LINE.match(text, pos)
        pos = line.end()
        yield line.group(1)


def _line_before(text: str, end: int) -> str:
    """text[:end].rstrip("\n").rsplit("\n", 1)[-1], without the copy of text[:end]."""
    while end and text[end - 1] == "\n":
        end -= 1
    return text[text.rfind("\n", 0, end) + 1:end]


def _table(text: str, where: str, metric: tuple) -> list:
    name, factor, unit, better = metric
    out = []
    for header in _HEADER.finditer(text):
        before = _line_before(text, header.start())
        line_end = text.find("\n", header.start())
        header_line = text[header.start():line_end if line_end >= 0 else len(text)]
        columns = _columns(before if "random" in before else "", header_line)
        if [c[0] for c in columns[:2]] not in (["kB", "reclen"], ["KB", "reclen"]):
            continue
        for number, row in enumerate(_lines(text, line_end + 1) if line_end >= 0 else (), 1):
            if not row.strip():
                if out:
                    break
                continue
            tokens = list(re.finditer(r"\S+", row))
            if not tokens or not all(re.fullmatch(r"\d+(\.\d+)?", t.group(), re.ASCII) for t in tokens):
                break
            values = {}
            for token in tokens:
                column = min(columns, key=lambda c: abs(c[1] - token.end()))
                if abs(column[1] - token.end()) > 3 or column[0] in values:
                    raise UserError(f"a figure that lines up with no column: {token.group()!r}", where=where,
                                    field=f"table row {number}", expected="IOzone's right-aligned columns")
                values[column[0]] = float(token.group())
            if "kB" not in values and "KB" not in values or "reclen" not in values:
                raise UserError("a table row without file size and record size", where=where, field=f"table row {number}")
            size_kib = values.pop("kB", values.pop("KB", 0))
            record_kib = values.pop("reclen")
            for label, value in values.items():
                workload = TABLE_TESTS.get(label)
                if workload:
                    out.append(Measurement(workload, {"file_size_kib": int(size_kib), "record_kib": int(record_kib)},
                                           {name: value * factor}, {name: (unit, better)},
                                           dimensions={"record_kib": int(record_kib), "file_size_kib": int(size_kib)}))
    return out


def _throughput(text: str, metric: tuple) -> list:
    name, factor, unit, better = metric
    record = _RECORD.search(text)
    size = _FILE.search(text)
    out = []
    for match in _CHILDREN.finditer(text):
        workload = THROUGHPUT_TESTS.get(match.group(2).strip().lower())
        if not workload:
            continue
        ops = match.group(4).lower() == "ops/sec"
        params = {"processes": int(match.group(1))}
        if record:
            params["record_kib"] = int(record.group(1))
        if size:
            params["file_size_kib"] = int(size.group(1))
        metric_name, metric_factor, metric_unit = ("iops", 1.0, "ops/s") if ops else (name, factor, unit)
        out.append(Measurement(workload, params, {metric_name: float(match.group(3)) * metric_factor},
                               {metric_name: (metric_unit, better)}, dimensions={"threads": int(match.group(1))}))
    return out


def looks_like(text: str) -> bool:
    return "Children see throughput" in text or bool(_HEADER.search(text)) or bool(_EXCEL.search(text))


def tool_version(text: str) -> str | None:
    match = re.search(r"Version \$Revision: ([\d.]+) \$", text)
    return f"IOzone {match.group(1)}" if match else None


# The -R ("Excel") report: "Writer report" blocks of auto mode, a "Throughput report ..." block of -t
_EXCEL = re.compile(r'^"(?:[A-Za-z -]+ report|Throughput report[^"]*)"\s*$', re.M)


# the arguments IOzone was given, as it repeats them: paths and names of the user's, not figures
_COMMAND_LINE = re.compile(r"^[ \t]*Command line used:([^\n]*)", re.M)


def parse(text: str, where: str, workload: str | None = None) -> list:
    figures.refuse_other_digits(text, where, "IOzone's", names=[m.span(1) for m in _COMMAND_LINE.finditer(text)])
    metric = _unit(text)
    out = _table(text, where, metric) + _throughput(text, metric)
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
