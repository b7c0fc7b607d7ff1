"""Issue 62: the explorer's default view is an SVG drawn at build (scripts/draw-charts.mjs, by
static/js/explorer-view.js, the code the browser draws with), shown before any script; the
explorer's own chart replaces it with the same figures; an address naming a view of its own
never shows it, not even for one frame. In headless Chromium against sites built from the
committed results and from synthetic ones."""
import json
import re
import urllib.parse
import urllib.request

import pytest

from fsatlas.results import machines, stats
from fsatlas.site import aggregate
from fsatlas.results.resultfile import readable
from fsatlas.site.knowledge import significant
from sitebuild import REPO

pytestmark = [pytest.mark.site, pytest.mark.browser]
FIRST = "#explorer-first"
LIVE_BARS = "#explorer-chart svg [aria-roledescription=bar]"
VEGA_OR_EXPLORER = re.compile(r"/(vega(-lite|-embed)?\.min|explorer(-view)?)\.js$")


@pytest.fixture(params=["committed", "synthetic"])
def any_site(request):
    """The committed results' site and the synthetic explorer site (conftest.explorer_url)."""
    return request.getfixturevalue("committed_url" if request.param == "committed" else "explorer_url")


def fetched(url: str) -> bytes:
    with urllib.request.urlopen(url) as response:
        return response.read()


MACHINE_LABEL = re.compile(r"m-[0-9a-f]{10}")
NUMBER = re.compile(r"-?[\d,]*\.?\d+")


def labels(html: str) -> list[str]:
    """The <title> of each bar of the build's picture, in the page as served."""
    first = re.search(r'<div class="chart-view explorer-first" id="explorer-first"[^>]*>(<svg.*?</svg>)</div>', html, re.S)
    assert first, "no default view drawn into the explorer page"
    bars = re.findall(r'aria-roledescription="bar"[^>]*><title>(.*?)</title>', first.group(1))
    return [t.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&") for t in bars]


def fields(label: str) -> dict:
    """A bar's label ("config: ext4; MB/s (10^6 bytes/s): 930.9; ...") as its fields."""
    return dict(part.split(": ", 1) for part in label.split("; ") if ": " in part)


def test_the_page_holds_the_default_run_s_throughput_as_its_result_file_states_it(any_site):
    """Differential: each bar of the built picture against the default run's result file as the
    site publishes it (files/results/<id>.json, read by resultfile.readable, not the explorer's
    chunk): one bar per measured cell of variant defaults, its filesystem, workload and mean."""
    html = fetched(any_site + "/explorer/").decode()
    run = json.loads(fetched(any_site + "/explorer/data.json"))["default"]
    result = readable(json.loads(fetched(f"{any_site}/files/results/{run}.json")))
    expected, worded = {}, {}
    for cell in result["cells"]:
        if cell["status"] == "ok" and cell.get("variant", "defaults") == "defaults" and "throughput" in cell["metrics"]:
            dims = cell["key"].split("|", 4)[4] if cell["key"].count("|") >= 4 else ""
            panel = cell["workload"] + (" " + dims if dims else "")
            expected[cell["filesystem"], panel] = cell["metrics"]["throughput"]["mean"] / 1e6  # MB/s
            m = cell["metrics"]["throughput"]
            low, high = stats.bounded_interval(m) or (None, None)
            # #62 round 7, item 3: one cell's label in the home and result pages' words and fields
            # (the throughput chart's: aggregate._throughput_shown), not "RSD %: 5.97; repetitions: 9"
            shown = aggregate._throughput_shown({"mean": m["mean"], "unit": m["unit"], "rsd_pct": stats.shown_rsd(m),
                                                  "ci_low": low, "ci_high": high})
            worded[cell["filesystem"], panel] = {"mean MB/s": shown["mean"], "95% CI (MB/s)": shown["ci"], "RSD": shown["rsd"],
                                                 "samples": str(len(m["samples"])), "flags": ",".join(cell["flags"]),
                                                 "result file": result["id"]}
    drawn, bars = {}, labels(html)
    for label in bars:
        bar = fields(label)
        assert {k: bar.get(k, "") for k in worded[bar["config"], bar["workload"]]} == worded[bar["config"], bar["workload"]], label
        # the run drawn is the default run, its machine by name and label as home's bars give it (machine_shown)
        assert bar["machine"] == f'{machines.name(result)} ({result["system"]["machine"]})', label
        drawn[bar["config"], bar["workload"]] = bar["MB/s (10^6 bytes/s)"]
        # the hash label only beside the machine's name and inside the result file's id, as home's bars give it
        assert not MACHINE_LABEL.search(label.replace(bar["result file"], "").replace(bar["machine"], "")), label
        for value in bar.values():  # no figure with more digits than the site prints (item 2)
            assert not NUMBER.fullmatch(value) or len(value.replace(",", "").replace(".", "").strip("0")) <= 3, label
    assert len(bars) == len(drawn) and drawn.keys() == expected.keys()  # one bar a cell
    for cell, mean in expected.items():
        assert drawn[cell] == significant(mean), cell  # the site's one way to print a figure
    assert f"run {run}" in re.search(r'id="explorer-first"[^>]*aria-label="([^"]*)"', html).group(1)
    caption = re.search(r'<span id="explorer-caption">([^<]*)</span>', html).group(1)
    assert caption.startswith("throughput in MB/s")


# Each animation frame from the first on, until the explorer has drawn: is the build's picture
# shown, is the explorer's chart shown (each: in the layout, holding an SVG).
FRAMES = """
window.__frames = [];
(function tick() {
  const shown = (id) => { const e = document.getElementById(id); return !!(e && e.offsetParent && e.querySelector('svg')); };
  window.__frames.push([shown('explorer-first'), shown('explorer-chart')]);
  const root = document.getElementById('explorer');
  if (!(root && root.dataset.rendered)) requestAnimationFrame(tick);
})();
"""


VEGA = re.compile(r"/vega[^/]*\.js$")


def vega_requested(page) -> list:
    """The vega*.js files the page has loaded or is loading (its resource timing entries)."""
    return [u for u in page.evaluate("performance.getEntriesByType('resource').map(e => e.name)") if VEGA.search(u)]


@pytest.mark.parametrize("ask", ["click", "control"])
def test_the_explorer_s_chart_replaces_the_picture_with_the_same_figures(browser, any_site, ask):
    """Issue 62, fourth round, item 1: the default view's picture is the view: opening the page,
    moving over the picture and focusing a row of its table load no Vega; a click on the picture
    or a change of a control (here the CPU box, which leaves the chart's figures as they are) is
    the reader asking, and loads it. The bars' labels of the build's picture (their <title>)
    and of the chart explorer.js then draws (vega's aria-label of each bar, from the values it
    draws) are the same, in the same order; in every frame until then one of the two is on
    screen, never both, never neither; hovering a bar of the new chart shows its details."""
    built = labels(fetched(any_site + "/explorer/").decode())
    context = browser.new_context(viewport={"width": 1000, "height": 900}, has_touch=True)
    context.add_init_script(FRAMES)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(any_site + "/explorer/", wait_until="networkidle")
    page.wait_for_function("document.getElementById('explorer').dataset.shown")
    # a reader passing by: the pointer over the picture, a mouse drag across it (selecting
    # text), a finger scrolling across it, the keyboard's focus on a row of the table
    page.locator(FIRST).hover()
    box = page.locator(FIRST).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + min(box["height"] / 2, 300)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 40, y + 15, steps=4)
    page.mouse.up()
    page.context.new_cdp_session(page).send("Input.synthesizeScrollGesture", {
        "x": x, "y": y, "yDistance": -200, "gestureSourceType": "touch"})
    page.evaluate("window.scrollTo(0, 0)")
    page.locator("#explorer-table tbody tr").first.focus()
    page.wait_for_timeout(300)
    assert vega_requested(page) == [] and page.locator(FIRST).is_visible()
    assert page.evaluate("document.getElementById('explorer').dataset.rendered") is None
    if ask == "click":
        page.locator(FIRST).click()
    else:
        page.locator("input[name=cpu]").check()
    page.wait_for_function("document.getElementById('explorer').dataset.rendered")
    assert len(vega_requested(page)) == 3
    live = page.eval_on_selector_all(LIVE_BARS, "bars => bars.map(b => b.getAttribute('aria-label'))")
    assert built and live == built
    assert page.locator(FIRST).count() == 0
    frames = page.evaluate("window.__frames")
    assert any(first for first, _ in frames), frames  # the picture was on screen before the chart
    shown_from = next(i for i, (first, _) in enumerate(frames) if first)
    assert all(first != chart for first, chart in frames[shown_from:]), frames
    assert frames[-1] == [False, True]
    # each bar's details on hover (explorer.js, the chart's tooltip handler) give the figure and
    # the machine its label gives, as format.js prints them, the machine by its name (item 2)
    # (the pointer moved onto each bar as vega sees it: a bar a pixel tall is not hovered by a mouse)
    page.locator(LIVE_BARS).first.hover()
    for i, label in enumerate(built):
        if i:
            page.locator(LIVE_BARS).nth(i).dispatch_event("pointermove")
        bar = fields(label)
        heading = f"{bar['config']}: {bar['workload']}"
        page.wait_for_function("h => (document.querySelector('#explorer-details h3') || {}).textContent === h", arg=heading,
                               timeout=5000)
        details = page.eval_on_selector("#explorer-details dl", "dl => Object.fromEntries([...dl.querySelectorAll('dt')].map(dt => [dt.textContent, dt.nextElementSibling.textContent]))")
        assert details["Mean"] == bar["MB/s (10^6 bytes/s)"] + " MB/s", (label, details["Mean"])
        assert details["Machine"].startswith(bar["machine"].rsplit(" (", 1)[0] + " (label "), details
    assert errors == []
    context.close()


# Whenever the build's picture is in the document, whether it is displayed: checked on each
# change the parser makes and on each animation frame, from the first byte of the page on.
WATCH = """
window.__seen = [];
const look = () => { const e = document.getElementById('explorer-first');
                     if (e && e.querySelector('svg')) window.__seen.push(getComputedStyle(e).display); };
new MutationObserver(look).observe(document, { childList: true, subtree: true });
(function tick() { look(); requestAnimationFrame(tick); })();
"""


def test_an_address_naming_a_view_never_shows_the_default_view_s_picture(browser, committed_url):
    """?r=<each other committed run>, and beside it one filter, the embed view of one filter
    (embed=1 alone is the default view, embedded: test_the_default_view_s_own_address_shows_its_picture).
    With explorer.js and Vega blocked (nothing could remove the picture): never displayed, at any
    parser step, frame or DOMContentLoaded; with them, the explorer draws the view asked and the
    picture is gone."""
    index = json.loads(fetched(committed_url + "/explorer/data.json"))
    default, runs = index["default"], index["results"]["id"]
    others = [r for r in runs if r != default]
    assert others
    addresses = [f"?r={r}" for r in others] + ["?fs=ext4", "?fs=ext4&embed=1"]
    built = labels(fetched(committed_url + "/explorer/").decode())
    context = browser.new_context()
    context.add_init_script(WATCH)
    page = context.new_page()
    page.route(VEGA_OR_EXPLORER, lambda route: route.abort())
    for query in addresses:
        page.goto(committed_url + "/explorer/" + query, wait_until="domcontentloaded")
        assert not page.locator(FIRST).is_visible(), query
        page.wait_for_load_state("load")
        page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")  # two frames painted
        seen = page.evaluate("window.__seen")
        assert seen and set(seen) == {"none"}, (query, seen)  # in the page, never displayed
    page.unroute(VEGA_OR_EXPLORER)
    for query in (f"?r={others[0]}", "?fs=ext4"):
        page.goto(committed_url + "/explorer/" + query)
        page.wait_for_function("document.getElementById('explorer').dataset.rendered")
        assert set(page.evaluate("window.__seen")) <= {"none"} and page.locator(FIRST).count() == 0, query
        live = page.eval_on_selector_all(LIVE_BARS, "bars => bars.map(b => b.getAttribute('aria-label'))")
        assert live and live != built, query
    context.close()


def default_spellings(own: str, cpu: str) -> list[str]:
    """Queries the explorer reads as its default view, made from that view's own query (own, as
    the explorer writes it) and its CPU box (cpu, "0" or "1"; own names cpu= only when on): each
    parameter alone at its default, then all at once in another case, the lists reversed and
    split over repeated parameters, one value given twice), parameters it does not read, embed=1."""
    params = urllib.parse.parse_qsl(own.lstrip("?"))
    defaults = dict(params, cpu=dict(params).get("cpu", cpu))
    alone = [urllib.parse.urlencode({name: value}) for name, value in defaults.items()]
    respelt = []
    for name, value in defaults.items():
        items = value.split(",")[::-1]
        if len(items) > 1:  # a list, in two halves: ?fs=xfs,ext4&fs=btrfs is fs=xfs,ext4,btrfs
            respelt += [(name, ",".join(items[:len(items) // 2]).upper()), (name, " " + ",".join(items[len(items) // 2:]) + ",")]
        else:
            respelt += [(name, value.upper()), (name, value)]
    everything = urllib.parse.urlencode(respelt)
    return ["?" + q for q in alone + [everything, "utm_source=x", "utm_source=x&" + alone[0], everything + "&embed=1", "embed=1"]]


def test_the_default_view_s_own_address_shows_its_picture(browser, committed_url):
    """The explorer writes the view it shows into the address; reloading the default view's
    address (or sharing it) shows the build's picture at once, as /explorer/ does, and says the
    results are loading; an unknown metric in an address is named, not drawn as nothing.
    Issue 62, rule "one run rule, first view drawn at build time": so does every address the
    explorer reads as its default view (default_spellings(), from the default view's own
    query: ?mode=abs, ?r=<the default run>, ?utm_source=x had lost the picture and loaded Vega):
    before any script but the page's own, the picture is displayed in every frame; with them, it
    stays, no Vega loads and the address becomes the default view's. An address naming a view of
    its own beside them (an unknown parameter and one filesystem and workload) never displays
    it, and draws its one cell ("1 cell drawn", not "1 cells"); one naming no known run
    (?r=nope) shows the default view with its picture once the explorer has read it."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(committed_url + "/explorer/")
    page.wait_for_function("document.getElementById('explorer').dataset.shown")
    own = page.evaluate("location.search")
    assert own.startswith("?r=")
    spellings = default_spellings(own, "1" if page.locator("input[name=cpu]").is_checked() else "0")
    ext4 = [fields(label)["workload"].split()[0] for label in labels(fetched(committed_url + "/explorer/").decode())
            if fields(label)["config"] == "ext4"]
    one_cell = "?utm_source=x&fs=ext4&w=" + next(w for w in ext4 if ext4.count(w) == 1)
    context.add_init_script(WATCH)
    page.route(VEGA_OR_EXPLORER, lambda route: route.abort())
    for query in [own] + spellings:
        page.goto(committed_url + "/explorer/" + query)
        page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        assert page.locator(FIRST).is_visible() and "none" not in page.evaluate("window.__seen"), query
        assert page.inner_text("#explorer .explorer-status") == "Loading the results…"
    page.goto(committed_url + "/explorer/" + one_cell, wait_until="load")
    page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    assert not page.locator(FIRST).is_visible() and set(page.evaluate("window.__seen")) == {"none"}
    page.unroute(VEGA_OR_EXPLORER)
    # with its scripts: the figures are shown, the picture stays, and no Vega loads (item 1)
    # (render() has asked for Vega, if it does, by the time its figures are shown: a script tag)
    for query in [own] + spellings + ["?r=nope"]:
        page.goto(committed_url + "/explorer/" + query)
        page.wait_for_function("document.getElementById('explorer').dataset.shown")
        assert page.locator(FIRST).is_visible() and vega_requested(page) == [], query
        assert page.evaluate("[...document.scripts].filter(s => /vega/.test(s.src)).length") == 0, query
        assert page.evaluate("location.search") == own + ("&embed=1" if "embed=1" in query else ""), query
    page.goto(committed_url + "/explorer/" + one_cell)
    page.wait_for_function("document.getElementById('explorer').dataset.rendered")
    assert set(page.evaluate("window.__seen")) == {"none"} and page.locator(FIRST).count() == 0
    assert page.inner_text("#explorer .explorer-status").endswith(": 1 cell drawn.")
    page.goto(committed_url + "/explorer/?metric=constructor")
    page.wait_for_function("document.getElementById('explorer').dataset.shown")
    said = page.inner_text("#explorer .explorer-status")
    assert said.startswith("No metric named \u201cconstructor\u201d here; showing throughput. ") and " 0 cells" not in said
    context.close()
    context = browser.new_context(java_script_enabled=False)  # without script nothing loads: nothing says it does
    page = context.new_page()
    page.goto(committed_url + "/explorer/" + own)
    assert page.inner_text("#explorer .explorer-status") == ""
    # the picture there is the default view, whatever the address asks (#62 round 9): it says so
    page.goto(committed_url + "/explorer/?metric=iops&mode=ratio")
    assert page.locator("#explorer-first svg").count() == 1
    assert "default view, whatever view this page's address names" in page.inner_text("#explorer")
    context.close()


@pytest.mark.parametrize("script", [False, True])
def test_the_default_view_fits_a_phone(browser, committed_url, script):
    """At 375 px the wide picture is scaled down to the page's width (no sideways scrolling, of
    the page or of its figure), before any script and once the explorer has drawn."""
    context = browser.new_context(viewport={"width": 375, "height": 740}, java_script_enabled=script)
    page = context.new_page()
    page.goto(committed_url + "/explorer/")
    if script:
        page.wait_for_function("document.getElementById('explorer').dataset.shown")
    else:
        svg = page.locator(FIRST + " > svg")
        box = svg.bounding_box()
        assert box["width"] < int(svg.get_attribute("width")) and box["x"] + box["width"] <= 375
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    figure = page.locator("figure.explorer-chart").first
    assert figure.evaluate("f => f.scrollWidth - f.clientWidth") <= 0
    context.close()


def test_each_result_page_s_command_runs_exactly_its_cells(committed_url):
    """Issue 62, third round, item 1, on the pages as served: every committed result's "compare
    your own system" command, read as a reader pastes it, resolves by the runner's own selection
    (commands/plan.select) to exactly the result's cells today's profile has, and the page names
    the others (test_own_run: the same over drawn subsets)."""
    import html as html_mod
    from test_own_run import resolved, today
    for path in REPO.glob("data/results/*.json"):
        result = readable(json.loads(path.read_text()))
        page = fetched(f"{committed_url}/results/{result['id']}/").decode()
        command = re.search(r'<code class="command" id="own-run">(.*?)</code>', page, re.S)
        named = re.search(r'<p id="own-run-unknown">(.*?)</p>', page, re.S)
        unknown = [html_mod.unescape(k) for k in re.findall(r"<code>(.*?)</code>", named.group(1))[1:]] if named else []
        keys, known = {c["key"] for c in result["cells"]}, today(result)
        assert set(unknown) == keys - known, result["id"]
        assert set(resolved(html_mod.unescape(command.group(1)))) == keys & known, result["id"]


FACTS = "dl => [...dl.querySelectorAll('dt')].map(dt => [dt.textContent, dt.nextElementSibling.textContent])"


def test_the_explorer_s_details_give_the_result_page_s_system_table(browser, committed_url):
    """Issue 62, third round, item 3: the explorer's details lacked the container, the storage
    and the note on labels that may name the same host. For every committed result, the details
    of a bar of its run give the system table of its result page, term for term and word for
    word (both from machines.system_facts; the page's table read as served, its run facts
    Measured and Tools aside), the note's link going to the same place."""
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    page = context.new_page()
    for path in sorted(REPO.glob("data/results/*.json")):
        rid = path.stem
        page.goto(f"{committed_url}/results/{rid}/")
        table = [fact for fact in page.eval_on_selector("#system-table", FACTS) if fact[0] not in ("Measured", "Tools")]
        note = page.eval_on_selector("#system-table dd a", "a => a.href")
        page.goto(f"{committed_url}/explorer/?r={rid}")
        page.wait_for_function("document.getElementById('explorer').dataset.shown")
        if page.locator(FIRST).count():  # the default run's: the build's picture until asked
            page.click("#explorer .chart-explore")
        page.wait_for_function("document.getElementById('explorer').dataset.rendered")
        page.locator(LIVE_BARS).first.dispatch_event("pointermove")
        page.wait_for_selector("#explorer-details dl")
        details = page.eval_on_selector("#explorer-details dl", FACTS)
        start = [term for term, _ in details].index("Machine")
        assert details[start:start + len(table)] == table, rid
        assert page.eval_on_selector("#explorer-details dl dd a[href*='results/#machines']", "a => a.href") == note, rid
        assert any(term == "Virtualization" for term, _ in table) and any(term == "Storage device" for term, _ in table)
    context.close()
