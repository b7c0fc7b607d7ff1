"""fsatlas import, what a second adversary round found (issue 64): each rule checked from the
rule over inputs hypothesis makes beside the named example (real fio 3.33 and bonnie++ 2.00a
outputs, and fio 3.33's own report edited as fio would write it)."""
import copy
import json
import re
import tarfile

import pytest
from hypothesis import HealthCheck, assume, example, given, settings, strategies as st

from fsatlas.cli import main
from fsatlas.commands import import_
from fsatlas.errors import UserError
from fsatlas.results import privacy, resultfile
from fsatlas.results.importers import fio, fio_options
from test_import_checks import _import  # (code, stderr, results validate accepted) of one import
from testutil import SAMPLES, written_at

FIO = SAMPLES / "fio"
BASE = json.loads((FIO / "sweep" / "ext4-iodepth-1.json").read_text())  # one job, randread 4k, libaio, fio 3.33
def _key_pattern() -> re.Pattern:
    """The result schema's pattern of a cell's key, wherever the schema defines it."""
    def find(node):
        if isinstance(node, dict):
            if isinstance(node.get("key"), dict) and "pattern" in node["key"]:
                return node["key"]["pattern"]
            for value in node.values():
                if (found := find(value)) is not None:
                    return found
        return None
    return re.compile(find(resultfile.schema()))


KEY = _key_pattern()


def _jobs(*jobs: tuple[str, dict, int]) -> dict:
    """BASE with one entry a (name, options beside BASE's, group) job: each entry fio's figures
    of BASE's job (its counts and rates agree, as check_sides asks)."""
    report = copy.deepcopy(BASE)
    entries = []
    for name, options, group in jobs:
        job = copy.deepcopy(BASE["jobs"][0])
        job["jobname"], job["groupid"] = name, group
        job["job options"] = {k: v for k, v in {**job["job options"], "name": name, **options}.items() if v is not None}
        entries.append(job)
    report["jobs"] = entries
    return report


def _keys(report: dict, workload=None) -> list[str]:
    parsed = [("raw/x/001-a.json", fio.parse(json.dumps(report), "a.json", workload))]
    return [c["key"] for c in import_.cell_records(parsed, "ext4", [], [], "kernel")]


# --- 1: entries of one name are summed as clones only when every option is the same ----------

OPTION_CHANGES = st.sampled_from([("rw", "randwrite"), ("bs", "8k"), ("iodepth", "4"), ("direct", "0"),
                                  ("ioengine", "psync"), ("fsync", "1"), ("size", "32M")])


@settings(max_examples=25, deadline=None)
@given(change=OPTION_CHANGES, name=st.sampled_from(["x-y", "randread-4k", "A b"]), first=st.booleans())
def test_two_jobs_of_one_name_are_merged_only_when_every_option_is_the_same(change, name, first):
    option, value = change
    differing = _jobs((name, {}, 0), (name, {option: value}, 0))
    if first:  # the differing job first or second: the refusal names both places either way
        differing["jobs"].reverse()
    with pytest.raises(UserError) as refused:
        fio.parse(json.dumps(differing), "c.json")
    assert refused.value.where == "c.json" and refused.value.field == "/jobs/0, /jobs/1"
    assert f"{option}=" in refused.value.message
    (clones,) = fio.parse(json.dumps(_jobs((name, {}, 0), (name, {}, 0))), "c.json")  # numjobs=2's two entries
    assert clones.parameters["jobs_in_report"] == 2


def test_the_named_example_two_x_y_jobs_randread_and_randwrite_refused_at_their_place(tmp_path, capsys):
    (tmp_path / "coll.json").write_text(json.dumps(_jobs(("x-y", {"rw": "randread"}, 0), ("x-y", {"rw": "randwrite"}, 0))))
    code, err, _ = _import(tmp_path, capsys, "fio", str(tmp_path / "coll.json"), "--filesystem", "ext4")
    assert code == 1 and err.count("\n") == 1 and "/jobs/0, /jobs/1" in err and "rw=randread and rw=randwrite" in err


@settings(max_examples=15, deadline=None)
@given(sizes=st.tuples(st.sampled_from([4, 8, 64]), st.sampled_from([4, 8, 64])), iops=st.integers(50, 20000))
def test_terse_entries_of_one_name_are_clones_only_where_their_figures_show_one_job(sizes, iops):
    """terse records no options: two entries of one name are summed only where they show the
    same sides and block size (test_import_checks._terse: the sample's read job at a rate)."""
    from test_import_checks import _terse
    text = _terse(sizes[0] * iops, iops) + _terse(sizes[1] * iops, iops)
    if sizes[0] == sizes[1]:  # read as clones where the user says so (import --terse-lines clones)
        (clones,) = fio.parse(text, "t.txt", terse_lines=fio.CLONES)
        assert clones.parameters["jobs_in_report"] == 2
    else:
        with pytest.raises(UserError) as refused:
            fio.parse(text, "t.txt", terse_lines=fio.CLONES)
        assert "bs_from_rate" in refused.value.message


def test_one_name_in_two_groups_is_refused_located():
    with pytest.raises(UserError) as refused:
        fio.parse(json.dumps(_jobs(("j", {}, 0), ("j", {}, 1))), "g.json")
    assert refused.value.field == "/jobs/0/jobname, /jobs/1/jobname"


# --- 4 and 5: a job's key from its name alone, by one rule that cannot collide ---------------

NAMES = st.text(st.characters(codec="utf-8", exclude_characters="\0\r\n\"\\"), min_size=1, max_size=30)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(names=st.lists(NAMES, min_size=2, max_size=4, unique=True), workload=st.sampled_from([None, "mine"]))
def test_a_jobs_key_is_its_name_alone_distinct_and_of_the_schemas_shape(names, workload):
    if any(len(fio.job_key(n)) > fio.MAX_JOB_KEY for n in names):  # no key holds it: refused at the name
        with pytest.raises(UserError) as refused:
            _keys(_jobs(*((n, {}, 0) for n in names)), workload)
        assert refused.value.field.endswith("/jobname")
        return
    together = _keys(_jobs(*((n, {}, 0) for n in names)), workload)
    alone = [_keys(_jobs((n, {}, 0)), workload)[0] for n in names]
    assert together == alone  # a job's key does not depend on the other jobs of its file (item 4)
    assert len(set(together)) == len(names)  # two names never share a key (item 5)
    assert all(KEY.fullmatch(k) and len(k) <= 300 for k in together)


@pytest.mark.parametrize("names", [["lecture é", "lecture è"], ["x y", "x.y", "x-y", "X-Y", "x_y"], ["A", "a"]])
def test_the_named_names_import_as_cells_of_their_own(tmp_path, capsys, names):
    (tmp_path / "n.json").write_text(json.dumps(_jobs(*((n, {}, 0) for n in names))))
    code, err, (result,) = _import(tmp_path, capsys, "fio", str(tmp_path / "n.json"), "--filesystem", "ext4")
    assert code == 0, err
    assert sorted(c["parameters"]["job"] for c in result["cells"]) == sorted(names)


def test_repetitions_of_one_job_meet_in_one_cell_whatever_else_each_file_ran(tmp_path, capsys):
    """item 4's example: file 1 ran jobs A and B, file 2 A alone (fio sets the stamp of each)."""
    both, alone = _jobs(("A", {}, 0), ("B", {"rw": "randwrite"}, 0)), _jobs(("A", {}, 0))
    written_at(alone, alone["timestamp"] + 60)
    alone["jobs"][0]["read"]["runtime"] += 1  # another run: its own figures
    alone["jobs"][0]["read"]["bw_bytes"] = 1000 * alone["jobs"][0]["read"]["io_bytes"] // alone["jobs"][0]["read"]["runtime"]
    alone["jobs"][0]["read"]["bw"] = alone["jobs"][0]["read"]["bw_bytes"] // 1024
    alone["jobs"][0]["read"]["iops"] = 1000 * alone["jobs"][0]["read"]["total_ios"] / alone["jobs"][0]["read"]["runtime"]
    for name, report in (("1.json", both), ("2.json", alone)):
        (tmp_path / name).write_text(json.dumps(report))
    code, err, (result,) = _import(tmp_path, capsys, "fio", str(tmp_path / "1.json"), str(tmp_path / "2.json"),
                                   "--filesystem", "ext4")
    assert code == 0, err
    cells = {c["parameters"]["job"]: c for c in result["cells"]}
    assert sorted(cells) == ["A", "B"] and len(cells["A"]["metrics"]["iops"]["samples"]) == 2


# --- 2: a host-name or home-folder value is redacted whole, whatever it holds ---------------

FOLDER_NAMES = st.text(st.characters(codec="utf-8", exclude_characters="/\\\r\n\"<>[]&\0"), min_size=1, max_size=20)


@settings(max_examples=80, deadline=None)
@given(name=FOLDER_NAMES, top=st.sampled_from(["/home/", "/Users/", "/media/", "/run/media/"]))
def test_a_home_folders_name_is_redacted_whole(name, top):
    assume(privacy.fold(name))  # a name of invisible characters alone ("\ufeff") folds to none: it names no one
    text = f'{{"directory" : "{top}{name}/fio"}}'
    done, counts = privacy.redact(text)
    # (a level before a name under /home, an index's letter or a group's number, takes the next folder as the name)
    left = "[redacted]" if top == "/home/" and re.fullmatch(privacy._LEVEL, name + "/") else "[redacted]/fio"
    assert done == f'{{"directory" : "{left}"}}' or privacy.fold(name) != name, done
    assert counts.get("a user's home folder") == 1


BONNIE = (SAMPLES / "bonnie" / "bonnie-1.92-stdout.txt").read_text()  # machine "sample-box": table rows and CSV


@settings(max_examples=40, deadline=None)
@given(name=st.text(st.characters(codec="ascii", categories=["L", "N", "Zs", "P"], exclude_characters=",\t"),
                    min_size=1, max_size=30).map(str.strip).filter(lambda n: n and n[:8] not in BONNIE)
       # a serial number's label ("SN") takes the table's next word as its serial, rightly; and a
       # name is a host name only with a letter in it (privacy.redact: "0:00:00" may be a time)
       .filter(lambda n: not re.match(r"(?i)(serial|s/n\b|sn\b)", n) and re.search("[A-Za-z]", n)))
@example(name="Block 0")  # the table's first word alone had been taken, and "--Block--" redacted
@example(name="0000000000000000000 0")  # a cut of 20 had taken the column's padding too
def test_bonnies_machine_name_is_redacted_whole_in_the_table_and_the_csv(name):
    """Whatever the name holds (spaces, punctuation), the output redacted is the one whose name
    was sample-box, redacted: every place of the name replaced whole, nothing else; the table
    holds it cut to 19 characters, as bonnie++ 2.00a prints it ("db-server-0042.corp")."""
    assert BONNIE.count("sample-box") >= 3
    text = "".join(line.replace("sample-box", name if line.count(",") > 20 else name[:19])
                   for line in BONNIE.splitlines(keepends=True))
    assert privacy.redact(text)[0] == privacy.redact(BONNIE)[0]


def test_the_named_examples_leak_nothing(tmp_path, capsys):
    bonnie = (tmp_path / "bon-my host.txt")
    bonnie.write_text(BONNIE.replace("sample-box", "my host"))
    code, err, _ = _import(tmp_path, capsys, "bonnie", str(bonnie), "--filesystem", "ext4", "--redact")
    assert code == 0, err
    report = _jobs(("j", {"directory": "/Users/Bob Smith/fio"}, 0))
    (tmp_path / "home.json").write_text(json.dumps(report))
    code, err, (result,) = _import(tmp_path / "2", capsys, "fio", str(tmp_path / "home.json"), "--filesystem", "ext4",
                                   "--redact")
    assert code == 0, err and result["redactions"]
    for path in (tmp_path / "out").rglob("*.tar.gz"):
        with tarfile.open(path) as tar:
            kept = b"".join(tar.extractfile(m).read() for m in tar.getmembers() if m.isfile())
        assert b"my host" not in kept
    for path in (tmp_path / "2" / "out").rglob("*.tar.gz"):
        with tarfile.open(path) as tar:
            kept = b"".join(tar.extractfile(m).read() for m in tar.getmembers() if m.isfile())
        assert b"Smith" not in kept and b"Bob" not in kept


# --- 3: the fio versions of an import's sides are told apart by compare --------------------

@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(versions=st.lists(st.sampled_from(["fio-3.28", "fio-3.33", "fio-3.36"]), min_size=4, max_size=4))
def test_compare_names_the_tools_of_each_side_of_an_import(tmp_path_factory, capsys, versions):
    tmp = tmp_path_factory.mktemp("v")
    files = []
    for i, version in enumerate(versions):  # ext4, ext4, xfs, xfs: each file its own run and version
        report = _jobs(("j", {}, 0))
        report["fio version"] = version
        written_at(report, report["timestamp"] + i)
        (tmp / f"{i}.json").write_text(json.dumps(report))
        files.append(str(tmp / f"{i}.json"))
    code, err, (result,) = _import(tmp, capsys, "fio", *files, "--as", "ext4,ext4,xfs,xfs")
    assert code == 0, err
    assert main(["compare", str(next((tmp / "out" / "results").glob("*.json"))), "--a", "ext4", "--b", "xfs"]) == 0
    out = capsys.readouterr().out
    a, b = sorted(set(versions[:2])), sorted(set(versions[2:]))
    if a == b and len(a) == 1:
        assert "tools:" not in out and "tools differ" not in out
    else:  # the header names each side's versions (mixed where a side holds two)
        assert f"  tools{' (mixed: it varies within a side)' if len(a) > 1 or len(b) > 1 else ''}: " \
               f"A {' / '.join(a)}; B {' / '.join(b)}" in out
    rows = [line for line in out.splitlines() if line.startswith("fio-j ")]
    assert rows and all(("tools differ" in line) == (a != b) for line in rows)  # each row where the sides' differ
    md = tmp / "r.md"  # and report's opening sentence
    assert main(["report", str(next((tmp / "out" / "results").glob("*.json"))), "--a", "ext4", "--b", "xfs",
                 "--out", str(md), "--no-chart"]) == 0
    text = md.read_text()
    assert (f"came from other tools: A {' / '.join(a)}; B {' / '.join(b)}" in text) == (a != b or len(a) > 1 or len(b) > 1)
    from fsatlas.site import articles  # and an article pinned on the two sides opens as the report does
    path = next((tmp / "out" / "results").glob("*.json"))
    (tmp / "articles").mkdir()
    (tmp / "articles" / "a.md").write_text(f"---\ntitle: t\ncompare:\n- {{result: {json.dumps(result['id'])}, a: ext4, "
                                           f"b: xfs}}\n---\n")
    differ = articles.comparisons(str(tmp / "articles"), {result["id"]: str(path)})[f"{result['id']}|ext4|xfs"]["differ"]
    assert differ in text


# --- 6: two PTS results never share a cell silently; a scale against its proportion refused --

def _pts(results: list[tuple[str, str, str, str]]) -> str:
    """A PTS result file of one system, one <Result> a (description, scale, proportion, runs)."""
    from xml.sax.saxutils import escape
    body = "".join(f"""<Result><Identifier>pts/blogbench-1.1.0</Identifier><Arguments>A{i}</Arguments>
<Description>{escape(d)}</Description><Scale>{s}</Scale><Proportion>{p}</Proportion><Data><Entry>
<Identifier>ext4 on NVMe</Identifier><Value>1</Value><RawString>{r}</RawString></Entry></Data></Result>"""
                   for i, (d, s, p, r) in enumerate(results))
    return f"""<?xml version="1.0"?><PhoronixTestSuite><Generated><TestClient>Phoronix Test Suite v10.8.4</TestClient>
</Generated><System><Identifier>ext4 on NVMe</Identifier><Hardware>Processor: AMD Ryzen 9 3950X (16 Cores / 32 Threads),
Memory: 2 x 16384 MB</Hardware><Software>OS: Ubuntu 20.04, Kernel: 5.4.0-47-generic (x86_64), File-System: ext4</Software>
<TimeStamp>2021-03-02 09:12:44</TimeStamp></System>{body}</PhoronixTestSuite>"""


DESCRIPTIONS = st.text(st.characters(codec="ascii", categories=["L", "N", "P", "Zs"]), min_size=1, max_size=190)


@settings(max_examples=60, deadline=None)
@given(first=DESCRIPTIONS, suffix=st.text(st.characters(codec="ascii", categories=["L", "N", "P"]), min_size=1, max_size=8))
def test_two_pts_results_give_two_cells_or_a_refusal_naming_both(first, suffix):
    from fsatlas.results.importers import pts
    second = (first + suffix)[:200] if len(first) < 200 else first[:-1] + "x"
    if first.strip() == second.strip():
        return
    text = _pts([(first, "Final Score", "HIB", "1:2:3"), (second, "Final Score", "HIB", "7:8:9")])
    try:
        measured = pts.parse(text, "p.xml")
    except UserError as refused:
        assert "Result 1" in refused.message and "Result 2" in refused.message, refused
        # refused only where the options differ in punctuation alone
        assert re.sub(r"[^A-Za-z0-9_.+-]+", "_", first.strip()).strip("_") == \
            re.sub(r"[^A-Za-z0-9_.+-]+", "_", second.strip()).strip("_")
        return
    keys = {c["key"] for c in import_.cell_records([("raw/x/001-p.xml", measured)], "ext4", [], [], "kernel")}
    assert len(keys) == 2 and all(KEY.fullmatch(k) for k in keys)


@pytest.mark.parametrize("scale, proportion", [("Milliseconds", "HIB"), ("Seconds", "HIB"), ("MB/s", "LIB"),
                                               ("IOPS", "LIB")])
def test_a_pts_scale_at_odds_with_its_proportion_is_refused_located(tmp_path, capsys, scale, proportion):
    (tmp_path / "p.xml").write_text(_pts([("Test: Read", scale, proportion, "1:2:3")]))
    code, err, _ = _import(tmp_path, capsys, "pts", str(tmp_path / "p.xml"))
    assert code == 1 and "Result 1: Proportion" in err and err.count("\n") == 1


def test_pts_fio_jobs_differing_after_a_long_disk_target_are_two_cells(tmp_path, capsys):
    long = "Type: Random Read - Engine: IO_uring - Buffered: No - Direct: Yes - Block Size: 4KB - Disk Target: " \
           "/mnt/nvme-fast-array-pool-0/benchmarks/phoronix - Job Count: "
    (tmp_path / "p.xml").write_text(_pts([(long + "1", "Final Score", "HIB", "1:2:3"),
                                          (long + "16", "Final Score", "HIB", "7:8:9")]))
    code, err, (result,) = _import(tmp_path, capsys, "pts", str(tmp_path / "p.xml"))
    assert code == 0, err
    assert sorted(c["metrics"]["pts_final_score"]["samples"] for c in result["cells"]) == [[1, 2, 3], [7, 8, 9]]


# --- 7: one normal form per option, as fio reads it -----------------------------------------

def _fio_reads(sections: list[dict]) -> list[dict]:
    """What fio 3.33 itself reads of each job's options (`fio --parse-only --debug=parse`): per
    job, option -> the values its parser stored (one a direction for bs; None where a value
    was left empty: fio keeps the default)."""
    import subprocess
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".fio") as job:
        job.write("".join(f"[j{i}]\nrw=randread\n" + "".join(f"{k}={v}\n" if v is not None else f"{k}\n"
                                                            for k, v in s.items()) for i, s in enumerate(sections)))
        job.flush()
        err = subprocess.run(["fio", "--parse-only", "--debug=parse", job.name], capture_output=True, text=True,
                             check=True).stdout
    out, option = [], None
    for line in err.splitlines():
        if "Parsing section [j" in line:
            out.append({})
        elif (found := re.search(r" __handle_option=(\w+),", line)) and out:
            option = found.group(1)
        elif (found := re.search(r"ret=(\d+), out=(\S+)", line)) and out and option:
            out[-1].setdefault(option, []).append(found.group(2) if found.group(1) == "0" else None)
    return out


SPELLED = {  # option -> strategies of the spellings a job file may give it
    "iodepth": st.builds(lambda zeros, n: "0" * zeros + str(n), st.integers(0, 2), st.sampled_from([1, 2, 16]))
    | st.sampled_from(["1k", "1K", "1024", "1000", "1KiB", "1kb"]),
    "runtime": st.builds(lambda n, unit: f"{n}{unit}", st.sampled_from([1, 2, 60, 1000, 1500, 2000]),
                         st.sampled_from(["", "s", "ms", "us", "m", "sec", "msec", "min", "M", "S"])),
    "bs": st.lists(st.sampled_from(["4k", "4096", "8k", "8192", "4K", "4KiB", ""]), min_size=1, max_size=3).map(",".join)
    .filter(lambda v: v.strip(",")) .map(lambda v: v if v.count(",") < 2 or v.rsplit(",", 1)[1] else v),
    "direct": st.sampled_from(["0", "1", "00", "01"]),
    "fsync": st.sampled_from(["0", "1", "00", "4"]),
}


@pytest.mark.skipif(not __import__("shutil").which("fio"), reason="fio is not installed")
@settings(max_examples=10, deadline=None)
@given(option=st.sampled_from(sorted(SPELLED)), data=st.data())
def test_two_spellings_are_one_value_exactly_where_fio_reads_one(option, data):
    """Differential: fsatlas's normal form against what fio 3.33's own parser stores."""
    a, b = data.draw(SPELLED[option]), data.draw(SPELLED[option])
    read_a, read_b = (reads[option] for reads in _fio_reads([{option: a}, {option: b}]))
    if option == "bs":  # one value a direction read, trim last; the values fio stores apply to the directions
        # after them, an empty one keeps fio's default (4096) (HOWTO, blocksize)
        read_a, read_b = ([v or "4096" for v in (r + [r[-1]] * 3)[:3]] for r in (read_a, read_b))
        read_a, read_b = read_a[:1], read_b[:1]  # the job only reads: the write and trim sizes are unused (issue 64 r3)
    fio_same = read_a == read_b
    ours = [fio.job_options({"job options": {option: v}}, {}, "j.fio", "/jobs/0").get(option) for v in (a, b)]
    assert (ours[0] == ours[1]) == fio_same, (a, b, ours, read_a, read_b)


@pytest.mark.parametrize("a, b", [
    ({"iodepth": "01"}, {}), ({"bs": "4k,4k"}, {"bs": "4k"}), ({"runtime": "1"}, {"runtime": "1s"}),
    ({"fsync": "0"}, {}), ({"direct": "0"}, {}), ({"time_based": "0"}, {}), ({"iodepth_batch": "1"}, {}),
    ({"rwmixread": "50"}, {}), ({"rwmixread": "50"}, {"rwmixwrite": "50"}), ({"rwmixread": "30"}, {"rwmixwrite": "70"}),
    ({"buffered": "0"}, {"direct": "1"}), ({"timeout": "2"}, {"runtime": "2000ms"}), ({"rw_sequencer": "sequential"}, {})])
def test_the_named_spellings_and_defaults_are_repetitions_not_a_sweep(a, b):
    base = {"rw": "randread", "bs": "4k", "iodepth": None, "direct": None}
    parsed = [(f"raw/x/{i}", fio.parse(json.dumps(_jobs(("j", {**base, **o}, 0))), f"{i}.json")) for i, o in enumerate((a, b))]
    assert import_.swept(parsed, ["0.json", "1.json"]) is None
    assert parsed[0][1][0].parameters == parsed[1][1][0].parameters


def test_a_setting_that_differs_is_still_refused_or_swept():
    base = {"rw": "randread", "bs": "4k", "iodepth": None, "direct": None}
    for a, b, expected in (({"iodepth": "01"}, {"iodepth": "16"}, "iodepth"),
                           ({"bs": "4k,8k", "rw": "randrw"}, {"bs": "4k", "rw": "randrw"}, "bs"),
                           ({"bs": "8k,4k"}, {"bs": "4k"}, "bs"),  # randread: the read size differs
                           ({"fsync": "1"}, {}, UserError), ({"time_based": ""}, {}, UserError),
                           ({"rwmixread": "30"}, {"rwmixwrite": "30"}, UserError)):
        parsed = [(f"raw/x/{i}", fio.parse(json.dumps(_jobs(("j", {**base, **o}, 0))), f"{i}.json"))
                  for i, o in enumerate((a, b))]
        if expected is UserError:
            with pytest.raises(UserError):
                import_.swept(parsed, ["0.json", "1.json"])
        else:
            assert import_.swept(parsed, ["0.json", "1.json"]) == expected


# --- 8: a PTS figure is the float nearest to its decimal text in base units -----------------

@settings(max_examples=200, deadline=None)
@given(digits=st.integers(0, 10 ** 12), places=st.integers(0, 8), exponent=st.sampled_from(["", "e3", "E-2", "e+1"]),
       scale=st.sampled_from(["MB/s", "kB/s", "GB/s", "Milliseconds", "IOPS"]))
def test_a_pts_run_is_the_nearest_float_to_its_exact_value(digits, places, exponent, scale):
    from decimal import Decimal, localcontext
    from fsatlas.results.importers import pts
    text = f"{digits // 10 ** places}.{digits % 10 ** places:0{places}d}{exponent}" if places else f"{digits}{exponent}"
    metric, factor, _ = pts.SCALES[scale.lower()]
    with localcontext() as context:  # an independent exact product: decimal arithmetic of 200 digits
        context.prec = 200
        expected = float(Decimal(text) * Decimal({"MB/s": "1e6", "kB/s": "1e3", "GB/s": "1e9", "Milliseconds": "1e-3",
                                                  "IOPS": "1"}[scale]))
    assert pts.exact(text, factor) == expected


def test_the_named_pts_figure_2_01_mb_s_is_2_01e6_bytes_s(tmp_path, capsys):
    (tmp_path / "p.xml").write_text(_pts([("Test: Read", "MB/s", "HIB", "2.01:2.02:1.99")]))
    code, err, (result,) = _import(tmp_path, capsys, "pts", str(tmp_path / "p.xml"))
    assert code == 0, err
    assert result["cells"][0]["metrics"]["throughput"]["samples"] == [2010000.0, 2020000.0, 1990000.0]


# --- 9: one run's output twice is refused for every tool, whatever whitespace was added -----

OUTPUTS = {"fio": FIO / "fio-3.33-terse-v5.txt", "dd": SAMPLES / "dd" / "dd-9.1-english.txt",
           "bonnie": SAMPLES / "bonnie" / "bonnie-1.92-stdout.txt"}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tool=st.sampled_from(["fio", "dd", "bonnie"]),
       added=st.sampled_from(["\n", "\n\n", "\r\n", " \n", ""]), crlf=st.booleans())
def test_one_runs_output_given_twice_is_refused_for_every_tool(tmp_path_factory, capsys, tool, added, crlf):
    tmp = tmp_path_factory.mktemp("twice")
    text = OUTPUTS[tool].read_text()
    again = (text.replace("\n", "\r\n") if crlf else text) + added
    if again == text:
        again += "\n"
    (tmp / "1.txt").write_text(text, newline="")
    (tmp / "2.txt").write_text(again, newline="")
    extra = ["--redact"] if tool == "bonnie" else []
    code, err, _ = _import(tmp, capsys, tool, str(tmp / "1.txt"), str(tmp / "2.txt"), "--filesystem", "ext4", *extra)
    assert code == 1 and "the same run as FILE 1" in err and err.count("\n") == 1, err


# --- 10: each exported row carries its own repetition's measured time ----------------------

@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(offsets=st.lists(st.integers(1, 10 ** 6), min_size=2, max_size=4, unique=True), all_cells=st.booleans())
def test_export_gives_each_row_its_own_repetitions_measured_time(tmp_path_factory, capsys, offsets, all_cells):
    import datetime as dt
    import pandas
    tmp = tmp_path_factory.mktemp("times")
    files, stamps = [], []
    for i, offset in enumerate(offsets):
        report = _jobs(("j", {}, 0))
        written_at(report, stamp := BASE["timestamp"] - offset)
        side = report["jobs"][0]["read"]
        side["runtime"] += i  # each repetition its own figures
        side["bw_bytes"] = 1000 * side["io_bytes"] // side["runtime"]
        side["bw"], side["iops"] = side["bw_bytes"] // 1024, 1000 * side["total_ios"] / side["runtime"]
        (tmp / f"{i}.json").write_text(json.dumps(report))
        files.append(str(tmp / f"{i}.json"))
        stamps.append(f"{dt.datetime.fromtimestamp(stamp, dt.timezone.utc):%Y-%m-%dT%H:%M:%S}Z")
    code, err, (result,) = _import(tmp, capsys, "fio", *files, "--filesystem", "ext4")
    assert code == 0, err
    out = tmp / "x.csv"
    assert main(["export", str(tmp / "out" / "results"), "--out", str(out), *(["--all"] if all_cells else [])]) == 0
    rows = pandas.read_csv(out)
    for _, metric in rows.groupby("metric"):
        assert list(metric.sort_values("repetition")["measured"]) == stamps


# --- 11: a machine label is given only with the machine's facts -----------------------------

@pytest.mark.parametrize("facts", [[], ["--this-machine"], ["--system"]])
def test_a_machine_label_needs_the_machines_facts(tmp_path, capsys, facts):
    (tmp_path / "a.json").write_text(json.dumps(_jobs(("j", {}, 0))))
    if facts == ["--system"]:
        (tmp_path / "sys.yaml").write_text("system: {kernel: 5.15.0-91-generic, os: Ubuntu 22.04, cpu_model: Xeon Gold "
                                           "6230, cpu_count: 80, memory_bytes: 412316860416, virtualization: none}\n")
        facts = ["--system", str(tmp_path / "sys.yaml")]
    code, err, results = _import(tmp_path, capsys, "fio", str(tmp_path / "a.json"), "--filesystem", "ext4",
                                 "--machine", "lab-box", *facts)
    if not facts:
        assert code == 1 and err.count("\n") == 1 and "--machine" in err and "--system FILE or --this-machine" in err
        assert not (tmp_path / "out").exists() or not list((tmp_path / "out").rglob("*.json"))
    else:
        assert code == 0, err
        assert results[0]["system"]["machine"] == "lab-box"
