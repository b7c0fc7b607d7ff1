"""fsatlas migrate: brings committed results to today's rules.

1. Packs each result's folder of raw files, raw/<id>/, into raw/<id>.tar.gz (raw/<id>/x names
   the member <id>/x).
2. Stores each ok cell's derived flags (noisy, cached, cache-unknown) as results/flags derives
   them today, so `validate` warns of none and every page judges the file by the same rule.
3. Gives a result whose machine label an earlier result (by file name) uses for other hardware
   a label of its own, derived from that label and its hardware (machines cloned from one image
   once shared a label: an Intel Xeon and an AMD EPYC shown as one machine).
4. Writes each result in the current schema version (resultfile.stored: version 2 stores no
   figure that derives from others), through the one writer, resultfile.write_stored.
   Nothing else in a result file changes; it is written whole again (temporary file, rename).

`fsatlas migrate PATH...` does step 4 alone, for the result files named (or a folder's).

Idempotent: a result already bundled, flagged and in the current version is left as it is,
byte for byte, and a migration that stopped half-way (bundle written, folder not yet removed)
is finished by running it again. What `fsatlas validate` refuses (a file it cannot read, a
schema or rule broken, a figure its raw files contradict, a privacy finding not reviewed) is
refused in validate's words, one line naming the file and the place (JSON Pointer), before any
file is written. It works within validate's memory budget (memory.limited).
"""
import hashlib
import json
import os
import sys

from .. import memory
from ..errors import UserError
from ..results import bundle, export, flags, machines, resultfile, stats, validation


def add_parser(sub):
    p = sub.add_parser("migrate", help="bring results to today's rules: raw folders packed, derived flags stored, "
                                       "machine labels separated, the current schema version")
    p.add_argument("paths", nargs="*", help="result files or folders of them to write in the current schema version "
                                            "(that alone); without them, every step on --data")
    p.add_argument("--data", default="data", help="the folder holding results/ and raw/ (default: data)")
    p.set_defaults(func=run)


def run(args) -> int:
    with memory.limited(stats.PRELOAD):  # validate's budget: migrate reads the same contributed files
        return _run(args)


def _run(args) -> int:
    if args.paths:
        paths = export.result_files(args.paths)  # a folder: its result files
        _refuse_what_validate_refuses(args.paths)
        print(f"{to_current(paths)} of {len(paths)} results written in schema version {resultfile.CURRENT}",
              file=sys.stderr)
        return 0
    data = os.path.abspath(args.data)
    results = os.path.join(data, "results")
    if not os.path.isdir(results):
        raise UserError("no results/ folder", where=data)
    ids = sorted(name[:-len(".json")] for name in os.listdir(results) if name.endswith(".json"))
    # every file checked before any step writes: one validate refuses stops the run with nothing
    # written (#65 round 54: the flags and label steps rewrote files before to_current's check).
    # A result whose raw files are still a folder is checked but for its bundle, which packing
    # makes; packed, it is checked whole before any other step writes.
    unpacked = {os.path.join(results, f"{rid}.json") for rid in ids if os.path.lexists(bundle.folder(data, rid))}
    _refuse_what_validate_refuses([results], unpacked)
    bundle.finish_packs(data)
    packed = 0
    for rid in ids:
        if not os.path.lexists(bundle.folder(data, rid)):
            continue
        outside = _outside_references(os.path.join(results, f"{rid}.json"), rid)
        if outside:
            raise UserError(f"a raw reference outside raw/{rid}/ ({outside}): only a result's own folder "
                            f"can become its bundle", where=os.path.join(results, f"{rid}.json"))
        count = bundle.pack(data, rid)
        packed += 1
        print(f"packed raw/{rid}/ ({count} files) into {bundle.relative(rid)}", file=sys.stderr)
    already = sum(os.path.lexists(bundle.path(data, rid)) for rid in ids) - packed
    print(f"{packed} results migrated, {already} already bundled", file=sys.stderr)
    if packed:
        _refuse_what_validate_refuses([results])
    reflagged = sum(_store_flags(os.path.join(results, f"{rid}.json")) for rid in ids)
    print(f"{reflagged} results given today's derived flags", file=sys.stderr)
    relabelled = _separate_machines([os.path.join(results, f"{rid}.json") for rid in ids])
    print(f"{relabelled} results given a machine label of their own", file=sys.stderr)
    paths = [os.path.join(results, f"{rid}.json") for rid in ids]
    print(f"{to_current(paths)} results written in schema version {resultfile.CURRENT}", file=sys.stderr)
    return 0


def to_current(paths: list[str]) -> int:
    """Rewrites each result not yet in the current version's stored form in it; returns how
    many it wrote, one file at a time (holding every file's forms at once grew with their
    number: #65 round 55). Its callers first refuse what validate refuses, so that none is
    written unless all can be."""
    written = 0
    for path in paths:
        raw, read = _read(path)
        document = resultfile.stored(read, path)
        if resultfile.dumped(document) != raw:
            resultfile.write_stored(path, document)
            written += 1
    return written


def _refuse_what_validate_refuses(paths: list[str], unpacked: set = frozenset()) -> None:
    """A UserError in validate's words (its first error) when `fsatlas validate PATHS` would
    fail; unpacked: result files whose raw files are a folder still, whose file-level errors
    (the bundle packing makes) do not count yet. No outcome kept by an earlier validate is
    trusted: one does not know of a folder packed since."""
    _, problems = validation.check_paths(paths, cache_file=None)
    for p in problems:
        if p.severity == "error" and not (p.file in unpacked and not p.path):
            raise UserError(p.message, where=p.file, field=p.path or "/")


def _read(path: str) -> tuple[bytes, dict]:
    raw = resultfile.read_regular(path, resultfile.MAX_FILE_BYTES)
    document = resultfile.parse_json(raw, path)
    resultfile.check_stored(document, path)
    return raw, resultfile.readable(document)


def _separate_machines(paths: list[str]) -> int:
    """Relabels each result whose label other results hold for other hardware (validation's
    machine_conflicts rule); returns how many. Under one label, the hardware most of its results
    record keeps it (a tie: the one measured first, then the file named first), so that one file
    added beside a machine's results cannot take its label from them (#65 round 52: a copy named
    to sort first relabelled both genuine runs). A new label is one no result of other hardware
    holds (new_label)."""
    read = {}
    for path in sorted(paths):
        data = resultfile.load_result(path)
        hw = validation.hardware(data["system"])
        if hw is not None:  # (a system not recorded has no hardware for its label to name)
            read[path] = (data["created"], hw)  # not the document: what is held stays small
    records: dict = {}
    for path, (created, hw) in read.items():
        records.setdefault(hw[0], {}).setdefault(json.dumps(hw[1:]), []).append((created, path))
    keeps = {label: machines.kept_hardware(kinds) for label, kinds in records.items()}
    changed = 0
    for path, (_, hw) in read.items():
        if json.dumps(hw[1:]) == keeps[hw[0]]:
            continue
        data = resultfile.load_result(path)
        data["system"]["machine"] = new_label(hw, records)
        records.setdefault(data["system"]["machine"], {}).setdefault(json.dumps(hw[1:]), []).append((data["created"], path))
        resultfile.write_stored(path, data)
        changed += 1
    return changed


def new_label(hw: list, records: dict) -> str:
    """The label of a result moved off hw[0] (its label) for its hardware hw[1:]: the label, cut,
    and the digest of the label and the hardware (two long labels cut to one start stay two: #65
    round 54), as long as it needs to be to name no other hardware in records (label -> {its
    hardware as JSON: results}): round 55's result labelled as the digest would make first had
    that label taken, and the next migrate moved it again."""
    digest = hashlib.sha256(json.dumps(hw).encode()).hexdigest()
    for length in range(8, len(digest) + 1, 4):
        label = f"{hw[0][:50]}-{digest[:length]}"
        if set(records.get(label, {})) <= {json.dumps(hw[1:])}:
            return label
    raise UserError(f"every label derived from {hw[0]!r} names other hardware already", where="system.machine")


def _store_flags(path: str) -> bool:
    """Writes the derived flags into the result file where they differ; True if it did."""
    data = resultfile.load_result(path)
    changed = False
    for cell in data["cells"]:
        if cell["status"] == "ok":
            derived = flags.derive(cell, data["target"])
            changed |= derived != cell["flags"]
            cell["flags"] = derived
    if changed:
        resultfile.write_stored(path, data)
    return changed


def _outside_references(path: str, rid: str) -> str | None:
    data = resultfile.load_result(path)
    for cell in data.get("cells", []) if isinstance(data, dict) else []:
        for raw in cell.get("raw", []) if isinstance(cell, dict) else []:
            if not (isinstance(raw, str) and raw.startswith(f"raw/{rid}/")):
                return str(raw)[:200]
    return None
