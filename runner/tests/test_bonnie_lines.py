"""bonnie++'s CSV lines found by one search over the text (adversary of #65, round 72: a line at
a time in Python, several passes an import, took 54 s behind 5 MB of blank lines): the lines,
their numbers and the host names' places are those the line-at-a-time reference finds, whatever
ends the lines."""
import re

from hypothesis import given, settings, strategies as st

from fsatlas.results.importers import bonnie
from testutil import SAMPLES

CSV = [line for name in ("bonnie-1.96-stdout.txt", "bonnie-1.03c-stdout.txt", "bonnie-2.00-full-stdout.txt")
       for line in (SAMPLES / "bonnie" / name).read_text().splitlines() if bonnie._ANY_CSV_LINE.match(line)]
PIECES = CSV + ["", " ", "Version 1.96", "rakku  24G  1037  90", "1.96,", "x,1,2", "  1.96,1.96,a", "+++++"]
BREAKS = ["\n", "\r\n", "\r", "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u2029", "\n\n"]


def reference_lines(text):
    return [(i, line.rstrip("\r")) for i, line in enumerate(text.splitlines(), 1)
            if bonnie.CSV_LINE.match(line) or bonnie.OLD_CSV_LINE.match(line.rstrip("\r"))]


def reference_names(text):
    spans = []
    for line in re.finditer(r"^.*$", text, re.M):
        row = line.group(0).rstrip("\r")
        if bonnie.CSV_LINE.match(row) or bonnie.OLD_CSV_LINE.match(row):
            fields = row.split(",")
            index = 0 if not bonnie.CSV_LINE.match(row) else 2
            if index >= len(fields):
                continue
            start = line.start() + sum(len(f) + 1 for f in fields[:index])
            spans.append((start, start + len(fields[index])))
    return spans


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(PIECES), st.sampled_from(BREAKS)), max_size=12))
def test_the_csv_lines_are_those_a_line_at_a_time_finds(parts):
    text = "".join(piece + end for piece, end in parts)
    assert bonnie.csv_lines(text) == reference_lines(text)
    assert set(reference_names(text)) <= set(bonnie.host_names(text))


@given(st.sampled_from(["1.96,", "1.96,1.96", "2,1.90a,", "1.98,1.98,", "laptop,8G"]), st.sampled_from(["", "\n", "\r\n"]))
@settings(max_examples=15, deadline=None, suppress_health_check=list(__import__("hypothesis").HealthCheck))
def test_a_csv_line_cut_short_is_one_located_line(tmp_path_factory, capsys, line, end):
    """Cut before its name field, a line was an IndexError traceback (host_names read the name)."""
    from fsatlas.cli import main
    folder = tmp_path_factory.mktemp("short")
    (folder / "b.txt").write_text(line + end)
    capsys.readouterr()
    assert main(["import", "bonnie", str(folder / "b.txt"), "--filesystem", "ext4", "--out", str(folder / "out")]) == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "b.txt" in err, err
