"""The pull-request check's gate (scripts/pr-data-only.sh, run by .github/workflows/
pull-request.yml) refuses any change outside data/results and data/raw, a deletion done by a
rename included (issue 61, item 6), and any deletion, rename or change inside them (F61b item 11):
a pull request adds results; it lists the added result files."""
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "pr-data-only.sh"


def _git(repo, *argv):
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t.invalid", *argv], cwd=repo,
                          check=True, capture_output=True, text=True).stdout


@pytest.fixture
def repo(tmp_path):
    repo = tmp_path / "contribution"
    for name in (".github/workflows/pull-request.yml", "scripts/setup.sh", "data/results/old.json", "data/raw/old.tar.gz",
                 "README.md"):
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(f"the content of {name}, long enough for git to see a rename\n" * 20)
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "base")
    return repo, _git(repo, "rev-parse", "HEAD").strip()


def _gate(repo, base, message=None):
    """The gate's verdict on the branch; with a message, what the test changed is committed first."""
    if message:
        _git(repo, "add", "-A")
        _git(repo, "commit", "-qm", message)
    listed = repo.parent / "changed.txt"
    done = subprocess.run([str(SCRIPT), base, str(listed)], cwd=repo, capture_output=True, text=True)
    return done, listed.read_text().splitlines() if listed.exists() else None


@pytest.mark.parametrize("old, new", [(".github/workflows/pull-request.yml", "data/results/x.json"),
                                      ("scripts/setup.sh", "data/raw/setup.tar.gz"),
                                      ("README.md", "data/results/readme.json")])
def test_a_rename_out_of_the_code_into_data_is_refused(repo, old, new):
    repo, base = repo
    _git(repo, "mv", old, new)
    _git(repo, "commit", "-qm", "rename")
    assert "R100" in _git(repo, "diff", "--name-status", "-M", f"{base}...HEAD")  # git sees a rename
    done, _ = _gate(repo, base)
    assert done.returncode == 1 and old in done.stdout and "::error::" in done.stdout


def test_added_data_passes_and_the_results_are_listed(repo):
    repo, base = repo
    (repo / "data/results/new.json").write_text("{}\n")
    (repo / "data/results/sub").mkdir()
    (repo / "data/results/sub/two.json").write_text("{}\n")
    (repo / "data/raw/new.tar.gz").write_text("x\n")
    done, listed = _gate(repo, base, "data")
    assert done.returncode == 0, done.stdout + done.stderr
    assert sorted(listed) == ["data/results/new.json", "data/results/sub/two.json"]


# The rule: a pull request may add results, never delete, rename or change one; a deletion
# slipped through before, as the workflow validates the base tree with the contribution on top.
@pytest.mark.parametrize("change", ["delete", "rename", "rename-within-raw", "modify", "to-link", "delete-raw"])
def test_a_deletion_rename_or_change_of_a_published_file_is_refused(repo, change):
    repo, base = repo
    (repo / "data/results/added.json").write_text("{}\n")  # beside an allowed addition
    old = "data/raw/old.tar.gz" if change.endswith("raw") else "data/results/old.json"
    if change.startswith("delete"):
        (repo / old).unlink()
    elif change == "rename":
        _git(repo, "mv", old, "data/results/renamed.json")
    elif change == "rename-within-raw":
        _git(repo, "mv", old, "data/raw/renamed.tar.gz")
    elif change == "modify":
        (repo / old).write_text("{}\n")
    else:
        (repo / old).unlink()
        (repo / old).symlink_to("added.json")
    done, listed = _gate(repo, base, change)
    assert done.returncode == 1 and old in done.stdout and "never deletes, renames or changes" in done.stdout, done.stdout


def test_a_deletion_or_an_odd_name_outside_is_refused(repo):
    repo, base = repo
    (repo / "scripts/setup.sh").unlink()
    (repo / "data/results/ok.json").write_text("{}\n")
    (repo / "data/results\nx").write_text("a name with a newline, outside the folder\n")
    done, _ = _gate(repo, base, "odd")
    assert done.returncode == 1 and "scripts/setup.sh" in done.stdout and "$'data/results\\nx'" in done.stdout
