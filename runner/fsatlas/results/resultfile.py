"""The result file: its JSON Schema, validation against it, reading, and atomic writing.

The schema (schema/result.schema.json) is the one definition of the shape; the runner
validates before it writes, `fsatlas validate` runs the same schema plus the rules it can't
say, and the aggregator reads only files that pass.
"""
import errno
import json
import math
import os
import re
import stat
import sys
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import orjson


from .. import SCHEMA_VERSION, outfile
from ..errors import UserError, one_line

MAX_FILE_BYTES = 16 * 1024 * 1024  # a standard run's file is under 1 MB; `validate --max-bytes` changes it
# The raw files a result may name, and so the members of its bundle (bundle.MAX_MEMBERS). Each
# member is read, recomputed and screened (about 0.09 ms for a small fio report): 100,000 took
# validate 8.7 s, too near its 10 s for a slower machine; 50,000 take 4.7 s (make perf). Ten
# repetitions of every cell a file may hold (5,000); a standard run's bundle holds 1,900.
MAX_RAW_FILES = 50_000
# An id as the schema allows it (starting with a letter or digit), and the ids that would take the
# place of a page of the site (results/index.html, results/page/2/, the section's _index).
ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,199}")
RESERVED_ID = re.compile(r"(?i:index(\..*)?|page)")
TOLERATED = {".gitkeep"}  # what may sit in data/results beside the result files
# what the listings of data/results and data/raw say of a temporary file a killed write left there
LEFTOVER = ("expected no temporary file, found one an interrupted fsatlas write left (the file it was to replace "
            "is unchanged); nothing reads or publishes it: delete it")


def leftover(entry: os.DirEntry, mode: int) -> "Problem | None":
    """The warning on a temporary file of outfile.replacing that a killed write left in a
    listed folder (it would else be refused as an unknown file, and stop every command)."""
    return Problem("warning", entry.path, "", LEFTOVER) if stat.S_ISREG(mode) and outfile.is_temporary(entry.name) else None


# The system's facts the schema requires unless `recorded` is "none", and the words every page
# and the export use where they are absent (an imported output that records no system).
SYSTEM_FACTS = ("kernel", "os", "cpu_model", "cpu_count", "memory_bytes", "virtualization")
NOT_RECORDED = "system not recorded"


def system_recorded(system: dict) -> bool:
    """Whether the result names the machine's facts (false for an import that recorded none)."""
    return system.get("recorded") != "none"


def system_shown(system: dict) -> dict:
    """The system as a page shows it: each absent fact "system not recorded", so no page reads a
    fact the result does not hold (the numbers too: cpu_count and memory_bytes become words)."""
    return system if system_recorded(system) else {**{k: NOT_RECORDED for k in SYSTEM_FACTS}, **system}


@dataclass(frozen=True)
class Problem:
    severity: str  # "error" or "warning"
    file: str
    path: str  # JSON Pointer
    message: str

    def __str__(self) -> str:  # one line, whatever the file's name or the text it quotes holds
        return one_line(f"{self.file}: {self.severity}: {self.path or '/'}: {self.message}")


CURRENT = SCHEMA_VERSION  # the version every writer writes; validate reads each of these:
SCHEMA_FILES = {1: "result-1.schema.json", 2: "result.schema.json"}


@lru_cache(maxsize=None)
def schema(version: int = CURRENT) -> dict:
    return json.loads((resources.files("fsatlas") / "schema" / SCHEMA_FILES[version]).read_text())


def version_of(data) -> int:
    """The schema a document is checked against: version 1 where it says so, else the current
    one (whose const refuses any other version)."""
    return 1 if isinstance(data, dict) and data.get("schema_version") == 1 and type(data["schema_version"]) is int \
        else CURRENT


@lru_cache(maxsize=None)
def _validator(version: int = CURRENT):
    import jsonschema  # here, not at the top: a cached rebuild never needs it (a tenth of a second)
    return jsonschema.Draft202012Validator(schema(version))


@lru_cache(maxsize=None)
def _fast_check(version: int = CURRENT):
    """The same schema as a msgspec type (results/schema_types), with what a type cannot say
    compiled by fastjsonschema: on a quick result 0.6 ms, where fastjsonschema alone took
    1.65 ms (and had been 50 times faster than jsonschema: 1.3 against 64 ms).
    It only says "valid": a document it rejects is checked again by jsonschema, whose verdict
    and messages are the ones reported. tests/test_fuzz.py checks it accepts nothing jsonschema
    rejects. Every definition is written in place of its $ref first (_inlined)."""
    import fastjsonschema
    import msgspec
    from . import schema_types
    whole = schema(version)
    typed, rest = schema_types.split(_inlined(whole, whole["$defs"]))
    check_rest = fastjsonschema.compile(_no_bool_for_numbers(rest)) if rest else None

    def check(data) -> None:  # raises on a rejection
        msgspec.convert(data, typed)
        if check_rest:
            check_rest(data)
    return check


_REF_ANNOTATIONS = {"title", "description", "$comment", "examples", "default"}  # change nothing a $ref checks


def _inlined(node, defs: dict):
    """The schema with each {"$ref": "#/$defs/<name>"} replaced by the definition (the same
    meaning in draft 2020-12: a $ref with nothing beside it but annotations, such as a
    description, to a definition without $id or $anchor). No definition of result.schema.json
    refers to itself, which this would never finish."""
    if isinstance(node, list):
        return [_inlined(n, defs) for n in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref", "")
    if not set(node) - {"$ref"} - _REF_ANNOTATIONS and ref.startswith("#/$defs/") and ref[len("#/$defs/"):] in defs:
        return _inlined(defs[ref[len("#/$defs/"):]], defs)
    return {k: _inlined(v, defs) for k, v in node.items()}


def _no_bool_for_numbers(node):
    """The schema with `not: {type: boolean}` beside every const or enum holding a number:
    jsonschema tells true from 1 there, fastjsonschema compares with Python's ==, which does not."""
    if isinstance(node, list):
        return [_no_bool_for_numbers(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = {k: _no_bool_for_numbers(v) for k, v in node.items()}
    enum = node.get("enum")
    values = (enum if isinstance(enum, list) else []) + ([node["const"]] if "const" in node else [])
    if any(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        out = {"allOf": [out, {"not": {"type": "boolean"}}]}
    return out


def schema_valid_fast(data) -> bool:
    try:
        _fast_check(version_of(data))(data)
    except Exception:  # a rejection, or any doubt: jsonschema decides
        return False
    return True


def pointer(parts) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def schema_problems(data, file: str) -> list[Problem]:
    if schema_valid_fast(data):
        return []
    version = data.get("schema_version") if isinstance(data, dict) else None
    if version is not None and not (type(version) is int and version in SCHEMA_FILES):
        return [Problem("error", file, "/schema_version", f"expected a schema version fsatlas reads "
                                                          f"({', '.join(map(str, SCHEMA_FILES))}), found {_short(version)}")]
    problems = []
    errors = sorted(_validator(version_of(data)).iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    mistyped = {tuple(e.absolute_path) for e in errors if e.validator == "type"}
    for error in errors:
        if error.validator != "type" and tuple(error.absolute_path) in mistyped:
            continue  # a value of the wrong type fails its other rules too: the type says what is wrong
        if error.validator == "required":
            # Name the missing field itself, not the object that lacks it.
            missing = error.message.split("'")[1] if error.message.count("'") >= 2 else ""
            problems.append(Problem("error", file, pointer([*error.absolute_path, missing]),
                                    "required field is missing"))
            continue
        where = list(error.absolute_path)
        # a stored summary where this version stores none (not version 1's, which does: #65 round 53
        # named version 1's five summaries beside the one stranger, and its place last)
        derived = [k for k in DERIVED if k in error.instance and k not in error.schema.get("properties", {})] \
            if error.validator == "additionalProperties" and isinstance(error.instance, dict) \
            and "samples" in error.schema.get("properties", {}) else []
        for name in derived:  # named at its own place, as the stored summary it is
            problems.append(Problem("error", file, pointer([*where, name]),
                                    f"expected no {name} (schema version {CURRENT} computes it from the samples "
                                    f"when the file is read), found {_short(error.instance[name])}"))
        if error.validator == "additionalProperties" and isinstance(error.instance, dict) and not derived \
                and error.schema.get("additionalProperties") is False:
            for name in sorted(set(error.instance) - set(error.schema.get("properties", {})), key=str):
                # named at its own place: a field no writer of this version stores (a file's own "factors")
                problems.append(Problem("error", file, pointer([*where, name]),
                                        f"expected no field {_short(name)} here (schema version {version_of(data)} "
                                        f"names none), found {_short(error.instance[name])}"))
        elif not derived or set(error.instance) - set(error.schema["properties"]) - set(DERIVED):
            problems.append(Problem("error", file, pointer(where), _words(error)))
    return problems


def _short(value) -> str:
    text = json.dumps(value, default=str, ensure_ascii=False)
    return text if len(text) <= 80 else text[:77] + "..."


def _words(error) -> str:
    """One line for a schema error, however large the value it is about (a 5,000-cell list, a
    key of megabytes): limits say the limit and the size found, not the value."""
    limit, value = error.validator_value, error.instance
    name = "a name" if "propertyNames" in error.schema_path else "text"
    if error.validator == "maxLength":
        return f"expected {name} of at most {limit} characters, found {len(value)}"
    if error.validator == "maxItems":
        return f"expected at most {limit} items, found {len(value)}"
    if error.validator == "maxProperties":
        return f"expected at most {limit} entries, found {len(value)}"
    if error.validator == "pattern":
        return f"expected {name} matching {limit}, found {_short(value)}"
    if error.validator == "type":  # jsonschema's message begins with the value, which may be long
        kinds = " or ".join(f"{'an' if k[0] in 'aeiou' else 'a'} {_JSON_TYPES.get(k, k)}" for k in
                            ([limit] if isinstance(limit, str) else limit))
        return f"expected {kinds}, found {_kind(value)} {_short(value)}"
    if error.validator == "not":
        return f"expected no value that is {_short(limit)}, found {_short(value)}"
    if error.validator in ("enum", "const"):
        allowed = limit if error.validator == "enum" else [limit]
        return f"expected one of {_short(allowed)}, found {_short(value)}"
    message = error.message if len(error.message) < 200 else error.message[:197] + "..."
    return f"{message} (found {_short(value)})"


_JSON_TYPES = {"object": "object", "array": "array (a list)", "string": "text", "integer": "integer",
               "number": "number", "boolean": "boolean", "null": "null"}


def _kind(value) -> str:
    """value's JSON type, with its article: "a list", "a number"."""
    for kind, name in ((bool, "a boolean"), (dict, "an object"), (list, "a list"), (str, "text"),
                       ((int, float), "a number"), (type(None), "null")):
        if isinstance(value, kind):
            return name
    return type(value).__name__


def _reject_constant(token):
    raise ValueError(f"{token} is not a number JSON allows")


def kind_of(mode: int) -> str:
    """What a file that is not a regular one is, in words."""
    for test, name in ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a device"),
                       (stat.S_ISBLK, "a device"), (stat.S_ISFIFO, "a pipe"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "a regular file"


def read_regular(path: str, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes, read without following a symbolic
    link and never more than limit + 1 bytes (a link to /dev/zero, a growing file)."""
    return read_file(path, limit)[0]


def read_file(path: str, limit: int) -> tuple[bytes, os.stat_result]:
    """read_regular, with the file's fstat taken before the read (its size and mtime)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as e:
        if e.errno == errno.ELOOP:  # O_NOFOLLOW met a link
            raise UserError(where=path, expected="a regular file", found="a symbolic link") from None
        raise UserError(f"cannot read: {e.strerror}", where=path) from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):  # before fdopen, which refuses a folder with an exception of its own
        os.close(fd)
        raise UserError(where=path, expected="a regular file", found=kind_of(st.st_mode))
    with os.fdopen(fd, "rb") as f:
        try:
            # As much as fstat says, and one byte more to see a file that grew: asking for limit
            # + 1 at once allocates that much before reading (16 MB for a result file: a 216 KB
            # one took 118 µs to read, 30 µs this way).
            data = f.read(min(st.st_size, limit) + 1)
            if st.st_size < len(data) <= limit:  # it grew: the rest, up to limit + 1 bytes in all
                data += f.read(limit + 1 - len(data))
        except OSError as e:
            raise UserError(f"cannot read: {e.strerror}", where=path) from None
    if len(data) > limit:
        raise UserError(where=path, expected=f"at most {limit} bytes", found="more")
    return data, st


def result_listing(folder: str) -> tuple[list[str], list[Problem]]:
    """The result files of a folder: its regular files named <id>.json (sorted), and a problem
    for anything else in it (other files, links, folders, devices, reserved ids), which no
    command reads or publishes."""
    files, problems, ids = [], [], {}
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError as e:
        raise UserError(f"cannot list: {e.strerror}", where=folder) from None
    for entry in entries:
        path = os.path.join(folder, entry.name)
        stem = entry.name[:-len(".json")] if entry.name.endswith(".json") else None
        mode = entry.stat(follow_symlinks=False).st_mode
        if entry.name in TOLERATED and stat.S_ISREG(mode):
            continue
        left = leftover(entry, mode)
        if left:
            problems.append(left)
            continue
        if not stat.S_ISREG(mode):
            found = kind_of(mode)
        elif stem is None or not ID.fullmatch(stem):
            found = "a file not named <id>.json (an id: a letter or digit, then letters, digits, '.', '_', '-')"
        elif RESERVED_ID.fullmatch(stem):
            found = f"the reserved id {stem!r} (it would replace a page of the site)"
        elif stem.lower() in ids:  # the site's pages are named by id, on filesystems that may ignore case
            found = f"a second id that differs from {ids[stem.lower()]!r} only in case"
        else:
            ids[stem.lower()] = stem
            files.append(path)
            continue
        problems.append(Problem("error", path, "", f"expected only result files (<id>.json, regular files) "
                                                   f"in {folder}, found {found}; nothing else there is read or published"))
    return files, problems


def load_json(path: str, limit: int | None = None):
    """Reads a JSON result file (a regular file, not a link, of at most MAX_FILE_BYTES unless
    `limit` says otherwise); malformed JSON is a UserError naming the line and column."""
    return parse_json(read_regular(path, MAX_FILE_BYTES if limit is None else limit), path)


def parse_json(raw: bytes, path: str, keys_checked: bool = True):
    """The document in a result file's bytes, refused where an object holds one key twice
    (duplicate_key; keys_checked=False leaves that to the caller, which has counted the keys).
    orjson reads a quick result in 0.6 ms, json in 2.9 (an integer beyond 64 bits it reads as a
    float, which value_problems refuses all the same); what orjson refuses json reads again, so
    the verdict and the message are json's."""
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as e:
        data = _parsed_by_json(raw, path, e)
    if keys_checked:
        try:
            twice = duplicate_key(raw, screened(data)[2])
        except RecursionError:  # orjson reads deeper than json's recursion reaches
            raise UserError("expected JSON nested at most a few hundred levels deep", where=path) from None
        if twice:
            raise UserError(twice[1], where=path, field=twice[0] or "/")  # the root named, as validate names it
    return data


def _parsed_by_json(raw: bytes, path: str, refused: orjson.JSONDecodeError):
    """The document json reads where orjson refused it (refused): json's verdict, and its words,
    at the place orjson found where json's error names none (#60 round 51: NaN, and an integer
    of more digits than Python converts, said neither line nor column)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise UserError(f"not UTF-8 text (byte {e.start})", where=path) from None
    at = f"line {refused.lineno}, column {refused.colno}"
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as e:
        raise UserError(f"malformed JSON at line {e.lineno}, column {e.colno}: {e.msg}", where=path) from None
    except ValueError as e:
        said = str(e) if "integer string conversion" not in str(e) else \
            f"expected a number of at most {sys.get_int_max_str_digits():,} digits"
        raise UserError(f"malformed JSON at {at}: {said}", where=path) from None
    except RecursionError:
        raise UserError(f"malformed JSON at {at}: expected JSON nested at most a few hundred levels deep",
                        where=path) from None


# A closing quote, then white space, then a colon: a key written "k" : v, which the fast count
# of '":' below would miss.
_KEY_END_SPACED = re.compile(rb'"[ \t\r\n]+:')


def duplicate_key(raw: bytes, keys: int) -> tuple[str, str] | None:
    """(JSON Pointer of the object, message) where an object of the JSON text holds one key twice,
    else None; keys: how many keys the parsed document holds (screened). Parsers keep the last
    value of a repeated key silently, so a file read as valid would hold another figure than the
    text a reviewer reads. Quickly: where no string holds a quote (no \\") and no key has space
    before its colon, each '":' in the text ends a key, and their count equals the parsed keys
    unless one repeats (0.45 ms on a 234 KB quick result, where json with a pairs hook takes 2.0
    and orjson's parse 0.73: min of 7 rounds, idle, 2026-11-29); else json reads the text again,
    pairs and all."""
    if b'\\"' not in raw and raw.count(b'":') == keys and not _KEY_END_SPACED.search(raw):
        return None
    found = []

    def pairs(items):
        made = dict(items)
        if len(made) != len(items) and not found:
            seen = set()
            found.append((made, next(k for k, _ in items if k in seen or seen.add(k))))
        return made
    data = json.loads(raw, object_pairs_hook=pairs)
    if not found:
        return None
    holder, key = found[0]
    todo = [(data, ())]
    while todo:  # the path to the object that held the key twice (by identity)
        node, where = todo.pop()
        if node is holder:
            return pointer(where), f"expected each key once in an object, found {key!r} twice"
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        todo.extend((v, (*where, k)) for k, v in items if isinstance(v, (dict, list)))
    return "", f"expected each key once in an object, found {key!r} twice"


MAX_INT = 2 ** 53  # what every JSON reader (the browser's, Hugo's) holds exactly
MAX_NUMBER = 1e18


# Characters no measurement, setting or note needs, refused in every string and key: control
# characters but tab and newline (NUL, ESC, the C1 range), the marks of Unicode's bidirectional
# algorithm (embeddings, overrides and isolates, one left unclosed reversing what a page prints
# beside it; the LRM, RLM and Arabic letter marks), lone surrogates, which no UTF-8 writer
# can encode (a "notes" of "x\udc80y" passed validate and crashed the aggregate), and U+FFFE
# and U+FFFF, which XML has not (a machine name holding one left every bar's <title> in the
# result page's chart not well-formed: #65 round 31).
# The words Hugo puts in a page's content while it renders it, and acts on wherever they stand
# afterwards, a shortcode's output (a result's text in an article's table) included (Hugo 0.111):
# a shortcode's stand-in (hugolib/shortcode.go: "HAHAHUGOSHORTCODE", a number, "HBHB"), replaced
# by that shortcode's output, markup no escaping stops, or a loop (#65 round 48); and the summary
# divider (hugolib/page__per_output.go: "HUGOMORE42"), at which a page with <!--more--> is cut,
# most of an article gone (#65 round 49).
HUGO_MARKERS = ("HAHAHUGOSHORTCODE", "HUGOMORE42")
UNSAFE_TEXT = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff"
                         "\ufffe\uffff]|" + "|".join(HUGO_MARKERS))


def unsafe_text(text: str) -> str:
    """Why a string is refused, naming the first character (or Hugo's word, HUGO_MARKERS) that is, or ''."""
    found = UNSAFE_TEXT.search(text)
    if not found:
        return ""
    if found.group(0) in HUGO_MARKERS:
        return (f"expected text without {' or '.join(HUGO_MARKERS)}, words the site generator acts on wherever they "
                f"stand in an article (another shortcode's output put in, the page cut), found {found.group(0)} at "
                f"character {found.start() + 1}")
    code = ord(found.group(0))
    kind = ("a lone surrogate" if 0xD800 <= code <= 0xDFFF else "a control character" if code < 0xA0
            else "a noncharacter" if code >= 0xFFFE else "a bidirectional mark")
    return (f"expected text without control characters (but tab and newline), bidirectional marks, lone "
            f"surrogates or the noncharacters U+FFFE and U+FFFF, found {kind} U+{code:04X} at character "
            f"{found.start() + 1}")


def screened(value) -> tuple[bool, set, int]:
    """(whether every number of the document is finite and at most 2^53 in size, its distinct
    strings, keys included, how many keys its objects hold): one walk of a quick result's 20,000
    values (0.7 ms) that value_problems, the privacy check and duplicate_key read, each looking
    at 430 strings, not 7,000."""
    strings, numbers, todo, keys = set(), [], [value] if isinstance(value, (dict, list)) else [], 0
    add, push, number = strings.add, todo.append, numbers.append
    while todo:
        node = todo.pop()
        if type(node) is dict:
            strings.update(node)
            keys += len(node)
            node = node.values()
        for item in node:
            kind = type(item)
            if kind is float or kind is int:
                number(item)
            elif kind is str:
                add(item)
            elif kind is dict or kind is list:
                push(item)
    # a sum is not finite if any number is not (nor can numbers within 2^53 add up to infinity); an
    # integer beyond a float's range (10**400) cannot even be added to one: not fine either (#60 round 20)
    try:
        fine = not numbers or (math.isfinite(sum(numbers)) and max(numbers) <= MAX_INT and min(numbers) >= -MAX_INT)
    except OverflowError:
        fine = False
    return fine, strings, keys


def value_problems(value, screen: tuple[bool, set, int] | None = None) -> list[tuple[str, str]]:
    """(JSON Pointer, message) for every value in the document that no measurement, setting or
    note can be: a number that is not finite, above 1e18 in size, or an integer beyond 2^53
    (which the site's JSON writer and every browser would round or refuse); a string or key
    holding a character UNSAFE_TEXT refuses. screen: screened(value), if taken already. The
    walk that builds pointers runs only when the screen finds a number or string to look at."""
    fine, strings, _ = screen or screened(value)
    if fine and not any(map(UNSAFE_TEXT.search, strings)):
        return []
    out, todo = [], [(value, ())] if isinstance(value, (dict, list)) else []  # a bare 0 is the schema's to refuse
    while todo:
        node, parts = todo.pop()
        for key, item in (node.items() if isinstance(node, dict) else enumerate(node)):
            kind = type(item)
            if kind is float:
                if not math.isfinite(item) or abs(item) > MAX_NUMBER:
                    out.append((pointer([*parts, key]), f"expected a number between -1e18 and 1e18, found {item:.6g}"))
            elif kind is int:
                if abs(item) > MAX_INT:
                    out.append((pointer([*parts, key]), f"expected an integer of at most 2^53, found one of "
                                                         f"{len(str(abs(item)))} digits"))
            elif kind is str:
                why = unsafe_text(item)
                if why:
                    out.append((pointer([*parts, key]), why))
            elif kind is dict or kind is list:
                todo.append((item, (*parts, key)))
            if isinstance(key, str) and UNSAFE_TEXT.search(key):
                out.append((pointer([*parts, key]), "a name: " + unsafe_text(key)))
    return sorted(out)


# --- the stored form (schema 2) and the read form ------------------------------------------
# A file stores what was measured, once; what derives from it is made when it is read, by
# readable(), the one function every reader (validate, aggregate, export, compare, the site)
# takes a document through, and stored(), the one function every writer (runner, importers,
# migrate) puts a document through. The read form is version 1's shape: every metric with its
# unit, better, mean, median, stddev, rsd_pct and ci95; every raw reference spelled out; the
# counters as a list of objects, one a repetition. A version 1 file is read as it is (validate
# checks its stored summaries against the samples).
DERIVED = ("mean", "median", "stddev", "rsd_pct", "ci95")
COUNTERS = ("device_io", "timed_io", "host")
BASELINES = ("baseline", "baseline_after")


def readable(data: dict) -> dict:
    """The read form of a document that passed check_stored: a version 1 file is read as its
    migration (stored(): what `fsatlas migrate` writes of it), so that every figure a reader
    sees of it, computed from the samples, is the one it shows once migrated (#65 round 52:
    readers showed a version 1 file's stored summaries, which may differ from the samples' within
    validate's tolerance, or, for the baselines, without any check); one made in memory in the
    read form as it is."""
    if version_of(data) == 1:
        data = stored(data)
    if data.get("schema_version") != 2:
        return data
    out = dict(data)
    target = data.get("target")
    if isinstance(target, dict) and any(field in target for field in BASELINES):
        out["target"] = {k: {job: _read_metrics(m) for job, m in v.items()} if k in BASELINES else v
                         for k, v in target.items()}
    rid = data["id"]
    out["cells"] = [_read_cell(cell, rid) for cell in data["cells"]]
    return out


def _read_cell(cell: dict, rid: str) -> dict:
    out = dict(cell)
    out["metrics"] = _read_metrics(cell["metrics"])
    if "clients" in cell:
        out["clients"] = {label: _read_metrics(m) for label, m in cell["clients"].items()}
    if isinstance(cell["raw"], dict):
        out["raw"] = raw_references(rid, cell["key"], cell["raw"]["reps"], cell["raw"]["ext"])
    for field in COUNTERS:
        if field in cell:
            columns = cell[field]
            out[field] = [dict(zip(columns, row)) for row in zip(*columns.values())]
    return out


def _read_metrics(stored_metrics: dict) -> dict:
    """Each metric in the read form: unit, better (and pts_scale), the samples as stored, then
    the summaries stats.summarize gives of them, in that order."""
    from .metrics import KNOWN
    from .stats import summary_figures
    out = {}
    for name, metric in stored_metrics.items():
        unit, better = KNOWN.get(name, (None, None))
        read = {"unit": metric.get("unit", unit), "better": metric.get("better", better)}
        if "pts_scale" in metric:
            read["pts_scale"] = metric["pts_scale"]
        read["samples"] = samples = metric["samples"]
        read["mean"], read["median"], read["stddev"], read["rsd_pct"], read["ci95"] = summary_figures(samples)
        out[name] = read
    return out


def raw_dir_name(key: str) -> str:
    """The folder in a bundle holding the raw files of a cell (by its key) or of a job of the raw
    device's baseline (by its name): a key may hold any mount or mkfs option, a folder name may not."""
    return re.sub(r"[^A-Za-z0-9._=,+-]", "_", key.replace("|", "__"))


def raw_references(rid: str, key: str, reps: int, ext: str) -> list[str]:
    """The raw references of a cell whose repetitions' files are the runner's: raw/<id>/<key
    folder>/rep-1.<ext> ... rep-<reps>.<ext> (run/execution writes them so)."""
    folder = f"raw/{rid}/{raw_dir_name(key)}"
    return [f"{folder}/rep-{rep}.{ext}" for rep in range(1, reps + 1)]


RAW_EXT = re.compile(r"rep-1\.([a-z0-9]{1,10})")


def stored(data: dict, file: str = "<result>") -> dict:
    """The stored form (schema CURRENT) of a document in the read form (or in the stored form
    already: stored(stored(x)) == stored(x)). A UserError where a cell's counters do not name
    the same fields in every repetition (no columns can hold them)."""
    out = dict(data, schema_version=CURRENT)
    target = data.get("target")
    if isinstance(target, dict) and any(field in target for field in BASELINES):
        out["target"] = {k: {job: _stored_metrics(m) for job, m in v.items()} if k in BASELINES else v
                         for k, v in target.items()}
    out["cells"] = [stored_cell(cell, data["id"], f"/cells/{i}", file) for i, cell in enumerate(data["cells"])]
    return out


def stored_cell(cell: dict, rid: str, where: str = "/cells/0", file: str = "<result>") -> dict:
    """One cell of stored(): of the result rid, at the JSON Pointer where."""
    out = dict(cell)
    out["metrics"] = _stored_metrics(cell["metrics"])
    if "clients" in cell:
        out["clients"] = {label: _stored_metrics(m) for label, m in cell["clients"].items()}
    compact = rule_form(rid, cell["key"], cell["raw"])
    if compact:
        out["raw"] = compact
    for field in COUNTERS:
        rows = cell.get(field)
        if isinstance(rows, list):
            # no repetition (a cell that failed first): the columns the schema requires, each empty,
            # which read back as [] (#65 round 52: {} was refused by the schema migrate writes)
            names = list(rows[0]) if rows else _required_columns(field)
            for j, row in enumerate(rows):
                if set(row) != set(names):
                    raise UserError(f"expected every repetition's counters to name the same fields "
                                    f"({', '.join(names)}), found {', '.join(row)}", where=file,
                                    field=f"{where}/{field}/{j}")
            out[field] = {name: [row[name] for row in rows] for name in names}
    return out


@lru_cache(maxsize=None)
def _required_columns(field: str) -> list:
    """The columns schema CURRENT requires of a cell's counters field (COUNTERS)."""
    whole = schema(CURRENT)
    node = whole["$defs"]["cell"]["properties"][field]
    node = whole["$defs"][node["$ref"].rpartition("/")[2]] if "$ref" in node else node
    return list(node["required"])


def rule_form(rid: str, key: str, raw) -> dict | None:
    """{"reps": n, "ext": e} where a cell's references are the rule's (raw_references), else None."""
    ext = RAW_EXT.fullmatch(raw[0].rpartition("/")[2]) if isinstance(raw, list) and raw else None
    if ext and raw == raw_references(rid, key, len(raw), ext.group(1)):
        return {"reps": len(raw), "ext": ext.group(1)}
    return None


STORED_ORDER = ("unit", "better", "pts_scale", "samples")


def _stored_metrics(read_metrics: dict) -> dict:
    from . import metrics
    out = {}
    for name, metric in read_metrics.items():
        kept = {k: metric[k] for k in STORED_ORDER if k in metric}  # one order: stored(stored(x)) == stored(x), byte for byte
        kept.update((k, v) for k, v in metric.items() if k not in DERIVED and k not in kept)  # for the schema to refuse
        if metrics.KNOWN.get(name) == (kept.get("unit"), kept.get("better")):
            del kept["unit"], kept["better"]
        out[name] = kept
    return out


def stored_problems(data: dict, file: str) -> list[Problem]:
    """What schema CURRENT cannot say of a stored document that passed it: each metric's unit
    and better are the metric table's (results/metrics.KNOWN), or stored for one it lacks; a
    cell's counter columns hold one value a repetition each."""
    from . import metrics
    out = []

    def metric_problems(where: str, named: dict) -> None:
        for name, metric in named.items():
            known = metrics.KNOWN.get(name)
            for field, index in (("unit", 0), ("better", 1)):
                if known is None and field not in metric:
                    out.append(Problem("error", file, f"{where}/{name}/{field}",
                                       f"expected the {field} of {name}, a metric the metric table lacks, found none"))
                elif known is not None and field in metric and metric[field] != known[index]:
                    out.append(Problem("error", file, f"{where}/{name}/{field}",
                                       f"expected {field} {known[index]!r} for {name} (the metric table's, "
                                       f"results/metrics.py) or none, found {metric[field]!r}"))

    for field in BASELINES:
        for job, named in data["target"].get(field, {}).items():
            metric_problems(pointer(["target", field, job]), named)
    # the raw files named in all, before readable() spells out each cell's {"reps": n} (#65 round 52:
    # 5,000 cells of 1,000 repetitions, 2.3 MB, took validate 38 s and 1.1 GB before its refusal):
    # never more than one bundle may hold
    named_raw = 0
    for i, cell in enumerate(data["cells"]):
        raw = cell["raw"]
        named_raw += raw["reps"] if isinstance(raw, dict) else len(raw)
        if named_raw > MAX_RAW_FILES:
            out.append(Problem("error", file, f"/cells/{i}/raw", f"expected at most {MAX_RAW_FILES:,} raw files named "
                               f"in all (what one bundle may hold), found {named_raw:,} by this cell"))
            return out
    imported = bool(data["tool"].get("imported_from"))
    for i, cell in enumerate(data["cells"]):
        compact = None if imported else rule_form(data["id"], cell["key"], cell["raw"])
        if compact:  # one form: the writer stores the rule's references as the rule's {reps, ext} (#65 round 52)
            out.append(Problem("error", file, f"/cells/{i}/raw", f'expected {{"reps": {compact["reps"]}, "ext": '
                               f'"{compact["ext"]}"}}, the form a runner\'s references are stored in, found them spelled out'))
        metric_problems(f"/cells/{i}/metrics", cell["metrics"])
        for label, named in cell.get("clients", {}).items():
            metric_problems(f"/cells/{i}/clients/{label}", named)
        for field in COUNTERS:
            columns = cell.get(field, {})
            lengths = {len(values) for values in columns.values()}
            if len(lengths) > 1:
                # the column that is short or long is the one named: against the cell's repetitions
                # (its samples), else the length most columns have (round 58: a steal column cut
                # to 8 of 9 had the I/O wait column named, "expected 8")
                reps = [len(m["samples"]) for m in cell["metrics"].values()
                        if isinstance(m, dict) and isinstance(m.get("samples"), list)]
                expected = max(reps) if reps else Counter(map(len, columns.values())).most_common(1)[0][0]
                for name, values in columns.items():
                    if len(values) != expected:
                        out.append(Problem("error", file, f"/cells/{i}/{field}/{name}",
                                           f"expected {expected} values (one a repetition), found {len(values)}"))
    return out


def version_problems(data: dict, file: str) -> list[Problem]:
    """What its version's schema cannot say of a document that passed it: stored_problems for
    version CURRENT; for version 1, the problems of its migration (stored()), which must pass
    schema CURRENT and stored_problems, for the file is read as that migration (readable): a
    file validate accepts is one `fsatlas migrate` converts (#65 round 52: counters whose
    repetitions name other fields, a baseline in another unit, passed validate and stopped migrate)."""
    if version_of(data) == CURRENT:
        return stored_problems(data, file)
    try:
        migrated = stored(data, file)
    except UserError as e:
        return [Problem("error", file, e.field or "/", e.body)]
    return [Problem(p.severity, p.file, p.path, f"{p.message} (in the version {CURRENT} form fsatlas migrate writes of it)")
            for p in schema_problems(migrated, file) or stored_problems(migrated, file)]


def check_stored(data, file: str = "<result>") -> None:
    """Raises a UserError naming the first problem of a document as it is stored (its values,
    its version's schema, version_problems)."""
    problems = [Problem("error", file, where, message) for where, message in value_problems(data)] \
        or schema_problems(data, file)
    if not problems:
        problems = version_problems(data, file)
    if problems:
        first = problems[0]
        raise UserError(first.message, where=file, field=first.path or "/")


def check(data: dict, file: str = "<result>") -> None:
    """Raises a UserError naming the first problem of a document in the read form as the one
    writer would store it; the runner and the importers call it before writing."""
    check_stored(stored(data, file), file)


def load_result(path: str) -> dict:
    """A result file in the read form, checked as it is stored (check_stored): what compare,
    export and run --resume read."""
    data = load_json(path)
    check_stored(data, path)
    return readable(data)


def dumped(data, compact: bool = False) -> bytes:
    """The bytes write_atomic writes for data."""
    # dumps, not dump: json.dump streams through the pure-Python encoder, several times slower
    text = json.dumps(data, separators=(",", ":"), allow_nan=False) if compact else \
        json.dumps(data, indent=1, allow_nan=False)
    return (text + "\n").encode()


def write_atomic(path: str, data, compact: bool = False, durable: bool = True) -> None:
    """Writes JSON to a temporary file beside `path`, then renames it over `path` (outfile.replacing:
    only over a regular file or nothing); durable flushes it to the disk first (result files: yes; caches that can be rebuilt: no)."""
    with outfile.replacing(path, binary=True, durable=durable) as f:
        f.write(dumped(data, compact))


def write_result(out_dir: str, data: dict) -> str:
    """Writes a result (read or stored form) as out_dir/results/<id>.json in the stored form."""
    return write_stored(os.path.join(out_dir, "results", f"{data['id']}.json"), data)


def write_stored(path: str, data: dict) -> str:
    """The one writer of result files: the document's stored form, checked, written atomically
    (temporary file, rename: outfile.replacing)."""
    document = stored(data, path)
    check_stored(document, path)
    write_atomic(path, document)
    return path
