"""The real site: Hugo build, htmltest over every page, and the chart drawn in Chromium."""
import json

import pytest

from sitebuild import FIXTURES, run_htmltest

pytestmark = pytest.mark.site
RESULT = json.loads((FIXTURES / "results" / "fixture-valid.json").read_text())
OK_THROUGHPUT = [c for c in RESULT["cells"] if c["status"] == "ok" and "throughput" in c["metrics"]]


def test_htmltest_passes_on_every_page(site_root):
    done = run_htmltest(site_root)
    assert done.returncode == 0, done.stdout + done.stderr


def test_results_page_has_chart_table_and_no_cdn(site_root):
    html = (site_root / "public" / "results" / "index.html").read_text()
    assert 'data-chart="throughput"' in html
    assert "vendor/vega-embed.min.js" in html
    assert "cdn" not in html.lower() and "unpkg" not in html.lower()
    # the text fallback holds the same numbers as the chart
    for cell in OK_THROUGHPUT:
        assert f"{cell['metrics']['throughput']['mean'] / 1e6:,.1f}" in html


def test_result_page_shows_system_and_cells(site_root):
    html = (site_root / "public" / "results" / "fixture-valid" / "index.html").read_text()
    assert RESULT["system"]["kernel"] in html and RESULT["system"]["cpu_model"] in html
    for cell in RESULT["cells"]:
        assert cell["key"] in html
    assert "files/results/fixture-valid.json" in html
    assert (site_root / "public" / "files" / "results" / "fixture-valid.json").is_file()


def test_pages_without_charts_load_no_chart_libraries(site_root):
    assert "vega" not in (site_root / "public" / "index.html").read_text()


@pytest.mark.browser
@pytest.mark.parametrize("path", ["/results/", "/results/fixture-valid/"])
def test_chart_draws_a_mark_per_cell_without_errors(page, site_url, path):
    page.goto(site_url + path)
    page.wait_for_selector("figure.chart-drawn, figure.chart-failed", timeout=20000)
    assert page.locator("figure.chart-failed").count() == 0
    bars = page.locator("figure[data-chart=throughput] svg .mark-rect path")
    assert bars.count() == len(OK_THROUGHPUT)
    samples = sum(len(c["metrics"]["throughput"]["samples"]) for c in OK_THROUGHPUT)
    assert page.locator("figure[data-chart=throughput] svg .mark-symbol path").count() == samples
    assert page.errors == []
