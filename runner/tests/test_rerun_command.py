"""The re-run command of a cell is its own result's: a standard result's cell says
--profile standard, whichever result first measured the same key."""
import json
from pathlib import Path

from fsatlas.results.resultfile import readable
from fsatlas.site import aggregate, explorer

RESULTS = Path(__file__).resolve().parents[2] / "data" / "results"


def test_each_result_re_runs_with_its_own_profile():
    quick = readable(json.loads(sorted(RESULTS.glob("*-quick.json"))[0].read_text()))
    standard = readable(json.loads(sorted(RESULTS.glob("*-standard.json"))[-1].read_text()))
    index = explorer.Index()
    for result in (quick, standard):
        index.add(aggregate.digest(result))
    made = index.result()
    strings, results = made["strings"], made["results"]
    rerun = {rid: strings[i] for rid, i in zip(results["id"], results["rerun"])}
    assert rerun[quick["id"]] == "fsatlas run --profile quick "
    assert rerun[standard["id"]] == "fsatlas run --profile standard "
    key = next(c["key"] for c in standard["cells"] if c["status"] == "ok")
    assert explorer.run_command(standard, {"key": key}) == f"fsatlas run --profile standard --cell '{key}'"
    by_key = {k["key"]: k for k in made["keys"]}
    assert rerun[standard["id"]] + by_key[key]["command"] == explorer.run_command(standard, {"key": key})


def test_an_import_offers_no_run_command():
    """No fsatlas profile re-measures another tool's output: an import (profile import-TOOL) has no
    re-run command, on its result page (aggregate.own_run) or in the explorer (run_command)."""
    standard = readable(json.loads(sorted(RESULTS.glob("*-standard.json"))[-1].read_text()))
    for tool in ("fio", "pts", "iozone"):
        imported = dict(standard, profile=f"import-{tool}")
        cell = next(c for c in imported["cells"] if c["status"] == "ok")
        assert explorer.run_command(imported, cell) == "" and aggregate.own_run(imported) == {}
    assert explorer.run_command(standard, cell).startswith("fsatlas run --profile standard ")
