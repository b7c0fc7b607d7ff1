"""dd's closing summary line ('N bytes (...) copied, S s, R MB/s', in any language; coreutils
5's and BSD's 'N bytes transferred in S secs'; busybox's); each summary is one repetition
(results/dd_output says which lines count and how they are read). The throughput is computed
from the byte count and the seconds, not from dd's rounded rate."""
from ..dd_output import RECORDS, filled_lines, summaries
from .. import figures
from ...errors import UserError
from .measurement import Measurement, bounds

MAX_BYTES = 2 ** 63 - 1  # dd's counts are off_t
MAX_SECONDS = 1e9  # about 32 years


def _read_lines(text: str) -> set:
    """The numbers of the lines dd_output reads figures from: the summaries, and the records lines
    (what a terminal shows of each, as summaries reads). Its other lines may hold the user's words:
    dd's diagnostics quote its operands ("dd: error writing '/mnt/2024_01_15/f': No space left on
    device": adversary of #65, round 72)."""
    read = {number for *_, number in summaries(text)}
    return read | {number for number, line in filled_lines(text)
                   if "+" in line and RECORDS.search(line.rsplit("\r", 1)[-1])}


def _refuse_edited_lines(text: str, where: str) -> None:
    """A UserError naming the first line that dd_output would read (a summary, a records line)
    had its figures been in ASCII digits, and that holds a figure of another script's digits or
    of underscores ("6٧108864 bytes", "6_4+0 records out"): not one to pass over (round 62)."""
    figures.refuse_edited_lines(text, where, "dd's", _read_lines, shown=lambda line: line.rsplit("\r", 1)[-1])


def parse(text: str, where: str, workload: str | None = None) -> list:
    _refuse_edited_lines(text, where)
    out, most = [], bounds()[1]
    for size, seconds, line in summaries(text):
        if len(out) == most:  # each summary a run of the one cell, which holds at most that many
            raise UserError(f"more than {most:,} dd summaries (runs)", where=f"{where}:{line}",
                            expected=f"at most {most:,} runs an output: a cell holds at most {most:,} repetitions")
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
