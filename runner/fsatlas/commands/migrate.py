"""fsatlas migrate: packs each result's folder of raw files, raw/<id>/, into raw/<id>.tar.gz.

Idempotent: a result whose raw output is already a bundle is left as it is, and a migration
that stopped half-way (bundle written, folder not yet removed) is finished by running it
again. The result files themselves do not change: raw/<id>/x names the member <id>/x.
"""
import os
import sys

from ..errors import UserError
from ..results import bundle, resultfile


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
    return 0


def _outside_references(path: str, rid: str) -> str | None:
    data = resultfile.load_json(path)
    for cell in data.get("cells", []) if isinstance(data, dict) else []:
        for raw in cell.get("raw", []) if isinstance(cell, dict) else []:
            if not (isinstance(raw, str) and raw.startswith(f"raw/{rid}/")):
                return str(raw)[:200]
    return None
