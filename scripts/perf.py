"""make perf: measures fsatlas itself on this machine and prints figure, target and pass/fail.

Writes the table as JSON to build/perf.json. Needs root (loop devices). The quick matrix is
run, and what it writes is kept in build/perf-shape/ under the digest of the runner's code
(scripts/perf_shape.py); FAST=1 takes the quick result kept there for the code checked out
now instead of running it again, never a committed one of an older format. Every figure but
the quick matrix is measured several times: the median is reported with the spread (min–max).
Synthetic result files, shaped like that quick result (every cell, metric and raw file; seeded
throughput), live in a temporary folder and are never committed; every scale row names the
shape's cells and bytes.

The site figures are those of `make site` less its search index and link check: `fsatlas
aggregate` then `fsatlas site`, at each of PERF_SCALES result files, first with no caches
(beside what creating a file in the work folder costs just before: a reading of the machine),
then with every result page rendered again (a template changed), with nothing changed, and
after adding one result file; then `fsatlas validate` over all of them (what make data adds),
with nothing cached and after a simulated fresh checkout; and what the results weigh in the
repository (a result file and its raw bundle each).

The feature probes: one `fsatlas probe` of every filesystem this kernel has, a stock kernel's
guest booting to a command (after the trial that decides whether it must be emulated), and
the whole probe run in that guest (PERF_GUEST_PROBE=0 leaves this one out: it takes about
twenty minutes emulated). The A/A comparisons, where nothing changed: four separate runs of a
quick subset compared by `fsatlas compare`, one run a side and two (rows called better or
worse: target 0); and the same settings twice, interleaved in one run, PERF_AA_RUNS such runs
(default 7, about 20 minutes: scripts/perf_aa.py says why) with their families pooled (families
with a significant row: at most 1 in 20). The report: fsatlas report of
the two newest committed standard results. The pages: the transfer size of home, a guide, a
result page and the explorer, and the time to the first chart on a slow link, in Chromium, on the
site of the committed results. PERF_ONLY=probes (or bounds, quick, fio, aa, aa-within, aa-across,
report, scale, pages, comma-separated) runs only those parts; aa-within is the within-run A/A
alone, aa-across the cross-file one.
"""
import gzip
import io
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "runner"), str(REPO / "tests" / "site"), str(REPO / "scripts")]
from fsatlas.run import filesystems, matrix, target  # noqa: E402
from fsatlas.run.workloads import fio  # noqa: E402
from fsatlas import compiled  # noqa: E402
from fsatlas.results import bundle, export  # noqa: E402
from fsatlas.site.build import hugo_env  # noqa: E402
import sitebuild  # noqa: E402
import perf_aa  # noqa: E402
import perf_shape  # noqa: E402
from fsatlas import SCHEMA_VERSION  # noqa: E402

PYTHON, FSATLAS = str(REPO / ".venv" / "bin" / "python"), str(REPO / ".venv" / "bin" / "fsatlas")
SCALES = [int(n) for n in os.environ.get("PERF_SCALES", "100,1000,10000").split(",")]
ROUNDS = int(os.environ.get("PERF_ROUNDS", "3"))
FLOOR_MULTIPLE = 2  # a first build of 10,000 results within this many times its floor (issue #65; 6 before it, measured 5.02x: 69.9 s on a 13.9 s floor)
ONLY = set(filter(None, os.environ.get("PERF_ONLY", "").split(",")))
GUEST_KERNEL = "debian-6.1"
rows = []


SHAPE = {"text": ""}  # while the scale rows run: the shape of their synthetic results, which every one names


def report(figure, value, unit, target, passed, spread=""):
    if SHAPE["text"]:
        spread = f"{spread} [shape: {SHAPE['text']}]".lstrip()
    rows.append({"figure": figure, "value": value, "unit": unit, "target": target, "pass": passed, "spread": spread})
    mark = "n/a" if passed is None else ("pass" if passed else "FAIL")
    shown = f"{_number(value)} {unit}" if isinstance(value, (int, float)) else str(value)
    print(f"  {figure:<62} {shown:>14} {spread:>22}  target {target:<18} {mark}", flush=True)


def _number(value: float) -> str:
    """Three significant digits, as `%.3g` gives them, but 2,000 files read as 2,000, not 2e+03."""
    return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.3g}"


def spread(values, fmt="{:.2f}"):
    return f"({fmt.format(min(values))}–{fmt.format(max(values))}, n={len(values)})"


def run_benchmark(argv) -> None:
    """One `fsatlas run`, its output silenced. Interrupted (SIGTERM, which main() turns into an
    exit, or Ctrl-C), it gets SIGTERM and time to unmount and detach what it made: subprocess.run
    would SIGKILL it, which left its mount and loop device behind."""
    proc = subprocess.Popen([str(a) for a in argv], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        code = proc.wait()
    except BaseException:
        proc.terminate()
        try:
            proc.wait(timeout=120)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        raise
    if code != 0:
        raise subprocess.CalledProcessError(code, argv)


def timed(argv, exit_code: int = 0, **kw) -> tuple:
    """(wall seconds, peak resident memory in bytes, [user, system] CPU seconds) of one command
    and its children; a command expected to refuse (exit_code 1) has its one-line message silenced."""
    started = time.monotonic()
    quiet = {"stderr": subprocess.DEVNULL} if exit_code else {}
    proc = subprocess.Popen([str(a) for a in argv], stdout=subprocess.DEVNULL, **quiet, **kw)
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != exit_code:
        raise SystemExit(f"perf: {' '.join(map(str, argv))} failed")
    return time.monotonic() - started, usage.ru_maxrss * 1024, [usage.ru_utime, usage.ru_stime]


def validate_bounds(work: Path) -> None:
    """fsatlas validate on the largest result file it accepts (5,000 cells, just under the 16 MB
    limit), on one it refuses before parsing (46 MB of two million trivial cells, the file
    that once took all 24 GiB) and on bundles of the most raw files and the most raw bytes it
    accepts, each report recomputed (most_raw): time and peak memory of each, against 10 s and 512 MiB. The peak
    a child reports includes what it was forked from (this process), so it is an upper bound."""
    from fsatlas.results import resultfile
    base = json.loads((REPO / "runner" / "tests" / "fixtures" / "results" / "fixture-valid.json").read_text())
    folder = work / "bounds" / "results"
    folder.mkdir(parents=True)
    cell = next(c for c in base["cells"] if c["status"] != "ok")
    # reasons within their budget (validation.MAX_REASONS_CHARS); options as long as a key naming
    # them holds (validation.key_problem: a key names its cell's options, in 300 characters), the
    # mount options in force as long as allowed, and parameters filling the rest of 16 MB
    options, in_force = ["o" * 120], "o" * 2000

    def largest_with(extra: int) -> str:
        parameters = {**cell["parameters"], **{f"p{j:02d}": "v" * 40 for j in range(extra)}}
        return json.dumps({**base, "id": "largest", "cells": [
            dict(cell, key=f"{cell['filesystem']}|{options[0]}|-|{cell['workload']}|n={i}", reason="not in this kernel",
                 mkfs_options=options, effective_mount_options=in_force, parameters=parameters) for i in range(5000)]})
    text = next(t for t in map(largest_with, range(90, -1, -1)) if len(t) < resultfile.MAX_FILE_BYTES)
    (folder / "largest.json").write_text(text)
    del text  # a child forked from this process would count its memory as its own peak
    refused = work / "bounds" / "refused.json"
    with open(refused, "wb") as f:
        f.write(b'{"schema_version":1,"id":"refused","cells":[' + b'{"key":"k","raw":[0]},' * 2_100_000 + b'{}]}')
    most_raw(folder, base)
    for name, path, code in (("largest accepted", folder / "largest.json", 0), ("46 MB, refused", refused, 1),
                             (f"{bundle.MAX_MEMBERS:,} raw files, each recomputed", folder / "members.json", 0),
                             (f"{bundle.MAX_TOTAL_BYTES >> 20} MiB of fio reports, each recomputed", folder / "bytes.json", 0)):
        seconds, peak, _ = timed([FSATLAS, "validate", "--no-cache", path], exit_code=code, cwd=work)
        size = path.stat().st_size / 1e6
        report(f"validate, {name} ({size:.1f} MB): time", seconds, "s", "<= 10 s", seconds <= 10)
        report(f"validate, {name} ({size:.1f} MB): peak memory", peak / 2**20, "MiB", "<= 512 MiB", peak <= 512 * 2**20)


def most_raw(folder: Path, base: dict) -> None:
    """Two results whose bundles hold as much as one may, every member a fio report validate
    recomputes a repetition from, ten repetitions a cell: "members", bundle.MAX_MEMBERS reports
    cut to the fields read and the counts they are checked against (504 bytes of the fixture's) under 5,000 cells (the most a file may hold); "bytes",
    the fixture's full report (6.6 KB) as many times as bundle.MAX_TOTAL_BYTES holds."""
    import copy
    from fsatlas.results import resultfile, stats, validation
    cell = copy.deepcopy(base["cells"][0])
    full_text = bundle.read(str(REPO / "runner" / "tests" / "fixtures"), base["id"])[bundle.member_of(base["id"], cell["raw"][0])]
    full = json.loads(full_text)
    job = full["jobs"][0]
    side = {"bw_bytes": job["write"]["bw_bytes"], "iops": job["write"]["iops"], "io_bytes": job["write"]["io_bytes"],
            "runtime": job["write"]["runtime"], "total_ios": job["write"]["total_ios"],
            "lat_ns": {"mean": job["write"]["lat_ns"]["mean"]}}  # fio's counts beside its rates (importers/fio.check_sides)
    stamps = {k: full[k] for k in ("timestamp", "timestamp_ms", "time") if k in full}  # when it wrote it (validate's clock)
    # repetition k's report names the folder the runner made for it, rep-k (validation.folder_problems)
    ran_in = full["global options"]["directory"].rsplit("/", 1)[0]
    reps = 10
    small = [json.dumps({"fio version": full["fio version"], **stamps, "global options": {"directory": f"{ran_in}/rep-{k}"},
                         "jobs": [{"jobname": job["jobname"], "groupid": 0, "error": 0, "job options": job["job options"],
                                   "read": {"bw_bytes": 0, "iops": 0, "io_bytes": 0, "runtime": 0, "total_ios": 0,
                                            "lat_ns": {"mean": 0}}, "write": side,
                                   "usr_cpu": job["usr_cpu"], "sys_cpu": job["sys_cpu"]}]}).encode()
             for k in range(1, reps + 1)]
    whole = [full_text.replace(f'"{ran_in}/rep-1"'.encode(), f'"{ran_in}/rep-{k}"'.encode()) for k in range(1, reps + 1)]
    for name in ("host", "started", "device_io"):
        cell.pop(name, None)
    for rid, of_rep in (("members", small), ("bytes", whole)):
        report = of_rep[-1]  # the longest
        count = min(bundle.MAX_MEMBERS, (bundle.MAX_TOTAL_BYTES - 2**20) // len(report)) // reps  # cells
        values = validation.recompute(cell, report.decode(), "report")[0]
        metrics = {name: stats.summarize([values[name]] * reps, m["unit"], m["better"])
                   for name, m in cell["metrics"].items() if name in values}
        cells, members = [], {}
        for i in range(count):
            key = f"{cell['key']}|n={i}"
            folder_name = resultfile.raw_dir_name(key)  # as the runner names a cell's folder (validation.raw_place_problem)
            cells.append({**cell, "key": key, "flags": ["baseline-unknown"], "metrics": metrics,  # the fixture has no baseline
                          "raw": [f"raw/{rid}/{folder_name}/rep-{k}.json" for k in range(1, reps + 1)]})
            members.update((f"{folder_name}/rep-{k}.json", of_rep[k - 1]) for k in range(1, reps + 1))
        # a run lasts at least as long as its cells, one after another (validate)
        wall = sum(c.get("wall_seconds", 0) for c in cells) + 1
        (folder / f"{rid}.json").write_text(json.dumps({**base, "id": rid, "cells": cells, "wall_seconds": wall}))
        bundle.write(members, bundle.path(str(folder.parent), rid))


# What a long line may repeat: each class of character a privacy pattern or a parser reads runs of.
LONG_LINE_UNITS = (b"1", b"A", b"a", b"a.", b"1.", b"1:", b"a/", b"a-", b"a@", b"a_", b"A1", b"a ")


def hostile_bounds(work: Path) -> None:
    """fsatlas validate on the worst inputs of issue #42, each against 10 s and 512 MiB: a dd
    report at the text bound (8 MiB of progress lines, accepted) and at 46 MB (refused), a line
    of 600,000 characters of each of LONG_LINE_UNITS before dd's summary (the privacy patterns
    once took minutes on one long line), a bonnie++ report at the text bound (blank lines), a bundle whose pax header claims 1 GiB, and a valid
    bundle followed by 2 GiB of zeros (2 MB compressed); a dd import of a committed public
    sample is their shape."""
    sys.path[:0] = [str(REPO / "runner" / "tests")]
    from testutil import SAMPLES, edit_member
    from test_bundle_bounds import _gzip_stream, _header, _zeros
    def progress(size: int) -> bytes:  # dd's status=progress lines of 64 bytes, size bytes of them
        return b"".join(b"%012d bytes (1.0 MB, 1.0 MiB) copied, %06d s, 2.5 MB/s\r" % (i * 2500, i)
                        for i in range(size // 64))
    dd, bonnie = ("dd", SAMPLES / "dd" / "dd-9.1-english.txt"), ("bonnie", SAMPLES / "bonnie" / "bonnie-1.96-stdout.txt")
    cases = [("dd report, 8 MiB of progress lines", lambda old: progress(8_380_000) + b"\n" + old, 0, dd),
             ("dd report, 46 MB of progress lines (refused)", lambda old: progress(46_000_000) + b"\n" + old, 1, dd),
             ("dd report, lines of 600,000 digits, capitals, dots, colons…", lambda old: b"\n".join(
                 unit * (600_000 // len(unit)) for unit in LONG_LINE_UNITS) + b"\n" + old, 0, dd),
             # each line once judged in Python, by each of an import's passes (adversary of #65, round 72)
             ("bonnie++ report, 8 MiB of blank lines before it", lambda old: b"\n" * 8_380_000 + old, 0, bonnie),
             ("bundle, a pax header claiming 1 GiB (refused)", None, 1, dd),
             ("bundle, 2 GiB of zeros after its end (refused)", None, 1, dd)]
    for number, (name, change, code, (tool, sample)) in enumerate(cases):
        out = work / "hostile" / str(number)
        subprocess.run([FSATLAS, "import", tool, sample, "--filesystem", "ext4", "--out", out,
                        *(["--redact"] if tool == "bonnie" else [])], check=True, capture_output=True)  # its host name
        (path,) = (out / "results").iterdir()
        result = json.loads(path.read_text())
        archive = out / "raw" / f"{result['id']}.tar.gz"
        if number == 0:  # the floor on this machine, in this run: the same import, unchanged
            floor, _, _ = timed([FSATLAS, "validate", "--no-cache", path], exit_code=0, cwd=work)
        if change:
            edit_member(out, result["id"], result["cells"][0]["raw"][0], change)
        elif "pax" in name:
            archive.write_bytes(_gzip_stream([_header(b"big", b"x", 1 << 30), *_zeros(1 << 20)]))
        else:
            with open(archive, "rb") as f:
                valid = gzip.decompress(f.read())
            archive.write_bytes(_gzip_stream([valid, *_zeros(2 << 30)]))
        seconds, peak, _ = timed([FSATLAS, "validate", "--no-cache", path], exit_code=code, cwd=work)
        size = archive.stat().st_size / 1e6
        report(f"validate, {name} ({size:.1f} MB packed): time", seconds, "s", "<= 10 s", seconds <= 10,
               f"floor {floor:.2f} s (the import unchanged)")
        report(f"validate, {name}: peak memory", peak / 2**20, "MiB", "<= 512 MiB", peak <= 512 * 2**20)


def iozone_auto_table(max_kib: int = 524288) -> str:
    """An IOzone -a report laid out as the committed public sample (auto-mode-ramdisk-2010.txt):
    every file size from 64 KiB to max_kib by every record size from 4 KiB to 16 MiB, seeded figures."""
    rng, widths, lines = random.Random(1), (8, 8, 9, 9, 8, 8, 8, 9, 9), []
    kib = 64
    while kib <= max_kib:
        rec = 4
        while rec <= min(kib, 16384):
            lines.append(f"{kib:16d}{rec:8d}" + "".join(f"{rng.randint(100000, 999999):{w}d}" for w in widths))
            rec *= 2
        kib *= 2
    header = ("        Output is in Kbytes/sec\n" + " " * 60 + "random  random    bkwd   record   stride\n"
              "              KB  reclen   write rewrite    read    reread    read   write    read  rewrite     read\n")
    return header + "\n".join(lines) + "\n\niozone test complete.\n"


def iozone_rows(seed: int, rows: int) -> str:
    """An IOzone table of rows file sizes at one record size, every test a column (9 a row),
    seeded figures: five of 555 rows make the most cells a result may hold (4,995)."""
    rng, widths = random.Random(seed), (8, 8, 9, 9, 8, 8, 8, 9, 9)
    lines = [f"{64 * (i + 1):16d}{4:8d}" + "".join(f"{rng.randint(100000, 999999):{w}d}" for w in widths)
             for i in range(rows)]
    header = ("        Output is in Kbytes/sec\n" + " " * 60 + "random  random    bkwd   record   stride\n"
              "              KB  reclen   write rewrite    read    reread    read   write    read  rewrite     read\n")
    return header + "\n".join(lines) + "\n\niozone test complete.\n"


def hostile_set(work: Path) -> None:
    """fsatlas validate over issue #61's fixed set of hostile inputs, the worst time and the
    highest peak memory of them against 10 s and 512 MiB: five IOzone repetitions of 4,995 cells
    (16 s before), the fixture with a 63 MB fio json+ report (1.34 GB before), a bundle whose
    pax record holds a newline hiding a size of 3 GiB from a reader that splits at newlines
    (5.36 GB from 1.07 MB before), and a chain of Solaris X headers (3.05 GB from 765 KB). All
    made here, none committed."""
    sys.path[:0] = [str(REPO / "runner" / "tests")]
    from testutil import FIXTURES, edit_member, peak_alone
    from test_bundle_bounds import _gzip_stream, _header, _pax, _zeros
    from test_hostile_bounds import json_plus
    base = json.loads((FIXTURES / "results" / "fixture-valid.json").read_text())
    cases = []
    iozone = work / "hostile-set" / "iozone"
    iozone.mkdir(parents=True)
    for k in range(5):
        (iozone / f"rep-{k + 1}.txt").write_text(iozone_rows(k, 555))
    subprocess.run([FSATLAS, "import", "iozone", *sorted(iozone.glob("rep-*.txt")), "--filesystem", "ext4",
                    "--workload", "iozone", "--out", iozone / "out"], check=True,
                   capture_output=True)
    (path,) = (iozone / "out" / "results").iterdir()
    cases.append(("five IOzone repetitions (4,995 cells)", path, 0))
    for name, code in (("json+", 0), ("pax", 1), ("X", 1)):
        out = work / "hostile-set" / name
        shutil.copytree(FIXTURES / "results", out / "results")
        shutil.copytree(FIXTURES / "raw", out / "raw")
        path, archive = out / "results" / "fixture-valid.json", out / "raw" / "fixture-valid.tar.gz"
        if name == "json+":
            edit_member(out, base["id"], base["cells"][0]["raw"][0], lambda old: json_plus(old, 63_000_000))
            label = "the fixture with a 63 MB fio json+ report"
        elif name == "pax":
            records = _pax([b"size=%d" % (3 << 30), b"path=a\n9 size=1"])
            archive.write_bytes(_gzip_stream([_header(b"pax", b"x", len(records)), records + bytes(-len(records) % 512),
                                              _header(b"a", b"0", 1), *_zeros(1 << 30)]))
            label = f"a pax record holding a newline ({archive.stat().st_size / 1e6:.2f} MB bundle)"
        else:
            archive.write_bytes(_gzip_stream([part for i in range(12)
                                              for part in (_header(b"x%d" % i, b"X", 60 << 20), *_zeros(60 << 20))]))
            label = f"a chain of X headers ({archive.stat().st_size / 1e6:.2f} MB bundle)"
        cases.append((label, path, code))
    plain = work / "hostile-set" / "plain"  # the floor on this machine, in this run: the fixture unchanged
    shutil.copytree(FIXTURES / "results", plain / "results")
    shutil.copytree(FIXTURES / "raw", plain / "raw")
    _, _, floor, _ = peak_alone([FSATLAS, "validate", "--no-cache", plain / "results" / "fixture-valid.json"], work)
    measured = []
    for label, path, code in cases:
        # started from a small process: a child of this one would report this one's peak as its own
        status, _, seconds, peak = peak_alone([FSATLAS, "validate", "--no-cache", path], work)
        if status != code:
            raise SystemExit(f"perf: validate {path} exited {status}, not {code}")
        measured.append((seconds, peak, label))
        print(f"    {label}: {seconds:.2f} s, {peak / 2**20:.0f} MiB", flush=True)
    seconds, _, slowest = max(measured)
    _, peak, largest = max(measured, key=lambda m: m[1])
    report(f"validate, hostile set: worst time ({slowest})", seconds, "s", "<= 10 s", seconds <= 10,
           f"floor {floor:.2f} s (the fixture unchanged)")
    report(f"validate, hostile set: peak memory ({largest})", peak / 2**20, "MiB", "<= 512 MiB", peak <= 512 * 2**20)


def index_share(work: Path) -> None:
    """What one result file adds to the explorer's index every visitor loads, at most: an IOzone
    -a import of 1,314 cells, none of them the matrix's (375 KB before keys outside the matrix
    were described in their own chunk)."""
    from fsatlas.results import shares
    source = work / "share" / "iozone-a.txt"
    source.parent.mkdir(parents=True)
    source.write_text(iozone_auto_table())
    subprocess.run([FSATLAS, "import", "iozone", source, "--filesystem", "ext4",
                    "--out", work / "share"], check=True, capture_output=True)
    (path,) = (work / "share" / "results").iterdir()
    result = json.loads(path.read_text())
    share = shares.index_share(result)
    report(f"explorer index, one result's share ({len(result['cells']):,}-cell IOzone -a import)", share, "bytes",
           f"<= {shares.MAX_INDEX_SHARE:,} B", share <= shares.MAX_INDEX_SHARE)


# --- the runner ----------------------------------------------------------------------------
def quick_matrix(work: Path) -> Path:
    """Reports the quick matrix's wall time and the runner's overhead; returns the quick result
    file (with its raw files under the folder above it), the shape of the synthetic results: one
    the code checked out now wrote (perf_shape), run now unless FAST=1 finds it kept."""
    digest = perf_shape.source_digest()
    kept = perf_shape.current(SCHEMA_VERSION, digest)
    if os.environ.get("FAST") and kept:
        path, source = kept, f"kept from an earlier perf run of this code, {digest}"
    else:
        out = work / "quick"
        run_benchmark([FSATLAS, "run", "--profile", "quick", "--out", out, "--scratch", work / "scratch"])
        keep = perf_shape.folder(digest)
        shutil.rmtree(keep.with_name(keep.name + ".part"), ignore_errors=True)
        shutil.copytree(out, keep.with_name(keep.name + ".part"), ignore=shutil.ignore_patterns("scratch"))
        shutil.rmtree(keep, ignore_errors=True)
        os.rename(keep.with_name(keep.name + ".part"), keep)
        path, source = perf_shape.current(SCHEMA_VERSION, digest), "measured now"
        if path is None:
            raise SystemExit(f"perf: the quick run in {out} wrote no complete result of schema version {SCHEMA_VERSION}")
    result = json.loads(path.read_text())
    report(f"fsatlas run --profile quick, five filesystems ({source})", result["wall_seconds"] / 60, "min",
           "<= 6 min", result["wall_seconds"] <= 360)
    # overhead: cells whose work is done by external tools (fio, dd, mkfs/mount); the small-file
    # and tree-copy workloads run inside fsatlas, so all their time is the measurement itself
    kinds = {name: w["kind"] for name, w in matrix.load().workloads.items()}
    cells = [c for c in result["cells"] if c["status"] == "ok" and "tool_seconds" in c
             and kinds.get(c["workload"]) in ("fio", "dd", "lifecycle")]
    if not cells:
        report("runner overhead (cell wall time outside fio/mkfs/mount)", "no data", "", "<= 3 %", None,
               "result predates tool_seconds")
        return path
    # the runner's own time: a cell's wall time less its tools' and the filesystem's settling
    # (syncfs and freezes around each repetition, which are the kernel writing: settle_seconds)
    def own(c):
        return c["wall_seconds"] - c["tool_seconds"] - c.get("settle_seconds", 0)
    walls = sum(c["wall_seconds"] for c in cells)
    shares = [100 * own(c) / c["wall_seconds"] for c in cells]
    total = 100 * sum(own(c) for c in cells) / walls
    report(f"runner overhead, share of cell wall time ({len(cells)} cells)", total, "%", "<= 3 %", total <= 3,
           f"(per cell {min(shares):.1f}–{max(shares):.1f} %)")
    settled = 100 * sum(c.get("settle_seconds", 0) for c in cells) / walls
    report("  settling the filesystem around repetitions (syncfs, freeze), share of cell wall time", settled, "%",
           "", None, "(the kernel writing the runner's own files and deletions outside the timed parts: #60 round 21)")
    return path


def versus_bare_fio():
    """One job file run through fsatlas's own code path (workloads.fio.run_job) and by bare fio,
    alternating (which goes first alternates too), on one ext4 loop mount: the standard
    profile's seq-write job, time-based for 10 s over a file laid out beforehand. Measured in
    steady state on an image in RAM (/dev/shm): on this virtual machine's disk, and with runs
    of under a second that allocate a new file, single runs vary by half from the host's cache
    and memory reclaim alone, drowning a 5 % difference; in RAM any cost fsatlas added would
    only show more. direct=1 bypasses the page cache, so no cache is dropped in between."""
    m = matrix.load()
    cell = m.profile("standard", filesystems=["ext4"], workloads=["seq-write"], variants=["defaults"]).cells[0]
    params = {**cell.parameters, "time_based": 1, "runtime": "10s"}
    scratch = tempfile.mkdtemp(prefix="fsatlas-perf-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    ratios = []
    with target.LoopImage(scratch, m.profile("standard").image_bytes) as image:
        spec = m.filesystems["ext4"]
        filesystems.mkfs(spec, image.device, [])
        filesystems.mount(spec, image.device, image.mountpoint, [])
        workdir = Path(image.mountpoint)
        job = Path(scratch) / "job.fio"
        job.write_text(fio.job_file(cell.workload, params, {"directory": str(workdir)}))

        def through_fsatlas(pair):
            return fio.run_job(cell.workload, params, {"directory": str(workdir)},
                               f"{scratch}/a{pair}.json", cell.budget_s)["throughput"]

        def bare_fio(pair):
            done = subprocess.run(["fio", "--output-format=json", str(job)], capture_output=True, text=True, check=True)
            return json.loads(done.stdout[done.stdout.find("{"):])["jobs"][0]["write"]["bw_bytes"]

        bare_fio("lay out the file")
        for pair in range(5):
            order = (through_fsatlas, bare_fio) if pair % 2 == 0 else (bare_fio, through_fsatlas)
            got = {runner: runner(pair) for runner in order}
            ratios.append(got[through_fsatlas] / got[bare_fio])
    shutil.rmtree(scratch, ignore_errors=True)
    median = statistics.median(ratios)
    report("fsatlas vs bare fio, seq-write throughput ratio (5 pairs)", median, "x", "0.95–1.05",
           0.95 <= median <= 1.05, spread(ratios, "{:.3f}"))


AA_FILESYSTEMS = "ext4,xfs"
AA_WORKLOADS = "seq-write,rand-read-4k,rand-write-4k,fsync-write-4k,sqlite-commits,mail-delivery,small-files,create-files"
AA_RUNS = 2  # runs a side of the cross-file A/A: the fewest that comparison.design tests
AA_WITHIN_RUNS = int(os.environ.get("PERF_AA_RUNS", perf_aa.DEFAULT_RUNS))  # interleaved runs the within-run A/A pools


def _quick_subset(work: Path, name: str, *extra) -> dict:
    out = work / f"aa-{name}"
    run_benchmark([FSATLAS, "run", "--profile", "quick", "--fs", AA_FILESYSTEMS, "--workload", AA_WORKLOADS,
                   "--out", out, "--scratch", work / "scratch", *extra])
    return next((out / "results").iterdir())


def aa_comparison(work: Path) -> None:
    """The cross-file A/A: the same quick subset (with the sync workloads fsync-write-4k,
    sqlite-commits and mail-delivery, which carried the false rows of issue 60) run as
    2 * AA_RUNS separate runs, back to back, nothing changed between them, and compared by
    `fsatlas compare`: one run a side (the comparison module tests nothing: the run is the
    unit) and AA_RUNS runs a side (tested on the runs' means). A row called better or worse
    is a false one: target 0. Before the run became the unit, two such runs gave 14 of 54
    rows with raw p < 0.05 and one significant after Benjamini-Hochberg."""
    files = [_quick_subset(work, f"run{i}") for i in range(2 * AA_RUNS)]
    for side_a, side_b in ((files[:1], files[1:2]), (files[:AA_RUNS], files[AA_RUNS:])):
        argv = [FSATLAS, "compare", *map(str, side_a), *map(str, side_b)] if len(side_a) == 1 else \
            [FSATLAS, "compare", "--runs-a", *map(str, side_a), "--runs-b", *map(str, side_b)]
        done = subprocess.run(argv, capture_output=True, text=True, check=True)
        rows = [line for line in done.stdout.splitlines() if "|" in line.split(" ")[0]]
        called = [line for line in rows if line.endswith((" better", " worse")) or " differs (" in line]
        tested = sum(not line.endswith(")") or " differs (" in line for line in rows)
        report(f"cross-file A/A, {len(side_a)} run(s) a side, fsatlas compare ({len(rows)} rows, {tested} tested)",
               len(called), "rows", "0 better/worse", not called,
               "(" + done.stderr.strip().rsplit("differs; ", 1)[-1] + ")")
        for line in called:  # the false rows themselves, to read their figures and p
            print("    " + " ".join(line.split()), flush=True)


def within_run_aa(work: Path) -> None:
    """The within-run A/A: each filesystem's defaults and the same settings again, interleaved in
    one run (A B, B A...: the paired test). The runner has no variant twice under one key, so
    the smallest way is a matrix of its own (`fsatlas run --matrix`): the standard one, a
    variant `aa-same` that states the default mount option (relatime, the default of ext4 and
    xfs) on a second image of its own, and the quick profile with `interleave: true`. A family
    is one cell's metrics, adjusted together (Holm, as a claim's family); target: at most 1
    family in 20 with a significant row, judged by perf_aa.judge on the families of
    PERF_AA_RUNS such runs pooled (default perf_aa.DEFAULT_RUNS: one run's 20 families pass or
    fail a valid test by chance)."""
    from fsatlas import safe_yaml
    data = safe_yaml.load((REPO / "runner" / "fsatlas" / "run" / "matrix" / "standard.yaml").read_text())
    data["variants"]["aa-same"] = {"filesystems": AA_FILESYSTEMS.split(","), "mount": ["relatime"],
                                   "workloads": AA_WORKLOADS.split(",")}
    data["profiles"]["aa-interleaved"] = {**data["profiles"]["quick"], "interleave": True, "variants": ["aa-same"]}
    matrix_file = work / "aa-matrix.yaml"
    matrix_file.write_text(json.dumps(data))  # JSON is YAML
    per_run, paired = [], 0
    for k in range(AA_WITHIN_RUNS):
        out, started = work / f"aa-within-{k}", time.monotonic()
        run_benchmark([FSATLAS, "run", "--matrix", matrix_file, "--profile", "aa-interleaved", "--fs", AA_FILESYSTEMS,
                       "--workload", AA_WORKLOADS, "--out", out, "--scratch", work / "scratch"])
        flagged, families, with_pairs = _within_families(next((out / "results").iterdir()))
        per_run.append((flagged, families))
        paired += with_pairs
        print(f"  within-run A/A run {k + 1} of {AA_WITHIN_RUNS}: {flagged} of {families} families with a significant "
              f"row ({time.monotonic() - started:.0f} s, load {os.getloadavg()[0]:.2f})", flush=True)
        shutil.rmtree(out)
    verdict = perf_aa.judge(per_run)
    low, high = verdict["interval"] or (float("nan"),) * 2
    report(f"within-run A/A, same settings interleaved ({len(per_run)} runs, {verdict['families']} families, "
           f"{paired} paired)", verdict["flagged"], "families",
           f"at most 1 family in 20 (of >= {perf_aa.MIN_FAMILIES})",
           verdict["passed"], f"(per run {' '.join(f'{f}/{n}' for f, n in per_run)}; pooled {verdict['flagged']}/"
           f"{verdict['families']}, 95 % CI {low:.1%}–{high:.1%}; {verdict['why']})")


def _within_families(path: Path) -> tuple:
    """(families with a significant row, families, families with a paired row) of one within-run
    A/A result: each filesystem's defaults against its `aa-same`, a family per cell, Holm within it."""
    from fsatlas.results import comparison, resultfile
    from fsatlas.site import report as report_mod
    result = resultfile.load_result(str(path))  # the read form report.within takes
    families, flagged, paired = 0, 0, 0
    for fs in AA_FILESYSTEMS.split(","):
        rows = report_mod.within(result, fs, f"{fs}:aa-same", all_metrics=True)
        for key in dict.fromkeys(r["key"] for r in rows):
            family = comparison.adjust([r for r in rows if r["key"] == key], comparison.HOLM)
            families += 1
            flagged += any(r["significant"] for r in family)
            paired += any(r["paired"] for r in family)
    return flagged, families, paired


def report_timing(work: Path) -> None:
    """fsatlas report of the two newest committed standard results, as HTML with its SVG chart
    (drawn by Vega in Node): what a reader waits for a publishable comparison."""
    standard = sorted((REPO / "data" / "results").glob("*-standard.json"))[-2:]
    if len(standard) < 2:
        report("fsatlas report, two standard results", "no data", "", "<= 10 s", None, "fewer than two in data/results")
        return
    runs = [timed([FSATLAS, "report", *standard, "--out", work / f"report-{k}.html"]) for k in range(ROUNDS)]
    times = [r[0] for r in runs]
    median = statistics.median(times)
    report("fsatlas report, two standard results (HTML, chart drawn)", median, "s", "<= 10 s", median <= 10,
           spread(times) + f" (peak {max(r[1] for r in runs) / 2**20:.0f} MiB)")


# --- the site --------------------------------------------------------------------------------
def site_root(root: Path, results: Path):
    """The site sources and curated data copied beside synthetic results, as sitebuild does."""
    for name in sitebuild.SITE_SOURCES:
        src = REPO / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, root / name)
    for name in sitebuild.CURATED_DATA:
        src = REPO / "data" / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, root / "data" / name)


def build(root: Path) -> tuple:
    """aggregate + fsatlas site, as make site runs them (without the search index and htmltest):
    (seconds, peak bytes of either and of the Hugo runs under it, aggregate s, site s, the
    aggregate's [user, system] CPU s)."""
    a_time, a_mem, a_cpu = timed([FSATLAS, "aggregate", "--data", root / "data", "--content", root / "build" / "content"],
                          cwd=root)
    s_time, s_mem, _ = timed([FSATLAS, "site", "--root", root, "--destination", "public"], cwd=root)
    return a_time + s_time, max(a_mem, s_mem), a_time, s_time, a_cpu


PARSE_ALL = """import json, os, sys
folder = sys.argv[1]
for name in sorted(os.listdir(folder)):
    with open(os.path.join(folder, name), 'rb') as f:
        json.loads(f.read())
"""


def floor(work: Path, results: Path, pages: int) -> tuple:
    """What a first build cannot go below on this machine, measured in the same run as it: every
    result file read and parsed once (one Python process, the standard json module), and Hugo
    rendering as many pages from a trivial template. (seconds of each)"""
    parse, _, _ = timed([sys.executable, "-c", PARSE_ALL, results])
    site = work / f"floor-{pages}"
    (site / "layouts" / "_default").mkdir(parents=True)
    (site / "content").mkdir(parents=True)
    (site / "config.toml").write_text('baseURL = "/"\ndisableKinds = ["taxonomy", "term", "RSS", "sitemap"]\n')
    (site / "layouts" / "_default" / "single.html").write_text("<h1>{{ .Title }}</h1>{{ .Content }}\n")
    (site / "layouts" / "_default" / "list.html").write_text("<h1>{{ .Title }}</h1>\n")
    for k in range(pages):
        (site / "content" / f"p{k}.md").write_text(f"---\ntitle: page {k}\n---\nA page.\n")
    # with the collector settings fsatlas gives Hugo (site/build.py), as the build it is the floor of
    render, _, _ = timed(["hugo", "--source", site, "--destination", site / "public", "--quiet"], cwd=site,
                         env=hugo_env())
    return parse, render


CREATED = 5000  # files file_creation makes


def file_creation(work: Path, n: int) -> None:
    """What creating a file costs in the work folder just before a first build, which at 10,000
    results creates about 60,000 files and 20,000 folders (and 70,000 hard links). One machine
    gave 16 to 600 µs a file within an hour, all of it system CPU, in the checks an ext4 without
    a journal makes of each inode it could take (PERFORMANCE.md)."""
    folder = work / f"creation-{n}"
    folder.mkdir()
    data = b"x" * 8192
    start = time.perf_counter()
    for k in range(CREATED):
        with open(folder / f"f{k}", "wb") as f:
            f.write(data)
    seconds = time.perf_counter() - start
    report(f"  file creation just before the first build, {n} results", seconds / CREATED * 1e6, "µs a file", "", None,
           f"({CREATED:,} files of 8 KiB in a new folder of {work})")


def change_a_template(root: Path, round_: int) -> None:
    """What makes every result page be rendered again: a template that changed."""
    single = root / "layouts" / "results" / "single.html"
    single.write_text(single.read_text() + f"{{{{/* perf round {round_} */}}}}\n")


def scale_series(work: Path, shape: Path) -> Path:
    biggest = None
    for n in SCALES:
        root = work / f"site-{n}"
        (root / "data").mkdir(parents=True)
        sitebuild.synthetic_results(root / "data", n + ROUNDS, template=shape)
        # kept back, each result file with its bundle, for the one-result rebuilds: the repository
        # rows count n results' files, and each addition brings its two files as a pull request does
        extra = sorted((root / "data" / "results").iterdir())[-ROUNDS:]
        spare = work / f"spare-{n}"
        for folder in ("results", "raw"):
            (spare / folder).mkdir(parents=True)
        for path in extra:
            for kept in (path, Path(bundle.path(root / "data", path.stem))):
                shutil.move(kept, spare / kept.parent.name / kept.name)
        site_root(root, root / "data" / "results")
        def target(value, limit, unit):  # (target text, pass) at 10,000 results, where the targets are set
            return (f"<= {limit} {unit}", value <= limit) if n == 10000 else ("", None)

        repository(root / "data", n)
        file_creation(work, n)
        firsts = [build(root)]
        for k in range(1, ROUNDS):  # the same first build again, each in a root of its own holding the same
            again = work / f"site-{n}-first-{k}"  # files (removed with the work folder: no deletion while timing)
            twin_root(root, again)
            firsts.append(build(again))
        times = [f[0] for f in firsts]
        cold, _, a_cold, s_cold, a_cpu = sorted(firsts)[len(firsts) // 2]  # the median run
        report(f"aggregate + site, {n} results, first build (no caches)", cold, "s", *target(cold, 60, "s"),
               spread(times) + f" (median run: aggregate {a_cold:.1f} s, CPU {a_cpu[0]:.0f} s user and "
               f"{a_cpu[1]:.0f} s system; site {s_cold:.1f} s)")
        peak = max(f[1] for f in firsts)
        report(f"  peak memory of the first build, {n} results", peak / 2**30, "GiB", *target(peak / 2**30, 1, "GiB"))
        # the same first build as a multiple of this machine's floor, so the figure travels between machines
        pages = sum(1 for _ in (root / "public").rglob("*.html"))
        parse, render = floor(work, root / "data" / "results", pages)
        report(f"  first build as a multiple of its floor, {n} results", cold / (parse + render), "x",
               *target(cold / (parse + render), FLOOR_MULTIPLE, "x"),
               f"(floor {parse + render:.1f} s: every result file parsed once {parse:.1f} s, "
               f"Hugo rendering {pages:,} pages from a trivial template {render:.1f} s)")
        full = []
        for k in range(ROUNDS):
            change_a_template(root, k)
            full.append(build(root))
        times = [f[0] for f in full]
        report(f"aggregate + site, {n} results, every page rendered (a template changed)", statistics.median(times),
               "s", *target(statistics.median(times), 15, "s"),
               spread(times) + f" aggregate {statistics.median(f[2] for f in full):.1f} s")
        same = [build(root) for _ in range(ROUNDS)]
        report(f"aggregate + site, {n} results, nothing changed", statistics.median(s[0] for s in same), "s", "", None,
               spread([s[0] for s in same]))
        adds = []
        for path in sorted((spare / "results").iterdir()):
            for kept in (Path(bundle.path(spare, path.stem)), path):  # the bundle first: no build sees a result without it
                shutil.move(kept, root / "data" / kept.parent.name / kept.name)
            adds.append(build(root))
        times = [a[0] for a in adds]
        report(f"adding one result to {n} and rebuilding", statistics.median(times), "s",
               *target(statistics.median(times), 3, "s"),
               spread(times) + f" aggregate {statistics.median(a[2] for a in adds):.2f} s")
        peak = max([peak] + [b[1] for b in full + same + adds])
        report(f"  peak memory of any step, {n} results", peak / 2**30, "GiB", *target(peak / 2**30, 1, "GiB"))
        validation_series(root, n)
        export_timing(root, n, target)
        if biggest:
            shutil.rmtree(biggest)
        biggest = root
    return biggest


def export_timing(root: Path, n: int, target) -> None:
    """fsatlas export of every sample of n results to each format: the time and peak memory
    (bounded by its batches, whatever n: JSON Lines once held a batch's rows as Python dicts at
    once, 1.3 GB for 412,000 rows), with the file's size."""
    for fmt in export.FORMATS:
        out = root / "build" / f"perf-samples.{fmt}"
        seconds, peak, cpu = timed([FSATLAS, "export", root / "data" / "results", "--format", fmt, "--out", out])
        report(f"export of {n} results to {fmt}", seconds, "s", "", None,
               f"({out.stat().st_size / 1e6:.0f} MB; CPU {cpu[0]:.0f} s user)")
        report(f"  peak memory of the export to {fmt}, {n} results", peak / 2**30, "GiB",
               *target(peak / 2**30, 1, "GiB"))
        out.unlink()


def twin_root(root: Path, twin: Path) -> None:
    """A site root holding root's result files and bundles (hard links) and its own copy of the
    site sources, as root was before its first build."""
    for folder in ("results", "raw"):
        (twin / "data" / folder).mkdir(parents=True)
        for path in (root / "data" / folder).iterdir():
            os.link(path, twin / "data" / folder / path.name)
    site_root(twin, twin / "data" / "results")


def repository(data: Path, n: int) -> None:
    """What n results add to the repository, per 1,000: files, and bytes as git stores them
    (each file a zlib-compressed object, as `git add` writes it; packing may delta them further,
    which synthetic results, alike as they are, would flatter)."""
    files = [p for folder in ("results", "raw") for p in (data / folder).iterdir() if p.is_file()]
    stored = sum(len(zlib.compress(b"blob %d\0" % p.stat().st_size + p.read_bytes())) for p in files)
    plain = sum(p.stat().st_size for p in files)
    per = 1000 / n
    scored = n in (1000, 10000)  # the scales the targets are set for
    report(f"repository bytes per 1,000 results (git objects), {n} results", stored * per / 1e6, "MB",
           "<= 150 MB" if scored else "", stored * per <= 150e6 if scored else None,
           f"({plain * per / 1e6:.0f} MB unpacked)")
    report(f"repository files per 1,000 results, {n} results", len(files) * per, "files",
           "<= 2,100" if scored else "", len(files) * per <= 2100 if scored else None)


def validation_series(root: Path, n: int) -> None:
    """fsatlas validate over every result, recomputing each figure from its bundle, as make
    data does with nothing cached; then again after every data file got a new mtime, as a fresh
    checkout with build/ restored leaves them (the publishing workflow): nothing is recomputed."""
    argv = [FSATLAS, "validate", root / "data" / "results"]
    seconds, peak, _ = timed(argv, cwd=root)
    report(f"validate {n} results, every figure recomputed (no cache)", seconds, "s", "", None,
           f"(peak {peak / 2**20:.0f} MiB)")
    later = time.time() + 3600
    for folder in ("results", "raw"):
        for path in (root / "data" / folder).iterdir():
            os.utime(path, (later, later))
    seconds, peak, _ = timed(argv, cwd=root)
    report(f"validate {n} results after a fresh checkout, build/ restored", seconds, "s",
           "<= 15 s" if n == 10000 else "", seconds <= 15 if n == 10000 else None, f"(peak {peak / 2**20:.0f} MiB)")


def heaviest_page(public: Path):
    """gzip size of each page's HTML plus the site's own JSON it loads (vendored libraries excluded)."""
    sizes = {}
    for html in public.rglob("*.html"):
        text = html.read_bytes()
        total = len(gzip.compress(text, 6))
        for ref in set(re.findall(rb'["\'](/[^"\']+\.json)["\']', text)):
            data = public / ref.decode().lstrip("/")
            if data.is_file() and "/vendor/" not in ref.decode():
                total += len(gzip.compress(data.read_bytes(), 6))
            chunks = data.parent / "rows"  # the explorer also loads one result's chunk: count the largest
            if data.name == "data.json" and chunks.is_dir():
                total += max(len(gzip.compress(c.read_bytes(), 6)) for c in chunks.iterdir())
        sizes[str(html.relative_to(public))] = total
    page, size = max(sizes.items(), key=lambda kv: kv[1])
    report(f"heaviest page with its data, gzip ({page})", size / 1000, "KB", "<= 400 KB", size <= 400_000)


def explorer_timing(public: Path, n: int):
    from playwright.sync_api import sync_playwright
    server = sitebuild.serve(public)
    url = f"http://127.0.0.1:{server.server_address[1]}/explorer/"
    firsts, changes = [], []
    # the first view: its figures shown (data-shown), beside the picture the build drew; a
    # change: the interactive chart redrawn (data-rendered), once the reader has asked for it
    observe = """new MutationObserver((records) => records.forEach((r) => (window[r.attributeName === 'data-shown' ? '__shown' : '__renders'] =
                   window[r.attributeName === 'data-shown' ? '__shown' : '__renders'] || []).push(performance.now())))
                 .observe(document, {subtree: true, attributes: true, attributeFilter: ['data-rendered', 'data-shown']});"""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=sitebuild.CHROMIUM, args=sitebuild.CHROMIUM_ARGS)
        for _ in range(ROUNDS):
            page = browser.new_page()
            page.add_init_script(observe)
            page.goto(url)
            page.wait_for_function("window.__shown && window.__shown.length > 0", timeout=60000)
            firsts.append(page.evaluate("window.__shown[0]"))
            if page.locator("#explorer .chart-explore").count():  # Vega loads when the reader asks
                page.click("#explorer .chart-explore")
            page.wait_for_function("window.__renders && window.__renders.length > 0", timeout=60000)
            for fs in ("ext2", "btrfs"):
                count = page.evaluate("window.__renders.length")
                start = page.evaluate(f"""() => {{ const t = performance.now();
                    document.querySelector('input[name=fs][value={fs}]').click(); return t; }}""")
                page.wait_for_function(f"window.__renders.length > {count}", timeout=60000)
                changes.append(page.evaluate("window.__renders[window.__renders.length - 1]") - start)
            page.close()
        browser.close()
    server.shutdown()
    report(f"explorer, {n:,} results: first chart after navigation start", statistics.median(firsts), "ms",
           "<= 1500 ms", statistics.median(firsts) <= 1500, spread(firsts, "{:.0f}"))
    report(f"explorer, {n:,} results: filter change redrawn", statistics.median(changes), "ms", "<= 300 ms",
           statistics.median(changes) <= 300, spread(changes, "{:.0f}"))


def probes(work: Path) -> None:
    """fsatlas probe here, then in a guest of the stock kernel: its boot, and the whole run."""
    from fsatlas.run import guest
    seconds, _, _ = timed([FSATLAS, "probe", "--scratch", work / "probe-scratch", "--out", work / "probe-host",
                        "--machine", "perf"])
    report("feature probes, every filesystem of this kernel", seconds, "s", "<= 120 s", seconds <= 120)
    try:
        image = guest.kernel_image(GUEST_KERNEL)
    except Exception as e:  # no kernel unpacked: say so, never a made-up figure
        report(f"guest of {GUEST_KERNEL}", "not measured", "", str(e)[:40], None)
        return
    started = time.monotonic()
    emulated = guest.emulated(image)
    trial = time.monotonic() - started
    report("deciding KVM or emulation (a trial boot)", trial, "s", "<= 45 s", trial <= 45)
    rwdir = work / "guest"
    rwdir.mkdir()
    boots = []
    for _ in range(ROUNDS):
        started = time.monotonic()
        guest.run(GUEST_KERNEL, ["--help"], str(rwdir), 300)
        boots.append(time.monotonic() - started)
    how = "emulated" if emulated else "KVM"
    report(f"guest boot to a command ({GUEST_KERNEL}, {how})", statistics.median(boots), "s", "<= 60 s",
           statistics.median(boots) <= 60, spread(boots, "{:.1f}"))
    if os.environ.get("PERF_GUEST_PROBE", "1") == "0":
        report(f"feature probes in the guest ({GUEST_KERNEL})", "not run", "", "PERF_GUEST_PROBE=0", None)
        return
    seconds, _, _ = timed([FSATLAS, "probe", "--kernel", GUEST_KERNEL, "--scratch", work / "probe-scratch",
                        "--out", work / "probe-guest", "--machine", "perf"])
    report(f"feature probes in the guest ({GUEST_KERNEL}, {how})", seconds / 60, "min", "<= 40 min", seconds <= 2400)


class _GzipHandler(sitebuild._QuietHandler):
    """Serves text compressed when asked, as any static host does (GitHub Pages, Netlify): the
    transfer size a reader pays is of the compressed bytes."""
    COMPRESSED = (".html", ".js", ".json", ".css", ".svg", ".xml", ".txt")

    def send_head(self):
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            path = os.path.join(path, "index.html")
        if not (path.endswith(self.COMPRESSED) and "gzip" in self.headers.get("Accept-Encoding", "")
                and os.path.isfile(path)):
            return super().send_head()
        body = gzip.compress(Path(path).read_bytes(), 6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


# A reader on the slow link #41 measured the site on: 1.6 Mbit/s down (0.75 up), 150 ms, a CPU
# four times slower, set through the Chrome DevTools Protocol.
SLOW_LINK = {"offline": False, "latency": 150, "downloadThroughput": 1.6e6 / 8, "uploadThroughput": 0.75e6 / 8}
SLOW_CPU = 4
FLOOR_PAGE = "/contribute/"  # the site's header, stylesheet and text, no chart and no chart script


def page_weight(work: Path) -> None:
    """Four page kinds on the site built from the committed results, in Chromium, in light and
    in dark mode (#62): the bytes a reader transfers (served with gzip) and the same bytes
    uncompressed (what a host without compression sends), and the time to the first chart on a
    slow link."""
    from playwright.sync_api import sync_playwright  # only this part needs it
    public = sitebuild.build_site(work / "weight-site", REPO / "data" / "results")
    latest = json.loads((work / "weight-site" / "data" / "aggregates" / "latest.json").read_text())["result"]
    server = sitebuild.serve(public, _GzipHandler)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    # (name, path, at most this many KB uncompressed, and with gzip)
    pages = [("home", "/", 150), ("a guide", "/guides/access-time/", 150),
             ("a result page", f"/results/{latest}/", None), ("the explorer", "/explorer/", None),
             ("home's chart link (embed)", "/embed/?page=/&n=1", None)]
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=sitebuild.CHROMIUM, args=sitebuild.CHROMIUM_ARGS)
            def fresh_page(throttled: bool, scheme: str):
                """A page with no cache, through the DevTools Protocol: (page, its session)."""
                page = browser.new_page(color_scheme=scheme)
                cdp = page.context.new_cdp_session(page)
                cdp.send("Network.enable")
                cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
                if throttled:
                    cdp.send("Network.emulateNetworkConditions", SLOW_LINK)
                    cdp.send("Emulation.setCPUThrottlingRate", {"rate": SLOW_CPU})
                return page, cdp

            # every guide's bytes (the target holds for each), the first chart's time of one
            guides = sorted(f"/guides/{g.parent.name}/" for g in (public / "guides").glob("*/index.html"))
            weighed = pages[:1] + [("a guide", g, 150) for g in guides] + pages[2:]
            for scheme in ("light", "dark"):
                for name, path, limit in weighed:
                    sizes, plain = [], []
                    for _ in range(ROUNDS):
                        page, cdp = fresh_page(False, scheme)
                        loaded, decoded = [], []
                        cdp.on("Network.loadingFinished", lambda e: loaded.append(e["encodedDataLength"]))
                        cdp.on("Network.dataReceived", lambda e: decoded.append(e["dataLength"]))
                        page.goto(base + path, wait_until="networkidle")
                        # a chart drawn in the browser fetches Vega's files one after another, each
                        # parsed first: a quiet half second between two was counted as the end
                        # (a result page once read 40 KB of its 335)
                        page.wait_for_function("() => [...document.querySelectorAll('figure[data-chart]')]"
                                               ".every(f => f.matches('.chart-drawn, .chart-failed'))", timeout=60000)
                        page.wait_for_load_state("networkidle")
                        sizes.append(sum(loaded) / 1000)
                        plain.append(sum(decoded) / 1000)
                        page.close()
                    size, whole = statistics.median(sizes), statistics.median(plain)
                    report(f"transfer size of {name} ({path}, gzip, {scheme})", size, "KB",
                           f"<= {limit} KB" if limit else "", size <= limit if limit else None, spread(sizes, "{:.0f}"))
                    report(f"size of {name} uncompressed ({path}, {scheme})", whole, "KB",
                           f"<= {limit} KB" if limit else "", whole <= limit if limit else None, spread(plain, "{:.0f}"))
                # the floor of these times on this machine, in this run: a page with no chart
                # through the same link and CPU, timed as the charts are, to its heading
                floors = []
                for _ in range(ROUNDS):
                    page, _ = fresh_page(True, scheme)
                    page.goto(base + FLOOR_PAGE, wait_until="commit")
                    page.wait_for_selector("main h1", timeout=60000)
                    floors.append(page.evaluate("performance.now()") / 1000)
                    page.close()
                floor_s = statistics.median(floors)
                for name, path, _ in pages:
                    times = []
                    for _ in range(ROUNDS):
                        page, _ = fresh_page(True, scheme)
                        page.goto(base + path, wait_until="commit")
                        page.wait_for_selector("figure.chart .chart-view svg", timeout=60000)
                        times.append(page.evaluate("performance.now()") / 1000)  # since this navigation began
                        page.close()
                    first = statistics.median(times)
                    report(f"first chart of {name} on a slow link (1.6 Mbit/s, 150 ms, CPU / {SLOW_CPU}, {scheme})",
                           first, "s", "<= 1.5 s", first <= 1.5,
                           f"{spread(times)} floor {floor_s:.2f} s ({FLOOR_PAGE}, no chart, to its heading)")
            browser.close()
    finally:
        server.shutdown()


# The disk the scale series holds at its peak, per result: PERF_SCALES=1000,10000 took 15.2 GB more
# of the temporary folder's filesystem (sampled every 2 s), 1.38 MB for each of its 11,000 results
# (the largest scale's three roots, and the scale before it, kept until the largest is done).
DISK_PER_RESULT = 1.4e6


def disk_short() -> str:
    """Why the scale series would run out of disk, or '' when it fits (a full disk had stopped a
    run part-way, with a worker's traceback)."""
    need = DISK_PER_RESULT * sum(sorted(SCALES)[-2:])
    folder = tempfile.gettempdir()
    free = shutil.disk_usage(folder).free
    if free >= need:
        return ""
    return (f"perf: PERF_SCALES={','.join(map(str, SCALES))} needs about {need / 1e9:.0f} GB free in "
            f"{folder}, which has {free / 1e9:.1f} GB (set TMPDIR to a larger filesystem or fewer scales)")


def main() -> int:
    if os.geteuid() != 0:
        print("perf: needs root for loop devices (the runner figures)", file=sys.stderr)
        return 1
    short = disk_short() if not ONLY or "scale" in ONLY else ""
    if short:
        print(short, file=sys.stderr)
        return 1
    started = time.monotonic()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so the temporary folder is removed (13 GB at 10,000 results)
    print(f"fsatlas perf on {os.cpu_count()} cores; medians of {ROUNDS} rounds with (min–max)")
    in_use = len(compiled.in_use())  # every figure below depends on it (FSATLAS_PURE=1: none)
    report("hot modules compiled and in use (fsatlas/compiled.py)", f"{in_use} of {len(compiled.MODULES)}", "",
           "all (make setup)", in_use == len(compiled.MODULES))
    with tempfile.TemporaryDirectory(prefix="fsatlas-perf-") as work:
        part = lambda name: not ONLY or name in ONLY  # noqa: E731
        if part("bounds"):
            validate_bounds(Path(work))
            hostile_bounds(Path(work))
            hostile_set(Path(work))
            index_share(Path(work))
        if part("quick") or part("scale"):
            shape = quick_matrix(Path(work))
        if part("fio"):
            versus_bare_fio()
        if part("aa") or part("aa-across"):
            aa_comparison(Path(work))
        if part("aa") or part("aa-within"):
            within_run_aa(Path(work))
        if part("report"):
            report_timing(Path(work))
        if part("scale"):
            SHAPE["text"] = perf_shape.describe(shape)
            biggest = scale_series(Path(work), shape)
            heaviest_page(biggest / "public")
            explorer_timing(biggest / "public", SCALES[-1])  # the last scale built is the one kept
            SHAPE["text"] = ""
        if part("probes"):
            probes(Path(work))
        if part("pages"):
            page_weight(Path(work))
    out = REPO / "build" / "perf.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps({"rows": rows, "seconds": round(time.monotonic() - started)}, indent=1))
    print(f"wrote {out} in {(time.monotonic() - started) / 60:.1f} min")
    return 0


if __name__ == "__main__":
    sys.exit(main())
