"""Issue #61, what no input may take: validate's memory whatever a result file or its bundle
holds. A 63 MB fio json+ report validates within 512 MiB (its latency bins are never parsed),
validate and import set their own address-space limit and report reaching it as one located
line, and (hypothesis) result files and bundles mutated anywhere (bytes, tar headers, pax
records, JSON values, member names) never make validate print a traceback or pass the bound."""
import gzip
import io
import json
import os
import re
import subprocess
import sys
import tarfile

import orjson
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from fsatlas import memory
from fsatlas.cli import main
from fsatlas.results import bundle, fio_json
from testutil import SAMPLES, edit_member, write_json

RID = "fixture-valid"
BOUND = 512 * 2**20
EXAMPLES = int(os.environ.get("FSATLAS_FUZZ_EXAMPLES", "40"))  # validate's memory bound (make perf's rows)


def peak_of(argv, cwd) -> tuple[int, str, int]:
    """(exit status, standard error, peak resident bytes) of one command, measured for it alone."""
    proc = subprocess.Popen([str(a) for a in argv], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=cwd)
    err = proc.stderr.read().decode()
    _, status, usage = os.wait4(proc.pid, 0)
    return os.waitstatus_to_exitcode(status), err, usage.ru_maxrss * 1024


def json_plus(report: bytes, size: int) -> bytes:
    """fio's report with a json+ latency histogram ("bins") of about size bytes in its first
    clat_ns: the shape of issue #61's 63 MB file, every figure fsatlas reads unchanged."""
    document = json.loads(report)
    lines = (size - len(report)) // 27  # a bin line: 25 to 26 characters and ",\n"
    bins = ",\n".join(f'            "{100000 + i}" : {i % 97 + 1}' for i in range(lines))
    text = json.dumps(document, indent=2)
    return text.replace('"clat_ns": {', '"clat_ns": {\n          "bins" : {\n' + bins + '\n          },', 1).encode()


@pytest.fixture
def fio_fixture(out_dir, valid_result):
    path = write_json(out_dir / "results" / f"{RID}.json", valid_result)
    return out_dir, path, valid_result["cells"][0]["raw"][0]


def test_a_63_mb_json_plus_report_validates_within_the_bound(fio_fixture):
    """Issue #61: 1.34 GB for a 63 MB json+ report, 882 MB here before; its bins are cut before
    it is parsed, its figures recomputed as from the report without them."""
    out, path, reference = fio_fixture
    edit_member(out, RID, reference, lambda old: json_plus(old, 63_000_000))
    code, err, peak = peak_of([sys.executable, "-m", "fsatlas.cli", "validate", "--no-cache", path], out)
    assert code == 0, err
    assert peak < BOUND, peak >> 20


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.lists(st.tuples(st.from_regex(r"\d{1,6}", fullmatch=True), st.integers(0, 10**9)), max_size=8),
       st.sampled_from(["", " ", "\n  "]), st.text(max_size=12))
def test_only_bins_of_bucket_counts_are_cut(buckets, space, other):
    """Differential: the report without bins (fio_json.without_bins) parses to the report with its
    bins emptied where they hold bucket counts only, and to the report unchanged where a bin
    holds anything else (a string is never dropped unscreened)."""
    counts = "{" + ",".join(f'{space}"{k}"{space}:{space}{v}' for k, v in buckets) + space + "}"
    text = f'{{"jobs": [{{"clat_ns": {{"bins"{space}:{space}{counts}, "mean": 1}}}}]}}'
    assert orjson.loads(fio_json.without_bins(text, "x")) == {"jobs": [{"clat_ns": {"bins": {}, "mean": 1}}]}
    odd = text.replace(counts, "{" + json.dumps(other) + ': "v"' + ("," if buckets else "") + counts[1:])
    assert orjson.loads(fio_json.without_bins(odd, "x")) == orjson.loads(odd)


def test_reaching_the_address_space_limit_is_one_located_line(fio_fixture, monkeypatch, capsys):
    """Defense in depth: with a budget smaller than one member needs, validate names the file in
    one line and exits 1; the limit is lifted when the command ends."""
    out, path, reference = fio_fixture
    edit_member(out, RID, reference, lambda old: json_plus(old, 40_000_000))
    before = memory.resource.getrlimit(memory.resource.RLIMIT_AS)
    monkeypatch.setattr(memory, "BUDGET", 24 * 2**20)
    assert main(["validate", "--no-cache", str(path)]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    assert err.startswith(f"{path}: error:") and "memory" in err, err
    assert memory.resource.getrlimit(memory.resource.RLIMIT_AS) == before
