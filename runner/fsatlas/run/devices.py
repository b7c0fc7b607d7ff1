"""Whether a block device may be formatted, and the facts a result records about it.

A device is refused when it, one of its partitions or anything holding it (md, LVM,
device-mapper) is mounted, is swap, is held at all, or holds the running root filesystem;
and when it carries a filesystem or partition-table signature, unless --confirm-device
repeats its name. The kernel's own tables are read (/proc/self/mountinfo, /proc/swaps,
/sys/class/block), each path a parameter so tests can give a fixture tree.
"""
import os
import stat
import subprocess
from dataclasses import dataclass

from ..errors import UserError
from .leftovers import unmangle


@dataclass(frozen=True)
class Tables:
    sysfs: str = "/sys"
    mountinfo: str = "/proc/self/mountinfo"
    swaps: str = "/proc/swaps"


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read().strip()
    except OSError:
        return ""


def _block(tables: Tables, name: str) -> str:
    return os.path.join(tables.sysfs, "class", "block", name)


def _dev_number(path: str) -> str:
    """'major:minor' of a device node, '' if it is none."""
    try:
        st = os.stat(path)
    except OSError:
        return ""
    return f"{os.major(st.st_rdev)}:{os.minor(st.st_rdev)}" if stat.S_ISBLK(st.st_mode) else ""


def family(tables: Tables, name: str) -> list:
    """The device, its partitions, and everything stacked on any of them (holders, recursively)."""
    names, todo = [], [name]
    while todo:
        current = todo.pop()
        if current in names:
            continue
        names.append(current)
        base = _block(tables, current)
        try:
            entries = os.listdir(base)
        except OSError:
            entries = []
        todo += [e for e in entries if e.startswith(current) and os.path.exists(os.path.join(base, e, "partition"))]
        try:
            todo += os.listdir(os.path.join(base, "holders"))
        except OSError:
            pass
    return names


def _mounts(tables: Tables) -> list:
    """(major:minor, mount point, source) of every mount."""
    out = []
    for line in _read(tables.mountinfo).splitlines():
        fields = line.split()
        if len(fields) < 10 or "-" not in fields:
            continue
        dash = fields.index("-")
        out.append((fields[2], unmangle(fields[4]), unmangle(fields[dash + 2]) if len(fields) > dash + 2 else ""))
    return out


def _signature(device: str) -> str:
    """The filesystem or partition table blkid finds on the device, '' if none."""
    done = subprocess.run(["blkid", "-p", "-o", "export", device], capture_output=True, text=True, timeout=60)
    found = dict(line.split("=", 1) for line in done.stdout.splitlines() if "=" in line)
    return found.get("TYPE") or (f"a {found['PTTYPE']} partition table" if found.get("PTTYPE") else "")


def refusals(device: str, confirm: str | None = None, tables: Tables = Tables()) -> list:
    """Every reason not to format DEVICE; empty when it may be formatted."""
    real = os.path.realpath(device)
    if not _dev_number(real):
        raise UserError("not a block device", where=device, field="--device", expected="a block device such as /dev/sdb")
    name = os.path.basename(real)
    members = family(tables, name)
    numbers = {_read(os.path.join(_block(tables, n), "dev")): n for n in members}
    numbers.pop("", None)
    nodes = {f"/dev/{n}" for n in members} | {f"/dev/mapper/{_read(os.path.join(_block(tables, n), 'dm', 'name'))}"
                                               for n in members if n.startswith("dm-")}
    reasons = []
    for number, mountpoint, source in _mounts(tables):
        hit = numbers.get(number) or (os.path.basename(os.path.realpath(source)) if source in nodes or
                                      os.path.realpath(source) in nodes else "")
        if hit:
            what = "holds the running root filesystem" if mountpoint == "/" else f"is mounted on {mountpoint}"
            reasons.append(f"/dev/{hit} {what}")
    for line in _read(tables.swaps).splitlines()[1:]:
        swap = line.split()[0] if line.split() else ""
        if os.path.basename(os.path.realpath(swap)) in members or _dev_number(swap) in numbers:
            reasons.append(f"{swap} is in use as swap")
    for member in members:
        holders = sorted(os.listdir(os.path.join(_block(tables, member), "holders"))) \
            if os.path.isdir(os.path.join(_block(tables, member), "holders")) else []
        if holders:
            kinds = sorted({_holder_kind(tables, h) for h in holders})
            reasons.append(f"/dev/{member} is held by {', '.join(holders)} ({', '.join(kinds)}): "
                           "it is part of a RAID array, an LVM volume or a device-mapper target")
    if not reasons:
        signature = _signature(real)
        if signature and os.path.realpath(confirm or "") != real:
            reasons.append(f"it carries {signature if ' ' in signature else 'a ' + signature + ' filesystem'}; "
                           f"if its data may be destroyed, repeat its name: --confirm-device {device}")
    return reasons


def _holder_kind(tables: Tables, holder: str) -> str:
    if holder.startswith("md"):
        return "md RAID"
    uuid = _read(os.path.join(_block(tables, holder), "dm", "uuid"))
    if uuid.startswith("LVM-"):
        return "LVM"
    return "device-mapper" if holder.startswith("dm-") else "a holder"


def check(device: str, destroy: bool, confirm: str | None, tables: Tables = Tables()) -> None:
    """Raises a UserError naming the device and every reason it is refused."""
    if not destroy:
        raise UserError("formatting a device destroys its data: add --destroy-data to confirm",
                        where=device, field="--device")
    reasons = refusals(device, confirm, tables)
    if reasons:
        raise UserError("refused: " + "; ".join(reasons), where=device, field="--device")


def describe(device: str, tables: Tables = Tables()) -> dict:
    """What a result records about the device: model, size, rotational (no serial number)."""
    name = os.path.basename(os.path.realpath(device))
    base = _block(tables, name)
    disk = base if not os.path.exists(os.path.join(base, "partition")) else os.path.dirname(os.path.realpath(base))
    info = {"kind": "block-device", "device": device,
            "device_bytes": int(_read(os.path.join(base, "size")) or 0) * 512,
            "rotational": _read(os.path.join(disk, "queue", "rotational")) == "1"}
    model = _read(os.path.join(disk, "device", "model"))
    if model:
        info["device_model"] = model
    return info
