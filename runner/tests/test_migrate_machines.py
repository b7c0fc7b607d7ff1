"""fsatlas migrate separates two machines that once shared a label: the later result (by file
name) gets a label of its own, validate then warns of nothing, and a second migrate changes
nothing; one label is one machine on the site."""
import copy
import json
import shutil
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from fsatlas.cli import main
from testutil import epoch, moved_bundle

FIXTURES = Path(__file__).parent / "fixtures"


def _stored_run(data: Path, doc: dict, rid: str, created: str, **system) -> None:
    """The fixture's result as run rid of data/, created then, its system facts changed, with its bundle."""
    (data / "results" / f"{rid}.json").write_text(json.dumps(dict(
        doc, id=rid, created=created, system={**doc["system"], **system},
        cells=[dict(c, raw=[r.replace("raw/fixture-valid/", f"raw/{rid}/") for r in c["raw"]]) for c in doc["cells"]])))
    moved_bundle(FIXTURES, "fixture-valid", data, rid, epoch(created) - epoch(doc["created"]))


def test_a_label_shared_by_two_machines_is_split(tmp_path, capsys):
    data = tmp_path / "data"
    shutil.copytree(FIXTURES / "raw", data / "raw")
    (data / "results").mkdir()
    doc = json.loads((FIXTURES / "results" / "fixture-valid.json").read_text())
    (data / "results" / "fixture-valid.json").write_text(json.dumps(doc))
    other = dict(doc, id="fixture-valid2", system={**doc["system"], "cpu_model": "AMD EPYC"},
                 cells=[dict(c, raw=[r.replace("raw/fixture-valid/", "raw/fixture-valid2/") for r in c["raw"]])
                        for c in doc["cells"]])
    (data / "results" / "fixture-valid2.json").write_text(json.dumps(other))
    moved_bundle(data, "fixture-valid", data, "fixture-valid2", 0)  # a run of its own: its own folders
    assert main(["validate", "--no-cache", str(data / "results")]) == 0
    assert "names other hardware" in capsys.readouterr().out
    assert main(["migrate", "--data", str(data)]) == 0
    assert "1 results given a machine label of their own" in capsys.readouterr().err
    first, second = (json.loads((data / "results" / f"{rid}.json").read_text()) for rid in ("fixture-valid", "fixture-valid2"))
    assert first["system"]["machine"] == doc["system"]["machine"]  # the earlier one keeps its label
    assert second["system"]["machine"].startswith(doc["system"]["machine"] + "-")
    assert main(["validate", "--no-cache", str(data / "results")]) == 0
    assert "names other hardware" not in capsys.readouterr().out
    before = (data / "results" / "fixture-valid2.json").read_bytes()
    assert main(["migrate", "--data", str(data)]) == 0
    assert "0 results given a machine label of their own" in capsys.readouterr().err
    assert (data / "results" / "fixture-valid2.json").read_bytes() == before


CPUS = ("Intel(R) Xeon(R) Processor", "AMD EPYC", "ARM Neoverse")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(CPUS), st.integers(0, 3)), min_size=2, max_size=5))
def test_a_label_is_one_machine_with_one_hardware_and_its_majority_keeps_it(tmp_path_factory, runs):
    """#65 round 52: a copy of a quick run under its machine's label, with another CPU and a name
    that sorts first, drew no warning itself, put "1 other run" and a link to itself on the
    genuine run's page, and made migrate relabel both genuine runs. Runs under one label, each
    with a drawn CPU and day: validate warns every run whose label another CPU shares; a page
    counts as other runs those of its label, CPU and profile only (counted here by hand); and
    migrate leaves the label to the CPU most runs record (a tie: the earliest run, then the first
    file), relabelling the others."""
    data = tmp_path_factory.mktemp("label") / "data"
    (data / "results").mkdir(parents=True)
    (data / "raw").mkdir()
    doc = json.loads((FIXTURES / "results" / "fixture-valid.json").read_text())
    made = {}
    for k, (cpu, day) in enumerate(runs):
        rid = f"run{k}"
        made[rid] = (cpu, f"2026-11-2{4 + day}T0{k}:00:00Z")
        _stored_run(data, doc, rid, made[rid][1], cpu_model=cpu)
    capsys_out = subprocess.run([sys.executable, "-m", "fsatlas.cli", "validate", "--no-cache", str(data / "results")],
                                capture_output=True, text=True, cwd=FIXTURES.parent.parent)
    assert capsys_out.returncode == 0, capsys_out.stderr
    warned = {line.split(":")[0].rsplit("/", 1)[1][:-5] for line in capsys_out.stdout.splitlines() if "names other hardware" in line}
    cpus = {cpu for cpu, _ in made.values()}
    assert warned == (set(made) if len(cpus) > 1 else set())
    from fsatlas.site import aggregate
    aggregate.aggregate(str(data), str(data.parent / "build" / "content"))
    sentences = json.loads((data.parent / "build" / "other-runs.json").read_text())
    for rid, (cpu, _) in made.items():
        others = sum(1 for other, (c, _) in made.items() if other != rid and c == cpu)
        assert (f"have {others:,} other run" in sentences[rid]) if others else 'hidden' in sentences[rid], (rid, sentences[rid])
    assert main(["migrate", "--data", str(data)]) == 0
    keeper = min(cpus, key=lambda c: (-sum(v[0] == c for v in made.values()),
                                      min((v[1], rid) for rid, v in made.items() if v[0] == c)))
    for rid, (cpu, _) in made.items():
        label = json.loads((data / "results" / f"{rid}.json").read_text())["system"]["machine"]
        assert (label == doc["system"]["machine"]) == (cpu == keeper), (rid, cpu, keeper, label)


def _summary(doc: dict, **system) -> dict:
    from fsatlas.results.resultfile import readable
    from fsatlas.site import aggregate
    return aggregate.result_summary(readable({**doc, "system": {**doc["system"], **system}}))


def test_a_result_under_a_labels_name_with_other_hardware_changes_not_the_labels_entry():
    """#65 round 54: the list of labels that may name one host took a label's name from its
    newest result, an intruder with another CPU, and its twins from every result under it. With
    and without such a result (the newest), the list is the same: the label's name and twins are
    those of the hardware most of its results record."""
    from fsatlas.site import aggregate
    doc = json.loads((FIXTURES / "results" / "fixture-valid.json").read_text())
    genuine = [_summary(dict(doc, id=f"g{k}", created=f"2026-11-2{4 + k}T00:00:00Z")) for k in range(2)]
    twin = _summary(dict(doc, id="t", created="2026-11-25T00:00:00Z"), machine="m-twin")
    intruder = _summary(dict(doc, id="x", created="2026-11-29T00:00:00Z"), cpu_model="AMD EPYC 9654 96-Core Processor")
    before = aggregate.machine_twins([twin, *genuine[::-1]])
    assert before and doc["system"]["machine"] in before
    assert aggregate.machine_twins([intruder, twin, *genuine[::-1]]) == before


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 512), st.integers(1, 2**30 - 1), st.integers(1, 2**30 - 1))
def test_one_machine_is_one_memory_size_whatever_its_kernel_reserves(installed_gib, reserved, other):
    """Round 54: memory rounded to the nearest GiB split a machine reporting 15.5 GiB ± 512 KiB
    into two. Any installed size less any two reservations under a GiB: one size."""
    from fsatlas.results import machines
    total = installed_gib * 2**30
    assert machines.memory_gib(total - reserved) == machines.memory_gib(total - other) == installed_gib


def test_two_long_labels_cut_to_one_start_stay_two(tmp_path, capsys):
    """Round 54: migrate's new label was the label's first 50 characters and a digest of the
    hardware alone, so two labels sharing those characters, each with a minority of AMD runs,
    became one label."""
    data = tmp_path / "data"
    (data / "results").mkdir(parents=True)
    (data / "raw").mkdir()
    doc = json.loads((FIXTURES / "results" / "fixture-valid.json").read_text())
    made = {}
    for label in ("x" * 50 + "-first", "x" * 50 + "-second"):
        for k, cpu in enumerate(("Intel(R) Xeon(R) Processor", "Intel(R) Xeon(R) Processor", "AMD EPYC")):
            rid = f"{label[-6:].strip('-')}{k}"
            made[rid] = label
            _stored_run(data, doc, rid, f"2026-11-2{4 + k}T00:00:00Z", machine=label, cpu_model=cpu)
    assert main(["migrate", "--data", str(data)]) == 0
    labels = {rid: json.loads((data / "results" / f"{rid}.json").read_text())["system"]["machine"] for rid in made}
    moved = {labels[rid] for rid in made if labels[rid] != made[rid]}
    assert len(moved) == 2, labels


def test_migrate_of_a_folder_writes_nothing_when_one_file_is_refused(tmp_path, capsys):
    """Round 54: `migrate --data` stored one file's flags, then refused a version 1 file whose
    stored mean its samples contradict (or, through its flags step, rewrote that file and dropped
    the mean). Every file is checked before any step writes: exit 1, one line at validate's
    place, every file's bytes as before."""
    data = tmp_path / "data"
    shutil.copytree(FIXTURES / "raw", data / "raw")
    (data / "results").mkdir()
    doc = json.loads((FIXTURES / "results" / "fixture-valid.json").read_text())
    good = dict(doc, cells=[dict(c, flags=[]) for c in doc["cells"]])  # flags a migrate would store
    bad = copy.deepcopy(doc)
    bad["id"] = "fixture-valid2"
    bad["cells"] = [dict(c, raw=[r.replace("raw/fixture-valid/", "raw/fixture-valid2/") for r in c["raw"]], flags=[])
                    for c in bad["cells"]]
    bad["cells"][0]["metrics"]["throughput"]["mean"] *= 3
    shutil.copy(data / "raw" / "fixture-valid.tar.gz", data / "raw" / "fixture-valid2.tar.gz")
    paths = [data / "results" / f"{d['id']}.json" for d in (good, bad)]
    for path, d in zip(paths, (good, bad)):
        path.write_text(json.dumps(d))
    before = [p.read_bytes() for p in paths]
    assert main(["migrate", "--data", str(data)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert f"{paths[1]}: /cells/0/metrics/throughput/mean: expected" in err[-1], err
    assert [p.read_bytes() for p in paths] == before


def test_a_pack_cut_short_is_a_warning_and_migrate_finishes_it(tmp_path, capsys):
    """Round 54: a migrate killed inside bundle.pack, after its rename and during the removal,
    left raw/.<id>.packed/; validate refused the folder and a second migrate --data did not
    remove it. It is one warning naming it, and migrate --data removes it."""
    data = tmp_path / "data"
    shutil.copytree(FIXTURES / "raw", data / "raw")
    (data / "results").mkdir()
    shutil.copy(FIXTURES / "results" / "fixture-valid.json", data / "results")
    left = data / "raw" / ".fixture-valid.packed"
    (left / "ext4__-__-__seq-write").mkdir(parents=True)
    (left / "ext4__-__-__seq-write" / "rep-1.json").write_text("{")
    assert main(["validate", "--no-cache", str(data / "results")]) == 0
    out = capsys.readouterr()
    assert f"{left}: warning: /: expected no folder a pack cut short left" in out.out + out.err
    assert main(["migrate", "--data", str(data)]) == 0
    assert not left.exists() and (data / "raw" / "fixture-valid.tar.gz").is_file()


MUTATIONS = {
    "an e-mail address in the notes": lambda doc, data: doc.update(notes="run by jane.doe@example.com"),
    "a sample its raw file contradicts, its summaries its own": lambda doc, data: _scaled_sample(doc),
    "no bundle": lambda doc, data: (data / "raw" / "fixture-valid.tar.gz").unlink(),
    "a private host in a cell's notes": lambda doc, data: doc["cells"][0].update(error="on build-7.corp.example.com"),
}


def _scaled_sample(doc):
    from fsatlas.results import stats
    metric = doc["cells"][0]["metrics"]["throughput"]
    metric["samples"][0] *= 1.1
    metric["mean"], metric["median"], metric["stddev"], metric["rsd_pct"], metric["ci95"] = \
        stats.summary_figures(metric["samples"])


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sets(st.sampled_from(sorted(MUTATIONS))), st.booleans())
def test_migrate_refuses_what_validate_refuses_and_writes_nothing(tmp_path_factory, mutations, by_path):
    """#65 round 55: migrate's own checks left out privacy, the figures recomputed from the raw
    bundle and the bundle's checks, so a version 1 file validate refused was written as version
    2 (exit 0). Any set of such changes to a version 1 file validate accepts: migrate (--data or
    PATH) accepts exactly when validate does; refusing, it changes no byte; accepting, validate
    accepts what it wrote."""
    data = tmp_path_factory.mktemp("refused") / "data"
    shutil.copytree(FIXTURES / "raw", data / "raw")
    (data / "results").mkdir()
    doc = json.loads((FIXTURES / "results" / "fixture-valid.json").read_text())
    assert doc["schema_version"] == 1
    for name in sorted(mutations):
        MUTATIONS[name](doc, data)
    path = data / "results" / "fixture-valid.json"
    path.write_text(json.dumps(doc))
    before = {p: p.read_bytes() for p in data.rglob("*") if p.is_file()}
    valid = main(["validate", "--no-cache", str(data / "results")]) == 0
    assert valid == (not mutations), mutations
    migrated = main(["migrate", *([str(path)] if by_path else ["--data", str(data)])]) == 0
    assert migrated == valid, mutations
    if not migrated:
        assert {p: p.read_bytes() for p in data.rglob("*") if p.is_file()} == before
    else:
        assert json.loads(path.read_text())["schema_version"] == 2
        assert main(["validate", "--no-cache", str(data / "results")]) == 0


def test_a_label_moved_off_never_lands_on_a_label_other_hardware_holds(tmp_path, capsys):
    """#65 round 55: r3 (AMD) moved off "lab" (Intel's by majority) to the label its digest
    gives, which r4 (ARM) held already; validate then warned that label named two machines, and
    the next migrate moved r4 too. Now the moved label names r3's hardware alone, validate warns
    of nothing, and a second migrate changes no byte."""
    import hashlib
    from fsatlas.results import validation
    data = tmp_path / "data"
    (data / "results").mkdir(parents=True)
    (data / "raw").mkdir()
    doc = json.loads((FIXTURES / "results" / "fixture-valid.json").read_text())
    amd = validation.hardware({**doc["system"], "machine": "lab", "cpu_model": "AMD EPYC"})
    taken = "lab-" + hashlib.sha256(json.dumps(amd).encode()).hexdigest()[:8]
    runs = {"r1": ("lab", "Intel(R) Xeon(R) Processor"), "r2": ("lab", "Intel(R) Xeon(R) Processor"),
            "r3": ("lab", "AMD EPYC"), "r4": (taken, "ARM Neoverse")}
    for k, (rid, (label, cpu)) in enumerate(runs.items()):
        _stored_run(data, doc, rid, f"2026-11-2{4 + k}T00:00:00Z", machine=label, cpu_model=cpu)
    assert main(["migrate", "--data", str(data)]) == 0
    labels = {rid: json.loads((data / "results" / f"{rid}.json").read_text())["system"]["machine"] for rid in runs}
    assert labels["r4"] == taken and labels["r3"] not in ("lab", taken) and labels["r3"].startswith("lab-"), labels
    capsys.readouterr()
    assert main(["validate", "--no-cache", str(data / "results")]) == 0
    assert "names other hardware" not in capsys.readouterr().out
    before = {p: p.read_bytes() for p in (data / "results").iterdir()}
    assert main(["migrate", "--data", str(data)]) == 0
    assert {p: p.read_bytes() for p in (data / "results").iterdir()} == before
