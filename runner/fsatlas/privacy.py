"""Looks for what a published result file should not hold: host names, user names, serial
numbers, MAC and IP addresses. Findings are warnings: `validate` shows them, a human decides.
"""
import getpass
import platform
import re

TLDS = "com|net|org|local|lan|internal|corp|home|intra|de|uk|io"
PATTERNS = [
    ("a MAC address", re.compile(r"\b[0-9a-f]{2}(?::[0-9a-f]{2}){5}\b", re.I)),
    ("an IPv4 address", re.compile(r"(?<![\d.])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?![\d.])")),
    ("an IPv6 address", re.compile(r"\b(?:[0-9a-f]{1,4}:){2,7}[0-9a-f]{1,4}\b|\b[0-9a-f]{1,4}::[0-9a-f:]*\b", re.I)),
    ("a host name", re.compile(r"\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:" + TLDS + r")\b", re.I)),
    ("a user's home folder", re.compile(r"/(?:home|Users)/[^/\s]+")),
    ("a serial number", re.compile(r"\b(?:serial|s/n|sn)[\s:=#]+[A-Z0-9-]{4,}", re.I)),
]


# One search per string instead of one per pattern (a standard result holds 6,800 strings);
# where several patterns match, the leftmost match is the one named.
ANY = re.compile("|".join(f"(?P<p{i}>{f'(?i:{p.pattern})' if p.flags & re.I else p.pattern})"
                          for i, (_, p) in enumerate(PATTERNS)))
# What every match of a pattern above holds, in the same order: a colon; digit, dot, digit; a dot
# and a top-level domain; a home folder; a serial number's label. Each branch starts with a
# character, so re skips to the candidates, where ANY tries six patterns at every position: a
# quick result's 1,843 strings (210 raw file paths) take 1.6 ms instead of 10.8 ms.
NEEDS = re.compile(r":|\d\.\d|\.(?:" + TLDS + r")\b|/(?:home|Users)/|(?:serial|s/n|sn)[\s:=#]", re.I)


def _strings(value, path=""):
    """(JSON Pointer, text) of every string in value; numbers (most of a result file: its
    samples) are passed over without a generator each."""
    if isinstance(value, str):
        yield path, value
        return
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        if isinstance(item, str):
            yield f"{path}/{key}", item
        elif isinstance(item, (dict, list)):
            yield from _strings(item, f"{path}/{key}")


def findings(data) -> list[tuple[str, str]]:
    """(JSON Pointer, what it looks like) for each suspicious string."""
    mine = {x for x in (platform.node(), platform.node().split(".")[0], _user()) if x and len(x) > 2 and x != "root"}
    names = re.compile("|".join(rf"\b{re.escape(name)}\b" for name in sorted(mine))) if mine else None
    out = []
    for path, text in _strings(data):
        match = NEEDS.search(text) and ANY.search(text)
        if match:
            what = PATTERNS[int(match.lastgroup[1:])][0]
            out.append((path, f"looks like {what} ({match.group(0)!r}); result files are published"))
        elif names and names.search(text):
            out.append((path, "contains this machine's host or user name; result files are published"))
    return out


def _user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return ""
