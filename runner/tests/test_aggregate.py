import hashlib
import json
import re

import frontmatter
import pytest
from hypothesis import given, settings, strategies as st

from testutil import edit_member, mutated, table_rows, write_json, write_run
from fsatlas.cli import main
from fsatlas.results import machines, metrics, stats
from fsatlas.results.resultfile import readable  # a result file in the read form (schema 2 stores no summaries)


def test_aggregates_and_pages_carry_the_result_figures(out_dir, valid_result, tmp_path):
    pages = tmp_path / "pages"
    assert main(["aggregate", "--data", str(out_dir), "--content", str(pages)]) == 0
    latest = json.loads((out_dir / "aggregates" / "latest.json").read_text())
    assert latest["result"] == "fixture-valid"
    rows = {(r["key"], r["metric"]): r for r in latest["rows"]}
    for cell in readable(valid_result)["cells"]:  # a version 1 file is read as its migration: the samples' figures
        for name, metric in cell["metrics"].items():
            row = rows[(cell["key"], name)]
            assert row["mean"] == metric["mean"]
            assert [row["ci_low"], row["ci_high"]] == stats.bounded_interval(metric) and row["ci_low"] >= 0
            assert row["samples"] == metric["samples"] and row["n"] == len(metric["samples"])
    skipped = rows[("jfs|-|-|seq-write", None)]
    assert skipped["status"] == "skipped" and skipped["mean"] is None and "jfs" in skipped["reason"]
    index = json.loads((out_dir / "aggregates" / "results.json").read_text())
    assert index[0]["ok"] == 2 and index[0]["skipped"] == 1
    page = frontmatter.load(pages / "results" / "fixture-valid.md")
    assert page["result_id"] == "fixture-valid"
    assert page["system_facts"] == machines.system_facts(valid_result)
    shown = [[metrics.label(r["metric"]) + (f" {r['metric']}" if metrics.label(r["metric"]) != r["metric"] else ""), *(r["shown"][k] for k in ("mean", "median", "ci", "rsd")), str(r["n"])]
             if r["status"] == "ok" else [f"{r['status']}: {r['reason']}"] for r in latest["rows"]]
    keys = [r["key"] for r in latest["rows"]]
    expected = [([key] if key not in keys[:i] else []) + row for i, (key, row) in enumerate(zip(keys, shown))]
    packed = (tmp_path / "tables" / "fixture-valid.html").read_bytes()
    made = {name.decode(): html.decode() for name, html in result_tables.unpack(packed).items()}  # slot name: HTML
    assert sorted(made) == ["metrics-table", "overview-table", "raw-table", "throughput-chart", "throughput-table"]
    assert made["throughput-chart"].startswith("<svg") and made["throughput-chart"].count('aria-roledescription="bar"') == 2
    assert table_rows(made["metrics-table"]) == expected
    throughput_table, raw_table = made["throughput-table"], made["raw-table"]  # raw: one link a cell, every member named
    assert raw_table.count("<a href=") == sum(bool(c["raw"]) for c in valid_result["cells"] if c["status"] == "ok") == 2
    assert all(r.rpartition("/")[2] in raw_table for c in valid_result["cells"] for r in c["raw"])
    assert page["raw_bundle"] is True and (tmp_path / "static" / "files" / "raw" / "fixture-valid.tar.gz").is_file()
    assert page["tables_digest"] == hashlib.sha256(packed).hexdigest()[:16]
    throughput = [r for r in latest["rows"] if r["metric"] == "throughput" or r["status"] != "ok"]
    assert page["throughput_chart_file"] == "charts/results/fixture-valid.json"
    chart = json.loads((tmp_path / "static" / "charts" / "results" / "fixture-valid.json").read_text())
    assert [(r["filesystem"], r["workload"], r["mean"], r["samples"]) for r in chart] == \
        [(r["filesystem"], r["workload"], r["mean"], r["samples"]) for r in throughput]
    assert chart == latest["throughput"]
    assert table_rows(throughput_table) == table_rows(latest["throughput_table"]) == [
        [r["filesystem"], r["workload"], r["variant"], f"{r['mkfs']} / {r['mount']}",
         # the fixture has no raw-device baseline and no host counters: both columns empty
         *((r["shown"]["mean"], r["shown"]["ci"], r["shown"]["rsd"], str(r["n"]), " ".join(["ok", *r["flags"]]), "", "")
           if r["status"] == "ok" else ("", f"{r['status']}: {r['reason']}", ""))] for r in chart]


def test_a_result_page_carries_its_system_table_without_the_raw_devices_figures(valid_result):
    """The raw device's figures on each job (8 KB of a quick result's 8.7 KB of front matter,
    which Hugo decodes for every page) are not in the page: its tables show them. The system and
    target are, as the system table the template prints (machines.system_facts, #62), and only so."""
    valid_result["target"]["baseline"] = {"seq-write": {"throughput": {"mean": 1.25e8, "unit": "bytes/s", "rsd_pct": 1.0}}}
    text = aggregate.result_page(valid_result, aggregate.result_summary(valid_result), b"")
    page = frontmatter.loads(text)
    assert "125000000" not in text and "1.25e" not in text and "target" not in page and "system" not in page
    facts = dict(page["system_facts"])
    assert facts["Target"] == "loop-image, image of 512 MiB, loop direct I/O on" and facts["Backing filesystem"] == "ext4"
    assert facts["Storage device"] == "not recorded, rotational or not: not recorded, model not reported"
    template = "".join((REPO / "layouts" / part).read_text()  # the page and its system table's partial
                       for part in ("results/single.html", "partials/results/system.html"))
    assert ".Params.system_facts" in template and not re.search(r"\.Params\.(system|target)\b", template)


def test_a_damaged_digest_is_made_again(out_dir, tmp_path):
    """A digest's cached file that no longer reads (MessagePack) counts as missing: its result is
    derived again and the file written as it was."""
    pages = tmp_path / "pages"
    assert main(["aggregate", "--data", str(out_dir), "--content", str(pages)]) == 0
    made = tmp_path / "cache" / "digests" / f"fixture-valid{aggregate.DIGEST_SUFFIX}"
    good = made.read_bytes()
    made.write_bytes(b"\xc1 not MessagePack")
    (tmp_path / "cache" / "aggregation.msgpack").unlink()  # else the saved fold answers, and no digest is read
    assert main(["aggregate", "--data", str(out_dir), "--content", str(pages)]) == 0
    assert made.read_bytes() == good


def test_a_deleted_digest_is_made_again_when_the_saved_fold_answers(out_dir, tmp_path):
    """The compare page's tables read each run's digest again: a digest deleted under a saved
    fold has its result derived again (it crashed the build with a TypeError)."""
    pages = tmp_path / "pages"
    assert main(["aggregate", "--data", str(out_dir), "--content", str(pages)]) == 0
    made = tmp_path / "cache" / "digests" / f"fixture-valid{aggregate.DIGEST_SUFFIX}"
    good = made.read_bytes()
    made.unlink()
    (tmp_path / "cache" / "pairs.msgpack").unlink()  # else the kept tables answer, and no digest is read
    assert main(["aggregate", "--data", str(out_dir), "--content", str(pages)]) == 0
    assert made.read_bytes() == good


def test_newest_complete_result_is_latest_and_stale_pages_go(out_dir, valid_result, tmp_path):
    newer = mutated(valid_result, lambda d: d.update(id="newer", created="2030-01-01T00:00:00Z"))
    newer["cells"] = [c for c in newer["cells"] if c["status"] != "ok"]
    write_json(out_dir / "results" / "newer.json", newer)
    pages = tmp_path / "pages"
    (pages / "results").mkdir(parents=True)
    (pages / "results" / "deleted-result.md").write_text("---\ntitle: gone\n---\n")
    charts = tmp_path / "static" / "charts" / "results"
    charts.mkdir(parents=True)
    (charts / "deleted-result.json").write_text("[]")
    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "deleted-result.html").write_text("<table></table>")
    (tmp_path / "tables" / "fixture-valid.json").write_text("{}")  # the layout before
    # "newer" is dated in the future, so validation must refuse it and aggregation stop.
    assert main(["aggregate", "--data", str(out_dir), "--content", str(pages)]) == 1
    newer["created"] = "2026-11-23T03:00:00Z"
    newer["complete"] = False
    write_json(out_dir / "results" / "newer.json", newer)
    assert main(["aggregate", "--data", str(out_dir), "--content", str(pages)]) == 0
    latest = json.loads((out_dir / "aggregates" / "latest.json").read_text())
    assert latest["result"] == "fixture-valid"  # the newer run is incomplete
    assert sorted(p.name for p in (pages / "results").iterdir()) == ["fixture-valid.md", "newer.md"]
    assert sorted(p.name for p in charts.iterdir()) == ["fixture-valid.json", "newer.json"]
    assert sorted(p.name for p in (tmp_path / "tables").iterdir()) == ["fixture-valid.html", "newer.html"]


def test_invalid_result_stops_aggregation_naming_it(out_dir, valid_result, tmp_path, capsys):
    write_json(out_dir / "results" / "fixture-valid.json",
               mutated(valid_result, lambda d: d["system"].pop("kernel")))
    assert main(["aggregate", "--data", str(out_dir), "--content", str(tmp_path / "p")]) == 1
    err = capsys.readouterr().err
    assert "fixture-valid.json" in err and "/system/kernel" in err


# --- incremental aggregation ------------------------------------------------------------------
import os
import random
import time
import shutil

from sitebuild import CURATED_DATA, REPO, synthetic_results
from fsatlas.results import shares
from fsatlas.site import aggregate, explorer, knowledge, result_tables


def _site_data(folder, count):
    """count synthetic results (with raw files) beside a copy of the curated data."""
    data = folder / "data"
    synthetic_results(data, count, filesystems=("ext3", "ext4", "xfs"), seed=7)
    for name in CURATED_DATA:
        src = REPO / "data" / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, data / name)
    return data


def _outputs(data, build):
    """Everything an aggregation produced, as text, by path."""
    out = {}
    for folder in (data / "aggregates", build / "content", build / "static"):
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                out[str(path.relative_to(data.parent))] = path.read_bytes()
    return out


def _aggregate(data, build):
    summary = aggregate.aggregate(str(data), str(build / "content"))
    return summary, _outputs(data, build)


def _fresh(data, tmp_path):
    """The same result files aggregated from nothing, in another folder."""
    other = tmp_path / f"fresh-{random.random()}"
    shutil.copytree(data, other / "data", ignore=shutil.ignore_patterns("aggregates"))
    _, produced = _aggregate(other / "data", other / "build")
    return produced


def test_rebuilds_read_only_what_changed_and_equal_a_fresh_aggregation(tmp_path):
    data = _site_data(tmp_path / "site", 6)
    build = tmp_path / "site" / "build"
    held = tmp_path / "held"
    held.mkdir()
    for rid in ("synthetic-00004", "synthetic-00005"):
        shutil.move(data / "results" / f"{rid}.json", held / f"{rid}.json")

    summary, first = _aggregate(data, build)
    assert summary["derived"] == 4 and first == _fresh(data, tmp_path)
    summary, again = _aggregate(data, build)
    assert summary["derived"] == 0 and again == first  # nothing changed: nothing read again

    shutil.move(held / "synthetic-00004.json", data / "results" / "synthetic-00004.json")
    summary, added = _aggregate(data, build)
    assert summary["derived"] == 1 and added == _fresh(data, tmp_path)
    assert b"synthetic-00004" in added["data/aggregates/results.json"]

    changed = readable(json.loads((data / "results" / "synthetic-00001.json").read_text()))
    changed["system"]["machine"] = "renamed-box"
    write_json(data / "results" / "synthetic-00001.json", changed)
    summary, after_change = _aggregate(data, build)
    assert summary["derived"] == 1 and after_change == _fresh(data, tmp_path)
    assert b"renamed-box" in after_change["data/aggregates/results.json"]

    (data / "results" / "synthetic-00002.json").unlink()
    summary, after_removal = _aggregate(data, build)
    assert after_removal == _fresh(data, tmp_path)
    assert not any("synthetic-00002" in path for path in after_removal)
    assert b"synthetic-00002" not in after_removal["data/aggregates/results.json"]


def test_rankings_and_claims_are_judged_again_only_when_a_result_wins_a_place_in_them(tmp_path, monkeypatch):
    """A result older than every ranked run wins no ranking or claim: the judging (scipy and
    statsmodels) is not done again, and the aggregates still equal a fresh aggregation; a newer
    result takes the rankings, and they are judged again, from it."""
    from fsatlas.site import knowledge
    data = _site_data(tmp_path / "site", 4)
    build = tmp_path / "site" / "build"
    held = tmp_path / "held"
    held.mkdir()
    shutil.move(data / "results" / "synthetic-00003.json", held / "synthetic-00003.json")
    _aggregate(data, build)
    judged = []
    real = knowledge.Rankings.result
    monkeypatch.setattr(knowledge.Rankings, "result", lambda self, digest_of: judged.append(1) or real(self, digest_of))
    old = readable(json.loads((held / "synthetic-00003.json").read_text()))
    write_json(data / "results" / "synthetic-00003.json", dict(old, created="2026-11-23T00:00:00Z"))
    summary, added = _aggregate(data, build)
    assert summary["derived"] == 1 and judged == [] and added == _fresh(data, tmp_path)
    ranked = {r["result"] for ranking in json.loads(added["data/aggregates/rankings.json"]).values() for r in ranking["ranked"]}
    assert ranked and "synthetic-00003" not in ranked
    write_json(data / "results" / "synthetic-00003.json", dict(old, created=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())))
    judged.clear()  # (the fresh aggregation above judged in its own folder)
    summary, newer = _aggregate(data, build)
    assert judged == [1]
    assert newer == _fresh(data, tmp_path)
    assert {r["result"] for ranking in json.loads(newer["data/aggregates/rankings.json"]).values()
            for r in ranking["ranked"]} == {"synthetic-00003"}


def test_a_first_build_reads_each_result_file_once_and_derives_only_those_that_pass(tmp_path, monkeypatch):
    """Validation and derivation share one read: the worker that checked a file derives it, and
    takes the file's signature from the bytes it read (no file is read to be hashed first)."""
    from collections import Counter
    from fsatlas.results import filesig, resultfile
    monkeypatch.chdir(tmp_path)  # no validation outcomes kept from another test
    data = _site_data(tmp_path / "site", 3)
    build = tmp_path / "site" / "build"
    reads, read_file, hashed = Counter(), resultfile.read_file, filesig._hashed
    monkeypatch.setattr(resultfile, "read_file", lambda path, *a: reads.update([os.path.basename(path)]) or read_file(path, *a))
    monkeypatch.setattr(filesig, "_hashed", lambda key: reads.update([os.path.basename(key)]) or hashed(key))
    summary = aggregate.aggregate(str(data), str(build / "content"))
    assert summary["derived"] == 3
    latest = f"{summary['latest']}.json"  # read once more for the latest result's rows
    results = Counter({name: n for name, n in reads.items() if name.startswith("synthetic-") and name.endswith(".json")})
    assert results == Counter({f"synthetic-0000{i}.json": 1 + (f"synthetic-0000{i}.json" == latest) for i in range(3)})
    memo = json.loads((tmp_path / filesig.MEMO_FILE).read_text())  # the workers' digests, kept
    for i in range(3):
        path = data / "results" / f"synthetic-0000{i}.json"
        assert memo[filesig.cache_key(str(path))][2] == hashlib.sha256(path.read_bytes()).hexdigest()[:16]

    broken = readable(json.loads((data / "results" / "synthetic-00001.json").read_text()))
    broken["system"].pop("kernel")
    write_json(data / "results" / "synthetic-00001.json", broken)
    shutil.rmtree(build)
    with pytest.raises(aggregate.UserError, match="synthetic-00001.json.*/system/kernel"):
        aggregate.aggregate(str(data), str(build / "content"))
    assert sorted(p.name for p in (build / "content" / "results").iterdir()) == ["synthetic-00000.md", "synthetic-00002.md"]


def test_a_deleted_page_or_chunk_is_written_again(tmp_path):
    data = _site_data(tmp_path / "site", 3)
    build = tmp_path / "site" / "build"
    _, first = _aggregate(data, build)
    (build / "content" / "results" / "synthetic-00001.md").unlink()
    (build / "static" / "explorer" / "rows" / "synthetic-00002.json").unlink()
    summary, again = _aggregate(data, build)
    assert summary["derived"] == 2 and again == first


def test_folds_do_not_depend_on_the_order_of_results(tmp_path):
    """Ties included: synthetic dates repeat every 168 results."""
    data = _site_data(tmp_path, 200)
    knowledge_data, _ = knowledge.load(str(data))
    digests = [aggregate.digest(readable(json.loads(p.read_text()))) for p in sorted((data / "results").glob("*.json"))]
    assert len({d["created"] for d in digests}) < len(digests)

    def folded(order):
        folds = [aggregate.NewestCells(), knowledge.Rankings(), knowledge.ClaimEvidence(knowledge_data),
                 explorer.Index()]
        for d in order:
            for fold in folds:
                fold.add(d)
        by_id = {d["id"]: d for d in digests}  # the rankings' leads are read from the winning runs' digests
        return [fold.result(by_id.__getitem__) if isinstance(fold, knowledge.Rankings) else fold.result()
                for fold in folds]

    expected = folded(digests)
    assert folded(list(reversed(digests))) == expected
    shuffled = digests[:]
    random.Random(3).shuffle(shuffled)
    assert folded(shuffled) == expected


def test_saved_folds_continue_where_they_stopped(tmp_path):
    """A fold saved as JSON and restored, then fed the rest, equals one fed everything."""
    data = _site_data(tmp_path, 12)
    knowledge_data, _ = knowledge.load(str(data))
    digests = [aggregate.digest(readable(json.loads(p.read_text()))) for p in sorted((data / "results").glob("*.json"))]
    whole = aggregate.Aggregation(knowledge_data)
    half = aggregate.Aggregation(knowledge_data)
    for i, d in enumerate(digests):
        whole.add(d["id"], [i], d)
        if i < 6:
            half.add(d["id"], [i], d)
    half.save(str(tmp_path / "state.json"))
    current = {d["id"]: [i] for i, d in enumerate(digests)}
    resumed = aggregate.Aggregation.resume(str(tmp_path / "state.json"), knowledge_data, current)
    for i, d in enumerate(digests[6:], 6):
        resumed.add(d["id"], [i], d)
    by_id = {d["id"]: d for d in digests}  # the rankings' leads are read from the winning runs' digests
    for name in ("newest", "rankings", "claims", "index"):
        args = [by_id.__getitem__] if name == "rankings" else []
        assert getattr(resumed, name).result(*args) == getattr(whole, name).result(*args)
    # a result it holds that changed, or is gone: no resuming
    assert aggregate.Aggregation.resume(str(tmp_path / "state.json"), knowledge_data, {**current, digests[0]["id"]: [99]}) is None
    assert aggregate.Aggregation.resume(str(tmp_path / "state.json"), knowledge_data,
                                        {k: v for k, v in current.items() if k != digests[0]["id"]}) is None


def test_folds_merged_from_parts_equal_one_fold_of_everything(tmp_path):
    """What each worker folds of its batches, merged here in order (and passed as JSON, as the
    saved state is), is the state one fold of every result would have: entries, order, numbering."""
    data = _site_data(tmp_path, 40)
    knowledge_data, _ = knowledge.load(str(data))
    digests = [aggregate.digest(readable(json.loads(p.read_text()))) for p in sorted((data / "results").glob("*.json"))]
    whole = aggregate.Aggregation(knowledge_data)
    for i, d in enumerate(digests):
        whole.add(d["id"], [i], d)
    merged = aggregate.Aggregation(knowledge_data)
    for start, end in ((0, 7), (7, 8), (8, 40)):
        part = aggregate.folded_batch(knowledge_data, [(f"results/{d['id']}.json", True, ([i], d))
                                                       for i, d in enumerate(digests[start:end], start)])
        merged.merge(json.loads(json.dumps(part)))
    assert json.dumps(merged.state()) == json.dumps(whole.state())
    again = iter([(f"results/{digests[0]['id']}.json", False, ([0], digests[0]))])
    skipped = aggregate.folded_batch(knowledge_data, again)
    assert skipped is None  # derived again, folded already: nothing to merge


def test_a_first_build_on_every_core_equals_one_in_a_single_process(tmp_path, monkeypatch):
    """Its outputs; and the digests the workers took of the files they read come back to the
    main process, which keeps them (a rebuild hashes no file again)."""
    from fsatlas.results import filesig, parallel
    data = _site_data(tmp_path / "site", parallel.PARALLEL_FROM * 2 + 7)
    monkeypatch.chdir(tmp_path)
    _, on_cores = _aggregate(data, tmp_path / "site" / "build")
    memo = json.loads((tmp_path / filesig.MEMO_FILE).read_text())
    files = sorted((data / "results").glob("*.json")) + sorted((data / "raw").glob("*"))
    assert len(files) > 2 * parallel.PARALLEL_FROM
    for path in files:
        assert memo[filesig.cache_key(str(path))][2] == hashlib.sha256(path.read_bytes()).hexdigest()[:16], path
    monkeypatch.setattr(parallel, "PARALLEL_FROM", 10**9)
    other = tmp_path / "serial"
    monkeypatch.chdir(tmp_path / "site")  # a validation cache of its own
    assert _fresh(data, other) == on_cores


def test_aggregate_trusts_a_clean_outcome_until_validate_finds_a_raw_file_changed(tmp_path, capsys):
    """The aggregator reads result files only (their raw references checked, the bundle not
    opened); `fsatlas validate` recomputes from every bundle, and an outcome with errors is
    rechecked by both, so mending the bundle is seen at once."""
    data = _site_data(tmp_path / "site", 2)
    content = str(tmp_path / "site" / "build" / "content")
    assert main(["aggregate", "--data", str(data), "--content", content]) == 0
    reference = readable(json.loads((data / "results" / "synthetic-00000.json").read_text()))["cells"][0]["raw"][0]

    def more(text):
        fio_json = json.loads(text)
        job = fio_json["jobs"][0]
        side = job["write" if job["write"]["bw_bytes"] else "read"]
        side["io_bytes"] += 12345 * side["runtime"]  # its rate as fio computes it (importers/fio.check_sides)
        side["bw_bytes"] = 1000 * side["io_bytes"] // side["runtime"]
        side["io_kbytes"], side["bw"] = side["io_bytes"] >> 10, side["bw_bytes"] >> 10
        return json.dumps(fio_json).encode()
    original = edit_member(data, "synthetic-00000", reference, more)
    assert main(["aggregate", "--data", str(data), "--content", content]) == 0  # result file unchanged
    assert main(["validate", str(data / "results")]) == 1
    assert "recomputed from" in capsys.readouterr().err
    assert main(["aggregate", "--data", str(data), "--content", content]) == 1
    edit_member(data, "synthetic-00000", reference, lambda _: original)
    assert main(["aggregate", "--data", str(data), "--content", content]) == 0


def test_an_import_adds_to_the_explorer_index_only_its_share_and_describes_its_keys_in_its_chunk(tmp_path):
    # IOzone's -a table (a public sample): 63 cells, each a file size and record size outside the matrix
    from testutil import SAMPLES
    data = _site_data(tmp_path / "site", 2)
    build = tmp_path / "site" / "build"
    _aggregate(data, build)
    before = (build / "static" / "explorer" / "data.json").read_bytes()
    assert main(["import", "iozone", str(SAMPLES / "iozone" / "auto-mode-ramdisk-2010.txt"), "--filesystem", "ext4",
                 "--redact", "--out", str(data)]) == 0
    imported = readable(json.loads(next((data / "results").glob("*import-iozone*.json")).read_text()))
    assert len(imported["cells"]) == 63 and not {c["key"] for c in imported["cells"]} & explorer.matrix_keys()
    _aggregate(data, build)
    index = json.loads((build / "static" / "explorer" / "data.json").read_text())
    grown = len((build / "static" / "explorer" / "data.json").read_bytes()) - len(before)
    assert 0 < grown <= shares.index_share(imported) <= shares.MAX_INDEX_SHARE
    assert not {k["key"] for k in index["keys"]} - explorer.matrix_keys()
    words = index["vocabulary"]
    assert {c["workload"] for c in imported["cells"]} <= set(words["workloads"]) and "imported" in words["variants"]
    assert ["ext4", "imported"] in words["configs"]
    chunk = json.loads((build / "static" / "explorer" / "rows" / f"{imported['id']}.json").read_text())
    assert set(chunk["described"]) == set(chunk["keys"]) == {c["key"] for c in imported["cells"]}
    cell = imported["cells"][0]
    assert chunk["described"][cell["key"]] == {
        "key": cell["key"], "filesystem": "ext4", "workload": cell["workload"], "variant": cell["variant"],
        "dims": cell["key"].split("|")[4], "mkfs": "", "mount": "", "driver": "kernel",
        "command": f"--cell '{cell['key']}'",
        **dict(zip(("dimName", "dimValue"), explorer.sweep_axis(cell["key"].split("|")[4])))}
    assert chunk["described"][cell["key"]]["dimValue"] > 0  # the scaling view's x, a number


def test_a_file_adding_more_than_its_share_to_the_index_is_refused_with_its_place(tmp_path, capsys):
    # a public fio output whose one job is repeated under 120 long names: 120 workloads outside the matrix
    from testutil import SAMPLES
    sample = json.loads((SAMPLES / "fio" / "fio-3.1-gvisor-sync-write.json").read_text())
    sample["jobs"] = [dict(sample["jobs"][0], jobname=f"job-{i:03d}-" + "x" * 60) for i in range(120)]
    many = tmp_path / "many.json"
    many.write_text(json.dumps(sample))
    assert main(["import", "fio", str(many), "--filesystem", "ext4", "--out", str(tmp_path / "refused")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "many.json" in err[0] and "/cells: expected this file to add at most 8,192 bytes" in err[0]
    assert "--workload" in err[0] and not (tmp_path / "refused" / "results").exists()
    # one workload name for every cell: the same figures, a file that passes
    assert main(["import", "fio", str(many), "--filesystem", "ext4", "--workload", "sync-write",
                 "--out", str(tmp_path / "one")]) == 0
    (path,) = (tmp_path / "one" / "results").iterdir()
    result = readable(json.loads(path.read_text()))
    assert len(result["cells"]) == 120 and shares.index_share(result) <= shares.MAX_INDEX_SHARE
    assert main(["validate", str(path)]) == 0


def test_a_long_reason_is_clipped_on_shared_pages_and_whole_on_its_result_s_page(out_dir, valid_result, tmp_path):
    long = "the kernel has no jfs module " * 100  # 2,900 characters, within validate's limits
    result = mutated(valid_result, lambda d: next(c for c in d["cells"] if c["status"] == "skipped").update(reason=long))
    write_json(out_dir / "results" / "fixture-valid.json", result)
    assert main(["aggregate", "--data", str(out_dir), "--content", str(tmp_path / "pages")]) == 0
    shared = json.loads((out_dir / "aggregates" / "cells.json").read_text())["jfs|-|-|seq-write"]["reason"]
    assert len(shared) == shares.REASON_SHARED_CHARS and shared == long[:shares.REASON_SHARED_CHARS - 1] + "…"
    own = result_tables.unpack((tmp_path / "tables" / "fixture-valid.html").read_bytes())[b"metrics-table"].decode()
    assert long.strip() in own


def test_samples_spread_over_hundreds_of_powers_of_ten_are_shown_with_an_interval_cut_at_zero(out_dir, valid_result, tmp_path):
    """5e-324 (the smallest positive float) beside 1e17: every figure within the schema's bounds,
    the logarithms' interval beyond exp()'s range; the first build raised OverflowError."""
    def spread(result):
        for cell in result["cells"][:2]:  # the two measured cells, so the compare tables pair them
            metric = cell["metrics"]["throughput"]
            metric.update(stats.summarize([5e-324, 1e17, 1e17], metric["unit"], metric["better"]))
    write_json(out_dir / "results" / "fixture-valid.json", mutated(valid_result, spread))
    assert main(["aggregate", "--data", str(out_dir), "--content", str(tmp_path / "pages")]) == 0
    rows = json.loads((out_dir / "aggregates" / "latest.json").read_text())["rows"]
    wide = [r for r in rows if r["metric"] == "throughput"]
    assert len(wide) == 2 and all(r["ci_low"] == 0.0 and 0 < r["ci_high"] <= 1e18 for r in wide)


def test_cells_outside_the_matrix_count_on_no_shared_page(out_dir, valid_result, tmp_path):
    """A valid file naming 100 filesystems of its own made the compare page 9,900 pair tables
    (13.5 s, 401 MiB, a 1.9 MB page); on its own page and in the explorer they stay."""
    from fsatlas.site import run_rule
    cell = valid_result["cells"][0]
    assert run_rule.shared(cell["key"]) and not run_rule.shared("f000|-|-|seq-write")

    def own_filesystems(result):
        result["cells"] = [dict(cell, filesystem=f"f{i:03d}", key=f"f{i:03d}|-|-|seq-write") for i in range(100)]
        result["wall_seconds"] += 99 * cell.get("wall_seconds", 0)  # a run lasts as long as its cells took
    write_run(out_dir, mutated(valid_result, own_filesystems))  # each cell's members in its own key's folder
    assert main(["aggregate", "--data", str(out_dir), "--content", str(tmp_path / "pages")]) == 0
    aggregates = {name: json.loads((out_dir / "aggregates" / f"{name}.json").read_text())
                  for name in ("compare", "rankings", "latest", "results", "cells")}
    assert aggregates["compare"]["pairs"] == {} and aggregates["rankings"] == {}
    # (the run's row in results.json names none of them: the rows hold only what the lists show)
    assert "filesystems" not in aggregates["results"][0] and aggregates["latest"]["rows"] == []
    assert len(aggregates["cells"]) == 100 and not any(c["shared"] for c in aggregates["cells"].values())
    chunk = json.loads((tmp_path / "static" / "explorer" / "rows" / "fixture-valid.json").read_text())
    assert len(chunk["keys"]) == 100  # the explorer draws them


def test_a_published_file_is_linked_in_place_when_new_and_replaced_through_a_rename(tmp_path, monkeypatch):
    first, second, target = tmp_path / "first", tmp_path / "second", tmp_path / "published"
    first.write_bytes(b"1")
    second.write_bytes(b"2")
    real_replace = os.replace

    def no_rename(*args):
        raise AssertionError("a new target needs no temporary and no rename")
    monkeypatch.setattr(os, "replace", no_rename)
    assert aggregate._linked(str(first), str(target)) and os.path.samefile(first, target)
    assert aggregate._linked(str(first), str(target))  # linked already
    monkeypatch.setattr(os, "replace", real_replace)
    assert aggregate._linked(str(second), str(target)) and os.path.samefile(second, target)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["first", "published", "second"]  # no temporary left


def test_the_methodology_page_names_each_swept_cell_of_a_profile_once():
    """A profile's sweep ("cells numjobs=2, numjobs=4, numjobs=8") read each value once a
    filesystem: "numjobs=4, numjobs=4, numjobs=4, ..." on /methodology/. Each profile's sweep
    of a workload is the dimensions of its cells, by the matrix's own expansion, each once."""
    from fsatlas.run import matrix as matrix_mod
    m = matrix_mod.load()
    for name, spec in aggregate.matrix_summary(m)["workloads"].items():
        for profile, entry in spec["profiles"].items():
            swept = entry["sweep"].split(", ") if entry["sweep"] else []
            dims = {",".join(f"{k}={v}" for k, v in c.dimensions.items()) for c in m.profile(profile, workloads=[name]).cells if c.dimensions}
            assert len(swept) == len(set(swept)) and set(swept) == dims, (name, profile, swept)


_WORD = st.text(st.characters(min_codepoint=32, max_codepoint=0x24f), min_size=1, max_size=12)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._-]{0,20}", fullmatch=True), _WORD, _WORD, st.booleans(),
                          st.sampled_from(["a, storage: b, Linux 6", "system not recorded (…), storage: c"])),
                unique_by=lambda s: s[0], max_size=12))
def test_run_systems_gives_each_run_its_machine_and_system_line_and_each_line_once(runs):
    """#62 round 12: a saved chart prints, for each run of its rows, charts/runs.json's words of it
    (aggregate.run_systems): its machine as readers see it (machines.shown) and its system line,
    each line stored once however many runs share it. Over summaries hypothesis draws, labels
    equal to their names and systems shared among them."""
    from fsatlas.site.aggregate import run_systems
    summaries = [{"id": rid, "machine": label, "machine_name": label if unnamed else name, "system": system}
                 for rid, label, name, unnamed, system in runs]
    made = json.loads(json.dumps(run_systems(summaries)))  # as the browser reads the file
    assert sorted(made["runs"]) == sorted(s["id"] for s in summaries)
    assert len(set(made["systems"])) == len(made["systems"])
    for s in summaries:
        machine = s["machine"] if s["machine_name"] == s["machine"] else f"{s['machine_name']} ({s['machine']})"
        assert made["systems"][made["runs"][s["id"]]] == f"{machine}; {s['system']}"


def test_a_killed_aggregates_temporary_files_are_removed_by_the_next(out_dir, tmp_path):
    """#65 round 53: an aggregate killed between a write and its rename left "<target>.tmp"
    files among its outputs, which nothing removed. Each output folder of a result, holding a
    temporary file as a kill leaves one (outfile.temporary_for of an output): the next aggregate
    removes them all, and writes every output whole."""
    from fsatlas import outfile
    from fsatlas.site import aggregate as agg
    pages = tmp_path / "pages"
    assert main(["aggregate", "--data", str(out_dir), "--content", str(pages)]) == 0
    outputs = agg.Outputs(str(pages), str(tmp_path / "static"))
    folders = [outputs.pages, outputs.chunks, outputs.charts, outputs.published, outputs.tables, outputs.digests]
    left = []
    for folder in folders:
        name = next(n for n in sorted(os.listdir(folder)) if not outfile.is_temporary(n))
        left.append(outfile.temporary_for(os.path.join(folder, name)))
        with open(left[-1], "wb") as f:
            f.write(b"{ half")
    assert main(["aggregate", "--data", str(out_dir), "--content", str(pages)]) == 0
    assert not [p for p in left if os.path.exists(p)]
    assert all(not outfile.is_temporary(n) for folder in folders for n in os.listdir(folder))
