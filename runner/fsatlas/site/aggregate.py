"""Derives what the site reads from the result files: data/aggregates/, and per result file a
generated Hugo page and an explorer chunk.

Incremental, like make. Each result file is read once into a digest: its summary, its cells'
headline figures (no samples, no raw paths) and what the explorer's index says of it. The
digest is cached under BUILD/cache/digests/ by the file's size and mtime and by this code,
and the page and chunk are written only then. A rebuild reads the small digests, not every
result file. The aggregates across results (newest cell values, rankings, claims, the
explorer's index) are folds over the digests that take them one at a time in any order, so
memory holds one result, not all of them; and whose states merge, so each worker folds the
digests of the results it derived and sends the fold of each batch, not its digests.

Python computes every figure here; templates only display. Only files that pass validation
are derived, each by the worker that checked it, from the bytes it read (validation.FileChecks):
a broken result file stops the build with its problems listed.
"""
import collections
import functools
import hashlib
import json
import os
import re
import shlex
import shutil
import sys
from functools import lru_cache
from importlib import resources

import frontmatter
import msgspec
import orjson

from ..results import bundle, comparison, contention, export, filesig, flags, machines, metrics, parallel, probefile, resultfile, shares, stats, validation
from . import articles, explorer, best_per_key, feature_matrix, limits, run_rule, knowledge as knowledge_mod, pairs as pairs_mod, probes as probes_mod, result_chart, result_tables
from ..run import matrix as matrix_mod
from .. import outfile
from ..errors import UserError

ROW_COLUMNS = ["result", "machine", "key", "label", "filesystem", "variant", "workload", "mkfs", "mount", "driver",
               "status", "reason", "flags", "metric", "unit", "better", "mean", "median", "stddev",
               "rsd_pct", "ci_low", "ci_high", "n", "samples", "shown"]  # shown: the figures as pages print them
STATUSES = ("ok", "skipped", "failed")
_NO_FIGURES = dict.fromkeys(ROW_COLUMNS[ROW_COLUMNS.index("metric"):])  # a cell's row when it has no metric


def cell_rows(result: dict) -> list[dict]:
    """One row per (cell, metric), every ROW_COLUMNS key present; a cell that is not ok gives
    one row with no metric."""
    rows = []
    show = knowledge_mod.display
    for cell in result["cells"]:
        variant = cell.get("variant", "defaults")
        dims = result_tables.dimensions(cell["key"])
        label = " ".join(x for x in (cell["filesystem"], "" if variant == "defaults" else variant, dims) if x)
        base = {"result": result["id"], "machine": result["system"]["machine"], "key": cell["key"],
                "label": label, "filesystem": cell["filesystem"], "variant": variant,
                "workload": cell["workload"], "mkfs": " ".join(cell["mkfs_options"]) or "defaults",
                "mount": ",".join(cell["mount_options"]) or "defaults", "driver": cell["driver"],
                "status": cell["status"], "reason": cell.get("reason", ""), "flags": cell["flags"]}
        if not cell["metrics"]:
            rows.append(base | _NO_FIGURES)
        for name, m in cell["metrics"].items():
            unit = m["unit"]
            # never below zero, where no quantity shown can be; one sample has no interval and no
            # spread: None, which every page prints as words (knowledge.NO_INTERVAL, NO_RSD)
            low, high = stats.bounded_interval(m) or (None, None)
            rsd = stats.shown_rsd(m)
            rows.append({**base, "metric": name, "unit": unit, "better": m["better"],
                         "mean": m["mean"], "median": m["median"], "stddev": m["stddev"],
                         "rsd_pct": rsd, "ci_low": low, "ci_high": high,
                         "n": len(m["samples"]), "samples": m["samples"],
                         "shown": {"mean": show(m["mean"], unit), "median": show(m["median"], unit),
                                   "ci": knowledge_mod.shown_interval(low, high, unit),
                                   "rsd": knowledge_mod.shown_rsd(rsd)}})
    return rows


THROUGHPUT_FIELDS = ("result", "machine", "key", "label", "filesystem", "variant", "workload", "mkfs", "mount", "status", "reason",
                     "flags", "metric", "mean", "ci_low", "ci_high", "rsd_pct", "n", "samples")


def throughput_rows(rows: list[dict], machine_name: str) -> list[dict]:
    """What the throughput chart and its table show: each cell's throughput, and each cell not
    measured, with just the fields they use and the figures as the table prints them (MB/s);
    machine_name: the run's machine's name for readers (results/machines.name), which the
    chart's hover gives beside its label as the guides' charts do (#62)."""
    out = []
    for row in rows:
        if row["metric"] == "throughput" or row["status"] != "ok":
            slim = {name: row[name] for name in THROUGHPUT_FIELDS} | {"machine_name": machine_name}
            if row["status"] == "ok":
                slim["shown"] = _throughput_shown(row)
            out.append(slim)
    return out


def _throughput_shown(m: dict) -> dict:
    """A throughput figure (mean, interval, rsd_pct and unit) as the chart's table prints it (MB/s)."""
    number = knowledge_mod.display_number
    return {"mean": number(m["mean"], m["unit"]), "rsd": knowledge_mod.shown_rsd(m["rsd_pct"]),
            "ci": knowledge_mod.shown_interval(m["ci_low"], m["ci_high"], m["unit"], number, number, "–")}


def shown_cells(cells: dict) -> dict:
    """The run rule's cells (NewestCells) as pages print them: each metric with its human label
    (metrics.label) and its 95 % interval in the site's units (the figures every other page
    shows: cell_rows's), and each cell with the anchor of its rows on its result's page of every
    cell (result_tables.cell_anchor), which the filesystem pages' "measured here" rows link to."""
    return {key: {**cell, "anchor": result_tables.cell_anchor(key),
                  "metrics": {name: {**m, "label": metrics.label(name),
                                     "ci": knowledge_mod.shown_interval(m["ci_low"], m["ci_high"], m["unit"]),
                                     "rsd": knowledge_mod.shown_rsd(m["rsd_pct"])}
                              for name, m in cell["metrics"].items()}}
            for key, cell in cells.items()}


def rule_throughput_rows(cells: dict) -> list[dict]:
    """The throughput chart rows of the filesystem pages: each shared cell's throughput as
    run_rule picks it (NewestCells, the figure the table under the chart shows), in the fields
    and shape of throughput_rows. The chart showed the reference run's instead: ext4
    rand-write-4k at 128 MB/s above a table reading 255 MB/s (issue 62)."""
    out = []
    for entry in cells.values():
        if not entry["shared"]:
            continue
        m = entry["metrics"].get("throughput")
        if entry["status"] == "ok" and not m:
            continue
        row = {"result": entry["result"], "machine": entry["machine"], "machine_name": entry["machine_name"],
               "key": entry["key"], "filesystem": entry["filesystem"],
               "variant": entry["variant"], "workload": entry["workload"], "mkfs": entry["mkfs"] or "defaults",
               "mount": entry["mount"] or "defaults", "status": entry["status"], "reason": entry["reason"],
               "flags": entry["flags"],
               "label": " ".join(x for x in (entry["filesystem"], "" if entry["variant"] == "defaults" else entry["variant"],
                                             entry["dimensions"]) if x)}
        if m:
            row |= {"metric": "throughput", **{k: m[k] for k in ("mean", "ci_low", "ci_high", "rsd_pct", "n", "samples")},
                    "shown": _throughput_shown(m)}
        else:
            row |= {name: _NO_FIGURES.get(name) for name in ("metric", "mean", "ci_low", "ci_high", "rsd_pct", "n", "samples")}
        out.append(row)
    return out


def result_summary(result: dict) -> dict:
    counts = {status: sum(c["status"] == status for c in result["cells"]) for status in STATUSES}
    system = resultfile.system_shown(result["system"])
    return {"id": result["id"], "created": result["created"], "machine": system["machine"],
            # when it was measured: an import's own output's time (its `measured`), else the run's;
            # "" where an import's output states none
            "measured_on": (result["measured"]["time"] if "measured" in result
                            else "" if shares.imported(result) else result["created"])[:10],
            "kernel": system["kernel"], "profile": result.get("profile", ""),
            "runs_anchor": runs_anchor(system["machine"], result.get("profile", ""),
                                       validation.hardware(result["system"])),
            "target": result["target"]["kind"], "virtualization": system["virtualization"],
            "complete": result.get("complete", True), "cells": len(result["cells"]), **counts,
            "system": machines.system_line(result), "machine_name": machines.name(result),
            "memory": machines.memory_text(result["system"]["memory_bytes"]) if result["system"].get("memory_bytes") else "",
            "hardware": machines.hardware(result),
            # what the compare page pairs and the run rule counts: the filesystems this run
            # measured with default options on the project's matrix (run_rule.shared)
            "filesystems": sorted({c["filesystem"] for c in result["cells"] if c["status"] == "ok"
                                   and c.get("variant", "defaults") == "defaults" and run_rule.shared(c["key"])})}


def runs_anchor(machine: str, profile: str, hardware: list | None = None) -> str:
    """The id, on /results/, of the list of every run of one machine and profile (run_groups),
    which each of their pages links to: readable words and a digest, as cell_anchor. A machine
    is its label and the hardware validation.hardware() says two results under one label must
    share to be one machine: a result that takes a label with other hardware is a machine of its
    own here, not another run of the label's (#65 round 52: a copied quick run with another CPU
    put "1 other run" and a link to itself on a genuine run's page)."""
    words = "-".join(re.findall(r"[A-Za-z0-9]+", f"{machine} {profile}"))
    both = f"{machine}\0{profile}" + (f"\0{json.dumps(hardware[1:])}" if hardware else "")
    return f"runs-{words}-{hashlib.sha1(both.encode()).hexdigest()[:6]}"


def run_groups(summaries: list) -> list:
    """Every run of each machine (runs_anchor: its label and hardware) and profile, newest first,
    a group by group: the list /results/ shows so that a result page's reader can pick another
    run of its machine and profile without a script (one page, made every build; a result page carries only how many
    other runs its group has and a link here: other_runs)."""
    groups: dict[str, dict] = {}
    for s in summaries:  # newest first
        group = groups.setdefault(s["runs_anchor"], {"anchor": s["runs_anchor"], "machine": s["machine"],
                                                     "machine_name": s["machine_name"], "profile": s["profile"], "runs": []})
        group["runs"].append({"id": s["id"], "measured_on": s["measured_on"], "complete": s["complete"]})
    return sorted(groups.values(), key=lambda g: (g["machine_name"], g["machine"], g["profile"]))


def other_runs(summaries: list) -> dict:
    """result id -> its page's sentence on the other runs of its machine label and profile (those
    of its group in run_groups, counted; result_tables.other_runs), "" for a run alone in its group.
    fsatlas site puts it in the page and renders again each page whose sentence changed: a run
    added renders the pages of its group again, not every page."""
    sizes = collections.Counter(s["runs_anchor"] for s in summaries)
    return {s["id"]: result_tables.other_runs(s, sizes[s["runs_anchor"]] - 1) for s in summaries}


def machine_twins(summaries: list) -> dict:
    """label -> {"name": its name for readers, "twins": the other labels whose results record the
    same hardware, with the name of each} (results/machines.twins), for the list of such labels
    on /results/ (one page: a label's twins change without any result page being rendered again).
    A label is the machine most of its results record (CPU, CPU count, memory: a tie, its earliest
    run), as migrate keeps it: its name is the newest of those results', its records theirs, so a
    result added under the label with other hardware changes neither (#65 round 54)."""
    kinds: dict[str, dict] = {}
    for s in summaries:  # newest first
        h = s["hardware"]
        kinds.setdefault(s["machine"], {}).setdefault((h["cpu"], h["cpus"], h["memory_gib"]), []).append(s)
    records, names = {}, {}
    for label, by_hardware in kinds.items():
        kept = by_hardware[machines.kept_hardware({k: [(r["created"], r["id"]) for r in runs]
                                                   for k, runs in by_hardware.items()})]
        names[label] = kept[0]["machine_name"]
        records[label] = []
        for s in kept:
            if s["hardware"] not in records[label]:
                records[label].append(s["hardware"])
    return {label: {"name": names[label], "twins": [{"machine": other, "name": names[other]} for other in others]}
            for label, others in machines.twins(records).items()}


RUN_SYSTEMS = "charts/runs.json"  # under the site's root: run_systems(), fetched when a reader saves a chart


def run_systems(summaries: list) -> dict:
    """Each run's machine and system in the words a saved chart prints under it (static/js/chart-export.js):
    {"systems": ["machine (label); system line", ...], "runs": {result id: its index in
    systems}}: the machine as readers see it (machines.shown) and machines.system_line (CPU,
    memory, the storage under the image, kernel; "system not recorded" for an import that records
    none). One file for the site, fetched only when a chart is saved, each line once however many
    runs share it: 10,000 runs of a few machines are an id and a number each."""
    systems: dict[str, int] = {}
    runs = {}
    for s in sorted(summaries, key=lambda s: s["id"]):
        line = f"{machines.shown(s['machine_name'], s['machine'])}; {s['system']}"
        runs[s["id"]] = systems.setdefault(line, len(systems))
    return {"systems": list(systems), "runs": runs}




def digest(result: dict, rows: list[dict] | None = None) -> dict:
    """What the aggregates across results need of one result file; rows: its cell_rows, whose
    figures it takes (made again if not given)."""
    metrics: dict[str, dict] = {}
    for row in cell_rows(result) if rows is None else rows:
        if row["metric"]:
            metrics.setdefault(row["key"], {})[row["metric"]] = {
                "mean": row["mean"], "ci_low": row["ci_low"], "ci_high": row["ci_high"], "rsd_pct": row["rsd_pct"],
                "n": row["n"], "samples": row["samples"], "unit": row["unit"], "better": row["better"],
                "display": row["shown"]["mean"]}
    cells = []
    for cell in result["cells"]:
        for name, m in cell["metrics"].items():  # what a PTS figure's unit means (comparison.unit_of)
            if "pts_scale" in m and name in metrics.get(cell["key"], {}):
                metrics[cell["key"]][name]["pts_scale"] = m["pts_scale"]
        cells.append({
            "key": cell["key"], "filesystem": cell["filesystem"], "workload": cell["workload"],
            "variant": cell.get("variant", "defaults"), "dimensions": result_tables.dimensions(cell["key"]),
            "mkfs": " ".join(cell["mkfs_options"]), "mount": ",".join(cell["mount_options"]),
            "driver": cell["driver"], "command": explorer.cell_argument(cell["key"]),
            "status": cell["status"], "reason": cell.get("reason", ""), "flags": cell["flags"],
            "started": cell.get("started", []), "device_io": cell.get("device_io", []),
            "timed_io": cell.get("timed_io", []), "effective_mount_options": cell.get("effective_mount_options", ""),
            "host": cell.get("host", []), "wall_seconds": cell.get("wall_seconds", 0),
            # what comparison.cells_plan reads besides the run's factors, so the compare page, the
            # explorer and the rankings decide a pair of cells as `fsatlas compare` does: the
            # parameters, and of an import's outputs only their tools' versions
            "parameters": cell.get("parameters") or {},
            **({"imported_runs": [{"tool": t} for t in sorted({r["tool"] for r in cell["imported_runs"] if r.get("tool")})]}
               if cell.get("imported_runs") else {}),
            "metrics": metrics.get(cell["key"], {})})
    target = result["target"]
    # the raw device's figures on each job, for the compare page's view across two runs
    baseline = {job: {name: {"mean": m["mean"], "unit": m["unit"], "rsd_pct": m["rsd_pct"]} for name, m in ms.items()}
                for job, ms in (target.get("baseline") or {}).items()}
    made = {"id": result["id"], "created": result["created"], "cells": cells}
    return {"id": result["id"], "created": result["created"], "complete": result.get("complete", True),
            "machine": result["system"]["machine"], "kernel": resultfile.system_shown(result["system"])["kernel"],
            "target": target["kind"], "summary": result_summary(result), "factors": comparison.factors(result),
            # what run_rule.FirstRuns folds of each run: the filesystems of each group it measured
            "measured": {run_rule.group_name(g): fs for g, fs in run_rule.measured(made).items()},
            "baseline": baseline, "baseline_written": bool(target.get("baseline_written")),
            "facts": shares.strings(result), "vocabulary": shares.vocabulary(result), "cells": cells}


class NewestCells:
    """Per cell key, its measurement by run_rule.RULE (or, if never measured, why not): what
    shortcodes and filesystem pages look figures up in. Fed one digest at a time."""

    CELL_FIELDS = ("key", "filesystem", "workload", "variant", "dimensions", "mkfs", "mount", "status", "reason",
                   "flags", "metrics")

    def __init__(self, state: list | None = None):
        self.best = best_per_key.Best().restore(state or [])

    def state(self) -> list:
        return self.best.state()

    def merge(self, state: list) -> None:
        self.best.merge(state)

    def add(self, digest: dict) -> None:
        wide = run_rule.breadth(digest)
        for cell in digest["cells"]:
            ok = cell["status"] == "ok"
            rank = (ok, *run_rule.rank(wide.get((cell["workload"], cell["dimensions"], cell["variant"]), 0) if ok else 0,
                                        digest))
            self.best.offer(cell["key"], rank, lambda: {
                **{name: cell[name] for name in self.CELL_FIELDS}, "shared": run_rule.shared(cell["key"]),
                "reason": shares.clipped(cell["reason"], shares.REASON_SHARED_CHARS),
                "result": digest["id"], "machine": digest["machine"], "kernel": digest["kernel"],
                "machine_name": digest["summary"]["machine_name"]})

    def result(self) -> dict:
        return {key: entry for key, (_, entry) in sorted(self.best.items.items())}

    @classmethod
    def of_run(cls, digest: dict) -> dict:
        """One run's cells alone, in the same shape (a pinned article's figures)."""
        one = cls()
        one.add(digest)
        return one.result()


class Aggregation:
    """Every fold across results, and which result files (id -> signature) it holds. Saved
    after each run: when results were only added since, the next run folds in just those;
    any change or removal, or other code or claims, folds every digest again."""

    def __init__(self, knowledge: dict, state: dict | None = None):
        state = state or {}
        self.members = state.get("members", {})
        self.summaries = state.get("summaries", [])
        self.newest = NewestCells(state.get("newest"))
        self.rankings = knowledge_mod.Rankings(state.get("rankings"))
        self.claims = knowledge_mod.ClaimEvidence(knowledge, state.get("claims"))
        self.index = explorer.Index(state.get("index"))
        self.picks = run_rule.FirstRuns(state.get("picks"))

    def add(self, rid: str, signature: list, digest: dict) -> None:
        self.members[rid] = signature
        self.summaries.append(digest["summary"])
        for fold in self._folds().values():
            fold.add(digest)

    def _folds(self) -> dict:
        """Each fold by the name its state is saved under."""
        return {"newest": self.newest, "rankings": self.rankings, "claims": self.claims, "index": self.index,
                "picks": self.picks}

    def state(self) -> dict:
        return {"members": self.members, "summaries": self.summaries,
                **{name: fold.state() for name, fold in self._folds().items()}}

    def merge(self, state: dict) -> None:
        """Folds in another Aggregation's state(): as if its results were added here, in its
        order, after this one's (what a worker folded of the results it derived)."""
        self.members.update(state["members"])
        self.summaries += state["summaries"]
        for name, fold in self._folds().items():
            fold.merge(state[name])

    def save(self, path: str) -> None:
        write_packed(path, {"code": code_digest(), "comparisons": [list(c) for c in self.claims.comparisons],
                            **self.state()})

    @classmethod
    def resume(cls, path: str, knowledge: dict, current: dict) -> "Aggregation | None":
        """The saved aggregation, if every result it holds is still there unchanged."""
        state = read_packed(path)
        try:
            if state is None or state.get("code") != code_digest() or any(
                    current.get(rid) != sig for rid, sig in state["members"].items()):
                return None
            run = cls(knowledge, state)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None
        # claims weighed differently now: their folds hold the wrong comparisons
        return run if state.get("comparisons") == [list(c) for c in run.claims.comparisons] else None


class CompactJSON(frontmatter.JSONHandler):
    """JSON front matter on one line between a '{' line and a '}' line: Hugo reads it, so does
    python-frontmatter, and it is ten times faster to write than YAML at 10,000 results."""

    def export(self, metadata, **kwargs) -> str:
        body = compact_json(metadata).decode()
        return "{\n" + body[1:-1] + "\n}"


# Contributor text is data wherever it is published: in JSON, <, > and & (and the two line
# separators JavaScript once read as line ends) are written as \u escapes, so no published JSON
# file or front matter can close a script element or be read as markup by a page that fetches it.
# In JSON text these characters can only stand inside strings, so replacing them keeps the value.
_UNSAFE = {b"<": b"\\u003c", b">": b"\\u003e", b"&": b"\\u0026",
           "\u2028".encode(): b"\\u2028", "\u2029".encode(): b"\\u2029"}


# The first bytes of _UNSAFE's characters: a text holding none of them (most) is returned as it
# is after a search for each (memchr: 5 µs on a 165 KB result file, where the regex takes 320).
_UNSAFE_FIRST = sorted({k[:1] for k in _UNSAFE})


def escape_json_bytes(text: bytes) -> bytes:
    """JSON text with the characters of _UNSAFE escaped (the value it encodes is unchanged)."""
    if not any(first in text for first in _UNSAFE_FIRST):
        return text
    # one bytes.replace a character (no replacement holds another's character): a result page's
    # tables, HTML in JSON, have thousands of them, which a regex's callback took 0.5 µs each to replace
    for unsafe, escaped in _UNSAFE.items():
        text = text.replace(unsafe, escaped)
    return text


def compact_json(value) -> bytes:
    """JSON on one line, UTF-8 as it is but for _UNSAFE, for the files derived from each result:
    orjson wrote a quick result's chart rows, chunk and digest (a digest was JSON then:
    DIGEST_SUFFIX) in 0.3 ms, json in 3.7 ms. Bytes, as they are written: a digest decoded to
    text and encoded again took 0.1 ms more."""
    return escape_json_bytes(orjson.dumps(value, default=str))


PUBLISHED_RESULTS = "files/results"  # under the site's root: each result file as a reader downloads it


PUBLISHED_BUNDLES = "files/raw"  # each result's raw bundle, as results/bundle.py writes it


def publish_result(path: str, text: bytes, target: str) -> None:
    """The result file at path (its bytes: text) as the site serves it: the same bytes,
    hard-linked, when nothing in it needs escaping (most files; no copy at 10,000 results), else
    a copy with _UNSAFE escaped."""
    safe = escape_json_bytes(text)
    if not (safe == text and _linked(path, target)):
        write_if_changed(target, safe)  # a new file renamed into place: a link's source is kept


def publish_bundle(path: str, target: str) -> None:
    """A result's raw bundle as the site serves it, hard-linked (else copied); validation has
    read it (make data), and a reader's browser only downloads it."""
    if not _linked(path, target):
        tmp = outfile.temporary_for(target)
        shutil.copyfile(path, tmp)
        os.replace(tmp, target)


def _linked(path: str, target: str) -> bool:
    """Whether target is (now) a hard link to path; False on a filesystem without links. Where
    there is no target yet (a first build: 20,000 of them at 10,000 results), the link is made
    in place, one call, as atomic as a rename; else through a temporary and a rename."""
    try:
        os.link(path, target)
        filesig.linked(path)
        return True
    except FileExistsError:
        pass
    except OSError:
        return False
    try:  # linked already (a rename between two links to one file would leave the temporary)
        if os.path.samefile(path, target):
            return True
    except OSError:
        pass
    tmp = outfile.temporary_for(target)
    _unlink_quietly(tmp)
    try:
        os.link(path, tmp)
        os.replace(tmp, target)
        filesig.linked(path)
        return True
    except OSError:
        _unlink_quietly(tmp)
        return False


def result_page(result: dict, summary: dict, tables: bytes) -> str:
    """A generated Hugo page for one result file: its metadata as front matter. Its tables
    (result_tables.pack) are files of their own, which `fsatlas site` puts in the rendered page;
    their digest is here so that a page whose tables changed is rendered again."""
    ok = [c for c in result["cells"] if c["status"] == "ok"]
    post = frontmatter.Post(
        "", title=f"Result {result['id']}", date=result["created"], result_id=result["id"],
        summary_row=summary, system_facts=machines.system_facts(result), measured=result.get("measured"), tool=result["tool"],
        submitter=result.get("submitter", ""), notes=result.get("notes", ""),
        wall_seconds=result.get("wall_seconds"), raw_bundle=any(c["raw"] for c in result["cells"]),
        tables_digest=hashlib.sha256(tables).hexdigest()[:16], throughput_chart_file=chart_file(result["id"]),
        nothing_measured=not any(c["status"] == "ok" for c in result["cells"]),  # charts/chart.html says so, no chart
        # measured, but no cell measured throughput (an import of latencies, of IOPS): what it did
        # measure, which the page names instead of an empty chart and table
        no_throughput=sorted({m for c in ok for m in c["metrics"]}) if ok and not any("throughput" in c["metrics"] for c in ok) else [],
        some_not_ok=len(ok) < len(result["cells"]),
        own_run=own_run(result))
    return frontmatter.dumps(post, handler=CompactJSON()) + "\n"


def own_run(result: dict) -> dict:
    """The result page's "compare your own system" command: the run of exactly the result's
    cells, in its own profile and target (shares.rerun_prefix, every word quoted), which the page
    puts inside `fsatlas compare THIS.json "$(...)"` (fsatlas run prints the new result's path);
    and the result's cells today's runner no longer knows (its matrix's profile has no such key,
    with any option variant), which the page names: the command cannot run them, and says so
    rather than dropping them silently. The cells are named by the shortest of the runner's
    selections that gives exactly them (--fs; --fs and --workload; and --variant: a standard run
    of whole filesystems, a run of some workloads, `--profile quick --variant noatime`), else one
    --cell each (12 KB of command for a 284-cell run). An imported result (profile import-TOOL)
    has none ({}: the page says so instead): no fsatlas profile re-measures another tool's output."""
    prefix = shares.rerun_prefix(result)
    if not prefix:
        return {}
    wanted, profile = list(dict.fromkeys(c["key"] for c in result["cells"])), result.get("profile") or "standard"
    known = profile_cells(profile)
    have = [key for key in wanted if key in known]
    unknown = [key for key in wanted if key not in known]
    if not have:
        return {"command": "", "unknown": unknown, "profile": profile}
    fs, workloads, variants = (list(dict.fromkeys(known[key][i] for key in have)) for i in range(3))
    planned = all(known[key][3] for key in have)
    option = lambda name, values: f"--{name} {shlex.quote(','.join(values))}"  # noqa: E731
    # what `fsatlas run` selects with these options: the matrix's own selection (Matrix.profile)
    m = _matrix()
    selects = lambda w, v: {c.key for c in m.profile(profile, filesystems=fs, workloads=w, variants=v).cells}  # noqa: E731
    for w, v in ((None, None), (workloads, None), (workloads, variants)):
        if (planned or v) and selects(w, v) == set(have):
            words = [option("fs", fs)] + ([option("workload", w)] if w else []) + [f"--variant {shlex.quote(x)}" for x in v or []]
            break
    else:
        words = ([] if planned else [f"--variant {shlex.quote(x)}" for x in variants]) + [explorer.cell_argument(k) for k in have]
    return {"command": prefix + " ".join(words), "unknown": unknown, "profile": profile}


@lru_cache(maxsize=1)
def _matrix():
    """The runner's matrix, read once an aggregation (own_run reads it for every result)."""
    return matrix_mod.load()


@lru_cache(maxsize=16)
def profile_cells(profile: str) -> dict:
    """Each cell key the matrix's profile runs today with any of its option variants, as
    (filesystem, workload, variant, whether the profile plans it without --variant); {} for a
    profile the matrix does not have (a result's own matrix, which this runner cannot run again)."""
    m = _matrix()
    if profile not in m.profiles:
        return {}
    planned = {c.key for c in m.profile(profile).cells}
    return {c.key: (c.filesystem, c.workload, c.variant, c.key in planned)
            for c in m.profile(profile, variants=["defaults", *m.variants]).cells}


CHART_FILES = "charts/results"  # under the site's root: each result's throughput chart rows, fetched by the chart


def chart_file(rid: str) -> str:
    """Where the site serves a result's throughput chart rows (a file of Outputs.charts). They
    are not in the page: Hugo would decode them from the front matter and scan them again as it
    writes, for each of 10,000 pages at every full render (12 % of its CPU, measured)."""
    return f"{CHART_FILES}/{rid}.json"


def _unlink_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def write_bytes_atomic(path: str, data: bytes) -> None:
    """The file's bytes replaced at once: written to a temporary file, then renamed."""
    tmp = outfile.temporary_for(path)
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def write_if_changed(path: str, data: bytes) -> bool:
    """Writes only when the bytes differ, so Hugo's and the reader's caches stay valid."""
    try:
        with open(path, "rb") as f:
            if f.read() == data:
                return False
    except OSError:
        pass
    write_bytes_atomic(path, data)
    return True


def remove_stale(folder: str, wanted: set, suffix: str, names: set | None = None) -> None:
    """Removes the generated files (ending in SUFFIX) of results that are gone; NAMES: the
    folder's listing if the caller has it already."""
    for name in os.listdir(folder) if names is None else names:
        if name.endswith(suffix) and name not in wanted and name != "_index.md":
            os.unlink(os.path.join(folder, name))


def curated_rows(data_dir: str, knowledge: dict, outputs) -> dict:
    """What the pages show of the probe records and the feature matrix: each probe's findings
    (probes.rows) and why each unanswered cell is (unanswered_reasons: check-data's honest count,
    the same cells). They follow from the curated data and the probe records alone, so they are
    kept while those files and the package's code are unchanged: they were part of every
    rebuild's fixed cost (#65). Each probe record's bundle is published every time, as the page
    links it."""
    read = []  # each probe record and its bundle (whose transcripts name a driver a record does not)
    for path in probefile.files(data_dir):
        rid = os.path.basename(path)[:-len(".json")]
        read += [path, bundle.path(os.path.dirname(path), rid)]
        publish_bundle(read[-1], os.path.join(outputs.bundles, f"{rid}{bundle.SUFFIX}"))
    key = [knowledge_mod.package_digest(),
           [[path, filesig.stat_signature(path)] for path in [*knowledge_mod.curated_files(data_dir), *read]]]
    return kept(outputs.curated, key, lambda: {
        "probes": probes_mod.rows(data_dir, knowledge["features"], lambda source, rid: None),
        # why each unanswered cell of the feature matrix is (check-data's honest count: the same cells)
        "unanswered": unanswered_reasons(knowledge, knowledge_mod.probe_records(data_dir)),
        "limit_sort": limit_sort(knowledge["features"])})


def limit_sort(features: dict) -> dict:
    """filesystem -> limit column -> the limit in its column's unit (binary prefixes where a decimal
    one may stand for either), for the tables' sorting: the one reading of a limit's text
    (limits.limit_amount) that check-data holds it to, not a second parser in the page's
    script (round 46: "256 quadrillion ZB" sorted as 256, "1 s" beside "1 ns"). A float, as
    JavaScript compares it; "Infinity" past any float."""
    out: dict = {}
    for fs, data in features.items():
        for key, fact in data["features"].items():
            amount = limits.limit_amount(key, fact["limit"]) if "limit" in fact else None
            if amount is not None:
                value, _, factors, _ = amount
                number = float(value * max(factors)) if value.is_finite() else float("inf")
                out.setdefault(fs, {})[key] = "Infinity" if number == float("inf") else repr(number)
    return out


# What the site's templates read of each run in data/aggregates/results.json (results/list.html,
# results/rss.xml, _default/sitemap.xml). Hugo parses the file at every build, and the rest of a
# summary (its system line and hardware record, its filesystems) was 60 % of its 7.4 MB at 10,000
# results: 0.1 s of every build (#65).
LISTED = ("id", "created", "measured_on", "machine", "machine_name", "kernel", "profile", "target", "ok", "skipped",
          "failed")


def listed(summary: dict) -> dict:
    """A run's row in data/aggregates/results.json: LISTED, and its CPU and CPU count."""
    return {**{k: summary[k] for k in LISTED if k in summary},
            "hardware": {k: summary["hardware"].get(k) for k in ("cpu", "cpus")}}


def unanswered_reasons(knowledge: dict, records: dict) -> dict:
    """filesystem -> column -> why, of every cell check-data's honest count counts unanswered:
    those no source or probe answers, and those answered on sources that do not state them for
    that filesystem (feature_matrix.unstated), which the pages mark unanswered beside their value."""
    cells = feature_matrix.cells(knowledge, records)
    return feature_matrix.reasons(cells, feature_matrix.unstated(knowledge, cells))


def matrix_summary(m) -> dict:
    """The standard matrix as the methodology page shows it: each workload with what it
    reproduces and, per profile, its parameters and (for fio) the exact job file."""
    from ..run.workloads import fio
    workloads = {}
    for name, spec in m.workloads.items():
        profiles = {}
        for pname, pspec in m.profiles.items():
            if name not in pspec["workloads"]:
                continue  # a profile may leave a workload out (tiny has no background-writes)
            cells = [c for c in m.profile(pname, workloads=[name], variants=["defaults"]).cells]
            if not cells:
                continue
            cell = cells[0]
            entry = {"parameters": {k: ",".join(map(str, v)) if isinstance(v, list) else v
                                    for k, v in cell.parameters.items()},
                     "budget_s": cell.budget_s, "sweep": ", ".join(dict.fromkeys(c.key.split("|", 4)[-1] for c in cells if c.dimensions))}
            if spec["kind"] == "fio":
                entry["job"] = fio.job_file(name, cell.parameters, {"directory": "<mount point>/rep-N"})
            profiles[pname] = entry
        workloads[name] = {"name": name, "kind": spec["kind"], "reproduces": spec.get("reproduces", ""),
                           "primary": spec.get("primary", ""), "dimensions": spec.get("dimensions", []),
                           "io": spec.get("io", "device"), "profiles": profiles}
    from ..run import execution
    return {"workloads": workloads, "figures_from": metrics.FROM,
            "rules": {"rsd_limit_pct": flags.RSD_LIMIT_PCT, "max_repeat_factor": execution.MAX_REPEAT_FACTOR,
                      "cached_factor": flags.CACHED_FACTOR, "noisy_half_width_pct": flags.NOISY_HALF_WIDTH_PCT,
                      "contention_others_cpu": contention.OTHERS_CPU_SHARE, "contention_steal_pct": contention.STEAL_PCT,
                      "contention_iowait_pct": contention.IOWAIT_PCT, "contention_retries": execution.CONTENTION_RETRIES,
                      "alpha": comparison.ALPHA,
                      "power": comparison.POWER,
                      "no_effect_pct": knowledge_mod.NO_EFFECT_PCT, "agree_low": knowledge_mod.AGREE[0],
                      "agree_high": knowledge_mod.AGREE[1]},
            "profiles": {n: {"name": n, "description": p.get("description", ""), "image_size": p["image_size"],
                             "repetitions": p["repetitions"], "adaptive": bool(p.get("adaptive"))}
                         for n, p in m.profiles.items()},
            "variants": {n: {"name": n, "filesystems": v["filesystems"], "mkfs": " ".join(v.get("mkfs", [])),
                             "mount": ",".join(v.get("mount", [])), "workloads": v["workloads"],
                             "striped": bool(v.get("striped"))} for n, v in m.variants.items()},
            "filesystems": {n: {"name": n, "mkfs": " ".join(f["mkfs"]), "driver": f.get("driver", "kernel")}
                            for n, f in m.filesystems.items()}}


def filesystem_page(fs: str, feature: dict | None) -> str:
    title = feature["name"] if feature else fs
    post = frontmatter.Post("", title=title, filesystem=fs, description=feature["summary"] if feature else "")
    return frontmatter.dumps(post) + "\n"


def write_pages(folder: str, pages: dict, suffix: str = ".md") -> None:
    """Writes {file name: text} into folder (only what changed) and removes the generated
    files (ending in SUFFIX) no longer wanted."""
    os.makedirs(folder, exist_ok=True)
    for name, text in pages.items():
        write_if_changed(os.path.join(folder, name), text.encode())
    remove_stale(folder, set(pages), suffix)


def check_results(problems: list, where: str) -> None:
    """A broken result file, or anything in the results folder that is not one, stops the
    build (validation is cached; raw files are rechecked by `fsatlas validate`, which make data
    and the pull-request check run first); one label naming two machines is a warning."""
    problems = validation.reviewed(problems)
    for problem in problems:
        if problem.severity == "warning" and problem.path == "/system/machine":  # one label, two machines
            print(problem, file=sys.stderr)
    problems = [p for p in problems if p.severity == "error"]
    if problems:
        listing = "\n".join(str(p) for p in problems[:20])
        raise UserError(f"{len(problems)} problems in result files; fix them first:", where=where, listing=listing)


@lru_cache(maxsize=1)
def code_digest() -> str:
    """Changes whenever what a digest, page or chunk holds may change: the code that makes
    them and the matrix (explorer shares are taken against its baseline workloads)."""
    from .. import __version__
    h = hashlib.sha256(__version__.encode())
    package = resources.files("fsatlas")
    for part in ("site/aggregate.py", "site/explorer.py", "site/knowledge.py", "site/pairs.py", "site/report.py",
                 "results/machines.py",
                 "site/run_rule.py",
                 "site/result_tables.py", "site/result_chart.py",
                 "results/comparison.py", "results/flags.py", "results/metrics.py", "results/shares.py", "results/stats.py",
                 "run/matrix/standard.yaml"):
        h.update((package / part).read_bytes())
    for path in (result_chart.SPEC, result_chart.CHART_SPEC_JS):  # what a result page's chart is drawn from
        with open(path, "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:16]


def latest_rows(latest: dict | None, paths: dict, signatures: dict, cache_file: str) -> dict:
    """The newest complete result's rows (every metric) and throughput rows, for list pages;
    kept in cache_file while that result and this code are unchanged (deriving them takes
    scipy, whose import alone is a second: most rebuilds would pay it for nothing)."""
    key = [code_digest(), latest["id"] if latest else None, signatures.get(latest["id"]) if latest else None]
    return kept(cache_file, key, lambda: _latest_rows(latest, paths))


def kept(cache_file: str, key: list, make):
    """What make() returns, kept in cache_file under key: made again only when the key changed."""
    try:
        with open(cache_file, encoding="utf-8") as f:
            stored = json.load(f)
        if stored.get("key") == key:
            return stored["value"]
    except (OSError, ValueError, AttributeError):
        pass
    made = make()
    write_bytes_atomic(cache_file, compact_json({"key": key, "value": made}))
    return made


def judged(run, knowledge: dict, cache_file: str, digest_of) -> dict:
    """The rankings and the claims' verdicts, kept in cache_file while what they are judged from
    is unchanged: the rows each ranking and claim holds (the states of Rankings and
    ClaimEvidence, which change only when a result wins a place in them), the claims and this
    code. Judging takes scipy and statsmodels, whose imports alone are a second that a result
    ranking nowhere would pay for nothing (0.6 s of adding one to 10,000: PERFORMANCE.md)."""
    key = [code_digest(), hashlib.sha256(compact_json([run.rankings.state(), run.claims.state()])).hexdigest(),
           hashlib.sha256(compact_json(knowledge["mount_options"])).hexdigest()]
    return kept(cache_file, key, lambda: {"rankings": run.rankings.result(digest_of), "claims": run.claims.result()})


def compare_tables(summaries: list, picks: dict, outputs: "Outputs", signatures: dict) -> dict:
    """Writes the compare page's file of each pair of filesystems and of each filesystem's side
    for the view across runs (site/pairs.py) and returns aggregates/compare.json: each pair's
    runs (and how many it lists beyond its tables), and the default pair's tables for the page
    to hold. Each run's table of a pair, and each run's side of a filesystem, is kept while that
    run and this code are unchanged, so a result added costs its own tables only. picks: the
    run rule's (run_rule.FirstRuns.picks)."""
    measured = pairs_mod.runs_of_pairs(summaries, picks)  # every run of a pair; the first have a table
    runs = {pair: ids[:pairs_mod.RUNS_PER_PAIR] for pair, ids in measured.items()}
    by_id = {s["id"]: s for s in summaries}
    listed: dict = {}

    def also(rid: str) -> dict:  # each run's entry made once: a run is listed under every pair it measured
        if rid not in listed:
            listed[rid] = pairs_mod.also(by_id[rid])
        return listed[rid]
    stored = read_packed(outputs.pairs_cache) or {}
    before = stored.get("tables") if stored.get("code") == code_digest() else None
    before = before if isinstance(before, dict) else {}
    # what each table is made of: (its key, the run's id, how it is made from the run's digest)
    wanted = [(f"{rid}|{a}|{b}", rid, (pairs_mod.run_table, a, b)) for (a, b), ids in runs.items() for rid in ids]
    # where the rule takes a pair's workloads from several runs (or a figure from another run
    # than the other pages show), its table of them comes first
    several = {pair: chosen for pair, chosen in picks.items() if pairs_mod.needs_rule_table(chosen)}
    wanted += [(f"{pairs_mod.RULE_ID}|{a}|{b}", tuple(sorted({p[3] for p in chosen})), (pairs_mod.rule_table, a, b, chosen))
               for (a, b), chosen in several.items()]
    of_filesystems = pairs_mod.runs_of_filesystems(summaries)
    wanted += [(f"side|{rid}|{fs}", rid, (pairs_mod.side, fs)) for fs, ids in of_filesystems.items()
               for rid in ids[:pairs_mod.RUNS_PER_PAIR]]
    tables, todo = {}, []
    def signature(rid, make):  # a rule table's: its runs' and which workload each gives (JSON's lists)
        return [[signatures.get(r) for r in rid], make[3]] if isinstance(rid, tuple) else signatures.get(rid)

    for key, rid, make in wanted:
        entry = before.get(key)
        if isinstance(entry, dict) and "run" in entry and entry.get("sig") == signature(rid, make):
            tables[key] = entry
        else:
            todo.append((key, rid, make))
    # A first build makes every table (125 of them, each comparing two runs' workloads through
    # statsmodels: 3.5 s on one core), so they are made on every core.
    for batch, made in parallel.map_batches(functools.partial(_made_tables, outputs), todo,
                                            preload=comparison.PRELOAD):
        for (key, rid, make), run in zip(batch, made):
            tables[key] = {"sig": signature(rid, make), "run": run}
    tables = {key: tables[key] for key, _, _ in wanted}  # in one order, however many were kept
    sides = {f"{fs}.json": {"filesystem": fs, "across": pairs_mod.across_runs(),
                            "runs": [tables[f"side|{rid}|{fs}"]["run"] for rid in ids[:pairs_mod.RUNS_PER_PAIR]],
                            "also": [also(rid) for rid in ids[pairs_mod.RUNS_PER_PAIR:]]}
             for fs, ids in of_filesystems.items()}
    if tables != before:
        write_packed(outputs.pairs_cache, {"code": code_digest(), "tables": tables})
    for name, doc in sides.items():
        write_if_changed(os.path.join(outputs.sides, name), compact_json(doc))
    remove_stale(outputs.sides, set(sides), ".json")
    docs = {pairs_mod.pair_name(a, b): {"a": a, "b": b, "runs": [
        tables[key]["run"] for key in ([f"{pairs_mod.RULE_ID}|{a}|{b}"] if (a, b) in several else [])
        + [f"{rid}|{a}|{b}" for rid in ids] if tables[key]["run"]],
        "also": [also(rid) for rid in measured[(a, b)][pairs_mod.RUNS_PER_PAIR:]]}
        for (a, b), ids in sorted(runs.items())}
    for name, doc in docs.items():
        write_if_changed(os.path.join(outputs.pairs, f"{name}.json"), compact_json(doc))
    remove_stale(outputs.pairs, {f"{name}.json" for name in docs}, ".json")
    default = pairs_mod.default_pair(runs)
    # The page holds how many runs each pair has (their list and tables are in the pair's file,
    # fetched when the reader picks it: every run of every pair in the page grew it with each
    # result), and the default pair's runs as its picker lists them, with the first one's table.
    first = default and docs[pairs_mod.pair_name(*default)]
    listed = first and [{k: r[k] for k in ("id", "profile", "label") if k in r} for r in first["runs"]]
    return {"pairs": {name: len(doc["runs"]) for name, doc in docs.items() if doc["runs"]},
            # how many runs of each pair are listed beyond its tables, where any are: the page
            # fetches the file of a pair it shows that has some (the default pair's too) to list them
            "also": {name: len(doc["also"]) for name, doc in docs.items() if doc["runs"] and doc["also"]},
            # without the pair's runs beyond its tables ("also": a page naming one fetches the pair's file)
            "default": first and {**{k: v for k, v in first.items() if k != "also"},
                                  "runs": first["runs"][:1] + listed[1:], "listed": listed}}


def _made_tables(outputs: "Outputs", todo: list) -> list:
    """The tables of compare_tables' todo [(key, run id, (make, *args))], each make(*args, the
    run's digest), a digest read once for all the tables of its run."""
    read, out = {}, []
    for _, rid, (make, *args) in todo:
        for one in rid if isinstance(rid, tuple) else (rid,):
            if one not in read:
                read[one] = read_packed(outputs.digest_file(one))["digest"]
        out.append(make(*args, {one: read[one] for one in rid} if isinstance(rid, tuple) else read[rid]))
    return out


# A digest's file under BUILD/cache/digests/: MessagePack, not JSON. A quick result's digest,
# mostly floats (its samples and figures), takes 85 KB so and 124 KB as JSON; it is written in
# 0.08 ms, not 0.13 (orjson), and read in 0.22 ms, not 1.0 (json).
DIGEST_SUFFIX = ".msgpack"


def read_packed(path: str) -> dict | None:
    """A file this module wrote with write_packed (a digest, the saved aggregation, the compare
    tables kept), or None when it is gone or unreadable."""
    try:
        with open(path, "rb") as f:
            stored = msgspec.msgpack.decode(f.read())
    except (OSError, msgspec.DecodeError):
        return None
    return stored if isinstance(stored, dict) else None


def write_packed(path: str, value: dict) -> None:
    """A cache file in MessagePack, replaced at once. At 10,000 quick results the saved
    aggregation took 0.17 s to write as JSON and 0.04 s so (reading it costs the same either
    way: making its objects), and the compare tables kept (13 MB as JSON) 0.05 and 0.11 s to
    write and read as JSON, 0.003 and 0.012 s so."""
    write_bytes_atomic(path, msgspec.msgpack.encode(value))


def _latest_rows(latest: dict | None, paths: dict) -> dict:
    rows, result = [], None
    if latest:
        result = resultfile.readable(resultfile.load_json(paths[latest["id"]]))  # a file validated in this build
        derive_flags(result)
        rows = [row for row in cell_rows(result) if run_rule.shared(row["key"])]
    throughput = throughput_rows(rows, machines.name(result) if result else "")
    return {"result": latest["id"] if latest else None, "summary": latest, "rows": rows,
            "throughput": throughput, "throughput_table": result_tables.throughput_table(throughput, result)}


class Outputs:
    """Where one aggregation writes: the per-result pages and chunks, and its caches."""

    def __init__(self, content_dir: str, static_dir: str):
        cache = os.path.join(os.path.dirname(os.path.abspath(content_dir)), "cache")
        self.pages = os.path.join(content_dir, "results")
        self.chunks = os.path.join(static_dir, "explorer", "rows")
        self.charts = os.path.join(static_dir, *CHART_FILES.split("/"))
        self.published = os.path.join(static_dir, *PUBLISHED_RESULTS.split("/"))
        self.bundles = os.path.join(static_dir, *PUBLISHED_BUNDLES.split("/"))
        self.digests = os.path.join(cache, "digests")
        self.tables = os.path.join(os.path.dirname(os.path.abspath(content_dir)), result_tables.TABLES_DIR)
        self.state = os.path.join(cache, "aggregation" + DIGEST_SUFFIX)
        self.knowledge = os.path.join(cache, "knowledge.json")
        self.latest = os.path.join(cache, "latest.json")
        self.judged = os.path.join(cache, "judged.json")
        self.curated = os.path.join(cache, "curated.json")
        self.pairs = os.path.join(static_dir, pairs_mod.FOLDER)
        self.pairs_cache = os.path.join(cache, "pairs" + DIGEST_SUFFIX)
        self.sides = os.path.join(self.pairs, pairs_mod.SIDES)
        folders = (self.pages, self.chunks, self.charts, self.published, self.bundles, self.digests, self.tables,
                   self.pairs, self.sides)
        for folder in folders:
            os.makedirs(folder, exist_ok=True)
        for before in ("aggregation.json", "pairs.json"):  # the caches' names when they were JSON
            _unlink_quietly(os.path.join(cache, before))
        self.have = {folder: set(os.listdir(folder)) for folder in folders}
        for folder, names in self.have.items():  # what a killed build left: never a page or a file to publish
            for name in [n for n in names if outfile.is_temporary(n)]:
                _unlink_quietly(os.path.join(folder, name))
                names.discard(name)

    def in_place(self, rid: str) -> bool:
        """Whether every output of a result is there, its digest too (which the compare page's
        tables read again): one that is gone has the result derived again."""
        return f"{rid}.md" in self.have[self.pages] and f"{rid}.json" in self.have[self.chunks] \
            and f"{rid}.json" in self.have[self.charts] and f"{rid}.json" in self.have[self.published] \
            and result_tables.file_name(rid) in self.have[self.tables] \
            and f"{rid}{DIGEST_SUFFIX}" in self.have[self.digests]

    def cached(self, rid: str, signature: list) -> dict | None:
        """The digest of an unchanged result whose page and chunk are in place, or None."""
        if not self.in_place(rid):
            return None
        stored = read_packed(self.digest_file(rid))
        if stored and stored.get("code") == code_digest() and stored.get("sig") == signature:
            return stored["digest"]
        return None

    def digest_file(self, rid: str) -> str:
        return os.path.join(self.digests, rid + DIGEST_SUFFIX)

    def derive(self, path: str, fold: bool, text: bytes, result: dict, signature: list) -> tuple:
        """Writes the page, chart rows, chunk and digest of one result file (its bytes, as
        published, its document, which this changes, and their signature); returns (the
        signature, the digest). Run by the worker that validated the file
        (validation.FileChecks.run); fold: whether its digest is to be folded."""
        rid = result["id"]
        derive_flags(result)
        rows = cell_rows(result)
        throughput = throughput_rows(rows, machines.name(result))
        tables = result_tables.pack(result_tables.tables(result, rows, throughput))
        made = digest(result, rows)
        write_if_changed(os.path.join(self.tables, result_tables.file_name(rid)), tables)
        write_if_changed(os.path.join(self.pages, f"{rid}.md"), result_page(result, made["summary"], tables).encode())
        write_if_changed(os.path.join(self.charts, f"{rid}.json"), compact_json(throughput))
        write_if_changed(os.path.join(self.chunks, f"{rid}.json"),
                         compact_json(explorer.chunk(result, rows, made["cells"])))
        publish_result(path, text, os.path.join(self.published, f"{rid}.json"))
        if any(c["raw"] for c in result["cells"]):
            publish_bundle(bundle.path(os.path.dirname(os.path.dirname(os.path.abspath(path))), rid),
                           os.path.join(self.bundles, f"{rid}{bundle.SUFFIX}"))
        write_packed(self.digest_file(rid), {"code": code_digest(), "sig": signature, "digest": made})
        return signature, made

    def prune(self, ids: set) -> None:
        """Removes the outputs of results gone (listed when this started: what derive wrote
        since belongs to a result that is there)."""
        for folder, suffix in ((self.pages, ".md"), (self.chunks, ".json"), (self.charts, ".json"),
                               (self.published, ".json"), (self.digests, DIGEST_SUFFIX), (self.bundles, bundle.SUFFIX)):
            remove_stale(folder, {f"{rid}{suffix}" for rid in ids}, suffix, self.have[folder])
        remove_stale(self.tables, {result_tables.file_name(rid) for rid in ids}, ".html", self.have[self.tables])
        remove_stale(self.tables, set(), ".json", self.have[self.tables])  # the layout before: JSON
        remove_stale(self.digests, set(), ".json", self.have[self.digests])  # the digests before, in JSON


def folded_batch(knowledge: dict, derived) -> dict | None:
    """In a worker: the state of an Aggregation of the digests of a batch of results derived
    (an iterator of (path, whether to fold it, (signature, digest))), each folded as it comes
    and then let go, but for results folded already (derived again because an output was
    gone); None when there is none to fold. Holding a batch's 64 digests until its end (each
    keeps its result's samples alive) cost more CPU: 500 quick results checked and derived in
    batches of 64 in one process took 5.00-5.44 s of user CPU, 4.79-4.94 s folded as they came."""
    part = Aggregation(knowledge)
    for path, fold, (signature, digest) in derived:
        if fold:
            part.add(os.path.basename(path)[:-len(".json")], signature, digest)
    return part.state() if part.members else None


def derive_flags(result: dict) -> None:
    """Each ok cell's flags as results/flags derives them from its samples and the raw device's
    baseline for its job, whatever the file stored: an old or contributed file is shown by
    today's rule (validate warns where the stored ones differ)."""
    for cell in result["cells"]:
        if cell["status"] == "ok":
            cell["flags"] = flags.derive(cell, result["target"])


def aggregate(data_dir: str, content_dir: str, static_dir: str | None = None, articles_dir: str | None = None) -> dict:
    if not os.path.isdir(data_dir):
        raise UserError("no such data folder", where=data_dir, expected="a folder holding results/")
    results_dir = os.path.join(data_dir, "results")
    files, listing = resultfile.result_listing(results_dir) if os.path.isdir(results_dir) else ([], [])
    if any(p.severity == "error" for p in listing):
        check_results(listing, results_dir)
    static_dir = static_dir or os.path.join(os.path.dirname(os.path.abspath(content_dir)), "static")
    outputs = Outputs(content_dir, static_dir)
    knowledge = knowledge_mod.load_checked(data_dir, outputs.knowledge)
    matrix = matrix_mod.load()

    paths = {os.path.basename(path)[:-len(".json")]: path for path in files}
    # Each file's signature, to know what was folded or derived before; a first build has
    # neither, and each file's signature is taken from the bytes its worker reads.
    before = os.path.exists(outputs.state) or bool(outputs.have[outputs.digests])
    current = dict(zip(paths, filesig.signatures(list(paths.values())))) if before else dict.fromkeys(paths)
    run = Aggregation.resume(outputs.state, knowledge, current)
    folded = set(run.members) if run else set()
    run = run or Aggregation(knowledge)
    todo = []
    for rid in paths:
        if rid in folded:
            if not outputs.in_place(rid):  # its page or chunk was deleted: write them again
                todo.append(rid)
            continue
        d = outputs.cached(rid, current[rid])
        if d is None:
            todo.append(rid)
        else:
            run.add(rid, current[rid], d)
    # Each file validation reads (one it has not checked before, or one to derive) is derived
    # by the worker that read it, once it passes: a first build reads and parses it once. The
    # worker folds the digests of each batch it derived, and the folds come here, not the digests.
    checks = validation.FileChecks(files, recheck_raw=False)
    derive = outputs.derive
    wanted = {paths[rid]: rid not in folded for rid in todo}
    for part in checks.run(derive, wanted, functools.partial(folded_batch, knowledge)):
        run.merge(part)
    check_results(listing + checks.problems, results_dir)
    derived = len(todo)
    outputs.prune(set(paths))
    if set(run.members) != folded:  # something was folded in: keep the new state
        run.save(outputs.state)
    filesig.save()

    summaries = sorted(run.summaries, key=lambda s: (run_rule.moment(s["created"]), s["id"]), reverse=True)  # newest first
    latest = run_rule.reference(summaries)  # "latest" in the data's names: the reference run of run_rule
    cells = run.newest.result()
    has_articles = articles_dir and os.path.isdir(articles_dir)

    def digest_of(rid: str) -> dict:
        return read_packed(outputs.digest_file(rid))["digest"]
    from .. import SCHEMA_VERSION, __version__
    aggregates = {
        "results": [listed(s) for s in summaries],
        "latest": latest_rows(latest, paths, run.members, outputs.latest),
        "cells": shown_cells(cells), "rule_throughput": rule_throughput_rows(cells),
        "history": knowledge_mod.history_rows(knowledge, cells),
        "compare": compare_tables(summaries, run.picks.picks(), outputs, run.members),
        **judged(run, knowledge, outputs.judged, digest_of), "matrix": matrix_summary(matrix),
        "comparisons": articles.comparisons(articles_dir, paths, summaries) if has_articles else {},
        "pinned_rankings": articles.pinned_rankings(articles_dir, digest_of, cells, summaries) if has_articles else {},
        "pinned_history": articles.pinned_history(articles_dir, digest_of, knowledge, summaries,
                                                  NewestCells.of_run) if has_articles else {},
        "overview": {"results": len(summaries), "machines": len({s["machine"] for s in summaries})},
        "machines": machine_twins(summaries),
        "run_groups": run_groups(summaries),
        **curated_rows(data_dir, knowledge, outputs),
        # the matrix's columns as the page draws them, the origin ones first (check-data counts the same list)
        "matrix_columns": feature_matrix.columns(knowledge),
        "build": {"fsatlas": __version__, "schema": SCHEMA_VERSION, "limits": validation.limits(),
                  # the flags' rules, for the legend under every chart (result pages read only this file)
                  "run_rule": run_rule.RULE,
                  # each known metric in words, for captions (a guide's "Measured change of files created per second")
                  "metric_labels": {name: metrics.label(name) for name in sorted(metrics.KNOWN)},
                  "flag_rules": {"noisy_half_width_pct": flags.NOISY_HALF_WIDTH_PCT, "cached_factor": flags.CACHED_FACTOR},
                  "export_columns": [{"name": n, "type": t, "meaning": m} for n, (t, m) in export.COLUMNS.items()]}}
    for name, value in aggregates.items():  # compact: only Hugo reads them, and indenting is slow at scale
        resultfile.write_atomic(os.path.join(data_dir, "aggregates", f"{name}.json"), value, compact=True)
    write_if_changed(os.path.join(os.path.dirname(outputs.tables), result_tables.OTHER_RUNS), compact_json(other_runs(summaries)))
    write_if_changed(os.path.join(static_dir, *RUN_SYSTEMS.split("/")), compact_json(run_systems(summaries)))
    # the explorer's first view: the home page's run (run_rule.reference), not the newest by date
    write_if_changed(os.path.join(static_dir, "explorer", "data.json"),
                     compact_json({**run.index.result(), "default": latest["id"] if latest else None}))
    filesystems = sorted(set(knowledge["features"]) | set(matrix.filesystems))
    write_pages(os.path.join(content_dir, "filesystems"),
                {f"{fs}.md": filesystem_page(fs, knowledge["features"].get(fs)) for fs in filesystems})
    return {"results": len(summaries), "derived": derived, "latest": latest["id"] if latest else None}
