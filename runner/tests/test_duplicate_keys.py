"""The rule: a JSON file fsatlas reads (a result, a probe record) in which an object holds one key
twice is refused, naming the file and the object's JSON Pointer. Parsers keep the last value of a
repeated key silently, so such a file would publish another figure than the text a reviewer reads.

Checked against JSON texts this test writes itself, with keys and strings holding quotes,
backslashes, colons and white space, and space around the colons, a key repeated in a random
object or none: the verdict and the pointer must be the ones the writer knows."""
import json
import subprocess
import sys

import orjson
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from fsatlas.results import resultfile
from testutil import FIXTURES

TEXT = st.text(alphabet=st.sampled_from(['a', 'b', '"', '\\', ':', ' ', '\n', '\u00e9', '}']), max_size=6)
TREES = st.recursive(st.one_of(st.integers(-5, 5), TEXT, st.none()),
                     lambda kids: st.one_of(st.lists(kids, max_size=4), st.dictionaries(TEXT, kids, max_size=4)),
                     max_leaves=25)
SPACE = st.sampled_from(["", " ", "\n ", "\t", "  "])


def written(tree, draw, where=(), state=None):
    """(JSON text of tree, written with random space around colons and, at most once, a key of a
    non-empty object repeated with another value); state["twice"] records where."""
    if isinstance(tree, list):
        return "[" + ",".join(written(v, draw, (*where, i), state) for i, v in enumerate(tree)) + "]"
    if not isinstance(tree, dict):
        return json.dumps(tree, ensure_ascii=draw(st.booleans()))
    items = [json.dumps(k) + draw(SPACE) + ":" + draw(SPACE) + written(v, draw, (*where, k), state)
             for k, v in tree.items()]
    if tree and "twice" not in state and draw(st.integers(0, 3)) == 0:
        key = draw(st.sampled_from(sorted(tree)))
        state["twice"] = (resultfile.pointer(where), key)
        items.insert(draw(st.integers(0, len(items))), json.dumps(key) + draw(SPACE) + ":" + draw(SPACE) + "7")
    return "{" + ",".join(items) + "}"


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), TREES)
def test_a_repeated_key_is_found_where_it_was_written(data, tree):
    state = {}
    raw = written(tree, data.draw, (), state).encode()
    found = resultfile.duplicate_key(raw, resultfile.screened(orjson.loads(raw))[2])
    if "twice" not in state:
        assert found is None
    else:
        where, key = state["twice"]
        assert found == (where, f"expected each key once in an object, found {key!r} twice")


@pytest.mark.parametrize("where", ["/", "/system"])
def test_every_reader_of_a_result_names_the_object_holding_a_key_twice(tmp_path, where):
    """The named example, a result file whose "id" is written twice (the last one read), and a
    key of a nested object twice: validate, compare, export and migrate each refuse it in a line
    naming the file and the object's pointer, the root as "/" (#65 round 55: export, compare and
    migrate named the root by nothing)."""
    good = FIXTURES / "results" / "fixture-valid.json"
    text = good.read_text()
    assert text.lstrip().startswith("{")
    data = tmp_path / "data"
    (data / "results").mkdir(parents=True)
    bad = data / "results" / "fixture-valid.json"
    if where == "/":
        bad.write_text('{"id": "someone-else",' + text.lstrip()[1:])
        key = "id"
    else:
        at = text.index("{", text.index('"system"'))
        bad.write_text(text[:at + 1] + '"kernel": "1.0", ' + text[at + 1:])
        key = "kernel"
    for argv in (["validate", str(bad)], ["compare", str(bad), str(good)],
                 ["export", str(bad), "--out", str(tmp_path / "out.jsonl")], ["migrate", str(bad)]):
        before = bad.read_bytes()
        done = subprocess.run([sys.executable, "-m", "fsatlas.cli", *argv], capture_output=True, text=True)
        assert done.returncode == 1, (argv, done.stdout, done.stderr)
        lines = [line for line in (done.stdout + done.stderr).splitlines() if "twice" in line]
        assert len(lines) == 1 and lines[0].startswith(("fsatlas", str(bad))), (argv, done.stdout, done.stderr)
        assert f"{bad}: " in lines[0] and f"{where}: expected each key once in an object, found {key!r} twice" \
            in lines[0], (argv, lines)
        assert "Traceback" not in done.stderr and bad.read_bytes() == before


def test_a_probe_record_with_a_key_twice_is_refused_at_the_objects_pointer(tmp_path):
    """Round 18, finding 7: check-data's probe records say where, as validate does for results."""
    from fsatlas.results import probefile
    source = sorted((FIXTURES.parents[2] / "data" / "probes").glob("*.json"))[0]
    text = source.read_text()
    at = text.index("{", text.index('"findings"'))
    (tmp_path / source.name).write_text(text[:at + 1] + '"zzdup": 1, "zzdup": 2, ' + text[at + 1:])
    (problem,) = probefile.problems(str(tmp_path / source.name))
    assert problem.path == "/findings/0" and "'zzdup' twice" in problem.message, problem
