"""make perf's synthetic results are shaped like a result the code checked out now wrote, in the
current schema version (scripts/perf_shape.py), never like whichever quick file is newest."""
import json
import shutil
import sys
from pathlib import Path

from hypothesis import given, settings, strategies as st

import fsatlas

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))
import perf_shape  # noqa: E402


def _kept(cache: Path, digest: str, name: str, **fields) -> Path:
    path = perf_shape.folder(digest, cache) / "results" / f"{name}-quick.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"schema_version": fsatlas.SCHEMA_VERSION, "id": name, "cells": [], **fields}))
    return path


def test_a_committed_quick_result_is_never_the_shape(tmp_path):
    # data/results holds quick results of older formats; none sits under the digest of this code
    digest = perf_shape.source_digest()
    assert perf_shape.current(fsatlas.SCHEMA_VERSION, digest, tmp_path) is None
    for path in (REPO / "data" / "results").glob("*-quick.json"):
        _kept(tmp_path, "0" * 16, path.stem.removesuffix("-quick"))
    assert perf_shape.current(fsatlas.SCHEMA_VERSION, digest, tmp_path) is None
    ours = _kept(tmp_path, digest, "20990101T000000Z-m-x")
    assert perf_shape.current(fsatlas.SCHEMA_VERSION, digest, tmp_path) == ours


def test_a_kept_result_of_another_schema_version_or_incomplete_is_refused(tmp_path):
    digest = perf_shape.source_digest()
    _kept(tmp_path, digest, "b", schema_version=fsatlas.SCHEMA_VERSION - 1)
    _kept(tmp_path, digest, "a", complete=False)
    assert perf_shape.current(fsatlas.SCHEMA_VERSION, digest, tmp_path) is None


@settings(max_examples=25)
@given(st.sampled_from(["results/resultfile.py", "schema/result.schema.json", "run/matrix/standard.yaml", "new.py"]),
       st.binary(min_size=1, max_size=8))
def test_any_change_to_what_decides_a_shape_changes_the_digest(tmp_path_factory, name, extra):
    # the rule: a change to the runner's code, data or schema makes the kept shape stale
    tree = tmp_path_factory.mktemp("src")
    shutil.copytree(REPO / "runner" / "fsatlas", tree / "fsatlas", ignore=shutil.ignore_patterns("__pycache__"))
    before = perf_shape.source_digest(tree / "fsatlas")
    target = tree / "fsatlas" / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes((target.read_bytes() if target.exists() else b"") + extra)
    changed = perf_shape.source_digest(tree / "fsatlas")
    assert changed != before
    # and nothing else does: bytecode and compiled modules are made from those sources
    (tree / "fsatlas" / "results" / "__pycache__").mkdir(exist_ok=True)
    (tree / "fsatlas" / "results" / "__pycache__" / "x.cpython-311.pyc").write_bytes(extra)
    (tree / "fsatlas" / "results" / "x.cpython-311-x86_64-linux-gnu.so").write_bytes(extra)
    assert perf_shape.source_digest(tree / "fsatlas") == changed


def test_make_perf_interrupted_lets_the_benchmark_clean_up(tmp_path):
    """make perf stopped with SIGTERM while `fsatlas run` measures: the runner gets SIGTERM and
    time to unmount and detach what it made (subprocess.run had SIGKILLed it, which left its
    mount and loop device behind). A stand-in runner records the signal it got and its cleanup."""
    import signal
    import subprocess
    import time
    said = tmp_path / "said"
    child = ("import signal, sys, time\n"
             f"def stop(*_):\n    open({str(said)!r}, 'w').write('SIGTERM, cleaned up'); sys.exit(143)\n"
             "signal.signal(signal.SIGTERM, stop)\n"
             f"open({str(said)!r}, 'w').write('measuring')\n"
             "time.sleep(60)\n")
    parent = ("import signal, sys\n"
              f"sys.path.insert(0, {str(REPO / 'scripts')!r})\n"
              "import perf\n"
              "signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # as perf.main does\n"
              f"perf.run_benchmark([sys.executable, '-c', {child!r}])\n")
    proc = subprocess.Popen([sys.executable, "-c", parent])
    for _ in range(300):
        if said.exists():
            break
        time.sleep(0.1)
    assert said.read_text() == "measuring"
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=60) == 143
    assert said.read_text() == "SIGTERM, cleaned up"


def test_synthetic_results_shaped_like_a_run_are_files_validate_accepts_without_a_word(tmp_path, capsys):
    """The scale rows time `fsatlas validate` over the synthetic results: a problem in each (their
    new samples and contention gave other flags than the template's) put 1,000 lines into make
    perf's output and its printing into the timed figure. Shaped like every committed result
    that has a raw bundle, each synthetic file draws no error and no warning. Among them is one
    whose baseline judges cells (written, stable, not drifted): the flags were once derived
    against the template's stored target, which keeps no means, so every such cell was
    baseline-unknown where validate found it judged (ci-local, a fresh run on a quiet machine)."""
    sys.path.insert(0, str(REPO / "tests" / "site"))
    from sitebuild import synthetic_results
    from fsatlas.cli import main
    from fsatlas.results import flags, resultfile
    templates = [p for p in sorted((REPO / "data" / "results").glob("*.json"))
                 if (REPO / "data" / "raw" / f"{p.stem}.tar.gz").is_file()]
    judged = [p for p in templates if any(  # "" where a baseline exists and can judge the cell
        c["status"] == "ok" and not flags.baseline_doubt(r["target"], c["workload"], c["key"])
        for r in [resultfile.readable(json.loads(p.read_text()))] for c in r["cells"])]
    chosen = [p for p in templates if "-quick" in p.stem] + judged[:1]
    assert judged and len(chosen) > 1
    for i, template in enumerate(chosen):
        count = 8 if "-quick" in template.stem else 2
        synthetic_results(tmp_path / str(i), count, template=template, seed=i)
        assert main(["validate", "--no-cache", str(tmp_path / str(i) / "results")]) == 0
        out = capsys.readouterr()
        assert out.out.strip().endswith(f"{count} files checked: no problems") and out.err == "", (template.name, out.out[-2000:])
