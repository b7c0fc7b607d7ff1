"""Every file a command writes goes through outfile.replacing: it replaces only a regular file or
nothing; a device, FIFO, directory or symbolic link named as the target is refused in one line
and left as it was; `-` is standard output; a missing, unwritable or odd path is one line, never
a traceback, and no temporary file is left (issue 61, item 3)."""
import datetime as dt
import random
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from fsatlas import outfile
from fsatlas.cli import main
from fsatlas.errors import UserError

REPO = Path(__file__).resolve().parents[2]
RESULTS = REPO / "data" / "results"
QUICK = sorted((REPO / "data" / "results").glob("*quick*.json"))


def _node(kind: str, path: Path, outside: Path) -> None:
    """Makes an odd target: a character device made with mknod here (never /dev/null itself), a
    FIFO, a symbolic link to a file outside, a directory."""
    if kind == "chardev":
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # the numbers of /dev/null, in a temp folder
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "symlink":
        os.symlink(outside, path)
    elif kind == "directory":
        path.mkdir()


def _state(path: Path):
    st_ = os.lstat(path)
    return stat.S_IFMT(st_.st_mode), st_.st_ino, st_.st_rdev


@contextmanager
def _immutable(folder: Path):
    """folder made immutable (chattr +i: even root cannot add a file to it), and made mutable again."""
    subprocess.run(["chattr", "+i", str(folder)], check=True)
    try:
        yield folder
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)


COMMANDS = {  # a command's argv writing to the target
    "export": lambda out: ["export", str(QUICK[0]), "--out", str(out), "--format", "csv"],
    "report": lambda out: ["report", str(QUICK[0]), str(QUICK[1]), "--out", str(out), "--no-chart"],
}


def _one_line(capsys, words: str, target) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert str(target) in err and words in err, err
    return err


def _no_temporary_files(folder: Path):
    left = [p.name for p in folder.iterdir() if ".tmp" in p.name or "fsatlas-tmp" in p.name]
    assert not left, left


@pytest.mark.root
@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("kind", ["chardev", "fifo", "symlink", "directory"])
def test_an_odd_target_is_refused_in_one_line_and_left_as_it_was(tmp_path, capsys, command, kind):
    outside = tmp_path / "outside.txt"
    outside.write_text("keep me")
    target = tmp_path / "target.out"
    _node(kind, target, outside)
    before = _state(target)
    assert main(COMMANDS[command](target)) == 1
    words = {"chardev": "a character device", "fifo": "a FIFO", "symlink": "a symbolic link",
             "directory": "a directory"}[kind]
    _one_line(capsys, words, target)
    assert _state(target) == before and outside.read_text() == "keep me"
    _no_temporary_files(tmp_path)


@pytest.mark.root
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_missing_unwritable_and_file_as_folder_are_one_line(tmp_path, capsys, command):
    made = tmp_path / "new" / "deeper" / "out.txt"
    assert main(COMMANDS[command](made)) == 0 and made.is_file()  # a missing folder is made
    capsys.readouterr()
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    assert main(COMMANDS[command](blocker / "out.txt")) == 1
    _one_line(capsys, "", blocker)
    locked = tmp_path / "locked"
    locked.mkdir()
    with _immutable(locked):
        assert main(COMMANDS[command](locked / "out.txt")) == 1
        _one_line(capsys, "cannot write", locked / "out.txt")
        assert main(COMMANDS[command](locked / "sub" / "out.txt")) == 1
        _one_line(capsys, "cannot make the folder", locked / "sub")
    assert not list(locked.iterdir())


def test_a_dash_writes_to_standard_output(tmp_path, capfd, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["export", str(QUICK[0]), "--out", "-", "--format", "csv"]) == 0
    out, err = capfd.readouterr()
    assert out.startswith('"result","created",') and "standard output" in err
    assert main(["report", str(QUICK[0]), str(QUICK[1]), "--out", "-", "--no-chart"]) == 0
    assert capfd.readouterr().out.startswith("#")
    assert not list(tmp_path.iterdir())


@pytest.mark.root
def test_import_refuses_an_odd_target_before_it_moves_anything(tmp_path, capsys, monkeypatch):
    """A result landing on a FIFO is refused with out unchanged (its bundle not moved either),
    and --out or its results/ being a file is one line."""
    frozen = dt.datetime.now(dt.timezone.utc)

    class Frozen(dt.datetime):  # the same id twice: the result's name is made from the clock
        @classmethod
        def now(cls, tz=None):
            return frozen
    monkeypatch.setattr(dt, "datetime", Frozen)
    system = tmp_path / "system.yaml"
    system.write_text("system: {kernel: 6.1.0, os: Debian 12, cpu_model: x, cpu_count: 4, memory_bytes: 1, "
                      "virtualization: none}\n")
    log = tmp_path / "dd.txt"
    log.write_text("640000 bytes (640 kB, 625 KiB) copied, 0.5 s, 1.3 MB/s\n")
    argv = ["import", "dd", str(log), "--filesystem", "ext4", "--machine", "box", "--system", str(system)]
    assert main([*argv, "--out", str(tmp_path / "first")]) == 0
    name = Path(capsys.readouterr().out.strip()).name
    out = tmp_path / "data"
    (out / "results").mkdir(parents=True)
    os.mkfifo(out / "results" / name)
    assert main([*argv, "--out", str(out)]) == 1
    _one_line(capsys, "a FIFO", out / "results" / name)
    assert [p.name for p in out.rglob("*")] == ["results", name]  # nothing moved, nothing left
    shutil.rmtree(out)
    out.mkdir()
    (out / "results").write_text("not a folder")
    assert main([*argv, "--out", str(out)]) == 1
    _one_line(capsys, "expected a folder", out / "results")
    assert main([*argv, "--out", str(out / "results")]) == 1
    _one_line(capsys, "expected a folder", out / "results")
    assert sorted(p.name for p in out.iterdir()) == ["results"]


# Odd paths from parts a reader could type: names of what is there already (a FIFO, a link, a
# directory, a file), "..", ".", empty parts, a trailing slash, spaces and control characters.
PARTS = st.sampled_from(["fifo", "link", "dir", "file", "new", ".", "", " ", "a\nb", "-", "dir/", "\t"])


@pytest.fixture(scope="module")
def odd_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("odd")
    os.mkfifo(folder / "fifo")
    (folder / "dir").mkdir()
    (folder / "file").write_text("old")
    os.symlink(folder / "file", folder / "link")
    os.mkfifo(folder / "dir" / "fifo")
    os.symlink(folder / "dir", folder / "dir" / "link")
    return folder


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=st.lists(PARTS, min_size=1, max_size=4))
def test_arbitrary_odd_paths_replace_only_a_regular_file_or_nothing(odd_folder, parts):
    path = str(odd_folder) + "/" + "/".join(parts)
    try:
        before = os.lstat(path)
    except OSError:
        before = None
    try:
        with outfile.replacing(path) as f:
            f.write("new")
    except UserError as e:
        assert str(e).count("\n") == 0 or "\n" in path
        if before is not None:
            after = os.lstat(path)
            assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)
    else:
        assert before is None or stat.S_ISREG(before.st_mode)
        assert stat.S_ISREG(os.lstat(path).st_mode) and Path(path).read_text() == "new"
        os.unlink(path)
        if before is not None:  # put the file back as it was for the next example
            Path(path).write_text("old")
    for here, _, files in os.walk(odd_folder):
        assert not [f for f in files if f.startswith(".tmp-")], here


@pytest.mark.root
def test_validate_from_a_read_only_folder_checks_without_its_caches(tmp_path, capsys, monkeypatch):
    """validate's caches (build/cache/) are its own: where they cannot be written, every file is
    checked again next time, and the check itself is not refused."""
    locked = tmp_path / "checkout"
    locked.mkdir()
    monkeypatch.chdir(locked)
    with _immutable(locked):
        assert main(["validate", str(QUICK[0])]) == 0
    assert "no problems" in capsys.readouterr().out and not list(locked.iterdir())


def test_standard_output_closed_early_is_one_line(tmp_path):
    """fsatlas export --out - | head: the reader goes away; one line, no traceback."""
    proc = subprocess.Popen([sys.executable, "-m", "fsatlas.cli", "export", str(REPO / "data" / "results"),
                             "--format", "csv", "--out", "-"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=tmp_path)
    assert proc.stdout.read(10) == b'"result","'
    proc.stdout.close()
    err = proc.communicate(timeout=120)[1].decode()
    assert proc.returncode == 1 and err.count("\n") == 1 and "Traceback" not in err, err
    assert "standard output was closed" in err


def test_a_dash_or_an_empty_name_is_no_output_folder_and_no_file(tmp_path, capsys, monkeypatch):
    """F61b item 12: import --out - made a folder named "-"; an empty --out was taken for the
    current folder (import) or the default file (export, report)."""
    monkeypatch.chdir(tmp_path)
    log = tmp_path / "dd.txt"
    log.write_text("640000 bytes (640 kB, 625 KiB) copied, 0.5 s, 1.3 MB/s\n")
    for out in ("-", ""):
        for argv in (["import", "dd", str(log), "--filesystem", "ext4"],
                     ["probe", "--fs", "ext4", "--probe", "sparse_files"]):  # probe made ./-/probes/ (round 19)
            assert main([*argv, "--out", out]) == 1
            err = capsys.readouterr().err
            assert err.count("\n") == 1 and "expected a folder to write in" in err, err
    for argv in (["export", str(QUICK[0]), "--format", "csv"], ["report", str(QUICK[0]), str(QUICK[1]), "--no-chart"]):
        assert main([*argv, "--out", ""]) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "expected a file name, found an empty one" in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dd.txt"]


@settings(max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(umask=st.integers(0, 0o777), existing=st.none() | st.integers(0, 0o777))
def test_a_written_file_s_mode_follows_the_umask_or_the_target_it_replaces(tmp_path, umask, existing):
    target = tmp_path / "out.txt"
    target.unlink(missing_ok=True)
    if existing is not None:
        target.write_text("old")
        os.chmod(target, existing)
    old = os.umask(umask)
    try:
        with outfile.replacing(str(target)) as f:
            f.write("new")
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(target).st_mode) == (0o666 & ~umask if existing is None else existing)


def test_a_bad_option_is_reported_against_its_flag(tmp_path, capsys):
    log = tmp_path / "dd.txt"
    log.write_text("640000 bytes (640 kB, 625 KiB) copied, 0.5 s, 1.3 MB/s\n")
    for flag, value in (("--mount-options", "noatime x"), ("--mkfs-options", "-O ^has_journal"),
                        ("--mount-options", "a" * 201), ("--mkfs-options", "x|y")):
        assert main(["import", "dd", str(log), "--filesystem", "ext4", flag, value, "--out", str(tmp_path / "o")]) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f": {flag}: an option of" in err and "/cells/" not in err, err
    assert not (tmp_path / "o").exists()


BAD = {  # a result file broken in a way only reading it finds
    "truncated": lambda text: text[: len(text) // 2],
    "schema": lambda text: text.replace('"cells": [', '"cells": 5, "x": [', 1),
    "duplicate key": lambda text: text.replace("{", '{"id": "a", ', 1),
    "huge integer": lambda text: text.replace('"samples": [', '"samples": [1' + "0" * 400 + ", ", 1),  # round 20
}


@settings(max_examples=12, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(fmt=st.sampled_from(["csv", "jsonl", "parquet"]), good=st.integers(1, len(QUICK)), at=st.integers(0, 3),
       bad=st.sampled_from(sorted(BAD)))
def test_a_refusal_met_halfway_leaves_standard_output_empty(capfd, fmt, good, at, bad):
    """The rule: `--out -` gets nothing unless the whole output is written, wherever the bad file
    sits among good ones (round 18, finding 11: CSV's header came out before the refusal)."""
    capfd.readouterr()
    with tempfile.TemporaryDirectory() as tmp:
        files = [str(q) for q in QUICK[:good]]
        broken = Path(tmp) / "broken.json"
        broken.write_text(BAD[bad](QUICK[0].read_text()))
        files.insert(min(at, good), str(broken))
        assert main(["export", *files, "--format", fmt, "--out", "-"]) == 1
    out, err = capfd.readouterr()
    assert out == "" and err.count("\n") == 1 and "broken.json" in err, (out[:80], err)


@pytest.mark.root
@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_a_full_spool_a_full_or_closed_standard_output_is_one_line(tmp_path, fmt):
    """Round 19, finding 7: `--out -` whose spool ($TMPDIR) or standard output fills up, or whose
    standard output is closed, gave a traceback, and a full disk under standard output kept a
    64 KiB piece with exit 0 (a BufferedWriter's short count): now one line naming `-`, exit 1,
    and a regular file under standard output is cut back to what it held before."""
    small = tmp_path / "small"
    small.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(small)], check=True)
    try:
        argv = [sys.executable, "-m", "fsatlas.cli", "export", str(REPO / "data" / "results"), "--format", fmt,
                "--out", "-"]
        cases = {"full spool": (None, {"env": {**os.environ, "TMPDIR": str(small)}}, "cannot write the output's spool"),
                 "full disk": (small / "out", {}, "cannot write: No space left on device"),
                 "/dev/full": ("/dev/full", {}, "cannot write: No space left on device"),
                 "closed": (None, {"stdout": subprocess.DEVNULL, "preexec_fn": lambda: os.close(1)},
                            "standard output is closed")}
        for case, (target, how, words) in cases.items():
            with open(target or os.devnull, "wb") as out:
                done = subprocess.run(argv, stderr=subprocess.PIPE, cwd=tmp_path, timeout=300,
                                      **{"stdout": out, **how})
            err = done.stderr.decode()
            assert done.returncode == 1 and err.count("\n") == 1 and words in err and ": -: " in err, (case, err)
        # a regular file under standard output holds nothing of it once the disk filled (round 20, finding 7)
        assert (small / "out").stat().st_size == 0
        (small / "out").write_text("kept\n")
        with open(small / "out", "ab") as out:
            assert subprocess.run(argv, stdout=out, stderr=subprocess.DEVNULL, cwd=tmp_path, timeout=300).returncode == 1
        assert (small / "out").read_text() == "kept\n"
    finally:
        subprocess.run(["umount", str(small)], check=True)


@pytest.mark.root
@settings(max_examples=5, deadline=None, database=None)
@given(held=st.integers(0, 40_000), free=st.integers(0, 320 << 10), mode=st.sampled_from(["w", "a", "rw"]),
       fs=st.sampled_from(["tmpfs", "ext2"]))
def test_a_file_under_standard_output_is_all_new_or_as_it_was(tmp_path_factory, held, free, mode, fs):
    """Round 21, finding 6: standard output a regular file opened read-write (1<>file) on a disk
    that filled partway: the file was cut to nothing, its earlier bytes lost. Whatever the file
    held, however it was opened (> truncating, >> appending, 1<> overwriting in place) and however
    little room was left, the file afterwards holds either what it held or the whole output where
    the shell put it (exit 0), counted here by hand from the file's bytes and the output alone. On
    tmpfs the room is reserved first (fallocate); ext2 has no fallocate, and what the copy
    overwrote is put back (round 22)."""
    tmp_path = tmp_path_factory.mktemp("full")
    small = tmp_path / "small"
    small.mkdir()
    if fs == "tmpfs":
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(small)], check=True)
    else:
        image = tmp_path / "ext2.img"
        subprocess.run(["mkfs.ext2", "-F", "-q", str(image), "640"], check=True)  # 640 KiB
        subprocess.run(["mount", "-o", "loop", str(image), str(small)], check=True)
    try:  # a quick run's samples, 229 KB of CSV: room for them or not, as `free` falls
        argv = [sys.executable, "-m", "fsatlas.cli", "export", str(RESULTS / "20261123T024558Z-m-042018a7f3-quick.json"),
                "--format", "csv", "--out", "-"]
        whole = subprocess.run(argv, capture_output=True, cwd=tmp_path, timeout=300, check=True).stdout
        before = bytes(random.Random(held).getrandbits(8) for _ in range(held))
        (small / "out").write_bytes(before)
        room = shutil.disk_usage(small).free
        if room > free:  # the rest of the disk filled, all but `free` bytes
            (small / "filler").write_bytes(os.urandom(room - free - 4096 if room - free > 4096 else 0))
        flags = {"w": os.O_WRONLY | os.O_TRUNC, "a": os.O_WRONLY | os.O_APPEND, "rw": os.O_RDWR}[mode]
        fd = os.open(small / "out", flags)
        try:
            used = shutil.disk_usage(small).used
            done = subprocess.run(argv, stdout=fd, stderr=subprocess.PIPE, cwd=tmp_path, timeout=300)
            if done.returncode:  # and the room it reserved given back
                assert shutil.disk_usage(small).used == used
        finally:
            os.close(fd)
        after = (small / "out").read_bytes()
        start = {"w": b"", "a": before, "rw": b""}[mode]
        new = start + whole + (before[len(whole):] if mode == "rw" else b"")
        if done.returncode == 0:
            assert after == new
        else:
            assert done.returncode == 1 and done.stderr.decode().count("\n") == 1
            assert after == (b"" if mode == "w" else before), (mode, len(before), len(after))
    finally:
        subprocess.run(["umount", str(small)], check=True)


KILLED_WRITE = """import os, sys
sys.path.insert(0, sys.argv[2])
from fsatlas import outfile
with outfile.replacing(sys.argv[1], binary=True, durable=True) as f:
    f.write(b'{"half": ')
    f.flush()
    os.kill(os.getpid(), 9)
"""


def test_a_write_killed_before_its_rename_leaves_every_command_working(tmp_path):
    """#65 round 52: `fsatlas migrate` killed with SIGKILL left `.tmp-XXXX.json` in
    data/results, and validate, migrate and aggregate refused the folder until it was deleted by
    hand. A write of a result file and of its bundle, each killed by SIGKILL between writing and
    the rename: both files keep their bytes, validate, migrate and aggregate succeed, and each
    leftover is one warning naming it."""
    data = tmp_path / "data"
    (data / "results").mkdir(parents=True)
    (data / "raw").mkdir()
    source = QUICK[0]
    targets = [data / "results" / source.name, data / "raw" / (source.stem + ".tar.gz")]
    shutil.copy(source, targets[0])
    shutil.copy(REPO / "data" / "raw" / targets[1].name, targets[1])
    before = [t.read_bytes() for t in targets]
    for target in targets:
        killed = subprocess.run([sys.executable, "-c", KILLED_WRITE, str(target), str(REPO / "runner")])
        assert killed.returncode == -9
    left = sorted(p for folder in ("results", "raw") for p in (data / folder).iterdir() if p.name.startswith("."))
    assert len(left) == 2 and all(outfile.is_temporary(p.name) for p in left), left
    assert [t.read_bytes() for t in targets] == before
    fsatlas = [sys.executable, "-m", "fsatlas.cli"]
    env = {**os.environ, "PYTHONPATH": str(REPO / "runner")}
    checked = subprocess.run([*fsatlas, "validate", str(data / "results")], capture_output=True, text=True, env=env)
    assert checked.returncode == 0, checked.stderr
    assert all(f"{p}: warning: /: expected no temporary file" in checked.stdout + checked.stderr for p in left)
    for argv in (["migrate", "--data", str(data)],
                 ["aggregate", "--data", str(data), "--content", str(tmp_path / "build" / "content")]):
        done = subprocess.run([*fsatlas, *argv], capture_output=True, text=True, env=env, cwd=tmp_path)
        assert done.returncode == 0, (argv, done.stderr)
    assert [t.read_bytes() for t in targets] == before


@settings(max_examples=300, deadline=None)
@given(st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._-]{0,40}", fullmatch=True), st.sampled_from([".json", ".tar.gz"]))
def test_no_result_or_bundle_name_is_a_temporary_files_and_every_temporary_name_is(rid, suffix):
    """The listings take a leftover for what it is by its name alone: is_temporary holds for
    every name replacing() makes, and for no name of a result (<id>.json) or bundle (<id>.tar.gz)."""
    assert not outfile.is_temporary(rid + suffix)
    fd, name = tempfile.mkstemp(prefix=outfile.TEMP_PREFIX, suffix=outfile.TEMP_SUFFIX)
    os.close(fd)
    os.unlink(name)
    assert outfile.is_temporary(os.path.basename(name))
