"""The real site: Hugo build, htmltest over every page, and the chart drawn in Chromium."""
import json
import re
import shutil
from html.parser import HTMLParser

import pytest
import yaml

from sitebuild import FIXTURES, REPO, aggregate_and_build, run_htmltest, serve
from testutil import write_run
from fsatlas.results.resultfile import readable  # a result file in the read form (schema 2 stores no summaries)
from fsatlas.site import result_tables

pytestmark = pytest.mark.site
RESULT = json.loads((FIXTURES / "results" / "fixture-valid.json").read_text())
OK_THROUGHPUT = [c for c in RESULT["cells"] if c["status"] == "ok" and "throughput" in c["metrics"]]


def test_htmltest_passes_on_every_page(site_root):
    done = run_htmltest(site_root)
    assert done.returncode == 0, done.stdout + done.stderr


def test_results_page_has_chart_table_and_no_cdn(site_root):
    html = (site_root / "public" / "results" / "index.html").read_text()
    assert 'data-chart="throughput"' in html
    # drawn at build time: the picture is in the page, Vega is not (charts.js loads the site's own on demand)
    figure = html[html.index('<figure class="chart" data-drawn="build"'):]
    assert figure.index("<svg") < figure.index("</figure>")
    assert "vendor/vega" not in html and 'data-vendor="/vendor/"' in html
    assert "cdn" not in html.lower() and "unpkg" not in html.lower()
    # the text fallback holds the same numbers as the chart, to three significant digits
    from fsatlas.site.knowledge import significant
    for cell in OK_THROUGHPUT:
        assert significant(cell["metrics"]["throughput"]["mean"] / 1e6) in html
    assert "2,250" in html  # ext4 seq-write: 2,247,959,343.7 B/s is 2,247.96 MB/s


def test_machines_are_named_and_memory_reads_the_same_everywhere(site_root):
    """Issue 62, item 6: the filesystem page's table (and rankings, the explorer's table) showed
    only the hash label; they show the human machine name with the label as its id. Memory read
    "24 GiB" in the system line and "23.5 GiB" in the system table for the same bytes: one
    formatter (machines.memory_text), whose text both carry."""
    from fsatlas.results import machines
    name, label = machines.name(RESULT), RESULT["system"]["machine"]
    ext4 = (site_root / "public" / "filesystems" / "ext4" / "index.html").read_text()
    assert f"{name} <small>({label})</small></a>" in ext4
    memory = machines.memory_text(RESULT["system"]["memory_bytes"])
    assert f", {memory}," in machines.system_line(RESULT)
    page = (site_root / "public" / "results" / "fixture-valid" / "index.html").read_text()
    assert f"<dt>Memory</dt><dd>{memory}</dd>" in page
    whole = f"{RESULT['system']['memory_bytes'] / 2**30:.0f} GiB"  # the system line's old rounding
    assert whole == memory or whole not in page + ext4


def test_result_page_shows_system_and_cells(site_root):
    html = (site_root / "public" / "results" / "fixture-valid" / "index.html").read_text()
    assert RESULT["system"]["kernel"] in html and RESULT["system"]["cpu_model"] in html
    # the system table (#62): the machine's name beside its label, and the storage, said unrecorded where it is
    from fsatlas.results import machines
    table = html[html.index('id="system-table"'):html.index("</dl>", html.index('id="system-table"'))]
    assert f"<dd>{machines.name(RESULT)} (label {RESULT['system']['machine']}) · <a href=" in table
    assert "<dt>Storage device</dt><dd>not recorded, rotational or not: not recorded, model not reported</dd>" in table
    assert f"<dt>Backing filesystem</dt><dd>{RESULT['target']['backing_filesystem']}</dd>" in table
    assert "Virtualization" in table and "Memory" in table
    # the run at a glance (#62), filled into its slot: a heat map of each headline figure against its row's best
    assert '<table class="data-table overview-table" tabindex="0">' in html and 'class="num heat-0"' in html
    # "compare your own system": one command that runs this result's profile on its filesystems
    # here and compares; its run is one the real command line accepts
    import html as html_mod
    import shlex
    from fsatlas.cli import build_parser
    command = html_mod.unescape(re.search(r'<code class="command" id="own-run">(.*?)</code>', html).group(1))
    words = shlex.split(command)
    assert words[:3] == ["fsatlas", "compare", "fixture-valid.json"] and words[3].startswith("$(") and words[3].endswith(")")
    run = build_parser().parse_args(shlex.split(words[3][2:-1])[1:])
    from fsatlas.commands import plan as plan_mod  # the runner's own cell selection: the result's cells, no more
    assert run.profile == RESULT["profile"]
    from test_own_run import today
    known = today(RESULT)
    assert sorted(c.key for c in plan_mod.select(run)[1].cells) == sorted(c["key"] for c in RESULT["cells"] if c["key"] in known)
    for key in {c["key"] for c in RESULT["cells"]} - known:  # jfs is in no profile today: named, not dropped silently
        assert f"<code>{key}</code>" in html[html.index('id="own-run-unknown"'):]
    # and it promises what compare gives for one run against one: ratios, not tested (comparison.design)
    from fsatlas.results import comparison
    mine = dict(RESULT, id="mine", system=dict(RESULT["system"], machine="m-other"))
    plan = comparison.design([comparison.factors(RESULT)], [comparison.factors(mine)])
    said = html[html.index('id="compare-yours"'):html.index('id="own-run"')]
    assert not plan["tested"] and "one run" in plan["why"]
    assert "not tested" in said and "interval" not in said and "adjusted p" not in said
    # fsatlas site put the every-metric table in the slot Hugo left, on the page of every cell:
    # a row group per cell
    cells = (site_root / "public" / "results" / "fixture-valid" / "cells" / "index.html").read_text()
    for cell in RESULT["cells"]:
        assert cell["key"] in cells
    assert "data-fsatlas-slot" not in html and "data-fsatlas-slot" not in cells
    assert len(re.findall(r'<tbody id="cell-[^"]+"><tr><th scope="rowgroup"', cells)) == len(RESULT["cells"])
    assert "files/results/fixture-valid.json" in html
    assert (site_root / "public" / "files" / "results" / "fixture-valid.json").is_file()


def test_pages_without_charts_load_no_chart_libraries(site_root):
    for page in ("contribute", "methodology", "corrections"):
        assert "vega" not in (site_root / "public" / page / "index.html").read_text(), page


@pytest.mark.browser
@pytest.mark.parametrize("path", ["/results/", "/results/fixture-valid/"])
def test_chart_draws_a_mark_per_cell_without_errors(page, site_url, path):
    page.goto(site_url + path)
    page.wait_for_selector("figure.chart-drawn, figure.chart-failed", timeout=20000)
    assert page.locator("figure.chart-failed").count() == 0
    bars = page.locator("figure[data-chart=throughput] svg .mark-rect path")
    assert bars.count() == len(OK_THROUGHPUT)
    samples = sum(len(c["metrics"]["throughput"]["samples"]) for c in OK_THROUGHPUT)
    # a dot a sample: a path where the browser drew it, a <circle> in a picture the build drew
    assert page.locator("figure[data-chart=throughput] svg .mark-symbol :is(path, circle)").count() == samples
    assert page.errors == []


def _html(site_root, path):
    return (site_root / "public" / path / "index.html").read_text()


def test_every_fact_on_the_feature_page_links_a_listed_source(site_root):
    import re
    html = _html(site_root, "features")
    cells = re.findall(r'<td class="feat (?!feat-probed)[^"]*"[^>]*>(.*?)</td>', html, re.S)
    assert len(cells) >= 14 * 21
    # a column left to the probes cites none: it links the probe's commands and output, or says why
    # it is unanswered (site/feature_matrix.py's reason: no cited document, and why no probe answered)
    for cell in re.findall(r'<td class="feat feat-probed"[^>]*>(.*?)</td>', html, re.S):
        assert "commands and output</a>" in cell or re.match(
            r'<span class="unanswered">unanswered</span><span class="note"> No cited document: .+\.</span>$', cell, re.S), cell
    anchors = set(re.findall(r'<li id="src-([a-z0-9._-]+)"', html))
    for cell in cells:
        cited = re.findall(r'href="#src-([a-z0-9._-]+)"', cell)
        assert cited, cell
        assert set(cited) <= anchors
    assert "The same questions in 2004" in html and "8191" in html  # the 2004 table beside today's


def test_feature_limits_on_the_page_come_from_the_data(site_root):
    import yaml
    from sitebuild import REPO
    html = _html(site_root, "features")
    for path in (REPO / "data" / "features").glob("*.yaml"):
        for name, fact in yaml.safe_load(path.read_text())["features"].items():
            if "limit" in fact:
                assert fact["limit"] in html, (path.name, name)


def test_the_feature_page_shows_unanswered_cells_and_drivers_as_the_data_has_them(site_root):
    """Issue #63: a fact the rule leaves unanswered says so beside its value with the reason; VxFS's
    read-only driver is merged, ntfs-3g no kernel driver; an ext2 finding of a record older than
    the driver's recording says the driver was not recorded."""
    import html as html_mod
    from sitebuild import REPO
    from fsatlas.site import feature_matrix, knowledge
    page = html_mod.unescape(_html(site_root, "features"))
    data, _ = knowledge.load(str(REPO / "data"))
    cells = feature_matrix.cells(data, knowledge.probe_records(str(REPO / "data")))
    for cell in cells:
        fact = data["features"][cell["filesystem"]]["features"].get(cell["column"])
        if not cell["answered"] and fact is not None and fact.get("value", fact.get("limit")) != "not documented":
            assert cell["reason"] in page, cell  # VxFS's journal on the 2004 magazine alone
    row = re.search(r'filesystems/vxfs/".*?</tr>', page, re.S).group(0)
    assert "No release is named that merged the read-only driver" in row and "never merged" not in row
    assert "user space (FUSE)" in re.search(r'filesystems/ntfs/".*?</tr>', page, re.S).group(0)
    assert "driver not recorded" in _html(site_root, "filesystems/ext2")


class _Matrix(HTMLParser):
    """The feature matrix as a reader's browser sees it, read apart from the templates and the
    module: every row's cells, each with whether it carries an unanswered mark."""
    def __init__(self):
        super().__init__()
        self.inside, self.head, self.rows, self.cell = False, [], [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table" and attrs.get("id") == "feature-matrix":
            self.inside = True
        elif self.inside and tag == "tr":
            self.rows.append([])
        elif self.inside and tag in ("td", "th"):
            self.cell = {"tag": tag, "scope": attrs.get("scope"), "unanswered": False}
            self.rows[-1].append(self.cell)
        elif self.inside and tag == "span" and "unanswered" in (attrs.get("class") or "").split():
            self.cell["unanswered"] = True

    def handle_endtag(self, tag):
        if tag == "table":
            self.inside = False


def test_check_data_counts_the_feature_matrix_exactly_as_the_page_draws_it(site_root):
    """Issue #63, round 2, item 1: the page drew 16 rows by 46 data columns (the origin columns
    too) while check-data counted 624 cells. Every data cell of /features/ and every unanswered
    mark, counted by parsing the built page, is the count check-data prints for the same data."""
    from sitebuild import fsatlas
    matrix = _Matrix()
    matrix.feed(_html(site_root, "features"))
    head, *rows = matrix.rows
    columns = len(head) - 1  # the Filesystem heading
    assert rows and all(row[0]["scope"] == "row" and len(row) - 1 == columns for row in rows)
    cells = len(rows) * columns
    unanswered = sum(c["unanswered"] for row in rows for c in row[1:])
    said = fsatlas("check-data", "--data", site_root / "data", check=False).stdout
    assert f"feature matrix: {unanswered} of {cells} cells unanswered" in said, said
    assert columns > len(yaml.safe_load((site_root / "data" / "feature_columns.yaml").read_text()))


@pytest.mark.parametrize("theme", ["journaling", "access-time", "barriers-commit", "raid-alignment",
                                   "btrfs-cow-compression", "xfs-log", "directory-index"])
def test_each_guide_puts_claims_beside_measurements(site_root, theme):
    html = _html(site_root, f"guides/{theme}")
    assert "Claim:" in html and 'class="footnotes"' in html
    assert "Not measured here" in html or "On machine" in html


def test_raid_guide_explains_why_alignment_is_not_measured(site_root):
    html = _html(site_root, "guides/raid-alignment")
    assert "not-striped" in html and "device-mapper" in html


def test_filesystem_pages_history_methodology_articles_contribute(site_root):
    ext4 = _html(site_root, "filesystems/ext4")
    assert "Features" in ext4 and "Measured here" in ext4 and "Tuning options" in ext4
    assert RESULT["cells"][0]["key"].split("|")[3] in ext4
    jfs = _html(site_root, "filesystems/jfs")
    assert "skipped" in jfs and "History" in jfs
    history = _html(site_root, "history")
    assert "blog-2014-dd" in history and "83.4" in history  # NTFS write time as published
    method = _html(site_root, "methodology")
    assert "rw=write" in method and "bs=1M" in method and "direct=1" in method
    assert _html(site_root, "articles/rerunning-the-seed-tests").count("data-table") >= 5
    # pinned to a committed run the fixture site lacks: said, not fatal (the pinned ranking's own test builds its runs)
    assert "in the runs this article is pinned to on this site (20261123T030418Z" in _html(site_root, "articles/choosing-a-filesystem")
    assert "fsatlas validate" in _html(site_root, "contribute")


@pytest.mark.browser
def test_feature_matrix_sorts_and_filters(page, site_url):
    page.goto(site_url + "/features/")
    first = page.locator("#feature-matrix tbody tr th").first.inner_text()
    page.locator("#feature-matrix thead th").first.click()
    page.locator("#feature-matrix thead th").first.click()  # descending
    assert page.locator("#feature-matrix tbody tr th").first.inner_text() != first
    page.locator(".column-filter input[value=limits]").uncheck()
    assert page.locator("#feature-matrix td[data-group=limits]").first.is_hidden()
    assert page.errors == []


@pytest.mark.browser
def test_chart_shortcode_naming_a_result_draws_its_rows(page, site_root, tmp_path):
    root = tmp_path / "site"
    shutil.copytree(site_root, root, ignore=shutil.ignore_patterns("public", "build"))
    (root / "content" / "articles" / "one-run.md").write_text(
        '---\ntitle: One run\n---\n{{< chart name="throughput" result="fixture-valid" >}}\n')
    aggregate_and_build(root)
    html = (root / "public" / "articles" / "one-run" / "index.html").read_text()
    assert 'data-rows="/charts/results/fixture-valid.json"' in html
    # its table as the template read it from the tables file (partials/results/table.html) is the
    # one Python reads from it (result_tables.unpack)
    tables = root / "build" / result_tables.TABLES_DIR / result_tables.file_name("fixture-valid")
    table = result_tables.unpack(tables.read_bytes())[b"throughput-table"].decode()
    assert "<table" in table and table in html
    server = serve(root / "public")
    try:
        page.goto(f"http://127.0.0.1:{server.server_address[1]}/articles/one-run/")
        page.wait_for_selector("figure.chart-drawn, figure.chart-failed", timeout=20000)
        assert page.locator("figure[data-chart=throughput] svg .mark-rect path").count() == len(OK_THROUGHPUT)
    finally:
        server.shutdown()
    assert page.errors == []


def test_a_repetitions_raw_output_opens_from_its_result_page(page, site_root, site_url):
    """The result page links the bundle and lists its members; a member opens in the raw file
    viewer as fio wrote it, character for character."""
    from fsatlas.results import bundle
    members = bundle.read(str(FIXTURES), "fixture-valid")
    public = site_root / "public"
    assert (public / "files" / "raw" / "fixture-valid.tar.gz").read_bytes() == \
        (FIXTURES / "raw" / "fixture-valid.tar.gz").read_bytes()
    page.goto(f"{site_url}/results/fixture-valid/")
    page.click('a[href="cells/"]')  # on the page of every cell, one tap away
    links = page.locator("#raw-output ~ ul.raw-members a")
    assert links.count() == sum(bool(c["raw"]) for c in RESULT["cells"] if c["status"] == "ok") == 2
    assert page.locator('a[href$="files/raw/fixture-valid.tar.gz"]').count() == 1
    first, second = RESULT["cells"][0]["raw"][:2]
    page.locator(f'#raw-output ~ ul.raw-members a:has-text("{first.split("/", 2)[2]}")').click()
    page.wait_for_selector("#raw-text:not([hidden])")
    assert page.locator("#raw-text").text_content() == members[bundle.member_of("fixture-valid", first)].decode()
    assert page.locator("#raw-members li").count() == len(members)
    page.click(f'#raw-members a:has-text("{second.split("/", 2)[2]}")')  # another repetition, from the viewer's list
    page.wait_for_function(f"document.getElementById('raw-member-name').textContent === '{second.split('/', 2)[2]}'")
    assert page.locator("#raw-text").text_content() == members[bundle.member_of("fixture-valid", second)].decode()
    assert page.errors == []
    page.goto(f"{site_url}/raw/?result=no-such-result")
    page.wait_for_function("document.getElementById('raw-status').textContent.includes('Cannot read')")
    page.goto(f"{site_url}/raw/?result=../../etc")
    assert "not a result id" in page.inner_text("#raw-status")


def test_the_home_page_gives_each_reader_a_path_and_the_findings(site_root):
    """Five ways in, each to a page that exists, and what the data says, counted from it."""
    html = (site_root / "public" / "index.html").read_text()
    paths = re.findall(r'<a class="path" href="([^"]+)"><strong>([^<]+)</strong>', html)
    assert [title for _, title in paths] == ["Choose a filesystem", "Tune a mount option", "Compare two filesystems",
                                             "Compare results", "Check an old benchmark", "Contribute a result"]
    for href, _ in paths:
        assert (site_root / "public" / href.strip("/") / "index.html").is_file(), href
    findings = re.sub(r"<[^>]+>|\s+", " ", html.split('class="findings"')[1].split("</ul>")[0])
    assert "1 result file from 1 machine label" in findings and RESULT["id"] in findings
    assert 'data-chart="throughput"' in html


def test_citations_are_numbered_in_the_order_of_the_sources_list(site_root):
    """[1], [2]… in the order a page first cites its sources, each number the place of its
    source in the list at the foot of the page (the registry id stays in that list)."""
    html = (site_root / "public" / "features" / "index.html").read_text()
    listed = re.findall(r'<li id="src-([^"]+)">', html)
    cited = re.findall(r'<a href="#src-([^"]+)"[^>]*>\[(\d+)\]</a>', html)
    assert cited and len(set(listed)) == len(listed)
    for source, number in cited:
        assert listed[int(number) - 1] == source
    assert [s for s, _ in cited][0] == listed[0]


@pytest.mark.browser
def test_compare_two_filesystems_from_the_address(page, site_url):
    """ext4 and xfs from the URL: their features side by side, the differing rows marked; the
    fixture measured ext4 and xfs on different workloads, so no run holds a figure of both."""
    page.goto(f"{site_url}/compare/?a=ext4&b=xfs")
    page.wait_for_selector("#compare[data-rendered]")
    assert page.input_value("select[name=a]") == "ext4" and page.input_value("select[name=b]") == "xfs"
    import yaml
    from sitebuild import REPO
    columns = len(yaml.safe_load((REPO / "data" / "feature_columns.yaml").read_text()))
    differ = page.locator("#compare-features tr.differs").count()
    assert 0 < differ < columns and page.inner_text("#compare-features p").startswith(f"{differ} of {columns}")
    cells = {c["filesystem"]: c for c in RESULT["cells"] if c["status"] == "ok"}
    assert set(cells) == {"ext4", "xfs"} and len({c["workload"] for c in cells.values()}) == 2
    assert "No run has measured both" in page.inner_text("#compare-figures")
    page.select_option("select[name=b]", "btrfs")
    page.wait_for_selector("#compare[data-rendered]")
    assert page.url.endswith("?a=ext4&b=btrfs")
    assert page.errors == []


@pytest.mark.browser
def test_a_shared_compare_address_asking_for_what_the_site_lacks_says_so(page, site_url):
    """Issue 62, item 2: an address naming an unknown run, a run that did not measure that
    filesystem, or an unknown filesystem showed another view and rewrote the address silently;
    now a notice names what was asked and what is shown instead. The fixture's one run,
    fixture-valid, measured ext4 and xfs (on different workloads), not btrfs."""
    for query, asked, shown in [
            ("?a=ext4&b=xfs&run_a=nope-run&run_b=fixture-valid", "run \u201cnope-run\u201d for ext4", "shown instead: run fixture-valid"),
            ("?a=ext4&b=btrfs&run_a=fixture-valid&run_b=fixture-valid", "run \u201cfixture-valid\u201d for btrfs", "shown instead: no run"),
            ("?a=ext4&b=xfs&run=nope-run", "run \u201cnope-run\u201d, which is not among the runs that measured both ext4 and xfs", "shown instead: no run"),
            ("?a=nofs&b=xfs", "the filesystem \u201cnofs\u201d", "shown instead: ext4"),
            ("?a=ext4&b=constructor", "the filesystem \u201cconstructor\u201d", "shown instead: xfs")]:
        page.goto(f"{site_url}/compare/{query}")
        page.wait_for_selector("#compare[data-rendered]")
        notice = page.inner_text("#compare-notice")
        assert asked in notice and shown in notice, (query, notice)
        assert len(page.locator("#compare-notice li").all()) == 1, (query, notice)  # nothing else named
        assert page.get_attribute("#compare-notice", "role") == "status"
        if "btrfs" in query:  # no run measured btrfs: its side file compare/sides/btrfs.json is absent
            assert all("404" in e for e in page.errors)
            page.errors.clear()
    for query in ("?a=ext4&b=xfs", "?a=ext4&b=xfs&run=", "?a=ext4&b=xfs&run_a=fixture-valid&run_b=fixture-valid"):
        page.goto(f"{site_url}/compare/{query}")
        page.wait_for_selector("#compare[data-rendered]")
        assert page.locator("#compare-notice").count() == 0, query  # all that was asked is shown
    assert page.errors == []


def _compare_rows(page):
    return [row.split("\t") for row in page.locator("#compare-figures tbody tr").all_inner_texts()]


@pytest.mark.browser
def test_compare_shows_one_runs_table_as_the_comparison_module_judged_it(page, explorer_url):
    """Every row of the compare page is the comparison module's row of one run (report.within:
    Welch's or the paired test, Benjamini-Hochberg over the table), main metrics first, with
    readable names and the site's units; picking another run, or the pair the other way round,
    shows that run's table and names it; and the page holds its default table without a script."""
    import urllib.request
    from fsatlas.results import comparison, metrics
    from fsatlas.site import pairs, report
    from fsatlas.site.knowledge import display, significant
    index = json.loads(urllib.request.urlopen(f"{explorer_url}/compare/ext4--xfs.json").read())
    assert len(index["runs"]) == 3  # the three synthetic runs each measured both, newest first
    assert [r["created"] for r in index["runs"]] == sorted((r["created"] for r in index["runs"]), reverse=True)
    for order, pick in ((("ext4", "xfs"), 0), (("ext4", "xfs"), 2), (("xfs", "ext4"), 1)):
        run = index["runs"][pick]["id"]
        page.goto(f"{explorer_url}/compare/?a={order[0]}&b={order[1]}&run={run}")
        page.wait_for_selector("#compare[data-rendered]")
        assert page.input_value("#compare-run") == run and f"one run, {run}:" in page.inner_text("#compare-runs")
        result = readable(json.loads(urllib.request.urlopen(f"{explorer_url}/files/results/{run}.json").read()))
        expected = sorted(report.within(result, *order, all_metrics=True), key=pairs._order)
        shown = _compare_rows(page)
        assert len(shown) == len(expected) > 0
        for row, want in zip(shown, expected):
            workload, measure, n, a, b, ratio, p, verdict = row
            assert workload.split(" ")[0] == want["key"].split("|")[0]
            assert measure.startswith(metrics.label(want["metric"])) and "_" not in measure
            assert n == f"{want['n_a']}, {want['n_b']}"
            assert (a, b) == (display(want["mean_a"], want["unit"]), display(want["mean_b"], want["unit"]))
            if want["status"] == "tested":
                assert ratio.startswith(significant(want["ratio"]) + "× (") and p == f"{want['p_adjusted']:.2g}"
            else:
                assert ratio == "–" and verdict.split("\n")[-1] == want["verdict"]  # not tested or not testable, as judged
        headline = [m for m in (e["metric"] for e in expected)]
        assert headline.index("throughput") < min((i for i, m in enumerate(headline) if m not in comparison.HEADLINE),
                                                  default=len(headline))
        assert page.errors == []
    # no script: the page as served holds the default pair's newest run
    html = urllib.request.urlopen(f"{explorer_url}/compare/").read().decode()
    page.set_content(html.replace("<script", "<template").replace("</script>", "</template>"))
    assert index["runs"][0]["id"] in page.inner_text("#compare-runs")
    assert len(_compare_rows(page)) == len(report.within(readable(json.loads(urllib.request.urlopen(
        f"{explorer_url}/files/results/{index['runs'][0]['id']}.json").read())), "ext4", "xfs", all_metrics=True))


def _sorted_column(page, site_url, heading):
    """The feature matrix's values (data-sort) of the column under heading, after a click on it."""
    page.goto(f"{site_url}/features/")
    page.click(f"#feature-matrix thead th:has-text('{heading}')")
    column = page.evaluate("Array.from(document.querySelectorAll('#feature-matrix thead th'))"
                           f".findIndex(t => t.textContent.includes('{heading}'))")
    return page.evaluate(f"Array.from(document.querySelectorAll('#feature-matrix tbody tr'))"
                         f".map(r => r.children[{column}].dataset.sort)")


@pytest.mark.browser
def test_the_feature_matrix_sorts_sizes_by_value(page, site_url):
    """8 TiB before 8 EiB, words ("unknown") after every figure, citations and notes ignored."""
    shown = _sorted_column(page, site_url, "Largest file")
    units = {"KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40, "PiB": 2**50, "EiB": 2**60, "bytes": 1}
    sizes = []
    for text in shown:
        found = re.match(r"([\d.,]+)\s*(\w+)?", text)
        sizes.append(float(found[1].replace(",", "")) * units.get(found[2], 1) if found else None)
    numbers = [s for s in sizes if s is not None]
    assert numbers == sorted(numbers) and len(numbers) > 5
    assert sizes[len(numbers):] == [None] * (len(sizes) - len(numbers))  # words last


@pytest.mark.browser
def test_the_feature_matrix_sorts_counts_written_as_powers_by_value(page, site_url):
    """Most files: 2^32 - 16 before 4,294,967,295 (2^32 - 1) before 2^32 before 2^48 before 2^64."""
    shown = _sorted_column(page, site_url, "Most files")
    counts = []
    for text in shown:
        power = re.match(r"(\d+)\^(\d+)(?:\s*-\s*([\d,]+))?", text)
        plain = re.match(r"([\d,]+)", text)
        counts.append(int(power[1]) ** int(power[2]) - int((power[3] or "0").replace(",", "")) if power
                      else int(plain[1].replace(",", "")) if plain else None)
    numbers = [float(c) for c in counts if c is not None]  # as the page compares them: 2^64 - 511 is 2^64 in a double
    assert numbers == sorted(numbers) and numbers[0] == 2**32 - 16 and numbers[-1] == 2.0**64, shown
    assert counts[len(numbers):] == [None] * (len(counts) - len(numbers))  # "not documented" last


@pytest.mark.browser
def test_every_limit_column_sorts_as_check_data_reads_its_limits(page, site_url):
    """Round 46 of #63: the page's script read limits its own way ("256 quadrillion ZB" sorted as
    256, "1 s" tied with "1 ns"). Every limit column sorts by the one reading check-data holds a
    limit to (limits.limit_amount, in its column's unit; a cell the probes answer by the
    probe's number), words after every figure."""
    from fsatlas.site import limits
    columns = [c for c in yaml.safe_load((REPO / "data" / "feature_columns.yaml").read_text())
               if c["key"] in limits.LIMIT_UNITS]
    assert len(columns) == 8
    for column in columns:
        _sorted_column(page, site_url, column["label"])
        index = page.evaluate("Array.from(document.querySelectorAll('#feature-matrix thead th'))"
                              f".findIndex(t => t.textContent.includes({json.dumps(column['label'])}))")
        cells = page.evaluate("Array.from(document.querySelectorAll('#feature-matrix tbody tr'))"
                              f".map(r => [r.children[{index}].dataset.sort || null, r.children[{index}].dataset.sortNumber || null])")
        for text, number in cells:
            amount = text and limits.limit_amount(column["key"], text)
            if amount:  # a fact's limit: the number is the reading check-data holds it to
                assert float(number) == float(amount[0] * max(amount[2])), (column["key"], text, number)
        numbers = [float(n) for _, n in cells if n is not None]
        assert numbers == sorted(numbers) and numbers, (column["key"], cells)
        assert [n for _, n in cells[len(numbers):]] == [None] * (len(cells) - len(numbers)), (column["key"], cells)


@pytest.mark.browser
def test_the_feature_matrix_names_each_origin_and_sorts_first_releases_by_year(page, site_url, site_root):
    """Original OS and First released: dated ones by year, the undated after them, each marked
    unanswered with its reason one tap away; a filesystem page says the same. In Linux since sorts
    by release (release-order.html), as computed here apart for every file's merged release: ext2's
    0.99.7 (a patchlevel of 0.99) before 2.4.1 before 2.4.15 before 2.6.4."""
    years = _sorted_column(page, site_url, "First released")
    dated = [y for y in years if y != "unanswered"]  # an undated cell sorts as the word "unanswered", after every year
    assert dated == sorted(dated, key=int) and dated[0] == "1993" and years[len(dated):] == ["unanswered"] * (len(years) - len(dated)), years
    rows = page.evaluate("Array.from(document.querySelectorAll('#feature-matrix tbody tr'))"
                         ".map(r => [r.children[0].innerText, r.children[1].innerText, r.children[2].innerText,"
                         " r.children[2].textContent, r.children[3].innerText])")
    by_name = {name.replace(" ✓", ""): (os_, year, why) for name, os_, year, why, _ in rows}
    makers = {name.replace(" ✓", ""): maker for name, *_, maker in rows}  # the Maker column, beside the year
    assert makers["XFS"] == "Silicon Graphics (SGI)" and makers["F2FS"] == "Samsung Electronics", makers
    assert by_name["XFS"][0].startswith("IRIX (SGI)") and by_name["XFS"][1] == "1994"  # SGI's USENIX paper
    assert by_name["ext2"][1] == "1993" and by_name["ext3"][1] == "1999"
    assert by_name["HFS+"][1].startswith("unanswered") and "Mac OS 8.1" in by_name["HFS+"][2]  # the reason one tap away
    since = dict(page.evaluate(
        "(() => { const i = Array.from(document.querySelectorAll('#feature-matrix thead th'))"
        ".findIndex(t => t.textContent.includes('In Linux since'));"
        " return Array.from(document.querySelectorAll('#feature-matrix tbody tr'))"
        ".map(r => [r.children[0].innerText.replace(' \u2713', ''), r.children[i].dataset.sort]); })()"))
    files = [yaml.safe_load(f.read_text()) for f in (site_root / "data" / "features").glob("*.yaml")]
    merged = {d["name"]: d["linux"]["merged"] for d in files if d.get("linux", {}).get("merged")}
    for name, release in merged.items():
        major, minor, *patch = (int(n) for n in release.split(" ")[0].split("."))
        assert int(since[name]) == major * 10**6 + minor * 10**3 + (patch[0] if patch else 0), (name, release, since[name])
    assert merged["ext2"] == "0.99.7" and min(merged, key=lambda n: int(since[n])) == "ext2", since
    page.goto(f"{site_url}/filesystems/ext3/")
    assert "Origin: written for Linux, first released in 1999" in page.inner_text("article")
    page.goto(f"{site_url}/filesystems/xfs/")
    assert "Origin: written for IRIX (SGI), first released in 1994" in page.inner_text("article")
    assert "Made by Silicon Graphics (SGI)." in page.inner_text("article")


@pytest.mark.browser
def test_the_feature_matrix_says_which_systems_read_each_filesystem(page, site_url):
    """On Windows, On macOS, On FreeBSD: each a documented answer, sorted from the most a reader
    gets (read-write) to the least (no, then not documented), the note one tap away."""
    answers = _sorted_column(page, site_url, "On Windows")
    rank = ["read-write", "read-only", "add-on", "no", "not documented"]
    assert answers == sorted(answers, key=rank.index) and answers[0] == "read-write" and answers[-1] == "no", answers
    rows = page.evaluate("Array.from(document.querySelectorAll('#feature-matrix tbody tr')).map(r => [r.children[0].innerText,"
                         " ...['on_windows', 'on_macos', 'on_freebsd'].map(k => r.querySelector(`[data-feature=${k}]`).dataset.sort)])")
    by_name = {name.replace(" ✓", ""): rest for name, *rest in rows}
    assert by_name["NTFS (ntfs-3g)"][0] == by_name["NTFS (ntfs3)"][0] == by_name["HFS+"][1] == \
        by_name["ZFS (OpenZFS)"][2] == "read-write"
    assert by_name["ext4"] == ["add-on", "add-on", "read-write"] and by_name["JFS"] == ["no", "no", "no"]
    page.goto(f"{site_url}/filesystems/ext4/")
    row = page.locator("tr", has=page.locator("th", has_text="On FreeBSD"))
    row.locator("summary").click()
    assert "fully since FreeBSD 12.0-RELEASE" in row.inner_text() and "Holds for FreeBSD 12.0 and later" in row.inner_text()
    assert "not probed: a probe here runs on Linux" in row.inner_text()  # no Linux probe answers for another system


def test_the_guides_index_counts_each_guides_options(site_root):
    import yaml
    from collections import Counter
    themes = Counter(yaml.safe_load(p.read_text())["theme"]
                     for p in (site_root / "data" / "mount_options").glob("*.yaml"))
    html = (site_root / "public" / "guides" / "index.html").read_text()
    shown = {}
    for guide in (site_root / "content" / "guides").glob("*.md"):
        if guide.name == "_index.md":
            continue
        theme = re.search(r"^theme:\s*\"?([\w-]+)", guide.read_text(), re.M)[1]
        count = re.search(rf'href="/guides/{guide.stem}/"[^(]*\((\d+) options?\)', html)
        shown[theme] = int(count[1])
    assert shown == {theme: themes.get(theme, 0) for theme in shown} and sum(shown.values()) == sum(themes.values())


def test_the_matrix_says_which_files_are_re_checked_and_what_no_document_says(site_root):
    import yaml
    from sitebuild import REPO
    html = _html(site_root, "features")
    files = {p.stem: yaml.safe_load(p.read_text()) for p in (REPO / "data" / "features").glob("*.yaml")}
    rows = {m[0]: m[1] for m in re.findall(r'<a href="[^"]*/filesystems/([a-z0-9]+)/">[^<]+</a><span class="([a-z-]+)"', html)}
    assert rows == {fs: "rechecked" if "rechecked" in data else "not-rechecked" for fs, data in files.items()}
    undocumented = sum(f.get("value") == "not documented" for data in files.values() for f in data["features"].values())
    assert undocumented > 0 and html.count('class="feat feat-not-documented"') == undocumented
    xfs = _html(site_root, "filesystems/xfs")
    assert "Every fact re-checked on" in xfs and "Holds for xfsprogs 6.1" in xfs


def test_the_matrix_and_the_2004_table_show_what_the_probes_found_on_each_kernel(site_root):
    html = _html(site_root, "features")
    cell = re.search(r'data-feature="acl_max_entries"[^>]*>5461 \(V5\), 25 \(V4\).*?</td>', html, re.S)[0]
    assert "Probed on Linux 6.18, 6.12 and 6.1: 5,461 entries." in cell
    then_now = html.split('id="acl-then-and-now"')[1].split("</table>")[0]
    xfs = re.search(r"<th scope=\"row\">xfs</th>(.*?)</tr>", then_now, re.S)[1]
    assert ">25<" in xfs and "Linux 6.18:</strong> 5,461 entries" in xfs and "Linux 6.1:</strong> 5,461 entries" in xfs
    assert "Linux 6.12:</strong> 5,461 entries" in xfs
    jfs = re.search(r"<th scope=\"row\">jfs</th>(.*?)</tr>", then_now, re.S)[1]
    assert ">8191<" in jfs and "Linux 6.1:</strong> 8,191 entries" in jfs and "6.18" not in jfs  # no jfs here
    # the driver that mounted it, beside each value it may hold for alone: ext2 by ext4's driver
    ext2 = _html(site_root, "filesystems/ext2")
    assert "Linux 6.18, ext4 driver:</strong>" in ext2 and "Linux 6.18, ext2 driver" not in ext2
    assert "Linux 6.18, ntfs-3g (FUSE) driver:</strong>" in _html(site_root, "filesystems/ntfs")


def test_since_which_release_beside_the_cell_and_as_a_timeline(site_root):
    html = _html(site_root, "features")
    cell = re.search(r'<td class="feat feat-partial"[^>]*data-feature="online_shrink"[^>]*>[^<]*<span class="kernel-since">'
                     r'.*?</td>', html, re.S)
    assert cell and ">5.13</a>" in cell[0] and "fb2fc1720185" in cell[0]
    xfs = _html(site_root, "filesystems/xfs")
    timeline = xfs.split('id="since"')[1].split("</ol>")[0]
    releases = re.findall(r"<strong>Linux (\d+\.\d+)</strong>", timeline)
    assert releases == ["5.10", "5.13"]  # oldest first, 5.10 after 5.9 as a number
    btrfs = _html(site_root, "filesystems/btrfs").split('id="since"')[1].split("</ol>")[0]
    assert btrfs.count("<li>") == 4 and "47e6f7423b91" in btrfs


def test_the_explorer_offers_every_sample_with_its_columns(site_root):
    import pandas as pd
    from fsatlas.results import export
    html = (site_root / "public" / "explorer" / "index.html").read_text()
    assert 'href="/downloads/fsatlas-samples.parquet"' in html
    for name in export.COLUMNS:
        assert f"<code>{name}</code>" in html
    published = pd.read_parquet(site_root / "public" / "downloads" / "fsatlas-samples.parquet")
    pd.testing.assert_frame_equal(published, export.frame(site_root / "data" / "results"))


def test_a_new_article_pinned_to_a_run_builds_and_passes_htmltest(tmp_path):
    """fsatlas article new: front matter naming the run and the comparison, its table from the
    aggregate, each run's chart; Hugo builds it and htmltest finds no broken link."""
    import shutil
    from fsatlas.commands.compare import validated
    from fsatlas.site import report
    from sitebuild import REPO, build_site, fsatlas
    from testutil import standard_run_with
    standard = standard_run_with("ext4", "xfs")
    data = tmp_path / "data"
    (data / "results").mkdir(parents=True)
    (data / "raw").mkdir()
    shutil.copy(standard, data / "results")
    shutil.copy(REPO / "data" / "raw" / f"{standard.stem}.tar.gz", data / "raw")
    done = fsatlas("article", "new", "ext4 or XFS for this machine", data / "results" / standard.name,
                   "--a", "ext4", "--b", "xfs", "--content", tmp_path / "content")
    page = tmp_path / "content" / "articles" / "ext4-or-xfs-for-this-machine.md"
    assert page.exists(), done.stderr
    assert f"- {standard.stem}" in page.read_text() and "compare:" in page.read_text()
    root = tmp_path / "site"
    build_site(root, data / "results", articles={page.name: page.read_text()})
    assert run_htmltest(root).returncode == 0
    html = (root / "public" / "articles" / "ext4-or-xfs-for-this-machine" / "index.html").read_text()
    rows = report.within(validated([str(standard)])[0], "ext4", "xfs")
    assert html.count("<td><code>") == len(rows) > 0
    assert f'results/{standard.stem}/' in html  # the run it is pinned to, named and linked


def test_every_page_has_a_skip_link_and_the_navigation_marks_where_the_reader_is(site_root):
    import re
    for path, current in (("features", "features/"), ("guides", "guides/"), ("", None)):
        html = _html(site_root, path)
        assert '<a class="skip-link" href="#main">' in html and '<main id="main"' in html
        marked = re.findall(r'<a href="([^"]*)" aria-current="page">', html)
        if current:
            assert [href for href in marked if href.endswith(current)] == marked and len(marked) == 1, marked
        else:
            assert re.search(r'<a class="brand" href="[^"]*" aria-current="page">', html) and marked == []


# run ids as long as real ones (date, machine label, profile): the run pickers must still fit a phone
A_RUN, B_RUN = "20261125T000000Z-m-0a1b2c3d4e-standard", "20261126T000000Z-m-5f6a7b8c9d-standard"


@pytest.mark.browser
def test_compare_never_mixes_runs_and_names_the_system_of_the_one_it_shows(page, tmp_path):
    """ext4 measured in one run, xfs in a later one on another machine: no figure of the two is
    set side by side; where a later run on that machine measured both, the page shows that run
    alone, naming its system (CPU, memory, storage, kernel) above the table."""
    from sitebuild import build_site
    results, first, cell = _seq_write_fixture(tmp_path)

    def run(rid, created, filesystems, system=None, device=None):
        doc = json.loads(json.dumps(first))
        doc.update(id=rid, created=created, cells=[dict(cell, filesystem=fs, key=f"{fs}|-|-|seq-write") for fs in filesystems])
        doc["system"].update(system or dict(cpu_model="AMD EPYC 7B13", kernel="6.1.0-56-amd64"))
        if device:  # the raw device's seq-write samples, in bytes/s, with their own summaries (a version 1 file's)
            from fsatlas.results import stats
            doc["target"].update(baseline_written=True, baseline={"seq-write": {"throughput": stats.summarize(
                device, "bytes/s", "higher")}})
        return write_run(tmp_path / "data", doc)
    ext4_run = run(A_RUN, "2026-11-25T00:00:00Z", ["ext4"], device=[1.0e9, 1.1e9, 1.2e9])
    xfs_run = run(B_RUN, "2026-11-26T00:00:00Z", ["xfs"], device=[2.9e9, 3.0e9, 3.4e9], system=dict(
        machine="m-other-host", cpu_model="Intel(R) Xeon(R) Platinum 8375C", kernel="6.12.57-amd64"))
    server = serve(build_site(tmp_path / "site", results))
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/compare/?a=ext4&b=xfs"
        page.goto(url)
        page.wait_for_selector("#compare[data-rendered]")
        assert "No run has measured both" in page.inner_text("#compare-figures")
        assert page.locator("#compare-figures table").count() == 0
        # across two runs only when asked, and then under the warning naming both runs and systems
        page.click("#compare-across summary")
        page.wait_for_function("document.getElementById('compare-run-b').options.length > 0")
        assert page.input_value("#compare-run-a") == A_RUN and page.input_value("#compare-run-b") == B_RUN
        page.click("#compare-across-show")
        page.wait_for_selector("#compare[data-rendered] #compare-mixed")
        assert page.url.endswith(f"?a=ext4&b=xfs&run_a={A_RUN}&run_b={B_RUN}")
        warning = page.inner_text("#compare-mixed")
        # the factors that differ are the comparison module's, worked out here from the two files
        from fsatlas.results import comparison
        plan = comparison.design([comparison.factors(ext4_run)], [comparison.factors(xfs_run)])
        differ = [k for k in plan["differ"] if k != "parameters"]
        assert "machine" in differ and "kernel" in differ
        assert page.get_attribute("#compare-mixed", "data-differ") == " ".join(differ)
        assert f"two runs that differ in {', '.join(differ)}" in warning
        assert f"ext4: run {A_RUN}" in warning and "AMD EPYC 7B13" in warning and "Linux 6.1.0-56-amd64" in warning
        assert f"xfs: run {B_RUN}" in warning and "Intel(R) Xeon(R) Platinum 8375C" in warning and "Linux 6.12.57-amd64" in warning
        # every figure worked out here from the two files: the cell's and the raw device's seq-write throughput
        from fsatlas.site.knowledge import display, significant
        fig = {d["id"]: d["cells"][0]["metrics"]["throughput"] for d in (ext4_run, xfs_run)}
        dev = {d["id"]: d["target"]["baseline"]["seq-write"]["throughput"] for d in (ext4_run, xfs_run)}
        a, b = fig[A_RUN]["mean"], fig[B_RUN]["mean"]
        da, db = dev[A_RUN]["mean"], dev[B_RUN]["mean"]
        rows = _compare_rows(page)
        row = next(r for r in rows if r[1].startswith("throughput"))
        assert row[0] == "seq-write" and row[2] == f"{len(fig[A_RUN]['samples'])}, {len(fig[B_RUN]['samples'])}"
        assert row[3:7] == [display(a, "bytes/s"), display(b, "bytes/s"), significant(b / a) + "×", display(da, "bytes/s")]
        assert row[7] == display(db, "bytes/s") and row[8].startswith(significant((b / db) / (a / da)) + "×")
        assert "baseline RSD" in row[8]  # the ext4 run's device spread (9 %) is over flags.RSD_LIMIT_PCT
        assert len(rows) == len(ext4_run["cells"][0]["metrics"]) and all(r[9] == plan["why"] for r in rows)
        assert plan["why"] == "not tested: one run per side"
        assert sum(r[8] != "–" for r in rows) == 1  # only throughput has a raw-device figure here
        assert page.locator("table[data-runs]").get_attribute("data-runs") == f"{A_RUN} {B_RUN}"
        # the address alone brings the view back, warning included, and on a phone nothing but the
        # table (which scrolls in its own box) is wider than the screen
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(page.url)
        page.wait_for_selector("#compare[data-rendered] #compare-mixed")
        assert len(_compare_rows(page)) == len(rows)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert page.errors == []
        run("ac-both", "2026-11-27T00:00:00Z", ["ext4", "xfs"])
        server.shutdown()
        server = serve(build_site(tmp_path / "site-again", results))
        page.goto(f"http://127.0.0.1:{server.server_address[1]}/compare/?a=ext4&b=xfs")
        page.wait_for_selector("#compare[data-rendered]")
        line = page.inner_text("#compare-runs")
        assert "one run, ac-both: AMD EPYC 7B13" in line and "Linux 6.1.0-56-amd64" in line and "storage:" in line
        assert page.locator("#compare-run option").all_inner_texts() == ["ac-both (tiny)"]
        assert page.locator("table[data-run]").evaluate_all("ts => ts.map(t => t.dataset.run)") == ["ac-both"]
        # a view across two runs that are not each filesystem's first (ac-both is first for both)
        # reopens from its address, as often as it is loaded, pickers and address unchanged
        across_url = f"http://127.0.0.1:{server.server_address[1]}/compare/?a=ext4&b=xfs&run_a={A_RUN}&run_b={B_RUN}"
        for _ in range(3):
            page.goto(across_url)
            page.wait_for_selector("#compare[data-rendered] #compare-mixed", timeout=10000)
            assert page.locator("#compare-across").evaluate("d => d.open")
            assert page.input_value("#compare-run-a") == A_RUN and page.input_value("#compare-run-b") == B_RUN
            assert page.locator("table[data-runs]").get_attribute("data-runs") == f"{A_RUN} {B_RUN}"
            page.wait_for_timeout(200)  # the panel's toggle event comes a task later: it must change nothing
            assert page.url == across_url and page.input_value("#compare-run-a") == A_RUN
        assert page.errors == []
    finally:
        server.shutdown()


@pytest.mark.browser
def test_a_feature_note_opens_with_a_tap_on_a_phone(page, site_url):
    """At 390 px a fact's note is one tap away (a title attribute reaches no touch reader)."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{site_url}/features/")
    note = page.locator("td.feat details.note").first
    assert not note.evaluate("d => d.open")
    note.locator("summary").click()
    assert note.evaluate("d => d.open") and note.inner_text().startswith("why\n")
    assert len(note.inner_text()) > len("why\n") + 10


@pytest.mark.browser
@pytest.mark.parametrize("path", ["/", "/features/", "/filesystems/ext4/", "/guides/", "/guides/access-time/", "/history/",
                                  "/methodology/", "/contribute/", "/corrections/", "/compare/?a=ext4&b=xfs", "/explorer/",
                                  "/results/", "/results/fixture-valid/", "/articles/", "/search/"])
def test_no_page_kind_scrolls_sideways_on_a_phone(page, site_url, path):
    """At 390 px the page itself never scrolls sideways: wide tables and charts scroll in their own box."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{site_url}{path}")
    page.wait_for_load_state("load")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.browser
def test_history_panels_name_their_unit_and_axis(page, site_url):
    """Each panel of a history chart says its measure with the unit the source printed, and its
    axis says the figures are as published."""
    page.goto(site_url + "/history/")
    page.wait_for_selector("figure.chart-drawn, figure.chart-failed", timeout=20000)
    assert page.locator("figure.chart-failed").count() == 0
    text = page.locator("figure[data-chart=history] svg").first.evaluate("s => s.textContent")
    assert "(MB/s)" in text and "as published" in text, text[:500]
    assert page.errors == []


@pytest.mark.browser
def test_a_chart_drawn_at_build_time_shows_without_a_script_and_loads_vega_only_when_reached_for(browser, site_url):
    """The home page's chart is an SVG in the page: it shows with JavaScript off; with it on, no
    Vega file is fetched until the reader clicks the chart, which then becomes the interactive
    view of the same spec (hover, focus and touch scrolling: test_light_pages)."""
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(site_url + "/")
    figure = page.locator("figure[data-chart=throughput]")
    assert figure.locator(".chart-view svg").count() == 1 and figure.locator(".mark-rect path, .mark-symbol circle").count() > 0
    context.close()
    context = browser.new_context()
    page = context.new_page()
    asked = []
    page.on("request", lambda r: asked.append(r.url))
    page.goto(site_url + "/")
    page.wait_for_load_state("networkidle")
    figure = page.locator("figure[data-chart=throughput]")
    assert figure.get_attribute("data-drawn") == "build" and "chart-drawn" in figure.get_attribute("class")
    assert not [u for u in asked if "/vendor/vega" in u]
    figure.locator(".chart-view").click()
    page.wait_for_function("() => !document.querySelector('figure[data-chart=throughput]').hasAttribute('data-drawn')")
    assert [u for u in asked if u.endswith("/vendor/vega.min.js")]
    assert figure.locator(".chart-view svg").count() == 1
    context.close()


def test_an_article_pinned_to_a_run_says_which_verdicts_a_newer_run_changes(tmp_path):
    """An article pinned to the older of two standard runs that both measured ext4 and XFS keeps
    the older run's table and, beneath it, names the newer run and each row it judges otherwise,
    as report.within judges the two runs."""
    import shutil
    from fsatlas.commands.compare import validated
    from fsatlas.site import report
    from sitebuild import REPO, build_site, fsatlas
    older, newer = (REPO / "data" / "results" / f"{rid}.json" for rid in
                    ("20261123T030418Z-m-042018a7f3-standard", "20261125T085339Z-m-05e18e6041-standard"))
    data = tmp_path / "data"
    (data / "results").mkdir(parents=True)
    (data / "raw").mkdir()
    for path in (older, newer):
        shutil.copy(path, data / "results")
        shutil.copy(REPO / "data" / "raw" / f"{path.stem}.tar.gz", data / "raw")
    fsatlas("article", "new", "ext4 or XFS, as first measured", data / "results" / older.name,
            "--a", "ext4", "--b", "xfs", "--content", tmp_path / "content")
    page = tmp_path / "content" / "articles" / "ext4-or-xfs-as-first-measured.md"
    root = tmp_path / "site"
    build_site(root, data / "results", articles={page.name: page.read_text()})
    html = (root / "public" / "articles" / "ext4-or-xfs-as-first-measured" / "index.html").read_text()
    mine = report.within(validated([str(older)])[0], "ext4", "xfs")
    theirs = {(r["key"], r["metric"]): r for r in report.within(validated([str(newer)])[0], "ext4", "xfs")}
    shared = [(r, theirs[(r["key"], r["metric"])]) for r in mine if (r["key"], r["metric"]) in theirs]
    differ = [(a, b) for a, b in shared if a["verdict"] != b["verdict"]]
    assert shared and html.count("<td><code>") == len(mine)
    assert f"A newer run, <a href=\"/results/{newer.stem}/\">{newer.stem}</a>" in html
    if differ:
        assert f"{len(differ)} of the {len(shared)} rows it shares get another verdict there" in html
        for a, b in differ:
            # the newer run's n and interval beside its verdict, as the pinned table gives them (#62)
            there = f"<code>{a['key']}</code> {a['metric']}: {a['verdict']} here, {b['verdict']} there (n = {b['n_a']}/{b['n_b']}"
            assert there in html
            if b["ratio_ci95"]:
                assert f"95 % interval {b['ratio_ci95'][0]:.3g}–{b['ratio_ci95'][1]:.3g}" in html[html.index(there):].split("</li>")[0]
    else:
        assert f"the same verdict on all {len(shared)} rows it shares" in html


def test_chart_marks_are_described_at_the_sites_precision(site_root):
    """A screen reader hears a bar's value as the page prints it (three significant digits), not
    as the float it was drawn from: the axis's figure is the row's mean as the table prints it
    (its shown mean, which the label also gives: test_chart_labels_give_figures_as_the_tables_print_them)."""
    import html as html_mod
    import re
    from fsatlas.site.knowledge import significant
    page = (site_root / "public" / "index.html").read_text()
    labels = [html_mod.unescape(m) for m in re.findall(r'<title>([^<]*mean MB/s[^<]*)</title>', page)]
    assert labels
    for label in labels:
        said = re.search(r"MB/s \(10\^6 bytes/s\): ([\d,.]+);", label)[1]
        printed = re.search(r"mean MB/s: ([\d,.]+);", label)[1]
        assert said == printed == significant(float(printed.replace(",", ""))), label


@pytest.mark.browser
@pytest.mark.parametrize("width", [1366, 1920])
def test_history_tables_fit_the_page_on_a_desktop(page, site_url, width):
    """Every history table, the re-run table's "Measured here" column too, fits its column at
    common desktop widths: nothing to scroll to, nothing clipped."""
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(site_url + "/history/")
    widths = page.evaluate("""() => [...document.querySelectorAll('article table')].map(
        t => [t.scrollWidth, (t.closest('.table-scroll') || t.parentElement).clientWidth])""")
    assert widths and all(table <= box for table, box in widths), widths


def _seq_write_fixture(tmp_path):
    """A data folder for runs made from the fixture's ext4 seq-write cell: (its results
    folder, the fixture result, that cell); the raw bundles are the fixture's."""
    results = tmp_path / "data" / "results"
    results.mkdir(parents=True)
    shutil.copytree(FIXTURES / "raw", tmp_path / "data" / "raw")
    first = json.loads((FIXTURES / "results" / "fixture-valid.json").read_text())
    return results, first, next(c for c in first["cells"] if c["key"] == "ext4|-|-|seq-write")


@pytest.mark.browser
def test_one_run_rule_on_the_home_page_explorer_filesystem_page_and_compare_page(page, tmp_path):
    """Three runs: ext2, ext4 and btrfs measured (the widest), then ext4 and xfs, then xfs alone
    (the newest complete run). The home page and the explorer's first view show the widest run;
    ext4's seq-write is the widest run's figure on its filesystem page and on the compare page,
    whose ext4/xfs row comes from the only run that measured both and says which run the other
    pages show."""
    from sitebuild import build_site
    from fsatlas.site.knowledge import display
    results, first, cell = _seq_write_fixture(tmp_path)
    runs = (("r-wide", "2026-11-25T00:00:00Z", ["ext2", "ext4", "btrfs"], 1.0),
            ("r-pair", "2026-11-26T00:00:00Z", ["ext4", "xfs"], 0.5), ("r-lone", "2026-11-27T00:00:00Z", ["xfs"], 0.25))
    for rid, created, filesystems, scale in runs:
        m = cell["metrics"]["throughput"]
        scaled = {**m, **{k: m[k] * scale for k in ("mean", "median", "stddev")}, "samples": [v * scale for v in m["samples"]],
                  "ci95": [v * scale for v in m["ci95"]]}
        doc = dict(first, id=rid, created=created, cells=[dict(cell, filesystem=fs, key=f"{fs}|-|-|seq-write", metrics={
            **cell["metrics"], "throughput": scaled}) for fs in filesystems])
        if rid == "r-lone":  # another label on the same hardware, with the disk under its image recorded
            doc["system"] = {**first["system"], "machine": "m-other-label"}
            doc["target"] = {**first["target"], "backing_device": "vda", "backing_rotational": True,
                             "backing_mount_options": "rw,relatime"}
        write_run(tmp_path / "data", doc)
    wide = display(cell["metrics"]["throughput"]["mean"], "bytes/s")
    server = serve(build_site(tmp_path / "site", results))
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        page.goto(f"{url}/explorer/")
        page.wait_for_function("document.getElementById('explorer').dataset.shown")
        checked = page.eval_on_selector_all("input[name=results]:checked", "bs => bs.map(b => b.value)")
        assert checked == ["r-wide"]
        assert "r-wide" in (tmp_path / "site" / "public" / "index.html").read_text()
        assert wide in (tmp_path / "site" / "public" / "filesystems" / "ext4" / "index.html").read_text()
        page.goto(f"{url}/compare/?a=ext4&b=xfs")
        page.wait_for_selector("#compare[data-rendered]")
        row = next(r for r in _compare_rows(page) if r[1].startswith("throughput"))
        assert row[3] == display(cell["metrics"]["throughput"]["mean"] * 0.5, "bytes/s")  # r-pair's: it measured both
        assert row[8].startswith("r-pair") and "ext4's figure on the other pages is from run r-wide" in \
            page.locator("#compare-figures tbody tr").first.inner_html()
        assert "r-pair" in page.inner_text("#compare-runs") and page.errors == []
        # the system table names the storage, and both labels' pages say they may be one host
        page.goto(f"{url}/results/r-lone/")
        system = page.inner_text("#system-table")
        assert "Storage device\nvda, rotational, model not reported" in system
        assert "Backing filesystem\next4 (rw,relatime)" in system and "virtio disk (label m-other-label)" in system
        # one tap from the machine's name: the labels whose results record the same hardware
        page.click("#system-table a[href$='results/#machines']")
        twins = page.inner_text("#machine-twins")
        assert f"Xeon 2 vCPU, KVM, virtio disk (m-other-label)\tXeon 2 vCPU, KVM ({first['system']['machine']})" in twins
        assert f"Xeon 2 vCPU, KVM ({first['system']['machine']})\tXeon 2 vCPU, KVM, virtio disk (m-other-label)" in twins
        listed = page.locator("#all-results tbody tr").all_inner_texts()
        assert listed[0].startswith("r-lone\t2026-11-27\tXeon 2 vCPU, KVM, virtio disk (m-other-label)\t"
                                    f"{first['system']['cpu_model']} (2)")
    finally:
        server.shutdown()


def test_one_cell_reads_the_same_on_every_page_or_the_page_names_the_run(tmp_path):
    """Issue 62, item 1: two pages never show different figures for one cell under one rule.
    r-wide (incomplete) measured ext2, ext4 and btrfs, r-pair (complete, so the reference run of
    the home chart, the results list and the explorer's first view) ext4 at half of that, and
    xfs. The rule takes ext4 seq-write from r-wide (3 filesystems on it): /filesystems/ext4/'s
    chart showed r-pair's figure above a table with r-wide's. Every chart's data of every
    page is read: each figure of a cell is the rule's, or the page says it shows one whole run
    and names the rule's run."""
    from sitebuild import build_site
    from fsatlas.site.knowledge import display
    results, first, cell = _seq_write_fixture(tmp_path)
    m = cell["metrics"]["throughput"]
    means = {}
    for rid, created, filesystems, scale, complete in (("r-wide", "2026-11-25T00:00:00Z", ["ext2", "ext4", "btrfs"], 1.0, False),
                                                       ("r-pair", "2026-11-26T00:00:00Z", ["ext4", "xfs"], 0.5, True)):
        scaled = {**m, **{k: m[k] * scale for k in ("mean", "median", "stddev")}, "samples": [v * scale for v in m["samples"]],
                  "ci95": [v * scale for v in m["ci95"]]}
        means[rid] = scaled["mean"]
        write_run(tmp_path / "data", dict(first, id=rid, created=created, complete=complete, cells=[dict(
            cell, filesystem=fs, key=f"{fs}|-|-|seq-write", metrics={**cell["metrics"], "throughput": scaled})
            for fs in filesystems]))
    root = tmp_path / "site"
    build_site(root, results)
    public = root / "public"
    rule = {"ext2": "r-wide", "ext4": "r-wide", "btrfs": "r-wide", "xfs": "r-pair"}

    def charted(html):
        """(key, result, mean) of every throughput figure in the page's charts' data: inline, or
        the file a chart drawn at build time names (its rows moved there: scripts/draw-charts.mjs)."""
        texts = re.findall(r'<script type="?application/json"? class="?chart-data"?>(.*?)</script>', html, re.S)
        texts += [(public / url.lstrip("/")).read_text()
                  for url in re.findall(r'<figure class="chart" data-drawn="build" data-rows="([^"]+)"', html)]
        rows = [row for data in texts for row in json.loads(data)]
        return [(r["key"], r["result"], r["mean"]) for r in rows if r.get("metric") == "throughput"]

    pages = {p.relative_to(public).as_posix(): p.read_text() for p in public.rglob("index.html")}
    seen = 0
    for name, html in pages.items():
        for key, result, mean in charted(html):
            fs = key.split("|")[0]
            seen += 1
            if (result, mean) != (rule[fs], means[rule[fs]]):
                # a whole run's chart: the page says so beside it and names the rule's run
                note = re.search(r'class="?run-note"? data-rule-runs="([^"]*)"', html)
                assert note and rule[fs] in note.group(1).split() and result in html, (name, key, result)
    assert seen and {"index.html", "filesystems/ext4/index.html"} <= set(pages)
    ext4 = pages["filesystems/ext4/index.html"]
    assert [(r, mean) for k, r, mean in charted(ext4) if k == "ext4|-|-|seq-write"] == [("r-wide", means["r-wide"])]
    assert display(means["r-wide"], "bytes/s") in ext4 and "run-note" not in ext4
    assert ("r-pair", means["r-pair"]) in [(r, mean) for k, r, mean in charted(pages["index.html"]) if k.startswith("ext4|")]
    for name in ("index.html", "results/index.html", "explorer/index.html"):  # one whole run's view: said beside it
        assert 'data-rule-runs="r-wide"' in pages[name], name


def test_a_pinned_article_keeps_its_runs_figures_and_says_where_a_newer_run_disagrees(tmp_path):
    """An article pinned to r-old (front matter `results`, as `fsatlas article new` writes it)
    ranks r-old's figures although r-new, newer and wider, measured the same cells at half of
    them (outside r-old's intervals): each such row names r-new's figure, under a warning."""
    from sitebuild import build_site
    from fsatlas.site.knowledge import display
    results, first, cell = _seq_write_fixture(tmp_path)
    m = cell["metrics"]["throughput"]
    for rid, created, filesystems, scale in (("r-old", "2026-11-25T00:00:00Z", ["ext4", "xfs"], 1.0),
                                             ("r-new", "2026-11-26T00:00:00Z", ["ext4", "xfs", "btrfs"], 0.5)):
        scaled = {**m, **{k: m[k] * scale for k in ("mean", "median", "stddev")}, "samples": [v * scale for v in m["samples"]],
                  "ci95": [v * scale for v in m["ci95"]]}
        doc = dict(first, id=rid, created=created, cells=[dict(cell, filesystem=fs, key=f"{fs}|-|-|seq-write", metrics={
            **cell["metrics"], "throughput": scaled}) for fs in filesystems])
        write_run(tmp_path / "data", doc)
    article = ('---\ntitle: "Pinned"\ndate: 2026-11-27\nresults:\n- r-old\n---\n\n'
               '{{< ranking name="seq-write|throughput" caption="One writer" >}}\n\n'
               '{{< history-compare dataset="seminar-bonnie-throughput" >}}\n')
    public = build_site(tmp_path / "site", results, {"pinned.md": article})
    html = (public / "articles" / "pinned" / "index.html").read_text()
    assert "the run this article is pinned to, <strong>" in html and "ranks first" in html and "r-old</a>" in html
    assert "A newer run disagrees with this pinned ranking beyond its interval on 2 figures" in html
    old, new = display(m["mean"], "bytes/s"), display(m["mean"] * 0.5, "bytes/s")
    # n and the 95 % interval beside each figure (#62 item 8), as the result file gives them
    from fsatlas.site.knowledge import display_number
    interval = f"{display_number(m['ci95'][0], 'bytes/s')}–{display(m['ci95'][1], 'bytes/s')}"
    # and the newer figure with its own n and interval (#62, third round)
    new_interval = f"{display_number(m['ci95'][0] * 0.5, 'bytes/s')}–{display(m['ci95'][1] * 0.5, 'bytes/s')}"
    assert sum(html.count(f'<td class="num">{old}<br><small class="newer" data-cell="{fs}|-|-|seq-write" data-metric="throughput">'
                          f'newer run <a href="/results/r-new/">r-new</a>: {new} (95 % interval {new_interval}, n = {len(m["samples"])})'
                          f'</small></td><td class="num">{interval}</td><td class="num">{len(m["samples"])}</td>')
               for fs in ("ext4", "xfs")) == 2
    # the site's own ranking (no pin) is r-new's
    assert "r-new" in (public / "filesystems" / "btrfs" / "index.html").read_text()
    # a published test beside "measured here": the pinned run's figure in the article, the run rule's elsewhere
    table = html[html.index("Measured here (same workload"):]
    table = table[:table.index("</table>")]
    assert "which this article is pinned to" in table and f"<td class=\"num\">{old} <small>" in table
    assert f"<td class=\"num\">{new} <small>" not in table
    history = (public / "history" / "index.html").read_text()
    assert f"{new} <small>" in history and f"{old} <small>" not in history


def test_the_minor_items_of_issue_62(site_root):
    """Backticks in a profile's description are code on the methodology page; the every-metric
    table, which scrolls sideways in its own box, can be reached with the keyboard."""
    methodology = (site_root / "public" / "methodology" / "index.html").read_text()
    assert "<code>make bench</code>" in methodology and "`make bench`" not in methodology
    cells = (site_root / "public" / "results" / "fixture-valid" / "cells" / "index.html").read_text()
    assert '<table class="data-table metrics-table" tabindex="0">' in cells


def test_every_cell_and_its_raw_output_are_one_tap_from_the_result_page(site_root):
    """The result page links its largest tables (every cell's metrics, the raw output) on a page
    of their own, under the result page's heading, every cell of the result in it, linking back
    (#62: the first chart paints sooner); in the search index under a title naming the result
    and what the page holds (#62 round 6: the tables' text was on no page search found)."""
    import html as html_mod
    folder = site_root / "public" / "results" / "fixture-valid"
    page, cells = (folder / "index.html").read_text(), (folder / "cells" / "index.html").read_text()
    assert 'href="cells/"' in page and "metrics-table" not in page and 'id="raw-output"' not in page
    assert "metrics-table" in cells and 'id="raw-output"' in cells and "data-pagefind-body" in cells
    assert "data-pagefind-body" in page
    assert '<h1 data-pagefind-meta="title:Result fixture-valid: every cell and metric">' in cells
    result = readable(json.loads((FIXTURES / "results" / "fixture-valid.json").read_text()))
    shown = html_mod.unescape(cells[cells.index("metrics-table"):])
    assert all(f"<code>{cell['key']}</code>" in shown for cell in result["cells"])
    heading = page[:page.index("</h1>")]
    # the same heading (the run's name), but for its <base> and search title; no second chart
    same = cells.replace(' data-pagefind-meta="title:Result fixture-valid: every cell and metric"', "", 1)
    assert same.startswith(heading.replace("<head>", '<head>\n  <base href="../">', 1))
    assert '<base href="../">' in cells and 'href="./"' in cells and "<figure" not in cells  # back: the result page


@pytest.mark.browser
def test_an_address_naming_no_result_opens_the_default_run_and_says_so(page, site_url):
    page.goto(f"{site_url}/explorer/?r=nope")  # the default view: its figures, the build's picture, no Vega
    page.wait_for_function("document.getElementById('explorer').dataset.shown")
    status = page.inner_text("#explorer .explorer-status")
    assert status.startswith("No result named nope on this site; showing fixture-valid. ") and "0 cells drawn" not in status
    assert " in ;" not in page.inner_text("#explorer-caption") and page.errors == []


def test_every_sample_downloads_as_csv_beside_the_parquet(site_root):
    """The explorer offers the CSV `fsatlas export --format csv` wrote, with the Parquet's rows."""
    import pandas as pd
    html = (site_root / "public" / "explorer" / "index.html").read_text()
    assert 'href="/downloads/fsatlas-samples.parquet" download' in html and 'href="/downloads/fsatlas-samples.csv" download' in html
    parquet = pd.read_parquet(site_root / "public" / "downloads" / "fsatlas-samples.parquet")
    csv_rows = pd.read_csv(site_root / "public" / "downloads" / "fsatlas-samples.csv")
    assert len(csv_rows) == len(parquet) > 0 and list(csv_rows.columns) == list(parquet.columns)
    assert sorted(csv_rows["value"].round(6)) == sorted(parquet["value"].round(6))


def test_filesystem_pages_start_each_sentence_with_a_capital(site_root):
    """#62 item 9: "merged in 2.5.36 (2002). the old V4 on-disk format…": the Linux note, a
    fragment, followed a full stop. In every paragraph of every filesystem page, a word after a
    full stop starts with a capital, unless it is a name written in lower case (a filesystem id,
    a word holding a digit, dot, hyphen or underscore: ntfs-3g, mkfs.ext4) or a list's label."""
    from html import unescape
    names = {p.stem for p in (site_root / "data" / "features").glob("*.yaml")}
    seen = 0
    for page in sorted((site_root / "public" / "filesystems").glob("*/index.html")):
        html = re.sub(r"<(script|pre|code|svg|table)\b.*?</\1>", " ", page.read_text(), flags=re.S)
        for paragraph in re.findall(r"<p\b[^>]*>(.*?)</p>", html, re.S):
            text = re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", "", paragraph)))
            seen += text.count(". ")
            for before, word, after in re.findall(r"(\w{2,}\)?)\. ([a-z][\w.-]*)(.?)", text):
                named = word in names or re.search(r"[\d._-]", word) or after == ":"
                assert named or before in ("e.g", "i.e"), f"{page.parent.name}: '{before}. {word}' in: {text[:300]}"
    assert seen > 50


def test_chart_labels_give_figures_as_the_tables_print_them(site_root):
    """#62 item 9: a bar's label read "mean MB/s: 1928.3; 95% CI low: 1839.9" (five digits, a
    format of the spec's own) beside a table printing 1,930. Every throughput bar drawn at build
    time gives its row's mean, interval and RSD as Python printed them (shown), and no figure in
    any bar's label has more than three significant digits."""
    public = site_root / "public"
    bars = 0
    for page in public.rglob("index.html"):
        html = page.read_text()
        for rows_url, svg in re.findall(r'<figure class="chart" data-drawn="build" data-rows="([^"]+)" data-chart="throughput".*?(<svg.*?</svg>)', html, re.S):
            rows = [r for r in json.loads((public / rows_url.lstrip("/")).read_text())
                    if r["metric"] == "throughput" and r["status"] == "ok"]
            labels = re.findall(r'<path role="graphics-symbol" aria-roledescription="bar"[^>]*><title>([^<]*)</title>', svg)
            assert len(labels) == len(rows) > 0
            shown = sorted((r["shown"]["mean"], r["shown"]["ci"], r["shown"]["rsd"]) for r in rows)
            fields = [dict(part.split(": ", 1) for part in label.replace("&amp;", "&").split("; ")) for label in labels]
            assert sorted((f["mean MB/s"], f["95% CI (MB/s)"], f["RSD"]) for f in fields) == shown
            for f in fields:
                for title, value in f.items():
                    if "MB/s" in title or "CI" in title:
                        for number in re.findall(r"[\d,]*\.?\d+", value):
                            digits = number.replace(",", "").replace(".", "").lstrip("0")
                            if "." not in number:
                                digits = digits.rstrip("0")  # 1,930: three significant digits
                            assert len(digits) <= 3, (title, value)
            bars += len(labels)
    assert bars > 0


def test_every_measured_here_row_gives_n_and_the_result_files_interval_and_links_to_its_cell(site_root):
    """The adversary's second round: "Measured here" on every /filesystems/*/ page had no interval
    and printed metric ids (cpu_sys_pct). Every row's n and 95 % interval are the result file's
    (read as a reader's program would: resultfile.readable) for the run the row names, its metric
    is named in words, and it links to the cell's rows on that run's page of every cell."""
    from fsatlas.results import metrics, stats
    from fsatlas.site.knowledge import display
    results = {r["id"]: r for r in (readable(json.loads(p.read_text())) for p in (FIXTURES / "results").glob("*.json"))}
    checked = 0
    for page in sorted((site_root / "public" / "filesystems").glob("*/index.html")):
        html = page.read_text()
        if 'class="data-table cells-table"' not in html:
            continue
        table = html[html.index('class="data-table cells-table"'):]
        table = table[:table.index("</table>")]
        # a cell's flags stand on each of its metric rows: the column says they are the cell's, and
        # the legend that noisy is judged on its main measure (round 14: "noisy" beside a zero-width interval)
        assert "Cell's flags</th>" in table and "the cell's main measure's 95 % interval" in html, page
        for key, name, rid, row in re.findall(r'<tr data-key="([^"]+)" data-metric="([^"]+)" data-result="([^"]+)">(.*?)</tr>',
                                              table, re.S):
            key = key.replace("&#43;", "+")
            m = next(c for c in results[rid]["cells"] if c["key"] == key)["metrics"][name]
            figures = re.findall(r'<td class="num">([^<]*)</td>', row)
            low, high = stats.bounded_interval(m)
            assert figures[1] == f"{display(low, m['unit'])} – {display(high, m['unit'])}", (page, key, name, figures)
            assert figures[3] == str(len(m["samples"])), (page, key, name, figures)
            link = re.search(r'<a href="([^"]*/results/([^/]+)/cells/)#([^"]+)">([^<]+)</a>', row)
            assert link and link.group(2) == rid and link.group(4) == metrics.label(name), (page, row)
            assert name not in row or name == metrics.label(name), (page, row)  # "cpu_sys_pct" was printed
            cells_page = (site_root / "public" / "results" / rid / "cells" / "index.html").read_text()
            anchor = cells_page[cells_page.index(f'<tbody id="{link.group(3)}">'):]
            assert f"<code>{key}</code>" in anchor[:anchor.index("</tbody>")]
            checked += 1
    assert checked >= len([n for c in RESULT["cells"] if c["status"] == "ok" for n in c["metrics"]
                           if not n.startswith(("lat_", "cpu_usr"))]) > 0


def _scheme_colours() -> dict:
    """{scheme: (page ground, chart ink)} as static/css/site.css sets them, light and dark."""
    css = (REPO / "static" / "css" / "site.css").read_text()
    light, dark = css.split("@media (prefers-color-scheme: dark)", 1)
    pick = lambda text: dict(re.findall(r"--(bg|chart-ink):\s*(#[0-9a-fA-F]{3,6})", re.search(r":root\s*\{[^}]*\}", text)[0]))
    return {name: (v["bg"], v["chart-ink"]) for name, v in (("light", pick(light)), ("dark", pick(dark)))}


def _rgb(paint: str, ink: str):
    """A paint as (r, g, b) in 0..255, None for no paint ("none", "transparent")."""
    paint = ink if paint == "currentColor" else paint
    if paint in ("none", "transparent"):
        return None
    if re.fullmatch(r"#[0-9a-fA-F]{3}", paint):
        paint = "#" + "".join(2 * c for c in paint[1:])
    if re.fullmatch(r"#[0-9a-fA-F]{6}", paint):
        return tuple(int(paint[i:i + 2], 16) for i in (1, 3, 5))
    found = re.fullmatch(r"rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*[\d.]+)?\)", paint)
    assert found, f"a paint this test cannot read: {paint}"
    return tuple(float(v) for v in found.groups())


def _contrast(a, b) -> float:
    """WCAG 2's contrast ratio of two sRGB colours."""
    def luminance(c):
        linear = [v / 255 / 12.92 if v / 255 <= 0.03928 else ((v / 255 + 0.055) / 1.055) ** 2.4 for v in c]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def marks_below_3_to_1(svg_text: str, ground: str, ink: str) -> list:
    """Every mark and legend symbol of a build SVG as drawn, with no page CSS (an export, Vega's
    own drawing), whose fill (its colour at its opacity and fill-opacity, blended over the
    ground) and stroke (likewise, at least 1 px wide) are both below 3:1 against the ground."""
    import xml.etree.ElementTree as ET
    root = ET.fromstring(svg_text)
    parent = {child: node for node in root.iter() for child in node}
    behind = _rgb(ground, ink)
    low = []

    def inherited(e, name, default):
        while e is not None:
            if e.get(name) is not None:
                return e.get(name)
            e = parent.get(e)
        return default

    def seen(paint, alpha):
        colour = _rgb(paint, ink)
        if colour is None or alpha <= 0:
            return 0.0
        return _contrast([c * alpha + g * (1 - alpha) for c, g in zip(colour, behind)], behind)

    for group in root.iter():
        if not re.search(r"\brole-(mark|legend-symbol)\b", group.get("class", "")):
            continue
        for e in group.iter():
            tag = e.tag.rsplit("}", 1)[-1]
            if tag not in ("path", "rect", "circle", "line", "text") or (tag == "path" and not e.get("d")) \
                    or (tag == "text" and not "".join(e.itertext()).strip()):
                continue
            opacity, a = 1.0, e
            while a is not None:
                opacity *= float(a.get("opacity", 1))
                a = parent.get(a)
            fill = 0.0 if tag == "line" else seen(inherited(e, "fill", "#000"), opacity * float(inherited(e, "fill-opacity", 1)))
            stroke = seen(inherited(e, "stroke", "none"), opacity * float(inherited(e, "stroke-opacity", 1))) \
                if float(inherited(e, "stroke-width", 1)) >= 1 else 0.0
            if max(fill, stroke) < 3:
                low.append(f"{tag} {e.get('fill')}/{e.get('stroke')} at opacity {opacity}: {max(fill, stroke):.2f}:1 "
                           f"({group.get('class')})")
    return low


def test_every_mark_of_every_build_svg_keeps_3_to_1_as_drawn_in_either_scheme(site_root):
    """#62 round 7, item 1: a flagged bar was drawn at opacity 0.5 with no outline: every category
    colour blended with the page gave 1.75-2.22:1 on white and on #15171b (#4c78a8: 1.95 and 1.90),
    below WCAG 1.4.11's 3:1 for graphics (the page's CSS outlined it on screen, no export or Vega
    drawing did). Rule: every mark and legend symbol of every SVG the build drew, on every page,
    as its SVG draws it (fill at its opacity over the page's ground, and stroke), keeps 3:1 in the
    light and the dark scheme, the ground and the ink (currentColor) read from the site's CSS;
    the fixture's flagged bars (noisy, cached, emulated) among them."""
    schemes = _scheme_colours()
    assert set(schemes) == {"light", "dark"} and schemes["light"] != schemes["dark"]
    low, charts, pale = {}, 0, 0
    for page in sorted((site_root / "public").rglob("*.html")):
        for svg in re.findall(r"<svg [^>]*class=\"marks\".*?</svg>", page.read_text(), re.S):
            charts += 1
            pale += len(re.findall(r'fill-opacity="0\.\d+"', svg))
            for scheme, (ground, ink) in schemes.items():
                found = marks_below_3_to_1(svg, ground, ink)
                if found:
                    low[f"{page.relative_to(site_root)} {scheme}"] = sorted(set(found))[:5]
    assert charts > 5 and pale > 0 and low == {}, low


def test_a_guide_bars_hover_prints_its_change_as_the_guide_table_does(committed_root):
    """#62 round 10, item 3: a guide bar's hover gave its change twice at two roundings ("change
    against the baseline (%): −0.0752" and "measured change %: −0.1", with a minus sign the
    table beside it does not print: "-0.1"), and the claimed line's "expected_change_pct: −10"
    where the table says "claimed: -10 %". Rule: one figure, one rounding: every bar's <title>
    on every guide prints its measured and claimed change exactly as its claim's table row
    prints them, and no other figure of the change; every measured row has its bar. Beside the
    example: negative changes, changes that round to 0.0, claimed changes of 0 and below 0."""
    import html as html_mod
    bars = 0
    printed = []
    for page in sorted((committed_root / "public" / "guides").glob("*/index.html")):
        for claim in page.read_text().split('<div class="claim">')[1:]:
            rows = {}
            for kind, cell, baseline, said in re.findall(r'<tr class="verdict-([^"]*)"><td><code>(.*?)</code></td><td><code>(.*?)</code></td>\s*<td>(.*?)</td></tr>', claim, re.S):
                said = html_mod.unescape(said)
                measured = re.search(r" was (\S+) % against the baseline", said)
                if measured and kind != "cannot-show":  # charted: measured and tested (a cannot-show row is not)
                    rows[html_mod.unescape(cell), html_mod.unescape(baseline)] = (measured[1], re.search(r"\(claimed: (\S+) %\)", said)[1])
            titles = [html_mod.unescape(t) for t in re.findall(r"<title>([^<]*)</title>", claim)]
            hovered = {}
            for title in titles:
                if "claimed change %" not in title:
                    continue
                assert "change against the baseline" not in title and "expected_change_pct" not in title, title
                if "measured change %" in title:  # a bar (the claimed line's own title names the claimed change)
                    found = re.search(r"cell: (.*?); baseline: (.*?);.* measured change %: (\S+); claimed change %: (\S+);", title)
                    hovered[found[1], found[2]] = (found[3], found[4])
                else:
                    assert {re.search(r"claimed change %: (\S+)$", title)[1]} == {c for _, c in rows.values()}, (page, title)
            assert hovered == rows, page
            bars += len(hovered)
            printed += hovered.values()
    changes = [float(m) for m, _ in printed]
    claims = {float(c) for _, c in printed}
    assert bars > 10 and min(changes) < 0 < max(changes) and min(claims) < 0 and 0 in claims, (bars, printed)
    assert any(abs(c) < 0.5 for c in changes)  # changes that round to a tenth near zero


LIGHT_PAGE_BYTES = 150_000  # config.toml's light_page_bytes: home and each guide, uncompressed (#62)
SITE_ORIGIN = "http://site.invalid/"  # the committed config's baseURL "/" on some host


class _FirstViewLoads(HTMLParser):
    """The addresses a page has loaded with it, read the standard library's way (draw-charts.mjs
    reads them with regular expressions): <script src>, <link href> of rel stylesheet, icon,
    preload or modulepreload, <img src> and srcset; and the tags of any other kind that loads
    a file (iframe, object, ...), which the budget does not weigh and a page must not have."""
    OTHER = {"iframe", "object", "embed", "video", "audio", "source", "frame"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.addresses, self.unweighed = [], []

    def handle_starttag(self, tag, attrs):
        a = {}
        for name, value in attrs:
            a.setdefault(name, value or "")
        if tag == "script" and a.get("src"):
            self.addresses.append(a["src"])
        elif tag == "link" and a.get("href") and {"stylesheet", "icon", "preload", "modulepreload"} & set(a.get("rel", "").lower().split()):
            self.addresses.append(a["href"])
        elif tag == "img":
            if a.get("src"):
                self.addresses.append(a["src"])
            self.addresses += [c.split()[0] for c in a.get("srcset", "").split(",") if c.strip()]
        elif tag in self.OTHER:
            self.unweighed.append(tag)


def first_view_files(page, public, base=SITE_ORIGIN, roots=()) -> dict:
    """{path under the site: bytes} of each file of the site `page` (a file under `public`)
    loads with it, each address once, resolved against the page's own as a browser does."""
    from urllib.parse import unquote, urldefrag, urljoin, urlsplit
    parser = _FirstViewLoads()
    parser.feed(page.read_text())
    assert parser.unweighed == [], (page, parser.unweighed)
    at = urljoin(base, re.sub(r"(^|/)index\.html$", r"\1", page.relative_to(public).as_posix()))
    top, seen, files = urlsplit(base), set(), {}
    for address in parser.addresses:
        url = urldefrag(urljoin(at, address)).url
        parts = urlsplit(url)
        if (parts.scheme, parts.netloc) != (top.scheme, top.netloc) or not parts.path.startswith(top.path) or url in seen:
            continue
        seen.add(url)
        relative = unquote(parts.path[len(top.path):])
        if not relative or relative.endswith("/"):
            relative += "index.html"
        found = [root / relative for root in (public, *roots) if (root / relative).is_file()]
        assert found, (page, address)
        files[relative] = files.get(relative, 0) + found[0].stat().st_size
    return files


def first_view_bytes(page, public, **where) -> int:
    """The bytes `page` loads at first view: its HTML and the files of first_view_files."""
    return page.stat().st_size + sum(first_view_files(page, public, **where).values())


def drawer_weighs(public, pages, files="", base="/") -> dict:
    """{page: bytes} as scripts/draw-charts.mjs --weigh counts them, the count its budget holds."""
    import subprocess
    done = subprocess.run(["node", REPO / "scripts" / "draw-charts.mjs", "--weigh", public, files, base, *pages],
                          capture_output=True, text=True, check=True)
    assert done.stderr == "", done.stderr
    return {line.split("\t")[1]: int(line.split("\t")[0]) for line in done.stdout.splitlines()}


def test_home_and_guides_stay_under_150_kb_with_more_filesystems_than_today(committed_root, tmp_path):
    """#62 round 7, item 2: home was under 150 KB only with today's data: one realistic
    contribution (the same machine, the six filesystems skipped for missing tools measured,
    /tmp/adv-62r7/syn.py) made it 172 KB, 111 KB of it the build SVG, growing with bars x
    repetitions. Rule: home and each guide weigh at most 150,000 bytes whatever the data: the
    build draws their charts with fewer marks when needed and says so in the caption. Checked on
    the committed site as built, and on its home page redrawn (scripts/draw-charts.mjs, as the
    build runs it) with its run's rows and, as syn.py makes them, the filesystems the run skipped
    measured (ext4's rows copied): the page fits, every bar keeps its <title> (mean, interval,
    samples, result file), the caption says the repetitions' dots are left out; and again with
    every filesystem the features list measured: the page fits with its first workloads, and
    the caption says how many of how many it shows.
    Round 10: the budget counts what the page loads at first view, not its HTML alone (a page of
    150 KB of HTML loaded 176 KB with the site's stylesheet and scripts): each page's HTML and
    the site's files its tags load (first_view_files, read with html.parser, each address once,
    files of other hosts not), as the drawer weighs them too (--weigh), within the budget; beside
    it, a stylesheet named twice, scripts of another host, a query string and a comment."""
    import html as html_mod
    import subprocess
    public = committed_root / "public"
    weighed = [public / "index.html", *sorted((public / "guides").glob("*/index.html"))]
    assert len(weighed) > 3
    # what each loads at first view: its HTML, the site's stylesheet, scripts and icon (not Vega)
    css = (public / "css" / "site.css").read_text()
    assert "url(" not in css and "@import" not in css  # no font or image a first view would load too
    drawer = drawer_weighs(public, weighed)
    for page in weighed:
        loads = first_view_files(page, public)
        assert "css/site.css" in loads and not any(name.startswith("vendor/") for name in loads), loads
        assert page.stat().st_size + sum(loads.values()) <= LIGHT_PAGE_BYTES, (page, loads)
        assert drawer[str(page)] == first_view_bytes(page, public), page
    home = (public / "index.html").read_text()
    figure = re.search(r'<figure class="chart" data-drawn="build" data-rows="([^"]+)"( data-lighter="[^"]*")?([^>]*)>(\s*)'
                       r'<div class="chart-view"([^>]*)><svg.*?</svg></div>', home, re.S)
    rows = json.loads((public / figure[1].lstrip("/")).read_text())
    measured = {r["filesystem"] for r in rows if r["status"] == "ok"}
    skipped = {r["filesystem"] for r in rows if r["status"] == "skipped"} - measured
    listed = {p.stem for p in (committed_root / "data" / "features").glob("*.yaml")}
    assert len(skipped) >= 5 and "ext4" in measured and len(listed - measured) > len(skipped)
    spec = html_mod.unescape(re.search(r'data-spec="([^"]+)"', figure[3])[1]).split("?")[0].lstrip("/")

    def redrawn(more: set, folder, head="") -> tuple:
        """(the figure as drawn, its rows) of home redrawn with `more` filesystems measured (and
        `head` at the end of its head), the site's other files served from the committed build."""
        heavier = [r for r in rows if r["filesystem"] not in more] + [
            {**r, "filesystem": fs, "label": r["label"].replace("ext4", fs, 1)} for fs in sorted(more) for r in rows if r["filesystem"] == "ext4"]
        undrawn = (f'<figure class="chart"{figure[3]}>{figure[4]}<div class="chart-view"{figure[5]}></div>\n'
                   f'<script type="application/json" class="chart-data">{json.dumps(heavier)}</script>')
        (folder / spec).parent.mkdir(parents=True)
        shutil.copy(public / spec, folder / spec)
        (folder / "index.html").write_text((home[:figure.start()] + undrawn + home[figure.end():]).replace("</head>", head + "</head>", 1))
        done = subprocess.run(["node", REPO / "scripts" / "draw-charts.mjs", folder, tmp_path / "cache", public],
                              capture_output=True, text=True, check=True)
        assert "over its budget" not in done.stderr, done.stderr
        page = (folder / "index.html").read_text()
        loaded = first_view_bytes(folder / "index.html", folder, roots=(public,))
        assert len(page.encode()) < loaded <= LIGHT_PAGE_BYTES, loaded
        assert drawer_weighs(folder, [folder / "index.html"], public) == {str(folder / "index.html"): loaded}
        drawn = re.search(r'<figure class="chart" data-drawn="build"[^>]* data-lighter="[^"]*".*?</figure>', page, re.S)
        assert drawn, "the heavier home was not drawn lighter"
        assert "<circle" not in drawn[0]  # the repetitions' dots, which grow with bars x repetitions
        titles = re.findall(r'aria-roledescription="bar"[^>]*><title>([^<]*)</title>', drawn[0])
        assert titles and all("95% CI (MB/s): " in t and "samples: " in t and "result file: " in t for t in titles)
        caption = re.search(r"<figcaption>(.*?)</figcaption>", drawn[0], re.S)[1]
        assert "leaves out the repetitions' dots" in caption
        ok = [r for r in heavier if r["metric"] == "throughput" and r["status"] == "ok"]
        return titles, ok, caption

    # the adversary's contribution, its head naming the stylesheet again (relative, with a
    # fragment: the same address), a script of another host (not a file of the site), one of the
    # site's scripts with a query string (weighed), and one in a comment (not loaded)
    titles, ok, caption = redrawn(skipped, tmp_path / "syn", head=(
        '<link rel="stylesheet" href="css/site.css"><link rel="stylesheet" href="/css/site.css#again">'
        '<script src="https://cdn.example.org/x.js"></script><script src="//cdn.example.org/y.js"></script>'
        '<link rel="preload" as="script" href="./js/tables.js?v=2"><!-- <script src="/js/compare.js"></script> -->'))
    assert first_view_files(tmp_path / "syn" / "index.html", tmp_path / "syn", roots=(public,)) == {
        name: (public / name).stat().st_size for name in ("favicon.svg", "css/site.css", "js/chart-spec.js", "js/charts.js", "js/tables.js")}

    def first_workloads(titles, ok, caption) -> int:
        """How many workloads the picture shows, as its caption says and its bars are."""
        shown, of = map(int, re.search(r"shows its first (\d+) of (\d+) workloads", caption).groups())
        workloads = sorted({r["workload"] for r in ok})
        assert of == len(workloads) and 0 < shown < of
        assert len(titles) == sum(r["workload"] in workloads[:shown] for r in ok)
        return shown
    # with the 25 KB of stylesheet and scripts weighed, it fits only with its first workloads
    # (with its HTML alone weighed, it fitted without its dots: 143 KB, and 168 KB as loaded)
    some = first_workloads(titles, ok, caption)
    assert first_workloads(*redrawn(listed - measured, tmp_path / "every")) <= some


def test_an_articles_comparison_prints_every_adjusted_p_and_ratio_the_aggregate_holds(tmp_path):
    """The rule: the comparison shortcode prints a row's adjusted p and B/A as Python's %.2g and
    %.3g print them, and "–" only where the aggregate holds none (#60 round 56: p = 0, a test
    whose p underflowed, printed "–", Go's `with` taking 0 for empty). Real Hugo, the project's
    shortcode, values drawn at random beside the named zero."""
    import random
    import subprocess
    draw = random.Random(56)
    ps = [0.0, None, 5e-324, 1.0] + [10 ** draw.uniform(-300, 0) for _ in range(30)]
    ratios = [0.0, None, 1.0, 1e-9] + [10 ** draw.uniform(-3, 3) for _ in range(30)]
    rows = [{"key": f"ext4|-|-|w{i}", "metric": "throughput", "a_shown": "1", "b_shown": "2", "n_a": 3, "n_b": 3,
             "ratio": r, "p_adjusted": p, "status": "tested", "verdict": "better", "why": "Welch"}
            for i, (p, r) in enumerate(zip(ps, ratios))]
    (tmp_path / "layouts" / "shortcodes").mkdir(parents=True)
    (tmp_path / "layouts" / "_default").mkdir()
    shutil.copy(REPO / "layouts" / "shortcodes" / "comparison.html", tmp_path / "layouts" / "shortcodes")
    (tmp_path / "layouts" / "_default" / "single.html").write_text("{{ .Content }}")
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "a.md").write_text('---\ntitle: a\n---\n{{< comparison key="A|B" >}}\n')
    (tmp_path / "data" / "aggregates").mkdir(parents=True)
    (tmp_path / "data" / "aggregates" / "comparisons.json").write_text(json.dumps(
        {"A|B": {"a": "ext4", "b": "xfs", "tests": "Welch", "rows": rows}}))
    (tmp_path / "config.toml").write_text('baseURL = "/"\ndisableKinds = ["taxonomy", "term", "RSS", "sitemap"]\n')
    subprocess.run(["hugo", "--quiet", "--source", tmp_path], check=True)
    page = (tmp_path / "public" / "a" / "index.html").read_text()
    shown = re.findall(r'<td class="num">([^<]*)</td>\s*<td class="num">([^<]*)</td><td>better', page)
    assert shown == [("" if r is None else f"{r:.3g}", "–" if p is None else f"{p:.2g}") for p, r in zip(ps, ratios)]
