"""The rule: two files of one machine whose repetitions started in one stretch of its clock are
not two independent runs, and compare refuses them on one side or on both (#60 round 18, finding
5: one run's repetitions split into two files under two ids made a second "run", and its halves'
means, which share one run's conditions, were tested as runs). Runs of one machine one after the
other are never refused: the committed ones, checked against a hand reading of their clocks."""
import copy
import datetime as dt
import itertools
import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from fsatlas.errors import UserError
from fsatlas.results import comparison, resultfile
from fsatlas.results.validation import PER_REPETITION
from testutil import RESULTS, in_slot, under_id

SOURCE = RESULTS / "20261127T143616Z-m-b6d0b06748-standard.json"  # a runner's run with `started` in every cell
OTHER = RESULTS / "20261125T174924Z-m-05e18e6041-standard.json"  # another machine's run


def _read(path):
    return resultfile.readable(json.loads(path.read_text()))


def _take(cell: dict, reps: list) -> dict:
    """The cell with only the repetitions reps (indexes), every per-repetition field alike."""
    out = copy.deepcopy(cell)
    for m in out["metrics"].values():
        m["samples"] = [m["samples"][i] for i in reps]
    for field in (*PER_REPETITION, "raw"):
        if isinstance(out.get(field), list):
            out[field] = [out[field][i] for i in reps]
    return out


def split(doc: dict, rnd: random.Random, cut: bool) -> tuple[dict, dict]:
    """One run's repetitions dealt into two files under two ids: each cell's repetitions split at
    random (a cell of one repetition goes whole to one side, a cell may go whole to either), or,
    cut, those that started before a moment of the run into one and the rest into the other."""
    halves = ([], [])
    ok = [c for c in doc["cells"] if c["status"] == "ok"]
    moment = rnd.choice(sorted(t for c in ok for t in c["started"]))
    for cell in ok:
        reps = len(next(iter(cell["metrics"].values()))["samples"])
        mine = ([i for i in range(reps) if cell["started"][i] < moment] if cut
                else sorted(rnd.sample(range(reps), rnd.randint(0, reps))))
        rest = [i for i in range(reps) if i not in mine]
        for half, taken in zip(halves, (mine, rest)):
            if taken:
                half.append(_take(cell, taken))
    return ({**under_id(doc, doc["id"][:-4] + "part"), "cells": halves[0]},
            {**under_id(doc, doc["id"][:-4] + "rest"), "cells": halves[1]})


@settings(max_examples=15, deadline=None, database=None)
@given(seed=st.integers(0, 10 ** 6), across=st.booleans(), cut=st.booleans())
def test_one_runs_repetitions_split_into_two_files_are_refused(seed, across, cut):
    first, second = split(_read(SOURCE), random.Random(seed), cut)
    if not first["cells"] or not second["cells"]:
        return  # every repetition on one side: one file, nothing to tell
    other = in_slot(under_id(_read(OTHER), "20261125T174924Z-other"), 3)
    side_a, side_b = ([first], [second, other]) if across else ([first, second], [other])
    with pytest.raises(UserError, match="ran on one machine at once") as refused:
        comparison.between(side_a, side_b)
    assert first["id"] in refused.value.message and second["id"] in refused.value.message


def _span_by_hand(path) -> tuple[float, float]:
    """The first and last repetition start, read from the file's text with no code of the project's."""
    doc = json.loads(path.read_text())
    created = dt.datetime.strptime(doc["created"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc).timestamp()
    starts = [created + t for c in doc["cells"] if c["status"] == "ok" for t in c.get("started") or ()]
    return min(starts), max(starts)


def test_runs_of_one_machine_one_after_the_other_are_never_refused():
    timed = [p for p in sorted(RESULTS.glob("*.json")) if any(c.get("started") for c in json.loads(p.read_text())["cells"])]
    assert len(timed) >= 3
    for p, q in itertools.combinations(timed, 2):
        (a0, a1), (b0, b1) = _span_by_hand(p), _span_by_hand(q)
        same = comparison.factors(_read(p))["machine"] == comparison.factors(_read(q))["machine"]
        assert bool(comparison.ran_at_once(_read(p), _read(q))) == (same and a0 <= b1 and b0 <= a1), (p.name, q.name)
        assert not (same and a0 <= b1 and b0 <= a1)  # the committed runs ran one after the other
    # two runs of one machine one after the other: the 25 November pair, compared without refusal
    pair = sorted(RESULTS.glob("20261125T*-m-05e18e6041-standard.json"))
    rows = comparison.between(_read(pair[0]), _read(pair[1]))
    assert rows
