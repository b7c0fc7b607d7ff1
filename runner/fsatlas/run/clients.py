"""Many clients against one shared filesystem (NFS, CephFS, Lustre…) through fio's own
client/server mode: every host in the host file runs `fio --server`, and fsatlas drives
them with `fio --client=HOSTFILE`, which sends each the same job and sums their figures in
an 'All clients' entry. fio prefixes each client's files with its address, so the clients
do not overwrite each other in the shared directory.

Only the fio workloads run this way. The cell's metrics are the 'All clients' sums; its
`clients` field keeps each client's own figures under a label (client-1, client-2…, in
host-file order): the addresses themselves are not published, in the result or in the raw
reports, where fio wrote them.
"""
import os

from ..results import fio_json, resultfile, stats
from . import tools
from ..results.importers import fio as fio_import
from .workloads import fio
from ..errors import UserError


def read_hostfile(path: str) -> list:
    try:
        with open(path, encoding="utf-8") as f:
            hosts = [line.split("#", 1)[0].strip() for line in f]
    except OSError as e:
        raise UserError(f"cannot read the host file: {e.strerror}", where=path, field="--clients") from None
    hosts = [h for h in hosts if h]
    if not hosts:
        raise UserError("no hosts in the host file", where=path, field="--clients",
                        expected="one fio server address per line (host or host,port)")
    return hosts


def _client_figures(report: dict, hosts: list, direction: str) -> dict:
    """label -> metric values of each client's own jobs, summed per client."""
    out = {}
    for entry in report.get("client_stats", []):
        if entry.get("jobname") == "All clients" or not isinstance(entry.get(direction), dict):
            continue
        host = str(entry.get("hostname", ""))
        index = next((i for i, h in enumerate(hosts) if h.split(",")[0] == host), None)
        label = f"client-{index + 1}" if index is not None else f"client-{len(hosts) + len(out) + 1}"
        side = entry[direction]
        mine = out.setdefault(label, {"throughput": 0.0, "iops": 0.0})
        mine["throughput"] += float(side["bw_bytes"])
        mine["iops"] += float(side["iops"])
    return out


def _labelled(text: str, hosts: list, form: str) -> str:
    """text with each host's address, written as form ('"{}"': a JSON string), replaced by its
    label; longest first, so that 10.0.0.1 does not take a bite out of 10.0.0.12."""
    labels = {host.split(",")[0]: f"client-{i + 1}" for i, host in enumerate(hosts)}
    for address in sorted(labels, key=len, reverse=True):
        text = text.replace(form.format(address), form.format(labels[address]))
    return text


def _write_labelled(path: str, text: str, hosts: list) -> None:
    """The raw report with each client's address (fio writes it as the client's "hostname")
    replaced by its label, as a new file renamed over the old: raw output is published too."""
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write(_labelled(text, hosts, '"{}"'))
    os.replace(path + ".tmp", path)


def run_cell(run, cell, record, hosts: list, directory: str) -> None:
    """Every repetition of one fio cell on all clients at once; fills the record."""
    if cell.kind != "fio":
        record.update(status="skipped", reason="only the fio workloads run on many clients", metrics={}, raw=[])
        return
    raw_rel = os.path.join("raw", run.result["id"], resultfile.raw_dir_name(cell.key))
    os.makedirs(os.path.join(run.out, raw_rel), exist_ok=True)
    direction = fio.DIRECTION[cell.parameters["rw"]]
    hostfile = os.path.join(run.shared["dir"], "hosts.list")  # fio's host file takes no comments
    with open(hostfile, "w", encoding="utf-8") as f:
        f.write("\n".join(hosts) + "\n")
    samples, per_client, raws = {}, {}, []
    for rep in range(1, run.profile.repetitions + 1):
        run.progress.step(f"{cell.key} on {len(hosts)} clients rep {rep}/{run.profile.repetitions}")
        raw = os.path.join(raw_rel, f"rep-{rep}.json")
        job = fio.job_file(cell.workload, cell.parameters, {"directory": directory})
        jobfile = os.path.join(run.shared["dir"], f"{cell.workload}.fio")
        with open(jobfile, "w", encoding="utf-8") as f:
            f.write(job)
        try:
            tools.run(["fio", f"--client={hostfile}", "--output-format=json", f"--output={os.path.join(run.out, raw)}",
                       jobfile], cell.budget_s + 60, "fio --client")
        except RuntimeError as e:  # its message (the cell's reason) names the clients: label them
            raise RuntimeError(_labelled(str(e), hosts, "{}")) from None
        with open(os.path.join(run.out, raw), encoding="utf-8") as f:
            text = f.read()
        (total,) = [m for m in fio_import.parse(text, raw) if m.parameters["rw"] == cell.parameters["rw"]]
        for name, value in total.values.items():
            samples.setdefault(name, []).append(value)
        for label, values in _client_figures(fio_json.parse(text, raw), hosts, direction).items():
            for name, value in values.items():
                per_client.setdefault(label, {}).setdefault(name, []).append(value)
        _write_labelled(os.path.join(run.out, raw), text, hosts)
        raws.append(raw)
    units = fio_import.UNITS
    record.update(status="ok", raw=raws,
                  metrics={n: stats.summarize(v, *units[n]) for n, v in samples.items() if len(v) == len(raws)},
                  clients={label: {n: stats.summarize(v, *units[n]) for n, v in values.items()}
                           for label, values in sorted(per_client.items())})
