"""dd's closing summary line, the one thing of dd's output that fsatlas reads: by the dd workload
when it runs, and by the importer and validation when they read a raw file.

Every coreutils release and translation writes the line in one shape, "BYTES <bytes> [(SIZE,
SIZE)] <copied>, SECONDS <s>, RATE": the words and the decimal mark are the locale's
(German "Bytes … kopiert, 0,05 s", French "octets … copiés", Japanese "バイト … コピーされました、",
Chinese with full-width punctuation), older releases wrote "(537 MB)" alone or "seconds", and
BSD's dd writes "BYTES bytes transferred in SECONDS secs (RATE bytes/sec)". So the byte count
and the seconds are read by their places, never by the words. A summary counts only where it
follows dd's "records out" line ("N+M ..."): with status=progress dd also prints lines of the
same shape while it runs, ended by carriage returns, which are not results.
"""
import re

_NUMBER = r"\d+(?:[.,]\d+)?(?:[eE][-+]?\d+)?"
# BYTES word [(…)] words SEPARATOR SECONDS unit SEPARATOR  (ASCII or full-width punctuation)
SUMMARY = re.compile(r"^(?P<bytes>\d+)\s*[^\d\s(（]+\s*(?:[(（][^)）]*[)）]\s*)?[^\d,，、]*[,，、]\s*"
                     rf"(?P<seconds>{_NUMBER})\s*[^\s\d,，、]+\s*[,，、]")
BSD_SUMMARY = re.compile(rf"^(?P<bytes>\d+) bytes transferred in (?P<seconds>{_NUMBER}) secs\b")
RECORDS = re.compile(r"^\d+\+\d+\s")  # "512+0 records out", "512+0 Datensätze aus"


def summaries(text: str) -> list[tuple[int, float, int]]:
    """(bytes, seconds, line number) of every closing summary in dd's output."""
    out, previous = [], ""
    for number, line in enumerate(re.split(r"\r\n|\n", text), 1):
        line = line.rsplit("\r", 1)[-1].strip()  # what a terminal shows of a line progress rewrote
        if not line:
            continue
        match = RECORDS.match(previous) and (SUMMARY.match(line) or BSD_SUMMARY.match(line))
        if match:
            out.append((int(match.group("bytes")), float(match.group("seconds").replace(",", ".")), number))
        previous = line
    return out


def parse_summary(text: str) -> tuple[int, float]:
    """(bytes, seconds) from dd's closing summary line (the last, if dd ran more than once)."""
    found = summaries(text)
    if not found:
        raise ValueError("no dd summary line ('N bytes ... copied, S s, ...') in dd output")
    return found[-1][:2]
