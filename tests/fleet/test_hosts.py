"""The namespace hosts of netns_hosts.py: sets made at the same time by several processes (xdist
workers, another checkout's run) never share a /24, nor take one this machine already holds,
and closing a set removes its addresses even while a process it started is still running."""
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from netns_hosts import SUBNET, Hosts, sh, subnets_in_use

pytestmark = pytest.mark.root
HERE = Path(__file__).resolve().parent
MAKER = f"""
import sys
sys.path.insert(0, {str(HERE)!r})
from netns_hosts import Hosts
hosts = Hosts(2, None)
print(hosts.address(1), hosts.address(2), flush=True)
sys.stdin.read()  # held until the test has every process's addresses
hosts.close()
"""


def network(address):
    return address.rsplit(".", 1)[0]


def test_sets_made_at_once_never_share_a_network(hosts):
    squat = f"fsq{os.getpid() % 10000}"  # an interface of this machine on the /24 the first set would take
    first_free = min(set(range(1, 255)) - subnets_in_use())
    sh("ip", "link", "add", squat, "type", "veth", "peer", "name", f"{squat}b")
    makers = []
    try:
        sh("ip", "addr", "add", f"{SUBNET}.{first_free}.1/24", "dev", squat)
        makers += [subprocess.Popen([sys.executable, "-c", MAKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    text=True) for _ in range(4)]
        mine = hosts(2)
        addresses = [mine.address(1), mine.address(2)]
        for maker in makers:
            line = maker.stdout.readline().split()
            assert len(line) == 2, maker.communicate()
            addresses += line
        networks = [network(a) for a in addresses]
        assert len(set(networks)) == len(networks) == 10, networks
        assert f"{SUBNET}.{first_free}" not in networks
        for maker in makers:
            maker.communicate("")
            assert maker.returncode == 0
        # closed, each maker's own links and namespaces are gone (named by its pid: netns_hosts); the
        # machine's /24s in use are no measure, as another xdist worker may take a freed one at once
        links, spaces = sh("ip", "-o", "link", "show").stdout, sh("ip", "netns", "list").stdout
        left = [m.pid for m in makers if re.search(rf"\bf[ab]\d+p{m.pid % 10000}\b", links)
                or f"fsatlas-{m.pid % 10000}-" in spaces]
        assert not left, (networks, links, spaces)
    finally:
        for maker in makers:
            if maker.poll() is None:
                maker.communicate("")  # it closes its hosts
        subprocess.run(["ip", "link", "del", squat], capture_output=True)  # and its peer


def test_close_removes_the_network_while_a_process_of_the_namespace_runs(tmp_path):
    net = Hosts(1, tmp_path)
    try:
        # stands for the sshd session an ssh ControlPersist master keeps open after the test
        stray = subprocess.Popen(["ip", "netns", "exec", net.names[0], "sleep", "600"])
        time.sleep(0.2)
    finally:
        net.close()
    assert stray.wait(timeout=10) != 0  # killed
    assert int(net.address(1).split(".")[2]) not in subnets_in_use()
    assert net.names[0] not in subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
