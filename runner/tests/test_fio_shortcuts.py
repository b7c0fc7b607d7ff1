"""The shortcuts of the fio importer's reading (importers/fio.py) change no outcome: a job's
options checked once for every report that records them alike (job_options), and one job's
figures taken as they are rather than summed exactly (_summed)."""
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from fsatlas.errors import UserError
from fsatlas.results import fio_json
from fsatlas.results.importers import fio

NAMES = st.sampled_from(["bs", "rw", "iodepth", "direct", "size", "numjobs", "ioengine", "kb_base", "runtime",
                         "time_based", "fsync", "group_reporting", "rate", "blocksize", "thinktime_spin", "Bad-Name", "ｂｓ"])
VALUES = st.one_of(st.sampled_from(["4k", "4096", "4KiB", "1", "1.0", "true", "randwrite", "libaio", "1000", "１6",
                                    "1_6", "a\nb", "x" * 201, ""]),
                   st.integers(-2, 2 ** 40), st.booleans(), st.floats(allow_nan=False, allow_infinity=False), st.just(0.0),
                   st.none(), st.lists(st.integers(), max_size=2))
OPTIONS = st.one_of(st.none(), st.dictionaries(NAMES, VALUES, max_size=6), st.integers())


def _fresh(described: dict, report: dict):
    """job_options as it reads a job's options for the first time: its outcome, or the refusal's
    place and words."""
    fio._CHECKED.clear()
    return _outcome(described, report)


def _outcome(described: dict, report: dict):
    try:
        return fio.job_options(described, report, "r.json", "/jobs/0")
    except UserError as e:
        return ("refused", e.field, str(e))


def _retyped(options, kind):
    """The options with each value in another type that compares equal to it or spells it alike
    (True and 1 and 1.0, 1 and "1"): what a cache keyed by equal values would confuse."""
    if not isinstance(options, dict):
        return options
    return {name: kind(v) if isinstance(v, (bool, int, float)) and not (kind is int and isinstance(v, float)
                                                                        and not v.is_integer()) else v
            for name, v in options.items()}


def _other_zero(v):
    """A zero of the other sign (0.0 and -0.0 compare and hash alike, but fio's spelling of them
    differs: adversary round 80), anything else as it is."""
    return -float(v) if v == 0 and not isinstance(v, bool) else v


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(OPTIONS, OPTIONS), min_size=1, max_size=4),
       st.sampled_from([int, float, str, bool, _other_zero]))
def test_the_options_of_a_job_are_read_as_the_first_time_whatever_was_read_before(jobs, kind):
    # True, 1, 1.0 and "1" are spelled apart (True -> "true"), and 0.0 and -0.0, so that none may answer for another
    jobs = jobs + [(_retyped(shared, kind), _retyped(own, kind)) for shared, own in jobs]
    fio._CHECKED.clear()
    read_in_turn = [_outcome({"jobname": "j", "job options": own}, {"global options": shared}) for shared, own in jobs]
    assert read_in_turn == [_fresh({"jobname": "j", "job options": own}, {"global options": shared})
                            for shared, own in jobs]


def test_one_refused_option_is_refused_after_the_same_options_passed_without_it():
    fio._CHECKED.clear()
    assert fio.job_options({"job options": {"bs": "4k", "direct": 1}}, {}, "r.json", "/jobs/0")
    with pytest.raises(UserError) as refused:
        fio.job_options({"job options": {"bs": "4k", "direct": "１"}}, {}, "r.json", "/jobs/3")
    assert refused.value.field == "/jobs/3/job options/direct"
    assert fio.job_options({"job options": {"direct": True}}, {}, "r.json", "/jobs/0") != \
        fio.job_options({"job options": {"direct": 1}}, {}, "r.json", "/jobs/0")


FIGURES = st.one_of(st.floats(min_value=0, max_value=1e18, allow_nan=False), st.integers(0, 10 ** 18),
                    st.just(-0.0), st.decimals(0, 10 ** 6, places=3, allow_nan=False).map(str))


@settings(max_examples=300, deadline=None)
@given(st.lists(FIGURES, min_size=1, max_size=4), st.booleans())
def test_a_sum_or_mean_of_figures_is_the_exact_decimals_rounded_once(figures, mean):
    # an independent reading: each figure as the decimal fio printed, summed exactly, rounded once
    exact = sum(Fraction(repr(float(f))) for f in figures)
    expected = float(exact / len(figures)) if mean else float(exact)
    found = fio._summed(figures, len(figures) if mean else 1)
    assert found == expected and str(found) == str(expected)  # -0.0 is the Fraction's 0.0


# texts of the characters the shapes are made of, and of others that resemble them
SHAPED = st.text(alphabet=st.sampled_from(list("0123456789.eE+-") + ["\0", "٣", "x", " ", '"', ":", "１"]), max_size=120)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.one_of(SHAPED, st.sampled_from(["1" * 21, "1" * 20, "1." + "0" * 38, "1." + "0" * 37, "1e-400",
                                                    "1E+308", "2e99", "0" * 21, "." * 40])), max_size=6),
       st.integers(0, 40))
def test_the_look_for_a_literal_no_double_holds_finds_what_the_search_finds(parts, start):
    text = "".join(parts)
    start = min(start, len(text))
    assert fio_json.has_extreme_literal(text, start) == (fio_json._EXTREME_LITERAL.search(text, start) is not None)


NO_DOUBLE = st.sampled_from(["1e-400", "-1e-400", "1e400", "-1E+400", "2e-324", "0." + "0" * 340 + "1"])


@settings(max_examples=100, deadline=None)
@given(NO_DOUBLE, st.lists(st.sampled_from(["note", "job", "opt"]), max_size=4), st.integers(0, 4), st.integers(0, 3))
def test_a_literal_no_double_holds_is_named_at_its_line_not_where_a_string_quotes_it(literal, quoting, before, after):
    """The refusal names the place of the number, whatever strings holding the same text (a note,
    a job name, an escaped quote before it) stand before or after it (adversary round 80)."""
    quoted = [f'  "{name}" : "x\\" {literal} ",' for name in quoting]
    lines = ["{", *quoted, *['  "pad" : 1,'] * before, f'  "ctx" : {literal},', *['  "pad" : 2,'] * after,
             f'  "tail" : "{literal}"', "}"]
    with pytest.raises(UserError) as refused:
        fio_json.parse("\n".join(lines), "r.json")
    number_line = next(i for i, x in enumerate(lines, 1) if x.startswith('  "ctx"'))
    # an underflow is named by its line, one read as infinity by its JSON Pointer
    assert f"at line {number_line};" in str(refused.value) or str(refused.value).startswith("r.json: /ctx: ")
