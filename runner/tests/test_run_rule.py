"""One rule for which run a figure comes from (site/run_rule.py): on the committed results, every
cell's figure, every ranking and the home page's run follow it, worked out here again from the
result files themselves; so no two pages give one cell two figures."""
import html
import json
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from fsatlas.site import aggregate, pairs, run_rule
from testutil import write_run
from fsatlas.results.resultfile import readable  # a result file in the read form (schema 2 stores no summaries)

REPO = Path(__file__).resolve().parents[2]
# one worker runs them (scripts/test.sh: --dist loadgroup), so the committed data is aggregated
# once (30 s on CI's two cores), not once a worker
pytestmark = pytest.mark.xdist_group("run-rule")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("run-rule")
    shutil.copytree(REPO / "data", root / "data", ignore=shutil.ignore_patterns("aggregates"))
    aggregate.aggregate(str(root / "data"), str(root / "build" / "content"), articles_dir=str(REPO / "content" / "articles"))
    read = lambda name: json.loads((root / "data" / "aggregates" / f"{name}.json").read_text())  # noqa: E731
    read.root = root  # the folder aggregated into (its build/static: the compare page's and explorer's files)
    results = [readable(json.loads(p.read_text())) for p in sorted((REPO / "data" / "results").glob("*.json"))]
    return read, results


def _ok(result, key):
    return any(c["key"] == key and c["status"] == "ok" for c in result["cells"])


def _breadth(result, cell):
    """How many filesystems the run measured (ok) on the cell's workload, dimensions and variant."""
    same = lambda c: (c["workload"], c["key"].split("|")[4:], c.get("variant", "defaults"))  # noqa: E731
    return len({c["filesystem"] for c in result["cells"] if c["status"] == "ok" and same(c) == same(cell)})


def test_each_cell_comes_from_the_run_that_measured_the_most_filesystems_on_its_workload(site):
    read, results = site
    cells = read("cells")
    checked = 0
    for key, entry in cells.items():
        if entry["status"] != "ok":
            continue
        holders = [r for r in results if _ok(r, key)]
        cell_of = lambda r: next(c for c in r["cells"] if c["key"] == key)  # noqa: E731
        best = max(holders, key=lambda r: (_breadth(r, cell_of(r)), r["created"], r["id"]))
        assert entry["result"] == best["id"], key
        checked += 1
    # the committed data has a newer run of one filesystem beside older runs of six
    assert checked > 50
    newest = max(results, key=lambda r: r["created"])
    assert any(_ok(newest, k) and e["result"] != newest["id"] for k, e in cells.items() if e["status"] == "ok")


def test_a_ranking_shows_the_figures_every_other_page_shows(site):
    read, _ = site
    cells, rankings, history = read("cells"), read("rankings"), read("history")
    compared = 0
    for name, ranking in rankings.items():
        *prefix, metric = name.split("|")
        for row in ranking["ranked"] + ranking["excluded"]:
            key = "|".join([row["filesystem"], "-", "-", *prefix])
            assert cells[key]["result"] == row["result"], name
            assert cells[key]["metrics"][metric]["display"] == row["display"], (name, row["filesystem"])
            compared += 1
    assert compared > 50
    for dataset in history.values():
        for row in dataset["rows"]:
            if row.get("today_display"):
                assert row["today_result"] == cells[row["today_key"]]["result"]


def test_the_home_pages_run_is_the_complete_run_that_measured_the_most_filesystems(site):
    read, results = site
    fs = lambda r: len({c["filesystem"] for c in r["cells"]  # noqa: E731
                        if c["status"] == "ok" and c.get("variant", "defaults") == "defaults"})
    best = max(results, key=lambda r: (r.get("complete", True), fs(r), r["created"], r["id"]))
    assert read("latest")["result"] == best["id"]
    assert best["id"] != max(results, key=lambda r: r["created"])["id"]  # the rule, not recency, decided
    assert "most filesystems" in read("build")["run_rule"]


def _rule_run(results, fs_names, cell_key_of):
    """The run the rule picks for one workload among the result files that measured every
    filesystem named (worked out from the files, as the first test does), or None."""
    holders = [r for r in results if all(_ok(r, cell_key_of(fs)) for fs in fs_names)]
    if not holders:
        return None
    cell_of = lambda r: next(c for c in r["cells"] if c["key"] == cell_key_of(fs_names[0]))  # noqa: E731
    return max(holders, key=lambda r: (_breadth(r, cell_of(r)), r["created"], r["id"]))["id"]


def _first_table_rows(doc):
    """(key, metric, run, n, a, b, note) of each row of a pair's first table, as the page shows it."""
    first = doc["runs"][0]
    rows = []
    for tr in re.findall(r"<tr class=[^>]*>.*?</tr>", first["table"]):
        attrs = dict(re.findall(r' data-(key|metric|run)="([^"]*)"', tr[:tr.index(">")]))
        nums = [html.unescape(v) for v in re.findall(r'<td class="num">(.*?)</td>', tr)]
        note = re.search(r"<summary>elsewhere</summary>(.*?)</details>", tr)
        rows.append((html.unescape(attrs["key"]), attrs["metric"], html.unescape(attrs.get("run", first["id"])),
                     *nums[:3], html.unescape(note.group(1)) if note else ""))
    return rows


def _table_verdicts(table: str, default_run: str) -> dict:
    """{(run, key, metric): (adjusted p as printed, verdict)} of every row of one compare table."""
    out = {}
    for tr in re.findall(r"<tr class=[^>]*>.*?</tr>", table):
        attrs = dict(re.findall(r' data-(key|metric|run)="([^"]*)"', tr[:tr.index(">")]))
        verdict = re.match(r'<tr class="verdict-([^"]*)"', tr).group(1)
        nums = [html.unescape(v) for v in re.findall(r'<td class="num">(.*?)</td>', tr)]
        out[(html.unescape(attrs.get("run", default_run)), html.unescape(attrs["key"]), attrs["metric"])] = (nums[4], verdict)
    return out


def test_a_compare_row_has_the_p_and_verdict_fsatlas_compare_gives_its_run(site):
    """One comparison of two cells has one p and one verdict wherever it is shown: every row of
    every table of each pair the site's rule takes from several runs (its rule table and each
    run's own) says what `fsatlas compare R --a A --b B --all-metrics` says of that row,
    worked out here from R's result file by the command's own path (#60 round 51: the rule's
    table adjusted its rows across runs, and called "better" what the run's own table and the
    CLI called inconclusive)."""
    from fsatlas.commands import compare as compare_cmd
    from fsatlas.site import report
    read, _ = site
    paths = {p.stem: p for p in (REPO / "data" / "results").glob("*.json")}
    cli: dict = {}
    checked, mixed = 0, 0
    for path in sorted((read.root / "build" / "static" / "compare").glob("*--*.json")):
        doc = json.loads(path.read_text())
        a, b = doc["a"], doc["b"]
        if doc["runs"][:1] and doc["runs"][0]["id"] != pairs.RULE_ID:
            continue  # a pair without the rule's table: its tables are the runs' own (test time)
        for run in doc["runs"]:
            rows = _table_verdicts(run["table"], run["id"])
            mixed += run["id"] == pairs.RULE_ID and len({rid for rid, _, _ in rows}) > 1
            for (rid, key, metric), shown in rows.items():
                if (rid, a, b) not in cli:
                    result = compare_cmd.validated([str(paths[rid])])[0]
                    cli[(rid, a, b)] = {(r["key"], r["metric"]): (
                        f"{r['p_adjusted']:.2g}" if r["status"] == "tested" else "–", r["verdict"].replace(" ", "-"))
                        for r in report.within(result, a, b, all_metrics=True)}
                assert shown == cli[(rid, a, b)][(key, metric)], (path.name, run["id"], rid, key, metric)
                checked += 1
    assert checked > 500 and mixed, (checked, mixed)  # the committed runs give rule tables of several runs


def test_the_compare_page_shows_each_cell_as_every_other_page_does(site):
    """The compare page's first table of every pair takes each workload from the run the rule
    picks among those that measured both (worked out here from the result files); where that is
    the run of each filesystem's own figure, it prints the figure cells.json (home, filesystem
    pages, history, articles) prints; where not, the row names the run the other pages use."""
    read, results = site
    cells = read("cells")
    compare = sorted((read.root / "build" / "static" / "compare").glob("*--*.json"))
    assert compare
    agreed = differed = 0
    for path in compare:
        doc = json.loads(path.read_text())
        a, b = doc["a"], doc["b"]
        for key, metric, run, n, shown_a, shown_b, note in _first_table_rows(doc):
            cell_key = lambda fs: f"{fs}|-|-|{key}"  # noqa: E731  (default options)
            assert run == _rule_run(results, [a, b], cell_key), (path.name, key)
            for fs, shown in ((a, shown_a), (b, shown_b)):
                elsewhere = cells[cell_key(fs)]
                assert elsewhere["result"] == _rule_run(results, [fs], cell_key)
                if elsewhere["result"] == run:
                    assert shown == elsewhere["metrics"][metric]["display"], (path.name, key, metric, fs)
                    agreed += 1
                else:  # the other pages' run did not measure the other filesystem: the row says which it is
                    assert f"{fs}'s figure on the other pages is from run {elsewhere['result']}" in note
                    differed += 1
    # the committed data: ext4 tiny-block-write is 030418Z's (6 filesystems) everywhere, seq-write 143616Z's
    assert agreed > 100
    ext4_xfs = json.loads((read.root / "build" / "static" / "compare" / "ext4--xfs.json").read_text())
    runs = {key: run for key, _, run, *_ in _first_table_rows(ext4_xfs)}
    assert runs["tiny-block-write"].startswith("20261123T030418Z") and runs["seq-write"].startswith("20261127T143616Z")
    assert read("compare")["default"]["runs"][0]["table"] == ext4_xfs["runs"][0]["table"]


def test_the_explorer_opens_on_the_home_pages_run(site):
    """Not the newest complete run by date (the committed NTFS-only run 174924Z)."""
    read, results = site
    index = json.loads((read.root / "build" / "static" / "explorer" / "data.json").read_text())
    newest_complete = max((r for r in results if r.get("complete", True)), key=lambda r: r["created"])
    assert index["default"] == read("latest")["result"] != newest_complete["id"]


FILESYSTEMS = ("ext2", "ext4", "xfs", "btrfs")
GROUPS = ("seq-write||defaults", "small-files|file_size=100|defaults", "seq-write||noatime")


@settings(max_examples=200)
@given(st.lists(st.tuples(st.integers(0, 5), st.lists(st.sets(st.sampled_from(FILESYSTEMS)), min_size=3, max_size=3)),
                min_size=1, max_size=6), st.randoms(use_true_random=False), st.integers(0, 6))
def test_the_compare_pages_run_of_a_workload_is_the_one_of_each_figure_wherever_it_can_be(runs, rng, cut):
    """Over runs of random dates (ties included) and random filesystems per workload: the run
    the compare page takes for a pair and workload measured both, none that measured both ranks
    above it (most filesystems there, then newest, then id), and it is the run each figure of
    the two comes from on the other pages whenever that run measured the other filesystem too.
    The picks are a fold (run_rule.FirstRuns): the runs come in a random order, in two parts
    folded apart and merged through their saved state, as the aggregate's workers do."""
    summaries = [{"id": f"r{i}", "created": f"2026-11-2{day}T00:00:00Z",
                  "measured": {g: sorted(fs) for g, fs in zip(GROUPS, sets) if fs}} for i, (day, sets) in enumerate(runs)]
    rank = lambda s, g: (len(s["measured"][g]), s["created"], s["id"])  # noqa: E731
    best = lambda g, names: max((s for s in summaries if set(names) <= set(s["measured"].get(g, ()))),  # noqa: E731
                                key=lambda s: rank(s, g), default=None)
    order = list(summaries)
    rng.shuffle(order)
    first, second = run_rule.FirstRuns(), run_rule.FirstRuns()
    for s in order[:cut]:
        first.add(s)
    for s in order[cut:]:
        second.add(s)
    first.merge(json.loads(json.dumps(second.state())))
    picks = run_rule.FirstRuns(json.loads(json.dumps(first.state()))).picks()
    seen = set()
    for (a, b), rows in picks.items():
        for workload, dims, variant, both, alone_a, alone_b in rows:
            g = f"{workload}|{dims}|{variant}"
            seen.add((a, b, g))
            assert variant == "defaults" and both == best(g, [a, b])["id"]
            assert (alone_a, alone_b) == (best(g, [a])["id"], best(g, [b])["id"])
            for fs, alone, other in ((a, alone_a, b), (b, alone_b, a)):
                if other in next(s for s in summaries if s["id"] == alone)["measured"][g]:
                    assert both == alone
    # every pair some run measured with default options is there, and nothing else
    wanted = {(a, b, g) for s in summaries for g, fs in s["measured"].items() if g.endswith("|defaults")
              for a in fs for b in fs if a != b}
    assert seen == wanted


def test_a_compare_row_whose_figure_other_pages_take_from_another_run_says_which(tmp_path):
    """ext4 measured beside ext2 and btrfs in one run (3 filesystems), beside xfs alone in a
    newer one (2): every other page takes ext4's seq-write from the first, the compare page's
    ext4/xfs row must come from the second (the only one that measured both), and says so."""
    fixtures = REPO / "runner" / "tests" / "fixtures"
    first = json.loads((fixtures / "results" / "fixture-valid.json").read_text())
    cell = next(c for c in first["cells"] if c["key"] == "ext4|-|-|seq-write")
    for rid, created, filesystems in (("wide", "2026-11-25T00:00:00Z", ["ext2", "ext4", "btrfs"]),
                                      ("pair", "2026-11-26T00:00:00Z", ["ext4", "xfs"])):
        write_run(tmp_path / "data", dict(first, id=rid, created=created, cells=[
            dict(cell, filesystem=fs, key=f"{fs}|-|-|seq-write") for fs in filesystems]))
    aggregate.aggregate(str(tmp_path / "data"), str(tmp_path / "build" / "content"))
    cells = json.loads((tmp_path / "data" / "aggregates" / "cells.json").read_text())
    assert cells["ext4|-|-|seq-write"]["result"] == "wide" and cells["xfs|-|-|seq-write"]["result"] == "pair"
    doc = json.loads((tmp_path / "build" / "static" / "compare" / "ext4--xfs.json").read_text())
    assert doc["runs"][0]["id"] == pairs.RULE_ID and [r["id"] for r in doc["runs"][0]["runs"]] == ["pair"]
    rows = _first_table_rows(doc)
    assert rows and all(run == "pair" for _, _, run, *_ in rows)
    assert all(note == "ext4's figure on the other pages is from run wide, which did not measure xfs here"
               for *_, note in rows)
    # where the other pages' run of both figures is the run that compares them, one run's table comes first
    plain = json.loads((tmp_path / "build" / "static" / "compare" / "ext2--btrfs.json").read_text())
    assert [r["id"] for r in plain["runs"]] == ["wide"] and "elsewhere" not in plain["runs"][0]["table"]


def test_every_ranking_row_and_history_figure_gives_n_and_its_interval(site):
    """#62 item 8: beside each ranked (or unranked) figure and each "measured here" figure, the
    repetitions it rests on and its 95 % interval, as the cell's own figures say them."""
    from fsatlas.site.knowledge import display, display_number
    read, _ = site
    cells, rankings, history = read("cells"), read("rankings"), read("history")
    checked = 0
    for name, ranking in rankings.items():
        *prefix, metric = name.split("|")
        for row in ranking["ranked"] + ranking["excluded"]:
            m = cells["|".join([row["filesystem"], "-", "-", *prefix])]["metrics"][metric]
            assert row["n"] == m["n"] == len(row["samples"]) >= 1
            assert row["interval"] == f"{display_number(m['ci_low'], m['unit'])}–{display(m['ci_high'], m['unit'])}"
            checked += 1
    for dataset in history.values():
        for row in dataset["rows"]:
            if row.get("today_display"):
                m = cells[row["today_key"]]["metrics"][row["today_metric"]]
                assert row["today_detail"].startswith(f"n = {m['n']}, 95 % interval {display_number(m['ci_low'], m['unit'])}–")
                checked += 1
    assert checked > 100


def test_both_articles_are_pinned_and_say_where_a_newer_run_disagrees(site):
    """#62 item 7: the committed articles name one run in their front matter; every ranking they
    show is that run's alone (figures worked out here from its result file), and a row carries
    a newer run's figure exactly where the figure the site shows now comes from a newer run and
    lies outside the pinned figure's 95 % interval."""
    import frontmatter
    from fsatlas.site import articles
    read, results = site
    pinned, cells = read("pinned_rankings"), read("cells")
    by_id = {r["id"]: r for r in results}
    notes = shown = 0
    for path in sorted((REPO / "content" / "articles").glob("[!_]*.md")):
        post = frontmatter.load(path)
        (rid,) = post.metadata["results"]
        names = set(articles.RANKING.findall(post.content))
        assert names and names <= set(pinned[rid]), path.name
        for name in names:
            *prefix, metric = name.split("|")
            for row in pinned[rid][name]["ranked"] + pinned[rid][name]["excluded"]:
                key = "|".join([row["filesystem"], "-", "-", *prefix])
                m = next(c for c in by_id[rid]["cells"] if c["key"] == key)["metrics"][metric]
                assert row["result"] == rid and row["samples"] == m["samples"]
                now = cells[key]
                later = by_id[now["result"]]["created"] > by_id[rid]["created"]
                outside = not row["ci_low"] <= now["metrics"][metric]["mean"] <= row["ci_high"]
                assert bool(row["newer"]) == (later and outside), (name, key)
                if row["newer"]:
                    assert row["newer"]["result"] == now["result"]
                    notes += 1
                shown += 1
    assert shown > 50 and notes > 0  # the committed newer run 143616Z moved some figures beyond their interval


WRITTEN = st.tuples(st.datetimes(min_value=__import__("datetime").datetime(2026, 1, 1),
                                 max_value=__import__("datetime").datetime(2030, 1, 1)),
                    st.sampled_from(["Z", "+00:00"]), st.sampled_from(["whole", "fraction"]))


def _written(when, zone: str, form: str) -> str:
    """A created time as the schema lets a file write it."""
    text = when.strftime("%Y-%m-%dT%H:%M:%S") + (f".{when.microsecond:06d}".rstrip("0").rstrip(".") if form == "fraction" else "")
    return text + zone


@settings(max_examples=300)
@given(WRITTEN, WRITTEN)
def test_the_newest_run_is_the_newest_however_its_time_is_written(a, b):
    """Round 34: "...:56.5Z" sorted before "...:56Z" as text, so the rule took the older run. The
    rule orders runs by run_rule.moment, which orders them as their times do, whichever of the
    schema's forms (a fraction or none, Z or +00:00) each is written in."""
    (wa, *ra), (wb, *rb) = a, b
    ta, tb = _written(wa, *ra), _written(wb, *rb)
    # the times the texts say (a fraction written is the time's; none, the whole second)
    va = wa if ra[1] == "fraction" else wa.replace(microsecond=0)
    vb = wb if rb[1] == "fraction" else wb.replace(microsecond=0)
    assert (run_rule.moment(ta) < run_rule.moment(tb)) is (va < vb)
    assert (run_rule.moment(ta) == run_rule.moment(tb)) is (va == vb)
    runs = [{"id": "a", "created": ta, "measured": {"seq-write||defaults": ["ext4"]}},
            {"id": "b", "created": tb, "measured": {"seq-write||defaults": ["ext4"]}}]
    picks = run_rule.FirstRuns()
    for r in runs:
        picks.add(r)
    newest = max(("a", va), ("b", vb), key=lambda r: (r[1], r[0]))[0]
    assert picks.best.get(("seq-write||defaults", "ext4")) == newest
