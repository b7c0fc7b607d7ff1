"""A result dated inside the validator's clock-skew window (up to an hour ahead) is built like
any other: Hugo left such a page out as a future one, and the build then failed with a
traceback naming no file."""
import datetime as dt
import json
import shutil

import pytest

from sitebuild import FIXTURES, build_site

pytestmark = pytest.mark.site


def test_a_result_dated_forty_minutes_ahead_gets_its_page(tmp_path):
    results = tmp_path / "data" / "results"
    results.mkdir(parents=True)
    shutil.copytree(FIXTURES / "raw", tmp_path / "data" / "raw")
    data = json.loads((FIXTURES / "results" / "fixture-valid.json").read_text())
    data["created"] = (dt.datetime.now(dt.timezone.utc) + dt.timedelta(minutes=40)).strftime("%Y-%m-%dT%H:%M:%SZ")
    (results / "fixture-valid.json").write_text(json.dumps(data))
    public = build_site(tmp_path / "site", results)
    assert "fixture-valid" in (public / "results" / "fixture-valid" / "index.html").read_text()
