"""Issue 62, fourth round: on the site built from every committed result, /compare/ knows every
run that measured both filesystems: the first RUNS_PER_PAIR by the site's rule with their
tables, the others listed under the run picker, each a link to its result page, so an address
naming one opens its table or says where its figures are, with a notice only where the address asked for what the page does not show; the reader's
changes are history entries; and no two rows of a result page's table read the same."""
import itertools
import json
from html.parser import HTMLParser

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from fsatlas.results.resultfile import readable
from fsatlas.site.pairs import RUNS_PER_PAIR
from sitebuild import REPO

pytestmark = pytest.mark.site
COMMITTED = {r["id"]: r for r in (readable(json.loads(p.read_text())) for p in sorted((REPO / "data" / "results").glob("*.json")))}


def _measured(result: dict) -> dict:
    """filesystem -> {(workload, parameters): metric names} of its ok cells with default
    options: counted here from the result file, not by site/pairs.py."""
    out: dict = {}
    for c in result["cells"]:
        if c["status"] == "ok" and c.get("variant", "defaults") == "defaults" and c["metrics"]:
            out.setdefault(c["filesystem"], {})[(c["workload"], tuple(c["key"].split("|")[4:]))] = set(c["metrics"])
    return out


def _both(result: dict, a: str, b: str) -> bool:
    """Whether the run measured a and b with default options on one workload, one measure on both."""
    m = _measured(result)
    return any(m[a][w] & m[b].get(w, set()) for w in m.get(a, {})) if b in m else False


FILESYSTEMS = sorted({fs for r in COMMITTED.values() for fs in _measured(r)})
PAIRS = list(itertools.permutations(FILESYSTEMS, 2))
MEASURED_BOTH = {(a, b, rid) for a, b in PAIRS for rid, r in COMMITTED.items() if _both(r, a, b)}


def test_every_run_that_measured_both_filesystems_is_listed_with_its_table(committed_root):
    """For every committed run and ordered pair where the run measured both with default
    options (counted from the result files), the pair's file lists the run: with its table
    among the first RUNS_PER_PAIR, else by id ("also"), and the page's data counts the tables;
    no run is listed that did not (the sixth run of a pair was dropped by the cap, and an address
    naming it was told it had not measured the pair). Every run that measured a filesystem is in
    its file for the view across runs, the same way."""
    per_pair = [sum((x, y) == pair for x, y, _ in MEASURED_BOTH) for pair in PAIRS]
    assert max(per_pair) > 5  # a pair measured by more runs than the cap of five let through
    held = json.loads((committed_root / "data" / "aggregates" / "compare.json").read_text())
    public = committed_root / "public" / "compare"
    for a, b in PAIRS:
        want = {rid for x, y, rid in MEASURED_BOTH if (x, y) == (a, b)}
        name = f"{a}--{b}"
        assert bool(held["pairs"].get(name)) == bool(want), name
        if want:
            doc = json.loads((public / f"{name}.json").read_text())
            assert held["pairs"][name] == len(doc["runs"]), name  # the count the page holds
            tables = {r["id"]: r["table"] for r in doc["runs"] if r["id"] != "~rule"}
            later = [r["id"] for r in doc["also"]]
            assert len(tables) == min(len(want), RUNS_PER_PAIR) and not set(tables) & set(later), name
            assert set(tables) | set(later) == want and len(later) == len(set(later)), name
            if (held["default"]["a"], held["default"]["b"]) == (a, b):  # the page's own list of its first pair
                assert [r["id"] for r in held["default"]["listed"]] == [r["id"] for r in doc["runs"]]
            for rid, table in tables.items():
                assert f'data-run="{rid}"' in table and "<tbody><tr" in table, (name, rid)
    for fs in FILESYSTEMS:
        side = json.loads((public / "sides" / f"{fs}.json").read_text())
        want = {rid for rid, r in COMMITTED.items() if fs in _measured(r)}
        assert len(side["runs"]) == min(len(want), RUNS_PER_PAIR), fs
        assert {r["id"] for r in side["runs"]} | {r["id"] for r in side["also"]} == want, fs
    assert any(json.loads(p.read_text())["also"] for p in public.glob("*--*.json"))  # the cap engaged


def _open(page, url):
    page.goto(url)
    page.wait_for_selector("#compare[data-rendered]")
    notice = page.locator("#compare-notice")
    return notice.inner_text() if notice.count() else None


@pytest.mark.browser
def test_an_address_naming_a_run_opens_its_table_and_a_notice_only_when_it_did_not_measure_both(browser, committed_url,
                                                                                               committed_root):
    """Addresses drawn by hypothesis over every committed run and ordered pair, naming the run
    as `run`, or as `run_a` or `run_b` alone (the view across runs for one side, whose other
    side takes the same run): where the run measured both, its table is shown and no notice;
    where it did not, a notice names the run asked for and what is shown, by run id or the
    rule table's words, never an internal value ("~rule"); a run beyond the tables is told where
    its figures are by a link. Under the run picker, every other run that measured both is
    listed, a link to its built result page (run 192938Z measured ext3/ext4, and nothing on the
    page said so)."""
    context = browser.new_context()
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    public = committed_root / "public" / "compare"
    doc = lambda name: json.loads((public / f"{name}.json").read_text()) if (public / f"{name}.json").exists() \
        else {"runs": [], "also": []}  # noqa: E731
    tabled = {(a, b): {r["id"] for r in doc(f"{a}--{b}")["runs"]} for a, b in PAIRS}
    side_also = {fs: {r["id"] for r in doc(f"sides/{fs}")["also"]} for fs in FILESYSTEMS}

    def check(pair, rid, how):
        a, b = pair
        notice = _open(page, f"{committed_url}/compare/?a={a}&b={b}&{how}={rid}")
        shown = page.locator("#compare-figures table[data-run]")
        both = (a, b, rid) in MEASURED_BOTH
        side = {"run": None, "run_a": a, "run_b": b}[how]
        if (how == "run" and both and rid not in tabled[pair]) or (side and rid in side_also[side]):
            # beyond the runs whose figures the page holds: the notice says where they are
            assert notice and f"results/{rid}/" in notice and "shown instead: " in notice and "not among" not in notice, \
                (pair, rid, how, notice)
            assert page.locator(f"#compare-notice a[href$='/results/{rid}/']").count() == 1, (pair, rid, how)  # a link
        elif both and (how == "run" or rid in tabled[pair]):
            assert notice is None, (pair, rid, how, notice)
            assert shown.get_attribute("data-run") == rid, (pair, rid, how)
        elif side is None or rid not in COMMITTED or side not in _measured(COMMITTED[rid]):
            assert notice and f"\u201c{rid}\u201d" in notice and "shown instead: " in notice, (pair, rid, how, notice)
            assert "~" not in notice, notice
        else:  # the side's run measured it but not the other: the view across runs, its run in its picker
            assert notice is None, (pair, rid, how, notice)
            assert page.input_value(f"#compare-{how.replace('_', '-')}") == rid
            assert rid in page.get_attribute("#compare-figures table[data-runs]", "data-runs").split()

    settings(max_examples=14, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))(
        given(st.sampled_from(PAIRS), st.sampled_from(sorted(COMMITTED)), st.sampled_from(["run", "run_a", "run_b"]))(check))()
    # a run beyond the cap, named as the pair's run and as a side's
    later = sorted((a, b, rid) for a, b, rid in MEASURED_BOTH if rid not in tabled[(a, b)])
    assert later
    check(later[0][:2], later[0][2], "run")
    fs = next(fs for fs in FILESYSTEMS if side_also[fs])
    check((fs, next(x for x in FILESYSTEMS if x != fs)), sorted(side_also[fs])[0], "run_a")
    # the example the adversary named, and one filesystem twice: no notice says a run that
    # measured the pair did not
    rid = "20261124T192938Z-fsatlas-ci-vm-standard"
    assert ("ext3", "ext4", rid) in MEASURED_BOTH
    notice = _open(page, f"{committed_url}/compare/?a=ext3&b=ext4&run={rid}")
    if rid in tabled[("ext3", "ext4")]:
        assert notice is None and page.get_attribute("#compare-figures table[data-run]", "data-run") == rid
    else:  # the sixth run of the pair: said to have measured both, and where its figures are
        assert "measured both ext3 and ext4" in notice and f"results/{rid}/" in notice and "not among" not in notice
    notice = _open(page, f"{committed_url}/compare/?a=ext4&b=ext4&run_a={rid}&run_b={rid}")
    assert "not shown" in notice and "not among" not in notice and "Pick two different" in page.inner_text("#compare-figures")
    # Under the run picker, every other run that measured both (counted here from the result
    # files), each once, a link to its result page as built: nothing of a pair was reachable
    # beyond its picker but through an address naming it. No list where the picker holds them all.
    default = tuple(json.loads((committed_root / "data" / "aggregates" / "compare.json").read_text())["default"][k] for k in "ab")
    listing = sorted({(a, b) for a, b, _ in MEASURED_BOTH
                      if sum((x, y) == (a, b) for x, y, _ in MEASURED_BOTH) > RUNS_PER_PAIR})
    assert listing and default not in listing
    for a, b in listing + [default]:
        want = {rid for x, y, rid in MEASURED_BOTH if (x, y) == (a, b)}
        _open(page, f"{committed_url}/compare/?a={a}&b={b}")
        picked = {v for v in page.locator("#compare-run option").evaluate_all("os => os.map(o => o.value)") if v[0] != "~"}
        links = page.locator("#compare-also:not([hidden]) li a").evaluate_all("as => as.map(a => [a.textContent, a.href])")
        listed = [text for text, _ in links]
        assert len(listed) == len(set(listed)) == max(0, len(want) - RUNS_PER_PAIR), (a, b, listed)
        assert set(listed) == want - picked and picked <= want, (a, b, listed, picked)
        for (text, href), item in zip(links, page.locator("#compare-also li").all()):
            assert href.endswith(f"/results/{text}/") and (committed_root / "public" / "results" / text / "index.html").is_file()
            assert COMMITTED[text]["created"][:10] in item.inner_text()
        if listed:  # the count in words: "1 more run", "2 more runs"
            n = len(listed)
            assert page.inner_text("#compare-also summary").startswith(f"Also measured both: {n} more run{'s' * (n != 1)},")
    # a parameter given twice: the explorer's rule (the first read, the others named), not ignored
    first, second = sorted(picked)[:2]
    notice = _open(page, f"{committed_url}/compare/?a={default[0]}&b={default[1]}&run={first}&run={second}")
    assert notice and f"run= more than once; reading \u201c{first}\u201d, not \u201c{second}\u201d" in notice, notice
    assert page.input_value("#compare-run") == first
    assert errors == []
    context.close()


@pytest.mark.browser
def test_back_restores_the_compare_view_before_each_change_and_reload_keeps_it(browser, committed_url):
    """One history behaviour with the explorer: each pair or run the reader picks is an entry;
    Back shows the view before it (pair, run and table), Forward the one after, reload the
    one the address names."""
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    _open(page, f"{committed_url}/compare/?a=ext4&b=xfs")
    views = []

    def view():
        return (page.input_value("select[name=a]"), page.input_value("select[name=b]"), page.input_value("#compare-run"),
                page.get_attribute("#compare-figures table[data-run]", "data-run"), page.url,
                page.inner_text("#compare-figures caption").split(" in run")[0].split(" by the")[0])  # "xfs against ext4"

    def settled(want):
        page.wait_for_function("""([a, b, run]) => document.querySelector('#compare[data-rendered]')
          && document.querySelector('select[name=a]').value === a && document.querySelector('select[name=b]').value === b
          && document.getElementById('compare-run').value === run""", arg=list(want[:3]))
        assert view() == want

    views.append(view())
    assert views[0][5] == "xfs against ext4"
    page.select_option("select[name=b]", "ext3")
    page.wait_for_function("document.querySelector('#compare[data-rendered]') && location.search.includes('b=ext3')")
    views.append(view())
    other = [o for o in page.locator("#compare-run option").evaluate_all("os => os.map(o => o.value)") if o != views[-1][2]][-1]
    page.select_option("#compare-run", other)
    page.wait_for_function(f"document.querySelector('#compare[data-rendered]') && location.search.includes({json.dumps('run=' + other)})")
    views.append(view())
    assert len({v[4] for v in views}) == 3 and views[2][3] == other
    # the view across two runs is an entry too
    page.click("#compare-across summary")
    page.wait_for_function("document.getElementById('compare-run-a').options.length > 1")
    first, second = page.locator("#compare-run-a option").evaluate_all("os => os.map(o => o.value)")[:2]
    page.select_option("#compare-run-a", first)
    page.select_option("#compare-run-b", [o for o in page.locator("#compare-run-b option").evaluate_all(
        "os => os.map(o => o.value)") if o != first][0])
    across = f"{first} {page.input_value('#compare-run-b')}"
    page.click("#compare-across-show")
    page.wait_for_function("document.querySelector('#compare[data-rendered]') && location.search.includes('run_a=')")
    assert page.get_attribute("#compare-figures table[data-runs]", "data-runs") == across
    page.go_back()
    settled(views[2])
    assert page.locator("#compare-mixed").count() == 0
    page.go_forward()
    page.wait_for_function("document.querySelector('#compare[data-rendered] #compare-figures table[data-runs]')")
    assert page.get_attribute("#compare-figures table[data-runs]", "data-runs") == across
    page.go_back()
    settled(views[2])
    page.go_back()
    settled(views[1])
    page.go_back()
    settled(views[0])
    page.go_forward()
    settled(views[1])
    page.go_forward()
    settled(views[2])
    page.reload()
    settled(views[2])
    # a change after Back starts a new branch: Back from it returns to the view it was made from
    page.go_back()
    settled(views[1])
    page.select_option("select[name=a]", "btrfs")
    page.wait_for_function("document.querySelector('#compare[data-rendered]') && location.search.includes('a=btrfs')")
    page.go_back()
    settled(views[1])
    assert errors == []
    page.close()


class _Rows(HTMLParser):
    """Each table's body rows as the text of their cells, a cell spanning rows (rowspan) read in
    each row it spans."""

    def __init__(self):
        super().__init__()
        self.tables, self.row, self.cell, self.spans, self.head = [], None, None, [], False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self.tables.append([])
            self.spans = []
        elif tag == "thead":
            self.head = True
        elif tag == "tr" and self.tables:
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.cell = [int(attrs.get("rowspan") or 1), []]

    def handle_endtag(self, tag):
        if tag == "thead":
            self.head = False
        elif tag in ("td", "th") and self.cell is not None and self.row is not None:
            self.row.append(self.cell)
            self.cell = None
        elif tag == "tr" and self.row is not None:
            carried = [s for s in self.spans if s[0] > 0]
            texts = [" ".join("".join(s[1]).split()) for s in carried] + [" ".join("".join(c[1]).split()) for c in self.row]
            for s in carried:
                s[0] -= 1
            self.spans = [s for s in carried if s[0] > 0] + [[c[0] - 1, c[1]] for c in self.row if c[0] > 1]
            if not self.head:
                self.tables[-1].append(tuple(texts))
            self.row = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[1].append(data)


def test_no_two_rows_of_a_result_pages_table_read_the_same(committed_root):
    """Every table of every committed result's page (the page of every cell as well), parsed
    from the built HTML: no two body rows read the same. The ntfs cells of run 143616Z, failed
    at three file sizes, read "ntfs | small-files | defaults | failed" three times."""
    pages = sorted((committed_root / "public" / "results").glob("*/**/index.html"))
    assert {p.relative_to(committed_root / "public" / "results").parts[0] for p in pages} >= set(COMMITTED)
    checked = 0
    for path in pages:
        rows = _Rows()
        rows.feed(path.read_text())
        for table in rows.tables:
            seen = [r for r in table if table.count(r) > 1]
            assert not seen, (str(path), seen[:2])
            checked += len(table)
    assert checked > 1000
    small = [r for r in _rows_of(committed_root / "public" / "results" / "20261127T143616Z-m-b6d0b06748-standard" / "index.html")
             if r[:2] == ("ntfs", "small-files file_size=100")]
    assert small, "the small-files row names its file size"


def _rows_of(path):
    rows = _Rows()
    rows.feed(path.read_text())
    return [r for t in rows.tables for r in t]
