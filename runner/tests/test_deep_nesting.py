"""Input nested deeper than a parser's stack (issue 61, F61b items 1-2): a --system file of
25,000 brackets crashed Python (exit 139, no message), a fio report nested 1,100 levels under
"jobs" ended in json's RecursionError, and a raw report orjson reads (up to 1,024 levels) in the
privacy scan's recursive walk. Rule: however deep the input, one located line and exit 1 where it
is refused; never a crash or a traceback."""
import json
import subprocess
import sys

import orjson
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from fsatlas import safe_yaml
from fsatlas.cli import main
from fsatlas.results import fio_json, privacy

DD = "640000 bytes (640 kB, 625 KiB) copied, 0.5 s, 1.3 MB/s\n"
FACTS = {"kernel": "6.1.0", "os": "Debian 12", "cpu_model": "x", "cpu_count": 4, "memory_bytes": 1,
         "virtualization": "none"}


def _one_line(err: str) -> str:
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_a_system_file_of_25000_brackets_is_one_located_line(tmp_path):
    """In a child process: on the unbounded parser the crash takes the process with it."""
    log = tmp_path / "dd.txt"
    log.write_text(DD)
    for name, text in (("deep.json", '{"system":' + "[" * 25_000 + "]" * 25_000 + "}"),
                       ("deep.yaml", "system: " + "[" * 25_000 + "]" * 25_000 + "\n"),
                       ("deep-map.yaml", "system: " + "{a: " * 12_000 + "1" + "}" * 12_000 + "\n")):
        system = tmp_path / name
        system.write_text(text)
        run = subprocess.run([sys.executable, "-m", "fsatlas.cli", "import", "dd", str(log), "--filesystem", "ext4",
                              "--system", str(system), "--out", str(tmp_path / "o")], capture_output=True, text=True)
        assert run.returncode == 1, (name, run.returncode, run.stderr[-300:])
        assert f"{system}: line 1: nested more than {safe_yaml.MAX_DEPTH} levels deep" in _one_line(run.stderr)
        assert not (tmp_path / "o").exists()


def _nest(depth: int, kinds: list[str]):
    value = "x"
    for level in range(depth):
        value = [value] if kinds[level % len(kinds)] == "list" else {"a": value}
    return value


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(depth=st.integers(1, 150), kinds=st.lists(st.sampled_from(["list", "map"]), min_size=1, max_size=5),
       spelling=st.sampled_from(["json", "flow", "block"]))
def test_a_system_file_is_refused_for_its_nesting_exactly_past_the_bound(tmp_path_factory, capsys, depth, kinds,
                                                                         spelling):
    tmp = tmp_path_factory.mktemp("deep")
    log = tmp / "dd.txt"
    log.write_text(DD)
    document = {"system": {**FACTS, "notes": _nest(depth, kinds)}}  # levels: the document, system, then depth
    system = tmp / "system.yaml"
    system.write_text(json.dumps(document) if spelling == "json" else
                      yaml.safe_dump(document, default_flow_style=spelling == "flow", width=10 ** 9))
    main(["import", "dd", str(log), "--filesystem", "ext4", "--system", str(system), "--out", str(tmp / "o")])
    err = capsys.readouterr().err
    too_deep = depth + 2 > safe_yaml.MAX_DEPTH
    assert ("nested more than" in err) == too_deep, (depth, err)
    if too_deep:
        _one_line(err)
        assert not (tmp / "o").exists()


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(depth=st.integers(1, 3000), trailer=st.sampled_from(["", "\nfio: file hash not empty on exit\n"]),
       inside=st.sampled_from(["[", "{\"a\":"]))
def test_a_fio_report_nested_at_any_depth_is_one_located_line(tmp_path_factory, capsys, depth, trailer, inside):
    tmp = tmp_path_factory.mktemp("fio")
    closing = "]" if inside == "[" else "}"
    report = tmp / "deep.json"
    report.write_text('note: a line fio prints\n{"fio version": "fio-3.33", "jobs": '
                      + inside * depth + "1" + closing * depth + "}" + trailer)
    assert main(["import", "fio", str(report), "--filesystem", "ext4", "--out", str(tmp / "o")]) == 1
    err = _one_line(capsys.readouterr().err)
    assert str(report) in err
    if depth + 1 > fio_json.MAX_DEPTH and (trailer or depth >= 1024):  # what orjson does not read itself
        assert f"JSON nested more than {fio_json.MAX_DEPTH} levels deep at line 2" in err


def test_brackets_inside_strings_are_no_nesting():
    text = '{"jobs": [{"jobname": "' + "[" * 500 + '\\"{{{"}]}\ntrailing text'
    fio_json.within_depth(text, 0, "x")  # no error: the brackets are a string's


def _strings_recursive(value, path=""):
    """The privacy walk's order, defined recursively: an independent statement of strings_in."""
    if isinstance(value, str):
        return [(path, value)]
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    out = []
    for key, item in items:
        if isinstance(key, str):
            out.append((f"{path}/{key}", key))
        out += _strings_recursive(item, f"{path}/{key}") if isinstance(item, (str, dict, list)) else []
    return out


@given(st.recursive(st.none() | st.integers() | st.text(max_size=4),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4),
                    max_leaves=30))
def test_the_privacy_walk_yields_what_a_recursive_one_does(value):
    assert list(privacy.strings_in(value)) == _strings_recursive(value)


def test_a_raw_report_orjson_reads_at_its_deepest_is_scanned_without_recursion():
    document = orjson.loads("[" * 1020 + '"/home/alice"' + "]" * 1020)
    assert "a user's home folder" in privacy.raw_finding("", document)
