"""Everything a contributor writes reaches the pages escaped: text, attributes, embedded JSON,
chart tooltips and the explorer."""
import contextlib
import json
import re

import pytest

from sitebuild import FIXTURES, build_site

# one worker runs them (--dist loadgroup): their module's fixture is then made once, not once a worker
pytestmark = [pytest.mark.site, pytest.mark.xdist_group("escaping")]
EVIL = '<script>alert("x")</script><img src=x onerror=alert(1)>"\'&'


@pytest.fixture(scope="module")
def evil_site(tmp_path_factory):
    data = tmp_path_factory.mktemp("evil-data")
    (data / "results").mkdir()
    result = json.loads((FIXTURES / "results" / "fixture-valid.json").read_text())
    result.update(submitter=EVIL, notes=EVIL)
    result["system"].update(os=EVIL, cpu_model=EVIL)  # kernel: a release's characters only (below)
    result["tool"]["fio"] = EVIL
    for cell in result["cells"]:
        cell["effective_mount_options"] = EVIL  # (mount_options have a strict pattern: they go into commands)
        cell["parameters"]["note"] = EVIL
        if cell["status"] != "ok":
            cell["reason"] = EVIL
    (data / "results" / "fixture-valid.json").write_text(json.dumps(result))
    import shutil
    shutil.copytree(FIXTURES / "raw", data / "raw")
    root = tmp_path_factory.mktemp("evil-site")
    build_site(root, data / "results")
    return root


def test_no_contributor_markup_reaches_a_page_unescaped(evil_site):
    pages = list((evil_site / "public").rglob("*.html"))
    assert pages
    for page in pages:
        html = page.read_text()
        assert "<script>alert" not in html, page
        assert "<img src=x" not in html, page
        assert not re.search(r"onerror=alert\(1\)>", html), page
    result_page = (evil_site / "public" / "results" / "fixture-valid" / "index.html").read_text()
    assert "&lt;script&gt;alert" in result_page  # shown, as text


@contextlib.contextmanager
def _served(page, site):
    """(the site's address, the message of every dialog a script opened) while it is served."""
    from sitebuild import serve
    server = serve(site / "public")
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", dialogs
    finally:
        server.shutdown()


@pytest.mark.browser
# the explorer at a view not the default (whose picture the build draws): it draws with Vega
@pytest.mark.parametrize("path", ["/results/fixture-valid/", "/results/", "/explorer/?cpu=1"])
def test_no_script_runs_in_the_browser(page, evil_site, path):
    with _served(page, evil_site) as (address, dialogs):
        page.goto(f"{address}{path}")
        page.wait_for_selector("figure.chart-drawn, figure.chart-failed", timeout=20000)
        for figure in page.locator("figure[data-drawn=build]").all():  # made interactive, as a reader's click does
            figure.locator(".chart-view").click()
        page.wait_for_function("() => !document.querySelector('figure[data-drawn=build]')", timeout=20000)
        page.mouse.move(200, 400)
        for mark in page.locator("svg .mark-rect path").all()[:3]:
            mark.hover()
        page.wait_for_timeout(300)
    assert dialogs == []
    assert page.errors == []


def test_every_published_json_escapes_markup(evil_site):
    files = list((evil_site / "public").rglob("*.json"))
    assert any(p.parent.name == "results" and p.parent.parent.name == "files" for p in files)
    for path in files:
        if "pagefind" in path.parts or "vendor" in path.parts:
            continue
        text = path.read_text()
        assert "<" not in text and ">" not in text, path


@pytest.mark.browser
@pytest.mark.parametrize("target", ["/files/results/fixture-valid.json", "/charts/results/fixture-valid.json",
                                    "/explorer/data.json", "//evil.example/", "javascript:alert(1)", "/../results/"])
def test_the_embed_page_refuses_what_is_not_a_chart_page(page, evil_site, target):
    """The attack that worked: the embed page parsed a published result file as HTML and
    inserted the markup of its notes."""
    from urllib.parse import quote
    with _served(page, evil_site) as (address, dialogs):
        page.goto(f"{address}/embed/?page={quote(target)}&n=1")
        page.wait_for_timeout(800)
        status = page.locator(".embed-status").inner_text()
    assert dialogs == [] and page.locator("#embed script, #embed img").count() == 0
    assert "No chart of this site named" in status


@pytest.mark.browser
def test_the_embed_page_draws_a_result_chart_as_data(page, evil_site):
    with _served(page, evil_site) as (address, dialogs):
        page.goto(f"{address}/embed/?page=/results/fixture-valid/&n=1")
        page.wait_for_selector("#embed figure.chart-drawn", timeout=20000)
        table = page.locator("#embed table")
        assert table.count() == 1 and table.locator("td").count() > 0
        for mark in page.locator("svg .mark-rect path").all()[:3]:
            mark.hover()
        page.wait_for_timeout(300)
    assert dialogs == [] and page.errors == []


LAYOUTS = FIXTURES.parents[2] / "layouts"


def test_no_template_prints_what_delimit_joins_unescaped():
    """delimit returns template.HTML in Hugo 0.111, which a template prints as it is: a kernel
    release of "6.1<svg onload=...>" in a probe file ran in readers' browsers on /features/.
    Every action that joins with delimit must turn the result into a string (printf) first."""
    offenders = []
    for path in LAYOUTS.rglob("*.html"):
        for action in re.findall(r"\{\{-?(.*?)-?\}\}", path.read_text(), flags=re.S):
            body = re.sub(r"^\s*(\$\w+\s*:?=\s*)?", "", action)
            if "delimit" in action and not body.startswith(("printf", "/*")):
                offenders.append(f"{path.relative_to(LAYOUTS)}: {action.strip()[:80]}")
    assert offenders == []


@pytest.mark.parametrize("kernel", ['6.1<svg onload=alert(1)>', "6.1 x", "6.1\u202e", ""])
def test_a_kernel_release_with_anything_but_its_own_characters_is_refused(tmp_path, kernel, capsys):
    from fsatlas.cli import main
    result = json.loads((FIXTURES / "results" / "fixture-valid.json").read_text())
    result["system"]["kernel"] = kernel
    path = tmp_path / "results" / "fixture-valid.json"
    path.parent.mkdir()
    path.write_text(json.dumps(result))
    assert main(["validate", "--no-cache", str(path)]) == 1
    assert "/system/kernel" in capsys.readouterr().err


@pytest.fixture(scope="module")
def evil_curated_site(tmp_path_factory):
    """The committed site, then markup written into a string of every curated data kind: a
    feature's note and summary, a mount option's trade-off and claim, a history table's title and
    note, a source's title and what it covers, a correction's reason; the site built again."""
    import yaml
    root = tmp_path_factory.mktemp("evil-curated")
    build_site(root, FIXTURES / "results")
    data = root / "data"

    def edit(path, change):
        document = yaml.safe_load(path.read_text())
        change(document)
        path.write_text(yaml.safe_dump(document, allow_unicode=True, sort_keys=False))

    edit(data / "features" / "ext4.yaml", lambda d: (d.update(summary=EVIL), d["features"]["journaling"].update(note=EVIL)))
    edit(data / "mount_options" / "noatime.yaml", lambda d: (d.update(tradeoff=EVIL), d["claims"][0].update(text=EVIL)))
    edit(data / "history" / "blog-2014-dd.yaml", lambda d: d.update(title=EVIL, note=EVIL))
    # (its covers keeps what it says too: the rows it names, which its states list row by row)
    edit(data / "sources.yaml", lambda d: d[0].update(title=EVIL, covers=EVIL + " " + d[0]["covers"]))
    edit(data / "corrections.yaml", lambda d: d[0].update(why=EVIL))
    from sitebuild import aggregate_and_build
    aggregate_and_build(root)
    return root


def test_no_curated_markup_reaches_a_page_unescaped(evil_curated_site):
    pages = list((evil_curated_site / "public").rglob("*.html"))
    for page in pages:
        html = page.read_text()
        assert "<script>alert" not in html and "<img src=x" not in html, page
    shown = (evil_curated_site / "public" / "filesystems" / "ext4" / "index.html").read_text()
    assert "&lt;script&gt;alert" in shown  # the summary is shown, as text


@pytest.mark.browser
@pytest.mark.parametrize("path", ["/features/", "/filesystems/ext4/", "/guides/access-time/", "/history/", "/corrections/",
                                  "/compare/?a=ext4&b=xfs", "/"])
def test_no_curated_script_runs_in_the_browser(page, evil_curated_site, path):
    with _served(page, evil_curated_site) as (address, dialogs):
        page.goto(address + path)
        page.wait_for_load_state("load")
    assert dialogs == []
