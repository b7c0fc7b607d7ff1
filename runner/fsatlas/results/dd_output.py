"""dd's closing summary line, the one thing of dd's output that fsatlas reads: by the dd workload
when it runs, and by the importer and validation when they read a raw file.

GNU dd's summary is one translatable format, "%d bytes (%s, %s) copied, %s, %s" (coreutils
8.24 on; "(%s)" alone before, "%d byte copied" for a count too small to abbreviate), and a
translation may put its words anywhere: German "1048576 Bytes (1,0 MB, 1,0 MiB) kopiert, 0,05 s,
…", Ukrainian "скопійовано 1048576 байтів (…), 0,05 s, …", Chinese "1048576 字节 (…) 已复制，0,05 s，
…" with full-width punctuation. coreutils 5 and BSD's dd wrote "N bytes transferred in S
seconds|secs (R bytes/sec)", busybox "N bytes (1.0MB) copied, S seconds, R MB/s". What every
one of them keeps is the order of the figures: outside parentheses, the byte count comes
first, then the seconds (a number followed by a unit that is no size and no rate), then,
where there is one, the rate. So the summary is read by its figures, never by its words, and
the decimal mark may be a point or a comma.

A summary counts only where it follows dd's "records out" line (the only line of dd's with
"N+M" in it, "16+0 records out", "输出了 16+0 块记录"): with status=progress dd also prints lines of
the summary's shape while it runs, ended by carriage returns, which are not results. A text
with no "records out" line at all counts when every line of it is a summary: the summary
line alone, as people paste it ("3221225472 bytes (3.2 GB, 3.0 GiB) copied, 135.213 s, 23.8 MB/s").
"""
import functools
import re

RECORDS = re.compile(r"(?<!\d)\d+\+\d+")  # "512+0 records out", "512+0 Datensätze aus", "输出了 512+0 块记录"
TRUNCATED = re.compile(r"^\D*\d+\D*$")  # one figure alone: "1 truncated record", in any language
_PARENTHESES = re.compile(r"[(（][^()（）]*[)）]")
LONGEST = 500  # characters: a summary is about 80; longer lines are not read (a regex over a
# megabyte-long line of digits or parentheses must not decide how long validate takes)
# a figure and the unit written after it, up to the next space, digit or punctuation
# (not after a minus: "-2.5 s" is no time dd writes, and was read as 2.5: round 59; ASCII digits
# only: a full-width "４４６" is none of dd's, nor is any part of a figure that holds another
# script's digit or an underscore: "6" of "6٠108864", "1" of "1.5٣", "5" of "5e-１", "67" or "864"
# of "67_108_864" (rounds 60 and 61)
# Nor is a figure grouped by apostrophes ("1'048'576", printf's %'d in a Swiss locale: dd writes
# none), whose parts read as a count, seconds and a rate (adversary of #65, round 71).
_FIGURE = re.compile(r"(?<![\d.,_'’-])([0-9]+(?:[.,][0-9]+)?(?:[eE][-+]?[0-9]+)?)(?![\d_]|[.,'’]\d|[eE][-+]?\d)"
                     r"\s*([^\s\d,，、;；]*)")
_SIZE_OR_RATE = re.compile(r"[BbＢ]|/")  # a size or a rate: "bytes", "MB", "B/s", "МБ/с" (never a time)


# times in another unit than the second, which no dd writes: "12.3 ms" read as seconds was a
# throughput 1,000 times too low (#65 round 58)
_NOT_SECONDS = frozenset({"ms", "msec", "msecs", "us", "µs", "μs", "usec", "ns", "min", "mins", "minutes", "h", "hours",
                          "millisecond", "milliseconds", "microsecond", "microseconds", "nanosecond", "nanoseconds",
                          "m", "minute", "hour", "hr", "hrs", "d", "day", "days", "week", "weeks"})


def _is_seconds(unit: str) -> bool:
    """A unit after the second figure that is a time in seconds ("s", "secs", "seconds",
    "Sekunden", "秒", Cyrillic "с"), not a size, a rate, or another unit of time."""
    return bool(unit) and not _SIZE_OR_RATE.search(unit) and unit.lower() not in _NOT_SECONDS


def parse_line(line: str) -> tuple[int, float] | None:
    """(bytes, seconds) of a line shaped like dd's summary, or None."""
    if RECORDS.search(line):
        return None
    figures = _FIGURE.findall(_PARENTHESES.sub(" ", line))
    if len(figures) < 2:
        return None
    (count, _), (seconds, unit) = figures[:2]
    if not count.isdigit() or not _is_seconds(unit):
        return None
    if len(figures) > 2 and not _SIZE_OR_RATE.search(figures[2][1]):
        return None  # a third figure is the rate ("590 MB/s", "3,0 GB/s") or nothing
    return int(count), float(seconds.replace(",", "."))


_FILLED = re.compile(r"\S[^\n]*")  # from a line's first character that is no white space to its end


def filled_lines(text: str):
    """(number, line) of each line of text that holds more than white space, lines ended by "\n"
    or "\r\n" (a lone "\r" is progress rewriting one): found by one search, the blank lines
    between never judged in Python (8 MB of newlines before a summary took an import 26 s of
    CPU: adversary of #65, round 72)."""
    number, at = 1, 0
    for filled in _FILLED.finditer(text):
        start = text.rfind("\n", 0, filled.start()) + 1
        number, at = number + text.count("\n", at, start), start
        line = text[start:filled.end()]
        yield number, line[:-1] if line.endswith("\r") and text.startswith("\n", filled.end()) else line


def summaries(text: str) -> list[tuple[int, float, int]]:
    """(bytes, seconds, line number) of every closing summary in dd's output."""
    return list(_summaries(text))


@functools.lru_cache(maxsize=2)  # an import and validate ask it of one text several times
def _summaries(text: str) -> tuple[tuple[int, float, int], ...]:
    out, after_records = [], False
    for number, line in filled_lines(text):
        line = line.rsplit("\r", 1)[-1].strip()  # what a terminal shows of a line progress rewrote
        if not line:
            continue
        if len(line) > LONGEST:
            after_records = False
            continue
        found = after_records and parse_line(line)
        if found:
            out.append((*found, number))
        # "1 truncated record" (conv=block) may come between the records and the summary
        after_records = bool(RECORDS.search(line)) or (after_records and not found and TRUNCATED.search(line))
    if not out and not RECORDS.search(text):
        return tuple(_summaries_alone(text))
    return tuple(out)


def _summaries_alone(text: str) -> list[tuple[int, float, int]]:
    """Every line a summary (none rewritten by progress), or nothing; never a JSON document,
    which dd does not write (the runner's tree-copy record {"seconds": 1, "bytes_used": N} has the
    figures of a summary: a count and a time)."""
    if text.lstrip()[:1] in ("{", "["):
        return []
    out = []
    for number, line in filled_lines(text):
        line = line.strip()
        if not line:
            continue
        found = len(line) <= LONGEST and "\r" not in line and parse_line(line)
        if not found:
            return []
        out.append((*found, number))
    return out


def parse_summary(text: str) -> tuple[int, float]:
    """(bytes, seconds) from dd's closing summary line (the last, if dd ran more than once)."""
    found = summaries(text)
    if not found:
        raise ValueError("no dd summary line ('N bytes ... copied, S s, ...') in dd output")
    return found[-1][:2]
