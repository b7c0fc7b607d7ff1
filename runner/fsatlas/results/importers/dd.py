"""dd's closing summary line ('N bytes (...) copied, S s, R MB/s', in any language; coreutils
5's and BSD's 'N bytes transferred in S secs'; busybox's); each summary is one repetition
(results/dd_output says which lines count and how they are read). The throughput is computed
from the byte count and the seconds, not from dd's rounded rate."""
import re
import unicodedata

from ..dd_output import RECORDS, filled_lines, summaries
from .. import figures
from ...errors import UserError
from .measurement import Measurement

MAX_BYTES = 2 ** 63 - 1  # dd's counts are off_t
MAX_SECONDS = 1e9  # about 32 years


_OTHER_DIGIT = re.compile(r"(?![0-9])\d")  # a decimal digit of another script than ASCII


def _in_ascii(text: str) -> str:
    """text with every decimal digit in ASCII and no underscore between two digits, its lines
    where they were: what dd would read had its figures been written as dd writes them."""
    text = _OTHER_DIGIT.sub(lambda m: str(unicodedata.decimal(m.group())), text)
    return re.sub(r"(?<=\d)_(?=\d)", "", text)


def _refuse_edited_lines(text: str, where: str) -> None:
    """A UserError naming the first line that dd_output would read (a summary, a records line)
    had its figures been in ASCII digits, and that holds a figure of another script's digits or
    of underscores ("6٧108864 bytes", "6_4+0 records out"): not one to pass over (round 62). The
    lines it does not read may hold the user's words: dd's diagnostics quote its operands ("dd:
    error writing '/mnt/2024_01_15/f': No space left on device": adversary of #65, round 72)."""
    if not figures.other_figure(text):
        return
    ascii_text = _in_ascii(text)
    read = {number for *_, number in summaries(ascii_text)}
    read |= {number for number, line in filled_lines(ascii_text)
             if "+" in line and RECORDS.search(line.rsplit("\r", 1)[-1])}  # what a terminal shows, as summaries reads
    lines = {number: line for number, line in filled_lines(text) if number in read}
    for number in sorted(read):
        found = figures.other_figure(lines[number].rsplit("\r", 1)[-1])
        if found:
            raise UserError(f"a figure of {found[:40]!r}", where=where, field=f"line {number}",
                            expected="dd's figures, in ASCII digits")


def parse(text: str, where: str, workload: str | None = None) -> list:
    _refuse_edited_lines(text, where)
    out = []
    for size, seconds, line in summaries(text):
        if seconds <= 0:
            raise UserError("dd reports zero seconds: too fast to measure", where=f"{where}:{line}")
        if size > MAX_BYTES or not seconds <= MAX_SECONDS:  # nothing dd can print (#65 round 58: tracebacks, a rate of 0)
            raise UserError(f"a summary of {str(size)[:30]} bytes in {seconds:g} s", where=f"{where}:{line}",
                            expected=f"a byte count dd can copy (below 2^63) in at most {MAX_SECONDS:g} s")
        out.append(Measurement(workload or "dd", {"bytes": size}, {"throughput": size / seconds},
                               {"throughput": ("bytes/s", "higher")}))
    if not out:
        raise UserError("no dd summary line after a 'records out' line, nor summary lines alone", where=where,
                        expected="dd's own output, such as '4194304 bytes (4.2 MB, 4.0 MiB) copied, 1.2 s, 3.5 MB/s' "
                                 "(any language), after '4+0 records out' or on its own")
    return out


def looks_like(text: str) -> bool:
    return bool(summaries(text))


def tool_version(text: str) -> str | None:
    """dd names no version in its output."""
    return None
