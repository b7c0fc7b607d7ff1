"""The package shows the data flow: run/ → results/ → site/, with commands/ above them. A walk
over every import (ast, so imports inside functions count) fails on an import loop or on an
import against the stage order."""
import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "fsatlas"
# What each stage may import besides itself. The top-level modules (errors, safe_yaml, the
# package's __init__) are shared by all and import no stage; only cli imports the commands.
ALLOWED = {
    "results": {"top"},
    "run": {"top", "results"},
    "site": {"top", "results", "run"},  # run: only the matrix's definitions
    "commands": {"top", "results", "run", "site"},
    "top": set(),
    "cli": {"top", "results", "run", "site", "commands"},
}


def modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def stage(module: str) -> str:
    head = module.split(".")[0]
    if head in ("results", "run", "site", "commands", "cli"):
        return head
    return "top"


def imports(module: str, path: Path, known: dict) -> set[str]:
    """The package modules that one module imports (relative or absolute, at any depth)."""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - (node.level - 1)]
            elif node.module and node.module.split(".")[0] == "fsatlas":
                base = []
            else:
                continue
            target = ".".join(base + (node.module.split(".")[1:] if not node.level and node.module else
                                      (node.module.split(".") if node.module else [])))
            for alias in node.names:
                sub = f"{target}.{alias.name}" if target else alias.name
                found.add(sub if sub in known else target)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "fsatlas":
                    found.add(".".join(alias.name.split(".")[1:]))
    found.discard(module)
    return {m for m in found if m in known}


def graph() -> dict[str, set[str]]:
    known = modules()
    return {m: imports(m, p, known) for m, p in known.items()}


def test_every_import_follows_the_stage_order():
    wrong = [f"{m} ({stage(m)}) imports {t} ({stage(t)})" for m, targets in graph().items() for t in targets
             if stage(t) != stage(m) and stage(t) not in ALLOWED[stage(m)] and t != ""]
    assert wrong == []


def test_there_is_no_import_loop():
    edges = {m: {t for t in ts if t} for m, ts in graph().items()}
    # the package __init__ of a subpackage is where its own modules are found: an edge from a
    # module to its own package (from . import x) is not a loop of the code
    loops, state = [], {}

    def visit(node, trail):
        state[node] = "open"
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == "open":
                loops.append(" -> ".join(trail[trail.index(nxt):] + [nxt]))
            elif nxt not in state:
                visit(nxt, trail + [nxt])
        state[node] = "done"

    for m in sorted(edges):
        if m not in state:
            visit(m, [m])
    assert loops == []


def test_the_walk_sees_imports_inside_functions_and_relative_ones():
    g = graph()
    assert "results.importers" in g["results.validation"]  # imported inside recompute()
    assert "results.resultfile" in g["run.execution"]
    assert "run.matrix" in g["site.aggregate"]
