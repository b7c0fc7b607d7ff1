"""Builds the real site with real Hugo from fixture data in a temporary copy of the sources."""
import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "runner" / "tests" / "fixtures"
SITE_SOURCES = ["config.toml", "content", "layouts", "assets", "static", ".htmltest.yml"]
CURATED_DATA = ["sources.yaml", "feature_columns.yaml", "features", "mount_options", "history"]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def build_site(root: Path, results: Path) -> Path:
    """Copies the site sources to root, aggregates `results`, runs Hugo and htmltest."""
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
    python = REPO / ".venv" / "bin" / "python"
    subprocess.run([python, "-m", "fsatlas.cli", "aggregate", "--data", root / "data",
                    "--content", root / "build" / "content"], check=True)
    subprocess.run(["hugo", "--quiet", "--source", root, "--destination", root / "public"], check=True)
    return root / "public"


def run_htmltest(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run([REPO / ".tools" / "bin" / "htmltest", "--conf", ".htmltest.yml"],
                          cwd=root, capture_output=True, text=True)
