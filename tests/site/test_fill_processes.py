"""The result pages' slots filled by processes (site/build._Fillers, a build rendering many pages)
are the bytes the one process fills (a build rendering few), and a page whose tables are gone
stops either with one line naming the tables file."""
import os
import shutil
import threading

import pytest
from hypothesis import given, settings, strategies as st

from fsatlas.errors import UserError
from fsatlas.site import build, result_tables

TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=40)


def _site(folder, pages: dict) -> str:
    """A build folder holding each page's tables and, under out/, its page as Hugo writes it
    (slots, a cells section); the build folder."""
    os.makedirs(os.path.join(folder, result_tables.TABLES_DIR))
    for rid, (tables, heading) in pages.items():
        with open(os.path.join(folder, result_tables.TABLES_DIR, result_tables.file_name(rid)), "wb") as f:
            f.write(result_tables.pack(tables))
        os.makedirs(os.path.join(folder, "out", rid))
        page = (f"<html><body><h1>{heading}</h1>{result_tables.SYSTEM}<p>system</p></section>"
                + "".join(f'<div data-fsatlas-slot="{name}"></div>' for name in [*tables, "other-runs"])
                + f"{result_tables.CELLS}<p>cells</p></section></body></html>")
        with open(os.path.join(folder, "out", rid, "index.html"), "w", encoding="utf-8") as f:
            f.write(page)
    return folder


def _filled(folder) -> dict:
    return {os.path.relpath(os.path.join(d, n), folder): open(os.path.join(d, n), "rb").read()
            for d, _, names in os.walk(os.path.join(folder, "out")) for n in names}


@settings(max_examples=4, deadline=None)
@given(st.dictionaries(st.from_regex(r"r[0-9]{1,3}", fullmatch=True),
                       st.tuples(st.dictionaries(st.sampled_from(["throughput-chart", "summary", "flags"]), TEXT,
                                                 min_size=1), TEXT.map(lambda t: t.replace("<", "&lt;"))),
                       min_size=1, max_size=9),
       st.dictionaries(st.from_regex(r"r[0-9]{1,3}", fullmatch=True), TEXT, max_size=5))
def test_pages_filled_by_processes_are_the_pages_one_process_fills(tmp_path_factory, pages, others):
    alone, spread = tmp_path_factory.mktemp("alone"), tmp_path_factory.mktemp("spread")
    _site(str(alone / "b"), pages)
    shutil.copytree(alone / "b", spread / "b")
    for folder, count in ((alone / "b", 1), (spread / "b", build.FILL_PROCESSES_FROM)):
        fillers = build._Fillers(str(folder), str(folder / "out"), others, count)
        assert (fillers.pool is None) is (count == 1)
        try:
            fillers.fill(sorted(pages))
        finally:
            fillers.close(True)
    assert _filled(alone / "b") == _filled(spread / "b")
    assert all(b"data-fsatlas-slot" not in page for page in _filled(spread / "b").values())


@pytest.mark.parametrize("count", [1, build.FILL_PROCESSES_FROM])
@pytest.mark.parametrize("spoil", ["gone", "cut", "other", "no slot", "a folder", "a FIFO"])
def test_a_page_without_its_tables_stops_the_build_naming_the_file(tmp_path, count, spoil):
    """Its tables file gone, cut short (round 34: a traceback from a filler), of another shape,
    whole but without the table of a slot the page has (round 48: the page kept its empty
    slot), or not a file (round 48: a traceback; round 49: a FIFO, which the filler waited on for ever)."""
    folder = _site(str(tmp_path / "b"), {"r1": ({"summary": "x"}, "one"), "r2": ({"summary": "y"}, "two")})
    bad = os.path.join(folder, result_tables.TABLES_DIR, result_tables.file_name("r2"))
    if spoil in ("gone", "a folder", "a FIFO"):
        os.unlink(bad)
        if spoil == "a folder":
            os.mkdir(bad)
        elif spoil == "a FIFO":
            os.mkfifo(bad)
    else:
        with open(bad, "r+b" if spoil == "cut" else "wb") as f:
            f.truncate(os.path.getsize(bad) - 1) if spoil == "cut" else \
                f.write(b'{"summary": "y"}' if spoil == "other" else result_tables.pack({"flags": ""}))
    done, rescued = threading.Event(), threading.Event()

    def rescue():  # a filler waiting on the FIFO for ever is let go after 20 s, and the test fails
        if spoil == "a FIFO" and not done.wait(20):
            rescued.set()
            os.close(os.open(bad, os.O_WRONLY))
    helper = threading.Thread(target=rescue)
    helper.start()
    fillers = build._Fillers(folder, os.path.join(folder, "out"), {}, count)
    try:
        with pytest.raises(UserError) as raised:
            fillers.fill(["r1", "r2"])
    finally:
        fillers.close(False)
        done.set()
        helper.join()
    assert not rescued.is_set(), "the filler waited on a FIFO"
    assert raised.value.where == bad and "run fsatlas aggregate" in raised.value.body


def _children(pid: int) -> set:
    """The pids whose parent is pid (from /proc)."""
    out = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        out.add(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    return out


def _cmdline(pid: int) -> str:
    """PID's command line, or "" if it ended between the listing and the read."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().decode(errors="replace")
    except OSError:
        return ""


def _running(pid: int) -> bool:
    """Whether PID exists and is not a zombie (an exit between two reads counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.site
def test_an_interrupted_build_leaves_no_filler_and_the_next_one_fills_every_page(tmp_path):
    """Ctrl-C while the fillers run: `fsatlas site` ends, and no process it started is left; the
    next build renders the pages the interrupted one did not finish, every slot filled."""
    import signal
    import subprocess
    import sys
    import time
    from sitebuild import CURATED_DATA, REPO, SITE_SOURCES, fsatlas, synthetic_results
    root = tmp_path / "site"
    results = synthetic_results(tmp_path / "input", build.FILL_PROCESSES_FROM + 10)
    (root / "data").mkdir(parents=True)
    for name in SITE_SOURCES:
        (shutil.copytree if (REPO / name).is_dir() else shutil.copy)(REPO / name, root / name)
    for name in CURATED_DATA:
        (shutil.copytree if (REPO / "data" / name).is_dir() else shutil.copy)(REPO / "data" / name, root / "data" / name)
    shutil.copytree(results, root / "data" / "results")
    shutil.copytree(results.parent / "raw", root / "data" / "raw")
    fsatlas("aggregate", "--data", root / "data", "--content", root / "build" / "content", cwd=root)
    site = subprocess.Popen([sys.executable, "-m", "fsatlas.cli", "site", "--root", str(root), "--destination", "public"],
                            cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    seen = set()
    for _ in range(600):  # until its spawned fillers run (python children), at most a minute
        kids = _children(site.pid)
        seen |= {k for k in kids if "python" in _cmdline(k)}
        if len(seen) >= 2 or site.poll() is not None:
            break
        time.sleep(0.1)
    assert len(seen) >= 2, "no fillers seen"
    site.send_signal(signal.SIGINT)
    site.wait(timeout=120)
    time.sleep(0.5)
    assert not [k for k in seen if _running(k)]
    again = fsatlas("site", "--root", root, "--destination", "public", cwd=root)
    assert again.returncode == 0, again.stderr
    pages = list((root / "public" / "results").glob("synthetic-*/index.html"))
    assert len(pages) == build.FILL_PROCESSES_FROM + 10
    assert not [p for p in pages if b"data-fsatlas-slot" in p.read_bytes()]
