"""Validation of result files: the schema, then the rules a schema can't say.

Problems are (severity, file, JSON Pointer, message) records; only errors fail validation.
"""
import datetime as dt
import hashlib
import json
import math
import os
from functools import lru_cache

from . import cores, privacy, resultfile, stats
from .errors import UserError
from .resultfile import Problem, finite
from .workloads import KINDS

# Every metric name the runner may write, with its unit and direction.
KNOWN_METRICS = {name: spec for module in KINDS.values() for name, spec in module.METRICS.items()}
# Metrics the importers add: a mixed read/write job's sides, bonnie++'s total CPU and maximum latency.
KNOWN_METRICS.update({f"{side}_{name}": KNOWN_METRICS[name] for side in ("read", "write") for name in ("throughput", "iops")})
KNOWN_METRICS.update(cpu_total_pct=("percent", "lower"), lat_max_ns=("ns", "lower"))
REL_TOL = 1e-6


def validate_file(path: str) -> list[Problem]:
    return _validated(path)[0]


def _validated(path: str) -> tuple[list[Problem], list]:
    """The problems of one result file, and [raw file, signature] for each raw file it names,
    taken before they are read (what OutcomeCache keeps to know when to check again)."""
    try:
        data = resultfile.load_json(path)
    except UserError as e:
        return [Problem("error", path, "", e.message or str(e))], []
    raws = _raw_signatures(data, path)
    problems = resultfile.schema_problems(data, path)
    warnings = [Problem("warning", path, where, message) for where, message in privacy.findings(data)]
    if problems:
        return problems + warnings, raws
    return rule_problems(data, path) + warnings, raws


CACHE_FILE = os.path.join("build", "cache", "validation.json")


def signature(path: str) -> list | None:
    """[size, mtime in ns] of a file, or None when it is gone: what make would compare."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns]


class OutcomeCache:
    """Validation outcomes kept between runs, like make: CACHE_FILE holds each result file's
    signature and problems (small: read on every rebuild); the signatures of the raw files a
    result names sit in one file per result beside it, read only when they are rechecked. Any
    change to the rules (this module, the schema, the importers) empties it."""

    def __init__(self, path: str | None):
        self.path, self.tool, self.entries, self.changed = path, _rules_digest(), {}, False
        if path:
            self.raw_dir = os.path.join(os.path.dirname(os.path.abspath(path)), "validation-raw")
            try:
                with open(path, encoding="utf-8") as f:
                    stored = json.load(f)
                if stored.get("tool") == self.tool and isinstance(stored.get("entries"), dict):
                    self.entries = stored["entries"]
            except (OSError, ValueError, AttributeError):
                pass

    def _raw_file(self, key: str) -> str:
        return os.path.join(self.raw_dir, hashlib.sha256(key.encode()).hexdigest()[:24] + ".json")

    def get(self, key: str, recheck_raw: bool) -> list[Problem] | None:
        entry = self.entries.get(key)
        if not entry or entry["sig"] != signature(key):
            return None
        if recheck_raw or entry["problems"]:
            try:
                with open(self._raw_file(key), encoding="utf-8") as f:
                    raws = json.load(f)
            except (OSError, ValueError):
                return None
            if raws.get("tool") != self.tool or any(signature(r) != sig for r, sig in raws["raw"]):
                return None
        return [Problem(*p) for p in entry["problems"]]

    def put(self, key: str, problems: list[Problem], raws: list) -> None:
        if not self.path:
            return
        self.entries[key] = {"sig": signature(key), "problems": [list(vars(p).values()) for p in problems]}
        resultfile.write_atomic(self._raw_file(key), {"tool": self.tool, "raw": raws}, compact=True, durable=False)
        self.changed = True

    def save(self) -> None:
        if self.path and self.changed:
            entries = {k: v for k, v in self.entries.items() if os.path.exists(k)}
            resultfile.write_atomic(self.path, {"tool": self.tool, "entries": entries}, compact=True, durable=False)


def validate_files(files, cache_file: str | None = CACHE_FILE, recheck_raw: bool = True) -> list[Problem]:
    """validate_file over many files, remembering outcomes (by size and mtime of the result file
    and of every raw file it names) so an unchanged file is not checked again; rebuilding the
    site after one new result checks that one file.

    recheck_raw=False trusts a clean outcome while the result file itself is unchanged, without
    looking at its raw files again: for the aggregator, which reads result files only (a
    stat of every raw file costs a second per 250,000 of them). `fsatlas validate` always
    rechecks them; an outcome with errors is always rechecked, so a mended raw file counts."""
    cache = OutcomeCache(cache_file)
    outcomes = {path: cache.get(os.path.abspath(path), recheck_raw) for path in files}
    todo = [path for path, found in outcomes.items() if found is None]
    for path, (found, raws) in zip(todo, cores.map_on_cores(_validated, todo)):  # each recomputes from its raw files
        cache.put(os.path.abspath(path), found, raws)
        outcomes[path] = found
    cache.save()
    return [problem for path in files for problem in outcomes[path]]


@lru_cache(maxsize=1)
def _rules_digest() -> str:
    """Changes whenever the rules do: this module, the schema, the importers that recompute."""
    from importlib import resources
    digest = hashlib.sha256()
    package = resources.files("fsatlas")
    for part in ("validation.py", "privacy.py", "stats.py", "fio_json.py", "schema/result.schema.json",
                 "importers/fio.py", "importers/bonnie.py", "importers/dd.py", "importers/iozone.py"):
        digest.update((package / part).read_bytes())
    return digest.hexdigest()[:16]


def _raw_signatures(data, path: str) -> list:
    """[raw file, signature] of each raw file a result file (data, read from path) names."""
    try:
        out_dir = os.path.dirname(os.path.dirname(os.path.abspath(path)))  # the cache outlives the cwd
        raws = [os.path.join(out_dir, r) for c in data.get("cells", []) if isinstance(c, dict)
                for r in (c.get("raw") or []) if isinstance(r, str)]
    except (AttributeError, TypeError):
        raws = []
    return [[r, signature(r)] for r in raws]


def duplicate_ids(files) -> list[Problem]:
    """Result ids are unique across all the files checked together (in any folder)."""
    seen, out = {}, []
    for path in files:
        stem = os.path.basename(path)[:-5] if path.endswith(".json") else os.path.basename(path)
        if stem in seen:
            out.append(Problem("error", path, "/id", f"expected an id no other result file has, found {stem!r} "
                                                     f"also in {seen[stem]}"))
        seen.setdefault(stem, path)
    return out


def rule_problems(data: dict, path: str) -> list[Problem]:
    problems = []

    def add(severity, where, message):
        problems.append(Problem(severity, path, where, message))

    stem = os.path.basename(path)[:-5] if path.endswith(".json") else os.path.basename(path)
    if data["id"] != stem:
        add("error", "/id", f"expected the file name without .json ({stem!r}), found {data['id']!r}")
    created = dt.datetime.fromisoformat(data["created"].replace("Z", "+00:00"))
    if created > dt.datetime.now(dt.timezone.utc) + dt.timedelta(days=1):
        add("error", "/created", f"expected a date not in the future, found {data['created']}")
    out_dir = os.path.dirname(os.path.dirname(os.path.abspath(path)))
    seen = {}
    for i, cell in enumerate(data["cells"]):
        base = f"/cells/{i}"
        if cell["key"] in seen:
            add("error", base + "/key", f"expected a unique key, found the key of /cells/{seen[cell['key']]}")
        seen.setdefault(cell["key"], i)
        if cell["status"] == "ok":
            present = True
            for j, raw in enumerate(cell["raw"]):
                if ".." in raw.split("/") or not os.path.isfile(os.path.join(out_dir, raw)):
                    add("error", f"{base}/raw/{j}", f"expected a raw file under {out_dir}, found none at {raw}")
                    present = False
            if present:
                problems += [Problem(sev, path, f"{base}{where}", msg) for sev, where, msg in raw_problems(cell, out_dir)]
        for name, metric in cell["metrics"].items():
            problems += [Problem(s, path, f"{base}/metrics/{name}{w}", m) for s, w, m in metric_problems(name, metric)]
    return problems


def recompute(cell: dict, text: str, where: str) -> dict:
    """The metric values one raw file gives for this cell (empty when its format is not known)."""
    from .importers import bonnie, dd, fio as fio_import, iozone
    stripped = text.lstrip()
    if "Children see throughput" in text or "reclen" in text:
        found = [m for m in iozone.parse(text, where)
                 if cell["workload"] == m.workload or cell["workload"].endswith("-" + m.workload)]
        found = [m for m in found if all(str(cell["parameters"].get(k)) == str(v) for k, v in m.parameters.items())]
        return found[0].values if len(found) == 1 else {}
    if stripped.startswith("1.9") and "," in stripped.splitlines()[0]:
        found = [m for m in bonnie.parse(text, where) if m.workload.endswith(cell["workload"])]
        return found[0].values if found else {}
    if "copied," in text and " bytes" in text:
        return dd.parse(text, where)[0].values
    if '"jobs"' in text or '"client_stats"' in text:
        rw = str(cell["parameters"].get("rw", ""))
        found = [m for m in fio_import.parse(text, where) if not rw or m.parameters["rw"] == rw]
        return found[0].values if len(found) == 1 else {}
    data = json.loads(text)
    if isinstance(data.get("seconds"), dict) and data.get("files"):  # small-files
        return {f"{phase}_per_s": data["files"] / s for phase, s in data["seconds"].items() if s}
    return {k: float(data[k]) for k in ("seconds", "bytes_used") if isinstance(data.get(k), (int, float))}


def raw_problems(cell: dict, out_dir: str) -> list[tuple]:
    """Each repetition's figures recomputed from its raw file must match the cell's samples."""
    out = []
    for rep, raw in enumerate(cell["raw"]):
        try:
            with open(os.path.join(out_dir, raw), encoding="utf-8", errors="replace") as f:
                values = recompute(cell, f.read(), raw)
        except (UserError, ValueError, KeyError, TypeError, AttributeError, IndexError) as e:
            out.append(("warning", f"/raw/{rep}", f"could not recompute figures from {raw}: {e}"))
            continue
        for name, metric in cell["metrics"].items():
            if name not in values or len(metric["samples"]) != len(cell["raw"]):
                continue
            if not math.isclose(values[name], metric["samples"][rep], rel_tol=1e-6, abs_tol=1e-9):
                out.append(("error", f"/metrics/{name}/samples/{rep}",
                            f"expected {values[name]:.6g} recomputed from {raw}, found {metric['samples'][rep]:.6g}"))
    return out


def metric_problems(name: str, metric: dict) -> list[tuple]:
    """(severity, sub-path, message) for one metric summary."""
    out = []
    values = metric["samples"]
    for field in ("mean", "median", "stddev", "rsd_pct"):
        if not finite(metric[field]):
            out.append(("error", f"/{field}", f"expected a finite number, found {metric[field]}"))
    bad = [k for k, v in enumerate(values) if not finite(v) or v < 0]
    for k in bad:
        out.append(("error", f"/samples/{k}", f"expected a finite number >= 0, found {values[k]}"))
    if out:
        return out
    if name in KNOWN_METRICS:
        unit, better = KNOWN_METRICS[name]
        if (metric["unit"], metric["better"]) != (unit, better):
            out.append(("error", "/unit", f"expected unit {unit!r} and better {better!r} for {name}, "
                        f"found {metric['unit']!r} and {metric['better']!r}"))
    else:
        out.append(("warning", "", f"metric name {name!r} is not one fsatlas knows"))
    expected = stats.moments(values)
    for field in ("mean", "median", "stddev"):
        if not math.isclose(metric[field], expected[field], rel_tol=REL_TOL, abs_tol=1e-9):
            out.append(("error", f"/{field}", f"expected {expected[field]:.6g} from the samples, "
                        f"found {metric[field]:.6g}"))
    lo, hi = metric["ci95"]
    if not (finite(lo) and finite(hi) and lo <= metric["mean"] <= hi):
        out.append(("error", "/ci95", f"expected an interval around the mean, found {metric['ci95']}"))
    return out
