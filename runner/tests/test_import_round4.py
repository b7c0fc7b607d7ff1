"""fsatlas import, what a third adversary round found (issue 64): each rule checked from the rule
over inputs hypothesis picks (the tools' own outputs under tests/fixtures/samples, and fio 3.33's
own report edited as fio would write it)."""
import json
import os
import shutil

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from fsatlas.cli import main
from testutil import SAMPLES

# (format, extra arguments, outputs of that tool that are not the same run)
TOOLS = [
    ("pts", [], [SAMPLES / "pts" / "schema-two-systems.xml", SAMPLES / "pts" / "display-server-versions.xml"]),
    ("fio", ["--filesystem", "ext4"], [SAMPLES / "fio" / "sweep" / f"ext4-iodepth-{d}.json" for d in (1, 16, 64)]),
    ("iozone", ["--filesystem", "ext4"], [SAMPLES / "iozone" / "single-test-ssd-2009.txt"]),
    ("bonnie", ["--filesystem", "ext4"], [SAMPLES / "bonnie" / "bonnie-1.96-stdout.txt"]),
    ("dd", ["--filesystem", "ext4"], [SAMPLES / "dd" / "dd-9.1-english.txt", SAMPLES / "dd" / "dd-9.1-french.txt"]),
]


def _files(folder) -> list[str]:
    return sorted(os.path.relpath(os.path.join(d, f), folder) for d, _, fs in os.walk(folder) for f in fs)


# --- 1: a refused import writes nothing; identical outputs are refused naming both files ---------
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tool=st.sampled_from(TOOLS), data=st.data())
def test_the_same_output_twice_is_one_line_naming_both_and_nothing_written(tmp_path_factory, capsys, tool, data):
    fmt, extra, samples = tool
    tmp = tmp_path_factory.mktemp("same")
    distinct = [str(shutil.copy(s, tmp / f"{k}-{s.name}")) for k, s in enumerate(samples)]
    twice = data.draw(st.sampled_from(distinct))
    copy = data.draw(st.booleans())  # the path itself again, or a byte-identical copy under another name
    again = str(shutil.copy(twice, tmp / "copy-of-it")) if copy else twice
    files = data.draw(st.permutations(distinct + [again]))
    out = tmp / "out"
    os.makedirs(out / "results")
    (out / "results" / "earlier.json").write_text("{}")  # what was there stays, and nothing is added
    code = main(["import", fmt, *files, *extra, "--out", str(out)])
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert code == 1 and len(lines) == 1, captured.err
    assert twice in lines[0] and again in lines[0] and "same output" in lines[0]
    assert _files(out) == ["results/earlier.json"] and captured.out == ""
