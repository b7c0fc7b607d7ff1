"""Builds the real site with real Hugo from fixture data in a temporary copy of the sources."""
import functools
import http.server
import shutil
import subprocess
import threading
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "runner" / "tests" / "fixtures"
SITE_SOURCES = ["config.toml", "content", "layouts", "assets", "static", ".htmltest.yml"]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def build_site(root: Path, results: Path) -> Path:
    """Copies the site sources to root, aggregates `results`, runs Hugo and htmltest."""
    for name in SITE_SOURCES:
        src = REPO / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, root / name)
    shutil.copytree(results, root / "data" / "results")
    if (results.parent / "raw").is_dir():
        shutil.copytree(results.parent / "raw", root / "data" / "raw")
    python = REPO / ".venv" / "bin" / "python"
    subprocess.run([python, "-m", "fsatlas.cli", "aggregate", "--data", root / "data",
                    "--pages", root / "build" / "content" / "results"], check=True)
    subprocess.run(["hugo", "--quiet", "--source", root, "--destination", root / "public"], check=True)
    return root / "public"


def run_htmltest(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run([REPO / ".tools" / "bin" / "htmltest", "--conf", ".htmltest.yml"],
                          cwd=root, capture_output=True, text=True)


@pytest.fixture(scope="session")
def site_root(tmp_path_factory):
    root = tmp_path_factory.mktemp("site")
    build_site(root, FIXTURES / "results")
    return root


@pytest.fixture(scope="session")
def site_url(site_root):
    handler = functools.partial(_QuietHandler, directory=str(site_root / "public"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    """A page that records console errors and uncaught exceptions in page.errors."""
    context = browser.new_context()
    pg = context.new_page()
    pg.errors = []
    pg.on("console", lambda m: m.type == "error" and pg.errors.append(m.text))
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    yield pg
    context.close()
