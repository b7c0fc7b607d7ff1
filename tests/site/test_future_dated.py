"""A result dated inside the validator's clock-skew window (up to an hour ahead) is built like
any other: Hugo left such a page out as a future one, and the build then failed with a
traceback naming no file. Built beside it (one build for both): a result whose every cell
failed or was skipped, whose page showed an empty chart with Explore and Save buttons."""
import datetime as dt
import json
import shutil

import pytest

from sitebuild import FIXTURES, build_site

# one worker runs them (--dist loadgroup): their module's fixture is then made once, not once a worker
pytestmark = [pytest.mark.site, pytest.mark.xdist_group("future-dated")]


@pytest.fixture(scope="module")
def public(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("future")
    results = tmp_path / "data" / "results"
    results.mkdir(parents=True)
    shutil.copytree(FIXTURES / "raw", tmp_path / "data" / "raw")
    data = json.loads((FIXTURES / "results" / "fixture-valid.json").read_text())
    data["created"] = (dt.datetime.now(dt.timezone.utc) + dt.timedelta(minutes=40)).strftime("%Y-%m-%dT%H:%M:%SZ")
    (results / "fixture-valid.json").write_text(json.dumps(data))
    failed = json.loads((FIXTURES / "results" / "fixture-valid.json").read_text())
    failed["id"] = "fixture-all-failed"
    failed["cells"] = [{**c, "status": "failed" if c["status"] == "ok" else c["status"], "metrics": {}, "raw": [],
                        "flags": [], "reason": c.get("reason") or "fio exited with status 1"} for c in failed["cells"]]
    (results / "fixture-all-failed.json").write_text(json.dumps(failed))
    return build_site(tmp_path / "site", results)


def test_a_result_dated_forty_minutes_ahead_gets_its_page(public):
    assert "fixture-valid" in (public / "results" / "fixture-valid" / "index.html").read_text()


def test_a_result_with_nothing_measured_says_so_instead_of_an_empty_chart(public):
    page = (public / "results" / "fixture-all-failed" / "index.html").read_text()
    said = "Nothing measured in this run: every cell failed or was skipped (see the table)."
    assert page.count(said) == 1
    assert '<figure class="chart"' not in page and "data-spec=" not in page  # no chart partial: no buttons
    measured = (public / "results" / "fixture-valid" / "index.html").read_text()
    assert said not in measured and measured.count('<figure class="chart"') == 1  # just beside: one cell measured


def test_a_result_with_nothing_measured_offers_no_comparison_and_no_empty_overview(public):
    """Round 12 (#62): the all-failed page showed "The run at a glance" over nothing and offered
    a command to compare your system with it. Now each says why there is nothing; one cell
    measured just beside it keeps both."""
    page = (public / "results" / "fixture-all-failed" / "index.html").read_text()
    assert 'id="overview-nothing"' in page and 'id="own-run-nothing"' in page
    assert "fsatlas compare" not in page and "overview-table" not in page
    assert 'href="/results/fixture-all-failed/cells/"' in page
    measured = (public / "results" / "fixture-valid" / "index.html").read_text()
    assert "overview-nothing" not in measured and "own-run-nothing" not in measured
    assert "fsatlas compare" in measured and "overview-table" in measured
