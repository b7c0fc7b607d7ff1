"""#60 item 6 in the text tables: a row of `fsatlas compare` and `fsatlas report` names the flags
of the cells it compares (above the raw device, a page-cache workload, a baseline that cannot
tell, ...), as the runner's rule derives them (results/flags.derive) and the site's tables show
them (round 60: compare and report showed none)."""
import json
import os
import re

from hypothesis import HealthCheck, assume, given, settings, strategies as st

from fsatlas.cli import main
from fsatlas.results import flags
from fsatlas.results.resultfile import readable

RESULTS = os.path.join(os.path.dirname(__file__), "..", "..", "data", "results")
STANDARD = sorted(os.path.join(RESULTS, n) for n in os.listdir(RESULTS) if n.endswith("-standard.json"))


def _expected(result: dict, fs: str, row_key: str) -> list[str]:
    """The flags of fs's default cells of this workload and dimensions, derived from the file."""
    found = set()
    for cell in result["cells"]:
        parts = cell["key"].split("|")
        ident = cell["workload"] + ("|" + parts[4] if len(parts) > 4 and parts[4] else "")
        if cell["status"] == "ok" and cell["filesystem"] == fs and cell.get("variant", "defaults") == "defaults" \
                and ident == row_key:
            found |= set(flags.derive(cell, result["target"])) & set(flags.MEANINGS)
    return [f for f in flags.MEANINGS if f in found]


def _printed(out: str) -> dict:
    """cell key -> the bracketed flags at the end of its row ("" where none), from compare's table."""
    rows = {}
    for line in out.splitlines()[4:]:
        mark = re.search(r"  \[([^\]]*)\]$", line)
        rows.setdefault(line.split()[0], mark.group(1) if mark else "")
    return rows


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_every_row_names_the_flags_of_the_cells_it_compares(capsys, data):
    path = data.draw(st.sampled_from(STANDARD), label="result")
    result = readable(json.loads(open(path).read()))
    filesystems = sorted({c["filesystem"] for c in result["cells"] if c.get("variant", "defaults") == "defaults"
                          and c["status"] == "ok"})
    assume(len(filesystems) >= 2)
    a, b = data.draw(st.lists(st.sampled_from(filesystems), min_size=2, max_size=2, unique=True), label="sides")
    capsys.readouterr()
    assert main(["compare", path, "--a", a, "--b", b]) == 0
    captured = capsys.readouterr()
    for key, shown in _printed(captured.out).items():
        fa, fb = _expected(result, a, key), _expected(result, b, key)
        expected = ", ".join(fa) if fa == fb else f"A: {', '.join(fa) or 'none'}; B: {', '.join(fb) or 'none'}"
        assert shown == expected, (key, shown, expected)
        for name in set(fa) | set(fb):  # each flag shown is explained under the table
            assert f"{name}: {flags.MEANINGS[name]}" in captured.err


def test_the_named_rows_of_round_60(capsys, tmp_path):
    """ext4 against xfs in the Xeon run: rewrite with O_DIRECT above the raw device on both sides,
    background-writes a page-cache workload; report's table says the same in its flags column."""
    path = os.path.join(RESULTS, "20261127T143616Z-m-b6d0b06748-standard.json")
    assert main(["compare", path, "--a", "ext4", "--b", "xfs"]) == 0
    rows = _printed(capsys.readouterr().out)
    assert rows["rewrite"] == "above-device" and rows["background-writes"] == "page-cache"
    out = tmp_path / "r.md"
    assert main(["report", path, "--a", "ext4", "--b", "xfs", "--no-chart", "--out", str(out)]) == 0
    table = {line.split(" | ")[0].strip("| "): line for line in out.read_text().splitlines() if line.startswith("| ")}
    assert table["rewrite"].rstrip(" |").endswith("| above-device") and "| flags |" in out.read_text()
    text = out.read_text()
    assert "above-device\\: O_DIRECT at over" in text.split("| rewrite |")[1]  # under the table


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pair=st.lists(st.sampled_from(STANDARD), min_size=2, max_size=2, unique=True))
def test_across_files_every_row_names_each_side_s_flags(capsys, pair):
    results = [readable(json.loads(open(p).read())) for p in pair]
    capsys.readouterr()
    code = main(["compare", *pair])
    captured = capsys.readouterr()
    assume(not (code and "share no measured cell" in captured.err))
    assert code == 0, captured.err
    for key, shown in _printed(captured.out).items():
        fa, fb = ([f for f in flags.MEANINGS if f in {x for c in r["cells"] if c["key"] == key and c["status"] == "ok"
                                                      for x in flags.derive(c, r["target"])}] for r in results)
        expected = ", ".join(fa) if fa == fb else f"A: {', '.join(fa) or 'none'}; B: {', '.join(fb) or 'none'}"
        assert shown == expected, (key, shown, expected)


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_a_cells_flags_do_not_depend_on_the_order_of_its_metrics_or_on_what_it_stores(data):
    """The rules (round 61): a cell's flags are the runner's rule applied to its run: the metric
    whose spread decides is the one the matrix names primary for its workload (tree-read's
    read_per_s: a file with its keys sorted was "noisy" on its CPU share), whatever order the
    file holds its metrics in; emulated exactly where the run's guest was emulated, whatever the
    cell stores."""
    path = data.draw(st.sampled_from(STANDARD), label="result")
    result = readable(json.loads(open(path).read()))
    cells = [c for c in result["cells"] if c["status"] == "ok"]
    cell = data.draw(st.sampled_from(cells), label="cell")
    names = data.draw(st.permutations(sorted(cell["metrics"])), label="order")
    shuffled = {**cell, "metrics": {n: cell["metrics"][n] for n in names}}
    assert flags.derive(shuffled, result["target"]) == flags.derive(cell, result["target"])
    primary = flags.matrix_workloads().get(cell["workload"], {}).get("primary")
    if primary in cell["metrics"]:
        assert flags.primary_metric(shuffled["metrics"], cell["workload"]) == primary
    emulated = data.draw(st.sampled_from([None, False, True]), label="guest emulated")
    target = {**result["target"], **({"guest": {"emulated": emulated}} if emulated is not None else {})}
    stored = data.draw(st.booleans(), label="stored")
    with_flag = {**cell, "flags": [f for f in cell.get("flags", []) if f != "emulated"] + (["emulated"] if stored else [])}
    assert ("emulated" in flags.derive(with_flag, target)) == (emulated is True)
