"""Builds the real site with real Hugo from fixture data in a temporary copy of the sources."""
import datetime as dt
import functools
import html
import http.server
import json
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "runner" / "tests" / "fixtures"
SITE_SOURCES = ["config.toml", "content", "layouts", "assets", "static", ".htmltest.yml"]
CURATED_DATA = ["sources.yaml", "feature_columns.yaml", "corrections.yaml", "kernel_history.yaml", "features", "mount_options", "history", "probes"]
SAMPLES = "build/static/downloads/fsatlas-samples.parquet"  # the Makefile's $(SAMPLES)
SAMPLES_CSV = "build/static/downloads/fsatlas-samples.csv"  # and $(SAMPLES_CSV)
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def build_site(root: Path, results: Path, articles: dict | None = None) -> Path:
    """Copies the site sources to root, aggregates `results`, builds the site and its search index;
    articles: more content/articles/<name> files, name -> text."""
    (root / "data").mkdir(parents=True, exist_ok=True)
    for name in SITE_SOURCES:
        src = REPO / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, root / name)
    for name in CURATED_DATA:
        src = REPO / "data" / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, root / "data" / name)
    for name, text in (articles or {}).items():
        (root / "content" / "articles" / name).write_text(text)
    shutil.copytree(results, root / "data" / "results")
    if (results.parent / "raw").is_dir():
        shutil.copytree(results.parent / "raw", root / "data" / "raw")
    fsatlas("export", root / "data" / "results", "--out", root / SAMPLES)  # as make site does
    fsatlas("export", root / "data" / "results", "--format", "csv", "--out", root / SAMPLES_CSV)
    aggregate_and_build(root)
    subprocess.run([REPO / "node_modules" / ".bin" / "pagefind", "--site", root / "public", "--silent"], check=True)
    return root / "public"


def fsatlas(*args, cwd: Path | None = None, check: bool = True, timeout: float | None = None) -> subprocess.CompletedProcess:
    """The fsatlas command line, as make runs it."""
    return subprocess.run([REPO / ".venv" / "bin" / "python", "-m", "fsatlas.cli", *map(str, args)],
                          cwd=cwd, capture_output=True, text=True, check=check, timeout=timeout)


def aggregate_and_build(root: Path, *site_args) -> str:
    """`fsatlas aggregate` then `fsatlas site` into root/public, as make site does; their output."""
    done = fsatlas("aggregate", "--data", root / "data", "--content", root / "build" / "content", cwd=root)
    built = fsatlas("site", "--root", root, "--destination", "public", *site_args, cwd=root)
    return done.stdout + built.stdout


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class _QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request, address):  # a page closed mid-download: nothing to report
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, address)


def serve(public: Path, handler=_QuietHandler) -> http.server.ThreadingHTTPServer:
    """A local HTTP server for a built site, in a thread (shutdown() ends it); handler: a
    SimpleHTTPRequestHandler subclass (perf's serves text gzipped)."""
    server = _QuietServer(("127.0.0.1", 0), functools.partial(handler, directory=str(public)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def run_htmltest(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run([REPO / ".tools" / "bin" / "htmltest", "--conf", ".htmltest.yml"],
                          cwd=root, capture_output=True, text=True)


# Synthetic results are dated within the twelve hours after the earliest date a result may carry,
# in an order unlike their ids (as contributions arrive), the same date every 168 results (ties).
CREATED_FROM = dt.datetime(2026, 11, 23, tzinfo=dt.timezone.utc)
# fio's own times in a report (seconds, and milliseconds), which validate bounds a run's baseline by,
# and its local time (ctime), which validate holds to the same second (importers.fio.check_clocks)
FIO_TIMES = re.compile(rb'("timestamp(_ms)?"\s*:\s*)(\d+)')
FIO_LOCAL_TIME = re.compile(rb'("time"\s*:\s*")([^"]*)"')


def fio_times_moved(data: bytes, seconds: int) -> bytes:
    """data (a bundle's tar) with every time fio wrote in its reports moved by `seconds`, each
    the same number of characters (a tar member keeps its size)."""
    def moved(m: re.Match) -> bytes:
        text = str(int(m[3]) + seconds * (1000 if m[2] else 1)).encode()
        assert len(text) == len(m[3]), f"fio's time {m[3]!r} moved by {seconds} s changes its length"
        return m[1] + text

    def moved_local(m: re.Match) -> bytes:
        from testutil import ctime_later
        text = ctime_later(m[2].decode(), seconds).encode()
        assert len(text) == len(m[2]), f"fio's time {m[2]!r} moved by {seconds} s changes its length"
        return m[1] + text + b'"'
    return FIO_LOCAL_TIME.sub(moved_local, FIO_TIMES.sub(moved, data))


def synthetic_results(folder: Path, count: int, filesystems=("ext2", "ext4", "xfs", "btrfs"),
                      workloads=("seq-write", "rand-read-4k"), seed: int = 1, template: Path | None = None) -> Path:
    """Writes `count` valid result files and their raw bundles into folder/results and
    folder/raw, with seeded throughput: a fixture for the explorer's behaviour and scale, never
    data to publish.

    By default they are made from the committed fixture, its two measured cells spread over
    `filesystems` x `workloads` with throughput only. Given `template` (a result file with its
    raw bundle in the raw/ folder beside its own, such as a real quick result), each is shaped
    like it: the same cells with every metric and raw file.

    Each cell's throughput is its template's scaled by one of LEVELS factors. The raw files of
    a (cell, level) are made once, as tar blocks; each result's bundle is those blocks joined
    and compressed (gzip level 6, as fsatlas writes bundles): 7 ms a quick-shaped result.
    The template is read in the read form and every file written in the stored form of the
    current schema version (resultfile.readable, resultfile.stored_cell), whatever its version."""
    import gzip
    import json
    import random
    import tarfile

    sys.path[:0] = [str(REPO / "runner"), str(REPO / "runner" / "tests")]
    from fsatlas.results import bundle, flags, resultfile, stats, validation
    from testutil import own_folders

    rng = random.Random(seed)
    source = Path(template or FIXTURES / "results" / "fixture-valid.json")
    base = resultfile.readable(json.loads(source.read_text()))
    # the read form's target: its baseline summaries, which flags.derive judges a cell by (the
    # stored form keeps samples only; judged by it, every cell was baseline-unknown)
    target = base["target"]
    template_raw = bundle.read(str(source.parent.parent), base["id"])
    if template:
        plan = [(c["key"], c, list(c["metrics"])) for c in base["cells"] if c["status"] == "ok"]
    else:
        kinds = {c["workload"]: c for c in base["cells"] if c["status"] == "ok"}
        plan = [(f"{fs}|-|-|{wl}", kinds["seq-write" if wl == "seq-write" else "rand-read-4k"], ["throughput"])
                for fs in filesystems for wl in workloads]
    made = {}

    def blocks(name: str, data: bytes) -> bytes:
        info = tarfile.TarInfo(name)
        info.size, info.mode = len(data), 0o644
        return info.tobuf(tarfile.PAX_FORMAT) + data + b"\0" * (-len(data) % tarfile.BLOCKSIZE)

    def cell_at(key: str, kind: dict, metrics: list, level: int) -> tuple:
        """(the JSON of cell `key` with its throughput at one level, with {RID} in place of the
        result id; its raw files as tar blocks); a cell with no fio throughput (another kind of
        workload) is copied as it is."""
        varies = "throughput" in kind["metrics"] and "rw" in kind["parameters"]
        level = level if varies else 0
        if (key, level) in made:
            return made[key, level]
        fs, wl = key.split("|")[0], key.split("|")[3]
        scale = {"ext2": 0.6, "ext4": 1.0, "xfs": 1.1, "btrfs": 0.5}.get(fs, 0.8) * (0.9 + 0.2 * level / LEVELS)
        cell = {**kind, "key": key, "filesystem": fs, "workload": wl, "raw": [],
                "metrics": {name: kind["metrics"][name] for name in metrics}}
        side = "write" if "write" in kind["parameters"].get("rw", "") else "read"
        raws = [template_raw[bundle.member_of(base["id"], reference)].decode() for reference in kind["raw"]]
        if varies:  # fio's count of bytes scaled, and its rate computed as fio does (importers/fio.check_sides)
            raws = [json.loads(text) for text in raws]
            for raw in raws:
                counts = raw["jobs"][0][side]
                counts["io_bytes"] = round(counts["io_bytes"] * scale)
                counts["bw_bytes"] = 1000 * counts["io_bytes"] // counts["runtime"]
                counts.update({k: counts[of] >> 10 for k, of in (("io_kbytes", "io_bytes"), ("bw", "bw_bytes")) if k in counts})
            samples = [raw["jobs"][0][side]["bw_bytes"] for raw in raws]
            cell["metrics"]["throughput"] = stats.summarize(samples, "bytes/s", "higher")
            # the host's contention per repetition, different at each level (the explorer shows it per cell)
            cell["host"] = [{"steal_pct": 0.0, "iowait_pct": round(level / 10 + rep, 2), "others_cpu_s": round(level / 100, 3),
                             "load1": 1.0} for rep in range(len(samples))]
        if varies:  # the flags its new samples and contention give, as `fsatlas migrate` stores them
            cell["flags"] = flags.derive(cell, target)
        tar = b""
        for rep, reference in enumerate(kind["raw"]):
            text = raws[rep]
            member = f"{resultfile.raw_dir_name(key)}/{Path(reference).name}"
            cell["raw"].append(f"raw/{{RID}}/{member}")
            if varies:
                text = json.dumps(text)
                assert validation.recompute(kind, text, reference)[0]["throughput"] == samples[rep], \
                    f"{reference}: throughput is not its bw_bytes"
            tar += blocks(member, text.encode())
        made[key, level] = json.dumps(resultfile.stored_cell(cell, "{RID}")), tar
        return made[key, level]

    (folder / "results").mkdir(parents=True, exist_ok=True)
    (folder / "raw").mkdir(parents=True, exist_ok=True)
    others = [json.dumps(resultfile.stored_cell(c, "{RID}")) for c in base["cells"] if c["status"] != "ok"]
    base = resultfile.stored({**base, "cells": []})
    # the raw device's reports, which `validate` recomputes the template's target.baseline from
    baseline = b"".join(blocks(name, data) for name, data in sorted(template_raw.items())
                        if name.split("/")[0] in bundle.BASELINE_FOLDERS)
    template_created = dt.datetime.fromisoformat(base["created"].replace("Z", "+00:00"))
    for i in range(count):
        rid = f"synthetic-{i:05d}"
        created = CREATED_FROM + dt.timedelta(seconds=(i * 37 % 168) * 257)
        head = {**base, "id": rid, "created": created.strftime("%Y-%m-%dT%H:%M:%SZ"),
                "system": {**base["system"], "machine": f"box-{i % 50:02d}"}}
        del head["cells"]
        cells = [cell_at(*step, rng.randrange(LEVELS)) for step in plan]
        # Each cell's JSON is made once and spliced in: dumping each whole result took 10 ms.
        text = json.dumps(head)[:-1] + ', "cells": [' + ", ".join([c for c, _ in cells] + others) + "]}"
        (folder / "results" / f"{rid}.json").write_text(text.replace("{RID}", rid))
        # fio's reports written when this run ran: its baseline before its first repetition
        tar = fio_times_moved(b"".join(t for _, t in cells) + baseline, round((created - template_created).total_seconds()))
        tar = own_folders(tar, rid)  # its own folders: runs sharing one are one run (validation.run_folder_conflicts)
        tar += b"\0" * (2 * tarfile.BLOCKSIZE)
        with open(folder / "raw" / f"{rid}{bundle.SUFFIX}", "wb") as f, \
                gzip.GzipFile(filename="", mode="wb", fileobj=f, mtime=0, compresslevel=6) as zipped:
            zipped.write(tar)
    return folder / "results"


LEVELS = 64  # throughput levels per synthetic cell


# The sentence of a result page on the other runs of its machine and profile (#62), read and
# counted by hand, for the tests of the rule: it says how many, and shows only where there are.
def other_runs_said(html: str) -> int:
    """How many other runs of its machine and profile a result page says there are (0: no sentence)."""
    said = re.findall(r'<p id="other-runs">This machine \(.*?\) and profile \(.*?\) have ([\d,]+) other (runs?): '
                      r'see <a href="[^"]+">the list of their runs</a>\.</p>', html, re.S)
    alone = html.count('<p id="other-runs" hidden></p>')  # a run alone: a place kept for the sentence
    assert len(said) + alone == html.count('id="other-runs"') == 1 and 'data-fsatlas-slot="other-runs"' not in html
    for count, noun in said:
        assert (noun == "run") == (count == "1")
    return int(said[0][0].replace(",", "")) if said else 0


def other_runs_by_hand(results: Path) -> dict:
    """(machine label, profile) -> the ids of their runs, from the result files in `results`."""
    groups: dict[tuple, set] = {}
    for path in results.glob("*.json"):
        doc = json.loads(path.read_text())
        groups.setdefault((doc["system"]["machine"], doc.get("profile", "")), set()).add(doc["id"])
    return groups


def facts_of(page: str) -> dict:
    """A system table's facts, dt -> dd, as text (the links of the dd left out), from a result page's HTML."""
    table = re.search(r'<dl class="facts" id="system-table">(.*?)</dl>', page, re.S)[1]
    plain = lambda part: " ".join(html.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"<a\b.*?</a>", "", part, flags=re.S))).split()).rstrip(" ·")
    return {plain(dt): plain(dd) for dt, dd in re.findall(r"<dt>(.*?)</dt>\s*<dd[^>]*>(.*?)</dd>", table, re.S)}


def saved_runs(svg: str) -> dict:
    """run id -> the words a saved chart (its SVG's text) prints of that run below the chart: the
    lines from the first after its "Source: " line (a long link goes on) that starts "Run ",
    joined with a space where static/js/chart-export.js wrapped them (at a space, or inside a
    word too long for a line), each run's from its "Run <id>: " to the next."""
    lines = [html.unescape(t) for t in re.findall(r"<tspan[^>]*>([^<]*)</tspan>", svg)]
    source = [i for i, line in enumerate(lines) if line.startswith("Source: ")]
    assert len(source) == 1, lines
    rest = lines[source[0] + 1:]
    first = next((i for i, line in enumerate(rest) if line.startswith("Run ")), len(rest))
    parts = re.split(r"(?:^| )Run (\S+): ", " ".join(rest[first:]))
    assert parts[0] == "", parts  # nothing but runs after them
    named = dict(zip(parts[1::2], parts[2::2]))
    assert len(named) == len(parts) // 2, parts  # each run once
    return named


def check_saved_run(words: str, result: dict, facts: dict) -> None:
    """words: what a saved chart prints of a run; result: its result file (as published); facts:
    its result page's system table (term -> text). The words name its machine as the table does
    ("name (label)", or the label alone) and, from the result file, its CPU and CPU count, its
    memory (GiB to one decimal, as the table), kernel and the storage under the image; for an
    import that records no system, that it was not recorded."""
    system, target = result["system"], result["target"]
    name, _, label = facts["Machine"].split(" · ")[0].partition(" (label ")
    assert (label[:-1] if label else name) == system["machine"], (facts, system)
    assert words.startswith(f"{name} ({label[:-1]}); " if label else f"{name}; "), (words, facts)
    if system.get("recorded") == "none":
        assert "system not recorded" in words and "System" in facts, words
    else:
        assert f"{system['cpu_model']} ({system['cpu_count']} CPUs)" in words, words
        memory = f"{system['memory_bytes'] / 2**30:,.1f} GiB"
        assert memory == facts["Memory"] and f", {memory}," in words, (words, facts)
        assert facts["Kernel"] == system["kernel"] and f"Linux {system['kernel']}" in words, (words, facts)
        assert ", not recorded" not in words, words  # a fact not recorded is named (PTS: virtualization)
    for fact in ("device", "backing_filesystem", "backing_mount_options", "backing_device"):
        if target.get(fact):  # a word too long for a line is cut into two: read without spaces
            assert str(target[fact]).replace(" ", "") in words.replace(" ", ""), (fact, words)
