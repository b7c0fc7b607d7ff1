"""Real hosts on this one machine: network namespaces joined to it by veth pairs, each with
its own address, running what a fleet host runs (fio --server, sshd) bound to that address
only. Nothing leaves the machine; everything is removed afterwards."""
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

SUBNET = "10.213"  # /24 per namespace host: the root side is .1, the host .2


def sh(*argv, **kw):
    return subprocess.run([str(a) for a in argv], check=True, capture_output=True, text=True, **kw)


class Hosts:
    def __init__(self, count, tmp):
        self.tmp, self.procs, self.names = tmp, [], []
        tag = os.getpid() % 10000
        for i in range(1, count + 1):
            ns, outer, inner = f"fsatlas-{tag}-{i}", f"fa{tag}h{i}", f"fb{tag}h{i}"
            sh("ip", "netns", "add", ns)
            self.names.append(ns)
            sh("ip", "link", "add", outer, "type", "veth", "peer", "name", inner)
            sh("ip", "link", "set", inner, "netns", ns)
            sh("ip", "addr", "add", f"{SUBNET}.{i}.1/24", "dev", outer)
            sh("ip", "link", "set", outer, "up")
            for cmd in (["ip", "addr", "add", f"{SUBNET}.{i}.2/24", "dev", inner], ["ip", "link", "set", inner, "up"],
                        ["ip", "link", "set", "lo", "up"]):
                sh("ip", "netns", "exec", ns, *cmd)

    def address(self, i):
        return f"{SUBNET}.{i}.2"

    def start(self, i, argv, ready_port):
        proc = subprocess.Popen(["ip", "netns", "exec", self.names[i - 1], *map(str, argv)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.procs.append(proc)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            listening = subprocess.run(["ip", "netns", "exec", self.names[i - 1], "ss", "-Htln"],
                                       capture_output=True, text=True).stdout
            if f"{self.address(i)}:{ready_port}" in listening:
                return proc
            if proc.poll() is not None:
                raise RuntimeError(f"{argv[0]} in {self.names[i - 1]} exited: {proc.stderr.read()}")
            time.sleep(0.1)
        raise RuntimeError(f"{argv[0]} in {self.names[i - 1]} never listened on {ready_port}")

    def close(self):
        for proc in self.procs:
            proc.kill()
            proc.wait()
        for ns in self.names:  # deleting the namespace deletes its end of the veth pair, and so both
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)


@pytest.fixture
def hosts(tmp_path):
    made = []

    def make(count):
        made.append(Hosts(count, tmp_path))
        return made[-1]

    yield make
    for h in made:
        h.close()


def pytest_collection_modifyitems(config, items):
    if os.geteuid() != 0 or not shutil.which("ip"):
        skip = pytest.mark.skip(reason="network namespaces need root and iproute2")
        for item in items:
            if "fleet" in str(item.fspath):
                item.add_marker(skip)
