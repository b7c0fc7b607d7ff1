"""Looks for what a published result file, or its raw output, should not hold: host names,
user names, e-mail addresses, personal machine labels, serial numbers, MAC and IP addresses.

Findings are errors (validation.PRIVATE marks them): result files and raw output are
published as they are. A maintainer who checked a finding lists it in
data/privacy-reviewed.txt, or runs `fsatlas validate --allow-private`.
"""
import getpass
import platform
import re
from functools import lru_cache

# Internal names no public suffix list holds, but which name machines on every private network.
PRIVATE_TLDS = frozenset("local lan internal corp home intra intranet localdomain private priv".split())
# Endings of file names that are also top-level domains (.sh, .py, .md…): "run.sh" is a file,
# "build.example.sh" or "alice.sh" written after an @ is not. Two-label names ending in one of
# these are taken for files.
FILE_ENDINGS = frozenset("sh py md pl rs so zip mov cc ps ml in am pm rb cs ts mk hs as ac ad dat "
                         "bin bz tar tgz json ini cfg conf log txt csv yml yaml toml xml html htm gz xz "
                         "img iso raw out job jobs fio ko c h o a d".split())

PATTERNS = [
    ("a MAC address", re.compile(r"\b[0-9a-f]{2}(?::[0-9a-f]{2}){5}\b", re.I)),
    # (loopback and the unspecified address name no machine: fio's client/server output has them)
    ("an IPv4 address", re.compile(r"(?<![\d.])(?!127\.|0\.0\.0\.0(?![\d.]))(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?![\d.])")),
    # IPv6 (RFC 4291 2.2): eight groups, or fewer around one "::"; three numbers joined by colons
    # (a Phoronix Test Suite RawString, 355:358:355) are no address
    ("an IPv6 address", re.compile(r"\b(?:[0-9a-f]{1,4}:){7}[0-9a-f]{1,4}(?![0-9a-f:])"
                                   r"|\b(?:[0-9a-f]{1,4}:){1,6}:(?:[0-9a-f]{1,4}(?::[0-9a-f]{1,4}){0,5})?(?![0-9a-f:])", re.I)),
    # (starts where a run of its characters starts: tried at every place in a run, it read the run
    # to its end each time, a time quadratic in a line's length)
    ("an e-mail address", re.compile(r"(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")),
    ("a user's home folder", re.compile(r"/(?:home|Users)/[^/\s\"']+|(?<![\w/])/root(?![\w-])|[A-Za-z]:\\\\?Users\\\\?[^\\\s\"']+|~[a-z_][a-z0-9_-]*/")),
    ("a user name", re.compile(r"\b(?:user(?:name)?|login|owner|uid)\s*[:=]\s*[\"']?(?!root\b|0\b)[a-z_][a-z0-9_.-]*", re.I)),
    ("a serial number", re.compile(r"\b(?:serial|s/n|sn)[\s:=#]+[A-Z0-9-]{4,}", re.I)),
    # A label such as alice-laptop or bobs_macbook_pro names a person's own machine (a name of
    # letters before the word: a temporary folder's "30092-pc_x1" is no one's).
    ("a personal machine name", re.compile(
        r"(?<![A-Za-z0-9])(?=[A-Za-z0-9]*[A-Za-z]{2})[A-Za-z0-9]+(?:'s)?[-_](?:laptop|desktop|notebook|macbook|thinkpad|"
        r"workstation|imac|pc|nuc)(?![A-Za-z0-9])|(?<![A-Za-z0-9])(?:laptop|desktop|notebook|macbook|thinkpad|workstation|imac)"
        r"[-_][A-Za-z0-9]+", re.I)),
    # A disk's serial without its label: 10-20 capitals and digits, at least four digits and three
    # letters (Samsung S4EWNX0N123456A, WD WCC4N7PXJ2E5); not checked in device_model (KINGSTON
    # SA400S37240G is a model).
    ("a serial number", re.compile(r"(?<![A-Za-z0-9])(?=(?:[A-Z]*[0-9]){4})(?=(?:[0-9]*[A-Z]){3})[A-Z0-9]{10,20}(?![A-Za-z0-9])")),
]
SERIAL_UNLABELED = len(PATTERNS) - 1
# A name with dots whose last label may be a top-level domain; whether it is one, the public
# suffix list decides (host_name).
DOTTED = re.compile(r"(?<![A-Za-z0-9.-])(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+([A-Za-z]{2,24})(?![A-Za-z0-9-])")

# One search per string instead of one per pattern; where several match, the leftmost is named.
ANY = re.compile("|".join(f"(?P<p{i}>{f'(?i:{p.pattern})' if p.flags & re.I else p.pattern})"
                          for i, (_, p) in enumerate(PATTERNS)))
# What every match of a pattern above holds, in the same order: a colon; digit, dot, digit; an @;
# a home folder (or /root, C:\Users, ~name/); a user label; a serial number's label; a personal
# machine word (all these in any case); four digits among capitals. A string holding none is
# passed over (tests/test_fuzz.py checks that whatever a pattern matches holds one).
_NEEDED_ALTERNATIVES = (":", r"\d\.\d", "@", "/(?:home|users)/", "/root", "users", "~", "(?:user|login|owner|uid)",
                        r"(?:serial|s/n|sn)[\s:=#]", "laptop|desktop|notebook|macbook|thinkpad|workstation|imac|pc|nuc")
_NEEDED = "|".join(_NEEDED_ALTERNATIVES)
_NEEDED_CAPS = r"[A-Z0-9]{10}"
NEEDS = re.compile(f"{_NEEDED}|(?-i:{_NEEDED_CAPS})", re.I)
# The same for ASCII text, lowercased, as re tries NEEDS's case-blind alternatives one by one at
# every position: on a text with nothing to find it is the faster (2,000 characters of words:
# 53 µs against 199), on a quick result's 426 distinct strings, most of which hold a candidate
# at once, a little slower (1.9 µs a string against 1.3). Beyond ASCII, lowercasing is not what
# re's IGNORECASE does (U+0130 becomes two characters).
_NEEDED_LOWER, _CAPS = re.compile(_NEEDED), re.compile(_NEEDED_CAPS)
# The alternatives that may match a slash; what any other matches lies between two slashes.
_ACROSS_SLASHES = re.compile("|".join(a for a in _NEEDED_ALTERNATIVES if "/" in a))


def needs_a_look(text: str) -> bool:
    """Whether text holds what every match of PATTERNS holds (NEEDS, sooner). ASCII text with
    slashes is looked at part by part, each part once per process (_ascii_needs_a_look): a
    result's 210 raw references are new (they hold its id) but share every other part with
    those of every other result: 0.8 µs a reference, where the whole text took 2.0."""
    if not text.isascii():
        return bool(NEEDS.search(text))
    if "/" in text:
        return bool(_ACROSS_SLASHES.search(text.lower())) or any(map(_ascii_needs_a_look, text.split("/")))
    return _ascii_needs_a_look.__wrapped__(text)  # finding() remembers the whole text already


@lru_cache(maxsize=4096)
def _ascii_needs_a_look(text: str) -> bool:
    return bool(_NEEDED_LOWER.search(text.lower()) or _CAPS.search(text))


@lru_cache(maxsize=1)
def _suffixes():
    from publicsuffixlist import PublicSuffixList  # the list it ships (ICANN's top-level domains)
    return PublicSuffixList(only_icann=True, accept_unknown=False)


def host_name(text: str) -> str | None:
    """The first host name in text: a dotted name ending in a top-level domain, or in a private
    network's (PRIVATE_TLDS); a name of two labels whose ending is a file's is taken for a file.
    Looked for in each part between slashes, each part once per process: a dotted name holds no
    slash, and DOTTED's look-arounds take a slash as they take either end of the text, so the
    parts hold the same names in the same order. A result's 210 raw references are all new
    (they hold its id) but share their last parts (rep-1.json) with every other result's."""
    for part in text.split("/"):
        if "." in part:
            name = _host_name(part)
            if name:
                return name
    return None


@lru_cache(maxsize=4096)
def _host_name(text: str) -> str | None:
    for match in DOTTED.finditer(text):
        name, tld = match.group(0), match.group(1).lower()
        if not re.search(r"[A-Za-z]", name[:-len(tld)]):
            continue  # 1.5.GiB, 2.80GHz: a number with a unit
        if tld in PRIVATE_TLDS or (_top_level(tld) and (name.count(".") > 1 or tld not in FILE_ENDINGS)):
            return name
    return None


@lru_cache(maxsize=4096)
def _top_level(label: str) -> bool:
    """Whether label is a top-level domain; remembered, as the list's IDNA encoding of each
    name it is asked about was most of the cost of a result file's privacy check."""
    return _suffixes().is_public(label)


def _strings(value, path="", keys=True):
    """(JSON Pointer, text) of every string in value, its keys too unless keys=False (a tool's
    report: its keys are the tool's own); numbers (most of a result file: its samples) are
    passed over without a generator each."""
    if isinstance(value, str):
        yield path, value
        return
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        if keys and isinstance(key, str):
            yield f"{path}/{key}", key
        if isinstance(item, str):
            yield f"{path}/{key}", item
        elif isinstance(item, (dict, list)):
            yield from _strings(item, f"{path}/{key}", keys)


@lru_cache(maxsize=1)
def _mine():
    """This machine's host and user names, as a pattern (None when there are none worth looking
    for); once per process: a quick result's raw reports hold 30,000 strings."""
    mine = {x for x in (platform.node(), platform.node().split(".")[0], _user())
            if x and len(x) > 2 and x not in ("root", "localhost")}
    return re.compile("|".join(rf"\b{re.escape(name)}\b" for name in sorted(mine))) if mine else None


@lru_cache(maxsize=4096)
def finding(text: str, serials: bool = True) -> str | None:
    """What text holds that looks private, in words, or None. Remembered per text: a quick
    result's 7,355 strings (keys included) are 426 different ones."""
    text = _TIMES.sub("", text) if ":" in text else text  # 20:33:01 is a time of day, not IPv6
    match = needs_a_look(text) and ANY.search(text)
    while match and not serials and int(match.lastgroup[1:]) == SERIAL_UNLABELED:
        match = ANY.search(text, match.end())
    if match:
        return f"looks like {PATTERNS[int(match.lastgroup[1:])][0]} ({match.group(0)!r})"
    host = host_name(text) if "." in text else None
    if host:
        return f"looks like a host name ({host!r})"
    names = _mine()
    if names and names.search(text):
        return "contains this machine's host or user name"
    return None


_TIMES = re.compile(r"\b\d{1,2}:\d{2}(?::\d{2})?\b")


def findings(data, keys: bool = True) -> list[tuple[str, str]]:
    """(JSON Pointer, what it looks like) for each suspicious string of a result file."""
    out = []
    for path, text in _strings(data, keys=keys):
        what = finding(text, serials=not path.endswith("/device_model"))
        if what:
            out.append((path, f"{what}; result files are published"))
    return out


def document_findings(strings, data) -> list[tuple[str, str]]:
    """findings(data), found sooner given the document's distinct strings, keys included
    (resultfile.screened): the walk, which builds a JSON Pointer for each of a quick result's
    7,000 strings (6 ms), runs only when one of its 430 distinct strings looks private (as in
    almost no file)."""
    return findings(data) if any(map(finding, strings)) else []


def raw_finding(text: str) -> str | None:
    """The first private-looking thing in a raw file's text, with its place, or None. A JSON
    report (fio's) is searched string by string, passing over its thousands of numbers; other
    output (bonnie++, IOzone, dd) line by line."""
    import orjson
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError:
        data = None
    if isinstance(data, (dict, list)):
        found = findings(data, keys=False)
        return f"{found[0][0]} {found[0][1].split(';')[0]}" if found else None
    for number, line in enumerate(text.splitlines(), 1):
        what = finding(line)
        if what:
            return f"line {number} {what}"
    return None


def _user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return ""
