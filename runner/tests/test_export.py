"""fsatlas export and results.export.frame(): every sample of the committed results as one tidy
row, through Parquet, CSV and JSON Lines, filtered by --where."""
import json
from pathlib import Path

import pandas as pd
import pytest

from fsatlas.cli import main
from fsatlas.results import export

RESULTS = Path(__file__).resolve().parents[2] / "data" / "results"


def _samples_by_hand(where=lambda cell: True):
    """Counted from the result files themselves, not through the exporter."""
    total = 0
    for path in RESULTS.glob("*.json"):
        for cell in json.loads(path.read_text())["cells"]:
            if cell["status"] == "ok" and where(cell):
                total += sum(len(m["samples"]) for m in cell["metrics"].values())
    return total


def test_one_row_per_sample_and_parquet_keeps_the_dtypes(tmp_path):
    df = export.frame(RESULTS)
    assert len(df) == _samples_by_hand() > 0
    assert list(df.columns) == list(export.COLUMNS)
    assert df.groupby(["result", "cell", "metric"])["repetition"].max().min() >= 1
    out = tmp_path / "all.parquet"
    assert main(["export", str(RESULTS), "--out", str(out)]) == 0
    back = pd.read_parquet(out)
    assert len(back) == len(df) and dict(back.dtypes) == dict(df.dtypes)
    pd.testing.assert_frame_equal(back, df)


def test_where_keeps_only_the_rows_asked_for(tmp_path):
    out = tmp_path / "ext4.csv"
    assert main(["export", str(RESULTS), "--out", str(out), "--where", "filesystem=ext4"]) == 0
    df = pd.read_csv(out)
    assert set(df["filesystem"]) == {"ext4"} and len(df) == _samples_by_hand(lambda c: c["filesystem"] == "ext4")
    both = export.frame(RESULTS, ["filesystem=ext4,xfs", "metric!=cpu_usr_pct,cpu_sys_pct"])
    assert set(both["filesystem"]) == {"ext4", "xfs"} and not set(both["metric"]) & {"cpu_usr_pct", "cpu_sys_pct"}


def test_json_lines_hold_one_sample_a_line(tmp_path):
    out = tmp_path / "s.jsonl"
    assert main(["export", str(RESULTS), "--out", str(out), "--where", "metric=throughput"]) == 0
    lines = out.read_text().splitlines()
    by_hand = sum(len(c["metrics"]["throughput"]["samples"]) for path in RESULTS.glob("*.json")
                  for c in json.loads(path.read_text())["cells"] if c["status"] == "ok" and "throughput" in c["metrics"])
    assert len(lines) == by_hand > 0
    rows = [json.loads(line) for line in lines]
    assert {r["metric"] for r in rows} == {"throughput"} and all(r["unit"] == "bytes/s" for r in rows)


def test_a_bad_where_is_one_line_naming_it(tmp_path, capsys):
    assert main(["export", str(RESULTS), "--out", str(tmp_path / "x.parquet"), "--where", "colour=red"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--where 'colour=red'" in err and "filesystem" in err
    assert not list(tmp_path.iterdir())  # nothing half-written
