"""The feature matrix as the site draws it (layouts/features/list.html): every filesystem of
data/features by every column of data/feature_columns.yaml, the columns the probes answer
included. A cell is answered where its fact gives a value or limit, or, for a column a
filesystem's file leaves to the probes, where a committed probe answered it. Every other cell
carries the reason neither a document nor an experiment answers it: the documents that were
silent (the fact's note), and why no probe answered, read from the probe records (which
kernels mounted the filesystem, what the probe said, or why the filesystem was skipped), or
from the filesystem's Linux entry where no record names it.

`fsatlas check-data` prints the count, adds the cells unstated() lists, and fails when the two
together pass GOAL; the pages show each reason."""
import json
import re
import unicodedata
import urllib.parse
from functools import lru_cache
from importlib import resources

from ..run.filesystems import NO_BUILD
from .limits import DOUBT, limit_why, plain
from .probes import kernel_release, release_key

GOAL = 0.05  # at most this share of the matrix a reader sees may be unanswered
NOT_DOCUMENTED = "not documented"
NOT_APPLICABLE = "not applicable"
# the values that answer a yes/no column (schema $defs/support) or an other-systems one ($defs/access)
ANSWERS = frozenset({"yes", "no", "read-write", "read-only", "add-on"})
# a limit column -> the feature it bounds: the limit cannot apply where the file says that feature is "no"
BOUNDS = {"acl_max_entries": "posix_acl", "xattr_max_value": "xattr"}


# The columns the matrix draws before the feature columns (data/feature_columns.yaml): where each
# filesystem came from and how Linux has it, from its file's origin and linux parts. columns()
# joins them with the feature columns: the one list the page draws (data/aggregates/
# matrix_columns.json) and check-data counts. part: the file's part the column reads.
ORIGIN_COLUMNS = (
    {"key": "original_os", "label": "Original OS", "part": "origin"},
    {"key": "first_released", "label": "First released", "part": "origin"},
    {"key": "maker", "label": "Maker", "part": "origin"},
    {"key": "linux_year", "label": "Year in Linux", "part": "linux"},
    {"key": "linux_merged", "label": "In Linux since", "part": "linux"},
    {"key": "linux_driver", "label": "Linux driver", "part": "linux"},
    {"key": "linux_status", "label": "Status", "part": "linux"},
)
ORIGIN_KEYS = frozenset(c["key"] for c in ORIGIN_COLUMNS)
# a Linux driver that no kernel release merged: "In Linux since" answers with what it is instead
NOT_MERGED = {"fuse": "user space (FUSE), no kernel driver", "never-merged": "never merged",
              "out-of-tree": "never merged"}


def columns(knowledge: dict) -> list[dict]:
    """Every data column of the feature matrix, in the page's order: the origin columns, then the
    feature columns of data/feature_columns.yaml (each with "part": "features")."""
    return [dict(c) for c in ORIGIN_COLUMNS] + [
        {**c, "part": "features"} for c in knowledge.get("feature_columns", ()) if isinstance(c, dict)]


def origin_value(key: str, data: dict):
    """What an origin column's cell says for a filesystem's file, or None where the file does not say."""
    origin, linux = data.get("origin", {}), data.get("linux", {})
    if key == "linux_merged":
        return linux.get("merged") or NOT_MERGED.get(linux.get("driver"))
    return {"original_os": origin.get("os"), "first_released": origin.get("year"), "maker": origin.get("maker"),
            "linux_year": linux.get("year"), "linux_driver": linux.get("driver"),
            "linux_status": linux.get("status")}[key]


# The origin columns a cited source must state, as the registry's states list it (a document that
# names the maker, dates the first release, names the system it was written for)...
STATED = ("original_os", "first_released", "maker")
# ...and the Linux ones that must rest on a primary source among the linux part's sources
PRIMARY = ("linux_year", "linux_merged")


def origin_source_why(key: str, fs: str, data: dict, by_id: dict) -> str:
    """Why the value filesystem fs's file (data) gives for an origin column does not rest on what
    it cites ("" where it does): for STATED, a primary source of its part that states the column
    for fs (states_for); for PRIMARY, a primary source among its part's (a wiki or a magazine
    alone does not date a merge)."""
    part = data.get(next(c["part"] for c in ORIGIN_COLUMNS if c["key"] == key), {})
    cited = part.get("sources") or ()
    if key in STATED and not any(states_for(by_id.get(s, {}), key, fs, filesystem_names(fs, data)) for s in cited):
        return (f"no primary source it cites states it ({', '.join(cited)}: none is a primary source whose "
                f"entry in data/sources.yaml lists {key} under states for {fs} and names it)")
    if key in PRIMARY and not any(not secondary(by_id.get(s, {})) for s in cited):
        return f"it rests only on secondary sources ({', '.join(cited)}), no primary source"
    return ""


def origin_why(key: str, fs: str, data: dict, by_id: dict | None = None) -> str:
    """The one rule of what answers an origin column's cell (check-data, the count and the page):
    "" where the file gives the value (for In Linux since, the release that merged the driver, or a
    driver no release merged) and, with the registry (by_id), it rests on a primary source
    (origin_source_why); otherwise why not."""
    part = data.get(next(c["part"] for c in ORIGIN_COLUMNS if c["key"] == key), {})
    said = origin_value(key, data)
    if said is None:
        if key == "first_released":
            return f"No document read dates the first release ({part.get('year_missing', 'no reason given')})"
        if key == "maker":
            return f"No primary source read names the maker ({part.get('maker_missing', 'no reason given')})"
        if key == "original_os":
            return (f"No primary source read names the system it was first written for "
                    f"({part.get('os_missing', 'no reason given')})")
        if key == "linux_year":
            return f"No primary source read dates its arrival in Linux ({part.get('year_missing', 'no reason given')})"
        return f"No release is named that merged the {data.get('linux', {}).get('driver', '')} driver"
    why = origin_source_why(key, fs, data, by_id) if by_id is not None else ""
    return f"Unanswered: {why}" if why else ""


# why no experiment answers an origin column: a probe mounts a filesystem today, it cannot see where
# or when the format was made, nor which release first carried a driver it did not run
NO_PROBE_OF_HISTORY = ("No probe can: a probe here mounts the filesystem on a kernel of today, which shows neither "
                       "when or by whom the format was first made nor which release first carried its driver")


# A secondary source is known by what it is, not by its address alone. An entry is secondary where
# it says so (secondary: true) or where its address, its publisher or its title names
#  - a wiki, which anyone may edit: any word holding "wiki" (Wikipedia, Wikiwand, WikiZero, a
#    kernel.org wiki such as reiser4.wiki.kernel.org, a project's GitHub or GitLab /wiki/ pages);
#  - kernelnewbies.org (the kernel's release notes there are a wiki too);
#  - DBpedia (Wikipedia's text as data), an encyclopedia (Britannica among them), or a site that
#    republishes Wikipedia's articles under its own name ("Everything Explained Today");
#  - an archive copy of any of these (web.archive.org/web/.../en.wikipedia.org/..., archive.today):
#    the copy keeps the page's address in its own or its title, so the same words find it. An
#    address that keeps none (archive.ph/AbCd1, a link shortener's) hides what it stands for, so
#    check-data refuses it in a registry entry (hidden_address_why).
# Each of the three fields is searched anywhere, whatever the case: "en.wikipedia.org/wiki/X"
# without a scheme, a publisher "Wikipedia" with a mirror's address, a title "Btrfs - Wikipedia".
SECONDARY_WORDS = re.compile(r"wiki|kernelnewbies|pedia|en[cz][iy]+[ck]?lop|britannica|explained\.today|"
                             r"everything explained|infogalactic|alchetron|baike|百科|энциклопед|енциклопед|"
                             # round 41: encyclopedias and Wikipedia in other languages and scripts
                             r"leksikon|lexikon|lexicon|ansiklopedi|백과|εγκυκλοπα|موسوعة|den store danske|"
                             r"tietosanakirja|brockhaus|larousse|universalis|treccani|википеди|вікіпеді|"
                             r"ウィキペディア|维基|維基", re.I)
# Web archives: an address on one of these must carry the address of the page it copied, after the
# copy's time (web.archive.org/web/<time>/https://..., archive.ph/<time>/https://...)...
ARCHIVES = re.compile(r"(?:^|\.)(?:archive\.(?:ph|today|is|li|md|vn|fo)|web\.archive\.org|ghostarchive\.org"
                      r"|archiveiya74codqgiixo33q62qlrqtkgmcitqx5u2oeqnmn5bpcbiyd\.onion)$", re.I)  # (archive.today's)
# ...and an address on a link shortener, a permalink service or a search engine's cache never names
# the page it stands for (hidden_address_why)
SHORTENERS = re.compile(r"(?:^|\.)(?:bit\.ly|t\.co|t\.ly|tinyurl\.com|tiny\.cc|goo\.gl|ow\.ly|is\.gd|v\.gd|buff\.ly"
                        r"|rb\.gy|lnkd\.in|shorturl\.at|cutt\.ly|git\.io|rebrand\.ly|s\.id|perma\.cc"
                        r"|webcache\.googleusercontent\.com|tr\.im|x\.co|bl\.ink|short\.io|surl\.li|u\.to|clck\.ru"
                        r"|qr\.ae|j\.mp|bitly\.com|bit\.do|dub\.sh|tiny\.one|red\.ht|ibm\.co|msft\.it|wp\.me|amzn\.to"
                        r"|1drv\.ms|aka\.ms|lnk\.to|trib\.al|db\.tt|fb\.me|youtu\.be|apple\.co|goo\.gle|g\.co|a\.co|ift\.tt"
                        r"|mzl\.la|redd\.it|enwp\.org|cc\.bingj\.com)$", re.I)
# a redirector's link carries the page in its query (google.com/url?q=, l.facebook.com/l.php?u=,
# translate.google.com/translate?u=, go.microsoft.com/fwlink/?linkid=): the address is another's
REDIRECTORS = re.compile(r"^(?:(?:[a-z]+\.)?google\.[a-z.]+/url|l\.facebook\.com/l\.php|lm\.facebook\.com/l\.php"
                         r"|translate\.google\.[a-z.]+/translate|translate\.goog|go\.microsoft\.com/fwlink"
                         r"|out\.reddit\.com|href\.li|t\.umblr\.com/redirect|slack-redir\.net/link|duckduckgo\.com/l/"
                         r"|bing\.com/ck/a|youtube\.com/redirect|[a-z0-9.-]*safelinks\.protection\.outlook\.com"
                         r"|urldefense\.(?:com|proofpoint\.com)|[a-z0-9.-]*\.translate\.goog)", re.I)
# web archives beyond the list above, by their words: an address there must carry what it copied too
ARCHIVE_WORDS = re.compile(r"wayback|webarchive|archive-it|memento|(?:^|\.)(?:arquivo\.pt|megalodon\.jp)$", re.I)
MAX_COPIES = 5  # archive copies of copies read, at most (round 43: a thousand made the reader recurse out)
# the copied page's address in the path (a query any link may carry), after the copy's time, or
# newest/oldest, or with its own scheme, after any segments of the archive's own (a collection's);
# with a time, the scheme may be left out (round 41: each of these names the page it copied)
_COPIED = re.compile(r"/(?:(?:[0-9][0-9.*\-]*[a-z_]*|newest|oldest)/+(?:https?:/+)?|https?:/+)[^/\s]+\.[^/\s]+", re.I)
# on a listed archive, the copy's address begins the path (round 43: archive.ph/AbCd1/https://... is
# a snapshot's code with a decoy after it); the others' collections put segments of their own first
_COPIED_FIRST = re.compile(r"^/+(?:web/+)?(?:(?:[0-9][0-9.*\-]*[a-z_]*|newest|oldest)/+(?:https?:/+)?|https?:/+)"
                           r"[^/\s]+\.[^/\s]+", re.I)


# what a reader or a browser makes of a text: no invisible character (a soft hyphen, a zero-width
# space: Unicode's format characters), compatibility forms folded (fullwidth letters, a no-break
# space), the full stops a browser reads in a host name as one (。．｡), a backslash as a slash, any
# run of white space one space, percent-escapes decoded (to three levels), in lower case (round 39:
# "fs\u200batlas", "Wi\u00adkipedia", "ｂｉｔ.ｌｙ", "archive。ph", "bit.ly\\3x", "%66satlas" each passed
# a check that read the bytes)
_DOTS = str.maketrans({"。": ".", "．": ".", "｡": ".", "\\": "/"})


def as_read(text) -> str:
    """text as a reader or a browser takes it (the rules above), for the checks on a source's words."""
    return _as_read(str(text))


@lru_cache(maxsize=8192)  # the count reads each source's words for each of its cells
def _as_read(text: str) -> str:
    for _ in range(3):
        decoded = urllib.parse.unquote(text)
        if decoded == text:
            break
        text = decoded
    text = unicodedata.normalize("NFKC", text)
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf").translate(_DOTS)
    return re.sub(r"\s+", " ", text).lower()


def as_url(text) -> str:
    """An address as a browser reads it: as_read, after the tabs and line ends it drops (WHATWG's
    URL parser removes them: "bi\tt.ly" is bit.ly), slashes after the scheme as two, its path's
    "." and ".." segments resolved (round 43: google.com/./url is google.com/url)."""
    read = re.sub(r"^([a-z][a-z0-9+.-]*):/*", r"\1://", as_read(re.sub(r"[\t\n\r]", "", str(text))).strip())
    head, sep, rest = read.partition("://")
    if not sep:
        return read
    host, slash, path = rest.partition("/")
    path, mark, tail = re.split(r"([?#])", path, maxsplit=1) if re.search(r"[?#]", path) else (path, "", "")
    kept = []
    for segment in path.split("/"):
        if segment == "..":
            kept = kept[:-1]
        elif segment != ".":
            kept.append(segment)
    return f"{head}://{host}{slash}{'/'.join(kept)}{mark}{tail}"


def hidden_address_why(url: str, depth: int = 0) -> str:
    """Why a registry entry's address hides the page it stands for ("" where it does not): a
    shortener's (SHORTENERS), an archive's (ARCHIVES) that does not carry the copied page's own
    address after the copy's time, or carries one that is hidden itself (archive.ph/AbCd1,
    archive.ph/AbCd1#x, archive.ph/AbCd1?u=https://..., web.archive.org/web/2024/https://bit.ly/x),
    WebCite's short form, or no address a browser opens at all; read as a browser reads it
    (as_read: "ｂｉｔ.ｌｙ", "archive。ph", "https:///bit.ly", "bit.ly\\x"), the host whatever its case,
    port, trailing dot or www. archive.ph/<time>/https://docs.kernel.org/... names what it copied."""
    read = as_url(url)
    try:
        parts = urllib.parse.urlsplit(read)
        host = (parts.hostname or "").rstrip(".").removeprefix("www.")
        parts.port  # noqa: B018 (a port out of range raises, as a browser refuses it)
        # a name no DNS holds raises: an xn-- label that is no punycode, a Unicode one IDNA refuses (round 43)
        host.encode("ascii").decode("idna") if host.isascii() else host.encode("idna")
    except (ValueError, UnicodeError) as e:
        return f"it is no address a browser opens ({e or type(e).__name__})"
    if SHORTENERS.search(host):
        return f"{host} stands for a page it does not name"
    if REDIRECTORS.match(f"{host}{parts.path}"):
        return f"{host}{parts.path} is a redirector's link to another address (give that address)"
    if host == "webcitation.org" and not urllib.parse.parse_qs(parts.query).get("url"):
        return f"{host} stands for a page it does not name (its long form, /query?url=..., names it)"
    first = parts.path.strip("/").split("/")[0]
    if ARCHIVES.search(host) or ARCHIVE_WORDS.search(host) or ARCHIVE_WORDS.search(first) \
            or (host == "archive.org" and first == "web"):
        # after any collection's segments (archive-it's, the NLA's); at the start on a listed archive
        copied = (_COPIED_FIRST.match if ARCHIVES.search(host) else _COPIED.search)(parts.path)
        if not copied:
            return f"{host} stands for a page it does not name"
        if depth >= MAX_COPIES:
            return f"{host} holds copies of copies more than {MAX_COPIES} deep"
        at = copied.start() + re.search(r"https?:/|[^/\s]+\.[^/\s]+$", copied.group(0)).start()
        inner = hidden_address_why(parts.path[at:] if re.match(r"https?:", parts.path[at:]) else "https://" + parts.path[at:],
                                   depth + 1)
        if inner:
            return f"{host} copied an address that hides its page: {inner}"
    return ""
SECONDARY_FIELDS = ("url", "publisher", "title")


def secondary_why(source: dict) -> str:
    """The field of a registry entry that shows it is a secondary source though it is not marked
    so ("url names 'wiki'"), or "" where none does (the rule: SECONDARY_WORDS)."""
    for field in SECONDARY_FIELDS:  # as read: "%77iki" and "Wi\u00adkipedia" are "wiki" to a reader
        found = SECONDARY_WORDS.search((as_url if field == "url" else as_read)(source.get(field, "")))
        if found:
            return f"its {field} names {found.group(0)!r}"
    return ""


def secondary(source: dict) -> bool:
    """Whether a registry entry is a secondary source: marked so, or shown so by its address,
    publisher or title (SECONDARY_WORDS)."""
    return bool(source.get("secondary")) or bool(secondary_why(source))


def normalized(text) -> str:
    """Case and white space as a reader cannot tell them apart: " Not  documented" is "not documented"."""
    return " ".join(str(text).split()).lower()


def unanswered_why(key: str, fact: dict, facts: dict, by_id: dict | None = None, names: tuple = (),
                   fs: str = "") -> str:
    """The one rule of what answers a cell, for check-data, the count and the pages alike: "" where
    the fact gives a value of its column's type (yes or no, partial with a note saying what part,
    a limit that is a number with its unit, or "not applicable" where the feature the limit bounds is
    "no" and the note says why), resting on a primary source or a probe; otherwise why it does not.
    A limit must also rest on a primary source that states it for this filesystem (states_for).
    facts: the filesystem's other facts (for "not applicable"); by_id: the source registry; fs and
    names: the filesystem and its names (names_for)."""
    said = normalized(fact.get("value", fact.get("limit", "")))
    if "limit" in fact:
        if said == NOT_APPLICABLE:
            bounded = facts.get(BOUNDS.get(key, ""), {})
            if key not in BOUNDS:
                return f"'not applicable' is no limit: every filesystem has one for {key}"
            if normalized(bounded.get("value", "")) != "no":
                return (f"'not applicable' only where {BOUNDS[key]} is no, and it is "
                        f"{bounded.get('value', 'not given')!r}: a limit applies and no document states it")
            if not normalized(fact.get("note", "")):
                return "'not applicable' without a note saying why the column cannot apply"
        else:
            why = limit_why(key, fact["limit"])
            if why:
                return why
    elif said == "partial":
        if not normalized(fact.get("note", "")):
            return "'partial' without a note saying what part"
        if _NO_PART.match(plain(str(fact["note"]))):
            return f"'partial' with a note that says no part ({str(fact['note'])[:60]!r})"
    elif said not in ANSWERS:
        return f"{fact['value']!r} is no answer (yes, no or partial)"
    cited = fact.get("sources") or ()  # none at all is the schema's to refuse (minItems)
    if by_id is not None and cited and all(secondary(by_id.get(s, {})) for s in cited):
        return f"it rests only on secondary sources ({', '.join(cited)}), no primary source or probe"
    if by_id is not None and names is not None and "limit" in fact and said != NOT_APPLICABLE and not any(
            states_for(by_id.get(s, {}), key, fs, names) for s in cited):
        return (f"no primary source it cites states {key} for this filesystem ({', '.join(cited)}: none lists {key} "
                f"under states and names {named(names)} in its title, publisher, address or what it covers)")
    return ""


# a partial's note that begins by saying no part is known: "unknown: no document read says which
# part" (a note may begin with "no": "no journal for ordinary writes: ...")
_NO_PART = re.compile(rf"^\W*(?:(?:a|an|the|our|my|it\s+is|it's)\s+)?(?:{DOUBT}|no document|not documented)\b|^\W*\?",
                      re.I)



# a part in brackets of a filesystem's name that only says a version (filesystem_names)
VERSION_ONLY = re.compile(r"version\s+[0-9][0-9.]*", re.IGNORECASE)


def filesystem_names(fs: str, data: dict) -> tuple:
    """The names a document may give a filesystem: its id, its file's name with the part in
    brackets apart ("NTFS (ntfs3)": ntfs3, NTFS (ntfs3), NTFS, ntfs3), and the other names its
    maker's documents give it (also_named: HFS+ is Apple's HFS Plus). A part in brackets that only
    says a version ("ReiserFS (version 3)") names no filesystem: a text saying "NTFS up to version
    3.1" does not name ReiserFS."""
    name = str(data.get("name", ""))
    parts = [fs, name] + [p.strip() for p in re.split(r"[()]", name)] + [str(n) for n in data.get("also_named", ())]
    return tuple(dict.fromkeys(p for p in parts if p and not VERSION_ONLY.fullmatch(p)))


# The columns a row answers for its on-disk format, whichever driver mounts it: where it came
# from, what other systems do with it, the tools that work on an unmounted volume, and the
# format's size limits (a cell says where a driver or its tool stops short: "16 EiB (the
# format)", "8 PiB (mkntfs)"). A name several rows share (NTFS: ntfs-3g's row and ntfs3's mount
# one format) states these for each of them; any other column is the driver's, and a source
# states it only by a name of that row's own.
FORMAT_COLUMNS = frozenset({"original_os", "first_released", "maker", "on_windows", "on_macos", "on_freebsd",
                            "dump_restore", "offline_shrink", "max_file_size", "max_volume_size"})


def row_names(features: dict) -> dict:
    """filesystem -> filesystem_names, of every row of features (filesystem -> its file): made
    once for the rows' names (a count asks it for each of its 736 cells)."""
    return _row_names(tuple((fs, str(doc.get("name", "")), tuple(map(str, doc.get("also_named", ()))))
                            for fs, doc in sorted(features.items())))


@lru_cache(maxsize=8)
def _row_names(rows: tuple) -> dict:
    return {fs: filesystem_names(fs, {"name": name, "also_named": list(also)}) for fs, name, also in rows}


def names_for(fs: str, features: dict, column: str) -> tuple:
    """The names of filesystem fs (filesystem_names) by which a source states `column` for it:
    all of them for a column of the format (FORMAT_COLUMNS), else those no other row of
    features (filesystem -> its file) has too, compared in lower case ("ntfs" and "NTFS")."""
    rows = row_names(features)
    if column in FORMAT_COLUMNS:
        return rows[fs]
    others = {n.lower() for other, names in rows.items() if other != fs for n in names}
    return tuple(n for n in rows[fs] if n.lower() not in others)


def named(names: tuple) -> str:
    """names_for's names in a message."""
    return " or ".join(names) if names else "a name of its own (every name it has, another row has too)"


def stated_columns(source: dict, fs: str | None = None) -> frozenset:
    """The columns a registry entry's states list: for row fs, its entry for fs where states is
    given row by row (a mapping, which a source naming several rows must use: knowledge.
    _states_rows), else the list, the columns of the one row it names; for no row, all it lists."""
    states = source.get("states") or ()
    if isinstance(states, dict):
        return frozenset(states.get(fs, ())) if fs is not None else frozenset(c for cs in states.values() for c in cs)
    return frozenset(states)


def states_for(source: dict, key: str, fs: str, names) -> bool:
    """Whether a registry entry states a column for filesystem fs: a primary source (secondary())
    whose states list the column for fs (stated_columns) and whose subject is that filesystem or
    that states its values filesystem by filesystem, so names it (one of names, as a word) in its
    title, publisher, address or what it covers: ext4's blocks page names ext4, never Reiser4. An
    inventory of the column states it only through its items (inventory_states_no), whatever its
    covers says."""
    if (secondary(source) or key not in stated_columns(source, fs)
            or (source.get("inventory") or {}).get("column") == key):
        return False  # an inventory states its column through its items alone (inventory_states_no)
    return names_in(source, names)


def names_in(source: dict, names) -> bool:
    """Whether a registry entry's title, publisher, address or covers gives one of names as a
    word, in any case: no letter or digit beside it, nor a hyphen joining it to one ("ntfs-3g"
    names ntfs-3g, not NTFS)."""
    # as read (round 41: "HFS\u00a0Plus" copied from a page named no HFS Plus; "ntfs%2D3g" named NTFS)
    text = as_read(" ".join(str(source.get(field, "")) for field in ("title", "publisher", "url", "covers")))
    return any(re.search(r"(?<![a-z0-9])(?<![a-z0-9]-)" + re.escape(as_read(n)) + r"(?![a-z0-9]|-[a-z0-9])", text)
               for n in names)


# the systems of the other-systems columns (NO_STATED_FOR), in letters: never a name of a filesystem
SYSTEM_NAMES = ("Windows", "Microsoft Windows", "macOS", "Mac OS", "Mac OS X", "OS X", "FreeBSD", "Linux")


def borrowed_name_why(fs: str, features: dict, name: str) -> str:
    """Why `name` may not name filesystem fs ("" where it may): it is, in letters, a name of
    another row or a system the other-systems columns are about ("ext3 (Windows)" would make
    Microsoft's pages state ext3's columns)."""
    letters = _letters(name)
    for other, names in row_names(features).items():
        if other != fs and letters in {_letters(n) for n in names}:
            return f"it is a name of {other}"
    return name_part_why(name)


def name_part_why(name: str) -> str:
    """Why a part of a filesystem's own name (its `name`, a part in brackets) may not be there:
    it names a system (the name two rows share, such as NTFS, is the format's, and
    FORMAT_COLUMNS keeps it to the format's columns)."""
    return "it names a system, which the other-systems columns are about" \
        if _letters(name) in {_letters(n) for n in SYSTEM_NAMES} else ""


def own_name_why(fs: str, features: dict, name: str, by_id: dict) -> str:
    """Why `name` may not be a name of filesystem fs, as a part of its file's name (a part in
    brackets, or the name itself) or among its also_named ("" where it may): a borrowed name
    (borrowed_name_why); else it is the row's id, in any case ("Btrfs"), or a name that a primary
    source the file cites (origin, Linux part or a fact) gives this row in its `names` (row by
    row: round 37, a name Apple's list gave HFS Plus's row was open to every row citing it), which
    a source may list only where its own title, publisher, address or covers give it (knowledge
    ._cross_check). A word of a source's text alone would not do: "File System", "Apple" and
    "https" are in Apple's pages, and a row named "Btrfs (File System Details)" would make
    Apple's list "name" Btrfs (round 36)."""
    # the name before the brackets that rows of one format share (NTFS: "NTFS (ntfs-3g)", "NTFS (ntfs3)")
    # is each one's, and states the format's columns alone (names_for); any other row's name, in its
    # name or its also_named, is borrowed (round 37: "Btrfs (AFP)" beside "VxFS (AFP)", also_named NTFS)
    # (round 39: only where both rows' names are the format's with a driver in brackets, "NTFS
    # (ntfs3)"; a row renamed "ext2 (ext3)" beside ext2's own "ext2" borrows)
    main = lambda n: _letters(str(n).split("(")[0])  # noqa: E731
    bracketed = lambda n: "(" in str(n)  # noqa: E731
    shared = main(name) == _letters(name) == main(features[fs].get("name", "")) and bracketed(features[fs].get("name")) \
        and any(other != fs and main(doc.get("name", "")) == _letters(name) and bracketed(doc.get("name"))
                for other, doc in features.items())
    why = name_part_why(name) if shared else borrowed_name_why(fs, features, name)
    if why or name.lower() == fs.lower():
        return why
    data = features[fs]
    cited = sorted({*data.get("origin", {}).get("sources", ()), *data.get("linux", {}).get("sources", ()),
                    *(s for fact in data.get("features", {}).values() for s in fact.get("sources", ()))})
    given = {n.lower() for s in cited if not secondary(by_id.get(s, {}))
             for n in (by_id.get(s, {}).get("names") or {}).get(fs, ())}
    if name.lower() not in given:
        return f"no primary source its file cites gives that name to {fs} in its names"
    return ""


def own_name_parts(fs: str, name: str) -> list[str]:
    """The parts of a row's `name` that name it, besides its id (filesystem_names): the name
    itself where it has no brackets, else each part in or before them ("NTFS (ntfs3)": NTFS,
    ntfs3; "ReiserFS (version 3)": ReiserFS)."""
    parts = [p for p in filesystem_names(fs, {"name": name}) if p != fs]
    return [p for p in parts if p != name] if "(" in name else parts


# An inventory (a source's `inventory` in data/sources.yaml) is a list complete by definition of
# what one part of a system offers for a column: the system's own list of its kernel modules, an
# add-on collection's list of its filesystem packages. A "no" in that column citing inventories of
# every part (inventory_parts) is stated for a filesystem none of their items names, and refused
# for one an item names: an item names a filesystem where one of its names, letters and digits
# only and in lower case, is a part of the item's ("fusefs-ntfs" names NTFS, "ext2fs" ext2,
# "progsreiserfs" ReiserFS). The reading is wide on purpose: in doubt, a "no" is refused, never stated.
@lru_cache(maxsize=1)
def inventory_parts() -> frozenset:
    """The parts of a system an inventory covers (knowledge.schema.json's inventory part enum)."""
    schema = json.loads((resources.files("fsatlas") / "schema" / "knowledge.schema.json").read_text())
    return frozenset(schema["$defs"]["source_registry"]["items"]["properties"]["inventory"]["properties"]["part"]["enum"])


def _letters(text) -> str:
    return re.sub(r"[^a-z0-9]", "", unicodedata.normalize("NFKC", str(text)).lower())  # "ｎｔｆｓ" is ntfs


def inventory_listed(source: dict, key: str, names) -> list[str]:
    """The items of a registry entry's inventory of column key that name a filesystem (one of
    names, letters and digits only, is a part of the item's), in the inventory's order."""
    inventory = source.get("inventory") or {}
    if inventory.get("column") != key:
        return []
    wanted = [w for w in (_letters(n) for n in names) if w]
    return [item for item in inventory.get("items", ()) if any(w in _letters(item) for w in wanted)]


def inventory_states_no(by_id: dict, cited, key: str, names) -> bool:
    """Whether the inventories among the cited sources state a "no" in column key for a filesystem:
    primary sources that state the column, whose inventories of it cover every part of the system
    (inventory_parts), and none of whose items names the filesystem (inventory_listed)."""
    found = [by_id.get(s, {}) for s in cited]
    found = [s for s in found if (s.get("inventory") or {}).get("column") == key and key in stated_columns(s)
             and not secondary(s)]
    return ({s["inventory"]["part"] for s in found} >= inventory_parts()
            and not any(inventory_listed(s, key, names) for s in found))


@lru_cache(maxsize=1)
def probe_names() -> frozenset:
    """The features a probe of fsatlas can answer (schema/probe.schema.json's probe enum)."""
    schema = json.loads((resources.files("fsatlas") / "schema" / "probe.schema.json").read_text())
    return frozenset(schema["properties"]["findings"]["items"]["properties"]["probe"]["enum"])


def evidence(records: dict) -> dict:
    """filesystem -> {"findings": {probe: {release: finding}}, "skipped": {release: reason},
    "mounted": {release}}: of each kernel release, the newest record's word (records: id -> probe
    record, as knowledge.probe_records reads them)."""
    out, when = {}, {}
    for rid, record in records.items():
        release = kernel_release(record["system"]["kernel"])
        created = (record["created"], rid)
        for finding in record.get("findings", ()):
            fs = out.setdefault(finding["filesystem"], {"findings": {}, "skipped": {}, "mounted": set()})
            fs["mounted"].add(release)
            key = ("f", finding["filesystem"], finding["probe"], release)
            if when.get(key, ("",)) < created:
                when[key] = created
                fs["findings"].setdefault(finding["probe"], {})[release] = finding
        for skip in record.get("skipped", ()):
            fs = out.setdefault(skip["filesystem"], {"findings": {}, "skipped": {}, "mounted": set()})
            key = ("s", skip["filesystem"], release)
            if when.get(key, ("",)) < created:
                when[key] = created
                fs["skipped"][release] = skip["reason"]
    return out


def releases(records: dict) -> list[str]:
    """The kernel releases probed here, oldest first."""
    return sorted({kernel_release(r["system"]["kernel"]) for r in records.values()}, key=release_key)


def _linux_words(fs: str, data: dict) -> str:
    linux = data.get("linux", {})
    driver, status = linux.get("driver", ""), linux.get("status", "")
    if driver == "read-only":
        return (f"the kernel's {fs} driver only reads, and no tool here makes a {fs} filesystem to write to "
                f"({linux.get('note', '')})")
    if driver in ("out-of-tree", "never-merged") or status == "out-of-tree":
        return f"{data.get('name', fs)} is built outside the kernel tree ({linux.get('note', '')}), and no kernel probed here was built with it"
    return f"no probe record names {fs}"


def probe_reason(fs: str, column: dict, data: dict, found: dict, probed: list[str]) -> str:
    """Why no experiment here answers this cell."""
    if column.get("no_probe"):
        return f"no probe can: {column['no_probe']}"
    if column["key"] not in probe_names():
        return f"no probe of fsatlas measures {column['label'].lower()} (the column is answered from documents only)"
    mine = found.get(fs)
    if not mine:
        return f"not probed on Linux {', '.join(probed)}: {_linux_words(fs, data)}"
    parts = []
    for release in sorted(set(mine["skipped"]) | set(mine["findings"].get(column["key"], {})), key=release_key):
        finding = mine["findings"].get(column["key"], {}).get(release)
        if finding is not None:
            parts.append(f"Linux {release}: the probe was {finding['status']} ({finding['detail'].splitlines()[0]})")
        elif release not in mine["mounted"]:
            said = mine["skipped"][release]
            # a record made before the skip named why the tool is missing: the reason as it is now
            missing = [tool for tool in NO_BUILD if f"{tool} is not installed" in said and NO_BUILD[tool] not in said]
            said += "".join(f"; {NO_BUILD[tool]}" for tool in missing)
            parts.append(f"Linux {release}: {fs} was not probed ({said})")
    left = [r for r in probed if r in mine["mounted"] and column["key"] not in mine["findings"]]
    if left:
        parts.append(f"Linux {', '.join(left)}: this probe was not run on {fs}")
    return "; ".join(parts) or f"no probe record answers {column['key']} on {fs}"


def cells(knowledge: dict, records: dict) -> list[dict]:
    """Every cell of the matrix, filesystem by column: {"filesystem", "column", "answered": how
    ("source", "probe") or "", "reason": why unanswered, or ""}."""
    found, probed = evidence(records), releases(records)
    by_id = {s["id"]: s for s in knowledge.get("sources", ())}
    out = []
    for fs, data in sorted(knowledge["features"].items()):
        for column in columns(knowledge):
            key = column["key"]
            if column["part"] != "features":
                why = origin_why(key, fs, data, by_id)
                out.append({"filesystem": fs, "column": key, "answered": "" if why else "source",
                            "reason": why and f"{why}. {NO_PROBE_OF_HISTORY}."})
                continue
            fact = data["features"].get(key)
            why = None if fact is None else unanswered_why(key, fact, data["features"], by_id,
                                                             names_for(fs, knowledge["features"], key), fs)
            answers = [f for f in found.get(fs, {}).get("findings", {}).get(key, {}).values() if f["status"] == "ok"]
            if fact is not None and not why:
                out.append({"filesystem": fs, "column": key, "answered": "source", "reason": ""})
            elif fact is None and answers:
                out.append({"filesystem": fs, "column": key, "answered": "probe", "reason": ""})
            else:
                said = None if fact is None else normalized(fact.get("value", fact.get("limit")))
                documents = ("No cited document: the column is left to the probes" if fact is None
                             else f"No document read says ({fact.get('note', '')})" if said == NOT_DOCUMENTED
                             else f"Unanswered: {why}")
                probe = probe_reason(fs, column, data, found, probed)
                out.append({"filesystem": fs, "column": key, "answered": "",
                            "reason": f"{documents}. {probe[0].upper()}{probe[1:]}."})
    return out


# The cells answered on documents that do not state them for that filesystem (issue #63, rounds
# 3 and 4): every cell a filesystem's file answers (its origin, its Linux driver, each feature)
# must cite a primary source that states that column for that filesystem (its states list the
# column, and it names the filesystem: states_for), and a "no" in an other-systems column may
# instead rest on inventories of every part of the system that do not name the filesystem
# (inventory_states_no) — never on a list of what a system supports that is silent on it
# (Apple's, FreeBSD's Handbook). check-data counts them as unanswered (the honest count) and
# fails when that count passes GOAL. (A limit is held to the same rule by unanswered_why, and
# counted unanswered there.)
NO_STATED_FOR = ("on_windows", "on_macos", "on_freebsd")


def documented(data: dict):
    """(the column its sources must state, the cell's column, what the file says, the sources it
    cites for it) of every cell a filesystem's file answers itself: the origin and Linux columns (origin_value), and each feature whose value or
    limit is given (not "not documented"). "In Linux since" for a driver no release merged
    (NOT_MERGED) says what the driver is: its sources must state linux_driver."""
    for column in ORIGIN_COLUMNS:
        key = column["key"]
        said = origin_value(key, data)
        if said is not None:
            merged = key == "linux_merged" and not data.get("linux", {}).get("merged")
            yield ("linux_driver" if merged else key), key, said, data.get(column["part"], {}).get("sources") or ()
    for key, fact in data.get("features", {}).items():
        said = fact.get("value", fact.get("limit"))
        if said is not None and normalized(said) != NOT_DOCUMENTED:
            yield key, key, said, fact.get("sources") or ()


def unstated(knowledge: dict, cells_: list | None = None) -> list[dict]:
    """Every cell answered on the filesystem's file (cells_: those cells() counts answered from
    documents; every documented one where not given) whose cited sources do not state its column
    for that filesystem (states_for, or for a "no" in NO_STATED_FOR inventory_states_no):
    {"filesystem", "column", "said", "reason"}, in the matrix's order. A cell cells() counts
    unanswered already is not listed again."""
    by_id = {s["id"]: s for s in knowledge.get("sources", ())}
    from_documents = None if cells_ is None else {(c["filesystem"], c["column"]) for c in cells_
                                                    if c["answered"] == "source"}
    out = []
    for fs, data in sorted(knowledge["features"].items()):
        for stated, key, said, cited in documented(data):
            if from_documents is not None and (fs, key) not in from_documents:
                continue
            names = names_for(fs, knowledge["features"], stated)
            if any(states_for(by_id.get(s, {}), stated, fs, names) for s in cited) or (
                    key in NO_STATED_FOR and normalized(said) == "no" and inventory_states_no(by_id, cited, key, names)):
                continue
            parts = sorted((by_id.get(s, {}).get("inventory") or {}).get("part", "") for s in cited
                           if (by_id.get(s, {}).get("inventory") or {}).get("column") == key)
            out.append({"filesystem": fs, "column": key, "said": str(said),
                        "reason": f"no source it cites ({', '.join(cited)}) states {stated} for {fs}: none is a "
                                  f"primary source listing {stated} under states that names {named(names)}"
                                  + (f", and its inventories of {key} cover {' and '.join(parts)} only, not every part "
                                     f"of the system ({', '.join(sorted(inventory_parts()))})" if parts else "")})
    return out


def count(cells_: list[dict]) -> tuple[int, int]:
    """(unanswered, all) cells."""
    return sum(not c["answered"] for c in cells_), len(cells_)


def reasons(cells_: list[dict], unstated_: list[dict] = ()) -> dict:
    """filesystem -> column -> reason, for the cells check-data counts unanswered (the pages'
    aggregate): those cells() leaves unanswered, and those answered on sources that do not state
    them for that filesystem (unstated_), which the pages mark unanswered beside their value."""
    out = {}
    for c in cells_:
        if not c["answered"]:
            out.setdefault(c["filesystem"], {})[c["column"]] = c["reason"]
    for c in unstated_:
        out.setdefault(c["filesystem"], {})[c["column"]] = f"Not stated for this filesystem: {c['reason']}"
    return out
