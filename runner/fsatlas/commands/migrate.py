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
is finished by running it again. A file it cannot read, or that fails its own version's
schema, is refused in one line naming it and the place (JSON Pointer), before any is written.
"""
import hashlib
import json
import os
import sys

from ..errors import UserError
from ..results import bundle, export, flags, machines, resultfile, validation


def add_parser(sub):
    p = sub.add_parser("migrate", help="bring results to today's rules: raw folders packed, derived flags stored, "
                                       "machine labels separated, the current schema version")
    p.add_argument("paths", nargs="*", help="result files or folders of them to write in the current schema version "
                                            "(that alone); without them, every step on --data")
    p.add_argument("--data", default="data", help="the folder holding results/ and raw/ (default: data)")
    p.set_defaults(func=run)


def run(args) -> int:
    if args.paths:
        paths = export.result_files(args.paths)  # a folder: its result files
        print(f"{to_current(paths)} of {len(paths)} results written in schema version {resultfile.CURRENT}",
              file=sys.stderr)
        return 0
    data = os.path.abspath(args.data)
    results = os.path.join(data, "results")
    if not os.path.isdir(results):
        raise UserError("no results/ folder", where=data)
    ids = sorted(name[:-len(".json")] for name in os.listdir(results) if name.endswith(".json"))
    # every file checked before any step writes: one validate refuses stops the run with nothing
    # written (#65 round 54: the flags and label steps rewrote files before to_current's check)
    _checked([os.path.join(results, f"{rid}.json") for rid in ids])
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
    reflagged = sum(_store_flags(os.path.join(results, f"{rid}.json")) for rid in ids)
    print(f"{reflagged} results given today's derived flags", file=sys.stderr)
    relabelled = _separate_machines([os.path.join(results, f"{rid}.json") for rid in ids])
    print(f"{relabelled} results given a machine label of their own", file=sys.stderr)
    paths = [os.path.join(results, f"{rid}.json") for rid in ids]
    print(f"{to_current(paths)} results written in schema version {resultfile.CURRENT}", file=sys.stderr)
    return 0


def to_current(paths: list[str]) -> int:
    """Rewrites each result not yet in the current version's stored form in it; returns how
    many it wrote. Every file is read and checked first (_checked), so one it cannot read,
    convert or that validate refuses stops it before any is written."""
    stored = [(path, raw, resultfile.stored(read, path)) for path, raw, read in _checked(paths)]
    written = 0
    for path, raw, document in stored:
        if resultfile.dumped(document) != raw:
            resultfile.write_stored(path, document)
            written += 1
    return written


def _checked(paths: list[str]) -> list[tuple[str, bytes, dict]]:
    """(path, bytes, read form) of each result file, each checked as validate checks it without
    its bundle, in validate's words (a UserError at the first problem): as stored (check_stored,
    a version 1 file's migration too: #65 round 52's file whose new form the schema refused
    stopped migrate after it had rewritten another), its structure, and a version 1 file's
    stored summaries, which its migration drops (round 53: a mean the samples contradict was
    dropped, and the file it became validated)."""
    out = []
    for path in paths:
        raw = resultfile.read_regular(path, resultfile.MAX_FILE_BYTES)
        document = resultfile.parse_json(raw, path)
        resultfile.check_stored(document, path)
        read = resultfile.readable(document)
        problems = (validation.stored_summary_problems(document, path) if resultfile.version_of(document) == 1 else []) \
            + validation.structure_problems(read, path)
        if problems:
            raise UserError(problems[0].message, where=path, field=problems[0].path or "/")
        out.append((path, raw, read))
    return out


def _separate_machines(paths: list[str]) -> int:
    """Relabels each result whose label other results hold for other hardware (validation's
    machine_conflicts rule); returns how many. Under one label, the hardware most of its results
    record keeps it (a tie: the one measured first, then the file named first), so that one file
    added beside a machine's results cannot take its label from them (#65 round 52: a copy named
    to sort first relabelled both genuine runs)."""
    read = {}
    for path in sorted(paths):
        data = resultfile.load_result(path)
        hw = validation.hardware(data["system"])
        if hw is not None:  # (a system not recorded has no hardware for its label to name)
            read[path] = (data, hw)
    records: dict = {}
    for path, (data, hw) in read.items():
        records.setdefault(hw[0], {}).setdefault(json.dumps(hw[1:]), []).append((data["created"], path))
    keeps = {label: machines.kept_hardware(kinds) for label, kinds in records.items()}
    changed = 0
    for path, (data, hw) in read.items():
        if json.dumps(hw[1:]) == keeps[hw[0]]:
            continue
        # the digest of the label and the hardware: two long labels cut to one start stay two (#65 round 54)
        data["system"]["machine"] = f"{hw[0][:50]}-" + hashlib.sha256(json.dumps(hw).encode()).hexdigest()[:8]
        resultfile.write_stored(path, data)
        changed += 1
    return changed


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
