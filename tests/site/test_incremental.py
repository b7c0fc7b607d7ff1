"""fsatlas site: result pages rendered in a pass of their own, only those that changed, and the
same site as one plain Hugo build."""
import json
import os
import shutil
import subprocess

import pytest

from sitebuild import (REPO, SAMPLES, SAMPLES_CSV, aggregate_and_build, build_site, fsatlas, other_runs_by_hand,
                       other_runs_said, synthetic_results)

# one worker runs them (--dist loadgroup): their module's fixture is then made once, not once a worker
from fsatlas.site import result_tables

pytestmark = [pytest.mark.site, pytest.mark.xdist_group("incremental")]
MARKER = '<i class="marker"></i>'  # html/template drops comments: an element marks a changed template


def _files(public):
    """relative path -> bytes of every built file but the search index (made after the build)."""
    return {str(p.relative_to(public)): p.read_bytes() for p in sorted(public.rglob("*"))
            if p.is_file() and not str(p.relative_to(public)).startswith("pagefind/")}


def _pages(public):
    """result id -> (inode, mtime) of its page."""
    return {d.name: ((d / "index.html").stat().st_ino, (d / "index.html").stat().st_mtime_ns)
            for d in (public / "results").iterdir() if (d / "index.html").is_file() and d.name.startswith("synthetic")}


def _build(folder):
    """A site of four results in folder/site, and a fifth kept back for adding later: (the site's
    folder, the folder holding the fifth)."""
    results = synthetic_results(folder / "data", 5)
    (folder / "held").mkdir()
    shutil.move(results / "synthetic-00004.json", folder / "held" / "synthetic-00004.json")
    build_site(folder / "site", results)
    return folder / "site", folder / "held"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(the folder _build() built in, a copy of it kept aside): built once (10 s), for each test
    to change a copy of."""
    folder = tmp_path_factory.mktemp("incremental")
    _build(folder)
    shutil.copytree(folder, kept := tmp_path_factory.mktemp("incremental-pristine") / "kept", symlinks=True)
    return folder, kept


@pytest.fixture
def site(built, tmp_path):
    """_build()'s site as built, copied where it was built (fsatlas site finds what it rendered by
    the destination's absolute path), times kept. Its files' inodes are new: the mirror copies each
    again on the next build. The last test's copy is moved away first, not deleted in place: a
    process it started may still be ending in it (an rmtree once met a file gone from under it)."""
    folder, kept = built
    folder.rename(tmp_path / "previous")
    shutil.rmtree(tmp_path / "previous", ignore_errors=True)
    shutil.copytree(kept, folder, symlinks=True)
    return folder / "site", folder / "held"


@pytest.fixture
def fresh_site(tmp_path):
    """_build()'s site built for the test alone: files the next build leaves untouched keep their inodes."""
    return _build(tmp_path)


def test_two_passes_build_what_one_hugo_build_does(site, tmp_path):
    """...once each result page's tables are in their slots and the charts drawn into the pages,
    as fsatlas site puts them."""
    root, _ = site
    one_pass = tmp_path / "one-pass"
    subprocess.run(["hugo", "--quiet", "--source", root, "--destination", one_pass], check=True)
    from fsatlas.site.build import draw_charts
    tables = root / "build" / result_tables.TABLES_DIR
    pages = sorted((one_pass / "results").glob("*/index.html"))
    others = result_tables.read(str(root / "build" / result_tables.OTHER_RUNS))
    for page in pages:
        made = result_tables.unpack((tables / result_tables.file_name(page.parent.name)).read_bytes())
        made[b"other-runs"] = others[page.parent.name].encode()
        assert made[b"throughput-chart"].startswith(b"<svg")
        whole, cells = result_tables.split_cells(result_tables.fill_slots(page.read_bytes(), made))
        page.write_bytes(whole)
        (page.parent / result_tables.CELLS_PAGE).mkdir()
        (page.parent / result_tables.CELLS_PAGE / "index.html").write_bytes(cells)
    # and the other pages' charts drawn into them, as fsatlas site does
    draw_charts(str(one_pass), str(tmp_path / "chart-cache"), str(root / "build" / "static"))
    assert _files(root / "public") == _files(one_pass)
    fsatlas("site", "--root", root, "--destination", "batch-1", "--batch", "1")
    assert _files(root / "batch-1") == _files(one_pass)


def test_adding_a_result_renders_its_page_alone(fresh_site):
    """...and, of the others, only those of its machine and profile, whose sentence on the other
    runs of the two now counts it (#62): three runs of box-00 (one moved there), each page says
    2 others, the two runs left alone none, as counted by hand from the result files."""
    root, held = fresh_site
    results = root / "data" / "results"
    before = _pages(root / "public")
    assert {rid: other_runs_said((root / "public" / "results" / rid / "index.html").read_text()) for rid in before} \
        == dict.fromkeys(before, 0)  # four machines: no sentence
    shutil.move(held / "synthetic-00004.json", results / "synthetic-00004.json")
    out = aggregate_and_build(root)
    assert "1 of them new or changed" in out and "1 of 5 result pages rendered" in out
    after = _pages(root / "public")
    assert set(after) == set(before) | {"synthetic-00004"}
    assert {rid: after[rid] for rid in before} == before  # the other pages were not written again
    for rid in ("synthetic-00001", "synthetic-00004"):  # box-01 and box-04 become box-00's
        doc = json.loads((results / f"{rid}.json").read_text())
        (results / f"{rid}.json").write_text(json.dumps({**doc, "system": {**doc["system"], "machine": "box-00"}}))
    out = aggregate_and_build(root)
    # the two moved are rendered; box-00's own run, its source unchanged, gets the new sentence alone
    assert "2 of them new or changed" in out and "2 of 5 result pages rendered (1 more given a new sentence" in out
    moved = _pages(root / "public")
    assert {rid for rid in moved if moved[rid] != after[rid]} == {"synthetic-00000", "synthetic-00001", "synthetic-00004"}
    groups = other_runs_by_hand(results)
    assert sorted(map(len, groups.values())) == [1, 1, 3]
    for ids in groups.values():
        for rid in ids:
            assert other_runs_said((root / "public" / "results" / rid / "index.html").read_text()) == len(ids) - 1, rid
    for listing in ("results/index.html", "results/index.xml", "sitemap.xml", "explorer/data.json"):
        assert "synthetic-00004" in (root / "public" / listing).read_text(), listing
    assert (root / "public" / "files" / "results" / "synthetic-00004.json").is_file()
    assert (root / "public" / "explorer" / "rows" / "synthetic-00004.json").is_file()
    # a page given its new sentence in place is the page a render of everything makes (#65)
    shutil.rmtree(root / "build" / "result-html")
    (root / "build" / "cache" / "result-html.json").unlink()
    fsatlas("site", "--root", root, "--destination", "again")
    assert _files(root / "public") == _files(root / "again")


def test_a_template_change_renders_every_result_page(site):
    root, _ = site
    single = root / "layouts" / "results" / "single.html"
    single.write_text(single.read_text().replace('<h2 id="compare-yours">', '<h2 id="compare-yours">' + MARKER))
    assert "4 of 4 result pages rendered" in aggregate_and_build(root)
    assert all(MARKER in (root / "public" / "results" / rid / "index.html").read_text()
               for rid in _pages(root / "public"))


def _chart(page) -> str:
    html = page.read_text()
    return html[html.index('<figure class="chart" data-drawn="build" data-chart="throughput"'):].split("</figure>")[0]


def test_a_result_pages_chart_follows_its_result(site):
    """A result page holds its chart's SVG drawn at build (#62, by fsatlas aggregate: #65): when a
    result changes what its chart says (the machine, which each bar's words name), its page is
    rendered again with the new picture and no other page is, even where the file keeps its size
    and is given its old mtime back, as `touch -r`, `cp -p` and `rsync -a` leave it (#65 round 31:
    size and mtime alone took it for unchanged, and the page kept its old picture)."""
    root, _ = site
    path = root / "data" / "results" / "synthetic-00001.json"
    page = root / "public" / "results" / "synthetic-00001" / "index.html"
    before, stamp = _chart(page), path.stat()
    assert "(box-01)" in before
    changed = path.read_text().replace('"machine": "box-01"', '"machine": "box-77"')
    assert changed != path.read_text() and len(changed) == stamp.st_size
    path.write_text(changed)
    os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    assert "1 of 4 result pages rendered" in aggregate_and_build(root)
    assert "(box-77)" in _chart(page) and "box-77" not in before


def test_a_removed_result_leaves_no_page_behind(site):
    root, _ = site
    (root / "data" / "results" / "synthetic-00001.json").unlink()
    aggregate_and_build(root)
    public = root / "public"
    assert not (public / "results" / "synthetic-00001").exists()
    assert not (public / "files" / "results" / "synthetic-00001.json").exists()
    assert not (public / "explorer" / "rows" / "synthetic-00001.json").exists()
    for listing in ("results/index.html", "results/index.xml", "sitemap.xml"):
        assert "synthetic-00001" not in (public / listing).read_text(), listing


def test_a_failed_build_leaves_the_site_as_it_was(site):
    """A template that breaks on the fourth page, rendered one page per Hugo run: the first
    three are rendered, yet nothing reaches the destination before the whole build succeeds."""
    root, _ = site
    before = _files(root / "public")
    single = root / "layouts" / "results" / "single.html"
    good = single.read_text()
    single.write_text(good.replace('<h2 id="compare-yours">', '<h2 id="compare-yours">' + MARKER + '{{ if eq .Params.result_id '
                                   '"synthetic-00003" }}{{ errorf "broken on purpose" }}{{ end }}'))
    done = fsatlas("site", "--root", root, "--batch", "1", check=False)
    assert done.returncode == 1
    assert "hugo failed building result pages synthetic-00003" in done.stderr and "broken on purpose" in done.stderr
    assert "Traceback" not in done.stderr
    assert _files(root / "public") == before
    single.write_text(good.replace('<h2 id="compare-yours">', '<h2 id="compare-yours">' + MARKER))
    assert "4 of 4 result pages rendered" in fsatlas("site", "--root", root).stdout


@pytest.mark.parametrize("spoil", ["cut", "line ends converted", "no slot", "a slot twice", "gone", "a FIFO",
                                   "other runs cut", "other runs not sentences", "other runs a FIFO",
                                   "other runs gone", "other runs of no run"])
def test_a_tables_file_not_written_whole_stops_every_reader_naming_it(site, spoil):
    """An article's chart shortcode reads a result's tables file through Hugo
    (partials/results/table.html), on every build, whether or not the result page is rendered
    again: a file cut short (round 48: the article's table ended mid-cell, exit 0) or without the
    slot it reads (round 48: the table was gone) stops the build with the file named, as
    fsatlas site's own reading does; so does a file of the sentences on other runs that is cut
    (round 48: a traceback), not a file or not of sentences (round 49). Each in one line naming
    the file (round 49: Hugo's log named config.toml first). The destination stays as it was."""
    root, _ = site
    (root / "content" / "articles" / "pinned.md").write_text(
        '---\ntitle: Pinned\n---\n{{< chart name="throughput" result="synthetic-00000" >}}\n')
    fsatlas("site", "--root", root)
    before = _files(root / "public")
    tables = root / "build" / "tables" / "synthetic-00000.html"
    if spoil == "cut":
        data = tables.read_bytes()
        tables.write_bytes(data[:data.index(b"throughput-table-->") + 200])
        named = "build/tables/synthetic-00000.html"
    elif spoil == "line ends converted":  # its ends as written, its length not
        data = tables.read_bytes()
        assert b"\n" in data
        tables.write_bytes(data.replace(b"\n", b"\r\n"))
        named = "build/tables/synthetic-00000.html"
    elif spoil in ("gone", "a FIFO"):  # round 50: Hugo's readFile waited 30 s on a FIFO, and the message named config.toml
        tables.unlink()
        if spoil == "a FIFO":
            os.mkfifo(tables)
        named = "build/tables/synthetic-00000.html"
    elif spoil in ("no slot", "a slot twice"):  # whole files, as unpack refuses them: Hugo's reading refuses them too
        body = b"" if spoil == "no slot" else tables.read_bytes().rpartition(result_tables.MARK)[0] \
            + result_tables.MARK + b"throughput-table--><p>second</p>"
        tables.write_bytes(body + result_tables.MARK + result_tables.LAST % len(body))
        named = "build/tables/synthetic-00000.html"
    else:  # round 49: a FIFO waited on for ever; a sentence of other markup went into the page
        others = root / "build" / "other-runs.json"
        if spoil == "other runs cut":
            others.write_bytes(others.read_bytes()[:10])
        elif spoil in ("other runs a FIFO", "other runs gone"):  # round 50: gone, every page lost its sentence
            others.unlink()
            if spoil == "other runs a FIFO":
                os.mkfifo(others)
        elif spoil == "other runs of no run":  # round 50: {}, the same
            others.write_text("{}")
        else:  # round 50: each passed the pattern refill looks for
            forged = ['<p id="other-runs"></p><script>alert(1)</script><p></p>',
                      '<p id="other-runs" hidden onmouseover="alert(1)"><img src=x onerror=alert(2)></p>']
            others.write_text(json.dumps({rid: forged[k % 2] for k, rid in enumerate(json.loads(others.read_text()))}))
        named = str(others)
    done = fsatlas("site", "--root", root, check=False, timeout=120)
    assert done.returncode == 1 and len(done.stderr.splitlines()) == 1 and named in done.stderr, done.stderr
    assert _files(root / "public") == before


def test_a_copy_that_kept_its_hard_links_builds_without_leftovers(site, tmp_path):
    """The destination links the build folder's files; a copy of the site that keeps those links
    (cp -a, a backup restored) then holds a file under both names the mirror places it by, and
    rename(2) of one name onto the other changes nothing: the temporary name stayed in public/, 76
    files to deploy (#65 round 49)."""
    root, _ = site
    fsatlas("site", "--root", root)  # the fixture's copy broke the links: the mirror makes them again
    copy = tmp_path / "copy"
    subprocess.run(["cp", "-a", root, copy], check=True)
    fsatlas("site", "--root", copy)
    assert not [p for p in (copy / "public").rglob("*.fsatlas-tmp")]
    assert _files(copy / "public") == _files(root / "public")


def test_a_folder_where_the_site_puts_a_file_is_one_line_and_leaves_nothing_behind(site):
    """A folder in public/ where a page goes: the mirror's rename onto it failed with a traceback
    and left its temporary file (#65 round 50)."""
    root, _ = site
    fsatlas("site", "--root", root)
    page = root / "public" / "articles" / "index.html"
    page.unlink()
    (page / "x").mkdir(parents=True)
    done = fsatlas("site", "--root", root, check=False)
    assert done.returncode == 1 and len(done.stderr.splitlines()) == 1 and str(page) in done.stderr, done.stderr
    assert not list((root / "public").rglob("*.fsatlas-tmp"))


def test_the_base_url_reaches_every_page(site):
    root, _ = site
    done = fsatlas("site", "--root", root, "--base-url", "https://example.org/atlas/")
    assert "4 of 4 result pages rendered" in done.stdout  # permalinks changed: every page again
    # home's budget counts the files it loads, its addresses resolved under the base URL's path
    assert "/atlas/css/site.css" in (root / "public" / "index.html").read_text()
    assert "not a file of the site" not in done.stderr, done.stderr
    page = (root / "public" / "results" / "synthetic-00000" / "index.html").read_text()
    assert "https://example.org/atlas/results/synthetic-00000/" in page
    assert "https://example.org/atlas/results/synthetic-00000/" in (root / "public" / "sitemap.xml").read_text()


def test_wrong_usage_missing_aggregates_and_a_missing_mount_are_reported(site, tmp_path):
    root, _ = site
    assert fsatlas("site", "--root", root, "--batch", "0", check=False).returncode == 2
    shutil.move(root / "data" / "aggregates", tmp_path / "aggregates")
    done = fsatlas("site", "--root", root, check=False)
    assert done.returncode == 1 and "run fsatlas aggregate (make data) first" in done.stderr
    shutil.move(tmp_path / "aggregates", root / "data" / "aggregates")
    config = root / "config.toml"
    config.write_text(config.read_text().replace('source = "build/static"', 'source = "build/elsewhere"'))
    done = fsatlas("site", "--root", root, check=False)
    assert done.returncode == 1 and "no mount of build/static" in done.stderr and "Traceback" not in done.stderr


def test_a_static_file_edited_in_place_reaches_the_site(site):
    """Hugo gives the folders it copies from static/ their source's mtime, which an edit in place
    does not move: the main pass's tree is listed in full each time (it once kept the old file)."""
    root, _ = site
    for name in ("css/site.css", "js/tables.js"):
        source = root / "static" / name
        with open(source, "a", encoding="utf-8") as f:  # in place: the folder's mtime stays
            f.write("\n/* edited in place */\n")
        aggregate_and_build(root)
        assert (root / "public" / name).read_bytes() == source.read_bytes(), name


def test_an_incremental_build_is_byte_identical_to_one_from_scratch(site, tmp_path):
    """A build is a function of its inputs: four results then a fifth added gives the same files,
    byte for byte, as the five built at once; and no temporary file is published either way."""
    root, held = site
    shutil.move(held / "synthetic-00004.json", root / "data" / "results" / "synthetic-00004.json")
    fsatlas("export", root / "data" / "results", "--out", root / SAMPLES)  # make site: a result file changed
    fsatlas("export", root / "data" / "results", "--format", "csv", "--out", root / SAMPLES_CSV)
    aggregate_and_build(root)
    scratch = build_site(tmp_path / "scratch", root / "data" / "results")
    incremental, fresh = _files(root / "public"), _files(scratch)
    assert sorted(incremental) == sorted(fresh)
    assert [name for name in fresh if incremental[name] != fresh[name]] == []
    assert [name for name in fresh if "fsatlas-tmp" in name or "/.tmp-" in name] == []
