"""The fixture every test folder shares: one headless Chromium a worker. Playwright's sync API
allows one session a thread, so a test that started its own beside this one failed ("Sync API
inside the asyncio loop") whenever a site test had opened it earlier in the same worker."""
import pytest

from sitebuild import CHROMIUM, CHROMIUM_ARGS


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
