"""fsatlas migrate separates two machines that once shared a label: the later result (by file
name) gets a label of its own, validate then warns of nothing, and a second migrate changes
nothing."""
import json
import shutil
from pathlib import Path

from fsatlas.cli import main

FIXTURES = Path(__file__).parent / "fixtures"


def test_a_label_shared_by_two_machines_is_split(tmp_path, capsys):
    data = tmp_path / "data"
    shutil.copytree(FIXTURES / "raw", data / "raw")
    (data / "results").mkdir()
    doc = json.loads((FIXTURES / "results" / "fixture-valid.json").read_text())
    (data / "results" / "fixture-valid.json").write_text(json.dumps(doc))
    other = dict(doc, id="fixture-valid2", system={**doc["system"], "cpu_model": "AMD EPYC"},
                 cells=[dict(c, raw=[r.replace("raw/fixture-valid/", "raw/fixture-valid2/") for r in c["raw"]])
                        for c in doc["cells"]])
    (data / "results" / "fixture-valid2.json").write_text(json.dumps(other))
    shutil.copy(data / "raw" / "fixture-valid.tar.gz", data / "raw" / "fixture-valid2.tar.gz")
    assert main(["validate", "--no-cache", str(data / "results")]) == 0
    assert "names other hardware" in capsys.readouterr().out
    assert main(["migrate", "--data", str(data)]) == 0
    assert "1 results given a machine label of their own" in capsys.readouterr().err
    first, second = (json.loads((data / "results" / f"{rid}.json").read_text()) for rid in ("fixture-valid", "fixture-valid2"))
    assert first["system"]["machine"] == doc["system"]["machine"]  # the earlier one keeps its label
    assert second["system"]["machine"].startswith(doc["system"]["machine"] + "-")
    assert main(["validate", "--no-cache", str(data / "results")]) == 0
    assert "names other hardware" not in capsys.readouterr().out
    before = (data / "results" / "fixture-valid2.json").read_bytes()
    assert main(["migrate", "--data", str(data)]) == 0
    assert "0 results given a machine label of their own" in capsys.readouterr().err
    assert (data / "results" / "fixture-valid2.json").read_bytes() == before
