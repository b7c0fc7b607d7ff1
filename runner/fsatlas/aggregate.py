"""Derives what the site reads from the result files: data/aggregates/ and one page per result.

Python computes every figure here; templates only display. Only files that pass validation
are read: a broken result file stops the build with its problems listed.
"""
import os

import frontmatter
import pandas as pd

from . import resultfile, validation
from .commands.validate import result_files
from .errors import UserError

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


def aggregate(results_dir: str, aggregates_dir: str, pages_dir: str) -> dict:
    results = load_results(results_dir)
    results.sort(key=lambda r: (r["created"], r["id"]))
    frames = {r["id"]: cell_rows(r) for r in results}
    index = [result_summary(r, frames[r["id"]]) for r in results]
    latest = next((r for r in reversed(results) if r.get("complete", True)), results[-1] if results else None)
    os.makedirs(aggregates_dir, exist_ok=True)
    resultfile.write_atomic(os.path.join(aggregates_dir, "results.json"), index)
    resultfile.write_atomic(os.path.join(aggregates_dir, "latest.json"), {
        "result": latest["id"] if latest else None,
        "summary": result_summary(latest, frames[latest["id"]]) if latest else None,
        "rows": _records(frames[latest["id"]]) if latest else []})
    os.makedirs(pages_dir, exist_ok=True)
    wanted = set()
    for result in results:
        name = f"{result['id']}.md"
        wanted.add(name)
        write_text_atomic(os.path.join(pages_dir, name), result_page(result, frames[result["id"]]))
    for name in os.listdir(pages_dir):
        if name.endswith(".md") and name not in wanted and name != "_index.md":
            os.unlink(os.path.join(pages_dir, name))
    return {"results": len(results), "latest": latest["id"] if latest else None}
