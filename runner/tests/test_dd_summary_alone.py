"""dd's summary line on its own, as people paste it, imports (it holds every figure needed) and
validate recomputes it; a text that is not all summaries is still no dd output."""
import json

import pytest

from fsatlas.cli import main
from fsatlas.results.validation import validate_file
from fsatlas.results.resultfile import readable  # a result file in the read form (schema 2 stores no summaries)


@pytest.mark.parametrize("line,size,seconds,other", [
    ("3221225472 bytes (3.2 GB, 3.0 GiB) copied, 135.213 s, 23.8 MB/s", 3221225472, 135.213, ("135.213", "136.5")),
    ("3221225472 Bytes (3,2 GB, 3,0 GiB) kopiert, 135,213 s, 23,8 MB/s", 3221225472, 135.213, ("135,213", "136,5")),
    ("1048576 字节 (1.0 MB, 1.0 MiB) 已复制，0.05 s，21.0 MB/s", 1048576, 0.05, ("0.05", "136.5")),
    ("536870912 bytes transferred in 4.250000 secs (126322567 bytes/sec)", 536870912, 4.25, ("4.250000", "136.5")),
])
def test_the_summary_line_alone_imports_and_validates(tmp_path, capsys, line, size, seconds, other):
    source = tmp_path / "dd.txt"
    # two runs pasted one after the other (the same line twice is one run twice: test_runs_imported_once)
    source.write_text(line + "\n" + line.replace(*other) + "\n")
    out = tmp_path / "out"
    assert main(["import", "dd", str(source), "--filesystem", "ext4", "--out", str(out)]) == 0
    path = capsys.readouterr().out.strip()
    assert [p for p in validate_file(path) if p.severity == "error"] == []
    (cell,) = readable(json.loads(open(path).read()))["cells"]
    assert cell["metrics"]["throughput"]["samples"] == [size / seconds, size / 136.5]
    assert cell["parameters"]["bytes"] == size


def test_a_summary_beside_other_text_is_not_taken_for_dd_output(tmp_path, capsys):
    source = tmp_path / "notes.txt"
    source.write_text("my disk was slow today\n3221225472 bytes (3.2 GB, 3.0 GiB) copied, 135.213 s, 23.8 MB/s\n")
    assert main(["import", "dd", str(source), "--filesystem", "ext4", "--out", str(tmp_path / "out")]) == 1
    assert "no dd summary line" in capsys.readouterr().err


@pytest.mark.parametrize("line", ["1048576 bytes (1.0 MB) copied, -2.5 s, -429 MB/s",
                                  "1048576 bytes (1.0 MB) copied, 12.3456 ms, 1.4 GB/s",
                                  "1048576 bytes (1.0 MB) copied, 1e999 s, 1.4 GB/s",
                                  "１０４８５７６ bytes (1.0 MB) copied, 2.5 s, 429 MB/s"])
def test_a_summary_no_dd_writes_is_refused_in_one_line(tmp_path, capsys, line):
    """The rule (rounds 58, 59): a time below zero, in another unit than the second, or beyond any
    run, or figures in other digits than ASCII's, are no dd summary: refused in one line, never
    read as another figure (-2.5 s was 2.5 s, 12.3 ms was 12.3 s)."""
    source = tmp_path / "dd.txt"
    source.write_text(f"1+0 records in\n1+0 records out\n{line}\n")
    assert main(["import", "dd", str(source), "--filesystem", "ext4", "--out", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(source) in err
