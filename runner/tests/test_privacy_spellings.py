"""Spellings the privacy scan must read as they are meant (issue 61, F61b items 4, 6, 7-10):
MAC addresses in IEEE 802's three spellings, a time of day beside them; a serial after its label
in any spelling, redacted with its label. Rule: found by the scan (result fields and raw output
alike), and gone from what --redact leaves."""
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


@settings(max_examples=200, deadline=None)
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


@settings(max_examples=200, deadline=None)
@given(label=LABEL, separator=st.sampled_from([": ", ":    ", "=", " ", " # ", ":\t"]), serial=SERIAL)
def test_a_labeled_serial_is_redacted_with_its_value(label, separator, serial):
    text = f"Disk: {label}{separator}{serial} ok"
    assert "a serial number" in (privacy.finding(text) or ""), text
    redacted = privacy.redact(text)[0]
    assert serial not in redacted and privacy.REDACTED in redacted, (text, redacted)
