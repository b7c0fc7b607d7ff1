"""Phoronix Test Suite / OpenBenchmarking.org result files (composite.xml).

The format, from PTS's own source (pts-core/openbenchmarking.org/schemas/result-file.xsd and
pts-core/objects/pts_result_file_writer.php): one <System> per system identifier (its
<Hardware> and <Software> lines, "Processor: ..., Memory: ..., Disk: ..." and "OS: ..., Kernel:
..., File-System: ext4, ..."), and one <Result> per test and options (<Identifier> such as
pts/fio-2.1.0, <AppVersion>, <Arguments>, <Description> of the options, <Scale>, <Proportion>
HIB or LIB) whose <Data> holds an <Entry> per system: <Value> (the average PTS shows) and
<RawString>, every run's value joined by colons.

Each run becomes one sample of the cell for that system, test and options; a test fsatlas has
a workload for is mapped onto it (pts/fio's sequential and 4 KiB random jobs), any other kept
under its PTS name (pts-fs-mark, pts-sqlite, ...), its options as the cell's dimension. A scale
fsatlas has no unit for ("Final Score") is kept as it is: metric pts_<scale> in unit "pts",
its scale as PTS wrote it beside (pts_scale). A result with no proportion (HIB or LIB), a scale
of other characters or a run that is not a number is refused, naming the result: no figure of
the file is left out without a word.

What PTS recorded of each system is kept: its Hardware and Software lines, <TimeStamp>, and the
mount options of the disk tested, which PTS writes (since 2012, pts_test_run_manager.php) in
the system's <JSON> as "disk-mount-options", read from /proc/mounts: the effective options.
The XML is read with defusedxml: entity expansion and external entities are refused.
"""
import datetime as dt
import hashlib
import json
import math
import re
import statistics
from fractions import Fraction

from .. import figures
from ...errors import UserError
from ..resultfile import MAX_NUMBER
from .measurement import Measurement, check_time

# PTS scale (lower case) -> (metric, factor to base units, unit); units as PTS's labels say them (MB = 10^6 bytes)
SCALES = {"mb/s": ("throughput", 1e6, "bytes/s"), "kb/s": ("throughput", 1e3, "bytes/s"),
          "gb/s": ("throughput", 1e9, "bytes/s"), "iops": ("iops", 1.0, "ops/s"),
          "seconds": ("seconds", 1.0, "s"), "milliseconds": ("seconds", 1e-3, "s"), "ms": ("seconds", 1e-3, "s"),
          "files/s": ("files_per_s", 1.0, "ops/s"), "tps": ("transactions_per_s", 1.0, "ops/s"),
          "transactions per second": ("transactions_per_s", 1.0, "ops/s"), "ops/s": ("ops_per_s", 1.0, "ops/s"),
          "operations per second": ("ops_per_s", 1.0, "ops/s")}
PROPORTION = {"HIB": "higher", "LIB": "lower"}
# the direction a scale of SCALES holds whatever the file says: a time is better lower, a rate
# higher (Milliseconds with HIB is a file at odds with itself: refused, not read either way)
DIRECTION = {metric: "lower" if unit == "s" else "higher" for metric, _, unit in SCALES.values()}
OWN_UNIT_CHARACTERS = "space . / % ( ) -"
OWN_UNIT = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ./%()-]{0,59}")  # the schema's pts_scale
OWN = "pts:"  # a Measurement's unit "pts:<scale>": the metric's unit pts, its pts_scale <scale>


def own_unit(scale: str) -> tuple[str, float, str] | None:
    """A PTS scale fsatlas has no unit for ("Final Score", "Nodes Per Second"), kept as PTS
    wrote it: metric pts_final_score, unit pts with pts_scale "Final Score" (the import's
    cell_records splits them), the values as recorded."""
    if not OWN_UNIT.fullmatch(scale):
        return None
    return "pts_" + (re.sub(r"[^a-z0-9]+", "_", scale.lower()).strip("_") or "value"), 1.0, f"{OWN}{scale}"


# pts/fio's options -> fsatlas workload, where the job is the same kind of job
FIO_TYPES = {("Sequential Read", None): "seq-read", ("Sequential Write", None): "seq-write",
             ("Random Read", "4KB"): "rand-read-4k", ("Random Write", "4KB"): "rand-write-4k"}
MAX_FIELD = 200
NO_SYSTEM = "no <System> element"


def _xml(text: str, where: str):
    from defusedxml import ElementTree
    from defusedxml.common import DefusedXmlException
    try:
        root = ElementTree.fromstring(text)
    except DefusedXmlException as e:
        raise UserError(f"refused XML: {type(e).__name__}", where=where,
                        expected="a result file without entity declarations") from None
    except ElementTree.ParseError as e:
        raise UserError(f"not well-formed XML: {e}", where=where) from None
    if root.tag != "PhoronixTestSuite":
        raise UserError(f"the root element is <{root.tag[:50]}>", where=where,
                        expected="<PhoronixTestSuite>, a Phoronix Test Suite result file (composite.xml)")
    # the elements figures are read from: a system's memory and threads from <Hardware> ("16_384 MB"
    # was read as 384 MB, "１6384" as 16384), runs and values (round 62)
    for tag in FIGURE_TAGS:
        for node in root.iter(tag):
            found = figures.other_figure(node.text or "")
            if found:
                raise UserError(f"a figure of {found!r}", where=where, field=f"<{tag}>",
                                expected="PTS's figures, in ASCII digits")
    return root


FIGURE_TAGS = ("Hardware", "Software", "TimeStamp", "Value", "RawString")


def _text(node, name: str) -> str:
    found = node.find(name)
    return (found.text or "").strip() if found is not None else ""


def fields(line: str) -> dict:
    """"Processor: X (4 Cores), Memory: 16384MB, File-System: ext4" -> {"Processor": ..., ...}."""
    out = {}
    for part in re.split(r", (?=[A-Z][A-Za-z /-]{1,40}: )", line):
        key, sep, value = part.partition(": ")
        if sep:
            out[key.strip()] = value.strip()
    return out


def systems(text: str, where: str) -> list[dict]:
    """Each <System>: its identifier, hardware and software lines, time stamp, client version."""
    root = _xml(text, where)
    out = []
    for node in root.findall("System"):
        out.append({"identifier": _text(node, "Identifier"), "hardware": _text(node, "Hardware"),
                    "software": _text(node, "Software"), "timestamp": _text(node, "TimeStamp"),
                    "client": _text(node, "TestClientVersion"),
                    "mount_options": mount_options(_text(node, "JSON"), _text(node, "Notes"))})
    if not out:
        raise UserError(NO_SYSTEM, where=where, expected="a result file with at least one system")
    return out


def mount_options(*documents: str) -> str:
    """The disk's mount options PTS recorded ("disk-mount-options" of the system's JSON, or of a
    Notes element holding that JSON), or "" where it recorded none."""
    for text in documents:
        try:
            found = json.loads(text) if text.startswith("{") else None
        except ValueError:
            continue
        if isinstance(found, dict) and isinstance(found.get("disk-mount-options"), str):
            return found["disk-mount-options"].strip()[:2000]
    return ""


def _workload(identifier: str, description: str) -> str:
    """The fsatlas workload of a PTS test: pts/fio's O_DIRECT sequential and 4 KiB random jobs are
    the matrix's own kinds of job; anything else keeps its PTS name."""
    test = re.sub(r"-\d+(\.\d+)*$", "", identifier.split("/", 1)[-1]).lower()
    if test == "fio":
        opts = {k.strip(): v.strip() for k, _, v in (p.partition(":") for p in description.split(" - "))}
        for (kind, block), workload in FIO_TYPES.items():
            if opts.get("Type") == kind and opts.get("Direct") == "Yes" and (block is None or opts.get("Block Size") == block):
                return workload
    return "pts-" + (re.sub(r"[^a-z0-9]+", "-", test).strip("-") or "test")


MAX_SLUG = 150


def _slug(text: str) -> str:
    """A result's options as its cell's dimension: runs of other characters than letters,
    digits and _.+- as one _; a longer one cut, with a digest of the whole text after ^, so
    that options differing only beyond the cut (pts/fio's Job Count after a long Disk Target)
    stay two cells. Options that differ only in punctuation give one slug: parse refuses them."""
    slug = re.sub(r"[^A-Za-z0-9_.+-]+", "_", text).strip("_") or "default"
    if len(slug) <= MAX_SLUG:
        return slug
    return f"{slug[:MAX_SLUG - 11]}^{hashlib.sha256(text.encode()).hexdigest()[:10]}"


def exact(text: str, factor: float) -> float:
    """The float nearest to the decimal text times the factor (a power of ten), as exact
    numbers: 2.01 MB/s is 2010000.0 B/s, where float("2.01") * 1e6 gave 2009999.9999999998."""
    try:
        return float(Fraction(figures.ascii_text(text.strip())) * Fraction(repr(factor)))
    except OverflowError:  # beyond a float: refused with the run's text, as an infinite run is
        return math.inf


def _runs(entry, factor: float, where: str) -> list[float]:
    text = _text(entry, "RawString")
    raw = text.split(":") if text.strip() else []
    if any(not r.strip() for r in raw):  # "100::102": a run without a value would be left out
        raise UserError(f"a run without a value in {text[:60]!r}", where=where, field="RawString",
                        expected="every run's value, joined by colons")
    runs, field = (raw, "RawString") if raw else ([v for v in [_text(entry, "Value")] if v], "Value")
    values = []
    for run in runs:
        try:
            figures.number(run.strip())  # a figure of ASCII digits a double holds, then read exactly
            value = exact(run, factor)
        except ValueError:
            if not _read_by_float(run):
                raise UserError(f"a run that is not a number in {runs[:5]}", where=where, field=field,
                                expected="every run's value, joined by colons") from None
            value = math.nan  # 1e999, NaN, 1e-400: a number, but no figure a double holds as written
        if not math.isfinite(value) or not 0 <= value <= MAX_NUMBER:
            raise UserError(f"a run of {run.strip()[:40]!r}", where=where, field=field,
                            expected=f"every run a finite number from 0 to {MAX_NUMBER:g} in base units")
        values.append(value)
    return values


def _read_by_float(text: str) -> bool:
    """Whether float() reads text, which is of ASCII without underscores (figures.ascii_text)."""
    try:
        float(figures.ascii_text(text.strip()))
        return True
    except ValueError:
        return False


def parse(text: str, where: str, workload: str | None = None) -> list:
    """One Measurement per run of each system's test and options (parameters name the system,
    test and options, so that validate finds a cell's own runs again). pts/fio writes twin
    results, MB/s and IOPS, with one description: they are one cell's two metrics."""
    groups = {}  # (system, test, options, arguments) -> {"metrics": {metric: (runs, unit, better)}, ...}
    root = _xml(text, where)
    known = {_text(node, "Identifier")[:MAX_FIELD] for node in root.findall("System")}
    if not known:
        raise UserError(NO_SYSTEM, where=where, expected="a result file with at least one system")
    for i, result in enumerate(root.findall("Result")):
        identifier, description = _text(result, "Identifier"), _text(result, "Description")
        scale, proportion = _text(result, "Scale"), _text(result, "Proportion")
        if not identifier:
            raise UserError("a <Result> without <Identifier>", where=f"{where}: Result {i + 1}")
        mapped, better = SCALES.get(scale.lower()) or own_unit(scale), PROPORTION.get(proportion)
        if not mapped or not better:
            raise UserError(f"result {identifier} {description[:80]!r}: scale {scale[:60]!r}, proportion "
                            f"{proportion[:20]!r}", where=f"{where}: Result {i + 1}",
                            expected=f"a scale of letters, digits and {OWN_UNIT_CHARACTERS} (at most 60), "
                                     f"and proportion HIB or LIB")
        if DIRECTION.get(mapped[0], better) != better:
            raise UserError(f"result {identifier} {description[:80]!r}: scale {scale[:60]!r} with proportion "
                            f"{proportion}", where=f"{where}: Result {i + 1}", field="Proportion",
                            expected=f"{'LIB' if DIRECTION[mapped[0]] == 'lower' else 'HIB'} for a scale of "
                                     f"{'time' if DIRECTION[mapped[0]] == 'lower' else 'a rate'}")
        for entry in result.findall("Data/Entry"):
            system = _text(entry, "Identifier")[:MAX_FIELD]
            at = f"{where}: Result {i + 1} ({identifier[:80]}), Entry {system[:80]!r}"
            if system not in known:  # its runs would be no system's: not dropped without a word
                raise UserError("an <Entry> naming no <System>", where=at,
                                expected="the <Identifier> of one of the file's systems: " +
                                         ", ".join(repr(k[:60]) for k in sorted(known)[:5]))
            key = (system, identifier[:MAX_FIELD], description[:MAX_FIELD], _text(result, "Arguments")[:MAX_FIELD])
            group = groups.setdefault(key, {"metrics": {}, "why": "", "failed": False, "of": {},
                                            "workload": workload or _workload(identifier, description)})
            metric, factor, unit = mapped
            if metric in group["metrics"]:  # two results of one test and options in units of one metric
                raise UserError(f"a second {metric} of {identifier[:80]} {description[:80]!r} ({scale[:30]}), beside "
                                f"Result {group['of'][metric] + 1}'s", where=at,
                                expected="one <Result> a test, options and kind of figure")
            group["of"][metric] = i
            runs = _runs(entry, factor, at)
            if not runs:
                group["failed"] = True
                group["why"] = "PTS recorded no run for this system (every run failed)"
            group["metrics"][metric] = (runs, unit, better)
    keys = {}  # a cell's identity -> the result it came from: two results never share a cell silently
    for (system, identifier, description, arguments), group in groups.items():
        ident = (system, group["workload"], _slug(description or identifier))
        first = min(group["of"].values())
        other = keys.setdefault(ident, (first, description))
        if other[0] != first:
            raise UserError(f"Result {other[0] + 1} {other[1][:80]!r} and Result {first + 1} {description[:80]!r} of "
                            f"{identifier[:80]} give one cell (pts={ident[2][:60]})", where=where,
                            expected="descriptions that differ in letters or digits, not only in punctuation "
                                     "(a cell's key names its options by them)")
    out = []
    for (system, identifier, description, arguments), group in groups.items():
        counts = {m: len(r) for m, (r, _, _) in group["metrics"].items()}
        if len(set(counts.values())) > 1:  # each run is one sample of every metric: none may lose one
            names = sorted(counts, key=counts.get)
            raise UserError(f"{identifier[:80]} {description[:80]!r} ({system[:80]}): {counts[names[0]]} runs of "
                            f"{names[0]} (Result {group['of'][names[0]] + 1}), {counts[names[-1]]} of {names[-1]} "
                            f"(Result {group['of'][names[-1]] + 1})", where=where,
                            expected="the same runs in each result of one test and options")
        common = dict(workload=group["workload"], dimensions={"pts": _slug(description or identifier)},
                      parameters={"pts_system": system, "pts_test": identifier, "pts_options": description,
                                  "pts_arguments": arguments})
        runs = max((len(r) for r, _, _ in group["metrics"].values()), default=0)
        if not runs:
            out.append(Measurement(**common, values={}, units={}, failed=group["failed"], not_measured=group["why"]))
        for j in range(runs):
            values = {m: r[j] for m, (r, _, _) in group["metrics"].items() if j < len(r)}
            out.append(Measurement(**common, values=values,
                                   units={m: (u, b) for m, (_, u, b) in group["metrics"].items()}))
    return out


def run_keys(text: str, where: str) -> list[tuple[bytes, str]]:
    """(key, place) of each <Entry>, one system's runs of a test: what tells them from other runs
    is the system's TimeStamp, the test, its options and scale, and the runs as read; not the
    system's identifier (one PTS renames holds the same runs), nor the file's other entries: a
    file PTS grew by a system or a test keeps its entries as they were (adversary of #65, round
    78: the grown file was one key, a new one, and its first system imported twice)."""
    root = _xml(text, where)
    stamps = {_text(node, "Identifier")[:MAX_FIELD]: _text(node, "TimeStamp") for node in root.findall("System")}
    out = []
    for i, result in enumerate(root.findall("Result")):
        test = [_text(result, name) for name in ("Identifier", "Description", "Arguments", "Scale")]
        for entry in result.findall("Data/Entry"):
            system = _text(entry, "Identifier")[:MAX_FIELD]
            at = f"Result {i + 1} ({test[0][:80]}), Entry {system[:80]!r}"
            runs = _runs(entry, 1.0, f"{where}: {at}")
            if runs:  # a test that failed on it is no run to count twice
                out.append((json.dumps([stamps.get(system, ""), test, runs]).encode(), at))
    return out


def value_disagreements(text: str, where: str) -> list[str]:
    """Entries whose runs do not average to the <Value> PTS reported (within 1 %)."""
    out = []
    for result in _xml(text, where).findall("Result"):
        for entry in result.findall("Data/Entry"):
            runs = [r for r in _text(entry, "RawString").split(":") if r.strip()]
            try:
                shown, mean = float(_text(entry, "Value")), statistics.fmean(float(r) for r in runs)
            except (ValueError, statistics.StatisticsError):
                continue
            if shown and abs(mean - shown) > 0.01 * abs(shown):
                out.append(f"{_text(result, 'Identifier')} {_text(result, 'Description')[:60]} "
                           f"({_text(entry, 'Identifier')}): the runs average {mean:g}, PTS reported {shown:g}")
    return out


def looks_like(text: str) -> bool:
    head = text[:4096]
    return "<PhoronixTestSuite" in head and "<Result>" in text


def tool_version(text: str) -> str | None:
    match = re.search(r"<TestClient>([^<]{1,100})</TestClient>", text[:65536])
    return match.group(1).strip() if match else None


def measured(timestamp: str, where: str = "", place: str = "<TimeStamp>") -> dict | None:
    """When PTS ran a system's tests, from its <TimeStamp> ("2021-03-02 09:12:44", the machine's
    local time, its offset not written); None where PTS wrote none. A time that is no date
    ("2021-13-45 99:99:99"), before 1990 or after now (the import) is refused, located, by the
    check_time the fio and IOzone times go through."""
    if not timestamp.strip():
        return None
    try:  # strptime reads any script's digits: "09:12:4４" is no time PTS wrote (round 61)
        when = dt.datetime.strptime(" ".join(figures.ascii_text(timestamp).replace("T", " ").split()), "%Y-%m-%d %H:%M:%S")
    except ValueError:
        raise UserError(f"a TimeStamp of {timestamp.strip()[:40]!r}", where=where, field=place,
                        expected='a date and time as PTS writes it, "2021-03-02 09:12:44"') from None
    found = {"time": f"{when:%Y-%m-%dT%H:%M:%S}", "utc": False, "from": "PTS TimeStamp"}
    return check_time(found, when.replace(tzinfo=dt.timezone.utc), where, place)
