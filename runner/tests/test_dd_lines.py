"""dd's summaries found with the blank lines between them skipped by one search (adversary of #65,
round 72: 8 MB of newlines before a summary took an import 26 s of CPU, each of nine passes
judging every line in Python): the summaries and their line numbers are those the former
line-at-a-time reading (kept here as the reference) finds, whatever ends the lines."""
import re

from hypothesis import example, given, settings, strategies as st

from fsatlas.results import dd_output
from fsatlas.results.dd_output import LONGEST, RECORDS, TRUNCATED, parse_line


def reference(text):
    out, after_records = [], False
    for number, line in enumerate(re.split(r"\r\n|\n", text), 1):
        line = line.rsplit("\r", 1)[-1].strip()
        if not line:
            continue
        if len(line) > LONGEST:
            after_records = False
            continue
        found = after_records and parse_line(line)
        if found:
            out.append((*found, number))
        after_records = bool(RECORDS.search(line)) or (after_records and not found and TRUNCATED.search(line))
    if not out and not RECORDS.search(text):
        if text.lstrip()[:1] in ("{", "["):
            return []
        out = []
        for number, line in enumerate(re.split(r"\r\n|\n", text), 1):
            line = line.strip()
            if not line:
                continue
            found = len(line) <= LONGEST and "\r" not in line and parse_line(line)
            if not found:
                return []
            out.append((*found, number))
    return out


PIECES = ["16+0 records in", "16+0 records out", "1048576 bytes (1.0 MB, 1.0 MiB) copied, 0.5 s, 2.1 MB/s",
          "2097152 bytes copied, 1,25 s", "1 truncated record", "dd: error writing 'f': No space", "", " ", "\t",
          "x" * (LONGEST + 1), "{", "\u2028", "\x85"]
ENDS = ["\n", "\r\n", "\r", "\r\r\n", " \n", ""]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(PIECES), st.sampled_from(ENDS)), max_size=10))
@example([("16+0 records out", "\n"), ("1048576 bytes (1.0 MB, 1.0 MiB) copied, 0.5 s, 2.1 MB/s", "\r")])
def test_the_summaries_are_those_a_line_at_a_time_finds(parts):
    text = "".join(piece + end for piece, end in parts)
    assert dd_output.summaries(text) == reference(text), repr(text)
