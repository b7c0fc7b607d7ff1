"""A number no double holds (NaN, Infinity, a literal beyond a double) anywhere in a fio JSON
report is refused in one line naming its JSON Pointer, in a field fio's figures are read from or
not: fio writes none, and what is imported is kept as the published raw output (adversary of
#65, round 74: NaN in disk_util/util, 1e999 in latency_target, 1e400 in timestamp_ms imported)."""
import contextlib
import io
import json

from hypothesis import example, given, settings, strategies as st

from fsatlas.cli import main
from fsatlas.results import resultfile
from fsatlas.results.validation import validate_file
from testutil import SAMPLES, numbers_in

REPORT = (SAMPLES / "fio" / "sweep" / "ext4-iodepth-1.json").read_text()


LEAVES = [parts for parts, _ in numbers_in(json.loads(REPORT))]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(LEAVES), st.sampled_from(["NaN", "Infinity", "-Infinity", "1e400", "-1e999", "1" + "0" * 400 + ".5"]))
@example(("disk_util", 0, "util"), "NaN").via("the adversary's example")
def test_a_number_no_double_holds_anywhere_in_a_report_is_refused_at_its_pointer(tmp_path_factory, parts, literal):
    report = json.loads(REPORT)
    node = report
    for part in parts[:-1]:
        node = node[part]
    node[parts[-1]] = "@@"
    text = json.dumps(report, indent=2).replace('"@@"', literal)
    folder = tmp_path_factory.mktemp("in")
    path = folder / "edited.json"
    path.write_text(text)
    out = folder / "out"
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["import", "fio", str(path), "--filesystem", "ext4", "--out", str(out)])
    message = err.getvalue().strip()
    assert code == 1 and "\n" not in message, message
    assert f"{path}: {resultfile.pointer(parts)}: " in message, message
    assert not (out / "results").exists() or not list((out / "results").iterdir())


def test_an_unedited_report_imports_and_validates(tmp_path):
    path = tmp_path / "fio.json"
    path.write_text(REPORT)
    assert main(["import", "fio", str(path), "--filesystem", "ext4", "--out", str(tmp_path / "out")]) == 0
    (result,) = (tmp_path / "out" / "results").glob("*.json")
    assert [p for p in validate_file(str(result)) if p.severity == "error"] == []
