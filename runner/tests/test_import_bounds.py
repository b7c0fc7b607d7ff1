"""An output holding more runs or cells than a result may hold (its schema: 1,000 samples a
metric, 5,000 cells) is refused at the line of the first run or row past the bound, before the
rest is read into measurements; at the bound it imports (adversary of #65, round 74: a bonnie++
CSV of 35,678 runs took 19.5 s of CPU, mostly wording the schema's refusal of the result; an
IOzone table of 80,000 rows 1.1 GB, refused by the memory bound naming no place)."""
import contextlib
import io

import pytest
from hypothesis import given, settings, strategies as st

from fsatlas.cli import main
from fsatlas.results import resultfile
from testutil import SAMPLES

SCHEMA = resultfile.schema()
MOST_RUNS = SCHEMA["$defs"]["metric"]["properties"]["samples"]["maxItems"]
MOST_CELLS = SCHEMA["properties"]["cells"]["maxItems"]
CSV = next(line for line in (SAMPLES / "bonnie" / "bonnie-1.97-plus-signs.csv").read_text().splitlines()
           if line.startswith("1.97"))
DD = (SAMPLES / "dd" / "dd-9.1-english.txt").read_text()
AUTO = (SAMPLES / "iozone" / "auto-mode-ramdisk-2010.txt").read_text()
HEAD = AUTO.split("         1048576      64")[0]  # the report up to its table's first row
ROW = "{:16d}      64  309500  346052   741827   692543  668591  342610  943661   375120   986910\n"


def _import(tmp, kind: str, text: str, *options: str) -> tuple[int, str]:
    tmp.mkdir(parents=True, exist_ok=True)
    path = tmp / "in.txt"
    path.write_text(text)
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["import", kind, str(path), "--filesystem", "ext4", "--out", str(tmp / "out"), *options])
    return code, err.getvalue().strip()


def _refused_at(tmp, kind: str, text: str, line: int) -> None:
    code, err = _import(tmp, kind, text)
    assert code == 1 and "\n" not in err and (f"in.txt:{line}:" in err or f"in.txt: line {line}:" in err), err
    assert not (tmp / "out" / "results").exists() or not list((tmp / "out" / "results").iterdir())


@settings(max_examples=4, deadline=None)
@given(blank=st.integers(0, 3), extra=st.integers(1, 3))
def test_bonnie_and_dd_runs_past_the_bound_are_refused_at_the_first_ones_line(tmp_path_factory, blank, extra):
    tmp = tmp_path_factory.mktemp("runs")
    _refused_at(tmp / "b", "bonnie", "\n" * blank + _runs(MOST_RUNS + extra), blank + MOST_RUNS + 1)
    runs = DD.count("records out")
    # the dd sample's runs, repeated: the first summary past the bound, counted by hand
    copies = MOST_RUNS // runs + extra
    text = "\n" * blank + DD * copies
    summary_lines = [n for n, line in enumerate(text.split("\n"), 1) if " copied, " in line]
    if len(summary_lines) > MOST_RUNS:
        _refused_at(tmp / "d", "dd", text, summary_lines[MOST_RUNS])


def _runs(count: int) -> str:
    """count bonnie++ CSV lines, each a run of its own (its first rate i higher: one line twice
    is one run twice, refused)."""
    fields = CSV.split(",")
    at = next(i for i, f in enumerate(fields) if i > 5 and f.isdigit() and int(f) > 100)
    return "".join(",".join(fields[:at] + [str(int(fields[at]) + i)] + fields[at + 1:]) + "\n" for i in range(count))


def test_bonnie_at_the_bound_imports(tmp_path):
    code, err = _import(tmp_path, "bonnie", _runs(MOST_RUNS), "--redact")  # its host name
    assert code == 0, err


@settings(max_examples=3, deadline=None)
@given(blank=st.integers(0, 3))
def test_an_iozone_table_past_the_cells_bound_is_refused_at_the_row_that_passes_it(tmp_path_factory, blank):
    tmp = tmp_path_factory.mktemp("cells")
    per_row = 9  # the figures of a row after kB and reclen: each a cell of its own
    rows = MOST_CELLS // per_row + 2
    text = "\n" * blank + HEAD + "".join(ROW.format(k) for k in range(1, rows + 1))
    past = next(r for r in range(1, rows + 1) if r * per_row > MOST_CELLS)  # the row whose cells pass the bound
    _refused_at(tmp, "iozone", text, blank + HEAD.count("\n") + past)


def _iozone_runs(shape: str, count: int) -> tuple[str, int]:
    """(an IOzone output of count runs, each a line of its own figures, the line of its first)."""
    if shape == "table rows":  # one file and record size run again and again: runs of its cells
        row = "         1048576      64{:8d}  346052   741827   692543  668591  342610  943661   375120   986910\n"
        return HEAD + "".join(row.format(309500 + i) for i in range(count)), HEAD.count("\n") + 1
    if shape == "children runs":  # one test of one process count
        return "".join(f"\tChildren see throughput for  1 initial writers  = {400000 + i}.00 kB/sec\n" for i in range(count)), 1
    return "".join(f"\tChildren see throughput for {i + 1} initial writers  = 400000.00 kB/sec\n" for i in range(count)), 1


@pytest.mark.parametrize("shape", ["table rows", "children runs", "children cells"])
@settings(max_examples=2, deadline=None)
@given(blank=st.integers(0, 3), extra=st.integers(1, 3))
def test_iozone_runs_or_cells_past_the_bound_are_refused_at_the_first_ones_line(tmp_path_factory, shape, blank, extra):
    """Table rows of one file and record size, Children lines of one test and process count (each
    a run), or of as many process counts (each a cell): refused at the line of the first run or
    cell past the bound (round 78: Children lines past it were refused naming no line)."""
    most = MOST_CELLS if shape == "children cells" else MOST_RUNS
    text, first = _iozone_runs(shape, most + extra)
    _refused_at(tmp_path_factory.mktemp("iozone"), "iozone", "\n" * blank + text, blank + first + most)


def test_iozone_runs_at_the_bound_import(tmp_path):
    for shape in ("table rows", "children runs"):
        code, err = _import(tmp_path / shape.replace(" ", "-"), "iozone", _iozone_runs(shape, MOST_RUNS)[0], "--redact")
        assert code == 0, err


def test_a_text_report_redaction_makes_longer_than_the_bound_is_refused_naming_its_input(tmp_path):
    """A dd log at the text bound whose address --redact writes as "[redacted]", two bytes longer
    (adversary of #65, round 76: refused as an output import "should have refused: please report
    it"): refused in one line naming the input and the bound, nothing written."""
    from fsatlas.results import importers
    head = "$ ssh 10.0.0.5 dd if=/dev/zero of=/mnt/f bs=1M count=64 status=progress\n"
    tail = DD
    progress = "67108864 bytes (67 MB, 64 MiB) copied, 1 s, 67 MB/s\r"
    fill = importers.MAX_TEXT_BYTES - len(head.encode()) - len(tail.encode())
    text = head + progress * (fill // len(progress)) + " " * (fill % len(progress)) + tail
    assert len(text.encode()) == importers.MAX_TEXT_BYTES
    code, err = _import(tmp_path, "dd", text, "--redact")
    assert code == 1 and "\n" not in err and "in.txt: a text report of" in err and "[redacted]" in err, err
    assert "please report" not in err
    assert not (tmp_path / "out" / "results").exists() or not list((tmp_path / "out" / "results").iterdir())
