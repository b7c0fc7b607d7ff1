"""compare, report and article new read only what `fsatlas validate` accepts (validation.validated):
each file is checked as validate checks it, its raw bundle included, and a file validate refuses is
refused with validate's one line (the file, the JSON Pointer, what was expected), exit status 1.

Tested from the rule over real committed runs (data/results/*.json and their bundles), edited as
the adversary edited them (issue #60): one run split into two files by any partition of its
repetitions (new ids, the second created a day later), or copied with every sample moved by up to
1 % and its repetitions' start times by 1 to 50 ms; each with no bundle, the original's bundle
under the new id, or (a split) the bundle cut to the half's own members. Structure alone passed
all of them: compare said "2 and 2 runs, tested on the runs' means" of one run, or "equivalent"
of one run's jittered copies. The unedited committed files are read as before."""
import copy
import datetime as dt
import random
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from fsatlas.cli import main
from fsatlas.errors import UserError
from fsatlas.commands.compare import validated
from fsatlas.results import bundle, resultfile, stats, validation
from testutil import RESULTS, kept_repetitions, under_id, write_json

COMMITTED = sorted(RESULTS.glob("*.json"))
QUICK_A, QUICK_B = (str(p) for p in sorted(RESULTS.glob("*-quick.json"))[:2])
BUNDLES = ("none", "the original's", "the half's own members")


def _read(path: Path) -> tuple[dict, dict]:
    doc = resultfile.readable(resultfile.load_json(str(path)))
    return doc, bundle.read(str(path.parent.parent), doc["id"])


def _written(data: Path, doc: dict, members: dict, own: dict, kind: str) -> str:
    """doc as data/results/<id>.json, beside a bundle of kind (BUNDLES): none, the original's
    members, or its own (own, and the raw device's reports of the original)."""
    if kind != "none":
        kept = members if kind == "the original's" else {
            **{n: b for n, b in members.items() if n.startswith(bundle.BASELINE_FOLDERS)}, **own}
        (data / "raw").mkdir(parents=True, exist_ok=True)
        bundle.write(kept, bundle.path(str(data), doc["id"]))
    return str(write_json(data / "results" / f"{doc['id']}.json", doc))


def _refused_by_all_three(runs_a: list, runs_b: list, tmp: Path, capsys) -> None:
    """compare, report and article new each refuse the files with validate's line for the first of
    them validate refuses, alone on standard error, exit status 1, writing nothing."""
    first = next(p for p in runs_a + runs_b
                 if any(x.severity == "error" for x in validation.reviewed(validation.validate_file(p))))
    problem = next(x for x in validation.reviewed(validation.validate_file(first)) if x.severity == "error")
    line = f"{first}: {problem.path or '/'}: {problem.message}"
    out, content = tmp / "report.md", tmp / "content"
    for command, extra in (("compare", []), ("report", ["--no-chart", "--out", str(out)]),
                           ("article", ["--content", str(content)])):
        argv = [command, *(["new", "Split"] if command == "article" else []), "--runs-a", *runs_a, "--runs-b", *runs_b]
        assert main([*argv, *extra]) == 1, command
        err = capsys.readouterr().err
        assert err == f"fsatlas {command}: {line}\n", (command, err)
    assert not out.exists() and not content.exists()


def _clocked(path: Path) -> bool:
    """Whether validate holds a run's fio reports to a clock that begins at its start: its cells'
    start times, or its raw-device baseline (measured after the run began). Of the committed runs,
    the oldest quick one has neither (see test_..._without_a_clock below)."""
    doc = resultfile.readable(resultfile.load_json(str(path)))
    return bool(doc["target"].get("baseline")) or any(c.get("started") for c in doc["cells"] if c["status"] == "ok")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])  # capsys read out each time
@given(source=st.sampled_from(COMMITTED), seed=st.integers(0, 2 ** 32 - 1), kind=st.sampled_from(BUNDLES))
def test_a_run_split_into_two_files_by_any_partition_of_its_repetitions_is_refused(tmp_path_factory, capsys, source,
                                                                                  seed, kind):
    _split(tmp_path_factory, capsys, source, seed, kind if kind != BUNDLES[2] or _clocked(source) else BUNDLES[1])


def test_a_split_over_its_own_members_of_a_run_without_a_clock_is_refused(tmp_path_factory, capsys):
    """The run without start times or a baseline: its later half, created a day later, holds fio
    reports written before it began (validation.cell_clock_problems)."""
    (source,) = [p for p in COMMITTED if not _clocked(p)]
    _split(tmp_path_factory, capsys, source, 0, BUNDLES[2])


def _split(tmp_path_factory, capsys, source: Path, seed: int, kind: str) -> None:
    original, members = _read(source)
    rnd = random.Random(seed)
    reps = max(len(c["raw"]) for c in original["cells"] if c["status"] == "ok")
    first = sorted(rnd.sample(range(reps), rnd.randint(1, reps - 1)))  # any partition into two non-empty halves
    halves = [first, [j for j in range(reps) if j not in first]]
    tmp = tmp_path_factory.mktemp("split")
    paths = []
    for n, kept in enumerate(halves):
        doc, own = under_id(copy.deepcopy(original), f"{original['id']}-half{n + 1}"), {}
        # each cell its repetitions of this half (a cell of fewer repetitions none of it: left out)
        doc["cells"] = [c for c in doc["cells"] if c["status"] != "ok" or any(j < len(c["raw"]) for j in kept)]
        for cell in doc["cells"]:
            if cell["status"] == "ok":
                kept_repetitions(cell, [j for j in kept if j < len(cell["raw"])], doc["id"], members, own)
        if n:  # created a day later: two runs by their clocks
            created = dt.datetime.fromisoformat(doc["created"].replace("Z", "+00:00")) + dt.timedelta(days=1)
            doc["created"] = f"{created:%Y-%m-%dT%H:%M:%SZ}"
        paths.append(_written(tmp / f"half{n + 1}", doc, members, own, kind))
    # B: the two committed runs nearest it in the listing (whatever they are: the halves are refused first)
    others = [str(p) for p in COMMITTED if p != source][:2]
    _refused_by_all_three(paths, others, tmp, capsys)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])  # capsys read out each time
@given(source=st.sampled_from(COMMITTED), seed=st.integers(0, 2 ** 32 - 1), kind=st.sampled_from(BUNDLES[:2]))
def test_jittered_copies_of_a_run_are_refused(tmp_path_factory, capsys, source, seed, kind):
    original, members = _read(source)
    rnd = random.Random(seed)
    tmp = tmp_path_factory.mktemp("jitter")
    paths = []
    for n in range(4):
        doc = under_id(copy.deepcopy(original), f"{original['id']}-j{n + 1}")
        created = dt.datetime.fromisoformat(doc["created"].replace("Z", "+00:00")) + dt.timedelta(days=n)
        doc["created"] = f"{created:%Y-%m-%dT%H:%M:%SZ}"  # each a day after the one before: runs of their own
        for cell in doc["cells"]:
            if cell["status"] != "ok":
                continue
            for metric in cell["metrics"].values():
                metric.update(stats.summarize([v * (1 + rnd.uniform(-0.01, 0.01)) for v in metric["samples"]],
                                              metric["unit"], metric["better"]))
            if cell.get("started"):
                cell["started"] = [round(t + rnd.randint(1, 50) / 1000, 3) for t in cell["started"]]
        paths.append(_written(tmp / f"j{n + 1}", doc, members, {}, kind))
    _refused_by_all_three(paths[:2], paths[2:], tmp, capsys)


def test_every_committed_run_and_a_copy_of_it_with_its_bundle_are_read(tmp_path, capsys):
    """The rule's other half: what validate accepts is read, the committed runs as they are and a
    run copied with its bundle into a data folder of its own."""
    docs = validated([str(p) for p in COMMITTED])
    assert [d["id"] for d in docs] == [p.stem for p in COMMITTED]
    copied = tmp_path / "data"
    (copied / "results").mkdir(parents=True)
    (copied / "raw").mkdir()
    shutil.copy(QUICK_B, copied / "results")
    shutil.copy(bundle.path(str(RESULTS.parent), Path(QUICK_B).stem), copied / "raw")
    other = str(copied / "results" / Path(QUICK_B).name)
    assert main(["compare", QUICK_A, other]) == 0
    assert main(["report", QUICK_A, other, "--no-chart", "--out", str(tmp_path / "r.md")]) == 0
    assert main(["article", "new", "Two runs", QUICK_A, other, "--content", str(tmp_path / "content")]) == 0
    capsys.readouterr()


@pytest.mark.parametrize("kind", BUNDLES)
def test_the_adversarys_split_is_refused_naming_the_half(tmp_path, capsys, kind):
    """Issue #60's example: the even repetitions in one file, the odd in another, new ids, created a
    day apart, compared as "2 and 2 runs": each side one run."""
    original, members = _read(Path(QUICK_B))  # a quick run with a clock (_clocked)
    paths = []
    for n, kept in enumerate(([0, 2], [1])):
        doc, own = under_id(copy.deepcopy(original), f"{original['id']}-{'even' if n == 0 else 'odd'}"), {}
        for cell in doc["cells"]:
            if cell["status"] == "ok":
                kept_repetitions(cell, [j for j in kept if j < len(cell["raw"])], doc["id"], members, own)
        if n:
            created = dt.datetime.fromisoformat(doc["created"].replace("Z", "+00:00")) + dt.timedelta(days=1)
            doc["created"] = f"{created:%Y-%m-%dT%H:%M:%SZ}"
        paths.append(_written(tmp_path / str(n), doc, members, own, kind))
    _refused_by_all_three(paths, [QUICK_A, str(COMMITTED[-1])], tmp_path, capsys)


SPELLINGS = [lambda p: p, lambda p: "./" + p, lambda p: str(Path(p).resolve()), lambda p: p.replace("/", "//", 1),
             lambda p: p.replace("/results/", "/results/../results/")]


@pytest.mark.parametrize("first", range(len(SPELLINGS)))
def test_a_refusal_validate_cached_under_one_spelling_is_given_under_another(tmp_path, monkeypatch, first):
    """Adversary round 81: a file validate refused, its outcome cached under the path as spelled
    then, was read by compare under another spelling of it (./, absolute, // or ..) and ended in a
    KeyError traceback. Every spelling after every spelling gets validate's line, naming the path
    as given."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data" / "results").mkdir(parents=True)
    (tmp_path / "data" / "raw").mkdir()
    (tmp_path / "build" / "cache").mkdir(parents=True)
    cache = str(tmp_path / "build" / "cache" / "validate.json")
    name = Path(QUICK_B).name
    doc = resultfile.load_json(QUICK_B)
    shutil.copy(bundle.path(str(RESULTS.parent), Path(QUICK_B).stem), tmp_path / "data" / "raw")
    cell = next(c for c in doc["cells"] if c["status"] == "ok")
    metric = next(iter(cell["metrics"].values()))
    metric["samples"][0] = metric["samples"][0] * 1.5  # one sample its raw report contradicts
    write_json(tmp_path / "data" / "results" / name, doc)
    given = f"data/results/{name}"
    validation.validate_files([SPELLINGS[first](given)], cache_file=cache)  # the refusal cached
    for spell in SPELLINGS:
        with pytest.raises(UserError) as refused:
            validated([spell(given)], cache_file=cache)
        assert refused.value.where == spell(given)
