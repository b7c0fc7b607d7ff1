"""The fleet tests' hosts: network namespaces on this machine (netns_hosts.py), one fixture."""
import os
import shutil

import pytest

from netns_hosts import Hosts


@pytest.fixture
def hosts(tmp_path):
    made = []

    def make(count):
        made.append(Hosts(count, tmp_path))
        return made[-1]

    yield make
    for h in made:
        h.close()


def pytest_collection_modifyitems(config, items):
    if os.geteuid() != 0 or not shutil.which("ip"):
        skip = pytest.mark.skip(reason="network namespaces need root and iproute2")
        for item in items:
            if "fleet" in str(item.fspath):
                item.add_marker(skip)
