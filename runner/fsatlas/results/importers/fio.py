"""fio's JSON and JSON+ output (--output-format=json or json+), from one or many jobs, with or
without group_reporting, also from client/server runs (client_stats with 'All clients').

Jobs with the same rw and block size are one cell; their bandwidths and IOPS are summed, as
fio's group report sums them. A mixed read/write job reports read_ and write_ metrics apart.
"""
import re

from .. import fio_json
from ...errors import UserError
from .measurement import Measurement

READ, WRITE, MIXED = ("read", "randread"), ("write", "randwrite"), ("rw", "readwrite", "randrw")
UNITS = {"throughput": ("bytes/s", "higher"), "iops": ("ops/s", "higher"), "lat_mean_ns": ("ns", "lower"),
         "lat_p50_ns": ("ns", "lower"), "lat_p99_ns": ("ns", "lower"), "lat_p999_ns": ("ns", "lower"),
         "cpu_usr_pct": ("percent", "lower"), "cpu_sys_pct": ("percent", "lower")}


def _option(job: dict, report: dict, name: str, default=None):
    return job.get("job options", {}).get(name, report.get("global options", {}).get(name, default))


def _jobs(report: dict, where: str) -> list:
    """(job whose figures count, job whose options describe it). A client/server report lists
    every client's jobs and an 'All clients' sum per group: only the sums count, and they take
    their options from a client's job of the same group."""
    clients = report.get("client_stats")
    if clients:
        merged = [j for j in clients if isinstance(j, dict) and j.get("jobname") == "All clients"]
        if not merged:  # one client: fio prints no aggregate entry
            return [(j, j) for j in clients]
        members = [j for j in clients if isinstance(j, dict) and j.get("jobname") != "All clients"]
        return [(m, next((j for j in members if j.get("groupid") == m.get("groupid")), m)) for m in merged]
    if not report.get("jobs"):
        raise UserError("no jobs in the fio report", where=where, field="/jobs", expected="a non-empty list")
    return [(j, j) for j in report["jobs"]]


def _side(jobs, side) -> dict:
    ios = sum(j[side].get("total_ios", 0) for j in jobs)
    values = {"throughput": float(sum(j[side]["bw_bytes"] for j in jobs)),
              "iops": float(sum(j[side]["iops"] for j in jobs))}
    if ios:
        values["lat_mean_ns"] = sum(j[side]["lat_ns"]["mean"] * j[side].get("total_ios", 0) for j in jobs) / ios
    if len(jobs) == 1:  # percentiles of several jobs cannot be combined from their summaries
        for name, key in fio_json.PERCENTILES.items():
            value = jobs[0][side].get("clat_ns", {}).get("percentile", {}).get(key)
            if value is not None:
                values[name] = float(value)
    return values


def parse(text: str, where: str, workload: str | None = None) -> list:
    report = fio_json.parse(text, where)
    if not isinstance(report, dict):
        raise UserError("not a fio JSON report", where=where, expected="an object with jobs")
    groups = {}
    options = {}
    for job, described in _jobs(report, where):
        if not isinstance(job, dict) or not isinstance(job.get("read"), dict) or not isinstance(job.get("write"), dict):
            raise UserError("a job without read and write sections", where=where, field="/jobs",
                            expected="fio --output-format=json (or json+) output")
        rw = str(_option(described, report, "rw", "read"))
        bs = str(_option(described, report, "bs", _option(described, report, "blocksize", "4k")))
        groups.setdefault((rw, bs), []).append(job)
        options.setdefault((rw, bs), described)
    out = []
    for (rw, bs), jobs in groups.items():
        if rw in READ or rw in WRITE:
            values = _side(jobs, "read" if rw in READ else "write")
        elif rw in MIXED:
            values = {f"{side}_{name}": v for side in ("read", "write") for name, v in _side(jobs, side).items()
                      if name in ("throughput", "iops")}
        else:
            raise UserError(f"fio rw={rw} is not imported", where=where, expected="read, write, randread, randwrite, rw, randrw")
        values["cpu_usr_pct"] = sum(float(j.get("usr_cpu", 0)) for j in jobs) / len(jobs)
        values["cpu_sys_pct"] = sum(float(j.get("sys_cpu", 0)) for j in jobs) / len(jobs)
        units = {name: UNITS.get(name.split("_", 1)[1] if name.startswith(("read_", "write_")) else name) for name in values}
        name = workload or re.sub(r"[^a-z0-9-]+", "-", f"fio-{rw}-{bs}".lower()).strip("-")
        params = {"rw": rw, "bs": bs, "jobs_in_report": len(jobs)}
        for opt in ("numjobs", "iodepth", "ioengine", "direct", "size"):
            value = _option(options[(rw, bs)], report, opt)
            if value is not None:
                params[opt] = str(value)
        dims = {"rw": rw, "bs": bs} if not workload and len(groups) > 1 else ({"bs": bs} if len(groups) > 1 else {})
        out.append(Measurement(name, params, values, units, dims))
    return out
