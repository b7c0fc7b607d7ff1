"""What a repetition really asked of the device and what else the host was doing meanwhile,
read around each repetition and kept in its cell:

- device_io: the loop device's requests (Documentation/block/stat.rst: read and write
  requests and sectors, and since Linux 5.5 flush requests, fields 1, 3, 5, 7 and 16 of
  /sys/block/<dev>/stat), so a claim about barriers, commits or access times is judged on
  what the workload did, not on what its definition says;
- host: contention (Documentation/filesystems/proc.rst, /proc/stat and /proc/loadavg): the
  share of the CPUs stolen by the hypervisor and idle waiting for I/O, the load average at
  the end, and the CPU time other processes used beside the repetition's own and its
  helpers' (the FUSE daemon serving the mount, the kernel threads serving the loop device:
  their work is the workload's); results/contention judges it.
"""
import os
import re
import resource
import time

IO_FIELDS = {"reads": 0, "read_sectors": 2, "writes": 4, "write_sectors": 6, "flushes": 15}  # 0-based


def device_stat(device: str | None) -> dict | None:
    """The counters of a block device (/dev/loop3 -> /sys/block/loop3/stat), or None."""
    if not device:
        return None
    try:
        with open(f"/sys/class/block/{os.path.basename(device)}/stat", encoding="ascii") as f:
            fields = [int(v) for v in f.read().split()]
    except (OSError, ValueError):
        return None
    return {name: fields[i] if i < len(fields) else 0 for name, i in IO_FIELDS.items()}


def _cpu_jiffies() -> list[int] | None:
    try:
        with open("/proc/stat", encoding="ascii") as f:
            first = f.readline().split()
    except OSError:
        return None
    return [int(v) for v in first[1:9]]  # user nice system idle iowait irq softirq steal


def _own_cpu_seconds() -> float:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


PF_KTHREAD = 0x00200000  # include/linux/sched.h: the flag (field 9 of /proc/<pid>/stat) of a kernel thread
_DAEMONS: dict[str, set[int]] = {}  # device -> the user processes its last mount started (filesystems.mount)


def _stat_fields(pid) -> list[str]:
    """/proc/<pid>/stat's fields from the third (state) on: the name before them may hold spaces."""
    with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as f:
        return f.read().rsplit(")", 1)[1].split()


def kernel_thread(pid) -> bool:
    try:
        return bool(int(_stat_fields(pid)[6]) & PF_KTHREAD)
    except (OSError, IndexError, ValueError):
        return False


def device_users(device: str) -> set[int]:
    """The user processes (no kernel thread) whose command line names DEVICE."""
    found = set()
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit() or kernel_thread(entry.name):
            continue
        try:
            with open(f"/proc/{entry.name}/cmdline", "rb") as f:
                args = f.read().split(b"\0")
        except OSError:
            continue  # gone meanwhile
        if any(a == device.encode() for a in args[1:]):
            found.add(int(entry.name))
    return found


def mounted(device: str, before: set[int]) -> None:
    """Called by filesystems.mount once the mount returned: the processes naming DEVICE that were
    not there before it (BEFORE: device_users then) are the daemon that mount started and left
    running (ntfs-3g /dev/loop3 /mnt), the only user processes counted as the device's helpers."""
    _DAEMONS[device] = device_users(device) - before


def helper_pids(device: str | None) -> set[int]:
    """The processes whose CPU time is the workload's though not fsatlas's children: the kernel
    threads named after the device (loop3, its workqueue's kworker/u8:1+loop3, jbd2/loop3-8,
    xfs-cil/loop3, the writeback worker kworker/u8:2+flush-7:3) and the FUSE daemon the run's
    own mount started (mounted()); no other process, whatever its command line names (a
    reader of /dev/loop3 elsewhere is contention). A shared kernel worker shows the device in
    its name only while it serves it: Meter counts those named so when the repetition begins."""
    if not device:
        return set()
    name = os.path.basename(device)
    try:
        rdev = os.stat(device).st_rdev
        names = [re.escape(name), re.escape(f"flush-{os.major(rdev)}:{os.minor(rdev)}")]  # its writeback worker
    except OSError:
        names = [re.escape(name)]
    pattern = re.compile(rf"(^|[^a-z0-9])({'|'.join(names)})($|[^0-9])")
    found = {pid for pid in _DAEMONS.get(device, ()) if os.path.exists(f"/proc/{pid}")}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/comm", encoding="utf-8", errors="replace") as f:
                comm = f.read().strip()
        except OSError:
            continue  # gone meanwhile
        if pattern.search(comm) and kernel_thread(entry.name):
            found.add(int(entry.name))
    return found


def _cpu_of(pids) -> dict[int, float]:
    """Each process's user and system CPU seconds (/proc/<pid>/stat fields 14 and 15)."""
    tick, out = os.sysconf("SC_CLK_TCK"), {}
    for pid in pids:
        try:
            fields = _stat_fields(pid)
            out[pid] = (int(fields[11]) + int(fields[12])) / tick
        except (OSError, IndexError, ValueError):
            continue
    return out


class Meter:
    """Read before and after one repetition: meter = Meter(device); ...; meter.done()."""

    def __init__(self, device: str | None):
        self.device = device
        self.io = device_stat(device)
        self.cpu, self.own = _cpu_jiffies(), _own_cpu_seconds()
        self.helpers = _cpu_of(helper_pids(device))
        self.began = time.monotonic()

    def done(self) -> tuple[dict | None, dict | None]:
        """(device_io, host) of the repetition; either None where this machine cannot say."""
        io_after = device_stat(self.device)
        io = {k: io_after[k] - self.io[k] for k in IO_FIELDS} if self.io and io_after else None
        cpu_after, own = _cpu_jiffies(), _own_cpu_seconds() - self.own
        seconds = time.monotonic() - self.began
        # the helpers found at the start, whose CPU before is known (one gone meanwhile is left out)
        helpers = sum(cpu - self.helpers[pid] for pid, cpu in _cpu_of(self.helpers).items())
        host = None
        if self.cpu and cpu_after:
            d = [b - a for a, b in zip(self.cpu, cpu_after)]
            total = sum(d) or 1
            tick = os.sysconf("SC_CLK_TCK")
            busy = (d[0] + d[1] + d[2] + d[5] + d[6]) / tick  # user, nice, system, irq, softirq seconds
            try:
                with open("/proc/loadavg", encoding="ascii") as f:
                    load = float(f.read().split()[0])
            except (OSError, ValueError, IndexError):
                load = None
            host = {"steal_pct": round(100 * d[7] / total, 2), "iowait_pct": round(100 * d[4] / total, 2),
                    "others_cpu_s": round(max(busy - own - helpers, 0.0), 3), "load1": load,
                    "seconds": round(seconds, 3), "helpers_cpu_s": round(max(helpers, 0.0), 3)}
        return io, host
