"""Text screened once, at the door: control characters but tab and newline, bidirectional marks,
lone surrogates and the noncharacters U+FFFE and U+FFFF are refused in every string with a located line (no traceback, even where
the message quotes them), and two result ids may not differ only in case."""
import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from fsatlas.cli import main
from fsatlas.results import resultfile

FIXTURE = Path(__file__).parent / "fixtures" / "results" / "fixture-valid.json"


@pytest.mark.parametrize("field,value,code", [
    ("notes", "x\udc80y", "lone surrogate U+DC80"),
    ("cpu_model", "Xeon\udc80", "lone surrogate U+DC80"),
    ("notes", "a\x00b", "control character U+0000"),
    ("notes", "a\x1b[31mred", "control character U+001B"),
    ("submitter", "a\u200fb", "bidirectional mark U+200F"),
    ("submitter", "a\u061cb", "bidirectional mark U+061C"),
    ("notes", "a\u202eb", "bidirectional mark U+202E"),
    ("machine_name", "Box \ufffe one", "noncharacter U+FFFE"),  # every bar's <title> says it: XML has no U+FFFE
    ("machine_name", "Box \uffff", "noncharacter U+FFFF"),
])
def test_unsafe_text_is_one_located_line(tmp_path, capsys, field, value, code):
    doc = json.loads(FIXTURE.read_text())
    (doc["system"] if field in ("cpu_model", "machine_name") else doc)[field] = value
    path = tmp_path / "results" / "fixture-valid.json"
    path.parent.mkdir()
    path.write_text(json.dumps(doc))  # json writes the surrogate as the escape \\udc80
    assert main(["validate", "--no-cache", str(path.parent)]) == 1
    err = capsys.readouterr().err
    where = f"/system/{field}" if field in ("cpu_model", "machine_name") else f"/{field}"
    assert f"{where}: expected text without control characters" in err and code in err
    assert "Traceback" not in err


def test_tab_and_newline_stay_allowed(tmp_path, capsys):
    doc = json.loads(FIXTURE.read_text())
    doc["notes"] = "first line\n\tindented second"
    path = tmp_path / "results" / "fixture-valid.json"
    path.parent.mkdir()
    path.write_text(json.dumps(doc))
    shutil.copytree(FIXTURE.parents[1] / "raw", tmp_path / "raw")
    assert main(["validate", "--no-cache", str(path)]) == 0


def test_two_ids_that_differ_only_in_case_are_refused(tmp_path, capsys):
    folder = tmp_path / "results"
    folder.mkdir()
    for rid in ("CaseID", "caseid"):
        doc = json.loads(FIXTURE.read_text())
        doc["id"] = rid
        (folder / f"{rid}.json").write_text(json.dumps(doc))
    assert main(["validate", "--no-cache", str(folder)]) == 1
    err = capsys.readouterr().err
    assert "caseid.json" in err and "differs from 'CaseID' only in case" in err


def _string_places(node, parts=()):
    """(JSON Pointer parts, string) of every string value in a document."""
    for key, item in (node.items() if isinstance(node, dict) else enumerate(node)):
        if isinstance(item, str):
            yield (*parts, key), item
        elif isinstance(item, (dict, list)):
            yield from _string_places(item, (*parts, key))


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_the_words_hugo_acts_on_are_refused_in_any_string_where_they_stand(data):
    """Hugo replaces HAHAHUGOSHORTCODE…HBHB in an article's content, shortcode output included,
    with another shortcode's output: a result's text in an article's table (a skipped cell's
    reason) became markup, or looped Hugo (#65 round 48); and cuts a page with <!--more--> at
    HUGOMORE42 (round 49). Any string of a result that holds either, wherever in the string, is
    refused at its JSON Pointer, naming it; the same text with the word broken is not."""
    doc = json.loads(FIXTURE.read_text())
    places = list(_string_places(doc))
    parts, text = data.draw(st.sampled_from(places))
    at = data.draw(st.integers(0, len(text)))
    node = doc
    for part in parts[:-1]:
        node = node[part]
    word = data.draw(st.sampled_from(resultfile.HUGO_MARKERS))
    node[parts[-1]] = text[:at] + word + data.draw(st.sampled_from(["s0HBHB", "", "12HBHB"])) + text[at:]
    found = dict(resultfile.value_problems(doc))
    assert f"found {word} at character {at + 1}" in found[resultfile.pointer(parts)]
    node[parts[-1]] = text[:at] + word[:4] + " " + word[4:] + text[at:]
    assert resultfile.pointer(parts) not in dict(resultfile.value_problems(doc))


def test_a_reason_holding_hugos_placeholder_is_one_located_line(tmp_path, capsys):
    doc = json.loads(FIXTURE.read_text())
    skipped = next(i for i, c in enumerate(doc["cells"]) if c["status"] == "skipped")
    doc["cells"][skipped]["reason"] = "no jfs HAHAHUGOSHORTCODEs1HBHB here"
    path = tmp_path / "results" / "fixture-valid.json"
    path.parent.mkdir()
    path.write_text(json.dumps(doc))
    assert main(["validate", "--no-cache", str(path.parent)]) == 1
    err = capsys.readouterr().err
    assert f"/cells/{skipped}/reason: expected text without HAHAHUGOSHORTCODE or HUGOMORE42" in err
    assert "found HAHAHUGOSHORTCODE at character 8" in err and "Traceback" not in err
