import copy
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
REPO = Path(__file__).resolve().parents[2]


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


def loop_state():
    """What a run must leave as it found it: attached loop devices and loop mounts."""
    loops = subprocess.run(["losetup", "-a"], capture_output=True, text=True).stdout
    mounts = [line for line in Path("/proc/self/mounts").read_text().splitlines() if "/dev/loop" in line]
    return sorted(loops.splitlines()), sorted(mounts)


def write_json(path, data):
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


def mutated(data, change):
    data = copy.deepcopy(data)
    change(data)
    return data
