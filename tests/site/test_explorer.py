"""The results explorer in headless Chromium: filters, baselines, the URL, tooltips, downloads."""
import csv
import io
import json

import pytest

pytestmark = [pytest.mark.site, pytest.mark.browser]
BARS = "#explorer-chart svg .mark-rect path"


def open_explorer(page, url):
    page.goto(url)
    page.wait_for_function("document.getElementById('explorer').dataset.rendered")
    page.wait_for_selector(BARS)


def rendered(page, action):
    before = page.evaluate("document.getElementById('explorer').dataset.rendered")
    action()
    page.wait_for_function(f"document.getElementById('explorer').dataset.rendered !== '{before}'")


def table_values(page):
    return page.eval_on_selector_all("#explorer-table tbody tr:not(.missing)",
                                     "rows => rows.map(r => [r.children[1].textContent, r.children[4].textContent])")


def test_filter_changes_the_marks(page, explorer_url):
    open_explorer(page, explorer_url + "/explorer/")
    assert page.locator(BARS).count() == 4 * 2  # four filesystems, two workloads, newest result
    rendered(page, lambda: page.locator("input[name=fs][value=btrfs]").uncheck())
    assert page.locator(BARS).count() == 3 * 2
    rendered(page, lambda: page.locator("input[name=workload][value=seq-write]").uncheck())
    assert page.locator(BARS).count() == 3
    assert page.errors == []


def test_baseline_gives_ratios_and_geometric_means(page, explorer_url):
    open_explorer(page, explorer_url + "/explorer/")
    rendered(page, lambda: page.select_option("select[name=mode]", "ratio"))
    rendered(page, lambda: page.select_option("select[name=baseline]", "xfs"))
    values = table_values(page)
    assert {v for fs, v in values if fs == "xfs"} == {"1"}  # three significant digits, trailing zeros dropped
    assert all(float(v) < 1 for fs, v in values if fs in ("ext2", "btrfs"))
    summary = page.locator("#explorer-summary").inner_text()
    assert "Geometric mean" in summary and "xfs on box" in summary
    assert page.errors == []


def test_the_url_holds_the_view_and_back_works(page, browser, explorer_url):
    open_explorer(page, explorer_url + "/explorer/")
    rendered(page, lambda: page.locator("input[name=fs][value=ext2]").uncheck())
    rendered(page, lambda: page.select_option("select[name=mode]", "ratio"))
    url = page.url
    assert "mode=ratio" in url and "ext2" not in url.split("fs=")[1].split("&")[0]
    other = browser.new_page()
    open_explorer(other, url)
    assert other.locator(BARS).count() == page.locator(BARS).count() == 3 * 2
    assert other.eval_on_selector("select[name=mode]", "s => s.value") == "ratio"
    assert not other.is_checked("input[name=fs][value=ext2]")
    other.close()
    rendered(page, lambda: page.go_back())
    assert page.eval_on_selector("select[name=mode]", "s => s.value") == "abs"
    rendered(page, lambda: page.go_back())
    assert page.is_checked("input[name=fs][value=ext2]") and page.locator(BARS).count() == 8
    assert page.errors == []


def test_tooltip_shows_samples_machine_and_the_rerun_command(page, explorer_url):
    open_explorer(page, explorer_url + "/explorer/")
    page.locator(BARS).first.hover()
    details = page.locator("#explorer-details")
    details.locator("code.command").wait_for()
    text = details.inner_text()
    assert "Samples" in text and "box-" in text and "kernel" in text
    assert "fsatlas run --profile" in text and "--cell '" in text
    assert details.locator("a[href$='.json']").count() == 1
    assert page.errors == []


def test_download_csv_and_json_of_the_view(page, explorer_url):
    open_explorer(page, explorer_url + "/explorer/")
    with page.expect_download() as d:
        page.click("[data-download=csv]")
    rows = list(csv.DictReader(io.StringIO(open(d.value.path()).read())))
    assert len(rows) == 8 and {r["filesystem"] for r in rows} == {"ext2", "ext4", "xfs", "btrfs"}
    assert all(float(r["mean"]) > 0 for r in rows)
    with page.expect_download() as d:
        page.click("[data-download=json]")
    assert len(json.loads(open(d.value.path()).read())["rows"]) == 8
    assert page.errors == []


def test_skipped_cells_are_listed_not_drawn(page, explorer_url):
    open_explorer(page, explorer_url + "/explorer/")
    missing = page.locator("#explorer-table tr.missing")
    assert missing.count() == 1 and "skipped" in missing.inner_text()


def test_explorer_with_a_thousand_result_files(page, big_site_url):
    open_explorer(page, big_site_url + "/explorer/")
    assert page.locator("input[name=results]").count() == 1000
    assert page.locator(BARS).count() == 8
    rendered(page, lambda: page.locator("input[name=results]").nth(10).check())
    assert page.locator(BARS).count() == 16
    assert page.errors == []


def test_on_a_phone_the_small_multiples_reflow_to_one_column(page, explorer_url):
    page.set_viewport_size({"width": 375, "height": 800})
    open_explorer(page, explorer_url + "/explorer/")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1  # the page itself never scrolls sideways
    chart = page.locator("#explorer-chart svg").first.bounding_box()
    assert chart["width"] <= 375
    assert page.errors == []
