"""Fixtures for the site tests: a built site, a local server for it, and a browser page."""
import shutil

import pytest

from sitebuild import CHROMIUM, CHROMIUM_ARGS, FIXTURES, REPO, build_site, serve


@pytest.fixture(scope="session")
def site_root(tmp_path_factory):
    root = tmp_path_factory.mktemp("site")
    build_site(root, FIXTURES / "results")
    return root


def _served(public):
    """The address of a local server for a built site's public folder, while the fixture lasts."""
    server = serve(public)
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture(scope="session")
def site_url(site_root):
    yield from _served(site_root / "public")


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


def _synthetic_site(tmp_path_factory, name, count):
    from sitebuild import synthetic_results
    root = tmp_path_factory.mktemp(f"{name}-site")
    build_site(root, synthetic_results(tmp_path_factory.mktemp(f"{name}-data"), count))
    server = serve(root / "public")
    return server, f"http://127.0.0.1:{server.server_address[1]}"


@pytest.fixture(scope="session")
def explorer_url(tmp_path_factory):
    """A site built from a few synthetic result files with four filesystems, for the explorer."""
    server, url = _synthetic_site(tmp_path_factory, "explorer", 3)
    yield url
    server.shutdown()


@pytest.fixture(scope="session")
def big_site_url(tmp_path_factory):
    """The site built from 1,000 synthetic result files (the explorer's scale)."""
    server, url = _synthetic_site(tmp_path_factory, "big", 1000)
    yield url
    server.shutdown()


@pytest.fixture(scope="session")
def committed_root(tmp_path_factory):
    """The site built from every committed result file (data/results), as make site builds it."""
    root = tmp_path_factory.mktemp("committed-site")
    build_site(root, REPO / "data" / "results")
    return root


@pytest.fixture(scope="session")
def committed_url(committed_root):
    yield from _served(committed_root / "public")


DURABILITY_RUN = "20261124T192938Z-fsatlas-ci-vm-standard"  # committed: the guides' claims measured


@pytest.fixture(scope="session")
def guides_url(tmp_path_factory):
    """The site built from the committed durability run, whose cells answer guide claims."""
    from sitebuild import REPO
    data = tmp_path_factory.mktemp("guides-data")
    (data / "results").mkdir()
    (data / "raw").mkdir()
    shutil.copy(REPO / "data" / "results" / f"{DURABILITY_RUN}.json", data / "results")
    shutil.copy(REPO / "data" / "raw" / f"{DURABILITY_RUN}.tar.gz", data / "raw")
    root = tmp_path_factory.mktemp("guides-site")
    build_site(root, data / "results")
    server = serve(root / "public")
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
