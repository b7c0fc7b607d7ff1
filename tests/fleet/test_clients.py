"""fsatlas run --clients: fio's client/server mode against namespace hosts running fio --server."""
import json

import pytest

from testutil import raw_files
from fsatlas.cli import main
from fsatlas.results.validation import validate_file
from fsatlas.results.resultfile import readable

pytestmark = pytest.mark.root
PORT = 8765


def test_many_clients_write_one_shared_directory(hosts, tmp_path, capsys):
    net = hosts(2)
    for i in (1, 2):
        net.start(i, ["fio", f"--server={net.address(i)},{PORT}"], PORT)
    hostfile = tmp_path / "clients.list"
    hostfile.write_text(f"# fio servers\n{net.address(1)},{PORT}\n{net.address(2)},{PORT}\n")
    shared = tmp_path / "shared"  # stands for the NFS export every client mounts
    shared.mkdir()
    out = tmp_path / "out"
    assert main(["run", "--profile", "tiny", "--clients", str(hostfile), "--directory", str(shared),
                 "--shared-filesystem", "nfs", "--workload", "seq-write,rand-read-4k,create-files",
                 "--machine", "two-clients", "--out", str(out)]) == 0
    (path,) = (out / "results").iterdir()
    assert [p for p in validate_file(str(path)) if p.severity == "error"] == []
    result = readable(json.loads(path.read_text()))  # the read form: raw references listed (schema 2 stores a count)
    assert result["target"] == {"kind": "directory", "shared_filesystem": "nfs", "clients": 2, "caches_dropped": False}
    cells = {c["workload"]: c for c in result["cells"]}
    assert cells["create-files"]["status"] == "skipped" and "fio" in cells["create-files"]["reason"]
    for workload in ("seq-write", "rand-read-4k"):
        cell = cells[workload]
        assert cell["status"] == "ok", cell.get("reason")
        assert cell["filesystem"] == "nfs" and len(cell["raw"]) == 3
        assert sorted(cell["clients"]) == ["client-1", "client-2"]
        for rep, raw in enumerate(cell["raw"]):
            report = json.loads(raw_files(out, result)[raw])
            total = next(j for j in report["client_stats"] if j["jobname"] == "All clients")
            side = "write" if workload == "seq-write" else "read"
            # the cell's sample is fio's own sum over the clients, counted once
            assert cell["metrics"]["throughput"]["samples"][rep] == total[side]["bw_bytes"]
            members = [j for j in report["client_stats"] if j["jobname"] != "All clients"]
            assert sum(j[side]["io_bytes"] for j in members) == total[side]["io_bytes"]
            for label in ("client-1", "client-2"):  # fio's "hostname": the address, replaced by the label
                (own,) = [j for j in members if j["hostname"] == label]
                assert cell["clients"][label]["throughput"]["samples"][rep] == own[side]["bw_bytes"]
    assert "10.213" not in path.read_text()  # the clients' addresses are not published
    assert not [raw for raw in (out / "raw").rglob("*.json") if "10.213" in raw.read_text()]
