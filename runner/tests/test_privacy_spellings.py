"""Spellings the privacy scan must read as they are meant (issue 61, F61b items 4, 6, 7-10):
MAC addresses in IEEE 802's three spellings, a time of day beside them; a serial after its label
in any spelling, redacted with its label. Rule: found by the scan (result fields and raw output
alike), and gone from what --redact leaves."""
import json

from hypothesis import given, settings, strategies as st

from fsatlas.results import privacy

BYTES = st.lists(st.integers(0, 255), min_size=6, max_size=6)
CONTEXT = st.sampled_from(["{}", "link/ether {} brd ff:ff:ff:ff:ff:ff", "MAC {}", "HWaddr {}", "at 12:30:01 {} up",
                           "{} 20:33", "ether={},", "({})"])


def _mac(octets, style, upper):
    hexes = [f"{o:02x}" for o in octets]
    text = {"colon": ":".join(hexes), "dash": "-".join(hexes),
            "cisco": ".".join("".join(hexes[i:i + 2]) for i in (0, 2, 4))}[style]
    return text.upper() if upper else text


@settings(max_examples=200)
@given(octets=BYTES, style=st.sampled_from(["colon", "dash", "cisco"]), upper=st.booleans(), context=CONTEXT)
def test_a_mac_address_in_any_spelling_is_found_and_redacted(octets, style, upper, context):
    mac = _mac(octets, style, upper)
    text = context.format(mac)
    assert "a MAC address" in (privacy.finding(text) or ""), text
    assert any(what == "a MAC address" for _, _, what, _ in privacy.raw_matches(text)), text
    assert mac not in privacy.redact(text)[0]


def test_a_time_of_day_is_still_no_address():
    for text in ("started at 20:33:01", "12:30 to 13:45", "2026-11-28T20:33:01Z", "took 1:02:03"):
        assert privacy.finding(text) is None, text


LABEL = st.sampled_from(["Serial Number", "serial number", "SerialNumber", "serial_number", "Serial No.", "Serial No",
                         "serial-num", "Serial", "S/N", "SN", "SERIAL NUMBER"])
SERIAL = st.from_regex(r"\A[A-Z0-9][A-Z0-9-]{3,19}\Z")


@settings(max_examples=200)
@given(label=LABEL, separator=st.sampled_from([": ", ":    ", "=", " ", " # ", ":\t"]), serial=SERIAL)
def test_a_labeled_serial_is_redacted_with_its_value(label, separator, serial):
    text = f"Disk: {label}{separator}{serial} ok"
    assert "a serial number" in (privacy.finding(text) or ""), text
    redacted = privacy.redact(text)[0]
    assert serial not in redacted and privacy.REDACTED in redacted, (text, redacted)


# Other spellings of the same text (item 10): what privacy.fold decides a scan reads as it.
def _spell(char: str, how: str) -> str:
    return {"entity": f"&#{ord(char)};", "hex": f"&#x{ord(char):x};", "percent": f"%{ord(char):02X}",
            "json": f"\\u{ord(char):04x}", "selector": char + "\ufe0f", "tag": char + "\U000e0020",
            "braille": char + "\u2800", "zwsp": char + "\u200b",
            "cyrillic": {"a": "а", "e": "е", "o": "о", "h": "һ", "c": "с", "p": "р"}.get(char, char)}[how]


PRIVATE_TEXTS = ["/home/alice/bench", "bob@example.com", "/media/alice/disk", "/run/media/alice/usb",
                 "alice@zeus:~$ fio job", "00:11:22:33:44:55", "2001:db8:10:20:30:40:50:60", "Serial Number: 1234567890"]


@settings(max_examples=300)
@given(text=st.sampled_from(PRIVATE_TEXTS), data=st.data(),
       how=st.sampled_from(["entity", "hex", "percent", "json", "selector", "tag", "braille", "zwsp", "cyrillic"]))
def test_another_spelling_of_private_text_is_found_and_redacted_whole(text, data, how):
    at = data.draw(st.integers(0, len(text) - 1))
    if how in ("selector", "tag", "braille", "zwsp") and at == len(text) - 1:
        at -= 1  # a mark after the last character splits nothing
    spelled = text[:at] + _spell(text[at], how) + text[at + 1:]
    assert privacy.finding(spelled), spelled
    redacted = privacy.redact(spelled)[0]
    assert privacy.finding(redacted) is None and privacy.raw_finding(redacted) is None, (spelled, redacted)


def test_markup_survives_redaction():
    """item 8: the home folder's name ends at markup, a CDATA section keeps its end."""
    import xml.etree.ElementTree as ET
    for name in ("bob", "alice.smith", "x-y_z", "b0b"):
        xml = f"<Hardware>Network: <![CDATA[/home/{name}]]> Realtek</Hardware>"
        for redacted in (privacy.redact(xml)[0], privacy.redact_markup(xml)[0]):
            assert ET.fromstring(redacted).text == "Network: [redacted] Realtek", redacted


def test_an_e_mail_address_is_redacted_with_its_local_part():
    """item 9: bob&#64;example.com left bob@[redacted]."""
    for text in ("bob&#64;example.com", "bob%40example.com", "bob\\u0040example.com", "bob@example.com"):
        assert "bob" not in privacy.redact(text)[0], text


def _fio_with(description: str, tmp_path):
    from testutil import SAMPLES
    report = json.loads((SAMPLES / "fio" / "fio-3.33-gtod-reduce.json").read_text())
    report["jobs"][0]["job options"]["description"] = description
    path = tmp_path / "report.json"
    path.write_text(json.dumps(report))
    return path


def test_redact_is_suggested_only_where_it_clears_the_output(tmp_path, capsys):
    """item 7: an output --redact replaces whole gets the hint, and --redact imports it; one it
    would not clear (a JSON-escaped quote, which the scan of the parsed report reads and the
    redaction of its text does not) gets the other."""
    from fsatlas.cli import main
    for k, description in enumerate(("fe80::10:20 and 2001:db8:10:20:30:40:50:60", "&#47;home&#47;bob", "00:11:22:33:44:55")):
        source = _fio_with(description, tmp_path)
        out = str(tmp_path / f"o{k}")  # a folder each: one run's output, redacted alike, is imported once into one
        assert main(["import", "fio", str(source), "--filesystem", "ext4", "--out", out]) == 1
        assert "(--redact replaces it" in capsys.readouterr().err, description
        assert main(["import", "fio", str(source), "--filesystem", "ext4", "--out", out, "--redact"]) == 0
        capsys.readouterr()
    source = _fio_with('user="alice"', tmp_path)
    assert main(["import", "fio", str(source), "--filesystem", "ext4", "--out", str(tmp_path / "p")]) == 1
    err = capsys.readouterr().err
    assert "--redact would not replace all of it" in err and "--redact replaces" not in err, err
