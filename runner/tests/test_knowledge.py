"""The curated knowledge: schema, the source registry, claims tied to matrix cells, and the
weighing of each claim against measurements."""
import copy
import functools
import math
import re
import statistics
import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings, strategies as st

from fsatlas.results import stats
from fsatlas.results.metrics import KNOWN
from fsatlas.site import aggregate, knowledge
from fsatlas.cli import main

DATA = Path(__file__).resolve().parents[2] / "data"
CURATED = ["sources.yaml", "feature_columns.yaml", "corrections.yaml", "features", "mount_options", "history", "probes"]


@pytest.fixture
def data_copy(tmp_path):
    for name in CURATED:
        src = DATA / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, tmp_path / name)
    return tmp_path


def test_the_repository_data_is_valid(capsys):
    assert main(["check-data", "--data", str(DATA)]) == 0
    assert "0 errors" in capsys.readouterr().out


def test_at_most_one_cell_in_twenty_is_not_documented():
    # where an experiment or a primary source (the kernel's, the tools') can answer, it does
    data, _ = knowledge.load(str(DATA))
    cells = [f.get("value", f.get("limit")) for fs in data["features"].values() for f in fs["features"].values()]
    undocumented = cells.count("not documented")
    assert undocumented <= 0.05 * len(cells), f"{undocumented} of {len(cells)} cells say 'not documented'"


def test_every_filesystem_the_issue_names_has_a_feature_file():
    data, _ = knowledge.load(str(DATA))
    wanted = {"ext2", "ext3", "ext4", "xfs", "btrfs", "jfs", "reiserfs", "f2fs", "bcachefs", "zfs",
              "reiser4", "vxfs", "hfsplus", "ntfs"}
    assert wanted <= set(data["features"])
    for fs, f in data["features"].items():
        assert f["linux"]["driver"] and f["linux"]["sources"], fs
        for name, fact in f["features"].items():
            assert fact["sources"], (fs, name)


def test_every_source_cited_is_in_the_registry_and_every_claim_names_cells():
    data, problems = knowledge.load(str(DATA))
    assert problems == []
    ids = {s["id"] for s in data["sources"]}
    cited = set()
    for f in data["features"].values():
        cited |= set(f["linux"]["sources"])
        for fact in f["features"].values():
            cited |= set(fact["sources"])
    keys = knowledge.standard_cell_keys()
    for option in data["mount_options"].values():
        assert option["claims"], option["id"]
        for claim in option["claims"]:
            cited |= set(claim["sources"])
            assert claim["measured_by"]
            for comparison in claim["measured_by"]:
                assert comparison["cell"] in keys and comparison["baseline"] in keys
    assert cited <= ids
    # the themes the issue asks for each have options
    assert {o["theme"] for o in data["mount_options"].values()} == {
        "journaling", "access-time", "barriers-commit", "raid-alignment", "btrfs-cow-compression", "xfs-log",
        "directory-index"}


def edit(path, change):
    data = yaml.safe_load(path.read_text())
    change(data)
    path.write_text(yaml.safe_dump(data))


@pytest.mark.parametrize("name,file,change,where", [
    ("unknown source", "features/ext4.yaml",
     lambda d: d["features"]["journaling"].update(sources=["no-such-source"]), "/features/journaling/sources/0"),
    ("missing feature", "features/xfs.yaml", lambda d: d["features"].pop("reflink"), "/features"),
    ("yes as a YAML boolean", "features/btrfs.yaml", lambda d: d["features"]["snapshots"].update(value=True),
     "/features/snapshots/value"),
    ("claim on a cell the matrix lacks", "mount_options/noatime.yaml",
     lambda d: d["claims"][0]["measured_by"][0].update(cell="ext4|-|noatime|no-such-workload"),
     "/claims/0/measured_by/0/cell"),
    ("claim with no cell", "mount_options/noatime.yaml", lambda d: d["claims"][0].update(measured_by=[]),
     "/claims/0/measured_by"),
    ("history row with an undeclared column", "history/blog-2014-dd.yaml",
     lambda d: d["rows"][0].update(speed=1), "/rows/0/speed"),
    ("file name differs from id", "features/jfs.yaml", lambda d: d.update(filesystem="jfs2"), "/filesystem"),
    ("a correction citing no known source", "corrections.yaml", lambda d: d[0].update(sources=["nowhere"]),
     "/0/sources/0"),
    ("a correction without its old value", "corrections.yaml", lambda d: d[0].pop("old"), "/0"),
    ("a probe source whose probe result is gone", "sources.yaml",
     lambda d: next(s for s in d if "probe" in s).update(probe="20990101T000000Z-gone-probe"), "/probe"),
    ("a source with no url, seed or probe", "sources.yaml", lambda d: d[0].pop("seed"), "/0"),
    ("a made-up date", "sources.yaml", lambda d: d[3].update(date="around 2001"), "/3/date"),
    ("a fact without its version", "features/xfs.yaml", lambda d: d["features"]["defrag"].pop("holds_for"),
     "/features/defrag/holds_for"),
    ("a 'not documented' without its reason", "features/vxfs.yaml", lambda d: d["features"]["quota_project"].pop("note"),
     "/features/quota_project/note"),
    ("a limit resting on an encyclopedia alone", "features/jfs.yaml",
     lambda d: d["features"]["max_file_size"].update(sources=["wikipedia-fs-comparison"]), "/features/max_file_size/sources"),
    ("a correction the data no longer says", "corrections.yaml",
     lambda d: d.append({"date": "2026-11-27", "where": "data/features/ext4.yaml /features/reflink", "old": "no",
                         "new": "yes", "why": "a test", "sources": ["probe-host-2026-11-25"]}), "/new"),
    ("a correction citing none of the fact's sources", "corrections.yaml",
     lambda d: d.append({"date": "2026-11-27", "where": "data/features/ext4.yaml /features/reflink", "old": "yes",
                         "new": "no", "why": "a test", "sources": ["man-ext4"]}), "/sources"),
    ("a fact citing a document that does not state it", "features/xfs.yaml",
     lambda d: d["features"]["defrag"].update(sources=["man-xfs"]), "/features/defrag/sources/0"),
    ("a no that none of its sources states", "features/vxfs.yaml",
     lambda d: d["features"]["quota_project"].update(value="no"), "/features/quota_project/sources/0"),
    ("an unknown limit", "features/jfs.yaml",
     lambda d: d["features"]["max_volume_size"].update(limit="unknown"), "/features/max_volume_size/limit"),
    ("an unknown value", "features/jfs.yaml",
     lambda d: d["features"]["defrag"].update(value="unknown"), "/features/defrag/value"),
    ("a feature file never re-checked", "features/nilfs2.yaml", lambda d: d.pop("rechecked"), "/: 'rechecked' is required"),
    ("a registry entry losing the feature a fact relies on", "sources.yaml",
     lambda d: next(s for s in d if s["id"] == "man-xfs-fsr").update(states=["dump_restore"]), "/features/defrag/sources/0"),
    ("a registry entry stating a feature key that is not a word", "sources.yaml",
     lambda d: next(s for s in d if s["id"] == "man-xfs-fsr").update(states=["Defrag!"]), "/states/0"),
    ("a registry entry stating a feature no file has", "sources.yaml",
     lambda d: next(s for s in d if s["id"] == "man-xfs-fsr").update(states=["defrag", "defragment"]), "/states/1"),
])
def test_broken_curated_data_is_reported_with_file_and_path(data_copy, capsys, name, file, change, where):
    edit(data_copy / file, change)
    assert main(["check-data", "--data", str(data_copy)]) == 1
    err = capsys.readouterr().err
    assert file.split("/")[-1] in err and where in err, err


def test_a_pair_of_cells_listed_twice_in_one_claim_is_refused_whatever_its_metric(data_copy, capsys):
    """The rule: each pair of cells appears once in a claim's measured_by, either way round,
    whatever metric each entry names: a second metric of the same repetitions is the same test (iops
    scales throughput) and enlarged the Holm family that judged every other row (#60 round 56).
    Claims and entries drawn at random from the committed data, beside the named iops."""
    import random
    options = sorted((data_copy / "mount_options").glob("*.yaml"))
    for draw in range(6):
        pick = random.Random(draw)
        path = pick.choice(options)
        data = yaml.safe_load(path.read_text())
        i = pick.randrange(len(data["claims"]))
        entry = dict(pick.choice(data["claims"][i]["measured_by"]))
        entry.pop("metric", None)
        if draw % 2:  # the same two cells the other way round (round 57)
            entry.update(cell=entry["baseline"], baseline=entry["cell"])
        metric = "iops" if draw == 0 else pick.choice([None, "throughput", "lat_p99", data["claims"][i]["metric"]])
        if metric:
            entry["metric"] = metric
        original = path.read_text()
        data["claims"][i]["measured_by"].append(entry)
        path.write_text(yaml.safe_dump(data))
        assert main(["check-data", "--data", str(data_copy)]) == 1
        err = capsys.readouterr().err
        where = f"/claims/{i}/measured_by/{len(data['claims'][i]['measured_by']) - 1}"
        assert any(path.name in line and where in line and "each pair of cells once" in line
                   for line in err.splitlines()), err
        path.write_text(original)
    assert main(["check-data", "--data", str(data_copy)]) == 0  # the committed claims list each pair once


def test_a_no_without_a_source_saying_it_is_told_to_be_not_documented(data_copy, capsys):
    edit(data_copy / "features" / "vxfs.yaml", lambda d: d["features"]["quota_project"].update(value="no"))
    assert main(["check-data", "--data", str(data_copy)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and all("vxfs.yaml" in line and "/features/quota_project/sources/" in line for line in err)
    assert "a no needs one" in err[0] and "write 'not documented'" in err[0]
    # not documented, citing the documents read, is what the file says, and passes
    edit(data_copy / "features" / "vxfs.yaml", lambda d: d["features"]["quota_project"].update(value="not documented"))
    assert main(["check-data", "--data", str(data_copy)]) == 0
    # so is a limit no document read gives and no probe found, citing a page that says nothing of it
    edit(data_copy / "features" / "xfs.yaml",
         lambda d: d["features"]["max_files"].update(limit="not documented", sources=["man-xfs"]))
    capsys.readouterr()
    main(["check-data", "--data", str(data_copy)])  # one more unanswered cell may cross the matrix's 5 %
    captured = capsys.readouterr()
    assert ": 0 errors" in captured.out and ": error:" not in captured.err, captured
    # but not where a committed probe found the limit (round 46: as for a yes or a no)
    edit(data_copy / "features" / "xfs.yaml",
         lambda d: d["features"]["max_filename_length"].update(limit="not documented", sources=["man-xfs"]))
    main(["check-data", "--data", str(data_copy)])
    err = capsys.readouterr().err
    assert "xfs.yaml: error: /features/max_filename_length:" in err and "gives (255 bytes:" in err, err


def test_not_documented_where_a_probe_answered_is_refused(data_copy, capsys):
    # the guest probes of Linux 6.1 and 6.12 watched the kernel refuse chattr +c on HFS+
    edit(data_copy / "features" / "hfsplus.yaml", lambda d: d["features"]["compression"].update(
        value="not documented", note="the kernel's page does not mention compression", sources=["kernel-hfsplus"]))
    assert main(["check-data", "--data", str(data_copy)]) == 1
    # (and the correction that changed the cell to "no" no longer matches it: a line of its own)
    (line,) = [x for x in capsys.readouterr().err.splitlines() if "hfsplus.yaml" in x]
    assert line.startswith(str(data_copy / "features" / "hfsplus.yaml")) and "/features/compression" in line
    assert "probe record 20261127T101053Z-m-b6d0b06748-probe gives (no: chattr +c (FS_COMPR_FL) was refused" in line


def test_every_filesystem_names_its_origin_and_dates_it_or_says_why_not(data_copy, capsys):
    data, _ = knowledge.load(str(DATA))
    for fs, f in data["features"].items():
        assert f["origin"]["sources"], fs
        assert ("year" in f["origin"]) != ("year_missing" in f["origin"]), fs
        assert ("os" in f["origin"]) != ("os_missing" in f["origin"]), fs  # VxFS's system: no primary source names it
    # what the kernel's own texts date: ext2's release in January 1993, ext3's in September 1999;
    # XFS's its makers' paper (SGI, 1996): shipping since December 1994 in IRIX 5.3
    assert [data["features"][fs]["origin"].get("year") for fs in ("ext2", "ext3", "xfs")] == [1993, 1999, 1994]
    assert data["features"]["xfs"]["origin"]["os"].startswith("IRIX")
    assert "sgi-xfs-usenix-1996" in data["features"]["xfs"]["origin"]["sources"]
    # a year and a reason for its absence at once, and an origin citing no known source, are refused
    edit(data_copy / "features" / "jfs.yaml", lambda d: d["origin"].update(year=1990))
    edit(data_copy / "features" / "zfs.yaml", lambda d: d["origin"].update(sources=["no-such-source"]))
    assert main(["check-data", "--data", str(data_copy)]) == 1
    err = capsys.readouterr().err
    assert "jfs.yaml: error: /origin: expected either year (a cited source dates the first release) or year_missing" in err
    assert "zfs.yaml" in err and "/origin/sources/0" in err and "no-such-source" in err


def test_every_filesystem_names_its_maker_from_a_primary_source(data_copy, capsys):
    """Who made each filesystem, from its own documents and code (issue #63 item 6): the kernel's
    ext2 and ext3 pages, the drivers' copyright lines and authors, SGI's own paper, OpenZFS's
    COPYRIGHT; a maker on secondary sources alone, or both or neither of maker and its reason,
    is refused, each with its file and place."""
    data, _ = knowledge.load(str(DATA))
    by_id = {s["id"]: s for s in data["sources"]}
    for fs, f in data["features"].items():
        assert ("maker" in f["origin"]) != ("maker_missing" in f["origin"]), fs
        assert any(not by_id[s].get("secondary") for s in f["origin"]["sources"]), fs
    makers = {fs: f["origin"].get("maker") for fs, f in data["features"].items()}
    assert makers["xfs"] == "Silicon Graphics (SGI)" and makers["f2fs"] == "Samsung Electronics"
    assert makers["ntfs"] == makers["ntfs3"] == "Microsoft"  # the format's maker, whichever driver mounts it
    edit(data_copy / "features" / "reiser4.yaml", lambda d: d["origin"].update(sources=["seed-lm-2004"]))
    edit(data_copy / "features" / "jfs.yaml", lambda d: d["origin"].update(maker_missing="no document says"))
    edit(data_copy / "features" / "btrfs.yaml", lambda d: d["origin"].pop("maker"))
    assert main(["check-data", "--data", str(data_copy)]) == 1
    err = capsys.readouterr().err
    assert "reiser4.yaml: error: /origin/maker: expected a primary source that states it among ['seed-lm-2004']" in err
    assert "jfs.yaml: error: /origin: expected either maker" in err and "found both" in err
    assert "btrfs.yaml: error: /origin: expected either maker" in err and "found neither" in err


def test_every_filesystem_says_which_other_systems_read_it(data_copy, capsys):
    data, _ = knowledge.load(str(DATA))
    access = {fs: {os_: f["features"][f"on_{os_}"]["value"] for os_ in ("windows", "macos", "freebsd")}
              for fs, f in data["features"].items()}
    # each system's own: NTFS on Windows, HFS+ on macOS, ZFS and the ext family in FreeBSD's base system
    assert access["ntfs"]["windows"] == access["hfsplus"]["macos"] == access["zfs"]["freebsd"] == "read-write"
    assert {access[fs]["freebsd"] for fs in ("ext2", "ext3", "ext4")} == {"read-write"}
    # Windows reaches what the WSL 2 kernel builds (ext4, XFS, Btrfs), through WSL 2 only; JFS it does not
    assert {access[fs]["windows"] for fs in ("ext4", "xfs", "btrfs")} == {"add-on"} and access["jfs"]["windows"] == "no"
    assert "JFS_FS is not set" in data["features"]["jfs"]["features"]["on_windows"]["note"]
    # a "no" must rest on a document that states the column; a value outside the column's words is refused
    edit(data_copy / "features" / "jfs.yaml", lambda d: d["features"]["on_macos"].update(sources=["kernel-hfsplus"]))
    edit(data_copy / "features" / "xfs.yaml", lambda d: d["features"]["on_freebsd"].update(value="yes"))
    assert main(["check-data", "--data", str(data_copy)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert any("jfs.yaml" in x and "/features/on_macos/sources/0" in x and "a no needs one" in x for x in err), err
    assert any("xfs.yaml" in x and "/features/on_freebsd/value" in x for x in err), err


def test_unreadable_yaml_names_the_line(data_copy, capsys):
    (data_copy / "features" / "ext2.yaml").write_text("filesystem: ext2\nfeatures: [unclosed\n")
    assert main(["check-data", "--data", str(data_copy)]) == 1
    assert "ext2.yaml" in capsys.readouterr().err


def _row(change, significant=False, equivalent=False, detectable=3.0, status="tested"):
    return {"status": status, "change_pct": change, "significant": significant, "equivalent": equivalent,
            "detectable_pct": detectable}


@pytest.mark.parametrize("expected,row,verdict", [
    (-50, _row(-45, significant=True), "agrees"),
    (-50, _row(-10, significant=True), "smaller effect"),
    (10, _row(35, significant=True), "larger effect"),
    (10, _row(-12, significant=True), "disagrees"),
    (30, _row(2, equivalent=True), "no effect seen"),  # equivalence within 5 % shown
    (30, _row(2), "inconclusive"),  # neither shown
    (30, _row(2, detectable=40.0), "cannot tell at this n"),  # 30 % is below what n and spread detect
    (0, _row(1, equivalent=True), "agrees"),
    (0, _row(1), "inconclusive"),  # a large p alone never shows "no effect"
    (0, _row(20, significant=True), "disagrees"),
    (-9, _row(-3, significant=True), "smaller effect"),
    (10, _row(None, status="not testable"), "not testable"),
])
def test_verdicts(expected, row, verdict):
    assert knowledge.verdict(expected, row) == verdict


def _result(rid, created, cells, machine="m1"):
    """A result reduced to its digest, as the aggregator feeds the claims and rankings."""
    return aggregate.digest({"id": rid, "created": created, "tool": {},
                             "system": {"machine": machine, "kernel": "6.18", "virtualization": "none", "cpu_model": "x",
                                        "cpu_count": 2, "memory_bytes": 2 ** 30, "os": "Linux"},
                             "target": {"kind": "loop-image"}, "cells": cells})


def _cell(key, mean, half, status="ok", flags=(), metric="throughput", **extra):
    """A cell whose three samples of `metric` are mean - half, mean, mean + half."""
    fs, _, _, workload = key.split("|")[:4]
    metrics = {metric: stats.summarize([mean - half, mean, mean + half], *KNOWN[metric])} if status == "ok" else {}
    return {"key": key, "filesystem": fs, "workload": workload, "status": status, "flags": list(flags),
            "mkfs_options": [], "mount_options": [], "driver": "kernel", **extra,
            "metrics": metrics, **({"reason": "no such filesystem"} if status != "ok" else {})}


def test_claims_are_weighed_against_cells_of_one_result():
    data, _ = knowledge.load(str(DATA))
    journal, ordered = "ext3|-|data=journal|fsync-write-4k", "ext3|-|data=ordered|fsync-write-4k"  # a workload that flushes
    results = [
        _result("old", "2026-01-01T00:00:00Z", [_cell(journal, 50e6, 1e6), _cell(ordered, 100e6, 1e6)]),
        # the newer result measured only one side: it must not be paired with the older one
        _result("new", "2026-02-01T00:00:00Z", [_cell(journal, 99e6, 1e6)]),
        _result("skips", "2026-03-01T00:00:00Z", [_cell("reiserfs|-|data=journal|fsync-write-4k", 0, 0, "skipped")]),
    ]
    claims = knowledge.evaluate_claims(data, results)
    claim = next(c for c in claims["ext-data-journal"]["claims"] if c["id"] == "lm2004-journal-halves-writes")
    by_cell = {r["cell"]: r for r in claim["comparisons"]}
    ext3 = by_cell[journal]
    assert ext3["status"] == "measured" and ext3["result"] == "old"
    assert ext3["change_pct"] == pytest.approx(-50.0, abs=0.01) and ext3["significant"] and ext3["verdict"] == "agrees"
    assert "was -50 % against" in ext3["sentence"] and "50 MB/s" in ext3["sentence"] and "100 MB/s" in ext3["sentence"]
    reiser = by_cell["reiserfs|-|data=journal|fsync-write-4k"]
    assert reiser["status"] == "skipped" and "no such filesystem" in reiser["sentence"]
    assert by_cell["ext4|-|data=journal|fsync-write-4k"]["status"] == "not-measured"
    assert claim["measured"] == 1 and claim["tally"]["agrees"] == 1


def test_not_striped_cells_say_so():
    data, _ = knowledge.load(str(DATA))
    cell, base = "ext4|-E,stride=16,stripe-width=64|-|seq-write", "ext4|-|-|seq-write"
    results = [_result("r", "2026-01-01T00:00:00Z",
                       [_cell(cell, 100e6, 0.5e6, flags=["not-striped"]), _cell(base, 100e6, 0.5e6)])]
    claim = knowledge.evaluate_claims(data, results)["ext-stripe"]["claims"][0]
    row = next(r for r in claim["comparisons"] if r["cell"] == cell)
    # a RAID alignment claim cannot show on a plain loop image: never "agrees" or "no effect seen" there
    assert row["verdict"] == "cannot show" and "not on a striped array" in row["sentence"]
    assert claim["measured"] == 0 and "cannot show the claim's mechanism" in claim["summary"]
    # on a striped device it is judged, on the figures alone, and says so
    striped = knowledge.evaluate_claims(data, [_result("r", "2026-01-01T00:00:00Z",
                                                       [_cell(cell, 112e6, 0.5e6), _cell(base, 100e6, 0.5e6)])])
    row = next(r for r in striped["ext-stripe"]["claims"][0]["comparisons"] if r["cell"] == cell)
    assert row["verdict"] == "agrees" and "Not judged from device counters" in row["sentence"]


@functools.lru_cache(maxsize=1)
def _committed() -> dict:
    return knowledge.load(str(DATA))[0]


def _with_counters(cell: dict) -> dict:
    return {**cell, "timed_io": _io(5, reads=40, writes=100)}


@settings(max_examples=30)
@given(pick=st.randoms(use_true_random=False), counters=st.booleans(), change=st.floats(-60, 60))
def test_every_verdict_says_whether_counters_decided_it(pick, counters, change):
    """The rule, over every claim of the committed data: a comparison that counts toward a verdict
    says 'Not judged from device counters' exactly where the timed counters did not decide it
    (a file without them, judged by the matrix's word; a mechanism no counter records)."""
    data = _committed()
    option_id = pick.choice(sorted(data["mount_options"]))
    claim = pick.choice(data["mount_options"][option_id]["claims"])
    comparison_ = pick.choice(claim["measured_by"])
    metric = comparison_.get("metric", claim["metric"])
    cell, base = (_cell(comparison_[end], 100e6 * (1 + change / 100) if end == "cell" else 100e6, 0.5e6,
                        metric=metric) for end in ("cell", "baseline"))
    if counters:
        cell, base = _with_counters(cell), _with_counters(base)
        cell["timed_io"] = _io(50, reads=40, writes=400)  # the option moved every counter well beyond the spread
    got = knowledge.evaluate_claims(data, [_result("r", "2026-01-01T00:00:00Z", [cell, base])])
    found = next(c for c in got[option_id]["claims"] if c["id"] == claim["id"])
    row = next(r for r in found["comparisons"] if r["cell"] == comparison_["cell"] and r["metric"] == metric)
    assert claim["mechanism"]  # every claim states one (check-data refuses one without)
    if row["status"] != "measured":
        return
    by_counters = counters and claim["mechanism"] in knowledge.MECHANISM_COUNTER
    assert ("Not judged from device counters" in row["sentence"]) is not by_counters, row["sentence"]
    assert (row["basis"] == "counters") is by_counters
    if not by_counters:
        assert "not judged from device counters" in found["summary"]


def test_check_data_refuses_a_claim_without_its_mechanism_or_why_none_is_measurable(data_copy, capsys):
    """One check: a claim with no mechanism, one saying none without why, one giving a why beside a
    counter mechanism: each refused in a line naming its file and the claim."""
    edit(data_copy / "mount_options" / "ext4-barrier.yaml", lambda d: d["claims"][0].pop("mechanism"))
    edit(data_copy / "mount_options" / "xfs-logbsize.yaml", lambda d: d["claims"][0].pop("unmeasured"))
    edit(data_copy / "mount_options" / "ext4-commit.yaml", lambda d: d["claims"][0].update(unmeasured="a reason"))
    assert main(["check-data", "--data", str(data_copy)]) == 1
    err = capsys.readouterr().err.splitlines()
    for name in ("ext4-barrier.yaml", "xfs-logbsize.yaml", "ext4-commit.yaml"):
        assert sum(name in line and "/claims/0" in line for line in err) == 1, (name, err)


def test_rankings_compare_one_result_and_mark_clear_leads():
    results = [
        _result("a", "2026-01-01T00:00:00Z", [_cell("ext4|-|-|seq-write", 300e6, 1e6),
                                              _cell("xfs|-|-|seq-write", 200e6, 1e6),
                                              _cell("btrfs|-|-|seq-write", 199e6, 5e6)]),
        _result("b", "2026-02-01T00:00:00Z", [_cell("ext4|-|-|seq-write", 900e6, 1e6)]),  # fewer filesystems
    ]
    ranking = knowledge.rankings(results)["seq-write|throughput"]["ranked"]
    assert [r["filesystem"] for r in ranking] == ["ext4", "xfs", "btrfs"]
    assert {r["result"] for r in ranking} == {"a"}
    assert [r["clear_lead"] for r in ranking] == [True, False, False]


def test_cached_and_emulated_figures_are_listed_but_never_ranked():
    """The 2,269.8 MB/s of a read the page cache served ranked NTFS first."""
    results = [_result("a", "2026-01-01T00:00:00Z", [
        _cell("ntfs|-|-|seq-read", 2269.8e6, 1e6, flags=["cached"]),
        _cell("jfs|-|-|seq-read", 900e6, 1e6, flags=["emulated"]),
        _cell("ext4|-|-|seq-read", 300e6, 1e6), _cell("xfs|-|-|seq-read", 250e6, 1e6)])]
    ranking = knowledge.rankings(results)["seq-read|throughput"]
    assert [r["filesystem"] for r in ranking["ranked"]] == ["ext4", "xfs"]
    assert {r["filesystem"]: r["why"] for r in ranking["excluded"]} == {"ntfs": "cached", "jfs": "emulated"}


# Numbers in hand-written prose: a measurement or limit typed into content/ would not follow
# the data. Years, versions, option values and counts of things are fine; figures with a unit
# of measurement are not.
MEASUREMENT = re.compile(r"\b\d[\d.,]*\s?(%|percent|MB/s|MiB/s|GB/s|KB/s|MB|MiB|GB|GiB|TB|TiB|PiB|EiB|KiB|"
                         r"ms|µs|seconds?|minutes?|s\b|ops/s|entries)", re.I)


def test_no_measurement_is_typed_into_the_prose():
    content = Path(__file__).resolve().parents[2] / "content"
    offenders = []
    for page in content.rglob("*.md"):
        text = page.read_text()
        body = text.split("---", 2)[2] if text.startswith("---") else text
        body = re.sub(r"```.*?```", "", body, flags=re.S)  # commands
        body = re.sub(r"\{\{<.*?>\}\}", "", body)  # shortcodes look figures up in data/
        body = re.sub(r"`[^`]*`", "", body)  # option names such as commit=60
        body = re.sub(r"95\s?% confidence", "", body)  # the confidence level, not a measurement
        offenders += [f"{page.name}: {m.group(0)}" for m in MEASUREMENT.finditer(body)]
    assert offenders == []


@pytest.mark.parametrize("value,shown", [(2269.8, "2,270"), (12.345, "12.3"), (0.000123, "0.000123"), (5, "5"),
                                         (99.95, "100"), (700.178, "700"), (3132.192, "3,130"), (0, "0")])
def test_figures_are_shown_to_three_significant_digits(value, shown):
    assert knowledge.significant(value) == shown


def test_a_figure_is_the_g_rounding_written_out_with_separators():
    """Whatever the value and count of digits: the number %g rounds to, never in exponent form,
    its whole part grouped by thousands, no trailing zero after a point."""
    import random
    rng = random.Random(5)
    values = [rng.uniform(-1, 1) * 10 ** rng.uniform(-12, 22) for _ in range(20000)]
    values += [999.5, 999.4999, -999.5, 9.9995e-5, 1e-4, 1e21, 123456789.0, -0.000123]
    for digits in (1, 2, 3, 4, 6, 8):
        for value in values:
            shown = knowledge.significant(value, digits)
            whole, _, fraction = shown.partition(".")
            assert "e" not in shown and not fraction.endswith("0"), (value, digits, shown)
            assert whole.lstrip("-") == f"{int(whole.replace(',', '').lstrip('-')):,}", (value, digits, shown)
            assert float(shown.replace(",", "")) == float(format(value, f".{digits}g")), (value, digits, shown)


@pytest.mark.parametrize("metric,unit,title", [
    ("throughput", "bytes/s", "throughput (MB/s, 10^6 bytes per second)"),
    ("create_per_s", "ops/s", "files created per second"),
    ("seconds", "s", "time taken (s)"),
    ("read_iops", "ops/s", "read I/O operations per second"),
])
def test_chart_axes_say_the_quantity_in_words(metric, unit, title):
    assert knowledge.axis_title(metric, unit) == title


def test_a_workload_that_issues_no_flush_does_not_count_for_a_barrier_claim():
    data, _ = knowledge.load(str(DATA))
    results = [_result("r", "2026-01-01T00:00:00Z", [
        _cell("ext4|-|barrier=0|seq-write", 100e6, 1e6), _cell("ext4|-|-|seq-write", 100e6, 1e6),
        _cell("ext4|-|barrier=0|fsync-write-4k", 8e6, 1e5), _cell("ext4|-|-|fsync-write-4k", 4e6, 1e5)])]
    claim = knowledge.evaluate_claims(data, results)["ext4-barrier"]["claims"][0]
    by_cell = {r["cell"]: r for r in claim["comparisons"]}
    direct = by_cell["ext4|-|barrier=0|seq-write"]
    assert direct["status"] == "cannot-show" and "issues no cache flush" in direct["sentence"]
    synced = by_cell["ext4|-|barrier=0|fsync-write-4k"]
    assert synced["status"] == "measured" and synced["verdict"] == "larger effect"  # +100 % against +5 % claimed
    assert claim["measured"] == 1 and sum(claim["tally"].values()) == 1


@pytest.mark.parametrize("fs,workload,mount,kernel,path", [
    ("ext4", "seq-write", "", "6.18.44", "O_DIRECT"),
    ("ext4", "seq-write", "data=journal", "6.18.44", "buffered"),  # ext4_should_use_dio falls back
    ("ext3", "rand-write-4k", "barrier=0,data=journal", "6.1.0-56-amd64", "buffered"),
    ("btrfs", "seq-write", "", "6.18.44-fc", "buffered"),  # checksummed files, 6.14 on
    ("btrfs", "seq-write", "", "6.1.0-56-amd64", "O_DIRECT"),
    ("btrfs", "seq-write", "nodatacow", "6.18.44", "O_DIRECT"),
    ("btrfs", "seq-write", "compress=zstd", "6.1.0-56-amd64", "buffered"),  # compressed files, any kernel
    ("btrfs", "seq-read", "compress=zstd", "6.1.0-56-amd64", "O_DIRECT"),
    ("btrfs", "seq-read", "", "6.18.44", "O_DIRECT"),
    ("ntfs", "seq-write", "", "6.18.44", "buffered"),  # FUSE
    ("xfs", "small-files", "", "6.18.44", "buffered"),
    ("xfs", "fsync-write-4k", "", "6.18.44", "buffered"),  # fio without direct=1
])
def test_each_cell_says_whether_it_went_through_o_direct(fs, workload, mount, kernel, path):
    assert knowledge.io_path({"filesystem": fs, "workload": workload, "mount": mount}, kernel)[0] == path


def test_a_comparison_of_buffered_and_direct_cells_says_so():
    facts = {"id": "r", "machine": "m", "machine_name": "Xeon 2 vCPU, KVM", "kernel": "6.18.44", "target": "loop"}
    metric = {"mean": 100.0, "rsd_pct": 1.0, "n": 3, "unit": "bytes/s", "better": "higher", "ci_low": 99.0, "ci_high": 101.0,
              "samples": [99.0, 100.0, 101.0]}
    base = {"key": "ext4|-|-|seq-write", "filesystem": "ext4", "workload": "seq-write", "mount": "", "flags": [],
            "metrics": {"throughput": metric}}
    cell = {**base, "key": "ext4|-|data=journal|seq-write", "mount": "data=journal", "metrics": {"throughput": {**metric, "mean": 60.0, "ci_low": 59, "ci_high": 61,
                                                                        "samples": [59.0, 60.0, 61.0]}}}
    option = {"option": "data=journal"}
    claim = {"expected_change_pct": -30}
    row = knowledge._measured(option, claim, facts, cell, base, "throughput")
    assert (row["io"], row["baseline_io"]) == ("buffered", "O_DIRECT")
    assert "reached the disk differently" in row["notes"] and "data=journal" in row["sentence"]
    same = knowledge._measured(option, claim, facts, {**cell, "key": "ext4|-|data=writeback|seq-write", "mount": "data=writeback"},
                               base, "throughput")
    assert "Both cells went through O_DIRECT" in same["notes"]


def _io(flushes, reads=0, reps=3, writes=100):
    return [{"reads": reads, "read_sectors": 8 * reads, "writes": writes, "write_sectors": 8 * writes,
             "flushes": flushes}] * reps


def _vary(io, flushes):
    return [dict(rep, flushes=f) for rep, f in zip(io, flushes)]


def _claim_rows(option, cells):
    data, _ = knowledge.load(str(DATA))
    claims = knowledge.evaluate_claims(data, [_result("r", "2026-01-01T00:00:00Z", cells)])[option]["claims"]
    return {r["cell"]: r for claim in claims for r in claim["comparisons"]}


def test_claims_are_judged_on_the_device_counters_of_each_repetitions_timed_part():
    """A barrier claim on a workload that sent no flush, a commit-interval claim where the option
    left the flushes as they were, an access-time claim where nothing was read: cannot show,
    from the timed part's counters, whatever the matrix says of the workload."""
    rows = _claim_rows("ext4-barrier", [
        _cell("ext4|-|barrier=0|fsync-write-4k", 8e6, 1e5, timed_io=_io(0)),
        _cell("ext4|-|-|fsync-write-4k", 4e6, 1e5, timed_io=_io(0)),  # fsync workload, yet no flush reached
        _cell("ext4|-|barrier=0|mail-delivery", 8e6, 1e5, metric="deliveries_per_s", timed_io=_io(0)),
        _cell("ext4|-|-|mail-delivery", 4e6, 1e5, metric="deliveries_per_s", timed_io=_io(400))])
    assert rows["ext4|-|barrier=0|fsync-write-4k"]["status"] == "cannot-show"
    assert "sent no cache flush" in rows["ext4|-|barrier=0|fsync-write-4k"]["sentence"]
    assert rows["ext4|-|barrier=0|mail-delivery"]["status"] == "measured"
    commit = _claim_rows("ext4-commit", [
        _cell("ext4|-|commit=60|fsync-write-4k", 4.1e6, 1e5, timed_io=_vary(_io(0), (2046, 2050, 2041))),
        _cell("ext4|-|-|fsync-write-4k", 4e6, 1e5, timed_io=_vary(_io(0), (2047, 2043, 2049))),
        _cell("ext4|-|commit=60|small-files|file_size=1000", 4.4e6, 1e5, metric="create_per_s", timed_io=_io(3)),
        _cell("ext4|-|-|small-files|file_size=1000", 4e6, 1e5, metric="create_per_s", timed_io=_io(12))])
    assert commit["ext4|-|commit=60|fsync-write-4k"]["status"] == "cannot-show"
    assert "no larger than cells with identical settings show" in commit["ext4|-|commit=60|fsync-write-4k"]["sentence"]
    assert commit["ext4|-|commit=60|small-files|file_size=1000"]["status"] == "measured"
    atime = _claim_rows("noatime", [
        _cell("ext3|-|noatime|tree-read", 10, 0.1, metric="read_per_s", timed_io=_io(5, reads=0)),
        _cell("ext3|-|-|tree-read", 10, 0.1, metric="read_per_s", timed_io=_io(5, reads=0)),
        _cell("btrfs|-|noatime|tree-read", 10, 0.1, metric="read_per_s", timed_io=_io(5, reads=40, writes=0)),
        _cell("btrfs|-|-|tree-read", 10, 0.1, metric="read_per_s", timed_io=_io(5, reads=40, writes=30))])
    assert atime["ext3|-|noatime|tree-read"]["status"] == "cannot-show"
    assert "served no read during the timed part" in atime["ext3|-|noatime|tree-read"]["sentence"]
    assert atime["btrfs|-|noatime|tree-read"]["status"] == "measured"


def test_counters_over_the_whole_repetition_do_not_decide_the_matrix_word_does():
    """The issue's tree-copy: 3 device reads over nine repetitions (the layout's, not the copy's)
    passed the "reads the filesystem" check; without timed counters it is the matrix's word."""
    whole = [{"reads": 3, "read_sectors": 24, "writes": 100, "write_sectors": 800, "flushes": 2}] + _io(2)[:2]
    atime = _claim_rows("noatime", [
        _cell("ext4|-|noatime|tree-copy", 10, 0.1, metric="seconds", device_io=whole),
        _cell("ext4|-|-|tree-copy", 10, 0.1, metric="seconds", device_io=whole)])
    row = atime["ext4|-|noatime|tree-copy"]
    assert row["status"] == "cannot-show" and "no device counters of the timed part" in row["sentence"]


def test_cells_with_identical_settings_set_the_spread_an_option_must_exceed():
    """defaults and relatime (the default) small-files: 13 and 16-19 flushes a repetition: a
    commit= cell 4 flushes from the defaults cannot show; one further off than the twins can."""
    data, _ = knowledge.load(str(DATA))
    claim = {"mechanism": "commit-interval"}
    twins = [dict(_cell("ext4|-|-|small-files|file_size=1000", 1, 0.1), effective_mount_options="rw,relatime", timed_io=_io(13)),
             dict(_cell("ext4|-|relatime|small-files|file_size=1000", 1, 0.1), effective_mount_options="rw,relatime",
                  timed_io=_vary(_io(0), (16, 19, 17)))]
    spreads = knowledge.twin_spreads(twins)
    assert spreads[("ext4", "small-files", "")]["flushes"] == pytest.approx(52 / 3 - 13)
    near, far = _io(9), _io(3)
    base = twins[0]
    assert knowledge.cannot_show(claim, "small-files", {"timed_io": near}, base) == ""  # 4 apart, no twins
    assert knowledge.cannot_show(claim, "small-files", {"timed_io": near}, base, spreads[("ext4", "small-files", "")])
    assert knowledge.cannot_show(claim, "small-files", {"timed_io": far}, base, spreads[("ext4", "small-files", "")]) == ""


@settings(max_examples=100)
@given(a=st.lists(st.integers(0, 50), min_size=1, max_size=6), b=st.lists(st.integers(0, 50), min_size=1, max_size=6),
       twin=st.floats(0, 30), mechanism=st.sampled_from(["commit-interval", "durability", "atime"]))
def test_an_option_can_show_exactly_where_it_moved_its_counter_beyond_identical_settings(a, b, twin, mechanism):
    field = {"commit-interval": "flushes", "durability": "flushes", "atime": "writes"}[mechanism]

    def io(values):
        return [{"reads": 5, "read_sectors": 40, "writes": 0, "write_sectors": 0, "flushes": 0, field: v} for v in values]
    told = knowledge.cannot_show({"mechanism": mechanism}, "w", {"timed_io": io(b)}, {"timed_io": io(a)}, {field: twin})
    moved = abs(statistics.fmean(b) - statistics.fmean(a))
    spread = max(max(a) - min(a), max(b) - min(b), twin)
    assert (told == "") == (moved > spread + 1e-9) or abs(moved - spread) < 1e-9


def test_a_zero_claim_on_a_wide_interval_is_inconclusive_and_the_family_is_holm_adjusted():
    reads = {"metric": "read_per_s"}  # no timed counters: the matrix's word (small-files and tree-read read the filesystem)
    rows = _claim_rows("relatime", [
        _cell("ext4|-|relatime|small-files|file_size=1000", 1000, 300, **reads),
        _cell("ext4|-|-|small-files|file_size=1000", 1010, 300, **reads),
        _cell("ext4|-|relatime|tree-read", 1000, 1, **reads),
        _cell("ext4|-|-|tree-read", 1000, 1, **reads)])
    wide, narrow = rows["ext4|-|relatime|small-files|file_size=1000"], rows["ext4|-|relatime|tree-read"]
    assert wide["verdict"] == "inconclusive" and wide["p_value"] > 0.05
    assert narrow["verdict"] == "agrees"  # equivalent within 5 %: the interval is narrow
    assert wide["test"]["adjustment"] == "Holm" and wide["test"]["family"] == 2 and "Holm-adjusted" in wide["sentence"]


MARGIN = knowledge.NO_EFFECT_PCT  # results/comparison's EQUIVALENCE_MARGIN_PCT


EXPECTED_BESIDE_THE_MARGIN = [0, 1e-9, -1e-9, MARGIN / 2, MARGIN, -MARGIN, MARGIN * (1 - 1e-12),
                              math.nextafter(MARGIN, 10), -math.nextafter(MARGIN, 10), 5, -30]


def test_check_data_refuses_a_claimed_change_not_beyond_the_margin(data_copy, capsys):
    """Issue 60 (task item 5): a claim expecting a change that equivalence within the margin
    cannot tell from no effect is refused, in one line naming the file and the claim's field;
    values at and just beside the margin, one claim each, in one check (a check takes 3 s)."""
    paths = sorted((data_copy / "mount_options").glob("*.yaml"))
    assert len(paths) >= len(EXPECTED_BESIDE_THE_MARGIN)
    for path, expected in zip(paths, EXPECTED_BESIDE_THE_MARGIN):
        edit(path, lambda d, e=expected: d["claims"][0].update(expected_change_pct=e))
    refused = [str(p) for p, e in zip(paths, EXPECTED_BESIDE_THE_MARGIN) if e != 0 and abs(e) <= MARGIN]
    assert main(["check-data", "--data", str(data_copy)]) == 1
    lines = [line for line in capsys.readouterr().err.splitlines() if "expected_change_pct" in line]
    assert sorted(line.split(": error: /claims/0/expected_change_pct: ")[0] for line in lines) == sorted(refused)


@settings(max_examples=300)
@given(expected=st.one_of(st.floats(-MARGIN, MARGIN), st.floats(-100, 1000)), change=st.floats(-50, 50),
       significant=st.booleans(), equivalent=st.booleans(), detectable=st.one_of(st.none(), st.floats(0.1, 50)))
def test_only_a_claim_of_zero_is_no_effect(expected, change, significant, equivalent, detectable):
    """A small non-zero claim (within the margin) is a claimed change: equivalence never agrees
    with it, nor says "no effect seen" of it."""
    v = knowledge.verdict(expected, _row(change, significant, equivalent and not significant, detectable))
    if expected == 0:
        return
    if not significant:
        assert v in ("cannot tell at this n", "inconclusive", "no effect seen")
        assert not (v == "no effect seen" and abs(expected) <= MARGIN)


def test_an_o_direct_figure_above_the_raw_device_stays_ranked_with_its_mark():
    """ext4 and xfs rewrite with O_DIRECT above the raw device were flagged cached and dropped,
    which put ext2 first."""
    results = [_result("a", "2026-01-01T00:00:00Z", [
        _cell("ext4|-|-|rewrite", 2120e6, 1e6, flags=["above-device"]),
        _cell("xfs|-|-|rewrite", 2364e6, 1e6, flags=["above-device"]),
        _cell("ext2|-|-|rewrite", 1500e6, 1e6), _cell("btrfs|-|-|rewrite", 1400e6, 1e6, flags=["cached"])])]
    ranking = knowledge.rankings(results)["rewrite|throughput"]
    assert [r["filesystem"] for r in ranking["ranked"]] == ["xfs", "ext4", "ext2"]
    assert [r["flags"] for r in ranking["ranked"][:2]] == [["above-device"], ["above-device"]]
    assert [r["filesystem"] for r in ranking["excluded"]] == ["btrfs"] and ranking["io"] == "device"


def test_page_cache_workloads_are_ranked_apart_and_say_so():
    results = [_result("a", "2026-01-01T00:00:00Z", [
        _cell("ext4|-|-|background-writes", 870e6, 1e6, flags=["page-cache"]),
        _cell("xfs|-|-|background-writes", 843e6, 1e6, flags=["page-cache"]),
        _cell("ext4|-|-|seq-write", 300e6, 1e6), _cell("xfs|-|-|zz-write", 200e6, 1e6)])]
    out = knowledge.rankings(results)
    names = list(out)
    assert names[-1] == "background-writes|throughput"  # after every device ranking, whatever the names' order
    assert all(out[n]["io"] == "device" and not out[n]["io_note"] for n in names[:-1])
    page = out["background-writes|throughput"]
    assert page["io"] == "page-cache" and "page cache's speed" in page["io_note"]
    assert [r["filesystem"] for r in page["ranked"]] == ["ext4", "xfs"]  # ranked among themselves


def test_a_claim_comparison_whose_sides_ran_under_different_contention_gives_no_verdict():
    """Other processes' CPU 5.1, 8.6 and 3.5 s a repetition on one side, 0.28, 0.17 and 0.13 on the other."""
    def host(values):
        return {"wall_seconds": 12.0, "host": [{"steal_pct": 0, "iowait_pct": 1, "others_cpu_s": v, "load1": 1,
                                                "seconds": 4.0} for v in values]}
    busy, calm = host((5.1, 8.6, 3.5)), host((0.28, 0.17, 0.13))
    option, base = "ext4|-|barrier=0|mail-delivery", "ext4|-|-|mail-delivery"
    for sides in ((busy, calm), (calm, busy)):
        rows = _claim_rows("ext4-barrier", [
            _cell(option, 8e6, 1e5, metric="deliveries_per_s", **sides[0]),
            _cell(base, 4e6, 1e5, metric="deliveries_per_s", **sides[1])])
        assert rows[option]["status"] == "cannot-show" and "different contention" in rows[option]["sentence"]
    rows = _claim_rows("ext4-barrier", [_cell(option, 8e6, 1e5, metric="deliveries_per_s", **busy),
                                        _cell(base, 4e6, 1e5, metric="deliveries_per_s", **busy)])
    assert rows[option]["status"] == "measured"  # alike, however busy: the paired rounds share it
    # just beside it: busy in other rounds on each side, the means alike (round 56)
    first, last = host((5.1, 0.2, 0.2)), host((0.2, 0.2, 5.1))
    rows = _claim_rows("ext4-barrier", [_cell(option, 8e6, 1e5, metric="deliveries_per_s", **first),
                                        _cell(base, 4e6, 1e5, metric="deliveries_per_s", **last)])
    assert rows[option]["status"] == "cannot-show" and "of those rounds did not" in rows[option]["sentence"]



def _ntfs3_only(source: dict) -> bool:
    """A source that speaks of the kernel's ntfs3 and of neither ntfs-3g nor FUSE."""
    text = " ".join(str(source.get(k, "")) for k in ("title", "publisher", "url", "covers")).lower()
    return "ntfs3" in text and "ntfs-3g" not in text and "fuse" not in text


def test_the_ntfs_3g_row_carries_no_ntfs3_fact():
    """Issue #63: each NTFS driver its own row: no fact or Linux entry of the ntfs-3g row rests on
    ntfs3's sources alone or names ntfs3's value, and ntfs3's history rows are ntfs3's."""
    data, _ = knowledge.load(str(DATA))
    by_id = {s["id"]: s for s in data["sources"]}
    row = data["features"]["ntfs"]
    assert "ntfs3" not in str(row["linux"].get("merged", "")) and row["linux"]["year"] != data["features"]["ntfs3"]["linux"]["year"]
    for name, fact in row["features"].items():
        assert not all(_ntfs3_only(by_id[s]) for s in fact["sources"]), name
        assert "ntfs3" not in str(fact.get("value", fact.get("limit"))), name
    assert not [r for r in data["kernel_history"] if r["filesystem"] == "ntfs"]
    assert [r for r in data["kernel_history"] if r["filesystem"] == "ntfs3" and "ntfs3" in r["subject"]]


def _mounted_in_records() -> set:
    """The filesystems some committed probe record has a finding on, read from the JSON itself."""
    import json
    return {f["filesystem"] for path in (DATA / "probes").glob("*.json")
            for f in json.loads(path.read_text()).get("findings", [])}


@settings(max_examples=20)
@given(st.sampled_from(sorted(p.stem for p in (DATA / "features").glob("*.yaml"))))
def test_never_merged_is_refused_for_a_filesystem_a_probe_mounted(fs):
    """Issue #63: VxFS said 'never merged' beside its read-only Linux driver; a filesystem a probe
    record shows mounted has a driver that mounted it."""
    data, _ = knowledge.load(str(DATA))
    data = copy.deepcopy(data)
    data["features"][fs]["linux"]["driver"] = "never-merged"
    problems = knowledge._driver_rules(data, knowledge.probe_records(str(DATA)))
    refused = any(p.path == "/linux/driver" and p.file.endswith(f"{fs}.yaml") for p in problems)
    assert refused is (fs in _mounted_in_records()), (fs, problems)


@settings(max_examples=10)
@given(st.sampled_from(["online_grow", "online_shrink", "offline_shrink"]))
def test_yes_is_refused_where_the_driver_refused_what_the_operation_left(column):
    """Issue #63: ntfs3's offline_shrink said yes while the probe's mount -t ntfs3 refused the
    shrunk volume; every resize column of ntfs3 whose probe ended so is held to it."""
    data, _ = knowledge.load(str(DATA))
    data = copy.deepcopy(data)
    data["features"]["ntfs3"]["features"][column]["value"] = "yes"
    problems = knowledge._refused_after(data, knowledge.probe_records(str(DATA)))
    assert [p.path for p in problems] == [f"/features/{column}/value"], problems
    assert knowledge._refused_after(knowledge.load(str(DATA))[0], knowledge.probe_records(str(DATA))) == []


def _browser_rsd(values: list) -> list:
    """Each RSD as the explorer prints it in the browser: its chunk's value (explorer.rsd_value)
    through static/js/format.js rsd(), in Node."""
    import json as json_mod
    import subprocess
    from fsatlas.site import explorer
    repo = Path(__file__).resolve().parents[2]
    script = ("const f = require(process.argv[1]); let s = ''; process.stdin.on('data', d => s += d)"
              ".on('end', () => process.stdout.write(JSON.stringify(JSON.parse(s).map(f.rsd))));")
    done = subprocess.run(["node", "-e", script, str(repo / "static" / "js" / "format.js")], check=True, capture_output=True,
                          text=True, input=json_mod.dumps([explorer.rsd_value(v) for v in values]))
    return json_mod.loads(done.stdout)


@settings(max_examples=5, deadline=None)
@given(st.lists(st.floats(0, 1e5, allow_nan=False), min_size=300, max_size=300))
def test_the_explorer_prints_an_rsd_as_every_page_does(values):
    """#62 round 7, item 3: the explorer read "RSD %: 5.97" and, from a value rounded to a
    thousandth, 5.2 where the pages read 5.1 (5.1499). Rule: for any RSD, the explorer's text in
    the browser is knowledge.shown_rsd's, the pages' one format; with values just beside each
    tenth's midpoint, where a second rounding goes the other way."""
    values = values + [k / 10 + 0.05 + d for k in range(0, 200, 7) for d in (-1e-4, -1e-9, 0, 1e-9, 1e-4)] + [5.1499, 1234.55]
    assert _browser_rsd(values) == [knowledge.shown_rsd(v) for v in values]
