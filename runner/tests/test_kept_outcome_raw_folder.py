"""The rule: what `fsatlas validate --no-cache` refuses, `fsatlas validate` with its kept outcomes
(build/cache/validation.json) refuses too, and what the one accepts the other accepts. A result
beside the folder raw/<id>/ (the layout before bundles, or a run that was killed) is refused; a
clean outcome kept before the folder was made was given again, since a kept outcome depended on
the result file and its bundle alone (adversary round 81, finding 4), and a refusal kept while
it was there outlived it.

Checked on every committed run and the fixture: a clean outcome kept, then anything made at
raw/<id> (an empty folder, the bundle unpacked there, a file, a link), then removed again, each
time validated with the kept outcomes and without them, a folder of results or the file alone."""
import contextlib
import os
import shutil
import tempfile

from hypothesis import given, settings, strategies as st

from fsatlas.results import bundle, validation
from testutil import FIXTURES, RESULTS

SOURCES = [(RESULTS.parent, path.stem) for path in sorted(RESULTS.glob("*.json"))] + [(FIXTURES, "fixture-valid")]


def _errors(paths: list, cache: str | None) -> list:
    """The errors `fsatlas validate PATH...` prints (validation.check_paths), with its kept outcomes or, None, without."""
    return [(p.file, p.path, p.message) for p in validation.check_paths(paths, cache)[1] if p.severity == "error"]


def _make(kind: str, rid: str) -> None:
    where = bundle.folder("data", rid)
    if kind == "empty folder":
        os.mkdir(where)
    elif kind == "unpacked":
        bundle.unpack("data", rid)
    elif kind == "file":
        with open(where, "wb") as f:
            f.write(b"{}\n")
    else:
        os.symlink(f"{rid}{bundle.SUFFIX}", where)


@settings(max_examples=12, deadline=None, database=None)
@given(source=st.sampled_from(SOURCES), kind=st.sampled_from(["empty folder", "unpacked", "file", "link"]),
       whole_folder=st.booleans())
def test_a_kept_outcome_refuses_what_a_fresh_check_refuses_about_raw_id(source, kind, whole_folder):
    data, rid = source
    with tempfile.TemporaryDirectory() as tmp, contextlib.chdir(tmp):
        os.makedirs("data/results")
        os.makedirs("data/raw")
        shutil.copy(data / "results" / f"{rid}.json", "data/results")
        shutil.copy(data / "raw" / f"{rid}{bundle.SUFFIX}", "data/raw")
        paths = ["data/results"] if whole_folder else [f"data/results/{rid}.json"]
        assert _errors(paths, validation.CACHE_FILE) == []  # a clean outcome kept
        _make(kind, rid)
        fresh = _errors(paths, None)
        assert any(f"found the folder raw/{rid}/" in message or "raw" in file for file, _, message in fresh), fresh
        assert _errors(paths, validation.CACHE_FILE) == fresh
        if os.path.isdir(bundle.folder("data", rid)) and not os.path.islink(bundle.folder("data", rid)):
            shutil.rmtree(bundle.folder("data", rid))
        else:
            os.unlink(bundle.folder("data", rid))
        assert _errors(paths, None) == [] and _errors(paths, validation.CACHE_FILE) == []
