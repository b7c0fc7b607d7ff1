"""Runs a profile's cells on loop images and builds the result document.

Cells are grouped by (filesystem, mkfs options, mount options): each group gets a fresh
loop image, mkfs and mount, then runs its workloads, each repeated, with caches dropped
before every repetition of a workload that measures the disk.
"""
import datetime as dt
import itertools
import os
import re
import shutil
import sys
import time

from . import SCHEMA_VERSION, filesystems, resultfile, stats, system, target
from .workloads import KINDS

REP_TIMEOUT_S = 600


def raw_dir_name(key: str) -> str:
    return re.sub(r"[^A-Za-z0-9._=,+-]", "_", key.replace("|", "__"))


def new_result(profile, machine: str | None, out: str, image_bytes: int) -> dict:
    created = dt.datetime.now(dt.timezone.utc).replace(microsecond=0)
    sysinfo = system.collect_system(machine)
    result_id = f"{created:%Y%m%dT%H%M%SZ}-{sysinfo['machine']}-{profile.name}"
    return {
        "schema_version": SCHEMA_VERSION,
        "id": result_id,
        "created": created.isoformat().replace("+00:00", "Z"),
        "profile": profile.name,
        "complete": False,
        "tool": system.collect_tools(),
        "system": sysinfo,
        "target": {"kind": "loop-image", "backing_filesystem": target.backing_filesystem(out),
                   "image_bytes": image_bytes, "loop_direct_io": True},
        "cells": [],
    }


def cell_record(cell, fs_spec: dict) -> dict:
    return {
        "key": cell.key, "filesystem": cell.filesystem, "workload": cell.workload,
        "parameters": dict(cell.parameters), "driver": fs_spec.get("driver", "kernel"), "flags": [],
        "mkfs_options": list(cell.mkfs_options), "mount_options": list(cell.mount_options),
        "effective_mount_options": "", "status": "ok", "metrics": {}, "raw": [],
    }


def not_run(record: dict, status: str, reason: str) -> dict:
    record.update(status=status, reason=reason, metrics={}, raw=[])
    return record


class Progress:
    """One line per repetition on stderr, with the cell and an estimate of the time left."""

    def __init__(self, total_reps: int):
        self.total, self.done, self.start = total_reps, 0, time.monotonic()

    def step(self, label: str) -> None:
        elapsed = time.monotonic() - self.start
        left = elapsed / self.done * (self.total - self.done) if self.done else 0
        print(f"[{self.done + 1}/{self.total}] {label}  (~{left:.0f} s left)", file=sys.stderr, flush=True)
        self.done += 1


def run_cell(cell, record: dict, workdir: str, out: str, result_id: str, repetitions: int,
             workload_spec: dict, progress: Progress) -> None:
    module = KINDS[cell.kind]
    raw_rel = os.path.join("raw", result_id, raw_dir_name(cell.key))
    os.makedirs(os.path.join(out, raw_rel), exist_ok=True)
    samples: dict[str, list] = {}
    started = time.monotonic()
    for rep in range(1, repetitions + 1):
        progress.step(f"{cell.key} rep {rep}/{repetitions}")
        if workload_spec.get("measures_disk"):
            target.drop_caches()
        rep_dir = os.path.join(workdir, f"rep-{rep}")
        os.makedirs(rep_dir, exist_ok=True)
        raw_path = os.path.join(raw_rel, f"rep-{rep}.json")
        values = module.run(cell, rep_dir, os.path.join(out, raw_path), REP_TIMEOUT_S)
        shutil.rmtree(rep_dir, ignore_errors=True)
        record["raw"].append(raw_path)
        for name, value in values.items():
            samples.setdefault(name, []).append(value)
    record["metrics"] = {name: stats.summarize(vals, *module.METRICS[name]) for name, vals in samples.items()
                         if len(vals) == repetitions}
    record["wall_seconds"] = round(time.monotonic() - started, 3)


def run_profile(matrix, profile, out: str, scratch: str, machine: str | None = None) -> tuple:
    """Runs every cell of the profile; returns the path of the result file it wrote and its data."""
    result = new_result(profile, machine, out, profile.image_bytes)
    started = time.monotonic()
    progress = Progress(len(profile.cells) * profile.repetitions)

    def save(complete: bool) -> str:
        result["complete"] = complete
        result["wall_seconds"] = round(time.monotonic() - started, 3)
        return resultfile.write_result(out, result)

    try:
        for group, cells in itertools.groupby(profile.cells, key=lambda c: c.group):
            cells = list(cells)
            fs_spec = matrix.filesystems[group[0]]
            records = [cell_record(c, fs_spec) for c in cells]
            result["cells"].extend(records)
            reason = filesystems.unavailable_reason(group[0], fs_spec)
            if reason:
                for record in records:
                    not_run(record, "skipped", reason)
                progress.done += len(cells) * profile.repetitions
                continue
            run_group(matrix, profile, cells, records, fs_spec, out, scratch, result, progress)
            save(False)
    except KeyboardInterrupt:
        for record in result["cells"]:
            if record["status"] == "ok" and not record["metrics"]:
                not_run(record, "failed", "interrupted before this cell finished")
        path = save(False)
        print(f"interrupted: wrote the cells finished so far to {path}", file=sys.stderr)
        raise
    return save(True), result


def run_group(matrix, profile, cells, records, fs_spec, out, scratch, result, progress) -> None:
    fs, mkfs_options, mount_options = cells[0].group
    try:
        with target.LoopImage(scratch, profile.image_bytes) as image:
            result["target"]["loop_direct_io"] = image.direct_io
            filesystems.mkfs(fs_spec, image.device, mkfs_options)
            effective = filesystems.mount(fs_spec, image.device, image.mountpoint, mount_options)
            for cell, record in zip(cells, records):
                record["effective_mount_options"] = effective
                try:
                    run_cell(cell, record, image.mountpoint, out, result["id"], profile.repetitions,
                             matrix.workloads[cell.workload], progress)
                except Exception as e:  # a failing or hung tool fails its cell; the run goes on
                    not_run(record, "failed", f"{type(e).__name__}: {e}")
    except (RuntimeError, OSError) as e:
        for record in records:
            if not record["metrics"]:
                not_run(record, "failed", str(e))
