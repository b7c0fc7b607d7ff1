"""A claim's expected change is a finite number (issue #60, round 15, finding 7): YAML reads
.nan, .inf, -.Inf (and 1.0e+999) as floats, which the schema's number took (nan lies within any
minimum and maximum). check-data refuses each in one line naming the file, the place and what
was expected; aggregate reads the claims through the same checked loader, so it refuses them in
one line too, with no traceback and nothing written; the runner's claim aims skip the file."""
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from fsatlas.cli import main
from fsatlas.run import claim_aims
from testutil import curated_with

OPTION = "ext4-commit.yaml"
PLACE = "/claims/0/expected_change_pct"

# how YAML 1.1 (PyYAML) spells a float that is not finite, and the same quoted (a string)
NOT_FINITE = [".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "-.inf", "-.Inf", "-.INF", "1.0e+999",
              "-1.0e+999", "1e999"]
SPELLINGS = st.sampled_from(NOT_FINITE) | st.sampled_from(NOT_FINITE + ["nan", "NaN", "inf", "-inf"]).map(
    lambda s: f"'{s}'") | st.sampled_from(NOT_FINITE).map(lambda s: f'"{s}"')


def _data(folder: Path, spelling: str) -> Path:
    """A curated data folder with the sources, their probes and one mount-option file, its first claim's
    expected change spelled so."""
    return curated_with(folder, "mount_options", OPTION, "    expected_change_pct: 5\n",
                        f"    expected_change_pct: {spelling}\n")


def _files(folder: Path) -> list:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


def test_the_unchanged_copy_passes(tmp_path, capsys):
    """The folder _data makes is one check-data and aggregate accept: what the refusals below
    refuse is the spelling alone."""
    data = _data(tmp_path, "5")
    assert main(["check-data", "--data", str(data)]) == 0
    assert main(["aggregate", "--data", str(data), "--content", str(tmp_path / "build" / "content"),
                 "--articles", str(tmp_path / "none")]) == 0
    assert capsys.readouterr().err == ""


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(spelling=SPELLINGS)
def test_a_claim_that_is_not_a_finite_number_is_refused_in_one_line(tmp_path, capsys, spelling):
    data = _data(tmp_path, spelling)
    path = str(data / "mount_options" / OPTION)
    capsys.readouterr()
    assert main(["check-data", "--data", str(data)]) == 1
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{path}: error: {PLACE}: ") and "expected" in lines[0], lines

    before = _files(tmp_path)
    build = tmp_path / "build"
    assert main(["aggregate", "--data", str(data), "--content", str(build / "content"),
                 "--articles", str(tmp_path / "none")]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(f"fsatlas aggregate: {path}: {PLACE}: ") and "expected" in err[0], err
    assert "Traceback" not in err[0]
    assert _files(tmp_path) == before  # nothing written, in the data folder or beside it
    if os.path.isdir(build):
        shutil.rmtree(build)

    assert claim_aims.load(str(data / "mount_options")) == {}  # the runner keeps no aim of that file
