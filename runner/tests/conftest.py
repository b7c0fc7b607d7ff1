import json
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import settings

from testutil import FIXTURES

# Speed is make perf's to judge, not the tests': on a loaded 2-core runner a correct example can
# take longer than hypothesis's default deadline of 200 ms (one that imported a module did).
settings.register_profile("fsatlas", deadline=None)
settings.load_profile("fsatlas")


def pytest_collection_modifyitems(config, items):
    if os.geteuid() != 0:
        skip = pytest.mark.skip(reason="needs root for loop devices and mkfs")
        for item in items:
            if "root" in item.keywords:
                item.add_marker(skip)


@pytest.fixture
def valid_result():
    with open(FIXTURES / "results" / "fixture-valid.json", encoding="utf-8") as f:
        return json.load(f)


@pytest.fixture
def out_dir(tmp_path):
    """A copy of the fixture output folder (results/ and raw/) that a test may change."""
    out = tmp_path / "out"
    shutil.copytree(FIXTURES, out)
    return out
