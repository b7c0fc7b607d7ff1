"""fio's JSON and JSON+ output (--output-format=json or json+), every version from 2.0 on, from
one or many jobs, with or without group_reporting, also from client/server runs; and its terse
output (--minimal, versions 2 to 5), which results/fio_terse reads into the report fio 2.x's
JSON would hold.

One cell per job: fio lists a job once per clone (numjobs) and each under its name and group,
so entries of the same name and group are summed, as fio's group report sums them (under
group_reporting fio has done so already); two jobs of other names are never merged. In a
client/server report each job is summed over the clients (see _entries). Each side a job
did I/O on (read, write, trim) is kept: a job with one side reports plain metrics, a mixed one
read_, write_ and trim_ throughput and IOPS. Under unified_rw_reporting fio reports reads and
writes together as one "mixed" side (alone, or beside read and write with =both, where the
sides themselves are kept and their sum left out).

What fio wrote differs by version, and each figure is read from the key that version used:
bandwidth from bw_bytes (3.2 on), else bw in KiB/s; latencies from lat_ns/clat_ns in
nanoseconds (3.0 on), else lat/clat in microseconds (2.x). A latency fio did not measure
(gtod_reduce: N is 0, or all zeros) is left out, as bonnie++'s +++++ is. A job that ended in an
error is a failed cell naming fio's error number, or a refusal when it is the only one.
"""
import datetime as dt
import functools
import json
import math
import re
from fractions import Fraction

from .. import figures, fio_json, fio_terse, metrics
from . import fio_options
from ..resultfile import MAX_NUMBER
from ...errors import UserError
from .measurement import Measurement, check_time

READ, WRITE, TRIM = ("read", "randread"), ("write", "randwrite"), ("trim", "randtrim")
SIDES = ("read", "write", "trim", "mixed")
UNITS = metrics.FIO  # the runner's fio metrics: the importer recomputes them
NOT_STATED = "not stated"
TERMINATED = re.compile(r"^fio: terminating on signal (\d+)", re.M)
NORMAL = re.compile(r"\(groupid=\d+, jobs=\d+\): err=|^Run status group \d+", re.M)  # fio's own report for reading


def looks_like(text: str) -> bool:
    return '"jobs"' in text or '"client_stats"' in text or fio_terse.is_terse(text)


_JSON_START = re.compile(r"^[ \t]*\{", re.M)  # a JSON report's first line, as fio_json finds it: no terse line's


def _refuse_json_beside_terse(text: str, where: str) -> None:
    """A UserError naming the line where a JSON report begins in a file of terse lines, before them
    or after: one is no more the run than the other (fio --output-format=terse,json writes both of
    one run; a report and another run's lines concatenated are two), and the JSON one was passed
    over without a word (adversary of #65, round 78). Its first line, not a terse line's: json+'s
    bins, cut from the text before it is read (importers.text_of), lie after it."""
    start = _JSON_START.search(text)
    if start and any(text.find(key, start.start()) >= 0 for key in ('"jobs"', '"client_stats"')):
        raise UserError("a JSON report beside terse lines in one file", where=where,
                        field=f"line {text.count(chr(10), 0, start.start()) + 1}",
                        expected="one fio output a file: its JSON report or its terse lines (--output-format=terse,json "
                                 "writes both: import one)")


def tool_version(text: str) -> str | None:
    match = re.search(r'"fio version"\s*:\s*"([^"]{1,50})"', text)
    return match.group(1) if match else fio_terse.version(text)


def note(text: str) -> str:
    """What the importer tells about the report beyond its figures."""
    match = TERMINATED.search(text)
    return f"fio was stopped by signal {match.group(1)} before the end of the run: the figures cover " \
           f"the part it ran" if match else ""


# Options that say where a job ran or what it logged, not what it measured: neither compared
# between repetitions nor kept in a cell (a path may hold a user's name).
PLACES = frozenset({"name", "description", "directory", "filename", "filename_format", "opendir", "exec_prerun",
                    "exec_postrun", "write_bw_log", "write_lat_log", "write_iops_log", "write_hist_log",
                    "per_job_logs", "log_avg_msec", "log_hist_msec", "log_offset", "log_compression"})
# Options holding a size (fio's "4k", "4K", "4kb" and "4096" are one), written in one spelling
SIZES = frozenset({"bs", "blocksize", "ba", "blockalign", "bsrange", "blocksize_range", "size", "filesize",
                   "io_size", "io_limit", "offset", "offset_increment", "buffer_size", "fill_fs_size"})
# the options whose values fio reads as figures (a number, size, time or the rw mode's "randrw:8"):
# a value of other digits there is none fio ran; every other option (cgroup, aux_path, an
# engine's path) is text fio takes as the user wrote it, a name or a path ("fio/2024_01_15":
# adversary of #65, round 72)
# Beside those, the options fio reads a number from that the kinds above do not name: those whose
# default (fio 3.33's --cmdhelp) is a figure (number_ios, zonesize, percentile_list, lockmem), and
# those whose value holds figures among words (random_distribution=zipf:1.2, cpus_allowed=0-3,
# numa_cpu_nodes, steadystate=iops_slope:0.01%, verify_backlog, file_service_type=random:4,
# numa_mem_policy=bind:0, unit_base, trim_backlog, cmdprio_percentage): "１000" or "1_024" there is
# no value fio wrote (adversaries of #65, rounds 74 and 77)
_FIGURE_OPTIONS = (frozenset(fio_options.KINDS) | SIZES | fio_options.BY_DIRECTION | {"rw", "readwrite", "bssplit"}
                   | {name for name, default in fio_options.FIO_DEFAULTS.items() if re.fullmatch(r"[0-9][0-9.:,%x-]*", default)}
                   | {"random_distribution", "cpus_allowed", "numa_cpu_nodes", "steadystate", "verify_backlog",
                      "file_service_type", "numa_mem_policy", "unit_base", "trim_backlog", "cmdprio_percentage"})


def _read_as_figures(name: str) -> bool:
    return fio_options.ALIASES.get(name, name) in _FIGURE_OPTIONS or name in _FIGURE_OPTIONS


MAX_OPTIONS = 80  # a job's options kept (fio's long jobs set some 30)
_SIZE = re.compile(r"(\d+)\s*(?:([kmgtp])(i)?b?|b)?", re.I | re.ASCII)
_SUFFIX = ((1024 ** 4, "T"), (1024 ** 3, "G"), (1024 ** 2, "M"), (1024, "k"))


def size_bytes(text: str, kb_base: int = 1024) -> int | None:
    """Bytes of one of fio's sizes ("4k", "4K", "4KiB", "4096"), or None where it is no size.
    As fio 3.33 reads them: under its default kb_base=1024 ("compatibility mode", HOWTO) k, K
    and kB are 1024 and KiB 1000, the prefixes opposite to the standards' (bs=4KiB ran blocks
    of 4,000 bytes: io_bytes / total_ios of its report); under kb_base=1000, k and kB are 1000
    and KiB 1024."""
    match = _SIZE.fullmatch(text.strip())
    if not match:
        return None
    prefix, binary = (match.group(2) or "").lower(), match.group(3)
    base = (1000 if binary else 1024) if kb_base != 1000 else (1024 if binary else 1000)
    return int(match.group(1)) * base ** ("kmgtp".index(prefix) + 1 if prefix else 0)


@functools.lru_cache(maxsize=1024)  # validate spells each cell's sizes for each of its repetitions
def canonical_size(text: str, kb_base: int = 1024) -> str:
    """One spelling of a size option: each size in it (bs=4k,64k; bsrange=4k-16k) in the
    largest of fio's binary units that holds it whole ("4096" and "4K" -> "4k", "16m" -> "16M"),
    else in bytes; text that holds no size (a percentage) as it is."""
    def one(part: str) -> str:
        n = size_bytes(part, kb_base)
        if n is None:
            return part
        return next((f"{n // unit}{suffix}" for unit, suffix in _SUFFIX if n and n % unit == 0), str(n))
    return ",".join("-".join(one(p) for p in piece.split("-")) for piece in text.split(","))


def job_options(described: dict, report: dict, where: str, pointer: str) -> dict:
    """Every option fio recorded for a job (its global options, then its own), but those in
    PLACES, each in the one spelling of fio_options.normal (sizes as canonical_size): an option
    at fio's default is left out, as if unstated, but fio_options.FILLED are filled in where a
    JSON report leaves them out. An option that holds a list, an object or a line break is no
    option fio writes: refused, located."""
    stated = _stated(report.get("global options"), described.get("job options"))
    known = _CHECKED.get(stated) if stated is not None else None
    if known is None:
        known = _checked_options(described, report, where, pointer)
        if stated is not None:
            if len(_CHECKED) >= 256:
                _CHECKED.clear()
            _CHECKED[stated] = known
    return dict(known)


# The options of jobs checked and normalised last, by what fio recorded (_stated): a bundle's
# reports repeat one job's options, and checking them anew was a tenth of each report's reading
# (50,000 small reports: validate 18 s, the target 10).
_CHECKED: dict = {}
_OPTION_NAME = re.compile(r"[a-z][a-z0-9_]{0,49}")
_OPTION_VALUE = re.compile(r"[^\r\n]{0,200}")


def _stated(*groups) -> tuple | None:
    """What fio recorded of a job's options, as a key: each group's (name, type, spelling) in
    order, which is all job_options reads of a value (True, 1 and 1.0 are told apart by type;
    0.0 and -0.0, equal as values, by spelling: adversary round 80); None where a group is no
    object of plain values (job_options refuses it, located, every time)."""
    key = []
    for options in groups:
        if options is None:
            key.append(None)
            continue
        if type(options) is not dict or not all(type(v) in (str, int, float, bool) or v is None for v in options.values()):
            return None
        key.append(tuple((name, type(v), str(v)) for name, v in options.items()))
    return tuple(key)


def _checked_options(described: dict, report: dict, where: str, pointer: str) -> tuple:
    out = {}
    for options, at in ((report.get("global options"), "/global options"), (described.get("job options"), pointer + "/job options")):
        if options is None:
            continue
        if not isinstance(options, dict):
            raise UserError(f"options of type {type(options).__name__}", where=where, field=at,
                            expected="an object of option names and values, as fio writes it")
        for name, value in options.items():
            if value is None or name in PLACES:
                continue
            if not _OPTION_NAME.fullmatch(str(name)):
                raise UserError(f"an option named {str(name)[:60]!r}", where=where, field=at,
                                expected="fio's option names (lower-case letters, digits and _)")
            if isinstance(value, (list, dict)) or not _OPTION_VALUE.fullmatch(str(value)):
                raise UserError(f"{type(value).__name__ if isinstance(value, (list, dict)) else 'text of several lines or over 200 characters'}",
                                where=where, field=f"{at}/{name}", expected="one value of at most 200 characters, as fio writes an option")
            if _read_as_figures(name) and figures.other_figure(str(value)):  # "１6", "1_6": fio's strtol reads neither (round 62)
                raise UserError(f"a figure of {figures.other_figure(str(value))!r}", where=where, field=f"{at}/{name}",
                                expected="fio's option values, in ASCII digits")
            out[name] = str(value).lower() if isinstance(value, bool) else str(value)
    out = _normalized(tuple(out.items()), isinstance(described.get("job options"), dict))
    if len(out) > MAX_OPTIONS:
        raise UserError(f"{len(out)} job options", where=where, field=pointer + "/job options",
                        expected=f"at most {MAX_OPTIONS}")
    return out


def _normalized(stated: tuple, json_report: bool) -> tuple:
    """The options of a job as job_options keeps them, from (name, value) as fio recorded them
    (checked): each in its one spelling, those at fio's default left out, fio_options.FILLED
    filled in for a JSON report."""
    out = dict(stated)
    kb_base = 1000 if out.get("kb_base") == "1000" else 1024
    normal = {}

    def number(text: str) -> str:  # an integer option's size postfix, as fio reads it (iodepth=1k is 1024)
        n = size_bytes(text, kb_base)
        return str(n) if n is not None else text
    for name, value in out.items():  # in fio's order: a later spelling of one option (an alias) wins
        size = fio_options.ALIASES.get(name, name) in SIZES
        name, value = fio_options.normal(name, value, (lambda v: canonical_size(v, kb_base)) if size else number)
        normal.pop(name, None)
        normal[name] = value
    # a job that only reads (writes, trims) uses the one direction's value of a per-direction
    # option: bs=4k,8k on rw=randread is 4k reads, as bs=4k is (fio's default rw is read)
    mode = normal.get("rw", "read").split(":")[0]
    side = 0 if mode in READ else 1 if mode in WRITE else 2 if mode in TRIM else None
    for name in (fio_options.BY_DIRECTION & normal.keys()) if side is not None else ():
        parts = normal[name].split(",")
        if len(parts) == 3:
            normal[name] = parts[side]
    for name, other in fio_options.DEFAULTS_TO.items():  # at the other option's value: as if left out
        if name in normal and normal[name] == normal.get(other, fio_options.normal(other, fio_options.FIO_DEFAULTS.get(
                other, ""), lambda v: canonical_size(v, kb_base))[1]):
            del normal[name]
    out = {name: v for name, v in normal.items()
           if not fio_options.at_default(name, v, (lambda v: canonical_size(v, kb_base)) if name in SIZES else number)}
    if json_report:  # a JSON report: fio ran what it left out at its default
        out = {**{name: fio_options.FIO_DEFAULTS[name] for name in fio_options.FILLED}, **out}
        for name, default in (("bs", canonical_size(fio_options.FIO_DEFAULTS["bs"], kb_base)), ("rw", "read")):
            out.setdefault(name, default)
    return tuple(out.items())


@functools.lru_cache(maxsize=256)  # a bundle's reports repeat their jobs' names
def _from_name(name: str) -> tuple[str | None, str | None]:
    """rw and block size guessed from a job's name, where its report names no options:
    "random-read", "seq_write_4k", "randrw-64k"."""
    lowered = name.lower().replace("_", "-")
    rw = None
    for pattern, value in ((r"rand(?:om)?-?(?:rw|read-?write|mixed)", "randrw"), (r"rand(?:om)?-?read", "randread"),
                           (r"rand(?:om)?-?write", "randwrite"), (r"\brw\b|read-?write|mixed", "rw"),
                           (r"read", "read"), (r"write", "write"), (r"trim", "trim")):
        if re.search(pattern, lowered):
            rw = value
            break
    size = re.search(r"(?<![a-z0-9])(\d+[kmg])(?:i?b)?(?![a-z0-9])", lowered, re.ASCII)
    return rw, size.group(1) if size else None


def _entries(report: dict, where: str) -> list:
    """(job whose figures count, job whose name and options describe it, the first's JSON Pointer).
    A client/server report
    lists every client's jobs and an 'All clients' entry. With one group that entry is fio's own
    sum over the clients (latency percentiles included) and counts alone; with several, fio 3.x
    writes one entry that adds every group's figures together (a write group's bandwidth shows
    up beside a read group's), so the clients' own entries are summed per group instead. A report
    cut down to its 'All clients' entry (as people quote one) counts that entry."""
    clients = report.get("client_stats")
    if isinstance(clients, list) and clients:
        merged = [j for j in clients if isinstance(j, dict) and j.get("jobname") == "All clients"]
        members = [j for j in clients if isinstance(j, dict) and j.get("jobname") != "All clients"]
        at = {id(j): f"/client_stats/{i}" for i, j in enumerate(clients)}
        if len(merged) == 1 and len({j.get("groupid") for j in members}) <= 1:
            return [(merged[0], members[0] if members else merged[0], at[id(merged[0])])]
        return [(j, j, at[id(j)]) for j in members]
    if not isinstance(report.get("jobs"), list) or not report["jobs"]:
        raise UserError("no jobs in the fio report", where=where, field="/jobs", expected="a non-empty list")
    return [(j, j, f"/jobs/{i}") for i, j in enumerate(report["jobs"])]


def _bandwidth(side: dict) -> float:
    if "bw_bytes" in side:
        return float(side["bw_bytes"])
    return float(side["bw"]) * 1024  # KiB/s before fio 3.2


def _latency(side: dict, name: str) -> tuple[dict | None, float]:
    """fio's statistics of one latency ("lat" or "clat") and the factor to nanoseconds."""
    if isinstance(side.get(f"{name}_ns"), dict):
        return side[f"{name}_ns"], 1.0
    if isinstance(side.get(name), dict):
        return side[name], 1000.0  # microseconds in fio 2.x
    return None, 1.0


def _measured(stats: dict | None) -> bool:
    """Whether fio measured this latency: not with gtod_reduce (N: 0, or every figure zero)."""
    if not stats:
        return False
    if "N" in stats:
        return stats["N"] > 0
    return any(figures.json_number(stats.get(k) or 0) > 0 for k in ("min", "max", "mean"))


def _exact(figure) -> Fraction:
    """A figure of fio's report as the decimal it printed (1.9, not the binary float nearest it):
    sums and means of clones' figures are exact, then rounded once (float(Fraction))."""
    return Fraction(repr(figures.json_number(figure)))


def _summed(of_jobs: list, divisor: int = 1) -> float:
    """The sum of figures of fio's report over divisor, exact, rounded once (_exact). One figure
    alone is its own float, which is what rounding its decimal gives (a job of one entry, a
    report's usual: its Fractions were a tenth of reading 50,000 small reports)."""
    if len(of_jobs) == 1 and divisor == 1:
        return figures.json_number(of_jobs[0]) + 0.0  # -0.0 as the Fraction's 0
    return float(sum(map(_exact, of_jobs)) / divisor)


def _side(jobs: list, side: str, latencies: bool) -> dict:
    values = {"throughput": sum(_bandwidth(j[side]) for j in jobs)}
    if all("iops" in j[side] for j in jobs):  # fio 1.x's terse lines have none
        values["iops"] = _summed([j[side]["iops"] for j in jobs])
    if not latencies:
        return values
    stats = [_latency(j[side], "lat") for j in jobs]
    ios = [figures.json_number(j[side].get("total_ios") or 0) for j in jobs]
    if all(_measured(s) for s, _ in stats):
        if len(jobs) == 1:
            values["lat_mean_ns"] = figures.json_number(stats[0][0]["mean"]) * stats[0][1]
        elif all(ios):  # clones: the mean over all their I/Os
            values["lat_mean_ns"] = float(sum(_exact(s["mean"]) * int(f) * _exact(n) for (s, f), n in zip(stats, ios))
                                          / sum(_exact(n) for n in ios))
    if len(jobs) == 1:  # percentiles of several jobs cannot be combined from their summaries
        # completion latency's, or total latency's where the job asked for those (lat_percentiles=1)
        for stats, factor in (_latency(jobs[0][side], "clat"), _latency(jobs[0][side], "lat")):
            if _measured(stats) and stats.get("percentile"):
                for name, key in fio_json.PERCENTILES.items():
                    if key in stats["percentile"]:
                        values[name] = figures.json_number(stats["percentile"][key]) * factor
                break
    return values


def _active(jobs: list, rw: str | None) -> list:
    """The sides a job did I/O on; by its rw where none did (a run too short to count)."""
    sides = [s for s in SIDES if any(isinstance(j.get(s), dict) and figures.json_number(j[s].get("io_bytes") or 0) > 0 for j in jobs)]
    if len(sides) > 1 and "mixed" in sides:  # unified_rw_reporting=both: the sum of the others
        sides.remove("mixed")
    if sides:
        return sides
    if rw in READ:
        return ["read"]
    if rw in WRITE:
        return ["write"]
    return ["trim"] if rw in TRIM else ["read", "write"]


# The largest figure fio's report may hold, a result file's largest number (a byte count of an
# exabyte): bounds every number checked before it is read as a float (a 400-digit bw_bytes
# overflowed float()).
MAX_FIGURE = MAX_NUMBER
VERSION = re.compile(r"fio-(\d{1,4})\.(\d{1,4})", re.ASCII)
# fio 2.0 and 2.1 wrote no total_ios (2.1.4's report in the samples has none; 2.17's has it);
# bw_bytes came in 3.2 (3.1's sample has bw alone).
TOTAL_IOS_FROM, BW_BYTES_FROM = (2, 2), (3, 2)
# Keys of a direction that fio 3.0 added (latencies in ns, io_kbytes beside io_bytes in bytes):
# a report stating an earlier version and holding one is refused, so a version written into the
# report never chooses looser checks than the fields it holds were written under.
FROM_3_0 = ("lat_ns", "clat_ns", "slat_ns", "io_kbytes")


def _figure(side: dict, key: str, field: str, where: str) -> float:
    value = side.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= MAX_FIGURE:
        raise UserError(f"{key} is {str(value)[:40] if key in side else 'missing'}", where=where, field=f"{field}/{key}",
                        expected=f"a number from 0 to {MAX_FIGURE:g}, as fio writes for each direction of a job")
    return float(value)


def check_sides(report: dict, where: str, terse: bool) -> None:
    """Every direction of every job in fio's report holds what each fio version from 2.0 on
    writes for it (io_bytes, runtime in ms, bw (KiB/s) or bw_bytes, iops, total_ios from 2.2
    on, lat/clat or lat_ns/clat_ns), and its rates are the ones fio computes from its counts:
    bw_bytes = 1000 * io_bytes / runtime (io_bytes in KiB and bw in KiB/s before 3.0, which
    added io_kbytes; bw alone in 3.0 and 3.1 is bw_bytes / 1024), iops = 1000 * total_ios /
    runtime, each to fio's integer rounding (1 unit, and 1000 / runtime more for a bw computed from
    bytes beside a count written in KiB); 0 where runtime is 0. A report cut down
    to the figures fsatlas reads, or whose throughput was changed, is refused at the field.
    Terse lines (fio_terse) hold no total_ios nor, in version 2 (fio 1.x, whose bw is bytes per
    ms: 1024 x io_bytes / runtime), iops: what they hold is checked. Where no total_ios is
    written (JSON before 2.2, terse), iops is checked to be there and no more: with the block
    size unrecorded, twice the iops is the report of blocks half as large. The version these
    checks follow is the report's own, which must not contradict its fields (FROM_3_0,
    BW_BYTES_FROM); validate also holds it to the result's recorded tool.fio. Where both are
    written, io_kbytes is io_bytes >> 10 and bw is bw_bytes // 1024 (fio 3.x's integers)."""
    match = VERSION.match(str(report.get("fio version", "")))
    version = (int(match.group(1)), int(match.group(2))) if match else (0, 0)  # terse, or a version unsaid
    if match and version < (1, 0):  # fio's first release was 1.0: (0, 0) means unsaid
        raise UserError(f"fio version {match.group(0)}", where=where, field="/fio version",
                        expected="the version of fio that wrote the report (1.0 or later)")
    for name in ("jobs", "client_stats"):
        entries = report.get(name)
        for i, job in enumerate(entries if isinstance(entries, list) else ()):
            for direction in SIDES:
                side = job.get(direction) if isinstance(job, dict) else None
                if isinstance(side, dict):
                    _check_side(side, f"/{name}/{i}/{direction}", where, terse, version)


def _check_side(side: dict, field: str, where: str, terse: bool, version: tuple) -> None:
    if version != (0, 0):
        later = [(k, (3, 0)) for k in FROM_3_0 if k in side] + [("bw_bytes", BW_BYTES_FROM)] * ("bw_bytes" in side)
        for key, since in later:
            if version < since:
                raise UserError(f"{key} in a report stating fio {version[0]}.{version[1]}", where=where,
                                field=f"{field}/{key}", expected=f"the keys fio {version[0]}.{version[1]} writes "
                                f"({key} came in fio {since[0]}.{since[1]}), or the version that wrote the report")
    runtime = _figure(side, "runtime", field, where)
    io = _figure(side, "io_bytes", field, where)
    rates = []  # (key, its count, the divisor of 1000 x count / runtime)
    if "bw_bytes" in side or not terse and ("bw" not in side or version >= BW_BYTES_FROM):
        rates.append(("bw_bytes", io, 1.0))
    elif terse and "iops" not in side:  # fio 1.x (terse version 2): bytes per ms, io_bytes x 1024 / runtime
        rates.append(("bw", io, 1000 / 1024))
    else:
        rates.append(("bw", io, 1024.0 if "io_kbytes" in side else 1.0))  # bytes in 3.0/3.1, KiB before
    if not terse or "iops" in side:
        if "total_ios" in side or not terse and (version >= TOTAL_IOS_FROM or version == (0, 0)):
            rates.append(("iops", _figure(side, "total_ios", field, where), 1.0))
        else:
            _figure(side, "iops", field, where)
    if not terse and not any(isinstance(side.get(k), dict) for k in ("lat_ns", "clat_ns", "lat", "clat")):
        raise UserError("no latency statistics", where=where, field=field,
                        expected="lat_ns or clat_ns (fio 3.x), lat or clat (2.x), as fio writes for each direction")
    for key, count, divisor in rates:
        figure = _figure(side, key, field, where)
        expected = 1000 * count / runtime / divisor if runtime else 0.0
        # a count in KiB (bw's before 3.0, terse's) is io_bytes >> 10, while fio computed bw from
        # the bytes: up to 1 KiB less, 1000 / runtime KiB/s less (round 58: 32,769 I/Os of 512
        # bytes in 210 ms wrote io 16384 and bw 78021, not 78019)
        truncated = 1000 / runtime / divisor if runtime and key == "bw" and divisor != 1024.0 else 0.0
        slack = 1 + 1e-9 * expected
        if not expected - slack <= figure <= expected + truncated + slack:
            raise UserError(f"{key} {figure:.6g}", where=where, field=f"{field}/{key}",
                            expected=f"{expected:.6g} ({1000 / divisor:g} x {'io_bytes' if key != 'iops' else 'total_ios'}"
                                     f" / runtime {runtime:g} ms, as fio computes it)")
    for key, of, shift in (("io_kbytes", "io_bytes", 10), ("bw", "bw_bytes", 10)):
        if key in side and of in side and not terse:
            whole = int(_figure(side, of, field, where)) >> shift
            if abs(_figure(side, key, field, where) - whole) > 1:
                raise UserError(f"{key} {side[key]}", where=where, field=f"{field}/{key}",
                                expected=f"{whole} ({of} / 1024, as fio writes it beside {of})")


# what the importer reads of each job besides its figures and options, and the type fio writes it in
JOB_FIELDS = {"jobname": (str, "a text, the job's name"), "groupid": (int, "a whole number from 0, the job's group"),
              "error": (int, "a whole number, fio's error number")}


def check_fields(report: dict, where: str) -> None:
    """Each field the importer reads of a report, beside the figures check_sides reads, is of the
    type fio writes it in: refused, located, where not ("groupid": [1] is no group)."""
    if "fio version" in report and not isinstance(report["fio version"], str):
        raise UserError(f"a fio version of type {type(report['fio version']).__name__}", where=where,
                        field="/fio version", expected='a text, as "fio-3.33"')
    for name in ("jobs", "client_stats"):
        entries = report.get(name)
        if name in report and not isinstance(entries, list):
            raise UserError(f"{name} of type {type(entries).__name__}", where=where, field=f"/{name}",
                            expected="a list of jobs, as fio writes it")
        for i, job in enumerate(entries or ()):
            if not isinstance(job, dict):
                raise UserError(f"a job of type {type(job).__name__}", where=where, field=f"/{name}/{i}",
                                expected="an object, as fio writes each job")
            for field, (kind, words) in JOB_FIELDS.items():
                value = job.get(field)
                if value is not None and (isinstance(value, bool) or not isinstance(value, kind)
                                          or kind is int and field == "groupid" and value < 0):
                    raise UserError(f"{field} is {json.dumps(value)[:40]}", where=where, field=f"/{name}/{i}/{field}",
                                    expected=words)


# fio writes a report's three clocks from one reading (stat.c, __show_run_stats: gettimeofday):
# "timestamp", its seconds since the epoch; "timestamp_ms", its milliseconds (fio 2.12 on; a
# client's report, client.c, has none); "time", ctime() of its seconds in the machine's local time
# zone, whose offset it does not write (glibc pads the day of the month to two places, fio's
# Windows build, os/windows/posix.c, does not).
DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
CTIME = re.compile(f"({'|'.join(DAYS)}) ({'|'.join(MONTHS)}) {{1,2}}([0-9]{{1,2}}) "
                   r"([0-9]{2}):([0-9]{2}):([0-9]{2}) ([0-9]{4})")
EPOCH = dt.datetime(1970, 1, 1)
# the offsets from UTC a time zone has: whole quarter hours, from -12 h to +14 h
ZONE_OFFSETS = range(-12 * 3600, 14 * 3600 + 1, 900)
# a "right/" zone counts the leap seconds since 1972 (27, the last at the end of 2016: IERS
# Bulletin C), so its local time is behind the offset by up to as many (adversary round 83: a
# report written under TZ=right/UTC, 27 s behind, was refused)
LEAP_SECONDS = range(0, 28)


def zone_offset(offset: int | None) -> bool:
    """Whether a local clock this many seconds ahead of UTC is one a time zone keeps."""
    return offset is not None and any(offset + leap in ZONE_OFFSETS for leap in LEAP_SECONDS)


def check_clocks(report: dict, where: str) -> None:
    """A report's clocks name one second, as fio writes them from one reading: its timestamp_ms
    falls in the second its timestamp names, and its time is that second in a zone offset there
    is (zone_offset). A report without timestamp_ms (fio before 2.12, a client's) or without
    time is not held to it, nor one without a timestamp in whole seconds (refused where it is
    read: validate's clocks, an import's measured time). Refused, located, where they differ
    (adversary round 81: a timestamp_ms edited, which moved the report's span into another
    session, passed beside the timestamp fio wrote)."""
    stamp = report.get("timestamp")
    if isinstance(stamp, float) and stamp.is_integer():
        stamp = int(stamp)  # fio writes an integer; an import's measured time takes a whole float too
    if isinstance(stamp, bool) or not isinstance(stamp, int):
        return
    ms = report.get("timestamp_ms")
    if "timestamp_ms" in report and (isinstance(ms, bool) or not isinstance(ms, int) or ms // 1000 != stamp):
        raise UserError("", where=where, field="/timestamp_ms", found=json.dumps(ms)[:40],
                        expected=f"a time within the second timestamp names, {stamp * 1000} to {stamp * 1000 + 999} "
                                 f"(fio writes both from one reading of its clock)")
    if "time" in report and not zone_offset(_offset(report["time"], stamp)):
        raise UserError("", where=where, field="/time", found=json.dumps(report["time"])[:60],
                        expected=f"the second timestamp names ({stamp}) as ctime writes it in the machine's local "
                                 f"time, its offset from UTC whole quarter hours from -12 to +14 h (less the leap "
                                 f"seconds a right/ zone counts)")


def _offset(text, stamp: int) -> int | None:
    """How many seconds a ctime() text (fio's "time") is ahead of the second stamp, read as UTC;
    None where it is no ctime text of a date (its day of the week included)."""
    match = CTIME.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        return None
    day, month, date, hours, minutes, seconds, year = match.groups()
    # a right/ zone writes a leap second as second 60 of a minute (adversary round 84), which no
    # datetime holds: read as second 59, one behind, which LEAP_SECONDS allows
    try:
        local = dt.datetime(int(year), MONTHS.index(month) + 1, int(date), int(hours), int(minutes),
                            min(int(seconds), 59))
    except ValueError:
        return None
    if DAYS[local.weekday()] != day:
        return None
    return (local - EPOCH) // dt.timedelta(seconds=1) - stamp


# How terse lines of one job name and group are read (import --terse-lines). fio writes a line per
# clone (numjobs, without group_reporting), each under its job's name and group; a log that fio
# --minimal appended to run after run holds a line per run, under the same name and group too. The
# lines cannot tell which: CLONES sums them as one run's clones (as fio's group report would), RUNS
# reads each as a run of its own (a repetition of the job's cell), ASK refuses to guess (the
# import's default: figures of lines it cannot tell apart are never added silently), EITHER gives
# both readings, told apart by jobs_in_report (validate: the cell's parameters say which it is).
CLONES, RUNS, ASK, EITHER = "clones", "runs", "ask", "either"


def parse(text: str, where: str, workload: str | None = None, terse_lines: str = EITHER) -> list:
    terse = fio_terse.is_terse(text)
    if terse:
        _refuse_json_beside_terse(text, where)
        # a line of "٥;..." is none fio wrote, not one to pass over; a job's name is the user's
        figures.refuse_other_digits(text, where, "fio's terse", names=fio_terse.job_names(text))
        report = fio_terse.report(text, where)
    elif "{" not in text and NORMAL.search(text):  # the brace first: a JSON report is never searched
        raise UserError("fio's normal output, whose figures are rounded for reading, is not read", where=where,
                        expected="the run's report with --output-format=json (or json+, or terse)")
    else:
        report = fio_json.parse(text, where)
    if not isinstance(report, dict):
        raise UserError("not a fio JSON report", where=where, expected="an object with jobs")
    try:
        check_sides(report, where, terse)
    except UserError as e:  # a terse line's figure is named by its line and field
        raise (fio_terse.place(report, where, e) if terse else e) from None
    check_fields(report, where)
    if not terse:
        check_clocks(report, where)
    groups = {}
    for job, described, pointer in _entries(report, where):
        if not isinstance(job, dict) or not (all(isinstance(job.get(s), dict) for s in ("read", "write"))
                                             or isinstance(job.get("mixed"), dict)):
            raise UserError("a job without read and write sections", where=where, field=pointer,
                            expected="fio --output-format=json (or json+) output")
        if not isinstance(job.get("error") or 0, int):
            raise UserError(f"error {job['error']!r}", where=where, field=pointer + "/error", expected="fio's error number")
        name = str(described.get("jobname", "job"))
        groups.setdefault((name, described.get("groupid", 0)), []).append((job, described, pointer))
    failed = {key: entries for key, entries in groups.items() if any(j.get("error") for j, _, _ in entries)}
    if failed and len(failed) == len(groups):
        (name, _), entries = next(iter(failed.items()))
        error = next(int(j["error"]) for j, _, _ in entries if j.get("error"))
        raise UserError(f"fio job {name!r} ended with error {error}", where=where,
                        expected="a report of jobs that finished (error 0)")
    named = {}  # a job's name -> its groups: a name in two groups is two jobs no key tells apart
    for name, group in groups:
        named.setdefault(name, []).append(group)
    for name, in_groups in named.items():
        if len(in_groups) > 1:
            a, b = (groups[(name, g)][0][2] for g in in_groups[:2])
            raise UserError(f"two jobs named {name[:60]!r}, in groups {in_groups[0]} and {in_groups[1]}", where=where,
                            field=f"{a}/jobname, {b}/jobname", expected="a name of its own a job (fio reports each as a job "
                                                                        "of its own, which a result's cell key names by its name)")
    out = []
    for (name, group), entries in _readings(groups, report, where, terse_lines if terse else CLONES):
        jobs = [j for j, _, _ in entries]
        described, pointer = entries[0][1], entries[0][2]
        options = job_options(described, report, where, pointer)
        _same_job(entries, options, report, where, terse)
        guessed_rw, guessed_bs = _from_name(name)
        rw = options.pop("readwrite", None) or options.get("rw") or guessed_rw or NOT_STATED
        bs = options.pop("blocksize", None) or options.get("bs") or (canonical_size(guessed_bs) if guessed_bs else NOT_STATED)
        params = {**options, "job": name, "rw": rw, "bs": bs, "jobs_in_report": len(jobs), "group": group}
        label, dims = identity(name, workload, where, pointer)
        if (name, group) in failed:
            error = next(int(j["error"]) for j in jobs if j.get("error"))
            out.append(Measurement(label, params, {}, {}, dims, not_measured=f"fio job {name!r} ended with error {error}",
                                   failed=True))
            continue
        try:
            values, sides = _values(jobs, rw)
        except (ValueError, TypeError, KeyError, AttributeError) as e:
            raise UserError(f"a figure fio writes as a number is not one ({type(e).__name__}: {str(e)[:80]})",
                            where=where, field=pointer, expected="fio's numbers") from None
        for metric, value in values.items():
            if not (math.isfinite(value) and 0 <= value <= MAX_FIGURE):
                raise UserError(f"{metric} of {value:.6g}", where=where, field=pointer,
                                expected=f"a measured figure between 0 and {MAX_FIGURE:g}")
        if terse:  # terse records no options: what its figures show of the job is compared instead
            params.update(_terse_shape(jobs, sides))
        units = {n: UNITS[n.split("_", 1)[1] if n.startswith(("read_", "write_", "trim_")) else n] for n in values}
        out.append(Measurement(label, params, values, units, dims))
    return out


def _readings(groups: dict, report: dict, where: str, terse_lines: str) -> list:
    """((name, group), entries) of each measurement the jobs make: one a group of one name (its
    entries summed as clones), or, for terse lines of one name and group (terse_lines: RUNS,
    EITHER), one a line; ASK refuses such lines, naming the first two."""
    out = []
    for key, entries in groups.items():
        if len(entries) > 1 and terse_lines == ASK:
            a, b = (report[fio_terse.PLACES][int(pointer.rsplit("/", 1)[1])][0] for _, _, pointer in entries[:2])
            raise UserError(f"lines {a} and {b} are both job {key[0][:60]!r} of group {key[1]}: numjobs clones of one "
                            f"run, or runs appended to one log (fio --minimal >> log), which terse output does not "
                            f"tell apart", where=where, expected="--terse-lines clones (one run's clones, summed) or "
                                                                 "--terse-lines runs (each line a run, a repetition)")
        if len(entries) == 1 or terse_lines in (CLONES, EITHER):
            out.append((key, entries))
        if len(entries) > 1 and terse_lines in (RUNS, EITHER):
            out += [(key, [entry]) for entry in entries]
    return out


OWN_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,75}")  # a job name that spells a workload as it is
MAX_JOB_KEY = 150  # characters of a job's name in its cell key (percent-encoded); a key holds 300


def job_key(name: str) -> str:
    """A job's name as a key's dimension value: percent-encoded (UTF-8) but for letters, digits,
    _, . and -, so two names never give one value and no name breaks the key's shape."""
    return re.sub(r"[^A-Za-z0-9_.-]", lambda m: "".join(f"%{b:02X}" for b in m.group().encode()), name)


def identity(name: str, workload: str | None, where: str, pointer: str) -> tuple[str, dict]:
    """(workload, dimensions) of a job from its name alone, never from the other jobs of its
    report (a job's repetitions meet in one cell whatever else each file ran): a name that is a
    workload's spelling (lower-case letters, digits, dashes) is the workload fio-NAME; any other
    name, or any name under --workload, is the dimension job=NAME, percent-encoded (job_key), so
    that no two names share a key ("x y" and "x.y", "lecture é" and "lecture è")."""
    if workload is None and OWN_NAME.fullmatch(name):
        return f"fio-{name}", {}
    encoded = job_key(name)
    if len(encoded) > MAX_JOB_KEY:
        raise UserError(f"a job name of {len(name)} characters", where=where, field=f"{pointer}/jobname",
                        expected=f"a name of at most {MAX_JOB_KEY} characters once percent-encoded (it is in the cell's key)")
    label = workload or re.sub(r"[^a-z0-9-]+", "-", f"fio-{name}".lower()).strip("-")[:80] or "fio"
    return label, {"job": encoded}


def _same_job(entries: list, options: dict, report: dict, where: str, terse: bool) -> None:
    """Entries of one name and group are summed as fio's clones (numjobs) only where they are
    one job: every option the same (terse, which records none: what its figures show, the sides
    done I/O on and each one's block size, _terse_shape). Two jobs of one name (rw=randread and
    rw=randwrite, both [x-y]) are refused, located."""
    def shape(job):
        return _terse_shape([job], _active([job], None))
    first = options if not terse else shape(entries[0][0])
    for job, described, pointer in entries[1:]:
        other = job_options(described, report, where, pointer) if not terse else shape(job)
        if other != first:
            names = sorted(n for n in set(first) | set(other) if first.get(n) != other.get(n))
            differ = ", ".join(f"{n}={first.get(n, 'not set')} and {n}={other.get(n, 'not set')}" for n in names[:4])
            raise UserError(f"two jobs named {str(described.get('jobname', 'job'))[:60]!r} in one group differ in {differ}",
                            where=where, field=f"{entries[0][2]}, {pointer}",
                            expected="one name a job: fio's clones of one job (numjobs), or its runs, share every "
                                     "option")


def _values(jobs: list, rw: str) -> tuple[dict, list]:
    """(the figures of one job summed over its entries, the sides it did I/O on)."""
    sides = _active(jobs, rw)
    if len(sides) == 1:
        values = _side(jobs, sides[0], latencies=True)
        if len(jobs) == 1 and "lat_mean_ns" in values:  # one job's syncs (fsync-write-4k): as the runner reads them
            values.update(fio_json.sync_metrics(jobs[0], jobs[0][sides[0]], values["lat_mean_ns"]))
    else:
        values = {f"{side}_{metric}": v for side in sides for metric, v in _side(jobs, side, latencies=True).items()}
    for metric, key in (("cpu_usr_pct", "usr_cpu"), ("cpu_sys_pct", "sys_cpu")):
        if all(key in j for j in jobs):  # a report cut short of them has no CPU figure, not 0 %
            values[metric] = _summed([j[key] for j in jobs], len(jobs))
    return values, sides


def _terse_shape(jobs: list, sides: list) -> dict:
    """What terse output shows of a job whose options it does not record: the sides it did I/O
    on, and each one's block size from its bandwidth over its IOPS (to the nearest 512 bytes)."""
    sizes = []
    for side in sides:
        bw, iops = sum(_bandwidth(j[side]) for j in jobs), sum(figures.json_number(j[side].get("iops") or 0) for j in jobs)
        sizes.append(canonical_size(str(round(bw / iops / 512) * 512)) if iops >= 1 else "unknown")
    return {"sides": "+".join(sides), "bs_from_rate": ",".join(sizes)}


def measured(text: str, where: str = "") -> dict | None:
    """When fio wrote the report, from its own `timestamp` (seconds since the epoch, so UTC), or
    where that is absent from its `time` (the same moment in the machine's local time, its offset
    not written). Terse output has neither. A time that is no date, before 1990 or after now
    (the import) is refused, located. Read from the parsed report, wherever it stands in the file
    (fio's "note:" lines before it, any spacing): one run is one stated time however it is written."""
    if fio_terse.is_terse(text):
        return None
    report = fio_json.parse(text, where)
    if not isinstance(report, dict):
        return None
    for key in ("timestamp", "time"):  # a key twice: the JSON parser keeps the last, a reader may see the first
        if len(set(re.findall(rf'"{key}"\s*:\s*("[^"\n]{{0,60}}"|[^,}}\s]*)', text))) > 1:
            raise UserError(f"two values of {key}", where=where, field=f"/{key}", expected="one, as fio writes it")
    stamp = report.get("timestamp")
    if stamp is not None:
        if isinstance(stamp, bool) or not isinstance(stamp, (int, float)) or not 0 <= stamp < 10**11 \
                or stamp != int(stamp):
            raise UserError(f"a timestamp of {json.dumps(stamp)[:40]}", where=where, field="/timestamp",
                            expected="fio's seconds since the epoch")
        when = dt.datetime.fromtimestamp(int(stamp), dt.timezone.utc)
        found = {"time": f"{when:%Y-%m-%dT%H:%M:%S}Z", "utc": True, "from": "fio timestamp (when fio wrote the report)"}
        return check_time(found, when, where, "/timestamp")
    local = report.get("time")
    if local is None:
        return None
    try:
        if not isinstance(local, str):
            raise ValueError
        when = dt.datetime.strptime(" ".join(local.split()), "%a %b %d %H:%M:%S %Y")
    except ValueError:
        raise UserError(f"a time of {json.dumps(local)[:60]}", where=where, field="/time",
                        expected="fio's local time, as \"Sat Nov 28 22:43:42 2026\"") from None
    found = {"time": f"{when:%Y-%m-%dT%H:%M:%S}", "utc": False, "from": "fio time (the machine's local time)"}
    return check_time(found, when.replace(tzinfo=dt.timezone.utc), where, "/time")
