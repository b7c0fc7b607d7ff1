"""A fio file holding a JSON report and terse lines, in either order, whatever lies between them,
is refused in one line naming the line where the JSON report begins, nothing written (adversary of
#65, round 78: the terse lines were read and the JSON report's jobs passed over without a word;
fio --output-format=terse,json writes both of one run, a concatenation two runs)."""
import re

from hypothesis import HealthCheck, example, given, settings, strategies as st

from fsatlas.cli import main
from testutil import SAMPLES

JSON = sorted(str(p.relative_to(SAMPLES / "fio")) for p in (SAMPLES / "fio").rglob("*.json"))
TERSE = sorted(p.name for p in (SAMPLES / "fio").glob("*terse*.txt"))


def _report_line(text: str) -> int:
    """The number of a fio JSON report's first line ("{" after fio's messages, if any)."""
    return text.count("\n", 0, re.search(r"^[ \t]*\{", text, re.M).start()) + 1


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(report=st.sampled_from(JSON), lines=st.sampled_from(TERSE), terse_first=st.booleans(),
       between=st.sampled_from(["", "\n", "fio: file hash not empty on exit\n", "$ fio --minimal job.fio\n"]),
       count=st.integers(1, 3))
@example(report="two-filesystems/ext4-rep1.json", lines="fio-3.33-terse-v5.txt", terse_first=False, between="", count=1)
def test_a_json_report_beside_terse_lines_is_refused_at_its_first_line(tmp_path_factory, capsys, report, lines,
                                                                        terse_first, between, count):
    """The example: the adversary's (the report, then the v5 sample's first line)."""
    report_text = (SAMPLES / "fio" / report).read_text()
    terse_text = "".join((SAMPLES / "fio" / lines).read_text().splitlines(keepends=True)[:count])
    first, second = (terse_text, report_text) if terse_first else (report_text, terse_text)
    first = first if first.endswith("\n") else first + "\n"
    folder = tmp_path_factory.mktemp("mixed")
    (folder / "in.txt").write_text(first + between + second)
    capsys.readouterr()
    code = main(["import", "fio", str(folder / "in.txt"), "--filesystem", "ext4", "--out", str(folder / "out")])
    err = [e for e in capsys.readouterr().err.splitlines() if not e.startswith(("note:", "warning:"))]
    line = (first + between).count("\n") + _report_line(report_text) if terse_first else _report_line(report_text)
    assert code == 1 and len(err) == 1, err
    assert err[0].startswith(f"fsatlas import: {folder / 'in.txt'}: line {line}: a JSON report beside terse lines"), err
    assert not (folder / "out" / "results").exists() or not any((folder / "out" / "results").iterdir())
