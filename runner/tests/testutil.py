"""Helpers shared by the runner tests (imported by name: pytest.ini puts this folder on the path)."""
import copy
import json
import os
import random
import subprocess
import zlib
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"
SAMPLES = FIXTURES / "samples"  # outputs of the tools themselves; SOURCES.md names each
RESULTS = Path(__file__).resolve().parents[2] / "data" / "results"


def standard_run_with(a: str, b: str) -> Path:
    """The newest committed standard result that measured filesystems a and b side by side (a
    workload with a figure for both, as report.within compares them): chosen by what it holds,
    not by its place in the folder, which every new result shifts."""
    from fsatlas.commands.compare import load_checked
    from fsatlas.errors import UserError
    from fsatlas.site import report
    for path in sorted(RESULTS.glob("*-standard.json"), reverse=True):
        try:
            report.within(load_checked(str(path)), a, b)
        except UserError:
            continue
        return path
    raise AssertionError(f"no committed standard result measured {a} and {b} side by side")


def under_id(doc: dict, rid: str) -> dict:
    """doc (read form) as a run of its own id rid: its raw references re-pointed to rid's bundle
    (raw/<rid>/...), as validate, and so compare, report and article new, require of them
    (validation.structure_problems: a reference into another id's bundle is refused)."""
    old = doc["id"]
    return {**doc, "id": rid, "cells": [{**c, "raw": [r.replace(f"raw/{old}/", f"raw/{rid}/", 1) for r in c["raw"]]}
                                        if isinstance(c.get("raw"), list) else c for c in doc["cells"]]}


def in_slot(doc: dict, slot: int) -> dict:
    """doc (read form) as if it had run in a slot of its own: created at 2026-11-23T06:00Z plus
    slot (modulo 70) times 2 hours (after the project's first result, before 2026-11-29, and
    longer apart than a standard run lasts), so that runs made from one file do not share its clock:
    comparison.ran_at_once refuses two runs of one machine whose repetitions started in one stretch.
    Its raw-device baselines are its own too (the i-th sample times 1 + (slot modulo 70 + 1)(i + 1)
    / 10^6, summaries recomputed): comparison.once takes two files holding one baseline, or one
    baseline times one factor (comparison.scaled), for one run. So is its clock: every
    repetition's start (seconds from the run's start) later by slot modulo 70 + 1 milliseconds,
    as comparison.shared_print takes two files starting a cell's repetitions at the same
    instants for one run."""
    import datetime as dt
    from fsatlas.results import stats
    slot %= 70
    created = dt.datetime(2026, 11, 23, 6, tzinfo=dt.timezone.utc) + dt.timedelta(hours=2 * slot)
    target = dict(doc.get("target") or {})
    for field in ("baseline", "baseline_after"):
        if target.get(field):
            target[field] = {job: {name: {**m, **stats.summarize([v * (1 + (slot + 1) * (i + 1) / 1e6)
                                                                  for i, v in enumerate(m["samples"])],
                                                                 m["unit"], m["better"])}
                                   for name, m in metrics.items()}
                             for job, metrics in target[field].items()}
    cells = [{**c, "started": [round(t + (slot + 1) / 1000, 3) for t in c["started"]]} if c.get("started") else c
             for c in doc.get("cells", [])]
    return {**doc, "created": f"{created:%Y-%m-%dT%H:%M:%SZ}", **({"target": target} if "target" in doc else {}),
            **({"cells": cells} if "cells" in doc else {})}


def rescaled_run(path, factor: float, out_dir) -> str:
    """Another run made from the result file at path: every sample times factor and, factor
    not 1, its own 1 +- 3e-7 at most (its summary
    recomputed), its own id; written to out_dir. Several runs a side from the committed ones.
    A cell whose run recorded no contention gets a quiet host record a repetition: across files
    a side's unknown contention keeps a row from being tested (comparison.contention_unknown)."""
    from fsatlas.results import resultfile, stats
    doc = resultfile.readable(json.loads(Path(path).read_text()))
    rid = f"{doc['id'][:-8]}{int(factor * 1e6) % 10**8:08d}"
    doc = in_slot(under_id(doc, rid), zlib.crc32(rid.encode()) % 60)
    jitter = random.Random(rid)
    for cell in doc["cells"]:
        if cell["status"] == "ok" and not cell.get("host"):
            reps = len(next(iter(cell["metrics"].values()))["samples"])
            cell["host"] = [{"others_cpu_s": 0.0, "steal_pct": 0.0, "iowait_pct": 0.5, "seconds": 1.0, "load1": 0.1}] * reps
        for metric in cell.get("metrics", {}).values():  # each its own: not one factor (comparison.scaled)
            metric.update(stats.summarize([v * factor * (1 + (factor != 1) * jitter.uniform(-3e-7, 3e-7))
                                           for v in metric["samples"]],
                                          metric["unit"], metric["better"]))
    return str(write_json(Path(out_dir) / f"{doc['id']}.json", doc))


def loop_state(root):
    """What a run given the folder root must leave as it found it: the loop devices backed by a
    file under root, and the mounts of those devices or under root. Only these: another process
    may attach and detach loop devices of its own while a test runs."""
    root = os.path.realpath(root) + "/"
    listed = subprocess.run(["losetup", "--json", "--list", "--output", "NAME,BACK-FILE"],
                            capture_output=True, text=True, check=True).stdout
    loops = {d["name"] for d in (json.loads(listed)["loopdevices"] if listed.strip() else [])
             if (d.get("back-file") or "").startswith(root)}
    mounts = [line for line in Path("/proc/self/mounts").read_text().splitlines()
              if line.split()[0] in loops or line.split()[1].startswith(root)]
    return sorted(loops), sorted(mounts)


def write_json(path, data):
    """data as JSON at path; a result of the current schema version (one read in the read form,
    resultfile.readable) in its stored form, as the one writer would write it."""
    from fsatlas import SCHEMA_VERSION
    from fsatlas.results import resultfile
    if isinstance(data, dict) and data.get("schema_version") == SCHEMA_VERSION and isinstance(data.get("cells"), list):
        data = resultfile.stored(data)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


def setting(path, value):
    """A change that sets the field at path (a list of keys and indexes) to value."""
    def change(data):
        target = data
        for part in path[:-1]:
            target = target[part]
        target[path[-1]] = value
    return change


def mutated(data, change):
    data = copy.deepcopy(data)
    change(data)
    return data


def scratch_left(scratch):
    """What a run left in its scratch directory, besides the lock file every run shares."""
    from fsatlas.run.leftovers import LOCK
    return sorted(set(os.listdir(scratch)) - {LOCK}) if os.path.isdir(scratch) else []


def table_rows(html: str) -> list[list[str]]:
    """The text of each body row's cells (th and td) in an HTML table, parsed by the standard
    library: what a reader sees, whatever the markup around it."""
    from html.parser import HTMLParser

    class Rows(HTMLParser):
        def __init__(self):
            super().__init__()
            self.rows, self.cell, self.in_body = [], None, False

        def handle_starttag(self, tag, attrs):
            if tag == "tbody":
                self.in_body = True
            elif tag == "tr" and self.in_body:
                self.rows.append([])
            elif tag in ("td", "th") and self.in_body:
                self.cell = ""

        def handle_endtag(self, tag):
            if tag in ("td", "th") and self.cell is not None:
                self.rows[-1].append(self.cell.strip())
                self.cell = None
            elif tag == "tbody":
                self.in_body = False

        def handle_data(self, data):
            if self.cell is not None:
                self.cell += data

    parser = Rows()
    parser.feed(html)
    return parser.rows


def as_result(out, data: dict, rid: str, source: str = "fixture-valid") -> dict:
    """data under another id, with its raw references and bundle copied to that id's: a second
    valid result file in out (written to out/results/<rid>.json); returns the new data."""
    from fsatlas.results import bundle
    data = copy.deepcopy(data)
    data["id"] = rid
    for cell in data["cells"]:
        cell["raw"] = [r.replace(f"raw/{source}/", f"raw/{rid}/", 1) for r in cell["raw"]]
    bundle.write(bundle.read(str(out), source), bundle.path(str(out), rid))
    write_json(Path(out) / "results" / f"{rid}.json", data)
    return data


def edit_member(out, rid: str, reference: str, change) -> bytes:
    """Rewrites one member of out/raw/<rid>.tar.gz (named by its raw reference) to
    change(old bytes); returns the old bytes."""
    from fsatlas.results import bundle
    members = bundle.read(str(out), rid)
    name = bundle.member_of(rid, reference)
    old = members[name]
    members[name] = change(old)
    bundle.write(members, bundle.path(str(out), rid))
    return old


def raw_files(out, result: dict) -> dict[str, bytes]:
    """The raw files of a result in out, by the reference a cell would name (raw/<id>/x)."""
    from fsatlas.results import bundle
    return {f"raw/{result['id']}/{name}": data for name, data in bundle.read(str(out), result["id"]).items()}


# A child's peak memory as Linux counts it includes the high-water mark of the process it was
# forked (or vforked) from: pytest's or make perf's, hundreds of MB by then. Started from a
# small Python that does nothing else, a command's peak is its own (within that Python's 10 MB).
ALONE = ("import os, subprocess, sys; p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL); "
         "_, s, u = os.wait4(p.pid, 0); print(os.waitstatus_to_exitcode(s), u.ru_maxrss)")


def peak_alone(argv, cwd) -> tuple[int, str, float, int]:
    """(exit status, standard error, wall seconds, peak resident bytes) of one command, started
    from a small process (ALONE) so that the peak is the command's own."""
    import sys
    import time
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", ALONE, *map(str, argv)], cwd=cwd, check=True, capture_output=True,
                          text=True)
    code, peak = done.stdout.split()
    return int(code), done.stderr, time.monotonic() - started, int(peak) * 1024


def write_run(data, doc: dict, source: str = "fixture-valid", source_data=FIXTURES) -> dict:
    """Writes doc, a result whose cells were copied from the result `source` (its raw references
    still naming that result's members), into data/results, with a bundle data/raw/<id>.tar.gz
    in which each cell's members are the source's bytes placed in the folder of the cell's own
    key, as validate requires (a cell's members sit where its key says). Returns doc, its raw
    references rewritten."""
    from fsatlas.results import bundle, resultfile
    members, out = bundle.read(str(source_data), source), {}
    for cell in doc["cells"]:
        refs = []
        for ref in cell.get("raw", []):
            name = f"{resultfile.raw_dir_name(cell['key'])}/{Path(ref).name}"
            out[name] = members[bundle.member_of(source, ref)]
            refs.append(f"raw/{doc['id']}/{name}")
        cell["raw"] = refs
    data = Path(data)
    (data / "results").mkdir(parents=True, exist_ok=True)
    (data / "raw").mkdir(parents=True, exist_ok=True)
    bundle.write(out, bundle.path(str(data), doc["id"]))
    write_json(data / "results" / f"{doc['id']}.json", doc)
    return doc


def rounds_from_starts(result: dict, keys: list) -> list[list[str]]:
    """The cells KEYS of RESULT round by round, counted by hand from their repetitions' start
    times: every start of those cells in time order, cut into runs of len(KEYS)."""
    cells = {c["key"]: c for c in result["cells"]}
    order = [key for _, key in sorted((t, key) for key in keys for t in cells[key]["started"])]
    return [order[i:i + len(keys)] for i in range(0, len(order), len(keys))]


def curated_with(folder: Path, kind: str, name: str, old: str, new: str) -> Path:
    """A curated data folder under folder: the sources, the feature columns and the probes they
    name, and the one file data/<kind>/<name> with its text old (which it must hold) replaced
    once by new; made afresh on each call (hypothesis runs one test many times in one folder)."""
    import shutil
    root = Path(__file__).resolve().parents[2] / "data"
    data = folder / "data"
    if data.exists():
        shutil.rmtree(data)
    (data / kind).mkdir(parents=True)
    for file in ("sources.yaml", "feature_columns.yaml"):
        shutil.copy(root / file, data / file)
    shutil.copytree(root / "probes", data / "probes")
    text = (root / kind / name).read_text()
    assert old in text
    (data / kind / name).write_text(text.replace(old, new, 1))
    return data


def numbers_in(value, path=()):
    """(path, number) of every number in a parsed JSON document (bools are no numbers)."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from numbers_in(v, path + (k,))
    elif isinstance(value, list):
        for k, v in enumerate(value):
            yield from numbers_in(v, path + (k,))
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield path, value


def with_edited_digit(line: str, k: int, edit: str) -> str | None:
    """line with its digit at k replaced by edit (another script's digit), or, edit "_", split
    from the digit after it by an underscore (None where no digit follows)."""
    if edit == "_":
        return line[:k + 1] + "_" + line[k + 1:] if k + 1 < len(line) and line[k + 1].isdigit() else None
    return line[:k] + edit + line[k + 1:]
