"""Issue 60, round 16 (findings 1, 2, 9, 10): one run is one run however its copy is spelled, each
rule tested from the rule over inputs hypothesis draws, beside the adversary's examples:
- two files holding one run's measurement are one run whatever was done to the copy (its
  samples reordered, metrics dropped, repetitions appended or removed, cells dropped): on one
  side refused as "one run under two ids", across the sides as "a run compared with itself";
  genuine separate runs (every pair of the committed results) never are (comparison.shared_print);
- one id in two files that differ is refused naming both files, whatever other files are named
  (a copy of its content under a smaller id too), on whichever sides, in any order (one_id);
- `article new` takes every spelling of a configuration that compare takes (shares.configuration).
Round 17 (findings 2, 5): a copy cut to one metric a cell (tiny-block-write, dd imports) or one
repetition is one run too (comparison.shared: the run's values, as multisets), so is a copy with
one metric changed throughout (comparison.held_metrics), and two independent runs drawn at the
resolution of fio's and dd's figures never are, by any of the rules (round 16's rule per cell
took coarse ones for one run)."""
import copy
from collections import Counter
import functools
import itertools
import math
import random
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, example, given, settings, strategies as st

from fsatlas.cli import main
from fsatlas.commands import article
from fsatlas.commands.compare import compared, validated
from fsatlas.errors import UserError
from fsatlas.results import comparison, resultfile, shares, validation
from fsatlas.results import bundle
from test_compare_inputs import KEYS, SOURCE, run, stored
from testutil import derived_run, refoldered, under_id, write_json, RESULTS

COMMITTED = sorted(RESULTS.glob("*.json"))


def test_no_two_committed_runs_hold_one_runs_cell_and_each_holds_its_own():
    """The rule's other half: of the committed results (separate runs of one matrix, some on one
    machine, whose quantized figures share values: throughput over whole milliseconds, latency
    bins), no pair is taken for one run, in either order; each is taken for its own copy."""
    runs = [resultfile.load_result(str(p)) for p in COMMITTED]
    prints = [comparison.cell_prints(r) for r in runs]
    for i, j in itertools.permutations(range(len(runs)), 2):
        assert comparison.shared_print(prints[i], [prints[j]]) is None, (runs[i]["id"], runs[j]["id"])
    for p in prints:
        assert comparison.shared_print(p, [p]) is not None


def _edited(original: dict, rnd: random.Random) -> dict:
    """A copy of original under a new id, edited as a copy may be: each metric's samples
    reordered on their own, up to three metrics dropped, repetitions appended (values it holds)
    or removed (two kept), cells dropped (one kept)."""
    doc = copy.deepcopy({**original, "id": "a-copy"})  # sorts before every other id
    doc["cells"] = rnd.sample(doc["cells"], rnd.randint(1, len(doc["cells"])))
    for c in doc["cells"]:
        for name in rnd.sample(sorted(c["metrics"]), rnd.randint(0, 3)):
            del c["metrics"][name]
        for m in c["metrics"].values():
            samples = m["samples"][:]
            rnd.shuffle(samples)
            kept = samples[:rnd.randint(2, len(samples))] + rnd.choices(samples, k=rnd.randint(0, 2))
            m["samples"] = kept
        if rnd.random() < 0.5:  # start times and host records kept, or not
            c.pop("started", None)
            c.pop("host", None)
    return doc


def _outcome(side_a: list, side_b: list, files: tuple):
    try:
        return sorted((r["key"], r["metric"], r["verdict"]) for r in comparison.between(side_a, side_b, files=files))
    except UserError as e:
        return e.message


@settings(max_examples=30, deadline=None)
@given(st.randoms(use_true_random=False), st.booleans(), st.integers(0, 2))
def test_an_edited_copy_of_a_run_is_never_a_second_run_in_any_order(rnd, on_b, others):
    original = run("q", 1)
    doc = _edited(original, rnd)
    named = {"Q.json": original, "Copy.json": doc, **{f"A{i}.json": run(f"a{i}", 10 + i) for i in range(others)}}
    side_b_files = {"B1.json": run("b1", 3, 1.1), "B2.json": run("b2", 4, 1.1)}
    if on_b:
        side_b_files["Copy.json"] = named.pop("Copy.json")
    first = None
    for _ in range(3):  # the order of the arguments never changes the outcome
        a, b = list(named), list(side_b_files)
        rnd.shuffle(a)
        rnd.shuffle(b)
        got = _outcome([named[n] for n in a], [side_b_files[n] for n in b], (a, b))
        assert first is None or got == first
        first = got
    same = comparison.content(doc) == comparison.content(original)
    if on_b:
        assert isinstance(first, str) and first.startswith("a run compared with itself") and "a-copy" in first
    elif same:  # nothing edited: the same content, counted once
        assert not isinstance(first, str)
    else:
        assert isinstance(first, str) and "one run under two ids" in first
        assert "Q.json" in first and "Copy.json" in first


@settings(max_examples=30, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from(["host", "sample", "profile"]),
       st.sampled_from(["a", "b", "across"]), st.booleans(), st.integers(0, 2))
def test_one_id_in_two_differing_files_is_refused_naming_both_whatever_else_is_named(rnd, edit, where, twin, others):
    """Y.json and Yedit.json (one id, one of them edited), beside any other runs, and a copy of
    Y's content under a smaller id (twin: the adversary's C1.json) that would drop Y first."""
    y = run("y", 1)
    y_edit = copy.deepcopy(y)
    cell = y_edit["cells"][rnd.randrange(len(y_edit["cells"]))]
    if edit == "host" and cell.get("host"):
        cell["host"][0]["load1"] += 1.0
    elif edit == "profile":
        y_edit["profile"] = "quick"
    else:
        cell["metrics"]["throughput"]["samples"][0] *= 1.5
    sides = {"a": {"A1.json": run("a1", 5), **{f"A{i}.json": run(f"a{i}", 10 + i) for i in range(2, 2 + others)}},
             "b": {"B1.json": run("b1", 3, 1.1), "B2.json": run("b2", 4, 1.1)}}
    first, second = {"a": ("a", "a"), "b": ("b", "b"), "across": ("a", "b")}[where]
    sides[first]["Y.json"], sides[second]["Yedit.json"] = y, y_edit
    if twin:
        sides[first]["C1.json"] = {**copy.deepcopy(y), "id": "c"}
    for _ in range(3):
        a, b = list(sides["a"]), list(sides["b"])
        rnd.shuffle(a)
        rnd.shuffle(b)
        with pytest.raises(UserError) as e:
            comparison.between([sides["a"][n] for n in a], [sides["b"][n] for n in b], files=(a, b))
        assert "both hold run y, and differ" in e.value.message
        assert {"Y.json", "Yedit.json"} <= set(e.value.message.replace(",", " ").split())


def _per_repetition(cell: dict, pick) -> None:
    """The cell's records of one value a repetition (validation.PER_REPETITION) cut or grown as
    its samples were, which validate (and so compare) requires of a file."""
    for field in validation.PER_REPETITION:
        if isinstance(cell.get(field), list):
            cell[field] = pick(cell[field])


def test_the_adversarys_examples_are_refused_in_one_line_naming_both_files(tmp_path, capsys):
    c1 = run("c1", 1)
    rev = under_id(copy.deepcopy(c1), "c1rev")
    for c in rev["cells"]:
        for m in c["metrics"].values():
            m["samples"] = m["samples"][::-1]
    drop = under_id(copy.deepcopy(c1), "c1drop")
    for c in drop["cells"]:
        c["metrics"].pop("lat_p999_ns", None)
    plus = under_id(copy.deepcopy(c1), "c1plus")
    for c in plus["cells"]:  # one repetition more, a copy of the first, with its own records
        for m in c["metrics"].values():
            m["samples"] = m["samples"] + m["samples"][:1]
        _per_repetition(c, lambda values: values + values[:1])
        c["started"][-1] = 2 * c["started"][-2] - c["started"][-3]  # begun after the last, as validate requires
        c["raw"] = c["raw"] + [c["raw"][-1].rsplit("/", 1)[0] + f"/rep-{len(c['raw']) + 1}.json"]
    y_edit = copy.deepcopy(c1)
    y_edit["cells"][0]["host"][0]["load1"] += 1.0
    docs = {"C1.json": c1, "C1rev.json": rev, "C1drop.json": drop, "C1plus.json": plus, "C2.json": run("c2", 2),
            "D1.json": run("d1", 3, 1.03), "D2.json": run("d2", 4, 1.03), "Y.json": under_id(copy.deepcopy(c1), "y"),
            "Yedit.json": under_id(y_edit, "y"), "C1mod.json": y_edit}
    p = {n: stored(tmp_path / n, d) for n, d in docs.items()}
    for name in ("C1rev", "C1plus"):  # else validate refuses each alone (C1rev's rep-1 ran in rep-9's folder)
        refoldered(tmp_path / name, name.lower())
    for copied in ("C1rev.json", "C1drop.json", "C1plus.json"):
        assert main(["compare", "--runs-a", p["C1.json"], p[copied], p["C2.json"], "--runs-b", p["D1.json"],
                     p["D2.json"]]) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and p["C1.json"] in err and p[copied] in err and "one run under two ids" in err
    assert main(["compare", "--runs-a", p["C1.json"], p["C2.json"], "--runs-b", p["C1rev.json"], p["D2.json"]]) == 1
    assert "a run compared with itself" in capsys.readouterr().err
    content = tmp_path / "content"
    assert main(["article", "new", "self", p["C1.json"], p["C1rev.json"], "--content", str(content)]) == 1
    assert "a run compared with itself" in capsys.readouterr().err and not content.exists()
    # finding 2: one id in two files, a copy of its content under a smaller id named too
    assert main(["compare", "--runs-a", p["C1.json"], p["Y.json"], p["Yedit.json"], p["C2.json"], "--runs-b",
                 p["D1.json"], p["D2.json"]]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and p["Y.json"] in err and p["Yedit.json"] in err and "both hold run y" in err
    # finding 9: one id on both sides, differing: the same line, naming both files
    assert main(["compare", "--runs-a", p["C1.json"], p["C2.json"], "--runs-b", p["C1mod.json"], p["D1.json"]]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and p["C1.json"] in err and p["C1mod.json"] in err and "both hold run c1" in err


# --- 10: one spelling of a configuration in every command -------------------------------------------

STANDARD = str(sorted(RESULTS.glob("*-standard.json"))[-1])
RESULT, = validated([STANDARD])
SIDES = sorted({(c["filesystem"], c.get("variant", "defaults")) for c in RESULT["cells"] if c["status"] == "ok"})


def _spellings(side: tuple) -> list:
    fs, variant = side
    return [f"{fs}:{variant}"] + ([fs, f"{fs}:"] if variant == shares.DEFAULTS else [])


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(SIDES), st.sampled_from(SIDES), st.data())
def test_article_new_takes_every_spelling_compare_takes(tmp_path_factory, side_a, side_b, data):
    a, b = (data.draw(st.sampled_from(_spellings(s)) | st.text("ext4xfs:-dault", max_size=12)) for s in (side_a, side_b))
    try:
        compared([STANDARD], None, None, a, b, False, "usage")
        compare_takes = True
    except UserError:
        compare_takes = False
    content = tmp_path_factory.mktemp("content")
    assert (main(["article", "new", "t", STANDARD, "--a", a, "--b", b, "--content", str(content)]) == 0) == compare_takes
    if compare_takes:  # the article names each side by its shortest spelling, which reads back as it
        (written,) = (content / "articles").glob("*.md")
        key = f"{RESULT['id']}|{shares.spelled(shares.configuration(a))}|{shares.spelled(shares.configuration(b))}"
        assert f'key="{key}"' in written.read_text()


def test_the_adversarys_ext4_colon_is_taken_as_ext4(tmp_path):
    assert article.SIDE.match("ext4:")
    assert main(["article", "new", "t1", STANDARD, "--a", "ext4:", "--b", "xfs", "--content", str(tmp_path)]) == 0
    assert f'key="{RESULT["id"]}|ext4|xfs"' in (tmp_path / "articles" / "t1.md").read_text()


# --- round 17 (findings 2, 5): a copy of one metric a cell, or one repetition, is one run too --------
# The rule (comparison.shared / COPY_SHARE): over every (cell, metric) two files both hold, a copy
# finds every value it compares, whatever it dropped or reordered; independent runs find few.

@functools.cache
def _committed(name: str) -> dict:
    return resultfile.load_result(str(RESULTS / name))


def _cut(original: dict, rnd: random.Random) -> dict:
    """A copy of original under a new id, cut as a copy may be: some cells (often one), some
    metrics of each (often one), each metric's samples reordered and cut (often to one
    repetition a cell), start times and host records kept or not."""
    cells = [c for c in original["cells"] if c.get("status") == "ok"]
    chosen = rnd.sample(cells, rnd.choice([1, 2, rnd.randint(1, len(cells))]))
    doc = {**original, "id": "a-copy", "cells": []}
    for c in chosen:
        c = copy.deepcopy(c)
        names = sorted(c["metrics"])
        keep = set(rnd.sample(names, rnd.choice([1, rnd.randint(1, len(names))])))
        c["metrics"] = {n: m for n, m in c["metrics"].items() if n in keep}
        one = rnd.random() < 0.3  # one repetition a cell
        for m in c["metrics"].values():
            samples = m["samples"][:]
            rnd.shuffle(samples)
            m["samples"] = samples[:1] if one else samples[:rnd.randint(1, len(samples))]
        if one or rnd.random() < 0.5:
            c.pop("started", None)
            c.pop("host", None)
        doc["cells"].append(c)
    return doc


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([p.name for p in COMMITTED]), st.randoms(use_true_random=False), st.booleans())
def test_a_copy_cut_from_a_committed_result_is_one_run_on_either_side(name, rnd, across):
    original = _committed(name)
    doc = _cut(original, rnd)
    found, compared = comparison.shared(comparison.cell_prints(doc), comparison.cell_prints(original))
    assume(compared >= comparison.COPY_VALUES)  # fewer values than that: the rule's limit
    assert found == compared
    other = _committed(next(p.name for p in COMMITTED if p.name != name))
    if across:
        side_a, side_b, files = [original], [doc], (["R.json"], ["Copy.json"])
    else:
        side_a, side_b, files = [doc, original], [other], (["Copy.json", "R.json"], ["O.json"])
        if rnd.random() < 0.5:
            side_a, files = side_a[::-1], (files[0][::-1], files[1])
    with pytest.raises(UserError) as e:
        comparison.between(side_a, side_b, files=files)
    assert ("a run compared with itself" if across else "one run under two ids") in e.value.message


@settings(max_examples=15, deadline=None)
@given(st.sampled_from([p.name for p in COMMITTED]), st.randoms(use_true_random=False))
def test_a_copy_with_one_metric_changed_throughout_is_one_run(name, rnd):
    """Beside the examples: every cell's one metric (drawn per cell) scaled, the rest kept; held
    by held_metrics() where a cell keeps three metrics or more of three distinct values."""
    original = _committed(name)
    doc = {**original, "id": "a-copy", "cells": copy.deepcopy(original["cells"])}
    for c in doc["cells"]:
        if c.get("status") == "ok":
            m = c["metrics"][rnd.choice(sorted(c["metrics"]))]
            m["samples"] = [v * 1.05 + 1 for v in m["samples"]]
    mine, theirs = comparison.cell_prints(doc), comparison.cell_prints(original)
    assume(any(comparison.held_metrics(v, theirs[k]) for k, v in mine.items()))
    with pytest.raises(UserError) as e:
        comparison.between([original, doc], [_committed(next(p.name for p in COMMITTED if p.name != name))])
    assert "one run under two ids" in e.value.message


# Independent runs drawn at the resolution fio and dd write their figures: fio's throughput is whole
# bytes over whole milliseconds, iops six decimals, the mean latency a mean of whole nanoseconds
# over the I/Os, the percentiles the bins of fio's histogram (64 a power of two), CPU shares clock
# ticks (often 0 on both sides); dd (coreutils 9.1, measured) prints seconds to 6 digits.
def _fio_cell(rnd: random.Random, scale: float, runtime_ms: float, spread: float, reps: int) -> dict:
    def binned(ns: float) -> float:
        step = 2 ** max(int(ns).bit_length() - 7, 0)
        return float(int(ns) // step * step)
    metrics = {n: [] for n in ("throughput", "iops", "lat_mean_ns", "lat_p50_ns", "lat_p99_ns", "cpu_usr_pct",
                               "cpu_sys_pct")}
    for _ in range(reps):
        ms = max(1, round(runtime_ms * rnd.lognormvariate(0, spread)))
        ios = max(1, round(scale * ms))
        metrics["throughput"].append(float(ios * 4096 * 1000 // ms))
        metrics["iops"].append(round(ios * 1000 / ms, 6))
        # each I/O's latency apart from another's by 30 %
        lat = [rnd.lognormvariate(math.log(1e6 * ms / ios), 0.3) for _ in range(min(ios, 64))]
        metrics["lat_mean_ns"].append(sum(int(x) for x in lat) / len(lat))
        metrics["lat_p50_ns"].append(binned(sorted(lat)[len(lat) // 2]))
        metrics["lat_p99_ns"].append(binned(max(lat)))
        for n in ("cpu_usr_pct", "cpu_sys_pct"):
            metrics[n].append(round(100 * int(rnd.expovariate(1) * ms / 200) * 10 / ms, 6))
    return {n: {"samples": s} for n, s in metrics.items()}


def _independent_run(rid: str, seed: int, shape: dict) -> dict:
    rnd = random.Random(seed)
    cells = []
    for key, (kind, level, runtime_ms, spread, reps) in shape.items():
        if kind == "dd":
            metrics = {"throughput": {"samples": [2 ** 30 / float(f"{level * rnd.lognormvariate(0, spread):.6g}")
                                                  for _ in range(reps)]}}
        elif kind == "continuous":
            metrics = {"throughput": {"samples": [level * rnd.lognormvariate(0, spread) for _ in range(reps)]}}
        else:
            metrics = _fio_cell(rnd, level, runtime_ms, spread, reps)
        cells.append({"key": key, "status": "ok", "parameters": {}, "metrics": metrics})
    return {"id": rid, "cells": cells}


def _shapes(spreads: list, runtimes_ms: list = [10, 100, 1000, 30000], most_reps: int = 9):
    # up to 27 repetitions beside the standard profile's 9 (round 59: fast steady cells of many
    # repetitions share their handful of values whole)
    return st.dictionaries(
        st.sampled_from([f"ext4|-|-|w{i}" for i in range(6)]),
        st.tuples(st.sampled_from(["fio", "dd", "continuous"]), st.floats(0.5, 100), st.sampled_from(runtimes_ms),
                  st.sampled_from(spreads), st.integers(1, most_reps)),
        min_size=1, max_size=4)


@settings(max_examples=80, deadline=None)
@given(_shapes([0.002, 0.01, 0.05, 0.2], [10, 100, 150, 1000, 30000], 27), st.integers(0, 2 ** 32), st.integers(0, 2 ** 32))
def test_two_independent_runs_at_the_figures_resolution_are_never_one_run(shape, seed_a, seed_b):
    """A fio cell's mean latency is a mean of whole nanoseconds over its I/Os, which coincides as
    rarely as a continuous figure: of its distinct values, of its figures, 6 of 7 at most coincide
    by chance (0.857, below COPY_SHARE), and dd's (6 digits) and continuous figures rarely, at any
    spread between repetitions (round 16's rule per cell took such cells at 100 ms and 5 % for one run)."""
    assume(seed_a != seed_b)
    a, b = (comparison.cell_prints(_independent_run(r, seed, shape)) for r, seed in (("a", seed_a), ("b", seed_b)))
    found, compared = comparison.shared(a, b)
    assert found < comparison.COPY_SHARE * compared or compared == 0
    assert comparison.shared_print(a, [b]) is None and comparison.shared_print(b, [a]) is None


def _dd_import(tmp_path, name: str, seconds: list) -> str:
    """A dd import of three copies of 1 GiB as the adversary's logs print them (seconds to 0.01)."""
    log = tmp_path / f"{name}.log"
    log.write_text("".join(f"1073741824 bytes (1.1 GB, 1.0 GiB) copied, {s:.2f} s, {2 ** 30 / s / 1e6:.0f} MB/s\n"
                           for s in seconds))
    out = tmp_path / name
    assert main(["import", "dd", str(log), "--filesystem", "ext4", "--out", str(out)]) == 0
    (path,) = (out / "results").glob("*.json")
    return str(path)


def test_the_adversarys_rtiny_rone_and_ddrev_are_one_run(tmp_path, capsys):
    """Round 17's examples: R's tiny-block-write cells (one metric) under a new id, R cut to one
    repetition a cell, a dd import reversed under a new id; each refused in one line naming both
    files, on one side and across; independent dd imports (one value of three in common) are not."""
    r = derived_run(STANDARD, Path(STANDARD).stem, None)  # the committed run, its raw output known (stored)
    tiny = under_id({**copy.deepcopy(r), "cells": [copy.deepcopy(c) for c in r["cells"]
                                                  if c["workload"] == "tiny-block-write" and c["status"] == "ok"]},
                    r["id"] + "-tiny")
    one = under_id(copy.deepcopy(r), r["id"] + "-one")
    for c in one["cells"]:  # its first repetition (a runner names repetition 1's file rep-1)
        for m in c["metrics"].values():
            m["samples"] = m["samples"][:1]
        _per_repetition(c, lambda values: values[:1])
        c["raw"] = c["raw"][:1]
    jittered = [derived_run(STANDARD, r["id"] + f"-t{i}", None, lambda key, j, i=i: 1.05 + 0.001 * i,
                            [c["key"] for c in tiny["cells"]]) for i in (1, 2)]
    p = {n: stored(tmp_path / n, d) for n, d in (("Rtiny.json", tiny), ("Rone.json", one), ("T1.json", jittered[0]),
                                                 ("T2.json", jittered[1]))}
    for copied in ("Rtiny.json", "Rone.json"):
        assert main(["compare", "--runs-a", STANDARD, p[copied], "--runs-b", p["T1.json"], p["T2.json"]]) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and STANDARD in err and p[copied] in err and "one run under two ids" in err
        assert main(["compare", STANDARD, p[copied]]) == 1
        assert "a run compared with itself" in capsys.readouterr().err
    assert main(["report", STANDARD, p["Rtiny.json"], "--out", str(tmp_path / "report.md")]) == 1
    assert "a run compared with itself" in capsys.readouterr().err and not (tmp_path / "report.md").exists()
    content = tmp_path / "content"
    assert main(["article", "new", "self", STANDARD, p["Rone.json"], "--content", str(content)]) == 1
    assert "a run compared with itself" in capsys.readouterr().err and not content.exists()
    # finding 5: a dd import, its samples reversed under a new id
    dd = [_dd_import(tmp_path, f"dd{i}", s) for i, s in enumerate(([2.51, 2.63, 2.40], [2.45, 2.70, 2.33],
                                                                  [2.43, 2.63, 2.33], [2.44, 2.64, 2.34]))]
    rev = resultfile.load_result(dd[0])
    members = bundle.read(str(Path(dd[0]).parents[1]), rev["id"])
    rev = under_id(rev, rev["id"] + "-rev")
    rev["cells"][0]["metrics"]["throughput"]["samples"].reverse()
    # its raw output too: the log's runs in reverse order, as validate requires (the import's record of it under its id)
    (name,) = members
    bundle.write({name: b"".join(reversed(members[name].splitlines(keepends=True)))},
                 bundle.path(str(tmp_path / "ddrev"), rev["id"]))
    rev["cells"][0]["imported_runs"] = [{**run, "raw": rev["cells"][0]["raw"][0]}
                                        for run in rev["cells"][0]["imported_runs"]]
    ddrev = str(write_json(tmp_path / "ddrev" / "results" / f"{rev['id']}.json", rev))
    capsys.readouterr()
    assert main(["compare", "--runs-a", dd[0], ddrev, dd[1], "--runs-b", dd[2], dd[3]]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and dd[0] in err and ddrev in err and "one run under two ids" in err
    assert main(["compare", dd[0], ddrev]) == 1
    assert "a run compared with itself" in capsys.readouterr().err
    assert main(["compare", "--runs-a", dd[0], dd[1], "--runs-b", dd[2], dd[3]]) == 0
    assert "Design: 2 and 2 runs" in capsys.readouterr().out


@settings(max_examples=20, deadline=None)
@given(st.randoms(use_true_random=False), st.booleans())
def test_a_copy_with_its_cells_relabelled_or_its_parameters_respelled_is_one_run(rnd, relabel):
    """Round 18, findings 1 and 2: a committed run's copy whose cells' filesystems were swapped at
    random (its figures under other keys), or whose whole-number parameters read as floats
    (bs 32.0), is still one run: pooled over cells, or its cells the same."""
    r = _committed(STANDARD.rsplit("/", 1)[1])
    copied = under_id(copy.deepcopy(r), r["id"] + "-copy")
    if relabel:
        names = sorted({c["filesystem"] for c in copied["cells"]})
        swapped = dict(zip(names, rnd.sample(names, len(names))))
        for c in copied["cells"]:
            c["key"] = c["key"].replace(c["filesystem"], swapped[c["filesystem"]], 1)
            c["filesystem"] = swapped[c["filesystem"]]
    else:
        for c in copied["cells"]:
            c["parameters"] = {k: float(v) if type(v) is int else v for k, v in (c.get("parameters") or {}).items()}
    assert comparison.shared_print(comparison.cell_prints(copied), [comparison.cell_prints(r)]) is not None


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(100, 2000), min_size=1, max_size=5), st.randoms(use_true_random=False))
def test_runs_of_coarse_figures_alike_are_not_one_run(figures, rnd):
    """Round 18, finding 6: two imports whose figures are whole numbers (Phoronix Test Suite's
    MB/s, three digits or fewer significant) in the same multiset are two runs: such figures come
    alike from independent runs, so the rules leave them out (comparison.FINE_DIGITS)."""
    figures = [float(f) for f in figures]
    other = figures[:]
    rnd.shuffle(other)
    a = {("k", "{}"): {"throughput": Counter(figures)}}
    b = {("k", "{}"): {"throughput": Counter(other)}}
    # by hand: the same multiset is refused exactly where it holds COPY_VALUES values of four
    # significant digits or more (1001 has four, 1000 and 523 fewer)
    fine = sum(len(str(int(v)).strip("0")) >= 4 for v in figures)
    assert (comparison.shared_print(a, [b]) is None) is (fine < comparison.COPY_VALUES)


def test_fine_counts_significant_digits_as_a_hand_count_does():
    for value, digits in ((523.0, 3), (1234186004.0, 10), (0.05, 1), (2113536.0, 7), (1e-05, 1), (427.7854, 7),
                          (0.0, 0), (1000.0, 1), (1001.0, 4), ("106.454", 6)):
        assert comparison.fine(value) is (digits >= comparison.FINE_DIGITS), value


@settings(max_examples=10, deadline=None, database=None)
@given(seed=st.integers(0, 10 ** 6), ulps=st.integers(1, 1000))
def test_a_copy_with_every_figure_moved_by_a_few_ulps_is_one_run(seed, ulps):
    """Round 19, finding 5: every sample moved by up to `ulps` units in the last place (math.nextafter,
    each its own count) and the run given another id and day is still one run, refused."""
    import json
    from testutil import in_slot
    path = RESULTS / "20261125T085339Z-m-05e18e6041-standard.json"
    original = resultfile.readable(json.loads(path.read_text()))
    rnd, moved = random.Random(seed), copy.deepcopy(original)
    for cell in moved["cells"]:
        for m in cell.get("metrics", {}).values():
            for i, v in enumerate(m["samples"]):
                for _ in range(rnd.randint(1, ulps)):
                    v = math.nextafter(v, math.inf)
                m["samples"][i] = v
    moved = in_slot(under_id(moved, "20261123T090000Z-m-05e18e6041-standard"), 1)
    with pytest.raises(UserError, match="hold the same samples"):
        comparison.between([original, moved], [resultfile.readable(json.loads(COMMITTED[-1].read_text()))])


@settings(max_examples=15, deadline=None, database=None)
@given(name=st.sampled_from([p.name for p in COMMITTED]), exponent=st.floats(-9, 1), per_metric=st.booleans(),
       seed=st.integers(0, 2 ** 32))
def test_a_copy_with_every_figure_times_one_factor_is_one_run(name, exponent, per_metric, seed):
    """Round 56, finding 2: a copy whose every sample was multiplied by 1 + 1e-9 (or any factor, one
    for the run or one a metric), under another id and day, counted as a second run: the sides'
    sorted values stand in one ratio (comparison.scaled), which no two independent runs do."""
    from testutil import in_slot
    rnd = random.Random(seed)
    original = _committed(name)
    factor = (1 + 10 ** exponent) ** rnd.choice([1, -1])  # up or down, 1 + 1e-9 to 11
    doc = in_slot(under_id({**original, "cells": copy.deepcopy(original["cells"])}, original["id"][:-6] + "scaled"), 3)
    for c in doc["cells"]:
        for m in c.get("metrics", {}).values():
            k = factor * (1 + rnd.random()) if per_metric else factor
            m["samples"] = [v * k for v in m["samples"]]
    other = _committed(next(p.name for p in COMMITTED if p.name != name))
    with pytest.raises(UserError, match="one run under two ids"):
        comparison.between([original, doc], [other])


def _fixed_size_cell(rnd: random.Random, reps: int) -> dict:
    """A fio job of a fixed size (1 GiB of 128 KiB reads) that lasts about 150 ms, its runtime
    in whole milliseconds jittering by about 1 ms: throughput and iops take a handful of values,
    the percentiles fio's bins (about 1.4 % apart, the latencies spreading over a few), the mean
    latency a continuous figure. Under the rule before round 59, 60 of 300 such pairs at 9
    repetitions were refused as one run, 175 at 27."""
    ios, metrics = 8192, {n: [] for n in ("throughput", "iops", "lat_mean_ns", "lat_p50_ns", "lat_p90_ns", "lat_p99_ns")}
    for _ in range(reps):
        ms = round(rnd.gauss(150, 1))
        metrics["throughput"].append(float(ios * 131072 * 1000 // ms))
        metrics["iops"].append(round(ios * 1000 / ms, 6))
        metrics["lat_mean_ns"].append(round(rnd.gauss(18300, 200), 2))
        for name, at in (("lat_p50_ns", 18000), ("lat_p90_ns", 19500), ("lat_p99_ns", 24000)):
            metrics[name].append(float(round(at * rnd.gauss(1, 0.02) / (at * 0.014)) * round(at * 0.014)))
    return {n: {"samples": s} for n, s in metrics.items()}


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2 ** 32), st.integers(0, 2 ** 32), st.sampled_from([9, 15, 27]))
def test_two_independent_fast_steady_cells_of_many_repetitions_are_not_one_run(seed_a, seed_b, reps):
    """Round 59, finding 4: independent fast steady cells of 9 to 27 repetitions share the
    handful of values their coarse metrics take, whole; they are not one run: a metric counts
    as held only where most of its samples are distinct (comparison.varied)."""
    assume(seed_a != seed_b)
    a, b = ({("ext2|-|-|seq-read", "{}"): {n: Counter(float(f"{v:.12g}") for v in m["samples"])
                                           for n, m in _fixed_size_cell(random.Random(s), reps).items()}}
            for s in (seed_a, seed_b))
    assert comparison.shared_print(a, [b]) is None


FIO_OUTPUTS = sorted((Path(__file__).parent / "fixtures" / "samples" / "fio" / "two-filesystems").glob("*.json"))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(imports=st.lists(st.sets(st.integers(0, 3), min_size=1, max_size=2).map(sorted), min_size=4, max_size=4,
                        unique_by=tuple))
@example(imports=[[0, 1], [0, 2], [0, 3], [1, 2]])  # each shares one of two: too few values for shared_print
def test_one_output_imported_into_two_results_is_not_two_runs(tmp_path_factory, capsys, imports):
    """The rule (#60/#65 round 61): one tool output is one run wherever it was imported: four
    imports of four fio outputs, each into a folder of its own, compared two against two, are
    refused exactly where two of them share an output (comparison.output_prints). A dd output's
    one figure a repetition cannot tell an output from a coincidence (dd's seconds to 0.01: one
    value of three in common above); import refuses one output twice in one folder.""" 
    folder = tmp_path_factory.mktemp("outputs")
    made = []
    for n, picks in enumerate(imports):
        assert main(["import", "fio", *(str(FIO_OUTPUTS[k]) for k in picks), "--filesystem", "ext4",
                     "--out", str(folder / f"o{n}")]) == 0, capsys.readouterr().err
        made.append(capsys.readouterr().out.strip())
    code = main(["compare", "--runs-a", *made[:2], "--runs-b", *made[2:]])
    err = capsys.readouterr().err
    shared = any(set(a) & set(b) for a, b in itertools.combinations(imports, 2))
    assert code == (1 if shared else 0), err
    if shared:
        assert "one tool output" in err or "hold the same samples" in err, err


@settings(max_examples=12, deadline=None)
@given(jitter=st.sampled_from([1e-9, 1e-6, 1e-4, 1e-3, 1e-2]), order=st.booleans(), cells=st.integers(1, 4))
def test_a_copy_whose_every_figure_moved_a_little_is_one_run_by_its_clock(tmp_path_factory, jitter, order, cells):
    """The rule (adversary of #60, round 70): a runner's start times (seconds from its start, to the
    ms) are its own clock's; two files starting HELD_VALUES repetitions of a cell at the same instants
    hold one run, whatever was done to the figures, on one side or across."""
    c1 = run("c1", 1)
    rnd, c1s = random.Random(jitter), random.Random(1)  # c1's own factors (test_compare_inputs.run), then the jitter
    # its every figure moved in its raw output (the raw device's too), and its samples recomputed from it
    copied = derived_run(SOURCE, "c1jit", 1, lambda key, j: (1 + c1s.uniform(-0.01, 0.01)) * (1 + rnd.uniform(-jitter, jitter)),
                         KEYS)
    copied["cells"] = copied["cells"][:cells]
    copied["created"] = "2026-11-27T12:00:00Z"  # begun days later, by its word: not on c1's clock
    tmp = tmp_path_factory.mktemp("jit")
    p = {n: stored(tmp / f"{n}.json", d) for n, d in
         (("c1", c1), ("c1jit", copied), ("c2", run("c2", 2)), ("d1", run("d1", 3, 1.03)), ("d2", run("d2", 4, 1.03)))}
    side = [p["c1"], p["c1jit"]] if order else [p["c1jit"], p["c1"]]
    with pytest.raises(UserError) as one_side:
        compared([], [*side, p["c2"]], [p["d1"], p["d2"]], None, None, False, "")
    assert "one run under two ids" in str(one_side.value)
    with pytest.raises(UserError) as across:
        compared([], [side[0], p["c2"]], [side[1], p["d2"]], None, None, False, "")
    said = str(across.value)
    assert ("compared with itself" in said or "one run under two ids" in said) and side[0] in said and side[1] in said
    # the same file, or a copy of it (in a data folder of its own, with its bundle), on both sides: named by its files too
    again = shutil.copytree(Path(p["c1"]).parents[1], tmp / "again") / "results" / "c1.json"
    with pytest.raises(UserError) as both:
        compared([], [p["c1"], p["c2"]], [str(again), p["d2"]], None, None, False, "")
    assert "is on both sides" in str(both.value) and p["c1"] in str(both.value) and str(again) in str(both.value)
    # and runs with clocks of their own are not (testutil.in_slot: each slot its own start times)
    assert compared([], [p["c1"], p["c2"]], [p["d1"], p["d2"]], None, None, False, "")[2]


@settings(max_examples=10, deadline=None)
@given(field=st.sampled_from([("system", "kernel", "6.18.44-other"), ("system", "cpu_model", "Another CPU"),
                              ("target", "storage_model", "another disk"), ("profile", None, "other")]),
       copy_first=st.booleans())
def test_one_content_recording_two_systems_is_refused_whatever_id_sorts_first(tmp_path_factory, field, copy_first):
    """The rule: two files of one content (the same samples: one measurement) that record other run
    factors cannot both be right; counting one of them once, the id that sorts first would decide
    which system the figures are said to come from. Refused naming both files and the factor."""
    c1 = run("c1", 1)
    other = copy.deepcopy(c1)
    part, key, value = field
    if key is None:
        other[part] = value
    else:
        other[part] = {**other.get(part, {}), key: value}
    other = under_id(other, "a-copy" if copy_first else "z-copy")
    tmp = tmp_path_factory.mktemp("sys")
    p = {n: stored(tmp / f"{n}.json", d) for n, d in
         (("c1", c1), ("copy", other), ("c2", run("c2", 2)), ("d1", run("d1", 3, 1.03)), ("d2", run("d2", 4, 1.03)))}
    with pytest.raises(UserError) as refused:
        compared([], [p["c1"], p["copy"], p["c2"]], [p["d1"], p["d2"]], None, None, False, "")
    said = str(refused.value)
    assert "the same samples but record other" in said and p["c1"] in said and p["copy"] in said, said
    # one content recorded alike is one run counted once, as before
    same = stored(tmp / "same.json", under_id(copy.deepcopy(c1), "same"))
    assert compared([], [p["c1"], same, p["c2"]], [p["d1"], p["d2"]], None, None, False, "")[2]
