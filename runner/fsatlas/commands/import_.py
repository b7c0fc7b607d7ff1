"""fsatlas import: turns fio, bonnie++, IOzone or dd output into a validated result file.

Each FILE is one repetition; measurements of the same workload and parameters across the
files become one cell's samples. The input files are kept unchanged (or, with --redact, with
what looks private replaced), as the members of OUT/raw/<id>.tar.gz (results/bundle.py). A
result is written only when `fsatlas validate` accepts it.
"""
import contextlib
import datetime as dt
import hashlib
import json
import os
import re
import shutil
import stat
import sys

import yaml

from .. import SCHEMA_VERSION, memory, outfile, safe_yaml
from ..results import bundle, dd_output, fio_terse, flags, importers, privacy, resultfile, shares, stats, validation
from ..results.importers import pts
from ..results.importers.measurement import NOTES, Bounds
from ..run import leftovers, system
from ..errors import UserError
from ..run.matrix import make_key
from . import list_option


def add_parser(sub):
    p = sub.add_parser("import", help="turn fio, bonnie++, IOzone, dd or Phoronix Test Suite output into result files")
    p.add_argument("format", choices=sorted(importers.FORMATS), help="the tool that wrote the files")
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="its output; several files of one job are repetitions, or a sweep where they differ in one "
                        "of its options (" + ", ".join(SWEEP) + "), which becomes the cells' dimension")
    p.add_argument("--filesystem", help="the filesystem measured (ext4, xfs, ...); for pts, default: each system's "
                                        "File-System in its software line")
    p.add_argument("--as", dest="sides", metavar="FS[:VARIANT],...", action="append", default=[],
                   help="per FILE, in order, the filesystem (and variant) it measured: `--as ext4,ext4,xfs,xfs` makes "
                        "one result of two filesystems, which `fsatlas report R --a ext4 --b xfs` compares; a variant V "
                        "is stored as imported-V (`--a ext4:imported-V`), never one of the matrix's")
    p.add_argument("--terse-lines", choices=["clones", "runs"],
                   help="fio terse (--minimal) lines of one job name and group, which terse output cannot tell apart: "
                        "clones = one run's numjobs clones (a line each without group_reporting), summed; runs = runs "
                        "appended to one log (fio --minimal >> log), each a repetition of the job's cell. Without it "
                        "such a file is refused")
    p.add_argument("--workload", help="a workload name for the cells (default: derived from the tool's output)")
    p.add_argument("--mount-options", action="append", default=[], help="the mount options used (comma-separated)")
    p.add_argument("--mkfs-options", action="append", default=[], help="the mkfs options used")
    p.add_argument("--driver", choices=["kernel", "fuse"], default="kernel")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--system", metavar="FILE", help="YAML or JSON with the measured machine's system (and target) facts; "
                                                        "without it or --this-machine the result says \"system not recorded\" "
                                                        "(PTS: its own Hardware and Software lines)")
    where.add_argument("--this-machine", action="store_true",
                       help="the output was measured on this machine: its system facts and machine label are recorded")
    p.add_argument("--machine", help="a label for the machine, with --system or --this-machine (default: a short "
                                     "salted hash; for pts, a digest of each system's hardware line)")
    p.add_argument("--submitter", help="your name or handle, published with the result")
    p.add_argument("--notes", help="anything a reader should know, published with the result")
    p.add_argument("--out", default="data", help="output folder holding results/ and raw/ (default: data)")
    p.add_argument("--redact", action="store_true",
                   help="replace what looks private in the kept raw output (host and user names, home folders, "
                        "addresses, serials) by [redacted], recorded in the result; without it such an output is refused")
    p.set_defaults(func=run)


MAX_SYSTEM_FILE = 64 * 1024  # a --system file: a machine's facts, a few hundred bytes


def _system(path, machine, this_machine: bool, digest: str):
    """(system, target) of an import: from --system FILE, from this machine (--this-machine), or
    "system not recorded": a label naming this import alone, as no machine can be told."""
    if this_machine:
        return {**system.collect_system(machine), "recorded": "this-machine"}, {"kind": "directory"}
    if not path:
        if machine:  # a label names a machine whose facts are recorded: here, none are
            raise UserError(f"a machine label ({machine!r}) without the machine's facts", field="--machine",
                            expected="--system FILE or --this-machine beside it (without either, the result is "
                                     "\"system not recorded\" under a label naming the import alone)")
        return {"machine": f"unrecorded-{digest}", "recorded": "none"}, {"kind": "directory"}
    _regular(path)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read(MAX_SYSTEM_FILE + 1)
        if len(text) > MAX_SYSTEM_FILE:
            raise UserError(f"larger than {MAX_SYSTEM_FILE:,} characters; expected a machine's facts", where=path)
        data = safe_yaml.load_plain(text, path)
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as e:
        why = getattr(e, "strerror", None) or str(e).replace("\n", " ")[:300]
        raise UserError(f"cannot read the system file: {why}", where=path) from None
    if not isinstance(data, dict) or not isinstance(data.get("system"), dict):
        raise UserError("expected a mapping with a 'system' section (and optionally 'target')", where=path, field="/system")
    sysinfo = {**data["system"], "recorded": "file"}
    # the file's own label, else --machine, else one from the file's facts: this machine's label
    # named another machine's facts (round 58), which validate then saw as one label, two machines
    sysinfo.setdefault("machine", machine or "m-" + hashlib.sha256(
        ("fsatlas-file:" + json.dumps(data["system"], sort_keys=True, default=str)).encode()).hexdigest()[:10])
    if machine:
        sysinfo["machine"] = machine
    target = data.get("target") or {"kind": "directory"}
    measured = [field for field in (*bundle.BASELINE_FOLDERS, "baseline_written") if isinstance(target, dict) and field in target]
    if measured:  # figures, not facts of the machine: validate recomputes them from the runner's own fio reports
        raise UserError("expected the machine's facts only, found the raw device's figures, which an import has no "
                        "report to recompute from (they come from `fsatlas run`)", where=path, field=f"/target/{measured[0]}")
    probe = {"schema_version": SCHEMA_VERSION, "id": "x", "created": "2000-01-01T00:00:00Z", "tool": {"runner": "x"},
             "system": sysinfo, "target": target, "cells": []}
    for problem in resultfile.schema_problems(probe, path):
        if problem.path.startswith(("/system", "/target")):
            raise UserError(problem.message, where=path, field=problem.path)
    return sysinfo, target


def _options(values, flag: str) -> list[str]:
    """The options of --mkfs-options/--mount-options, each checked against the result schema's
    definition of an option here, so that a bad one is reported against its flag (it was
    reported against /cells/0/key of a result never written)."""
    options, shape = list_option(values), resultfile.schema()["$defs"]["options"]
    for option in options:
        if len(option) > shape["items"]["maxLength"] or not re.search(shape["items"]["pattern"], option):
            raise UserError(f"an option of {option!r}", field=flag, expected=f"comma-separated options, each matching "
                            f"{shape['items']['pattern']} and at most {shape['items']['maxLength']} characters")
    if len(options) > shape["maxItems"]:
        raise UserError(f"{len(options)} options", field=flag, expected=f"at most {shape['maxItems']}")
    return options


SWEEP = ("iodepth", "numjobs", "bs")  # the options a sweep of one job varies, one at a time
VARIED = {"numjobs": "jobs_in_report"}  # what differs with a swept option as a consequence (fio's clones)


def _sides(args) -> list[tuple[str, str]]:
    """(filesystem, variant) of each input file, from --as or else --filesystem."""
    specs = list_option(args.sides)
    if not specs:
        if not args.filesystem:
            raise UserError("which filesystem the output measured", field="--filesystem (or --as)", found="none given")
        return [(_check_filesystem(args.filesystem, "--filesystem"), "imported")] * len(args.files)
    if args.filesystem:
        raise UserError("--filesystem or --as, not both", field="--as")
    if len(specs) != len(args.files):
        raise UserError(f"one FS[:VARIANT] a file, in order", field="--as",
                        found=f"{len(specs)} for {len(args.files)} files")
    out, spelled = [], {}
    for spec in specs:
        fs, _, variant = spec.partition(":")
        _check_filesystem(fs, "--as")
        if variant and not re.match(r"^[a-z0-9][a-z0-9_-]{0,80}$", variant):
            raise UserError("a lower-case variant name of letters, digits, _ and -", field="--as", found=repr(spec))
        config = shares.configuration(spec, of_import=True)  # ext4, ext4: and ext4:defaults: one configuration
        other = spelled.setdefault(config, spec)
        if other != spec:  # files the user named apart are never merged into one cell as repetitions
            raise UserError(f"{other} and {spec} name one configuration ({config[0]}:{config[1]}): files of one "
                            f"configuration are its repetitions, so spell it one way", field="--as",
                            expected="one spelling a configuration", found=f"{other}, {spec}")
        out.append(config)
    return out


def swept(parsed: list, files: list[str]) -> str | None:
    """The option (one of SWEEP) in which the measurements of one job differ between the files
    [(raw, measurements)], or None where they are repetitions. Files of one job that differ in
    anything else, or in two options, are refused: their figures are no cell's samples."""
    seen = {}  # (workload, dimensions) -> [(file, parameters)]
    for path, (_, measurements) in zip(files, parsed):
        for m in measurements:
            seen.setdefault((m.workload, tuple(sorted(m.dimensions.items()))), []).append((path, m.parameters))
    differ = {}
    for (workload, _), runs in seen.items():
        for name in set().union(*(p for _, p in runs)) - NOTES:
            values = {str(p.get(name)) for _, p in runs}
            if len(values) > 1:
                differ.setdefault(name, (workload, runs))
    # an option one file does not state (fio's "not stated": no option, no guess from the job's
    # name) cannot be a sweep's dimension
    options = [name for name in SWEEP if name in differ
               and all(p.get(name, importers.fio.NOT_STATED) != importers.fio.NOT_STATED for _, p in differ[name][1])]
    others = sorted(set(differ) - set(options) - {VARIED[o] for o in options if o in VARIED})
    if len(options) > 1 or others:
        workload, runs = differ[(others or options[1:])[0]]
        # only what differs for that job, and by fio's option: jobs_in_report is how many entries
        # fio wrote for it, which group_reporting (or, without it, numjobs) decides
        names = [n for n in options + others if len({str(p.get(n)) for _, p in runs}) > 1]
        if "jobs_in_report" in names and {"group_reporting", "numjobs"} & set(names):
            names.remove("jobs_in_report")
        words = {"jobs_in_report": "group_reporting (the jobs fio reported: jobs_in_report)"}
        found = "; ".join(f"{os.path.basename(path)}: " + ", ".join(f"{n}={params.get(n, 'not set')}" for n in names)
                          for path, params in runs[:4])
        raise UserError(f"files of job {workload!r} differ in {', '.join(words.get(n, n) for n in names)}",
                        where=", ".join(files), expected=f"repetitions of one job, or a sweep of one of {', '.join(SWEEP)}",
                        found=found)
    return options[0] if options else None


def _member(index: int, path: str) -> str:
    """The bundle member holding input file number index (its name made safe)."""
    return f"{index + 1:03d}-{re.sub(r'[^A-Za-z0-9._-]', '_', os.path.basename(path))}"


def cell_records(parsed: list, filesystem: str, mkfs: list, mount: list, driver: str,
                 variant: str = "imported", effective: str = "", provenance: dict | None = None,
                 inputs: dict | None = None) -> list[dict]:
    """The cells of a result from [(raw member, measurements read from it)]: measurements of
    the same workload and parameters across members (or within one) become one cell's samples.
    effective: the mount options the tool recorded as in force (PTS), else those given;
    provenance: raw member -> its own measured time and tool version, kept per cell as
    imported_runs (one entry a raw member, in the order of raw); inputs: raw member -> the input
    file it holds, which a refusal names."""
    cells, bound = {}, Bounds()  # what no importer refused at its line
    for raw, measurements in parsed:
        for m in measurements:
            # a variant is part of the key, as the runner's variants are (there by their options)
            key = make_key(filesystem if variant == "imported" else f"{filesystem}:{variant}", mkfs, mount,
                           m.workload, m.dimensions)
            bound.add(key, m, (inputs or {}).get(raw, raw))
            cell = cells.setdefault(key, {"m": m, "units": {}, "samples": {}, "raw": [], "why": "", "failed": False})
            cell["failed"] = cell["failed"] or m.failed
            cell["units"].update(m.units)  # a figure the first run could not measure ("+++++") has its unit in a later one
            for name, value in m.values.items():
                cell["samples"].setdefault(name, []).append(value)
            cell["why"] = cell["why"] or m.not_measured
            if raw not in cell["raw"]:
                cell["raw"].append(raw)
    records = []
    for key, c in cells.items():
        m = c["m"]
        complete = {n: v for n, v in c["samples"].items() if len(v) == max(len(x) for x in c["samples"].values())} if c["samples"] else {}
        if c["failed"]:  # a repetition the tool reported an error for: the cell has no figure to trust
            complete = {}
        record = {"key": key, "filesystem": filesystem, "workload": m.workload, "variant": variant,
                  "parameters": {k: v for k, v in m.parameters.items()}, "driver": driver, "flags": [],
                  "mkfs_options": mkfs, "mount_options": mount, "effective_mount_options": effective or ",".join(mount),
                  "status": "ok" if complete else "failed" if c["failed"] else "skipped",
                  "metrics": {n: _summary(v, *c["units"][n]) for n, v in complete.items()},
                  "raw": c["raw"] if complete else []}
        if not complete:
            record["reason"] = c["why"] or "the tool reported no figure for this test"
        if complete:
            record["flags"] = flags.derive(record, {})
            if provenance:
                record["imported_runs"] = [{"raw": raw, **provenance.get(raw, {})} for raw in c["raw"]]
        records.append(record)
    return records


def _summary(samples: list, unit: str, better: str) -> dict:
    """stats.summarize; a PTS scale kept as its own unit ("pts:Final Score") is unit pts and its
    pts_scale, so the schema checks a unit against a list, not a pattern (msgspec: 0.07 us a metric
    against 0.5-0.6 us, measured for commit 52eb0f3)."""
    if unit.startswith(pts.OWN):
        return {**stats.summarize(samples, "pts", better), "pts_scale": unit[len(pts.OWN):]}
    return stats.summarize(samples, unit, better)


def _check_filesystem(name: str, where: str) -> str:
    if not re.match(r"^[a-z0-9][a-z0-9_+.-]*$", name or ""):
        raise UserError("a lower-case filesystem name", field=where, found=repr(name))
    return name


def _regular(path: str) -> None:
    """Refuses what is not a regular file (a FIFO would block the read forever, a device or a
    folder is no tool's output)."""
    try:
        mode = os.stat(path).st_mode
    except OSError as e:
        raise UserError(f"cannot read: {e.strerror}", where=path) from None
    if not stat.S_ISREG(mode):
        kind = "a folder" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) \
            else "a device"
        raise UserError(f"{kind}, not a regular file", where=path, expected="a file the tool wrote")


def _read(path: str) -> tuple[bytes, str]:
    """The bytes of one input file (at most 64 MiB) and the text they hold."""
    _regular(path)
    try:
        with open(path, "rb") as f:
            data = f.read(64 * 1024 * 1024 + 1)
    except OSError as e:
        raise UserError(f"cannot read: {e.strerror}", where=path) from None
    if len(data) > 64 * 1024 * 1024:
        raise UserError("larger than 64 MiB", where=path)
    return data, importers.text_of(data, path)


def _private_names(paths) -> None:
    """Refuses an input whose file name looks private ("dd-from-203.0.113.9.txt",
    "dd-bob@corp-mail.com.txt"): the name, made safe (_member), is its member's name in the
    published bundle, and --redact changes what a file holds, never its name. The name is
    screened as given, before it is made safe (the @ that made bob@corp-mail.com an address
    becomes _)."""
    for path in paths:
        found = privacy.finding(os.path.basename(path))
        if found:
            raise UserError(f"the file's name {found}; "
                            "the name is published as its raw member's, and --redact does not change a file name",
                            where=path, expected="a file name without it: rename the file (or copy it under "
                                                 "another name) and import that")


def _refuse_same_bytes(read: list[tuple[str, bytes]]) -> None:
    """One line naming both files where two inputs hold the same bytes (one path given twice, or
    a copy): before anything is read further or written."""
    first = {}
    for index, (path, data) in enumerate(read):
        other = first.setdefault(hashlib.sha256(data).digest(), index)
        if other != index:
            raise UserError(f"the same output as FILE {other + 1} ({read[other][0]})", where=path,
                            expected="each repetition's own output file")


def run(args) -> int:
    outfile.named(args.out)  # before any work: "-" and "" name no folder
    if getattr(args, "terse_lines", None) and args.format != "fio":
        raise UserError(f"given for {args.format}'s output", field="--terse-lines", expected="fio's terse output")
    _private_names(args.files)
    try:
        with memory.limited(stats.PRELOAD):
            return _run_pts(args) if args.format == "pts" else _run(args)
    except MemoryError:
        raise UserError(memory.TOO_MUCH, where=", ".join(args.files)) from None
    except UNREADABLE as e:  # a figure no parser's own check placed: one line naming the inputs, never a traceback
        raise _unreadable(e, ", ".join(args.files)) from None


# What reading a number or text the parsers did not check first raises: a 400-digit figure as a
# float (OverflowError), "4.7.7" or a 5,000-digit integer (ValueError), a NaN divided (ZeroDivisionError),
# a lone surrogate encoded (UnicodeError) (#65 round 58: each was a traceback).
UNREADABLE = (ArithmeticError, ValueError, UnicodeError)


def _unreadable(error: Exception, where: str) -> UserError:
    return UserError(f"a figure or name that cannot be read ({type(error).__name__}: {str(error)[:120]})", where=where,
                     expected="the tool's own output, each figure a number it can print")


def _checked(result: dict, inputs: list) -> None:
    """resultfile.check of the result an import would write, a refusal naming its inputs and the
    place in the result (round 58: it named the result's file, which is never written)."""
    try:
        resultfile.check(result, result["id"])
    except UserError as e:
        raise UserError(f"the result made from it would be refused at {e.field or '/'}: {e.body}",
                        where=", ".join(inputs)) from None


def _parse(module, text: str, path: str, workload, terse_lines=None):
    """module.parse of one input; an UNREADABLE error names that input (run() names them all).
    fio's terse lines of one job and group are read as terse_lines says, else refused."""
    try:
        if module is importers.fio:
            if terse_lines and not fio_terse.is_terse(text):  # a JSON report tells its clones apart itself
                raise UserError("--terse-lines given for fio's JSON report", where=path,
                                expected="--terse-lines with fio's terse (--minimal) output only (numjobs clones in "
                                         "JSON are summed as fio's group report sums them)")
            return module.parse(text, path, workload, terse_lines=terse_lines or module.ASK)
        return module.parse(text, path, workload)
    except UNREADABLE as e:
        raise _unreadable(e, path) from None


def _run(args) -> int:
    module = importers.FORMATS[args.format]
    sides = _sides(args)
    if args.workload and not re.match(r"^[a-z0-9][a-z0-9-]*$", args.workload):
        raise UserError("a lower-case workload name of letters, digits and dashes", field="--workload",
                        found=repr(args.workload))
    if args.workload and not validation.kind_may_back(args.format, args.workload):
        kind = validation.workload_kinds()[args.workload]
        kind = f"{validation.RUNNER_KINDS[kind]} record of fsatlas's runner" if kind in validation.RUNNER_KINDS else kind
        raise UserError(f"{args.workload!r} is a workload the standard matrix runs with {kind}, which "
                        f"{args.format}'s output cannot stand for", field="--workload",
                        expected=f"a workload name of your own (as {args.format}-{args.workload})")
    read = [(path, *_read(path)) for path in args.files]
    texts = [(path, text) for path, _, text in read]
    total = sum(len(data) for _, data, _ in read if not importers.is_json_report(data))
    if total > importers.MAX_TEXT_TOTAL:
        raise UserError(f"text reports of {total:,} bytes in all", where=", ".join(args.files),
                        expected=f"at most {importers.MAX_TEXT_TOTAL:,} bytes a result (import the repetitions in parts)")
    kept = sum(len(data) for _, data, _ in read)  # every input is kept in the result's bundle
    if kept > bundle.MAX_TOTAL_BYTES:
        raise UserError(f"outputs of {kept:,} bytes in all", where=", ".join(args.files),
                        expected=f"at most {bundle.MAX_TOTAL_BYTES:,} bytes a result, what its raw bundle may hold "
                                 f"(import the repetitions in parts)")
    _refuse_same_bytes([(path, data) for path, data, _ in read])  # one output twice would be two repetitions
    created = dt.datetime.now(dt.timezone.utc).replace(microsecond=0)
    digest = hashlib.sha256("".join(t for _, t in texts).encode()).hexdigest()[:8]
    sysinfo, target = _system(args.system, args.machine, args.this_machine, digest)
    result_id = f"{created:%Y%m%dT%H%M%SZ}-{sysinfo['machine']}-import-{args.format}-{digest}"
    mkfs, mount = _options(args.mkfs_options, "--mkfs-options"), _options(args.mount_options, "--mount-options")
    parsed = [(f"raw/{result_id}/{_member(index, path)}", _parse(module, text, path, args.workload, getattr(args, "terse_lines", None)))
              for index, (path, text) in enumerate(texts)]
    provenance = {}  # raw member -> what its own output recorded of when and with what it ran
    for (raw, _), (path, text) in zip(parsed, texts):
        provenance[raw] = validation.output_provenance(module, text, path)
    seen = {}
    for index, ((raw, measurements), path) in enumerate(zip(parsed, args.files)):
        if not any(m.values for m in measurements):  # no figure (every test +++++): nothing to be the same
            continue
        # the same figures and stated time (none, where the tool states none: terse, dd, bonnie++)
        same = json.dumps([provenance[raw].get("measured"), [(m.workload, m.parameters, m.values) for m in measurements]],
                          sort_keys=True, default=str)
        other = seen.setdefault(same, index)
        if other != index:  # one report written out again (reformatted, `jq .`, a newline added): still one run
            when = "its time and every figure" if "measured" in provenance[raw] else "every figure (the output states no time)"
            raise UserError(f"the same run as FILE {other + 1} ({args.files[other]}): {when}",
                            where=path, expected="each repetition's own output file")
    records, sweeps = [], {}
    of_side = {side: [i for i, s in enumerate(sides) if s == side] for side in sides}  # in the order given
    options = {side: swept([parsed[i] for i in mine], [args.files[i] for i in mine]) for side, mine in of_side.items()}
    if len(set(options.values()) - {None}) > 1:  # cells of the sides would pair on no dimension
        raise UserError("the sides sweep different options: " + ", ".join(
            f"{fs}:{variant} {option}" for (fs, variant), option in options.items() if option), where=", ".join(args.files),
            expected="one swept option a result (import each sweep as a result of its own)")
    option = next((o for o in options.values() if o), None)
    for side, mine in of_side.items():
        if option:  # a sweep: the option's value is each cell's dimension, on every side (a side of one
            for i in mine:  # run at iodepth 1 pairs with the sweep's iodepth=1)
                for m in parsed[i][1]:
                    if m.parameters.get(option, importers.fio.NOT_STATED) != importers.fio.NOT_STATED:
                        m.dimensions = {**m.dimensions, option: str(m.parameters[option])}
            if options[side]:
                sweeps[side] = (option, {m.dimensions[option] for i in mine for m in parsed[i][1] if option in m.dimensions})
        fs, variant = side
        records += cell_records([parsed[i] for i in mine], fs, mkfs, mount, args.driver, variant, provenance=provenance,
                                inputs={raw: path for (raw, _), (path, _) in zip(parsed, texts)})
    if not records:
        raise UserError("no measurements found", where=", ".join(args.files))
    tool = {"runner": system.collect_tools()["runner"], "imported_from": args.format}
    versions = sorted({v for _, text in texts if (v := module.tool_version(text))})
    if versions:  # as the output states it ("fio-3.33", "bonnie++ 1.97", "IOzone 3.487")
        tool[args.format] = "; ".join(versions)[:200]
    noted = getattr(module, "note", None)  # what a format says of a report beyond its figures (fio)
    notes = ([args.notes] if args.notes else []) + \
        [f"{os.path.basename(path)}: {n}" for path, n in ((p, noted(t) if noted else "") for p, t in texts) if n]
    result = {"schema_version": SCHEMA_VERSION, "id": result_id, "created": created.isoformat().replace("+00:00", "Z"),
              "profile": f"import-{args.format}", "complete": True,
              "tool": tool, "system": sysinfo, "target": target, "cells": records}
    # the earliest time the outputs kept state (those of an ok cell: the bundle holds no other);
    # each file's own is its cells' (imported_runs)
    measured = validation.earliest(provenance[raw] for raw in {r for c in records for r in c["raw"]})
    if measured:
        result["measured"] = measured
    if args.submitter:
        result["submitter"] = args.submitter
    if notes:
        result["notes"] = "\n".join(notes)[:4000]
    out = outfile.named(args.out)
    _checked(result, args.files)
    members = {_member(index, path): data for index, (path, data, _) in enumerate(read)}  # the bytes as the tool wrote them
    _publish(out, [(result, members)], args.redact, args.files)
    ok = sum(r["status"] == "ok" for r in records)
    print(f"{ok} cells imported, {len(records) - ok} without a figure", file=sys.stderr)
    for (fs, variant), (option, values) in sweeps.items():  # in the scaling view's order (4k before 1M)
        from ..site import explorer  # only here: the site's modules are no import's load otherwise
        values = sorted(values, key=lambda v: explorer.sweep_axis(f"{option}={v}")[1] or 0.0)
        print(f"note: {fs} ({variant}) is a sweep of {option}: {', '.join(values)}", file=sys.stderr)
    if sysinfo["recorded"] == "none":  # notes only on success: a refusal is one line
        print(f"note: {resultfile.NOT_RECORDED} (machine label {sysinfo['machine']}): pass --system FILE, or "
              f"--this-machine if the output was measured here", file=sys.stderr)
    for note in notes[1 if args.notes else 0:]:
        print(f"note: {note}", file=sys.stderr)
    return 0


STAGING = "import-"  # the staging folder's name: fsatlas-<pid>-import-<random>


def _publish(out: str, made: list[tuple[dict, dict]], redact: bool, inputs: list[str],
             redacted_fields: tuple = ()) -> list[str]:
    """Writes each (result, its raw members) to out, only when `validate` accepts every one:
    all are written and checked in a temporary folder inside out, then moved into place, bundle
    first, and each result's path printed; anything refused, or a path that cannot be printed,
    leaves out as it was. With redact, what looks private in the raw members is replaced
    (privacy.redact) and recorded in the result's redactions; the fields under redacted_fields
    (JSON Pointers) are ones --redact replaces too (PTS's system lines)."""
    # the folders this import makes (out and any missing parent: round 62), removed again when
    # empty if it writes nothing (round 61)
    made_folders = [f for f in (os.path.join(out, "results"), os.path.join(out, "raw")) if not os.path.lexists(f)]
    parent = os.path.abspath(out)
    while not os.path.lexists(parent):
        made_folders.append(parent)
        parent = os.path.dirname(parent)
    outfile.folder(out)
    try:
        # staged in a folder marked as this process's (leftovers.owned_dir): one an import killed
        # while staging left is removed here, named, and its pattern is in .gitignore (#65 round
        # 55: a hidden folder no command named stayed in out and could be committed)
        for stale in leftovers.dead_dirs(out):
            if STAGING in os.path.basename(stale):
                shutil.rmtree(stale, ignore_errors=True)
                print(f"note: removed {stale}, left by an import that was stopped while staging", file=sys.stderr)
        tmp = leftovers.owned_dir(out, STAGING)
    except OSError as e:
        raise UserError(f"cannot write in the folder: {e.strerror}", where=out) from None
    try:
        staged, kept, outputs = [], {}, {}  # kept: the members as written; outputs: as the tool wrote them
        for result, members in made:
            # an input no cell's figure comes from (a test the tool reported no figure for) is
            # not kept: validate refuses a member it does not read
            named = {bundle.member_of(result["id"], raw) for cell in result["cells"] for raw in cell["raw"]}
            members = {name: data for name, data in members.items() if name in named}
            outputs.update(members)
            if redact:
                members = _redacted(result, members, inputs)
            kept.update(members)
            if members:
                bundle.write(members, bundle.path(tmp, result["id"]))
            staged.append(resultfile.write_result(tmp, result))
        for path in staged:
            errors = [p for p in validation.reviewed(validation.validate_file(path)) if p.severity == "error"]
            if any(p.message == memory.TOO_MUCH for p in errors):
                raise MemoryError  # the limit, not the output: named with the inputs, as a reader's MemoryError is
            if errors:
                first = errors[0]
                hint = _hint(first, redact, redacted_fields, lambda: _redaction_clears(kept))
                more = f"; and {len(errors) - 1} more" if len(errors) > 1 else ""
                raise UserError(f"the result would not pass validate: {first.path or '/'}: {first.message}{more}{hint}",
                                where=", ".join(inputs))
        moves = [(os.path.join(tmp, folder, name), os.path.join(out, folder, name))
                 for (result, _), path in zip(made, staged)
                 for folder, name in (("raw", os.path.basename(bundle.path(tmp, result["id"]))),
                                      ("results", os.path.basename(path)))
                 if os.path.exists(os.path.join(tmp, folder, name))]  # no bundle where no cell has a figure
        targets = [target for _, target in moves]
        twice = next((t for k, t in enumerate(targets) if t in targets[:k]), None)
        if twice is not None:  # two results of one id: the second move would find the first's staged file gone
            raise UserError("two results of this import would be written to one file", where=twice,
                            expected="inputs that are not the same output (" + ", ".join(inputs) + ")")
        with _imports_one_at_a_time(out):  # between the checks and the moves no other import moves in
            # first: a run imported before is named by its input and line, also where the whole
            # output is (_not_replacing would name only the result)
            _not_imported_before(out, [*outputs.items(), *kept.items()], [result for result, _ in made], inputs)
            for (staged_file, target) in moves:  # every target checked before any is moved: a refusal leaves out as it was
                if os.path.lexists(os.path.dirname(target)) and not os.path.isdir(os.path.dirname(target)):
                    raise UserError("expected a folder, found a file", where=os.path.dirname(target))
                outfile.check(target)
                _not_replacing(staged_file, target)
            written = [os.path.join(out, "results", os.path.basename(path)) for path in staged]
            # each result's path on standard output before the import counts as done: one that
            # cannot be written (> /dev/full, >&-) undoes the moves (round 60: the result stayed,
            # and the exit status said it failed)
            _move_all(moves, tmp, then=lambda: _announce(written))
        return written
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        for folder in made_folders:  # innermost first
            with contextlib.suppress(OSError):
                os.rmdir(folder)  # only an empty one: another import's files stay
        raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _not_imported_before(out: str, members: list[tuple[str, bytes]], results: list[dict],
                         inputs: list[str] = ()) -> None:
    """A UserError where an output of this import (members: (name, bytes), as the tool wrote it
    and as kept) is a member of the bundle of a result imported into out before, or a repetition
    of one with the same figures (comparison.output_prints, as compare finds it: the same report
    with other line ends or spacing, round 62): one run's output in two results would count as
    two runs (#65 round 60: dd1 and dd2, then dd1, dd2 and dd3, gave two results that compare
    counted as two runs; so did the same outputs in another order or under another label), or
    holds a run such a member holds (_output_keys: a log imported again grown by a run, round 74),
    named by its input and line; or where two inputs of this import, or one input twice, hold
    one run (round 76: `cat old.log grown.log`), named by the second copy's line. Only
    imported results are read (an id holding "-import-"), each bundle within its bounds; not the
    ids this import writes (the same import again, in its second: _not_replacing found their
    bytes the same)."""
    from ..results import comparison
    ours = {}  # each run's key (_output_keys) -> (member, its line), the first member holding it
    for name, data in members:
        for key, line in _output_keys(data, name):
            held = ours.setdefault(key, (name, line))
            if held[0] == name and line is not None and held[1] != line:
                # one run twice in one input (`cat old.log grown.log > all.log`, a session pasted
                # twice: adversary of #65, round 76): it would be two repetitions
                raise UserError(f"a run that {_place(held[1])} holds too", where=_input_of(name, inputs),
                                field=_place(line), expected="each run once an input: one run twice would count as "
                                                             "two runs (remove the copy)")
            if held[0] != name and held[1] is not None:
                # two inputs of this import holding one run (dd.log of runs A, B beside the same
                # log grown to A, B, C): the shared runs would be two repetitions each
                raise UserError(f"a run that {_place(held[1])} of {_input_of(held[0], inputs)} holds too",
                                where=_input_of(name, inputs), field=_place(line),
                                expected="inputs that hold other runs: one run in two inputs would count as two runs "
                                         "(give the longer log, or the file PTS grew, alone)")
    ids = {result["id"] for result in results}
    mine = {k: v for result in results for k, v in comparison.output_prints(resultfile.readable(result)).items()}
    folder = os.path.join(out, "results")
    for entry in sorted(os.listdir(folder)) if os.path.isdir(folder) else ():
        rid = entry[:-len(".json")]
        if "-import-" not in rid or not entry.endswith(".json") or rid in ids:
            continue
        try:
            same = mine.keys() & comparison.output_prints(resultfile.readable(resultfile.load_json(
                os.path.join(folder, entry)))).keys()
            theirs = bundle.read(out, rid) if os.path.isfile(bundle.path(out, rid)) else {}
        except (UserError, KeyError, TypeError, ValueError):
            continue  # validate names what is wrong with it; it holds no output this one can be
        held = {}  # key -> (member, line) in this earlier result
        for name, data in theirs.items():
            for key, line in _output_keys(data, name):
                held.setdefault(key, (name, line))
        # the first of this import's runs (in the order of its inputs and their lines) held there
        first = next(((key, at) for key, at in ours.items() if key in held), None)
        if first is not None:
            _refuse_held(first, held[first[0]], os.path.join(folder, entry), inputs)
        if same:
            raise UserError(f"an output of this import was imported already, in this result (a repetition of "
                            f"{mine[min(same)]} with the same figures)", where=os.path.join(folder, entry),
                            expected="outputs not imported yet into this folder: one output in two results would "
                                     "count as two runs (remove that result first to import them again)")


def _refuse_held(first: tuple, theirs: tuple, result_path: str, inputs: list[str]) -> None:
    """The refusal of a run (or an output) of this import that the result at result_path holds:
    first is (its key, (member, line)), theirs (member, line) there."""
    (_, (name, line)), (their_name, their_line) = first, theirs
    if line is None:  # an output read as a whole (not a log of runs)
        raise UserError(f"this output was imported already, in the result {result_path} (as {their_name})",
                        where=_input_of(name, inputs), expected="outputs not imported yet into this folder: "
                        "one output in two results would count as two runs (remove that result first to import "
                        "them again)")
    raise UserError(f"a run imported already, in the result {result_path} ({_place(their_line)} of its {their_name})",
                    where=_input_of(name, inputs), field=_place(line),
                    expected="runs not imported yet into this folder: one run in two results would count as two "
                             "runs (" + ("import only the runs after it" if isinstance(line, int) else
                                         "import a file of the systems not imported yet, as PTS's "
                                         "extract-from-result-file writes it") + ", or remove that result first)")


def _place(at: int | str) -> str:
    """A run's place in its input as a refusal names it: a log's line number, a PTS Entry."""
    return f"line {at}" if isinstance(at, int) else at


def _input_of(member: str, inputs: list[str]) -> str:
    """The input file a member of this import holds (_member: its number and name), else the
    member's name."""
    for index, path in enumerate(inputs):
        if member in (_member(index, path), _member(0, path)):
            return path
    return member


def _output_keys(data: bytes, where: str) -> list[tuple[bytes, int | str | None]]:
    """What identifies an output among those imported before, as (key, place): a log of runs (dd's
    summaries, fio's terse lines, bonnie++'s CSV lines, IOzone's rows and Children lines) a key
    per run and its line number, a PTS file a key per system's runs of a test and its place
    (pts.run_keys: a file PTS grew by a system), so that a log imported again
    grown by a run (`dd ... 2>> dd.log`, `fio --minimal ... >> log`), or cut, or a line of it
    alone, is the same runs (adversary of #65, round 74); any other output one key, line None:
    its text's words, whatever its line
    ends, spacing and encoding (a CRLF copy of a dd or IOzone output, whose cells of one figure
    output_prints cannot tell from a coincidence, is the same output: round 71); bytes that are no
    text as they are.

    A dd run is its summary as dd_output reads it, the byte count and the seconds (the
    throughput is computed from them; dd's rounded rate is not read), never its line's text:
    quoted as in an e-mail or a reply ("> ", ">> ", indented), or with other words or spacing
    around it, it is the same run (round 74). Two runs printing one byte count and one time are
    taken for one, but within one input only where the copy goes on with a run beside it or
    follows its original (_copies): BSD and busybox print their seconds to the microsecond, and
    two of a log's short runs often print one time (adversary of #65, round 78)."""
    try:
        text = importers.text_of(data, where).removeprefix("\ufeff")
    except UserError:
        return [(hashlib.sha256(data).digest(), None)]
    module = importers.detect(text)
    if module is importers.pts:
        try:
            return [(b"pts\0" + key, place) for key, place in importers.pts.run_keys(text, where)]
        except UserError:
            pass  # no file PTS wrote: its words, as any other output's
    if module is importers.dd:
        runs = dd_output.summaries(text)
        if runs:
            keys = _copies([b"dd\0" + f"{size} {seconds!r}".encode() for size, seconds, _ in runs])
            return [(key, number) for key, (_, _, number) in zip(keys, runs)]
    if module is importers.fio and fio_terse.is_terse(text):
        # a terse line is one job's run (or one clone's): its fields, however spaced or ended
        return [(b"terse\0" + ";".join(f.strip() for f in line.split(";")).encode(), number)
                for number, line in fio_terse.lines(text)]
    # a bonnie++ CSV line is a run; an IOzone table row or Children line is a run's figures
    # (adversary of #65, round 77: both, held twice in one log or in a log and its grown copy,
    # were samples twice); their words, however spaced
    lines = (importers.bonnie.csv_lines(text) if module is importers.bonnie
             else importers.iozone.run_lines(text) if module is importers.iozone else [])
    if lines:
        return [(module.__name__.encode() + b"\0" + " ".join(line.split()).encode(), number) for number, line in lines]
    return [(hashlib.sha256(" ".join(text.split()).encode()).digest(), None)]


def _copies(keys: list[bytes]) -> list[bytes]:
    """keys, of one input's runs in order, with each run that repeats an earlier run's key made
    its own unless it is a copy of it: it follows it, or the run before or after it repeats the
    one before or after the earlier (a log and its grown or cut copy concatenated, a session pasted
    twice, pieces that overlap). A copy keeps its original's key, so it is refused naming the
    original's line; a lone repeat is a coincidence, two runs that printed one figure."""
    out, seen = [], {}  # key -> the positions holding it so far
    for j, key in enumerate(keys):
        earlier = seen.setdefault(key, [])
        original = next((i for i in earlier if i == j - 1 or (i and keys[i - 1] == keys[j - 1])
                         or (j + 1 < len(keys) and keys[i + 1] == keys[j + 1])), None)
        out.append(out[original] if original is not None else key + b"\0%d" % len(earlier) if earlier else key)
        earlier.append(j)
    return out


def _announce(paths: list[str]) -> None:
    """Each written result's path on standard output, flushed (an OSError where it cannot be)."""
    for path in paths:
        print(path)
    sys.stdout.flush()


STAMP = len("20261202T012713Z")  # an id's first part: the second it was made


def _not_replacing(staged_file: str, target: str) -> None:
    """A UserError where target holds other bytes than the staged file: an id is the second, the
    machine label, the tool and the outputs' digest, so another import of the same outputs in
    the same second (another --filesystem, say) would take the first one's file (#65 round 55:
    it replaced it and said nothing). The same bytes again are the same import: kept. Nor is a
    name written that differs from one there only in case (--machine Box1 and box1 in one
    second: validate refuses the folder, round 58)."""
    folder, name = os.path.split(target)
    names = os.listdir(folder) if os.path.isdir(folder) else []
    # an id is the second, then the label, the tool and the outputs' digest: one whose part after
    # the second is this one's holds these outputs, imported before (round 58: a second later
    # they became a second result of the same run, which validate took)
    again = next((n for n in names if n != name and n[STAMP:] == name[STAMP:] and n.endswith(".json")), None)
    if again:
        raise UserError("these outputs were imported already, as this result", where=os.path.join(folder, again),
                        expected="outputs not imported yet into this folder (remove that result first to import them "
                                 "again)")
    other = next((n for n in names if n != name and n.lower() == name.lower()), None)
    if other:
        raise UserError(f"another result's file differs from this one's name only in case ({other})", where=target,
                        expected="ids that differ in more than case (validate refuses a folder holding both): "
                                 "import again in a second, or with another --machine")
    if not os.path.lexists(target):
        return
    if os.path.isfile(target) and not os.path.islink(target) and os.path.getsize(target) == os.path.getsize(staged_file):
        with open(target, "rb") as a, open(staged_file, "rb") as b:
            if a.read() == b.read():  # a result or a bundle, each bounded by the checks above
                return
    raise UserError("another result of this id is already there (an import of the same outputs in the same second, "
                    "with other options?): import again in a second, or remove it first", where=target)


@contextlib.contextmanager
def _imports_one_at_a_time(out: str):
    """An exclusive lock on the output folder (flock on its descriptor: nothing written in it),
    held from the checks of the targets to the last move, so two imports in one second cannot
    both find a target free (round 58)."""
    import fcntl
    outfile.folder(out)
    fd = os.open(out, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


def _move_all(moves: list[tuple[str, str]], tmp: str, then=lambda: None) -> None:
    """Renames each staged file over its target, then calls then(); where one rename fails, or
    then() raises, the renames made are undone (a target that was there before gets its old
    content back, kept as a hard link in tmp; a new one is removed), so out holds all of the
    import or none of it."""
    done = []  # (target, its former content's link in tmp, or None where it was new)
    try:
        for k, (staged_file, target) in enumerate(moves):
            outfile.folder(os.path.dirname(target))
            former = None
            if os.path.lexists(target):
                former = os.path.join(tmp, f".former-{k}")
                try:
                    os.link(target, former)
                except OSError as e:
                    raise UserError(f"cannot keep the former file while writing: {e.strerror}", where=target) from None
            outfile.move_into_place(staged_file, target)
            done.append((target, former))
        then()
    except BaseException:
        for target, former in reversed(done):
            with contextlib.suppress(OSError):
                os.replace(former, target) if former else os.unlink(target)
        raise


def _hint(problem, redact: bool, redacted_fields: tuple, clears) -> str:
    """What to do about the first problem that keeps a result from validate: --redact only where
    it would replace what was found (the kept raw output, and the fields an importer fills from
    it: clears() tells whether redacting the raw members leaves nothing the scan finds), and
    only when it was not given already."""
    if not problem.message.startswith(validation.PRIVATE):
        return " (an output fsatlas import should have refused: please report it)"
    in_raw = "/raw/" in problem.path or problem.path.startswith("/raw")
    if in_raw and not redact and not clears():
        return (" (--redact would not replace all of it: remove it from the output by hand, or a maintainer "
                "lists it in data/privacy-reviewed.txt)")
    if in_raw or problem.path.startswith(tuple(redacted_fields)):
        return "" if redact else " (--redact replaces it by [redacted] in the kept raw output and the fields read from it)"
    return (" (--redact does not change it: it comes from the system facts, this machine's or --system's; "
            "give the facts in a --system file without it, or --machine for the label)")


def _redaction_clears(members: dict[str, bytes]) -> bool:
    """Whether --redact would leave nothing in these raw members that the privacy scan finds."""
    return all(privacy.raw_finding(privacy.redact(importers.text_of(data, name))[0]) is None
               for name, data in members.items())


def _redacted(result: dict, members: dict[str, bytes], inputs: list[str] = ()) -> dict[str, bytes]:
    """The members with privacy.redact applied to each one's text; what was replaced is added
    to the result's redactions, by raw reference and kind. A text report that "[redacted]" makes
    longer than the bound a kept text may have is refused naming its input (round 76: it was
    refused as an output import should have refused, "please report it")."""
    kept, redactions = {}, []
    for name, data in members.items():
        text, counts = privacy.redact(importers.text_of(data, name))
        kept[name] = text.encode() if counts else data
        if counts and len(kept[name]) > importers.MAX_TEXT_BYTES and not importers.is_json_report(kept[name]):
            raise UserError(f"a text report of {len(data):,} bytes, {len(kept[name]):,} with what --redact replaced "
                            f"written as [redacted]", where=_input_of(name, inputs),
                            expected=f"a tool's text output of at most {importers.MAX_TEXT_BYTES:,} bytes as kept "
                                     f"(cut what is not the tool's own before the import)")
        redactions += [{"raw": f"raw/{result['id']}/{name}", "what": what, "count": n} for what, n in sorted(counts.items())]
    if redactions:
        result["redactions"] = (result.get("redactions", []) + redactions)[:1000]
    return kept


# PTS writes "System Layer: KVM" (or Docker, ...) where it found one, and nothing on bare metal
# or where it looked and could not tell: its absence is no "none"
VIRTUALIZATION_UNKNOWN = "not recorded"


def _pts_system(record: dict, machine: str | None) -> tuple[dict, dict]:
    """A PTS system's hardware and software lines as fsatlas's system and target."""
    hw, sw = pts.fields(record["hardware"]), pts.fields(record["software"])
    processor = hw.get("Processor", "unknown")
    threads = re.search(r"(\d+) (?:Cores / (\d+) Threads|Cores?)\b", processor)
    cpu_count = int(threads.group(2) or threads.group(1)) if threads else 1
    memory = 0
    for count, size, unit in re.findall(r"(?:(\d+) x )?(\d+(?:\.\d+)?)\s*(MB|GB|TB)\b", hw.get("Memory", "")):
        memory += int(count or 1) * float(size) * {"MB": 2**20, "GB": 2**30, "TB": 2**40}[unit]
    kernel, _, arch = sw.get("Kernel", "").partition(" (")
    if not re.match(r"^[A-Za-z0-9][A-Za-z0-9._+~-]*$", kernel):
        kernel = "unknown"
    label = machine or "pts-" + hashlib.sha256(record["hardware"].encode()).hexdigest()[:10]
    sysinfo = {"machine": label, "recorded": "tool", "kernel": kernel, "os": sw.get("OS", "unknown")[:200],
               "cpu_model": re.sub(r" \(\d+ Cores.*$", "", processor)[:200], "cpu_count": max(cpu_count, 1),
               "memory_bytes": int(memory), "virtualization": sw.get("System Layer", VIRTUALIZATION_UNKNOWN)[:100],
               "arch": arch.rstrip(")")[:50], "pts_hardware": record["hardware"][:1000],
               "pts_software": record["software"][:1000]}
    target = {"kind": "directory"}
    if hw.get("Disk"):
        target["device_model"] = hw["Disk"][:200]
    return sysinfo, target


def _refuse_same_system(seen: dict, measured: dict | None, mine: list, path: str, name: str) -> None:
    """One line where a system holds the same stated time and figures as one before it (in this
    file or another given with it, under any identifier): one run is imported once."""
    if not any(m.values for m in mine):  # no figure: nothing to be the same
        return
    same = json.dumps([(measured or {}).get("time"),
                       [(m.workload, {k: v for k, v in m.parameters.items() if k != "pts_system"}, m.values) for m in mine]],
                      sort_keys=True, default=str)
    other = seen.setdefault(same, (path, name))
    if other != (path, name):
        raise UserError(f"system {name[:80]!r} is the same run as system {other[1][:80]!r} of {other[0]}: its TimeStamp "
                        f"and every figure", where=path, expected="each system's own runs")


def _run_pts(args) -> int:
    """A Phoronix Test Suite result file: one result per system it holds, each with every run of
    every test that system ran, the file (its <User> names redacted) kept as the raw output."""
    given = [flag for flag, value in (("--as", args.sides), ("--system", args.system),
                                      ("--this-machine", args.this_machine)) if value]
    if given:  # not taken silently: PTS recorded each system's facts and filesystem itself
        raise UserError(f"{given[0]} with a PTS result file", field=given[0],
                        expected="none: PTS records each system's Hardware, Software and File-System itself "
                                 "(--filesystem overrides the last)")
    out = outfile.named(args.out)
    mkfs, mount = _options(args.mkfs_options, "--mkfs-options"), _options(args.mount_options, "--mount-options")
    made = []  # (result, bundle member, its bytes): every one checked before any is written
    created = dt.datetime.now(dt.timezone.utc).replace(microsecond=0)  # like every import: when it was imported
    read = [(path, *_read(path)) for path in args.files]
    _refuse_same_bytes([(path, data) for path, data, _ in read])  # one file twice would be one result id twice
    seen = {}  # a system's stated time and figures -> (its file, its identifier): one run imported once
    for path, data, text in read:
        kept = privacy.redact_users(text)  # PTS records the user's login name, in any spelling
        redacted = {}
        if args.redact:  # the Hardware and Software lines become the result's system fields: redacted before
            pts.parse(kept, path)  # but the figures read as PTS wrote them: redaction folds a "𝟎" to "0" (figures.py)
            kept, redacted = privacy.redact_markup(kept)
        digest = hashlib.sha256(data).hexdigest()[:8]
        records = pts.systems(kept, path)
        names = [r["identifier"][:pts.MAX_FIELD] for r in records]
        twice = next((name for k, name in enumerate(names) if name in names[:k]), None)
        if twice is not None:  # an <Entry> names its system only by this: the two systems' runs would mix
            raise UserError(f"two <System> elements named {twice[:80]!r}", where=path,
                            expected="a distinct <Identifier> a system (each <Entry> names its system by it)")
        measurements = pts.parse(kept, path)
        disagree = pts.value_disagreements(kept, path)
        for k, record in enumerate(records):
            fs = args.filesystem or pts.fields(record["software"]).get("File-System", "").lower()
            _check_filesystem(fs, f"{path}: System {record['identifier']!r} File-System (or --filesystem)")
            sysinfo, target = _pts_system(record, args.machine)
            sysinfo["pts_timestamp"] = record["timestamp"][:100]  # as PTS wrote it; read into the result's measured
            result_id = f"{created:%Y%m%dT%H%M%SZ}-{sysinfo['machine']}-import-pts-{digest}-{k + 1}"
            member = _member(0, path)
            mine = [m for m in measurements if m.parameters["pts_system"] == record["identifier"][:pts.MAX_FIELD]]
            records = cell_records([(f"raw/{result_id}/{member}", mine)], fs, mkfs, mount, args.driver,
                                   effective=record["mount_options"], inputs={f"raw/{result_id}/{member}": path})
            if not records:
                raise UserError(f"no result of system {record['identifier']!r}", where=path)
            notes = [args.notes] if args.notes else []
            notes += [f"imported from the Phoronix Test Suite result file {os.path.basename(path)}, system "
                      f"{record['identifier']!r}; its <User> was redacted in the kept copy"
                      + (", and what looked private (--redact)" if redacted else "")]
            notes += [d for d in disagree if f"({record['identifier']})" in d]
            tool = {"runner": system.collect_tools()["runner"], "imported_from": "pts"}
            if record["client"] or pts.tool_version(kept):
                tool["pts"] = (record["client"] or pts.tool_version(kept))[:200]
            result = {"schema_version": SCHEMA_VERSION, "id": result_id,
                      "created": created.isoformat().replace("+00:00", "Z"), "profile": "import-pts", "complete": True,
                      "tool": tool, "system": sysinfo, "target": target, "cells": records,
                      "notes": "\n".join(notes)[:4000]}
            measured = pts.measured(record["timestamp"], path, f"System {record['identifier'][:80]!r} <TimeStamp>")
            _refuse_same_system(seen, measured, mine, path, record["identifier"][:pts.MAX_FIELD])
            if measured:
                result["measured"] = measured
            if args.submitter:
                result["submitter"] = args.submitter
            if redacted:
                result["redactions"] = [{"raw": f"raw/{result_id}/{member}", "what": what, "count": n}
                                        for what, n in sorted(redacted.items())]
            _checked(result, [path])
            # the file as PTS wrote it where nothing was redacted; else in the encoding it declares
            raw = data if kept == text else kept.encode(importers.declared_encoding(data) or "utf-8", "xmlcharrefreplace")
            made.append((result, {member: raw}))
    _publish(out, made, args.redact, args.files, ("/system", "/target"))
    for result, _ in made:
        ok = sum(r["status"] == "ok" for r in result["cells"])
        print(f"{result['system']['machine']}: {ok} cells imported, {len(result['cells']) - ok} without a figure",
              file=sys.stderr)
    return 0
