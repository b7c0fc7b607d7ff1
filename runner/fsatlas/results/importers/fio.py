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
import re

from .. import fio_json, fio_terse, metrics
from ...errors import UserError
from .measurement import Measurement

READ, WRITE, TRIM = ("read", "randread"), ("write", "randwrite"), ("trim", "randtrim")
SIDES = ("read", "write", "trim", "mixed")
UNITS = metrics.FIO  # the runner's fio metrics: the importer recomputes them
NOT_STATED = "not stated"
TERMINATED = re.compile(r"^fio: terminating on signal (\d+)", re.M)
NORMAL = re.compile(r"\(groupid=\d+, jobs=\d+\): err=|^Run status group \d+", re.M)  # fio's own report for reading


def looks_like(text: str) -> bool:
    return '"jobs"' in text or '"client_stats"' in text or fio_terse.is_terse(text)


def tool_version(text: str) -> str | None:
    match = re.search(r'"fio version"\s*:\s*"([^"]{1,50})"', text)
    return match.group(1) if match else fio_terse.version(text)


def note(text: str) -> str:
    """What the importer tells about the report beyond its figures."""
    match = TERMINATED.search(text)
    return f"fio was stopped by signal {match.group(1)} before the end of the run: the figures cover " \
           f"the part it ran" if match else ""


def _option(job: dict, report: dict, *names):
    for name in names:
        for options in (job.get("job options"), report.get("global options")):
            if isinstance(options, dict) and options.get(name) is not None:
                return str(options[name])
    return None


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
    size = re.search(r"(?<![a-z0-9])(\d+[kmg])(?:i?b)?(?![a-z0-9])", lowered)
    return rw, size.group(1) if size else None


def _entries(report: dict, where: str) -> list:
    """(job whose figures count, job whose name and options describe it). A client/server report
    lists every client's jobs and an 'All clients' entry. With one group that entry is fio's own
    sum over the clients (latency percentiles included) and counts alone; with several, fio 3.x
    writes one entry that adds every group's figures together (a write group's bandwidth shows
    up beside a read group's), so the clients' own entries are summed per group instead. A report
    cut down to its 'All clients' entry (as people quote one) counts that entry."""
    clients = report.get("client_stats")
    if isinstance(clients, list) and clients:
        merged = [j for j in clients if isinstance(j, dict) and j.get("jobname") == "All clients"]
        members = [j for j in clients if isinstance(j, dict) and j.get("jobname") != "All clients"]
        if len(merged) == 1 and len({j.get("groupid") for j in members}) <= 1:
            return [(merged[0], members[0] if members else merged[0])]
        return [(j, j) for j in members]
    if not isinstance(report.get("jobs"), list) or not report["jobs"]:
        raise UserError("no jobs in the fio report", where=where, field="/jobs", expected="a non-empty list")
    return [(j, j) for j in report["jobs"]]


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
    return any(float(stats.get(k) or 0) > 0 for k in ("min", "max", "mean"))


def _side(jobs: list, side: str, latencies: bool) -> dict:
    values = {"throughput": sum(_bandwidth(j[side]) for j in jobs)}
    if all("iops" in j[side] for j in jobs):  # fio 1.x's terse lines have none
        values["iops"] = float(sum(float(j[side]["iops"]) for j in jobs))
    if not latencies:
        return values
    stats = [_latency(j[side], "lat") for j in jobs]
    ios = [float(j[side].get("total_ios") or 0) for j in jobs]
    if all(_measured(s) for s, _ in stats):
        if len(jobs) == 1:
            values["lat_mean_ns"] = float(stats[0][0]["mean"]) * stats[0][1]
        elif all(ios):  # clones: the mean over all their I/Os
            values["lat_mean_ns"] = sum(float(s["mean"]) * f * n for (s, f), n in zip(stats, ios)) / sum(ios)
    if len(jobs) == 1:  # percentiles of several jobs cannot be combined from their summaries
        # completion latency's, or total latency's where the job asked for those (lat_percentiles=1)
        for stats, factor in (_latency(jobs[0][side], "clat"), _latency(jobs[0][side], "lat")):
            if _measured(stats) and stats.get("percentile"):
                for name, key in fio_json.PERCENTILES.items():
                    if key in stats["percentile"]:
                        values[name] = float(stats["percentile"][key]) * factor
                break
    return values


def _active(jobs: list, rw: str | None) -> list:
    """The sides a job did I/O on; by its rw where none did (a run too short to count)."""
    sides = [s for s in SIDES if any(isinstance(j.get(s), dict) and float(j[s].get("io_bytes") or 0) > 0 for j in jobs)]
    if len(sides) > 1 and "mixed" in sides:  # unified_rw_reporting=both: the sum of the others
        sides.remove("mixed")
    if sides:
        return sides
    if rw in READ:
        return ["read"]
    if rw in WRITE:
        return ["write"]
    return ["trim"] if rw in TRIM else ["read", "write"]


# The largest figure fio's report may hold (a byte count of an exabyte): bounds every number
# checked before it is read as a float (a 400-digit bw_bytes overflowed float()).
MAX_FIGURE = 1e18
VERSION = re.compile(r"fio-(\d{1,4})\.(\d{1,4})")
# fio 2.0 and 2.1 wrote no total_ios (2.1.4's report in the samples has none; 2.17's has it);
# bw_bytes came in 3.2 (3.1's sample has bw alone).
TOTAL_IOS_FROM, BW_BYTES_FROM = (2, 2), (3, 2)


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
    runtime, each to fio's integer rounding (1 unit); 0 where runtime is 0. A report cut down
    to the figures fsatlas reads, or whose throughput was changed, is refused at the field.
    Terse lines (fio_terse) hold no total_ios nor, in version 2 (fio 1.x, whose bw is bytes per
    ms: 1024 x io_bytes / runtime), iops: what they hold is checked."""
    match = VERSION.match(str(report.get("fio version", "")))
    version = (int(match.group(1)), int(match.group(2))) if match else (0, 0)  # terse, or a version unsaid
    for name in ("jobs", "client_stats"):
        entries = report.get(name)
        for i, job in enumerate(entries if isinstance(entries, list) else ()):
            for direction in SIDES:
                side = job.get(direction) if isinstance(job, dict) else None
                if isinstance(side, dict):
                    _check_side(side, f"/{name}/{i}/{direction}", where, terse, version)


def _check_side(side: dict, field: str, where: str, terse: bool, version: tuple) -> None:
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
        if abs(figure - expected) > 1 + 1e-9 * expected:
            raise UserError(f"{key} {figure:.6g}", where=where, field=f"{field}/{key}",
                            expected=f"{expected:.6g} ({1000 / divisor:g} x {'io_bytes' if key != 'iops' else 'total_ios'}"
                                     f" / runtime {runtime:g} ms, as fio computes it)")


def parse(text: str, where: str, workload: str | None = None) -> list:
    terse = fio_terse.is_terse(text)
    if terse:
        report = fio_terse.report(text, where)
    elif NORMAL.search(text) and "{" not in text:
        raise UserError("fio's normal output, whose figures are rounded for reading, is not read", where=where,
                        expected="the run's report with --output-format=json (or json+, or terse)")
    else:
        report = fio_json.parse(text, where)
    if not isinstance(report, dict):
        raise UserError("not a fio JSON report", where=where, expected="an object with jobs")
    check_sides(report, where, terse)
    groups = {}
    for job, described in _entries(report, where):
        if not isinstance(job, dict) or not (all(isinstance(job.get(s), dict) for s in ("read", "write"))
                                             or isinstance(job.get("mixed"), dict)):
            raise UserError("a job without read and write sections", where=where, field="/jobs",
                            expected="fio --output-format=json (or json+) output")
        name = str(described.get("jobname", "job"))
        groups.setdefault((name, described.get("groupid", 0)), []).append((job, described))
    failed = {key: entries for key, entries in groups.items() if any(int(j.get("error") or 0) for j, _ in entries)}
    if failed and len(failed) == len(groups):
        (name, _), entries = next(iter(failed.items()))
        error = next(int(j["error"]) for j, _ in entries if int(j.get("error") or 0))
        raise UserError(f"fio job {name!r} ended with error {error}", where=where,
                        expected="a report of jobs that finished (error 0)")
    several = len(groups) > 1
    out = []
    for (name, group), entries in groups.items():
        jobs = [j for j, _ in entries]
        described = entries[0][1]
        guessed_rw, guessed_bs = _from_name(name)
        rw = _option(described, report, "rw", "readwrite") or guessed_rw or NOT_STATED
        bs = _option(described, report, "bs", "blocksize") or guessed_bs or NOT_STATED
        params = {"job": name, "rw": rw, "bs": bs, "jobs_in_report": len(jobs)}
        if several:
            params["group"] = group
        for opt in ("numjobs", "iodepth", "ioengine", "direct", "size"):
            value = _option(described, report, opt)
            if value is not None:
                params[opt] = value
        label = workload or re.sub(r"[^a-z0-9-]+", "-", f"fio-{name}".lower()).strip("-")[:80] or "fio"
        dims = {"job": name} if several else {}
        if (name, group) in failed:
            error = next(int(j["error"]) for j in jobs if int(j.get("error") or 0))
            out.append(Measurement(label, params, {}, {}, dims, not_measured=f"fio job {name!r} ended with error {error}",
                                   failed=True))
            continue
        sides = _active(jobs, rw)
        if len(sides) == 1:
            values = _side(jobs, sides[0], latencies=True)
            if len(jobs) == 1 and "lat_mean_ns" in values:  # one job's syncs (fsync-write-4k): as the runner reads them
                values.update(fio_json.sync_metrics(jobs[0], jobs[0][sides[0]], values["lat_mean_ns"]))
        else:
            values = {f"{side}_{metric}": v for side in sides for metric, v in _side(jobs, side, latencies=True).items()}
        for metric, key in (("cpu_usr_pct", "usr_cpu"), ("cpu_sys_pct", "sys_cpu")):
            if all(key in j for j in jobs):  # a report cut short of them has no CPU figure, not 0 %
                values[metric] = sum(float(j[key]) for j in jobs) / len(jobs)
        units = {n: UNITS[n.split("_", 1)[1] if n.startswith(("read_", "write_", "trim_")) else n] for n in values}
        out.append(Measurement(label, params, values, units, dims))
    return out


def measured(text: str) -> dict | None:
    """When fio wrote the report, from its own `timestamp` (seconds since the epoch, so UTC; fio's
    `time` beside it is the same moment in the machine's local time). Terse output has none."""
    match = re.search(r'"timestamp"\s*:\s*(\d{1,12})\b', text[:4096])
    if not match:
        return None
    when = dt.datetime.fromtimestamp(int(match.group(1)), dt.timezone.utc)
    return {"time": f"{when:%Y-%m-%dT%H:%M:%S}Z", "utc": True, "from": "fio timestamp (when fio wrote the report)"}
