"""Publishing: search, chart export, feeds, dark colours, print, phone width and an axe-core
accessibility check, in headless Chromium against the real built site."""
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from sitebuild import FIXTURES, REPO

pytestmark = [pytest.mark.site, pytest.mark.browser]
AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"


@pytest.mark.parametrize("query", ["writeback", "data%3Dwriteback", "Writeback"])
def test_search_ranks_the_page_titled_with_the_word_first(page, site_url, query):
    page.goto(site_url + "/search/?q=" + query)
    page.wait_for_function("document.getElementById('search').dataset.searched", timeout=20000)
    items = page.eval_on_selector_all(".search-results li", """lis => lis.map(li => [
        li.querySelector('a').getAttribute('href'), li.querySelector('a').textContent,
        li.querySelector('.search-section').textContent])""")
    assert len(items) > 1, items  # other pages mention it too, and come after
    assert items[0][0].rstrip("/").endswith("/guides/journaling"), items
    assert "guides" in items[0][2].lower()  # each entry names its section
    titled = [i for i, (_, title, _) in enumerate(items) if "writeback" in title.lower()]
    assert titled == list(range(len(titled)))  # every page titled with it before those merely mentioning it
    assert page.errors == []


def test_header_search_box_leads_to_the_search_page(page, site_url):
    page.goto(site_url + "/")
    page.fill("#site-search-q", "xfs")
    page.press("#site-search-q", "Enter")
    page.wait_for_function("document.getElementById('search') && document.getElementById('search').dataset.searched")
    assert page.locator(".search-results a").count() > 0


def test_chart_exports_svg_and_png_with_caption_source_and_version(page, site_url, tmp_path):
    page.goto(site_url + "/results/")
    figure = page.locator("figure[data-chart=throughput]").first
    page.wait_for_selector("figure[data-chart=throughput].chart-drawn")
    caption = figure.get_attribute("data-caption")
    with page.expect_download() as svg_download:
        figure.locator("button", has_text="Save as SVG").click()
    svg = Path(svg_download.value.path()).read_text()
    assert svg.startswith("<svg") and caption.split(",")[0] in svg and "fsatlas 0.1.0" in svg and "Source:" in svg
    # the image draws the rows of the table beside it: one bar per measured throughput cell
    bars = sum(group.split("</g>")[0].count("<path") for group in svg.split('class="mark-rect role-mark')[1:])
    measured = page.eval_on_selector_all("figure[data-chart=throughput] + table tbody tr",
                                         "rows => { const heads = [...rows[0].closest('table').querySelectorAll('thead th')]"
                                         ".map(th => th.textContent); const at = heads.indexOf('Status');"
                                         " return rows.filter(r => (r.children[at]?.textContent || '').startsWith('ok')).length; }")
    assert bars == measured > 0
    with page.expect_download() as png_download:
        figure.locator("button", has_text="Save as PNG").click()
    png = Path(png_download.value.path()).read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000
    width = int.from_bytes(png[16:20], "big")
    assert width >= 3 * 300  # three times the screen size, for print
    assert page.errors == []


def test_feed_has_one_item_per_result_file(site_root):
    channel = ET.parse(site_root / "public" / "results" / "index.xml").getroot().find("channel")
    links = [item.findtext("link") for item in channel.findall("item")]
    ids = sorted(p.stem for p in (FIXTURES / "results").glob("*.json"))
    assert sorted(link.rstrip("/").rsplit("/", 1)[1] for link in links) == ids
    assert all(item.findtext("pubDate") and item.findtext("description") for item in channel.findall("item"))
    assert (site_root / "public" / "articles" / "index.xml").is_file()
    assert 'type="application/rss+xml"' in (site_root / "public" / "results" / "index.html").read_text()


def test_dark_scheme_follows_the_system(browser, site_url):
    context = browser.new_context(color_scheme="dark")
    page = context.new_page()
    page.goto(site_url + "/")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(21, 23, 27)"
    context.close()


def test_print_hides_navigation_and_controls(page, site_url):
    page.goto(site_url + "/articles/")
    page.emulate_media(media="print")
    assert page.evaluate("getComputedStyle(document.querySelector('.site-header nav')).display") == "none"
    assert page.evaluate("getComputedStyle(document.querySelector('.site-search')).display") == "none"


@pytest.mark.parametrize("path", ["/", "/results/", "/results/fixture-valid/", "/features/", "/filesystems/btrfs/",
                                  "/guides/", "/guides/journaling/", "/explorer/", "/history/", "/articles/",
                                  "/methodology/", "/contribute/", "/corrections/", "/compare/?a=ext4&b=xfs",
                                  "/raw/?result=fixture-valid&member=ext4__-__-__seq-write%2Frep-1.json"])
def test_usable_at_phone_width(browser, site_url, path):
    context = browser.new_context(viewport={"width": 375, "height": 740})
    page = context.new_page()
    page.goto(site_url + path)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    context.close()
    assert overflow <= 1, f"{path} is {overflow}px wider than a phone"


@pytest.mark.parametrize("path", ["/", "/results/", "/results/fixture-valid/", "/features/", "/guides/journaling/",
                                  "/explorer/", "/search/?q=ext4", "/articles/", "/corrections/", "/filesystems/btrfs/",
                                  "/compare/?a=ext4&b=xfs"])
def test_no_serious_accessibility_violations(page, site_url, path):
    page.goto(site_url + path)
    page.wait_for_load_state("networkidle")
    page.add_script_tag(path=str(AXE))
    violations = page.evaluate("async () => (await axe.run()).violations.map(v => ({id: v.id, impact: v.impact, "
                               "nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))")
    serious = [v for v in violations if v["impact"] in ("serious", "critical")]
    assert serious == [], json.dumps(serious, indent=1)


def test_chart_permalink_draws_it_alone(page, site_url):
    page.goto(site_url + "/results/")
    page.wait_for_selector("figure[data-chart=throughput].chart-drawn")
    href = page.get_attribute("figure[data-chart=throughput] .chart-permalink", "href")
    assert "/embed/?page=" in href
    page.goto(site_url + href)
    page.wait_for_selector("#embed figure.chart-drawn")
    assert page.locator("figure[data-chart]").count() == 1
    assert page.locator("#embed figure .mark-rect path").count() > 0 and page.locator("#embed table").count() == 1
    assert page.locator(".site-header").count() == 0  # the chart alone, for an iframe
    assert page.errors == []


CLAIM_CHART = """async f => {
  const s = f.querySelector('svg'), lines = [...s.querySelectorAll('.mark-rule.role-mark line')];
  return {rows: (await (await fetch(f.dataset.rows)).json()).map(r => r.verdict),
          bars: [...s.querySelectorAll('.mark-rect path')].map(p => [p.getAttribute('fill'), p.getAttribute('d')]),
          legend: [...s.querySelectorAll('.role-legend-label text')].map(t => t.textContent),
          symbols: [...s.querySelectorAll('.role-legend-symbol path')].map(p => p.getAttribute('fill')),
          claimed: lines.filter(l => l.getAttribute('stroke-dasharray')).map(l => +l.getAttribute('y2')),
          whiskers: lines.filter(l => !l.getAttribute('stroke-dasharray')).map(l => getComputedStyle(l).stroke)}; }"""


@pytest.mark.parametrize("scheme,ink", [("light", "rgb(34, 34, 34)"), ("dark", "rgb(208, 208, 208)")])
def test_guide_charts_keep_one_colour_a_verdict_and_draw_the_claim_as_a_dashed_line(browser, guides_url, scheme, ink):
    from fsatlas.site.knowledge import VERDICT_WORDS
    spec = json.loads((REPO / "assets" / "charts" / "claim-effect.vl.json").read_text())
    scale = spec["layer"][0]["encoding"]["color"]["scale"]
    colour = dict(zip(scale["domain"], scale["range"]))
    assert set(colour) == set(VERDICT_WORDS) and len(set(colour.values())) == len(colour)
    context = browser.new_context(color_scheme=scheme)
    page = context.new_page()
    seen = 0
    for guide in ("barriers-commit", "journaling"):
        page.goto(f"{guides_url}/guides/{guide}/")
        page.wait_for_selector("figure[data-chart=claim-effect].chart-drawn")
        for figure in page.locator("figure[data-chart=claim-effect]").all():
            chart = figure.evaluate(CLAIM_CHART)
            assert dict(zip(chart["legend"], chart["symbols"])) == colour  # the same legend on every chart
            assert [fill for fill, _ in chart["bars"]] == [colour[v] for v in chart["rows"]]
            heights = [float(d.split("v")[1].split("h")[0]) for _, d in chart["bars"]]
            assert chart["claimed"] == pytest.approx(heights)  # one dashed line a row, across the row
            assert chart["whiskers"] and set(chart["whiskers"]) == {ink}
            seen += 1
    assert seen >= 2
    context.close()


def test_flagged_bars_carry_the_letters_of_the_one_legend_and_panels_have_no_empty_slots(page, site_url):
    page.goto(site_url + "/results/fixture-valid/")
    figure = page.locator("figure[data-chart=throughput]").first
    page.wait_for_selector("figure[data-chart=throughput].chart-drawn")
    chart = figure.evaluate("""f => ({
        rows: JSON.parse(f.querySelector('.chart-data') ? f.querySelector('.chart-data').textContent : '[]'),
        letters: [...f.querySelectorAll('svg .mark-text text')].map(t => t.textContent).filter(t => /^[NCE]+$/.test(t)),
        pale: [...f.querySelectorAll('svg .mark-rect path')].filter(p => Number(p.getAttribute('fill-opacity')) < 1).length,
        outlined: [...f.querySelectorAll('svg .mark-rect path')].every(p => p.getAttribute('stroke') === p.getAttribute('fill')
                                                                       && !p.hasAttribute('opacity')),
        panels: [...f.querySelectorAll('svg .cell > g')].map(c => [...c.querySelectorAll('.role-axis-label text')]
                                                               .map(t => t.textContent).filter(t => !/^[0-9,.]+$/.test(t))),
        legend: f.querySelector('figcaption .flags-legend').textContent})""")
    rows = chart["rows"] or json.loads(page.evaluate(f"fetch('{figure.get_attribute('data-rows')}').then(r => r.text())"))
    measured = [r for r in rows if r["metric"] == "throughput" and r["status"] == "ok"]
    letters = {"noisy": "N", "cached": "C", "emulated": "E"}
    expected = ["".join(letters[f] for f in letters if f in r["flags"]) for r in measured]
    assert sorted(chart["letters"]) == sorted(e for e in expected if e) and chart["pale"] == sum(map(bool, expected)) > 0
    assert chart["outlined"]  # a flagged bar's outline is its full colour (#62 round 7, item 1)
    assert "N noisy" in chart["legend"] and "C cached" in chart["legend"] and "E emulated" in chart["legend"]
    by_workload = {}
    for r in measured:
        by_workload.setdefault(r["workload"], set()).add(r["label"])
    assert sorted(map(sorted, by_workload.values())) == sorted(sorted(p) for p in chart["panels"])  # no empty slots
    assert page.errors == []


def test_guide_captions_name_the_measure_in_words_not_its_id(guides_url):
    """#62 item 9: "Measured change of fsyncs per second", not of fsync_per_s (every guide with a measured claim)."""
    import urllib.request
    from fsatlas.results import metrics
    seen = 0
    for guide in ("barriers-commit", "journaling"):
        html = urllib.request.urlopen(f"{guides_url}/guides/{guide}/").read().decode()
        for said in re.findall(r"Measured change of (.*?) with ", html):
            worded = {m for m in metrics.KNOWN if metrics.label(m) != m}  # throughput is its own words
            assert said not in worded and said in {metrics.label(m) for m in metrics.KNOWN}, said
            seen += 1
    assert seen >= 2
    # every metric a claim names has its words in build.json (the caption's lookup never falls back to the id)
    import yaml
    claimed = {c["metric"] for p in (REPO / "data" / "mount_options").glob("*.yaml")
               for c in (yaml.safe_load(p.read_text()) or {}).get("claims", []) if "metric" in c}
    assert claimed and claimed <= set(metrics.KNOWN) and any(metrics.label(m) != m for m in claimed)
