"""IOzone's report is read whole or refused in one line naming the line (adversary of #65, round 74):

- every row of a table IOzone wrote is read whole, or the import is refused naming the input,
  the line and IOzone's figures (non-negative decimal numbers), writing nothing: "nan",
  "1e400" or "-434998" in row 5 of an -a table dropped rows 5 to 7 without a word (F5);
- the digit screen refuses only the lines whose figures the importer reads: a command line, a
  prompt, a path, a uname line before or inside the output are the user's words, and import the
  figures of the output without them (F4: "/mnt/2024_01_15/file1" was refused as a figure);
- a figure written with a nonzero digit that no double holds, as written or in bytes
  (positionally, 0.000…0001 with hundreds of zeros, read as 0.0; or 1000…0, read as inf) is
  refused naming its line (F7; the shared reader and fio's JSON: test_positional_figures)."""
import re

from hypothesis import HealthCheck, assume, example, given, settings, strategies as st

from fsatlas.cli import main
from fsatlas.results import importers
from testutil import SAMPLES, with_edited_digit
from test_positional_figures import _POSITIONAL, _no_double

TABLES = ["auto-mode-ramdisk-2010.txt", "single-test-ssd-2009.txt"]
THROUGHPUT = ["throughput-mode-beegfs.txt", "throughput-mode-ops-beegfs.txt"]
_ROW = re.compile(r"^[ \t]+\d+[ \t]+\d+[ \t]+\d")
_CHILDREN = re.compile(r"Children see throughput for")


def _text(name: str) -> str:
    return (SAMPLES / "iozone" / name).read_text()


def _figures(text: str) -> list:
    return [(m.workload, m.parameters, m.values) for m in importers.FORMATS["iozone"].parse(text, "x")]


def _import(tmp_path, capsys, text: str, name: str = "in.txt"):
    """(exit status, stderr) of `fsatlas import iozone` of text, and whether it wrote nothing."""
    folder = tmp_path / name.replace(".", "-")
    folder.mkdir()
    path = folder / name
    path.write_text(text)
    capsys.readouterr()
    code = main(["import", "iozone", str(path), "--filesystem", "ext4", "--redact", "--out", str(folder / "out")])
    err = capsys.readouterr().err
    return code, err, path, not (folder / "out").exists() or not any((folder / "out").rglob("*"))


def _refused_on(code, err, path, nothing, line: int):
    lines = [e for e in err.splitlines() if not e.startswith(("note:", "warning:"))]
    assert code == 1 and nothing and len(lines) == 1, err
    assert lines[0].startswith(f"fsatlas import: {path}: line {line}: a figure of "), err
    assert "expected IOzone's figures" in lines[0], err


def _imported_and_valid(code, err, path, nothing, capsys):
    assert code == 0 and not nothing, err
    assert main(["validate", "--no-cache", str(path.parent / "out" / "results")]) == 0, capsys.readouterr()


def _cells(line: str) -> list:
    """(start, end) of each figure of a table row."""
    return [m.span() for m in re.finditer(r"\S+", line)]


# what is no figure of IOzone's: any word without white space that is not ASCII digits with at
# most one point between them (nan, inf, 1e400, -434998, 1,5, 0x1f, ４４６, …)
_NOT_FIGURES = st.one_of(
    st.sampled_from(["nan", "NaN", "inf", "-inf", "1e400", "1e-400", "-434998", "+434998", "1,5", "4.3.2",
                     ".5", "5.", "0x1f", "N/A", "-", "４４６", "٣٤", "434_998"]),
    st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zs", "Zl", "Zp")), min_size=1, max_size=6),
).filter(lambda t: not any(c.isspace() for c in t) and not re.fullmatch(r"\d+(\.\d+)?", t, re.ASCII))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
@example(data=None)
def test_a_row_with_a_word_that_is_no_figure_is_refused_naming_its_line(tmp_path_factory, capsys, data):
    """Any row, any cell of it (its file size, record size or a figure), any word that is no
    figure written where the figure was, right-aligned under its column or in the figure's
    place alone, the rest of the row moved (round 76: "nan" for a file size, unpadded, ended the
    table without a word): refused naming that line, nothing written. None: the adversary's
    named example (row 5's 434998 as nan)."""
    tmp_path = tmp_path_factory.mktemp("rows")
    aligned = True
    if data is None:
        name, token, row, cell = TABLES[0], "nan", 15, 2
    else:
        name = data.draw(st.sampled_from(TABLES), label="sample")
        token = data.draw(_NOT_FIGURES, label="token")
        aligned = data.draw(st.booleans(), label="aligned")
    lines = _text(name).split("\n")
    rows = [i for i, line in enumerate(lines) if _ROW.match(line)]
    if data is not None:
        row = data.draw(st.sampled_from(rows), label="row")
        cell = data.draw(st.integers(0, len(_cells(lines[row])) - 1), label="cell")
    start, end = _cells(lines[row])[cell]
    if aligned:
        at = min(start, end - len(token))  # right-aligned where the figure ended, over spaces before it
        assume(at > 0 and not lines[row][at - 1:start].strip())
        lines[row] = lines[row][:at] + token.rjust(end - at) + lines[row][end:]
    else:
        lines[row] = lines[row][:start] + token + lines[row][end:]
    _refused_on(*_import(tmp_path, capsys, "\n".join(lines)), line=row + 1)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(THROUGHPUT), data=st.data())
def test_a_children_line_whose_figure_is_split_or_deleted_is_refused_naming_it(tmp_path_factory, capsys, name, data):
    """A "Children see throughput" line of a test IOzone's reader takes, its figure split by a
    space ("482 114.97") or deleted: refused naming that line (round 76: the line was passed
    over, its test gone without a word)."""
    lines = _text(name).split("\n")
    read = [i for i, line in enumerate(lines) if _CHILDREN.search(line)]
    i = data.draw(st.sampled_from(read), label="line")
    figure = re.search(r"=\s*(\d+(?:\.\d+)?)\s", lines[i])
    assume(figure)
    start, end = figure.span(1)
    if data.draw(st.booleans(), label="delete"):
        lines[i] = lines[i][:start] + lines[i][end:]
    else:
        cut = data.draw(st.integers(start + 1, end - 1), label="cut")
        lines[i] = lines[i][:cut] + " " + lines[i][cut:]
    _refused_on(*_import(tmp_path_factory.mktemp("children"), capsys, "\n".join(lines)), line=i + 1)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(TABLES),
       after=st.lists(st.text(st.sampled_from(list("abcXYZ .:-=\t\"'")), max_size=30), min_size=1, max_size=3),
       blank=st.booleans())
@example(name=TABLES[0], after=["iozone test complete."], blank=False)
def test_a_table_that_ends_still_ends(tmp_path_factory, capsys, name, after, blank):
    """A table ended by a blank line, IOzone's "iozone test complete." or other text (no figure
    in it) right after its last row imports the figures it held, and validate passes."""
    tmp_path = tmp_path_factory.mktemp("end")
    lines = _text(name).split("\n")
    last = max(i for i, line in enumerate(lines) if _ROW.match(line))
    edited = lines[:last + 1] + ([""] if blank else []) + after + lines[last + 1:]
    assert _figures("\n".join(edited)) == _figures(_text(name))
    _imported_and_valid(*_import(tmp_path, capsys, "\n".join(edited)), capsys)


# the user's words: paths and names of digits of any script, underscores, points and letters
_WORDS = st.text(st.sampled_from(list("0123456789_.-/az") + ["٣", "４", "७"]), min_size=1, max_size=16)
_PASTED = ["./iozone -t 1 -i 0 -F /mnt/{}/file1 -Rb x.xls", "[root@node1 ~]# ./iozone -a -f /scratch/{}/f",
           "$ iozone -a -s 16M -r 4 -f {}", "# {}", "        Machine = Linux host 6.1.0-{} #1 SMP x86_64"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(TABLES + THROUGHPUT), pasted=st.lists(st.tuples(st.sampled_from(_PASTED), _WORDS), min_size=1, max_size=3))
@example(name=THROUGHPUT[0], pasted=[(_PASTED[0], "2024_01_15")])
@example(name=THROUGHPUT[0], pasted=[(_PASTED[1], "01_run")])
@example(name=TABLES[0], pasted=[(_PASTED[4], "1_2")])
def test_the_user_s_words_before_the_output_import_the_same_figures(name, pasted):
    text = _text(name)
    before = "".join(line.format(words) + "\n" for line, words in pasted)
    assert _figures(before + text) == _figures(text)


def test_a_pasted_command_line_imports_and_validates(tmp_path, capsys):
    """The adversary's example, through the command: imported, and validate passes."""
    text = _text(THROUGHPUT[0]).replace("/mnt/beegfs/iozone_test/file1", "/mnt/2024_01_15/file1")
    _imported_and_valid(*_import(tmp_path, capsys, "[root@node1 ~]# " + text), capsys)


_EDITS = ["٣", "４", "७", "๕", "_"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(TABLES + THROUGHPUT), pasted=st.lists(st.tuples(st.sampled_from(_PASTED), _WORDS), max_size=2),
       data=st.data())
@example(name=THROUGHPUT[0], pasted=[], data=None)
def test_an_edited_figure_in_a_line_iozone_s_reader_takes_is_refused_naming_it(tmp_path_factory, capsys, name, pasted, data):
    """A digit of a table row or a Children line written in another script, or two of its digits
    parted by an underscore, is refused naming the line, whatever the user pasted before the
    output. None: the adversary's example (477_185.91 kB/sec)."""
    tmp_path = tmp_path_factory.mktemp("edit")
    before = ["".join(line.format(words)) for line, words in pasted]
    lines = before + _text(name).split("\n")
    read = [i for i, line in enumerate(lines) if i >= len(before) and (_ROW.match(line) or _CHILDREN.search(line))]
    if data is None:
        i = next(i for i in read if "477185.91" in lines[i])
        lines[i] = lines[i].replace("477185.91", "477_185.91")
    else:
        i = data.draw(st.sampled_from(read), label="line")
        digits = [k for k, c in enumerate(lines[i]) if c.isdigit()]
        k = data.draw(st.sampled_from(digits), label="digit")
        edit = data.draw(st.sampled_from(_EDITS), label="edit")
        lines[i] = with_edited_digit(lines[i], k, edit)
        if lines[i] is None:
            return
    _refused_on(*_import(tmp_path, capsys, "\n".join(lines)), line=i + 1)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(literal=_POSITIONAL, where=st.sampled_from(["row", "children"]))
@example(literal="0." + "0" * 400 + "1", where="children")
def test_a_positional_iozone_figure_no_double_holds_is_refused_naming_its_line(tmp_path_factory, capsys, literal, where):
    tmp_path = tmp_path_factory.mktemp("positional")
    if where == "row" and _no_double(literal):  # right-aligned, a figure a double holds is too long for its column
        lines = _text(TABLES[0]).split("\n")
        i = [i for i, line in enumerate(lines) if _ROW.match(line)][-1]
        lines[i] = re.sub(r"\S+$", literal, lines[i])
    else:
        lines = _text(THROUGHPUT[0]).split("\n")
        i = next(i for i, line in enumerate(lines) if _CHILDREN.search(line))
        lines[i] = re.sub(r"=\s*[\d.]+", "=  " + literal, lines[i])
    if _no_double(literal, 1024):  # IOzone's kB/sec as bytes/s
        _refused_on(*_import(tmp_path, capsys, "\n".join(lines)), line=i + 1)
    else:  # read as written (a result holds figures up to 1e18: the result's checks judge it)
        assert _figures("\n".join(lines))[0][2] == {"throughput": float(literal) * 1024}


