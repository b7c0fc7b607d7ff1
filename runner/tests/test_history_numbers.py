"""The rule: a figure of a curated history dataset is a finite number (an integer within ±2^53),
or words the seed gave instead of a figure ("more than 10 s", "1-4", "unclear"). check-data
refuses, in one line naming the file and the row's cell, any integer beyond 2^53 (a browser reads
400 digits as infinity) and any text that spells such a number or one that is not finite (YAML
reads 1e999 as text; "9007199254740993" quoted is text too: round 18, finding 11), while every text
that is words passes (round 17, finding 8)."""
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from fsatlas.cli import main
from testutil import curated_with

DATASET = "blog-2014-dd.yaml"
CELL = "write_mb_s: 23.8"  # jfs's first figure, row 0


def _data(folder: Path, value: str) -> Path:
    return curated_with(folder, "history", DATASET, CELL, f"write_mb_s: {value}")


NOT_NUMBERS = st.sampled_from(["'1e999'", "'inf'", "'-Infinity'", "'nan'", "' NaN '", "1e999", "'1e400'"]) | \
    st.integers(min_value=2 ** 53 + 1, max_value=10 ** 400).map(str) | \
    st.integers(max_value=-(2 ** 53) - 1, min_value=-(10 ** 400)).map(str) | \
    st.integers(min_value=2 ** 53 + 1, max_value=10 ** 400).map(lambda n: f"'{n}'") | \
    st.integers(max_value=-(2 ** 53) - 1, min_value=-(10 ** 400)).map(lambda n: f"' {n}'") | \
    st.sampled_from(["'9_007_199_254_740_993'", "'0x20000000000001'", "'2501999792983:36:33'",  # round 19's spellings
                     "'9,007,199,254,740,993'", "'9 007 199 254 740 993'", "'9007199254740993e0'",
                     "'9007199254740993.0'", "9007199254740993.0", "'1.00000000000000000001'"])  # texts spelling them
WORDS = st.sampled_from(["'more than 10 s'", "'1-4'", "unclear", "'23.8'", "0", "-3.5", str(2 ** 53), f"'{2 ** 53}'",
                         "'1e18'", "1.0e+300", "23.80", "'1,024'", "'9,007,199,254,740,992'", "'1:30'"])


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=NOT_NUMBERS)
def test_a_figure_no_browser_holds_is_refused_in_one_line(tmp_path, capsys, value):
    capsys.readouterr()
    assert main(["check-data", "--data", str(_data(tmp_path, value))]) == 1
    lines = capsys.readouterr().err.splitlines()
    # the cell's pointer, or for a float YAML itself reads wrong (9007199254740993.0) the line the loader stops at
    assert len(lines) == 1 and (f"{DATASET}: error: /rows/0/write_mb_s: " in lines[0]
                                or f"{DATASET}: error: /: not readable YAML at line " in lines[0]), lines
    assert any(words in lines[0] for words in ("expected a finite number", "expected an integer within ±2^53",
                                               "expected a number a browser holds as written")), lines
    assert len(lines[0]) < 300  # a 400-digit integer is named by its digits, not printed whole


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=WORDS)
def test_words_and_figures_within_bounds_pass(tmp_path, capsys, value):
    assert main(["check-data", "--data", str(_data(tmp_path, value))]) == 0, capsys.readouterr()


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(twice=st.sampled_from(["write_mb_s: 99", "read_mb_s: 1", "filesystem: xfs"]))
def test_a_key_given_twice_in_one_mapping_is_refused_with_its_line(tmp_path, capsys, twice):
    """The rule: a curated YAML file whose mapping holds one key twice is refused in one line with
    the line of the second key (YAML readers keep the last value silently: round 18, finding 8)."""
    data = _data(tmp_path, f"23.8, {twice}")
    capsys.readouterr()
    assert main(["check-data", "--data", str(data)]) == 1
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and f"{DATASET}: error: " in lines[0] and "twice" in lines[0] and "line" in lines[0], lines


def test_every_spelling_round_19_found_reads_as_the_number_it_spells():
    """Each spelling of 2^53 + 1 that passed as words (round 19, finding 9), read as check-data
    reads a text: the number, beyond what a browser holds; and the YAML float written so."""
    import pytest
    import yaml
    from fsatlas import safe_yaml
    from fsatlas.site import knowledge
    for text in ("9_007_199_254_740_993", "0x20000000000001", "9,007,199,254,740,993", "9 007 199 254 740 993",
                 "9007199254740993e0", "9007199254740993.0", "150119987579016:33.0",  # round 20: base 60, spaces
                 *(f"9{s}007{s}199{s}254{s}740{s}993" for s in "\u2009\u2007\u3000\u00a0\u202f"),
                 # round 22: other scripts' digits grouped, and a number's letters past 64 of them
                 "\uff19,\uff10\uff10\uff17,\uff11\uff19\uff19,\uff12\uff15\uff14,\uff17\uff14\uff10,\uff19\uff19\uff13",
                 "\u0669,\u0660\u0660\u0667,\u0661\u0669\u0669,\u0662\u0665\u0664,\u0667\u0664\u0660,\u0669\u0669\u0663",
                 "0x" + "0" * 56 + "20000000000001", "0:" * 40 + "2501999792983:36:33", "1:" * 2000 + "1",
                 "1_" + "1" * 5000):
        number, spelled = knowledge._reads_as_number(text)
        assert number == 2 ** 53 + 1 or abs(number) > 2 ** 53 or not safe_yaml.reads_as_written(spelled, number), text
    assert knowledge._reads_as_number("2501999792983:36:33")[0] == 2 ** 53 + 1  # YAML 1.1's base 60
    for words in ("more than 10 s", "1-4", "unclear", "n/a"):
        assert knowledge._reads_as_number(words) is None
    for written in ("9007199254740993.0", "150119987579016:33.0", "2501999792983:36:33.0"):
        with pytest.raises(yaml.YAMLError, match="holds as written"):
            safe_yaml.load(f"write_mb_s: {written}")
    assert safe_yaml.load("a: 190:20:30.15") == {"a": 685230.15}
