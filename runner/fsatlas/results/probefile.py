"""The probe result file (schema/probe.schema.json): reading, checking and writing.

A probe result lives at <data>/probes/<id>.json with its transcripts in
<data>/probes/raw/<id>.tar.gz (results/bundle.py), apart from benchmark results: its
findings are feature facts, not speed figures, and `fsatlas check-data` checks them.
"""
import json
import os
from functools import lru_cache
from importlib import resources

from . import bundle, resultfile
from .resultfile import Problem
from ..errors import UserError

FOLDER = "probes"


@lru_cache(maxsize=1)
def schema() -> dict:
    """The probe schema with the result schema's tool, system and guest sections put in place
    of its references to them: one definition of each."""
    probe = json.loads((resources.files("fsatlas") / "schema" / "probe.schema.json").read_text())
    shared = resultfile.schema()
    for name in ("tool", "system"):
        probe["properties"][name] = shared["properties"][name]
    probe["properties"]["guest"] = shared["$defs"]["guest"]
    return probe


@lru_cache(maxsize=1)
def _validator():
    import jsonschema
    return jsonschema.Draft202012Validator(schema())


# The filesystems more than one driver mounts, so a finding holds for the driver that mounted it:
# ext4's driver also registers ext2 and ext3 (CONFIG_EXT4_USE_FOR_EXT2); NTFS is mounted by ntfs-3g
# (FUSE) or the kernel's ntfs3. Records from DRIVER_RECORDED_FROM on (the first whose findings name
# their driver) must name it; an older one lacks it, and a page says "driver not recorded".
MANY_DRIVERS = {"ext2": "ext2, ext4", "ext3": "ext3, ext4", "ntfs": "ntfs-3g, ntfs3"}
DRIVER_RECORDED_FROM = "2026-11-28T21:53:49Z"


def problems(path: str) -> list[Problem]:
    """Everything wrong with one probe result file: its schema, its id, and each finding's
    transcript, which must be a member of its bundle."""
    try:
        data = resultfile.load_json(path)
    except UserError as e:
        return [Problem("error", path, "", e.body)]
    found = [Problem("error", path, "/" + "/".join(map(str, e.absolute_path)), e.message)
             for e in sorted(_validator().iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))]
    if found:
        return found
    rid = data["id"]
    if os.path.basename(path) != f"{rid}.json":
        found.append(Problem("error", path, "/id", f"expected the file name without .json, found {rid!r}"))
    try:
        members = bundle.read(os.path.dirname(os.path.abspath(path)), rid)
    except UserError as e:
        return found + [Problem("error", path, "", str(e))]
    for i, finding in enumerate(data["findings"]):
        if finding["filesystem"] in MANY_DRIVERS and "driver" not in finding and data["created"] >= DRIVER_RECORDED_FROM:
            found.append(Problem("error", path, f"/findings/{i}/driver",
                                 f"expected the driver that mounted {finding['filesystem']} (one of "
                                 f"{MANY_DRIVERS[finding['filesystem']]}), found none"))
        if bundle.member_of(rid, finding["raw"]) not in members or not finding["raw"].startswith(f"raw/{rid}/"):
            found.append(Problem("error", path, f"/findings/{i}/raw",
                                 f"expected a member of {bundle.relative(rid)}, found {finding['raw']}"))
    return found


def files(data_dir: str) -> list[str]:
    folder = os.path.join(data_dir, FOLDER)
    if not os.path.isdir(folder):
        return []
    return sorted(os.path.join(folder, n) for n in os.listdir(folder) if n.endswith(".json"))


def write(out_dir: str, data: dict, transcripts: dict[str, bytes]) -> str:
    """Checks data against the schema, then writes the bundle and the file (in that order)."""
    errors = list(_validator().iter_errors(data))
    if errors:
        raise UserError(errors[0].message, where="probe result", field="/" + "/".join(map(str, errors[0].absolute_path)))
    folder = os.path.join(out_dir, FOLDER)
    bundle.write(transcripts, bundle.path(folder, data["id"]))
    path = os.path.join(folder, f"{data['id']}.json")
    resultfile.write_atomic(path, data)
    return path
