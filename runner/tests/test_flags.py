"""noisy, cached and cache-unknown follow from the samples and the baseline by one function
(results/flags), which the runner, validate and aggregate all call: an old file is judged by
today's rule, and `fsatlas migrate` stores it."""
import json
import math
import shutil
import statistics
from pathlib import Path

from scipy.stats import t as student_t

from fsatlas.cli import main
from fsatlas.results import flags

OLD = Path(__file__).resolve().parents[2] / "data" / "results" / "20261123T024558Z-m-042018a7f3-quick.json"


def _rsd(samples):
    return 100 * statistics.stdev(samples) / abs(statistics.fmean(samples))


def _half_width_pct(samples):  # the standard library's and scipy's own arithmetic, not fsatlas's
    n = len(samples)
    return 100 * student_t.ppf(0.975, n - 1) * statistics.stdev(samples) / math.sqrt(n) / abs(statistics.fmean(samples))


def test_noisy_marks_the_cells_whose_interval_is_wider_than_10_percent():
    result = json.loads(OLD.read_text())
    ok = [c for c in result["cells"] if c["status"] == "ok"]
    for c in ok:
        samples = c["metrics"][flags.primary_metric(c["metrics"])]["samples"]
        assert ("noisy" in flags.derive(c, {})) == (_half_width_pct(samples) > 10), c["key"]
    assert 0 < sum("noisy" in flags.derive(c, {}) for c in ok) < len(ok)


def _cell(mean, direct=1, driver="kernel", key="ext4|-|-|seq-read"):
    return {"key": key, "workload": key.split("|")[3], "driver": driver, "flags": ["not-striped"],
            "parameters": {"direct": direct}, "metrics": {"throughput": {"mean": mean, "samples": [mean] * 3}}}


def _target(mean, rsd=1.0, written=True, name="seq-read"):
    return {"baseline": {name: {"throughput": {"mean": mean, "rsd_pct": rsd}}}, "baseline_written": written}


def test_cached_is_a_throughput_above_1_2_times_the_raw_device_on_the_same_job():
    assert flags.derive(_cell(121.0), _target(100.0)) == ["not-striped", "cached"]  # setup flags kept, first
    assert flags.derive(_cell(121.0), _target(101.0)) == ["not-striped"]  # 121 / 101 < 1.2
    assert flags.derive(_cell(121.0), {}) == ["not-striped"]  # no baseline, no verdict
    # rewrite is judged against the raw device's rewrite, not its seq-write
    rewrite = _cell(500.0, key="ext4|-|-|rewrite")
    assert flags.derive(rewrite, _target(100.0, name="seq-write")) == ["not-striped"]
    assert flags.derive(rewrite, _target(100.0, name="rewrite")) == ["not-striped", "cached"]
    # four writers against four writers
    four = _cell(500.0, key="ext4|-|-|concurrent-writers|numjobs=4")
    assert flags.derive(four, _target(100.0, name="concurrent-writers")) == ["not-striped"]
    assert flags.derive(four, _target(100.0, name="concurrent-writers|numjobs=4")) == ["not-striped", "cached"]


def test_a_baseline_that_cannot_judge_says_so_for_a_buffered_cell():
    ntfs = _cell(2630e6, direct=0, driver="fuse", key="ntfs|-|-|seq-read")
    # measured on a sparse image (older files): holes read at memory speed
    assert flags.derive(ntfs, _target(5592e6, written=False)) == ["not-striped", "cache-unknown"]
    # unstable even after repeating: 553, 2,983 and 3,140 MB/s
    samples = [553e6, 2983e6, 3140e6]
    rsd = 100 * statistics.stdev(samples) / statistics.fmean(samples)
    assert flags.derive(ntfs, _target(statistics.fmean(samples), rsd=rsd)) == ["not-striped", "cache-unknown"]
    assert flags.derive(ntfs, _target(700e6)) == ["not-striped", "cached"]
    # an O_DIRECT cell bypasses the page cache: no verdict without a baseline that can judge
    assert flags.derive(_cell(900e6), _target(5592e6, written=False)) == ["not-striped"]


def test_validate_warns_where_stored_flags_disagree_and_migrate_stores_the_derived_ones(tmp_path, capsys):
    data = tmp_path / "data"
    (data / "results").mkdir(parents=True)
    (data / "raw").mkdir()
    shutil.copy(OLD.parents[1] / "raw" / f"{OLD.stem}.tar.gz", data / "raw")
    result = json.loads(OLD.read_text())
    for cell in result["cells"]:  # as written before today's rule: noisy by the RSD alone, no cache-unknown
        cell["flags"] = [f for f in cell["flags"] if f not in flags.DERIVED]
        if cell["status"] == "ok" and _rsd(cell["metrics"][flags.primary_metric(cell["metrics"])]["samples"]) > 3.5:
            cell["flags"].append("noisy")
    (data / "results" / OLD.name).write_text(json.dumps(result, indent=1))
    differ = sum(set(flags.derive(c, result["target"])) & set(flags.DERIVED) != set(c["flags"]) & set(flags.DERIVED)
                 for c in result["cells"] if c["status"] == "ok")
    assert differ > 0
    assert main(["validate", "--no-cache", str(data / "results")]) == 0
    assert capsys.readouterr().out.count("/flags: expected the flags the samples give") == differ
    assert main(["migrate", "--data", str(data)]) == 0
    capsys.readouterr()
    assert main(["validate", "--no-cache", str(data / "results")]) == 0
    assert "/flags: expected" not in capsys.readouterr().out
