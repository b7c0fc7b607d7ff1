"""fsatlas migrate: brings committed results to today's rules.

1. Packs each result's folder of raw files, raw/<id>/, into raw/<id>.tar.gz (raw/<id>/x names
   the member <id>/x).
2. Stores each ok cell's derived flags (noisy, cached, cache-unknown) as results/flags derives
   them today, so `validate` warns of none and every page judges the file by the same rule.
3. Gives a result whose machine label an earlier result (by file name) uses for other hardware
   a label of its own, derived from that label and its hardware (machines cloned from one image
   once shared a label: an Intel Xeon and an AMD EPYC shown as one machine).
   Nothing else in a result file changes; it is written whole again (temporary file, rename).

Idempotent: a result already bundled and flagged is left as it is, and a migration that
stopped half-way (bundle written, folder not yet removed) is finished by running it again.
"""
import hashlib
import json
import os
import sys

from ..errors import UserError
from ..results import bundle, flags, resultfile, validation


def add_parser(sub):
    p = sub.add_parser("migrate", help="pack each result's raw/<id>/ folder into raw/<id>.tar.gz")
    p.add_argument("--data", default="data", help="the folder holding results/ and raw/ (default: data)")
    p.set_defaults(func=run)


def run(args) -> int:
    data = os.path.abspath(args.data)
    results = os.path.join(data, "results")
    if not os.path.isdir(results):
        raise UserError("no results/ folder", where=data)
    ids = sorted(name[:-len(".json")] for name in os.listdir(results) if name.endswith(".json"))
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
    return 0


def _separate_machines(paths: list[str]) -> int:
    """Relabels each result whose label an earlier one holds for other hardware (validation's
    machine_conflicts rule); returns how many."""
    first, changed = {}, 0
    for path in sorted(paths):
        data = resultfile.load_json(path)
        hw = validation.hardware(data["system"])
        if hw is None:  # system not recorded: no hardware for its label to name
            continue
        seen = first.setdefault(hw[0], hw)
        if seen[1:] == hw[1:]:
            continue
        label = f"{hw[0][:50]}-" + hashlib.sha256(json.dumps(hw[1:]).encode()).hexdigest()[:8]
        data["system"]["machine"] = label
        resultfile.check(data, path)
        resultfile.write_atomic(path, data)
        first.setdefault(label, hw)
        changed += 1
    return changed


def _store_flags(path: str) -> bool:
    """Writes the derived flags into the result file where they differ; True if it did."""
    data = resultfile.load_json(path)
    resultfile.check(data, path)
    changed = False
    for cell in data["cells"]:
        if cell["status"] == "ok":
            derived = flags.derive(cell, data["target"])
            changed |= derived != cell["flags"]
            cell["flags"] = derived
    if changed:
        resultfile.write_atomic(path, data)
    return changed


def _outside_references(path: str, rid: str) -> str | None:
    data = resultfile.load_json(path)
    for cell in data.get("cells", []) if isinstance(data, dict) else []:
        for raw in cell.get("raw", []) if isinstance(cell, dict) else []:
            if not (isinstance(raw, str) and raw.startswith(f"raw/{rid}/")):
                return str(raw)[:200]
    return None
