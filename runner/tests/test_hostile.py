"""Hostile contributions: each case an attacker tried (or a careless file holds) is refused by
`fsatlas validate` and by `fsatlas aggregate` with one located line (the file, the JSON Pointer
or the entry, what was expected), exit status 1 and no traceback; and nothing outside the data
folder is read. The site side (published JSON escaped, the embed page, no dialog in Chromium) is
in tests/site/test_escaping.py."""
import json
import os
import subprocess
import sys

import pytest

from testutil import setting, write_json
from fsatlas.results import resultfile

RID = "fixture-valid"
SECRET = "this-text-lives-outside-the-data-folder"


def _cells(data):
    return data["cells"]


def _raw_ref(value):
    def change(data):
        data["cells"][0]["raw"][0] = value
    return change


def _many_cells(count):
    def change(data):
        data["cells"] = [dict(data["cells"][2], key=f"jfs|-|-|seq-write|n={i}") for i in range(count)]
    return change


# (case, change to the valid result, JSON Pointer named, words of the message)
FIELD_CASES = [
    ("shell injection through the profile", setting(["profile"], "standard; curl x | sh #"), "/profile", "matching"),
    ("shell injection through a cell key", setting(["cells", 0, "key"], "ext4|-|-|seq-write'; rm -rf / #"),
     "/cells/0/key", "matching"),
    ("shell words in a mount option", setting(["cells", 0, "mount_options"], ["noatime;id"]),
     "/cells/0/mount_options/0", "matching"),
    ("a date before the project", setting(["created"], "2000-01-01T00:00:00Z"), "/created", "no earlier than"),
    ("31 February", setting(["created"], "2027-02-31T00:00:00Z"), "/created", "a real date"),
    ("year 0", setting(["created"], "0000-01-01T00:00:00Z"), "/created", "a real date"),
    ("a few hours in the future", None, "/created", "not in the future"),
    ("a sample of 1e308", setting(["cells", 0, "metrics", "throughput", "samples", 0], 1e308),
     "/cells/0/metrics/throughput/samples/0", "between -1e18 and 1e18"),
    ("an integer above 64 bits", setting(["system", "memory_bytes"], 2 ** 70), "/system/memory_bytes", "2^53"),
    ("a right-to-left override left open", setting(["notes"], "fast \u202e!sdrawkcab"), "/notes", "bidirectional"),
    ("a huge key under tool", setting(["tool", "x" * 5000], "1"), "/tool", "a name of at most 50 characters, found 5000"),
    ("5,001 cells", _many_cells(5001), "/cells", "at most 5000 items, found 5001"),
    ("a raw path leaving the folder", _raw_ref("raw/../../../etc/passwd"), "/cells/0/raw/0", "inside raw/"),
    ("a raw path nested 400 deep", _raw_ref("raw/" + "a/" * 240 + "x.json"), "/cells/0/raw/0", "expected a raw file"),
    ("a personal machine label", setting(["system", "machine"], "alice-laptop"), "/system/machine", "private"),
]


def _validate(*argv):
    """fsatlas validate as a reader runs it: a separate process, its output and exit status."""
    return subprocess.run([sys.executable, "-m", "fsatlas.cli", "validate", "--no-cache", *map(str, argv)],
                          capture_output=True, text=True, timeout=120)


def _aggregate(data_dir, tmp_path):
    return subprocess.run([sys.executable, "-m", "fsatlas.cli", "aggregate", "--data", str(data_dir),
                           "--content", str(tmp_path / "build" / "content")],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)


def _refused(done, file, pointer, words):
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if f"{file}: error: {pointer}" in line]
    assert lines and any(words in line for line in lines), done.stderr[-2000:]


@pytest.mark.parametrize("case,change,pointer,words", FIELD_CASES, ids=[c[0] for c in FIELD_CASES])
def test_a_hostile_field_is_refused_in_one_located_line(out_dir, valid_result, case, change, pointer, words):
    if change is None:  # dated by the clock of the test
        import datetime as dt
        soon = dt.datetime.now(dt.timezone.utc) + dt.timedelta(hours=3)
        change = setting(["created"], soon.strftime("%Y-%m-%dT%H:%M:%SZ"))
    change(valid_result)
    file = write_json(out_dir / "results" / f"{RID}.json", valid_result)
    _refused(_validate(out_dir / "results"), file, pointer, words)
    done = _aggregate(out_dir, out_dir.parent)
    assert done.returncode == 1 and "Traceback" not in done.stderr and pointer in done.stderr


def _outside(tmp_path):
    secret = tmp_path / "outside" / "secret.txt"
    secret.parent.mkdir(exist_ok=True)
    secret.write_text(SECRET)
    return secret


# (case, what to put in data/results, the words that name it)
ENTRY_CASES = [
    ("an HTML file", lambda d, s: (d / "evil.html").write_text("<script>alert(1)</script>"), "not named <id>.json"),
    ("a link to a folder", lambda d, s: os.symlink(s.parent, d / "repo"), "a symbolic link"),
    ("a link to a file outside", lambda d, s: os.symlink(s, d / "passwd.json"), "a symbolic link"),
    ("a link to /dev/zero", lambda d, s: os.symlink("/dev/zero", d / "zero.json"), "a symbolic link"),
    ("a folder", lambda d, s: (d / "sub.json").mkdir(), "a folder"),
    ("a pipe", lambda d, s: os.mkfifo(d / "pipe.json"), "a pipe"),
    ("a link loop", lambda d, s: os.symlink(d / "loop.json", d / "loop.json"), "a symbolic link"),
    ("the reserved id index", lambda d, s: (d / "index.json").write_text("{}"), "reserved id 'index'"),
    ("the reserved id index.xml", lambda d, s: (d / "index.xml.json").write_text("{}"), "reserved id"),
    ("the reserved id page", lambda d, s: (d / "page.json").write_text("{}"), "reserved id 'page'"),
    ("the id _index", lambda d, s: (d / "_index.json").write_text("{}"), "not named <id>.json"),
    ("the id ..", lambda d, s: (d / "...json").write_text("{}"), "not named <id>.json"),
    ("a dot file", lambda d, s: (d / ".hidden.json").write_text("{}"), "not named <id>.json"),
]


@pytest.mark.parametrize("case,make,words", ENTRY_CASES, ids=[c[0] for c in ENTRY_CASES])
def test_anything_but_a_result_file_in_results_is_refused_and_never_read(out_dir, tmp_path, case, make, words):
    results = out_dir / "results"
    make(results, _outside(tmp_path))
    done = _validate(results)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    (line,) = [line for line in done.stderr.splitlines() if "expected only result files" in line]
    assert words in line and str(results) in line
    assert SECRET not in done.stdout + done.stderr
    done = _aggregate(out_dir, tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr and words in done.stderr
    assert not (tmp_path / "build" / "static").exists() or \
        SECRET not in "".join(p.read_text(errors="replace") for p in (tmp_path / "build" / "static").rglob("*") if p.is_file())


@pytest.mark.parametrize("case,link_to", [("a link to a file outside", "secret"), ("a link loop", "loop"),
                                          ("a link to /dev/zero", "/dev/zero")])
def test_a_raw_file_that_is_a_link_is_refused_and_not_followed(out_dir, tmp_path, case, link_to):
    raw = out_dir / "raw" / RID / "ext4__-__-__seq-write" / "rep-1.json"
    raw.unlink()
    target = {"secret": _outside(tmp_path), "loop": raw}.get(link_to, link_to)
    os.symlink(target, raw)
    done = _validate(out_dir / "results")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert f"error: /cells/0/raw/0: expected a regular file at raw/{RID}/ext4__-__-__seq-write/rep-1.json, " \
           f"found a symbolic link" in done.stderr
    assert f"symbolic link at raw/{RID}/ext4__-__-__seq-write/rep-1.json" in done.stderr  # the folder's own check
    assert SECRET not in done.stdout + done.stderr


def test_a_device_in_a_raw_folder_is_refused(out_dir):
    os.mkfifo(out_dir / "raw" / RID / "stray")
    done = _validate(out_dir / "results")
    assert done.returncode == 1 and f"expected only folders and regular files in raw/{RID}/, found a pipe" in done.stderr


def test_a_result_file_that_is_a_link_to_dev_zero_is_never_read(out_dir, tmp_path):
    link = tmp_path / "zero.json"
    os.symlink("/dev/zero", link)
    done = _validate(link)
    assert done.returncode == 1 and f"{link}: error: /: expected a regular file, found a symbolic link" in done.stderr


def test_files_above_the_size_limit_are_refused_before_they_are_parsed(tmp_path):
    """The 46 MB file of two million trivial cells that once took all 24 GiB."""
    big = tmp_path / "results" / "big.json"
    big.parent.mkdir()
    cell = b'{"key":"k","status":"skipped","reason":"r"},'
    with open(big, "wb") as f:
        f.write(b'{"schema_version":1,"id":"big","cells":[')
        for _ in range(46 * 2 ** 20 // len(cell) // 4096):
            f.write(cell * 4096)
        f.write(b'{}]}')
    done = _validate(big)
    assert done.returncode == 1
    assert f"{big}: error: /: expected at most {resultfile.MAX_FILE_BYTES} bytes, found more" in done.stderr
    assert _validate("--max-bytes", 1000, tmp_path / "results").returncode == 1


def test_json_nested_100000_deep_is_refused_in_one_line(tmp_path):
    deep = tmp_path / "results" / "deep.json"
    deep.parent.mkdir()
    deep.write_text('{"id":' + "[" * 100_000 + "]" * 100_000 + "}")
    done = _validate(deep)
    assert done.returncode == 1 and "Traceback" not in done.stderr and f"{deep}: error: /: malformed JSON" in done.stderr


def test_at_most_twenty_problems_are_listed_per_file(out_dir, valid_result):
    valid_result["cells"] = [dict(valid_result["cells"][2], key=f"jfs|-|-|seq-write|n={i}", status="bogus")
                             for i in range(30)]
    file = write_json(out_dir / "results" / f"{RID}.json", valid_result)
    done = _validate(file)
    assert done.returncode == 1
    assert len([line for line in done.stderr.splitlines() if ": error: " in line]) == 20
    assert f"{file}: … and 10 more problems" in done.stderr


def test_contributor_text_stays_data_in_every_published_json(out_dir, valid_result, tmp_path):
    """Free text may hold markup (it is shown as text); every JSON file the site publishes has
    it escaped, the result file included, so no page that fetches one can read it as markup."""
    evil = '</script><script>alert(1)</script>&amp;\u2028'
    valid_result["notes"] = evil
    valid_result["submitter"] = evil
    write_json(out_dir / "results" / f"{RID}.json", valid_result)
    done = _aggregate(out_dir, tmp_path)
    assert done.returncode == 0, done.stderr
    published = list((tmp_path / "build" / "static").rglob("*.json"))
    assert any(p.name == f"{RID}.json" and p.parent.name == "results" and p.parent.parent.name == "files"
               for p in published)
    for path in published:
        text = path.read_text()
        assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text, path
    copy = json.loads((tmp_path / "build" / "static" / "files" / "results" / f"{RID}.json").read_text())
    assert copy == valid_result  # the same value, escaped
    page = (tmp_path / "build" / "content" / "results" / f"{RID}.md").read_text()
    assert "</script>" not in page
