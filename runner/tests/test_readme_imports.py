"""README's "Importing" examples, run as the README gives them, from the repository's root, each
writing under a temporary folder instead of ./imported. In-process (fsatlas.cli.main), not one
interpreter a command: the block's only shell is a variable (S=...) and one captured output
(R=$(...)), which _commands reads; a line it cannot read fails the test."""
import json
import re
import shlex
from pathlib import Path

from fsatlas.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _block() -> str:
    section = (ROOT / "README.md").read_text().split("### Importing", 1)[1]
    return re.search(r"```sh\n(.*?)```", section, re.S).group(1)


def _commands(block: str):
    """(variable to capture into or None, argv) for each command of the block, $VARIABLES
    expanded as bash would (the block sets S and R only)."""
    variables = {}
    for line in block.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        assignment = re.fullmatch(r"(\w+)=(\S+)", line)
        if assignment and not assignment.group(2).startswith("$("):
            variables[assignment.group(1)] = assignment.group(2)
            continue
        captured = re.fullmatch(r"(\w+)=\$\((.*)\)", line)
        target, command = (captured.group(1), captured.group(2)) if captured else (None, line)
        words = shlex.split(re.sub(r"\$(\w+)", lambda m: variables[m.group(1)], command))
        assert words[0] == ".venv/bin/fsatlas", line
        yield target, words[1:], variables


def test_every_importing_example_runs_and_writes_what_it_says(tmp_path, capsys, monkeypatch):
    block = _block()
    assert block.count("fsatlas import ") == 6 and "--as ext4,ext4,xfs,xfs" in block
    monkeypatch.chdir(ROOT)
    out, printed = tmp_path / "imported", []
    for target, argv, variables in _commands(block.replace("imported", str(tmp_path / "imported"))):
        assert main(argv) == 0, (argv, capsys.readouterr().err)
        stdout = capsys.readouterr().out
        printed.append(stdout)
        if target:
            variables[target] = stdout.strip()
    results = [json.loads(p.read_text()) for p in (out / "results").glob("*.json")]
    by_profile = {}
    for r in results:
        by_profile.setdefault(r["profile"], []).append(r)
    assert {k: len(v) for k, v in by_profile.items()} == \
        {"import-fio": 2, "import-bonnie": 1, "import-iozone": 1, "import-dd": 1, "import-pts": 2}
    sweep = next(r for r in by_profile["import-fio"] if len(r["cells"]) == 3)
    assert sorted(c["key"].rsplit("=", 1)[1] for c in sweep["cells"]) == ["1", "16", "64"]
    assert any("randread-4k" in text and "throughput" in text for text in printed)  # compare's table
    assert "xfs in" in (out / "ext4-xfs.md").read_text()
    rows = [json.loads(line) for line in (out / "samples.jsonl").read_text().splitlines()]
    statuses = {r["status"] for r in rows}
    assert "ok" in statuses and statuses - {"ok"} and {r["iodepth"] for r in rows} >= {"1", "16", "64"}
