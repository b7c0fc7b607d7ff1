"""validate, compare, report and article new judge the file the kernel opens, however it is named
(adversary round 84):
- a path whose '..' follows a link (tmp/L/../d1/r.json, L a link to x/sub, is tmp/x/d1/r.json) is
  checked as that file, with its own bundle and its own kept outcome, never another file's that its
  text names (filesig.as_opened): the kept answer is always the --no-cache answer;
- one file named several times (a folder and a file in it, the folder twice, ./ and absolute
  spellings) is checked once, never refused as another file holding its id (validation.named_once);
  a copy of it in another folder still is."""
import json
import os
import shutil

from hypothesis import HealthCheck, given, settings, strategies as st

from fsatlas.cli import main
from testutil import RESULTS

COMMITTED = sorted(RESULTS.glob("*.json"))


def _layout(root, source) -> str:
    """root/d1: source with its bundle (honest); root/x/d1: source with one sample doubled and no
    bundle (refused); root/L: a link to x/sub. Returns the id."""
    rid = source.stem
    for folder in ("d1/results", "d1/raw", "x/sub", "x/d1/results"):
        os.makedirs(root / folder, exist_ok=True)
    shutil.copy(source, root / "d1" / "results")
    shutil.copy(RESULTS.parent / "raw" / f"{rid}.tar.gz", root / "d1" / "raw")
    doc = json.loads(source.read_text())
    cell = next(c for c in doc["cells"] if c["status"] == "ok")
    cell["metrics"][next(iter(cell["metrics"]))]["samples"][0] *= 2
    (root / "x" / "d1" / "results" / f"{rid}.json").write_text(json.dumps(doc))
    os.symlink("x/sub", root / "L")
    return rid


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(source=st.sampled_from(COMMITTED), linked_first=st.booleans(),
       spelling=st.sampled_from(["L/../d1", "./L/../d1", "L/./../d1", "{root}/L/../d1"]))
def test_a_path_through_a_link_and_dotdot_is_judged_as_the_file_the_kernel_opens(tmp_path_factory, capsys, source,
                                                                                  linked_first, spelling):
    root = tmp_path_factory.mktemp("linked")
    rid = _layout(root, source)
    cwd = os.getcwd()
    os.chdir(root)
    try:
        os.makedirs("build/cache")  # outcomes are kept here, as in a checkout
        honest, linked = f"d1/results/{rid}.json", f"{spelling.format(root=root)}/results/{rid}.json"
        for path, code in ([(linked, 1), (honest, 0)] if linked_first else [(honest, 0), (linked, 1)]) * 2:
            assert main(["validate", path]) == code, path
            assert main(["validate", "--no-cache", path]) == code, path
            assert main(["compare", "--runs-a", path, "--runs-b", str(COMMITTED[0] if source != COMMITTED[0]
                                                                      else COMMITTED[1])]) in ((1,) if code else (0, 1))
        capsys.readouterr()
        assert main(["compare", "--runs-a", linked, "--runs-b", honest]) == 1
        # refused for the linked file's own fault: no bundle beside it (its text's folder holds the honest one's)
        assert capsys.readouterr().err == f"fsatlas compare: {linked}: /: expected the raw output bundle raw/{rid}.tar.gz, found none\n"
    finally:
        os.chdir(cwd)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(names=st.lists(st.sampled_from(["folder", "folder/", "file", "./file", "absolute"]), min_size=2, max_size=5),
       source=st.sampled_from(COMMITTED))
def test_one_file_named_several_ways_is_checked_once(tmp_path_factory, capsys, names, source):
    root = tmp_path_factory.mktemp("named")
    rid = _layout(root, source)
    spelled = {"folder": "d1/results", "folder/": "d1/results/", "file": f"d1/results/{rid}.json",
               "./file": f"./d1/results/{rid}.json", "absolute": f"{root}/d1/results/{rid}.json"}
    cwd = os.getcwd()
    os.chdir(root)
    try:
        assert main(["validate", *[spelled[n] for n in names]]) == 0
        capsys.readouterr()
        os.makedirs("d2/results")
        os.makedirs("d2/raw")
        shutil.copy(f"d1/results/{rid}.json", "d2/results")  # another file holding its id
        shutil.copy(f"d1/raw/{rid}.tar.gz", "d2/raw")
        assert main(["validate", *[spelled[n] for n in names], f"d2/results/{rid}.json"]) == 1
        assert "expected an id no other result file has" in capsys.readouterr().err
    finally:
        os.chdir(cwd)
