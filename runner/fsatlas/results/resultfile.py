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
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import orjson


from .. import outfile
from ..errors import UserError

MAX_FILE_BYTES = 16 * 1024 * 1024  # a standard run's file is under 1 MB; `validate --max-bytes` changes it
# An id as the schema allows it (starting with a letter or digit), and the ids that would take the
# place of a page of the site (results/index.html, results/page/2/, the section's _index).
ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,199}")
RESERVED_ID = re.compile(r"(?i:index(\..*)?|page)")
TOLERATED = {".gitkeep"}  # what may sit in data/results beside the result files


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

    def __str__(self) -> str:
        return f"{self.file}: {self.severity}: {self.path or '/'}: {self.message}"


@lru_cache(maxsize=1)
def schema() -> dict:
    return json.loads((resources.files("fsatlas") / "schema" / "result.schema.json").read_text())


@lru_cache(maxsize=1)
def _validator():
    import jsonschema  # here, not at the top: a cached rebuild never needs it (a tenth of a second)
    return jsonschema.Draft202012Validator(schema())


@lru_cache(maxsize=1)
def _fast_check():
    """The same schema as a msgspec type (results/schema_types), with what a type cannot say
    compiled by fastjsonschema: on a quick result 0.6 ms, where fastjsonschema alone took
    1.65 ms (and had been 50 times faster than jsonschema: 1.3 against 64 ms).
    It only says "valid": a document it rejects is checked again by jsonschema, whose verdict
    and messages are the ones reported. tests/test_fuzz.py checks it accepts nothing jsonschema
    rejects. Every definition is written in place of its $ref first (_inlined)."""
    import fastjsonschema
    import msgspec
    from . import schema_types
    whole = schema()
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
        _fast_check()(data)
    except Exception:  # a rejection, or any doubt: jsonschema decides
        return False
    return True


def pointer(parts) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def schema_problems(data, file: str) -> list[Problem]:
    if schema_valid_fast(data):
        return []
    problems = []
    for error in sorted(_validator().iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        if error.validator == "required":
            # Name the missing field itself, not the object that lacks it.
            missing = error.message.split("'")[1] if error.message.count("'") >= 2 else ""
            problems.append(Problem("error", file, pointer([*error.absolute_path, missing]),
                                    "required field is missing"))
            continue
        problems.append(Problem("error", file, pointer(error.absolute_path), _words(error)))
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
    message = error.message if len(error.message) < 200 else error.message[:197] + "..."
    return f"{message} (found {_short(value)})"


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


def parse_json(raw: bytes, path: str):
    """The document in a result file's bytes.
    orjson reads a quick result in 0.6 ms, json in 2.9 (an integer beyond 64 bits it reads as a
    float, which value_problems refuses all the same); what orjson refuses json reads again, so
    the verdict and the message are json's."""
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        pass
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise UserError(f"not UTF-8 text (byte {e.start})", where=path) from None
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as e:
        raise UserError(f"malformed JSON at line {e.lineno}, column {e.colno}: {e.msg}", where=path) from None
    except (ValueError, RecursionError) as e:
        raise UserError(f"malformed JSON: {e}", where=path) from None


MAX_INT = 2 ** 53  # what every JSON reader (the browser's, Hugo's) holds exactly
MAX_NUMBER = 1e18


# Characters no measurement, setting or note needs, refused in every string and key: control
# characters but tab and newline (NUL, ESC, the C1 range), the marks of Unicode's bidirectional
# algorithm (embeddings, overrides and isolates, one left unclosed reversing what a page prints
# beside it; the LRM, RLM and Arabic letter marks), and lone surrogates, which no UTF-8 writer
# can encode (a "notes" of "x\udc80y" passed validate and crashed the aggregate).
UNSAFE_TEXT = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def unsafe_text(text: str) -> str:
    """Why a string is refused, naming the first character that is, or ''."""
    found = UNSAFE_TEXT.search(text)
    if not found:
        return ""
    code = ord(found.group(0))
    kind = ("a lone surrogate" if 0xD800 <= code <= 0xDFFF else "a control character" if code < 0xA0
            else "a bidirectional mark")
    return (f"expected text without control characters (but tab and newline), bidirectional marks or lone "
            f"surrogates, found {kind} U+{code:04X} at character {found.start() + 1}")


def screened(value) -> tuple[bool, set]:
    """(whether every number of the document is finite and at most 2^53 in size, its distinct
    strings, keys included): one walk of a quick result's 20,000 values (0.7 ms) that
    value_problems and the privacy check both read, each looking at 430 strings, not 7,000."""
    strings, numbers, todo = set(), [], [value] if isinstance(value, (dict, list)) else []
    add, push, number = strings.add, todo.append, numbers.append
    while todo:
        node = todo.pop()
        if type(node) is dict:
            strings.update(node)
            node = node.values()
        for item in node:
            kind = type(item)
            if kind is float or kind is int:
                number(item)
            elif kind is str:
                add(item)
            elif kind is dict or kind is list:
                push(item)
    # a sum is not finite if any number is not (nor can numbers within 2^53 add up to infinity)
    fine = not numbers or (math.isfinite(sum(numbers)) and max(numbers) <= MAX_INT and min(numbers) >= -MAX_INT)
    return fine, strings


def value_problems(value, screen: tuple[bool, set] | None = None) -> list[tuple[str, str]]:
    """(JSON Pointer, message) for every value in the document that no measurement, setting or
    note can be: a number that is not finite, above 1e18 in size, or an integer beyond 2^53
    (which the site's JSON writer and every browser would round or refuse); a string or key
    holding a character UNSAFE_TEXT refuses. screen: screened(value), if taken already. The
    walk that builds pointers runs only when the screen finds a number or string to look at."""
    fine, strings = screen or screened(value)
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


def check(data: dict, file: str = "<result>") -> None:
    """Raises a UserError naming the first schema problem; the runner calls it before writing."""
    problems = [Problem("error", file, where, message) for where, message in value_problems(data)] \
        or schema_problems(data, file)
    if problems:
        first = problems[0]
        raise UserError(first.message, where=file, field=first.path or "/")


def write_atomic(path: str, data, compact: bool = False, durable: bool = True) -> None:
    """Writes JSON to a temporary file beside `path`, then renames it over `path` (outfile.replacing:
    only over a regular file or nothing); durable flushes it to the disk first (result files: yes; caches that can be rebuilt: no)."""
    # dumps, not dump: json.dump streams through the pure-Python encoder, several times slower
    text = json.dumps(data, separators=(",", ":"), allow_nan=False) if compact else \
        json.dumps(data, indent=1, allow_nan=False)
    with outfile.replacing(path, durable=durable, suffix=".json") as f:
        f.write(text + "\n")


def write_result(out_dir: str, data: dict) -> str:
    path = os.path.join(out_dir, "results", f"{data['id']}.json")
    check(data, path)
    write_atomic(path, data)
    return path
