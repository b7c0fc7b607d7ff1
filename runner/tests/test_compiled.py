"""The hot modules compiled by Cython (fsatlas/compiled.py): used only when made from the
source that is there, made again by setup when it changed, and never in the way of a
machine that cannot compile them."""
import os
import subprocess
import sys
import sysconfig

from fsatlas import compiled


def _imported(root, folder, name: str) -> list[str]:
    """[__file__, VALUE] of module `name` imported in a new interpreter whose path starts with
    root, through a Finder of that one module and folder."""
    code = (f"import sys; sys.path.insert(0, {str(root)!r}); from fsatlas import compiled; "
            f"sys.meta_path.insert(0, compiled.Finder(({name!r},), {str(folder)!r})); "
            f"import importlib; m = importlib.import_module({name!r}); print(m.__file__); print(m.VALUE)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return out.stdout.split()


def _package(tmp_path, value: int):
    root = tmp_path / "src"
    (root / "hotpkg").mkdir(parents=True, exist_ok=True)
    (root / "hotpkg" / "__init__.py").write_text("")
    # an annotation Cython would check if it read it: the compiled module must mean what Python does
    (root / "hotpkg" / "hot.py").write_text(f"def half(x: int) -> int:\n    return x / 2\n\nVALUE = {value}\n"
                                            f"assert half(3.0) == 1.5\n")
    return root


def test_a_compiled_module_runs_only_for_the_source_it_was_made_from(tmp_path):
    root, folder = _package(tmp_path, 1), tmp_path / "compiled"
    assert compiled.build(("hotpkg.hot",), str(folder), str(root)) == (["hotpkg.hot"], [])
    where, value = _imported(root, folder, "hotpkg.hot")
    assert where.startswith(str(folder)) and where.endswith(compiled.SUFFIX) and value == "1"

    _package(tmp_path, 2)  # edited, not compiled again: its source runs
    assert _imported(root, folder, "hotpkg.hot") == [str(root / "hotpkg" / "hot.py"), "2"]

    assert compiled.build(("hotpkg.hot",), str(folder), str(root)) == (["hotpkg.hot"], [])
    where, value = _imported(root, folder, "hotpkg.hot")
    assert where.endswith(compiled.SUFFIX) and value == "2"
    assert [p.name for p in folder.iterdir()] == [os.path.basename(where)]  # the older one removed, no temporary left
    assert compiled.build(("hotpkg.hot",), str(folder), str(root)) == ([], [])  # up to date: nothing to do


def test_a_module_that_cannot_be_compiled_is_named_and_runs_from_its_source(tmp_path, monkeypatch):
    root, folder = _package(tmp_path, 1), tmp_path / "compiled"
    real = sysconfig.get_config_var
    monkeypatch.setattr(sysconfig, "get_config_var", lambda name: "/nonexistent/cc" if name == "CC" else real(name))
    done, failed = compiled.build(("hotpkg.hot",), str(folder), str(root))
    assert done == [] and failed == [("hotpkg.hot", "/nonexistent/cc: No such file or directory")]
    assert list(folder.iterdir()) == []
    assert _imported(root, folder, "hotpkg.hot") == [str(root / "hotpkg" / "hot.py"), "1"]


def test_setup_compiled_every_hot_module_and_fsatlas_pure_runs_them_from_source():
    code = "from fsatlas import compiled; print(' '.join(compiled.in_use()))"
    used = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert used == list(compiled.MODULES), "run make setup: it compiles the modules whose source changed"
    pure = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env={**os.environ, compiled.PURE: "1"}).stdout.split()
    assert pure == []
