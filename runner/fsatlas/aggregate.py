"""Derives what the site reads from the result files: data/aggregates/ and one page per result.

Python computes every figure here; templates only display. Only files that pass validation
are read: a broken result file stops the build with its problems listed.
"""
import os

import frontmatter
import pandas as pd

from . import explorer, knowledge as knowledge_mod, matrix as matrix_mod, resultfile, validation
from .commands.validate import result_files
from .errors import UserError
from .workloads import fio

ROW_COLUMNS = ["result", "machine", "key", "label", "filesystem", "variant", "workload", "mkfs", "mount", "driver",
               "status", "reason", "flags", "metric", "unit", "better", "mean", "median", "stddev",
               "rsd_pct", "ci_low", "ci_high", "n", "samples"]


def load_results(results_dir: str) -> list[dict]:
    files = result_files([results_dir]) if os.path.isdir(results_dir) else []
    problems = [p for f in files for p in validation.validate_file(f) if p.severity == "error"]
    if problems:
        listing = "\n".join(str(p) for p in problems[:20])
        raise UserError(f"{len(problems)} problems in result files; fix them first:\n{listing}",
                        where=results_dir)
    return [resultfile.load_json(f) for f in files]


def cell_rows(result: dict) -> pd.DataFrame:
    """One row per (cell, metric); a cell that is not ok gives one row with no metric."""
    records = []
    for cell in result["cells"]:
        variant = cell.get("variant", "defaults")
        dims = cell["key"].split("|")[4] if cell["key"].count("|") >= 4 else ""
        label = " ".join(x for x in (cell["filesystem"], "" if variant == "defaults" else variant, dims) if x)
        base = {"result": result["id"], "machine": result["system"]["machine"], "key": cell["key"],
                "label": label, "filesystem": cell["filesystem"], "variant": variant, "workload": cell["workload"],
                "mkfs": " ".join(cell["mkfs_options"]) or "defaults",
                "mount": ",".join(cell["mount_options"]) or "defaults", "driver": cell["driver"],
                "status": cell["status"], "reason": cell.get("reason", ""), "flags": cell["flags"]}
        if not cell["metrics"]:
            records.append({**base, "metric": None})
        for name, m in cell["metrics"].items():
            records.append({**base, "metric": name, "unit": m["unit"], "better": m["better"],
                            "mean": m["mean"], "median": m["median"], "stddev": m["stddev"],
                            "rsd_pct": m["rsd_pct"], "ci_low": m["ci95"][0], "ci_high": m["ci95"][1],
                            "n": len(m["samples"]), "samples": m["samples"]})
    return pd.DataFrame.from_records(records, columns=ROW_COLUMNS)


def _records(frame: pd.DataFrame) -> list[dict]:
    """JSON-ready rows: NaN becomes None, numpy scalars become Python numbers."""
    frame = frame.astype(object).where(frame.notna(), None)
    return frame.to_dict(orient="records")


def result_summary(result: dict, frame: pd.DataFrame) -> dict:
    cells = frame.drop_duplicates("key")
    return {"id": result["id"], "created": result["created"], "machine": result["system"]["machine"],
            "kernel": result["system"]["kernel"], "profile": result.get("profile", ""),
            "target": result["target"]["kind"], "virtualization": result["system"]["virtualization"],
            "complete": result.get("complete", True), "cells": len(cells),
            "ok": int((cells["status"] == "ok").sum()), "skipped": int((cells["status"] == "skipped").sum()),
            "failed": int((cells["status"] == "failed").sum())}


def result_page(result: dict, frame: pd.DataFrame) -> str:
    """A generated Hugo page for one result file: its metadata and cells as front matter."""
    summary = result_summary(result, frame)
    post = frontmatter.Post(
        "", title=f"Result {result['id']}", date=result["created"], result_id=result["id"],
        summary_row=summary, system=result["system"], target=result["target"], tool=result["tool"],
        submitter=result.get("submitter", ""), notes=result.get("notes", ""),
        wall_seconds=result.get("wall_seconds"), rows=_records(frame))
    return frontmatter.dumps(post) + "\n"


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


def write_pages(folder: str, pages: dict) -> None:
    """Writes {file name: text} into folder and removes the generated pages no longer wanted."""
    os.makedirs(folder, exist_ok=True)
    for name, text in pages.items():
        write_text_atomic(os.path.join(folder, name), text)
    for name in os.listdir(folder):
        if name.endswith(".md") and name not in pages and name != "_index.md":
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
    index = [result_summary(r, frames[r["id"]]) for r in results]
    latest = next((r for r in reversed(results) if r.get("complete", True)), results[-1] if results else None)
    out = os.path.join(data_dir, "aggregates")
    os.makedirs(out, exist_ok=True)
    resultfile.write_atomic(os.path.join(out, "results.json"), index)
    resultfile.write_atomic(os.path.join(out, "latest.json"), {
        "result": latest["id"] if latest else None,
        "summary": result_summary(latest, frames[latest["id"]]) if latest else None,
        "rows": _records(frames[latest["id"]]) if latest else []})
    cells = cells_index(results)
    resultfile.write_atomic(os.path.join(out, "cells.json"), cells)
    resultfile.write_atomic(os.path.join(out, "history.json"), knowledge_mod.history_rows(knowledge, cells))
    resultfile.write_atomic(os.path.join(out, "rankings.json"), knowledge_mod.rankings(results))
    resultfile.write_atomic(os.path.join(out, "claims.json"), knowledge_mod.evaluate_claims(knowledge, results))
    resultfile.write_atomic(os.path.join(out, "matrix.json"), matrix_summary())
    static_dir = static_dir or os.path.join(os.path.dirname(os.path.abspath(content_dir)), "static")
    resultfile.write_atomic(os.path.join(static_dir, "explorer", "data.json"), explorer.build(results), compact=True)
    write_pages(os.path.join(content_dir, "results"),
                {f"{r['id']}.md": result_page(r, frames[r["id"]]) for r in results})
    filesystems = sorted(set(knowledge["features"]) | set(matrix_mod.load().filesystems))
    write_pages(os.path.join(content_dir, "filesystems"),
                {f"{fs}.md": filesystem_page(fs, knowledge["features"].get(fs)) for fs in filesystems})
    return {"results": len(results), "latest": latest["id"] if latest else None}
