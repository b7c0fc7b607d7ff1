"""The screens a tool's text passes before a figure is read from it (adversary of #65, round 71):
- a figure not of ASCII digits is found exactly where the former single regex found one (kept
  here as the reference), each candidate judged once (the reference's lookahead ran over the
  rest of a run of dots from every position of it: n² steps);
- a figure a double cannot hold (1e-400, nan, inf) is refused, not read as 0.0 or NaN;
- dd's summary is not read from a count grouped by apostrophes, nor its time from another unit."""
import json
import math
import re

from hypothesis import example, given, settings, strategies as st

from fsatlas.results import dd_output, figures, importers
from fsatlas.results.importers import fio, fio_options
from testutil import SAMPLES, with_edited_digit

REFERENCE = re.compile(r"(?<!\w)(?=[\d_.]*(?![0-9])\d|[\d.]*\d_\d)[\d_]+(?:\.[\d_]+)?")


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("0123456789_._.a z\n-") + ["٣", "４", "²", "é"]), max_size=30))
@example("_1_2")
@example("1.2.٣")
@example("1.2._3_4")
@example("ssd_1")
@example("1_node")
@example("482_114.97")
@example("_.0_0")
def test_the_screen_finds_a_figure_exactly_where_the_reference_does(text):
    assert (figures.other_figure(text) is None) == (REFERENCE.search(text) is None), text


@settings(max_examples=200, deadline=None)
@given(st.from_regex(r"\A[0-9]{1,3}(\.[0-9]{1,3})?[eE][-+]?[0-9]{1,4}\Z"))
def test_a_figure_is_the_double_it_names_or_refused(text):
    value = float(text)
    try:
        got = figures.number(text)
    except ValueError:
        assert value == 0 and re.search(r"[1-9]", text.lower().split("e")[0]) or value in (float("inf"),)
        return
    assert got == value and (value != 0 or not re.search(r"[1-9]", text.lower().split("e")[0]))


def test_nan_and_infinity_are_no_figures():
    for text in ("nan", "NaN", "inf", "-inf", "1e400", "1e-400"):
        try:
            figures.number(text)
        except ValueError:
            continue
        raise AssertionError(text)


@given(st.integers(1000, 10**12), st.sampled_from(["'", "’"]))
def test_a_count_grouped_by_apostrophes_is_no_dd_summary(count, mark):
    grouped = f"{count:,}".replace(",", mark)
    text = f"16+0 records in\n16+0 records out\n{grouped} bytes (1.0 MB, 1.0 MiB) copied, 0.5 s, 2.1 MB/s\n"
    assert dd_output.summaries(text) == []
    assert dd_output.summaries(text.replace(grouped, str(count))) == [(count, 0.5, 3)]


def test_a_time_in_another_unit_is_not_read_as_seconds():
    for unit in ("milliseconds", "microseconds", "minutes", "minute", "hours", "days", "d", "m"):
        assert dd_output.parse_line(f"1048576 bytes (1.0 MB, 1.0 MiB) copied, 500 {unit}, 2.1 MB/s") is None, unit
    for unit in ("s", "secs", "seconds", "Sekunden", "秒"):
        assert dd_output.parse_line(f"1048576 bytes (1.0 MB, 1.0 MiB) copied, 0,5 {unit}, 2.1 MB/s") == (1048576, 0.5)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(["2;", "3;fio-3.33;", "5;", "6;", "{", "x", ";" * 80, " 3;"]),
                          st.sampled_from(["\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u2029"])),
                max_size=12).map("".join))
def test_a_text_is_terse_exactly_where_one_of_its_lines_is(text):
    """fio_terse.is_terse's one search before the lines are judged changes no answer: the
    reference judges every line str.splitlines gives."""
    from fsatlas.results import fio_terse
    assert fio_terse.is_terse(text) == any(fio_terse._is_line(line) for line in text.splitlines()), repr(text)


# The user's own words a tool repeats (a host name, a job's name, the command line's paths) are
# not figures: whatever they hold, the figures read are those of the same output with another
# name, and an edited figure beside them is still refused (adversary of #65, round 71: a path
# "/mnt/2024_01_15" and a job "16_4k" were refused as edited figures).
_WORDS = st.text(alphabet=st.sampled_from(list("0123456789_.-/az") + ["٣", "４"]), min_size=1, max_size=20)


def _figures(tool, text):
    return [(m.workload.rsplit("-", 1)[-1] if tool == "fio" else m.workload, m.values)
            for m in importers.FORMATS[tool].parse(text, "x")]


def _refused(tool, text):
    try:
        _figures(tool, text)
    except Exception as error:  # a UserError naming the figure
        return "ASCII digits" in str(error)
    return False


@settings(max_examples=60, deadline=None)
@given(_WORDS)
@example("2024_01_15")
@example("ssd_1_2")
def test_a_bonnie_host_name_is_not_screened(name):
    text = (SAMPLES / "bonnie" / "bonnie-1.96-stdout.txt").read_text()
    assert _figures("bonnie", text.replace("rakku", name)) == _figures("bonnie", text)
    assert _refused("bonnie", text.replace("rakku", name).replace(",1037,", ",1０37,"))


@settings(max_examples=60, deadline=None)
@given(_WORDS)
@example("/mnt/2024_01_15/f")
def test_an_iozone_command_line_is_not_screened(words):
    text = (SAMPLES / "iozone" / "single-test-ssd-2009.txt").read_text()
    edited = text.replace("iozone -I -a -s 16M", f"iozone -I -a -f {words} -s 16M")
    assert _figures("iozone", edited) == _figures("iozone", text)
    row = next(line for line in text.splitlines() if re.match(r"\s+16384\s+4\s", line))
    assert _refused("iozone", edited.replace(row, row.replace("16384", "1_6384", 1)))


@settings(max_examples=60, deadline=None)
@given(_WORDS)
@example("16_4k")
def test_a_fio_terse_job_name_is_not_screened(name):
    text = (SAMPLES / "fio" / "fio-3.33-terse-v5.txt").read_text()
    edited = "\n".join(line.replace(";seq-write;", f";{name};", 1) for line in text.splitlines()) + "\n"
    assert [v for _, v in _figures("fio", edited)] == [v for _, v in _figures("fio", text)]
    assert _refused("fio", edited + "٥;fio-3.33;x;0;0\n")


@settings(max_examples=150, deadline=None)
@given(st.from_regex(r"\A-?(0|[1-9][0-9]{0,2})(\.[0-9]{1,3})?[eE][-+]?[0-9]{1,4}\Z"), st.booleans())
@example("1e-400", False)
@example("1e400", True)
def test_a_fio_json_number_is_the_double_it_names_or_refused(literal, inside_a_string):
    """Whichever parser reads fio's JSON, a figure written as not 0 is never read as 0.0 (orjson
    and json read 1e-400 so): it is refused, naming its line. One beyond a double reads as inf,
    refused naming its JSON Pointer (fio_json._not_finite); a literal inside a string is no number."""
    from fsatlas.errors import UserError
    from fsatlas.results import fio_json
    text = f'{{"jobs": [], "a": {json.dumps(literal) if inside_a_string else literal}}}'
    value = float(literal)
    underflow = value == 0 and re.search(r"[1-9]", re.split(r"[eE]", literal)[0])
    try:
        got = fio_json.parse(text, "f.json")["a"]
    except UserError as error:
        assert not inside_a_string and (underflow and "line 1" in str(error)
                                        or math.isinf(value) and str(error).startswith("f.json: /a: ")), (literal, error)
        return
    assert got == (literal if inside_a_string else value) and (inside_a_string or not underflow and math.isfinite(value)), literal


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["cgroup", "write_iolog", "read_iolog", "aux_path", "ioengine", "trigger_file", "exec_prerun"]),
       _WORDS, st.sampled_from(sorted(fio._FIGURE_OPTIONS - fio.PLACES)))
@example("cgroup", "fio/2024_01_15", "iodepth")
@example("aux_path", "/var/tmp/16_4k", "runtime")
@example("cgroup", "x", "number_ios").via("adversary of #65, round 74")
@example("cgroup", "x", "random_distribution").via("adversary of #65, round 74")
@example("cgroup", "x", "cpus_allowed").via("adversary of #65, round 74")
@example("cgroup", "x", "verify_backlog").via("adversary of #65, round 74")
@example("cgroup", "x", "file_service_type").via("adversary of #65, round 77")
@example("cgroup", "x", "numa_mem_policy").via("adversary of #65, round 77")
def test_a_fio_option_is_screened_only_where_fio_reads_a_figure(text_option, words, figure_option):
    """A text option (a path, a cgroup, an engine's library) holds the user's words, which fio
    takes as written; an option fio reads as a figure (and keeps in a cell) holds none of other
    digits."""
    report = json.loads((SAMPLES / "fio" / "fio-3.33-json-plus.json").read_text())
    value = f"external:{words}" if text_option == "ioengine" else words
    report["global options"] = {**report.get("global options", {}), text_option: value}
    expected = _figures("fio", (SAMPLES / "fio" / "fio-3.33-json-plus.json").read_text())
    assert [v for _, v in _figures("fio", json.dumps(report))] == [v for _, v in expected]
    report["global options"][figure_option] = "1_6"
    assert _refused("fio", json.dumps(report))


_DD_SAMPLES = sorted((SAMPLES / "dd").glob("*.txt"))
_OTHER_DIGITS = ["٣", "４", "७", "๕"]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(_DD_SAMPLES), _WORDS, st.sampled_from(["dd: error writing '{}': No space left on device",
                                                              "dd: failed to open ‘{}’: Permission denied",
                                                              "$ dd if=/dev/zero of={} bs=1M count=64"]))
@example(_DD_SAMPLES[0], "/mnt/2024_01_15/fill.bin", "dd: error writing '{}': No space left on device")
@example(_DD_SAMPLES[0], "/mnt/１号/16_4k", "dd: failed to open ‘{}’: Permission denied")
def test_a_path_dd_repeats_is_not_screened(sample, words, line):
    text = sample.read_text()
    assert _figures("dd", f"{line.format(words)}\n{text}") == _figures("dd", text)


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(_DD_SAMPLES), st.data())
def test_a_figure_dd_reads_edited_into_other_digits_is_refused_on_its_line(sample, data):
    """A records or summary line whose digit is written in another script, or whose two digits
    an underscore parts, is refused naming its line (it would be passed over as no summary, or
    read in part)."""
    text = sample.read_text()
    lines = text.split("\n")
    read = sorted({number - 1 for *_, number in dd_output.summaries(text)} |
                  {i for i, line in enumerate(lines) if dd_output.RECORDS.search(line.rsplit("\r", 1)[-1])})
    i = data.draw(st.sampled_from(read))
    digits = [k for k, c in enumerate(lines[i]) if c.isdigit() and k > lines[i].rfind("\r")]  # in what is shown
    k = data.draw(st.sampled_from(digits))
    edit = data.draw(st.sampled_from(_OTHER_DIGITS + ["_"]))
    lines[i] = with_edited_digit(lines[i], k, edit)
    if lines[i] is None:
        return
    from fsatlas.errors import UserError
    try:
        _figures("dd", "\n".join(lines))
    except UserError as error:
        assert f"line {i + 1}" in str(error) or "ASCII" not in str(error), error
        return
    raise AssertionError(f"accepted: {lines[i]!r}")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(["2;a;0;0;" + ";" * 80, "3;fio-3.33;j_1;0;0;" + "0;" * 10, "5;x", " 3;", "x"]),
                          st.sampled_from(["\n", "\r", "\r\n", "\x0b", "\x1c", "\x85", "\u2028"])),
                max_size=10).map("".join))
def test_the_terse_job_names_are_those_of_every_terse_line(text):
    """job_names finds its lines by one search: they are the lines str.splitlines gives that
    _is_line takes, each name its second field (version 2) or third."""
    from fsatlas.results import fio_terse
    found = [text[a:b] for a, b in fio_terse.job_names(text)]
    expected = [line.split(";")[1 if line.startswith("2;") else 2] for line in text.splitlines() if fio_terse._is_line(line)]
    assert found == expected, repr(text)
