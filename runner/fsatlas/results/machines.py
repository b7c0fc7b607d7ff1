"""A machine's name for readers, and which machine labels share every recorded hardware fact.

A result's `system.machine` is an id (a short salted hash by default): stable, never the
hostname, and unreadable. What a reader sees beside it is a name made from the hardware the
result records ("Xeon 2 vCPU, KVM, virtio disk"): the runner proposes it into
`system.machine_name` and `fsatlas run --machine-name` replaces it; a result without one (older
files, imports) is named here from its facts, the same way. Two labels whose results record the
same hardware (HARDWARE, wherever both record a fact) may be one host under two labels, which
the site says beside each.
"""
import math
import re

from . import resultfile

NAME_CHARS = 100  # the schema's maxLength of system.machine_name

_VIRTUALIZATION = {"kvm": "KVM", "qemu": "QEMU", "xen": "Xen", "vmware": "VMware", "microsoft": "Hyper-V",
                   "oracle": "VirtualBox", "amazon": "AWS Nitro", "bochs": "Bochs", "zvm": "z/VM", "parallels": "Parallels"}
# the kernel's block device names, by the driver that names them (Documentation/admin-guide/devices.txt)
_DISKS = (("nvme", "NVMe disk"), ("vd", "virtio disk"), ("xvd", "Xen disk"), ("mmcblk", "MMC/SD card"),
          ("sd", "SCSI/SATA disk"), ("hd", "IDE disk"), ("md", "software RAID"), ("dm-", "device-mapper volume"))
# words a CPU model string carries that say nothing of the CPU
_CPU_NOISE = re.compile(r"\((R|TM|C)\)|\b(Intel|AMD|CPU|Processor|Core\(TM\)|\d+-Core|with Radeon.*)\b|@.*$", re.I)


def _disk(device: str | None, model: str | None) -> str | None:
    name = (device or "").rsplit("/", 1)[-1]
    kind = next((words for prefix, words in _DISKS if name.startswith(prefix)), name or None)
    return f"{model} ({kind})" if model and kind else (model or kind)


def cpu_words(cpu_model: str | None) -> str:
    """"Intel(R) Xeon(R) Processor" -> "Xeon"; "AMD EPYC 7B13 64-Core Processor" -> "EPYC 7B13"."""
    words = " ".join(_CPU_NOISE.sub(" ", cpu_model or "").split())
    return words or (cpu_model or "CPU not recorded").strip()


# what an importer writes where the tool's output names no value (PTS: virtualization "not recorded")
_UNRECORDED = {"", "not recorded", resultfile.NOT_RECORDED, "unknown", "n/a", "?"}


def _fact(facts: dict, key: str):
    """facts[key], or None where it is absent or only says it was not recorded."""
    value = facts.get(key)
    return None if value is None or (isinstance(value, str) and value.strip().lower() in _UNRECORDED) else value


def propose(system: dict, target: dict) -> str:
    """A name from the hardware a result records: CPU, CPU count (vCPU under a hypervisor),
    hypervisor, and the disk under the measured filesystem (its model where recorded, else
    the kind its kernel name gives). A fact not recorded is left out, never named "not
    recorded"; with none recorded, the name is the machine's label."""
    virt = str(_fact(system, "virtualization") or "none").lower()
    guest = virt != "none"
    count, cpu = _fact(system, "cpu_count"), _fact(system, "cpu_model")
    parts = [" ".join(filter(None, (cpu_words(cpu) if cpu else "",
                                    f"{count} {'vCPU' if guest else 'CPU'}" if count else "")))]
    if guest:
        parts.append(_VIRTUALIZATION.get(virt, virt))
    parts.append(_disk(_fact(target, "device") or _fact(target, "backing_device"),
                       _fact(target, "device_model") or _fact(target, "backing_device_model")))
    return ", ".join(filter(None, parts))[:NAME_CHARS] or str(system.get("machine") or "")


def name(result: dict) -> str:
    """The name a reader sees: the one the result records, else the one proposed from its facts."""
    return result["system"].get("machine_name") or propose(result["system"], result["target"])


def shown(name_: str, label: str, word: str = "") -> str:
    """A machine as readers see it: its name, its label after it in brackets (word before the
    label: "label " in the system table), or the label alone where it is its name (nothing
    recorded to name it by). The charts' specs and partials/results/machine.html say the same."""
    return label if name_ == label else f"{name_} ({word}{label})"


def memory_gib(memory_bytes: int) -> int:
    """Memory in whole GiB, rounded up, as a machine's identity takes it: what a kernel reserves
    moves MemTotal by a few MiB between boots, always below the installed size; rounding to the
    nearest split a 16 GiB machine reporting 15.5 GiB in two (#65 round 54)."""
    return math.ceil(memory_bytes / 2**30)


def hardware(result: dict) -> dict:
    """The hardware facts a result records (None where it records none), as the site compares
    labels: memory in whole GiB (what a kernel reserves moves it by a few MiB between boots)."""
    s, t = result["system"], result["target"]
    memory = s.get("memory_bytes")
    return {"cpu": s.get("cpu_model"), "cpus": s.get("cpu_count"), "arch": s.get("arch"),
            "memory_gib": memory_gib(memory) if memory else None, "virtualization": s.get("virtualization"),
            "device": t.get("device") or t.get("backing_device"),
            "rotational": t.get("rotational", t.get("backing_rotational")),
            "device_model": t.get("device_model") or t.get("backing_device_model")}


def alike(x: dict, y: dict) -> bool:
    """Whether two hardware() records agree on every fact both record, CPU and memory among them."""
    if None in (x["cpu"], y["cpu"], x["memory_gib"], y["memory_gib"]):
        return False
    return all(x[k] == y[k] for k in x if x[k] is not None and y[k] is not None)


def kept_hardware(kinds: dict):
    """Of {hardware: [(created, name) of each result under one label recording it]}, the hardware
    that keeps the label: the one most results record, then the earliest (created, name). The one
    rule of migrate's relabelling and the site's list of labels (#65 round 52 and 54)."""
    return min(kinds, key=lambda k: (-len(kinds[k]), min(kinds[k])))


def twins(records: dict) -> dict:
    """label -> the other labels some result of which records hardware alike one of its own
    (records: label -> its results' distinct hardware() records), sorted; labels with none
    are left out."""
    buckets: dict[tuple, set] = {}  # alike() needs CPU and memory equal: only labels of one bucket are compared
    for label, found in records.items():
        for x in found:
            buckets.setdefault((x["cpu"], x["memory_gib"]), set()).add(label)
    out: dict[str, set] = {}
    for (cpu, memory), members in buckets.items():
        members = sorted(members)
        for i, a in enumerate(members):
            for b in members[i + 1:]:
                if any(alike(x, y) for x in records[a] for y in records[b]):
                    out.setdefault(a, set()).add(b)
                    out.setdefault(b, set()).add(a)
    return {label: sorted(others) for label, others in out.items()}


def storage_line(t: dict) -> str:
    """What holds the filesystems measured, in words: a device measured, its model, name and
    whether it is rotational; or the image's (or directory's) host filesystem with its mount
    options and the disk under it ("loop-image on ext4 (rw,relatime) on vda (rotational)")."""
    if t.get("kind") == "block-device":  # the device measured itself: its model, name and kind
        disk = ", ".join(filter(None, (t.get("device"), {True: "rotational", False: "not rotational"}.get(t.get("rotational")))))
        return (t.get("device_model") or "block device") + (f" ({disk})" if disk else "")
    # the image or directory, its host filesystem and the disk under it: a disk named by its model
    # alone (a PTS import's "Disk") is the last of the three, never in place of the first two
    storage = " on ".join(filter(None, (t.get("kind"), t.get("backing_filesystem"))))
    if t.get("backing_mount_options"):
        storage += f" ({t['backing_mount_options']})"
    if t.get("backing_device"):
        disk = ", ".join(filter(None, (t.get("backing_device_model"),
                                       {True: "rotational", False: "not rotational"}.get(t.get("backing_rotational")))))
        storage += f" on {t['backing_device']}" + (f" ({disk})" if disk else "")
    elif t.get("device_model"):
        storage = " on ".join(filter(None, (storage, t["device_model"])))
    return storage


def memory_text(memory_bytes: int) -> str:
    """Memory as every page prints it (the system line, the result page's system table, reports):
    GiB to one decimal. "24 GiB" in one place and "23.5 GiB" in another were one machine (issue 62)."""
    return f"{memory_bytes / 2**30:,.1f} GiB"


def system_line(result: dict) -> str:
    """The hardware behind a result's figures in one line: CPU, memory, what holds the image or
    directory measured (its backing filesystem or device), kernel, hypervisor."""
    system, target = result["system"], result["target"]
    storage = storage_line(target)
    if not resultfile.system_recorded(system):
        return f"{resultfile.NOT_RECORDED} (the imported output names no CPU, memory or kernel), storage: " \
               f"{storage or 'not recorded'}"
    cpus = f" ({system['cpu_count']} CPUs)" if system.get("cpu_count") else ""
    memory = f", {memory_text(system['memory_bytes'])}" if system.get("memory_bytes") else ""
    virt = _fact(system, "virtualization") or "virtualization not recorded"  # not ", not recorded" (a PTS import)
    return f"{system.get('cpu_model', 'CPU not recorded')}{cpus}{memory}, storage: {storage or 'not recorded'}, " \
           f"Linux {system.get('kernel', '?')}" + (f", {virt}" if virt != "none" else "")


_FACTS_FROM = {"run": "the runner, on the machine it ran on", "tool": "the imported tool's own output",
               "file": "the importer's --system file", "this-machine": "the importing machine (--this-machine)"}


def system_facts(result: dict) -> list:
    """The system table of a result, as [term, text] pairs: the machine (its name, its label), CPU,
    memory, kernel, OS, virtualization and container, where the facts come from, the storage
    device (as hardware() reads it: the target's, else its backing's), the backing filesystem and
    the target. The one wording of them: the result page's table (layouts/results/single.html)
    and the explorer's details (static/js/explorer.js) both show these pairs."""
    s, t, hw = result["system"], result["target"], hardware(result)
    facts = [["Machine", shown(name(result), s["machine"], "label ")]]
    if not resultfile.system_recorded(s):
        facts.append(["System", "system not recorded: the imported output names no CPU, memory or kernel, "
                                "and the import was given no --system file"])
    else:
        container = s.get("container")
        facts += [["CPU", f"{s['cpu_model']} ({s['cpu_count']} CPUs" + (f", {s['arch']})" if s.get("arch") else ")")],
                  ["Memory", memory_text(s["memory_bytes"])], ["Kernel", s["kernel"]], ["OS", s["os"]],
                  ["Virtualization", s["virtualization"] + (f", container {container}" if container and container != "none" else "")]]
    if s.get("recorded") and s["recorded"] != "none":
        facts.append(["System facts from", _FACTS_FROM.get(s["recorded"], s["recorded"])])
    rotational = {True: "rotational", False: "not rotational"}.get(hw["rotational"], "rotational or not: not recorded")
    facts.append(["Storage device", f"{hw['device'] or 'not recorded'}, {rotational}, model {hw['device_model'] or 'not reported'}"])
    if t["kind"] != "block-device":
        facts.append(["Backing filesystem", (t.get("backing_filesystem") or "not recorded")
                      + (f" ({t['backing_mount_options']})" if t.get("backing_mount_options") else "")])
    target = t["kind"] + (f", image of {round(t['image_bytes'] / 1048576):,} MiB" if t.get("image_bytes") else "")
    if "loop_direct_io" in t:
        target += f", loop direct I/O {'on' if t['loop_direct_io'] else 'off'}"
    return facts + [["Target", target]]
