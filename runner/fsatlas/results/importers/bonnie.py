"""bonnie++'s CSV lines, alone or after the human-readable table bonnie++ prints first (its
standard output as it is): the formats of bonnie++ 1.91a to 1.97, format 1.98 from 1.98 and
2.00, format 2 of bonnie++ 1.90a to 1.91, and the older line of bonnie++ 1.0x (1.02, 1.03),
which has no format field and no latencies. Each line is one run, with exactly its format's
number of fields. bonnie++ writes '+++++' where a test finished too fast to measure: that is
not a number, so the metric is left out and the cell says why; a latency the line did measure
is kept.

The name field holds the host name: it is never imported.
"""
import functools
import re

from .. import figures
from ...errors import UserError
from .measurement import Measurement, bounds

# Column names after (format_version, bonnie_version, name, concurrency, seed, file_size, io_chunk_size);
# format 1.98 inserts seeks and seek_proc_count before putc.
COLUMNS = ["putc", "putc_cpu", "put_block", "put_block_cpu", "rewrite", "rewrite_cpu", "getc", "getc_cpu",
           "get_block", "get_block_cpu", "seeks", "seeks_cpu", "num_files", "max_size", "min_size", "num_dirs",
           "file_chunk_size", "seq_create", "seq_create_cpu", "seq_stat", "seq_stat_cpu", "seq_del", "seq_del_cpu",
           "ran_create", "ran_create_cpu", "ran_stat", "ran_stat_cpu", "ran_del", "ran_del_cpu",
           "putc_latency", "put_block_latency", "rewrite_latency", "getc_latency", "get_block_latency",
           "seeks_latency", "seq_create_latency", "seq_stat_latency", "seq_del_latency", "ran_create_latency",
           "ran_stat_latency", "ran_del_latency"]
# workload -> (metric, column, unit factor) ; K/s in bonnie++ is KiB/s
TESTS = {
    "seq-write": [("throughput", "put_block", 1024), ("cpu_total_pct", "put_block_cpu", 1), ("lat_max_ns", "put_block_latency", 1)],
    "rewrite": [("throughput", "rewrite", 1024), ("cpu_total_pct", "rewrite_cpu", 1), ("lat_max_ns", "rewrite_latency", 1)],
    "seq-read": [("throughput", "get_block", 1024), ("cpu_total_pct", "get_block_cpu", 1), ("lat_max_ns", "get_block_latency", 1)],
    "char-write": [("throughput", "putc", 1024), ("cpu_total_pct", "putc_cpu", 1), ("lat_max_ns", "putc_latency", 1)],
    "char-read": [("throughput", "getc", 1024), ("cpu_total_pct", "getc_cpu", 1), ("lat_max_ns", "getc_latency", 1)],
    "random-seeks": [("iops", "seeks", 1), ("cpu_total_pct", "seeks_cpu", 1), ("lat_max_ns", "seeks_latency", 1)],
    # the file tests: each phase's rate and its own longest latency (bonnie++ prints four a line)
    "bonnie-files-sequential": [("create_per_s", "seq_create", 1), ("stat_per_s", "seq_stat", 1),
                                ("delete_per_s", "seq_del", 1), ("create_lat_max_ns", "seq_create_latency", 1),
                                ("stat_lat_max_ns", "seq_stat_latency", 1), ("delete_lat_max_ns", "seq_del_latency", 1)],
    "bonnie-files-random": [("create_per_s", "ran_create", 1), ("stat_per_s", "ran_stat", 1),
                            ("delete_per_s", "ran_del", 1), ("create_lat_max_ns", "ran_create_latency", 1),
                            ("stat_lat_max_ns", "ran_stat_latency", 1), ("delete_lat_max_ns", "ran_del_latency", 1)],
}
UNITS = {"throughput": ("bytes/s", "higher"), "iops": ("ops/s", "higher"), "cpu_total_pct": ("percent", "lower"),
         "lat_max_ns": ("ns", "lower"), "create_lat_max_ns": ("ns", "lower"), "stat_lat_max_ns": ("ns", "lower"),
         "delete_lat_max_ns": ("ns", "lower"), "create_per_s": ("ops/s", "higher"), "stat_per_s": ("ops/s", "higher"),
         "delete_per_s": ("ops/s", "higher")}
_LATENCY = re.compile(r"^(\d+(?:\.\d+)?)(us|ms|s)$", re.ASCII)


def _number(text: str, column: str, where: str, line: int):
    text = text.strip()
    if text == "" or set(text) == {"+"}:
        return None  # not run, or too fast to measure
    if column.endswith("_latency"):
        match = _LATENCY.match(text)
        if not match:
            raise UserError(f"line {line}", where=where, field=column, expected="a latency such as 87us or 20ms", found=repr(text))
        return float(match.group(1)) * {"us": 1e3, "ms": 1e6, "s": 1e9}[match.group(2)]
    try:
        return figures.number(text)
    except ValueError:
        raise UserError(f"line {line}", where=where, field=column, expected="a number or +++++", found=repr(text)) from None


# Fields before COLUMNS: (format, version, name, concurrency, seed, size, I/O chunk size) in the
# formats of bonnie++ 1.93c to 1.97 (48 fields: samples/bonnie/bonnie-1.96-stdout.txt, whose
# table names each column), and 1.98 adds seeks and seek_proc_count (50). bonnie++ 1.96 run
# without I/O tests (-s 0) wrote one empty field fewer before the file tests (47 fields, the
# number of files in the 19th: samples/bonnie/bonnie-1.96-files-only-stdout.txt).
HEAD_1_98 = 9
HEAD_1_9X = 7
FILES_ONLY_1_96 = 6
# The formats before 1.92b's (each built from its source and run here: samples/bonnie/
# bonnie-1.91c-, 1.92-, 1.92a-stdout.txt): format 1.91a (bonnie++ 1.91a to 1.91c) and 1.92 have
# neither concurrency nor seed (46 fields), 1.92a adds the seed (47); 1.92b, which 1.93 kept,
# adds the concurrency: the layout of 1.93c to 1.97. Format -> (fields before COLUMNS, where the
# file size is); any other format: (HEAD_1_9X, 5).
LAYOUTS = {"1.91a": (5, 3), "1.92": (5, 3), "1.92a": (6, 4), "1.98": (HEAD_1_98, 5)}
# bonnie++ 1.0x: name, size, then these 25 (27 fields; samples/bonnie/bonnie-1.03*-stdout.txt,
# whose tables above each line name every column): no chunk sizes, no latencies.
OLD_COLUMNS = COLUMNS[:COLUMNS.index("max_size")] + COLUMNS[COLUMNS.index("seq_create"):COLUMNS.index("putc_latency")]
# bonnie++ 1.90a to 1.91 (bon_time.cpp of their source): format "2", then version, name, size and
# I/O chunk size (5 fields), and COLUMNS without file_chunk_size: 45 fields
# (samples/bonnie/bonnie-1.90f-stdout.txt, bonnie-1.91-stdout.txt, built and run here).
HEAD_2 = 5
COLUMNS_2 = [c for c in COLUMNS if c != "file_chunk_size"]
# 1.90f and 1.90g (and, unseen, 1.90b to 1.90e) print the seek test with print_io_stat, the file's
# KiB over the test's time, where 1.90a and 1.91 print seeks per second (print_seek_stat).
SEEKS_NOT_PER_SECOND = re.compile(r"^1\.90[b-g]$")
CSV_LINE = re.compile(r"^(?:1\.9[1-8][a-z]?|2,1\.9[01][a-z]?),")  # the format field: 1.91a ... 1.98, or 2 and the version
_OLD_FIGURE = r"(?:\d+(?:\.\d+)?|\++)?"  # a rate, a CPU share, +++++ or nothing (a test not run)
OLD_CSV_LINE = re.compile(r"^[^,\s]*,\d+(?:\.\d+)?[KMGT]?(?::\d+[kKmM]?)?"  # name, size[:chunk]
                          rf"(?:,{_OLD_FIGURE}){{12}},(?:\d+(?::\d+){{0,2}}(?:/\d+)?)?"  # the files: 16[:max[:min]][/dirs]
                          rf"(?:,{_OLD_FIGURE}){{12}}\s*$")
_ANY_CSV_LINE = re.compile(f"(?:{CSV_LINE.pattern})|(?:{OLD_CSV_LINE.pattern})", re.M)
_OLD_VERSION = re.compile(r"^Version\s+(1\.0\d\w*)\s", re.M)  # the table's heading, "Version 1.03c"


# Where bonnie++ writes the machine's name (its -m, by default the host name): the CSV line's
# name field (the third; bonnie++ 1.0x's first), the first column of the table's result rows
# (under "Machine  Size" or "Name:Size etc") and the name before the file tests' "-Create--".
_TABLE_NAME = re.compile(r"^(?:Machine|Name:Size etc)\s.*\n([^\s,]+)(?=\s)|^(?!\s|Version\b)([^\s,]+)(?=\s+-Create--)", re.M)


def host_names(text: str) -> list[tuple[int, int]]:
    """(start, end) of each machine name in a bonnie++ output, whatever its spelling: the format
    defines the field as the host's name (privacy redacts or refuses it)."""
    return list(_host_names(text))


@functools.lru_cache(maxsize=2)  # an import asks it of one text five times (parse, privacy's passes)
def _host_names(text: str) -> tuple[tuple[int, int], ...]:
    spans = [match.span(1) if match.group(1) else match.span(2) for match in _TABLE_NAME.finditer(text)]
    names = set()
    for line in _ANY_CSV_LINE.finditer(text):  # the lines as "\n" ends them, each found by one search
        end = text.find("\n", line.start())
        row = text[line.start():end if end >= 0 else len(text)].rstrip("\r")
        if CSV_LINE.match(row) or OLD_CSV_LINE.match(row):
            fields = row.split(",")
            index = 0 if not CSV_LINE.match(row) else 2
            if index >= len(fields):  # "1.96," alone: no name (parse refuses the line)
                continue
            start = line.start() + sum(len(f) + 1 for f in fields[:index])
            spans.append((start, start + len(fields[index])))
            names.add(fields[index].strip())
    # the CSV's name whole (it may hold spaces: "my host") where a row of the table begins with it,
    # or with the name cut to the table's column (bonnie++ 2.00a cuts it at 19 characters: a cut
    # of 19 down to 8 is looked for, longest first; a longer one would take the padding after
    # the column too, "…0 " of a name "…0 0")
    whole = []
    for name in names - {""}:
        cuts = "|".join(re.escape(name[:n]) for n in dict.fromkeys(
            [len(name), *range(min(len(name), 19), min(len(name), 8) - 1, -1)]))
        whole += [m.span(1) for m in re.finditer(rf"^[ \t]*({cuts})(?=[ \t])", text, re.M)]
    # where the CSV's name holds a space the table's pattern took its first word alone ("Block"
    # of "Block 0"), which would then be redacted wherever it stands ("--Block--"): the whole wins
    spans = [s for s in spans if not any(w[0] == s[0] and w[1] > s[1] for w in whole)]
    return tuple(sorted(set(spans + whole)))  # a table row the pattern found and the CSV's name found again: one span


# what str.splitlines() ends a line with, and those of them that are no "\n"
_BREAK = re.compile("\r\n|[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
_OTHER_BREAK = re.compile("[\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


def csv_lines(text: str) -> list[tuple[int, str]]:
    """(number, line) of each CSV line (CSV_LINE or OLD_CSV_LINE), numbered as str.splitlines()
    parts them: found by one search over the text, not a line at a time (1.6 µs a line: 5 MB of
    blank lines took some 8 s a pass, and an import makes several; adversary of #65, round 72)."""
    flat = _BREAK.sub("\n", text) if _OTHER_BREAK.search(text) else text
    out, number, at = [], 1, 0
    for line in _ANY_CSV_LINE.finditer(flat):
        number, at = number + flat.count("\n", at, line.start()), line.start()
        end = flat.find("\n", at)
        row = flat[at:end if end >= 0 else len(flat)]
        if CSV_LINE.match(row) or OLD_CSV_LINE.match(row):
            out.append((number, row))
    return out


def looks_like(text: str) -> bool:
    return bool(_ANY_CSV_LINE.search(text))


def tool_version(text: str) -> str | None:
    """bonnie++'s own version: the CSV's second field, or for a 1.0x line (which has none) the
    heading of the table printed above it, where the output has it."""
    for _, line in csv_lines(text):
        if CSV_LINE.match(line):
            return f"bonnie++ {line.split(',')[1]}"
    version = _table_version(text)
    return f"bonnie++ {version}" if version else None


def _table_version(text: str) -> str | None:
    """The version in the heading of bonnie++ 1.0x's table ("Version 1.03c"), where the output has it."""
    table = _OLD_VERSION.search(text)
    return table.group(1) if table else None


def parse(text: str, where: str, workload: str | None = None) -> list:
    figures.refuse_other_digits(text, where, "bonnie++'s", names=host_names(text))
    out = []
    lines = csv_lines(text)
    if not lines:
        raise UserError("no bonnie++ CSV line", where=where,
                        expected="a line starting with the format version (1.91a to 1.98, or 2 for 1.90 and 1.91), or bonnie++ 1.0x's "
                                 "27 fields (name,size,putc,...): bonnie++'s last line, or bon_csv2txt's input")
    most = bounds()[1]
    if len(lines) > most:  # each line a run of every test: a cell holds at most that many repetitions
        raise UserError(f"more than {most:,} bonnie++ CSV lines (runs)", where=f"{where}:{lines[most][0]}",
                        expected=f"at most {most:,} runs an output: a cell holds at most {most:,} repetitions")
    old_version = _table_version(text)
    for number, line in lines:
        fields, seeks_note = line.split(","), ""
        if not CSV_LINE.match(line):  # bonnie++ 1.0x
            row = dict(zip(OLD_COLUMNS, fields[2:]))
            params = {"file_size": fields[1]}
            if old_version:
                params["bonnie_version"] = old_version
        elif fields[0] == "2":
            if len(fields) != HEAD_2 + len(COLUMNS_2):
                raise UserError(f"{len(fields)} fields", where=f"{where}:{number}",
                                expected=f"exactly {HEAD_2 + len(COLUMNS_2)} comma-separated fields for format 2")
            row = dict(zip(COLUMNS_2, fields[HEAD_2:]))
            params = {"file_size": fields[3], "bonnie_version": fields[1]}
            if SEEKS_NOT_PER_SECOND.match(fields[1]) and row["seeks"].strip():
                row["seeks"] = ""  # not a rate of seeks; its CPU share and latency are the seek test's
                seeks_note = f"bonnie++ {fields[1]} printed the file's KiB/s over the seek test, not seeks/s"
        else:
            skip, size_at = LAYOUTS.get(fields[0], (HEAD_1_9X, 5))
            if fields[0] == "1.96" and len(fields) == FILES_ONLY_1_96 + len(COLUMNS) and not any(fields[5:18]):
                skip = FILES_ONLY_1_96
            if len(fields) != skip + len(COLUMNS):
                raise UserError(f"{len(fields)} fields", where=f"{where}:{number}",
                                expected=f"exactly {skip + len(COLUMNS)} comma-separated fields for format {fields[0]}")
            row = dict(zip(COLUMNS, fields[skip:]))
            params = {"file_size": fields[size_at], "bonnie_version": fields[1]}
            if skip == HEAD_1_98:
                params.update(seeks=fields[7], seek_processes=fields[8])
        if row["num_files"].strip():
            params["files_thousands"] = row["num_files"].strip()
        for name, tests in TESTS.items():
            values, unmeasured = {}, []
            for metric, column, factor in tests:
                if column not in row:
                    continue  # a latency, which bonnie++ 1.0x did not measure
                value = _number(row[column], column, where, number)
                if value is None:
                    if row[column].strip():
                        unmeasured.append(column)
                    continue
                values[metric] = value * factor
            if not values and not unmeasured:
                continue  # the test was not run (bonnie++ -n 0, or per-char tests skipped)
            reason = f"bonnie++ printed +++++ for {', '.join(unmeasured)}: too fast to measure" if unmeasured else ""
            cell_params = {**params, "too_fast_to_measure": ",".join(unmeasured)} if unmeasured and values else params
            if seeks_note and name == "random-seeks":
                cell_params = {**cell_params, "seeks_left_out": seeks_note}
            out.append(Measurement(name if not workload else f"{workload}-{name}", cell_params,
                                   values, {m: UNITS[m] for m in values}, not_measured=reason))
    return out
