import json

import frontmatter
import pytest

from testutil import mutated, write_json
from fsatlas.cli import main


def test_aggregates_and_pages_carry_the_result_figures(out_dir, valid_result, tmp_path):
    pages = tmp_path / "pages"
    assert main(["aggregate", "--data", str(out_dir), "--content", str(pages)]) == 0
    latest = json.loads((out_dir / "aggregates" / "latest.json").read_text())
    assert latest["result"] == "fixture-valid"
    rows = {(r["key"], r["metric"]): r for r in latest["rows"]}
    for cell in valid_result["cells"]:
        for name, metric in cell["metrics"].items():
            row = rows[(cell["key"], name)]
            assert row["mean"] == metric["mean"]
            assert [row["ci_low"], row["ci_high"]] == metric["ci95"]
            assert row["samples"] == metric["samples"] and row["n"] == len(metric["samples"])
    skipped = rows[("jfs|-|-|seq-write", None)]
    assert skipped["status"] == "skipped" and skipped["mean"] is None and "jfs" in skipped["reason"]
    index = json.loads((out_dir / "aggregates" / "results.json").read_text())
    assert index[0]["ok"] == 2 and index[0]["skipped"] == 1
    page = frontmatter.load(pages / "results" / "fixture-valid.md")
    assert page["result_id"] == "fixture-valid"
    assert page["system"] == valid_result["system"]
    assert len(page["rows"]) == len(latest["rows"])


def test_newest_complete_result_is_latest_and_stale_pages_go(out_dir, valid_result, tmp_path):
    newer = mutated(valid_result, lambda d: d.update(id="newer", created="2030-01-01T00:00:00Z"))
    newer["cells"] = [c for c in newer["cells"] if c["status"] != "ok"]
    write_json(out_dir / "results" / "newer.json", newer)
    pages = tmp_path / "pages"
    (pages / "results").mkdir(parents=True)
    (pages / "results" / "deleted-result.md").write_text("---\ntitle: gone\n---\n")
    # "newer" is dated in the future, so validation must refuse it and aggregation stop.
    assert main(["aggregate", "--data", str(out_dir), "--content", str(pages)]) == 1
    newer["created"] = "2026-11-23T03:00:00Z"
    newer["complete"] = False
    write_json(out_dir / "results" / "newer.json", newer)
    assert main(["aggregate", "--data", str(out_dir), "--content", str(pages)]) == 0
    latest = json.loads((out_dir / "aggregates" / "latest.json").read_text())
    assert latest["result"] == "fixture-valid"  # the newer run is incomplete
    assert sorted(p.name for p in (pages / "results").iterdir()) == ["fixture-valid.md", "newer.md"]


def test_invalid_result_stops_aggregation_naming_it(out_dir, valid_result, tmp_path, capsys):
    write_json(out_dir / "results" / "fixture-valid.json",
               mutated(valid_result, lambda d: d["system"].pop("kernel")))
    assert main(["aggregate", "--data", str(out_dir), "--content", str(tmp_path / "p")]) == 1
    err = capsys.readouterr().err
    assert "fixture-valid.json" in err and "/system/kernel" in err
