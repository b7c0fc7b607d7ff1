"""The results explorer in headless Chromium: filters, baselines, the URL, tooltips, downloads."""
import csv
import html as html_mod
import io
import json
import re
import urllib.request
from html.parser import HTMLParser

import pytest

from testutil import write_run
from fsatlas.results.resultfile import readable  # a result file in the read form (schema 2 stores no summaries)

pytestmark = [pytest.mark.site, pytest.mark.browser]
BARS = "#explorer-chart svg .mark-rect path"


def open_explorer(page, url):
    """The explorer at url with its interactive chart: the default view's picture drawn at build
    waits for the reader to ask (its Explore button here) before Vega loads."""
    page.goto(url)
    page.wait_for_function("document.getElementById('explorer').dataset.shown")
    if page.locator("#explorer-first").count():
        page.click("#explorer .chart-explore")
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
    assert "Geometric mean" in summary and "xfs on Xeon 2 vCPU, KVM (box-0" in summary  # the machine by its name (round 13)
    # descriptive ratios say they are untested and lead to the page whose rows are tested
    assert "not tested" in summary and "not tested" in page.inner_text("#explorer-caption").lower()
    assert page.locator("#explorer-summary a[href$='/compare/']").count() == 1
    # a mark's details lead to the tested row: the compare page, this pair, this run
    link = page.locator("#explorer-details a[href*='/compare/?']")
    for i in range(page.locator(BARS).count()):  # the baseline's own bars have no such row
        page.locator(BARS).nth(i).hover()
        page.locator("#explorer-details code.command").wait_for()
        if link.count():
            break
    query = dict(q.split("=") for q in link.get_attribute("href").split("?")[1].split("&"))
    assert query["a"] == "xfs" and query["b"] in ("ext2", "ext4", "btrfs") and query["run"].startswith("synthetic-")
    assert query["run"] in page.locator("#explorer-details").inner_text()
    # one figure for one pair of cells (#62 round 10): every bar's details quote the compare page's
    # tested row of that pair, run and workload word for word, read here from the pair's file
    quoted = 0
    for i in range(page.locator(BARS).count()):
        page.locator(BARS).nth(i).hover()
        page.locator("#explorer-details code.command").wait_for()
        text = page.locator("#explorer-details").inner_text()
        fs, cell = text.split("\n")[1].split(":")[0], text.split("\nCell\n")[1].split("\n")[0]
        if fs == "xfs":
            assert "tested on the compare page" not in text  # the baseline's own bar
            continue
        run = text.split(".json")[0].split()[-1]
        pair = json.load(urllib.request.urlopen(f"{explorer_url}/compare/xfs--{fs}.json"))
        row = compare_row(pair, run, cell.split("|")[3], "throughput")
        page.wait_for_function("document.getElementById('explorer-details').textContent.includes('tested on the compare page')")
        said = page.locator("#explorer-details").inner_text().split("tested on the compare page: ")[1].split(" \u00b7 ")[0]
        assert said == f"{fs} / xfs = {row['ratio']}, adjusted p {row['p']}, {row['verdict']}"
        quoted += 1
    assert quoted == page.locator(BARS).count() - 2  # all but xfs's two workloads
    # the figure itself is a change of unit: the whisker is the cell's own interval, and says so
    assert "not an interval of the ratio" in page.inner_text("#explorer-caption")
    assert "The cell's 95 % CI" in page.inner_text("#explorer-table thead")
    assert page.errors == []


class _PairRows(HTMLParser):
    """A compare table's body rows: (data-run, data-key, data-metric) -> the text of its cells."""

    def __init__(self):
        super().__init__()
        self.rows, self.row, self.text = {}, None, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "tr" and "data-key" in attrs:
            self.row = ((attrs.get("data-run"), attrs["data-key"], attrs["data-metric"]), [], [])
        elif tag in ("td", "summary") and self.row:
            self.text = []

    def handle_endtag(self, tag):
        if tag in ("td", "summary") and self.row and self.text is not None:
            self.row[1 if tag == "td" else 2].append("".join(self.text).strip())
            self.text = None if tag == "td" else []
        elif tag == "tr" and self.row:
            self.rows[self.row[0]] = self.row
            self.row = None

    def handle_data(self, data):
        if self.text is not None:
            self.text.append(data)


def compare_row(pair: dict, run: str, key: str, metric: str) -> dict:
    """The compare page's row of one run, workload key and metric, from the pair's file: its own
    table's, else the row naming the run in the table by the site's rule."""
    for table in sorted(pair["runs"], key=lambda t: t["id"] != run):
        parser = _PairRows()
        parser.feed(table["table"])
        own = (None, key, metric) if table["id"] == run else (run, key, metric)
        if own in parser.rows:
            cells, summaries = parser.rows[own][1], parser.rows[own][2]
            return {"ratio": cells[4], "p": cells[5], "verdict": summaries[0]}
    raise AssertionError(f"no row of {run} {key} {metric} in the pair's file")


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
    assert "Samples" in text and "box-" in text
    assert re.search(r"Spread\nRSD \d+(\.\d)? %, 3 repetitions", text), text  # n and RSD of the cell, not undefined
    assert "fsatlas run --profile" in text and "--cell '" in text
    assert details.locator("a[href$='.json']").count() == 1
    # what else the host was doing during that cell's repetitions, worked out from its result file by hand
    result = readable(page.request.get(details.locator("a[href$='.json']").evaluate("a => a.href")).json())
    key = page.evaluate("[...document.querySelectorAll('#explorer-details dt')].find(d => d.textContent === 'Cell')"
                        ".nextElementSibling.textContent")
    host = next(c["host"] for c in result["cells"] if c["key"] == key)
    # the system behind the figure (#62): its name and label, CPU, memory, storage, kernel, hypervisor
    from fsatlas.results import machines
    assert f"Machine\n{machines.name(result)} (label {result['system']['machine']}) · labels that may name the same host\n" in text
    for term, fact in machines.system_facts(result)[1:]:  # the result page's system table (test_explorer_first_view)
        assert f"\n{term}\n{fact}\n" in text
    assert f"Host meanwhile\nsteal 0.0 %, I/O wait {sum(h['iowait_pct'] for h in host) / len(host):.1f} %, " \
           f"other processes {sum(h['others_cpu_s'] for h in host):.2f} s CPU" in text
    assert page.errors == []


def test_download_csv_and_json_of_the_view(page, explorer_url):
    open_explorer(page, explorer_url + "/explorer/")
    with page.expect_download() as d:
        page.click("[data-download=csv]")
    rows = list(csv.DictReader(io.StringIO(open(d.value.path()).read())))
    assert len(rows) == 8 and {r["filesystem"] for r in rows} == {"ext2", "ext4", "xfs", "btrfs"}
    assert all(float(r["mean"]) > 0 for r in rows)
    # each row names its machine as the site does, beside the label (#62, third round, item 4)
    from fsatlas.results import machines
    for rid in {r["result"] for r in rows}:
        with urllib.request.urlopen(f"{explorer_url}/files/results/{rid}.json") as response:
            result = readable(json.loads(response.read()))
        assert {(r["machine"], r["machine_name"]) for r in rows if r["result"] == rid} == {(result["system"]["machine"], machines.name(result))}
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
    # /compare/'s default pair, which each of the 1,000 runs measured (8 bars: 4 filesystems,
    # 2 workloads): the picker's runs and the list under it, fetched from the pair's file since
    # the page's data leaves it out, name every run once, the long list folded under its count
    page.goto(big_site_url + "/compare/?a=ext4&b=xfs")
    page.wait_for_selector("#compare[data-rendered]")
    picked = {v for v in page.locator("#compare-run option").evaluate_all("os => os.map(o => o.value)") if v[0] != "~"}
    listed = page.locator("#compare-also li a").evaluate_all("as => as.map(a => a.textContent)")
    assert len(set(listed)) == len(listed) == 1000 - len(picked) and not picked & set(listed), (len(listed), picked)
    assert page.inner_text("#compare-also summary").startswith(f"Also measured both: {len(listed):,} more runs,")
    assert page.locator("#compare-also").evaluate("d => !d.open")
    assert page.errors == []


def test_on_a_phone_the_small_multiples_reflow_to_one_column(page, explorer_url):
    page.set_viewport_size({"width": 375, "height": 800})
    open_explorer(page, explorer_url + "/explorer/")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1  # the page itself never scrolls sideways
    chart = page.locator("#explorer-chart svg").first.bounding_box()
    assert chart["width"] <= 375
    assert page.errors == []


def test_a_tap_on_a_phone_pins_the_details_with_the_ci_in_view(browser, explorer_url):
    context = browser.new_context(viewport={"width": 375, "height": 700}, has_touch=True, is_mobile=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_explorer(page, explorer_url + "/explorer/")
    page.locator(BARS).first.tap()
    details = page.locator("#explorer-details.pinned")
    details.locator("code.command").wait_for()
    box = details.bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= 700 + 1  # on screen, not below the table
    mean, ci = page.evaluate("""() => { const dts = [...document.querySelectorAll('#explorer-details dt')];
        const dd = name => dts.find(dt => dt.textContent === name).nextElementSibling.textContent;
        return [dd('Mean'), dd('95 % CI')]; }""")
    number = lambda text: float(text.replace(",", ""))
    low, high = (number(x) for x in ci.split()[0].split("–"))
    assert low < number(mean.split()[0]) < high and ci.split()[1] == mean.split()[1]  # same unit
    details.locator("button.details-close").tap()
    assert page.locator("#explorer-details.pinned").count() == 0
    assert errors == []
    context.close()


def test_the_chart_of_the_view_exports_as_svg_and_png_with_its_link(page, explorer_url):
    open_explorer(page, explorer_url + "/explorer/")
    rendered(page, lambda: page.locator("input[name=fs][value=btrfs]").uncheck())
    with page.expect_download() as d:
        page.click("[data-export=SVG]")
    svg = open(d.value.path()).read()
    caption = page.locator("#explorer-caption").inner_text()
    assert svg.startswith("<svg") and caption[:40] in svg and "fs=" in svg.replace("&amp;", "&")  # the view's own link
    bars = sum(group.split("</g>")[0].count("<path") for group in svg.split('class="mark-rect role-mark')[1:])
    assert bars == page.locator(BARS).count() == 3 * 2
    assert "#222" in svg and "#d0d0d0" not in svg  # dark whiskers on the white export
    with page.expect_download() as d:
        page.click("[data-export=PNG]")
    png = open(d.value.path(), "rb").read()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(png[16:20], "big") >= 900
    assert page.errors == []


def test_in_dark_mode_whiskers_and_dots_are_light(browser, explorer_url):
    """Their ink is currentColor in the SVG, and the page's CSS (--chart-ink) makes it light."""
    context = browser.new_context(color_scheme="dark")
    page = context.new_page()
    open_explorer(page, explorer_url + "/explorer/")
    strokes = page.eval_on_selector_all('#explorer-chart svg .mark-rule.role-mark line',
                                        "ls => ls.map(l => [l.getAttribute('stroke'), getComputedStyle(l).stroke])")
    dots = page.eval_on_selector_all("#explorer-chart svg .mark-symbol path",
                                     "ps => ps.map(p => [p.getAttribute('fill'), getComputedStyle(p).fill])")
    assert len(strokes) == page.locator(BARS).count()
    assert set(map(tuple, strokes)) == set(map(tuple, dots)) == {("currentColor", "rgb(208, 208, 208)")}
    context.close()


def test_the_explorer_gives_embed_code_whose_frame_draws_the_view_alone(page, explorer_url):
    open_explorer(page, explorer_url + "/explorer/")
    rendered(page, lambda: page.locator("input[name=fs][value=btrfs]").uncheck())
    page.click("[data-embed-code]")
    code = page.input_value("#explorer-embed-code")
    src = re.search(r'<iframe src="([^"]+)"', code)[1].replace("&amp;", "&")
    assert "embed=1" in src and "fs=" in src and 'title="fsatlas explorer"' in code
    frame = page.context.new_page()
    frame.goto(src)
    frame.wait_for_function("document.getElementById('explorer').dataset.rendered")
    frame.wait_for_selector(BARS)
    assert frame.locator(BARS).count() == 3 * 2  # the same view: btrfs left out
    assert not frame.locator(".site-header").is_visible() and not frame.locator("#explorer-table").is_visible()
    back = frame.get_attribute(".explorer-open", "href")
    assert "embed=1" not in back and "fs=" in back
    assert page.errors == []


@pytest.fixture(scope="module")
def import_site(tmp_path_factory):
    """Two synthetic results, an IOzone import (a public sample: 63 cells outside the matrix) and
    a fio iodepth sweep (three files of one job, imported as one result)."""
    from sitebuild import build_site, serve, synthetic_results, FIXTURES, fsatlas
    data = synthetic_results(tmp_path_factory.mktemp("import-data"), 2)
    fsatlas("import", "iozone", FIXTURES / "samples" / "iozone" / "auto-mode-ramdisk-2010.txt", "--filesystem", "ext4",
            "--redact", "--out", data)
    sweep = sorted((FIXTURES / "samples" / "fio" / "sweep").glob("*.json"))
    fsatlas("import", "fio", *sweep, "--filesystem", "ext4", "--out", data)
    fsatlas("import", "pts", FIXTURES / "samples" / "pts" / "schema-two-systems.xml", "--out", data)
    fsatlas("import", "fio", FIXTURES / "samples" / "fio" / "fio-3.16-superbench-randrw-lat-percentiles.json",
            "--filesystem", "ext4", "--out", data)  # read and write throughput, no "throughput" (#62 round 9)
    (path,) = (data / "results").glob("*import-iozone*.json")
    (swept,) = [p for p in (data / "results").glob("*import-fio*.json") if "superbench" not in p.read_text()]
    (pts, _) = sorted((data / "results").glob("*import-pts*.json"))  # one a system: ext4's first
    root = tmp_path_factory.mktemp("import-site")
    build_site(root, data / "results")
    server = serve(root / "public")
    yield (f"http://127.0.0.1:{server.server_address[1]}", readable(json.loads(path.read_text())),
           readable(json.loads(swept.read_text())), readable(json.loads(pts.read_text())))
    server.shutdown()


def test_an_import_s_cells_are_drawn_from_the_descriptions_in_its_own_chunk(page, import_site):
    url, result, _, _ = import_site
    workloads = sorted({c["workload"] for c in result["cells"]})
    open_explorer(page, f"{url}/explorer/?r={result['id']}&fs=ext4&v=imported&w={','.join(workloads)}")
    index = page.request.get(f"{url}/explorer/data.json").json()
    assert not any("file_size_kib" in k["key"] for k in index["keys"])  # the index never describes them
    shown = page.eval_on_selector_all("#explorer-table tbody tr:not(.missing)", "rows => rows.map(r => r.textContent)")
    assert len(shown) == sum(c["status"] == "ok" and "throughput" in c["metrics"] for c in result["cells"]) == 63
    for cell in result["cells"]:
        dims = cell["key"].split("|")[4]
        assert any(dims in row and cell["workload"] in row for row in shown), dims
    # the filters offer the import's workloads and variant, from the index's facets
    offered = page.eval_on_selector_all("input[name=workload]", "boxes => boxes.map(b => b.value)")
    assert set(workloads) <= set(offered)
    assert "imported" in page.eval_on_selector_all("input[name=variant]", "boxes => boxes.map(b => b.value)")
    page.locator(BARS).first.hover()
    details = page.locator("#explorer-details").inner_text()  # an import: no fsatlas profile re-measures it
    assert "Re-run it\nimported from another tool's output" in details and "fsatlas run" not in details
    assert page.errors == []


def test_an_import_named_alone_shows_its_cells(page, import_site):
    """?r=<an import> and nothing else: its cells (variant "imported") are drawn, as a runner's
    run named alone shows its default variant (0 cells had been drawn)."""
    url, _, swept, pts = import_site
    for result in (swept, pts):
        open_explorer(page, f"{url}/explorer/?r={result['id']}")
        said = page.inner_text("#explorer .explorer-status")
        drawn = int(re.search(r"(\d+) cells? drawn", said).group(1))
        assert drawn == sum(c["status"] == "ok" and "throughput" in c["metrics"] for c in result["cells"]) > 0, said
    # in units of a baseline the import lacks (a runner's "ext4" beside its "ext4 imported"): the
    # caption names the baselines the run does have, counted here from its file, and one of them
    # draws (#62 round 10)
    configs = sorted({c["filesystem"] + ("" if c.get("variant", "defaults") == "defaults" else " " + c["variant"])
                      for c in swept["cells"] if c["status"] == "ok" and "throughput" in c["metrics"]})
    lacking = [o for o in page.eval_on_selector_all("select[name=baseline] option", "os => os.map(o => o.value)")
               if o not in configs]
    page.goto(f"{url}/explorer/?r={swept['id']}&mode=ratio&base={lacking[0]}")
    page.wait_for_function("document.getElementById('explorer').dataset.rendered")
    caption = page.inner_text("#explorer-caption")
    assert f"baseline ({lacking[0]})" in caption and "baselines these runs measured: " in caption, caption
    named = caption.split("baselines these runs measured: ")[1].rstrip(".").split(", ")
    assert named == configs, caption
    before = page.evaluate("document.getElementById('explorer').dataset.rendered")
    page.select_option("select[name=baseline]", named[0])
    page.wait_for_function(f"document.getElementById('explorer').dataset.rendered !== '{before}'")
    page.wait_for_selector(BARS)
    # beside a run that has the baseline, the status names what the import's runs have (round 13)
    other = next(r for r in page.eval_on_selector_all("input[name=results]", "bs => bs.map(b => b.value)") if r != swept["id"])
    page.goto(f"{url}/explorer/?r={swept['id']},{other}&mode=ratio&base={lacking[0]}")
    page.wait_for_function("document.getElementById('explorer').dataset.rendered")
    said = page.inner_text("#explorer .explorer-status")
    assert f"without a baseline cell (not drawn; baselines their runs measured: {', '.join(configs)})" in said, said
    # a machine whose name is its label (an import that records no system) is named once, in the
    # run picker, the table and the summary (round 13: "unrecorded-… (unrecorded-…)")
    label = swept["system"]["machine"]
    picker = page.eval_on_selector(f"input[name=results][value='{swept['id']}']", "b => b.closest('label').textContent")
    assert picker.count(label) == 1, picker
    machines = page.eval_on_selector_all("#explorer-table tbody tr:not(.missing)", "rs => rs.map(r => r.children[3].textContent)")
    assert machines and all(m.count(label) <= 1 for m in machines), machines
    listed = urllib.request.urlopen(f"{url}/results/").read().decode()
    assert label in listed and re.sub(r"<[^>]+>", "", listed).count(f"{label} ({label})") == 0
    assert page.errors == []


def test_a_saved_chart_names_an_import_without_a_system_as_not_recorded(page, import_site):
    """#62 round 12, beside the named cases (test_reader_round4): a run whose imported output names
    no CPU, memory or kernel is named in a saved chart with "system not recorded", never blank, and
    its machine as its page names it: on its result page, and in the explorer beside an import
    whose output records its system (two runs in one footer)."""
    from sitebuild import check_saved_run, facts_of, saved_runs
    url, _, sweep, pts = import_site
    assert sweep["system"]["recorded"] == "none" and pts["system"]["recorded"] != "none"
    facts = {r["id"]: facts_of(page.request.get(f"{url}/results/{r['id']}/").text()) for r in (sweep, pts)}
    for path, button, runs in ((f"/results/{sweep['id']}/", "figure[data-chart] >> nth=0 >> button:has-text('Save as SVG')", [sweep]),
                               (f"/explorer/?r={sweep['id']},{pts['id']}", "[data-export=SVG]", [sweep, pts])):
        page.goto(url + path)
        if path.startswith("/explorer/"):
            page.wait_for_function("document.getElementById('explorer').dataset.shown")
        with page.expect_download() as saved:
            page.click(button)
        svg = open(saved.value.path()).read()
        named = saved_runs(svg)
        assert sorted(named) == sorted(r["id"] for r in runs), (path, named)
        # the link to the view, hundreds of characters long, whole over the lines it takes
        text = "".join(html_mod.unescape(t) for t in re.findall(r"<tspan[^>]*>([^<]*)</tspan>", svg)).replace(" ", "")
        assert "Source:" + page.url + "·fsatlas" in text, (page.url, text)
        for result in runs:
            check_saved_run(named[result["id"]], result, facts[result["id"]])
    assert page.errors == []


def test_a_sweep_is_drawn_as_its_scaling_view_throughput_and_latency_against_iodepth(page, import_site):
    url, _, sweep, _ = import_site
    (workload,) = {c["workload"] for c in sweep["cells"]}
    page.goto(f"{url}/explorer/?r={sweep['id']}&fs=ext4&v=imported&w={workload}&metric=throughput&axis=dims")
    page.wait_for_function("document.getElementById('explorer').dataset.rendered")
    page.wait_for_selector("#explorer-chart svg .mark-symbol path")
    texts = page.eval_on_selector_all("#explorer-chart svg text", "ts => ts.map(t => t.textContent)")
    # a row a measure: the metric asked for and the mean latency of the same cells, x the swept iodepth
    assert "throughput (MB/s (10^6 bytes/s))" in texts and "lat_mean_ns (µs)" in texts and "iodepth" in texts
    assert page.locator("#explorer-chart svg .mark-symbol.role-mark path").count() == 3 * 2  # iodepth 1, 16, 64, two rows
    assert page.locator("#explorer-chart svg .mark-line.role-mark path").count() == 2
    assert page.inner_text(".explorer-status").endswith("): 3 cells drawn.")  # the latency row: the same cells
    assert page.errors == []


def test_an_import_s_result_page_says_what_its_output_recorded_and_what_it_did_not(page, import_site):
    url, _, sweep, pts = import_site
    text = page.request.get(f"{url}/results/{sweep['id']}/").text()
    assert "system not recorded" in text and "Kernel" not in text  # no fact the output did not record
    assert "2026-11-28T21:47:37Z" in text and "fio timestamp" in text  # fio's own time, the earliest file's
    text = page.request.get(f"{url}/results/{pts['id']}/").text()
    assert "Samsung SSD 970 EVO Plus 1TB" in text and "the imported tool&#39;s own output" in text
    measured = re.search(r"<dt>Measured</dt><dd>([^<]*)</dd>", text).group(1)
    assert measured == f"2021-03-02T09:12:44 (the machine's local time), from PTS TimeStamp; this file was made {pts['created']}"
    # no `fsatlas run --profile import-pts` (no such profile): an import has no rerun command, and
    # the footer does not say its figures were measured by the runner
    for result in (sweep, pts):
        text = page.request.get(f"{url}/results/{result['id']}/").text()
        assert "--profile import-" not in text and "fsatlas run --" not in text
        assert "imported from " in text[text.index('id="compare-yours"'):] and "fsatlas import" in text
        assert "measured by the fsatlas runner." not in text
    # the results index dates each import by its output's own time (fio's timestamp, PTS's TimeStamp)
    index = page.request.get(f"{url}/results/").text()
    for result in (sweep, pts):
        row = index[index.index(f'<a href="{result["id"]}/">'):]
        assert row[:row.index("</tr>")].count(f"<td>{result['measured']['time'][:10]}</td>") == 1


@pytest.fixture(scope="module")
def prototype_site(tmp_path_factory):
    """A result whose id, one filesystem, one variant and one workload are all "constructor", a
    name every plain JavaScript object already holds (Object.prototype.constructor)."""
    from sitebuild import build_site, serve, FIXTURES
    data = tmp_path_factory.mktemp("prototype-data")
    (data / "results").mkdir()
    (data / "raw").mkdir()
    result = json.loads((FIXTURES / "results" / "fixture-valid.json").read_text())
    result["id"] = "constructor"
    ext4, xfs, failed = result["cells"]
    ext4.update(filesystem="constructor", key="constructor|-|-|seq-write")
    xfs["variant"] = "constructor"
    failed.update(workload="constructor", key="jfs|-|-|constructor")
    write_run(data, result)
    root = tmp_path_factory.mktemp("prototype-site")
    build_site(root, data / "results")  # validates it first, as make site does
    server = serve(root / "public")
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_names_a_javascript_object_already_holds_are_offered_and_drawn(page, prototype_site):
    open_explorer(page, prototype_site + "/explorer/?r=constructor&mode=ratio")
    baselines = page.eval_on_selector_all("select[name=baseline] option", "options => options.map(o => o.value)")
    assert sorted(baselines) == ["constructor", "jfs", "xfs constructor"]
    for name in ("fs", "variant", "workload"):
        assert "constructor" in page.eval_on_selector_all(f"input[name={name}]", "boxes => boxes.map(b => b.value)")
    rendered(page, lambda: page.select_option("select[name=baseline]", "constructor"))
    rendered(page, lambda: page.select_option("select[name=mode]", "abs"))
    assert [fs for fs, _ in table_values(page)] == ["constructor"]  # throughput of the seq-write cell
    missing = page.eval_on_selector_all("#explorer-table tbody tr.missing", "rows => rows.map(r => r.textContent)")
    assert any("constructor" in row for row in missing)  # the failed cell of the workload named so
    assert page.errors == []


@pytest.fixture(scope="module")
def many_panels_site(tmp_path_factory):
    """One result of 150 measured cells, each a panel of its own (a parameter swept 150 ways)."""
    import copy
    from sitebuild import build_site, serve, FIXTURES
    data = tmp_path_factory.mktemp("panels-data")
    result = json.loads((FIXTURES / "results" / "fixture-valid.json").read_text())
    cell = result["cells"][0]
    result["cells"] = [dict(copy.deepcopy(cell), key=f"{cell['key']}|n={i}") for i in range(150)]
    result["wall_seconds"] += 149 * cell.get("wall_seconds", 0)  # a run lasts as long as its cells took
    write_run(data, result)  # each cell's members in its own key's folder
    root = tmp_path_factory.mktemp("panels-site")
    build_site(root, data / "results")
    server = serve(root / "public")
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_the_chart_draws_at_most_sixty_panels_and_the_table_every_cell(page, many_panels_site):
    """A file of 5,000 one-cell panels took the chart 17 s and 1 GB of the reader's memory."""
    open_explorer(page, many_panels_site + "/explorer/?r=fixture-valid")
    assert page.locator(BARS).count() == 60
    assert "the first 60 of 150 panels" in page.inner_text(".explorer-status")
    assert page.locator("#explorer-table tbody tr:not(.missing)").count() == 150
    assert page.errors == []


def test_a_file_s_own_sweep_stays_off_the_filesystem_page(many_panels_site):
    """Shared pages hold the project's matrix only (run_rule.shared): this file's 150 cells of a
    sweep of its own are counted there, and drawn here and on the result's page; 5,000 of them
    made /filesystems/ext4/ 23.7 MB."""
    import urllib.request
    with urllib.request.urlopen(many_panels_site + "/filesystems/ext4/") as page:
        html = page.read().decode()
    assert "n=1" not in html and "150 more cells of" in html
    with urllib.request.urlopen(many_panels_site + "/results/fixture-valid/") as page:
        assert "n=149" in page.read().decode()


@pytest.mark.browser
def test_the_explorers_table_names_the_machine(page, explorer_url):
    """Issue 62, item 6: the explorer's table names each row's machine by its human name
    (results/machines, the tooltip's "Machine"), the hash label beside it as its id."""
    open_explorer(page, explorer_url + "/explorer/")
    cells = page.eval_on_selector_all("#explorer-table tbody tr td:nth-child(4)", "tds => tds.map(t => t.textContent)")
    assert cells and all(re.fullmatch(r".+ \((m-[0-9a-f]+|[\w.-]+)\)", c) for c in cells), cells[:3]
    assert all(not c.startswith("(") for c in cells)


def test_a_result_that_measured_no_throughput_says_so_and_what_it_measured(import_site):
    """#62 round 9: an import whose cells measured read and write throughput, latencies and IOPS
    but no "throughput" had a blank build chart (a 10x10 frame with Explore and Save) and a table
    with no row. Rule: a result page shows a chart only where it has something to draw; else it
    names what the run measured and where its figures are, and that link resolves. The other
    results of the site (which measured throughput) keep their chart."""
    import re
    import urllib.request
    url = import_site[0]
    index = urllib.request.urlopen(f"{url}/results/").read().decode()
    ids = sorted(set(re.findall(r'href="/results/([^/"#]+)/"', index)))
    assert ids
    said = 0
    for rid in ids:
        html = urllib.request.urlopen(f"{url}/results/{rid}/").read().decode()
        result = json.loads(urllib.request.urlopen(f"{url}/files/results/{rid}.json").read())
        ok = [c for c in readable(result)["cells"] if c["status"] == "ok"]
        if ok and not any("throughput" in c["metrics"] for c in ok):
            said += 1
            assert 'data-chart="throughput"' in html and "<svg" not in html.split('data-chart="throughput"')[1].split("</p>")[0]
            (sentence,) = re.findall(r'<p class="nothing-measured" data-chart="throughput">(.*?)</p>', html, re.S)
            for metric in {m for c in ok for m in c["metrics"]}:
                assert metric in sentence
            (cells,) = re.findall(r'href="([^"]+)"', sentence)
            assert urllib.request.urlopen(url + cells).status == 200
            assert "<figure" not in html.split("<h2>Throughput</h2>")[1].split("<h2")[0]
        elif ok:
            assert re.search(r'<figure class="chart"[^>]*data-chart="throughput"', html), rid
    assert said == 1
