"""fsatlas export and results.export.frame(): every sample of the committed results as one tidy
row, through Parquet, CSV and JSON Lines, filtered by --where."""
import copy
import csv
import functools
import io
import json
import os
import re
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.csv as pcsv
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from fsatlas.cli import main
from fsatlas.errors import UserError
from fsatlas.results import export
from fsatlas.results.resultfile import readable  # a result file in the read form (schema 2 stores no summaries)

RESULTS = Path(__file__).resolve().parents[2] / "data" / "results"


def _samples_by_hand(where=lambda cell: True):
    """Counted from the result files themselves, not through the exporter."""
    total = 0
    for path in RESULTS.glob("*.json"):
        for cell in readable(json.loads(path.read_text()))["cells"]:
            if cell["status"] == "ok" and where(cell):
                total += sum(len(m["samples"]) for m in cell["metrics"].values())
    return total


def test_one_row_per_sample_and_parquet_keeps_the_dtypes(tmp_path):
    df = export.frame(RESULTS)
    assert len(df) == _samples_by_hand() > 0
    assert list(df.columns) == list(export.COLUMNS)
    assert df.groupby(["result", "cell", "metric"])["repetition"].max().min() >= 1
    out = tmp_path / "all.parquet"
    assert main(["export", str(RESULTS), "--out", str(out)]) == 0
    back = pd.read_parquet(out)
    assert len(back) == len(df) and dict(back.dtypes) == dict(df.dtypes)
    pd.testing.assert_frame_equal(back, df)


def test_where_keeps_only_the_rows_asked_for(tmp_path):
    out = tmp_path / "ext4.csv"
    assert main(["export", str(RESULTS), "--out", str(out), "--where", "filesystem=ext4"]) == 0
    df = pd.read_csv(out)
    assert set(df["filesystem"]) == {"ext4"} and len(df) == _samples_by_hand(lambda c: c["filesystem"] == "ext4")
    both = export.frame(RESULTS, ["filesystem=ext4,xfs", "metric!=cpu_usr_pct,cpu_sys_pct"])
    assert set(both["filesystem"]) == {"ext4", "xfs"} and not set(both["metric"]) & {"cpu_usr_pct", "cpu_sys_pct"}


def test_json_lines_hold_one_sample_a_line(tmp_path):
    out = tmp_path / "s.jsonl"
    assert main(["export", str(RESULTS), "--out", str(out), "--where", "metric=throughput"]) == 0
    lines = out.read_text().splitlines()
    by_hand = sum(len(c["metrics"]["throughput"]["samples"]) for path in RESULTS.glob("*.json")
                  for c in readable(json.loads(path.read_text()))["cells"] if c["status"] == "ok" and "throughput" in c["metrics"])
    assert len(lines) == by_hand > 0
    rows = [json.loads(line) for line in lines]
    assert {r["metric"] for r in rows} == {"throughput"} and all(r["unit"] == "bytes/s" for r in rows)


@pytest.mark.parametrize("slice_rows", [997, 10**9])
def test_json_lines_written_a_slice_at_a_time_are_the_parquet_rows(tmp_path, monkeypatch, slice_rows):
    """The rule: JSON Lines hold the rows the Parquet file holds, in its order, however many rows
    are turned into Python objects at once (round 55: the whole batch at once, 1.3 GB)."""
    monkeypatch.setattr(export, "JSON_SLICE_ROWS", slice_rows)
    monkeypatch.setattr(export, "BATCH_ROWS", 4000)  # several batches, each of several slices
    lines, table = tmp_path / "s.jsonl", tmp_path / "s.parquet"
    assert main(["export", str(RESULTS), "--out", str(lines)]) == 0
    assert main(["export", str(RESULTS), "--out", str(table)]) == 0
    got = [json.loads(line) for line in lines.read_text().splitlines()]
    want = pd.read_parquet(table).drop(columns="created")
    assert len(got) == len(want) > 4000
    # the same values (a missing one null), each float exact: JSON Lines hold the shortest exact text
    assert [{k: r[k] for k in want.columns} for r in got] == \
        want.astype(object).where(want.notna(), None).to_dict("records")


def test_a_bad_where_is_one_line_naming_it(tmp_path, capsys):
    assert main(["export", str(RESULTS), "--out", str(tmp_path / "x.parquet"), "--where", "colour=red"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--where 'colour=red'" in err and "filesystem" in err
    assert not list(tmp_path.iterdir())  # nothing half-written


# Issue 61, item 4: a CSV cell a spreadsheet would run as a formula is written with an apostrophe
# before it, from the command line as from the explorer; numbers stay numbers.
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)
# text beside the named examples: formula characters after any run of white space and controls
LEADING = st.builds(lambda lead, sign, rest: lead + sign + rest,
                    st.text(st.characters(whitelist_categories=("Cc", "Cf", "Zs", "Zl", "Zp")), max_size=4),
                    st.sampled_from("=+-@abc1 \uff1d\uff0b\uff0d\uff20\ufe66\u207a\u2212\u2795"), TEXT)


def formula_like(text: str) -> bool:
    """An independent statement of the rule (issue 61, third round): leave out every character
    of categories Cc, Cf, Zs, Zl and Zp; the text is a formula's when it starts with tab or CR,
    or when what is left starts with a character whose NFKC form starts with = + - or @."""
    import unicodedata
    rest = [c for c in text if unicodedata.category(c) not in ("Cc", "Cf", "Zs", "Zl", "Zp")]
    return text[:1] in ("\t", "\r") or (rest != [] and unicodedata.normalize("NFKC", rest[0])[:1] in "=+-@")


@settings(max_examples=300)
@given(texts=st.lists(st.one_of(TEXT, LEADING), min_size=1, max_size=8),
       numbers=st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=8, max_size=8))
def test_any_text_reads_back_through_pythons_csv_module_neutralized(texts, numbers):
    table = pa.table({"text": pa.array(texts, pa.string()), "value": pa.array(numbers[:len(texts)], pa.float64())})
    sink = io.BytesIO()
    with pcsv.CSVWriter(sink, table.schema) as writer:
        writer.write_table(export.safe_for_spreadsheets(table))
    rows = list(csv.reader(io.StringIO(sink.getvalue().decode("utf-8"), newline="")))
    assert rows[0] == ["text", "value"] and len(rows) == len(texts) + 1
    for text, number, (cell, value) in zip(texts, numbers, rows[1:]):
        # the rule, written out here again: a cell starting with = + - @ tab or CR (OWASP), or
        # whose first character that is neither white space nor a control character is = + - @
        # (issue 62: ' =HYPERLINK(...)', '\n=1+1'), starts with an apostrophe instead; the rest
        # of it is the text unchanged
        assert cell == ("'" + text if formula_like(text) else text)
        assert float(value) == number and not value.startswith("'")  # -1.5 stays the number -1.5


def test_the_explorers_csv_rule_is_the_same(tmp_path):
    """static/js/explorer.js guards its CSV download with export.formula_pattern("js"), and Node
    running it decides as pyarrow running formula_pattern("re2") does, over text beside the rule's
    edges (a differential test: two regular expression engines, one rule)."""
    import random
    import subprocess
    js = (Path(__file__).resolve().parents[2] / "static" / "js" / "explorer.js").read_text()
    assert f'typeof v === "string" && /{export.formula_pattern("js")}/u.test(text)' in js
    rng = random.Random(62)
    alphabet = "=+-@a1 '\t\r\n\x00\x1f\x7f\x85\xa0\u1680\u2000\u200b\u200c\u2028\u202f\u205f\u3000\ufeff\u00e9" \
        "\u00ad\u2060\u180e\uff1d\uff0b\uff0d\uff20\ufe66\u2212\U000e0001\U0001d173"
    texts = [" =HYPERLINK(\"x\")", "\n=1+1", "", "a=1"] + \
        ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 5))) for _ in range(3000)]
    script = ("const re = /" + export.formula_pattern("js") + "/u; let s = '';"
              "process.stdin.on('data', d => s += d).on('end', () =>"
              " console.log(JSON.stringify(JSON.parse(s).map(t => re.test(t)))));")
    node = subprocess.run(["node", "-e", script], input=json.dumps(texts), capture_output=True, text=True, check=True)
    table = export.safe_for_spreadsheets(pa.table({"t": pa.array(texts, pa.string())}))
    python = [q != t for q, t in zip(table.column("t").to_pylist(), texts)]
    assert json.loads(node.stdout) == python == [formula_like(t) for t in texts]
    assert python[:4] == [True, True, False, False]


@pytest.mark.parametrize("lead", ["\u00ad", "\u2060", "\u180e", "\u200b\u00ad", "\U000e0001", ""])
@pytest.mark.parametrize("sign", ["\uff1d", "\uff0b", "\uff0d", "\uff20", "="])
def test_issue_61s_invisible_and_fullwidth_formula_starts_are_quoted(lead, sign):
    """Issue 61, third round: a soft hyphen, word joiner or Mongolian vowel separator before a
    formula, and fullwidth ＝ ＋ － ＠, were not neutralized."""
    table = export.safe_for_spreadsheets(pa.table({"t": pa.array([lead + sign + "1+1"], pa.string())}))
    assert table.column("t").to_pylist() == ["'" + lead + sign + "1+1"]


def test_a_formula_in_a_result_field_is_exported_as_text(tmp_path, valid_result):
    valid_result["system"]["cpu_model"] = "=HYPERLINK(\"http://example.invalid\",\"x\")"
    valid_result["system"]["os"] = "-2+3"
    path = tmp_path / "r.json"
    path.write_text(json.dumps(valid_result))
    out = tmp_path / "r.csv"
    assert main(["export", str(path), "--out", str(out)]) == 0
    rows = list(csv.DictReader(out.open(newline="")))
    assert rows and {r["cpu_model"] for r in rows} == {"'" + valid_result["system"]["cpu_model"]}
    assert {r["os"] for r in rows} == {"'-2+3"}
    assert all(float(r["value"]) == float(r["value"]) for r in rows)  # values stay numbers


@pytest.mark.parametrize("name", ["all.csv", "all.parquet", "all.json", "all.jsonl"])
def test_an_export_into_the_folder_it_reads_skips_its_own_output(tmp_path, valid_result, name):
    """Issue 62, item 5: `fsatlas export FOLDER --out FOLDER/all.csv` failed on its own
    temporary file (.tmp-*.fsatlas-tmp, a file not named <id>.json); run again, it would have
    failed on (or, named all.json, read) its own earlier output. Any other stranger in the folder
    is still an error, one line naming it."""
    (tmp_path / "r.json").write_text(json.dumps(valid_result))
    out = tmp_path / name
    for _ in range(2):
        assert main(["export", str(tmp_path), "--out", str(out)]) == 0
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["r.json", name])
    fresh = tmp_path.parent / f"fresh-{name}"
    assert main(["export", str(tmp_path / "r.json"), "--out", str(fresh)]) == 0
    assert out.read_bytes() == fresh.read_bytes()  # the same rows as from the result file alone
    (tmp_path / "notes.txt").write_text("x")
    assert main(["export", str(tmp_path), "--out", str(out)]) == 1


@pytest.mark.parametrize("suffix", ["csv", "CSV", "Csv", "jsonl", "JSONL", "parquet", "PARQUET"])
def test_the_format_follows_the_outs_suffix_in_any_case(tmp_path, suffix):
    """Issue 61, third round: `export --out x.CSV` wrote Parquet."""
    out = tmp_path / f"x.{suffix}"
    assert main(["export", str(RESULTS), "--out", str(out)]) == 0
    head = out.read_bytes()[:4]
    assert (head == b"PAR1") == (suffix.lower() == "parquet")
    if suffix.lower() == "csv":
        assert "filesystem" in next(csv.reader(io.StringIO(out.read_text())))
    elif suffix.lower() == "jsonl":
        json.loads(out.read_text().splitlines()[0])


def test_the_csv_names_each_machine_beside_its_label(tmp_path):
    """Issue 62, third round, item 4: the CSV gave only the hash label. Read back with Python's
    csv module, every row of every committed result names its machine as the site does
    (machines.name() of the result's system), beside the label, in the column after it."""
    from fsatlas.results import machines
    out = tmp_path / "all.csv"
    assert main(["export", str(RESULTS), "--out", str(out)]) == 0
    with out.open(newline="") as f:
        reader = csv.DictReader(f)
        header = reader.fieldnames
        rows = list(reader)
    assert header.index("machine_name") == header.index("machine") + 1
    results = {r["id"]: r for r in (readable(json.loads(p.read_text())) for p in RESULTS.glob("*.json"))}
    assert {row["result"] for row in rows} == set(results) and len(rows) == _samples_by_hand()
    for row in rows:
        result = results[row["result"]]
        assert row["machine_name"] == machines.name(result) and row["machine"] == result["system"]["machine"], row


# what a machine name may hold (validate: no control character but tab and newline, no bidirectional mark)
NAME_LEAD = st.text(st.characters(whitelist_categories=("Cf", "Zs", "Zl", "Zp"), whitelist_characters="\t\n",
                                  blacklist_characters="\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"), max_size=3)
NAME = st.builds(lambda lead, sign, rest: (lead + sign + rest)[:100], NAME_LEAD,
                 st.sampled_from("=+-@abc1 \uff1d\uff0b\uff0d\uff20\ufe66\u207a\u2212\u2795"),
                 st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=20))


@settings(max_examples=15)
@given(NAME)
def test_a_machine_name_is_exported_as_text(tmp_path_factory, name):
    """Any name --machine-name records (the schema: 1-100 characters) reads back as written,
    or with the apostrophe of a neutralized formula (the rule every text column follows)."""
    tmp_path = tmp_path_factory.mktemp("name")
    result = json.loads(sorted(RESULTS.glob("*-quick.json"))[0].read_text())
    result["system"]["machine_name"] = name
    path = tmp_path / "r.json"
    path.write_text(json.dumps(result))
    out = tmp_path / "r.csv"
    assert main(["export", str(path), "--out", str(out), "--where", "metric=throughput"]) == 0
    names = {row["machine_name"] for row in csv.DictReader(out.open(newline="", encoding="utf-8"))}
    assert names == {"'" + name if formula_like(name) else name}


# Round 58: compare, report, article new and export read a result as validate checks it: what
# validate refuses in the document (a private text, a cell twice) none of them reads.
_PRIVATE = ["alice.smith@corp-mail.com", "ssh to 203.0.113.77 first", "AMD EPYC 7763 owned by bob@example.org"]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), edit=st.sampled_from(["private", "cell twice", "none"]))
def test_what_validate_refuses_in_a_result_compare_and_export_refuse(tmp_path_factory, data, edit):
    from fsatlas.results import privacy, validation
    source = data.draw(st.sampled_from(sorted(RESULTS.glob("*.json"))), label="result")
    doc = json.loads(source.read_text())
    if edit == "private":
        texts = [p for p, _ in privacy.strings_in(doc, keys=False)]
        where = data.draw(st.sampled_from(texts), label="field")
        node, parts = doc, where.lstrip("/").split("/")
        for part in parts[:-1]:
            node = node[int(part)] if isinstance(node, list) else node[part]
        last = int(parts[-1]) if isinstance(node, list) else parts[-1]
        node[last] = data.draw(st.sampled_from(_PRIVATE), label="text")
    elif edit == "cell twice":
        doc["cells"].append(copy.deepcopy(doc["cells"][data.draw(st.integers(0, len(doc["cells"]) - 1))]))
    folder = tmp_path_factory.mktemp("contract") / "results"
    folder.mkdir()
    path = folder / source.name
    path.write_text(json.dumps(doc))
    (folder.parent / "raw").mkdir()
    bundle = RESULTS.parent / "raw" / f"{source.stem}.tar.gz"
    (folder.parent / "raw" / bundle.name).write_bytes(bundle.read_bytes())
    # validate's own verdict, its raw bundle beside it: each edit is one it refuses in the document
    refused = [p for p in validation.reviewed(validation.validate_file(str(path))) if p.severity == "error"]
    try:
        validation.load_checked(str(path))
        read = True
    except UserError:
        read = False
    assert read is not bool(refused), refused
    out = folder.parent / "x.csv"
    assert (main(["export", str(path), "--format", "csv", "--out", str(out)]) == 0) is read
    assert out.exists() is read


@functools.lru_cache(maxsize=1)
def _whole_frame():
    return export.frame(RESULTS)  # in the default batches (two for the committed results)


@pytest.mark.parametrize("batch_rows, batch_bytes", [(7, 10**12), (4000, 10**12), (10**9, 200_000)])
def test_batches_cut_anywhere_within_a_result_give_the_rows_of_one_batch(tmp_path, monkeypatch, batch_rows,
                                                                         batch_bytes):
    """The rule (round 58): export's memory is bounded by a batch, even within one result (a batch
    is written between two slices of a metric), and where the batches are cut, by rows or by
    bytes of text (round 59), changes no row: the rows of any such batches are those of one batch
    holding all, in order, and as many as a hand count of the samples."""
    whole = _whole_frame().copy()
    monkeypatch.setattr(export, "BATCH_ROWS", batch_rows)
    monkeypatch.setattr(export, "BATCH_BYTES", batch_bytes)  # or by their text: a slice of a metric at a time
    parts = [t.num_rows for t in export.batches(export.result_files([str(RESULTS)]))]
    cut = export.frame(RESULTS)
    assert len(parts) > 1 and max(parts) < len(whole)  # cut within results: 7 results, more batches
    pd.testing.assert_frame_equal(cut, whole)
    assert len(whole) == _samples_by_hand(lambda c: True)


@pytest.mark.parametrize("summary", ["mean", "median", "stddev", "rsd_pct"])
def test_a_version_1_file_whose_stored_summary_is_not_its_samples_is_refused_by_every_reader(tmp_path, summary):
    """The rule (round 59): a version-1 file stores summaries, which validate checks against the
    samples; compare and export read it only where validate would (one was read with a mean 1.5
    times its samples')."""
    from fsatlas.results import validation
    source = Path(__file__).parent / "fixtures" / "results" / "fixture-valid.json"
    doc = json.loads(source.read_text())
    doc["cells"][0]["metrics"]["throughput"][summary] *= 1.5
    (tmp_path / "results").mkdir()
    path = tmp_path / "results" / source.name
    path.write_text(json.dumps(doc))
    refused = [p for p in validation.validate_file(str(path)) if p.severity == "error" and summary in p.path]
    assert refused
    with pytest.raises(UserError) as e:
        validation.load_checked(str(path))
    assert e.value.field == refused[0].path
    assert main(["export", str(path), "--out", str(tmp_path / "x.csv")]) == 1


@pytest.fixture(scope="module")
def spellings(tmp_path_factory):
    """Ways to name two committed results: their folder, each file, a link to the folder, a file
    through it, a copy of one under its own name and under another (the same bytes)."""
    root = tmp_path_factory.mktemp("spellings")
    base = root / "base"
    base.mkdir()
    for path in SMALL:
        (base / path.name).write_bytes(path.read_bytes())
    (root / "folder-link").symlink_to(base)
    (root / "copies").mkdir()
    (root / "copies" / SMALL[0].name).write_bytes(SMALL[0].read_bytes())
    (root / "copies" / "renamed.json").write_bytes(SMALL[1].read_bytes())
    return [str(base), str(root / "folder-link"), str(root / "copies" / SMALL[0].name),
            str(root / "copies" / "renamed.json"), *(str(base / p.name) for p in SMALL),
            str(root / "folder-link" / SMALL[1].name)]


SMALL = sorted(RESULTS.glob("*.json"), key=lambda p: p.stat().st_size)[:2]


def _hand_count(path) -> int:
    return sum(len(m["samples"]) for cell in readable(json.loads(Path(path).read_text()))["cells"]
               if cell["status"] == "ok" for m in cell["metrics"].values())


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(picks=st.lists(st.integers(0, 20), min_size=1, max_size=6))
def test_each_result_is_exported_once_however_often_it_is_named(spellings, picks):
    """The rule (#65 rounds 60 and 61): export writes each sample once: a result named twice, as
    a file and in its folder, through a link, or as a copy of the same bytes under its own name or
    another, is read once; the rows are a hand count of each result the names reach."""
    paths = [spellings[k % len(spellings)] for k in picks]
    reached = {}
    for path in paths:
        for f in (sorted(Path(path).glob("*.json")) if Path(path).is_dir() else [Path(path)]):
            reached[json.loads(f.read_text())["id"]] = f
    df = export.frame(paths)
    assert sorted(set(df["result"])) == sorted(reached)
    assert len(df) == sum(_hand_count(f) for f in reached.values())


def test_a_file_named_twice_exports_its_samples_once_and_one_id_of_two_contents_is_refused(tmp_path, capsys):
    path = sorted(RESULTS.glob("*.json"))[0]
    out = tmp_path / "twice.csv"
    assert main(["export", str(path), str(path), str(RESULTS), "--out", str(out)]) == 0
    assert sum(1 for _ in open(out)) - 1 == _samples_by_hand()
    other = tmp_path / "other"
    other.mkdir()
    (other / path.name).write_text(path.read_text().replace('"complete":', '"complete" :', 1) + "\n")
    (other / "renamed.json").write_text((other / path.name).read_text())
    for twin in (other / path.name, other / "renamed.json"):  # one id, other bytes: under its name or another
        capsys.readouterr()
        assert main(["export", str(path), str(twin), "--out", str(tmp_path / "x.csv")]) == 1
        assert "with other content" in capsys.readouterr().err and not (tmp_path / "x.csv").exists()
