"""dd's closing summary line ('N bytes (...) copied, S s, R MB/s'); each such line is one
repetition. The throughput is computed from the byte count and the seconds, not from dd's
rounded rate."""
from ...errors import UserError
from ..dd_output import SUMMARY
from .measurement import Measurement


def parse(text: str, where: str, workload: str | None = None) -> list:
    out = []
    for match in SUMMARY.finditer(text):
        size, seconds = int(match.group(1)), float(match.group(2))
        if seconds <= 0:
            raise UserError("dd reports zero seconds: too fast to measure", where=where)
        out.append(Measurement(workload or "dd", {"bytes": size}, {"throughput": size / seconds},
                               {"throughput": ("bytes/s", "higher")}))
    if not out:
        raise UserError("no dd summary line", where=where, expected="a line like '4194304 bytes (4.2 MB, 4.0 MiB) copied, 1.2 s, 3.5 MB/s'")
    return out
