"""Issue 60's adversary (items 1, 2 and 3 of task F60), each rule tested from the rule:
- everything a figure depends on besides the filesystem is a factor (each field the schema
  gives system, target, its guest and tool; the profile; a cell's parameters), and a factor
  that differs keeps a row from better, worse and equivalent; parameters that differ keep it
  from being tested;
- a factor that varies within a side is a differing factor ("mixed");
- a run counts once (by id and by content), and a run on both sides is refused."""
import json
import re

import pytest
from hypothesis import assume, example, given, settings, strategies as st

from fsatlas.cli import main
from fsatlas.errors import UserError
from fsatlas.results import comparison, resultfile
from fsatlas.results.resultfile import readable  # a result file in the read form (schema 2 stores no summaries)

KEY = "ext4|-|-|fio-rand-read-4k"
SYSTEM = {"machine": "m-1", "kernel": "6.1.0", "os": "Debian GNU/Linux 12 (bookworm)", "arch": "x86_64",
          "cpu_model": "AMD EPYC", "cpu_count": 2, "memory_bytes": 2**34, "virtualization": "kvm", "container": "docker"}
TARGET = {"kind": "directory"}
GUEST = {"kernel": "6.1.0-kvm", "package": "linux-image-6.1.0-kvm", "hypervisor": "qemu", "accelerator": "kvm",
         "emulated": False}
TOOL = {"runner": "0.1.0", "imported_from": "fio", "fio": "fio-3.33"}
PARAMETERS = {"job": "rand-read-4k", "rw": "randread", "bs": "4k", "iodepth": "1", "ioengine": "libaio"}
QUIET = {"others_cpu_s": 0.0, "steal_pct": 0.0, "iowait_pct": 0.5, "seconds": 1.0, "load1": 0.1}  # a repetition's host record


def result(rid, samples, system=None, target=None, tool=None, profile="import-fio", parameters=None):
    return {"id": rid, "profile": profile, "system": system or SYSTEM, "target": target or TARGET, "tool": tool or TOOL,
            "cells": [{"key": KEY, "workload": KEY.split("|")[3], "status": "ok", "started": [],
                       "parameters": parameters or PARAMETERS,
                       "host": [QUIET] * len(samples),  # contention known (else not tested: comparison.contention_unknown)
                       "metrics": {"throughput": {"samples": list(samples), "better": "higher", "unit": "bytes/s"}}}]}


def side(base: float, n: int, prefix: str, **fields) -> list:
    """n runs of three repetitions around base, each with its own samples (its own content, and
    not another side's times one factor: comparison.scaled)."""
    curve = (ord(prefix[0]) % 89 + 1) * 1e-6
    return [result(f"{prefix}{i}", [base * (1 + (i + 1) * 1e-3 + j * 3e-3 + curve * j * j) for j in range(3)], **fields)
            for i in range(n)]


def _schema_fields():
    """(where, name) of every field the schema gives a run's system, target, guest and tool."""
    schema = resultfile.schema()
    props = schema["properties"]
    out = [("system", k) for k in props["system"]["properties"]]
    out += [("target", k) for k in props["target"]["properties"] if k not in ("baseline", "baseline_after", "guest")]
    out += [("guest", k) for k in schema["$defs"]["guest"]["properties"]]
    out += [("tool", k) for k in props["tool"]["properties"]] + [("tool", "mkfs.xfs")]  # a tool the schema admits by pattern
    return out


# baseline_written says whether the raw device was filled before the baseline jobs ran: it changes the
# baseline's figures (target.baseline), not a cell's, and is judged by the flags (flags.py)
# system.recorded says where the facts came from (run, tool, file, this-machine) or that there are none:
# test_a_system_not_recorded_is_never_the_same_as_another
# system.machine_name is a reader's name for the machine, proposed from the facts that are factors
# (results/machines.propose) or given by --machine-name: another name is not another machine
NOT_A_CELLS_FACTOR = {("target", "baseline_written"), ("system", "recorded"), ("system", "machine_name")}
FIELDS = [f for f in _schema_fields() if f not in NOT_A_CELLS_FACTOR]


def _changed(where: str, name: str, value) -> dict:
    """result()'s keyword arguments with one field of the run changed to value."""
    if where == "guest":
        return {"target": {**TARGET, "guest": {**GUEST, name: value}}}
    base = {"system": SYSTEM, "target": TARGET, "tool": TOOL}[where]
    return {where: {**base, name: value}}


def _other(value):
    # a number twice as large: memory_bytes of one machine moves by some KiB from boot to boot, and is
    # compared in GiB to one decimal
    return (not value) if isinstance(value, bool) else (value * 2 + 1 if isinstance(value, int) else f"{value}-other")


@pytest.mark.parametrize("where,name", FIELDS)
def test_every_field_of_a_run_that_a_figure_depends_on_is_a_factor(where, name):
    start = {"system": SYSTEM, "target": {**TARGET, "guest": GUEST}, "tool": TOOL}
    current = (start["target"]["guest"] if where == "guest" else start[where]).get(name, "x")
    a = result("a", [1.0, 2.0], **({"target": start["target"]} if where == "guest" else {}))
    b = result("b", [1.0, 2.0], **_changed(where, name, _other(current)))
    assert comparison.design([comparison.factors(a)], [comparison.factors(b)])["differ"], (where, name)


def test_a_system_not_recorded_is_never_the_same_as_another():
    """An import without --system holds a label alone (recorded "none"): two such runs under one
    label are not shown to share a machine, kernel or OS; where the facts came from is no factor."""
    bare = {"machine": "m-1", "recorded": "none"}
    a, b = result("a", [1.0, 2.0], system=bare), result("b", [1.0, 3.0], system=bare)
    assert {"machine", "kernel", "os", "virtualization"} <= set(
        comparison.design([comparison.factors(a)], [comparison.factors(b)])["differ"])
    rows = comparison.between(side(100e6, 2, "a", system=bare), side(200e6, 2, "b", system=bare))
    assert rows[0]["significant"] and rows[0]["verdict"] == "differs"
    told = result("c", [1.0], system={**SYSTEM, "recorded": "file"})
    assert comparison.design([comparison.factors(result("d", [1.0]))], [comparison.factors(told)])["differ"] == []


def test_a_guest_or_none_and_the_profile_are_factors():
    kvm = result("a", [1.0], target={**TARGET, "guest": GUEST})
    for other in (result("b", [1.0]), result("c", [1.0], profile="standard"),
                  result("d", [1.0], target={**TARGET, "guest": {**GUEST, "emulated": True, "accelerator": "tcg"}})):
        assert comparison.design([comparison.factors(kvm)], [comparison.factors(other)])["differ"]


@settings(max_examples=40)
@given(field=st.sampled_from(FIELDS), ratio=st.sampled_from([0.1, 0.5, 0.999, 1.0001, 1.001, 2.0, 10.0]))
def test_a_factor_that_differs_keeps_every_row_from_better_worse_or_equivalent(field, ratio):
    """The adversary's example is a KVM guest on 6.1 against TCG-emulated 6.12 ("worse"), and
    beside it every other field: whatever the ratio, significant or not, no verdict is the filesystem's."""
    where, name = field
    current = (GUEST if where == "guest" else {"system": SYSTEM, "target": TARGET, "tool": TOOL}[where]).get(name, "x")
    base = {"target": {**TARGET, "guest": GUEST}} if where == "guest" else {}
    rows = comparison.between(side(100e6, 3, "a", **base), side(100e6 * ratio, 3, "b", **_changed(where, name, _other(current))))
    assert rows and all(r["verdict"] in ("differs", "inconclusive") and r["differ"] for r in rows), rows
    assert all(r["verdict"] == "differs" for r in rows if r["significant"])


params = st.dictionaries(st.sampled_from(["bs", "iodepth", "numjobs", "rw", "direct", "size"]),
                         st.sampled_from(["1", "4k", "32", "randread", "0"]), min_size=1, max_size=4)


@settings(max_examples=60)
@given(pa=params, pb=params, runs=st.integers(1, 3))
def test_cells_whose_parameters_differ_are_never_tested_and_the_difference_is_named(pa, pb, runs):
    rows = comparison.between(side(100e6, runs, "a", parameters=pa), side(300e6, runs, "b", parameters=pb))
    [row] = rows
    if pa != pb:
        assert row["status"] == "not tested" and row["verdict"] == "not tested" and row["p"] is None
        assert "parameters" in row["differ"]
        for k in set(pa) | set(pb):  # each parameter that differs is named, with each side's value
            assert (f"{k} A={pa.get(k, '-')} B={pb.get(k, '-')}" in row["why"]) == (pa.get(k) != pb.get(k))
    else:
        assert "parameters" not in row["differ"]
        assert row["status"] == ("tested" if runs >= 2 else "not tested")


def test_the_issues_iodepth_example_and_one_run_among_several_with_other_parameters():
    one, deep = {**PARAMETERS, "iodepth": "1"}, {**PARAMETERS, "iodepth": "32"}
    [row] = comparison.between(side(100e6, 2, "a", parameters=one), side(300e6, 2, "b", parameters=deep))
    assert row["verdict"] == "not tested" and row["why"] == "parameters differ (iodepth A=1 B=32)"
    # just beside: one of three B runs at iodepth 32
    [row] = comparison.between(side(100e6, 3, "a", parameters=one),
                               side(300e6, 2, "b", parameters=one) + side(300e6, 1, "c", parameters=deep))
    assert row["verdict"] == "not tested" and row["why"] == "parameters differ (iodepth A=1 B=1/32)"


@settings(max_examples=60)
@given(machines_a=st.lists(st.sampled_from(["m-one", "m-two"]), min_size=2, max_size=10),
       machines_b=st.lists(st.sampled_from(["m-one", "m-two"]), min_size=2, max_size=10))
def test_a_factor_that_varies_within_a_side_is_a_differing_factor(machines_a, machines_b):
    """The rule: a factor is the same only when every run of both sides has one value of it."""
    def runs(machines, prefix, base):
        curve = (ord(prefix) % 89 + 1) * 1e-6  # not another side's run times one factor (comparison.scaled)
        return [result(f"{prefix}{i}", [base * (2 if m == "m-two" else 1) * (1 + i * 1e-3 + j * 3e-3 + curve * j * j)
                                        for j in range(3)],
                       system={**SYSTEM, "machine": m}) for i, m in enumerate(machines)]
    a, b = runs(machines_a, "a", 100e6), runs(machines_b, "b", 100.5e6)  # each run its own samples
    [row] = comparison.between(a, b)
    plan = comparison.design([comparison.factors(r) for r in a], [comparison.factors(r) for r in b])
    one_machine = len(set(machines_a + machines_b)) == 1
    assert ("machine" in row["differ"]) == ("machine" in plan["differ"]) == (not one_machine)
    assert ("machine" in plan["mixed"]) == (len(set(machines_a)) > 1 or len(set(machines_b)) > 1)
    if not one_machine:
        assert row["verdict"] in ("differs", "inconclusive")


def test_the_issues_mix_nine_and_one_against_one_and_nine():
    a = [result(f"a{i}", [(100e6 if i < 9 else 200e6) * (1 + i * 1e-3 + j * 3e-3) for j in range(3)],
                system={**SYSTEM, "machine": "m-one" if i < 9 else "m-two"}) for i in range(10)]
    b = [result(f"b{i}", [(200e6 if i < 9 else 100e6) * (1 + i * 1e-3 + j * 3e-3 + 1e-5 * j * j) for j in range(3)],
                system={**SYSTEM, "machine": "m-two" if i < 9 else "m-one"}) for i in range(10)]
    [row] = comparison.between(a, b)
    assert row["significant"] and row["verdict"] == "differs" and row["differ"] == ["machine"]


@settings(max_examples=60)
@given(pick_a=st.lists(st.integers(0, 4), min_size=1, max_size=5), pick_b=st.lists(st.integers(0, 4), min_size=1, max_size=5),
       copies=st.sets(st.integers(0, 4)))
@example(pick_a=[0, 2], pick_b=[1, 1, 3, 4], copies={0, 1, 2, 3, 4})  # a ratio differing in its last bits
def test_a_run_counts_once_and_a_run_on_both_sides_is_refused(pick_a, pick_b, copies):
    """Runs 0-4, each named any number of times on a side, some as a copy (the same samples under
    another id, as importing one output twice gives): the rows are those of each side's runs
    taken once, and a run on both sides is refused."""
    pool = side(100e6, 5, "r")
    copy = {i: {**pool[i], "id": f"copy{i}"} for i in copies}
    a = [copy[i] if i in copy and n % 2 else pool[i] for n, i in enumerate(pick_a)]
    b = [copy[i] if i in copy and n % 2 else pool[i] for n, i in enumerate(pick_b)]
    if set(pick_a) & set(pick_b):
        with pytest.raises(UserError, match="a run compared with itself"):
            comparison.between(a, b)
        return
    rows = comparison.between(a, b)
    once_a, once_b = ([pool[i] for i in dict.fromkeys(p)] for p in (pick_a, pick_b))
    expected = comparison.between(once_a, once_b)
    # the runs kept are the same samples in another order (a copy's id may sort first): the
    # figures agree to rounding, not to the last bit
    assert [(r["n_a"], r["n_b"], r["verdict"]) for r in rows] == [(r["n_a"], r["n_b"], r["verdict"]) for r in expected]
    assert [(r["ratio"], r["p"]) for r in rows] == [pytest.approx((r["ratio"], r["p"]), rel=1e-9) for r in expected]
    assert (rows[0]["runs_a"], rows[0]["runs_b"]) == (len(set(pick_a)), len(set(pick_b)))


def test_compare_of_a_run_with_itself_is_one_line_and_status_1(tmp_path, capsys):
    run = side(100e6, 1, "x")[0]
    path, copied = tmp_path / "x.json", tmp_path / "x-again.json"
    path.write_text(json.dumps(run))
    copied.write_text(json.dumps({**run, "id": "x-again"}))
    for args in ([path, path], ["--runs-a", path, "--runs-b", path], [path, copied], ["--runs-a", path, copied, "--runs-b", copied]):
        with pytest.MonkeyPatch.context() as m:
            m.setattr("fsatlas.commands.compare.validated", lambda ps: [readable(json.loads(open(p).read())) for p in ps])
            assert main(["compare", *map(str, args)]) == 1
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "a run compared with itself" in err and "Traceback" not in err


row_samples = st.lists(st.floats(1.0, 1e6), min_size=1, max_size=4)


@settings(max_examples=80)
@given(pairs=st.lists(st.tuples(row_samples, row_samples, st.booleans()), min_size=1, max_size=12))
def test_the_family_named_is_the_rows_tested_and_no_test_is_named_where_none_was(pairs):
    """Issue 60 (task item 4): "adjusted over the 572 rows" where 3 were tested. The sentence
    names the count of tested rows (each row's own family), and no test where none was tested."""
    plan_one = comparison.design([{"run": "a"}], [{"run": "b"}])
    plan_two = comparison.design([{"run": "a1"}, {"run": "a2"}], [{"run": "b1"}, {"run": "b2"}])
    rows = [comparison.compare_design([a, [v * 1.01 for v in a]], [b, [v * 0.99 for v in b]], "higher", "log",
                                      plan_two if tested else plan_one) for a, b, tested in pairs]
    comparison.adjust(rows, comparison.BH)
    text = comparison.tests_used(rows)
    tested = sum(r["status"] == "tested" for r in rows)
    assert all(r["family"] == tested for r in rows)
    if tested:
        assert f"over the {tested} tested row" in text and "Benjamini-Hochberg" in text
        assert (f"(of {len(rows)})" in text) == (tested != len(rows))
    else:
        assert "test " not in text and "t-test" not in text and "Benjamini" not in text and "adjusted" not in text
        assert text.startswith("No row was tested (")


def _fio_figures(ios: int, runtime_ms: int, bs: int) -> tuple[float, float]:
    """(bw_bytes, iops) as fio 3.x computes and prints them: an integer division for bw_bytes,
    a double printed to six decimals for iops (stat.c: bw = 1000 * bytes / runtime)."""
    return float(1000 * ios * bs // runtime_ms), round(1000.0 * ios / runtime_ms, 6)


@settings(max_examples=200)
@given(bs=st.sampled_from([512, 4096, 16384, 65536, 1 << 20]), runtime=st.integers(1_000, 120_000),
       ios=st.lists(st.integers(1, 5_000_000), min_size=4, max_size=8), other=st.floats(1.02, 3.0))
def test_iops_is_throughputs_samples_at_any_throughput_and_block_size(bs, runtime, ios, other):
    """Issue 60 (task item 6): a fixed 1e-4 kept iops as a second test at about 1 kB/s, where a
    whole byte is 1e-3 of the figure. From fio's own arithmetic, over throughputs from bytes to GB/s."""
    half = len(ios) // 2
    figures = [_fio_figures(n, runtime, bs) for n in ios]
    a = {"throughput": [t for t, _ in figures[:half]], "iops": [i for _, i in figures[:half]]}
    b = {"throughput": [t for t, _ in figures[half:]], "iops": [i for _, i in figures[half:]]}
    assume(min(a["iops"] + b["iops"]) > 0)
    assert comparison.distinct(["throughput", "iops"], a, b) == ["throughput"]
    # just beside: side B's iops another measurement (another constant): kept, unless rounding hides it
    b_other = {**b, "iops": [round(i * other, 6) for i in b["iops"]]}
    bytes_step = max(1 / t for t in a["throughput"] + b["throughput"]) + max(1e-6 / i for i in a["iops"] + b["iops"])
    if other - 1 > 2 * (comparison.SCALED_REL + 2 * bytes_step):
        assert comparison.distinct(["throughput", "iops"], a, b_other) == ["throughput", "iops"]


def test_compares_summary_names_no_test_where_none_was_and_the_family_where_some_were(tmp_path, capsys):
    runs = side(100e6, 4, "r")
    paths = []
    for r in runs:
        paths.append(tmp_path / f"{r['id']}.json")
        paths[-1].write_text(json.dumps(r))
    with pytest.MonkeyPatch.context() as m:
        m.setattr("fsatlas.commands.compare.validated", lambda ps: [readable(json.loads(open(p).read())) for p in ps])
        assert main(["compare", str(paths[0]), str(paths[1])]) == 0
        err = capsys.readouterr().err
        assert "No row was tested (one run per side)" in err and "Welch" not in err and "Benjamini" not in err
        assert main(["compare", "--runs-a", *map(str, paths[:2]), "--runs-b", *map(str, paths[2:])]) == 0
        assert "p adjusted by Benjamini-Hochberg over the 1 tested row of headline metrics," in capsys.readouterr().err


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(comparison.FACTORS), unique=True, min_size=1))
def test_the_factors_that_differ_are_named_with_a_verb_of_their_number(names):
    """The rule: one factor "differs", several "differ", each named once in order ("kernel differ"
    was printed for one)."""
    text = comparison.they_differ(names)
    assert text.endswith(" differs" if len(names) == 1 else " differ")
    assert [n for n in comparison.FACTORS if re.search(rf"\b{n}\b", text)] == [n for n in comparison.FACTORS if n in names]


extra_names = st.text(st.characters(whitelist_categories=("Ll",), whitelist_characters="_"), min_size=2, max_size=12)
extra_values = st.one_of(st.text(min_size=1, max_size=20), st.integers(1, 10 ** 6), st.booleans(),
                         st.dictionaries(st.sampled_from(["model", "rpm", "bus"]), st.text(min_size=1, max_size=8),
                                         min_size=1, max_size=2))


@settings(max_examples=60)
@given(where=st.sampled_from(["system", "target"]), name=extra_names, a=extra_values, b=extra_values)
def test_a_field_beyond_the_schemas_own_that_differs_is_a_differing_factor(where, name, a, b):
    """The rule (round 58): two sides differing in any field a --system file may add to system
    (scalars: cpu_mhz, storage_model) or to target (anything: a disk described as an object) are
    not "the same" machine or storage: the factor is named and no row is better or worse."""
    from hypothesis import assume
    assume(name not in comparison.NOT_MACHINE | set(SYSTEM) | set(TARGET) | {"baseline", "baseline_after",
                                                                               "baseline_written", "guest"})
    if where == "system":
        assume(not isinstance(a, dict) and not isinstance(b, dict))  # the schema's system holds scalars only
    fields = lambda v: {where: {**(SYSTEM if where == "system" else TARGET), name: v}}  # noqa: E731
    plan = comparison.design([comparison.factors(r) for r in side(100e6, 2, "a", **fields(a))],
                             [comparison.factors(r) for r in side(200e6, 2, "b", **fields(b))])
    factor = "machine" if where == "system" else "storage"
    shown = lambda v: json.dumps(v, sort_keys=True) if isinstance(v, dict) else str(v)  # noqa: E731 (1 and "1" alike)
    assert (factor in plan["differ"]) is (shown(a) != shown(b)), plan


def test_two_pts_imports_of_one_machine_differ_only_in_what_changed():
    """Round 59, finding 7: two PTS systems of one machine whose Software lines differ in the
    desktop's version alone do not differ in machine; with another kernel too, only the kernel
    differs ("kernel differs")."""
    hardware = "Processor: AMD Ryzen 7 3700X 8-Core @ 3.60GHz (8 Cores / 16 Threads), Memory: 2 x 8 GB DDR4"
    def pts_run(rid, kernel, desktop):
        software = f"OS: Ubuntu 20.04, Kernel: {kernel} (x86_64), Desktop: GNOME Shell {desktop}"
        system = {**SYSTEM, "machine": "pts-1", "kernel": kernel, "pts_hardware": hardware, "pts_software": software,
                  "pts_timestamp": f"2021-03-0{len(rid)} 10:00:00"}
        return comparison.factors(result(rid, [1.0], system=system))
    plan = comparison.design([pts_run("a", "5.4.0", "3.36.4")], [pts_run("bb", "5.4.0", "3.36.9")])
    assert plan["differ"] == []
    plan = comparison.design([pts_run("a", "5.4.0", "3.36.4")], [pts_run("bb", "5.8.0", "3.36.9")])
    assert plan["differ"] == ["kernel"] and comparison.they_differ(plan["differ"]) == "kernel differs"
