"""What one result file adds to the pages every visitor loads besides its own (#42): the
explorer's index holds each file's descriptive strings, the vocabulary of its cells (the
filesystems, workloads, variants and their configurations the filters offer) and the metrics
fsatlas does not know; the filesystem pages hold the start of each cell's reason. The explorer
(site/explorer.py) builds its index from these; `fsatlas validate` bounds their size, so no
file adds more than MAX_INDEX_SHARE bytes to the index, however many cells it holds. Also what
a file says of itself that validate and compare both read: whether it is an import, and its
run's clock (run_clock, written_by)."""
import datetime as dt
import json
import math
import re
import shlex
from typing import NamedTuple

from ..errors import UserError
from . import machines, resultfile
from .metrics import KNOWN as KNOWN_METRICS, label

TOOLS_CHARS = 300  # of the tool versions, in the index; the result page lists them all
# The committed standard results take about 2 KB (their vocabulary is most of it), a 1,314-cell
# IOzone -a import (make perf) under 1 KB.
MAX_INDEX_SHARE = 8192
# Of a cell's reason, on the filesystem pages (its result's page and chunk have it whole): so one
# result file adds at most this much a matrix key there, however long its reasons.
REASON_SHARED_CHARS = 200
NUMBER_CHARS = 7  # a number into the index's strings, for each of a result's strings


def clipped(text: str, limit: int) -> str:
    """text cut to limit characters, its end marked: for pages other than the result's own."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def strings(result: dict) -> dict:
    """The result's descriptive strings, as the explorer's filters and labels show them."""
    system = resultfile.system_shown(result["system"])
    return {"machine": system["machine"], "kernel": system["kernel"],
            "profile": result.get("profile", ""), "target": result["target"]["kind"],
            "virtualization": system["virtualization"], "cpu": system["cpu_model"],
            "name": machines.name(result),
            # the system table the result page shows (machines.system_facts), [term, text] pairs as JSON
            "system_table": json.dumps(machines.system_facts(result), ensure_ascii=False, separators=(",", ":")),
            "tools": clipped("; ".join(f"{k} {v}" for k, v in sorted(result["tool"].items())), TOOLS_CHARS),
            "rerun": rerun_prefix(result)}


IMPORT, RUNNER = "import", "runner"  # a run's origin: another tool's output imported, or fsatlas's runner


IMPORT_ID = re.compile(r"-import-[A-Za-z0-9]+-")  # an import's id: <created>-<machine>-import-<format>-<digest>


def imported(result: dict) -> bool:
    """Whether a result is an import of another tool's output: known by ANY of its marks, so a
    file is not a run of fsatlas's runner because a field was left out or edited: its profile
    import-TOOL, tool.imported_from, an id naming an import (import_.py: ...-import-fio-...), a
    cell with imported_runs or a cell of variant "imported" (or imported-V: shares.configuration).
    Never by a key the file carries to say so ("factors", whose origin a forged file set to
    "runner": #60 round 17): a site digest's origin is the one its run's factors took from these
    marks when the aggregate read the file (cell_pairs.within's run_of)."""
    cells = result.get("cells") or ()
    return (str(result.get("profile", "")).startswith("import-") or bool((result.get("tool") or {}).get("imported_from"))
            or bool(IMPORT_ID.search(str(result.get("id", ""))))
            or any(isinstance(c, dict) and (c.get("imported_runs") or str(c.get("variant", "")).startswith(IMPORTED))
                   for c in cells))


def import_marks(result: dict) -> dict:
    """The format each file-level mark of an import names, None where the mark is absent: the id
    (...-import-FORMAT-...), the profile (import-FORMAT) and tool.imported_from. An import has
    all three, naming one format (commands/import_.py); a run of fsatlas's runner none."""
    found = IMPORT_ID.search(str(result.get("id", "")))
    profile = str(result.get("profile", ""))
    return {"/id": found.group(0)[len("-import-"):-1] if found else None,
            "/profile": profile[len("import-"):] if profile.startswith("import-") else None,
            "/tool/imported_from": (result.get("tool") or {}).get("imported_from") or None}


DEFAULTS, IMPORTED = "defaults", "imported"  # the variant of a configuration spelled without one


def configuration(spec: str, of_import: bool = False) -> tuple[str, str]:
    """(filesystem, variant) of a configuration as a command names it, "fs" or "fs:variant": the
    one parser of these spellings (compare, report, article new, measure, import --as), so one
    configuration has one name everywhere. In a run of fsatlas's runner "ext4", "ext4:" and
    "ext4:defaults" are its defaults; in an import (of_import) the same three and "ext4:imported"
    are the cells imported without a variant (variant "imported"), and any other variant V is
    stored as imported-V, spelled V or imported-V (never one of the matrix's variants)."""
    fs, _, variant = spec.partition(":")
    if not of_import:
        return fs, variant or DEFAULTS
    own = variant[len("imported-"):] if variant.startswith("imported-") else variant
    return fs, IMPORTED if own in ("", DEFAULTS, IMPORTED) else f"imported-{own}"


def spelled(side: tuple, of_import: bool = False) -> str:
    """The shortest spelling of a configuration (filesystem, variant) that configuration() reads
    back as it: "ext4" for the variant a spec without one names, else "ext4:noatime"."""
    fs, variant = side
    return fs if variant == (IMPORTED if of_import else DEFAULTS) else f"{fs}:{variant}"


def two_configurations(a_spec: str, b_spec: str, of_import: bool = False) -> tuple[tuple, tuple]:
    """(configuration(A), configuration(B)), refused in one line where they are one configuration
    however spelled (ext4 against ext4:defaults): a comparison of a configuration with itself
    shows nothing of it (fsatlas measure, compare, report and article new refuse it alike)."""
    a, b = configuration(a_spec, of_import), configuration(b_spec, of_import)
    if a == b:
        raise UserError(f"A and B are the same configuration ({a[0]}:{a[1]}), however spelled: nothing to compare",
                        field="A B", expected="two different filesystems or variants", found=f"{a_spec} {b_spec}")
    return a, b


def rerun_prefix(result: dict) -> str:
    """The start of every command that re-runs one of the result's cells: its profile and target;
    "" for an import (profile import-TOOL): no fsatlas profile re-measures another tool's output."""
    if imported(result):
        return ""
    profile = result.get("profile") or "standard"
    target = "--directory DIR " if result["target"]["kind"] == "directory" else ""
    return f"fsatlas run --profile {shlex.quote(profile)} {target}"


VOCABULARY = ("filesystems", "workloads", "variants", "configs")


def vocabulary(result: dict) -> dict:
    """The filesystems, workloads and variants of the result's cells, and each filesystem with
    each of its variants (a configuration, as the explorer's baseline names it), sorted."""
    cells = [(c["filesystem"], c["workload"], c.get("variant", "defaults")) for c in result["cells"]]
    return {"filesystems": sorted({fs for fs, _, _ in cells}), "workloads": sorted({wl for _, wl, _ in cells}),
            "variants": sorted({v for _, _, v in cells}), "configs": sorted({(fs, v) for fs, _, v in cells})}


def unknown_metrics(result: dict) -> list:
    """The metrics fsatlas does not know, with their words and units: the index lists each one."""
    return sorted({(name, label(name), m["unit"], m["better"]) for cell in result["cells"] for name, m in cell["metrics"].items()
                   if name not in KNOWN_METRICS})


def index_share(result: dict) -> int:
    """The bytes this result file adds to the explorer's index at most (as if no other result
    shared a word of it): its id, date and strings, a number into the strings for each, its
    vocabulary and the metrics fsatlas does not know."""
    said = strings(result)
    entry = [result["id"], result["created"], result.get("complete", True), list(said.values()),
             vocabulary(result), unknown_metrics(result)]
    return len(json.dumps(entry, ensure_ascii=False, separators=(",", ":")).encode()) + NUMBER_CHARS * len(said)


# How much later than its wall time a run's last repetition may start without a pause: created is
# rounded down to the second and the wall clock starts after the system's facts are collected
# (a complete run of 241.29 s had its last repetition start at 241.568 s: #60 round 20).
PAUSE_SLACK = 10.0


class Clock(NamedTuple):
    """What a file says of when its run ran, in seconds since the epoch: created (to the second),
    when it began (exact: the first session's start, else created), the stretches it is known to
    have run in ([(start, end)]), its repetitions' start times sorted, and whether these are
    exact (recorded sessions) or known only to the second created is cut to."""
    created: float
    began: float
    spans: list
    starts: list
    exact: bool


def run_clock(result: dict) -> Clock | None:
    """The run's clock (Clock). A file that records its sessions (`sessions`: each start, in
    seconds after created, and how long it ran; a resumed run adds one) ran in those, to the
    millisecond: a pause is where it stands (#60 round 30: a cut run's earlier half, read as
    paused by its wall time, was given a pause where the later half ran, within the second
    created is rounded to). A file without them (written before they were recorded) began at
    its created time and ran until created plus its wall time or its last repetition's start,
    whichever is later; unless its start times show a pause (validate refuses that now: a pause
    must be recorded), when it is known to have run only until its first repetition began (its
    set-up and baseline: #60 round 25). None for an import without repetition start times (its
    created time is the import's, and no importer records start times): a file that has them is
    read by them, whatever marks it carries (#60 round 21: a split run's ids renamed as imports)."""
    parts = clock_parts(result)
    if parts is None:
        return None
    began, ran, paused, starts = parts
    recorded = sessions(result, began)
    if recorded:
        return Clock(began, recorded[0][0], recorded, starts, True)
    if not starts and imported(result):
        return None
    ended = starts[0] if paused else began + ran if ran else None
    # created is cut to the second: the run is known to have run from the second after it
    return Clock(began, began, [(began + 1, ended)] if ended is not None else [], starts, False)


def sessions(result: dict, created: float) -> list:
    """[(start, end)] in seconds since the epoch of each session the file records (`sessions`),
    in the order recorded; [] where it records none or they are not finite numbers of at least 0
    (the schema refuses them)."""
    out, recorded = [], result.get("sessions")
    for s in recorded if isinstance(recorded, list) else ():
        began, seconds = (s.get("began"), s.get("seconds")) if isinstance(s, dict) else (None, None)
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and v >= 0
                   for v in (began, seconds)):
            return []
        out.append((created + began, created + began + seconds))
    return out


def clock_parts(result: dict) -> tuple[float, float, bool, list] | None:
    """(created in seconds since the epoch, how long it ran: its wall time or its last start's
    offset, whichever is more, whether its start times show a pause, its start times sorted), or
    None when created is no time."""
    try:
        began = dt.datetime.fromisoformat(str(result.get("created")).replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None
    wall = result.get("wall_seconds")
    wall = wall if isinstance(wall, (int, float)) and wall > 0 else 0.0
    starts = sorted(began + t for c in result["cells"] if c.get("status") == "ok" for t in c.get("started") or ()
                    if isinstance(t, (int, float)) and not isinstance(t, bool))
    last = starts[-1] - began if starts else 0.0
    return began, max(wall, last), (last > wall + PAUSE_SLACK if wall else False), starts


def written_by(result: dict) -> float | None:
    """When every report of a runner's run was written by, in seconds since the epoch: created
    plus how long it ran (run_clock) plus PAUSE_SLACK; None for an import, or a run whose start
    times show a pause (a resumed run: its wall time leaves the pause out). A cut run's later half
    that claimed an earlier start held reports fio wrote long after its claimed clock ended (#60
    round 28). A run that records its sessions: the end of its last one plus PAUSE_SLACK."""
    parts = clock_parts(result)
    if parts is None or any(import_marks(result).values()):
        return None
    recorded = sessions(result, parts[0])
    if recorded:
        return max(end for _, end in recorded) + PAUSE_SLACK
    return None if parts[2] else parts[0] + parts[1] + PAUSE_SLACK
