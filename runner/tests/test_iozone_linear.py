"""IOzone's table is read in time linear in the report's size (issue #61 item 6: 20,000 headers
took 63 s, each header copying the text before it and splitting all the text after it). The
lazy readers are differential-tested against the str methods they replace, and the work is
counted (characters of the lines read) as the number of headers doubles."""
from hypothesis import given, settings, strategies as st

from fsatlas.results.importers import iozone

LINE_ENDS = ["\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
TEXT = st.lists(st.one_of(st.sampled_from(LINE_ENDS), st.text(max_size=12))).map("".join)


@settings(max_examples=150)
@given(text=TEXT, data=st.data())
def test_the_lazy_lines_are_splitlines_and_the_line_before_is_the_copy_s(text, data):
    pos = data.draw(st.integers(0, len(text)), label="pos")
    assert [line for _, line in iozone._lines(text, pos)] == text[pos:].splitlines()
    assert all(text.startswith(line, start) for start, line in iozone._lines(text, pos))
    assert iozone._line_before(text, pos) == text[:pos].rstrip("\n").rsplit("\n", 1)[-1]


def _report(headers: int) -> str:
    """A table header, rows, and then `headers` more header lines (the adversary's report)."""
    table = "              kB  reclen    write  rewrite\n            1024       4   123456   234567\n\n"
    return "\tIozone: Performance Test of File I/O\n" + table + "              kB  reclen    write\n" * headers


def test_the_work_grows_with_the_report_not_its_square(monkeypatch):
    """Characters of the lines the table reader takes, for n and 2n headers: twice as many (the
    old reader split the whole rest of the text at each header: four times as many)."""
    read = []
    lines = iozone._lines

    def counted(text, pos):
        for start, line in lines(text, pos):
            read.append(len(line) + 1)
            yield start, line
    monkeypatch.setattr(iozone, "_lines", counted)
    work = []
    for n in (2_000, 4_000):
        read.clear()
        measurements = iozone.parse(_report(n), "r")
        assert {m.workload for m in measurements} == {"seq-write", "rewrite"}
        work.append(sum(read))
    assert work[1] / work[0] < 2.2, work
