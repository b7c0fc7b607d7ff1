"""Runs a profile's cells and builds the result document.

Cells are grouped by (filesystem, mkfs options, mount options). On loop images each group
gets a fresh image: first the mkfs/mount-time cells, then mkfs and mount for the others.
Each cell repeats its workload (adaptively in profiles that ask for it); the raw device is
measured once first, so a figure far above it can be flagged as served from a cache.
"""
import contextlib
import datetime as dt
import itertools
import os
import random
import re
import shutil
import sys
import tempfile
import time

import orjson

from .. import SCHEMA_VERSION
from .sizes import parse_size
from ..errors import UserError
from . import claim_aims, clients, devices, evidence, filesystems, guest, interrupts, leftovers, system, target, tools
from ..results import bundle, contention, fio_json, flags, machines, resultfile, stats
from ..results.flags import RSD_LIMIT_PCT
from .workloads import KINDS, fio
from .workloads.context import RepContext

MAX_REPEAT_FACTOR = 3  # adaptive repetition stops at 3x the planned count
CONTENTION_RETRIES = 2  # adaptive profiles run a contended repetition again at most this often (results/contention)
ROUND_SEEDS = 2**32  # a run's round_seed is drawn below this (schema: round_seed)


def new_result(profile, machine, out, target_info, machine_name=None) -> dict:
    created = dt.datetime.now(dt.timezone.utc).replace(microsecond=0)
    sysinfo = system.collect_system(machine)
    sysinfo["machine_name"] = machine_name or machines.propose(sysinfo, target_info)
    return {
        "schema_version": SCHEMA_VERSION,
        "id": f"{created:%Y%m%dT%H%M%SZ}-{sysinfo['machine']}-{profile.name}",
        "created": created.isoformat().replace("+00:00", "Z"),
        "profile": profile.name,
        "complete": False,
        "tool": system.collect_tools(),
        "system": sysinfo,
        "target": target_info,
        "cells": [],
    }


def cell_record(cell, fs_spec: dict) -> dict:
    return {
        "key": cell.key, "filesystem": cell.filesystem, "workload": cell.workload,
        "variant": cell.variant, "parameters": _plain(cell.parameters),
        "driver": fs_spec.get("driver", "kernel"), "flags": list(cell.flags),
        "mkfs_options": list(cell.mkfs_options), "mount_options": list(cell.mount_options),
        "effective_mount_options": "", "status": "pending", "metrics": {}, "raw": [],
    }


def _plain(params: dict) -> dict:
    """Parameters as the schema allows them: scalars, lists written comma-separated."""
    return {k: ",".join(map(str, v)) if isinstance(v, list) else v for k, v in params.items()}


def not_run(record: dict, status: str, reason: str) -> dict:
    record.update(status=status, reason=reason, metrics={}, raw=[])
    return record


def round_order(keys: list, rnd: int, seed: int) -> list:
    """The order the cells KEYS run in, in round RND (0 on) of interleaved rounds whose run drew
    SEED (the result's round_seed): counterbalanced, so that no cell holds one place in every
    round. An order effect (the second repetition of a round meets the first one's writeback, a
    warmer cache, a drift within the round) then falls on every cell alike instead of becoming a
    difference between two cells that the paired test would read as an effect.

    The design is a Williams square (E. J. Williams, 1949, designs balanced for residual
    effects, as crossover trials use): over each block of k rounds (k cells; 2k for an odd k,
    the square and its mirror), each cell holds each place equally often, goes before each
    other cell in half the rounds, and follows each other cell directly equally often (so no
    cell always meets one neighbour's writeback). Every k rounds is a Latin square of its own,
    so after any count of rounds a cell's count in a place differs from any other's by at most
    1 (two cells: each first in half the rounds, +-1 for an odd count). Which cell is which
    symbol of the square and the order of the block's rounds are drawn from a generator seeded
    by SEED, the cells' keys and the block: random, as google/benchmark's random interleaving
    orders each repetition, but balanced, which random orders alone are not at the few rounds
    a run has (two cells in three random rounds: one first in all three a quarter of the time),
    and no fixed rotation that a periodic disturbance could follow. The order depends on the
    keys as a set, not on the order they are given in; the same seed, keys and round give the
    same order (random.Random seeded from a string hashes it with SHA-512)."""
    ordered = sorted(keys)
    k = len(ordered)
    if k < 2:
        return ordered
    base = [0] + [(i + 1) // 2 if i % 2 else k - i // 2 for i in range(1, k)]  # 0, 1, k-1, 2, k-2…
    square = [[(b + i) % k for b in base] for i in range(k)]
    halves = [square, [row[::-1] for row in square]] if k % 2 else [square]
    block, row = divmod(rnd, k * len(halves))
    rng = random.Random(f"{seed}|{block}|" + "\n".join(ordered))
    symbols = rng.sample(ordered, k)  # which cell is which symbol of the square
    rows = [r for half in rng.sample(halves, len(halves)) for r in rng.sample(half, k)]
    return [symbols[s] for s in rows[row]]


class Progress:
    """A progress bar on a terminal, one line per repetition otherwise; with the time left."""

    def __init__(self, total_reps: int, stream=None):
        stream = stream or sys.stderr  # the one of the moment, not of the import (a test's capture closes)
        self.total, self.done, self.start, self.stream = max(total_reps, 1), 0, time.monotonic(), stream
        self.tty = stream.isatty()

    def step(self, label: str) -> None:
        elapsed = time.monotonic() - self.start
        left = elapsed / self.done * max(self.total - self.done, 0) if self.done else 0
        self.done += 1
        if self.tty:
            filled = int(30 * min(self.done, self.total) / self.total)
            self.stream.write(f"\r\033[K[{'#' * filled}{'.' * (30 - filled)}] {self.done}/{self.total} "
                              f"~{_duration(left)} left  {label[:70]}")
        else:
            self.stream.write(f"[{self.done}/{self.total}] {label}  (~{_duration(left)} left)\n")
        self.stream.flush()

    def skip(self, reps: int) -> None:
        self.total = max(self.total - reps, self.done, 1)

    def finish(self) -> None:
        if self.tty:
            self.stream.write("\n")


def _duration(seconds: float) -> str:
    return f"{seconds / 60:.0f} min" if seconds >= 90 else f"{seconds:.0f} s"


class CellRun:
    """One cell's repetitions as they are run: its samples, raw files and start times, the
    adaptive rule (repeat while the primary metric's RSD is above the limit, up to
    MAX_REPEAT_FACTOR times the planned count), and the record it fills when done."""

    def __init__(self, run, cell, record, workdir, fs_spec, image):
        self.run, self.cell, self.record, self.workdir, self.fs_spec, self.image = run, cell, record, workdir, fs_spec, image
        self.module = KINDS[cell.kind]
        self.raw_rel = os.path.join("raw", run.result["id"], resultfile.raw_dir_name(cell.key))
        shutil.rmtree(os.path.join(run.out, self.raw_rel), ignore_errors=True)  # a re-run replaces
        os.makedirs(os.path.join(run.out, self.raw_rel))
        record.update(status="running", metrics={}, raw=[], flags=list(cell.flags))
        record.pop("reason", None)
        self.samples, self.started, self.reps, self.failed = {}, [], 0, False
        self.device_io, self.host, self.timed_io = [], [], []  # per repetition: run/evidence.py, RepContext.timed
        self.seconds, self.tool_seconds, self.settle_seconds = 0.0, 0.0, 0.0
        self.planned = run.profile.repetitions

    def wants_more(self) -> bool:
        if self.reps < self.planned:
            return True
        if self.run.profile.adaptive and self.run.round_cap is None and _rsd(self.samples.get(self.cell.primary, [])) > RSD_LIMIT_PCT \
                and self.reps < MAX_REPEAT_FACTOR * self.planned:
            self.run.progress.total += 1
            return True
        return False

    def rep(self) -> None:
        """One repetition; in an adaptive profile, one whose host contention passed a threshold
        (results/contention) is run again, up to CONTENTION_RETRIES times, its figures and raw
        files dropped; the last one is kept either way (and flags the cell contended)."""
        interrupts.raise_if_interrupted()
        run = self.run
        # the cell's own time, whatever ran between; of it, inside tools and settling the filesystem
        began, busy_before, settled_before = time.monotonic(), tools.busy_seconds, target.settled_seconds
        self.reps += 1
        retries = CONTENTION_RETRIES if run.profile.adaptive or run.round_cap else 0
        for attempt in range(retries + 1):
            values, raws, io, host, started, timed_io = self._attempt(attempt)
            if attempt == retries or host is None or not contention.passes(host):
                break
            _remove_raw(run.out, raws)
            run.progress.total += 1
        self.record["raw"] += raws
        self.started.append(started)
        if io is not None:
            self.device_io.append(io)
        if timed_io is not None:
            self.timed_io.append(timed_io)
        if host is not None:
            self.host.append(host)
        for name, value in values.items():
            self.samples.setdefault(name, []).append(value)
        self.seconds += time.monotonic() - began
        self.tool_seconds += tools.busy_seconds - busy_before
        self.settle_seconds += target.settled_seconds - settled_before

    def _attempt(self, attempt: int) -> tuple:
        """Runs the workload once as repetition self.reps: (its values, raw files, device
        counters, host contention, start in seconds after the result's created time, the
        device counters of its timed part)."""
        run, cell, rep = self.run, self.cell, self.reps
        run.progress.step(f"{cell.key} rep {rep}/{self.planned}" + (" (again: contended)" if attempt else ""))
        rep_dir = os.path.join(self.workdir, f"rep-{rep}") if self.workdir else None
        if rep_dir:
            os.makedirs(rep_dir)
            # the runner's own writes (this folder, the last repetition's deletion) reach the device
            # now, not in a journal commit inside the timed part (#60 round 21, findings 2 and 4)
            target.sync(rep_dir)
        ctx = RepContext(rep_dir, os.path.join(run.out, self.raw_rel, f"rep-{rep}"), run.out, cell.budget_s,
                         self.fs_spec, self.image, os.geteuid() == 0, run.shared)
        started = round(time.time() - run.created, 3)
        meter = evidence.Meter(getattr(self.image, "device", None))
        try:
            values = self.module.run(cell, ctx)
        except BaseException:  # failed or interrupted (Ctrl-C, SIGTERM): no raw file of it stays
            _remove_raw(run.out, ctx.raw_files + self.record["raw"])
            self.record["raw"] = []
            raise
        finally:
            if rep_dir:
                shutil.rmtree(rep_dir, ignore_errors=True)
        if rep_dir:  # the deletion written with this repetition, not in another variant's timed part
            (target.quiesce if self.image else target.sync)(self.workdir)  # a freeze only of the runner's own
        io, host = meter.done()
        return values, ctx.raw_files, io, host, started, ctx.timed_io

    def finish(self) -> None:
        record, cell = self.record, self.cell
        record["metrics"] = {name: stats.summarize(vals, *self.module.METRICS[name])
                             for name, vals in self.samples.items() if len(vals) == self.reps}
        record["status"] = "ok"
        record["started"] = self.started  # seconds after the result's created time: the order reps ran in
        if len(self.device_io) == self.reps:  # every repetition on a device whose counters could be read
            record["device_io"] = self.device_io
        if len(self.timed_io) == self.reps:
            record["timed_io"] = self.timed_io
        if len(self.host) == self.reps:
            record["host"] = self.host
        record["wall_seconds"] = round(self.seconds, 3)
        record["tool_seconds"] = round(self.tool_seconds, 3)  # inside fio, dd, mkfs, mount
        record["settle_seconds"] = round(self.settle_seconds, 3)  # in syncfs and freezes (target.sync, quiesce)
        record["flags"] = flags.derive(record, self.run.result["target"], cell.primary)  # from all of the above


class Run:
    """One run of a profile: the result document, its output folder and the shared scratch."""

    def __init__(self, matrix, profile, out, scratch, result, progress=None, device=None):
        self.matrix, self.profile, self.out, self.scratch, self.device = matrix, profile, out, scratch, device
        self.result, self.started = result, time.monotonic()
        self.created = dt.datetime.fromisoformat(result["created"].replace("Z", "+00:00")).timestamp()
        # a resumed run's earlier sessions, also one stopped before its first cell (#60 round 38)
        self.wall_before = result.get("wall_seconds") or 0
        # each session on the clock, to the millisecond: where a resumed run paused is recorded, not
        # guessed from its wall time (#60 round 30). A file from before sessions were recorded gets
        # its first one from what it knows: begun at created, run for its wall time, until its last
        # repetition began or until fio wrote its last report, whichever is latest (its wall clock
        # began after created's second and the system's facts, which no such file records: round 38,
        # a report written in that gap fell outside; round 40, a guess past its end took in a later run)
        known = result.get("sessions")
        now = round(time.time() - self.created, 3)
        if not known and self.wall_before:
            last = max((t for c in result["cells"] for t in c.get("started") or ()), default=0.0)
            written = _reports_written_by(out, result["id"]) - self.created
            self.wall_before = round(min(max(self.wall_before, last, written), now - 0.001), 3)
            known = [{"began": 0.0, "seconds": self.wall_before}]
        self.session = {"began": now, "seconds": 0.0}
        result["sessions"] = [*(known or ()), self.session]
        self.progress = progress or Progress(len(profile.cells) * profile.repetitions)
        self.shared, self._unavailable = {}, {}
        self.claim_aims = claim_aims.load() if profile.adaptive else {}
        # a measuring run (run/measure.py): pairs go on in lockstep rounds while its rule says a
        # pair still needs one (aims_rule(states, aims, cap)), up to round_cap; no per-cell spread rule
        self.round_cap, self.aims_rule = None, claim_aims.behind

    def save(self, complete: bool) -> str:
        """Writes the result file as it stands; cells not finished yet are saved as failed, so
        the file is valid at every moment and --resume knows to run them again."""
        self.result["complete"] = complete
        self.session["seconds"] = round(time.monotonic() - self.started, 3)
        self.result["wall_seconds"] = round(self.wall_before + self.session["seconds"], 3)
        saved = dict(self.result, cells=[
            not_run(dict(c), "failed", "not finished: the run stopped before this cell")
            if c["status"] in ("pending", "running") else c for c in self.result["cells"]])
        return resultfile.write_result(self.out, saved)

    def unavailable(self, fs: str) -> str:
        """filesystems.unavailable_reason(), asked once a run (it may load a module): the baseline
        and the cells take one answer."""
        if fs not in self._unavailable:
            self._unavailable[fs] = filesystems.unavailable_reason(fs, self.matrix.filesystems[fs])
        return self._unavailable[fs]

    def target(self):
        """A fresh target for one group: a new loop image, or the named device again."""
        if self.device:
            return target.BlockDevice(self.device, self.scratch)
        return target.LoopImage(self.scratch, self.profile.image_bytes)

    def records_for(self, cells, fs_spec) -> list:
        """The result's record of each cell: new ones appended, resumed ones reused."""
        existing = {c["key"]: c for c in self.result["cells"]}
        records = []
        for cell in cells:
            if cell.key not in existing:
                existing[cell.key] = cell_record(cell, fs_spec)
                self.result["cells"].append(existing[cell.key])
            records.append(existing[cell.key])
        return records

    def run_cell(self, cell, record, workdir, fs_spec, image=None) -> None:
        """Every repetition of one cell, one after the other (see run_interleaved for pairs)."""
        state = CellRun(self, cell, record, workdir, fs_spec, image)
        while state.wants_more():
            state.rep()
        state.finish()

    def run_interleaved(self, units: list) -> None:
        """Cells that will be compared, run in rounds: one repetition of each per round, in an
        order counterbalanced across rounds (round_order: A B, B A, … for two cells), each on
        its own freshly made filesystem of the same image size, so that a host whose speed
        drifts shifts both sides alike and no side always goes first. units: (cell, record,
        workdir, fs_spec, image, effective mount options). A cell that fails is failed alone;
        the rest go on. The seed of the orders is the result's round_seed, drawn once per run
        (a resumed run keeps it: its rounds are run again in the same orders)."""
        states = []
        for cell, record, workdir, fs_spec, image, effective in units:
            record["effective_mount_options"] = effective
            states.append(CellRun(self, cell, record, workdir, fs_spec, image))
        aims = self.claim_aims if (self.profile.adaptive or self.round_cap) and len(states) > 1 else {}
        cap = self.round_cap or MAX_REPEAT_FACTOR * self.profile.repetitions
        seed = self.result.setdefault("round_seed", random.SystemRandom().randrange(ROUND_SEEDS))
        keys = [s.cell.key for s in states]
        for rnd in itertools.count():
            for_claims = self.aims_rule(states, aims, cap) if aims else set()
            active = []
            for s in states:
                if s.failed:
                    continue
                if s.wants_more():
                    active.append(s)
                elif s in for_claims:  # past the planned count, for a claim: one more step to show
                    self.progress.total += 1
                    active.append(s)
            if not active:
                break
            place = {key: i for i, key in enumerate(round_order(keys, rnd, seed))}
            for state in sorted(active, key=lambda s: place[s.cell.key]):
                try:
                    state.rep()
                except KeyboardInterrupt:
                    raise
                except Exception as e:  # a failing or hung tool fails its cell; the others go on
                    state.failed = True
                    not_run(state.record, "failed", f"{type(e).__name__}: {e}")
        for state in states:
            if not state.failed:
                state.finish()

    def run_cells(self, cells, records, workdir, fs_spec, image=None, effective="") -> None:
        for cell, record in zip(cells, records):
            record["effective_mount_options"] = effective
            try:
                self.run_cell(cell, record, workdir, fs_spec, image)
            except KeyboardInterrupt:
                raise
            except Exception as e:  # a failing or hung tool fails its cell; the run goes on
                not_run(record, "failed", f"{type(e).__name__}: {e}")


def _remove_raw(out: str, raws: list) -> None:
    """Deletes the raw files of a cell that did not finish: none is referenced by the result
    (its raw list is emptied), and --resume runs the cell again from its first repetition."""
    for raw in raws:
        try:
            os.unlink(os.path.join(out, raw))
        except OSError:
            pass


def _drop_unreferenced_raw(run) -> None:
    """Deletes the raw files that neither a cell of the result names nor the raw device's
    baseline (its jobs' reports, and the fill record of a baseline that has one): a Ctrl-C can
    land after a repetition wrote its file and before its cell or job took it, and the
    interrupted result must hold only what validate reads."""
    rid, target = run.result["id"], run.result["target"]
    kept = {os.path.normpath(raw) for record in run.result["cells"] for raw in record.get("raw", [])}
    kept |= {os.path.normpath(f"raw/{rid}/{name}") for _, _, names in bundle.baseline_reports(target) for name in names}
    kept |= {os.path.normpath(f"raw/{rid}/{field}/{bundle.FILL_MEMBER}") for field in bundle.BASELINE_FOLDERS
             if target.get(field)}
    top = bundle.folder(run.out, rid)
    for here, _, files in os.walk(top):
        for name in files:
            if os.path.relpath(os.path.join(here, name), run.out) not in kept:
                os.unlink(os.path.join(here, name))


def _rsd(values) -> float:
    return stats.moments(values)["rsd_pct"] if len(values) > 1 else 0.0


def _reports_written_by(out: str, rid: str) -> float:
    """When fio wrote the last report of a run's raw files (its folder if a killed run left one,
    else its bundle), in seconds since the epoch, to the millisecond (fio_json.report_span); 0
    where none is fio's."""
    members = bundle.folder_members(out, rid) if os.path.lexists(bundle.folder(out, rid)) else \
        bundle.read(out, rid) if os.path.lexists(bundle.path(out, rid)) else {}
    ends = []
    for name, data in members.items():
        try:
            span = fio_json.report_span(orjson.loads(data)) if name.endswith(".json") else None
        except orjson.JSONDecodeError:
            span = None
        if span:
            ends.append(span[1])
    return max(ends, default=0.0)


def run_profile(matrix, profile, out, scratch, machine=None, resume=None, device=None, machine_name=None) -> tuple:
    """Runs every cell on loop images (or the checked DEVICE); returns the result file's path and data."""
    if device:
        target_info = devices.describe(device)
    else:
        target_info = {"kind": "loop-image", **target.storage_under(scratch),
                       "image_bytes": profile.image_bytes, "loop_direct_io": True}
    result = resume or new_result(profile, machine, out, target_info, machine_name)
    run = Run(matrix, profile, out, scratch, result, device=device)
    return _run(run, lambda: _run_loop_groups(run))


def run_directory(matrix, profile, out, directory, machine=None, resume=None, machine_name=None) -> tuple:
    """Runs the profile's workloads in an existing directory (no root, no mkfs, no mount)."""
    fstype = target.backing_filesystem(directory)
    result = resume or new_result(profile, machine, out, {
        "kind": "directory", **target.storage_under(directory), "caches_dropped": os.geteuid() == 0}, machine_name)
    run = Run(matrix, profile, out, None, result)

    def go():
        workdir = leftovers.owned_dir(directory)  # the only thing in DIRECTORY this run may delete
        try:
            fs_spec = {"driver": "fuse" if fstype.startswith("fuse") else "kernel"}
            unique = _one_per_workload(profile, _fs_name(fstype))
            records = run.records_for(unique, fs_spec)
            effective = filesystems.effective_options(_mount_root(directory))
            for cell, record in zip(unique, records):
                if record["status"] == "ok":
                    run.progress.skip(profile.repetitions)
                elif cell.kind == "lifecycle":
                    not_run(record, "skipped", "mkfs and mount times need a loop image or device, not --directory")
                    run.progress.skip(profile.repetitions)
                else:
                    run.run_cells([cell], [record], workdir, fs_spec, None, effective)
                run.save(False)
        finally:
            shutil.rmtree(workdir, ignore_errors=True)  # only the folder this run made

    return _run(run, go)


def _one_per_workload(profile, fs_name: str) -> list:
    """The profile's default-option cells, each workload (and dimension) once, on FS_NAME:
    an existing directory is one filesystem whatever the matrix lists."""
    seen, unique = set(), []
    for c in profile.cells:
        ident = (c.workload, tuple(sorted(c.dimensions.items())))
        if c.variant == "defaults" and ident not in seen:
            seen.add(ident)
            unique.append(type(c)(**{**c.__dict__, "filesystem": fs_name}))
    return unique


def run_clients(matrix, profile, out, directory, hostfile, shared_fs, machine=None, resume=None,
                machine_name=None) -> tuple:
    """The profile's fio workloads from every fio server in HOSTFILE at once, in DIRECTORY
    (a path on the filesystem they share)."""
    hosts = clients.read_hostfile(hostfile)
    result = resume or new_result(profile, machine, out, {
        "kind": "directory", "shared_filesystem": shared_fs, "clients": len(hosts), "caches_dropped": False},
        machine_name)
    cells = _one_per_workload(profile, _fs_name(shared_fs))
    run = Run(matrix, profile, out, None, result,
              Progress(sum(c.kind == "fio" for c in cells) * profile.repetitions))

    def go():
        for cell, record in zip(cells, run.records_for(cells, {"driver": "kernel"})):
            if record["status"] == "ok":
                continue
            try:
                clients.run_cell(run, cell, record, hosts, directory)
            except KeyboardInterrupt:
                raise
            except Exception as e:  # a client that fails or hangs fails the cell; the run goes on
                not_run(record, "failed", f"{type(e).__name__}: {e}")
            run.save(False)

    return _run(run, go)


def _fs_name(fstype: str) -> str:
    return re.sub(r"[^a-z0-9_+.-]", "-", fstype.lower()) or "unknown"


def _mount_root(path: str) -> str:
    path = os.path.realpath(path)
    while not os.path.ismount(path):
        path = os.path.dirname(path)
    return path


def _run(run, body) -> tuple:
    if run.scratch:
        os.makedirs(run.scratch, exist_ok=True)
    run.shared["dir"] = leftovers.owned_dir(run.scratch or tempfile.gettempdir(), "shared-")
    rid = run.result["id"]
    bundle.unpack(run.out, rid)  # a resumed run goes on in raw/<id>/ and packs it again
    try:
        body()
        interrupts.raise_if_interrupted()  # one whose first KeyboardInterrupt a destructor swallowed
    except KeyboardInterrupt:
        with interrupts.held():  # a second Ctrl-C waits until the bundle and the result match
            for record in run.result["cells"]:
                if record["status"] in ("pending", "running"):
                    not_run(record, "failed", "interrupted before this cell finished")
            _drop_unreferenced_raw(run)
            bundle.pack(run.out, rid)
            path = run.save(False)
        run.progress.finish()
        print(f"\ninterrupted: wrote the cells finished so far to {path}", file=sys.stderr)
        raise
    except BaseException:
        bundle.pack(run.out, rid)  # the last saved result's raw files, readable as a bundle
        raise
    finally:
        shutil.rmtree(run.shared["dir"], ignore_errors=True)
    for record in run.result["cells"]:
        if record["status"] in ("pending", "running"):
            not_run(record, "failed", "not run")
    run.progress.finish()
    with interrupts.held():  # the run is done: a Ctrl-C now waits until both are written, and is done with
        bundle.pack(run.out, rid)  # before the result: every reference it holds resolves once it is there
        return run.save(True), run.result


def _run_loop_groups(run) -> None:
    matrix, profile = run.matrix, run.profile
    if os.environ.get(guest.EMULATED_ENV) == "1":  # the emulator's speed, not a device's: no baseline to judge by
        return _run_groups(run, matrix, profile)
    _measure_baseline(run)
    _run_groups(run, matrix, profile)
    if not run.device:  # a named device keeps the last filesystem's signature (the next run must confirm it)
        _measure_baseline(run, "baseline_after")


def _flags_again(run) -> None:
    """Every finished cell's flags derived again with the raw device measured after the
    filesystems: a baseline that drifted between its two measurements judges no cell
    (flags.derive), and each cell's flags were derived before the second one. A fresh quick run
    drew 10 warnings from validate: baseline-unknown derived, not stored."""
    primary = {c.key: c.primary for c in run.profile.cells}
    for record in run.result["cells"]:
        if record["status"] == "ok":
            record["flags"] = flags.derive(record, run.result["target"], primary.get(record["key"]))


def _run_groups(run, matrix, profile) -> None:
    if profile.interleave and not run.device:  # one named device cannot hold every variant at once
        for fs in dict.fromkeys(c.filesystem for c in profile.cells):  # in the matrix's order
            _run_filesystem_interleaved(run, fs, [c for c in profile.cells if c.filesystem == fs])
    else:
        for group, cells in itertools.groupby(profile.cells, key=lambda c: c.group):
            fs_spec = matrix.filesystems[group[0]]
            pending = _pending(run, list(cells), fs_spec)
            if pending:
                _run_group(run, pending, fs_spec)
                run.save(False)


def _pending(run, cells, fs_spec) -> list:
    """(cell, record) of the cells not done yet (a resumed run keeps the others); none when the
    kernel or the tools lack the filesystem, whose cells are then recorded as skipped."""
    records = run.records_for(cells, fs_spec)
    pending = [(c, r) for c, r in zip(cells, records) if r["status"] != "ok"]
    run.progress.skip((len(cells) - len(pending)) * run.profile.repetitions)
    reason = pending and run.unavailable(cells[0].filesystem)
    if reason:
        for _, record in pending:
            not_run(record, "skipped", reason)
        run.progress.skip(len(pending) * run.profile.repetitions)
        run.save(False)
        return []
    return pending


def _run_group(run, pending, fs_spec) -> None:
    """The pending cells of one (filesystem, mkfs options, mount options) on one target."""
    fs, mkfs_options, mount_options = pending[0][0].group
    lifecycle = [(c, r) for c, r in pending if c.kind == "lifecycle"]
    others = [(c, r) for c, r in pending if c.kind != "lifecycle"]
    try:
        with run.target() as image:
            if not run.device:
                run.result["target"]["loop_direct_io"] = image.direct_io
            if lifecycle:
                run.run_cells(*zip(*lifecycle), None, fs_spec, image, "")
            if others:
                filesystems.mkfs(fs_spec, image.device, mkfs_options)
                effective = target.mount_for_workloads(fs_spec, image.device, image.mountpoint, mount_options)
                run.run_cells(*zip(*others), image.mountpoint, fs_spec, image, effective)
    except (RuntimeError, OSError, ValueError) as e:
        for cell, record in pending:
            if record["status"] != "ok":
                not_run(record, "failed", str(e))
                run.progress.skip(run.profile.repetitions)


def _run_filesystem_interleaved(run, fs, cells) -> None:
    """Every variant of one filesystem on a loop image of its own, all made and mounted at once;
    then per workload, the cells of all variants in rounds (Run.run_interleaved). mkfs-time and
    mount-time make their own filesystems and run as in _run_group."""
    fs_spec = run.matrix.filesystems[fs]
    pending = _pending(run, cells, fs_spec)
    for group, members in itertools.groupby([p for p in pending if p[0].kind == "lifecycle"], key=lambda p: p[0].group):
        _run_group(run, list(members), fs_spec)
    others = [(c, r) for c, r in pending if c.kind != "lifecycle"]
    with contextlib.ExitStack() as stack:
        mounted = mount_groups(run, stack, others)
        by_workload = {}
        for cell, record in others:
            if cell.group in mounted:
                by_workload.setdefault((cell.workload, tuple(sorted(cell.dimensions.items()))), []).append((cell, record))
        for units in by_workload.values():
            run.run_interleaved([(cell, record, mounted[cell.group][0].mountpoint, fs_spec, mounted[cell.group][0],
                                  mounted[cell.group][1]) for cell, record in units])
            run.save(False)


def mount_groups(run, stack, pending) -> dict:
    """A fresh target made and mounted for each (filesystem, mkfs, mount options) group of the
    pending (cell, record) pairs, held open by STACK: {group: (image, effective mount options)};
    the cells of a group that could not be made or mounted are failed with the reason."""
    mounted = {}
    for group in dict.fromkeys(c.group for c, _ in pending):
        fs_spec = run.matrix.filesystems[group[0]]
        try:
            image = stack.enter_context(run.target())
            run.result["target"]["loop_direct_io"] = image.direct_io
            filesystems.mkfs(fs_spec, image.device, list(group[1]))
            mounted[group] = (image, target.mount_for_workloads(fs_spec, image.device, image.mountpoint, group[2]))
        except (RuntimeError, OSError, ValueError) as e:
            for cell, record in pending:
                if cell.group == group:
                    not_run(record, "failed", str(e))
                    run.progress.skip(run.profile.repetitions)
    return mounted


def fill_device(device: str, raw_path: str, budget_s: float, size: int | None = None) -> dict:
    """Writes the device (its first `size` bytes, or all of it) once, sequentially with
    O_DIRECT: every block the baseline jobs touch allocated and holding data, as a
    filesystem's written files are."""
    params = {"rw": "write", "bs": "1M", "ioengine": "libaio", "iodepth": 4, "direct": 1}
    if size:
        params["size"] = size
    return fio.run_job("fill", params, {"filename": device}, raw_path, budget_s)


def _touched(cells) -> int:
    """The bytes from the device's start the baseline jobs read or write: each job's size
    times its writers (each in its own region), at most; 0 when a size is not in bytes."""
    most = 0
    for c in cells:
        try:
            most = max(most, parse_size(str(c.parameters["size"])) * int(c.parameters.get("numjobs", 1)))
        except (KeyError, ValueError, UserError):
            return 0
    return most


def _measure_baseline(run, field: str = "baseline") -> None:
    """Each cell's own fio job on the raw loop device (rewrite against rewrite, four writers
    against four writers), before any filesystem (target.baseline) and again after all of them
    (target.baseline_after, on loop images: a named device keeps the last filesystem's
    signature), so drift shows. The region the jobs touch is filled with data first: a sparse
    image reads its holes from nothing, and writes to unallocated host blocks run at another
    speed. In adaptive profiles a job whose repetitions vary by more than RSD_LIMIT_PCT is
    repeated, up to MAX_REPEAT_FACTOR times the planned count, as the cells are (results/flags:
    one still unstable cannot judge a buffered cell)."""
    jobs = {}
    for c in run.profile.cells:  # a filesystem this machine cannot run is skipped: no baseline for it
        if c.baseline and not run.unavailable(c.filesystem) and \
                (c.baseline not in jobs or not flags.buffered({"parameters": c.parameters})):
            jobs[c.baseline] = c  # the O_DIRECT form of the job where a FUSE cell ran it buffered
    baseline = run.result["target"].setdefault(field, {})
    wanted = [name for name in sorted(jobs) if name not in baseline
              and (field == "baseline" or name in run.result["target"].get("baseline", {}))]  # after: the same jobs again
    if not wanted:
        return
    reps = run.profile.repetitions
    run.progress.total += len(wanted) * reps + 1
    top = bundle.folder(run.out, run.result["id"])  # the bundle's members laid out, as bundle.baseline_member names them
    with run.target() as image:
        os.makedirs(os.path.join(top, field), exist_ok=True)
        run.progress.step(f"{field}: filling the raw device with data")
        fill_device(image.device, os.path.join(top, field, bundle.FILL_MEMBER), max(c.budget_s for c in jobs.values()),
                    _touched(jobs.values()) or None)
        for name in wanted:
            cell = jobs[name]
            params = {k: v for k, v in cell.parameters.items() if k not in ("end_fsync",)}
            params["direct"] = 1
            if int(params.get("numjobs", 1)) > 1 and "size" in params:
                params["offset_increment"] = params["size"]  # each writer its own region, as each its own file
            os.makedirs(os.path.dirname(os.path.join(top, bundle.baseline_member(field, name, 1))), exist_ok=True)
            samples, rep = {}, 0
            while rep < reps or (run.profile.adaptive and _rsd(samples.get("throughput", [])) > RSD_LIMIT_PCT
                                 and rep < MAX_REPEAT_FACTOR * reps):
                rep += 1
                if rep > reps:
                    run.progress.total += 1
                run.progress.step(f"{field} {name} on the raw device rep {rep}")
                target.drop_caches(image.device)
                values = fio.run_job(cell.workload, params, {"filename": image.device},
                                     os.path.join(top, bundle.baseline_member(field, name, rep)), cell.budget_s)
                for metric, value in values.items():
                    samples.setdefault(metric, []).append(value)
            baseline[name] = {m: stats.summarize(v, *fio.METRICS[m]) for m, v in samples.items()}
    run.result["target"]["baseline_written"] = True
    if field == "baseline_after":  # a run's and a measuring run's (run/measure.py) alike
        _flags_again(run)
