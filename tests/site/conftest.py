"""Fixtures for the site tests: a built site, a local server for it, and a browser page."""
import functools
import http.server
import threading

import pytest

from sitebuild import CHROMIUM, CHROMIUM_ARGS, FIXTURES, build_site


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
