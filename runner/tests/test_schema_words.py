"""A schema error is one line that says what was expected and what was found, the value once
(adversary of #65, round 72: a list where an object belongs was printed as jsonschema's message,
which begins with the value, and then the value again)."""
import copy
import json

from hypothesis import given, settings, strategies as st

from fsatlas.results import resultfile
from testutil import FIXTURES

VALID = json.loads((FIXTURES / "results" / "fixture-valid.json").read_text())


def _places(value, at=()):
    """Every place in the document, as a path of keys and indexes."""
    yield at
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _places(v, (*at, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:2]):
            yield from _places(v, (*at, i))


PLACES = [p for p in _places(VALID) if p]
OTHERS = st.one_of(st.booleans(), st.integers(-5, 5), st.text(max_size=5), st.none(),
                   st.lists(st.dictionaries(st.sampled_from(["seconds", "a"]), st.floats(0, 1), max_size=3), max_size=40),
                   st.dictionaries(st.sampled_from(["x", "y"]), st.integers(), max_size=2))


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(PLACES), OTHERS)
def test_a_value_of_another_type_is_named_once_with_what_was_expected(place, value):
    data = copy.deepcopy(VALID)
    holder = data
    for key in place[:-1]:
        holder = holder[key]
    if type(holder[place[-1]]) is type(value) or isinstance(holder[place[-1]], (int, float)) and \
            isinstance(value, (int, float)) and not isinstance(value, bool):
        return
    holder[place[-1]] = value
    for problem in resultfile.schema_problems(data, "f.json"):
        shown = json.dumps(problem.message)
        assert "\n" not in problem.message and len(problem.message) < 600, shown
        if problem.path == resultfile.pointer(place):  # jsonschema's "[...] is not of type 'object'"
            assert "is not of type" not in problem.message and problem.message.startswith("expected"), shown
