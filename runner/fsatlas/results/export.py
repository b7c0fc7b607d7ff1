"""Every sample of every result as one tidy table: a row per (result, cell, metric, repetition),
with the system it ran on, the job's options, and what the device and the host did meanwhile.
By default only the samples (cells with status ok); with all_cells (`fsatlas export --all`) also
one row per failed or skipped cell, its status and reason, no metric and no value.

COLUMNS is the table's one definition (names, Arrow types, meaning): `fsatlas export` writes it
to Parquet, CSV or JSON Lines in batches (memory bounded by a batch, whatever the number of
results), frame() returns it as a pandas DataFrame, and the site lists it beside its download.
JSON Lines hold every float as its shortest exact text (orjson), so a value read back is the
same float.
"""
import datetime as dt
import hashlib
import json
import os
from functools import lru_cache

from .. import outfile
from ..errors import UserError
from . import machines, resultfile

JOB_OPTIONS = ("rw", "bs", "iodepth", "numjobs", "direct", "ioengine", "size")  # columns from a cell's parameters
BATCH_ROWS = 50_000  # rows held before a batch is written: 411,696 rows peaked at 0.22-0.26 GB (0.54-0.68 GB at 200,000)
# and of text: a row repeats its cell's options, 14 KB where a job sets 70 of 200 characters
# (round 59: 47,600 such rows peaked at 3.6 GB in CSV; 80,000 overflowed Arrow's 2 GiB string
# column). 92,656 such rows peak at 0.37 GB in CSV, 0.29 GB in Parquet (4.29 and 2.14 GB before)
BATCH_BYTES = 16 * 2**20
JSON_SLICE_ROWS = 5_000  # rows of a batch turned into Python dicts at once for JSON Lines

# name -> (Arrow type name, what it holds)
COLUMNS = {
    "result": ("string", "the result file's id"),
    "created": ("timestamp", "when the result file was made (UTC): a run's end, an import's time"),
    "measured": ("string", "when the tool measured, as its own output recorded it (ISO 8601: with Z in UTC, without "
                           "it the machine's local time), or empty where it recorded none (see the schema's `measured`)"),
    "profile": ("string", "the matrix profile it ran (quick, standard, full) or the importer's name"),
    "machine": ("string", "the machine label"),
    "machine_name": ("string", "the machine's name for readers: the one the result records (--machine-name), else "
                               "the one the site proposes from its hardware (results/machines.py name())"),
    "system": ("string", "where the system facts come from: run, tool (the imported output's own), file (--system), "
                         "this-machine, or \"system not recorded\" (and the facts below empty)"),
    "cpu_model": ("string", "the CPU model"),
    "cpu_count": ("int32", "logical CPUs"),
    "memory_bytes": ("int64", "memory"),
    "kernel": ("string", "the kernel release"),
    "os": ("string", "the distribution"),
    "virtualization": ("string", "hypervisor or container, or none"),
    "target": ("string", "loop-image, block-device or directory"),
    "storage": ("string", "what the target sat on: the host filesystem under a loop image, the device model"),
    "filesystem": ("string", "the filesystem measured"),
    "variant": ("string", "defaults, or the option variant's name"),
    "mkfs_options": ("string", "mkfs options, space-separated"),
    "mount_options": ("string", "mount options as requested, comma-separated"),
    "effective_mount_options": ("string", "the mount options in force, as recorded: the runner's from /proc/mounts, "
                                          "a PTS system's from its notes (attr2,inode64,...), else those requested"),
    "workload": ("string", "the workload"),
    "dimensions": ("string", "the workload's swept parameters (file_size=1000), or empty"),
    "rw": ("string", "the job's rw option (read, randwrite, ...), as the result names it, or empty"),
    "bs": ("string", "its block size (4k, 1M), or empty"),
    "iodepth": ("string", "its I/O depth, or empty"),
    "numjobs": ("string", "its number of jobs (fio's clones), or empty"),
    "direct": ("string", "its direct option (1: O_DIRECT), or empty"),
    "ioengine": ("string", "its I/O engine, or empty"),
    "size": ("string", "its file size option, or empty"),
    "options": ("string", "the cell's other parameters as a JSON object, sorted (an imported fio job: every option "
                          "fio recorded, fsync, runtime, rwmixread...), or empty"),
    "cell": ("string", "the cell key"),
    "status": ("string", "ok (a sample); failed or skipped (rows of `export --all` only: the cell has no figure)"),
    "reason": ("string", "why a failed or skipped cell has no figure, else empty"),
    "metric": ("string", "the metric's name"),
    "unit": ("string", "its base unit (bytes/s, ops/s, s, ns, bytes, percent)"),
    "better": ("string", "higher or lower"),
    "repetition": ("int32", "1 for the first repetition"),
    "started_s": ("float64", "when the repetition started, seconds after created (the order of interleaved rounds)"),
    "value": ("float64", "the sample"),
    "flags": ("string", "the cell's flags, comma-separated (stored: `fsatlas migrate` brings them to today's rule)"),
    "device_reads": ("int64", "read requests the loop device served during the repetition"),
    "device_writes": ("int64", "write requests"),
    "device_flushes": ("int64", "cache flush requests"),
    "steal_pct": ("float64", "share of the CPUs' time the hypervisor stole during the repetition"),
    "iowait_pct": ("float64", "share idle waiting for I/O"),
    "others_cpu_s": ("float64", "CPU seconds other processes used"),
    "load1": ("float64", "the one-minute load average at the repetition's end"),
}
FORMATS = ("parquet", "csv", "jsonl")


# A text cell a spreadsheet would run as a formula starts with one of these (OWASP's "CSV
# Injection": =, +, -, @, tab, carriage return); it is written with an apostrophe before it, as
# the explorer's CSV download does (static/js/explorer.js, kept the same by test_export.py).
# Only text columns: a number column's -1.5 is a number to every spreadsheet, written as it is.
FORMULA_START = "=+-@\t\r"
# A spreadsheet also runs a formula that follows white space, control or invisible characters
# (' =HYPERLINK(...)', '\n=1+1', a soft hyphen or word joiner first), and some fold a fullwidth
# ＝ to =. The rule: a text cell is guarded when it starts with tab or CR, or when, with every
# character of categories Cc, Cf, Zs, Zl and Zp before it left out, its first character's NFKC
# form starts with = + - or @ (＝ ＋ － ＠, the small ﹦ ﹢ ﹣ ﹫, superscript ⁺ ⁼...).
# formula_chars() computes both sets of characters, as ranges of code points, from Python's
# Unicode tables; formula_pattern writes them for both engines.
LEAD_CATEGORIES = frozenset({"Cc", "Cf", "Zs", "Zl", "Zp"})


def _ranges(points) -> tuple:
    out = []
    for c in points:
        if out and out[-1][1] == c - 1:
            out[-1][1] = c
        else:
            out.append([c, c])
    return tuple(map(tuple, out))


@lru_cache(maxsize=1)
def formula_chars() -> tuple[tuple, tuple]:
    """(lead, signs): the ranges of code points the rule above leaves out before a cell's first
    character, and those whose NFKC form starts a formula."""
    import unicodedata
    points = [c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
    lead = _ranges(c for c in points if unicodedata.category(chr(c)) in LEAD_CATEGORIES)
    signs = _ranges(c for c in points if unicodedata.normalize("NFKC", chr(c))[:1] in ("=", "+", "-", "@"))
    return lead, signs


def formula_pattern(flavour: str = "re2") -> str:
    """The one rule as a regular expression: re2 (pyarrow's, here) or js (the explorer's, with
    the u flag; test_export.py checks it holds this text and decides as this does)."""
    code = (lambda c: f"\\x{{{c:x}}}") if flavour == "re2" else (lambda c: f"\\u{{{c:x}}}" if c > 0xFFFF else f"\\u{c:04x}")
    lead, signs = ("".join(code(lo) if lo == hi else f"{code(lo)}-{code(hi)}" for lo, hi in ranges)
                   for ranges in formula_chars())
    return "^(?:[\\t\\r]|[" + lead + "]*[" + signs + "])"


def safe_for_spreadsheets(table):
    """The Arrow table with an apostrophe before every text cell that formula_pattern() matches:
    one starting with one of FORMULA_START, or whose first character after white space, control
    and invisible characters is a formula's, NFKC-folded (vectorized, column by column)."""
    import pyarrow as pa
    import pyarrow.compute as pc
    starts = formula_pattern("re2")
    for i, field in enumerate(table.schema):
        if field.type == pa.string():
            column = table.column(i)
            quoted = pc.binary_join_element_wise(pa.scalar("'"), column, "")
            table = table.set_column(i, field, pc.if_else(pc.match_substring_regex(column, starts), quoted, column))
    return table


def arrow_schema():
    import pyarrow as pa
    types = {"string": pa.string(), "int32": pa.int32(), "int64": pa.int64(), "float64": pa.float64(),
             "timestamp": pa.timestamp("ms", tz="UTC")}  # Parquet has no seconds unit
    return pa.schema([(name, types[kind]) for name, (kind, _) in COLUMNS.items()])


def parse_where(terms: list[str]) -> list[tuple[str, bool, set]]:
    """["filesystem=ext4,xfs", "metric!=cpu_usr_pct"] -> [(column, equal?, values)]; a bad term is
    a UserError naming it and the columns there are."""
    out = []
    for term in terms or ():
        column, op, values = term.partition("!=") if "!=" in term else term.partition("=")
        if not op or column not in COLUMNS:
            raise UserError(f"expected COLUMN=VALUE or COLUMN!=VALUE with one of the columns {', '.join(COLUMNS)}",
                            where=f"--where {term!r}")
        out.append((column, op == "=", set(values.split(","))))
    return out


def _filter(table, where):
    """The rows of an Arrow table that every term keeps (values compared as text)."""
    import pyarrow as pa
    import pyarrow.compute as pc
    for column, equal, values in where:
        text = table[column] if table.schema.field(column).type == "string" else pc.cast(table[column], "string")
        keep = pc.fill_null(pc.is_in(text, value_set=pa.array(sorted(values))), False)
        table = table.filter(keep if equal else pc.invert(keep))
    return table


def _recorded(system: dict) -> str:
    recorded = system.get("recorded", "run")
    return resultfile.NOT_RECORDED if recorded == "none" else recorded


def _other_options(parameters: dict) -> str:
    other = {k: v for k, v in sorted(parameters.items()) if k not in JOB_OPTIONS}
    return json.dumps(other, ensure_ascii=False, separators=(",", ":")) if other else ""


def _measured(cell: dict, n: int, result_time: str) -> list[str]:
    """Each of a cell's n repetitions' measured time: an imported one's own output's (imported_runs,
    one a raw file, in the order of the samples, where each file holds one repetition), else the
    result's (the earliest its outputs recorded)."""
    runs = cell.get("imported_runs") or []
    if len(runs) == n:
        return [(run.get("measured") or {}).get("time", "") for run in runs]
    return [result_time] * n


def add_result(columns: dict, result: dict, all_cells: bool = False):
    """Appends one validated result's samples to columns (name -> list), and with all_cells a row
    for each cell without figures (failed, skipped), a slice of a metric at a time: yields (rows,
    about their text's bytes) of each slice, so that a batch is written between two slices of one
    large result (round 58: one result of 350,000 samples was held whole, 1.7 GB)."""
    system, target = result["system"], result["target"]
    common = {"result": result["id"],
              "created": dt.datetime.fromisoformat(result["created"].replace("Z", "+00:00")),
              "measured": (result.get("measured") or {}).get("time", ""),
              "profile": result.get("profile", ""), "machine": system["machine"], "machine_name": machines.name(result),
              "system": _recorded(system),
              **{fact: system.get(fact) for fact in resultfile.SYSTEM_FACTS}, "target": target["kind"],
              "storage": target.get("backing_filesystem") or target.get("device_model") or target.get("shared_filesystem", "")}
    for cell in result["cells"]:
        if cell["status"] != "ok" and not all_cells:
            continue
        parts = cell["key"].split("|")
        per_cell = {**common, "filesystem": cell["filesystem"], "variant": cell.get("variant", "defaults"),
                    "mkfs_options": " ".join(cell["mkfs_options"]), "mount_options": ",".join(cell["mount_options"]),
                    "workload": cell["workload"], "dimensions": parts[4] if len(parts) > 4 else "",
                    "effective_mount_options": cell.get("effective_mount_options", ""),
                    **{o: str(cell["parameters"][o]) if o in cell["parameters"] else "" for o in JOB_OPTIONS},
                    "options": _other_options(cell["parameters"]),
                    "cell": cell["key"], "status": cell["status"], "reason": cell.get("reason", ""),
                    "flags": ",".join(cell["flags"])}
        if cell["status"] != "ok":  # one row saying why the cell has no figure
            for column in columns:
                columns[column].append(per_cell.get(column))
            yield 1, _text_bytes(per_cell)
            continue
        started, io, host = cell.get("started", []), cell.get("device_io", []), cell.get("host", [])
        for name, metric in cell["metrics"].items():
            samples = metric["samples"]
            constant = {**per_cell, "metric": name, "unit": metric["unit"], "better": metric["better"]}
            measured = _measured(cell, len(samples), constant["measured"])
            row_bytes = _text_bytes(constant)
            step = max(1, BATCH_BYTES // row_bytes)  # rows of wide options (20 KB a row) a slice at a time
            for first in range(0, len(samples), step):
                span = range(first, min(first + step, len(samples)))
                for column, value in constant.items():
                    columns[column].extend([value] * len(span) if column != "measured" else measured[span.start:span.stop])
                columns["repetition"].extend(i + 1 for i in span)
                columns["value"].extend(float(samples[i]) for i in span)
                columns["started_s"].extend(started[i] if i < len(started) else None for i in span)
                for column, field in (("device_reads", "reads"), ("device_writes", "writes"), ("device_flushes", "flushes")):
                    columns[column].extend(io[i][field] if i < len(io) else None for i in span)
                for column in ("steal_pct", "iowait_pct", "others_cpu_s", "load1"):
                    columns[column].extend(host[i][column] if i < len(host) else None for i in span)
                yield len(span), len(span) * row_bytes


def _text_bytes(row: dict) -> int:
    """About what one row's text takes in Arrow and in a CSV line: its strings' lengths, and a
    little for each number."""
    return sum(len(v) if isinstance(v, str) else 16 for v in row.values()) + 16 * 12


def result_files(paths: list[str], skip: str | None = None) -> list[str]:
    """The result files of paths (files, or folders listed by result_listing); skip: the
    export's own output, never read as input though it sits in a folder read
    (`fsatlas export FOLDER --out FOLDER/all.csv`, run once or again)."""
    files = []
    skipped = os.path.realpath(skip) if skip and skip != outfile.STDOUT else None
    for path in paths:
        if os.path.isdir(path):
            found, problems = resultfile.result_listing(path)
            found = [f for f in found if os.path.realpath(f) != skipped]
            errors = [p for p in problems if p.severity == "error" and os.path.realpath(p.file) != skipped]
            if errors:
                raise UserError(errors[0].message, where=errors[0].file)
            files += found
        else:
            files.append(path)
    return _once(files)


def _once(files: list[str]) -> list[str]:
    """files with each file once, however it was named (#65 round 60: a file named twice, or as
    itself and in its folder, or through a linked folder, wrote its every sample twice)."""
    kept, seen = [], set()
    for path in files:
        real = os.path.realpath(path)
        if real not in seen:
            seen.add(real)
            kept.append(path)
    return kept


class _Ids:
    """Each result id read once: a file of an id read before with the same bytes is left out (a
    copy under another name: round 61), one with other bytes refused, as validate refuses one id
    in two files."""

    def __init__(self):
        self.seen = {}  # id -> (its file, the digest of its bytes)

    def new(self, path: str, rid: str) -> bool:
        """Whether path is the first file of id rid read (a UserError where one had other bytes)."""
        with open(path, "rb") as f:
            digest = hashlib.file_digest(f, "sha256").digest()
        first = self.seen.setdefault(rid, (path, digest))
        if first[1] != digest:
            raise UserError(f"another file of this result's id ({first[0]}) with other content", where=path,
                            expected="each result once: one id is one result")
        return first[0] == path


def batches(paths: list[str], where=(), all_cells: bool = False):
    """Arrow tables of at most about BATCH_ROWS rows or BATCH_BYTES of text (before filtering),
    over every result file in paths."""
    import pyarrow as pa
    schema = arrow_schema()
    columns, held, text = {name: [] for name in COLUMNS}, 0, 0
    from . import validation  # checked as compare reads a result: what validate refuses is not exported
    ids = _Ids()
    for path in result_files(paths):
        result = validation.load_checked(path)
        if not ids.new(path, result["id"]):
            continue
        for rows, size in add_result(columns, result, all_cells):
            held, text = held + rows, text + size
            if held >= BATCH_ROWS or text >= BATCH_BYTES:
                table = pa.table(columns, schema=schema)  # Arrow's copy: the lists are emptied in place,
                for values in columns.values():  # add_result goes on appending to them
                    values.clear()
                held = text = 0
                yield _filter(table, where)
    if held:
        yield _filter(pa.table(columns, schema=schema), where)


def frame(paths, where: list[str] | None = None, all_cells: bool = False):
    """Every sample of the result files (or folders) in paths as a pandas DataFrame, one row per
    sample, the columns of COLUMNS; where: terms as `fsatlas export --where` takes them;
    all_cells: also a row per failed or skipped cell."""
    import pyarrow as pa
    paths = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    tables = list(batches([os.fspath(p) for p in paths], parse_where(where or []), all_cells))
    table = pa.concat_tables(tables) if tables else arrow_schema().empty_table()
    return table.to_pandas()


def _json_value(value):
    if isinstance(value, dt.datetime):  # created: UTC to the second, as ISO 8601
        return f"{value.astimezone(dt.timezone.utc):%Y-%m-%dT%H:%M:%S}Z"
    raise TypeError(type(value).__name__)


def json_line(row: dict) -> bytes:
    """One row as a line of JSON: each float as the shortest text that reads back as the same
    float (orjson's), where pandas' to_json rounded to 10 significant digits."""
    import orjson
    return orjson.dumps(row, default=_json_value, option=orjson.OPT_PASSTHROUGH_DATETIME) + b"\n"


def write(paths: list[str], out: str, fmt: str, where=(), all_cells: bool = False) -> int:
    """Writes the table to out (outfile.replacing: a temporary file, then renamed; `-` is standard
    output) in fmt; returns the rows written."""
    import pyarrow.csv as pcsv
    import pyarrow.parquet as pq
    rows, schema = 0, arrow_schema()
    # the inputs are listed before the output's temporary file exists in a folder they may share
    paths = result_files(paths, skip=out)
    with outfile.replacing(out, binary=True) as f:
        if fmt == "parquet":
            with pq.ParquetWriter(f, schema, compression="zstd") as writer:
                for table in batches(paths, where, all_cells):
                    writer.write_table(table)
                    rows += table.num_rows
                if not rows:
                    writer.write_table(schema.empty_table())
        elif fmt == "csv":
            with pcsv.CSVWriter(f, schema) as writer:
                for table in batches(paths, where, all_cells):
                    writer.write_table(safe_for_spreadsheets(table))
                    rows += table.num_rows
        else:
            for table in batches(paths, where, all_cells):
                # a slice at a time: a batch's rows as Python dicts at once were several times its
                # Arrow size (round 55)
                for part in table.to_batches(max_chunksize=JSON_SLICE_ROWS):
                    f.writelines(json_line(row) for row in part.to_pylist())
                rows += table.num_rows
    return rows
