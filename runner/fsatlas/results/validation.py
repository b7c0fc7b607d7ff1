"""Validation of result files: the schema, then the rules a schema can't say.

Problems are (severity, file, JSON Pointer, message) records; only errors fail validation.
"""
import datetime as dt
import functools
import hashlib
import json
import math
import os
import posixpath
import re
from functools import lru_cache

from . import bundle, filesig, fio_json, flags, importers, machines, metrics, parallel, privacy, resultfile, shares, stats
from .filesig import signature
from .. import memory
from ..errors import UserError
from .resultfile import Problem
from .importers.measurement import EARLIEST, NOTES
from .metrics import KNOWN as KNOWN_METRICS
REL_TOL = 1e-6


def validate_file(path: str) -> list[Problem]:
    return _read_and_checked(path, None, True)[0][0]


def _read_and_checked(path: str, max_bytes: int | None, with_raw: bool) -> tuple[tuple, tuple | None]:
    """(outcome, _read(path) when the file could be read). The outcome: the
    problems of one result file, [raw bundle, signature] for the bundle it names, taken before
    it is read (what OutcomeCache keeps to know when to check again), its machine's
    hardware (hardware()) and its run's folders (folder_problems), what is held against
    other files. max_bytes: the largest file read (MAX_FILE_BYTES); with_raw: the
    figures recomputed from the raw output too (else its references are only checked)."""
    try:
        read = _read(path, max_bytes)
    except UserError as e:
        return ([Problem("error", path, "", e.body)], [], None, []), None
    except MemoryError:
        return ([Problem("error", path, "", memory.TOO_MUCH)], [], None, []), None
    try:
        outcome, document = _checked(path, read[1], with_raw, read[0])
        return outcome, (read[0], document, read[2])
    except RecursionError:  # JSON nested within the parser's limit but beyond what a walk takes
        return ([Problem("error", path, "", "expected JSON nested at most a few hundred levels deep")], [], None, []), read
    except MemoryError:  # past memory.limited's bound, which no reader's own bound should let it reach
        return ([Problem("error", path, "", memory.TOO_MUCH)], _raw_signatures(read[1], path), None, []), read


def _read(path: str, max_bytes: int | None) -> tuple[bytes, object, list]:
    """(bytes, document, signature) of a result file, the signature (filesig) that of the bytes."""
    raw, st = resultfile.read_file(path, resultfile.MAX_FILE_BYTES if max_bytes is None else max_bytes)
    signature = filesig.of_read(filesig.cache_key(path), st, raw)
    return raw, resultfile.parse_json(raw, path, keys_checked=False), signature  # _checked counts its keys


def _checked(path: str, data, with_raw: bool, raw: bytes) -> tuple[tuple[list[Problem], list, list | None, list], object]:
    """(the outcome of a document as stored (raw: its bytes); the document in the read form,
    resultfile.readable, where it passed the checks of its stored form, else as it is)."""
    raws = _raw_signatures(data, path)
    screen = resultfile.screened(data)
    twice = resultfile.duplicate_key(raw, screen[2])
    if twice:
        return ([Problem("error", path, *twice)], raws, None, []), data
    problems = [Problem("error", path, where, message) for where, message in resultfile.value_problems(data, screen)]
    problems = problems or resultfile.schema_problems(data, path) or resultfile.version_problems(data, path)
    private = _private(path, data, screen[1])
    if problems:
        return (problems + private, raws, None, []), data
    summaries = stored_summary_problems(data, path) if resultfile.version_of(data) == 1 else []
    data = resultfile.readable(data)
    found, folders = rule_problems(data, path, with_raw)
    return (summaries + found + private, raws, hardware(data["system"]), folders), data


def _private(path: str, data, strings: set) -> list[Problem]:
    """The privacy findings of a result document (strings: its distinct strings, resultfile.screened)."""
    return [Problem("error", path, where, PRIVATE + message) for where, message in privacy.document_findings(strings, data)]


def load_checked(path: str) -> dict:
    """A result file in the read form as export reads it: checked as validate checks its
    structure (its schema, then structure_problems: a real created time, each cell unique and
    well-formed, one value a repetition, raw references of their writer's form and place) and
    its text for what looks private (a finding a maintainer reviewed passes, as in validate:
    reviewed()) and, in a version-1 file, the summaries it stores, refused with validate's line
    for its first error (round 58: an e-mail address validate refused went into a report, a cell
    twice into an export, counted twice). Not its raw output nor its name: a result copied
    elsewhere is still read. compare, report and article new read more strictly: validated()."""
    data = resultfile.load_json(path)
    resultfile.check_stored(data, path)
    private = reviewed(_private(path, data, resultfile.screened(data)[1]))
    summaries = stored_summary_problems(data, path) if resultfile.version_of(data) == 1 else []  # as _checked
    result = resultfile.readable(data)
    problems = [p for p in private if p.severity == "error"] or summaries or structure_problems(result, path)
    if problems:
        raise UserError(problems[0].message, where=path, field=problems[0].path)
    return result


def stored_summary_problems(data: dict, path: str) -> list[Problem]:
    """The summaries a version 1 file stores (of its cells' metrics, their clients' and its
    baselines') that are not their samples' own. Such a file is read as its migration, whose
    summaries are computed from the samples (resultfile.readable), so one that disagrees is
    refused, not shown (#65 round 52: the baselines' were never checked, and readers showed
    them: 40 cells flagged above the device before migration, 2 after)."""
    named = [(resultfile.pointer(["target", field, job]), of_job) for field in resultfile.BASELINES
             for job, of_job in (data["target"].get(field) or {}).items()]
    for i, cell in enumerate(data["cells"]):
        named.append((f"/cells/{i}/metrics", cell["metrics"]))
        named += [(resultfile.pointer(["cells", str(i), "clients", label]), of_client)
                  for label, of_client in (cell.get("clients") or {}).items()]
    return [Problem(severity, path, f"{where}/{resultfile.pointer([name])[1:]}{sub}", message)
            for where, of_place in named for name, metric in of_place.items()
            for severity, sub, message in summary_problems(metric)]


def hardware(system: dict) -> list:
    """[machine label, CPU model, cores, memory in GiB]: what two results under one label
    must share to be one machine (memory rounded: kernels reserve different amounts); None for
    a result whose system was not recorded (it has no hardware to compare)."""
    if not resultfile.system_recorded(system):
        return None
    return [system["machine"], system["cpu_model"], system["cpu_count"], machines.memory_gib(system["memory_bytes"])]


def machine_conflicts(outcomes: dict) -> list[Problem]:
    """A warning on each result whose machine label another result uses with other hardware
    (machines cloned from one image share /etc/machine-id): the site would show them as one.
    Every such result is warned, naming the first file of another hardware under its label, so
    that a file added under a machine's label is warned too, not only the machine's own (#65
    round 52: a copy named to sort first put the warnings on the two genuine runs alone)."""
    kinds: dict = {}
    for path, hw in sorted(outcomes.items()):
        if hw:
            kinds.setdefault(hw[0], {}).setdefault(tuple(hw[1:]), (path, hw))
    out = []
    for path, hw in sorted(outcomes.items()):
        if not hw:
            continue
        other = next((seen for key, seen in kinds[hw[0]].items() if key != tuple(hw[1:])), None)
        if other:
            there = other[1]
            out.append(Problem("warning", path, "/system/machine", f"the label {hw[0]!r} names other hardware in "
                               f"{other[0]} ({there[1]}, {there[2]} cores, {there[3]} GiB) than here "
                               f"({hw[1]}, {hw[2]} cores, {hw[3]} GiB): give each machine its own --machine label"))
    return out


PRIVATE = "private: "  # the start of a privacy finding's message (see reviewed)
REVIEWED_FILE = "privacy-reviewed.txt"  # beside results/: findings a maintainer checked


def reviewed(problems: list[Problem], allow_all: bool = False) -> list[Problem]:
    """The problems, with each privacy finding a maintainer has checked made a warning: all of
    them with allow_all (`--allow-private`), else those listed as "<id> <JSON Pointer>" in the
    REVIEWED_FILE of the data folder holding the result. That file is outside data/results and
    data/raw, which the pull-request check refuses to let a contribution change."""
    lists = {}

    def listed(problem):
        data_dir = os.path.dirname(os.path.dirname(os.path.abspath(problem.file)))
        if data_dir not in lists:
            try:
                with open(os.path.join(data_dir, REVIEWED_FILE), encoding="utf-8") as f:
                    lists[data_dir] = {tuple(line.split(None, 1)) for line in map(str.strip, f)
                                       if line and not line.startswith("#")}
            except OSError:
                lists[data_dir] = set()
        rid = os.path.basename(problem.file)[:-len(".json")]
        return (rid, problem.path) in lists[data_dir]

    return [Problem("warning", p.file, p.path, p.message + " (reviewed)")
            if p.severity == "error" and p.message.startswith(PRIVATE) and (allow_all or listed(p)) else p
            for p in problems]


CACHE_FILE = os.path.join("build", "cache", "validation.json")


class OutcomeCache:
    """Validation outcomes kept between runs, like make: CACHE_FILE holds each result file's
    signature (filesig: size and content digest, so a fresh checkout with the cache restored
    finds it), its problems, whether its figures were recomputed from the raw bundle, and what
    is beside it (_raw_signatures: the bundle's signature, whether raw/<id> is there). Any
    change to the rules (this module, the schema, the importers) empties it. keep False:
    nothing is written (neither outcomes nor filesig's digests)."""

    def __init__(self, path: str | None, keep: bool = True):
        self.path, self.tool, self.entries, self.changed = path, _rules_digest(), {}, False
        self.keep = keep
        if path:
            try:
                with open(path, encoding="utf-8") as f:
                    stored = json.load(f)
                if stored.get("tool") == self.tool and isinstance(stored.get("entries"), dict):
                    self.entries = stored["entries"]
            except (OSError, ValueError, AttributeError):
                pass

    def prefetch(self, keys: list, recheck_raw: bool) -> None:
        """Takes the signatures get() will compare for these files (those it holds an outcome
        of, and their bundles where it looks at them) on every core at once, not one by one as
        get() asks: after a fresh checkout each file is read."""
        known = [key for key in keys if key in self.entries]
        raws = [raw for key in known if recheck_raw or any(p[0] == "error" for p in self.entries[key]["problems"])
                for raw, _ in self.entries[key]["raws"]]
        filesig.signatures(known + raws)

    def get(self, key: str, recheck_raw: bool) -> tuple[list[Problem], list | None, list] | None:
        entry = self.entries.get(key)
        if not entry or entry["sig"] != signature(key) or (recheck_raw and not entry["raw"]):
            return None
        if (recheck_raw or any(severity == "error" for severity, *_ in entry["problems"])) \
                and any(_state(r) != sig for r, sig in entry["raws"]):
            return None
        return [Problem(*p) for p in entry["problems"]], entry["hw"], entry["folders"]

    def put(self, key: str, problems: list[Problem], raws: list, hw: list | None, folders: list,
            with_raw: bool) -> None:
        """with_raw: the figures were recomputed from the raw bundle (else only its references checked)."""
        if self.path:
            self.entries[key] = {"sig": signature(key), "problems": [list(vars(p).values()) for p in problems],
                                 "hw": hw, "folders": folders, "raw": with_raw, "raws": raws}
            self.changed = True

    def save(self) -> None:
        if not self.keep:
            return
        filesig.save()
        if self.path and self.changed:
            entries = {k: v for k, v in self.entries.items() if os.path.exists(k)}
            try:
                resultfile.write_atomic(self.path, {"tool": self.tool, "entries": entries}, compact=True, durable=False)
            except UserError:
                pass  # not writable here (a read-only checkout): every file is checked again next time


def check_paths(paths: list[str], cache_file: str | None = CACHE_FILE, allow_private: bool = False,
                max_bytes: int | None = None) -> tuple[list[str], list[Problem]]:
    """What `fsatlas validate PATH...` checks: the result files the paths name (a folder: its
    result files, its listing's problems and the strays beside them in raw/) and every problem
    of them, privacy findings reviewed, ids checked across the files. `fsatlas migrate` refuses
    what this finds (#65 round 55: it rewrote files whose e-mail address or raw-contradicted
    sample validate refused)."""
    files, problems = [], []
    for path in map(filesig.as_opened, paths):
        if os.path.isdir(path):
            found, listing_problems = resultfile.result_listing(path)
            files += found
            problems += listing_problems + bundle.stray(path, found)
        else:
            files.append(path)
    files = named_once(files)
    problems += validate_files(files, cache_file, max_bytes=max_bytes)
    return files, reviewed(problems, allow_private) + duplicate_ids(files)


def validate_files(files, cache_file: str | None = CACHE_FILE, recheck_raw: bool = True,
                   max_bytes: int | None = None) -> list[Problem]:
    """validate_file over many files, remembering outcomes (by size and mtime of the result file
    and of every raw file it names) so an unchanged file is not checked again; rebuilding the
    site after one new result checks that one file.

    recheck_raw=False is for the aggregator, which reads result files only: a file it has not
    seen is checked without recomputing its figures from the raw bundle (its references are
    checked), and a clean outcome is trusted while the result file is unchanged. `fsatlas
    validate` (which make data and the pull-request check run first) always recomputes, and
    never trusts an outcome that did not; an outcome with errors is always checked again, so a
    mended bundle counts. Outcomes are kept only under the default size limit (max_bytes None)."""
    checks = FileChecks(files, cache_file, recheck_raw, max_bytes)
    for _ in checks.run():
        pass
    return checks.problems


def validated(paths: list[str], cache_file: str = CACHE_FILE) -> list[dict]:
    """The result files at paths in the read form, each one `fsatlas validate` accepts: checked
    by validate's own check (FileChecks: the schema, the rules, the privacy screen with reviewed
    findings passing, and every figure recomputed from its raw bundle, the clocks against the
    tools' timestamps). What compare, report and article new read: a file validate refuses is
    refused with validate's line for its first error, in the order of paths (#60: a run split
    into two files, or copies of it with jittered samples and start times, were compared as
    several runs, since only their structure was checked). A path named twice is read once and
    given twice. Validate's outcomes are used and kept where validate keeps them (cache_file's
    folder is there: a checkout where make or validate ran), so a file checked before, unchanged
    with its bundle, is only read; elsewhere each file is checked afresh and nothing is written
    beside the command's own output."""
    unique = list(dict.fromkeys(paths))
    opened = {path: filesig.as_opened(path) for path in unique}  # what is checked: the file the kernel opens
    docs: dict = {}
    kept = os.path.isdir(os.path.dirname(cache_file))
    checks = FileChecks(list(dict.fromkeys(opened.values())), cache_file if kept else None, keep=kept)
    for batch in checks.run(lambda path, extra, raw, document, sig: document, dict.fromkeys(opened.values()),
                            lambda made: [(path, document) for path, _, document in made]):
        docs.update(batch)
    for path in unique:  # a cached outcome names the file as it was spelled when it was checked
        # (data/results/x.json, then ./data/results/x.json: adversary round 81): each file's own
        # problems are given the path it is opened by, for the reviewed findings, and the refusal
        # names it as it is named here
        own = [Problem(p.severity, opened[path], p.path, p.message) for p in checks.outcomes[opened[path]]]
        first = next((p for p in reviewed(own + [c for c in checks.conflicts if c.file == opened[path]])
                      if p.severity == "error"), None)
        if first:  # as validate prints it: the document's root is "/"
            raise UserError(first.message, where=path, field=first.path or "/")
    return [docs[opened[path]] for path in paths]


class FileChecks:
    """validate_files, for a caller with more to do with each file that passes (the
    aggregator derives its pages): run(then, wanted, gather) calls then(path, extra, bytes,
    document, signature) in the worker that checked the file, on the bytes it read (a file is
    read and parsed once; the signature, filesig's, is of those bytes), for each file of wanted
    ({path: extra}) that has no errors once reviewed() (one whose clean outcome is cached is
    read for it alone), and gather(an iterator of (path, extra, what then returned)) in that
    worker once per batch of files, which yields its values as the files are checked (then and
    gather go together; a batch for which gather returns None yields nothing).
    The problems of every file are in .problems once run is done, and each file's own (a path
    given -> its problems, as found or as the cache holds them) in .outcomes, and the conflicts
    between files' machines in .conflicts. keep False: nothing is
    written (OutcomeCache), for a reader that leaves no files behind."""

    def __init__(self, files, cache_file: str | None = CACHE_FILE, recheck_raw: bool = True,
                 max_bytes: int | None = None, keep: bool = True):
        self.files, self.recheck_raw, self.max_bytes = list(files), recheck_raw, max_bytes
        self.cache = OutcomeCache(cache_file if max_bytes is None else None, keep)
        self.problems: list[Problem] = []

    def run(self, then=None, wanted: dict | None = None, gather=None):
        """Yields what gather returned for each batch that then was called for, in the order
        the batches are done."""
        cache, outcomes, wanted = self.cache, {}, (wanted or {}) if then else {}
        keys = [filesig.cache_key(path) for path in self.files]
        cache.prefetch(keys, self.recheck_raw)
        for path, key in zip(self.files, keys):
            outcomes[path] = cache.get(key, self.recheck_raw)
        jobs = [(path, outcomes[path] is None, path in wanted, wanted.get(path)) for path in self.files
                if outcomes[path] is None or (path in wanted and _clean(outcomes[path][0]))]
        work = functools.partial(_check_batch, self.max_bytes, self.recheck_raw, then, gather)
        for batch, (done, gathered, signatures) in parallel.map_batches(work, jobs, preload=stats.PRELOAD):
            filesig.remember(signatures)  # before put, which looks the files' signatures up
            for (path, *_), outcome in zip(batch, done):
                if outcome is not None:
                    found, raws, hw, folders = outcome
                    cache.put(filesig.cache_key(path), found, raws, hw, folders, self.recheck_raw)
                    outcomes[path] = found, hw, folders
            if gathered is not None:
                yield gathered
        cache.save()
        self.outcomes = {path: found for path, (found, _, _) in outcomes.items()}
        self.conflicts = machine_conflicts({path: hw for path, (_, hw, _) in outcomes.items()}) + run_folder_conflicts(
            {path: (_stem(path), folders) for path, (_, _, folders) in outcomes.items() if folders})
        self.problems = [problem for path in self.files for problem in outcomes[path][0]] + self.conflicts


def _clean(problems: list[Problem]) -> bool:
    return not any(p.severity == "error" for p in reviewed(problems))


def _check_batch(max_bytes: int | None, with_raw: bool, then, gather, batch: list) -> tuple:
    """A batch of FileChecks.run, in a worker: (each file's outcome, or None when a clean one
    was cached; what gather made of then's values, or None; the digests of files it read,
    filesig.taken()). gather takes then's values as they are made, one file at a time, so that
    what it keeps of each is all the batch holds of it (not every file's value at once)."""
    filesig.taken()  # from here on: what a forked worker inherited is the parent's already
    done = []

    def values():
        for path, check, go_on, extra in batch:
            if check:
                outcome, read = _read_and_checked(path, max_bytes, with_raw)
                go_on = go_on and read is not None and _clean(outcome[0])
            else:  # a clean outcome kept: the file passed its checks, and is read as such
                raw, document, sig = _read(path, max_bytes)
                outcome, read = None, (raw, resultfile.readable(document), sig)
            done.append(outcome)
            if go_on:
                yield path, extra, then(path, extra, *read)
    made = values()
    gathered = gather(made) if gather else None
    for _ in made:  # the files gather did not take (all of them without it)
        pass
    return done, gathered, filesig.taken()


@lru_cache(maxsize=1)
def _rules_digest() -> str:
    """Changes whenever the rules do: every Python module and schema of the package, and the
    matrix. Not a list of the modules validate reads: one was missed as they grew (adversary
    round 81: importers/measurement.py, fio_options.py and pts.py, results/machines.py edited,
    the cached outcome kept)."""
    digest = hashlib.sha256()
    for path in rules_files():
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def rules_files() -> list:
    """The files _rules_digest reads: every .py and .json under the package, and the matrix."""
    from importlib import resources

    def walk(folder):
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if entry.is_dir():
                yield from walk(entry)
            elif entry.name.endswith((".py", ".json")):
                yield entry
    package = resources.files("fsatlas")
    return [*walk(package), package / flags.MATRIX]


def _raw_signatures(data, path: str) -> list:
    """[[path, _state]] of what beside a result file (data, read from path) its outcome depends
    on: its raw bundle, and raw/<id>, which rule_problems refuses whatever it is (adversary round
    81: a folder made after a clean outcome was kept was not seen, as it is no bundle)."""
    rid = data.get("id") if isinstance(data, dict) else None
    if not isinstance(rid, str) or not resultfile.ID.fullmatch(rid):
        return []
    out_dir = os.path.dirname(os.path.dirname(os.path.abspath(path)))
    places = (bundle.path(out_dir, rid), bundle.folder(out_dir, rid))
    return [[where, _state(where)] for where in map(filesig.cache_key, places)]


def _state(path: str) -> list | bool:
    """What a kept outcome compares of a path it depends on: a regular file's signature (filesig),
    else whether anything is there (signature() is None for a folder or a link, as for nothing)."""
    return signature(path) or os.path.lexists(path)


def _stem(path: str) -> str:
    """The id a result file's name gives it: the name without .json."""
    return os.path.basename(path)[:-5] if path.endswith(".json") else os.path.basename(path)


def named_once(files) -> list:
    """files, each file once however often or however it was named (a folder and a file in it, the
    folder twice, ./x beside an absolute /…/x: adversary round 84, validate refused such a file as
    another holding its id, where compare counts it once), the first spelling kept. The kernel
    says which are one file (os.path.samefile), asked only of names of one id."""
    by_id: dict = {}
    out = []
    for path in files:
        seen = by_id.setdefault(_stem(path), [])
        if not any(_same_file(path, other) for other in seen):
            seen.append(path)
            out.append(path)
    return out


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them gone or unreadable: each is refused where it is read
        return a == b


def duplicate_ids(files) -> list[Problem]:
    """Result ids are unique across all the files checked together (in any folder)."""
    seen, out = {}, []
    for path in files:
        stem = _stem(path)
        if stem in seen:
            out.append(Problem("error", path, "/id", f"expected an id no other result file has, found {stem!r} "
                                                     f"also in {seen[stem]}"))
        seen.setdefault(stem, path)
    return out


def rule_problems(data: dict, path: str, with_raw: bool = True) -> tuple[list[Problem], list[str]]:
    """(the problems of a document in the read form that passed the schema, its run's folders:
    folder_problems)."""
    problems, folders = [], []

    def add(severity, where, message):
        problems.append(Problem(severity, path, where, message))

    stem = _stem(path)
    if data["id"] != stem:
        add("error", "/id", f"expected the file name without .json ({stem!r}), found {data['id']!r}")
    out_dir = os.path.dirname(os.path.dirname(os.path.abspath(path)))
    rid = data["id"]
    # a bundle is read when a cell or the baseline names its members, and whenever it is there: one
    # beside a result whose every cell failed would otherwise be published unread (round 12: its
    # "../../escape.txt", a symlink to /etc/shadow and a device passed)
    members, unreadable = _bundle_members(out_dir, rid, with_raw, any(c["raw"] for c in data["cells"])
                                          or any(bundle.baseline_reports(data["target"]))
                                          or os.path.lexists(bundle.path(out_dir, rid)))
    if unreadable:
        add("error", "", unreadable)
    structure = structure_problems(data, path, errors_only=False)
    problems += structure
    # the cells whose raw references are out of form or place: no member of the bundle is looked up for them
    misplaced = {p.path.split("/")[2] for p in structure if p.path.split("/")[3:4] == ["raw"]}
    memo = {}
    imported_from = data["tool"].get("imported_from")  # select: the formats that may back a cell
    fio_versions = recorded_fio(data)
    for i, cell in enumerate(data["cells"]):
        base = f"/cells/{i}"
        if cell["status"] == "ok" and members is not None and str(i) not in misplaced:
            missing = [(j, raw_reference_problem(rid, raw, members)) for j, raw in enumerate(cell["raw"])]
            problems += [Problem("error", path, f"{base}/raw/{j}", wrong) for j, wrong in missing if wrong]
            if not any(wrong for _, wrong in missing):
                problems += [Problem(sev, path, f"{base}{where}", msg)
                             for sev, where, msg in raw_problems(cell, rid, members, memo, imported_from, fio_versions)]
        # the stored flags against the derived ones, a warning `fsatlas validate` prints; not for the
        # aggregator (with_raw False), which prints no warning but a machine's, and derives the flags it
        # shows itself (aggregate.derive_flags): the flags of a cell derived once (0.9 ms a quick result)
        if cell["status"] == "ok" and with_raw:
            problems += [Problem("warning", path, f"{base}/flags", m) for m in flag_problems(cell, data["target"])]
    if members is not None:
        problems += [Problem("error", path, where, message) for where, message in cell_clock_problems(data, members, memo)]
        problems += [Problem("error", path, where, message) for where, message in imported_run_problems(data, members)]
        problems += [Problem("error", path, where, message) for where, message in report_session_problems(data, members, memo)]
        problems += [Problem("error", path, where, message) for where, message in started_problems(data, members, memo)]
        found, folders = folder_problems(data, members, memo)
        problems += [Problem("error", path, where, message) for where, message in found]
        found, read = baseline_problems(data, members, memo)
        problems += [Problem("error", path, where, message) for where, message in found]
        problems += [Problem("error", path, "", message) for message in unread_members(data, members, read)]
    if os.path.lexists(bundle.folder(out_dir, rid)):
        add("error", "", f"expected the raw output packed in {bundle.relative(rid)}, found the folder raw/{rid}/ "
                         f"(an older layout, or a run that was killed): `fsatlas migrate` packs it")
    return problems, folders


def cell_structure(cell: dict, i: int, seen: dict, folders: dict, path: str, rid: str,
                   imported_from=None) -> list[Problem]:
    """What makes cell i of a document (read form) of the result rid unique and well-formed, as
    structure_problems checks it: a key no cell before it has (seen: key -> index, updated), a
    runner's raw folder no other key's (folders: folder -> (index, key), updated), each metric's
    unit and better (metric_problems), one value a repetition in each column the schema keeps per
    repetition (repetition_problems) and raw references of the form and place their writer gives
    them (raw_form_problems); imported_from: the result's tool.imported_from."""
    out = []
    if cell["key"] in seen:
        out.append(Problem("error", path, f"/cells/{i}/key",
                           f"expected a unique key, found the key of /cells/{seen[cell['key']]}"))
    seen.setdefault(cell["key"], i)
    said = key_problem(cell)
    if said:
        out.append(Problem("error", path, f"/cells/{i}/key", said))
    for name, metric in cell["metrics"].items():
        found = metric_problems(name, metric, summaries_stored=False)  # the read form computed them
        if found:  # seldom: a quick result has 425 metrics
            out += [Problem(s, path, f"/cells/{i}/metrics/{name}{w}", m) for s, w, m in found]
    out += [Problem("error", path, f"/cells/{i}{where}", message) for where, message in repetition_problems(cell)]
    if cell["status"] == "ok":
        out += [Problem("error", path, f"/cells/{i}/raw/{j}", message)
                for j, message in raw_form_problems(cell, rid, imported_from)]
        if imported_from is None and cell["raw"]:
            # a runner's cell owns the folder its key names: two keys raw_dir_name folds into one
            # (ext3 "-O ^dir_index" and "-O @dir_index", #65 round 52) would publish one
            # measurement as two configurations
            folder = resultfile.raw_dir_name(cell["key"])
            other, key = folders.setdefault(folder, (i, cell["key"]))
            if key != cell["key"]:  # (a key named twice is refused as such above)
                out.append(Problem("error", path, f"/cells/{i}/key", f"expected a key whose raw folder ({folder}/) is its "
                                   f"own, found that of /cells/{other} (one measurement named by two cells)"))
    return out


def key_problem(cell: dict) -> str:
    """Why a cell's key does not name what the cell says it measured ("" where it does): its
    filesystem (or an import's "filesystem:variant"), mkfs and mount options and workload, as
    run.matrix.make_key writes them, and no
    variant "defaults" with options (an import's cells are "imported", with none). Pages group cells by key in some places
    and by these fields in others: a btrfs cell relabelled ext4 showed two ext4 seq-write
    figures, and the compare page took the wrong one (#65 round 34)."""
    mkfs, mount = cell.get("mkfs_options") or [], cell.get("mount_options") or []
    named = [cell.get("filesystem"), ",".join(mkfs) or "-", ",".join(mount) or "-", cell.get("workload")]
    parts = str(cell.get("key", "")).split("|")[:4]
    if parts[:1] == [f"{cell.get('filesystem')}:{cell.get('variant')}"]:  # an import's variant: "ext4:imported-fast"
        parts[0] = cell.get("filesystem")
    if parts != named:
        return f"expected a key naming the cell's filesystem, options and workload ({'|'.join(map(str, named))}|…), " \
               f"found {cell.get('key')!r}"
    if cell.get("variant") == "defaults" and (mkfs or mount):
        return f"expected another variant than 'defaults' for a cell with options ({'|'.join(named[1:3])})"
    return ""


PER_REPETITION = ("started", "device_io", "timed_io", "host")  # the cell's fields of one value a repetition


def repetition_problems(cell: dict) -> list[tuple[str, str]]:
    """[(JSON Pointer within the cell, message)]: each field the schema keeps per repetition
    (PER_REPETITION: starts, device and timed counters, host records) holds one value for each of
    the cell's repetitions, as many as each of its metrics has samples (the runner keeps a metric
    and these records only where every repetition gave one: run/execution). Host records for some
    repetitions only would leave the others' contention unknown while a comparison read the
    records it has as the cell's (#60 round 17: one record of nine hid 30 s of others' CPU)."""
    counts = sorted({len(m["samples"]) for m in cell["metrics"].values()})
    if not counts:
        return []
    reps = " or ".join(map(str, counts)) if len(counts) > 1 else str(counts[0])
    return [(f"/{field}", f"expected {reps} values, one a repetition (as many as each metric's samples), "
                          f"found {len(cell[field])}")
            for field in PER_REPETITION if isinstance(cell.get(field), list)
            and (len(counts) > 1 or len(cell[field]) != counts[0])]


def raw_form_problems(cell: dict, rid: str, imported_from) -> list[tuple[int, str]]:
    """[(index, message)] of a measured cell's raw references whose form (raw_reference_problem,
    no bundle read) or place (raw_place_problem) is not the one their writer gives them."""
    out = []
    for j, raw in enumerate(cell["raw"]):
        wrong = raw_reference_problem(rid, raw, None) or raw_place_problem(cell, j, imported_from)
        if wrong:
            out.append((j, wrong))
    return out


def structure_problems(data: dict, path: str, errors_only: bool = True) -> list[Problem]:
    """The errors of validate's rules that need no raw output on disk and no file name (a result
    copied under another name, without its bundle, is still read): a real created time, each
    cell unique and well-formed (cell_structure: its key, its metrics, one value a repetition,
    its raw references' form and place), the reasons and the explorer's index within their
    limits. validate (rule_problems) checks these and then what needs the bundle; `fsatlas
    compare`, `report` and `article new` refuse a file for the first of them, with validate's
    line, beside its schema (resultfile.load_result): one function decides a file's structure
    for both (#60 round 17: compare tested a cell whose raw reference validate refused).
    errors_only=False: with the warnings of the same rules, as validate prints them."""
    out = []
    message = created_problem(data["created"])
    if message:
        out.append(Problem("error", path, "/created", message))
    marks = shares.import_marks(data)
    imported = any(marks.values())
    if imported and len(set(marks.values())) > 1:
        # one mark alone would make a runner's run an import, whose clock compare cannot read (#60 round 21)
        out.append(Problem("error", path, next((k for k, v in marks.items() if v is None), "/id"),
                           "expected an import's id, profile and tool.imported_from to name one format (a run of the "
                           "runner has none of them), found " + ", ".join(f"{k[1:]} {v or 'none'}" for k, v in marks.items())))
    wall, target = data.get("wall_seconds"), data.get("target") or {}
    if not imported and not isinstance(wall, (int, float)):
        # the runner writes it with every save, an interrupted run's too: without it a file's clock
        # has no end (#60 round 26: a cut run's later half dropped it, and its start times)
        out.append(Problem("error", path, "/wall_seconds", "expected the run's wall time, which the runner "
                                                            "records in every file it writes, found none"))
    elif not imported:
        # a run lasts at least as long as its cells took, one after another (each rounded to the
        # millisecond): a cut run's later half claimed a wall time of 0 (#60 round 27), or dropped
        # its cells' times too (round 28). The runner records every cell's time where it measures a
        # raw-device baseline (a run of many clients, in a directory, records none: no baseline to cut)
        measured = any(field in target for field in bundle.BASELINE_FOLDERS)
        for i, cell in enumerate(data["cells"] if measured else ()):
            if cell.get("status") == "ok" and not isinstance(cell.get("wall_seconds"), (int, float)):
                out.append(Problem("error", path, f"/cells/{i}/wall_seconds",
                                   "expected the cell's wall time, which the runner records for every cell it ran, found none"))
        cells = [c["wall_seconds"] for c in data["cells"] if isinstance(c.get("wall_seconds"), (int, float))]
        if wall + 0.001 * (len(cells) + 1) < sum(cells):
            out.append(Problem("error", path, "/wall_seconds",
                               f"expected the run's wall time to be at least the {sum(cells):,.3f} s its cells took "
                               f"(their wall_seconds, one after another), found {wall:,.3f}"))
    if not imported:
        out += [Problem("error", path, where, message) for where, message in session_structure(data)]
    elif "sessions" in data:
        out.append(Problem("error", path, "/sessions", "expected no sessions in an import (only `fsatlas run` "
                                                        "records when it ran), found them"))
    if imported:
        # what only the runner measures: fsatlas import writes none of it, and validate recomputes
        # the raw device's figures from the runner's own reports (#60 round 27: a cut run's later
        # half named an import, whose clock compare cannot read, kept a baseline of the run's)
        for field in (*bundle.BASELINE_FOLDERS, "baseline_written"):
            if field in target:
                out.append(Problem("error", path, resultfile.pointer(["target", field]),
                                   "expected no raw-device baseline in an import (only `fsatlas run` measures one), found one"))
        for i, cell in enumerate(data["cells"]):
            for field in ("wall_seconds", *PER_REPETITION):
                if field in cell:
                    out.append(Problem("error", path, resultfile.pointer(["cells", i, field]),
                                       f"expected no {field} in an import's cell (only `fsatlas run` records it), found it"))
    # the runner measures baseline_after's jobs again after the filesystems, each one its baseline
    # measured first: a later half of a cut run held the run's baseline_after alone (#60 round 24)
    for job in sorted((target.get("baseline_after") or {}).keys() - (target.get("baseline") or {}).keys()):
        out.append(Problem("error", path, resultfile.pointer(["target", "baseline_after", job]),
                           "expected a job of target.baseline measured again after the filesystems, found one "
                           "the baseline lacks"))
    seen, folders = {}, {}
    imported_from = data["tool"].get("imported_from")
    for i, cell in enumerate(data["cells"]):
        out += [p for p in cell_structure(cell, i, seen, folders, path, data["id"], imported_from)
                if p.severity == "error" or not errors_only]
    reasons = sum(len(cell.get("reason", "")) for cell in data["cells"])
    if reasons > MAX_REASONS_CHARS:
        out.append(Problem("error", path, "/cells", f"expected the cells' reasons to add up to at most "
                                                    f"{MAX_REASONS_CHARS:,} characters (every filesystem page and "
                                                    f"the explorer show them), found {reasons:,}"))
    share = shares.index_share(data)
    if share > shares.MAX_INDEX_SHARE:
        out.append(Problem("error", path, "/cells", f"expected this file to add at most {shares.MAX_INDEX_SHARE:,} bytes "
                                                    f"to the explorer's index, which every visitor loads, found {share:,}: "
                                                    f"its strings and the names of its filesystems, workloads and variants "
                                                    f"(split the file, or name fewer workloads: `fsatlas import --workload "
                                                    f"NAME` gives every cell one)"))
    return out


def session_structure(result: dict) -> list[tuple[str, str]]:
    """[(JSON Pointer, message)] where a runner's file and its recorded sessions disagree: they run
    one after another, add up to its wall time (each rounded to the millisecond), and every
    repetition started within one. A file that records none may not show a pause (a repetition
    that started more than shares.PAUSE_SLACK past its wall time): where a resumed run paused is
    recorded, not guessed (#60 round 30: a cut run's earlier half, its wall time cut short, was
    read as paused where its later half ran)."""
    wall, parts = result.get("wall_seconds"), shares.clock_parts(result)
    if parts is None or not isinstance(wall, (int, float)) or not math.isfinite(wall):
        return []  # created or the wall time is refused on its own
    # read only where shares.sessions reads them (a list of numbers): a malformed one is the schema's to refuse
    spans = shares.sessions(result, parts[0])
    recorded = result["sessions"] if spans else []
    if not recorded and result.get("sessions"):
        return []
    # no clock runs into the future (#60 round 38: a session or a wall time of 10^12 s ran past any later run)
    latest = (dt.datetime.now(dt.timezone.utc) + CLOCK_SKEW).timestamp()
    ends = [e for _, e in spans] or [parts[0] + parts[1]]
    if max(ends) > latest:
        where = "/sessions" if recorded else "/wall_seconds"
        shown = _at(max(ends)) if max(ends) < LAST_SECOND else "after the year 9999"
        return [(where, f"expected the run to have ended by {_at(latest)} (now, and the skew a clock may have), found "
                        f"its clock running to {shown}")]
    if not recorded:
        if parts[2]:
            last = parts[3][-1] - parts[0]
            return [("/sessions", f"expected the sessions of a run whose last repetition started "
                                  f"{last:,.3f} s after created, past its wall time of {wall:,.3f} s (a resumed run "
                                  f"records where it paused), found none")]
        return []
    out, end = [], 0.0
    for i, session in enumerate(recorded):
        if session["began"] + 0.001 < end:
            out.append((f"/sessions/{i}/began", f"expected a session to begin after the one before it ended "
                                                f"({end:,.3f} s after created), found {session['began']:,.3f}"))
        end = session["began"] + session["seconds"]
    total = sum(session["seconds"] for session in recorded)
    if round(abs(total - wall) * 1000) > len(recorded) + 1:  # milliseconds: each figure rounded to one
        out.append(("/sessions", f"expected the sessions to add up to the wall time, {wall:,.3f} s, found {total:,.3f}"))
    for i, cell in enumerate(result["cells"]):
        for j, t in enumerate(cell.get("started") or () if cell.get("status") == "ok" else ()):
            if not any(s["began"] - 0.001 <= t <= s["began"] + s["seconds"] + 0.001 for s in recorded):
                out.append((f"/cells/{i}/started/{j}", f"expected a repetition to start within one of the run's "
                                                       f"sessions, found one at {t:,.3f} s after created, outside them"))
                break
    return out


def baseline_problems(result: dict, members: dict, memo: dict) -> tuple[list[tuple], set]:
    """([(JSON Pointer, message)], the members read) for the raw device's figures: each job of
    target.baseline and baseline_after recomputed from fio's reports of its repetitions
    (bundle.baseline_member), as a cell's figures are: they decide a cell's cached flag and its
    share of the device, so no figure of them may stand without its report. The fill record
    beside them is read too: fio's report, screened for private text like every member."""
    rid, target, out, read = result["id"], result["target"], [], set()
    bounds = _clock_bounds(result, members, memo) if any(bundle.baseline_reports(target)) else None
    for field, job, names in bundle.baseline_reports(target):
        where = resultfile.pointer(["target", field, job])
        read.update(name for name in names if name in members)
        missing = [name for name in names if name not in members]
        if missing:
            out.append((where, f"expected the raw device's figures recomputed from fio's report "
                               f"{missing[0]} in {bundle.relative(rid)}, found no such member"))
            continue
        not_fio = [name for name in names if _fio_problem(name, rid, members, memo)]
        if not_fio:
            out.append((where, _fio_problem(not_fio[0], rid, members, memo)))
            continue
        off = _off_the_clock(field, names, rid, members, memo, bounds)
        if off:
            out.append((where, off))
            continue
        job_cell = {"workload": job.split("|")[0], "parameters": {}, "metrics": target[field][job],
                    "raw": [f"raw/{rid}/{name}" for name in names]}
        for _, sub, message in raw_problems(job_cell, rid, members, memo, fio_versions=recorded_fio(result)):
            out.append((where + (sub[len("/metrics"):] if sub.startswith("/metrics/") else ""), message))
    for field in bundle.BASELINE_FOLDERS:
        fill = f"{field}/{bundle.FILL_MEMBER}"
        if fill in members:
            read.add(fill)
            where = resultfile.pointer(["target", field]) if field in target else ""
            problem = _fio_problem(fill, rid, members, memo)  # (read into memo, with its privacy finding)
            private = memo[fill][0] and f"{PRIVATE}raw/{rid}/{fill}: {memo[fill][0]}; raw output is published"
            off = not problem and _off_the_clock(field, [fill], rid, members, memo, bounds)
            out += [(where, message) for message in (problem, private, off) if message]
    return out, read


# a run's clock and fio's are the machine's one clock; created is cut to whole seconds and fio's
# timestamp is too, so this allows for a step of the clock alone (before created only)
CLOCK_SLACK_S = 2


# fio's timestamp (whole seconds since the epoch, UTC: when it wrote the report), read from the
# parse _read_member makes of a report once for its privacy screen: every "timestamp" key in it,
# wherever it stands (#60 round 26: one moved to the report's end was missed by a reader of its
# head; round 27: one spelled with a JSON escape, by a reader of its bytes). A fraction, a string or
# any other value is none.
def _timestamps(document, text: str | None = None) -> frozenset:
    """The whole-second values of every "timestamp" key in a parsed JSON report, at any depth
    (fio writes one, at the top). text: the report's text, where a key can be spelled only as
    written (no \\u escape in it) and is written once: then the top's alone, without the walk
    (7 µs of the 190 a small report takes to validate)."""
    if text is not None and "\\u" not in text and text.count('"timestamp"') == 1 and isinstance(document, dict) \
            and "timestamp" in document:
        value = document["timestamp"]
        return frozenset([value] if isinstance(value, int) and not isinstance(value, bool) else [])
    found, todo = set(), [document]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            value = node.get("timestamp")
            if isinstance(value, int) and not isinstance(value, bool):
                found.add(value)
            todo.extend(v for v in node.values() if isinstance(v, (dict, list)))
        elif isinstance(node, list):
            todo.extend(v for v in node if isinstance(v, (dict, list)))
    return frozenset(found)


def _fio_stamps(name: str, raw: str, members: dict, memo: dict) -> frozenset | None:
    """fio's timestamps in a bundle member (name; raw: its address, raw/<id>/<name>), read once
    into memo by the one reader of every member; None for a member that is no report of fio's,
    as its parse tells (round 27: one whose "fio version" key was spelled with an escape was
    passed over by a look at its bytes)."""
    report = _fio_report(name, raw, members, memo)
    return report.stamps if report is not None else None


def _fio_report(name: str, raw: str, members: dict, memo: dict):
    """The parse of a bundle member that is a report of fio's (read once into memo), or None."""
    if name not in memo:
        memo[name] = _read_member(members[name], raw, memo)
    parsed = memo[name][1]
    return parsed[1] if parsed is not None and parsed[0] is importers.fio else None


LAST_SECOND = 253402300799  # 9999-12-31T23:59:59Z, the last second a date prints


# how far fio's millisecond clock and the runner's may disagree on one machine (fio reads
# gettimeofday as the runner's time.time does; the runner rounds a session to the millisecond)
SESSION_SLACK_S = 0.25


def report_session_problems(result: dict, members: dict, memo: dict) -> list[tuple[str, str]]:
    """[(JSON Pointer, message)] of a runner's file recording sessions whose fio reports (its cells',
    its raw-device baseline's and fill's) did not run within one of them, to SESSION_SLACK_S: from
    when its jobs began (fio_json.report_span) to when fio wrote it. A cut run's halves, each given
    sessions around its own repetitions, held reports fio ran in the other's (#60 round 30)."""
    created = shares.clock_parts(result)
    spans = shares.sessions(result, created[0]) if created and not any(shares.import_marks(result).values()) else []
    if not spans:
        return []
    rid, out = result["id"], []
    reports = [(where, ref, bundle.member_of(rid, ref)) for where, ref, _ in _cell_reports(result, members, memo)]
    for field, job, names in bundle.baseline_reports(result["target"]):
        reports += [(resultfile.pointer(["target", field, job]), f"raw/{rid}/{n}", n) for n in names]
    reports += [(resultfile.pointer(["target", field]), f"raw/{rid}/{field}/{bundle.FILL_MEMBER}",
                 f"{field}/{bundle.FILL_MEMBER}") for field in bundle.BASELINE_FOLDERS]
    said = set()
    for where, ref, name in reports:
        report = _fio_report(name, ref, members, memo) if name in members else None
        if report is None or where in said:
            continue  # no such member, or not fio's: refused at its reference
        span = report.span
        if span is None:
            out.append((where, f"expected fio's timestamp_ms and its jobs' runtimes in {ref} (fio writes both: when "
                               f"its jobs ran), found one of them missing"))
        elif not any(start - SESSION_SLACK_S <= span[0] and span[1] <= end + SESSION_SLACK_S for start, end in spans):
            out.append((where, f"expected fio's report {ref} run within one of the run's sessions, found it run from "
                               f"{_at_ms(span[0])} to {_at_ms(span[1])}, outside them"))
        else:
            continue
        said.add(where)
    return out


def started_problems(result: dict, members: dict, memo: dict) -> list[tuple[str, str]]:
    """[(JSON Pointer, message)] of a runner's fio cell whose repetitions' `started` are not when
    its reports ran: repetition j's jobs ran (fio_json.report_span) after its start and before the
    cell's next repetition started, to SESSION_SLACK_S. The start times decide whether two cells
    ran in interleaved rounds, and so the paired test (#60 round 58: start times edited to
    alternate chose it for cells that ran one after the other). An import's cells ran in no
    rounds, whatever they carry (comparison.interleaved)."""
    clock = shares.clock_parts(result)
    if clock is None or any(shares.import_marks(result).values()):
        return []
    began, rid, out = clock[0], result["id"], []
    for i, cell in enumerate(result["cells"]):
        starts = cell.get("started") or []
        # a cell's repetitions run one after another, whatever records them (round 62: a runner's
        # own record, mail-delivery's, took a start edited before the previous one's)
        back = next((j for j in range(1, len(starts)) if not starts[j] > starts[j - 1]), None)
        if back is not None:
            out.append((f"/cells/{i}/started/{back}", f"expected repetition {back + 1} to start after repetition "
                                                      f"{back} ({starts[back - 1]} s), found {starts[back]} s"))
            continue
        if cell.get("status") != "ok" or len(starts) != len(cell.get("raw") or []):
            continue  # a count that differs is refused by structure_problems
        for j, ref in enumerate(cell["raw"]):
            name = bundle.member_of(rid, ref) if isinstance(ref, str) else None
            report = _fio_report(name, ref, members, memo) if name in members else None
            if report is None or report.span is None:
                continue  # not fio's, or no span: refused where its report is read
            first, last = report.span
            opened = began + starts[j]
            following = began + starts[j + 1] if j + 1 < len(starts) else None
            if first < opened - SESSION_SLACK_S or following is not None and last > following + SESSION_SLACK_S:
                out.append((f"/cells/{i}/started/{j}",
                            f"expected repetition {j + 1}'s fio jobs ({ref}) to run after it started "
                            f"({_at_ms(opened)})" + (f" and before the next began ({_at_ms(following)})" if following else "")
                            + f", found them run from {_at_ms(first)} to {_at_ms(last)}"))
                break
    return out


def _at_ms(t: float) -> str:
    """A time in seconds since the epoch to the millisecond, in UTC (as _at where no calendar holds it)."""
    try:
        return f"{dt.datetime.fromtimestamp(t, dt.timezone.utc):%Y-%m-%dT%H:%M:%S.%f}"[:-3] + "Z"
    except (OverflowError, ValueError, OSError):
        return _at(t)


def _clock_bounds(result: dict, members: dict, memo: dict) -> tuple[float, float | None, float | None] | None:
    """(when the run began, the latest its baseline may have been written or None, when every
    report of the run was written by or None: shares.written_by), in seconds since the epoch, or
    None when created is no time (structure_problems refuses it). The baseline is measured before
    any repetition: before the first one's start (created plus the least of the ok cells'
    `started`) and before fio wrote the first cell report (any timestamp one holds: a report
    written twice over bounds it by its earlier time) (#60 round 25: the later half of a cut run,
    its start times removed, held the run's baseline_after as its baseline)."""
    clock = shares.clock_parts(result)
    if clock is None:
        return None
    began, _, _, starts = clock
    bounds = starts[:1] + [t for _, _, stamps in _cell_reports(result, members, memo) for t in stamps]
    return began, (min(bounds) if bounds else None), shares.written_by(result)


def _cell_reports(result: dict, members: dict, memo: dict):
    """(JSON Pointer, raw reference, fio's timestamps) of each report of fio's that the result's ok
    cells name and its bundle holds."""
    rid = result["id"]
    for i, cell in enumerate(result["cells"]):
        for j, ref in enumerate(cell.get("raw") or [] if cell.get("status") == "ok" else []):
            name = bundle.member_of(rid, ref) if isinstance(ref, str) else None
            stamps = _fio_stamps(name, ref, members, memo) if name in members else None
            if stamps is not None:  # else no member (refused at its reference), or no report of fio's
                yield f"/cells/{i}/raw/{j}", ref, stamps


def folder_problems(result: dict, members: dict, memo: dict) -> tuple[list[tuple[str, str]], list[str]]:
    """([(JSON Pointer, message)] of a runner's fio cell whose repetition n's report ran a job
    anywhere but in the folder the runner makes for repetition n on the filesystem under test,
    <folder>/rep-n (CellRun._attempt, _runners_folder); the run's folders, sorted: each <folder>,
    one a variant, which no other run's reports name (run_folder_conflicts)). A run cut between
    two repetitions, its later half renumbered from 1 and given its own id, held reports run in
    rep-5 as its rep-1 (adversary round 81, finding 2). An import's reports ran wherever its tool
    was pointed, and fio's client mode in the folder the user named: neither is held to it."""
    if any(shares.import_marks(result).values()):
        return [], []
    rid, out, folders = result["id"], [], set()
    for i, cell in enumerate(result["cells"]):
        if cell.get("status") != "ok" or cell.get("clients"):
            continue
        for j, ref in enumerate(cell.get("raw") or []):
            name = bundle.member_of(rid, ref) if isinstance(ref, str) else None
            report = _fio_report(name, ref, members, memo) if name in members else None
            if report is None or report.folders is None:
                continue  # not fio's (or fio's client mode): refused where its report is read
            wrong = [f for f in report.folders if not _runners_folder(f, j + 1)]
            if wrong:
                found = "a job naming no directory" if wrong[0] is None else repr(wrong[0])
                out.append((f"/cells/{i}/raw/{j}", f"expected fio's jobs in {ref} run in the folder of repetition "
                                                   f"{j + 1}, one directory as the runner writes it (<folder>/rep-{j + 1}), "
                                                   f"found {found}"))
                break
            folders.update(posixpath.dirname(f) for f in report.folders)
    return out, sorted(folders)


def _runners_folder(directory, rep: int) -> bool:
    """Whether fio's `directory` is the folder of repetition rep as the runner writes it: one folder
    (no ':', which makes fio's list of them), absolute (the runner's scratch and --directory are),
    spelled once (as normpath leaves it: no a//b, a/./b, a/.., a trailing slash or a leading //)
    and named rep-<rep>. Another spelling of the run's folder made it another run's to
    run_folder_conflicts (adversary round 82: a leading / added to a moved report, a list
    "/tmp:<folder>/rep-1")."""
    return isinstance(directory, str) and directory.startswith("/") and not directory.startswith("//") \
        and ":" not in directory and posixpath.normpath(directory) == directory \
        and posixpath.basename(directory) == f"rep-{rep}"


def run_folder_conflicts(folders: dict) -> list[Problem]:
    """An error on each runner result whose fio reports ran in a folder another result's reports
    name (folders: {path: (its id, its run's folders, folder_problems)}): the runner makes its
    folders anew each run (leftovers.owned_dir, a random name), so two files sharing one hold
    one run, cut in two (adversary round 81, finding 2: each half renumbered and clocked on its
    own passed every other check, and compare counted two runs). A file named twice, or two
    files of one id, are one run by their id (duplicate_ids and one_id judge those)."""
    users: dict = {}
    for path, (rid, held) in sorted(folders.items()):
        for folder in held:
            users.setdefault(folder, []).append((path, rid))
    out = []  # each of the files is refused, whatever their names sort as: both are the cut run's
    for path, (rid, held) in sorted(folders.items()):
        other = next(((folder, there) for folder in held for there, theirs in users[folder] if theirs != rid), None)
        if other:
            folder, there = other
            out.append(Problem("error", path, "/id", f"expected a run's own folders on the filesystem under test, "
                                                     f"found fio's reports run in {folder}, as {there}'s were: one "
                                                     f"run in two files, not two runs"))
    return out


def cell_clock_problems(result: dict, members: dict, memo: dict) -> list[tuple[str, str]]:
    """[(JSON Pointer, message)] of a runner's file whose cells' fio reports are not on its clock:
    the runner's fio writes each report one whole-second timestamp (#60 round 28: one written as
    a float or a string gave no clock), by the end of the run's clock (_late: a cut run's later
    half claimed an earlier start), and after the run began (created, to CLOCK_SLACK_S: a run
    split into two files, the later half created a day later and without start times or a
    baseline to hold it, was compared as two runs). An import's reports are what its tool wrote,
    whenever."""
    clock = shares.clock_parts(result)
    if clock is None or any(shares.import_marks(result).values()):
        return []
    began, by, out = clock[0], shares.written_by(result), []
    for where, ref, stamps in _cell_reports(result, members, memo):
        if len(stamps) != 1:
            out.append((where, f"expected fio's timestamp of when it wrote {ref}, one whole second, "
                               f"found {', '.join(map(str, sorted(stamps)[:2])) or 'none'}"))
        elif min(stamps) < began - CLOCK_SLACK_S:
            out.append((where, f"expected fio's report {ref} written after the run began ({_at(began)}: its "
                               f"created time), found it written at {_at(min(stamps))}"))
        elif late := _late(max(stamps), by, ref):
            out.append((where, late))
    return out


# the formats whose cells record each output's own time and tool version (import_.cell_records'
# provenance); PTS states them once a system, in the result's system and tool
PROVENANCE_FORMATS = ("fio", "iozone", "bonnie", "dd")


def output_provenance(module, text: str, where: str) -> dict:
    """What an imported output states of itself, as the import records it for each of its cells
    (imported_runs): {"measured": its own time, "tool": its tool's version}, each where it states one."""
    when = getattr(module, "measured", lambda *_: None)(text, where)
    version = module.tool_version(text)
    return {**({"measured": when} if when else {}), **({"tool": version[:200]} if version else {})}


def earliest(provenance) -> dict | None:
    """A result's measured: the earliest time its outputs state (output_provenance), or None."""
    times = [m["measured"] for m in provenance if "measured" in m]
    return min(times, key=lambda m: m["time"]) if times else None


def imported_run_problems(result: dict, members: dict) -> list[tuple[str, str]]:
    """[(JSON Pointer, message)] where an import's self-written provenance is not what its raw
    outputs state: each ok cell's imported_runs (one entry a raw file: its time and tool version)
    and the result's measured, the earliest of them. The import writes both from the outputs;
    an edited or deleted one (#65 round 60: a time moved a day, a tool version changed, the list
    removed) is refused as an edited figure is."""
    fmt = result["tool"].get("imported_from")
    if fmt not in PROVENANCE_FORMATS:
        return []
    module, stated, out = importers.FORMATS[fmt], {}, []
    for i, cell in enumerate(result["cells"]):
        if cell["status"] != "ok" or not cell["raw"]:
            continue
        expected = []
        for raw in cell["raw"]:
            name = bundle.member_of(result["id"], raw)
            if name not in stated:
                try:
                    stated[name] = output_provenance(module, importers.text_of(members[name], raw), raw)
                except (UserError, KeyError):
                    stated[name] = None  # unreadable or missing: raw_problems says so
            if stated[name] is None:
                break
            expected.append({"raw": raw, **stated[name]})
        else:
            if cell.get("imported_runs") != expected:
                out.append((f"/cells/{i}/imported_runs", f"expected what its raw outputs state of themselves, "
                            f"{_json(expected)}, found {_json(cell.get('imported_runs'))}"))
    if None not in stated.values() and result.get("measured") != earliest(stated.values()):
        out.append(("/measured", f"expected the earliest time its raw outputs state, {_json(earliest(stated.values()))}, "
                                 f"found {_json(result.get('measured'))}"))
    return out


def _canonical(value) -> str:
    """value as JSON, keys sorted: 0, 0.0 and false apart, as they are in a file."""
    return json.dumps(value, sort_keys=True)


def _json(value) -> str:
    """_canonical(value) cut at 300 characters, for a message."""
    text = _canonical(value)
    return text if len(text) <= 300 else text[:300] + "..."


def _at(t: float) -> str:
    """A time in seconds since the epoch as the messages print it (UTC, to the second); one no
    calendar holds as its seconds (#60 round 42: fio's timestamp of 10^15 s failed the message)."""
    try:
        return f"{dt.datetime.fromtimestamp(t, dt.timezone.utc):%Y-%m-%dT%H:%M:%S}Z"
    except (OverflowError, ValueError, OSError):
        return f"{t:.0f} s after 1970"


def _late(written: float, by: float | None, where: str) -> str | None:
    """Why fio's report at where, written at `written`, is not of a run whose every report was
    written by `by` (shares.written_by), or None."""
    if by is None or written <= by:
        return None
    return (f"expected fio's report {where} written within the run's clock (by {_at(by)}: its created time, its "
            f"wall time and {shares.PAUSE_SLACK:.0f} s, its start times showing no pause), found it written at {_at(written)}")


def _off_the_clock(field: str, names: list, rid: str, members: dict, memo: dict, bounds) -> str | None:
    """Why a raw-device report (a job's, or the fill record's) cannot be this run's, by fio's own
    timestamp (when it wrote the report, in UTC), or None; bounds: _clock_bounds(). A run
    measures its raw device after it begins (created), and its baseline before its first
    repetition: one run cut into two files, the later half claiming a later start, held reports
    of the earlier half's baseline in its baseline or baseline_after, or the run's baseline_after
    as its baseline (#60 rounds 23 to 25); and every report by the end of the run's clock (_late).
    baseline_after has no upper bound but that: a resumed run may have measured it in an earlier
    session than some repetitions. The runner's fio always writes the timestamp: a report whose
    timestamp is missing, written twice or no time is refused, not passed over."""
    if bounds is None:
        return None
    began, latest, by = bounds
    for name in names:
        where = f"raw/{rid}/{name}"
        found = sorted(_fio_stamps(name, where, members, memo) or ())
        # a time a tool could have written (importers' EARLIEST), and no later than a created time
        # may be: the writer's clock may run ahead of this one's
        latest_possible = (dt.datetime.now(dt.timezone.utc) + CLOCK_SKEW).timestamp()
        if len(found) != 1 or not EARLIEST.timestamp() <= found[0] <= latest_possible:
            said = ", ".join(map(str, found[:2])) or "none"
            return f"expected fio's timestamp of when it wrote the raw device's report {where}, one time, found {said}"
        written = found[0]
        if written < began - CLOCK_SLACK_S:
            return (f"expected the raw device measured after the run began ({_at(began)}), "
                    f"found fio's report {where} written at {_at(written)}")
        # no slack here: fio's seconds and a report's are cut from one clock the same way, and the
        # baseline ended before any repetition began (a tiny run's later half was within 2 s)
        if field == "baseline" and latest is not None and written > latest:
            return (f"expected the raw device's baseline measured before the run's first repetition "
                    f"({_at(latest)}), found fio's report {where} written at {_at(written)}")
        if late := _late(written, by, where):
            return late
    return None


def _fio_problem(name: str, rid: str, members: dict, memo: dict) -> str | None:
    """Why a baseline member (a job's report, or the fill record) is not fio's JSON report, or
    None. It is read into memo as raw_problems reads a cell's raw file, privacy finding and all."""
    if name not in memo:
        memo[name] = _read_member(members[name], f"raw/{rid}/{name}", memo)
    _, parsed, error = memo[name]
    if error is None and parsed[0] is importers.fio:
        return None
    return f"expected fio's JSON report of the raw device's job in raw/{rid}/{name}, found " + \
        (error or "the output of another tool or one of fsatlas's own raw files")


MAX_LISTED_MEMBERS = 5


def unread_members(result: dict, members: dict, read: set) -> list[str]:
    """Why members of the bundle that no check reads may not be published: every member is a
    measured cell's raw output (recomputed, screened) or the raw device's (baseline_problems);
    anything else (a file no figure comes from) would reach readers unread."""
    rid = result["id"]
    named = {bundle.member_of(rid, raw) for cell in result["cells"] if cell["status"] == "ok" for raw in cell["raw"]}
    unread = sorted(set(members) - named - read)
    if not unread:
        return []
    listed = ", ".join(repr(name[:200]) for name in unread[:MAX_LISTED_MEMBERS])
    more = f" and {len(unread) - MAX_LISTED_MEMBERS} more" if len(unread) > MAX_LISTED_MEMBERS else ""
    return [f"expected every member of {bundle.relative(rid)} to be read before it is published (a measured cell's "
            f"raw output, or the raw device's baseline reports), found {len(unread)} that none reads: {listed}{more}"]


def _bundle_members(out_dir: str, rid: str, with_raw: bool, needed: bool) -> tuple[dict | None, str | None]:
    """(the bundle's members, or None when they are not read; why the bundle cannot be used)."""
    if not needed:
        return None, None
    if not with_raw:
        st = signature(bundle.path(out_dir, rid))
        return None, None if st else f"expected the raw output bundle {bundle.relative(rid)}, found none"
    try:
        return bundle.read(out_dir, rid), None
    except UserError as e:  # where: the bundle, and the member when one is at fault
        return None, str(e)


def flag_problems(cell: dict, target: dict) -> list[str]:
    """Where the stored noisy/cached flags differ from what results/flags derives (`fsatlas
    migrate` writes the derived ones into the file)."""
    derived = set(flags.derive(cell, target)) & set(flags.DERIVED)
    stored = set(cell["flags"]) & set(flags.DERIVED)
    if derived == stored:
        return []
    return [f"expected the flags the samples give ({', '.join(sorted(derived)) or 'none'}), found "
            f"{', '.join(sorted(stored)) or 'none'}: the site shows the derived ones (`fsatlas migrate` stores them)"]


def raw_reference_problem(rid: str, raw: str, members: dict | None) -> str | None:
    """Why a cell's raw reference does not name a member of raw/<id>.tar.gz (raw/<id>/x names
    the member x), or None; with members None only its shape is checked."""
    parts = raw.split("/")
    if parts[:2] != ["raw", rid] or len(parts) < 3 or any(p in ("", ".", "..") for p in parts):
        return f"expected raw/{rid}/…, a member of {bundle.relative(rid)}, found {raw}"
    if members is not None and bundle.member_of(rid, raw) not in members:
        return f"expected {bundle.member_of(rid, raw)} in {bundle.relative(rid)}, found no such member"
    return None


IMPORTED_MEMBER = re.compile(r"\d{3,}-[A-Za-z0-9._-]+")  # commands/import_._member: input file n, its name made safe


def raw_place_problem(cell: dict, j: int, imported_from) -> str | None:
    """Why a cell's raw reference number j (of a well-formed reference) is not where its
    writer puts that cell's output, or None: each repetition is its own member (one named twice
    would make one measurement n of them), and a runner's member is in the folder of its cell's
    key (resultfile.raw_dir_name, as run/execution and run/clients write it: an xfs cell cannot name
    ext4's reports); an import's are its input files, one member each at the bundle's top level
    (import_._member), which every cell measured in that file names."""
    raw = cell["raw"][j]
    if raw in cell["raw"][:j]:
        return f"expected each repetition's own raw file, found {raw} again (/raw/{cell['raw'].index(raw)})"
    folder, _, name = raw.split("/", 2)[2].rpartition("/")
    if imported_from is not None:
        if folder or not IMPORTED_MEMBER.fullmatch(name):
            return f"expected an imported input file at the top of the bundle (NNN-name), found {raw}"
    elif folder != resultfile.raw_dir_name(cell["key"]):
        return (f"expected a member of the folder of this cell's key ({resultfile.raw_dir_name(cell['key'])}/), "
                f"found {raw}")
    elif not re.fullmatch(rf"rep-{j + 1}\.[a-z0-9]{{1,10}}", name):
        # repetition n's file is rep-n, as the runner names it: references in another order would
        # pair a repetition's figures with another's output (#65 round 52)
        return f"expected repetition {j + 1}'s file, rep-{j + 1}.<suffix>, found {raw}"
    return None


# What one result may add to the pages every visitor loads (the filesystem pages and the
# explorer list each cell's reason): the committed standard results' reasons add up to 9,438
# characters at most; 5,000 cells of 2,600 characters each made /filesystems/ext2/ 15 MB (#42).
MAX_REASONS_CHARS = 100_000

# The oldest `created` a result may carry: the project's first result (a date far in the past
# would make a file the "oldest" of every cell), and how far ahead of this clock one may be.
EARLIEST_CREATED = dt.datetime(2026, 11, 23, tzinfo=dt.timezone.utc)
CLOCK_SKEW = dt.timedelta(hours=1)


def limits() -> dict:
    """What a result file may hold at most, as the contribute page lists it: from the schema and
    the checks here, so the page can never say other than what is enforced."""
    defs = resultfile.schema()["$defs"]
    top = resultfile.schema()["properties"]
    return {"file_bytes": resultfile.MAX_FILE_BYTES, "cells": top["cells"]["maxItems"],
            "key_chars": defs["cell"]["properties"]["key"]["maxLength"],
            "notes_chars": top["notes"]["maxLength"], "raw_bytes": bundle.MAX_MEMBER_BYTES,
            "text_bytes": importers.MAX_TEXT_BYTES, "text_total_bytes": importers.MAX_TEXT_TOTAL,
            "bundle_bytes": bundle.MAX_TOTAL_BYTES, "bundle_members": bundle.MAX_MEMBERS, "reasons_chars": MAX_REASONS_CHARS,
            "index_share_bytes": shares.MAX_INDEX_SHARE, "reason_shared_chars": shares.REASON_SHARED_CHARS,
            "max_number": resultfile.MAX_NUMBER, "max_integer": resultfile.MAX_INT,
            "earliest_created": f"{EARLIEST_CREATED:%Y-%m-%d}", "clock_skew_minutes": int(CLOCK_SKEW.total_seconds() // 60),
            "patterns": {"id": top["id"]["pattern"], "profile": top["profile"]["pattern"],
                         "key": defs["cell"]["properties"]["key"]["pattern"],
                         "option": defs["options"]["items"]["pattern"]}}


def created_problem(created: str) -> str | None:
    try:
        when = dt.datetime.fromisoformat(created.replace("Z", "+00:00"))
    except ValueError as e:
        return f"expected a real date and time (UTC), found {created!r} ({e})"
    if when < EARLIEST_CREATED:
        return f"expected a date no earlier than the project's first result ({EARLIEST_CREATED:%Y-%m-%d}), found {created}"
    if when > dt.datetime.now(dt.timezone.utc) + CLOCK_SKEW:
        return f"expected a date not in the future (beyond {CLOCK_SKEW} of clock skew), found {created}"
    return None


# The CPU shares the runner's own records keep under "cpu" (fio's JSON has its own). No metric
# is taken on trust beside its raw output: dd's text holds no CPU figures, so a dd cell carries
# none (the runner measured them around dd until issue #61 and recorded them nowhere raw).
RECORD_CPU = tuple(metrics.CPU)


@lru_cache(maxsize=1)
def workload_kinds() -> dict[str, str]:
    """{workload: kind} of the project's matrix: which of the runner's own records (RUNNER_KINDS)
    may back a cell is its workload's kind there, never a field the result file writes (a
    workload the matrix lacks is backed by a tool's output only)."""
    return {name: wl["kind"] for name, wl in flags.matrix_workloads().items()}


# The runner's own records (run/workloads/): the kind each is written by, and the metrics it gives.
RUNNER_KINDS = {"maildelivery": "mail-delivery's", "sqlitecommits": "sqlite-commits'",
                "smallfiles": "the small-files", "treecopy": "the tree-copy", "lifecycle": "the mkfs/mount time"}
RATE_KINDS = {"deliveries_per_s": "maildelivery", "commits_per_s": "sqlitecommits"}


def _number(x) -> bool:
    """A JSON number within resultfile.MAX_NUMBER: compared, not converted, so a 400-digit
    integer is refused rather than overflowing float()."""
    return isinstance(x, (int, float)) and not isinstance(x, bool) and -resultfile.MAX_NUMBER <= x <= resultfile.MAX_NUMBER


def _positive(x) -> bool:
    return _number(x) and x > 0


def _runner_record(data) -> tuple[str, dict, dict] | None:
    """(kind, figures, parameters) of one of the runner's own raw records (durability.py,
    smallfiles.py, treecopy.py, lifecycle.py write them), each recognized by its whole shape, its
    CPU shares among its figures, and the cell parameters it ran with (compared with the cell's,
    as a tool's measurement is); None for anything else."""
    if not isinstance(data, dict):
        return None
    tree = data.get("tree") if isinstance(data.get("tree"), dict) else None
    if data.get("rate") in RATE_KINDS and _positive(data.get("count")) and _positive(data.get("seconds")):
        kind, found = RATE_KINDS[data["rate"]], {data["rate"]: data["count"] / data["seconds"]}
        params = {"messages" if kind == "maildelivery" else "commits": data["count"]}
        if "message_size" in data:
            params["message_size"] = data["message_size"]
    elif data.get("phase") in ("mkfs", "mount") and "mkfs" in data and _positive(data.get("seconds")):
        kind, found, params = "lifecycle", {"seconds": float(data["seconds"])}, {"phase": data["phase"]}
    elif tree is not None and _positive(data.get("seconds")) \
            and _number(data.get("bytes_used")):
        kind, found = "treecopy", {"seconds": float(data["seconds"]), "bytes_used": float(max(data["bytes_used"], 0))}
        params = {"files": tree.get("files")}
    elif isinstance(data.get("seconds"), dict) and _positive(data.get("files")) and data["seconds"] \
            and all(isinstance(k, str) and (k == "read" if tree is not None else k in metrics.SMALL_FILE_PHASES)
                    and _number(v) for k, v in data["seconds"].items()):
        found = {f"{phase}_per_s": data["files"] / s for phase, s in data["seconds"].items() if s > 0}
        if tree is not None:
            kind, params = "treecopy", {"files": tree.get("files"), "phase": "read"}
        else:
            kind = "smallfiles"
            params = {k: data.get(k) for k in ("files", "directories", "file_size")}
            params["phases"] = ",".join(data["seconds"])
    else:
        return None
    cpu = data.get("cpu")
    if isinstance(cpu, dict):
        found |= {k: float(cpu[k]) for k in RECORD_CPU if _number(cpu.get(k))}
    return kind, found, params


def parse_raw(text: str, where: str) -> tuple:
    """(format module, its measurements) of one raw file, or (the runner workload kind, [figures])
    for one of the runner's own raw records; read once however many cells name it. A raw file of
    no format fsatlas reads is a UserError."""
    module = importers.detect(text)
    if module is not None:
        return module, Found(module.parse(text, where), module.tool_version(text) if module is importers.fio else None)
    try:
        record = _runner_record(json.loads(text))
    except ValueError:
        record = None
    if record is not None:
        return record[0], [record[1:]]
    raise UserError("not the output of a tool fsatlas reads (fio JSON, bonnie++, IOzone, dd) "
                    "nor one of fsatlas's own raw files", where=where)


# The formats the runner writes for a workload the standard matrix lacks (a matrix of one's own):
# its tools' (a runner-kind workload validates only under the standard name, see select).
RUNNER_TOOLS = ("fio", "dd")


def backing_formats(workload: str, imported_from) -> tuple[str, ...]:
    """The raw formats that may back a cell of this workload: for an import, the one its tool
    writes (tool.imported_from: every member of an import is its one tool's output); else the
    one the workload's kind in the standard matrix writes, or for a workload the matrix lacks
    one the runner's tools write. Leaving imported_from out only narrows this: a runner's cell is
    never backed by a summary another tool (PTS, IOzone, bonnie++) printed."""
    if imported_from is not None:
        return (str(imported_from),)
    kind = workload_kinds().get(workload)
    return (kind,) if kind else RUNNER_TOOLS


def kind_may_back(own: str, workload: str) -> bool:
    """Whether output of this kind (a tool's: fio, dd, bonnie, iozone, pts; or a runner record's
    kind) may back a cell of this workload as the standard matrix runs it. A summary (a count
    over seconds: a runner record, dd's line) backs only the workload it is the record of, and a
    workload the runner measures with its own record only that record."""
    kind = workload_kinds().get(workload)
    return own == kind or not (own in RUNNER_KINDS or kind in RUNNER_KINDS or (own == "dd" and kind is not None))


def select(cell: dict, parsed: tuple, where: str, imported_from=None, first: bool = False) -> list[dict]:
    """The metric values a parsed raw file (parse_raw) gives for this cell: one dict per
    repetition it holds (a bonnie++ file or a dd log may hold several runs). Refused as a
    UserError: a raw file in a format that may not back the cell (backing_formats: the result's
    imported_from is its tool.imported_from, None for the runner's), one that does not say which
    of its measurements is this cell's, one whose measurement ran with other parameters than
    the cell names, and one of the runner's own records under a cell whose workload the matrix
    does not run with that record's kind (workload_kinds: whatever the result declares,
    imported or not)."""
    module, found = parsed
    kind = workload_kinds().get(cell["workload"])
    own = module if isinstance(module, str) else module.__name__.rsplit(".", 1)[-1]  # fio, bonnie, iozone, pts, dd
    if not kind_may_back(own, cell["workload"]):
        runs = ", ".join(sorted(w for w, k in workload_kinds().items() if k == own))
        what = f"{RUNNER_KINDS[own]} record of fsatlas's runner" if own in RUNNER_KINDS else f"{own}'s output"
        raise UserError(f"{what} under a cell of workload {cell['workload']!r}"
                        + (f", which the matrix runs with {kind}" if kind else ", which the matrix does not run"),
                        where=where, expected=f"the output of the tool the cell's figures come from"
                                              + (f", or this {'record' if own in RUNNER_KINDS else 'output'} under a "
                                                 f"cell of {runs}" if runs else ""))
    allowed = backing_formats(cell["workload"], imported_from)
    if own not in allowed:
        named = {"fio": "fio's JSON report", "dd": "dd's output", "pts": "a Phoronix Test Suite result XML",
                 "iozone": "IOzone's report", "bonnie": "bonnie++'s output"}
        what = f"{RUNNER_KINDS[own]} record of fsatlas's runner" if own in RUNNER_KINDS else named.get(own, own)
        why = f"the import's tool ({imported_from})" if imported_from is not None else \
            (f"the matrix runs workload {cell['workload']!r} with {kind}" if kind else
             "a runner's cell of a workload the matrix lacks comes from fio or dd")
        raise UserError(f"{what} under a cell of workload {cell['workload']!r}", where=where,
                        expected=f"the output of {' or '.join(allowed)} ({why})")
    if isinstance(module, str):
        ((figures, parameters),) = found
        cell_params = {k: ",".join(map(str, v)) if isinstance(v, list) else v for k, v in cell["parameters"].items()}
        differ = sorted(k for k, v in parameters.items() if k in cell_params and str(cell_params[k]) != str(v))
        if differ:
            raise UserError("the runner's record ran with other parameters than the cell names", where=where,
                            expected=", ".join(f"{k}={parameters[k]}" for k in differ),
                            found=", ".join(f"{k}={cell_params[k]}" for k in differ))
        return [figures]
    found = found.matching(cell, module is importers.bonnie or module is importers.iozone)
    # one test's runs in one file differ only in how each went (NOTES: bonnie++'s +++++ in one run
    # of -x 2, measured in the other: round 61)
    if not found or len(found) > 1 and any(_measured_with(m.parameters) != _measured_with(found[0].parameters)
                                           for m in found[1:]):
        raise UserError(f"{len(found)} measurements in it match this cell", where=where,
                        expected="one test (a cell's parameters name its job, or its rw and block size), "
                                 "once per repetition")
    differ = _differing(cell, found[0])
    if differ:
        raise UserError("its measurement ran with other parameters than the cell names", where=where,
                        expected=", ".join(f"{k}={found[0].parameters[k]}" for k in differ),
                        found=", ".join(f"{k}={cell['parameters'][k]}" for k in differ))
    # an import's cell names exactly its measurement's parameters, as written (import_.cell_records;
    # its first raw file's NOTES too, which the cell keeps): one emptied or cut (#65 round 60: bs,
    # direct and size deleted) or retyped (round 61: iodepth 1 for "1", group false for 0) is an edit
    if imported_from is None:
        return [m.values for m in found]
    named, held = (found[0].parameters, cell["parameters"]) if first else \
        (_measured_with(found[0].parameters), _measured_with(cell["parameters"]))
    if _canonical(named) != _canonical(held):
        differ = sorted(k for k in named.keys() | held.keys()
                        if (k in named) != (k in held) or _canonical(named[k]) != _canonical(held[k]))
        raise UserError("the cell names other parameters than its measurement ran with", where=where,
                        expected=", ".join(f"{k}={named[k]!r}" if k in named else f"no {k}" for k in differ),
                        found=", ".join(f"{k}={held[k]!r}" if k in held else f"no {k}" for k in differ))
    return [m.values for m in found]


class Found(list):
    """parse_raw's measurements of one tool's output, with the lookups select() makes in them
    indexed once: an IOzone report of 5,000 measurements is read by 5,000 cells, each of them
    five times (a repetition a file), and a scan a cell took five IOzone repetitions 16 s to
    validate (issue #61)."""

    def __init__(self, measurements, stated: str | None = None):
        super().__init__(measurements)
        self.stated = stated  # the version the output states of its tool (tool_version), if any
        self.stamps = frozenset()  # fio's: the timestamps its report holds (_timestamps), set by _read_member
        self.span = None  # fio's: when its jobs ran, to the millisecond (fio_json.report_span), set by _read_member
        self.folders = None  # fio's: the folder each job ran in (fio_json.job_folders), set by _read_member
        self._names, self._index = None, {}

    def _of_workload(self, workload: str) -> str | None:
        """The test whose measurements are this cell workload's: the one of its name, else the
        test whose name ends it ("--workload X" makes "X-test"), the longest such name
        ("X-record-rewrite" is record-rewrite's, not rewrite's)."""
        if self._names is None:
            self._names = {}
            for position, m in enumerate(self):
                self._names.setdefault(m.workload, []).append(position)
        if workload in self._names:
            return workload
        ends = [name for name in self._names if workload.endswith("-" + name)]
        return max(ends, key=len) if ends else None

    def matching(self, cell: dict, by_workload: bool) -> list:
        """The measurements that may be this cell's: of its workload (by_workload: bonnie++ and
        IOzone name one a test), then, where that leaves several, those whose parameters the
        cell names alike (_differing: none; NOTES aside)."""
        name = self._of_workload(cell["workload"]) if by_workload else ""
        if name is None:
            return []
        positions = self._names[name] if by_workload else range(len(self))
        if len(positions) < 2:
            return [self[p] for p in positions]
        if name not in self._index:  # {parameters compared: {their values: positions}}
            index = self._index[name] = {}
            for p in positions:
                keys = tuple(sorted(k for k in self[p].parameters if k not in NOTES))
                index.setdefault(keys, {}).setdefault(tuple(_spelled(k, self[p].parameters[k]) for k in keys), []).append(p)
        params, out = cell["parameters"], []
        for keys, by_values in self._index[name].items():
            if all(k in params for k in keys):
                out += by_values.get(tuple(_spelled(k, params[k]) for k in keys), [])
            else:  # the cell names some of them: compared on those alone
                out += [p for ps in by_values.values() for p in ps if not _differing(cell, self[p])]
        return [self[p] for p in sorted(out)]


def _measured_with(parameters: dict) -> dict:
    """A measurement's or a cell's parameters but NOTES, which say how one run went."""
    return {k: v for k, v in parameters.items() if k not in NOTES}


def _spelled(k: str, v) -> str:
    """A parameter's value as compared with another's: sizes in one spelling (the matrix writes
    size=256k, the fio importer reads 256K), the rest as text."""
    return importers.fio.canonical_size(str(v)) if k in importers.fio.SIZES else str(v)


def _differing(cell: dict, measurement) -> list[str]:
    """The parameters the cell and the measurement both name, with other values (NOTES aside;
    _spelled)."""
    return sorted(k for k, v in measurement.parameters.items()
                  if k in cell["parameters"] and k not in NOTES and _spelled(k, cell["parameters"][k]) != _spelled(k, v))


def recompute(cell: dict, text: str, where: str) -> list[dict]:
    """select() of one raw file's text, parsed."""
    return select(cell, parse_raw(text, where), where)


MAX_JSON_STRING = 65_536  # fio's JSON holds names, options and messages, each far shorter


TEXT_READ = ("text bytes read",)  # memo's count, under a key no member name (a string) can be


def recorded_fio(result: dict) -> frozenset:
    """The fio versions a result records (tool.fio: the runner's `fio --version`, or the versions
    an import's reports state, joined by '; ')."""
    return frozenset(v.strip() for v in str(result["tool"].get("fio", "")).split(";") if v.strip())


def raw_problems(cell: dict, rid: str, members: dict, memo: dict, imported_from=None,
                 fio_versions: frozenset = frozenset()) -> list[tuple]:
    """Each repetition's figures recomputed from its raw file must match the cell's samples, and
    every metric of the cell must be one its raw file gives, whatever the tool. memo keeps each
    member's text, privacy finding and parse by member name: an IOzone output of 2,119 cells
    is read once, not once a cell. imported_from: the result's tool.imported_from (select).
    fio_versions (recorded_fio): a fio report stating another version than the result records
    is refused, since its version chooses the checks its counts get (importers.fio.check_sides)."""
    out, taken = [], 0  # taken: the samples the raw files before this one gave, in the order of raw (None: unknown)
    for rep, raw in enumerate(cell["raw"]):
        name = bundle.member_of(rid, raw)
        if name not in memo:
            memo[name] = _read_member(members[name], raw, memo)
        private, parsed, error = memo[name]
        if private:
            out.append(("error", f"/raw/{rep}", f"{PRIVATE}{raw}: {private}; raw output is published"))
        if error is None:
            try:
                values = select(cell, parsed, raw, imported_from, first=rep == 0)
            except UserError as e:
                error = e.body
        if error is None and parsed[0] is importers.fio and parsed[1].stated not in fio_versions \
                and (parsed[1].stated is not None or imported_from is None):
            recorded = ", ".join(sorted(fio_versions)) or "no fio version"
            # the runner's fio writes JSON, whose every report states its version ("fio version"):
            # one of the runner's stating none hid it, with an escape in the key (#60 round 27). An
            # import may hold fio 1.x's terse lines (version 2), which state none (round 28)
            said = f"it states {parsed[1].stated[:50]!r}" if parsed[1].stated is not None else "it states no fio version"
            error = (f"{said}, while the result records {recorded} (tool.fio); "
                     f"expected the version that ran it, which decides the checks its counts get")
        if error is not None:  # recomputation is the guarantee: a figure no raw file backs is refused
            out.append(("error", f"/raw/{rep}", f"cannot recompute figures from {raw}: {error}"))
            taken = None  # where the next file's samples begin is not known: this error stands for them
            continue
        if taken is None:
            continue
        # each raw file gives its repetitions' samples in turn: one each (a file a repetition), all
        # of them (one file), or some (#65 round 60: bonnie++ run once, then with -x 2, imported as
        # one cell of three repetitions, was refused by the import's own check)
        start, taken = taken, taken + len(values)
        for name, metric in cell["metrics"].items():
            samples = metric["samples"]
            if taken > len(samples) or rep == len(cell["raw"]) - 1 and taken != len(samples):
                out.append(("error", f"/metrics/{name}/samples", f"expected {len(samples)} repetitions "
                            f"in the raw files, found {taken} in them up to {raw}"))
                continue
            for k, found in zip(range(start, taken), values):
                if name not in found:
                    out.append(("error", f"/metrics/{name}", f"expected only figures {raw} gives "
                                f"({', '.join(sorted(found)) or 'none'}), found {name}, which it does not"))
                    break
                if name in found and not math.isclose(found[name], samples[k], rel_tol=1e-6, abs_tol=1e-9):
                    out.append(("error", f"/metrics/{name}/samples/{k}",
                                f"expected {_apart(found[name], samples[k])} recomputed from {raw}, found "
                                f"{_apart(samples[k], found[name])}"))
    return out


def _read_member(data: bytes, raw: str, memo: dict) -> tuple:
    """(privacy finding, parse_raw's answer, why it cannot be read) of one raw member; the text
    reports of a result (memo's members read so far) add up to at most MAX_TEXT_TOTAL bytes."""
    try:
        text = importers.text_of(data, raw)
    except UserError as e:
        return None, None, e.body
    is_json = importers.is_json_report(data)
    if is_json:
        try:
            text = fio_json.without_bins(text, raw)  # json+'s buckets: most of a 63 MB report, never read
        except UserError as e:
            return None, None, e.body
    document = privacy.json_document(text) if is_json else None
    values = None
    if document is not None:
        # its strings are screened one by one: one of 30 MB ("1:" repeated) took 19 s
        values, keys = privacy.json_strings(document)
        longest = max(map(len, values | keys), default=0)
        if longest > MAX_JSON_STRING:
            return None, None, (f"expected a JSON report whose strings (job names, options, messages) have at most "
                                f"{MAX_JSON_STRING:,} characters, found one of {longest:,}")
    else:
        memo[TEXT_READ] = memo.get(TEXT_READ, 0) + len(data)
        if memo[TEXT_READ] > importers.MAX_TEXT_TOTAL:
            return None, None, (f"expected a result's text reports to add up to at most {importers.MAX_TEXT_TOTAL:,} "
                                f"bytes, found {memo[TEXT_READ]:,} with this one")
    private = privacy.raw_finding(text, document, values)
    stamps = _timestamps(document, text) if document is not None else frozenset()
    span, folders = fio_json.report_span(document), fio_json.job_folders(document)
    document = values = keys = None  # parse_raw parses again: one tree at a time (fio_json.MAX_REPORT_CHARS)
    try:
        parsed = parse_raw(text, raw)
        if parsed[0] is importers.fio:
            parsed[1].stamps, parsed[1].span, parsed[1].folders = stamps, span, folders
        return private, parsed, None
    except UserError as e:  # the place in the member (a JSON Pointer into fio's report) kept
        return private, None, (f"at {e.field}: " if e.field else "") + e.body
    except (ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError) as e:
        return private, None, f"{type(e).__name__} {e}"


def metric_problems(name: str, metric: dict, summaries_stored: bool = True) -> list[tuple]:
    """(severity, sub-path, message) for one metric summary of a document with no value or
    schema problem: every figure is a finite number, each sample and summary from 0 to 1e18.
    summaries_stored: the file stores mean, median, stddev, rsd_pct and ci95 (version 1), which
    must then be those of the samples; a version 2 file's are computed from them as it is read."""
    out = []
    known = KNOWN_METRICS.get(name)
    if (metric["unit"] == "pts") != ("pts_scale" in metric) or (metric["unit"] == "pts") != name.startswith("pts_"):
        out.append(("error", "/unit", f"expected unit pts with a pts_scale for a metric pts_<scale>, and neither for "
                    f"{name}, found unit {metric['unit']!r}" + (" and a pts_scale" if "pts_scale" in metric else "")))
    elif known is None and metric["unit"] == "pts":
        pass  # a PTS scale kept in its own unit (importers/pts.own_unit)
    elif known is None:
        out.append(("warning", "", f"metric name {name!r} is not one fsatlas knows"))
    elif (metric["unit"], metric["better"]) != known:
        out.append(("error", "/unit", f"expected unit {known[0]!r} and better {known[1]!r} for {name}, "
                    f"found {metric['unit']!r} and {metric['better']!r}"))
    return out + summary_problems(metric) if summaries_stored else out


def summary_problems(metric: dict) -> list[tuple]:
    """(severity, sub-path, message) for each summary a version 1 file stores of a metric
    (mean, median, stddev, rsd_pct, ci95) that is not its samples' own."""
    out = []
    # every figure the site shows, recomputed as DESIGN.md (and results/stats) defines it
    mean, median, stddev = stats.figures(metric["samples"])
    half = stats.half_width(stddev, len(metric["samples"]))  # n = 1: [mean, mean]
    expected = {"mean": mean, "median": median, "stddev": stddev, "rsd_pct": stats.rsd_pct(mean, stddev),
                "ci95/0": mean - half, "ci95/1": mean + half}
    for field, value in expected.items():
        name, _, index = field.partition("/")
        found = metric[name][int(index)] if index else metric[name]
        if not math.isclose(found, value, rel_tol=REL_TOL, abs_tol=1e-9):
            out.append(("error", f"/{field}", f"expected {value:.6g} from the samples, found {found:.6g}"
                        + (" (mean -+ t(0.975, n-1) x stddev / sqrt(n))" if index else
                           " (100 x stddev / |mean|)" if name == "rsd_pct" else "")))
    return out


def _apart(value: float, other: float) -> str:
    """value in as few significant digits (6 at least) as tell it from other: 33.58234 against
    33.5823, where 6 digits printed both as 33.5823 (#60 round 20)."""
    for digits in range(6, 18):
        if f"{value:.{digits}g}" != f"{other:.{digits}g}":
            return f"{value:.{digits}g}"
    return repr(value)
