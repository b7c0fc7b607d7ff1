"""Derives what the site reads from the result files: data/aggregates/ and one page per result.

Python computes every figure here; templates only display. Only files that pass validation
are read: a broken result file stops the build with its problems listed.
"""
import json
import os

import frontmatter
import pandas as pd

from . import explorer, knowledge as knowledge_mod, matrix as matrix_mod, resultfile, validation
from .commands.validate import result_files
from .errors import UserError
from .workloads import fio

ROW_COLUMNS = ["result", "machine", "key", "label", "filesystem", "variant", "workload", "mkfs", "mount", "driver",
               "status", "reason", "flags", "metric", "unit", "better", "mean", "median", "stddev",
               "rsd_pct", "ci_low", "ci_high", "n", "samples", "shown"]  # shown: the figures as pages print them


def load_results(results_dir: str) -> list[dict]:
    files = result_files([results_dir]) if os.path.isdir(results_dir) else []
    problems = [p for p in validation.validate_files(files) if p.severity == "error"]
    if problems:
        listing = "\n".join(str(p) for p in problems[:20])
        raise UserError(f"{len(problems)} problems in result files; fix them first:\n{listing}",
                        where=results_dir)
    return [resultfile.load_json(f) for f in files]


def cell_rows(result: dict) -> list[dict]:
    """One row per (cell, metric), every ROW_COLUMNS key present; a cell that is not ok gives
    one row with no metric. Plain dicts: a DataFrame per result costs more than it saves."""
    rows = []
    for cell in result["cells"]:
        variant = cell.get("variant", "defaults")
        dims = cell["key"].split("|")[4] if cell["key"].count("|") >= 4 else ""
        label = " ".join(x for x in (cell["filesystem"], "" if variant == "defaults" else variant, dims) if x)
        base = dict.fromkeys(ROW_COLUMNS)
        base.update({"result": result["id"], "machine": result["system"]["machine"], "key": cell["key"],
                     "label": label, "filesystem": cell["filesystem"], "variant": variant,
                     "workload": cell["workload"], "mkfs": " ".join(cell["mkfs_options"]) or "defaults",
                     "mount": ",".join(cell["mount_options"]) or "defaults", "driver": cell["driver"],
                     "status": cell["status"], "reason": cell.get("reason", ""), "flags": cell["flags"]})
        if not cell["metrics"]:
            rows.append(base)
        for name, m in cell["metrics"].items():
            show = knowledge_mod.display
            rows.append({**base, "metric": name, "unit": m["unit"], "better": m["better"],
                         "mean": m["mean"], "median": m["median"], "stddev": m["stddev"],
                         "rsd_pct": m["rsd_pct"], "ci_low": m["ci95"][0], "ci_high": m["ci95"][1],
                         "n": len(m["samples"]), "samples": m["samples"],
                         "shown": {"mean": show(m["mean"], m["unit"]), "median": show(m["median"], m["unit"]),
                                   "ci": f"{show(m['ci95'][0], m['unit'])} – {show(m['ci95'][1], m['unit'])}",
                                   "rsd": f"{m['rsd_pct']:.1f} %"}})
    return rows


def status_counts(frames: dict) -> pd.DataFrame:
    """Cells per result and status (ok, skipped, failed, total), one pandas pass over all rows."""
    cells = pd.DataFrame.from_records([(r["result"], r["key"], r["status"]) for rows in frames.values() for r in rows],
                                      columns=["result", "key", "status"]).drop_duplicates(["result", "key"])
    counts = pd.crosstab(cells["result"], cells["status"]).reindex(columns=["ok", "skipped", "failed"], fill_value=0)
    counts["cells"] = counts.sum(axis=1)
    return counts.reindex(list(frames), fill_value=0)


def result_summary(result: dict, counts: pd.DataFrame) -> dict:
    mine = counts.loc[result["id"]]
    return {"id": result["id"], "created": result["created"], "machine": result["system"]["machine"],
            "kernel": result["system"]["kernel"], "profile": result.get("profile", ""),
            "target": result["target"]["kind"], "virtualization": result["system"]["virtualization"],
            "complete": result.get("complete", True),
            **{name: int(mine[name]) for name in ("cells", "ok", "skipped", "failed")}}


class CompactJSON(frontmatter.JSONHandler):
    """JSON front matter on one line between a '{' line and a '}' line: Hugo reads it, so does
    python-frontmatter, and it is ten times faster to write than YAML at 10,000 results."""

    def export(self, metadata, **kwargs) -> str:
        body = json.dumps(metadata, ensure_ascii=False, separators=(",", ":"), default=str)
        return "{\n" + body[1:-1] + "\n}"


def result_page(result: dict, rows: list[dict], summary: dict) -> str:
    """A generated Hugo page for one result file: its metadata and cells as front matter."""
    post = frontmatter.Post(
        "", title=f"Result {result['id']}", date=result["created"], result_id=result["id"],
        summary_row=summary, system=result["system"], target=result["target"], tool=result["tool"],
        submitter=result.get("submitter", ""), notes=result.get("notes", ""),
        wall_seconds=result.get("wall_seconds"), rows=rows)
    return frontmatter.dumps(post, handler=CompactJSON()) + "\n"


def write_text_atomic(path: str, text: str) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def cells_index(results: list[dict]) -> dict:
    """Per cell key, the newest measurement of it (or, if never measured, why not): what
    shortcodes and filesystem pages look figures up in."""
    index = {}
    for result in sorted(results, key=lambda r: (r["created"], r["id"]), reverse=True):
        for cell in result["cells"]:
            have = index.get(cell["key"])
            if have and (have["status"] == "ok" or cell["status"] != "ok"):
                continue
            dims = cell["key"].split("|")[4] if cell["key"].count("|") >= 4 else ""
            index[cell["key"]] = {
                "key": cell["key"], "filesystem": cell["filesystem"], "workload": cell["workload"],
                "variant": cell.get("variant", "defaults"), "dimensions": dims,
                "mkfs": " ".join(cell["mkfs_options"]), "mount": ",".join(cell["mount_options"]),
                "status": cell["status"], "reason": cell.get("reason", ""), "flags": cell["flags"],
                "result": result["id"], "machine": result["system"]["machine"], "kernel": result["system"]["kernel"],
                "metrics": {name: {"mean": m["mean"], "ci_low": m["ci95"][0], "ci_high": m["ci95"][1],
                                   "rsd_pct": m["rsd_pct"], "n": len(m["samples"]), "unit": m["unit"],
                                   "better": m["better"], "display": knowledge_mod.display(m["mean"], m["unit"])}
                            for name, m in cell["metrics"].items()}}
    return dict(sorted(index.items()))


def matrix_summary() -> dict:
    """The standard matrix as the methodology page shows it: each workload with what it
    reproduces and, per profile, its parameters and (for fio) the exact job file."""
    m = matrix_mod.load()
    workloads = {}
    for name, spec in m.workloads.items():
        profiles = {}
        for pname in m.profiles:
            cells = [c for c in m.profile(pname, workloads=[name], variants=["defaults"]).cells]
            if not cells:
                continue
            cell = cells[0]
            entry = {"parameters": {k: ",".join(map(str, v)) if isinstance(v, list) else v
                                    for k, v in cell.parameters.items()},
                     "budget_s": cell.budget_s, "sweep": ", ".join(c.key.split("|", 4)[-1] for c in cells if c.dimensions)}
            if spec["kind"] == "fio":
                entry["job"] = fio.job_file(name, cell.parameters, {"directory": "<mount point>/rep-N"})
            profiles[pname] = entry
        workloads[name] = {"name": name, "kind": spec["kind"], "reproduces": spec.get("reproduces", ""),
                           "primary": spec.get("primary", ""), "dimensions": spec.get("dimensions", []),
                           "profiles": profiles}
    from . import execution
    return {"workloads": workloads,
            "rules": {"rsd_limit_pct": matrix_mod.RSD_LIMIT_PCT, "max_repeat_factor": execution.MAX_REPEAT_FACTOR,
                      "cached_factor": execution.CACHED_FACTOR},
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
        path = os.path.join(folder, name)
        try:
            with open(path, encoding="utf-8") as f:
                if f.read() == text:
                    continue  # unchanged: Hugo's own change detection and the reader's cache stay valid
        except OSError:
            pass
        write_text_atomic(path, text)
    for name in os.listdir(folder):
        if name.endswith(suffix) and name not in pages and name != "_index.md":
            os.unlink(os.path.join(folder, name))


def load_knowledge(data_dir: str) -> dict:
    knowledge, problems = knowledge_mod.load(data_dir)
    errors = [p for p in problems if p.severity == "error"]
    if errors:
        listing = "\n".join(str(p) for p in errors[:20])
        raise UserError(f"{len(errors)} problems in the curated data; fix them first:\n{listing}", where=data_dir)
    return knowledge


def aggregate(data_dir: str, content_dir: str, static_dir: str | None = None) -> dict:
    if not os.path.isdir(data_dir):
        raise UserError("no such data folder", where=data_dir, expected="a folder holding results/")
    results = load_results(os.path.join(data_dir, "results"))
    knowledge = load_knowledge(data_dir)
    results.sort(key=lambda r: (r["created"], r["id"]))
    frames = {r["id"]: cell_rows(r) for r in results}
    counts = status_counts(frames)
    summaries = {r["id"]: result_summary(r, counts) for r in results}
    index = list(summaries.values())
    latest = next((r for r in reversed(results) if r.get("complete", True)), results[-1] if results else None)
    out = os.path.join(data_dir, "aggregates")
    os.makedirs(out, exist_ok=True)
    resultfile.write_atomic(os.path.join(out, "results.json"), index)
    resultfile.write_atomic(os.path.join(out, "latest.json"), {
        "result": latest["id"] if latest else None,
        "summary": summaries[latest["id"]] if latest else None,
        "rows": frames[latest["id"]] if latest else []})
    cells = cells_index(results)
    resultfile.write_atomic(os.path.join(out, "cells.json"), cells)
    resultfile.write_atomic(os.path.join(out, "history.json"), knowledge_mod.history_rows(knowledge, cells))
    resultfile.write_atomic(os.path.join(out, "rankings.json"), knowledge_mod.rankings(results))
    resultfile.write_atomic(os.path.join(out, "claims.json"), knowledge_mod.evaluate_claims(knowledge, results))
    resultfile.write_atomic(os.path.join(out, "matrix.json"), matrix_summary())
    from . import SCHEMA_VERSION, __version__
    resultfile.write_atomic(os.path.join(out, "build.json"), {"fsatlas": __version__, "schema": SCHEMA_VERSION})
    static_dir = static_dir or os.path.join(os.path.dirname(os.path.abspath(content_dir)), "static")
    index, chunks = explorer.build(results)
    resultfile.write_atomic(os.path.join(static_dir, "explorer", "data.json"), index, compact=True)
    write_pages(os.path.join(static_dir, "explorer", "rows"),
                {f"{rid}.json": json.dumps(chunk, separators=(",", ":")) for rid, chunk in chunks.items()}, ".json")
    write_pages(os.path.join(content_dir, "results"),
                {f"{r['id']}.md": result_page(r, frames[r["id"]], summaries[r["id"]]) for r in results})
    filesystems = sorted(set(knowledge["features"]) | set(matrix_mod.load().filesystems))
    write_pages(os.path.join(content_dir, "filesystems"),
                {f"{fs}.md": filesystem_page(fs, knowledge["features"].get(fs)) for fs in filesystems})
    return {"results": len(results), "latest": latest["id"] if latest else None}
