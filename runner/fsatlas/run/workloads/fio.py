"""fio workloads: sequential, rewrite, random and concurrent throughput.

Reproduces bonnie++ block I/O and rewrite, IOzone random I/O, slow.c's concurrent writers
and the dd test of a large file. The cell's parameters are fio job options; fsatlas adds the
directory (or the raw device, for a baseline), JSON output and group reporting, so several
jobs (numjobs) are summed as fio's own group report sums them. fio's JSON is kept raw.
"""
import os
import re

from ...errors import UserError
from ...results import fio_json, metrics
from .. import target
from .context import run_tool

METRICS = metrics.FIO
DIRECTION = {"read": "read", "randread": "read", "write": "write", "randwrite": "write"}


# What fio's job-file parser changes in a value: ':' separates a list of directories (fio's
# HOWTO, `directory`), '#' and ';' begin a comment that ends it (adversary round 82: for
# directory=/tmp/t/a#b/rep-1, fio 3.33 ran in /tmp/t/a, outside the run's folder, and left its
# file there), ${NAME} is replaced by the variable's value (nothing where it has none; an unclosed
# ${ is kept), $pagesize, $mb_memory and $ncpus by a figure handed to bc (which fails), and blanks
# at the end are dropped (fio --showcmd prints what it read). A control character ends the line or
# reaches fio's JSON unescaped, which is then no JSON (adversary round 83: a tab).
JOB_FILE_CUTS = re.compile(r"[:#;\x00-\x1f\x7f]|\$\{[^}]*\}|\$(?:pagesize|mb_memory|ncpus)| $")


def cut_in_job_file(path: str) -> str | None:
    """What in path fio's job file would take apart or change (JOB_FILE_CUTS), or a byte that is no
    UTF-8 (a name the job file, written as UTF-8, cannot hold, nor fio's JSON report: adversary
    round 84), or None."""
    found = JOB_FILE_CUTS.search(path)
    if found:
        return found[0]
    try:
        path.encode("utf-8")
    except UnicodeEncodeError as e:
        return f"the byte {e.object[e.start].encode('utf-8', 'surrogateescape')!r}, no UTF-8"
    return None


def folder(path: str, option: str) -> str:
    """path as the runner names it to fio: absolute, its leading slashes one (Linux reads //a as
    /a, and validate refuses a report whose folder is spelled otherwise: adversary round 83), and
    refused (UserError) where fio's job file would read it as another folder, or fail
    (cut_in_job_file)."""
    path = os.path.abspath(path)
    path = "/" + path.lstrip("/")
    check_folder(path, option)
    return path


def check_folder(path: str, option: str) -> None:
    """Refuses (UserError) a folder whose path fio's job file cannot carry: fio would run
    somewhere else, or fail (cut_in_job_file)."""
    cut = cut_in_job_file(path)
    if cut:
        raise UserError(where=path, field=option, found=f"{cut!r}, which fio's job file reads as something else "
                        f"(a list of folders, a comment, a variable or keyword, a blank it drops, a control "
                        f"character): fio would run elsewhere or fail",
                        expected="a folder whose path is UTF-8 and has no ':', '#', ';', '${...}', '$ncpus', "
                                 "'$pagesize', '$mb_memory', control character or blank at its end")


def job_file(name: str, parameters: dict, location: dict) -> str:
    cuts = {k: v for k, v in location.items() if cut_in_job_file(str(v))}
    if cuts:  # check_folder refuses them before a run: never a job in another folder than the one named
        raise ValueError(f"fio's job file cannot carry {cuts}")
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
