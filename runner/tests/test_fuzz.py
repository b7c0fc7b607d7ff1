"""Bad input everywhere: no traceback, no hang, a clear error. A bounded number of examples in
CI; `make fuzz` runs many more (FSATLAS_FUZZ_EXAMPLES)."""
import json
import math
import os

from hypothesis import HealthCheck, given, settings, strategies as st

from fsatlas.results import fio_json, privacy, resultfile
from fsatlas.cli import main
from fsatlas.errors import UserError
from testutil import numbers_in

EXAMPLES = int(os.environ.get("FSATLAS_FUZZ_EXAMPLES", "40"))
FUZZ = settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.function_scoped_fixture])
json_values = st.recursive(st.none() | st.booleans() | st.floats(allow_nan=False) | st.integers() | st.text(max_size=20),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
                           max_leaves=20)


def no_traceback(capsys, code):
    err = capsys.readouterr().err
    assert code in (0, 1, 2) and "Traceback" not in err


@FUZZ
@given(st.binary(max_size=400))
def test_validate_any_bytes(tmp_path_factory, capsys, data):
    path = tmp_path_factory.mktemp("fz") / "x.json"
    path.write_bytes(data)
    no_traceback(capsys, main(["validate", str(path)]))


def mutate(valid_result, data):
    """A copy of the valid result with one value somewhere replaced by anything JSON can hold."""
    result = json.loads(json.dumps(valid_result))
    node = result
    for depth in range(5):
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            break
        key = data.draw(st.sampled_from(keys))
        child = node[key]
        if isinstance(child, (dict, list)) and child and depth < 4 and data.draw(st.booleans()):
            node = child
            continue
        node[key] = data.draw(json_values)
        break
    return result


@FUZZ
@given(st.data())
def test_validate_mutated_results(tmp_path_factory, capsys, valid_result, data):
    result = mutate(valid_result, data)
    folder = tmp_path_factory.mktemp("fz") / "results"
    folder.mkdir()
    (folder / "fixture-valid.json").write_text(json.dumps(result))
    no_traceback(capsys, main(["validate", str(folder)]))


@FUZZ
@given(st.sampled_from(["fio", "bonnie", "dd", "iozone"]), st.text(max_size=600))
def test_import_any_text(tmp_path_factory, capsys, fmt, text):
    folder = tmp_path_factory.mktemp("fz")
    (folder / "in.txt").write_text(text)
    no_traceback(capsys, main(["import", fmt, str(folder / "in.txt"), "--filesystem", "ext4", "--out", str(folder / "o")]))


@FUZZ
@given(json_values)
def test_import_fio_shaped_json(tmp_path_factory, capsys, value):
    folder = tmp_path_factory.mktemp("fz")
    (folder / "in.json").write_text(json.dumps({"jobs": [value]} if not isinstance(value, dict) else value))
    no_traceback(capsys, main(["import", "fio", str(folder / "in.json"), "--filesystem", "ext4", "--out", str(folder / "o")]))


@FUZZ
@given(st.text(max_size=400))
def test_matrix_file_any_text(tmp_path_factory, capsys, text):
    path = tmp_path_factory.mktemp("fz") / "m.yaml"
    path.write_text(text)
    no_traceback(capsys, main(["plan", "--matrix", str(path), "--profile", "p"]))


@FUZZ
@given(st.text(max_size=30), st.text(max_size=30), st.text(max_size=30), st.text(max_size=30), st.text(max_size=30))
def test_profile_and_option_filters_any_text(capsys, profile, fs, workload, variant, cell):
    no_traceback(capsys, main(["plan", "--profile", profile, "--fs", fs, "--workload", workload,
                               "--variant", variant, "--cell", cell]))


@settings(max_examples=EXAMPLES * 10, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_the_fast_schema_check_accepts_nothing_jsonschema_rejects(valid_result, data):
    result = mutate(valid_result, data)
    if resultfile.schema_valid_fast(result):
        assert list(resultfile._validator(resultfile.version_of(result)).iter_errors(result)) == []


@settings(max_examples=EXAMPLES * 10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_the_fast_schema_check_of_version_2_accepts_nothing_jsonschema_rejects(valid_result, data):
    result = mutate(resultfile.stored(valid_result), data)
    if resultfile.schema_valid_fast(result):
        assert list(resultfile._validator(resultfile.version_of(result)).iter_errors(result)) == []


def _edited(result, where: str, value):
    """The result with the value at a JSON Pointer-like path ('/cells/0/metrics/iops/samples/0')
    set; a path ending in '+name' adds a key, '-name' removes one."""
    import copy
    out = copy.deepcopy(result)
    *parts, last = where.strip("/").split("/")
    node = out
    for part in parts:
        node = node[int(part)] if isinstance(node, list) else node[part]
    if last.startswith("-"):
        del node[last[1:]]
    else:
        key = last.lstrip("+")
        node[int(key) if isinstance(node, list) else key] = value
    return out


# (where, value): each a way out of the schema the fast check's msgspec types or its rest could miss
REFUSED = [("/schema_version", True), ("/schema_version", "1"), ("/schema_version", 2), ("/id", "index"),
           ("/id", "a/b"), ("/id", ""), ("/created", "2026-11-23"), ("/complete", 1), ("/wall_seconds", -1),
           ("/tool/runner", 5), ("/tool/+x y", "1"), ("/tool/-runner", None), ("/system/machine", "a b"),
           ("/system/cpu_count", True), ("/system/cpu_count", 1.5), ("/system/+extra", [1]), ("/target/kind", "disk"),
           ("/target/+image_bytes", -1), ("/cells/0/status", "done"), ("/cells/0/flags", ["noisy", "noisy"]),
           ("/cells/0/flags", ["fast"]), ("/cells/0/key", "Ext4|-"), ("/cells/0/-driver", None),
           ("/cells/0/parameters/+Bad", 1), ("/cells/0/parameters/+nested", {"a": 1}), ("/cells/0/mkfs_options", [""]),
           ("/cells/0/metrics/+Bad", None), ("/cells/0/metrics", {}), ("/cells/0/raw", []), ("/cells/0/+reason", ""),
           ("/cells/0/metrics/throughput/+extra", 1), ("/cells/0/metrics/throughput/-mean", None),
           ("/cells/0/metrics/throughput/samples", []), ("/cells/0/metrics/throughput/samples/0", True),
           ("/cells/0/metrics/throughput/samples/0", -1), ("/cells/0/metrics/throughput/samples/0", "1"),
           ("/cells/0/metrics/throughput/samples/0", 2e18), ("/cells/0/metrics/throughput/ci95", [1, 2, 3]),
           ("/cells/0/metrics/throughput/unit", "MB/s"), ("/cells/0/metrics/throughput/better", None)]


def test_the_fast_schema_check_refuses_what_jsonschema_refuses_at_each_kind_of_place(valid_result):
    """Every keyword the schema uses, broken once: jsonschema refuses each, and so does the fast
    check (its msgspec types or the schema of the rest); the valid file passes it (or the
    aggregator would pay for jsonschema on every file)."""
    assert resultfile.schema_valid_fast(valid_result)
    metric = valid_result["cells"][0]["metrics"]
    assert "throughput" in metric and valid_result["cells"][0]["status"] == "ok"
    for where, value in REFUSED:
        broken = _edited(valid_result, where, value)
        assert list(resultfile._validator().iter_errors(broken)), where  # the case is a real refusal
        assert not resultfile.schema_valid_fast(broken), where


PRIVATE_PIECES = ["00:1a:2B:3c:4d:5e", "10.0.0.7", "fe80::1", "2001:db8:0:1::", "db1.corp", "X.IO", "/home/al",
                  "/Users/b", "Serial: ABCD12", "S/N#9Z-12", "sn=ab12cd", "a", "1", ".", ":", "-", "/", " ", "#"]


@settings(max_examples=EXAMPLES * 10)
@given(st.lists(st.sampled_from(PRIVATE_PIECES) | st.text(alphabet="0123456789abcdefsnrilSN:./-=# \nPCUĸſİK", max_size=5),
                max_size=8))
def test_what_privacy_needs_is_in_every_string_a_pattern_matches(pieces):
    """NEEDS only skips strings: a string any pattern matches must pass it, and its ASCII
    shortcut decides as it does."""
    text = "".join(pieces)
    if privacy.ANY.search(text):
        assert privacy.NEEDS.search(text), text
    assert privacy.needs_a_look(text) == bool(privacy.NEEDS.search(text)), text


@settings(max_examples=EXAMPLES * 10)
@given(st.lists(st.sampled_from(["/", ".", "-", "a", "1", "db1.corp", "rep-1.json", "build.example.sh", "x.io",
                                 "2.80GHz", "alice.local", "raw", "Ab"]) | st.text(alphabet="ab1.-/ _", max_size=4),
                max_size=10))
def test_host_names_are_found_part_by_part_as_in_the_whole_text(pieces):
    """Host names are looked for part by part between slashes: the parts hold what the whole
    text's scan finds, in the same order."""
    text = "".join(pieces)
    assert sum((privacy._host_names(p) for p in text.split("/")), ()) == privacy._host_names.__wrapped__(text), text


@settings(max_examples=EXAMPLES * 10)
@given(st.text(alphabet="<>&\u2028\u2029\u2027\u20ac\u00e2a\"", max_size=12))
def test_json_escaping_passes_over_only_texts_with_nothing_to_escape(text):
    """escape_json_bytes returns a text as it is only when the escaping would change nothing, and
    otherwise escapes as one pass over the text would (a regex of every unsafe character)."""
    import re
    from fsatlas.site import aggregate
    raw = text.encode()
    one_pass = re.compile(b"|".join(re.escape(k) for k in aggregate._UNSAFE))
    assert aggregate.escape_json_bytes(raw) == one_pass.sub(lambda m: aggregate._UNSAFE[m.group(0)], raw)


document_values = st.recursive(
    st.none() | st.booleans() | st.floats(allow_nan=False, allow_infinity=False) | st.integers()
    | st.sampled_from(["\u202e", "a\u2066b", "x\\\"y"])
    | st.text(max_size=20) | st.sampled_from(PRIVATE_PIECES),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10) | st.just("device_model"), inner,
                                                                max_size=4), max_leaves=20)


@settings(max_examples=EXAMPLES * 10)
@given(document_values, st.sampled_from(["json", "ascii", "orjson"]))
def test_the_distinct_strings_shortcut_finds_what_the_walk_finds(value, writer):
    """document_findings skips its walk when none of the document's distinct strings looks
    private, and value_problems when the screen finds nothing: each must find exactly what its
    walk does, however the file was written."""
    import orjson
    from hypothesis import assume
    try:  # (orjson writes no integer beyond 64 bits; UTF-8 holds no lone surrogate)
        raw = {"json": lambda v: json.dumps(v, ensure_ascii=False).encode(), "ascii": lambda v: json.dumps(v).encode(),
               "orjson": orjson.dumps}[writer]({"x": value})
    except (TypeError, UnicodeEncodeError):
        assume(False)
    data = resultfile.parse_json(raw, "x.json")
    assert privacy.document_findings(resultfile.screened(data)[1], data) == privacy.findings(data)
    assert resultfile.value_problems(data) == resultfile.value_problems(data, (False, set(), 0))  # (False: walk)


@settings(max_examples=EXAMPLES * 10)
@given(st.recursive(st.floats() | st.integers() | st.booleans() | st.sampled_from(["\u202e", "a", "b\u2069"]),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["a", "\u202a"]), inner,
                                                                                max_size=2), max_leaves=20))
def test_the_screen_passes_no_value_the_walk_refuses(value):
    """NaN, infinities and numbers of any size in memory (a JSON reader makes some of them)."""
    assert resultfile.value_problems(value) == resultfile.value_problems(value, (False, set(), 0))


def _rounded_by_arithmetic(value: float, digits: int = 3) -> str:
    """significant() as it was first written, rounding with round() at the digit a logarithm
    names: the reference its faster %g form must agree with on every value."""
    import math
    if not math.isfinite(value) or value == 0:
        return f"{value:g}"
    rounded = round(value, digits - 1 - math.floor(math.log10(abs(value))))
    if rounded == 0:
        return "0"
    decimals = max(digits - 1 - math.floor(math.log10(abs(rounded))), 0)
    text = f"{rounded:,.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


@settings(max_examples=EXAMPLES * 50)
@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e18, max_value=1e18)
       | st.integers(-10**6, 10**6).map(lambda n: n / 1000) | st.integers(-10**7, 10**7).map(float))
def test_figures_round_as_arithmetic_rounds_them(value):
    from fsatlas.site import knowledge
    assert knowledge.significant(value) == _rounded_by_arithmetic(value)
    assert knowledge.significant(value, 5) == _rounded_by_arithmetic(value, 5)


@settings(max_examples=EXAMPLES * 50)
@given(st.floats(min_value=-1e18, max_value=1e18) | st.floats() | st.integers(-10**7, 10**7).map(float),
       st.sampled_from(["bytes/s", "bytes", "ops/s", "ns", "percent", "s", "widgets"]))
def test_a_figure_with_its_unit_is_its_significant_digits_in_the_site_s_unit(value, unit):
    """display() takes %g's text itself where significant() would return it unchanged: the same
    figure, NaN, infinities and a latency of a millisecond or more (in ms) included."""
    from fsatlas.site import knowledge
    if unit == "ns" and abs(value) >= 1e6:
        expected = f"{knowledge.significant(value * 1e-6)} ms"
    else:
        factor, shown = knowledge.DISPLAY_UNITS.get(unit, (1, unit))
        expected = f"{knowledge.significant(value * factor)} {shown}"
    assert knowledge.display(value, unit) == expected


def test_each_private_piece_is_found():  # the pieces above do exercise the patterns
    assert all(privacy.findings({"x": piece}) for piece in PRIVATE_PIECES[:11])


def _as_json_reads(value):
    """value as json.loads gives it, but with integers beyond 64 bits as floats, the way orjson
    reads them (fio writes none: its counters are unsigned 64-bit). Where orjson refuses a text
    (NaN, Infinity, lone surrogates), json reads it all."""
    if isinstance(value, dict):
        return {k: _as_json_reads(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_as_json_reads(v) for v in value]
    if isinstance(value, int) and not isinstance(value, bool) and not -2**63 <= value < 2**64:
        return float(value)
    return value


@FUZZ
@given(json_values, st.sampled_from(["", "note: both iodepth >= 1 and synchronous I/O engine\n"]))
def test_fio_reports_read_as_json_reads_them(value, note):
    """A report is read as json reads it, or refused in one line where it holds a number fio
    never writes, whichever parser read it: an infinity (or NaN) or an integer of over 20 digits."""
    text = note + json.dumps({"jobs": [value]}, ensure_ascii=False)
    exact = json.loads(text[len(note):])
    try:
        assert fio_json.parse(text) in (exact, _as_json_reads(exact))  # the latter only where orjson read it
        assert not _unwritten(exact)
    except UserError as e:
        assert _unwritten(exact) and "\n" not in str(e), e


def _unwritten(value) -> bool:
    """Whether a parsed value holds a number fio never writes."""
    if isinstance(value, dict):
        return any(map(_unwritten, value.values()))
    if isinstance(value, list):
        return any(map(_unwritten, value))
    return (isinstance(value, float) and not math.isfinite(value)
            or isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** 20)


@settings(max_examples=EXAMPLES * 10)
@given(st.lists(st.sampled_from(PRIVATE_PIECES + ["C:\\Users\\x", "~al/", "user=bob", "alice-laptop", "WCC7K4ZXJ2L1"])
                | st.text(alphabet="0123456789abcdefsnrilSN:./-=# \nPCUĸſİK\\@~", max_size=5), max_size=8))
def test_a_raw_text_pattern_runs_wherever_it_could_match(pieces):
    """raw_matches runs a pattern only over a text that holds its gate: whatever a pattern
    matches must hold that gate (lowercased), so no finding is skipped."""
    text = "".join(pieces)
    for (what, pattern), gate in zip(privacy.PATTERNS, privacy._GATE_RES):
        for match in pattern.finditer(text):
            found = match.group(0)
            if gate is None:
                assert privacy._CAPS.search(found), (what, found)
            elif text.isascii():
                assert (gate in found.lower()) if isinstance(gate, str) else gate.search(found.lower()), (what, found)


def test_a_reference_with_a_description_beside_it_is_checked_fast():
    """{"$ref": ..., "description": ...} means what the definition means: inlined like a $ref
    alone, so the fast check still passes a valid file (a $ref it left in place failed every one)."""
    import copy
    schema = copy.deepcopy(resultfile.schema())
    schema["properties"]["target"]["properties"]["baseline"] = {"$ref": "#/$defs/baseline", "description": "x"}
    assert resultfile._inlined(schema, schema["$defs"])["properties"]["target"]["properties"]["baseline"] == \
        resultfile._inlined(schema["$defs"]["baseline"], schema["$defs"])


SAMPLES_DIR = os.path.join(os.path.dirname(__file__), "fixtures", "samples")
REAL = sorted((os.path.relpath(d, SAMPLES_DIR).split("/")[0], os.path.join(d, f))
              for d, _, files in os.walk(SAMPLES_DIR) for f in files
              if os.path.relpath(d, SAMPLES_DIR).split("/")[0] in ("dd", "bonnie", "iozone", "fio"))
HOSTILE = ["9" * 400, "9" * 5000, "nan", "-inf", "4.7.7", "1e999", "-5", "0", "1e-320", "\udc00", "12.3 ms", "\n"]


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_real_output_with_one_figure_made_hostile_is_taken_and_valid_or_refused_in_one_line(tmp_path_factory, capsys, data):
    """The rule (#65 round 58): whatever one figure of a real output of fio, bonnie++, IOzone or
    dd becomes (400 or 5,000 digits, NaN, infinity, "4.7.7", a lone surrogate, another unit), the
    import either writes a result validate accepts or refuses in one line with exit status 1."""
    import re
    fmt, path = data.draw(st.sampled_from(REAL), label="sample")
    text = open(path, encoding="utf-8", errors="surrogateescape").read()
    spots = [m.span() for m in re.finditer(r"\d+(?:\.\d+)?", text)]
    if not spots:
        return
    start, end = data.draw(st.sampled_from(spots), label="figure")
    text = text[:start] + data.draw(st.sampled_from(HOSTILE), label="written") + text[end:]
    folder = tmp_path_factory.mktemp("hostile")
    (folder / "in.txt").write_text(text, encoding="utf-8", errors="surrogatepass")
    capsys.readouterr()
    code = main(["import", fmt, str(folder / "in.txt"), "--filesystem", "ext4", "--out", str(folder / "o")])
    err = capsys.readouterr().err
    if code == 0:
        assert main(["validate", str(folder / "o" / "results")]) == 0, capsys.readouterr()
    else:
        lines = [line for line in err.splitlines() if not line.startswith(("note:", "warning:"))]
        assert code == 1 and len(lines) == 1 and "Traceback" not in err, err


# Every decimal digit outside ASCII, by value: what Python's float() and int() read as digits
OTHER_DIGITS = {v: [c for c in map(chr, range(0x80, 0x110000)) if c.isdecimal() and int(c) == v] for v in range(10)}
TEXT_SAMPLES = [(fmt, path) for fmt, path in REAL if not path.endswith(".json")] + \
    [("pts", os.path.join(SAMPLES_DIR, "pts", name)) for name in sorted(os.listdir(os.path.join(SAMPLES_DIR, "pts")))]


def _imported_values(folder, fmt: str, path: str, capsys) -> tuple[int, set]:
    """(exit status, every sample value of the results) of importing path (--redact: the samples
    hold host names and home folders, which would be refused before any figure is read)."""
    extra = [] if fmt == "pts" else ["--filesystem", "ext4"]
    capsys.readouterr()
    code = main(["import", fmt, path, *extra, "--redact", "--out", str(folder)])
    err = capsys.readouterr().err
    if code:
        lines = [line for line in err.splitlines() if not line.startswith(("note:", "warning:"))]
        assert code == 1 and len(lines) == 1 and "Traceback" not in err, err
        return code, set()
    values = set()
    for name in os.listdir(folder / "results"):
        with open(folder / "results" / name) as f:
            for cell in json.load(f)["cells"]:
                values |= {v for m in (cell.get("metrics") or {}).values() for v in m["samples"]}
    return code, values


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_no_figure_is_read_from_a_digit_outside_ascii(tmp_path_factory, capsys, data):
    """The rule: a figure is read from ASCII digits only (printf writes them in every locale).
    One ASCII digit of a real text output of dd, bonnie++, IOzone, fio (terse) or PTS becomes a
    decimal digit of another script and of another value, or gets an underscore before it
    (IOzone read "４" as 4: round 59; dd read 67 bytes of "67_108_864": round 61): the import
    refuses in one line, or it reads no figure the output did not hold before."""
    fmt, path = data.draw(st.sampled_from(TEXT_SAMPLES), label="sample")
    raw = open(path, encoding="utf-8", errors="surrogateescape").read()
    import re
    spots = [m.start() for m in re.finditer(r"[0-9]", raw)]
    at = data.draw(st.sampled_from(spots), label="digit")
    value = data.draw(st.sampled_from([v for v in range(10) if v != int(raw[at])]), label="value")
    digit = data.draw(st.sampled_from(OTHER_DIGITS[value]) | st.just("_" + raw[at]), label="written")  # or 1_000
    text = raw[:at] + digit + raw[at + 1:]
    folder = tmp_path_factory.mktemp("digits")
    (folder / "before.txt").write_text(raw, encoding="utf-8", errors="surrogatepass")
    (folder / "after.txt").write_text(text, encoding="utf-8", errors="surrogatepass")
    _, before = _imported_values(folder / "a", fmt, str(folder / "before.txt"), capsys)
    code, after = _imported_values(folder / "b", fmt, str(folder / "after.txt"), capsys)
    assert code == 1 or after <= before, (digit, sorted(after - before)[:5])


def test_a_full_width_figure_of_iozone_is_no_figure(tmp_path, capsys):
    """The named example (round 59): IOzone's table with one figure in full-width digits."""
    path = os.path.join(SAMPLES_DIR, "iozone", "auto-mode-ramdisk-2010.txt")
    raw = open(path).read()
    import re
    row = re.search(r"^\s+1048576\s+64\s+(\d+)", raw, re.M)
    width = str.maketrans("0123456789", "０１２３４５６７８９")
    text = raw[:row.start(1)] + row.group(1).translate(width) + raw[row.end(1):]
    (tmp_path / "in.txt").write_text(text)
    code, values = _imported_values(tmp_path / "o", "iozone", str(tmp_path / "in.txt"), capsys)
    assert code == 1 or float(row.group(1)) * 1024 not in values, values


def test_round_61_figures_in_other_digits_are_refused_where_they_were_passed_over(tmp_path, capsys):
    """IOzone's second table row with '３90935' dropped rows 2 to 5 without a word, a Children line
    of '482_114.97' its test; bonnie++ kept a file size of '２4G' and 1_6 thousand files; dd's
    second run and fio's second terse line were passed over (round 62): each is refused in one
    line naming its line."""
    iozone = open(os.path.join(SAMPLES_DIR, "iozone", "auto-mode-ramdisk-2010.txt")).read()
    bonnie = open(os.path.join(SAMPLES_DIR, "bonnie", "bonnie-1.97-plus-signs.csv")).read()
    dd = open(os.path.join(SAMPLES_DIR, "dd", "dd-9.1-english.txt")).read()
    terse = open(os.path.join(SAMPLES_DIR, "fio", "fio-3.33-terse-v5.txt")).read()
    cases = [("iozone", iozone.replace(" 359506 ", " ３59506 ", 1), "line 13"),
             ("bonnie", bonnie.replace(",2G,", ",２G,", 1), "line 1"),
             ("bonnie", bonnie.replace(",16,,,,,", ",1_6,,,,,", 1), "line 1"),
             # round 62: a second dd run or a terse line passed over, not refused
             ("dd", dd + dd.replace("67108864", "6٧108864"), "line 6"),
             ("dd", dd + dd.replace("67108864", "67_108_864"), "line 6"),
             ("fio", terse.replace("\n5;", "\n٥;", 1), "line 2")]
    for k, (fmt, text, line) in enumerate(cases):
        assert text not in (iozone, bonnie)
        (tmp_path / f"{k}.txt").write_text(text)
        capsys.readouterr()
        code = main(["import", fmt, str(tmp_path / f"{k}.txt"), "--filesystem", "ext4", "--redact",
                     "--out", str(tmp_path / f"o{k}")])
        err = capsys.readouterr().err
        assert code == 1 and f"{line}: a figure of" in err and len(err.strip().splitlines()) == 1, err


FIO_JSON = sorted(os.path.join(SAMPLES_DIR, "fio", n) for n in os.listdir(os.path.join(SAMPLES_DIR, "fio"))
                  if n.endswith(".json"))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_no_figure_of_fio_s_json_is_read_from_a_string_of_other_digits(tmp_path_factory, capsys, data):
    """The rule (round 61): one number of a real fio JSON report written as a string whose digits
    include another script's (or an underscore between two): the import refuses in one line, or
    reads no figure the report did not hold (float() read "２１１７.8" as 2117.8)."""
    path = data.draw(st.sampled_from(FIO_JSON), label="sample")
    raw = open(path).read()
    report = json.loads(raw[raw.index("{"):])  # after fio's "note:" lines, where it printed any
    # the figures the importer reads beside the counts check_sides holds against each other
    spots = [(p, v) for p, v in numbers_in(report) if p and p[0] in ("jobs", "client_stats")
             and (p[-1] in ("mean", "usr_cpu", "sys_cpu") or len(p) > 1 and p[-2] == "percentile")]
    where, value = data.draw(st.sampled_from(spots), label="number")
    text = repr(value)
    at = data.draw(st.sampled_from([k for k, c in enumerate(text) if c.isdigit()]), label="digit")
    new = data.draw(st.sampled_from(OTHER_DIGITS[(int(text[at]) + 1) % 10]) | st.just("_" + text[at]), label="written")
    node = report
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = text[:at] + new + text[at + 1:]
    folder = tmp_path_factory.mktemp("fio-digits")
    (folder / "after.json").write_text(json.dumps(report))
    _, before = _imported_values(folder / "a", "fio", path, capsys)
    code, after = _imported_values(folder / "b", "fio", str(folder / "after.json"), capsys)
    assert code == 1 or after <= before, (where, sorted(after - before)[:5])


def test_round_62_fio_options_and_pts_lines_in_other_digits_are_refused_at_their_place(tmp_path, capsys):
    """A fio option of '1_6' or '１6' became a cell's parameter (and a sweep's dimension); PTS's
    <Hardware> 'Memory: 2 x 16_384 MB' was read as 384 MB: refused, naming the JSON Pointer or
    the element."""
    report = open(os.path.join(SAMPLES_DIR, "fio", "fio-3.33-json-plus.json")).read()
    pts = open(os.path.join(SAMPLES_DIR, "pts", "schema-two-systems.xml")).read()
    cases = [("fio", report.replace('"rw" : "write",', '"rw" : "write", "iodepth" : "1_6",', 1), "/job options/iodepth"),
             ("fio", report.replace('"bs" : "64k"', '"bs" : "６4k"', 1), "/job options/bs"),
             ("pts", pts.replace("Memory: 2 x 16384 MB", "Memory: 2 x 16_384 MB"), "<Hardware>")]
    for k, (fmt, text, place) in enumerate(cases):
        assert text not in (report, pts)
        (tmp_path / f"{k}.in").write_text(text)
        capsys.readouterr()
        code = main(["import", fmt, str(tmp_path / f"{k}.in"), *(["--filesystem", "ext4"] if fmt == "fio" else []),
                     "--out", str(tmp_path / f"o{k}")])
        err = capsys.readouterr().err
        assert code == 1 and place in err and "a figure of" in err and len(err.strip().splitlines()) == 1, err
