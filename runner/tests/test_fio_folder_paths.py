"""A folder the runner points fio at through its job file reaches fio as written, or the runner
refuses it before a run (workloads.fio.check_folder; adversary round 82: fio ran outside the run's
folder, in the part of the path before a '#'). Differential, over paths drawn from the characters
fio's job-file parser treats specially and others, against fio's own reading: `fio --showcmd` prints
the options it read from a job file, and a ':' in a directory then makes a list of folders (fio's
HOWTO, `directory`)."""
import subprocess

from hypothesis import given, settings, strategies as st
import pytest

from fsatlas.cli import main
from fsatlas.errors import UserError
from fsatlas.run.workloads import fio

ALPHABET = "/ab:#;${}= \t\n\r\\%'\"é."


def _fio_reads(path: str, folder) -> str | None:
    """The directory fio reads from a job file naming path, or None where it names none or fails."""
    job = folder / "job.fio"
    job.write_text(f"[global]\ndirectory={path}\n[j]\nrw=write\n")
    done = subprocess.run(["fio", "--showcmd", str(job)], capture_output=True, text=True)
    head, tail = "fio --directory=", " --name=j --rw=write"
    line = done.stdout.rstrip(" \n")
    if done.returncode or not line.startswith(head) or not line.endswith(tail):
        return None
    return line[len(head):-len(tail)]


@settings(max_examples=150, deadline=None)
@given(rest=st.text(ALPHABET, min_size=1, max_size=10))
def test_a_folder_is_refused_exactly_where_fio_would_read_another(tmp_path_factory, rest):
    path = "/tmp/" + rest
    carried = _fio_reads(path, tmp_path_factory.mktemp("job")) == path and ":" not in path
    try:
        fio.check_folder(path, "--directory")
        refused = False
    except UserError:
        refused = True
    assert refused == (not carried), (path, _fio_reads(path, tmp_path_factory.mktemp("job")))


@pytest.mark.parametrize("option", ["--directory", "--scratch"])
def test_run_refuses_such_a_folder_in_one_line_writing_nothing(tmp_path, capsys, option):
    folder = tmp_path / "a#b"
    folder.mkdir()
    out = tmp_path / "out"
    assert main(["run", "--profile", "quick", option, str(folder), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"fsatlas run: {folder}: {option}: expected a folder whose path has no")
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["a#b"] and not any(folder.iterdir())
