"""Machine names for readers and labels that share every recorded hardware fact (results/machines.py, #62)."""
import json
import subprocess
import sys
import types
from pathlib import Path

from hypothesis import given, settings, strategies as st

from fsatlas.results import machines
from fsatlas.run import execution
from fsatlas.results.resultfile import readable  # a result file in the read form (schema 2 stores no summaries)

REPO = Path(__file__).resolve().parents[2]
RESULTS = sorted((REPO / "data" / "results").glob("*.json"))


def _load(name):
    return readable(json.loads(next(p for p in RESULTS if name in p.name).read_text()))


def test_the_newest_committed_run_is_named_from_its_hardware():
    """The issue's example: a 2-CPU Xeon KVM guest whose image sits on vda."""
    assert machines.name(_load("143616Z")) == "Xeon 2 vCPU, KVM, virtio disk"
    # beside it: no storage recorded, bare metal, a device's model, a block device measured itself
    assert machines.name(_load("030418Z")) == "Xeon 2 vCPU, KVM"
    metal = {"cpu_model": "AMD EPYC 7B13 64-Core Processor", "cpu_count": 64, "virtualization": "none"}
    assert machines.propose(metal, {"kind": "loop-image", "backing_device": "nvme0n1"}) == "EPYC 7B13 64 CPU, NVMe disk"
    assert machines.propose(metal, {"kind": "block-device", "device": "/dev/sdb", "device_model": "WDC WD40EFRX"}) == \
        "EPYC 7B13 64 CPU, WDC WD40EFRX (SCSI/SATA disk)"
    named = dict(_load("143616Z"))
    named["system"] = {**named["system"], "machine_name": "lab box 3"}
    assert machines.name(named) == "lab box 3"


def test_the_runner_records_the_proposed_name_or_the_one_given(tmp_path):
    profile = types.SimpleNamespace(name="quick")
    target = {"kind": "loop-image", "backing_device": "vda"}
    proposed = execution.new_result(profile, "m-test", str(tmp_path), target)["system"]
    assert proposed["machine"] == "m-test" and proposed["machine_name"] == machines.propose(proposed, target)
    assert proposed["machine_name"].endswith("virtio disk")
    given_name = execution.new_result(profile, "m-test", str(tmp_path), target, "Rack 4, node 2")["system"]
    assert given_name["machine"] == "m-test" and given_name["machine_name"] == "Rack 4, node 2"


def test_a_blank_or_long_machine_name_is_refused_before_the_run(tmp_path):
    for bad in ("  ", "x" * (machines.NAME_CHARS + 1)):
        done = subprocess.run([sys.executable, "-m", "fsatlas.cli", "run", "--directory", str(tmp_path), "--machine-name",
                               bad], capture_output=True, text=True)
        assert done.returncode == 2 and "--machine-name" in done.stderr and "Traceback" not in done.stderr


def test_the_committed_labels_that_look_like_one_host_are_found():
    """m-b6d0b06748 and m-042018a7f3: the same CPU, CPU count, memory (to the GiB) and hypervisor;
    the AMD labels are alike among themselves, not with them."""
    records = {}
    for path in RESULTS:
        r = readable(json.loads(path.read_text()))
        records.setdefault(r["system"]["machine"], []).append(machines.hardware(r))
    found = machines.twins(records)
    assert "m-042018a7f3" in found["m-b6d0b06748"] and "m-05e18e6041" not in found["m-b6d0b06748"]
    assert found["m-05e18e6041"] == ["m-042018a7f3-1355f959"]


FACT = st.one_of(st.none(), st.sampled_from(["a", "b"]))


@st.composite
def hardware(draw):
    return {"cpu": draw(st.sampled_from([None, "Xeon", "EPYC"])), "cpus": draw(st.sampled_from([None, 2, 4])),
            "arch": draw(FACT), "memory_gib": draw(st.sampled_from([None, 8, 24])), "virtualization": draw(FACT),
            "device": draw(FACT), "rotational": draw(st.sampled_from([None, True, False])), "device_model": draw(FACT)}


@settings(max_examples=200)
@given(st.dictionaries(st.sampled_from(["m1", "m2", "m3", "m4"]), st.lists(hardware(), min_size=1, max_size=3), min_size=1))
def test_twins_are_every_pair_of_labels_with_results_that_agree_on_what_both_record(records):
    """Against a count by hand over every pair of results of two labels: alike where CPU and memory
    are recorded on both and every fact both record is equal (one recording a device the other
    does not is no difference; two values of one fact are)."""
    def agree(x, y):
        return x["cpu"] is not None and y["cpu"] is not None and x["memory_gib"] is not None \
            and y["memory_gib"] is not None and all(x[k] == y[k] or x[k] is None or y[k] is None for k in x)
    expected = {}
    for a in records:
        for b in records:
            if a != b and any(agree(x, y) for x in records[a] for y in records[b]):
                expected.setdefault(a, []).append(b)
    assert machines.twins(records) == {k: sorted(v) for k, v in expected.items()}


MISSING = st.sampled_from([None, "", "not recorded", "system not recorded", "unknown", "Not Recorded "])


@settings(max_examples=300)
@given(st.fixed_dictionaries({}, optional={
    "cpu_model": st.one_of(MISSING, st.sampled_from(["AMD Ryzen 9 3950X 16-Core @ 3.50GHz", "Intel(R) Xeon(R) Processor"])),
    "cpu_count": st.one_of(st.none(), st.integers(1, 256)),
    "virtualization": st.one_of(MISSING, st.sampled_from(["none", "kvm", "xen"]))}),
    st.fixed_dictionaries({"kind": st.just("directory")}, optional={
        "device_model": st.one_of(MISSING, st.just("1000GB Samsung SSD 970 EVO Plus 1TB")),
        "backing_device": st.one_of(MISSING, st.sampled_from(["vda", "nvme0n1"]))}))
def test_a_name_leaves_out_every_fact_not_recorded_and_keeps_every_one_recorded(system, target):
    """'Ryzen 9 3950X 32 vCPU, not recorded, 1000GB ...' (a PTS import's virtualization "not
    recorded"): any subset of the facts missing, in any of the ways a result says so."""
    result = {"system": {"machine": "pts-e3e28dc6f8", **system}, "target": target}
    name = machines.name(result)
    missing = {None, "", "not recorded", "system not recorded", "unknown", "Not Recorded "}
    assert "recorded" not in name.lower() and "unknown" not in name.lower() and "None" not in name, name
    assert name and not name.startswith((",", " ")) and ", ," not in name and not name.endswith((",", " ")), name
    if system.get("cpu_model") not in missing:
        assert machines.cpu_words(system["cpu_model"]) in name
    if system.get("cpu_count"):
        assert f"{system['cpu_count']} " in name + " "
    virt = system.get("virtualization")
    assert ("vCPU" in name) == (virt in ("kvm", "xen") and bool(system.get("cpu_count")))
    if virt in ("kvm", "xen"):
        assert {"kvm": "KVM", "xen": "Xen"}[virt] in name
    if target.get("device_model") not in missing:
        assert target["device_model"] in name
    elif target.get("backing_device") not in missing:
        assert {"vda": "virtio disk", "nvme0n1": "NVMe disk"}[target["backing_device"]] in name
    if not any(v not in missing for v in (*system.values(), target.get("device_model"), target.get("backing_device"))):
        assert name == "pts-e3e28dc6f8"  # nothing recorded: the machine's label


@settings(max_examples=50)
@given(st.sampled_from(RESULTS), st.sampled_from([None, "none", "docker", "lxc", "podman"]),
       st.sampled_from(["run", "tool", "file", "this-machine", "none"]))
def test_the_system_table_gives_every_system_fact_once(path, container, recorded):
    """Issue 62, third round, item 3: the system table (system_facts: the result page's and the
    explorer's details) gives the machine, CPU, memory, kernel, the container beside the
    hypervisor, and the storage under the image, each once; a system not recorded says so."""
    result = readable(json.loads(path.read_text()))
    system = dict(result["system"], recorded=recorded)
    if container:
        system["container"] = container
    result = dict(result, system=system)
    facts = machines.system_facts(result)
    terms = [term for term, _ in facts]
    assert len(terms) == len(set(terms)) and terms[0] == "Machine" and "Storage device" in terms
    text = dict(facts)
    assert text["Machine"] == f"{machines.name(result)} (label {system['machine']})"
    hw = machines.hardware(result)
    assert text["Storage device"].startswith(hw["device"] or "not recorded")
    if recorded == "none":
        assert "CPU" not in text and text["System"].startswith("system not recorded")
        return
    assert text["CPU"].startswith(system["cpu_model"]) and f"({system['cpu_count']} CPUs" in text["CPU"]
    assert text["Memory"] == machines.memory_text(system["memory_bytes"]) and text["Kernel"] == system["kernel"]
    assert text["Virtualization"].startswith(system["virtualization"])
    assert text["Virtualization"].endswith(f", container {container}") == (container not in (None, "none"))


def test_a_machine_named_by_its_label_alone_is_named_once(tmp_path):
    """An import that records no system (`unrecorded-<digest>`) has its label for a name: the
    system table and every place that shows name and label gave it twice ("unrecorded-fd0256f8
    (label unrecorded-fd0256f8)", #62 round 8). Imported here from a real dd output."""
    from fsatlas.cli import main
    assert main(["import", "dd", str(REPO / "runner" / "tests" / "fixtures" / "samples" / "dd" / "dd-9.1-english.txt"),
                 "--filesystem", "ext4", "--out", str(tmp_path)]) == 0
    (path,) = (tmp_path / "results").glob("*.json")
    result = readable(json.loads(path.read_text()))
    label = result["system"]["machine"]
    assert label.startswith("unrecorded-") and machines.name(result) == label
    assert machines.system_facts(result)[0] == ["Machine", label]
    # beside it: a named machine keeps its label beside its name
    assert machines.system_facts(_load("143616Z"))[0] == ["Machine", "Xeon 2 vCPU, KVM, virtio disk (label m-b6d0b06748)"]


@given(kind=st.sampled_from(["loop-image", "directory"]), fs=st.sampled_from([None, "ext4", "xfs"]),
       model=st.sampled_from([None, "Samsung SSD 860 EVO 500GB"]), device=st.sampled_from([None, "vda"]))
def test_the_storage_line_names_the_image_its_host_filesystem_and_the_disk_model(kind, fs, model, device):
    """Rule: the storage under the image, in words: the image or directory, its host filesystem,
    then the disk; a disk model (a PTS import's "Disk") was the line alone, in place of the
    image and its host filesystem (round 12's helper found it)."""
    target = {"kind": kind, **({"backing_filesystem": fs} if fs else {}), **({"device_model": model} if model else {}),
              **({"backing_device": device} if device else {})}
    line = machines.storage_line(target)
    assert line.startswith(kind + (f" on {fs}" if fs else ""))
    assert (device is None or f" on {device}" in line) and (model is None or device is not None or line.endswith(" on " + model))
