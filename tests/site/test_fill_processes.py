"""The result pages' slots filled by processes (site/build._Fillers, a build rendering many pages)
are the bytes the one process fills (a build rendering few), and a page whose tables are gone
stops either with one line naming the tables file."""
import os
import shutil

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
            f.write(result_tables.dumps(tables))
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
def test_a_page_without_its_tables_stops_the_build_naming_the_file(tmp_path, count):
    folder = _site(str(tmp_path / "b"), {"r1": ({"summary": "x"}, "one"), "r2": ({"summary": "y"}, "two")})
    gone = os.path.join(folder, result_tables.TABLES_DIR, result_tables.file_name("r2"))
    os.unlink(gone)
    fillers = build._Fillers(folder, os.path.join(folder, "out"), {}, count)
    try:
        with pytest.raises(UserError) as raised:
            fillers.fill(["r1", "r2"])
    finally:
        fillers.close(False)
    assert raised.value.where == gone and "run fsatlas aggregate" in raised.value.body
