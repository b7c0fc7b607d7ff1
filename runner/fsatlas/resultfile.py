"""The result file: its JSON Schema, validation against it, reading, and atomic writing.

The schema (schema/result.schema.json) is the one definition of the shape; the runner
validates before it writes, `fsatlas validate` runs the same schema plus the rules it can't
say, and the aggregator reads only files that pass.
"""
import json
import math
import os
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources


from .errors import UserError

MAX_FILE_BYTES = 64 * 1024 * 1024


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
    """The same schema compiled to Python by fastjsonschema: 50 times faster than jsonschema on
    a quick result (1.3 ms against 64 ms), which made up two thirds of validating 10,000 of them.
    It only says "valid": a document it rejects is checked again by jsonschema, whose verdict and
    messages are the ones reported (fastjsonschema reads the schema as draft 7 and stops at the
    first error). tests/test_fuzz.py checks it accepts nothing jsonschema rejects."""
    import fastjsonschema
    return fastjsonschema.compile(_no_bool_for_numbers(schema()))


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
        found = json.dumps(error.instance, default=str)
        if len(found) > 80:
            found = found[:77] + "..."
        message = error.message if len(error.message) < 200 else error.message[:197] + "..."
        problems.append(Problem("error", file, pointer(error.absolute_path),
                                f"{message} (found {found})"))
    return problems


def _reject_constant(token):
    raise ValueError(f"{token} is not a number JSON allows")


def load_json(path: str):
    """Reads a JSON file; malformed JSON is a UserError naming the line and column."""
    try:
        size = os.path.getsize(path)
        if size > MAX_FILE_BYTES:
            raise UserError(where=path, expected=f"at most {MAX_FILE_BYTES} bytes", found=f"{size} bytes")
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise UserError(f"cannot read: {e.strerror}", where=path) from None
    except UnicodeDecodeError as e:
        raise UserError(f"not UTF-8 text (byte {e.start})", where=path) from None
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as e:
        raise UserError(f"malformed JSON at line {e.lineno}, column {e.colno}: {e.msg}", where=path) from None
    except (ValueError, RecursionError) as e:
        raise UserError(f"malformed JSON: {e}", where=path) from None


def check(data: dict, file: str = "<result>") -> None:
    """Raises a UserError naming the first schema problem; the runner calls it before writing."""
    problems = schema_problems(data, file)
    if problems:
        first = problems[0]
        raise UserError(first.message, where=file, field=first.path or "/")


def finite(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def write_atomic(path: str, data, compact: bool = False, durable: bool = True) -> None:
    """Writes JSON to a temporary file beside `path`, then renames it over `path`; durable
    flushes it to the disk first (result files: yes; caches that can be rebuilt: no)."""
    # dumps, not dump: json.dump streams through the pure-Python encoder, several times slower
    text = json.dumps(data, separators=(",", ":"), allow_nan=False) if compact else \
        json.dumps(data, indent=1, allow_nan=False)
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text + "\n")
            if durable:
                f.flush()
                os.fsync(f.fileno())
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; result and site files are meant to be read
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_result(out_dir: str, data: dict) -> str:
    path = os.path.join(out_dir, "results", f"{data['id']}.json")
    check(data, path)
    write_atomic(path, data)
    return path
