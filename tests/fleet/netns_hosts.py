"""Real hosts on this one machine: network namespaces joined to it by veth pairs, each with
its own address, running what a fleet host runs (fio --server, sshd) bound to that address
only. Nothing leaves the machine; everything is removed afterwards.

Each host gets a /24 of 10.213.0.0/16 that no interface of this machine holds, chosen under a
lock shared by every process (xdist workers, other checkouts' test runs): two sets of hosts
on one /24 make the kernel route the second set's connections into the first set's namespace,
where nothing listens (test_clients and test_fleet on two workers: "Connection refused", the
fleet's live hosts reported failed)."""
import fcntl
import ipaddress
import os
import signal
import subprocess
import time
from pathlib import Path

SUBNET = "10.213"  # /24 per namespace host: the root side is .1, the host .2
LOCK = Path("/run/lock/fsatlas-test-hosts.lock")


def sh(*argv, **kw):
    return subprocess.run([str(a) for a in argv], check=True, capture_output=True, text=True, **kw)


def subnets_in_use():
    """Third octets of the 10.213.x.0/24 networks any interface or route of this namespace holds."""
    taken = set()
    listed = sh("ip", "-4", "-o", "addr", "show").stdout + sh("ip", "-4", "route", "show").stdout
    for line in listed.splitlines():
        for word in line.split():
            try:
                net = ipaddress.ip_network(word, strict=False)
            except ValueError:
                continue
            if net.overlaps(ipaddress.ip_network(f"{SUBNET}.0.0/16")):
                if net.prefixlen < 24:  # a wider network than one host's: every /24 in it is taken
                    return set(range(256))
                taken.add(int(str(net.network_address).split(".")[2]))
    return taken


class Hosts:
    def __init__(self, count, tmp):
        self.tmp, self.procs, self.names, self.links, self.octets = tmp, [], [], [], []
        tag = os.getpid() % 10000
        LOCK.parent.mkdir(parents=True, exist_ok=True)
        with open(LOCK, "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when closed, after the addresses are on the interfaces
            free = sorted(set(range(1, 255)) - subnets_in_use())
            if len(free) < count:
                raise RuntimeError(f"fewer than {count} free /24 networks in {SUBNET}.0.0/16")
            try:
                self._make(free[:count], tag)
            except BaseException:
                self.close()
                raise

    def _make(self, octets, tag):
        for i, octet in enumerate(octets, 1):
            ns, outer, inner = f"fsatlas-{tag}-{octet}", f"fa{octet}p{tag}", f"fb{octet}p{tag}"
            sh("ip", "netns", "add", ns)
            self.names.append(ns)
            sh("ip", "link", "add", outer, "type", "veth", "peer", "name", inner)
            self.links.append(outer)
            self.octets.append(octet)
            sh("ip", "link", "set", inner, "netns", ns)
            sh("ip", "addr", "add", f"{SUBNET}.{octet}.1/24", "dev", outer)
            sh("ip", "link", "set", outer, "up")
            for cmd in (["ip", "addr", "add", f"{self.address(i)}/24", "dev", inner], ["ip", "link", "set", inner, "up"],
                        ["ip", "link", "set", "lo", "up"]):
                sh("ip", "netns", "exec", ns, *cmd)

    def address(self, i):
        return f"{SUBNET}.{self.octets[i - 1]}.2"

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
        for ns in self.names:  # what the daemons started (sshd's session processes, which an ssh
            # ControlPersist master keeps for 60 s) would keep the namespace, its veth pair and
            # its address alive after `ip netns del`
            pids = subprocess.run(["ip", "netns", "pids", ns], capture_output=True, text=True).stdout.split()
            for pid in pids:
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except ProcessLookupError:
                    pass
        for link in self.links:  # deleting one end deletes the pair, and the address goes with it
            subprocess.run(["ip", "link", "del", link], capture_output=True)
        for ns in self.names:
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
