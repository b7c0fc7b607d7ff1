"""A probe record's numbers are finite (issue #60, round 16, finding 8): "wall_seconds": 1e999
reads as inf, which check-data took ("0 errors") while it refused a literal NaN. Any float of a
committed probe file written 1e999 or -1e999 is refused in one line naming the file and its
JSON Pointer; the file unchanged passes."""
import json
import shutil
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from fsatlas.cli import main
from fsatlas.results import probefile, resultfile

ROOT = Path(__file__).resolve().parents[2]
PROBES = sorted((ROOT / "data" / "probes").glob("*.json"))


def _floats(value, parts=()):
    """The JSON Pointer parts of every float in a document."""
    if isinstance(value, float):
        yield parts
    elif isinstance(value, (dict, list)):
        for key, item in (value.items() if isinstance(value, dict) else enumerate(value)):
            yield from _floats(item, (*parts, key))


def _set(doc, parts, value):
    node = doc
    for key in parts[:-1]:
        node = node[key]
    node[parts[-1]] = value


def _copy(folder: Path, source: Path) -> Path:
    """The probe file with its bundle (what probefile.problems reads beside it) in folder."""
    (folder / "raw").mkdir(parents=True, exist_ok=True)
    for path in (ROOT / "data" / "probes" / "raw").glob(source.stem + ".*"):
        shutil.copy(path, folder / "raw" / path.name)
    shutil.copy(source, folder / source.name)
    return folder / source.name


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), sign=st.sampled_from(["", "-"]))
def test_a_probe_number_that_is_not_finite_is_refused_in_one_line(tmp_path_factory, data, sign):
    source = data.draw(st.sampled_from(PROBES))
    doc = json.loads(source.read_text())
    places = list(_floats(doc))
    parts = data.draw(st.sampled_from(places)) if places else ("wall_seconds",)
    path = _copy(tmp_path_factory.mktemp("probes"), source)
    assert probefile.problems(str(path)) == []  # the copy as committed passes
    _set(doc, parts, "__NOT_FINITE__")
    path.write_text(json.dumps(doc, indent=1).replace('"__NOT_FINITE__"', f"{sign}1e999"))
    found = probefile.problems(str(path))
    assert [(p.severity, p.file, p.path) for p in found] == [("error", str(path), resultfile.pointer(parts))]
    assert "expected a finite number" in found[0].message


def test_check_data_refuses_the_adversarys_infinite_wall_time_in_one_line(tmp_path, capsys):
    data = tmp_path / "data"
    data.mkdir()
    for name in ("sources.yaml", "feature_columns.yaml"):
        shutil.copy(ROOT / "data" / name, data / name)
    shutil.copytree(ROOT / "data" / "probes", data / "probes")
    path = data / "probes" / PROBES[0].name
    text = path.read_text()
    doc = json.loads(text)
    assert isinstance(doc["wall_seconds"], float)
    path.write_text(json.dumps({**doc, "wall_seconds": "__INF__"}, indent=1).replace('"__INF__"', "1e999"))
    capsys.readouterr()
    assert main(["check-data", "--data", str(data)]) == 1
    err = [line for line in capsys.readouterr().err.splitlines() if not line.startswith("  ")]
    assert err == [f"{path}: error: /wall_seconds: expected a finite number, found inf"], err
