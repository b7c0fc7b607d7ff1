"""validate reads fio's timestamp from a report's text without walking the parse where the text
shows that the top's is its only one (validation._timestamps): the same values as the walk."""
import json

from hypothesis import given, settings, strategies as st

from fsatlas.results import validation

KEYS = st.sampled_from(["timestamp", "timestamp_ms", "time", "jobs", "x", "é"])
LEAVES = st.one_of(st.integers(-2, 2 ** 40), st.booleans(), st.floats(allow_nan=False, allow_infinity=False),
                   st.sampled_from(["timestamp", '"timestamp"', "\\u0074", "t"]), st.none())
DOCUMENTS = st.recursive(LEAVES, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                         st.dictionaries(KEYS, inner, max_size=4)), max_leaves=12)


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(KEYS, DOCUMENTS, max_size=5), st.booleans(), st.booleans(), st.sampled_from(["", " ", "\n"]))
def test_the_timestamps_read_from_the_text_are_the_walks(document, escaped, twice, space):
    text = json.dumps(document, ensure_ascii=bool(escaped), indent=1 if space else None)
    if escaped:  # the key spelled with an escape (round 27), where the text's look must not be trusted
        text = text.replace('"timestamp"', '"time\\u0073tamp"', 1)
    if twice:  # a key written twice: json keeps the last
        text = '{"timestamp": 7' + (", " + text[1:] if document else "}")
    parsed = json.loads(text)
    assert validation._timestamps(parsed, text) == validation._timestamps(parsed)
