"""make screenshots: every page kind of the built site (public/) in headless Chromium at 1280
and 375 px, as full-page PNGs in build/screenshots/ (not committed), for a reviewer to look at."""
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "site"))
import sitebuild  # noqa: E402

PAGES = {"home": "/", "explorer": "/explorer/", "compare": "/compare/?a=ext4&b=xfs", "features": "/features/",
         "guide": "/guides/journaling/", "article": "/articles/rerunning-the-seed-tests/", "history": "/history/",
         "filesystem": "/filesystems/btrfs/", "results": "/results/", "corrections": "/corrections/",
         "methodology": "/methodology/", "contribute": "/contribute/"}
WIDTHS = (1280, 375)


def main() -> int:
    from playwright.sync_api import sync_playwright
    public = REPO / "public"
    if not (public / "index.html").is_file():
        print("screenshots: build the site first (make site)", file=sys.stderr)
        return 1
    newest = sorted((public / "results").glob("*/index.html"))
    pages = dict(PAGES, result=f"/results/{newest[-1].parent.name}/") if newest else PAGES
    out = REPO / "build" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    server = sitebuild.serve(public)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=sitebuild.CHROMIUM, args=sitebuild.CHROMIUM_ARGS)
        for width in WIDTHS:
            context = browser.new_context(viewport={"width": width, "height": 900})
            page = context.new_page()
            for name, path in pages.items():
                page.goto(base + path)
                page.wait_for_load_state("networkidle")
                target = out / f"{name}-{width}.png"
                page.screenshot(path=str(target), full_page=True)
                print(target.relative_to(REPO))
            context.close()
        browser.close()
    server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
