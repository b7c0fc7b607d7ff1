"""Issue 62, fourth round, item 2: every parameter the explorer reads from its address (r, fs, v,
w, metric, mode, base, axis, cpu, embed) names a value this site does not know in a notice and
shows that parameter's default instead; the address is rewritten to the view shown. Checked
through the shared model (static/js/explorer-view.js in Node, as the build runs it) against the
rule written here from the index's own vocabulary, over values hypothesis draws (empty, blank,
unicode, names an object already holds, very long), and on a sample in Chromium."""
import json
import re
import subprocess
import urllib.parse
import urllib.request

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from sitebuild import REPO

pytestmark = [pytest.mark.site]

# One Node process answers one query a line: the view readState makes of it, its notices, the
# query the explorer writes back for it and the notices of that query read again; whether the
# explorer takes that view for its default view (isDefault) and whether the page's first script,
# knowing only the default view's query, takes the address for it (meansDefault).
DRIVER = """
const V = require(process.argv[1] + "/static/js/explorer-view.js");
const A = require(process.argv[1] + "/static/js/explorer-address.js");
const model = V.model(JSON.parse(require("fs").readFileSync(process.argv[2], "utf8")));
const defaults = new URLSearchParams(model.query(model.readState(new URLSearchParams())));
require("readline").createInterface({ input: process.stdin }).on("line", (line) => {
  const params = new URLSearchParams(JSON.parse(line)), view = model.readState(params);
  const again = model.readState(new URLSearchParams(model.query(view)));
  process.stdout.write(JSON.stringify({ view, query: model.query(view), again: again.notices, isDefault: model.isDefault(view),
                                        means: A.meansDefault(params, defaults) }) + "\\n");
});
"""


@pytest.fixture(scope="module")
def index(explorer_url, tmp_path_factory):
    path = tmp_path_factory.mktemp("explorer-index") / "data.json"
    path.write_bytes(urllib.request.urlopen(f"{explorer_url}/explorer/data.json").read())
    return path


def _answers(driver: str, path):
    """One Node process running driver over path, asked one query a line, while the fixture lasts."""
    node = subprocess.Popen(["node", "-e", driver, str(REPO), str(path)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, encoding="utf-8")

    def read(query: str) -> dict:
        node.stdin.write(json.dumps(query) + "\n")
        node.stdin.flush()
        return json.loads(node.stdout.readline())
    yield read
    node.stdin.close()
    node.wait(timeout=10)


@pytest.fixture(scope="module")
def ask(index):
    yield from _answers(DRIVER, index)


def rule(index_path) -> dict:
    """Each parameter: (view field, the values this site has, its default, a list or not),
    written from the index (explorer/data.json) as the issue states the rule."""
    data = json.loads(index_path.read_text())
    voc = data["vocabulary"]
    configs = list(dict.fromkeys(fs if variant == "defaults" else f"{fs} {variant}" for fs, variant in voc["configs"]))
    runs = data["results"]["id"]
    default_run = data["default"] if data["default"] in runs else runs[-1]
    # an import (no re-run command) named alone shows its tool's cells, variant "imported"
    reruns = [data["strings"][i] for i in data["results"]["rerun"]]
    imported = reruns[runs.index(default_run)] == ""
    return {
        "r": ("results", set(data["results"]["id"]), [default_run], True),
        "fs": ("fs", set(voc["filesystems"]), voc["filesystems"], True),
        "v": ("variant", set(voc["variants"]) | ({"imported"} if "" in reruns else set()), ["defaults", "imported"] if imported else ["defaults"], True),
        "w": ("workload", set(voc["workloads"]), voc["workloads"], True),
        "metric": ("metric", {m["name"] for m in data["metrics"]}, "throughput", False),
        "mode": ("mode", {"abs", "ratio", "share"}, "abs", False),
        "base": ("baseline", set(configs), "ext4" if "ext4" in configs else configs[0], False),
        "axis": ("axis", {"workload", "dims"}, "workload", False),
        "cpu": ("cpu", {"1": True, "0": False}, False, False),
        "embed": ("embed", {"1": True, "0": False}, False, False),
    }


def canonical(known, value: str):
    """The name a closed set knows a value by: itself, or the one name it matches in another case
    (?fs=XFS is xfs, issue 62 fifth round); None: none or several."""
    if value in known:
        return value
    found = [k for k in known if k.lower() == value.lower()]
    return found[0] if len(found) == 1 else None


def quoted(value: str) -> str:
    return "\u201c" + (value[:40] + "\u2026" if len(value) > 40 else value) + "\u201d"


JUNK = st.one_of(
    st.sampled_from(["", " ", "\t", ",", " , ", "__proto__", "constructor", "toString", "hasOwnProperty",
                     "ÉXT4", "ext4\u200b", "x" * 5000, "ext4 ", "%zz", "null", "undefined"]),
    st.text(min_size=0, max_size=60),
    st.text(alphabet=st.characters(min_codepoint=0x80, max_codepoint=0x10FFFF, blacklist_categories=("Cs",)), max_size=12),
)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_every_parameter_names_what_it_does_not_know_and_shows_its_default(ask, index, data):
    params = rule(index)
    name = data.draw(st.sampled_from(sorted(params)), label="parameter")
    field, known, default, is_list = params[name]
    # a known value in another case (XFS, Ext4, SEQ-WRITE) is read as the one it matches
    value = data.draw(st.one_of(JUNK, st.sampled_from(sorted(known)),
                                st.sampled_from(sorted(known)).map(str.upper), st.sampled_from(sorted(known)).map(str.swapcase)), label="value")
    got = ask(urllib.parse.urlencode({name: value}))
    view, notices = got["view"], got["view"]["notices"]
    if is_list:
        words = [w.strip() for w in value.split(",") if w.strip()]
        good = list(dict.fromkeys(canonical(known, w) for w in words if canonical(known, w)))
        expect = good or default
        assert view[field] == expect, (name, value, view[field])
        if words and all(canonical(known, w) for w in words):
            assert notices == [], (name, value, notices)
        else:
            assert len(notices) == 1, (name, value, notices)
            assert all(quoted(w) in notices[0] or w in notices[0] for w in words if not canonical(known, w)), (name, value, notices)
    else:
        if canonical(known, value) is not None:
            value = canonical(known, value)
            expect = known[value] if isinstance(known, dict) else value
            assert view[field] == expect and notices == [], (name, value, view[field], notices)
        else:
            assert view[field] == default, (name, value, view[field])
            assert len(notices) == 1 and quoted(value) in notices[0], (name, value, notices)
    # the address written for what is shown names nothing unknown: read again, it says nothing
    assert got["again"] == [], (name, value, got["query"], got["again"])


NAMES = st.one_of(st.sampled_from(["r", "fs", "v", "w", "metric", "mode", "base", "axis", "cpu", "embed"]),
                  st.sampled_from(["R", "FS", "Metric", "MODE", "foo", "", "__proto__", "r ", "run", "results"]),
                  st.text(min_size=1, max_size=8))


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_every_parameter_given_is_read_or_named_and_a_repeated_one_is_read_whole(ask, index, data):
    """Issue 62, fifth round, item 2: an address of several parameters, some repeated (?r=A&r=B),
    some the explorer does not read (?R=, ?foo=): each one it does not read is named in a notice;
    a repeated list (r, fs, v, w) is read whole, as its values joined by commas; a repeated single
    value is read first and its other values named; nothing unknown, repeated or unread: no notice."""
    params = rule(index)
    pairs = data.draw(st.lists(st.tuples(NAMES, st.just("")), min_size=1, max_size=6), label="names")
    pairs = [(name, data.draw(st.one_of(st.sampled_from(sorted(params[name][1])), st.sampled_from(sorted(params[name][1])).map(str.upper), JUNK)
                              if name in params else JUNK, label=f"value of {name}")) for name, _ in pairs]
    got = ask(urllib.parse.urlencode(pairs))
    view, notices = got["view"], got["view"]["notices"]
    said = " ".join(notices)
    for name in dict.fromkeys(n for n, _ in pairs if n not in params):
        assert quoted(name) in said, (pairs, notices)
    clean = all(n in params for n, _ in pairs)
    for name, (field, known, default, is_list) in params.items():
        values = [v for n, v in pairs if n == name]
        if not values:
            continue
        if is_list:
            words = [w.strip() for w in ",".join(values).split(",") if w.strip()]
            good = list(dict.fromkeys(canonical(known, w) for w in words if canonical(known, w)))
            assert view[field] == (good or default), (pairs, field, view[field])
            clean = clean and bool(words) and len(good) == len(words) and len(set(good)) == len(good)
        else:
            first = canonical(known, values[0])
            expect = default if first is None else known[first] if isinstance(known, dict) else first
            assert view[field] == expect, (pairs, field, view[field])
            for other in dict.fromkeys(values[1:]):
                if other != values[0]:
                    assert quoted(other) in said, (pairs, other, notices)
            clean = clean and first is not None and len(set(values)) == 1
    if clean and len({n for n, _ in pairs}) == len(pairs):
        assert notices == [], (pairs, notices)
    assert got["again"] == [], (pairs, got["query"], got["again"])


def spelt(draw, values: list) -> list:
    """values in another order, each in its own case or another, as one list or split over repeats."""
    values = draw(st.permutations(values))
    values = [draw(st.sampled_from([v, v.upper(), v.swapcase()])) for v in values]
    cut = draw(st.integers(0, len(values)))
    return [",".join(values[:cut]), " " + ",".join(values[cut:]) + ","] if draw(st.booleans()) else [",".join(values)]


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_an_address_that_reads_as_the_default_view_is_taken_for_it_before_any_data(ask, index, data):
    """Issue 62, rule "first view drawn at build time": an address whose view, read (defaults
    filled in, parameters it does not read ignored, embed aside), is the default view shows the
    build's picture of it, at once, and loads no Vega. Against the rule written here from the
    index (rule()): the explorer's isDefault says exactly that of the view it reads; the page's
    first script (meansDefault, knowing only the default view's query) never takes another view
    for it, and takes every address for it whose values the site all knows (default values in
    any case, order or repetition, beside parameters it does not read)."""
    params = rule(index)

    def default_of(name):  # the default's values, spelt() or (of one value) in another case
        field, known, default, is_list = params[name]
        if is_list:
            return spelt(data.draw, default)
        v = next(k for k in known if (known[k] if isinstance(known, dict) else k) == default)
        return [data.draw(st.sampled_from([v, v.upper(), v.swapcase()]))]

    # some parameters at their default, and beside them at most one given another value (one the
    # site knows, or junk) at any place, and parameters the explorer does not read
    names = data.draw(st.lists(st.sampled_from(sorted(params)), unique=True), label="at their default")
    pairs = [(name, v) for name in names for v in default_of(name)]
    odd = data.draw(st.sampled_from(sorted(params) + [None]), label="given another value")
    if odd:
        known = data.draw(st.integers(0, 3), label="a value the site knows (not 0)")
        other = data.draw(st.sampled_from(sorted(params[odd][1])) if known else JUNK, label=f"value of {odd}")
        pairs.insert(data.draw(st.integers(0, len(pairs))), (odd, other))
    for name in data.draw(st.lists(st.sampled_from(["utm_source", "R", "foo"]), max_size=2), label="not read"):
        pairs.insert(data.draw(st.integers(0, len(pairs))), (name, data.draw(JUNK)))
    got = ask(urllib.parse.urlencode(pairs))
    reads_default, all_known = True, True
    for name, (field, known, default, is_list) in params.items():
        values = [v for n, v in pairs if n == name]
        if not values or name == "embed":
            continue
        if is_list:
            words = [w.strip() for w in ",".join(values).split(",") if w.strip()]
            good = {canonical(known, w) for w in words} - {None}
            reads_default &= (good or set(default)) == set(default)
            all_known &= all(canonical(known, w) for w in words)
        else:
            first = canonical(known, values[0])
            reads_default &= first is None or (known[first] if isinstance(known, dict) else first) == default
            all_known &= first is not None
    assert got["isDefault"] == reads_default, (pairs, got["query"])
    assert not got["means"] or reads_default, pairs  # never the picture for another view
    if reads_default and all_known:
        assert got["means"], pairs  # the picture at once, not after the data


def test_the_unknown_variant_falls_back_to_the_runs_own_default(ask, index):
    """An import's run alone shows its tool's cells ("imported") beside the defaults; any other
    run the defaults: a junk ?v= shows exactly that default, as no ?v= does."""
    for run in json.loads(index.read_text())["results"]["id"][:5]:
        plain = ask(urllib.parse.urlencode({"r": run}))["view"]["variant"]
        for junk in ("", "nope", "__proto__"):
            got = ask(urllib.parse.urlencode({"r": run, "v": junk}))["view"]
            assert got["variant"] == plain and len(got["notices"]) == 1, (run, junk, got)


SAMPLE = [("mode", "bogus"), ("fs", "zzz"), ("w", "nope"), ("v", "__proto__"), ("axis", ""), ("cpu", "yes"),
          ("metric", "constructor"), ("fs", "ext4,\u00e9\u00e9"), ("embed", "x" * 300)]


@pytest.mark.browser
def test_in_the_browser_the_notice_is_shown_and_the_address_rewritten(browser, explorer_url, ask):
    """The adversary's addresses and a few beside them: the status names the value, the figures
    are drawn (not "0 cells drawn"), and the address becomes the query of the view shown."""
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    for name, value in SAMPLE:
        query = urllib.parse.urlencode({name: value})
        page.goto(f"{explorer_url}/explorer/?{query}")
        page.wait_for_function("document.getElementById('explorer').dataset.shown")
        said = page.inner_text("#explorer .explorer-status")
        expect = ask(query)
        assert said.startswith(expect["view"]["notices"][0]), (query, said)
        assert " 0 cells drawn" not in " " + said and "no baseline" not in page.inner_text("#explorer-table"), (query, said)
        assert page.evaluate("location.search") == "?" + expect["query"], query
        assert "(): " not in page.inner_text("#explorer-caption"), query
    assert errors == []
    page.close()


# Issue 62, fifth round, item 3: the model with every chunk of the site in, answering one query a
# line: what its chart draws, why it is empty (emptyReason) and which metrics its runs measured.
EMPTY_DRIVER = """
const fs = require("fs"), dir = process.argv[2];
const V = require(process.argv[1] + "/static/js/explorer-view.js");
const index = JSON.parse(fs.readFileSync(dir + "/data.json", "utf8")), names = index.metrics.map((m) => m.name);
const model = V.model(index);
model.data.results.forEach((r) => model.add(r.id, JSON.parse(fs.readFileSync(dir + "/rows/" + r.id + ".json", "utf8"))));
require("readline").createInterface({ input: process.stdin }).on("line", (line) => {
  const view = model.readState(new URLSearchParams(JSON.parse(line)));
  const drawn = model.chart(view).shown.length;
  process.stdout.write(JSON.stringify({ view, drawn, reason: model.emptyReason(view),
    measured: names.filter((m) => model.measured(view, m)) }) + "\\n");
});
"""


@pytest.fixture(scope="module")
def explorer_files(explorer_url, tmp_path_factory):
    """explorer/data.json and every chunk of the synthetic site, as the browser fetches them."""
    folder = tmp_path_factory.mktemp("explorer-files")
    (folder / "rows").mkdir()
    (folder / "data.json").write_bytes(urllib.request.urlopen(f"{explorer_url}/explorer/data.json").read())
    for rid in json.loads((folder / "data.json").read_text())["results"]["id"]:
        (folder / "rows" / f"{rid}.json").write_bytes(urllib.request.urlopen(f"{explorer_url}/explorer/rows/{rid}.json").read())
    return folder


@pytest.fixture(scope="module")
def ask_all(explorer_files):
    yield from _answers(EMPTY_DRIVER, explorer_files)


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_an_empty_view_says_which_choice_leaves_nothing_and_the_picker_knows_what_was_measured(explorer_files, ask_all, data):
    """Counted here from the chunks' rows: the metrics a view's runs measured are those the model
    says; a view (absolute figures, across workloads) draws nothing exactly when no row of its runs
    and metric passes its filters, and then its reason names the first choice that left none."""
    from fsatlas.results.metrics import label
    index = json.loads((explorer_files / "data.json").read_text())
    assert all(m["label"] == label(m["name"]) for m in index["metrics"])
    described = {k["key"]: k for k in index["keys"]}
    rows = []  # (result, metric, filesystem, variant, workload)
    for rid in index["results"]["id"]:
        chunk = json.loads((explorer_files / "rows" / f"{rid}.json").read_text())
        keys = [described.get(k) or chunk["described"][k] for k in chunk["keys"]]
        rows += [(rid, chunk["metrics"][m], keys[k]["filesystem"], keys[k]["variant"], keys[k]["workload"])
                 for k, m in zip(chunk["rows"]["k"], chunk["rows"]["m"])]
    voc = index["vocabulary"]
    runs = data.draw(st.lists(st.sampled_from(index["results"]["id"]), min_size=1, max_size=3, unique=True), label="runs")
    metric = data.draw(st.sampled_from([m["name"] for m in index["metrics"]]), label="metric")
    chosen = {"fs": data.draw(st.lists(st.sampled_from(voc["filesystems"]), min_size=1, max_size=3, unique=True), label="fs"),
              "v": data.draw(st.lists(st.sampled_from(voc["variants"]), min_size=1, max_size=2, unique=True), label="v"),
              "w": data.draw(st.lists(st.sampled_from(voc["workloads"]), min_size=1, max_size=3, unique=True), label="w")}
    query = urllib.parse.urlencode({"r": ",".join(runs), "metric": metric, **{k: ",".join(v) for k, v in chosen.items()}})
    got = ask_all(query)
    assert got["view"]["notices"] == [] and got["view"]["results"] == runs, (query, got["view"])
    assert sorted(got["measured"]) == sorted({m for r, m, *_ in rows if r in runs}), query
    pool = [row for row in rows if row[0] in runs and row[1] == metric]
    first = None if pool else "did not measure it"
    for position, (param, what) in enumerate((("fs", "filesystems"), ("v", "option variants"), ("w", "workloads")), start=2):
        pool = [row for row in pool if row[position] in chosen[param]]
        if not pool and first is None:
            first = f"for none of the {what} chosen ({', '.join(chosen[param])})"
    assert (got["drawn"] == 0) == (first is not None), (query, got)
    if first:
        assert first in got["reason"], (query, got["reason"])


@pytest.mark.browser
def test_the_page_names_as_shown_only_the_runs_its_view_shows(browser, committed_url):
    """Issue 62, fifth round, item 1, over every committed run as r= and two-run addresses (one of
    them ?r=A&r=B): every sentence of the page's visible text that says "This chart shows" names
    runs the view shows, and at least one does; the run note (the default view's) is visible on
    the default address and on no other view's. An empty view's caption and table say why, in words."""
    ids = sorted(p.stem for p in (REPO / "data" / "results").glob("*.json"))
    default = json.loads(urllib.request.urlopen(f"{committed_url}/explorer/data.json").read())["default"]
    addresses = [("", [default])] + [(urllib.parse.urlencode({"r": rid}), [rid]) for rid in ids]
    addresses += [(urllib.parse.urlencode({"r": f"{ids[0]},{ids[-1]}"}), [ids[0], ids[-1]]),
                  (urllib.parse.urlencode([("r", ids[1]), ("r", ids[2])]), [ids[1], ids[2]])]
    page = browser.new_page()
    for query, runs in addresses:
        page.goto(f"{committed_url}/explorer/?{query}")
        page.wait_for_function("document.getElementById('explorer').dataset.shown")
        text = page.inner_text("main")
        said = [re.split(r"\.(?:\s|$)|: \d+ cells", part, maxsplit=1)[0] for part in text.split("This chart shows")[1:]]
        named = {rid for sentence in said for rid in ids if rid in sentence}
        assert said and named == set(runs), (query, said)
        note = page.locator("#explorer .run-note")
        if query == "":
            assert note.is_visible(), "the default view's note is not shown"
        elif runs != [default]:
            assert not note.is_visible(), query
    # a view its runs cannot draw: the caption says why, with the metric's words, not its id alone
    page.goto(f"{committed_url}/explorer/?r={ids[0]}&metric=lat_mean_ns&fs=nosuchfs,ext4&w=mount-time")
    page.wait_for_function("document.getElementById('explorer').dataset.shown")
    caption, table = page.inner_text("#explorer-caption"), page.inner_text("#explorer-table caption")
    assert caption.startswith("Nothing drawn of mean latency: ") and "()" not in table and "mean latency" in table, (caption, table)
    page.close()
