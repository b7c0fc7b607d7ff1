"""A runner's fio report of a cell's repetition n ran its jobs in the folder the runner made for
that repetition (a directory ending rep-n), and the folders above those are the run's own: two
result files whose reports name one of them hold one run (validation.folder_problems,
run_folder_conflicts). Adversary round 81, finding 2: a run cut between two repetitions, its later
half renumbered from 1, given a new id, its own created time, start times and reports, passed every
other check, and compare counted one run as two.

Tested from the rule over the committed runs and their bundles, the expected pointers and folders
read by the test's own reading of fio's reports (json, not fio_json): any permutation of one cell's
reports is refused at the first report out of place; any cut of a cell's repetitions, renumbered, at
its first; any split of a run's cells into two files is refused in both files exactly where the two
share a folder, and the committed runs, each a run of its own, are not."""
import copy
import json
import posixpath
import random

from hypothesis import HealthCheck, assume, given, settings, strategies as st

from fsatlas.cli import main
from fsatlas.results import bundle, resultfile, shares, validation
from testutil import RESULTS, kept_repetitions, under_id, write_json

RUNNER = [p for p in sorted(RESULTS.glob("*.json"))
          if not any(shares.import_marks(resultfile.readable(resultfile.load_json(str(p)))).values())]
RENUMBERED = "in the folder of repetition"


def _read(path) -> tuple[dict, dict]:
    doc = resultfile.readable(resultfile.load_json(str(path)))
    return doc, bundle.read(str(path.parent.parent), doc["id"])


def _directories(data: bytes) -> list | None:
    """Each job's directory in a fio report, as the test reads it: the job's own, else the
    global one; None for what is no report of fio's with jobs."""
    try:
        doc = json.loads(data)
    except ValueError:
        return None
    if not isinstance(doc, dict) or "fio version" not in doc or not isinstance(doc.get("jobs"), list):
        return None
    default = (doc.get("global options") or {}).get("directory")
    return [(job.get("job options") or {}).get("directory", default) for job in doc["jobs"]]


def _fio_cells(doc: dict, members: dict) -> list[int]:
    """The ok cells of more than one repetition whose every report is fio's, run on this machine."""
    return [i for i, c in enumerate(doc["cells"]) if c["status"] == "ok" and not c.get("clients") and len(c["raw"]) > 1
            and all(_directories(members[bundle.member_of(doc["id"], r)]) for r in c["raw"])]


def _written(tmp, doc: dict, members: dict) -> str:
    (tmp / "raw").mkdir(parents=True, exist_ok=True)
    bundle.write(members, bundle.path(str(tmp), doc["id"]))
    return str(write_json(tmp / "results" / f"{doc['id']}.json", doc))


def _renumbered(path: str) -> set:
    return {p.path for p in validation.validate_file(path) if RENUMBERED in p.message}


def test_every_committed_runners_report_ran_in_its_repetitions_folder():
    for path in RUNNER:
        doc, members = _read(path)
        for cell in doc["cells"]:
            for j, ref in enumerate(cell["raw"] if cell["status"] == "ok" and not cell.get("clients") else []):
                found = _directories(members[bundle.member_of(doc["id"], ref)])
                assert found is None or all(posixpath.basename(d) == f"rep-{j + 1}" for d in found), (path, ref)
        assert _renumbered(str(path)) == set()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(source=st.sampled_from(RUNNER), seed=st.integers(0, 2 ** 32 - 1))
def test_a_cells_reports_in_another_order_are_refused_at_the_first_out_of_place(tmp_path_factory, source, seed):
    doc, members = _read(source)
    rnd = random.Random(seed)
    i = rnd.choice(_fio_cells(doc, members))
    names = [bundle.member_of(doc["id"], r) for r in doc["cells"][i]["raw"]]
    order = list(range(len(names)))
    while order == sorted(order):
        rnd.shuffle(order)
    edited = {**members, **{names[j]: members[names[k]] for j, k in enumerate(order)}}
    # the first place whose report the test reads as run in another repetition's folder
    first = next(j for j, k in enumerate(order)
                 if any(posixpath.basename(d) != f"rep-{j + 1}" for d in _directories(edited[names[j]])))
    assert first == next(j for j, k in enumerate(order) if j != k)
    path = _written(tmp_path_factory.mktemp("order"), doc, edited)
    assert _renumbered(path) == {f"/cells/{i}/raw/{first}"}


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(source=st.sampled_from(RUNNER), seed=st.integers(0, 2 ** 32 - 1))
def test_a_cell_cut_and_renumbered_from_one_is_refused_at_its_first_report(tmp_path_factory, source, seed):
    """The later half of a cut run, as round 81 made it: repetitions c+1 to n of a cell as 1 to n-c."""
    original, members = _read(source)
    rnd = random.Random(seed)
    doc = under_id(copy.deepcopy(original), f"{original['id']}-later")
    i = rnd.choice(_fio_cells(doc, members))
    reps = len(doc["cells"][i]["raw"])
    own = {}
    kept_repetitions(doc["cells"][i], list(range(rnd.randint(1, reps - 1), reps)), doc["id"], members, own)
    path = _written(tmp_path_factory.mktemp("cut"), doc, {**members, **own})
    assert _renumbered(path) == {f"/cells/{i}/raw/0"}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(source=st.sampled_from(RUNNER), seed=st.integers(0, 2 ** 32 - 1))
def test_a_run_split_by_its_cells_is_refused_in_both_files_exactly_where_they_share_a_folder(
        tmp_path_factory, capsys, source, seed):
    original, members = _read(source)
    rnd = random.Random(seed)
    ok = [c for c in original["cells"] if c["status"] == "ok"]
    first = set(rnd.sample(range(len(ok)), rnd.randint(1, len(ok) - 1)))
    tmp, paths, folders = tmp_path_factory.mktemp("split"), [], []
    for n, cells in enumerate(([c for k, c in enumerate(ok) if k in first], [c for k, c in enumerate(ok) if k not in first])):
        doc = under_id(copy.deepcopy({**original, "cells": cells}), f"{original['id']}-part{n + 1}")
        held = {bundle.member_of(doc["id"], r) for c in doc["cells"] for r in c["raw"]}
        own = {name: data for name, data in members.items() if name in held or name.startswith(bundle.BASELINE_FOLDERS)}
        paths.append(_written(tmp / f"part{n + 1}", doc, own))
        folders.append({posixpath.dirname(d) for c in doc["cells"] if not c.get("clients") for r in c["raw"]
                        for d in _directories(members[bundle.member_of(doc["id"], r)]) or []})
    shared = folders[0] & folders[1]
    problems = validation.validate_files(paths, cache_file=None)
    conflicts = [p for p in problems if "one run in two files" in p.message]
    assert sorted(p.file for p in conflicts) == (sorted(paths) if shared else [])
    for p in conflicts:
        assert p.path == "/id" and any(f" {folder}," in p.message for folder in shared), p.message
    if shared:  # and compare refuses them, with validate's line for the first file
        assert main(["compare", "--runs-a", paths[0], "--runs-b", paths[1]]) == 1
        assert capsys.readouterr().err.startswith(f"fsatlas compare: {paths[0]}: ")


def test_the_committed_runs_share_no_folder():
    problems = validation.validate_files([str(p) for p in sorted(RESULTS.glob("*.json"))], cache_file=None)
    assert [p for p in problems if "one run in two files" in p.message] == []
    assert [p for p in problems if p.severity == "error"] == []


def _respelled(directory: str, how: str, rnd: random.Random) -> str:
    """directory spelled another way fio reads (or one a careful editor may try): how one of SPELLINGS."""
    parts = directory.split("/")
    k = rnd.randrange(1, len(parts))
    return {"as written": directory,
            "leading //": "/" + directory,
            "a/./b": "/".join(parts[:k] + ["."] + parts[k:]),
            "a//b": "/".join(parts[:k] + [""] + parts[k:]),
            "trailing /": directory + "/",
            "a/../a": "/".join(parts[:k] + ["..", parts[k - 1]] + parts[k:]) if parts[k - 1] else directory + "/.",
            "a list": "/tmp:" + directory,
            "relative": directory.lstrip("/")}[how]


SPELLINGS = ("as written", "leading //", "a/./b", "a//b", "trailing /", "a/../a", "a list", "relative")


@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(source=st.sampled_from(RUNNER), seed=st.integers(0, 2 ** 32 - 1), how=st.sampled_from(SPELLINGS))
def test_a_cut_whose_reports_are_renumbered_and_respelled_is_refused_in_one_file_or_across_two(
        tmp_path_factory, source, seed, how):
    """The later half of a cut run, each moved report's directory renamed to its new repetition's
    folder and spelled any way (adversary round 82: a leading / made the run's folder another run's),
    beside the run it was cut from: refused within its file at its first report unless spelled as
    the runner writes it, and then as one run in two files."""
    original, members = _read(source)
    rnd = random.Random(seed)
    doc = under_id(copy.deepcopy(original), f"{original['id']}-later")
    doc["cells"], i = [doc["cells"][rnd.choice(_fio_cells(doc, members))]], 0  # the cut cell alone
    reps = len(doc["cells"][i]["raw"])
    own = {}
    kept_repetitions(doc["cells"][i], list(range(rnd.randint(1, reps - 1), reps)), doc["id"], members, own)
    for n, ref in enumerate(doc["cells"][i]["raw"]):
        report = json.loads(own[bundle.member_of(doc["id"], ref)])
        for options in [report.get("global options") or {}] + [job.get("job options") or {} for job in report["jobs"]]:
            if "directory" in options:
                options["directory"] = _respelled(f"{posixpath.dirname(options['directory'])}/rep-{n + 1}", how, rnd)
        own[bundle.member_of(doc["id"], ref)] = json.dumps(report, indent=2).encode()
    tmp = tmp_path_factory.mktemp("respelled")
    later = _written(tmp / "later", doc, {**members, **own})
    first = _written(tmp / "first", original, members)
    problems = validation.validate_files([first, later], cache_file=None)
    mine = {(p.path, RENUMBERED in p.message, "one run in two files" in p.message) for p in problems
            if p.file == later and (RENUMBERED in p.message or "one run in two files" in p.message)}
    runners = _directories(own[bundle.member_of(doc["id"], doc["cells"][i]["raw"][0])])
    if all(d == posixpath.normpath(d) and d.startswith("/") and not d.startswith("//") and ":" not in d for d in runners):
        assert mine == {("/id", False, True)}  # spelled as the runner writes it: its folder is the run's
    else:
        assert mine == {(f"/cells/{i}/raw/0", True, False)}
