"""A figure read from a tool's text output: ASCII digits only.

Python's float() and int() read any Unicode decimal digit ("４４６" is 446.0, "٣" is 3) and
digits grouped by underscores ("1_000" is 1000.0). No tool imported writes either: printf
writes ASCII digits in every locale. A report holding them was edited, and its figure is
refused as one that is not a number (round 59: IOzone's table read full-width figures).
"""
import math
import re
import unicodedata

from ..errors import UserError


# A line as str.splitlines() ends one, matched where it starts: lines read one at a time, with
# their places in the text, nothing copied but each line (issue #61)
LINE = re.compile(r"([^\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]*)(?:\r\n|[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]|\Z)")


def ascii_text(text: str) -> str:
    """text, where it is ASCII without underscores; ValueError otherwise, as float() raises for
    what it cannot read."""
    if not text.isascii() or "_" in text:
        raise ValueError(f"not an ASCII figure: {text[:40]!r}")
    return text


def lost_to_zero(text: str, value: float) -> bool:
    """Whether a figure read as value 0.0 was written with a nonzero digit: one below the smallest
    double, in an exponent ("1e-400") or in its places ("0.000…0001", 400 zeros: adversary of
    #65, round 74), that float() and JSON parsers read as 0.0 without a word."""
    return value == 0 and bool(re.search(r"[1-9]", re.split(r"[eE]", text, maxsplit=1)[0]))


def number(text: str, kind=float):
    """kind(text) of an ASCII figure (ascii_text): a finite number, and not 0 where the figure
    is not (lost_to_zero: 1e-400 is below the smallest double: read, it was 0.0; adversary of
    #65, round 71)."""
    value = kind(ascii_text(text))
    if kind is float and (not math.isfinite(value) or lost_to_zero(text, value)):
        raise ValueError(f"not a figure a double holds: {text[:40]!r}")
    return value


def json_number(value) -> float:
    """A figure of a JSON report (fio's) as a float: a JSON number, or a string of ASCII digits
    (fio writes no other; float() read "２１１７.8" and "2_117.8" as 2117.8: round 61)."""
    return number(value) if isinstance(value, str) else float(value)


# a figure written with another script's digit or an underscore ("３90935", "482_114.97", "２4G",
# "1_6"), which a tool's ASCII patterns do not read: passing it over dropped the rest of an IOzone
# table, a test or a parameter without a word, or kept "２4G" as bonnie++'s file size (round 61).
# Names holding digits ("ssd_1", "テスト１", "1_node") are words, not figures: one begins after
# no letter, and holds a digit of another script or an underscore between two digits. Each
# candidate is found once and judged alone (a lookahead over the rest of a run of dots or digits
# from every position of it took n² steps: 40 KB of dots, 75 s; adversary of #65, round 71).
_CANDIDATE = re.compile(r"(?<!\w)[\d_]+(?:\.[\d_]+)?")
_UNDERSCORED = re.compile(r"[\d.]*\d_\d")  # from the candidate's start, through digits and points


def _other(candidate: str) -> bool:
    """Whether the candidate is a figure of other digits, or one of underscores from its start or
    from after its point (no word character before either: "0_0" of "_.0_0")."""
    point = candidate.find(".")
    return (any(c not in "0123456789_." for c in candidate) or bool(_UNDERSCORED.match(candidate))
            or point >= 0 and bool(_UNDERSCORED.match(candidate, point + 1)))


def _first_other(text: str):
    return next((m for m in _CANDIDATE.finditer(text) if _other(m.group())), None)


def other_figure(text: str) -> str | None:
    """The first figure in text that is not of ASCII digits (_other()), or None."""
    m = _first_other(text)
    return m.group() if m else None


def refuse_other_digits(text: str, where: str, whose: str, names=()) -> None:
    """A UserError naming the line of the first figure in text that is not of ASCII digits
    (_other()); whose: the tool's name, as "IOzone's". NAMES: (start, end) spans of text the tool
    copied from its user (a host or job name, a command line), never read as a figure: a path
    of "/mnt/2024_01_15" or a job "16_4k" is no edited figure (adversary of #65, round 71)."""
    if names:  # each name blanked, its line breaks kept: places stay where they were
        pieces, at = [], 0
        for start, end in sorted(names):
            start = max(start, at)
            pieces += [text[at:start], re.sub(r"[^\n\r]", " ", text[start:end])]
            at = max(at, end)
        text = "".join(pieces) + text[at:]
    m = _first_other(text)
    if m:
        raise UserError(f"a figure of {m.group()[:40]!r}", where=where,
                        field=f"line {text.count(chr(10), 0, m.start()) + 1}", expected=f"{whose} figures, in ASCII digits")


_OTHER_DIGIT = re.compile(r"(?![0-9])\d")  # a decimal digit of another script than ASCII


def in_ascii(text: str) -> str:
    """text with every decimal digit in ASCII and no underscore between two digits, its lines
    where they were: what a tool's reader would read had its figures been written as the tool
    writes them."""
    text = _OTHER_DIGIT.sub(lambda m: str(unicodedata.decimal(m.group())), text)
    return re.sub(r"(?<=\d)_(?=\d)", "", text)


def refuse_edited_lines(text: str, where: str, whose: str, read, shown=lambda line: line) -> None:
    """A UserError naming the first line that a tool's reader takes a figure from, had its figures
    been in ASCII digits, and that holds a figure of another script's digits or of underscores
    ("6٧108864 bytes", "477_185.91 kB/sec"): an edited figure, not one to pass over. read(text):
    the numbers (from 1, lines ended by "\n") of the lines the reader takes figures from in text;
    shown(line): the part of such a line it reads. Every other line may hold the user's words,
    which a tool repeats or a user pastes beside its output: a command line's path
    "/mnt/2024_01_15/f", a prompt, a kernel "6.1.0-1_2" (adversaries of #65, rounds 72 and 74).
    whose: the tool's name, as "IOzone's"."""
    if not other_figure(text):
        return
    numbers = sorted(set(read(in_ascii(text))))
    if not numbers:
        return
    lines = text.split("\n", numbers[-1])  # in_ascii kept every "\n" where it was
    for number in numbers:
        found = other_figure(shown(lines[number - 1].removesuffix("\r")))  # the first numbers[-1] lines whole
        if found:
            raise UserError(f"a figure of {found[:40]!r}", where=where, field=f"line {number}",
                            expected=f"{whose} figures, in ASCII digits")
