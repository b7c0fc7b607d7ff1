"""The modules a build spends its CPU in, compiled to C by Cython, and the import hook that
loads a compiled module only when it was made from the source that is there.

A first build of 10,000 results spends about 100 s of CPU in these modules' Python (checking
and deriving each result file: some fifteen steps, none over 7 %). Cython compiles them as
they are, its reading of annotations off (`annotation_typing=False`), so that they mean what
Python means: checking and deriving 500 quick results in one process took 3.76-4.05 s of user
CPU compiled as setup compiles them, 4.34-4.90 s from source; an aggregate of 2,000 results 10.8-11.2 s against
12.6-12.7 s.

`make setup` compiles them (main(), from scripts/setup.sh) into FOLDER, inside the virtual
environment whose interpreter they are made for, each file named by the digest of the source
it was made from. An edited module is imported from its source until setup runs again: a
compiled file never runs in place of code it was not made from. FSATLAS_PURE=1 imports every
module from its source (profilers see no Python frames in compiled code).
"""
import hashlib
import importlib.machinery
import importlib.util
import os
import sys

MODULES = ("fsatlas.results.validation", "fsatlas.results.resultfile", "fsatlas.results.privacy",
           "fsatlas.results.stats", "fsatlas.results.flags", "fsatlas.results.shares",
           "fsatlas.site.aggregate", "fsatlas.site.result_tables", "fsatlas.site.result_chart", "fsatlas.site.explorer",
           "fsatlas.site.knowledge", "fsatlas.site.best_per_key", "fsatlas.site.run_rule",
           "fsatlas.site.build",
           # validate's reading of a bundle's reports: a bundle of 50,000 small fio reports took
           # 11.6 s to validate from source, 9.2 s compiled (make perf's bounds row: 10 s)
           "fsatlas.results.importers.fio", "fsatlas.results.fio_json", "fsatlas.results.fio_terse",
           "fsatlas.results.figures", "fsatlas.results.bundle")
FOLDER = os.path.join(sys.prefix, "fsatlas-compiled")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the folder holding fsatlas/
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]  # this interpreter's, e.g. .cpython-311-x86_64-linux-gnu.so
PURE = "FSATLAS_PURE"


def compiled_file(name: str, source: bytes, folder: str = FOLDER) -> str:
    return os.path.join(folder, f"{name}-{hashlib.sha256(source).hexdigest()[:16]}{SUFFIX}")


class Finder:
    """Finds the compiled file of a module in `modules` made from its source as it is now;
    else nothing, and the module is imported from its source as usual."""

    def __init__(self, modules=MODULES, folder: str = FOLDER):
        self.modules, self.folder = frozenset(modules), folder

    def find_spec(self, name, path=None, target=None):
        if name not in self.modules:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or not (spec.origin or "").endswith(".py"):
            return None
        try:
            with open(spec.origin, "rb") as f:
                built = compiled_file(name, f.read(), self.folder)
        except OSError:
            return None
        if not os.path.isfile(built):
            return None
        return importlib.util.spec_from_file_location(name, built,
                                                      loader=importlib.machinery.ExtensionFileLoader(name, built))


def install(modules=MODULES, folder: str = FOLDER) -> None:
    """Puts a Finder first on the import path, once, unless FSATLAS_PURE=1."""
    if os.environ.get(PURE) == "1" or any(isinstance(f, Finder) for f in sys.meta_path):
        return
    sys.meta_path.insert(0, Finder(modules, folder))


def in_use(modules=MODULES) -> list[str]:
    """The modules this process imports compiled (importing each)."""
    import importlib
    return [name for name in modules if importlib.import_module(name).__file__.endswith(SUFFIX)]


def source_file(name: str, root: str = ROOT) -> str:
    return os.path.join(root, *name.split(".")) + ".py"


def build(modules=MODULES, folder: str = FOLDER, root: str = ROOT) -> tuple[list, list]:
    """Compiles each module whose compiled file for its present source is missing, as many at
    once as there are cores, and removes the compiled files of its older sources. Returns
    (the modules compiled now, [(module, why it could not be)]): a module that fails to
    compile (no C compiler, no Python headers) is imported from its source, as fast as before."""
    from concurrent.futures import ThreadPoolExecutor
    os.makedirs(folder, exist_ok=True)
    targets = {}
    for name in modules:
        with open(source_file(name, root), "rb") as f:
            targets[name] = compiled_file(name, f.read(), folder)
    present = set(os.listdir(folder))
    for entry in present - {os.path.basename(t) for t in targets.values()}:  # made from an older source
        if entry.endswith(SUFFIX) and entry[:-len(SUFFIX)].rsplit("-", 1)[0] in targets:
            os.unlink(os.path.join(folder, entry))
    todo = [(name, target) for name, target in targets.items() if os.path.basename(target) not in present]
    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        outcomes = list(pool.map(lambda job: _compile(*job, folder=folder, root=root), todo))
    done = [name for (name, _), why in zip(todo, outcomes) if not why]
    return done, [(name, why) for (name, _), why in zip(todo, outcomes) if why]


def _compile(name: str, target: str, folder: str, root: str) -> str:
    """Compiles one module into target (through a temporary folder, then a rename); '' or why not."""
    import subprocess
    import sysconfig
    import tempfile
    source = source_file(name, root)
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        c_file, built = os.path.join(tmp, name + ".c"), os.path.join(tmp, os.path.basename(target))
        # -O1: as fast here as the interpreter's own -O2, in two thirds of the compile time
        steps = ([sys.executable, "-m", "cython", "-3", "-X", "annotation_typing=False", "--module-name", name,
                  os.path.relpath(source, root), "-o", c_file],
                 [sysconfig.get_config_var("CC") or "cc", "-shared", "-fPIC", "-O1", "-g0", "-fwrapv",
                  "-I", sysconfig.get_paths()["include"], c_file, "-o", built])
        for step in steps:
            try:
                run = subprocess.run(step, cwd=root, capture_output=True, text=True, errors="replace")
            except OSError as e:
                return f"{step[0]}: {e.strerror}"
            if run.returncode:
                lines = [line for line in run.stderr.splitlines() if line.strip()]
                return f"{os.path.basename(step[0])} exited {run.returncode}: {lines[-1] if lines else 'no message'}"
        with open(source, "rb") as f:
            if compiled_file(name, f.read(), folder) != target:
                return "its source changed while it was compiled"
        os.replace(built, target)
    return ""


def main() -> int:
    import time
    started = time.monotonic()
    done, failed = build()
    print(f"compiled modules: {len(MODULES) - len(failed)} of {len(MODULES)} up to date "
          f"({len(done)} compiled now, in {time.monotonic() - started:.1f} s)")
    for name, why in failed:
        print(f"compiled modules: {name} runs from its source: {why}", file=sys.stderr)
    return 0
