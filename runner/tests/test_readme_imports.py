"""README's "Importing" examples, run as the README gives them (bash, from the repository's
root, the installed fsatlas), each writing under a temporary folder instead of ./imported."""
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _block() -> str:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("### Importing", 1)[1]
    return re.search(r"```sh\n(.*?)```", section, re.S).group(1)


def test_every_importing_example_runs_and_writes_what_it_says(tmp_path):
    script = _block()
    assert script.count("fsatlas import ") == 6 and "--as ext4,ext4,xfs,xfs" in script
    fsatlas = str(Path(sys.executable).with_name("fsatlas"))
    script = script.replace(".venv/bin/fsatlas", fsatlas).replace("imported", str(tmp_path / "imported"))
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    results = [json.loads(p.read_text()) for p in (tmp_path / "imported" / "results").glob("*.json")]
    by_profile = {}
    for r in results:
        by_profile.setdefault(r["profile"], []).append(r)
    assert {k: len(v) for k, v in by_profile.items()} == \
        {"import-fio": 2, "import-bonnie": 1, "import-iozone": 1, "import-dd": 1, "import-pts": 2}
    sweep = next(r for r in by_profile["import-fio"] if len(r["cells"]) == 3)
    assert sorted(c["key"].rsplit("=", 1)[1] for c in sweep["cells"]) == ["1", "16", "64"]
    assert "randread-4k" in done.stdout  # compare's table
    assert "xfs in" in (tmp_path / "imported" / "ext4-xfs.md").read_text()
    rows = [json.loads(line) for line in (tmp_path / "imported" / "samples.jsonl").read_text().splitlines()]
    statuses = {r["status"] for r in rows}
    assert "ok" in statuses and statuses - {"ok"} and {r["iodepth"] for r in rows} >= {"1", "16", "64"}
