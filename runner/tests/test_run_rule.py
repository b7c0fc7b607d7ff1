"""One rule for which run a figure comes from (site/run_rule.py): on the committed results, every
cell's figure, every ranking and the home page's run follow it, worked out here again from the
result files themselves; so no two pages give one cell two figures."""
import json
import shutil
from pathlib import Path

import pytest

from fsatlas.site import aggregate

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("run-rule")
    shutil.copytree(REPO / "data", root / "data", ignore=shutil.ignore_patterns("aggregates"))
    aggregate.aggregate(str(root / "data"), str(root / "build" / "content"))
    read = lambda name: json.loads((root / "data" / "aggregates" / f"{name}.json").read_text())  # noqa: E731
    results = [json.loads(p.read_text()) for p in sorted((REPO / "data" / "results").glob("*.json"))]
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
