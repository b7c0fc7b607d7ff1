"""The shape of make perf's synthetic results: a quick result that the code checked out now wrote.

The scale rows copy one quick result 10,000 times, so their figures hold only for results of
its format. The newest quick file in data/results is no such result: a committed one is of
whatever format the runner had when it ran (70 cells and 220 KB on 2026-11-23, 100 cells and
413 KB four days later). The shape is therefore a quick run that perf made itself, kept in
build/perf-shape/<digest>/ under the digest of everything that decides what a result file
holds (the runner's sources, its matrix and workload data, the JSON Schema), and used again
by FAST=1 only while that digest is unchanged and its schema_version is the current one.
"""
import hashlib
import json
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CACHE = REPO / "build" / "perf-shape"
SOURCES = REPO / "runner" / "fsatlas"
SUFFIXES = (".py", ".json", ".yaml", ".yml", ".toml", ".txt", ".fio")


def source_digest(sources: Path = SOURCES) -> str:
    """sha256 over the path and bytes of every file under sources that can change a result's
    shape (code and data, no caches or compiled files), in a fixed order."""
    digest = hashlib.sha256()
    for path in sorted(p for p in sources.rglob("*") if p.is_file() and p.suffix in SUFFIXES
                       and "__pycache__" not in p.parts):
        digest.update(str(path.relative_to(sources)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def folder(digest: str, cache: Path = CACHE) -> Path:
    """Where the quick run of the code with this digest is kept (results/ and raw/ inside)."""
    return cache / digest


def current(schema_version: int, digest: str, cache: Path = CACHE) -> Path | None:
    """The kept quick result written by the code of this digest, in this schema version; None
    when there is none (perf then runs the quick matrix and keeps what it writes)."""
    results = folder(digest, cache) / "results"
    for path in sorted(results.glob("*-quick.json"), reverse=True) if results.is_dir() else []:
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        if data.get("schema_version") == schema_version and data.get("complete", True):
            return path
    return None


def describe(path: Path) -> str:
    """'100 cells, 413 KB (ID)': what every scale row says of the shape it was measured on."""
    data = json.loads(path.read_text())
    return f"{len(data['cells'])} cells, {path.stat().st_size / 1e3:.0f} KB ({data['id']})"
