"""A drive table pasted in a session (adversary 80, finding 6). Rule: in a table a tool prints under
a header (`lsblk -o NAME,SIZE,MODEL,SERIAL`, `nvme list`, `wmic diskdrive get Model,SerialNumber`),
the column headed SERIAL (SN, Serial Number, SerialNumber) holds serials whatever their shape or
length, and the column headed MODEL holds models whatever theirs: each serial is refused at its line
and --redact replaces it (keeping the columns' places), every model passes and is kept, and what
--redact leaves passes."""
import tarfile

from hypothesis import HealthCheck, assume, given, settings, strategies as st

from fsatlas.cli import main
from fsatlas.results import privacy
from test_privacy_models import PART_NUMBER, WORD
from testutil import SAMPLES

# serials as vendors shape them: Seagate's 8 characters, WD's with and without WD-, SanDisk's
# digits, Samsung's 15, Intel's 18
SERIALS = st.one_of(st.from_regex(r"\A[A-Z0-9]{8}\Z"), st.from_regex(r"\A(WD-)?WC[CX][0-9A-Z]{9}\Z"),
                    st.from_regex(r"\A[0-9]{12}\Z"), st.from_regex(r"\AS[0-9A-Z]{14}\Z"),
                    st.from_regex(r"\A(BT|PH)[A-Z]{2}[0-9]{6}[0-9A-Z]{8}\Z")).filter(lambda s: any(c.isdigit() for c in s))
MODELS = st.one_of(PART_NUMBER, st.tuples(WORD, PART_NUMBER).map(" ".join),
                   st.sampled_from(["ST4000DM004-2CV104", "Samsung SSD 970 EVO Plus 500GB", "WDC WDS500G2B0C-00PXH0",
                                    "INTEL SSDPEKNW010T8", "KINGSTON SA400S37240G", "QEMU HARDDISK"]))
DRIVES = st.lists(st.tuples(MODELS, SERIALS).filter(lambda d: d[1] not in d[0]), min_size=1, max_size=4, unique_by=lambda d: d[1])
COMMAND = "$ dd if=/dev/zero of=/mnt/test/f bs=1M count=64 conv=fdatasync\n"


def _lsblk(drives, squeezed):
    """lsblk -o NAME,SIZE,MODEL,SERIAL: its columns aligned (SIZE to the right), or squeezed to
    single spaces as some pastes leave them (models of one word: a squeezed row of more is no row)."""
    rows = [("NAME", "SIZE", "MODEL", "SERIAL")] + [(f"sd{chr(97 + i)}", "3.6T", model, serial)
                                                   for i, (model, serial) in enumerate(drives)]
    if squeezed:
        return "".join(" ".join((name, size, model, serial)) + "\n" for name, size, model, serial in rows)
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    return "".join(f"{name:<{widths[0]}} {size:>{widths[1]}} {model:<{widths[2]}} {serial:<{widths[3]}}".rstrip() + "\n"
                   for name, size, model, serial in rows)


def _nvme_list(drives):
    head = f"{'Node':<21} {'SN':<20} {'Model':<40} {'Namespace Usage':<36} {'Format':<16} FW Rev\n"
    dashes = " ".join("-" * n for n in (21, 20, 40, 9, 26, 16, 8)) + "\n"
    rows = "".join(f"{f'/dev/nvme{i}n1':<21} {serial:<20} {model:<40} {'1':<9} {'500.11  GB / 500.11  GB':<26} "
                   f"{'512   B +  0 B':<16} 2B2QEXM7\n" for i, (model, serial) in enumerate(drives))
    return head + dashes + rows


def _table(layout, drives):
    return _nvme_list(drives) if layout == "nvme list" else _lsblk(drives, layout == "lsblk squeezed")


@settings(max_examples=300)
@given(layout=st.sampled_from(["lsblk", "lsblk squeezed", "nvme list"]), drives=DRIVES)
def test_a_table_s_serials_are_found_and_its_models_pass(layout, drives):
    assume(layout != "lsblk squeezed" or not any(" " in model for model, _ in drives))
    text = _table(layout, drives) + COMMAND + "64+0 records in\n"
    found = privacy.raw_finding(text) or ""
    for model, serial in drives:
        assert f"a serial number ({serial!r})" in found, (text, found)
    redacted = privacy.redact(text)[0]
    rows = redacted.splitlines()[2 if layout == "nvme list" else 1:]
    for (model, serial), row in zip(drives, rows):
        assert model in row and serial not in row.replace(model, ""), (text, redacted)
    assert redacted.endswith(COMMAND + "64+0 records in\n") and privacy.raw_finding(redacted) is None, redacted
    assert privacy.finding(redacted) is None, redacted


def test_a_header_s_words_label_no_serial():
    for text in ("$ lsblk -o NAME,MODEL,SERIAL\nNAME MODEL SERIAL\n", "Node SN Model\n"):
        assert privacy.raw_finding(text) is None and privacy.finding(text) is None, text


SETTINGS = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@SETTINGS
@given(layout=st.sampled_from(["lsblk", "lsblk squeezed", "nvme list"]), drives=DRIVES)
def test_a_dd_session_with_a_drive_table_is_refused_and_redacted(tmp_path_factory, capsys, layout, drives):
    assume(layout != "lsblk squeezed" or not any(" " in model for model, _ in drives))
    tmp = tmp_path_factory.mktemp("table")
    source = tmp / "session.txt"
    source.write_text(_table(layout, drives) + COMMAND + (SAMPLES / "dd" / "dd-9.1-english.txt").read_text())
    assert main(["import", "dd", str(source), "--filesystem", "ext4", "--out", str(tmp / "a")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"looks like a serial number ({drives[0][1]!r})" in err, err
    assert main(["import", "dd", str(source), "--filesystem", "ext4", "--out", str(tmp / "b"), "--redact"]) == 0
    capsys.readouterr()
    (raw,) = (tmp / "b" / "raw").iterdir()
    with tarfile.open(raw) as tar:
        kept = "".join(tar.extractfile(m).read().decode() for m in tar.getmembers() if m.isfile())
    assert all(serial not in kept for _, serial in drives) and privacy.REDACTED in kept, kept
