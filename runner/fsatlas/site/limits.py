"""What a limit cell's text of the feature matrix says (data/features: "2 TiB", "2^32 - 1",
"255 UTF-16 code units"): whether it is a limit of its column at all (limit_why, the rule the count
and check-data share), the amount it writes (limit_amount), and whether it writes what a probe
found (limit_agrees, which check-data, the probe tables and the corrections page read). One
reading of the text for all of them, and for the tables' sorting (aggregate.limit_sort)."""
import re
import unicodedata

# A limit is a positive number (digits, thousands grouped by commas or by spaces, a decimal point,
# or a power 2^N, N maybe negative, less a few), then its column's unit (a count may name its
# column's word: entries, links, files), then at most a qualifier that does not take it back: in
# brackets, after a comma, semicolon or colon, after an em dash, a final full stop, or "per ...":
# "(4 KiB blocks)", "per dataset", "(the format)". Read as NFKC, superscript digits a power (2³²
# is 2^32), letters ASCII only (a Kelvin sign is a K, a dotless i no i; the micro sign is NFKC's
# Greek mu), units by their case (Kib, Tb and Ms are bits and megaseconds). The numbers are atomic
# and a group begins with 1-9: "1,000 bytes" is a thousand bytes, never 1 and a qualifier
# ",000 bytes", and "0,255" no number. (limit_why, whose rule the count and check-data share.)
_GROUPED = r"[1-9]\d{0,2}(?:,\d{3})+|[1-9]\d{0,2}(?: \d{3})+"
_NUMBER = (rf"(?P<number>(?>(?:{_GROUPED})(?:\.\d+)?|(?:0|[1-9]\d*)(?:\.\d+)?))"
           rf"(?:\s*\^\s*(?P<power>(?>[-\u2212]?\d+))(?:\s*[-\u2212\u2013]\s*(?P<less>(?>{_GROUPED}|0|[1-9]\d*)))?)?")
_SCALE = r"(?:\s+(?P<scale>thousand|million|billion|trillion|quadrillion))?"
_BYTES = r"\s*(?:bytes?|(?-i:[kKMGTPEZY]i?B|B))"
LIMIT_UNITS = {  # a limit column -> the units its number is given in
    "max_file_size": _BYTES, "max_volume_size": _BYTES, "xattr_max_value": _BYTES,
    "max_filename_length": r"\s*(?:bytes?|(?-i:B)|(?:UTF-16\s+)?(?:code\s+units?|characters?)|(?:Unicode\s+)?(?:characters?|chars?))",
    "timestamp_resolution": r"\s*(?:(?-i:ns|[\u00b5\u03bc]s|us|ms|s)|(?:nano|micro|milli)?seconds?|[num]?secs?)",
    # a count: its column's word, or none
    "acl_max_entries": r"(?:\s+(?:ACL\s+)?entr(?:y|ies))?", "hard_link_limit": r"(?:\s+(?:hard\s+)?links?)?",
    "max_files": r"(?:\s+(?:files?|inodes?))?",
}
COUNT_COLUMNS = frozenset({"acl_max_entries", "hard_link_limit", "max_files"})
# what may follow a limit's number and unit: a comma or semicolon before a digit would be part of a number
_QUALIFIER = r"(?=\.?$|\s*[(\[]|\s*[,;:](?!\d)|\s*\u2014|\s+\u2013\s+(?!\d)|\s+per\b)"
# a qualifier that takes the number back: "0 (no document read gives it)", "4 KiB (unknown)",
# "255 bytes (a guess, unverified)"
DOUBT = (r"unknown|undocumented|unanswered|guess(?:ed|timate)?|unverified|unconfirmed|uncertain|unclear|unsure"
          r"|maybe|perhaps|probably|possibly|likely|reportedly|supposedly|allegedly|assumed|estimated?|untested"
          r"|approx(?:imately)?|roughly|or so|tb[cd]|not sure|not known|no idea|hard to say|from memory")
_TAKEN_BACK = re.compile(rf"\b(?:no|not|none|n/a|n\.a|nothing|never|wrong|incorrect|outdated|obsolete|circa|ca|about"
                         rf"|around|todo|fixme|verify|citation needed|unsourced|guessing|guesses|false|bogus|doubtful|nearly"
                         rf"|almost|more or less|at least|or more|minimum|lower bound|{DOUBT})\b|n't\b|[?~\u00b1\u2248]", re.I)
def plain(text: str) -> str:
    """Text as the doubt patterns read it: markup marks gone and a hyphen inside a word too
    ("_unknown_", "un-verified")."""
    return re.sub(r"(?<=\w)-(?=\w)", "", re.sub(r"[_*`]", "", text))


_SUPERSCRIPTS = "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"


def _limit_text(text) -> str:
    """A limit's text as it is read: superscript digits (a superscript minus before them) after a
    digit its power, then NFKC and white space single. A superscript left over (2³²⁻¹, where
    NFKC would read a minus) is no number: it becomes a character no limit holds."""
    text = re.sub(f"(?<=\\d)\u207b?[{_SUPERSCRIPTS}]+(?![0-9])", lambda m: "^" + "".join(
        "-" if c == "\u207b" else str(_SUPERSCRIPTS.index(c)) for c in m.group(0)), str(text))
    text = re.sub(f"[{_SUPERSCRIPTS}\u207a\u207b]", "\x00", text)
    text = unicodedata.normalize("NFKC", text).replace("\u2010", "-")  # NFKC's hyphen (of U+2011, UTF‑16)
    return " ".join(text.split())


def _limit_match(key: str, said: str, qualified: bool = True):
    """The number, scale and unit a limit's text (_limit_text) begins with, followed by nothing but
    a qualifier (_QUALIFIER; not qualified: by anything), or None."""
    return re.match(_NUMBER + _SCALE + f"(?P<unit>{LIMIT_UNITS.get(key, '')})" + (_QUALIFIER if qualified else ""),
                    said, re.I | re.ASCII)


_PREFIXES = "KMGTPEZY"  # the binary and decimal prefixes of bytes, in order


def _prefixed(key: str, found) -> bool:
    """Whether a limit's unit scales its number: KiB, kB, ms, µs (not bytes, ns, a count or a name unit)."""
    unit = " ".join(found.group("unit").split())
    return (key in ("max_file_size", "max_volume_size", "xattr_max_value") and unit[:1].upper() in _PREFIXES) \
        or (key == "timestamp_resolution" and unit[:1].lower() not in ("n", ""))


_HUGE_DIGITS = 100  # a power past this many digits is past any finding: compared as infinite, not computed


def _limit_value(found):
    """(the number a limit's match writes, before its scale and unit, a Decimal: exact, Infinity
    for a power past _HUGE_DIGITS digits; its decimals, None for a power), or None where it is no
    number (0^0)."""
    from decimal import Decimal, DecimalException, localcontext
    number = found.group("number").replace(",", "").replace(" ", "")
    less = found.group("less")
    less = Decimal(less.replace(",", "").replace(" ", "")) if less else Decimal(0)
    with localcontext() as exact:  # room for every digit a value of at most _HUGE_DIGITS holds
        exact.prec = 2 * _HUGE_DIGITS + len(number) + len(str(less))
        try:
            if not found.group("power"):
                return Decimal(number) - less, len(number.partition(".")[2])
            base, power = Decimal(number), int(found.group("power").replace("\u2212", "-"))
            if base == 0:
                return (Decimal(0) - less, None) if power else None
            digits = base.log10() * power  # the power's size in decimal digits, without computing it
            if digits > _HUGE_DIGITS:
                return Decimal("Infinity"), None
            return (base ** power if digits > -_HUGE_DIGITS else Decimal(0)) - less, None
        except (DecimalException, ValueError):
            return None


def limit_why(key: str, text) -> str:
    """Why a limit cell's text is no limit of its column ("" where it is one): LIMIT_UNITS."""
    hidden = [c for c in str(text) if unicodedata.category(c) == "Cf"]
    if hidden:  # the page prints the text as written: a bidi override shows "setyb 552"
        return f"{text!r} is no limit (it holds the format character U+{ord(hidden[0]):04X}, which a page shows otherwise)"
    said = _limit_text(text)
    unit = "" if key in COUNT_COLUMNS else " with its unit"
    found = _limit_match(key, said)
    if not found:
        loose = _limit_match(key, said, qualified=False)
        if loose and re.match(r"\s*[-+*/^\u2212\u2013\u00d7]", said[loose.end():]):
            return f"{text!r} is no limit (a number, a power of one and a number less; no more arithmetic)"
        if loose:
            return (f"{text!r} is no limit of {key} (its number{' and unit' if unit else ''} may be followed only by a "
                    f"qualifier: in brackets, after a comma, semicolon, colon or dash, or 'per ...')")
        return f"{text!r} is no limit (a number{unit}{', such as 4 KiB' if unit else ''})"
    value = _limit_value(found)
    if value is None or value[0] <= 0:
        return f"{text!r} is no limit (a limit of 0 allows nothing: no document gives one)"
    if value[0] != value[0].to_integral_value() and not found.group("scale") and not _prefixed(key, found):
        return f"{text!r} is no limit (a part of a {'count' if key in COUNT_COLUMNS else 'unit'}: a prefix or a scale word may have decimals)"
    qualifier = said[found.end():].replace("\u2019", "'")
    back = _TAKEN_BACK.search(plain(qualifier)) or _TAKEN_BACK.search(re.sub(r"[-_]", " ", qualifier))
    if back:
        return f"{text!r} is no limit: its qualifier takes the number back ({back.group(0)!r})"
    return ""


# What the number of a limit stands for, to set it beside a probe's finding (probe_findings: a
# limit in bytes, entries, links, ns, UTF-16 code units or characters). Binary prefixes are
# exact; a decimal one (KB) is read both ways, as documents use it both ways; a scale word is a
# power of ten.
_SCALE_WORDS = {"": 1, "thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12,
                "quadrillion": 10**15}
# each spelling of a time unit, singular and with µ as u -> nanoseconds
_NS = {"ns": 1, "nsec": 1, "nanosecond": 1, "us": 10**3, "usec": 10**3, "microsecond": 10**3, "ms": 10**6,
       "msec": 10**6, "millisecond": 10**6, "s": 10**9, "sec": 10**9, "second": 10**9}
_COUNT_UNITS = {"entry": "entries", "entries": "entries", "link": "links", "links": "links", "file": "files",
                "files": "files", "inode": "inodes", "inodes": "inodes"}


def limit_amount(key: str, text) -> tuple | None:
    """(the number as written, a Decimal; its decimals, or None where it is exact (a power less a
    few); the factors to the probe's unit it may stand for; the kind of unit: bytes, ns, UTF-16
    code units, characters, or a count's word, "" where it gives none) of a limit's text, or None
    where limit_why refuses it."""
    if limit_why(key, text):
        return None
    found = _limit_match(key, _limit_text(text))
    value, decimals = _limit_value(found)
    scale = _SCALE_WORDS[(found.group("scale") or "").lower()]
    written = " ".join(found.group("unit").split())
    if key == "timestamp_resolution":
        word = written.lower().replace("\u03bc", "u").replace("\u00b5", "u")
        return value, decimals, [scale * _NS[word[:-1] if len(word) > 2 and word.endswith("s") else word]], "ns"
    if key == "max_filename_length":
        word = written.lower()
        kind = "bytes" if word.startswith("byte") or word == "b" else \
            "UTF-16 code units" if word.startswith(("utf", "code")) else "characters"  # "Unicode characters", "chars"
        return value, decimals, [scale], kind
    if key in COUNT_COLUMNS:
        return value, decimals, [scale], _COUNT_UNITS.get(written.lower().split()[-1] if written else "", "")  # its word, or ""
    # bytes, with a prefix or without
    prefix = written[0].upper() if written[:1].upper() in _PREFIXES and written[1:2] in ("i", "B") else ""
    power = _PREFIXES.index(prefix) + 1 if prefix else 0
    binary = written[1:2] == "i" if prefix else True
    return value, decimals, sorted({scale * 1024**power} | (set() if binary else {scale * 1000**power})), "bytes"


COUNTS = frozenset({"entries", "links"})  # a probe's units of a count: a limit without a unit counts them


def limit_agrees(key: str, text, finding: dict) -> str:
    """"" where a limit's text says what a probe's "ok" finding of its column found, else why it
    does not: in the unit the probe counts in (a name in bytes is not a name in UTF-16 code units),
    the found number as the text writes it (to its decimals, rounded half to even or half up, for
    one of the factors its unit may stand for: "2 TiB" for 2,196,873,666,560 bytes), or, where
    the probe stopped before it found the limit (at_least), a limit not below what it reached,
    unrounded."""
    from decimal import Decimal, ROUND_HALF_EVEN, ROUND_HALF_UP, localcontext
    amount = limit_amount(key, text)
    if amount is None:
        return ""  # no limit: unanswered_why's to refuse
    value, decimals, factors, kind = amount
    unit = finding.get("unit", "")
    if kind != unit and not (kind == "" and unit in COUNTS):
        return f"the probe counts in {unit}, the limit in {kind or 'no unit (a count)'}"
    with localcontext() as exact:  # room for every digit the finding and the text's decimals hold
        exact.prec = len(str(finding["limit"])) + (decimals or 0) + 40
        for factor in factors:
            found = Decimal(finding["limit"]) / factor
            if finding.get("at_least"):  # a floor: the text's limit may not lie below it, however it rounds
                if value >= found:
                    return ""
                continue
            if decimals is None:
                if value == found:
                    return ""
                continue
            step = Decimal(1).scaleb(-decimals)
            if value in (found.quantize(step, rounding=ROUND_HALF_EVEN), found.quantize(step, rounding=ROUND_HALF_UP)):
                return ""
    return (f"the probe found {'at least ' if finding.get('at_least') else ''}{finding['limit']:,} {unit}, "
            f"which {text!r} does not write")
