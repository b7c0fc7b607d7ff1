"""Privacy without false alarms (issue 61, item 5): a version number is no address, decided by
context (privacy._version_number); text is NFKC-folded before it is scanned; PTS's <User> is
found and replaced in any spelling, in import and in validate alike; --redact also replaces the
system fields a PTS import fills, and the error suggests --redact only where it would help."""
import json
import tarfile

import pytest
from hypothesis import given, settings, strategies as st

from fsatlas.cli import main
from fsatlas.results import privacy
from fsatlas.results.validation import validate_file
from testutil import SAMPLES, edit_member

REFERENCE = SAMPLES / "pts" / "display-server-versions.xml"
OCTET = st.integers(0, 255)
QUAD = st.tuples(OCTET, OCTET, OCTET, OCTET).map(lambda q: ".".join(map(str, q)))
ADDRESS = QUAD.filter(lambda q: not q.startswith("127.") and q != "0.0.0.0")  # the pattern's own exceptions


def _ipv4(text: str) -> bool:
    found = privacy.finding(text)
    in_raw = any(what == "an IPv4 address" for _, _, what, _ in privacy.raw_matches(text))
    assert bool(found and "an IPv4 address" in found) == in_raw, text  # result fields and raw output agree
    return in_raw


# Where real tools print an address: ip addr, sshd, resolv.conf, a URL, fio's client, ping,
# mount's NFS source, a key=value, a sentence; and the two version contexts it must not take for one.
ADDRESS_CONTEXTS = ["inet {}/24 brd 10.0.0.255", "Accepted publickey for root from {} port 22 ssh2", "nameserver {}",
                    "http://{}/results", "<{}> fio-3.33", "PING {} 56(84) bytes", "Connecting to {}:8765",
                    "addr={}", "server {}", "NFS Server {}", "{}", "host: {}", "X Server {}:6000", "Mesa {}/16"]


@settings(max_examples=200)
@given(ip=ADDRESS, context=st.sampled_from(ADDRESS_CONTEXTS))
def test_a_real_address_in_an_address_context_is_found(ip, context):
    assert _ipv4(context.format(ip))


# Any word before an address proves nothing (ip's "eth0", /etc/hosts' "zeus", "NFS-Server"):
# an address is found after every word but a known product's name or a software field's label,
# zero-padded (192.168.001.010) or not.
PADDED = st.tuples(*[st.tuples(OCTET, st.booleans())] * 4).map(
    lambda q: ".".join(f"{o:03d}" if pad else str(o) for o, pad in q)).filter(
    lambda q: not q.startswith(("127.", "0.", "00.", "000.")))
WORD = st.from_regex(r"\A[A-Za-z][A-Za-z0-9+_-]{0,15}\Z").filter(
    lambda w: w.lower() not in privacy.VERSION_FIELDS and not privacy._PRODUCT_BEFORE.search(w + " ")
    and w.lower().rsplit("-", 1)[-1].rstrip("+") not in privacy.VERSION_WORDS)


@settings(max_examples=300)
@given(ip=PADDED, word=WORD, form=st.sampled_from(["{w} {v}", "{w}: {v}", "{w}={v}", "{v}-{w}", "({w} {v})", "X {w} {v}"]))
def test_an_address_after_any_other_word_is_found(ip, word, form):
    assert _ipv4(form.format(w=word, v=ip))


PRIVATE = st.sampled_from(["10.{}.{}.{}", "172.{}.{}.{}", "192.168.{}.{}", "169.254.{}.{}", "100.{}.{}.{}"]).flatmap(
    lambda f: st.tuples(OCTET, OCTET, OCTET).map(lambda o: f.format(*o))).filter(privacy._in_private_range)
PRODUCT = st.sampled_from(privacy.KNOWN_PRODUCTS)
VERSION_FORMS = ["{p} {v}", "OpenGL: 4.6 {p} {v}", "Display Server: {p} {v}", "Kernel: {v}", "OpenGL: {v}",
                 "Display Driver: {p} {v}, OpenGL: 4.6"]


@settings(max_examples=200)
@given(ip=PRIVATE, product=PRODUCT, form=st.sampled_from(VERSION_FORMS))
def test_a_private_address_is_found_even_in_a_version_context(ip, product, form):
    assert _ipv4(form.format(p=product, v=ip))


# The positive version contexts: a known product's name right before, or a software field's value.
@settings(max_examples=300)
@given(version=QUAD.filter(lambda q: not privacy._in_private_range(q)), product=PRODUCT,
       form=st.sampled_from(VERSION_FORMS))
def test_a_version_number_in_a_version_context_is_no_address(version, product, form):
    assert not _ipv4(form.format(p=product, v=version))


def test_the_named_examples_and_the_ones_beside_them():
    for text in ("X Server 1.21.1.11", "Mesa 24.0.5.1", "Display Server: X Server 1.21.1.11, OpenGL: 4.6 Mesa 24.0.5.1",
                 "X.Org X Server 1.21.1.11", "xorg-server 1.21.1.11", "Display Driver: modesetting 1.21.1.11"):
        assert not _ipv4(text), text
    for text in ("X Server 1.21.1.11:0", "via 1.21.1.11", "Mesa 24.0.5.1/24", "to 24.0.5.1", "(1.21.1.11)",
                 "eth0 192.168.1.5", "zeus 10.0.0.1", "NFS-Server 10.0.0.1", "X Server 192.168.1.20",
                 "192.168.001.010", "Kernel: 10.0.0.1", "Mesa 192.168.1.5", "10.0.0.1-eth0", "v10.0.0.1"):
        assert _ipv4(text), text


FULLWIDTH = str.maketrans({chr(c): chr(c + 0xFEE0) for c in range(0x21, 0x7F)})


@pytest.mark.parametrize("plain", ["/home/alice/bench", "alice@example.com", "inet 192.168.1.5/24",
                                   "serial: S4EWNX0N123456A", "alice-laptop"])
def test_fullwidth_text_is_folded_before_it_is_scanned(plain):
    wide = plain.translate(FULLWIDTH)
    assert wide != plain and privacy.finding(plain)
    assert privacy.finding(wide) and privacy.raw_finding(wide)
    redacted, counts = privacy.redact("x " + wide + " y")
    assert counts and privacy.raw_finding(redacted) is None


USER_SPELLINGS = ["<User>bob</User>", "<User >bob</User >", "<user>bob</user>", "<USER>bob</USER>",
                  '<User id="1">bob</User>', "<User><![CDATA[bob]]></User>", "<User>&#98;ob</User>",
                  "<User>b<!-- -->ob</User>", "<pts:User>bob</pts:User>", "<User>\n  bob\n</User>"]


@pytest.mark.parametrize("spelling", USER_SPELLINGS)
def test_a_user_element_in_any_spelling_is_found_and_replaced(spelling):
    text = f"<PhoronixTestSuite><System>{spelling}</System></PhoronixTestSuite>"
    assert "user name in <User>" in privacy.raw_finding(text)
    kept = privacy.redact_users(text)
    assert "bob" not in kept and privacy.raw_finding(kept) is None
    for passes in ("<User>redacted</User>", "<User></User>", "<User/>", "<Username>x</Username>"):
        assert privacy.raw_finding(f"<System>{passes}</System>") is None


def _import(tmp_path, capsys, source, *extra):
    out = tmp_path / "out"
    code = main(["import", "pts", str(source), "--out", str(out), *extra])
    captured = capsys.readouterr()
    return code, out, captured.out.split(), captured.err


def test_the_reference_file_imports_and_validates_without_redact(tmp_path, capsys):
    code, out, paths, err = _import(tmp_path, capsys, REFERENCE)
    assert code == 0, err
    for path in paths:
        assert [p for p in validate_file(path) if p.severity == "error"] == []
        assert "X Server 1.21.1.11" in json.loads(open(path).read())["system"]["pts_software"]


def test_validate_finds_a_user_name_put_back_into_the_kept_file(tmp_path, capsys):
    code, out, paths, _ = _import(tmp_path, capsys, REFERENCE)
    result = json.loads(open(paths[0]).read())
    edit_member(out, result["id"], result["cells"][0]["raw"][0],
                lambda old: old.replace(b"<User>redacted</User>", b"<User >&#98;ob</User >"))
    errors = [p for p in validate_file(paths[0]) if p.severity == "error"]
    assert errors and "user name in <User>" in errors[0].message


def test_redact_replaces_the_system_lines_and_is_suggested_only_where_it_helps(tmp_path, capsys):
    source = tmp_path / "private.xml"
    source.write_text(REFERENCE.read_text().replace(
        "Network: Realtek RTL8111/8168/8411<", "Network: Realtek at 192.168.1.20, Host: alice-laptop.example.lan<"))
    code, out, _, err = _import(tmp_path, capsys, source)
    assert code == 1 and err.count("\n") == 1 and "--redact replaces it" in err
    code, out, paths, err = _import(tmp_path, capsys, source, "--redact")
    assert code == 0, err
    for path in paths:
        assert [p for p in validate_file(path) if p.severity == "error"] == []
        result = json.loads(open(path).read())
        assert "192.168.1.20" not in json.dumps(result) and "alice" not in json.dumps(result)
        assert {r["what"] for r in result["redactions"]} >= {"an IPv4 address", "a host name"}
    # a private system fact given by --system: --redact does not replace it, and is not suggested
    system = tmp_path / "system.yaml"
    system.write_text("system: {kernel: 6.1.0, os: Debian 12, cpu_model: alice-laptop, cpu_count: 4, "
                      "memory_bytes: 1, virtualization: none}\n")
    log = tmp_path / "dd.txt"
    log.write_text("640000 bytes (640 kB, 625 KiB) copied, 0.5 s, 1.3 MB/s\n")
    for extra in ([], ["--redact"]):
        assert main(["import", "dd", str(log), "--filesystem", "ext4", "--system", str(system),
                     "--out", str(tmp_path / "o"), *extra]) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "/system/cpu_model" in err and "--redact replaces" not in err
        assert "--redact does not change it" in err


def test_many_or_unclosed_user_elements_are_read_once():
    """Linear in the text: a million unclosed <user> tags are one element running to the end;
    a million empty ones are refused after MAX_USER_ELEMENTS, not all read."""
    unclosed = "<user>" * 1_000_000
    assert privacy.user_findings(unclosed) == [(0, unclosed[6:])]
    assert privacy.redact_users(unclosed) == "<user>redacted</user>"
    empty = "<User/>" * (privacy.MAX_USER_ELEMENTS + 5)
    assert privacy.user_findings(empty)[-1][1].startswith("more than 10,000 <User> elements")
    assert privacy.user_findings("<User/>" * 50) == []


# Issue 61, third round: the rule that tells an address from a version, over random text around
# both. A version: right after v or rel-, after one of privacy.VERSION_WORDS (a colon or = between
# or not), or right before BIOS or firmware. An address: anywhere else, a final dot after it
# included (a sentence's end, "from-198.51.100.23.", "192.168.17.4.tar").
FILLER = st.lists(st.sampled_from(["connected", "to", "mount", "nfs", "from", "the", "server", "eth0", "zeus",
                                   "sda1", "up", "(", ")", ",", ";", "42", "x86_64", "ok", "/mnt/data"]),
                  max_size=6).map(" ".join)
PUBLIC = QUAD.filter(lambda q: not privacy._in_private_range(q) and not q.startswith("127.") and q != "0.0.0.0")
ENDS = st.sampled_from(["", ".", ". ", ".tar", ".txt", ",", ")", "-run", " done."])
VERSION_AROUND = st.sampled_from(["v{v}", "V{v}", "rel-{v}", "Version: {v}", "version {v}", "BIOS Version: {v}",
                                  "Firmware {v}", "firmware={v}", "FW: {v}", "rev. {v}", "Release {v}",
                                  "({v} BIOS)", "{v} firmware", "ver {v}"])


@settings(max_examples=300)
@given(before=FILLER, ip=ADDRESS, end=ENDS, after=FILLER, joint=st.sampled_from([" ", "-", "/", "="]))
def test_an_address_in_random_text_is_found_with_or_without_a_final_dot(before, ip, end, after, joint):
    assert _ipv4(f"{before}{joint}{ip}{end} {after}")


@settings(max_examples=300)
@given(before=FILLER, version=PUBLIC, form=VERSION_AROUND, end=ENDS, after=FILLER)
def test_a_version_by_its_words_in_random_text_is_no_address(before, version, form, end, after):
    assert not _ipv4(f"{before} {form.format(v=version)}{end} {after}")


def test_issue_61_round_3_examples():
    for text in ("connected to 203.0.113.7.", "/mnt/nfs-from-198.51.100.23.", "192.168.17.4.tar", "host 10.0.0.5.",
                 "Firmware 10.0.0.5", "v 203.0.113.7", "1.2.3.4 BIOSX", "serve 1.2.3.4"):
        assert _ipv4(text), text
    for text in ("v1.2.3.4", "BIOS Version: 1.2.3.4", "(1.12.1.0 BIOS)", "Firmware 1.2.3.4", "1.2.3.4.5", "X Server 1.21.1.11."):
        assert not _ipv4(text), text
    qemu = "Motherboard: QEMU Standard PC (i440FX + PIIX, 1996) (rel-1.16.2-0-gea1b7a073390-prebuilt.qemu.org BIOS)"
    assert privacy.finding(qemu) is None and privacy.raw_matches(qemu) == []
    assert privacy.finding("rel-1.16.2-0-gea1b7a073390-zeus.lan")  # a private network's name stays one


@pytest.mark.parametrize("name", ["dd-bob@corp-mail.com.txt", "dd-from-203.0.113.9.txt", "dd-nfs-10.1.2.3-run.txt"])
def test_a_private_input_file_name_is_refused_with_redact_too(tmp_path, capsys, name):
    """The file's name becomes its raw member's (made safe: bob@corp-mail.com became
    bob_corp-mail.com and passed); --redact changes no name: refused, with what does help."""
    path = tmp_path / name
    path.write_bytes((SAMPLES / "dd" / "dd-9.1-english.txt").read_bytes())
    assert main(["import", "dd", str(path), "--filesystem", "ext4", "--redact", "--out", str(tmp_path / "o")]) == 1
    err = capsys.readouterr().err
    assert "rename the file" in err and err.count("\n") == 1 and not (tmp_path / "o" / "results").exists()


# A kernel's release (adversary 78, finding 7): WSL2's always have four parts. Rule: a release is
# no address where uname writes it (after the system's and the node's names, before the build's
# #number: `uname -a`, IOzone's "Machine =" line) whatever its parts, nor anywhere with WSL2's
# -microsoft-standard suffix; a LAN's address stays one there too, and another word after a dash
# proves nothing ("{v}-{w}" above).
RELEASE_SUFFIXES = st.sampled_from(["", "-0.21-smp", "-generic", "-microsoft-standard-WSL2", "-microsoft-standard-WSL2+"])
UNAME_PLACES = ["        Machine = Linux build7 {r} #1 SMP Fri Mar 29 23:14:13 UTC 2024 x86_64 x86_6  CPU utilization",
                "$ uname -a\nLinux zeus {r} #1 SMP PREEMPT_DYNAMIC Thu Jan 11 04:09:03 UTC 2024 x86_64 GNU/Linux\n"]
WSL_PLACES = ["$ uname -r\n{r}\n", "Kernel: Linux {r}", "Linux version {r} (root@builder) (gcc 11.2.0)", "{r}"]


@settings(max_examples=300)
@given(release=PUBLIC, suffix=RELEASE_SUFFIXES, place=st.sampled_from(UNAME_PLACES))
def test_a_kernel_release_where_uname_writes_it_is_no_address(release, suffix, place):
    assert not _ipv4(place.format(r=release + suffix))


@settings(max_examples=300)
@given(release=PUBLIC, place=st.sampled_from(WSL_PLACES + UNAME_PLACES))
def test_a_wsl2_kernel_release_is_no_address_anywhere(release, place):
    text = place.format(r=release + "-microsoft-standard-WSL2")
    assert not _ipv4(text)
    assert release in privacy.redact(text)[0]


@settings(max_examples=100)
@given(ip=PRIVATE, place=st.sampled_from(WSL_PLACES + UNAME_PLACES))
def test_a_private_address_in_a_release_s_place_is_still_one(ip, place):
    assert _ipv4(place.format(r=ip + "-microsoft-standard-WSL2"))


def test_a_wsl2_session_and_iozone_report_import(tmp_path, capsys):
    session = tmp_path / "wsl.txt"
    session.write_text("$ uname -r\n5.15.153.1-microsoft-standard-WSL2\n$ dd if=/dev/zero of=/mnt/c/t/f bs=1M count=64\n"
                       + (SAMPLES / "dd" / "dd-9.1-english.txt").read_text())
    assert main(["import", "dd", str(session), "--filesystem", "ext4", "--out", str(tmp_path / "a")]) == 0
    iozone = tmp_path / "iozone.txt"
    text = (SAMPLES / "iozone" / "auto-mode-ramdisk-2010.txt").read_text()
    iozone.write_text(text.replace("Linux vflare 2.6.34 #1", "Linux vflare 5.15.153.1-microsoft-standard-WSL2 #1"))
    assert main(["import", "iozone", str(iozone), "--filesystem", "ext4", "--out", str(tmp_path / "b"), "--redact"]) == 0
    capsys.readouterr()
    (raw,) = (tmp_path / "b" / "raw").iterdir()
    with tarfile.open(raw) as tar:
        kept = "".join(tar.extractfile(m).read().decode() for m in tar.getmembers() if m.isfile())
    assert "Machine = Linux [redacted] 5.15.153.1-microsoft-standard-WSL2 #1" in kept
