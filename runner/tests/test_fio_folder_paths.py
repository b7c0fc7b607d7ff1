"""A folder the runner points fio at through its job file reaches fio as written, or the runner
refuses it before a run (workloads.fio.folder; adversary rounds 82 and 83: fio ran outside the run's
folder, in the part of the path before a '#'; a tab reached fio's JSON unescaped; $ncpus made fio
fail). Differential, over paths drawn from the characters and words fio's job-file parser treats
specially and others, against fio itself: `fio --showcmd` prints the options it read from a job
file, a ':' in a directory then makes a list of folders (fio's HOWTO, `directory`), and a job run
there writes a JSON report naming the folder."""
import json
import os
import subprocess

from hypothesis import given, settings, strategies as st
import pytest

from fsatlas.cli import main
from fsatlas.errors import UserError
from fsatlas.results import validation
from fsatlas.run.workloads import fio

PIECES = [*"/ab:#;${}= \t\n\r\x0b\x01\\%'\"é.", "$ncpus", "$pagesize", "$mb_memory", "$jobname", "${HOME}", "${x}",
          "\udcff"]  # a byte that is no UTF-8, as Python holds it in a name (surrogateescape)


def _fio_reads(path: str, folder) -> str | None:
    """The directory fio reads from a job file naming path, or None where it names none or fails."""
    job = folder / "job.fio"
    job.write_bytes(f"[global]\ndirectory={path}\n[j]\nrw=write\n".encode("utf-8", "surrogateescape"))
    done = subprocess.run(["fio", "--showcmd", str(job)], capture_output=True)
    head, tail = "fio --directory=", " --name=j --rw=write"
    line = done.stdout.decode("utf-8", "surrogateescape").rstrip(" \n")
    if done.returncode or not line.startswith(head) or not line.endswith(tail):
        return None
    return line[len(head):-len(tail)]


def _fio_ran_in(path: str, folder) -> bool:
    """Whether a small fio job pointed at path (made first) ran there and wrote a JSON report that
    names it."""
    os.makedirs(path, exist_ok=True)
    job = folder / "run.fio"
    job.write_bytes(f"[global]\ndirectory={path}\n[j]\nrw=write\nbs=4k\nsize=4k\n".encode("utf-8", "surrogateescape"))
    done = subprocess.run(["fio", "--output-format=json", str(job)], capture_output=True)
    try:
        report = json.loads(done.stdout)  # a byte that is no UTF-8 makes it no JSON
    except ValueError:
        return False
    return done.returncode == 0 and report["global options"]["directory"] == path and os.path.isfile(f"{path}/j.0.0")


def _refused(path: str) -> bool:
    try:
        fio.check_folder(path, "--directory")
        return False
    except UserError:
        return True


@settings(max_examples=150, deadline=None)
@given(pieces=st.lists(st.sampled_from(PIECES), min_size=1, max_size=8))
def test_a_folder_is_refused_exactly_where_fio_would_read_or_write_another(tmp_path_factory, pieces):
    base = tmp_path_factory.mktemp("job")
    path = f"{base}/x{''.join(pieces)}"
    carried = _fio_reads(path, base) == path and ":" not in path and _fio_ran_in(path, base)
    assert _refused(path) == (not carried), path


@settings(max_examples=100, deadline=None)
@given(lead=st.sampled_from(["", "/", "//", "///", "./", "a/../"]), rest=st.text("ab/._", min_size=1, max_size=12))
def test_a_folder_the_runner_accepts_is_one_validate_accepts_its_reports_in(lead, rest):
    """Whatever --scratch or --directory the runner takes, the folder it names to fio, with a
    repetition's folder below it, is spelled as validate requires (adversary round 83: --scratch
    //x was taken, and validate refused every report of the run)."""
    named = fio.folder(lead + rest, "--scratch")
    # joined as the runner joins them (tempfile.mkdtemp, CellRun._attempt)
    assert validation._runners_folder(os.path.join(named, "fsatlas-1-abcdefgh", "mnt", "rep-1"), 1), named


@pytest.mark.parametrize("option", ["--directory", "--scratch"])
def test_run_refuses_such_a_folder_in_one_line_writing_nothing(tmp_path, capsys, option):
    folder = tmp_path / "a#b"
    folder.mkdir()
    out = tmp_path / "out"
    assert main(["run", "--profile", "quick", option, str(folder), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"fsatlas run: {folder}: {option}: expected a folder whose path is UTF-8 and has no")
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["a#b"] and not any(folder.iterdir())
