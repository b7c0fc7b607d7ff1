"""fsatlas import pts: a Phoronix Test Suite result file becomes one result per system, every run
of every test a sample, validate recomputing them from the kept file. The expected figures are
read off the sample's own RawString text (written per PTS's result-file schema; SOURCES.md)."""
import json
import tarfile

import pytest

from fsatlas.cli import main
from fsatlas.results.validation import validate_file
from testutil import SAMPLES, write_json
from fsatlas.results.resultfile import readable  # a result file in the read form (schema 2 stores no summaries)

PTS = SAMPLES / "pts" / "schema-two-systems.xml"


def _import(tmp_path, capsys, *extra, source=PTS):
    out = tmp_path / "out"
    assert main(["import", "pts", str(source), "--out", str(out), *extra]) == 0
    paths = capsys.readouterr().out.split()
    return out, [readable(json.loads(open(p).read())) for p in paths], paths


def test_one_result_per_system_with_every_run(tmp_path, capsys):
    out, (ext4, xfs), paths = _import(tmp_path, capsys)
    for path in paths:
        assert [p for p in validate_file(path) if p.severity == "error"] == []
    # the disk PTS names is the storage; the filesystem measured is the cells' (no host under it)
    assert ext4["target"] == {"kind": "directory", "device_model": "1000GB Samsung SSD 970 EVO Plus 1TB"}
    assert {c["filesystem"] for c in xfs["cells"]} == {"xfs"}
    system = ext4["system"]
    assert system["recorded"] == "tool"  # PTS's own Hardware and Software lines
    assert ext4["measured"] == {"time": "2021-03-02T09:12:44", "utc": False, "from": "PTS TimeStamp"}
    assert xfs["measured"]["time"] == "2021-03-02T10:02:13"
    assert system["cpu_model"] == "AMD Ryzen 9 3950X 16-Core @ 3.50GHz"
    assert system["cpu_count"] == 32  # 16 Cores / 32 Threads
    assert system["memory_bytes"] == 2 * 16384 * 2**20  # 2 x 16384 MB
    assert (system["kernel"], system["arch"], system["os"]) == ("5.4.0-47-generic", "x86_64", "Ubuntu 20.04")
    assert system["pts_timestamp"] == "2021-03-02 09:12:44" and ext4["tool"]["pts"] == "10.8.4"
    cells = {c["workload"]: c for c in ext4["cells"]}
    # the twin results (MB/s and IOPS, one description) are one cell's two metrics, MB = 10^6 bytes
    rand = cells["rand-read-4k"]["metrics"]
    assert rand["throughput"]["samples"] == [355e6, 358e6, 355e6]
    assert rand["iops"]["samples"] == [90880, 91648, 90871]
    assert cells["seq-write"]["metrics"]["throughput"]["samples"] == [1890e6, 1902e6, 1885e6]
    assert cells["pts-fio"]["parameters"]["pts_options"].startswith("Type: Sequential Read - Engine: Linux AIO - Direct: No")
    assert cells["pts-fs-mark"]["metrics"]["files_per_s"]["samples"] == [482.1, 479.5, 484.0]
    sqlite = cells["pts-sqlite"]["metrics"]["seconds"]
    assert sqlite["samples"] == [9.81, 9.77, 9.86] and sqlite["better"] == "lower"
    assert cells["pts-postmark"]["metrics"]["transactions_per_s"]["samples"] == [5847, 5952, 5812]
    # a scale fsatlas has no unit for is kept in PTS's own: <Scale>Final Score</Scale>, RawString 1510211
    blogbench = cells["pts-blogbench"]
    assert blogbench["status"] == "ok" and blogbench["metrics"]["pts_final_score"]["samples"] == [1510211]
    score = blogbench["metrics"]["pts_final_score"]
    assert (score["unit"], score["pts_scale"], score["better"]) == ("pts", "Final Score", "higher")
    postmark_xfs = next(c for c in xfs["cells"] if c["workload"] == "pts-postmark")
    assert postmark_xfs["status"] == "failed" and "every run failed" in postmark_xfs["reason"]
    assert len(xfs["cells"]) == 6  # xfs ran no blogbench


def test_the_kept_file_has_no_user_name_and_a_doubled_figure_is_refused(tmp_path, capsys):
    out, (ext4, _), paths = _import(tmp_path, capsys)
    with tarfile.open(out / "raw" / f"{ext4['id']}.tar.gz") as bundle:
        (member,) = [m for m in bundle.getmembers() if m.isfile()]
        kept = bundle.extractfile(member).read().decode()
    assert "alice" not in kept and "<User>redacted</User>" in kept and "<RawString>355:358:355</RawString>" in kept
    doc = readable(json.loads(open(paths[0]).read()))
    metric = next(c for c in doc["cells"] if c["workload"] == "pts-sqlite")["metrics"]["seconds"]
    metric["samples"][1] *= 2
    write_json(paths[0], doc)
    problems = [p for p in validate_file(paths[0]) if p.severity == "error"]
    assert any("recomputed from" in p.message and "/samples/1" in p.path for p in problems)


def test_filesystem_given_on_the_command_line_wins(tmp_path, capsys):
    _, results, _ = _import(tmp_path, capsys, "--filesystem", "btrfs")
    assert all(c["filesystem"] == "btrfs" for r in results for c in r["cells"])


@pytest.mark.parametrize("name,text,words", [
    ("bomb.xml", '<?xml version="1.0"?><!DOCTYPE p [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>'
                 "<PhoronixTestSuite><Result>&b;</Result></PhoronixTestSuite>", "refused XML"),
    ("external.xml", '<?xml version="1.0"?><!DOCTYPE p [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
                     "<PhoronixTestSuite><Result>&x;</Result></PhoronixTestSuite>", "refused XML"),
    ("nosystem.xml", "<PhoronixTestSuite><Result><Identifier>pts/x-1.0.0</Identifier><Scale>MB/s</Scale>"
                     "<Proportion>HIB</Proportion><Data><Entry><Identifier>a</Identifier><Value>1</Value>"
                     "<RawString>1:2</RawString></Entry></Data></Result></PhoronixTestSuite>", "no <System> element"),
    ("notanumber.xml", PTS.read_text().replace("9.81:9.77:9.86", "9.81:fast:9.86"), "not a number"),
    ("nofs.xml", PTS.read_text().replace("File-System: ext4, ", ""), "File-System"),
    ("broken.xml", "<PhoronixTestSuite><Result>", "not well-formed XML"),
    # a result it cannot map is refused by name, not dropped: no proportion, or a scale of markup
    ("noproportion.xml", PTS.read_text().replace("<Proportion>LIB</Proportion>", "<Proportion></Proportion>", 1),
     "pts/sqlite"),
    ("markupscale.xml", PTS.read_text().replace("<Scale>Final Score</Scale>", "<Scale>&lt;b&gt;Score</Scale>"),
     "pts/blogbench-1.1.0 'Test: Read'"),
])
def test_a_file_it_cannot_read_is_one_located_line_and_nothing_written(tmp_path, capsys, name, text, words):
    source = tmp_path / name
    source.write_text(text)
    out = tmp_path / "out"
    assert main(["import", "pts", str(source), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and name in err and words in err, err
    assert not out.exists() or not any(out.rglob("*.*"))


@pytest.mark.parametrize("encoding, words", [("ISO-8859-1", "Ubuntu 20.04 été"), ("windows-1252", "Debian “bookworm” €"),
                                             ("ISO-8859-15", "Fedora Œuvre €"), ("UTF-8", "Arch 日本")])
def test_a_file_in_the_encoding_it_declares_is_read_in_it(tmp_path, capsys, encoding, words):
    """The rule (round 58): a PTS file is read in the encoding its XML declaration names (its é
    read as UTF-8 became two replacement characters in the result's os), and the result
    validates against the kept file."""
    text = PTS.read_text().replace('<?xml version="1.0"?>', f'<?xml version="1.0" encoding="{encoding}"?>', 1)
    source = tmp_path / "declared.xml"
    source.write_bytes(text.replace("OS: Ubuntu 20.04", f"OS: {words}").encode(encoding))
    out, results, paths = _import(tmp_path, capsys, source=source)
    assert {r["system"]["os"] for r in results} == {words}
    assert all(not [p for p in validate_file(str(p)) if p.severity == "error"] for p in paths)


def test_any_encoding_a_declaration_names_is_read_or_left_never_a_crash(tmp_path, capsys):
    """The rule (round 59): whatever encoding an XML declaration names, every name Python knows
    (hex, base64, undefined, idna, EBCDIC...) and some it does not, the text is read (in it where
    it is a text encoding reading ASCII as ASCII, else as UTF-8), never an exception: validate
    reads contributed bundles through the same function. The import then passes or refuses in one line."""
    import encodings.aliases
    from fsatlas.results import importers
    names = sorted(set(encodings.aliases.aliases) | set(encodings.aliases.aliases.values())) + ["nonsense-9"]
    body = PTS.read_bytes().replace(b'<?xml version="1.0"?>', b"", 1)
    for name in names:
        doc = b'<?xml version="1.0" encoding="' + name.encode() + b'"?>' + body
        assert "<PhoronixTestSuite>" in importers.text_of(doc, "x.xml") or importers.declared_encoding(doc), name
    for name in ("hex", "base64", "undefined", "idna", "cp037"):
        source = tmp_path / f"{name}.xml"
        source.write_bytes(b'<?xml version="1.0" encoding="' + name.encode() + b'"?>' + body)
        code = main(["import", "pts", str(source), "--out", str(tmp_path / "out")])
        err = capsys.readouterr().err
        assert code in (0, 1) and "Traceback" not in err and (code == 0 or err.count("\n") == 1), (name, err)
