"""The curated knowledge in data/: the source registry, feature files, mount-option files and
historical datasets. Loads them, checks them against schema/knowledge.schema.json and beyond
it (every cited source exists, every claim names cells the standard matrix defines), and
weighs each claim against this project's own measurements.
"""
import glob
import hashlib
import math
import os
import re
from functools import lru_cache
from importlib import resources
import json
from pathlib import Path

import yaml

from . import best_per_key, feature_matrix, limits, probes as probes_mod, run_rule
from ..run import matrix as matrix_mod, probes_generic
from ..run.claim_aims import claim_comparisons
from ..results import comparison, contention, flags as flags_mod, machines, metrics as metrics_mod, probefile, resultfile
from .. import safe_yaml
from ..errors import UserError
from ..results.resultfile import Problem, pointer

KINDS = {"features": "feature_file", "mount_options": "mount_option_file", "history": "history_dataset"}


@lru_cache(maxsize=1)
def _schema() -> dict:
    return json.loads((resources.files("fsatlas") / "schema" / "knowledge.schema.json").read_text())


def _validator(definition: str):
    import jsonschema  # here, not at the top: a cached rebuild never needs it (a tenth of a second)
    schema = _schema()
    return jsonschema.Draft202012Validator({"$ref": f"#/$defs/{definition}", "$defs": schema["$defs"]})


def _load_yaml(path: str):
    with open(path, encoding="utf-8") as f:
        return safe_yaml.load(f)


def curated_files(data_dir: str) -> list[str]:
    """Every file load() reads."""
    files = [os.path.join(data_dir, name) for name in ("sources.yaml", "feature_columns.yaml", "corrections.yaml",
                                                      "kernel_history.yaml")
             if os.path.exists(os.path.join(data_dir, name))]
    files += glob.glob(os.path.join(data_dir, "probes", "*.json"))  # sources may name them
    for kind in KINDS:
        files += sorted(glob.glob(os.path.join(data_dir, kind, "*.yaml")))
    return files


@lru_cache(maxsize=1)
def package_digest() -> str:
    """A digest of the code and schemas the checks of load() run: every module and schema of the
    fsatlas package (they reach feature_matrix, probes, the matrix, flags and more), so a rule
    changed anywhere checks the curated data again instead of trusting the cache."""
    root = resources.files("fsatlas")
    digest = hashlib.sha256()
    for path in sorted(p for p in Path(str(root)).rglob("*") if p.suffix in (".py", ".json")
                       and "__pycache__" not in p.parts):
        digest.update(str(path.relative_to(str(root))).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def load_checked(data_dir: str, cache_file: str) -> dict:
    """load() for a build: a UserError listing the problems if there are any; remembered in
    cache_file by the size and content digest of every file read and by this code, so a rebuild with the
    same curated data neither parses nor checks it again."""
    from ..results.filesig import signature
    key = [package_digest(), [[path, signature(path)] for path in curated_files(data_dir)]]
    try:
        with open(cache_file, encoding="utf-8") as f:
            stored = json.load(f)
        if stored["key"] == key:
            return stored["knowledge"]
    except (OSError, ValueError, KeyError, TypeError):
        pass
    knowledge = load_refusing(data_dir)
    try:
        resultfile.write_atomic(cache_file, {"key": key, "knowledge": knowledge}, compact=True, durable=False)
    except (TypeError, ValueError):
        pass  # not plain JSON (a YAML date, say): not cached, read again next time
    return knowledge


def load_refusing(data_dir: str) -> dict:
    """load(), and a UserError where the data has errors: one line (file, place, what was
    expected), or with several the count and the first, in one line."""
    knowledge, problems = load(data_dir)
    errors = [p for p in problems if p.severity == "error"]
    if len(errors) == 1:  # the one line: file, place, what was expected
        raise UserError(errors[0].message, where=errors[0].file, field=errors[0].path or "/")
    if errors:  # still one line: the first, and where to read them all
        raise UserError(f"{len(errors)} problems in the curated data, the first: {errors[0]}; "
                        f"fsatlas check-data --data {data_dir} lists them all", where=data_dir)
    return knowledge


def load(data_dir: str) -> tuple[dict, list[Problem]]:
    """All curated data, keyed by kind and id, and the problems found in it."""
    problems, knowledge = [], {"sources": [], "features": {}, "mount_options": {}, "history": {}}

    def read(path, definition):
        try:
            data = _load_yaml(path)
        except (OSError, yaml.YAMLError) as e:
            mark = getattr(e, "problem_mark", None)
            at = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
            problems.append(Problem("error", path, "", f"not readable YAML{at}: {getattr(e, 'problem', e)}"))
            return None
        found = [Problem("error", path, where, f"expected a finite number, found {value}" if type(value) is float else
                         f"expected an integer within ±2^53 (what a browser holds exactly), found {_shown_number(value)}")
                 for where, value in _not_finite(data, ())]
        named = {p.path for p in found}  # one line a place: its schema error (inf is above any maximum) adds nothing
        found += [Problem("error", path, pointer(err.absolute_path), _message(err))
                  for err in _validator(definition).iter_errors(data) if pointer(err.absolute_path) not in named]
        problems.extend(found)
        return None if found else data

    sources_path = os.path.join(data_dir, "sources.yaml")
    if not os.path.exists(sources_path):  # a data folder with results only: no curated knowledge
        knowledge["feature_columns"] = []
        return knowledge, []
    knowledge["sources"] = read(sources_path, "source_registry") or []
    for kind, definition in KINDS.items():
        for path in sorted(glob.glob(os.path.join(data_dir, kind, "*.yaml"))):
            data = read(path, definition)
            if data is None:
                continue
            ident = data.get("filesystem") or data.get("id")
            stem = os.path.basename(path)[:-5]
            if ident != stem:
                problems.append(Problem("error", path, "/filesystem" if kind == "features" else "/id",
                                        f"expected the file name ({stem!r}), found {ident!r}"))
            data["_path"] = path
            knowledge[kind][ident] = data
    corrections_path = os.path.join(data_dir, "corrections.yaml")
    knowledge["corrections"] = (read(corrections_path, "corrections") or []) if os.path.exists(corrections_path) else []
    history_path = os.path.join(data_dir, "kernel_history.yaml")
    knowledge["kernel_history"] = (read(history_path, "kernel_history") or []) if os.path.exists(history_path) else []
    columns_path = os.path.join(data_dir, "feature_columns.yaml")
    before = len(problems)
    knowledge["feature_columns"] = read(columns_path, "feature_columns") or []  # malformed: each place named, no column kept
    wanted = list(_schema()["$defs"]["feature_file"]["properties"]["features"]["properties"])
    keys = [c["key"] for c in knowledge["feature_columns"]]
    if len(problems) == before and sorted(keys) != sorted(wanted):
        problems.append(Problem("error", columns_path, "", f"expected one {{key, label}} per feature {wanted}, found {keys}"))
    problems += _cross_check(knowledge, sources_path)
    return knowledge, problems


def _not_finite(data, at: tuple):
    """(JSON Pointer, value) of every number in data that is not finite, or an integer beyond
    2^53: YAML reads .nan, .inf and -.Inf (and 1.0e+999) as floats, which a JSON Schema's number
    takes (nan lies within any minimum and maximum) and which no JSON written from them may hold;
    and a 400-digit integer exactly, which a browser reads as infinity (resultfile.MAX_INT, the
    bound of result files)."""
    if isinstance(data, float) and not math.isfinite(data) or \
            type(data) is int and abs(data) > resultfile.MAX_INT:
        yield pointer(at), data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield from _not_finite(value, at + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _not_finite(value, at + (i,))


def _shown_number(value: int) -> str:
    """A refused integer as one short line: a huge one by its digits, not all of them."""
    text = str(value)
    return f"an integer of {len(text.lstrip('-'))} digits" if len(text) > 24 else text


def _reads_as_number(text: str) -> tuple[int | float, str] | None:
    """(the number a history cell's text spells, the text it was read from), or None for words
    ("more than 10 s", "unclear", "1-4"). Spelled as YAML would read it unquoted (digits, 1_000,
    0x1F, 1:30, 1.5e3), or as float() reads it ("1e999", "inf", "NaN", "9007199254740993e0"),
    with digits grouped by commas, underscores or any space ("9,007,199,254,740,993", U+2009) as one
    number (#60 round 19: each spelling of 2^53 + 1 passed as words)."""
    for candidate in dict.fromkeys((text.strip(), re.sub(r"(?<=\d)[,_\s](?=\d)", "", text.strip()))):
        if re.fullmatch(r"[-+]?[0-9]+", candidate):  # digits alone, however many: an integer
            try:
                return int(candidate), candidate
            except ValueError:  # beyond Python's 4,300 digits for int(): a number no browser holds either
                return math.inf, candidate
        value = None
        if re.fullmatch(r"[-+.0-9][-+.:_0-9a-zA-Z]*", candidate):  # never YAML's brackets, which nest deep enough to overrun the C stack
            # a number's letters however many (#60 round 22: a 72-character hex passed); YAML's base
            # 60 costs quadratic time in its parts, so leading zeros are dropped first, and what is
            # still longer than 64 letters is beyond 2^53 (60^20 at least, or 60 digits)
            short = re.sub(r"(?<![0-9])0+(?=[0-9])", "", re.sub(r"^([-+]?)(?:0+:)+", r"\1", candidate)) \
                if ":" in candidate else candidate
            if ":" in short and len(short) > 64:
                return 60 ** 64, candidate  # not its value: one beyond 2^53 (the message shows the text)
            value = safe_yaml.scalar(short)
        if type(value) in (int, float):
            return value, candidate
        try:
            return float(candidate), candidate
        except ValueError:
            continue
    return None


def _message(error) -> str:
    if error.validator == "required":
        return error.message.replace("is a required property", "is required but missing")
    found = json.dumps(error.instance, default=str)
    return f"{error.message if len(error.message) < 160 else error.message[:157] + '...'} (found {found[:60]})"


# The packages a probe source may say it ran at a version, by the names its text may use for them
# (the package's, or a program's: resize_reiserfs); the probe record's "tool" must list that package
# at that version.
TOOL_NAMES = {**{p: p for p in ("e2fsprogs", "xfsprogs", "btrfs-progs", "f2fs-tools", "hfsprogs", "reiserfsprogs",
                                "jfsutils", "nilfs-tools", "ntfs-3g", "xfsdump", "fio", "acl", "quota", "util-linux",
                                "coreutils")},
              "resize_reiserfs": "reiserfsprogs"}
TOOL_VERSION = re.compile(r"(?<![\w.-])(" + "|".join(map(re.escape, sorted(TOOL_NAMES, key=len, reverse=True)))
                          + r")\s+v?(\d+(?:\.\d+)+)")


def _versions_named(text: str) -> list[tuple[str, str]]:
    """(package, version) of every "f2fs-tools 1.15" in text."""
    return [(TOOL_NAMES[name], version) for name, version in TOOL_VERSION.findall(text)]


def _backs(held: str, version: str) -> bool:
    return bool(re.search(r"(?<![\d.])" + re.escape(version) + r"(?!\d)", held))


def probe_records(data_dir: str) -> dict:
    """probe id -> its record, each committed probe result read once for the rules that weigh
    facts against the probes; a file that cannot be read or that its schema refuses is left out
    (probefile.problems names it, and check-data fails): the rules read only records of the shape
    they expect (round 37: `findings: [1]` raised in them)."""
    records = {}
    for path in probefile.files(data_dir):
        try:
            record = resultfile.load_json(path)
        except UserError:
            continue
        if isinstance(record, dict) and probefile.valid(record):
            if isinstance(record.get("findings"), list):  # each as the current rule reads it (probes_generic.read_now)
                record["findings"] = [probes_generic.read_now(f) if isinstance(f, dict) else f for f in record["findings"]]
            records[os.path.basename(path)[:-5]] = record
    return records


def _tool_versions(knowledge: dict, by_id: dict, records: dict, sources_path: str) -> list[Problem]:
    """A probe's claim of a tool version must be one its probe record lists: a probe source's
    text against its own record; a fact that cites probes against theirs, unless a document it
    cites names that version of the package (the manual read). Otherwise nothing backs it."""
    problems = []
    for i, source in enumerate(knowledge["sources"]):
        if "probe" not in source:
            continue
        tools = records.get(source["probe"], {}).get("tool", {})
        for field in ("title", "publisher", "covers"):
            for package, version in _versions_named(str(source.get(field, ""))):
                if not _backs(str(tools.get(package, "")), version):
                    problems.append(Problem("error", sources_path, f"/{i}/{field}",
                                            f"expected a version of {package} that probe record {source['probe']} "
                                            f"lists, found {version} (the record lists {tools.get(package) or 'none'})"))
    for data in knowledge["features"].values():
        for name, fact in data["features"].items():
            cited = [by_id[s] for s in fact["sources"] if s in by_id]
            tools = [records.get(s["probe"], {}).get("tool", {}) for s in cited if "probe" in s]
            if not tools:
                continue  # a version of a document read ("xfsprogs 6.1" of its manual): not a probe's claim
            documents = [" ".join(str(s.get(k, "")) for k in ("title", "publisher", "url", "covers"))
                         for s in cited if "probe" not in s]
            for field in ("holds_for", "note"):
                for package, version in _versions_named(str(fact.get(field, ""))):
                    if any(package in d and _backs(d, version) for d in documents):
                        continue  # the cited manual of that version of the package is where it comes from
                    if not any(_backs(str(t.get(package, "")), version) for t in tools):
                        problems.append(Problem("error", data["_path"], f"/features/{name}/{field}",
                                                f"expected {package} {version} in a probe record this fact cites, "
                                                f"found it in none of {fact['sources']}"))
    return problems


def _probe_answers(knowledge: dict, records: dict) -> list[Problem]:
    """A fact may not say "not documented" where a committed probe answered it: the kernel's
    refusal (or what it did) is an answer, and the cell must carry it with the probe cited."""
    answered: dict = {}  # (filesystem, probe) -> [(record, finding)] of every record, in order
    for rid, record in sorted(records.items()):
        for finding in record.get("findings", []):
            if finding.get("status") == "ok":
                answered.setdefault((finding["filesystem"], finding["probe"]), []).append((rid, finding))
    problems = []
    for fs, data in knowledge["features"].items():
        for name, fact in data["features"].items():
            said = fact.get("value", fact.get("limit"))
            if said == "not applicable" and "limit" in fact:
                # round 47: a probe that set any number of entries (a floor too) shows the feature the
                # limit bounds is there, whatever the fact says of it
                found = next(((rid, f) for rid, f in answered.get((fs, name), ()) if f.get("limit") is not None), None)
                if found:
                    problems.append(Problem("error", data["_path"], f"/features/{name}/limit",
                                            f"expected a limit: probe record {found[0]} found "
                                            f"{probes_mod.shown(found[1])}, found 'not applicable'"))
                continue
            if said != "not documented":
                continue
            # the first finding that answers the fact's kind: a value for a value; for a limit, a
            # limit the probe found (not a floor where it stopped short: at_least) or a value that
            # is a limit (round 46: a value "no" found first hid a limit found later)
            found = next(((rid, f) for rid, f in answered.get((fs, name), ()) if (
                (f.get("limit") is not None and not f.get("at_least")) or (
                    f.get("value") is not None and not feature_matrix.unanswered_why(name, {"limit": str(f["value"])}, {}))
                if "limit" in fact else f.get("value") is not None)), None)
            if found:
                rid, finding = found
                problems.append(Problem("error", data["_path"], f"/features/{name}",
                                        f"expected the answer probe record {rid} gives ({probes_mod.shown(finding)}: "
                                        f"{str(finding.get('detail', '')).splitlines()[0][:200]}), with that probe "
                                        "cited, found 'not documented'"))
    return problems


REMOUNT_REFUSED = re.compile(r"mount exited \d+ \(mount -t (\S+) ")


def _refused_after(knowledge: dict, records: dict) -> list[Problem]:
    """A fact may not say "yes" where a probe of that filesystem and column ended with the
    filesystem's own driver refusing to mount what the operation left (issue #63: ntfs3's
    offline_shrink said yes while mount -t ntfs3 refused the shrunk volume)."""
    refused = {}
    for rid, record in sorted(records.items()):
        for finding in record.get("findings", []):
            said = REMOUNT_REFUSED.search(str(finding.get("detail", "")))
            if finding.get("status") == "failed" and said and said.group(1) == finding.get("filesystem"):
                refused.setdefault((finding["filesystem"], finding["probe"]), rid)
    return [Problem("error", data["_path"], f"/features/{name}/value",
                    f"expected what probe record {refused[fs, name]} shows (mount -t {fs} refused the volume "
                    "the operation left), found 'yes'")
            for fs, data in sorted(knowledge["features"].items())
            for name, fact in data["features"].items()
            if fact.get("value") == "yes" and (fs, name) in refused]


def _driver_rules(knowledge: dict, records: dict) -> list[Problem]:
    """A filesystem a probe record shows mounted (a finding on it) has a Linux driver: its file may
    not say the driver was never merged (issue #63: VxFS's freevxfs, HFS+)."""
    mounted = {}
    for rid, record in sorted(records.items()):
        for finding in record.get("findings", []):
            mounted.setdefault(finding.get("filesystem"), rid)
    return [Problem("error", data["_path"], "/linux/driver",
                    f"expected the driver that mounted {fs} (probe record {mounted[fs]} shows it mounted), "
                    "found 'never-merged'")
            for fs, data in sorted(knowledge["features"].items())
            if data["linux"].get("driver") == "never-merged" and fs in mounted]


# A text saying no kernel here has the filesystem, however it is spelled: a negation (no, none of
# the, neither of the, not any, not on any, not one of the), at most two words (guest, Linux, 6.12),
# kernel or kernels, at most three words (we run, probed), then "here", whatever the case and the
# white space: "no kernel here has Reiser4", "None of the kernels here has ntfs3", "no kernel  here",
# "no guest kernel probed here". "no kernel here writes" is another claim (a read-only driver mounts
# without writing) and is not matched. The page's own reason is derived from the probe records
# (feature_matrix.probe_reason); this finds the claim where a person wrote it.
NO_KERNEL_HAS = re.compile(r"\b(?:no|none\s+of\s+the|neither\s+of\s+the|not\s+(?:on\s+|in\s+)?(?:any|one)(?:\s+of\s+the)?)"
                           r"\s+(?:[\w.+-]+\s+){0,2}?kernels?\b(?:\s+[\w.+-]+){0,3}?\s+here\b(?!\W*writes\b)", re.I)


def _strings(value, where: str = ""):
    """(JSON Pointer, text) of every string in a feature file's data, its own keys (_path) left out."""
    if isinstance(value, str):
        yield where, value
    elif isinstance(value, dict):
        for key, item in value.items():
            if not str(key).startswith("_"):
                yield from _strings(item, f"{where}/{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _strings(item, f"{where}/{i}")


# a probe that answers a column besides its own: ACL entries set at all show ACLs work, an xattr
# value written at all that xattrs do (probe records answer posix_acl and xattr through these)
ANSWERED_BY_PROBE = {"posix_acl": "acl_max_entries", "xattr": "xattr_max_value"}


def _states_rows(knowledge: dict, records: dict, sources_path: str) -> list[Problem]:
    """A source that names several rows of the matrix (feature_matrix.names_in) gives its states
    row by row ({row: [columns]}): a list would state each column for every row it names, where a
    page on ext2 and ext3 may date ext2 alone (issue #63, round 33). An inventory may keep one list
    of its own column alone, which it states for every row through its items. Each row of a
    mapping is a row of data/features that the source names (by any name: what the count takes
    from it is states_for's to say). A probe's source, list or mapping, states a column for a row
    only where its record holds a finding of that row for that column's probe (ANSWERED_BY_PROBE)
    that completed, "ok": a probe that failed, or could not try, measured nothing (_statuses)."""
    out, rows = [], feature_matrix.row_names(knowledge["features"])
    if not rows:  # a data folder with no feature files (results, mount options): no row to state for
        return out
    for i, source in enumerate(knowledge["sources"]):
        states = source.get("states") or ()
        named = [fs for fs, names in rows.items() if feature_matrix.names_in(source, names)]
        if isinstance(states, dict):
            pairs = [(fs, j, column) for fs, columns in states.items() for j, column in enumerate(columns)]
            where = "/{fs}/{j}"
        else:
            own = {(source.get("inventory") or {}).get("column")}
            if len(named) > 1 and set(states) - own:
                out.append(Problem("error", sources_path, f"/{i}/states",
                                   f"expected the columns row by row ({{row: [columns]}}) on a source that names "
                                   f"{len(named)} rows ({', '.join(named)}), found one list for all of them"
                                   + (f" (an inventory lists its own column, {next(iter(own))}, alone)"
                                      if source.get("inventory") else "")))
                continue
            pairs = [(named[0], j, column) for j, column in enumerate(states)] if len(named) == 1 else []
            where = "/{j}"
        for fs in (states if isinstance(states, dict) else ()):
            if fs not in rows:
                out.append(Problem("error", sources_path, f"/{i}/states/{fs}", f"expected a row of data/features, found {fs!r}"))
            elif fs not in named:
                out.append(Problem("error", sources_path, f"/{i}/states/{fs}",
                                   f"expected a row the source names in its title, publisher, address or covers "
                                   f"({feature_matrix.named(rows[fs])}), found {fs!r}, which it does not name"))
        for fs, j, column in pairs:
            at = f"/{i}/states" + where.format(fs=fs, j=j)
            if fs not in named:
                continue  # said above
            if "probe" in source and "ok" not in _statuses(source, fs, column, records):
                out.append(Problem("error", sources_path, at,
                                   f"expected a column probe record {source['probe']} answers on {fs} (a finding of "
                                   f"its probe with status ok), found {column!r}, which it holds no such finding of"))
    return out


def _no_kernel_claims(knowledge: dict, records: dict) -> list[Problem]:
    """A filesystem a probe record shows mounted (a finding on it) is never said to be on no kernel
    here, in any text of its file (issue #63: a ZFS finding beside 'no kernel here has ZFS')."""
    mounted = {}
    for rid, record in sorted(records.items()):
        for finding in record.get("findings", []):
            mounted.setdefault(finding.get("filesystem"), (rid, probes_mod.kernel_release(record["system"]["kernel"])))
    out = []
    for fs, data in sorted(knowledge["features"].items()):
        if fs not in mounted:
            continue
        for where, text in _strings(data):
            said = NO_KERNEL_HAS.search(" ".join(text.split()))
            if said:
                rid, release = mounted[fs]
                out.append(Problem("error", data["_path"], where, f"expected what probe record {rid} shows (Linux {release} "
                                                                  f"mounted {fs}), found {said.group(0)!r}"))
    return out


# What says a source is this project's own measurement, which is a probe's, its states checked
# against its record, never a document's (#63 rounds 37 to 43: a probe source with its key dropped,
# its words disguised): its name, its repository, the probe folder, a run's or a record's id, a
# machine's label, read as a reader reads them (feature_matrix.as_read); and in letters alone,
# where a committed record's created time or machine's label counts too ("FS–Atlas", "machine
# 05e18e6041", "2026-11-25T06:48:49Z").
OWN_MEASUREMENT = re.compile(r"fs[\s._-]?atlas|this project|data/probes|\d{8}t\d{6}z[-_][a-z0-9]|\bm-[0-9a-f]{10}\b")
OWN_LETTERS = ("fsatlas", "thisproject", "dataprobes")


def own_marks(records: dict) -> tuple:
    """OWN_LETTERS and, in letters, each committed probe record's created time and machine's label
    (eight letters or more), in the order _own_measurement looks for them."""
    marks = {feature_matrix._letters(r.get("created", "")) for r in records.values()} | \
        {feature_matrix._letters((r.get("system") or {}).get("machine", "")).removeprefix("m") for r in records.values()}
    return (*OWN_LETTERS, *sorted(m for m in marks if len(m) >= 8))


def _own_measurement(source: dict, marks: tuple) -> str:
    """What in a source's words says it is this project's own measurement ("" where nothing does):
    OWN_MEASUREMENT as read (its address as a browser reads it), or one of own_marks() in its letters."""
    read = feature_matrix.as_read(" ".join(str(source.get(f, "")) for f in ("title", "publisher", "covers")))
    said = OWN_MEASUREMENT.search(f"{read} {feature_matrix.as_url(source.get('url', ''))}")
    if said:
        return said.group(0)
    letters = feature_matrix._letters(" ".join(str(source.get(f, "")) for f in ("title", "publisher", "url", "covers")))
    return next((m for m in marks if m in letters), "")


def _cross_check(knowledge: dict, sources_path: str) -> list[Problem]:
    problems = []
    ids = [s["id"] for s in knowledge["sources"]]
    for i, ident in enumerate(ids):
        if ids.index(ident) != i:
            problems.append(Problem("error", sources_path, f"/{i}/id", f"duplicate source id {ident!r}"))
    known = set(ids)
    probes_dir = os.path.join(os.path.dirname(sources_path), "probes")
    records = probe_records(os.path.dirname(sources_path))  # read once, for every rule below
    marks = own_marks(records)
    for i, source in enumerate(knowledge["sources"]):
        if "probe" in source and not os.path.isfile(os.path.join(probes_dir, source["probe"] + ".json")):
            problems.append(Problem("error", sources_path, f"/{i}/probe",
                                    f"expected a probe result data/probes/{source['probe']}.json, found none"))
        own = "probe" not in source and _own_measurement(source, marks)
        if own:
            problems.append(Problem("error", sources_path, f"/{i}/probe",
                                    f"expected the probe record (probe: ID) of a source that is this project's own "
                                    f"measurement (it says {own!r}), so that what it states is checked against "
                                    f"the record, found none"))

    def cite(path, where, cited):
        for j, source in enumerate(cited):
            if source not in known:
                problems.append(Problem("error", path, f"{where}/sources/{j}",
                                        f"expected a source id from data/sources.yaml, found {source!r}"))

    by_id = {s["id"]: s for s in knowledge["sources"]}
    feature_keys = set(_schema()["$defs"]["feature_file"]["properties"]["features"]["properties"]) | feature_matrix.ORIGIN_KEYS
    for i, source in enumerate(knowledge["sources"]):
        states = source.get("states") or ()
        for where, listed in (states.items() if isinstance(states, dict) else [("", states)]):
            for j, key in enumerate(listed):
                if key not in feature_keys:
                    problems.append(Problem("error", sources_path, f"/{i}/states{where and '/' + where}/{j}",
                                            f"expected a feature key (a column of the feature matrix), found {key!r}"))
        inventory = source.get("inventory")
        if inventory and inventory["column"] not in feature_matrix.stated_columns(source):
            problems.append(Problem("error", sources_path, f"/{i}/inventory/column",
                                    f"expected a column the source states (its states), found {inventory['column']!r}"))
        for row, names in (source.get("names") or {}).items():  # names it gives a row, so in its own words
            if knowledge["features"] and row not in knowledge["features"]:  # (a copy without them: not read)
                problems.append(Problem("error", sources_path, f"/{i}/names/{row}",
                                        f"expected a row of the feature matrix (a file of data/features), found {row!r}"))
            for j, name in enumerate(names):
                if not feature_matrix.names_in(source, (name,)):
                    problems.append(Problem("error", sources_path, f"/{i}/names/{row}/{j}",
                                            f"expected a name the source's title, publisher, address or covers give, "
                                            f"found {name!r}, which they do not"))
        hidden = feature_matrix.hidden_address_why(source.get("url", ""))
        if hidden:
            problems.append(Problem("error", sources_path, f"/{i}/url", "expected the address of the page itself or an "
                                                                       "archive copy's long form, which keeps the address "
                                                                       f"it copied, found {source['url']!r}: {hidden}"))
        shown = feature_matrix.secondary_why(source)
        if shown and source.get("secondary") is not True:
            problems.append(Problem("error", sources_path, f"/{i}/secondary", "expected secondary: true (a wiki, which anyone "
                                                                              f"may edit, an encyclopedia or a copy of one is "
                                                                              f"a secondary source: {shown}), found "
                                                                              f"{source.get('secondary', 'none')!r}"))
    for fs, data in knowledge["features"].items():
        cite(data["_path"], "/linux", data["linux"]["sources"])
        cite(data["_path"], "/origin", data["origin"]["sources"])
        if ("year" in data["origin"]) == ("year_missing" in data["origin"]):
            problems.append(Problem("error", data["_path"], "/origin", "expected either year (a cited source dates the "
                                    "first release) or year_missing (why none does), found "
                                    + ("both" if "year" in data["origin"] else "neither")))
        problems += _origin_rules(fs, data, by_id)
        for part in feature_matrix.own_name_parts(fs, data.get("name", "")):
            why = feature_matrix.own_name_why(fs, knowledge["features"], part, by_id)
            if why:
                problems.append(Problem("error", data["_path"], "/name", f"expected the filesystem's own name, "
                                                                         f"found a part {part!r}: {why}"))
        for i, name in enumerate(data.get("also_named", ())):
            why = feature_matrix.own_name_why(fs, knowledge["features"], name, by_id)
            if why:
                problems.append(Problem("error", data["_path"], f"/also_named/{i}",
                                        f"expected another name its own documents give it, found {name!r}: {why}"))
        for name, fact in data["features"].items():
            cite(data["_path"], f"/features/{name}", fact["sources"])
        problems += _fact_rules(fs, knowledge["features"], by_id, records)
    problems += _states_rows(knowledge, records, sources_path)
    problems += _tool_versions(knowledge, by_id, records, sources_path)
    problems += _probe_answers(knowledge, records)
    problems += _driver_rules(knowledge, records)
    problems += _no_kernel_claims(knowledge, records)
    problems += _refused_after(knowledge, records)
    defined = standard_cell_keys()
    for option in knowledge["mount_options"].values():
        cite(option["_path"], "", option["sources"])
        for i, claim in enumerate(option["claims"]):
            cite(option["_path"], f"/claims/{i}", claim["sources"])
            expected = float(claim["expected_change_pct"])
            if expected and abs(expected) <= NO_EFFECT_PCT:  # "no effect" is 0; a change must lie beyond the margin
                problems.append(Problem("error", option["_path"], f"/claims/{i}/expected_change_pct",
                                        f"expected 0 (no effect) or a change beyond the equivalence margin of "
                                        f"+-{NO_EFFECT_PCT:g} % (results/comparison.py), found {expected:g}: "
                                        f"equivalence within the margin could not tell it from no effect"))
            listed = {}
            for j, comparison in enumerate(claim["measured_by"]):
                # one pair of cells, one row of the claim's Holm family: a second metric of the same
                # repetitions (iops scales throughput) is the same test again, and enlarged the
                # family that judged every other row (#60 round 56)
                pair = frozenset((comparison["cell"], comparison["baseline"]))  # either way round (round 57)
                if pair in listed:
                    problems.append(Problem("error", option["_path"], f"/claims/{i}/measured_by/{j}",
                                            f"expected each pair of cells once in a claim, found {comparison['cell']!r} "
                                            f"against {comparison['baseline']!r} again (first at /claims/{i}/"
                                            f"measured_by/{listed[pair]}): its repetitions are one test, one row of "
                                            f"the family"))
                listed.setdefault(pair, j)
                for end in ("cell", "baseline"):
                    if comparison[end] not in defined:
                        problems.append(Problem("error", option["_path"], f"/claims/{i}/measured_by/{j}/{end}",
                                                f"expected a cell key of the standard or full profile, "
                                                f"found {comparison[end]!r}"))
    corrections_path = os.path.join(os.path.dirname(sources_path), "corrections.yaml")
    for i, correction in enumerate(knowledge.get("corrections", [])):
        cite(corrections_path, f"/{i}", correction["sources"])
    problems += _correction_rules(knowledge, corrections_path)
    history_path = os.path.join(os.path.dirname(sources_path), "kernel_history.yaml")
    for i, entry in enumerate(knowledge.get("kernel_history", [])):
        cite(history_path, f"/{i}", entry["sources"])
    problems += kernel_history_rules(knowledge, by_id, history_path, records)
    for data in knowledge["history"].values():
        cite(data["_path"], "", data["sources"])
        names = {c["name"] for c in data["columns"]}
        for i, row in enumerate(data["rows"]):
            for key, value in row.items():
                if key != "filesystem" and key not in names:
                    problems.append(Problem("error", data["_path"], f"/rows/{i}/{key}",
                                            f"expected one of the declared columns {sorted(names)}, found {key!r}"))
                # a cell's words stand for a figure the seed gave in words; a text that spells a
                # number is one, and held to what a number may be (YAML reads 1e999 as text)
                number, spelled = (isinstance(value, str) and _reads_as_number(value)) or (None, "")
                if type(number) is float and not math.isfinite(number):
                    problems.append(Problem("error", data["_path"], f"/rows/{i}/{key}",
                                            f"expected a finite number, found the text {value[:40]!r}"))
                elif type(number) is int and abs(number) > resultfile.MAX_INT:
                    problems.append(Problem("error", data["_path"], f"/rows/{i}/{key}",
                                            f"expected an integer within ±2^53 (what a browser holds exactly), "
                                            f"found the text {value[:40]!r}"))
                elif type(number) is float and not safe_yaml.reads_as_written(spelled, number):
                    problems.append(Problem("error", data["_path"], f"/rows/{i}/{key}",
                                            f"expected a number a browser holds as written, found the text "
                                            f"{value[:40]!r}, which reads as {number!r}"))
    return problems


# the field of a feature file each checked origin column reads
ORIGIN_FIELDS = {"original_os": "/origin/os", "first_released": "/origin/year", "maker": "/origin/maker",
                 "linux_year": "/linux/year", "linux_merged": "/linux/merged"}


def _origin_rules(fs: str, data: dict, by_id: dict) -> list[Problem]:
    """A filesystem's origin names its maker (maker) or says why no cited primary source does
    (maker_missing), never both or neither, and its Linux part gives the year or why none is
    given (year_missing); and every origin fact given rests on what it cites (feature_matrix.
    origin_source_why): the system, year and maker on a primary source that states them (its
    states), the year in Linux and the merging release on a primary source, never on secondary
    ones (books, news, encyclopedias, wikis) alone."""
    origin, linux, path = data["origin"], data["linux"], data["_path"]
    out = []
    if ("maker" in origin) == ("maker_missing" in origin):
        out.append(Problem("error", path, "/origin", "expected either maker (a cited primary source names who made it) or "
                                                     "maker_missing (why none does), found "
                                                     + ("both" if "maker" in origin else "neither")))
    if ("os" in origin) == ("os_missing" in origin):
        out.append(Problem("error", path, "/origin", "expected either os (a cited primary source names the system it was "
                                                     "first written for) or os_missing (why none does), found "
                                                     + ("both" if "os" in origin else "neither")))
    if ("year" in linux) == ("year_missing" in linux):
        out.append(Problem("error", path, "/linux", "expected either year (a cited primary source dates its arrival in "
                                                    "Linux) or year_missing (why none does), found "
                                                    + ("both" if "year" in linux else "neither")))
    for key, field in ORIGIN_FIELDS.items():
        why = (feature_matrix.origin_source_why(key, fs, data, by_id)
               if feature_matrix.origin_value(key, data) is not None else "")
        if why:
            out.append(Problem("error", path, field, f"expected a primary source {'that states it ' if key in feature_matrix.STATED else ''}"
                                                     f"among {origin['sources'] if field.startswith('/origin') else linux['sources']}, "
                                                     f"found {why}"))
    return out


COMMIT_ID = re.compile(r"(?<![0-9a-f])[0-9a-f]{12,40}(?![0-9a-f])")


def commit_named_with(text: str, commit: str, subject: str) -> bool:
    """Whether text names subject with this commit beside it: at some place the subject is named,
    the commit id named nearest to it is this one (so a row that swaps two commits of one pull
    request, each named there with its own subject, is told apart)."""
    low, commit = text.lower(), commit.lower()
    ids = [(m.start(), m.end(), m.group()) for m in COMMIT_ID.finditer(low)]
    for m in re.finditer(re.escape(subject.lower()), low):
        if ids:
            near = min(ids, key=lambda found: max(found[0] - m.end(), m.start() - found[1]))[2]
            if commit.startswith(near[:12]) or near.startswith(commit[:12]):
                return True
    return False


def kernel_history_rules(knowledge: dict, by_id: dict, path: str, records: dict) -> list[Problem]:
    """Each "since" row of data/kernel_history.yaml names a filesystem of the data and, where it
    has one, a column of the matrix whose fact (if the file has one) says the row's value, or,
    where the column is left to the probes, whose every probe finding on that release or later
    (records: id -> probe record) says it; a column the documents it cites state (states: the
    feature that release changed, not another of the filesystem's), and a release no later than any
    kernel on which a probe already found the value; and a document it cites names its commit (the
    first 12 hex digits) beside its subject, and its release, so no commit id, subject or release
    stands on nothing."""
    found = feature_matrix.evidence(records)
    out, keys = [], set(_schema()["$defs"]["feature_file"]["properties"]["features"]["properties"])
    for i, entry in enumerate(knowledge.get("kernel_history", [])):
        data = knowledge["features"].get(entry["filesystem"])
        if data is None:
            out.append(Problem("error", path, f"/{i}/filesystem", f"expected a filesystem of data/features, "
                                                                  f"found {entry['filesystem']!r}"))
            continue
        column = entry.get("column")
        if column is not None and column not in keys:
            out.append(Problem("error", path, f"/{i}/column", f"expected a column of the feature matrix, found {column!r}"))
        if column is not None and column in keys and not any(
                column in feature_matrix.stated_columns(by_id.get(s, {}), entry["filesystem"]) for s in entry["sources"]):
            # the column must be the row's own feature: the document dating the commit states it (RAID1C3's
            # row shown beside Snapshots, which no release of that pull changed, is refused)
            out.append(Problem("error", path, f"/{i}/column", f"expected a column the cited documents state "
                                                              f"(their states in data/sources.yaml), the feature whose "
                                                              f"value this release changed, found {column!r}"))
        if column is not None:  # never a release later than a kernel on which a probe already found the value
            since = probes_mod.release_key(entry["release"])
            before = sorted((release for release, f in found.get(entry["filesystem"], {}).get("findings", {}).get(column, {}).items()
                             if f["status"] == "ok" and probes_mod.release_key(release) < since
                             and feature_matrix.normalized(f.get("value")) == feature_matrix.normalized(entry["value"])),
                            key=probes_mod.release_key)
            if before:
                out.append(Problem("error", path, f"/{i}/release", f"expected a release no later than Linux {before[0]}, on "
                                                                   f"which a probe already found {entry['value']!r}, found "
                                                                   f"{entry['release']}"))
        fact = data["features"].get(column) if column else None
        if fact is not None and str(fact.get("value", fact.get("limit"))) != entry["value"]:
            out.append(Problem("error", path, f"/{i}/value", f"expected the value the cell's fact says "
                                                             f"({fact.get('value', fact.get('limit'))!r}), found {entry['value']!r}"))
        if fact is None and column in feature_matrix.probe_names():
            since = probes_mod.release_key(entry["release"])
            said = [(release, f) for release, f in found.get(entry["filesystem"], {}).get("findings", {}).get(column, {}).items()
                    if f["status"] == "ok" and probes_mod.release_key(release) >= since]
            if not said:
                out.append(Problem("error", path, f"/{i}/value", f"expected a probe finding on {entry['filesystem']} "
                                                                 f"{column} from Linux {entry['release']} on, found none"))
            for release, finding in sorted(said):
                if feature_matrix.normalized(finding.get("value")) != feature_matrix.normalized(entry["value"]):
                    out.append(Problem("error", path, f"/{i}/value", f"expected what the probe found on Linux {release} "
                                                                     f"({finding.get('value')!r}), found {entry['value']!r}"))
        texts = [" ".join(str(by_id[s].get(k, "")) for k in ("title", "covers")) for s in entry["sources"] if s in by_id]
        if not any(commit_named_with(text, entry["commit"], entry["subject"]) for text in texts):
            out.append(Problem("error", path, f"/{i}/subject", f"expected a cited source naming the subject "
                                                               f"{entry['subject']!r} with commit {entry['commit'][:12]} "
                                                               f"beside it, found none among {entry['sources']}"))
        if not any(entry["commit"][:12] in t for t in texts):
            out.append(Problem("error", path, f"/{i}/commit", f"expected a cited source naming commit {entry['commit'][:12]}, "
                                                              f"found none among {entry['sources']}"))
        if not any(re.search(r"(?<![\d.])" + re.escape(entry["release"]) + r"(?![\d])", t) for t in texts):
            out.append(Problem("error", path, f"/{i}/release", f"expected a cited source naming release {entry['release']}, "
                                                               f"found none among {entry['sources']}"))
    return out


ONE_FACT = re.compile(r"data/features/([a-z0-9_+.-]+)\.yaml /features/([a-z0-9_]+)")


def _correction_rules(knowledge: dict, path: str) -> list[Problem]:
    """The newest correction of one fact (where: "data/features/<fs>.yaml /features/<name>") must
    say what the data says now: its new value begins with the fact's value or limit, and it
    cites one of the fact's sources. Corrections of several facts or of text name no single
    value to compare and are not checked."""
    newest = {}
    for i, correction in enumerate(knowledge.get("corrections", [])):
        one = ONE_FACT.fullmatch(correction["where"].strip())
        if one:
            newest[one.groups()] = (i, correction)
    out = []
    for (fs, name), (i, correction) in sorted(newest.items()):
        fact = knowledge["features"].get(fs, {}).get("features", {}).get(name)
        if fact is None:
            out.append(Problem("error", path, f"/{i}/where", f"expected a fact of the data, found none at {correction['where']}"))
            continue
        said = str(fact.get("value", fact.get("limit")))
        if not str(correction["new"]).lower().startswith(said.lower()):
            out.append(Problem("error", path, f"/{i}/new", f"expected the value the data holds now ({said!r}) at the "
                                                           f"start, found {correction['new']!r}"))
        if not set(correction["sources"]) & set(fact["sources"]):
            out.append(Problem("error", path, f"/{i}/sources", f"expected one of the fact's sources "
                                                               f"{fact['sources']}, found {correction['sources']}"))
    return out


def _statuses(source: dict, fs: str, column: str, records: dict) -> set:
    """The statuses of the findings a probe's source's record holds of fs for column's probe
    (ANSWERED_BY_PROBE): "ok" states the column (_states_rows); any finding, one that failed or
    could not try too, is evidence a fact may cite beside what states it (_fact_rules)."""
    wanted = {column, ANSWERED_BY_PROBE.get(column)}
    return {f.get("status") for f in records.get(source.get("probe"), {}).get("findings", ())
            if f.get("filesystem") == fs and f.get("probe") in wanted}


def _probe_values(source: dict, fs: str, column: str, records: dict) -> set:
    """The yes or no each "ok" finding of a probe source's record gives of fs for column's probe
    (ANSWERED_BY_PROBE), as the page compares them (probes.agreement)."""
    wanted = {column, ANSWERED_BY_PROBE.get(column)}
    return {f.get("value") for f in records.get(source.get("probe"), {}).get("findings", ())
            if f.get("filesystem") == fs and f.get("probe") in wanted and f.get("status") == "ok"
            and f.get("value") in ("yes", "no")}


def _probe_limits(source: dict, fs: str, column: str, records: dict) -> list[dict]:
    """The "ok" findings of fs for column's probe in a probe source's record that found a limit."""
    return [f for f in records.get(source.get("probe"), {}).get("findings", ())
            if f.get("filesystem") == fs and f.get("probe") == column and f.get("status") == "ok" and "limit" in f]


def _limit_problems(fs: str, name: str, fact: dict, path: str, by_id: dict, records: dict) -> list[Problem]:
    """A limit against the limits the probes it cites found (round 41's yes/no rule, for numbers):
    it writes one of them in the probe's unit (limits.limit_agrees). "not documented" and "not
    applicable" beside a probe that found one are _probe_answers' to refuse, cited or not."""
    out, said = [], fact["limit"]
    if feature_matrix.normalized(said) in (feature_matrix.NOT_DOCUMENTED, feature_matrix.NOT_APPLICABLE):
        return out  # _probe_answers': beside any committed probe that found the limit
    for j, ident in enumerate(fact["sources"]):
        found = _probe_limits(by_id.get(ident, {}), fs, name, records)
        if not found:
            continue
        whys = [limits.limit_agrees(name, said, f) for f in found]
        why = "" if "" in whys else "; ".join(dict.fromkeys(whys))
        if why:
            out.append(Problem("error", path, f"/features/{name}/limit",
                               f"expected the limit the probe {ident!r} (sources/{j}) found, "
                               f"{' or '.join(dict.fromkeys(probes_mod.shown(f) for f in found))}, found {said!r}: {why}"))
    return out


def _fact_rules(fs: str, features: dict, by_id: dict, records: dict | None = None) -> list[Problem]:
    """The rules every fact of a feature file keeps: it names the version
    it holds for, and every source it cites states that feature (the registry entry's `states`),
    so a "no" rests on a document or a probe that says no; where none does, the value (or limit) is
    "not documented" (its sources are then the documents read, which do not say), never another
    spelling ("unknown", "n/a", "Not documented"): feature_matrix.unanswered_why decides, for the
    count and the pages alike, what answers a cell. A "no" citing an inventory of its column whose
    items name the filesystem is refused (feature_matrix.inventory_listed)."""
    data = features[fs]
    out, path = [], data["_path"]
    for name, fact in data["features"].items():
        where = f"/features/{name}"
        if "holds_for" not in fact:
            out.append(Problem("error", path, f"{where}/holds_for",
                               "expected the version this fact holds for (holds_for), found none"))
        said = fact.get("value", fact.get("limit"))
        field = f"{where}/{'value' if 'value' in fact else 'limit'}"
        if "limit" in fact:
            out += _limit_problems(fs, name, fact, path, by_id, records or {})
        if said == "not documented":
            if not fact.get("note"):
                out.append(Problem("error", path, f"{where}/note", "expected the reason no experiment or primary "
                                                                   "source answers (note), found none beside 'not documented'"))
            continue
        why = feature_matrix.unanswered_why(name, fact, data["features"])  # the rule the count and the pages use
        if why:
            out.append(Problem("error", path, field, "expected a value of the column's type (yes, no, partial with a "
                                                     "note, a limit as a number with its unit, 'not applicable' with "
                                                     "why) or 'not documented' with the reason none answers, found "
                                                     f"{said!r}: {why}"))
            continue
        # a fact of any kind on secondary sources alone counts as unanswered (feature_matrix.unanswered_why
        # with the registry, for the count and the pages); a limit on them alone is refused besides
        if "limit" in fact and all(feature_matrix.secondary(by_id.get(ident, {})) for ident in fact["sources"]):
            out.append(Problem("error", path, f"{where}/sources", "expected a primary source or a probe for a limit, "
                                                                  f"found only secondary ones {fact['sources']}"))
        elif "limit" in fact and by_id and feature_matrix.normalized(said) != feature_matrix.NOT_APPLICABLE:
            names = feature_matrix.names_for(fs, features, name)
            if not any(feature_matrix.states_for(by_id.get(ident, {}), name, fs, names) for ident in fact["sources"]):
                out.append(Problem("error", path, f"{where}/sources", f"expected a primary source that states {name} for "
                                                                      f"{fs} (its states list {name}, and its title, "
                                                                      f"publisher, address or covers name "
                                                                      f"{feature_matrix.named(names)}), "
                                                                      f"found none among {fact['sources']}"))
        if feature_matrix.normalized(said) == "no":
            names = feature_matrix.filesystem_names(os.path.splitext(os.path.basename(path))[0], data)
            for j, ident in enumerate(fact["sources"]):
                listed = feature_matrix.inventory_listed(by_id.get(ident, {}), name, names)
                if listed:
                    out.append(Problem("error", path, f"{where}/value",
                                       f"expected a value other than 'no': {ident!r} (sources/{j}), an inventory of "
                                       f"{name} ({by_id[ident]['inventory']['part']}), lists {', '.join(map(repr, listed))}, "
                                       f"which names {names[0]}"))
        for j, ident in enumerate(fact["sources"]):
            # a yes or no against what the probe it cites found, yes or no (round 41: reflink "yes"
            # citing only a probe whose finding says no), is refused: the record is read by machine
            found = _probe_values(by_id.get(ident, {}), fs, name, records or {}) if said in ("yes", "no") else set()
            if found and said not in found:
                out.append(Problem("error", path, f"{where}/value",
                                   f"expected what the probe {ident!r} (sources/{j}) found, "
                                   f"{' or '.join(map(repr, sorted(found)))}, found {said!r}"))
        for j, ident in enumerate(fact["sources"]):
            # for any row: a list read that is silent on this one may stand beside the one that states
            # it (the count, feature_matrix.states_for, asks that one source state it for this row),
            # and so may a probe of this row that failed or could not try (_statuses)
            if ident in by_id and name not in feature_matrix.stated_columns(by_id[ident]) and not _statuses(
                    by_id[ident], fs, name, records or {}):
                out.append(Problem("error", path, f"{where}/sources/{j}",
                                   f"expected a source that states {name}{' (a no needs one)' if fact.get('value') == 'no' else ''}, "
                                   f"found {ident!r}, whose entry in data/sources.yaml does not list {name} under states"
                                   + ("; where no source or probe says no, write 'not documented'" if fact.get("value") == "no" else "")))
    return out


@lru_cache(maxsize=1)
def standard_cell_keys() -> frozenset:
    m = matrix_mod.load()
    return frozenset(c.key for name in ("standard", "full") if name in m.profiles for c in m.profile(name).cells)


# --- claims against measurements -------------------------------------------------------------

MECHANISM_COUNTER = {"durability": "flushes", "commit-interval": "flushes", "atime": "writes"}
COUNTER_WORDS = {"flushes": "cache flushes", "writes": "write requests"}


def cannot_show(claim: dict, workload: str, cell: dict, base: dict, twins: dict | None = None) -> str:
    """Why this pair of cells cannot exercise the claim's mechanism, or "". Judged from the loop
    device's counters over each repetition's timed part (timed_io: no layout before it, no cache
    drop between): the option can show only where it moved the mechanism's counter (cache
    flushes for barriers and commit intervals; for access times, the write requests the atime
    updates cause, on a workload that read the filesystem under test during its timed part) by
    more than cells with identical settings differ: the wider of the two cells' own
    repetitions' range and TWINS, {counter: the largest difference of the per-repetition means
    of two cells of the result with identical settings (ClaimEvidence: same filesystem,
    workload, mkfs and effective mount options)}. A file without timed counters is judged by
    the matrix's word for the workload, and says so (counters over the whole repetition
    include the layout and the drop's sync, which no option decides about)."""
    mechanism = claim.get("mechanism")
    if mechanism == "raid-alignment":
        if "not-striped" in set(cell.get("flags", [])) | set(base.get("flags", [])):
            return ("A RAID alignment claim can show only on a striped device, and these cells ran on a plain loop "
                    "image (flagged not-striped): the comparison does not count toward the verdict.")
        return ""
    if mechanism not in MECHANISM_COUNTER:  # none: no counter shows it (basis() says so)
        return ""
    io_base, io_cell = base.get("timed_io"), cell.get("timed_io")
    if io_base and io_cell:
        if mechanism == "atime" and not _total(io_base, "reads"):
            return (f"The loop device served no read during the timed part of the baseline's {len(io_base)} "
                    "repetitions: the workload read no file on the filesystem under test, so no access time is "
                    "updated either way; the comparison does not count toward the verdict.")
        field = MECHANISM_COUNTER[mechanism]
        a, b = [rep[field] for rep in io_base], [rep[field] for rep in io_cell]
        spread = max(max(a) - min(a), max(b) - min(b), (twins or {}).get(field, 0))
        moved = abs(sum(b) / len(b) - sum(a) / len(a))
        if moved <= spread:
            words = COUNTER_WORDS[field]
            why = {"durability": "the workload sent no cache flush for the option to leave out" if not any(a)
                   else "the option did not change how often the device was asked to flush",
                   "commit-interval": "the workload forces its commits itself, or commits as often either way",
                   "atime": "the option did not change the writes that access-time updates cause"}[mechanism]
            return (f"The loop device received {sum(b) / len(b):,.1f} {words} a repetition during the timed part "
                    f"with the option and {sum(a) / len(a):,.1f} without it: a difference no larger than cells with "
                    f"identical settings show ({spread:,.1f}); {why}, so the comparison does not count toward the "
                    "verdict.")
        return ""
    flushes = workload_flushes().get(workload, "none")
    why = " (judged from the workload's definition in the matrix: these result files recorded no device counters of the timed part)"
    if mechanism == "durability" and flushes == "none":
        return ("This workload issues no cache flush and waits for no commit, so this option's mechanism "
                "cannot act on it: the comparison does not count toward the verdict" + why + ".")
    if mechanism == "commit-interval" and flushes == "per-operation":
        return ("This workload forces a journal commit with every operation it makes durable, so a longer commit "
                "interval cannot act on it: the comparison does not count toward the verdict" + why + ".")
    if mechanism == "atime" and not workload_reads().get(workload, False):
        return ("This workload reads no file on the filesystem under test, so no access time is updated either "
                "way: the comparison does not count toward the verdict" + why + ".")
    return ""


def basis(claim: dict, cell: dict, base: dict) -> tuple[str, str]:
    """What a comparison that can show its claim was judged from: ("counters", "") where the
    timed counters decided (cannot_show); else ("matrix" or "figures", the sentence that says it
    was not judged from counters): a file without timed counters, judged by the matrix's word
    for the workload, or a claim whose mechanism no counter records (mechanism none, or a RAID
    alignment on a striped device), judged on the figures alone."""
    mechanism = claim.get("mechanism")
    if mechanism in MECHANISM_COUNTER:
        if base.get("timed_io") and cell.get("timed_io"):
            return "counters", ""
        return "matrix", ("Not judged from device counters: these result files recorded none of the timed part, so "
                          "that the option's mechanism can act here is taken from the workload's definition in the "
                          "matrix.")
    why = claim.get("unmeasured") or ("no device counter shows whether allocation followed the stripe"
                                      if mechanism == "raid-alignment" else "the claim names no mechanism")
    return "figures", f"Not judged from device counters: {why}; the verdict rests on the figures alone."


def twin_spreads(cells: list) -> dict:
    """{(filesystem, workload, dimensions): {counter: the largest difference between the
    per-repetition means of a timed counter of two ok cells with identical settings}} for the
    cells of one result (a variant that spells out a default, relatime or data=ordered, runs the
    same filesystem as the defaults: its mount options as the kernel reports them agree)."""
    groups = {}
    for c in cells:
        if c["status"] == "ok" and c.get("timed_io") and c.get("effective_mount_options"):
            groups.setdefault((c["filesystem"], c["workload"], c.get("dimensions", ""), c.get("mkfs", ""),
                               c["effective_mount_options"]),
                              []).append(c)
    out = {}
    for (fs, workload, dims, _, _), twins in groups.items():
        if len(twins) < 2:
            continue
        spread = out.setdefault((fs, workload, dims), {})
        for field in set(MECHANISM_COUNTER.values()):
            means = [sum(r[field] for r in c["timed_io"]) / len(c["timed_io"]) for c in twins]
            spread[field] = max(spread.get(field, 0), max(means) - min(means))
    return out


def _total(io: list, field: str) -> int:
    return sum(rep.get(field, 0) for rep in io)


@lru_cache(maxsize=1)
def workload_reads() -> dict:
    """workload -> whether it reads files on the filesystem under test (the matrix's reads_fs)."""
    return {name: bool(spec.get("reads_fs")) for name, spec in matrix_mod.load().workloads.items()}


@lru_cache(maxsize=1)
def workload_flushes() -> dict:
    """workload -> whether it waits for durability, from the matrix (run/matrix/standard.yaml)."""
    return {name: spec.get("flushes", "none") for name, spec in matrix_mod.load().workloads.items()}


@lru_cache(maxsize=1)
def _workload_specs() -> tuple:
    m = matrix_mod.load()
    return m.workloads, m.filesystems


def io_path(cell: dict, kernel: str) -> tuple[str, str]:
    """How a cell's figures reached the disk: ("O_DIRECT" or "buffered", why). The fio workloads
    ask for O_DIRECT, but a filesystem may serve such a request through the page cache: ext4's
    driver (which also mounts ext2 and ext3) under data=journal (fs/ext4/file.c,
    ext4_should_use_dio: it "falls back to buffered I/O" where its features rule direct I/O out),
    Btrfs writes to compressed files (btrfs(5), Compression: direct I/O "will fall back to
    buffered writes") and to checksummed files since Linux 6.14 (commit 968f19c5b1b7); a FUSE
    filesystem runs without it (the matrix's direct_io: false). The other workloads write
    through the page cache and flush."""
    workloads, filesystems = _workload_specs()
    spec = workloads.get(cell["workload"], {})
    if spec.get("kind") != "fio" or not spec.get("fio", {}).get("direct"):
        return "buffered", "the workload writes through the page cache"
    fs, mount = cell["filesystem"], cell.get("mount", "")
    if not filesystems.get(fs, {}).get("direct_io", True):
        return "buffered", f"{fs} runs through FUSE without O_DIRECT"
    if fs in ("ext2", "ext3", "ext4") and "data=journal" in mount.split(","):
        return "buffered", "ext4's driver serves O_DIRECT through the page cache under data=journal"
    rw = spec["fio"].get("rw", "")
    writes = "write" in rw or rw.endswith("rw")
    options = mount.split(",")
    if fs == "btrfs" and writes and any(o.split("=")[0] in ("compress", "compress-force") for o in options):
        return "buffered", "Btrfs serves O_DIRECT writes to compressed files through the page cache"
    if fs == "btrfs" and writes and probes_mod.release_key(kernel) >= (6, 14) and not {"nodatasum", "nodatacow"} & set(options):
        return "buffered", "Btrfs since Linux 6.14 serves O_DIRECT writes to checksummed files through the page cache"
    return "O_DIRECT", "fio with direct=1"


NO_EFFECT_PCT = comparison.EQUIVALENCE_MARGIN_PCT  # equivalence within it shows "no effect"; a claimed change
# must be 0 (no effect) or beyond it (check-data refuses one in between)
AGREE = (0.5, 2.0)  # a significant change in the claimed direction agrees within these factors of its size


# Base unit -> (factor, display unit, format): MB = 10^6 bytes, never mixed with MiB.
DISPLAY_UNITS = {"bytes/s": (1e-6, "MB/s"), "bytes": (1e-6, "MB"), "ops/s": (1, "ops/s"),
                 "ns": (1e-3, "µs"), "percent": (1, "%"), "s": (1, "s")}
SIGNIFICANT = 3  # what the noise of a few repetitions supports; the full value is in the downloads


def significant(value: float, digits: int = SIGNIFICANT) -> str:
    """A number rounded to `digits` significant digits, with thousands separators: 2269.8 is
    "2,270", 12.345 is "12.3", 0.000123 is "0.000123", 5 is "5". The site's one way to print a
    figure (significant() in static/js/format.js is its twin for what the reader chooses).
    The rounding is %g's (correct, trailing zeros dropped), its exponent form written out:
    a quick result's pages print 1,800 figures, and this takes 0.51 µs a figure where
    rounding with round() and two logarithms took 1.14. printf-style %, not format(): the
    same text (checked on a million values of every magnitude), in half the time (115 ns
    against 259: no __format__ to look up)."""
    if not math.isfinite(value) or value == 0:
        return f"{value:g}"
    text = "%.*g" % (digits, value)
    if "e" not in text:  # 1e-4 <= |value| < 10^digits: %g wrote it out, without separators
        if digits <= 3:  # then no more than three digits before the point (0.16 µs, not 0.21)
            return text
        whole, point, fraction = text.partition(".")
        return text if len(whole.lstrip("-")) <= 3 else f"{int(whole):,}{point}{fraction}"
    if "e+" in text:  # at least 10^digits once rounded: a whole number
        return f"{float(text):,.0f}"
    return f"{float(text):.{digits - 1 - int(text.partition('e')[2])}f}".rstrip("0").rstrip(".")


def percent_shown(value: float) -> str:
    """A percent (a change, a gap) as the site prints it, signed: three significant digits
    (significant()), more where three would read 0 or -100 while it is not so: a change of
    -0.04 % is no "-0.0 %" tie, 0.3 % of the best no "-100 %" (nothing measured)."""
    for digits in range(SIGNIFICANT, 18):
        text = significant(value, digits)
        if float(text.replace(",", "")) not in (0.0, -100.0) or value in (0.0, -100.0):
            break
    return ("+" if value > 0 else "") + text


def display_number(value: float, unit: str) -> str:
    """A value in the units the site shows, without the unit (a table's caption names it)."""
    return significant(value * DISPLAY_UNITS.get(unit, (1, unit))[0])


NO_INTERVAL = "no interval: n = 1"  # what every page prints for the interval of one sample (issue 62)
NO_RSD = "–"  # and for its RSD: one sample has no spread


def interval(m: dict) -> str:
    """A metric's 95 % interval of the mean as tables print it ("2,140–2,520 MB/s"), from its
    aggregate entry (ci_low, ci_high, unit); one sample's (ci_low None) in words."""
    return shown_interval(m["ci_low"], m["ci_high"], m["unit"], display_number, between="–")


def detail(m: dict) -> str:
    """A figure's n and 95 % interval as sentences print them beside it ("n = 3, 95 % interval
    2,140–2,520 MB/s"); for one sample, NO_INTERVAL, which names its n."""
    return NO_INTERVAL if m["ci_low"] is None else f"n = {m['n']}, 95 % interval {interval(m)}"


def shown_interval(low: float | None, high: float | None, unit: str, first=None, last=None, between: str = " – ") -> str:
    """An interval low–high in unit as pages print it (first, last: how its ends are printed,
    display by default: "1.2 GB/s – 1.4 GB/s"); NO_INTERVAL where there is none (None: n = 1)."""
    if low is None:
        return NO_INTERVAL
    return f"{(first or display)(low, unit)}{between}{(last or display)(high, unit)}"


def shown_rsd(rsd: float | None) -> str:
    """An RSD as pages print it ("3.2 %"); NO_RSD where there is none (None: n = 1)."""
    return NO_RSD if rsd is None else f"{rsd:,.1f} %"


_SPEC = f"%.{SIGNIFICANT}g"  # display's first step
_SUFFIXES = {unit: (factor, " " + shown) for unit, (factor, shown) in DISPLAY_UNITS.items()}  # what display appends


def display(value: float, unit: str) -> str:
    """A value in the units the site shows; a latency of a millisecond or more in ms (666 ms,
    not 666,000 µs). A quick result's pages print 1,700 figures: most are written out by %g
    as they are (no exponent, no inf or nan: no "e" and no "n"), which is significant()'s own
    first step, taken here without its call (0.24 µs a figure, where format() and an f-string
    took 0.36)."""
    if unit == "ns" and (value >= 1e6 or value <= -1e6):
        value, suffix = value * 1e-6, " ms"
    else:
        factor, suffix = _SUFFIXES.get(unit) or (1, " " + unit)
        value *= factor
    text = _SPEC % value
    if "e" in text or "n" in text:
        # 1,000 or more once rounded (most throughputs and IOPS): significant()'s own branch,
        # without its call and a second rounding (0.3 µs of the 0.7 a figure that took)
        text = f"{float(text):,.0f}" if "e+" in text else significant(value)
    return text + suffix


def verdict(expected: float, row: dict) -> str:
    """A claim's verdict on one comparison row of results.comparison, its p adjusted within the
    claim: a claimed effect agrees when the significant change goes its way within AGREE times
    its size; a claimed absence of effect (0, and only 0) agrees only when equivalence within
    NO_EFFECT_PCT is shown; a claimed change within the margin is never "no effect seen"; a change the repetitions could not have detected is "cannot tell at this n"."""
    if row["status"] != "tested":
        return "not testable"
    change = row["change_pct"]
    if not expected:  # a claimed absence of effect
        if row["equivalent"]:
            return "agrees"
        return "disagrees" if row["significant"] and abs(change) >= NO_EFFECT_PCT else "inconclusive"
    if row["significant"]:
        if (change > 0) != (expected > 0):
            return "disagrees"
        ratio = change / expected
        return "agrees" if AGREE[0] <= ratio <= AGREE[1] else ("smaller effect" if ratio < AGREE[0] else "larger effect")
    if row["detectable_pct"] is None or abs(expected) < row["detectable_pct"]:
        return "cannot tell at this n"
    if abs(expected) <= row.get("margin_pct", NO_EFFECT_PCT):  # inside the margin: equivalence is no answer
        return "inconclusive"
    return "no effect seen" if row["equivalent"] else "inconclusive"


VERDICT_WORDS = {
    "agrees": "agrees with the claim",
    "smaller effect": "goes the claimed way, but by less than half as much",
    "larger effect": "goes the claimed way, but by more than twice as much",
    "no effect seen": f"shows no effect where the claim expects one (equivalent within +-{NO_EFFECT_PCT:g} %)",
    "disagrees": "goes against the claim",
    "inconclusive": "is inconclusive: it shows neither the change nor its absence",
    "cannot tell at this n": "cannot tell: the claimed change is smaller than these repetitions could detect",
    "not testable": "cannot be tested: a side has one repetition or no spread",
}


class ClaimEvidence:
    """Weighs every claim against the results, fed one result digest at a time in any order:
    for each comparison it keeps the newest result (by created, then id) holding both cells
    measured, and for each cell key the newest record of it not measured (to say why)."""

    def __init__(self, knowledge: dict, state: dict | None = None):
        self.options = knowledge["mount_options"]
        self.comparisons = sorted({(row["cell"], row["baseline"], metric) for option in self.options.values()
                                   for _, row, metric in claim_comparisons(option)})
        self.by_cell = {}
        for comparison in self.comparisons:
            self.by_cell.setdefault(comparison[0], []).append(comparison)
        self.keys = {key for comparison in self.comparisons for key in comparison[:2]}
        self.match = best_per_key.Best()  # (cell, baseline, metric) -> {result facts, cell, base}
        self.not_ok = best_per_key.Best()  # key -> {result, cell}
        if state:
            self.match.restore(state["match"])
            self.not_ok.restore(state["not_ok"])

    def state(self) -> dict:
        return {"match": self.match.state(), "not_ok": self.not_ok.state()}

    def merge(self, state: dict) -> None:
        self.match.merge(state["match"])
        self.not_ok.merge(state["not_ok"])

    def add(self, digest: dict) -> None:
        rank = (run_rule.moment(digest["created"]), digest["id"])
        mine = {c["key"]: c for c in digest["cells"] if c["key"] in self.keys}
        for key, cell in mine.items():
            if cell["status"] != "ok":
                self.not_ok.offer(key, rank, lambda: {"result": digest["id"], "cell": cell})
        facts = {name: digest[name] for name in ("id", "machine", "kernel", "target", "factors") if name in digest}
        facts["machine_name"] = digest["summary"]["machine_name"]  # what readers see beside the label
        spreads = twin_spreads(digest["cells"]) if mine else {}
        for key, cell in mine.items():
            for comparison in self.by_cell.get(key, ()):
                base, metric = mine.get(comparison[1]), comparison[2]
                if (base and cell["status"] == base["status"] == "ok" and metric in cell["metrics"]
                        and metric in base["metrics"] and "emulated" not in cell["flags"] + base["flags"]):
                    twins = spreads.get((cell["filesystem"], cell["workload"], cell.get("dimensions", "")), {})
                    self.match.offer(comparison, rank, lambda: {"facts": facts, "cell": cell, "base": base,
                                                                "twins": twins})

    def result(self) -> dict:
        """For every claim and comparison: the change, its test (results.comparison, p adjusted
        by Holm over the claim's comparisons that can show its mechanism), a verdict and a
        sentence saying so."""
        out = {}
        for option_id, option in sorted(self.options.items()):
            claims = []
            for claim in option["claims"]:
                rows = [self._compare(option, claim, c) for c in claim["measured_by"]]
                family = [r for r in rows if r["status"] == "measured"]
                comparison.adjust([r["test"] for r in family], comparison.HOLM)
                for r in family:
                    _judge(claim, r)
                tally = {v: sum(r["verdict"] == v for r in family) for v in VERDICT_WORDS}
                claims.append({"id": claim["id"], "text": claim["text"], "sources": claim["sources"],
                               "setup": claim.get("setup", ""), "metric": claim["metric"],
                               "expected_change_pct": claim["expected_change_pct"], "comparisons": rows,
                               "measured": len(family), "tally": tally, "summary": _summary(tally, rows)})
            out[option_id] = {"id": option_id, "option": option["option"], "theme": option["theme"], "claims": claims}
        return out

    def _compare(self, option, claim, comparison_) -> dict:
        metric = comparison_.get("metric", claim["metric"])
        row = {"cell": comparison_["cell"], "baseline": comparison_["baseline"], "metric": metric,
               "expected_change_pct": claim["expected_change_pct"], "label": _label(comparison_["cell"]),
               # the claimed change as the sentence and the chart's hover print it
               "claimed_shown": f"{claim['expected_change_pct']:+g}",
               "filesystem": comparison_["cell"].split("|")[0], "workload": comparison_["cell"].split("|")[3]}
        found = self.match.get((comparison_["cell"], comparison_["baseline"], metric))
        if found:
            measured = _measured(option, claim, found["facts"], found["cell"], found["base"], metric)
            blind = cannot_show(claim, row["workload"], found["cell"], found["base"], found.get("twins"))
            if not blind and measured["io"] != measured["baseline_io"]:
                blind = ("The two cells did not reach the disk alike, so the comparison is not like for like and "
                         "does not count toward the verdict.")
            if not blind:
                contended = contention.differs(found["base"], found["cell"])
                blind = f"{contended} The comparison does not count toward the verdict." if contended else ""
            if not blind and measured["test"]["status"] == "not tested":  # the pair's design: parameters differ...
                blind = f"Not tested: {measured['test']['why']}. The comparison does not count toward the verdict."
            if blind:  # shown, with its figures, but no evidence for or against the claim: not tested
                measured.update(status="cannot-show", verdict="cannot show",
                                sentence=f"{measured['sentence']} Not tested against the claim, so this difference "
                                         f"shows no effect of the option: {measured['notes']} {blind}")
            else:
                measured["basis"], said = basis(claim, found["cell"], found["base"])
                measured["notes"] = f"{measured['notes']} {said}".strip()
            return {**row, **measured}
        for end in ("cell", "baseline"):  # not measured: say why, from the newest record of either cell
            record = self.not_ok.get(comparison_[end])
            if record:
                cell = record["cell"]
                return {**row, "status": cell["status"], "result": record["result"], "reason": cell.get("reason", ""),
                        "sentence": f"Not measured here: {comparison_[end]} was {cell['status']} "
                                    f"({cell.get('reason') or 'no reason given'})."}
        return {**row, "status": "not-measured", "reason": "no result file holds these cells yet",
                "sentence": "Not measured here yet: no result file on this site holds these cells."}


def evaluate_claims(knowledge: dict, digests) -> dict:
    evidence = ClaimEvidence(knowledge)
    for digest in digests:
        evidence.add(digest)
    return evidence.result()


def _summary(tally: dict, rows: list) -> str:
    measured, blind = sum(tally.values()), sum(r["status"] == "cannot-show" for r in rows)
    shown = (f"; {blind} cannot show its mechanism, so {'it does' if blind == 1 else 'they do'} not count"
             if blind else "")
    if not measured:
        if blind:
            return f"Measured, but no comparison counts: {blind} of {len(rows)} cannot show the claim's mechanism."
        return "Not measured here yet: none of its cells has a result on this site."
    parts = [f"{n} {word}" for word, n in tally.items() if n]
    uncounted = sum(r.get("basis") in ("matrix", "figures") for r in rows if r["status"] == "measured")
    shown += (f"; {uncounted} of the {measured} not judged from device counters" if uncounted else "")
    return f"Measured in {measured} of {len(rows)} comparisons: " + ", ".join(parts) + shown + "."


def _label(key: str) -> str:
    parts = key.split("|")
    opts = [p for p in (parts[1], parts[2]) if p != "-"]
    return " ".join([parts[0], parts[3], *parts[4:], *opts])


def history_rows(knowledge: dict, cells: dict) -> dict:
    """Each historical dataset in long form, with today's measurement of the same workload on
    the same filesystem (defaults, its run picked by run_rule) beside each column that has a re-run."""
    out = {}
    for ident, data in sorted(knowledge["history"].items()):
        rows = []
        for row in data["rows"]:
            for col in data["columns"]:
                value = row.get(col["name"])
                if value is None or col["name"] == "file_size":
                    continue
                entry = {"dataset": ident, "filesystem": row["filesystem"], "column": col["name"],
                         "label": col["label"], "unit": col["unit"], "published": value,
                         "published_display": f"{value:,} {col['unit']}".strip() if isinstance(value, (int, float)) else str(value)}
                if "file_size" in row:
                    entry["label"] = f"{col['label']}, {row['file_size']:,} bytes"
                rerun = data.get("rerun", {}).get(col["name"])
                if rerun:
                    key = f"{row['filesystem']}|-|-|{rerun['workload']}"
                    if rerun.get("dimension") and rerun["dimension"] in row:
                        key += f"|{rerun['dimension']}={row[rerun['dimension']]}"
                    today = cells.get(key, {})
                    metric = today.get("metrics", {}).get(rerun["metric"])
                    entry.update(today_key=key, today_metric=rerun["metric"],
                                 today_display=metric["display"] if metric else "",
                                 # n and the 95 % interval beside the figure (#62)
                                 today_detail=detail(metric) if metric else "",
                                 today_status=today.get("status", "not measured"),
                                 today_reason=today.get("reason", "" if today else "no result holds this cell"),
                                 today_result=today.get("result", ""),
                                 # the run's machine, named as every table names it (partials/results/machine.html)
                                 machine=today.get("machine", ""), machine_name=today.get("machine_name", ""))
                    entry["today_here"] = _here(entry)
                rows.append(entry)
        out[ident] = {"id": ident, "rows": rows}
    return out


def _here(row: dict) -> str:
    """A history row's "measured here" as one line, for the chart's hover: what the table's
    column says (partials/knowledge/measured-here.html: the figure with its n and interval, or
    "not measured: <reason>") and, where a run holds the cell, "(run <id>, machine <name> (<label>))"
    as the table gives it beside the figure."""
    said = (f"{row['today_display']} ({row['today_detail']})" if row["today_display"]
            else f"not measured: {row['today_reason'] or row['today_status']}")
    if row["today_result"]:
        said += f" (run {row['today_result']}, machine {machines.shown(row['machine_name'], row['machine'])})"
    return said


UNRANKED = flags_mod.UNRANKED  # flags whose figures are no measure of the filesystem on its disk
PAGE_CACHE_NOTE = ("These figures are the page cache's speed, not the disk's: the workload writes through the page "
                   "cache and never waits for the device (no fsync), so it is ranked apart from the device workloads.")


def axis_title(metric: str, unit: str) -> str:
    """"throughput (MB/s, 10^6 bytes per second)", "files created per second", "time taken (s)"."""
    shown = DISPLAY_UNITS.get(unit, (1, unit))[1]
    words = metrics_mod.label(metric)
    if shown == "MB/s":
        return f"{words} (MB/s, 10^6 bytes per second)"
    if shown == "ops/s" and "per second" in words:
        return words
    return f"{words} ({shown})"


class Rankings:
    """Per workload (and dimension) and headline metric, the filesystems with default options
    ranked best first, each marked whether its lead over the next is significant: the row of
    the compare table of the two filesystems in that run (cell_pairs.within, the comparison of
    `fsatlas compare R --a NEXT --b THIS` and of the compare page: the same design, parameter and
    contention checks, the same families and adjusted p), made once the rankings are decided
    (result()), for the runs that won them.
    A ranking compares cells of one result file only (one machine, one run): by the site's one
    rule (run_rule.RULE), the run that measured the most filesystems on its workload, the
    newest of those, so a ranked figure is the one every other page shows. Fed one digest at a time."""

    def __init__(self, state: list | None = None):
        self.best = best_per_key.Best().restore(state or [])  # name -> rows of one result

    def state(self) -> list:
        return self.best.state()

    def merge(self, state: list) -> None:
        self.best.merge(state)

    def add(self, digest: dict) -> None:
        candidates = {}
        for cell in digest["cells"]:
            if cell["status"] != "ok" or cell["variant"] != "defaults" or not run_rule.shared(cell["key"]):
                continue
            # the ranking's name: workload|dimensions|metric, or workload|metric (a workload and a
            # metric name are never empty: the schema's patterns)
            prefix = f"{cell['workload']}|{cell['dimensions']}|" if cell["dimensions"] else f"{cell['workload']}|"
            for metric in cell["metrics"]:
                if not metric.startswith(("cpu_", "lat_")):
                    candidates.setdefault(prefix + metric, []).append((cell, metric))
        wide = run_rule.breadth(digest)
        for name, entries in candidates.items():  # rows made only for the result that wins
            cell = entries[0][0]
            rank = run_rule.rank(wide[(cell["workload"], cell["dimensions"], "defaults")], digest)
            self.best.offer(name, rank, lambda: self._rows(digest, entries))

    @staticmethod
    def _lead(digest: dict, this: dict, after: dict, tables: dict) -> dict | None:
        """The lead of ranked row THIS over the next one, AFTER: the row of their compare table in
        the run of digest (cell_pairs.within of `fsatlas compare R --a AFTER --b THIS` and of the
        compare page), on this cell and metric (an iops whose samples scale throughput's is that
        row's test: comparison.tested_as). A headline metric's from the table of the headline
        metrics alone, as `compare` makes it by default (its row's p is the page's:
        comparison.adjust_table), a third of the cost of every metric's; another's from every
        metric's. tables: (run, a, b, headline) -> {(key, metric): row}, filled here."""
        from . import cell_pairs
        pair = (digest["id"], after["filesystem"], this["filesystem"], this["metric"] in comparison.HEADLINE)
        if pair not in tables:
            tables[pair] = {(r["key"], n): r for r in cell_pairs.within(digest, *pair[1:3], all_metrics=not pair[3],
                                                                      run_of=lambda cell: digest["factors"])
                            for n in [r["metric"], *r["same_test"]]}
        test = tables[pair].get((this["key"], this["metric"]))
        return test and {k: test[k] for k in ("ratio", "ratio_ci95", "p", "p_adjusted", "verdict", "why")}

    @staticmethod
    def _rows(digest: dict, entries: list) -> list[dict]:
        rows = []
        for cell, metric in entries:
            m = cell["metrics"][metric]
            factor = DISPLAY_UNITS.get(m["unit"], (1, m["unit"]))[0]
            rows.append({"filesystem": cell["filesystem"], "metric": metric,
                         "key": cell["workload"] + (f"|{cell['dimensions']}" if cell["dimensions"] else ""),
                         "display": m["display"], "mean": m["mean"],
                         "shown": m["mean"] * factor, "shown_low": None if m["ci_low"] is None else m["ci_low"] * factor,
                         "shown_high": None if m["ci_high"] is None else m["ci_high"] * factor, "ci_low": m["ci_low"], "ci_high": m["ci_high"],
                         "better": m["better"], "unit": m["unit"], "samples": m["samples"], "n": m["n"],
                         # the mean's 95 % interval as the table prints it (#62: n and the interval in every ranking)
                         "interval": interval(m),
                         "result": digest["id"], "machine": digest["machine"],
                         "machine_name": digest["summary"]["machine_name"], "flags": cell["flags"]})
        return rows

    def result(self, digest_of) -> dict:
        """name -> {"ranked": rows best first, "excluded": rows not ranked, "axis", "io": "device"
        or "page-cache", "io_note"}; digest_of(run id): the digest of a run that won a ranking,
        whose compare tables give each ranked row its lead (_lead). A figure the page cache
        served (cached) or an emulated guest measured says nothing of the disk's speed: it is
        listed beneath, never ranked, and no
        sentence names it first. An O_DIRECT figure above the raw device (above-device) stays
        ranked with its mark. A page-cache workload's ranking (io: page-cache, its cells flagged
        page-cache) ranks the page cache's speed: it is kept apart from the device rankings
        (listed after all of them) and says so."""
        out, tables, digests = {}, {}, {}
        for name, (_, rows) in sorted(self.best.items.items()):
            rows = [dict(r) for r in rows]
            higher = rows[0]["better"] == "higher"
            rows.sort(key=lambda r: r["mean"], reverse=higher)
            ranked = [r for r in rows if not set(r["flags"]) & UNRANKED]
            excluded = [dict(r, why=", ".join(sorted(set(r["flags"]) & UNRANKED))) for r in rows if set(r["flags"]) & UNRANKED]
            for this, after in zip(ranked, ranked[1:]):
                rid = this["result"]
                if rid not in digests:
                    digests[rid] = digest_of(rid)
                this["lead"] = self._lead(digests[rid], this, after, tables)
            for r in ranked:  # the table's "ahead (p)" and the chart's hover, in the same words
                lead = r.get("lead") or {}
                r["clear_lead"] = lead.get("verdict") == "better"  # the compare table's verdict: this one better
                r["lead_shown"] = "– (last: no next to be ahead of)" if r is ranked[-1] else ("yes" if r["clear_lead"] else "no") + (
                    f" (p = {lead['p_adjusted']:.2g})" if lead.get("p_adjusted") is not None
                    else f" ({lead['verdict']}: {lead['why']})" if lead.get("why") else "")
            io = "page-cache" if any("page-cache" in r["flags"] for r in rows) else "device"
            out[name] = {"ranked": ranked, "excluded": excluded, "axis": axis_title(name.rsplit("|", 1)[-1], rows[0]["unit"]),
                         "io": io, "io_note": PAGE_CACHE_NOTE if io == "page-cache" else ""}
        return dict(sorted(out.items(), key=lambda item: (item[1]["io"] == "page-cache", item[0])))


def rankings(digests) -> dict:
    fold, by_id = Rankings(), {}
    for digest in digests:
        fold.add(digest)
        by_id[digest["id"]] = digest
    return fold.result(by_id.__getitem__)


def _measured(option, claim, facts, cell, base, metric) -> dict:
    """A measured comparison of the option's cell with its baseline: the figures, the test of
    results.comparison (paired where both ran in the same interleaved rounds; adjusted and
    judged later, with the claim's other comparisons, by _judge) and what the cells' setup says."""
    a, b = base["metrics"][metric], cell["metrics"][metric]
    run = facts.get("factors") or {"run": facts["id"]}
    # the one decision of a pair of cells (comparison.cells_plan) and its row (comparison.row_of), as
    # compare, report.within and the compare page make them: paired where interleaved; not tested where
    # parameters, contention or the figures' units differ (_compare: cannot show)
    test = comparison.row_of(cell.get("key", ""), metric, [a], [b], comparison.cells_plan(run, base, run, cell))
    change = test["change_pct"] if test["change_pct"] is not None else 0.0
    shown = percent_shown(change)  # the change as the sentence and the chart's hover print it: one rounding
    flags = sorted(set(cell["flags"]) | set(base["flags"]))
    sentence = (f"On machine {facts['machine_name']} ({facts['machine']}; kernel {facts['kernel']}, {facts['target']}), "
                f"{metric} of {cell['filesystem']} {cell['workload']} with {option['option']} was {shown} % against "
                f"the baseline ({display(a['mean'], a['unit'])}, {detail(a)}, with the baseline; "
                f"{display(b['mean'], b['unit'])}, {detail(b)}, with the option).")
    notes = []
    if "not-striped" in flags:
        notes.append("These cells ran on a plain loop image, not on a striped array (this kernel has no md or "
                     "device-mapper), so no RAID alignment effect can show.")
    if "cached" in flags:
        notes.append("At least one figure exceeds what the raw device delivered on the same job: it came from a cache.")
    if "above-device" in flags:
        notes.append("At least one O_DIRECT figure exceeds what the raw device delivered on the same job: not the page "
                     "cache, which O_DIRECT bypasses (the methodology page says what can explain it).")
    io_cell, io_base = io_path(cell, facts["kernel"]), io_path(base, facts["kernel"])
    if io_cell[0] != io_base[0]:
        notes.append(f"The two cells reached the disk differently: the option's cell {io_cell[0]} ({io_cell[1]}), "
                     f"the baseline {io_base[0]} ({io_base[1]}), so part of the change is that difference.")
    else:
        notes.append(f"Both cells went {'through O_DIRECT' if io_cell[0] == 'O_DIRECT' else 'through the page cache'}.")
    return {"status": "measured", "result": facts["id"], "machine": facts["machine"], "machine_name": facts["machine_name"],
            "kernel": facts["kernel"],
            "unit": a["unit"], "better": a["better"], "baseline_mean": a["mean"], "cell_mean": b["mean"],
            "baseline_ci95": [a["ci_low"], a["ci_high"]], "cell_ci95": [b["ci_low"], b["ci_high"]], "change_pct": change,
            "change_shown": shown,
            "test": test, "flags": flags, "sentence": sentence, "notes": " ".join(notes),
            "io": io_cell[0], "baseline_io": io_base[0]}


def _judge(claim, row) -> None:
    """The verdict and the full sentence of a measured comparison, once its p is adjusted."""
    test = row["test"]
    v = verdict(claim["expected_change_pct"], test)
    row.update(verdict=v, significant=test["significant"], p_value=test["p"], p_adjusted=test["p_adjusted"],
               ratio_ci95=test["ratio_ci95"], detectable_pct=test["detectable_pct"])
    told = comparison.describe(test)
    row["sentence"] = (f"{row['sentence']} {told[0].upper()}{told[1:]}. "
                       f"This {VERDICT_WORDS[v]} (claimed: {row['claimed_shown']} %). {row['notes']}").rstrip()
