"""`make serve`: adding, changing or removing a result file rebuilds the site being served."""
import json
import shutil
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from sitebuild import FIXTURES, REPO, build_site, synthetic_results

pytestmark = pytest.mark.site


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url, text, present=True, timeout=60):
    deadline = time.monotonic() + timeout
    body = ""
    while time.monotonic() < deadline:
        try:
            body = urllib.request.urlopen(url, timeout=5).read().decode()
            if (text in body) == present:
                return body
        except OSError:
            pass
        time.sleep(0.5)
    raise AssertionError(f"{url}: {text!r} {'never appeared' if present else 'never went away'}")


def test_serve_follows_results_added_changed_and_removed(tmp_path):
    root = tmp_path / "site"
    root.mkdir()
    build_site(root, FIXTURES / "results")
    port = free_port()
    server = subprocess.Popen([sys.executable, REPO / "scripts" / "serve.py", "--root", root, "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{port}/results/"
        wait_for(url, "fixture-valid")
        extra = synthetic_results(tmp_path / "new", 1)
        shutil.copytree(tmp_path / "new" / "raw", root / "data" / "raw", dirs_exist_ok=True)
        shutil.copy(extra / "synthetic-00000.json", root / "data" / "results")
        wait_for(url, "synthetic-00000")  # added
        result = json.loads((root / "data" / "results" / "synthetic-00000.json").read_text())
        result["system"]["kernel"] = "9.9.9-changed"
        (root / "data" / "results" / "synthetic-00000.json").write_text(json.dumps(result))
        wait_for(f"http://127.0.0.1:{port}/results/synthetic-00000/", "9.9.9-changed")  # changed
        wait_for(f"http://127.0.0.1:{port}/results/synthetic-00000/", 'th scope="rowgroup"')  # its metrics table
        (root / "data" / "results" / "synthetic-00000.json").unlink()
        wait_for(url, "synthetic-00000", present=False)  # removed
    finally:
        server.terminate()
        server.wait(timeout=20)
