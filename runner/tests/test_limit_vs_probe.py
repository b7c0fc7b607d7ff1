"""A limit against the probe it cites (issue #63; round 41's yes/no rule, for numbers). The rule:
a fact's limit that cites a probe source whose record holds an "ok" finding of that row and
column with a limit writes one such finding's number, in the unit the probe counts in (a name in
bytes is no name in UTF-16 code units: the issue's NTFS cell), to the decimals the text gives
and for a factor its unit may stand for (binary prefixes exactly, KB as 1000 or 1024 bytes); or
at least that number where the probe stopped before it found the limit (at_least). "not
documented" or "not applicable" beside a cited probe that found one is refused.

Each test is written from that statement: the number the text must write is computed here by
integer arithmetic (round half to even), not by the module's Decimal."""
import copy

from hypothesis import given, settings, strategies as st
from test_states_rows import world  # noqa: F401 (a fixture)

from fsatlas.site import knowledge, limits

BINARY = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
DECIMAL = ["bytes", "KB", "MB", "GB", "TB", "PB", "EB"]


def _written(limit: int, divisor: int, decimals: int, half_up: bool = False) -> str:
    """limit / divisor to `decimals` decimals, rounded half to even (or half up), by integer arithmetic."""
    q, r = divmod(limit * 10**decimals, divisor)
    if 2 * r > divisor or (2 * r == divisor and (q % 2 or half_up)):
        q += 1
    text = str(q).rjust(decimals + 1, "0")
    return f"{text[:-decimals]}.{text[-decimals:]}" if decimals else text


@settings(max_examples=300, deadline=None)
@given(limit=st.integers(1, 2**63 - 1), power=st.integers(0, 6), decimals=st.integers(0, 3),
       binary=st.booleans(), at_least=st.booleans(), nudge=st.sampled_from([-1, 1]))
def test_the_found_number_written_to_the_texts_decimals_agrees_and_one_step_off_does_not(
        limit, power, decimals, binary, at_least, nudge):
    divisor = (1024 if binary else 1000) ** power
    decimals = decimals if power else 0  # bytes are whole
    written = _written(limit, divisor, decimals)
    if written.replace(".", "").strip("0") == "":
        return  # 0 is no limit (limit_why); not this rule's case
    unit = (BINARY if binary else DECIMAL)[power]
    finding = {"limit": limit, "unit": "bytes", "at_least": at_least}
    if not at_least:  # a floor rounded down lies below it: the nudged texts below decide those
        assert limits.limit_agrees("max_file_size", f"{written} {unit}", finding) == ""
    # one step of the last decimal up or down: refused, unless it writes the number for the other
    # factor a decimal prefix stands for, or rounds it half up; where the probe found a floor, a text
    # agrees exactly where its amount is not below it, unrounded (round 46)
    digits = int(written.replace(".", "")) + nudge
    if digits <= 0:
        return
    off = _written(digits, 10**decimals, decimals)
    divisors = {divisor, 1024**power}
    if at_least:
        fine = any(digits * d >= limit * 10**decimals for d in divisors)
    else:
        fine = digits in {int(_written(limit, d, decimals, up).replace(".", "")) for d in divisors for up in (False, True)}
    why = limits.limit_agrees("max_file_size", f"{off} {unit}", finding)
    assert (why == "") is fine, (off, why)


PROBE_UNITS = ["bytes", "UTF-16 code units", "characters"]
TEXT_UNITS = {"bytes": "bytes", "byte": "bytes", "UTF-16 code units": "UTF-16 code units",
              "code units": "UTF-16 code units", "UTF-16 characters": "UTF-16 code units", "characters": "characters"}


@settings(max_examples=100, deadline=None)
@given(n=st.integers(1, 10**6), probe_unit=st.sampled_from(PROBE_UNITS), text_unit=st.sampled_from(sorted(TEXT_UNITS)))
def test_a_name_limit_agrees_only_in_the_unit_the_probe_counts(n, probe_unit, text_unit):
    why = limits.limit_agrees("max_filename_length", f"{n} {text_unit.strip()}", {"limit": n, "unit": probe_unit})
    assert (why == "") is (TEXT_UNITS[text_unit] == probe_unit), why


@settings(max_examples=100, deadline=None)
@given(n=st.integers(1, 10**9), unit=st.sampled_from(["entries", "links"]), word=st.sampled_from(["", "entries", "links"]),
       qualifier=st.sampled_from(["", " (4 KiB blocks)", " (V5), 25 (V4)"]), other=st.integers(1, 10**9))
def test_a_count_agrees_with_the_count_the_probe_found(n, unit, word, qualifier, other):
    """A count's unit is its column's where the text names none: "507 (4 KiB blocks)" writes 507
    entries (the number in the qualifier is not the limit); one it names is the probe's."""
    column = {"entries": "acl_max_entries", "links": "hard_link_limit"}[unit]
    text = f"{{}}{' ' + word if word else ''}{qualifier}"
    if word not in ("", unit):  # round 45: another column's word is no limit of this one
        assert limits.limit_why(column, text.format(n))
        return
    assert limits.limit_agrees(column, text.format(n), {"limit": n, "unit": unit}) == ""
    assert (limits.limit_agrees(column, text.format(other), {"limit": n, "unit": unit}) == "") is (other == n)


@settings(max_examples=60, deadline=None)
@given(grain=st.integers(1, 10**9), unit=st.sampled_from([("ns", 1), ("nanoseconds", 1), ("µs", 10**3), ("us", 10**3),
                                                          ("microseconds", 10**3), ("ms", 10**6), ("s", 10**9),
                                                          ("second", 10**9)]))
def test_a_resolution_agrees_in_nanoseconds(grain, unit):
    word, factor = unit
    if grain % factor:
        return
    assert limits.limit_agrees("timestamp_resolution", f"{grain // factor} {word}", {"limit": grain, "unit": "ns"}) == ""
    assert limits.limit_agrees("timestamp_resolution", f"{grain // factor + 1} {word}", {"limit": grain, "unit": "ns"})


def _limit_facts(data, records):
    by_id = {s["id"]: s for s in data["sources"]}
    out = []
    for fs, doc in sorted(data["features"].items()):
        for col, fact in sorted(doc["features"].items()):
            if "limit" not in fact:
                continue
            found = [f for i in fact["sources"] for f in records.get(by_id.get(i, {}).get("probe"), {}).get("findings", ())
                     if f.get("filesystem") == fs and f.get("probe") == col and f.get("status") == "ok" and "limit" in f]
            if found:
                out.append((fs, col, found))
    return by_id, out


def _refused(fs, col, features, by_id, records):
    return [p for p in knowledge._fact_rules(fs, features, by_id, records)
            if p.path == f"/features/{col}/limit" and "the probe" in p.message]


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_a_committed_limit_rewritten_away_from_its_probe_is_refused(world, draw):  # noqa: F811
    """Over the committed facts that cite a probe that found their limit: as committed, none is
    refused; the found number plus a drawn amount, written in the probe's unit, is refused unless
    it is another kernel's finding or (at_least) above a floor; the found number in another unit
    of names is refused."""
    data, records = world
    by_id, facts = _limit_facts(data, records)
    fs, col, found = draw.draw(st.sampled_from(facts), label="fact")
    assert not _refused(fs, col, data["features"], by_id, records)
    features = copy.deepcopy(data["features"])
    first = found[0]
    extra = draw.draw(st.integers(1, 10**6), label="extra")
    count = first["unit"] in limits.COUNTS
    features[fs]["features"][col]["limit"] = f"{first['limit'] + extra:,}" + ("" if count else f" {first['unit']}")
    floors = [f["limit"] for f in found if f.get("at_least")]
    fine = any(f["limit"] == first["limit"] + extra for f in found) or any(first["limit"] + extra > x for x in floors)
    assert bool(_refused(fs, col, features, by_id, records)) is not fine
    if col == "max_filename_length":
        other = {"bytes": "UTF-16 code units"}.get(first["unit"], "bytes")
        features[fs]["features"][col]["limit"] = f"{first['limit']} {other}"
        fine = any(f["unit"] == other and f["limit"] == first["limit"] for f in found)
        assert bool(_refused(fs, col, features, by_id, records)) is not fine


def test_the_named_cell_ntfs_names_in_bytes_and_not_documented_beside_a_probe(world):  # noqa: F811
    """The issue's NTFS cell: "255 bytes" where ntfs-3g's probe counted 255 UTF-16 code units;
    and a limit called "not documented" while the probe it cites found it."""
    data, records = world
    by_id = {s["id"]: s for s in data["sources"]}
    features = copy.deepcopy(data["features"])
    features["ntfs"]["features"]["max_filename_length"]["limit"] = "255 bytes"
    refused = _refused("ntfs", "max_filename_length", features, by_id, records)
    assert refused and "counts in UTF-16 code units, the limit in bytes" in refused[0].message
    features = copy.deepcopy(data["features"])
    fact = features["ext4"]["features"]["xattr_max_value"]
    fact["limit"], fact["note"] = "not applicable", "no document read gives it"
    (refused,) = knowledge._probe_answers({"features": features}, records)
    assert refused.path == "/features/xattr_max_value/limit" and "found 4,036 bytes" in refused.message
    fact["limit"] = "not documented"  # refused where any committed probe found it, cited or not
    assert [p.path for p in knowledge._probe_answers({"features": features}, records)] == ["/features/xattr_max_value"]


# --- round 44: the text as a reader reads it ---------------------------------------------------

QUALIFIERS = ["", " (4 KiB blocks)", ", 25 (V4)", "; the format", " per dataset", ": the format", " [the format]"]
TRAILERS = [" KiB", " bytes", " ns", " 000 entries", " K entries", " hundred entries", " x 2 entries", " times 8 entries",
            "KiB", " entries links", " links", " files", " inodes", " entries"]
COUNT_WORDS = {"acl_max_entries": ("entries", "entry"), "hard_link_limit": ("links", "link"), "max_files": ("files", "inodes")}


@settings(max_examples=150, deadline=None)
@given(n=st.integers(1, 10**12), column=st.sampled_from(sorted(COUNT_WORDS)), named=st.booleans(),
       qualifier=st.sampled_from(QUALIFIERS), trailer=st.sampled_from(TRAILERS))
def test_a_count_is_followed_only_by_its_word_and_a_qualifier(n, column, named, qualifier, trailer):
    """Round 44: "8191 KiB" or "8191 000 entries" was read as the count 8191 (the rest ignored).
    After the number and its column's word (round 45: "4,294,967,295 files" is no count of links),
    only a qualifier may follow: in brackets, after a comma, semicolon or colon, or "per ..."."""
    word = f" {COUNT_WORDS[column][0]}" if named else ""
    if trailer.split()[0] in COUNT_WORDS[column] and not word:  # its own word, not a trailer
        return
    assert limits.limit_why(column, f"{n}{word}{qualifier}") == ""
    assert limits.limit_amount(column, f"{n}{word}{qualifier}")[0] == n
    if trailer == " 000 entries" and not word and n < 1000 and column == "acl_max_entries":  # "1 000 entries": thousands grouped, 1,000
        assert limits.limit_amount(column, f"{n}{trailer}{qualifier}")[0] == n * 1000
        return
    assert limits.limit_why(column, f"{n}{word}{trailer}{qualifier}") != ""


# how a reader's text may spell what the ASCII grammar spells (each NFKC's, but the micro sign's
# and the format character's, which are mapped and dropped)
DISGUISES = {"K": ["\u212a"], "0": ["\uff10"], "1": ["\uff11"], "5": ["\uff15"], " ": ["\u00a0", "\u202f", "\u2009"],
             "s": ["\u017f"], "\u00b5": ["\u03bc"], "": ["\u200b", "\u2060"]}


@settings(max_examples=200, deadline=None)
@given(n=st.integers(1, 10**6), text=st.sampled_from(
    [("xattr_max_value", "{} KiB"), ("max_file_size", "{} bytes"), ("timestamp_resolution", "{} \u00b5s"),
     ("timestamp_resolution", "{} seconds"), ("timestamp_resolution", "{} ns"), ("hard_link_limit", "{} links (a 32-bit count)"),
     ("max_filename_length", "{} UTF-16 code units")]), picks=st.lists(st.tuples(st.integers(0, 40), st.integers(0, 3)), max_size=6))
def test_a_limit_spelled_with_compatibility_characters_is_the_limit_it_shows(n, text, picks):
    """Round 44: a Kelvin sign passed for the K of KiB with a factor of 1, and a Greek mu or a long
    s raised KeyError. A text is read as NFKC shows it: each disguise of a character gives the
    same amount as the plain text; a dotless i is no i; and (round 46: a bidi override passed, and
    the page showed "setyb 552") a format character makes it no limit."""
    column, form = text
    plain = form.format(n)
    disguised = plain
    for at, which in picks:
        at %= len(disguised) + 1
        if which == 3 or at == len(disguised):  # a format character put in anywhere
            disguised = disguised[:at] + DISGUISES[""][at % 2] + disguised[at:]
            continue
        options = DISGUISES.get(disguised[at])
        if options:
            disguised = disguised[:at] + options[which % len(options)] + disguised[at + 1:]
    if any(c in disguised for c in DISGUISES[""]):
        assert limits.limit_amount(column, disguised) is None and limits.limit_why(column, disguised)
    else:
        assert limits.limit_amount(column, disguised) == limits.limit_amount(column, plain), disguised
    assert limits.limit_why("xattr_max_value", f"{n} K\u0131B")


@settings(max_examples=100, deadline=None)
@given(n=st.integers(1000, 10**15), sep=st.sampled_from([" ", "\u00a0", "\u202f"]))
def test_thousands_grouped_with_spaces_are_the_number(n, sep):
    """Round 44: "65 000 links" was refused beside a probe that found 65,000 links."""
    grouped = f"{n:,}".replace(",", sep)
    assert limits.limit_agrees("hard_link_limit", f"{grouped} links", {"limit": n, "unit": "links"}) == ""
    assert limits.limit_agrees("hard_link_limit", f"{grouped} links", {"limit": n + 1, "unit": "links"}) != ""


@settings(max_examples=100, deadline=None)
@given(base=st.integers(2, 10**6), power=st.integers(1, 10**7), less=st.integers(0, 10**3),
       point=st.booleans(), limit=st.integers(1, 2**63 - 1))
def test_a_power_is_read_exactly_or_past_every_finding_and_never_raises(base, power, less, point, limit):
    """Round 44: "2.0^16 bytes" raised ValueError, and "7^2000000 bytes" took a minute and a half.
    A power is exact where it has at most 100 digits, else larger than any finding; either way
    the answer comes without computing the power."""
    text = f"{base}{'.0' if point else ''}^{power} - {less} bytes"
    amount = limits.limit_amount("max_file_size", text)
    digits = power * len(str(base))
    if digits < 90:
        assert amount is None or amount[0] == base**power - less
    elif digits > 110 * len(str(base)):
        assert amount is None or amount[0] > 2**63
    limits.limit_agrees("max_file_size", text, {"limit": limit, "unit": "bytes"})  # no exception


@settings(max_examples=50, deadline=None)
@given(zeros=st.integers(0, 80))
def test_more_decimals_than_a_decimal_holds_by_default(zeros):
    """Round 44: "8.0000000000000000000000000000 EiB" (28 decimals) raised InvalidOperation."""
    text = f"8{'.' + '0' * zeros if zeros else ''} EiB"
    assert limits.limit_agrees("max_file_size", text, {"limit": 2**63, "unit": "bytes"}) == ""
    assert limits.limit_agrees("max_file_size", text, {"limit": 2**63 + 2**50, "unit": "bytes"}) != "" or zeros < 4


def test_not_documented_beside_a_floor_is_not_refused(world):  # noqa: F811
    """Round 44: a probe that stopped short (at_least) found a floor, not the limit: "not
    documented" beside it stands; beside an exact finding it is refused (above)."""
    data, records = world
    by_id = {s["id"]: s for s in data["sources"]}
    _, facts = _limit_facts(data, records)
    floors = [(fs, col) for fs, col, found in facts if all(f.get("at_least") for f in found)]
    assert floors, "no committed fact cites only a floor"
    for fs, col in floors:
        features = copy.deepcopy(data["features"])
        fact = features[fs]["features"][col]
        fact["limit"], fact["note"] = "not documented", "no document read gives it"
        assert not _refused(fs, col, features, by_id, records), (fs, col)
        exact = any(f.get("status") == "ok" and f.get("limit") is not None and not f.get("at_least")
                    and (f["filesystem"], f["probe"]) == (fs, col) for r in records.values() for f in r["findings"])
        assert bool(knowledge._probe_answers({"features": features}, records)) is exact, (fs, col)


# --- round 45 ----------------------------------------------------------------------------------

SUPER = str.maketrans("0123456789", "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079")


@settings(max_examples=100, deadline=None)
@given(base=st.integers(2, 16), power=st.integers(1, 80), less=st.integers(0, 999))
def test_superscript_digits_are_a_power(base, power, less):
    """Round 45: NFKC made "2⁵⁵ bytes" 255 bytes. Digits raised after a digit are its power."""
    text = f"{base}{str(power).translate(SUPER)}{f' - {less}' if less else ''} links"
    amount = limits.limit_amount("hard_link_limit", text)
    if base**power - less <= 0:
        assert amount is None
    else:
        assert amount[0] == base**power - less, text


@settings(max_examples=100, deadline=None)
@given(n=st.integers(1, 10**6), less=st.integers(1000, 10**6), tail=st.integers(0, 999))
def test_a_comma_before_a_digit_is_part_of_a_number_not_a_qualifier(n, less, tail):
    """Round 45: "8191,000" was 8191 and a qualifier, "2^13 - 1,000" was 2^13 - 1. A number's
    groups are read whole, or the text is no limit."""
    assert limits.limit_why("acl_max_entries", f"{n},{tail:03d}") == "" or n >= 1000
    if n < 1000:  # a well-grouped number
        assert limits.limit_amount("acl_max_entries", f"{n},{tail:03d}")[0] == n * 1000 + tail
    else:
        assert limits.limit_why("acl_max_entries", f"{n},{tail:03d}") != ""
    text = f"2^40 - {less:,}"
    assert limits.limit_amount("max_files", text)[0] == 2**40 - less
    assert limits.limit_why("acl_max_entries", f"0,{tail:03d}") != ""


BYTE_UNITS_OK = {"bytes", "byte", "Bytes", "B"} | {f"{p}iB" for p in "kKMGTPEZY"} | {f"{p}B" for p in "kKMGTPEZY"}


@settings(max_examples=200, deadline=None)
@given(prefix=st.sampled_from(list("kKmMgGtTpPeEzZyY") + [""]), i=st.sampled_from(["", "i", "I"]), b=st.sampled_from(["B", "b"]))
def test_a_byte_unit_is_read_by_its_case(prefix, i, b):
    """Round 45: "64 Kib" and "2 Tb" (bits) were read as bytes. A unit of bytes is one of the ones
    written here by hand, in its case."""
    unit = f"{prefix}{i}{b}"
    if not prefix and i:
        return
    assert (limits.limit_why("xattr_max_value", f"64 {unit}") == "") is (unit in BYTE_UNITS_OK), unit


@settings(max_examples=60, deadline=None)
@given(zeros=st.integers(0, 40), power=st.integers(0, 10**40), base=st.sampled_from(["1.{}1", "0.{}9", "0", "00", "1"]))
def test_a_power_near_one_or_of_zero_never_raises(zeros, power, base):
    """Round 45: 0^0 and 1.0000000000000001^10^40 raised in limit_amount after limit_why (which
    read them in floats) had taken them. One exact reading serves both; a limit of 0 or no
    number is no limit."""
    text = f"{base.format('0' * zeros)}^{power} bytes"
    why = limits.limit_why("max_file_size", text)
    amount = limits.limit_amount("max_file_size", text)
    assert (why == "") is (amount is not None)
    if amount is not None:
        assert amount[0] > 0


def test_the_subtraction_is_exact():
    """Round 45: "2^60 - 1152921504606846975" (exactly 1) was refused as 0, subtracted in floats."""
    assert limits.limit_amount("max_files", "2^60 - 1152921504606846975")[0] == 1
    assert limits.limit_why("max_files", "2^60 - 1152921504606846976")


def test_the_named_qualifiers_of_round_45():
    """Round 45's words that take the number back, and the honest endings it found refused."""
    for said in ("255 bytes (wrong)", "255 bytes (isn't)", "255 bytes (circa)", "255 bytes (incorrect)",
                 "255 bytes (outdated)", "255 bytes (about)", "255 bytes (ca.)", "255 bytes (~)", "255 bytes (TODO: verify)",
                 "255 bytes (citation needed)", "255 bytes (guessing)"):
        assert limits.limit_why("max_filename_length", said), said
    for said in ("255 bytes.", "255 bytes [VFS]", "255 bytes: the VFS", "255 bytes \u2014 the VFS", "255 B",
                 "255 character", "2^32 \u2013 1 files"):
        assert limits.limit_why("max_filename_length" if "255" in said else "max_files", said) == "", said


@settings(max_examples=100, deadline=None)
@given(limit=st.integers(1, 2**40), power=st.integers(0, 4), decimals=st.integers(0, 2), off=st.integers(-2, 2),
       at_least=st.booleans())
def test_the_page_marks_a_limit_as_check_data_judges_it(limit, power, decimals, off, at_least):
    """The probe tables and the corrections page mark a limit "agrees" or "disagrees" by the rule
    check-data holds a fact citing the probe to (they said nothing of limits: two rules)."""
    from fsatlas.site import probes
    decimals = decimals if power else 0
    digits = int(_written(limit, 1024**power, decimals).replace(".", "")) + off
    if digits <= 0:
        return
    text = f"{_written(digits, 10**decimals, decimals)} {BINARY[power]}"
    finding = {"probe": "max_file_size", "status": "ok", "limit": limit, "unit": "bytes", "at_least": at_least}
    said = probes.agreement(finding, {"limit": text})
    assert said == ("agrees" if limits.limit_agrees("max_file_size", text, finding) == "" else "disagrees")
    if at_least:
        assert (said == "agrees") is (digits * 1024**power >= limit * 10**decimals), (text, said)
    else:
        assert (said == "agrees") is (digits in {int(_written(limit, 1024**power, decimals, up).replace(".", ""))
                                                 for up in (False, True)}), (text, said)
    assert probes.agreement(finding, {"limit": "not documented"}) is None


# --- round 46 ----------------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(k=st.integers(1, 15), base=st.sampled_from([2, 5, 10, 20, 50]))
def test_a_superscript_minus_is_a_negative_power(k, base):
    """Round 46: NFKC made "10⁻⁹ s" ten less nine seconds. A superscript minus before the power's
    digits makes it negative (bases whose negative powers are finite decimals, read exactly); one
    left over (2³²⁻¹) is no number."""
    from fractions import Fraction
    text = f"{base}\u207b{str(k).translate(SUPER)} s"
    amount = limits.limit_amount("timestamp_resolution", text)
    exact = Fraction(10**9, base**k)  # in ns, by hand
    assert amount is not None and Fraction(str(amount[0])) * amount[2][0] == exact, (text, amount)
    if exact.denominator == 1:
        assert limits.limit_agrees("timestamp_resolution", text, {"limit": int(exact), "unit": "ns"}) == ""
    assert limits.limit_why("max_files", f"2{str(k).translate(SUPER)}\u207b\u00b9") != ""


@settings(max_examples=60, deadline=None)
@given(a=st.integers(1, 10**6), b=st.integers(1, 10**3), n=st.integers(1, 10**4))
def test_only_a_power_may_be_less_a_number_and_a_unit_is_whole(a, b, n):
    """Round 46: "4096 - 60 bytes" was 4036 (only a power less a number is written so), "0.5 bytes"
    and "507.5 entries" were limits, and "0255 bytes" was 255. A limit in bytes, entries, links, ns
    or name units is whole; a prefix or a scale word may have decimals; no number begins with 0."""
    assert limits.limit_why("xattr_max_value", f"{a} - {b} bytes")
    assert limits.limit_why("xattr_max_value", f"{n}.5 bytes") and limits.limit_why("acl_max_entries", f"{n}.5 entries")
    assert limits.limit_why("xattr_max_value", f"{n}.5 KiB") == ""
    assert limits.limit_why("acl_max_entries", f"{n}.5 thousand entries") == ""
    assert limits.limit_why("xattr_max_value", f"0{n} bytes")


def test_the_named_texts_of_round_46():
    refused = [("max_filename_length", "255 bytes (not-verified)"), ("max_filename_length", "255 bytes (isn\u2019t verified)"),
               ("max_filename_length", "255 bytes (at least)"), ("max_filename_length", "255 bytes (or more)"),
               ("max_filename_length", "255 bytes (FIXME)"), ("max_filename_length", "255 bytes (\u00b110)"),
               ("max_filename_length", "\u202e255 bytes"), ("max_files", "2\u00b3\u00b2\u207b\u00b9"),
               ("max_filename_length", "255\u2013510 bytes"), ("timestamp_resolution", "100 NS")]
    for key, said in refused:
        assert limits.limit_why(key, said), said
    honest = [("max_filename_length", "255 chars"), ("hard_link_limit", "65000 hard links"), ("acl_max_entries", "507 ACL entries"),
              ("timestamp_resolution", "100 nsec"), ("timestamp_resolution", "2 sec"), ("max_files", "\uff12\u00b3\u00b2"),
              ("timestamp_resolution", "10\u207b\u2077 s")]
    for key, said in honest:
        assert limits.limit_why(key, said) == "", said
    # Microsoft's "255 Unicode characters" counts characters, where ntfs-3g's probe counted UTF-16 code units
    assert "counts in UTF-16 code units" in limits.limit_agrees(
        "max_filename_length", "255 Unicode characters", {"limit": 255, "unit": "UTF-16 code units"})
    assert limits.limit_agrees("hard_link_limit", "\uff12\u00b3\u00b2", {"limit": 2**32, "unit": "links"}) == ""


@settings(max_examples=20, deadline=None)
@given(st.data())
def test_not_documented_where_any_committed_probe_found_the_limit_is_refused(world, draw):  # noqa: F811
    """Round 46: a limit called "not documented" citing only documents passed although a committed
    probe had found it; a yes or a no so was refused (_probe_answers). Over the committed exact
    findings of limits whose fact is a limit."""
    data, records = world
    fs, col, features = _a_non_answer_beside_a_probe(data, records, draw, "not documented", floors=False)
    problems = knowledge._probe_answers({"features": features}, records)
    assert [p.path for p in problems] == [f"/features/{col}"], (fs, col, problems)


def _a_non_answer_beside_a_probe(data, records, draw, said: str, floors: bool) -> tuple:
    """(filesystem, column, the feature files with that cell's limit made `said`, citing a page
    silent on it) for a cell drawn among those a committed probe found a limit of (floors: a
    floor, at_least, counts too) and whose fact is a limit."""
    found = sorted({(f["filesystem"], f["probe"]) for r in records.values() for f in r.get("findings", ())
                    if f.get("status") == "ok" and f.get("limit") is not None and (floors or not f.get("at_least"))
                    and "limit" in data["features"].get(f["filesystem"], {}).get("features", {}).get(f["probe"], {})})
    fs, col = draw.draw(st.sampled_from(found), label="cell")
    features = copy.deepcopy(data["features"])
    features[fs]["features"][col].update(limit=said, note="no document read gives it", sources=["man-xattr"])
    return fs, col, features


# --- round 47 ----------------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(base=st.integers(2, 99), power=st.integers(1, 40), digit=st.integers(0, 9))
def test_a_plain_digit_after_a_power_makes_no_number(base, power, digit):
    """Round 47: "2¹6 bytes" was 2^16 (the plain 6 joined the power). Only the superscript digits
    are the power; a plain digit after them is no number."""
    assert limits.limit_why("xattr_max_value", f"{base}{str(power).translate(SUPER)}{digit} bytes")
    assert limits.limit_amount("xattr_max_value", f"{base}{str(power).translate(SUPER)} bytes")[0] == base**power


def test_the_named_texts_of_round_47():
    for said in ("16 TiB\u2014with 4 KiB blocks", "16 TiB \u2014 with 4 KiB blocks", "16 TiB \u2013 with 4 KiB blocks"):
        assert limits.limit_why("max_volume_size", said) == "", said
    assert limits.limit_amount("max_filename_length", "255 UTF\u201116 code units")[3] == "UTF-16 code units"
    assert limits.limit_why("max_volume_size", "16 TiB \u2013 4 KiB")  # a subtraction, not a qualifier


@settings(max_examples=20, deadline=None)
@given(st.data())
def test_not_applicable_where_any_committed_probe_found_a_limit_is_refused(world, draw):  # noqa: F811
    """Round 47: "not applicable" stood beside a probe that set 8,191 ACL entries (a floor), or
    beside an exact finding it did not cite; the page marked nothing. Any committed probe that found
    a limit of the cell, floor or exact, cited or not, refuses it, and the page says it disagrees."""
    from fsatlas.site import probes
    data, records = world
    fs, col, features = _a_non_answer_beside_a_probe(data, records, draw, "not applicable", floors=True)
    problems = knowledge._probe_answers({"features": features}, records)
    assert [p.path for p in problems] == [f"/features/{col}/limit"], (fs, col, problems)
    finding = next(f for r in records.values() for f in r["findings"] if (f["filesystem"], f["probe"]) == (fs, col)
                   and f.get("status") == "ok" and f.get("limit") is not None)
    assert probes.agreement(finding, features[fs]["features"][col]) == "disagrees"
