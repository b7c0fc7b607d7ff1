"""Fixtures for the site tests: a built site, a local server for it, and a browser page."""
import fcntl
import shutil

import pytest

from sitebuild import FIXTURES, REPO, build_site, serve


def built_once(tmp_path_factory, worker_id, name, build):
    """A folder `build(folder)` fills once for the whole test session, not once per xdist worker:
    the workers share their base folder's parent and take turns on a lock (pytest-xdist's own
    recipe for a session fixture made once). A site takes 30-55 s to build on CI's two cores.
    Tests only read what it holds."""
    if worker_id == "master":  # not under xdist: the parent folder outlives the session
        root = tmp_path_factory.mktemp(name)
        build(root)
        return root
    shared = tmp_path_factory.getbasetemp().parent
    root, done = shared / name, shared / f"{name}.built"
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not done.exists():
            shutil.rmtree(root, ignore_errors=True)  # a worker that failed part way
            root.mkdir()
            build(root)
            done.touch()
    return root


@pytest.fixture(scope="session")
def site_root(tmp_path_factory, worker_id):
    return built_once(tmp_path_factory, worker_id, "site", lambda root: build_site(root, FIXTURES / "results"))


def _served(public):
    """The address of a local server for a built site's public folder, while the fixture lasts."""
    server = serve(public)
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture(scope="session")
def site_url(site_root):
    yield from _served(site_root / "public")


@pytest.fixture
def page(browser):
    """A page that records console errors and uncaught exceptions in page.errors."""
    context = browser.new_context()
    pg = context.new_page()
    pg.errors = []
    pg.on("console", lambda m: m.type == "error" and pg.errors.append(m.text))
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    yield pg
    context.close()


def _synthetic_site(tmp_path_factory, worker_id, name, count):
    """The address of a site built from `count` synthetic result files, served while it lasts."""
    from sitebuild import synthetic_results
    root = built_once(tmp_path_factory, worker_id, f"{name}-site",
                      lambda root: build_site(root, synthetic_results(root / "input", count)))
    yield from _served(root / "public")


@pytest.fixture(scope="session")
def explorer_url(tmp_path_factory, worker_id):
    """A site built from a few synthetic result files with four filesystems, for the explorer."""
    yield from _synthetic_site(tmp_path_factory, worker_id, "explorer", 3)


@pytest.fixture(scope="session")
def big_site_url(tmp_path_factory, worker_id):
    """The site built from 1,000 synthetic result files (the explorer's scale)."""
    yield from _synthetic_site(tmp_path_factory, worker_id, "big", 1000)


@pytest.fixture(scope="session")
def committed_root(tmp_path_factory, worker_id):
    """The site built from every committed result file (data/results), as make site builds it."""
    return built_once(tmp_path_factory, worker_id, "committed-site",
                      lambda root: build_site(root, REPO / "data" / "results"))


@pytest.fixture(scope="session")
def committed_url(committed_root):
    yield from _served(committed_root / "public")


DURABILITY_RUN = "20261124T192938Z-fsatlas-ci-vm-standard"  # committed: the guides' claims measured


@pytest.fixture(scope="session")
def guides_url(tmp_path_factory, worker_id):
    """The site built from the committed durability run, whose cells answer guide claims."""
    def build(root):
        data = root / "input"
        for kind, name in (("results", f"{DURABILITY_RUN}.json"), ("raw", f"{DURABILITY_RUN}.tar.gz")):
            (data / kind).mkdir(parents=True)
            shutil.copy(REPO / "data" / kind / name, data / kind)
        build_site(root, data / "results")
    yield from _served(built_once(tmp_path_factory, worker_id, "guides-site", build) / "public")
