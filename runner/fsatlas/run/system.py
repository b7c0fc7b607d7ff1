"""System information read from the machine; each collect_* skips what the machine lacks.

Nothing that identifies the machine in clear (hostname, user, serial, MAC) is recorded:
result files are published. The default machine label is a short salted hash.
"""
import hashlib
import os
import platform
import re
import shutil
import subprocess

from .. import __version__
from . import tools


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def _command_output(argv: list[str]) -> str:
    # 120 s, not 20: fio's first start in an emulated guest under load (CI) outlasted 20 s, and the
    # result then recorded no fio version, which validate refuses (its counts' checks depend on it)
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return (done.stdout or done.stderr).strip()


def default_machine_label() -> str:
    """A stable label that does not reveal the machine: a salted hash of its machine id and of
    what identifies its hardware (CPU model, cores, memory in GiB). The machine id alone is not
    enough: cloud images and containers cloned from one image share it (two committed results,
    an Intel Xeon and an AMD EPYC, were once labelled as one machine)."""
    seed = _read("/etc/machine-id").strip() or platform.node()
    cpu, cores = collect_cpu()
    memory = round(collect_memory_bytes() / 2**30)
    return "m-" + hashlib.sha256(f"fsatlas:{seed}:{cpu}:{cores}:{memory}".encode()).hexdigest()[:10]


def collect_os() -> str:
    release = _read("/etc/os-release")
    match = re.search(r'^PRETTY_NAME="?([^"\n]*)"?', release, re.M)
    return match.group(1) if match else platform.system()


def collect_cpu() -> tuple[str, int]:
    cpuinfo = _read("/proc/cpuinfo")
    match = re.search(r"^model name\s*:\s*(.+)$", cpuinfo, re.M)
    return (match.group(1).strip() if match else platform.processor() or "unknown",
            os.cpu_count() or 1)


def collect_memory_bytes() -> int:
    match = re.search(r"^MemTotal:\s+(\d+) kB", _read("/proc/meminfo"), re.M)
    return int(match.group(1)) * 1024 if match else 0


def collect_virtualization() -> tuple[str, str]:
    """(hypervisor, container), each 'none' when absent."""
    vm = _command_output(["systemd-detect-virt", "--vm"]) or "none"
    container = _command_output(["systemd-detect-virt", "--container"]) or "none"
    if vm == "none" and " hypervisor" in _read("/proc/cpuinfo"):
        vm = "unknown-hypervisor"
    return vm.splitlines()[0], container.splitlines()[0]


def tool_version(argv: list[str]) -> str:
    """First line of a tool's version output, or '' when it is missing."""
    out = _command_output(argv)
    return out.splitlines()[0].strip() if out else ""


def collect_tools() -> dict:
    tools = {"runner": __version__}
    for name, argv in {
        "fio": ["fio", "--version"],
        "e2fsprogs": ["mke2fs", "-V"],
        "xfsprogs": ["mkfs.xfs", "-V"],
        "btrfs-progs": ["mkfs.btrfs", "--version"],
        "util-linux": ["losetup", "--version"],
    }.items():
        version = tool_version(argv)
        if version:
            tools[name] = version
    return tools


def package_versions(commands) -> dict:
    """The Debian package and version of each command (a name or a path) found on this machine,
    as dpkg knows them, or as run/packages.txt pins it for a program make setup unpacked under
    .tools (mkfs.hfsplus): what a probe record says it ran, one entry a package."""
    packages = {}
    for command in sorted(set(commands)):
        path = shutil.which(command)
        if not path:
            continue
        pinned = tools.pinned_package(path)
        if pinned:
            packages[pinned] = tools.pinned_versions().get(pinned, "not pinned")
            continue
        real = os.path.realpath(path)
        # dpkg may know the file by its name before /usr was merged (/sbin/xfsdump for /usr/sbin/xfsdump)
        candidates = dict.fromkeys((real, path, real.removeprefix("/usr"), path.removeprefix("/usr")))
        owner = subprocess.run(["dpkg", "-S", *candidates], capture_output=True, text=True)
        name = next((line.split(":", 1)[0].split(",")[0].strip() for line in owner.stdout.splitlines() if ": /" in line), "")
        if name and name not in packages:
            version = subprocess.run(["dpkg-query", "-W", "-f=${Version}", name], capture_output=True, text=True)
            if version.returncode == 0 and version.stdout.strip():
                packages[name] = version.stdout.strip()[:200]
    return dict(sorted(packages.items())[:20])


def collect_system(machine: str | None = None) -> dict:
    cpu_model, cpu_count = collect_cpu()
    vm, container = collect_virtualization()
    return {
        "machine": machine or default_machine_label(),
        "kernel": platform.release(),
        "os": collect_os(),
        "arch": platform.machine(),
        "cpu_model": cpu_model,
        "cpu_count": cpu_count,
        "memory_bytes": collect_memory_bytes(),
        "virtualization": vm,
        "container": container,
    }
