"""validate's kept outcomes are emptied whenever its rules change (validation._rules_digest): every
module validate runs is among the files the digest reads. A list of modules kept by hand missed
four as they grew (adversary round 81: importers/measurement.py, fio_options.py, pts.py and
results/machines.py edited, the cached "no problems" kept). Checked against the modules a fresh
interpreter holds after validating every committed run, raw bundle and all, and an import's."""
import json
import os
import subprocess
import sys
from pathlib import Path

from fsatlas.results import validation
from testutil import RESULTS

RUNNER = Path(__file__).resolve().parents[1]
IMPORTED = RUNNER / "tests" / "fixtures" / "results"


def test_every_module_validate_runs_is_in_the_rules_digest():
    files = [str(p) for p in sorted(RESULTS.glob("*.json"))] + [str(p) for p in sorted(IMPORTED.glob("*.json"))]
    script = ("import json, sys\nfrom fsatlas.results import validation\n"
              f"for f in {files!r}:\n    validation.validate_file(f)\n"
              "print(json.dumps(sorted(m.__file__ for n, m in list(sys.modules.items())"
              " if n.split('.')[0] == 'fsatlas' and getattr(m, '__file__', None))))")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                         env={**os.environ, "FSATLAS_PURE": "1", "PYTHONPATH": str(RUNNER)}).stdout
    loaded = {str(Path(f).resolve()) for f in json.loads(out.splitlines()[-1])}
    digested = {str(Path(str(p)).resolve()) for p in validation.rules_files()}
    assert len(loaded) > 20  # validate's own, its importers, the schema's readers...
    assert loaded <= digested, sorted(loaded - digested)


def test_a_change_of_any_digested_file_changes_the_digest(monkeypatch):
    digest = validation._rules_digest.__wrapped__  # uncached: read anew each time
    before = digest()
    files = validation.rules_files()
    for target in (files[0], files[len(files) // 2], files[-1]):
        real = type(target).read_bytes
        monkeypatch.setattr(type(target), "read_bytes",
                            lambda self, t=target, r=real: r(self) + (b" " if self == t else b""))
        assert digest() != before, target
        monkeypatch.undo()
