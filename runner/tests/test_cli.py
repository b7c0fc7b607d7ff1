"""The command line as a user meets it: exit codes, --version, usage errors, no tracebacks."""
import json
import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from fsatlas import SCHEMA_VERSION, __version__
from fsatlas.cli import main
from testutil import write_json
from fsatlas.results.resultfile import readable  # a result file in the read form (schema 2 stores no summaries)

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_version_names_runner_schema_and_fio(capsys):
    assert main(["--version"]) == 0
    out = capsys.readouterr().out
    assert __version__ in out and f"schema {SCHEMA_VERSION}" in out and "fio" in out


@pytest.mark.parametrize("argv", [[], ["frobnicate"], ["run", "--no-such-flag"], ["validate"]])
def test_wrong_usage_exits_2(argv, capsys):
    assert main(argv) == 2
    assert "usage" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["plan", "run", "validate", "aggregate", "compare", "check-data", "import"])
def test_every_command_has_help(command, capsys):
    assert main([command, "--help"]) == 0
    assert "usage: fsatlas " + command in capsys.readouterr().out


def test_loop_runs_need_root_and_say_so(monkeypatch, capsys):
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert main(["run", "--profile", "tiny"]) == 1
    err = capsys.readouterr().err
    assert "need root" in err and "--directory" in err and "Traceback" not in err


def test_unknown_resume_id_is_a_clear_error(tmp_path, capsys):
    assert main(["run", "--resume", "nope", "--out", str(tmp_path)]) == 1
    assert "nope.json" in capsys.readouterr().err


def test_a_resume_on_another_system_is_refused(tmp_path, capsys):
    """A result measured on another machine and kernel: continuing it here would put this
    system's cells under that label."""
    rid = "20261123T203301Z-m-042018a7f3-quick"
    result = readable(json.loads(open(os.path.join(REPO, "data", "results", rid + ".json")).read()))
    result["system"].update(machine="m-elsewhere0", kernel="0.0.0-elsewhere")
    (tmp_path / "results").mkdir()
    write_json(tmp_path / "results" / (rid + ".json"), result)
    assert main(["run", "--resume", rid, "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and rid in err and "/system/machine" in err and "'m-elsewhere0'" in err
    # the same label given by hand still meets a different kernel
    assert main(["run", "--resume", rid, "--out", str(tmp_path), "--machine", "m-elsewhere0"]) == 1
    err = capsys.readouterr().err
    assert "/system/kernel" in err and "'0.0.0-elsewhere'" in err


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])  # read each time
@given(where=st.sampled_from(["system", "tool"]), pick=st.randoms(use_true_random=False))
def test_a_resume_is_refused_wherever_the_system_or_a_tool_differs(tmp_path, capsys, where, pick):
    """The rule: a run resumes only on the system that started it, every fact of it (the
    hardware, memory to the GiB, kernel, OS, virtualization, container) and the version of every
    tool both record; any one of them changed, it is refused naming that fact's pointer. The
    resumed file is this machine's own record (collect_system, collect_tools), so the same facts
    pass (#60 round 56: only the label and the kernel were compared)."""
    from fsatlas.commands.run import RESUME_FACTS, check_same_system
    from fsatlas.run import system
    resume = {"id": "r", "system": system.collect_system(None), "tool": system.collect_tools()}
    check_same_system(resume, None)  # this machine's own facts: no refusal
    if where == "system":
        key = pick.choice(RESUME_FACTS)
        value = resume["system"][key]
        resume["system"][key] = value + (1 << 30) + 1 if key == "memory_bytes" else \
            value + 1 if isinstance(value, int) else f"{value} (another)"
    else:
        key = pick.choice(sorted(resume["tool"]))
        resume["tool"][key] += " (another build)"
    rid = "20261123T203301Z-m-042018a7f3-quick"
    result = readable(json.loads(open(os.path.join(REPO, "data", "results", rid + ".json")).read()))
    result.update(system={**result["system"], **resume["system"]}, tool=resume["tool"])
    (tmp_path / "results").mkdir(exist_ok=True)  # one folder for every example
    write_json(tmp_path / "results" / (rid + ".json"), result)
    assert main(["run", "--resume", rid, "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and rid in err and f"/{where}/{key}" in err, err


def test_the_installed_entry_point_runs():
    done = subprocess.run([os.path.join(os.path.dirname(sys.executable), "fsatlas"), "plan", "--profile", "tiny",
                           "--fs", "ext4"], capture_output=True, text=True)
    assert done.returncode == 0 and "ext4|-|-|seq-write" in done.stdout


def test_validating_the_committed_results_reports_nothing_to_look_at(capsys):
    """What a fresh `make` prints of the committed results: no error, no warning, and no line
    with the word "warning" in it (a clean check is said in words, not as "0 warnings")."""
    assert main(["validate", "--no-cache", os.path.join(REPO, "data", "results")]) == 0
    out = capsys.readouterr()
    assert out.err == "" and "warning" not in out.out.lower()
    assert out.out.strip().endswith("files checked: no problems")


RESULTS_DIR = os.path.join(REPO, "data", "results")
A_RUN, B_RUN = (os.path.join(RESULTS_DIR, n) for n in sorted(os.listdir(RESULTS_DIR))[4:6])


@pytest.mark.parametrize("stdout", ["full", "closed"])
@pytest.mark.parametrize("argv", [["compare", A_RUN, B_RUN], ["validate", RESULTS_DIR], ["plan", "--profile", "quick"],
                                  ["export", RESULTS_DIR, "--format", "csv", "--out", "-"],
                                  ["compare", A_RUN, "--a", "ext4", "--b", "xfs"], ["--version"], ["validate", "--help"]])
def test_a_command_whose_standard_output_is_full_says_so_in_one_line(argv, stdout):
    """The rule: a command whose standard output cannot be written (> /dev/full, or closed: >&-)
    exits 1 with one line naming standard output, never a traceback nor a silent exit 0 (round 58:
    compare printed one; round 59: --version and --help did, and a closed one lost all)."""
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "fsatlas.cli", *argv], stderr=subprocess.PIPE,
                              stdout=full if stdout == "full" else None, text=True, cwd=REPO,
                              env={**os.environ, "PYTHONPATH": os.path.join(REPO, "runner")},
                              **({"preexec_fn": lambda: os.close(1)} if stdout == "closed" else {}))
    lines = [line for line in done.stderr.splitlines() if not line.startswith(("note:", "warning:"))]
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert len(lines) == 1 and "-: cannot write" in lines[0], done.stderr


@pytest.mark.parametrize("stdout", ["full", "closed", "open"])
@pytest.mark.parametrize("fmt,name", [("dd", "dd-9.1-english.txt"), ("pts", "schema-two-systems.xml")])
def test_an_import_whose_path_cannot_be_printed_writes_nothing(tmp_path, stdout, fmt, name):
    """The rule (#65 round 60): an import that exits 1 has written nothing; one whose results'
    paths cannot be printed (> /dev/full, >&-) undoes its moves, the output folder as it was (a
    result was there, and the exit status said the import failed). Printed, the paths are the
    files written, and nothing else is."""
    sample = os.path.join(REPO, "runner", "tests", "fixtures", "samples", fmt, name)
    out = tmp_path / "new" / "out"  # and its parent, made by the import (round 62: left behind)
    extra = [] if fmt == "pts" else ["--filesystem", "ext4"]
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "fsatlas.cli", "import", fmt, sample, *extra, "--redact",
                               "--out", str(out)], stderr=subprocess.PIPE, text=True, cwd=REPO,
                              stdout=full if stdout == "full" else subprocess.PIPE if stdout == "open" else None,
                              env={**os.environ, "PYTHONPATH": os.path.join(REPO, "runner")},
                              **({"preexec_fn": lambda: os.close(1)} if stdout == "closed" else {}))
    written = sorted(str(p) for p in out.rglob("*") if p.is_file())
    if stdout == "open":
        assert done.returncode == 0, done.stderr
        results = sorted(str(p) for p in (out / "results").iterdir())
        assert sorted(done.stdout.split()) == results and len(written) == 2 * len(results)
    else:
        lines = [line for line in done.stderr.splitlines() if not line.startswith(("note:", "warning:"))
                 and "cells imported" not in line]
        assert done.returncode == 1 and len(lines) == 1 and "-: cannot write" in lines[0], done.stderr
        assert written == [] and not out.parent.exists(), written  # not even the folders it made (rounds 61, 62)
