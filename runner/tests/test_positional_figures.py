"""A figure written with a nonzero digit that no double holds is refused, not read as 0.0, in the
shared reader (figures.number) and in fio's JSON alike, whichever parser reads the report: written
positionally too, "0.000…0001" with hundreds of zeros, which float(), json and orjson read as 0.0
(adversary of #65, round 74: fio's "usr_cpu" of 340 zeros and a 1 was kept as 0.0; the exponent
forms, 1e-400, are test_figures_screen's)."""
import math
import re

from hypothesis import example, given, settings, strategies as st

from fsatlas.cli import main
from fsatlas.errors import UserError
from fsatlas.results import figures, fio_json
from testutil import SAMPLES


# a figure written positionally with a nonzero digit: 0.000…0d (below the smallest double from
# 324 places on, read as 0.0) or d000…0 (beyond the largest from 309 digits on, read as inf)
_POSITIONAL = st.one_of(
    st.builds(lambda zeros, digits: "0." + "0" * zeros + digits, st.integers(300, 900), st.from_regex(r"\A[1-9][0-9]{0,3}\Z")),
    st.builds(lambda digits, zeros: digits + "0" * zeros, st.from_regex(r"\A[1-9][0-9]{0,3}\Z"), st.integers(290, 700)),
)


def _no_double(literal: str, factor: float = 1.0) -> bool:
    """Whether the literal is no double (0.0 or inf read from it), nor in bytes (IOzone's kB)."""
    value = float(literal)
    return value == 0.0 or not math.isfinite(value * factor)


@settings(max_examples=60, deadline=None)
@given(_POSITIONAL)
@example("0." + "0" * 400 + "1")
def test_a_positional_figure_no_double_holds_is_refused_by_the_shared_reader(literal):
    try:
        got = figures.number(literal)
    except ValueError:
        assert _no_double(literal), literal
        return
    assert not _no_double(literal) and got == float(literal), literal


@settings(max_examples=60, deadline=None)
@given(literal=_POSITIONAL, field=st.sampled_from(["usr_cpu", "sys_cpu", "a"]), lines_before=st.integers(0, 5))
@example(literal="0." + "0" * 340 + "1", field="usr_cpu", lines_before=0)
def test_a_positional_fio_json_number_no_double_holds_is_refused_naming_its_line(literal, field, lines_before):
    """Whichever parser reads the report (orjson for fio's own, json where a literal may leave a
    double), a positional figure that reads as 0.0 from a nonzero digit is refused naming its line;
    one beyond a double (or an integer of more than 20 digits) reads as inf, refused naming its
    JSON Pointer (fio_json._not_finite)."""
    text = "{\n" + "\n" * lines_before + f'"jobs": [], "{field}" : {literal}\n}}'
    value = float(literal)
    try:
        got = fio_json.parse(text, "f.json")[field]
    except UserError as error:  # an integer of more than 20 digits is no figure of fio's either
        assert (value == 0 and f"at line {lines_before + 2}" in str(error)
                or (math.isinf(value) or "." not in literal) and str(error).startswith(f"f.json: /{field}: ")), (literal, error)
        return
    assert value != 0 and (got == value), literal


def test_the_adversary_s_fio_report_with_usr_cpu_of_340_zeros_is_refused(tmp_path, capsys):
    text = (SAMPLES / "fio" / "sweep" / "ext4-iodepth-1.json").read_text()
    edited = re.sub(r'("usr_cpu" : )[0-9.]+', r"\g<1>0." + "0" * 340 + "1", text, count=1)
    line = edited[:edited.index('"usr_cpu"')].count("\n") + 1
    (tmp_path / "in.json").write_text(edited)
    capsys.readouterr()
    assert main(["import", "fio", str(tmp_path / "in.json"), "--filesystem", "ext4", "--out", str(tmp_path / "o")]) == 1
    err = capsys.readouterr().err
    assert f"at line {line}" in err and len(err.strip().splitlines()) == 1 and not (tmp_path / "o").exists(), err
