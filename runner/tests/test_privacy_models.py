"""Privacy by place (adversarial round 74, F3): what names a hardware model (a part of a PTS
Hardware line, a result's device_model, cpu_model, any *_model) and what holds a software or
test version (PTS's <AppVersion>, a result's tool versions) is no serial number and no address:
a PTS file holding them imports unchanged, with and without --redact, and validates. A secret
written in the same places (a labeled serial, a serial in a serial's own shape, an e-mail or IP
or MAC address, a host name) is still refused, and --redact takes it and only it."""
import json
import re
import tarfile
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from fsatlas.cli import main
from fsatlas.results import privacy
from fsatlas.results.validation import validate_file
from testutil import SAMPLES

REFERENCE = SAMPLES / "pts" / "display-server-versions.xml"
MEMORY = "Memory: 2 x 16384 MB DDR4-3200MT/s F4-3200C14-16GTZR"
DISK = "Disk: 1000GB Samsung SSD 970 EVO Plus 1TB"
SERIAL_SHAPED = privacy.PATTERNS[privacy.SERIAL_UNLABELED][1]
# the parts of a PTS Hardware line that name a device (as openbenchmarking.org shows them)
PTS_PARTS = ("Processor", "Motherboard", "Chipset", "Memory", "Disk", "Graphics", "Audio", "Monitor", "Network")

# A part number's core: runs of capitals and of digits, alternating (M378A2K43DB1, WDS500G2B0A,
# 36ASF4G72PZ, KHX2666C16, HMCG94MEBRA123N, ST4000DM004, KXG50ZNV256G), no more than four
# digits in a row, or a Seagate-style round capacity (ST12000NM0008); only cores the
# unlabeled-serial pattern takes for a serial are drawn: the ones that were refused.
LETTERS = st.text("ABCDEFGHJKLMNPQRSTUVWXYZ", min_size=1, max_size=4)
DIGITS = st.text("0123456789", min_size=1, max_size=4)
RUNS = st.tuples(st.booleans(), st.lists(st.tuples(LETTERS, DIGITS), min_size=2, max_size=5)).map(
    lambda t: "".join(a + b if t[0] else b + a for a, b in t[1]))
CAPACITY = st.builds(lambda n, kind, rest: f"ST{n}000{kind}{rest}", st.integers(10, 30),
                     st.sampled_from(["NM", "VN", "DM", "NE"]), st.from_regex(r"\A[0-9][0-9A-Z]{2,3}\Z"))
# a drive family and capacity as its first run of digits, five or more (HGST HUH721212ALE604, WD
# WUH721414ALE6L4, Hitachi HDS721010CLA332: round 76)
FAMILY = st.builds(lambda a, n, b, rest: f"{a}{n}{b}{rest}", st.text("ABCDEFGHJKLMNPQRSTUVWXYZ", min_size=2, max_size=3),
                   st.integers(10_000, 9_999_999).map(str), st.text("ABCDEFGHJKLMNPQRSTUVWXYZ", min_size=2, max_size=3),
                   st.from_regex(r"\A[0-9][0-9A-Z]{1,3}\Z"))
# a family and capacity, then a letter, a digit and a letter: HGST/Hitachi Travelstar HTS721010A9E630
# (form factor and interface); a capacity, two letters and a product code: Seagate Nytro
# XS3840SE70084 (adversary 78, finding 6)
TRAVELSTAR = st.from_regex(r"\AH[A-Z]{2}[0-9]{6}[A-Z][0-9][A-Z][0-9]{3}\Z")
NYTRO = st.builds(lambda p, c, code, n: f"{p}{c}{code}{n}", st.from_regex(r"\AX[A-Z]\Z"),
                  st.sampled_from([400, 800, 960, 1600, 1920, 3200, 3840, 7680, 15360]).map(str),
                  st.from_regex(r"\A[A-Z]{2}\Z"), st.from_regex(r"\A[0-9]{5}\Z"))
CORE = st.one_of(RUNS, CAPACITY, FAMILY, TRAVELSTAR, NYTRO).filter(lambda c: SERIAL_SHAPED.fullmatch(c) is not None)
# (a dash and a machine's word, -PC, reads as a personal machine's name: no model's suffix)
DASHED = st.from_regex(r"\A-[0-9A-Z]{2,6}\Z").filter(lambda s: s not in ("-PC", "-NUC", "-IMAC", "-LAPTOP"))
SUFFIX = st.one_of(st.just(""), DASHED, st.from_regex(r"\A/[0-9]{1,2}G\Z"))
PART_NUMBER = st.builds(lambda core, suffix: core + suffix, CORE, SUFFIX)
# A vendor's or product's word, any letters: the rule names no vendor (and no word a label of the
# screen's: "Serial" before a number is a serial's label)
WORD = st.from_regex(r"\A[A-Z][A-Za-z]{2,8}\Z").filter(lambda w: not w.lower().startswith("serial"))


def _memory(token, vendor):
    return f"Memory: 2 x 16384 MB DDR4-3200MT/s {vendor} {token}"


def _disk(token, vendor, before):
    return f"Disk: 500GB {token} NVMe {vendor}" if before else f"Disk: 500GB {vendor} {token}"


def _pts_file(directory: Path, memory: str, disk: str, app_version: str | None = None) -> Path:
    text = REFERENCE.read_text()
    assert MEMORY in text and DISK in text
    text = text.replace(MEMORY, memory).replace(DISK, disk)
    if app_version is not None:
        assert "<AppVersion>3.29</AppVersion>" in text
        text = text.replace("<AppVersion>3.29</AppVersion>", f"<AppVersion>{app_version}</AppVersion>")
    path = directory / "models.xml"
    path.write_text(text)
    return path


def _import(directory: Path, capsys, source: Path, *extra):
    out = directory / ("out" + "".join(extra))
    code = main(["import", "pts", str(source), "--out", str(out), *extra])
    captured = capsys.readouterr()
    return code, out, captured.out.split(), captured.err


def _kept_and_results(out: Path, paths):
    """The results as written, each validated, and the text of every kept raw file."""
    results = []
    for path in paths:
        assert [p for p in validate_file(path) if p.severity == "error"] == [], path
        results.append(json.loads(Path(path).read_text()))
    kept = ""
    for bundle in (out / "raw").iterdir():
        with tarfile.open(bundle) as tar:
            kept += "".join(tar.extractfile(m).read().decode() for m in tar.getmembers() if m.isfile())
    return results, kept


# --- the screen itself: fast, many examples ---

@settings(max_examples=60)
@given(memory=PART_NUMBER, disk=PART_NUMBER, vendor=WORD, before=st.booleans())
def test_part_numbers_in_hardware_parts_and_model_fields_are_no_serials(memory, disk, vendor, before):
    line = f"Processor: AMD Ryzen 9 (16 Cores), {_memory(memory, vendor)}, {_disk(disk, vendor, before)}, Network: X"
    assert privacy.finding(line) is None, line
    assert privacy.raw_matches(line) == [] and privacy.redact(line) == (line, {})
    assert privacy.raw_finding(f"<System>\n    <Hardware>{line}</Hardware>\n</System>\n") is None
    model = _disk(disk, vendor, before).removeprefix("Disk: ")
    assert privacy.findings({"system": {"pts_hardware": line, "cpu_model": f"{vendor} {memory}"},
                             "target": {"device_model": model, "backing_device_model": model}}) == []
    # the place decides: the same word in a field that names no model is taken for a serial
    core = SERIAL_SHAPED.search(disk).group(0)
    assert privacy.findings({"notes": f"{vendor} {disk}"}) and privacy.finding(f"Foo: {vendor} {disk}")
    assert privacy.redact(f"Label: {core}")[0] == f"Label: {privacy.REDACTED}"


# a secret written beside a part number: what the screen calls it, and its private core (what
# --redact must take out: "192.168.1.20" of an NFS source, the serial after its label)
SECRETS = {"Serial Number: S4EWNX0N123456": ("a serial number", "S4EWNX0N123456"),
           "SN: 9XK0ABCD": ("a serial number", "9XK0ABCD"), "S/N WCC7K4ZXJ2L1": ("a serial number", "WCC7K4ZXJ2L1"),
           "S4EWNX0N123456A": ("a serial number", "S4EWNX0N123456A"),
           "WD-WCC7K4ZXJ2L1": ("a serial number", "WCC7K4ZXJ2L1"),
           "bob@example.com": ("an e-mail address", "bob@example.com"),
           "192.168.1.20:/export": ("an IPv4 address", "192.168.1.20"),
           "203.0.113.7:/export": ("an IPv4 address", "203.0.113.7"),
           "00:11:22:33:44:55": ("a MAC address", "00:11:22:33:44:55"),
           "hostname: zeus": ("a host name", "zeus"), "nas.example.lan": ("a host name", "nas.example.lan")}


@settings(max_examples=60)
@given(token=PART_NUMBER, vendor=WORD, secret=st.sampled_from(sorted(SECRETS)),
       part=st.sampled_from(PTS_PARTS))
def test_a_secret_beside_a_part_number_is_still_found_and_only_it_redacted(token, vendor, secret, part):
    line = f"{part}: {vendor} {token} + {secret}, Network: X"
    what, core = SECRETS[secret]
    assert what in privacy.finding(line), line
    assert privacy.findings({"target": {"device_model": f"{vendor} {token} {secret}"}}), secret
    kept, counts = privacy.redact(line)
    assert set(counts) == {what} and core not in kept, (line, counts)
    assert kept.startswith(f"{part}: {vendor} {token} + ") and privacy.raw_finding(kept) is None, kept


@settings(max_examples=60)
@given(quad=st.tuples(*[st.integers(0, 255)] * 4).map(lambda q: ".".join(map(str, q))))
def test_a_four_part_version_in_a_version_element_or_field_is_no_address(quad):
    element = f"    <AppVersion>{quad}</AppVersion>\n"
    address = privacy._in_private_range(quad)  # a LAN's address is one wherever it stands
    if quad.startswith("127.") or quad == "0.0.0.0":
        return  # no address anywhere (the pattern's own exceptions)
    assert (privacy.raw_finding(element) is not None) == address, element
    assert (privacy.redact(element)[0] != element) == address
    for field in ({"tool": {"pts": quad}}, {"cells": [{"imported_runs": [{"tool": quad}]}]},
                  {"system": {"client_version": quad}}):
        assert bool(privacy.findings(field)) == address, field
    assert privacy.findings({"notes": quad})  # elsewhere a bare quad is an address
    assert privacy.raw_finding(f"    <Title>{quad}</Title>\n")
    assert privacy.raw_finding(f"    <AppVersion>{quad}:8765</AppVersion>\n")  # with a port: an address


def test_the_reported_part_numbers():
    for text in ("Memory: 2 x 16384 MB DDR4-3200MT/s Samsung M378A2K43DB1-CTD",
                 "Disk: 500GB Western Digital WDS500G2B0A-00SM50", "Memory: 4 x 32 GB Micron 36ASF4G72PZ-2G9E2",
                 "Memory: Kingston KHX2666C16/8G", "Memory: HMCG94MEBRA123N", "Disk: ST4000DM004-2CV1",
                 "Disk: KXG50ZNV256G NVMe TOSHIBA", "Disk: 12TB ST12000NM0008-2H3101",
                 "Motherboard: QEMU Standard PC (i440FX + PIIX, 1996) (ABC1234567 BIOS)",
                 "Disk: 12001GB HUH721212ALE604", "Disk: 14TB WUH721414ALE6L4", "Disk: HUS724040ALE640",
                 "Disk: 1000GB HDS721010CLA332", "Disk: 8001GB HUH728080ALE600"):
        assert privacy.finding(text) is None and privacy.raw_matches(text) == [], text
    assert privacy.findings({"target": {"device_model": "ST16000NM001G-2KK103"}}) == []
    assert privacy.findings({"target": {"device_model": "HUH721212ALE604"}}) == []
    # serials whose long run of digits comes first, but longer or before one letter (round 77)
    for serial in ("PHYF8123004Y480BGN", "BTWL123456789012", "50026B7682D0E6F2"):
        assert privacy.findings({"target": {"device_model": serial}}), serial
        assert "a serial number" in privacy.finding(f"Disk: 480GB INTEL SSDSC2KB480G8 {serial}", privacy.MODEL), serial
    for text in ("Disk: Samsung SSD 970 EVO S4EWNX0N123456A", "Disk: X, Foo: M378A2K43DB1", "M378A2K43DB1"):
        assert "a serial number" in privacy.finding(text), text
    # adversary 78: Travelstar and Nytro models
    for model in ("HTS721010A9E630", "HTE721010A9E630", "HTS545050A7E380", "HTS723232A7A364", "XS3840SE70084"):
        assert privacy.finding(f"Disk: 1000GB HGST {model}") is None and privacy.findings({"device_model": model}) == []


# A serial whose first digits are followed by one letter and more digits (Intel's), or whose long
# run comes after its letters (Samsung's), is no family and capacity: refused where a model is written.
INTEL_SERIAL = st.from_regex(r"\A[A-Z]{4}[0-9]{7}[A-Z][0-9]{3}[A-Z]{3}\Z")
SAMSUNG_SERIAL = st.from_regex(r"\AS[0-9A-Z]{3}N[A-Z]0[A-Z][0-9]{6}[A-Z]\Z").filter(
    lambda s: not re.search(r"[1-9][0-9]{1,2}000[A-Z]", s))  # a round thousand reads as a capacity (ST12000NM0008)


@settings(max_examples=100)
@given(serial=st.one_of(INTEL_SERIAL, SAMSUNG_SERIAL))
def test_a_serial_beside_a_model_is_still_refused_where_a_model_is_written(serial):
    assert "a serial number" in (privacy.finding(f"Disk: 480GB INTEL SSDSC2KB480G8 {serial}") or ""), serial
    assert privacy.findings({"target": {"device_model": f"INTEL SSDSC2KB480G8 {serial}"}}), serial


# --- the import, end to end: a few examples (each imports twice and validates four results) ---

@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(memory=PART_NUMBER, disk=PART_NUMBER, vendor=WORD, before=st.booleans(),
       app_version=st.sampled_from(["3.29", "3.29.1.2", "22.12.3.5", "1.0.0.1"]))
def test_a_pts_file_with_part_numbers_and_a_four_part_version_imports_unchanged(capsys, memory, disk, vendor,
                                                                               before, app_version):
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        memory_part, disk_part = _memory(memory, vendor), _disk(disk, vendor, before)
        source = _pts_file(directory, memory_part, disk_part, app_version)
        for extra in ([], ["--redact"]):
            code, out, paths, err = _import(directory, capsys, source, *extra)
            assert code == 0, err
            results, kept = _kept_and_results(out, paths)
            assert privacy.REDACTED not in kept and f"<AppVersion>{app_version}</AppVersion>" in kept
            for result in results:
                assert result["target"]["device_model"] == disk_part.removeprefix("Disk: ")
                assert memory_part in result["system"]["pts_hardware"] and disk_part in result["system"]["pts_hardware"]
                assert "redactions" not in result


@pytest.mark.parametrize("secret", sorted(SECRETS))
def test_a_secret_beside_a_part_number_in_a_pts_file_is_refused_and_redacted(tmp_path, capsys, secret):
    memory_part = _memory("M378A2K43DB1-CTD", "Samsung")
    model = "Western Digital WDS500G2B0A-00SM50"
    source = _pts_file(tmp_path, memory_part, f"Disk: 500GB {model} + {secret}")
    what, core = SECRETS[secret]
    code, _, _, err = _import(tmp_path, capsys, source)
    assert code == 1 and what in err and "--redact replaces it" in err
    code, out, paths, err = _import(tmp_path, capsys, source, "--redact")
    assert code == 0, err
    results, kept = _kept_and_results(out, paths)
    assert core not in kept and memory_part in kept and model in kept
    for result in results:
        device = result["target"]["device_model"]
        assert device.startswith(f"500GB {model} + ") and privacy.REDACTED in device, device
        assert core not in json.dumps(result) and {r["what"] for r in result["redactions"]} == {what}


# /dev/disk/by-id names (adversary 78, finding 4): udev names a disk <bus>-<model>_<serial>. Rule:
# the part after the last underscore is the disk's serial whatever its shape (digits alone, eight
# characters), refused and replaced by --redact; the model's words before it pass, however
# serial-like (a partition's -part<n>, a USB disk's -0:0, an NVMe namespace's _1 after the serial
# are the name's own).
VENDORS = st.sampled_from(["WDC", "Samsung_SSD_970_EVO", "SanDisk", "Hitachi", "HGST", "TOSHIBA", "KINGSTON", "INTEL",
                           "Micron", "CT1000MX500SSD1", "ST4000DM004-2CV104", "SK_hynix"])
MODELS = st.builds(lambda core, suffix: core + suffix, CORE, st.one_of(st.just(""), DASHED))
SERIALS = st.one_of(st.from_regex(r"\A[0-9]{8,20}\Z"), st.from_regex(r"\A[A-Z0-9]{8}\Z"),
                    st.from_regex(r"\AWD-[A-Z0-9]{12}\Z"), st.from_regex(r"\A[A-Za-z0-9]{4,20}\Z"))
BUSES = st.sampled_from([("ata", ""), ("ata", "-part1"), ("nvme", ""), ("nvme", "_1"), ("nvme", "_1-part2"),
                         ("scsi", ""), ("usb", "-0:0"), ("usb", "-0:0-part1"), ("mmc", "")])
BY_ID_PLACES = ['        "filename" : "{}",', "dd if=/dev/zero of={} bs=1M count=64", "filename={}:/dev/sdb"]


def _by_id(bus, vendor, model, serial, after):
    return f"/dev/disk/by-id/{bus}-{vendor}_{model}_{serial}{after}"


@settings(max_examples=300)
@given(bus=BUSES, vendor=VENDORS, model=MODELS, serial=SERIALS, place=st.sampled_from(BY_ID_PLACES))
def test_a_by_id_name_s_serial_is_refused_and_redacted_and_its_model_passes(bus, vendor, model, serial, place):
    text = place.format(_by_id(bus[0], vendor, model, serial, bus[1]))
    assert privacy.finding(text) == f"looks like a serial number ({serial!r})", text
    assert privacy.raw_finding(text) == f"line 1 looks like a serial number ({serial!r})", text
    redacted, counts = privacy.redact(text)
    assert redacted == place.format(_by_id(bus[0], vendor, model, privacy.REDACTED, bus[1])), redacted
    assert counts == {"a serial number": 1} and privacy.raw_finding(redacted) is None


def test_a_disk_s_own_id_in_a_by_id_name_is_refused():
    for name, found in (("wwn-0x5000c500a1b2c3d4", "0x5000c500a1b2c3d4"), ("nvme-eui.0025388b91b1a2c3", "eui.0025388b91b1a2c3"),
                        ("scsi-35000c500a1b2c3d4-part1", "35000c500a1b2c3d4")):
        assert privacy.finding(f"of=/dev/disk/by-id/{name}") == f"looks like a serial number ({found!r})", name


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(vendor=VENDORS, model=MODELS, serial=SERIALS)
def test_a_fio_report_on_a_by_id_name_is_refused_and_redact_keeps_the_model(tmp_path_factory, capsys, vendor, model,
                                                                            serial):
    directory = tmp_path_factory.mktemp("by-id")
    report = json.loads((SAMPLES / "fio" / "two-filesystems" / "ext4-rep1.json").read_text())
    options = report["jobs"][0]["job options"]
    del options["directory"]
    options["filename"] = _by_id("ata", vendor, model, serial, "")
    source = directory / "byid.json"
    source.write_text(json.dumps(report, indent=2))
    out = directory / "out"
    assert main(["import", "fio", str(source), "--filesystem", "ext4", "--out", str(out)]) == 1
    assert f"looks like a serial number ({serial!r})" in capsys.readouterr().err
    assert main(["import", "fio", str(source), "--filesystem", "ext4", "--out", str(out), "--redact"]) == 0
    paths = capsys.readouterr().out.split()
    _, kept = _kept_and_results(out, [p for p in paths if p.endswith(".json")])
    assert _by_id("ata", vendor, model, privacy.REDACTED, "") in kept and serial not in kept.split("_")[-1]
