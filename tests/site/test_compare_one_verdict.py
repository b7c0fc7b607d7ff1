"""Issue 60, rule 1: one function decides a pair of cells for `fsatlas compare`, the compare
page (and the explorer, which quotes its rows) and the rankings. Differential, over every pair of
filesystems of every committed standard run the site holds a table of, and every row: the page's
verdict, its reason (the row's test in words) and adjusted p, and each ranking's lead over the
next, are those `fsatlas compare R --a A --b B` computes for the same run and cells (its Python
function, commands/compare.compared), with and without --all-metrics (a headline row reads the
same either way). Round 15 found the page "ntfs worse" where compare said "not tested: parameters
differ" (the site's digest held no parameters), a ranking "clear lead" where compare said "not
tested: contention differs", and rewrite throughput "better" in compare but "inconclusive" on
the page (each adjusted over another family)."""
import html
import json
import re
from functools import lru_cache

import pytest

from fsatlas.commands import compare as compare_cmd
from fsatlas.results import comparison
from fsatlas.site import report
from sitebuild import REPO

pytestmark = pytest.mark.site
RESULTS = REPO / "data" / "results"
STANDARD = {p.stem for p in RESULTS.glob("*-standard.json")}
ROW = re.compile(r'<tr class="verdict-([^"]+)" data-key="([^"]*)" data-metric="([^"]*)"[^>]*>.*?'
                 r'<td class="num">([^<]*)</td><td><details class="note"><summary>[^<]*</summary>(.*?)</details>')


@lru_cache(maxsize=None)
def _result(rid: str) -> dict:
    return compare_cmd.validated([str(RESULTS / f"{rid}.json")])[0]


@lru_cache(maxsize=None)
def _command(rid: str, a: str, b: str, all_metrics: bool) -> dict:
    """(key, metric) -> the row of `fsatlas compare data/results/<rid>.json --a a --b b`: the
    function it calls on the result file it reads (commands/compare.compared)."""
    return {(r["key"], r["metric"]): r for r in report.within(_result(rid), a, b, all_metrics)}


def _shown(row: dict) -> tuple:
    """What the page prints of a command's row: its verdict, adjusted p and test in words."""
    return (row["verdict"].replace(" ", "-"), f"{row['p_adjusted']:.2g}" if row["status"] == "tested" else "–",
            comparison.describe(row))


def test_the_compare_pages_rows_are_the_commands_for_every_pair_and_run(committed_root):
    public = committed_root / "public" / "compare"
    checked, reasons = 0, set()
    for path in sorted(public.glob("*--*.json")):
        doc = json.loads(path.read_text())
        for run in doc["runs"]:
            if run["id"] not in STANDARD:  # the rule's table of several runs, or a quick run
                continue
            page = {(html.unescape(k), m): (v, p, html.unescape(t)) for v, k, m, p, t in ROW.findall(run["table"])}
            every, headline = (_command(run["id"], doc["a"], doc["b"], flag) for flag in (True, False))
            assert set(page) == set(every), (path.name, run["id"])
            for at, row in every.items():
                assert page[at] == _shown(row), (path.name, run["id"], at)
                reasons.add(row["why"].split(" (")[0])
                checked += 1
            for at, row in headline.items():  # the command's default table: the same headline rows
                assert page[at] == _shown(row), (path.name, run["id"], at, "without --all-metrics")
    assert checked > 1000
    assert any(r.startswith("parameters differ") for r in reasons) and any(r.startswith("contention differs") for r in reasons)

def test_every_rankings_lead_is_the_commands_row_of_the_two_filesystems(committed_root):
    rankings = json.loads((committed_root / "data" / "aggregates" / "rankings.json").read_text())
    checked, verdicts = 0, set()
    for name, ranking in rankings.items():
        ranked = ranking["ranked"]
        if not ranked or ranked[0]["result"] not in STANDARD:
            continue
        key, metric = name.rsplit("|", 1)
        for this, after in zip(ranked, ranked[1:]):
            rows = _command(this["result"], after["filesystem"], this["filesystem"], metric not in comparison.HEADLINE)
            # an iops whose samples scale throughput's is that row's test (comparison.tested_as)
            row = rows.get((key, metric)) or next((r for (k, _), r in rows.items()
                                                    if k == key and metric in r.get("same_test", ())), None)
            assert row, f"the command has no row of {name} for {after['filesystem']} against {this['filesystem']}"
            lead = this["lead"]
            assert (lead["verdict"], lead["why"], lead["p_adjusted"], lead["ratio"]) == \
                (row["verdict"], row["why"], row["p_adjusted"], row["ratio"]), (name, this["filesystem"])
            assert this["clear_lead"] == (row["verdict"] == "better"), name
            verdicts.add(row["verdict"])
            checked += 1
        assert ranked[-1]["clear_lead"] is False
    assert checked > 100 and {"better", "not tested"} <= verdicts, (checked, verdicts)
