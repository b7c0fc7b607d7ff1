"""Every problem fsatlas prints is one line naming the file: a file name (or a text a file
quotes) holding a newline, a carriage return or a terminal escape is shown escaped, never
obeyed (#65 round 55: a name with a newline split validate's line in two, one with an ANSI
sequence recoloured the terminal). Names drawn at random; the expected escape is Python's
ascii() of each such character, an implementation fsatlas does not call."""
import os
import tempfile
import unicodedata

from hypothesis import HealthCheck, given, settings, strategies as st

from fsatlas.cli import main

CONTROLS = ("Cc", "Zl", "Zp")
names = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="/\x00"), min_size=1, max_size=40) \
    .filter(lambda n: n not in (".", "..") and len(n.encode()) < 200)


def _escaped(text: str) -> str:
    return "".join(ascii(c)[1:-1] if unicodedata.category(c) in CONTROLS else c for c in text)


def _one_line(err: str) -> str:
    assert err.endswith("\n") and not any(unicodedata.category(c) in CONTROLS for c in err[:-1]), repr(err)
    return err[:-1]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])  # read each time
@given(name=names)
def test_validate_and_report_name_any_file_in_one_line(name, capsys):
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, name + ".json")
        with open(path, "w", encoding="utf-8") as f:
            f.write("{")
        assert main(["validate", "--no-cache", path]) == 1
        line = _one_line(capsys.readouterr().err)
        assert line.startswith(f"{_escaped(path)}: error: "), line
        assert main(["report", path, path + "x"]) == 1  # a UserError naming the file
        line = _one_line(capsys.readouterr().err)
        assert _escaped(path) in line, line


texts = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)


@settings(max_examples=200)
@given(message=texts, where=texts, field=texts, expected=texts, found=texts)
def test_a_refusal_is_one_line_whatever_its_message_quotes(message, where, field, expected, found):
    """The rule: a UserError prints as one line whatever any of its parts quotes (round 58: fio's
    `"bw_bytes": "\\n"` went into the message and split the line); each part as _escaped() shows it."""
    from fsatlas.errors import UserError
    text = str(UserError(message, where=where, field=field, expected=expected, found=found))
    assert not any(unicodedata.category(c) in CONTROLS for c in text)
    assert _escaped(message) in text and _escaped(where) in text and _escaped(field) in text


def test_a_listing_is_the_lines_below_the_first():
    """Beside it: a refusal listing problems (aggregate's) keeps each on a line of its own below."""
    from fsatlas.errors import UserError
    text = str(UserError("2 problems; fix them first:", where="data/results", listing="a: x\nb: y\x1b[31m"))
    assert text.splitlines() == ["data/results: 2 problems; fix them first:", "a: x", "b: y\\x1b[31m"]
