"""Helpers shared by the runner tests (imported by name: pytest.ini puts this folder on the path)."""
import copy
import functools
import json
import os
import random
import subprocess
import zlib
from pathlib import Path

import orjson

FIXTURES = Path(__file__).parent / "fixtures"
SAMPLES = FIXTURES / "samples"  # outputs of the tools themselves; SOURCES.md names each
RESULTS = Path(__file__).resolve().parents[2] / "data" / "results"


def standard_run_with(a: str, b: str) -> Path:
    """The newest committed standard result that measured filesystems a and b side by side (a
    workload with a figure for both, as report.within compares them): chosen by what it holds,
    not by its place in the folder, which every new result shifts."""
    from fsatlas.commands.compare import validated
    from fsatlas.errors import UserError
    from fsatlas.site import report
    for path in sorted(RESULTS.glob("*-standard.json"), reverse=True):
        try:
            report.within(validated([str(path)])[0], a, b)
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
    """Another run made from the committed result file at path (derived_run): every figure of
    each repetition's raw output times factor and, factor not 1, its own 1 +- 3e-7 at most, its
    samples recomputed from that output, its own id and clock (in_slot, by its id); written with
    its bundle into the data folder out_dir (out_dir/results/<id>.json, out_dir/raw/<id>.tar.gz),
    so that validate, and so compare, report and article new, accept it. Several runs a side
    from the committed ones. A cell whose run recorded no contention gets a quiet host record a
    repetition: across files a side's unknown contention keeps a row from being tested
    (comparison.contention_unknown)."""
    source = json.loads(Path(path).read_text())
    rid = f"{source['id'][:-8]}{int(factor * 1e6) % 10**8:08d}"
    jitter = random.Random(rid)
    doc = derived_run(path, rid, zlib.crc32(rid.encode()) % 60,
                      lambda key, j: factor * (1 + (factor != 1) * jitter.uniform(-3e-7, 3e-7)))
    for cell in doc["cells"]:
        if cell["status"] == "ok" and not cell.get("host"):
            reps = len(next(iter(cell["metrics"].values()))["samples"])
            cell["host"] = [{"others_cpu_s": 0.0, "steal_pct": 0.0, "iowait_pct": 0.5, "seconds": 1.0, "load1": 0.1}] * reps
    return write_derived(out_dir, doc)


# --- Synthetic runs validate accepts ------------------------------------------------------------
# compare, report and article new read only what `fsatlas validate` accepts, and validate
# recomputes every figure from the run's raw bundle and holds fio's timestamps to the run's
# clock. So a synthetic run is made from a committed run's raw output (derived_run): each
# repetition's member with its figures scaled as a faster or slower machine would have written
# them (scaled_member: fio's counts, rates, latencies and CPU shares; the runner's records; dd's
# seconds), and the run's samples recomputed from those members by validate's own reading
# (validation.select). write_derived writes it with a bundle of those members, each fio report
# moved onto the written run's clock (created and the repetitions' start times, which a test
# may have moved since), so a run's figures and its raw output never disagree.

# (cell key or "field: job" of a baseline, a metric, its value in one repetition) -> [(that repetition's
# figures, (the member, its clock: when its repetition started, when its run began, its name))]
_MADE: dict = {}


def _made(key: str, figures: dict, made: tuple) -> None:
    for name, value in figures.items():
        _MADE.setdefault((key, name, value), []).append((figures, made))


def _made_for(key: str, figures: dict) -> tuple | None:
    """What derived_run made for a repetition of these figures (all of its, or some: a copy may
    drop metrics), or None."""
    if not figures:
        return None
    name, value = next(iter(figures.items()))
    return next((made for held, made in _MADE.get((key, name, value), ())
                 if all(held.get(n) == v for n, v in figures.items())), None)


def epoch(created: str) -> float:
    import datetime as dt
    return dt.datetime.fromisoformat(created.replace("Z", "+00:00")).timestamp()


def _figures(metrics: dict, j: int) -> dict:
    """What identifies repetition j of a cell (or of a baseline job): its value of every metric."""
    return {name: float(m["samples"][j]) for name, m in sorted(metrics.items()) if j < len(m["samples"])}


def _scaled_latency(stats, m: float) -> None:
    if not isinstance(stats, dict):
        return
    for key in ("min", "max"):
        if key in stats:
            stats[key] = round(stats[key] * m)
    for key in ("mean", "stddev"):
        if key in stats:
            stats[key] = stats[key] * m
    if isinstance(stats.get("percentile"), dict):
        stats["percentile"] = {k: round(v * m) for k, v in stats["percentile"].items()}


def scaled_member(data: bytes, m: float) -> bytes:
    """One repetition's raw output (a runner's: fio's JSON report, one of the runner's own
    records, dd's summary) with every figure it measured times m, as fio and the runner write
    them: fio's counts (io_bytes, total_ios) scaled and its rates computed from them as fio
    does (bw_bytes = 1000 x io_bytes // runtime, iops to six decimals), its latencies, syncs and
    CPU shares scaled, its runtime and clock as they were; a record's rates (count or files over
    seconds) and times; dd's seconds (a rate m times as high)."""
    text = data.decode("utf-8")
    if not text.lstrip().startswith("{"):  # dd's summary: the seconds, six decimals as GNU dd prints them
        import re
        return re.sub(r"(copied, )([0-9.]+)( s)", lambda g: f"{g[1]}{float(g[2]) / m:.6f}{g[3]}", text).encode()
    doc = json.loads(text)
    if "fio version" in doc:
        for job in doc["jobs"]:
            for side in ("read", "write", "trim", "mixed"):
                figures = job.get(side)
                if not isinstance(figures, dict) or not figures.get("runtime"):
                    continue
                runtime = figures["runtime"]
                figures["io_bytes"] = round(figures["io_bytes"] * m)
                figures["total_ios"] = round(figures["total_ios"] * m)
                figures["bw_bytes"] = 1000 * figures["io_bytes"] // runtime
                if "bw" in figures:
                    figures["bw"] = figures["bw_bytes"] >> 10
                if "io_kbytes" in figures:
                    figures["io_kbytes"] = figures["io_bytes"] >> 10
                figures["iops"] = round(1000 * figures["total_ios"] / runtime, 6)
                for name in ("lat_ns", "clat_ns", "slat_ns"):
                    _scaled_latency(figures.get(name), m)
            for key in ("usr_cpu", "sys_cpu"):
                if key in job:
                    job[key] = round(job[key] * m, 6)
            sync = job.get("sync")
            if isinstance(sync, dict) and isinstance(sync.get("lat_ns"), dict):  # as many syncs as writes
                _scaled_latency(sync["lat_ns"], m)
                sync["lat_ns"]["N"] = round(sync["lat_ns"].get("N", 0) * m)
                if "total_ios" in sync:
                    sync["total_ios"] = round(sync["total_ios"] * m)
        return orjson.dumps(doc, option=orjson.OPT_INDENT_2)
    if "rate" in doc:  # a count over seconds
        doc["seconds"] /= m
    elif "phase" in doc or "tree" in doc and not isinstance(doc["seconds"], dict):  # a time: mkfs, mount, a tree copied
        doc["seconds"] *= m
        if "bytes_used" in doc:
            doc["bytes_used"] = round(doc["bytes_used"] * m)
    else:  # files over each phase's seconds
        doc["seconds"] = {phase: s / m for phase, s in doc["seconds"].items()}
    if isinstance(doc.get("cpu"), dict):
        doc["cpu"] = {k: v * m for k, v in doc["cpu"].items()}
    return json.dumps(doc, indent=1).encode()


def _moved(data: bytes, seconds: float) -> bytes:
    """A member on a clock later by seconds: fio's timestamp_ms, its timestamp (the second
    timestamp_ms falls in) and its time (written_at); anything else as it is."""
    if b'"fio version"' not in data[:4096] or not seconds:
        return data
    doc = json.loads(data)
    ms = doc["timestamp_ms"] + round(seconds * 1000)
    written_at(doc, ms // 1000)["timestamp_ms"] = ms
    return orjson.dumps(doc, option=orjson.OPT_INDENT_2)


def own_folders(data: bytes, rid: str) -> bytes:
    """Bytes holding runner fio reports (a member, or a bundle's tar) as run rid's: each folder
    the runner made for its work (fsatlas-<pid>-<8 random characters>, leftovers.owned_dir) given
    8 characters of rid's own, so that a member keeps its size (validation.run_folder_conflicts:
    two files whose reports name one such folder are one run)."""
    import hashlib
    import re

    def own(m: re.Match) -> bytes:
        return m[1] + hashlib.sha256(rid.encode() + m[2]).hexdigest()[:8].encode() + b"/"
    return re.sub(rb"(/fsatlas-[0-9]+-)([a-z0-9_]{8})/", own, data)


def refoldered(data, rid: str) -> None:
    """The bundle of run rid in the data folder data, each fio report's repetition folder (rep-N)
    renamed to its member's: a copy whose repetitions were reordered, edited by someone who read
    validate's folder rule (validation.folder_problems), for the checks behind it."""
    import re
    from fsatlas.results import bundle
    members = bundle.read(str(data), rid)
    for name, member in members.items():
        rep = re.fullmatch(r".*/(rep-[0-9]+)\.json", name)
        if rep and b'"fio version"' in member[:4096]:
            members[name] = re.sub(rb"/rep-[0-9]+\"", b"/" + rep[1].encode() + b'"', member)
    bundle.write(members, bundle.path(str(data), rid))


def written_at(report: dict, stamp: int) -> dict:
    """report (a parsed fio report, changed in place) as fio would have written it at the second
    stamp: its timestamp, its timestamp_ms the same milliseconds into that second, its time (ctime,
    as glibc writes it) in the same zone offset: fio writes the three from one reading of its
    clock, and validate refuses a report whose clocks disagree (importers.fio.check_clocks)."""
    whole = stamp - report["timestamp"]
    report["timestamp"] = stamp
    if "timestamp_ms" in report:
        report["timestamp_ms"] += 1000 * whole
    if "time" in report:
        report["time"] = ctime_later(report["time"], whole)
    return report


def ctime_later(text: str, seconds: int) -> str:
    """fio's "time" (ctime, as glibc writes it: the day of the month padded to two places) that
    many seconds later, in the same zone."""
    import datetime as dt
    local = dt.datetime.strptime(" ".join(text.split()), "%a %b %d %H:%M:%S %Y") + dt.timedelta(seconds=seconds)
    return f"{local:%a %b} {local.day:2d} {local:%H:%M:%S %Y}"


def moved_bundle(data_from, rid_from: str, data_to, rid_to: str, seconds: float) -> None:
    """The raw bundle of run rid_from in the data folder data_from copied as run rid_to's into
    data_to, each fio report moved seconds later (_moved) and in folders of its own
    (own_folders): a copy of a run created later holds reports written after it began, as validate
    requires (cell_clock_problems)."""
    from fsatlas.results import bundle
    members = bundle.read(str(data_from), rid_from)
    bundle.write({name: _moved(own_folders(data, rid_to), seconds) for name, data in members.items()},
                 bundle.path(str(data_to), rid_to))


@functools.lru_cache(maxsize=8)
def _committed(path: str) -> tuple[dict, dict]:
    """(the result at path in the read form, its bundle's members): read once a process."""
    from fsatlas.results import bundle, resultfile
    original = resultfile.readable(json.loads(Path(path).read_text()))
    return original, bundle.read(str(Path(path).parent.parent), original["id"])


def derived_run(source, rid: str, slot: int | None, factor_of=lambda key, j: 1.0, keys=None) -> dict:
    """A run of its own (read form) made from the committed result file source and its bundle:
    id rid, in slot (in_slot: its own created time and start times; None: source's), its cells those of keys
    (default: all), each repetition's raw output scaled (scaled_member) by factor_of(key, j) (key:
    a cell's key, or "baseline: <job>" / "baseline_after: <job>" for the raw device's jobs, j
    the repetition from 0), and every sample recomputed from that output as validate recomputes
    it. write_derived writes it with its bundle; a copy of it, edited in anything but its
    repetitions' figures (its id, cells, start times, created), too."""
    from fsatlas.results import bundle, stats, validation
    original, members = _committed(str(source))
    began = epoch(original["created"])
    kept = [c for c in original["cells"] if keys is None or c["key"] in keys]
    doc = under_id(copy.deepcopy({**original, "cells": kept}), rid)
    doc = doc if slot is None else in_slot(doc, slot)
    starts = {c["key"]: c.get("started") for c in original["cells"]}
    imported_from = doc["tool"].get("imported_from")

    def remade(key: str, cell: dict, names: list, clock, own=lambda j: 1) -> None:
        values = []
        for j, name in enumerate(names):
            m = factor_of(key, j) * own(j)
            data = members[name] if m == 1 else scaled_member(members[name], m)
            ref = f"raw/{rid}/{name}"
            if m == 1:  # its figures as the source holds them, to the last bit
                found = {n: metric["samples"][j] for n, metric in cell["metrics"].items()}
            else:
                (found,) = validation.select(cell, validation.parse_raw(data.decode(), ref), ref, imported_from,
                                             first=j == 0)
            values.append(found)
            _made(key, {n: float(found[n]) for n in sorted(cell["metrics"])}, (data, clock(j), began, name))
        for name, metric in cell["metrics"].items():
            metric.update(stats.summarize([v[name] for v in values], metric["unit"], metric["better"]))

    for cell in doc["cells"]:
        if cell["status"] == "ok":
            started = starts[cell["key"]]
            remade(cell["key"], cell, [bundle.member_of(rid, ref) for ref in cell["raw"]],
                   lambda j: began + started[j] if started else None)
    for field, job, names in bundle.baseline_reports(doc["target"]):
        job_cell = {"workload": job.split("|")[0], "parameters": {}, "metrics": doc["target"][field][job]}
        # the raw device's figures the run's own too, as in_slot makes them (comparison.once)
        remade(f"{field}: {job}", job_cell, names, lambda j: None,
               lambda j: 1 if slot is None else 1 + (slot % 70 + 1) * (j + 1) / 1e6)
    for field in bundle.BASELINE_FOLDERS:
        fill = f"{field}/{bundle.FILL_MEMBER}"
        if fill in members and field in doc["target"]:
            _made(fill, {"baseline": _baseline_figures(doc["target"][field])}, (members[fill], None, began, fill))
    return doc


def _baseline_figures(jobs: dict) -> str:
    """What identifies a run's raw-device baseline (target.baseline or baseline_after): its samples."""
    return json.dumps({job: {n: m["samples"] for n, m in metrics.items()} for job, metrics in jobs.items()}, sort_keys=True)


def kept_repetitions(cell: dict, reps: list, rid: str, source: dict, members: dict) -> None:
    """The cell cut to the repetitions reps (its samples, raw files and records of one value a
    repetition), its summaries those of what it keeps, its raw files numbered from 1 again as the
    runner numbers them, as a careful editor cuts it; members (name -> bytes) gets each kept
    repetition's raw output of source's bundle under its new name."""
    from fsatlas.results import bundle, stats, validation
    for metric in cell["metrics"].values():
        metric.update(stats.summarize([metric["samples"][j] for j in reps], metric["unit"], metric["better"]))
    renamed = []
    for i, j in enumerate(reps):
        folder, name = cell["raw"][j].rsplit("/", 1)
        renamed.append(f"{folder}/rep-{i + 1}.{name.rsplit('.', 1)[1]}")
        members[bundle.member_of(rid, renamed[-1])] = source[bundle.member_of(rid, cell["raw"][j])]
    cell["raw"] = renamed
    for field in validation.PER_REPETITION:
        if isinstance(cell.get(field), list):
            cell[field] = [cell[field][j] for j in reps]


def write_derived(data, doc: dict) -> str:
    """Writes doc, a run made by derived_run (or a copy of one, its repetitions' figures as
    they were made), into the data folder data: data/results/<id>.json, and data/raw/<id>.tar.gz
    holding the raw output each of its repetitions' figures were recomputed from, moved onto
    doc's clock (its created time, and a cell's start times where it has them). Returns the
    result file's path."""
    from fsatlas.results import bundle, fio_json
    rid, began, out = doc["id"], epoch(doc["created"]), {}
    for cell in doc["cells"]:
        if cell.get("status") != "ok":
            continue
        for j, ref in enumerate(cell["raw"]):
            made = _made_for(cell["key"], _figures(cell["metrics"], j))
            assert made, f"no raw output was made for repetition {j} of {cell['key']} in {rid} (derived_run)"
            member, clock, then, name = made
            started = cell.get("started") or []
            shift = began + started[j] - clock if clock is not None and j < len(started) else began - then
            if clock is not None and j + 1 < len(started) and b'"fio version"' in member[:4096]:  # a copy's
                # repetitions reordered: its report
                span = fio_json.report_span(json.loads(member))  # ends by the next one's start too
                if span and span[1] + shift > began + started[j + 1]:
                    shift = max(began + started[j + 1] - span[1], began + started[j] - span[0])
            # under the name the cell gives it; a reference no member can have (an edit of a test:
            # out of the bundle, "..") leaves it where it was made, and a member named twice holds the first
            named = bundle.member_of(rid, ref)
            if ref.startswith(f"raw/{rid}/") and all(part not in ("", ".", "..") for part in named.split("/")):
                name = named
            out.setdefault(name, _moved(own_folders(member, rid), shift))
    for field, job, names in bundle.baseline_reports(doc["target"]):
        for i, name in enumerate(names):
            member, _, then, _ = _made_for(f"{field}: {job}", _figures(doc["target"][field][job], i))
            out[name] = _moved(member, began - then)
    for field in bundle.BASELINE_FOLDERS:
        fill = _made_for(f"{field}/{bundle.FILL_MEMBER}", {"baseline": _baseline_figures(doc["target"].get(field) or {})})
        if fill and doc["target"].get(field):
            out[f"{field}/{bundle.FILL_MEMBER}"] = _moved(fill[0], began - fill[2])
    data = Path(data)
    (data / "raw").mkdir(parents=True, exist_ok=True)
    bundle.write(out, bundle.path(str(data), rid))
    return str(write_json(data / "results" / f"{rid}.json", doc))


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
    bundle.write({name: own_folders(member, rid) for name, member in bundle.read(str(out), source).items()},
                 bundle.path(str(out), rid))
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
            out[name] = own_folders(members[bundle.member_of(source, ref)], doc["id"])
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
