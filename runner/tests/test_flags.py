"""noisy and cached follow from the samples and the baseline by one function (results/flags),
which the runner, validate and aggregate all call: an old file is judged by today's rule."""
import json
import statistics
from pathlib import Path

from fsatlas.cli import main
from fsatlas.results import flags

OLD = Path(__file__).resolve().parents[2] / "data" / "results" / "20261123T024558Z-m-042018a7f3-quick.json"


def _rsd(samples):  # the standard library's sample standard deviation, not fsatlas's own
    return 100 * statistics.stdev(samples) / abs(statistics.fmean(samples))


def test_the_oldest_quick_result_has_18_noisy_cells_it_never_flagged():
    result = json.loads(OLD.read_text())
    ok = [c for c in result["cells"] if c["status"] == "ok"]
    newly = [c for c in ok if "noisy" in flags.derive(c, None) and "noisy" not in c["flags"]]
    assert len(newly) == 18
    spreads = [_rsd(c["metrics"][flags.primary_metric(c["metrics"])]["samples"]) for c in newly]
    assert min(spreads) > 3.5 and 13 < max(spreads) < 15  # "up to 14 %"
    quiet = [c for c in ok if c not in newly and "noisy" not in c["flags"]]
    assert all(_rsd(c["metrics"][flags.primary_metric(c["metrics"])]["samples"]) <= 3.5 for c in quiet)


def test_cached_is_a_throughput_above_1_2_times_the_raw_device():
    cell = {"flags": ["not-striped"], "metrics": {"throughput": {"mean": 121.0, "samples": [121.0, 121.0, 121.0]}}}
    assert flags.derive(cell, 100.0) == ["not-striped", "cached"]  # setup flags kept, first
    assert flags.derive(cell, 101.0) == ["not-striped"]  # 121 / 101 < 1.2
    assert flags.derive(cell, None) == ["not-striped"]  # no baseline, no verdict


def test_validate_warns_where_stored_flags_disagree(capsys):
    assert main(["validate", "--no-cache", str(OLD)]) == 0
    out = capsys.readouterr().out
    assert out.count("/flags: expected the flags the samples give (noisy), found none") == 18
