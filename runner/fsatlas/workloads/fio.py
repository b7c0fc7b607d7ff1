"""fio workloads: sequential and random throughput (bonnie++ block I/O, dd, IOzone).

The cell's parameters are fio job options; fsatlas adds the directory, the JSON output and
group reporting. fio's own JSON is kept as the raw output of each repetition.
"""
import subprocess

from .. import fio_json
from ..errors import UserError

METRICS = {
    "throughput": ("bytes/s", "higher"),
    "iops": ("ops/s", "higher"),
    "lat_mean_ns": ("ns", "lower"),
    "lat_p50_ns": ("ns", "lower"),
    "lat_p99_ns": ("ns", "lower"),
    "lat_p999_ns": ("ns", "lower"),
    "cpu_usr_pct": ("percent", "lower"),
    "cpu_sys_pct": ("percent", "lower"),
}
_DIRECTION = {"read": "read", "randread": "read", "write": "write", "randwrite": "write"}


def job_file(name: str, parameters: dict, directory: str) -> str:
    lines = ["[global]", f"directory={directory}", "group_reporting=1", f"[{name}]"]
    lines += [f"{key}={value}" for key, value in parameters.items()]
    return "\n".join(lines) + "\n"


def run(cell, workdir: str, raw_path: str, timeout: float) -> dict:
    rw = cell.parameters.get("rw")
    if rw not in _DIRECTION:
        raise UserError(f"workload {cell.workload}", field="rw", expected="one of " + ", ".join(_DIRECTION),
                        found=repr(rw))
    job = job_file(cell.workload, cell.parameters, workdir)
    done = subprocess.run(["fio", "--output-format=json", f"--output={raw_path}", "-"],
                          input=job, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"fio exited {done.returncode}: {(done.stderr or done.stdout).strip()[-500:]}")
    with open(raw_path, encoding="utf-8") as f:
        report = fio_json.parse(f.read(), raw_path)
    return fio_json.job_metrics(report["jobs"][0], _DIRECTION[rw])
