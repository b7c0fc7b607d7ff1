"""fio workloads: sequential, rewrite, random and concurrent throughput.

Reproduces bonnie++ block I/O and rewrite, IOzone random I/O, slow.c's concurrent writers
and the dd test of a large file. The cell's parameters are fio job options; fsatlas adds the
directory (or the raw device, for a baseline), JSON output and group reporting, so several
jobs (numjobs) are summed as fio's own group report sums them. fio's JSON is kept raw.
"""
from ...results import fio_json, metrics
from .. import target
from .context import run_tool

METRICS = metrics.FIO
DIRECTION = {"read": "read", "randread": "read", "write": "write", "randwrite": "write"}


def job_file(name: str, parameters: dict, location: dict) -> str:
    lines = ["[global]", *(f"{k}={v}" for k, v in location.items()), "group_reporting=1", f"[{name}]"]
    lines += [f"{key}={value}" for key, value in parameters.items()]
    return "\n".join(lines) + "\n"


def run_job(name, params, location, raw_path, timeout) -> dict:
    rw = params.get("rw")
    if rw not in DIRECTION:
        raise ValueError(f"fio rw={rw!r} is not one of {', '.join(DIRECTION)}")
    run_tool(["fio", "--output-format=json", f"--output={raw_path}", "-"], timeout + 30, "fio",
             input=job_file(name, params, location))
    with open(raw_path, encoding="utf-8") as f:
        report = fio_json.parse(f.read(), raw_path)
    return fio_json.job_metrics(report["jobs"][0], DIRECTION[rw])


def lays_out(parameters: dict) -> bool:
    """Whether fio writes the job's file before the job (a read, or overwrite=1): that layout
    is not the job's I/O."""
    return DIRECTION.get(parameters.get("rw")) == "read" or str(parameters.get("overwrite", 0)) == "1"


def run(cell, ctx) -> dict:
    location = {"directory": ctx.workdir}
    direct = str(cell.parameters.get("direct", 0)) == "1"
    if lays_out(cell.parameters):
        # Laid out first, in an invocation of its own (create_only): the timed part's device
        # counters hold the job's I/O, not the layout's (#60 round 21: every repetition of an
        # O_DIRECT read held its whole file's writes). A buffered read's layout must also leave
        # memory before the read, or the read is of memory (issue #40's measurement, NTFS through
        # FUSE, 128 MiB: 1,766 MB/s read in one invocation, 818 MB/s laid out, synced and dropped first).
        run_tool(["fio", "--output-format=json", "--output=/dev/null", "-"], ctx.timeout + 30, "fio",
                 input=job_file(cell.workload, {**cell.parameters, "create_only": 1}, location))
    if direct:
        # a direct job bypasses the page cache and fio invalidates its files' cached pages itself
        # (DESIGN.md), so no drop: the layout's writes and metadata are synced, outside the timed part
        if lays_out(cell.parameters):
            target.sync(ctx.workdir)
    else:
        ctx.drop()
    with ctx.timed():
        return run_job(cell.workload, cell.parameters, location, ctx.raw(".json"), ctx.timeout)
