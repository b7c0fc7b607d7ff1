"""dd's closing summary line ('N bytes (...) copied, S s, R MB/s', in any locale, or BSD's
'N bytes transferred in S secs'); each summary is one repetition (results/dd_output says
which lines count). The throughput is computed from the byte count and the seconds, not from
dd's rounded rate."""
import re

from ..dd_output import RECORDS, summaries

RECORDS_LINE = re.compile(RECORDS.pattern, re.M)  # dd's "N+M records out", anywhere in the text
from ...errors import UserError
from .measurement import Measurement


def parse(text: str, where: str, workload: str | None = None) -> list:
    out = []
    for size, seconds, line in summaries(text):
        if seconds <= 0:
            raise UserError("dd reports zero seconds: too fast to measure", where=f"{where}:{line}")
        out.append(Measurement(workload or "dd", {"bytes": size}, {"throughput": size / seconds},
                               {"throughput": ("bytes/s", "higher")}))
    if not out:
        raise UserError("no dd summary line after a 'records out' line", where=where,
                        expected="dd's own output, such as '4194304 bytes (4.2 MB, 4.0 MiB) copied, 1.2 s, 3.5 MB/s' "
                                 "(any language) after '4+0 records out'")
    return out


def looks_like(text: str) -> bool:
    return bool(RECORDS_LINE.search(text)) and bool(summaries(text))


def tool_version(text: str) -> str | None:
    """dd names no version in its output."""
    return None
