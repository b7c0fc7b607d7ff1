"""dd's closing summary line ('N bytes (...) copied, S s, R MB/s', in any language; coreutils
5's and BSD's 'N bytes transferred in S secs'; busybox's); each summary is one repetition
(results/dd_output says which lines count and how they are read). The throughput is computed
from the byte count and the seconds, not from dd's rounded rate."""
from ..dd_output import RECORDS, summaries
from .. import figures
from ...errors import UserError
from .measurement import Measurement

MAX_BYTES = 2 ** 63 - 1  # dd's counts are off_t
MAX_SECONDS = 1e9  # about 32 years


def parse(text: str, where: str, workload: str | None = None) -> list:
    figures.refuse_other_digits(text, where, "dd's")  # a summary of "6٧108864 bytes" is not one to pass over (round 62)
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
