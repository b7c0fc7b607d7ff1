"""The site built from every committed result and article (#62, third adversary round): the
run-at-a-glance heat map's links, the articles' newer-run notes, the machine names readers see.
Each rule is checked over every page of that build, not over one named example."""
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest

from sitebuild import REPO, other_runs_by_hand, other_runs_said

pytestmark = pytest.mark.site


@pytest.fixture(scope="session")
def committed(committed_root) -> Path:
    """The public folder of the site built from data/results and content/articles, as make site
    builds it (conftest's one build of it, which other files' tests read too)."""
    return committed_root / "public"


class _Page(HTMLParser):
    """A page's ids, its <base href>, each <a href> (with the classes of the elements around
    it), its text outside script, style, code and pre, and the text of its title, aria-label and alt
    attributes."""
    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids, self.links, self.text, self.said, self.base, self.stack = set(), [], [], [], None, []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "base" and self.base is None:
            self.base = attrs.get("href")
        for name in ("title", "aria-label", "alt"):  # text a reader is shown on hover or hears
            if attrs.get(name):
                self.said.append(attrs[name])
        if tag == "a" and attrs.get("href") is not None:
            self.links.append((attrs["href"], [cls for _, cls in self.stack]))
        if tag not in self.VOID:
            self.stack.append((tag, attrs.get("class") or ""))

    def handle_endtag(self, tag):
        if any(t == tag for t, _ in self.stack):
            while self.stack and self.stack.pop()[0] != tag:
                pass

    def handle_data(self, data):
        if not {"script", "style", "code", "pre", "template"} & {t for t, _ in self.stack}:
            self.text.append(data)


def parsed(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text())
    return page


def resolve(public: Path, page_path: Path, page: _Page, href: str) -> tuple[Path, str]:
    """(the file a link on a page of the built site opens, its fragment), as a browser resolves it
    (the page's <base> included); the site is served from /."""
    here = "http://site/" + page_path.relative_to(public).as_posix()
    target = urlsplit(urljoin(urljoin(here, page.base) if page.base else here, href))
    path = unquote(target.path).lstrip("/")
    if path == "" or path.endswith("/"):
        path += "index.html"
    return public / path, target.fragment


def test_every_heat_map_figure_links_to_its_cells_figures(committed):
    """Rule: every run's page has its heat map, and every link in it opens the anchor of that
    cell's figures (n, interval), wherever they live now (the page of every cell): each
    href#fragment is an id of its target."""
    pages = sorted(committed.glob("results/*/index.html"))
    assert len(pages) == len(list((REPO / "data" / "results").glob("*.json")))
    checked = 0
    for path in pages:
        html = path.read_text()
        # every run has its overview, a run of one filesystem too (#62, third round)
        table = re.search(r'<table class="data-table overview-table".*?</table>', html, re.S)
        assert table, path
        page = parsed(path)
        links = [href for href, around in page.links if any("overview-table" in c for c in around)]
        # every figure is a link; "–" (not measured) is not
        figures = len(re.findall(r'<td class="num', table.group(0))) - table.group(0).count("heat-none")
        assert len(links) == figures > 0, path
        targets: dict[Path, set] = {}
        for href in links:
            target, fragment = resolve(committed, path, page, href)
            assert target.is_file(), (path, href)
            if target not in targets:
                targets[target] = parsed(target).ids
            assert fragment and fragment in targets[target], (path, href)
            checked += 1
    assert checked > 100


def _close(shown: str, value: float, factor: float) -> bool:
    """A figure printed to 3 significant digits ("1,020") is the value in the unit shown."""
    figure, exact = float(shown.replace(",", "")), value * factor
    return abs(figure - exact) <= 0.005 * abs(exact) + 1e-12


NEWER = re.compile(r'<small class="newer" data-cell="([^"]*)" data-metric="([^"]*)">newer run <a href="[^"]*">([^<]+)</a>: '
                   r"([^<]*?) \(95 % interval ([0-9.,]+)–([0-9.,]+) (\S+), n = (\d+)\)</small>")


def test_every_newer_run_note_carries_the_newer_files_n_and_interval(committed):
    """Rule: a pinned article's note of a newer run gives that run's figure with its n and 95 %
    interval, as the pinned figure beside it: the ones its result file holds (resultfile.readable)."""
    import json
    from fsatlas.results.resultfile import readable
    from fsatlas.site.knowledge import DISPLAY_UNITS
    files: dict[str, dict] = {}
    checked = 0
    for path in sorted(committed.glob("articles/*/index.html")):
        html = path.read_text()
        notes = NEWER.findall(html)
        assert len(notes) == html.count('class="newer"') == html.count("newer run <a"), path  # no note without them
        for key, metric, rid, display, low, high, unit, n in notes:
            if rid not in files:
                files[rid] = readable(json.loads((REPO / "data" / "results" / f"{rid}.json").read_text()))
            result = files[rid]
            m = next(c for c in result["cells"] if c["key"] == key and c["status"] == "ok")["metrics"][metric]
            factor, shown_unit = DISPLAY_UNITS[m["unit"]]
            assert int(n) == len(m["samples"]), (path, key, metric)
            assert unit == shown_unit and _close(low, m["ci95"][0], factor) and _close(high, m["ci95"][1], factor), \
                (path, key, metric, low, high, m["ci95"])
            assert _close(display.split()[0], m["mean"], factor), (path, key, metric, display)
            checked += 1
    assert checked >= 10


LABEL = re.compile(r"(?<![\w-])m-[0-9a-f]{10}(?![\w-])")  # a machine's hash label, not inside a run id


def bare_labels(committed: Path, pages) -> list:
    """(page, text around it) for each machine hash label a page shows a reader (its text, its
    tooltips) without the machine's human name (results/machines.name) right before it, as
    "NAME (m-…)" or "NAME (label m-…)"."""
    import json
    from fsatlas.results import machines
    from fsatlas.results.resultfile import readable
    names: dict[str, set] = {}
    for path in (REPO / "data" / "results").glob("*.json"):
        result = readable(json.loads(path.read_text()))
        names.setdefault(result["system"]["machine"], set()).add(machines.name(result))
    found = []
    for path in pages:
        page = parsed(path)
        for text in ["".join(page.text), *page.said]:
            for m in LABEL.finditer(text):
                before = text[:m.start()]
                if not any(before.endswith((f"{name} (", f"{name} (label ")) for name in names.get(m.group(0), ())):
                    found.append((path.relative_to(committed).as_posix(), text[max(0, m.start() - 80):m.end()]))
    return found


def test_no_page_shows_a_machine_hash_without_its_name(committed):
    """Rule: no page text a reader sees (outside addresses, ids and code) shows a bare machine
    label (m- and ten hex digits) where the machine has a human name: every page of the build."""
    pages = [p for p in sorted(committed.rglob("*.html")) if p.relative_to(committed).parts[0] != "explorer"]
    assert len(pages) > 50
    found = bare_labels(committed, pages)
    assert not found, found[:5]


def test_the_explorer_shows_no_machine_hash_without_its_name(committed):
    assert not bare_labels(committed, [committed / "explorer" / "index.html"])


@pytest.mark.browser
def test_an_address_naming_no_run_says_so_and_shows_the_default_view(browser, committed_url):
    """Rule: an empty or unknown r= in the explorer's address says what happened and shows the
    default view (its run, its cells), as ?r=nope does: empty, blank, commas alone, and both."""
    import json
    import urllib.request
    with urllib.request.urlopen(committed_url + "/explorer/data.json") as r:
        default = json.loads(r.read())["default"]
    context = browser.new_context()
    page = context.new_page()

    def said(query: str) -> str:
        page.goto(committed_url + "/explorer/" + query)
        page.wait_for_function("document.getElementById('explorer').dataset.shown")  # its figures, with or without Vega
        return page.inner_text("#explorer .explorer-status")

    drawn = re.search(r"(\d+) cells? drawn", said("")).group(1)
    assert int(drawn) > 0
    for query in ("?r=", "?r=%20", "?r=,", "?r=,,%20,", "?r=%20%20&fs=ext4,xfs", "?r=nope,%20"):
        text = said(query)
        if "nope" in query:
            assert text.startswith(f"No result named nope on this site; showing {default}. "), (query, text)
        else:
            assert text.startswith(f"The address names no run (r= is empty); showing {default}. "), (query, text)
        cells = re.search(r"(\d+) cells? drawn", text).group(1)
        assert int(cells) > 0 and (cells == drawn or "fs=" in query), (query, text)
        assert json.loads(page.evaluate("JSON.stringify(new URLSearchParams(location.search).get('r'))")) == default, query
    context.close()


def test_every_run_page_leads_to_the_other_runs_of_its_machine_and_profile(committed):
    """Rule (#62, third round): from a run's overview a reader picks another run of the same
    machine and profile without a script: a link from the page to a list holding a link to
    every committed run of that machine label and profile (counted here from the result files),
    each of which opens that run's page. Round 10: the sentence says how many other runs there
    are, and a run alone in its machine and profile has none ("Another run of this machine ...:
    pick one from every run of the two" showed on every page)."""
    groups = other_runs_by_hand(REPO / "data" / "results")
    assert any(len(ids) > 1 for ids in groups.values()) and any(len(ids) == 1 for ids in groups.values())
    for (machine, profile), ids in groups.items():
        for rid in ids:
            path = committed / "results" / rid / "index.html"
            page = parsed(path)
            html = path.read_text()
            assert other_runs_said(html) == len(ids) - 1, rid
            if len(ids) == 1:
                continue
            other = re.search(r'<p id="other-runs">.*?</p>', html, re.S)
            assert other and html.index('id="overview"') < other.start(), rid  # beside the overview
            href = re.search(r'href="([^"]+)"', other.group(0)).group(1)
            target, fragment = resolve(committed, path, page, href)
            listing = target.read_text()
            assert f'id="{fragment}"' in listing, (rid, href)
            section = listing[listing.index(f'id="{fragment}"'):]
            section = section[:section.index("</section>")]
            listed = set(re.findall(r'<a href="([^"]+)/">', section))
            assert listed == ids, (rid, listed, ids)
            for shown in listed:
                assert resolve(committed, target, parsed(target), f"{shown}/")[0].is_file()


BAR_TITLE = re.compile(r'aria-roledescription="bar"[^>]*><title>(.*?)</title>', re.S)


def bar_titles(path: Path) -> list:
    """The <title> of each bar of a page's build-time pictures (its hover text), unescaped."""
    import html
    return [html.unescape(t) for t in BAR_TITLE.findall(path.read_text())]


def test_history_hovers_say_what_the_table_says_and_name_run_and_machine(committed):
    """Rule (#62): a figure a reader sees names its run and its machine within one hover, and a
    hover never shows "undefined" or an empty field. Over every history chart row
    (aggregates/history.json) and every bar title of the built /history/ page: a title for each
    charted row; the rows with a re-run, counted from the data, are exactly the titles with
    "same workload here"; each measured figure's title gives it with n and interval, its run and
    its machine's name; each unmeasured one says "not measured" and why, as the table does; the
    table's "measured here" column names the machine beside the run."""
    import json
    data = json.loads((committed.parent / "data" / "aggregates" / "history.json").read_text())
    charted = [r for d in data.values() for r in d["rows"] if isinstance(r["published"], (int, float))]
    reruns = [r for r in charted if "today_key" in r]
    measured = [r for r in reruns if r["today_display"]]
    assert measured and len(reruns) > len(measured)  # both kinds are in the committed data
    titles = bar_titles(committed / "history" / "index.html")
    assert len(titles) == len(charted)
    for title in titles:
        assert "undefined" not in title and "null" not in title, title
        fields = dict(part.split(": ", 1) for part in title.split("; ") if ": " in part)
        assert all(v.strip() for v in fields.values()), title
    here = [t for t in titles if "same workload here: " in t]
    assert len(here) == len(reruns)
    for row in reruns:
        mine = [t for t in here if f"filesystem: {row['filesystem']};" in t and f"; measure: {row['label']} (" in t
                and f"published: {row['published_display']};" in t]
        assert mine, row
        if row["today_display"]:
            assert all(f"same workload here: {row['today_display']} ({row['today_detail']}) (run {row['today_result']}, "
                       f"machine {row['machine_name']} ({row['machine']}))" in t for t in mine), (row, mine)
            assert row["today_detail"].startswith(("n = ", "no interval: n = 1"))
        else:
            assert all(f"same workload here: not measured: {row['today_reason'] or row['today_status']}" in t
                       for t in mine), (row, mine)
    page = parsed(committed / "history" / "index.html")
    text = " ".join("".join(page.text).split())
    for row in measured:
        assert f"(run {row['today_result']}, machine {row['machine_name']} ({row['machine']}))" in text, row
    # and each filesystem page's History table, whose column mixed two runs on two machines and
    # named neither (round 13): every figure measured here with its run and machine, as above
    for row in measured:
        fs_page = committed / "filesystems" / row["filesystem"] / "index.html"
        fs_text = " ".join("".join(parsed(fs_page).text).split())
        assert f"{row['today_display']} ({row['today_detail']}) (run {row['today_result']}, machine " \
               f"{row['machine_name']} ({row['machine']}))" in fs_text, (fs_page, row)


def test_home_caption_and_hovers_name_the_runs_machine(committed):
    """Rule (#62): home's chart names its run's machine (its name for readers and its label, as
    the guides' charts do) in its caption and in every bar's hover."""
    import html
    import json
    latest = json.loads((committed.parent / "data" / "aggregates" / "latest.json").read_text())
    machine = f"{latest['summary']['machine_name']} ({latest['summary']['machine']})"
    home = (committed / "index.html").read_text()
    (caption,) = re.findall(r'<figure class="chart"[^>]*data-caption="([^"]*)"', home)
    assert f"run {latest['result']} on {machine}" in html.unescape(caption)
    titles = bar_titles(committed / "index.html")
    assert len(titles) == sum(r["metric"] == "throughput" and r["status"] == "ok" for r in latest["throughput"])
    assert all(f"machine: {machine}; result file: {latest['result']}" in t for t in titles), titles[:2]


def test_a_ranking_s_hover_says_what_its_table_says_of_each_lead(committed):
    """Rule (guide, #62 round 8): a difference is called significant only by the comparison
    module; the ranking chart's hover said "ahead beyond the CIs: true" of ext2, whose shown
    interval held the next one's, while the table beside it gave Welch's test, Holm-adjusted.
    Over every ranking of every built page: each bar's hover gives the mean, interval, n and the
    table's own "ahead of the next" cell for that filesystem, word for word."""
    import html
    pages = [p for p in committed.rglob("index.html") if 'data-chart="ranking"' in p.read_text()]
    assert pages
    checked = 0
    for page in pages:
        text = page.read_text()
        assert "ahead beyond the CIs" not in text
        for figure, table in re.findall(r'(<figure class="chart"[^>]*data-chart="ranking".*?</figure>).*?(<table class="data-table".*?</table>)', text, re.S):
            titles = [html.unescape(t) for t in BAR_TITLE.findall(figure)]
            rows = [[html.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]
                    for row in re.findall(r"<tr>(.*?)</tr>", table.split("<tbody>")[1], re.S)]
            assert titles and len(titles) == len(rows), page
            for rank, fs, mean, interval, n, ahead, *_ in rows:
                (title,) = [t for t in titles if f"filesystem: {fs};" in t]
                mean = mean.split("newer run")[0].strip()
                assert f"mean: {mean}; 95% CI: {interval}; n: {n}; ahead of the next (the compare table's row and adjusted p): {ahead};" in title, (page, title)
                # the last has no next: no "no" that reads as a test it lost (round 12)
                last = rank == rows[-1][0]
                assert ahead.startswith("–") == last and (last or ahead.split()[0] in ("yes", "no")), (page, fs, ahead)
                checked += 1
    assert checked


def test_every_symbol_of_every_build_picture_has_a_name(committed):
    """Rule (#62: axe, 0 serious violations): a graphics symbol in a picture the build drew is
    named (its <title>, or aria-label); /history/ held 47 empty mark containers that Vega marks
    as symbols (a layer with nothing to draw), which axe counts as svg-img-alt. Over every
    built page's pictures."""
    unnamed, symbols = {}, 0
    for page in committed.rglob("*.html"):
        for tag, rest in re.findall(r'<(\w+)([^>]*role="graphics-symbol"[^>]*?/?>)', page.read_text()):
            symbols += 1
            if rest.endswith("/>") and "aria-label=" not in rest:
                unnamed.setdefault(str(page.relative_to(committed)), []).append(f"<{tag}{rest}"[:120])
    assert symbols and unnamed == {}, {k: v[:2] for k, v in unnamed.items()}


def test_every_measured_claim_row_gives_n_and_intervals_and_an_untested_one_says_so(committed):
    """Rule (#62: every table gives n and the interval; a difference is called an effect only by
    the comparison module): round 9 found guide rows that "do not count toward the verdict"
    saying "barrier=0 changed throughput … by -1.2 % (… n = 9 and 9)", with no interval and no
    test. Over every guide's "what this project measured" cells: each gives both means with their
    n and 95 % interval (or the words for one sample), and each row that does not count says it
    was not tested, never that the option changed the figure."""
    import html
    rows = 0
    for page in sorted((committed / "guides").glob("*/index.html")):
        for cell in re.findall(r"<td>(On machine .*?)</td>", page.read_text(), re.S):
            text = html.unescape(re.sub(r"<[^>]+>", "", cell))
            rows += 1
            assert " changed " not in text.split(")", 1)[0], text[:200]
            means = re.search(r"against the baseline \((.*?), with the baseline; (.*?), with the option\)", text, re.S)
            assert means, text[:300]
            for side in means.groups():
                assert re.search(r"n = \d+, 95 % interval |no interval: n = 1", side), (page, side)
            if "does not count toward the verdict" in text:
                assert "Not tested against the claim" in text, text[:300]
    assert rows
