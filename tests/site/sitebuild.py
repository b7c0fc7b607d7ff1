"""Builds the real site with real Hugo from fixture data in a temporary copy of the sources."""
import functools
import http.server
import shutil
import subprocess
import threading
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "runner" / "tests" / "fixtures"
SITE_SOURCES = ["config.toml", "content", "layouts", "assets", "static", ".htmltest.yml"]
CURATED_DATA = ["sources.yaml", "feature_columns.yaml", "features", "mount_options", "history"]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def build_site(root: Path, results: Path) -> Path:
    """Copies the site sources to root, aggregates `results`, builds the site and its search index."""
    (root / "data").mkdir(parents=True, exist_ok=True)
    for name in SITE_SOURCES:
        src = REPO / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, root / name)
    for name in CURATED_DATA:
        src = REPO / "data" / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, root / "data" / name)
    shutil.copytree(results, root / "data" / "results")
    if (results.parent / "raw").is_dir():
        shutil.copytree(results.parent / "raw", root / "data" / "raw")
    aggregate_and_build(root)
    subprocess.run([REPO / "node_modules" / ".bin" / "pagefind", "--site", root / "public", "--silent"], check=True)
    return root / "public"


def fsatlas(*args, cwd: Path | None = None, check: bool = True) -> subprocess.CompletedProcess:
    """The fsatlas command line, as make runs it."""
    return subprocess.run([REPO / ".venv" / "bin" / "python", "-m", "fsatlas.cli", *map(str, args)],
                          cwd=cwd, capture_output=True, text=True, check=check)


def aggregate_and_build(root: Path, *site_args) -> str:
    """`fsatlas aggregate` then `fsatlas site` into root/public, as make site does; their output."""
    done = fsatlas("aggregate", "--data", root / "data", "--content", root / "build" / "content", cwd=root)
    built = fsatlas("site", "--root", root, "--destination", "public", *site_args, cwd=root)
    return done.stdout + built.stdout


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(public: Path) -> http.server.ThreadingHTTPServer:
    """A local HTTP server for a built site, in a thread (shutdown() ends it)."""
    handler = functools.partial(_QuietHandler, directory=str(public))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def run_htmltest(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run([REPO / ".tools" / "bin" / "htmltest", "--conf", ".htmltest.yml"],
                          cwd=root, capture_output=True, text=True)


def synthetic_results(folder: Path, count: int, filesystems=("ext2", "ext4", "xfs", "btrfs"),
                      workloads=("seq-write", "rand-read-4k"), seed: int = 1) -> Path:
    """Writes `count` valid result files (and raw files) into folder/results and folder/raw, made
    from the committed fixture with seeded values: a test fixture for the explorer's behaviour and
    scale, never data to publish."""
    import copy
    import json
    import random
    import sys

    sys.path.insert(0, str(REPO / "runner"))
    from fsatlas import stats

    rng = random.Random(seed)
    template = json.loads((FIXTURES / "results" / "fixture-valid.json").read_text())
    cell_templates = {c["workload"]: c for c in template["cells"] if c["status"] == "ok"}
    # each raw file is its fixture with one figure changed: serialize once, put the figure in
    raw_text = {}
    for wl, cell in cell_templates.items():
        raw = json.loads((FIXTURES / cell["raw"][0]).read_text())
        side = "write" if "write" in cell["parameters"]["rw"] else "read"
        raw["jobs"][0][side]["bw_bytes"] = "@BW@"
        raw_text[wl] = json.dumps(raw)
    (folder / "results").mkdir(parents=True, exist_ok=True)
    for i in range(count):
        rid = f"synthetic-{i:05d}"
        result = copy.deepcopy(template)
        result.update(id=rid, created=f"2025-{1 + i % 12:02d}-{1 + i % 28:02d}T{i % 24:02d}:00:00Z")
        result["system"]["machine"] = f"box-{i % 50:02d}"
        cells = []
        for fs in filesystems:
            for wl in workloads:
                kind = "seq-write" if wl == "seq-write" else "rand-read-4k"
                cell = copy.deepcopy(cell_templates[kind])
                cell.update(key=f"{fs}|-|-|{wl}", filesystem=fs, workload=wl, raw=[])
                scale = {"ext2": 0.6, "ext4": 1.0, "xfs": 1.1, "btrfs": 0.5}.get(fs, 0.8) * rng.uniform(0.9, 1.1)
                samples = [round(m * scale) for m in cell["metrics"]["throughput"]["samples"]]
                cell["metrics"] = {"throughput": stats.summarize(samples, "bytes/s", "higher")}
                (folder / "raw" / rid / f"{fs}__-__-__{wl}").mkdir(parents=True, exist_ok=True)
                for rep, value in enumerate(samples, 1):
                    path = f"raw/{rid}/{fs}__-__-__{wl}/rep-{rep}.json"
                    (folder / path).write_text(raw_text[kind].replace('"@BW@"', str(value)))
                    cell["raw"].append(path)
                cells.append(cell)
        cells.append(copy.deepcopy(next(c for c in template["cells"] if c["status"] == "skipped")))
        result["cells"] = cells
        (folder / "results" / f"{rid}.json").write_text(json.dumps(result))
    return folder / "results"
