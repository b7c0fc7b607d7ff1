"""The probe result file (schema/probe.schema.json): reading, checking and writing.

A probe result lives at <data>/probes/<id>.json with its transcripts in
<data>/probes/raw/<id>.tar.gz (results/bundle.py), apart from benchmark results: its
findings are feature facts, not speed figures, and `fsatlas check-data` checks them.
"""
import json
import math
import os
import re
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


def valid(record: dict) -> bool:
    """Whether a probe record is of the shape its schema defines (problems() says what is not)."""
    return _validator().is_valid(record)


# The filesystems more than one driver mounts, so a finding holds for the driver that mounted it:
# ext4's driver also registers ext2 and ext3 (CONFIG_EXT4_USE_FOR_EXT2); NTFS is mounted by ntfs-3g
# (FUSE) or the kernel's ntfs3. Records from DRIVER_RECORDED_FROM on (the first whose findings name
# their driver) must name it; an older one lacks it, and a page says "driver not recorded".
MANY_DRIVERS = {"ext2": "ext2, ext4", "ext3": "ext3, ext4", "ntfs": "ntfs-3g"}
DRIVER_RECORDED_FROM = "2026-11-28T21:53:49Z"
# The drivers (run/filesystems.py driver) that may mount each row of the matrix: NTFS is two rows,
# ntfs (ntfs-3g through FUSE) and ntfs3 (the kernel's driver), so a finding filed under one with the
# other's driver is refused; any other filesystem is mounted by its own driver only.
DRIVERS = {"ext2": ("ext2", "ext4"), "ext3": ("ext3", "ext4"), "ntfs": ("ntfs-3g (FUSE)",), "ntfs3": ("ntfs3",)}
# what `mount -t TYPE` in a finding's transcript says of its driver, for the rows two drivers can
# mount (a record older than DRIVER_RECORDED_FROM names no driver, but its transcript may)
MOUNT_TYPE_DRIVER = {"ntfs": {"ntfs-3g": "ntfs-3g (FUSE)", "ntfs3": "ntfs3"}, "ntfs3": {"ntfs-3g": "ntfs-3g (FUSE)", "ntfs3": "ntfs3"},
                     "ext2": {"ext4": "ext4"}, "ext3": {"ext4": "ext4"}}
MOUNT_TYPE = re.compile(rb"\bmount -t (\S+)")


def drivers_of(filesystem: str) -> tuple:
    """The drivers that may mount a row of the matrix."""
    return DRIVERS.get(filesystem, (filesystem,))


def transcript_drivers(filesystem: str, transcript: bytes) -> set:
    """The drivers a finding's transcript shows mounting the filesystem (`mount -t ntfs-3g`: ntfs-3g
    (FUSE)), for the rows two drivers can mount; empty where it names none (`mount -t auto`)."""
    types = MOUNT_TYPE_DRIVER.get(filesystem, {})
    return {types[t.decode(errors="replace")] for t in MOUNT_TYPE.findall(transcript) if t.decode(errors="replace") in types}


def problems(path: str) -> list[Problem]:
    """Everything wrong with one probe result file: its schema, its id, and each finding's
    transcript, which must be a member of its bundle."""
    try:
        data = resultfile.load_json(path)
    except UserError as e:  # at its place where it has one (a key twice: the object's pointer)
        return [Problem("error", path, e.field, e.body)]
    # a number that is not finite (1e999 reads as inf, which JSON cannot say), refused as a NaN is,
    # one line each and before the schema (whose minimum would name -inf a second time); a probe's
    # limits are integers beyond 2^53 (RLIMIT_INFINITY), so not resultfile's bounds
    found = [Problem("error", path, where, f"expected a finite number, found {value}")
             for where, value in _not_finite(data)]
    if found:
        return found
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
        fs = finding["filesystem"]
        if "driver" in finding and finding["driver"] not in drivers_of(fs):
            found.append(Problem("error", path, f"/findings/{i}/driver",
                                 f"expected a driver that mounts the {fs} row ({', '.join(drivers_of(fs))}), found "
                                 f"{finding['driver']!r}: a finding belongs under the row of the driver that mounted it"))
        shown = transcript_drivers(fs, members.get(bundle.member_of(rid, finding["raw"]), b""))
        if shown - set(drivers_of(fs)):
            found.append(Problem("error", path, f"/findings/{i}/filesystem",
                                 f"expected a transcript mounting {fs} with {', '.join(drivers_of(fs))}, found it mounted "
                                 f"with {', '.join(sorted(shown - set(drivers_of(fs))))}"))
        if finding["filesystem"] in MANY_DRIVERS and "driver" not in finding and data["created"] >= DRIVER_RECORDED_FROM:
            found.append(Problem("error", path, f"/findings/{i}/driver",
                                 f"expected the driver that mounted {finding['filesystem']} (one of "
                                 f"{MANY_DRIVERS[finding['filesystem']]}), found none"))
        if bundle.member_of(rid, finding["raw"]) not in members or not finding["raw"].startswith(f"raw/{rid}/"):
            found.append(Problem("error", path, f"/findings/{i}/raw",
                                 f"expected a member of {bundle.relative(rid)}, found {finding['raw']}"))
    return found


def _not_finite(value) -> list:
    """(JSON Pointer, value) of every float in the document that is not finite (a walk without
    recursion: a document nested a thousand deep is no traceback)."""
    out, todo = [], [(value, ())]
    while todo:
        node, parts = todo.pop()
        if isinstance(node, float) and not math.isfinite(node):
            out.append((resultfile.pointer(parts), node))
        elif isinstance(node, (dict, list)):
            todo.extend((item, (*parts, key)) for key, item in (node.items() if isinstance(node, dict) else enumerate(node)))
    return sorted(out)


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
