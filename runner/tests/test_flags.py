"""noisy, cached and cache-unknown follow from the samples and the baseline by one function
(results/flags), which the runner, validate and aggregate all call: an old file is judged by
today's rule, and `fsatlas migrate` stores it."""
import json
import math
import shutil
import statistics
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
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


def _target(mean, rsd=1.0, written=True, name="seq-read", n=3, after=None):
    target = {"baseline": {name: {"throughput": {"mean": mean, "rsd_pct": rsd, "samples": [mean] * n}}},
              "baseline_written": written}
    if after is not None:
        target["baseline_after"] = {name: {"throughput": {"mean": after, "rsd_pct": rsd, "samples": [after] * n}}}
    return target


def test_above_1_2_times_the_raw_device_on_the_same_job_is_cached_only_through_the_page_cache():
    assert flags.derive(_cell(121.0, direct=0), _target(100.0)) == ["not-striped", "cached"]  # setup flags kept, first
    # O_DIRECT bypasses the page cache: the same figure is "above the raw device", not cached
    assert flags.derive(_cell(121.0), _target(100.0)) == ["not-striped", "above-device"]
    assert flags.derive(_cell(121.0), _target(101.0)) == ["not-striped"]  # 121 / 101 < 1.2
    assert flags.derive(_cell(121.0), {}) == ["not-striped", "baseline-unknown"]  # no baseline: cannot tell
    # rewrite is judged against the raw device's rewrite, not its seq-write (the ext4
    # rewrite: 2,120 MB/s with O_DIRECT against 1,712 on the raw device)
    rewrite = _cell(2120e6, key="ext4|-|-|rewrite")
    assert flags.derive(rewrite, _target(1e9, name="seq-write")) == ["not-striped", "baseline-unknown"]
    assert flags.derive(rewrite, _target(1712e6, name="rewrite")) == ["not-striped", "above-device"]
    # four writers against four writers
    four = _cell(500.0, key="ext4|-|-|concurrent-writers|numjobs=4", direct=0)
    assert flags.derive(four, _target(100.0, name="concurrent-writers")) == ["not-striped", "cache-unknown"]
    assert flags.derive(four, _target(100.0, name="concurrent-writers|numjobs=4")) == ["not-striped", "cached"]


@settings(max_examples=120)
@given(got=st.floats(1.0, 1e10), base=st.floats(1.0, 1e10), rsd=st.floats(0, 20), written=st.booleans(),
       direct=st.sampled_from([0, 1, "1", "0"]), driver=st.sampled_from(["kernel", "fuse"]))
def test_every_cell_of_a_job_gets_one_verdict_from_its_baseline_named_by_its_io_path(got, base, rsd, written, direct,
                                                                                     driver):
    cell = _cell(got, direct=direct, driver=driver)
    derived = set(flags.derive(cell, _target(base, rsd=rsd, written=written))) - {"not-striped"}
    through_cache = str(direct) != "1" or driver == "fuse"
    judges = written and rsd <= 3.5
    if not judges:  # cannot tell, whatever the I/O path
        assert derived == {"cache-unknown" if through_cache else "baseline-unknown"}
    elif got > 1.2 * base:
        assert derived == {"cached" if through_cache else "above-device"}
    else:
        assert not derived & {"cached", "above-device", "cache-unknown", "baseline-unknown"}
    assert not derived & flags.UNRANKED or through_cache  # an O_DIRECT cell always stays ranked


def test_the_page_cache_flag_follows_the_parameters_as_the_matrix_labels_its_workloads():
    from fsatlas.run import matrix as matrix_mod
    m = matrix_mod.load()
    labelled = {name for name, spec in m.workloads.items() if spec.get("io") == "page-cache"}
    assert labelled == {"background-writes"}
    cells = [c for name in m.profiles for c in m.profile(name).cells]
    seen = set()
    for c in cells:
        record = {"key": c.key, "workload": c.workload, "driver": m.filesystems[c.filesystem].get("driver", "kernel"),
                  "flags": [], "parameters": c.parameters, "metrics": {}}
        if "page-cache" in flags.derive(record, {}):
            seen.add(c.workload)
    assert seen == labelled
    from fsatlas.site import aggregate
    summary = aggregate.matrix_summary(m)["workloads"]  # what the methodology page shows of the matrix
    assert {name for name, w in summary.items() if w["io"] == "page-cache"} == labelled
    # just beside: the same job with any one durability parameter set, or O_DIRECT, is a device workload
    bg = next(c for c in cells if c.workload == "background-writes")
    for extra in ({"end_fsync": 1}, {"fsync": 32}, {"fdatasync": 1}, {"direct": 1}, {"rw": "randread"}):
        record = {"key": bg.key, "workload": bg.workload, "driver": "kernel", "flags": [],
                  "parameters": {**bg.parameters, **extra}, "metrics": {}}
        assert "page-cache" not in flags.derive(record, {}), extra


def test_a_baseline_that_cannot_judge_says_so_for_every_cell_of_its_job():
    ntfs = _cell(2630e6, direct=0, driver="fuse", key="ntfs|-|-|seq-read")
    # measured on a sparse image (older files): holes read at memory speed
    assert flags.derive(ntfs, _target(5592e6, written=False)) == ["not-striped", "cache-unknown"]
    # unstable even after repeating: 553, 2,983 and 3,140 MB/s
    samples = [553e6, 2983e6, 3140e6]
    rsd = 100 * statistics.stdev(samples) / statistics.fmean(samples)
    assert flags.derive(ntfs, _target(statistics.fmean(samples), rsd=rsd)) == ["not-striped", "cache-unknown"]
    assert flags.derive(ntfs, _target(700e6)) == ["not-striped", "cached"]
    # an O_DIRECT cell: cannot tell either (the xfs seq-write at 2,197 MB/s against an unstable 1,732)
    assert flags.derive(_cell(2197e6), _target(1732e6, rsd=7.0)) == ["not-striped", "baseline-unknown"]
    assert flags.derive(_cell(900e6), _target(5592e6, written=False)) == ["not-striped", "baseline-unknown"]


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


def _fio_reads(option: str, value: str, tmp) -> int | None:
    """What fio itself reads for OPTION=VALUE (its parser's own debug line), None where it refuses."""
    import re
    import subprocess
    job = tmp / "j.fio"
    job.write_text(f"[j]\nfilename=/dev/null\nsize=1m\n{option}={value}\n")
    out = subprocess.run(["fio", "--parse-only", "--debug=parse", str(job)], capture_output=True, text=True).stdout
    found = re.search(rf"__handle_option={option}, .*\n.*ret=(\d+), out=(-?\d+)", out)
    return None if not found or found.group(1) != "0" else int(found.group(2))


spellings = st.one_of(st.from_regex(r"\A[-+]?(0x[0-9a-f]{1,3}|[0-9]{1,3}(\.[0-9]{0,2})?)[kmg]?\Z"),
                      st.sampled_from(["true", "false", "on", "off", "yes", "no", "1.0", "0.0", "0.9", "-1"]))


@settings(max_examples=40)
@given(value=spellings, option=st.sampled_from(["direct", "buffered", "end_fsync", "fsync", "fdatasync"]))
def test_fio_options_are_read_as_fio_reads_them(tmp_path_factory, value, option):
    """Differential against fio's own parser: direct=1.0 is O_DIRECT, buffered=0 is O_DIRECT,
    fsync=0.9 asks for no fsync; a value fio refuses never reaches a result and is not compared."""
    read = _fio_reads(option, value, tmp_path_factory.mktemp("fio"))
    if read is None:
        return
    assert flags.fio_true(value) == (read != 0), (option, value, read)
    cell = {"key": "ext4|-|-|w", "workload": "w", "driver": "kernel", "flags": [],
            "parameters": {"rw": "write", option: value}, "metrics": {}}
    if option in ("direct", "buffered"):
        assert flags.buffered(cell) == ((read == 0) if option == "direct" else (read != 0))
    assert flags.page_cache(cell) == (flags.buffered(cell) and not (option not in ("direct", "buffered") and read))


def test_sync_and_json_spellings_are_read_as_fio_reads_them():
    base = {"key": "ext4|-|-|w", "workload": "w", "driver": "kernel", "flags": [], "metrics": {}}
    for sync, durable in (("none", False), ("0", False), (0, False), ("sync", True), ("1", True), ("dsync", True)):
        assert flags.page_cache({**base, "parameters": {"rw": "write", "sync": sync}}) is not durable, sync
    for direct, o_direct in ((True, True), (1.0, True), ("1.0", True), (False, False), (0.0, False), ("0", False)):
        assert flags.buffered({**base, "parameters": {"rw": "write", "direct": direct}}) is not o_direct, direct
    assert not flags.buffered({**base, "parameters": {"rw": "write", "buffered": 0}})
    assert flags.buffered({**base, "parameters": {"rw": "write", "buffered": 0}, "driver": "fuse"})
    # F64's importer keeps fio's own spelling of the direction (readwrite=)
    assert flags.page_cache({**base, "parameters": {"readwrite": "randwrite"}})


@settings(max_examples=150)
@given(got=st.one_of(st.none(), st.just(0.0), st.floats(1.0, 1e10)), base=st.floats(1.0, 1e10),
       n=st.integers(0, 5), rsd=st.one_of(st.none(), st.floats(0, 10)), drift=st.one_of(st.none(), st.floats(-20, 20)),
       entry=st.booleans(), direct=st.sampled_from([0, 1, True, "1.0", "0"]))
def test_a_job_its_baseline_cannot_judge_is_cannot_tell_whatever_is_missing(got, base, n, rsd, drift, entry, direct):
    """The rule: a cell is judged against its job's baseline only where that baseline was measured
    on written data in two repetitions or more, its spread is recorded and within 3.5 %, and it
    moved by no more than 3.5 % between before and after the filesystems; and the cell has a
    throughput. Anything else is 'cannot tell', named by the cell's I/O path, never no flag."""
    cell = _cell(got, direct=direct)
    if got is None:  # a throughput recorded without its mean
        cell["metrics"]["throughput"] = {"samples": [1.0] * 3}
    target = _target(base, rsd=rsd, n=n, after=None if drift is None else base * (1 + drift / 100))
    if not entry:
        target["baseline"] = {"seq-write": target["baseline"]["seq-read"]}
        target.pop("baseline_after", None)
    derived = set(flags.derive(cell, target)) - {"not-striped"}
    o_direct = str(direct) in ("1", "True", "1.0")
    judges = (entry and n >= 2 and rsd is not None and rsd <= 3.5
              and (drift is None or abs(drift) <= 3.5 * (1 - 1e-9)) and bool(got))
    if judges:
        assert derived <= {"noisy", "cached" if not o_direct else "above-device"}
        assert ("cached" in derived or "above-device" in derived) == (got > 1.2 * base)
    elif drift is None or abs(abs(drift) - 3.5) > 1e-6:  # not on the bound, where rounding decides
        assert derived - {"noisy"} == {"baseline-unknown" if o_direct else "cache-unknown"}, derived


def test_the_named_examples_beside_each_other():
    # one repetition: rsd 0 says nothing
    assert flags.derive(_cell(100.0), _target(100.0, rsd=0.0, n=1)) == ["not-striped", "baseline-unknown"]
    # the adversary's drift: 818 MB/s before the filesystems, 1,398 after
    assert flags.derive(_cell(900e6), _target(818e6, after=1398e6)) == ["not-striped", "baseline-unknown"]
    assert flags.derive(_cell(900e6, direct=0), _target(818e6, after=830e6)) == ["not-striped"]
    # a baseline whose spread is not recorded does not raise
    assert flags.derive(_cell(900e6), _target(818e6, rsd=None)) == ["not-striped", "baseline-unknown"]
    # a buffered write that waits for the device, without a baseline: cannot tell, and stays ranked
    wal = {"key": "ext4|-|-|fsync-write-4k", "workload": "fsync-write-4k", "driver": "kernel", "flags": [],
           "parameters": {"rw": "write", "fdatasync": 1}, "metrics": {"throughput": {"mean": 1.0, "samples": [1.0]}}}
    assert flags.derive(wal, {}) == ["baseline-unknown"]
    assert flags.derive({**wal, "parameters": {"rw": "read"}}, {}) == ["cache-unknown"]
    # a page-cache write without a baseline is labelled page-cache, its figure the cache's by definition
    bg = {"key": "ext4|-|-|background-writes", "workload": "background-writes", "driver": "kernel", "flags": [],
          "parameters": {"rw": "randwrite", "direct": 0}, "metrics": {"throughput": {"mean": 1.0, "samples": [1.0]}}}
    assert flags.derive(bg, {}) == ["page-cache"]


@pytest.mark.parametrize("workload,driver,expected", [("tiny-block-write", "kernel", "baseline-unknown"),
                                                      ("tiny-block-write", "fuse", "cache-unknown")])
def test_a_workload_that_flushes_before_its_figure_is_not_the_caches_without_a_baseline(workload, driver, expected):
    # rule: a cell whose writes reach the device before its figure is taken stays ranked without a
    # baseline (baseline-unknown); dd's conv=fsync is the matrix's `flushes`, not a parameter of the cell
    cell = {"key": f"ext4|-|-|{workload}", "workload": workload, "driver": driver, "parameters": {"bs": 32, "size": "4M"},
            "metrics": {"throughput": {"samples": [1e6, 1.01e6, 0.99e6], "mean": 1e6}}}
    assert flags.waits_for_device(cell) and expected in flags.derive(cell, {})
    assert not flags.waits_for_device({**cell, "workload": "seq-read"})


@settings(max_examples=12, deadline=None, database=None)
@given(drift=st.sampled_from([0.5, 0.9, 0.99, 1.0, 1.01, 1.1, 2.0]), jobs=st.integers(0, 12))
def test_a_runs_flags_are_derived_again_once_the_raw_device_is_measured_after_the_filesystems(drift, jobs):
    """A fresh quick run drew 10 warnings from validate (baseline-unknown derived, not stored): the
    runner derived each cell's flags when it finished, before baseline_after, whose drift from
    the baseline decides whether the baseline judges. Once it is measured, every finished cell's
    flags are derived again: with a baseline_after whose first `jobs` jobs drifted by `drift`,
    each cell's stored flags are the ones validate derives (validation.flag_problems finds none)."""
    import types
    from fsatlas.results import resultfile, validation
    from fsatlas.run import execution
    from testutil import RESULTS
    doc = resultfile.readable(json.loads((RESULTS / "20261127T143616Z-m-b6d0b06748-standard.json").read_text()))
    base = doc["target"]["baseline"]
    from fsatlas.results import stats
    doc["target"]["baseline_after"] = {
        job: {name: stats.summarize([s * (drift if k < jobs else 1.0) for s in m["samples"]], m["unit"], m["better"])
              for name, m in metrics.items()}
        for k, (job, metrics) in enumerate(sorted(base.items()))}
    execution._flags_again(types.SimpleNamespace(profile=types.SimpleNamespace(cells=[]), result=doc))
    assert [(c["key"], validation.flag_problems(c, doc["target"])) for c in doc["cells"] if c["status"] == "ok"
            and validation.flag_problems(c, doc["target"])] == []


def _measured(samples):  # a measurement of the raw device, its summary by the standard library
    return {"samples": samples, "mean": statistics.fmean(samples),
            "rsd_pct": _rsd(samples) if len(samples) > 1 else 0.0}


@settings(max_examples=200)
@given(before=st.lists(st.floats(900.0, 1100.0), min_size=1, max_size=5),
       after=st.one_of(st.none(), st.lists(st.floats(500.0, 1500.0), min_size=1, max_size=5)))
def test_the_measurement_after_the_filesystems_is_held_to_the_tests_of_the_one_before(before, after):
    """The rule: a baseline judges only where each measurement of the raw device, before the
    filesystems and (where taken) after them, has two repetitions or more and an RSD within
    3.5 %, and the two means differ by no more than 3.5 % (#60 round 56: an after measurement
    spread by 40 % judged drift by its mean alone). Summaries here are the standard library's."""
    target = {"baseline": {"seq-read": {"throughput": _measured(before)}}, "baseline_written": True}
    if after is not None:
        target["baseline_after"] = {"seq-read": {"throughput": _measured(after)}}
    steady = [len(s) >= 2 and _rsd(s) <= 3.5 for s in [before] + ([after] if after else [])]
    moved = 0.0 if after is None else 100 * abs(statistics.fmean(after) / statistics.fmean(before) - 1)
    if any(abs(_rsd(s) - 3.5) < 1e-6 for s in [before] + ([after] if after else []) if len(s) > 1) \
            or abs(moved - 3.5) < 1e-6:
        return  # on a bound, where rounding decides
    doubt = flags.baseline_doubt(target, "seq-read", "ext4|-|-|seq-read")
    assert (doubt == "") == (all(steady) and moved <= 3.5), (doubt, before, after)
    if all(steady[:1]) and not all(steady):
        assert doubt.startswith("measured again after the filesystems"), doubt


@pytest.mark.parametrize("field,value", [("rsd_pct", float("nan")), ("mean", float("nan")), ("rsd_pct", True),
                                         ("rsd_pct", float("inf")), ("mean", None)])
def test_a_measurement_whose_mean_or_spread_is_not_a_finite_number_cannot_judge(field, value):
    """Round 57: NaN passed every bound, and True counted as an RSD of 1 %; before or after."""
    for measurement in ("baseline", "baseline_after"):
        target = _target(100.0, after=100.0)
        target[measurement]["seq-read"]["throughput"][field] = value
        assert flags.baseline_doubt(target, "seq-read", "ext4|-|-|seq-read") != "", (measurement, field, value)
