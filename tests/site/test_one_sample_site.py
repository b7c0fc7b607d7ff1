"""Issue 62 (fifth round), on the real site: an import whose every cell has one sample (iozone)
and one whose one good job has one (fio) show no interval of zero width ("966–966") and no RSD
"0.0 %" on any page or in any chart's rows: the words "no interval: n = 1" and "–" instead, and
no whisker (the rows' interval null)."""
import json
import re

import pytest

from sitebuild import FIXTURES, build_site, fsatlas
from fsatlas.site import knowledge

# one worker runs them (--dist loadgroup): their module's fixture is then made once, not once a worker
pytestmark = [pytest.mark.site, pytest.mark.xdist_group("one-sample-site")]
SAMPLES = FIXTURES / "samples"
# an interval whose two ends read the same ("966–966", "4,190 – 4,190", "1.2 GB/s – 1.2 GB/s")
EQUAL_ENDS = re.compile(r"(?<![\d.,])(\d[\d.,]*(?: [A-Za-zµ/%]+)?)\s*–\s*\1(?![\d.,])")


@pytest.fixture(scope="module")
def one_sample_site(tmp_path_factory):
    data = tmp_path_factory.mktemp("one-sample-data")
    fsatlas("import", "iozone", SAMPLES / "iozone" / "auto-mode-ramdisk-2010.txt", "--filesystem", "ext4", "--redact",
            "--out", data)
    fsatlas("import", "fio", SAMPLES / "fio" / "fio-3.33-one-job-fails.json", "--filesystem", "ext4", "--out", data)
    assert len(list((data / "results").glob("*.json"))) == 2
    assert fsatlas("validate", *sorted((data / "results").glob("*.json"))).returncode == 0
    root = tmp_path_factory.mktemp("one-sample-site")
    build_site(root, data / "results")
    return root


def _rows(node):
    """Every dict in a JSON document that carries a figure's n."""
    if isinstance(node, dict):
        if "n" in node and ("ci_low" in node or "shown" in node):
            yield node
        for value in node.values():
            yield from _rows(value)
    elif isinstance(node, list):
        for value in node:
            yield from _rows(value)


def test_no_page_shows_an_interval_of_zero_width_or_an_rsd_of_one_sample(one_sample_site):
    pages = list((one_sample_site / "public").rglob("*.html"))
    said = 0
    for page in pages:
        text = page.read_text()
        assert not EQUAL_ENDS.search(text), (page, EQUAL_ENDS.search(text).group(0))
        assert "0.0 %" not in text and "0.0&nbsp;%" not in text, page
        said += text.count(knowledge.NO_INTERVAL)
    assert said >= 64  # 63 iozone cells and the fio job, each at least once (its result page)


def test_chart_rows_give_one_sample_no_whisker_and_say_so(one_sample_site):
    checked = 0
    for path in list((one_sample_site / "data" / "aggregates").rglob("*.json")) + \
            list((one_sample_site / "public").rglob("*.json")):
        try:
            doc = json.loads(path.read_text())
        except (UnicodeDecodeError, ValueError):
            continue
        for row in _rows(doc):
            if row["n"] != 1:
                continue
            checked += 1
            assert row.get("ci_low") is None and row.get("ci_high") is None, (path, row)
            assert row.get("rsd_pct") is None, (path, row)
            shown = row.get("shown")
            if isinstance(shown, dict):
                assert shown.get("ci") == knowledge.NO_INTERVAL and shown.get("rsd") == knowledge.NO_RSD, (path, shown)
    assert checked >= 64


@pytest.mark.browser
def test_the_explorer_gives_one_sample_the_words_not_an_interval(one_sample_site, browser):
    """The explorer's table (JavaScript, from rows whose interval is null) prints the same words
    as every other page for a figure of one sample, never "0–0" or "966–966", and no RSD."""
    from sitebuild import serve
    server = serve(one_sample_site / "public")
    try:
        results = sorted(p.stem for p in (one_sample_site / "data" / "results").glob("*.json"))
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{server.server_address[1]}/explorer/?r={','.join(results)}&fs=ext4")
        page.wait_for_function("document.querySelectorAll('#explorer-table tbody tr').length > 0", timeout=60000)
        rows = page.eval_on_selector_all("#explorer-table tbody tr",
                                         "rows => rows.map(r => [...r.children].map(c => c.textContent))")
        page.close()
    finally:
        server.shutdown()
    text = "\n".join(" | ".join(r) for r in rows)
    assert knowledge.NO_INTERVAL in text and not EQUAL_ENDS.search(text) and "0.0 %" not in text, text[:2000]
