"""fsatlas report: a publishable comparison whose figures are fsatlas compare's, as Markdown or
as HTML that loads nothing from elsewhere."""
import os
import re

import pytest

from fsatlas.cli import main
from fsatlas.commands.compare import validated
from fsatlas.results.comparison import between as comparisons
from testutil import RESULTS, rescaled_run, standard_run_with

QUICK_A, QUICK_B = (str(p) for p in sorted(RESULTS.glob("*-quick.json"))[:2])
STANDARD = str(standard_run_with("ext4", "xfs"))


def _table_rows(markdown: str) -> list[list[str]]:
    section = markdown.split("## Every comparison", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| Cell")]
    # a cell as a reader sees it: CommonMark's backslash escapes of punctuation undone (report.md_text)
    return [[re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", c.strip()) for c in re.split(r"(?<!\\)\|", line)[1:-1]]
            for line in rows]


def test_a_report_of_two_quick_runs_lists_every_comparison_with_compares_figures(tmp_path):
    out = tmp_path / "report.md"
    assert main(["report", QUICK_A, QUICK_B, "--out", str(out), "--no-chart"]) == 0
    text = out.read_text()
    expected = comparisons(*validated([QUICK_A, QUICK_B]))
    rows = _table_rows(text)
    assert len(rows) == len(expected) > 0
    by_cell = {(r[0], r[1]): r for r in rows}
    for e in expected:
        row = by_cell[(e["key"], e["metric"])]
        assert row[5] == (f"{e['ratio']:.3g}" if e["ratio"] is not None else "–")
        assert row[8] == (f"{e['p_adjusted']:.2g}" if e["p_adjusted"] is not None else "–")
    verdicts = [r[12].split(":")[0].split(" (")[0] for r in rows]  # significant first, ..., not testable
    order = {"better": 0, "worse": 0, "differs": 0, "equivalent": 1, "inconclusive": 2, "not tested": 3,
             "not testable": 3}
    assert [order[v] for v in verdicts] == sorted(order[v] for v in verdicts)
    assert "| CPU |" in text and "| Kernel |" in text


def test_two_filesystems_of_one_run_with_their_feature_differences(tmp_path):
    out = tmp_path / "report.md"
    assert main(["report", STANDARD, "--a", "ext4", "--b", "xfs", "--out", str(out), "--no-chart"]) == 0
    text = out.read_text()
    assert "## Where the feature data differ" in text
    features = text.split("## Where the feature data differ", 1)[1]
    assert "| online_shrink | no |" in features  # ext4's resize2fs refuses; xfs has its own answer
    assert all(line.count("|") >= 5 for line in features.strip().splitlines()[2:])  # every row names its sources


def test_a_report_names_its_mistakes_in_one_line(capsys):
    assert main(["report", STANDARD]) == 1
    assert "expected two result files, --runs-a and --runs-b with several each, or one file with --a and --b" \
        in capsys.readouterr().err
    assert main(["report", STANDARD, "--a", "ext4", "--b", "nosuchfs"]) == 1
    assert "share no measured workload" in capsys.readouterr().err


@pytest.mark.parametrize("data", ["missing", "empty", "a-file", "broken", "no-sources", "no-sources-file"])
def test_a_report_whose_curated_data_cannot_be_read_is_refused_naming_it(tmp_path, capsys, data):
    """The rule: a report of two sides of one run prints the feature differences of the curated
    data --data names, or refuses in one line naming the folder or the file and place; it
    never prints a report without them (#60 round 56: --data /nonexistent gave a report, no word)."""
    import shutil
    curated = RESULTS.parent
    folder = tmp_path / "data"
    if data == "empty":
        folder.mkdir()
    elif data == "a-file":
        folder.write_text("")
    elif data in ("broken", "no-sources"):
        shutil.copytree(curated, folder, ignore=shutil.ignore_patterns("results", "raw"))
        if data == "broken":  # a feature value of a type the schema refuses
            (folder / "features" / "xfs.yaml").write_text("filesystem: xfs\nfeatures: [1, 2]\n")
        else:
            (folder / "sources.yaml").write_text("- {id: 3}\n")
    elif data == "no-sources-file":  # features/ alone (round 57: a report without its differences)
        shutil.copytree(curated / "features", folder / "features")
    out = tmp_path / "report.md"
    assert main(["report", STANDARD, "--a", "ext4", "--b", "xfs", "--data", str(folder), "--out", str(out),
                 "--no-chart"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(folder) in err[0], err  # several problems: the count and the first
    assert not out.exists()


@pytest.mark.browser
def test_the_html_report_draws_its_chart_and_asks_for_nothing_else(tmp_path, browser):
    out = tmp_path / "report.html"
    assert main(["report", QUICK_A, QUICK_B, "--out", str(out)]) == 0
    context = browser.new_context()
    page = context.new_page()
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(out.as_uri())
    assert requests == [out.as_uri()]
    assert page.locator("figure svg").count() == 1
    assert page.locator("figure svg .mark-symbol path, figure svg .mark-symbol circle").count() > 0
    context.close()


def test_a_report_across_machines_names_them_and_calls_nothing_better(tmp_path):
    """Issue 60's example: the standard runs of an AMD EPYC and an Intel Xeon machine."""
    epyc, xeon = (str(p) for p in sorted(RESULTS.glob("*-standard.json")) if p.name.startswith(("20261125T085339Z",
                                                                                              "20261127T143616Z")))
    out = tmp_path / "report.md"
    assert main(["report", epyc, xeon, "--out", str(out), "--no-chart"]) == 0
    text = out.read_text()
    assert "The runs differ in machine, kernel, storage" in text and "one run per side" in text
    assert "0 significantly in B's favour, 0 against it" in text
    verdicts = {r[12] for r in _table_rows(text)}  # the EPYC run recorded no contention: said too
    unknown = "contention unknown on side A (no host records in run 20261125T085339Z-m-05e18e6041-standard)"
    # ... and each row names the factors that differ, as compare's rows do (round 59)
    assert all(v.startswith("not tested: one run per side; ") and v.endswith(f"{unknown}; machine, kernel and storage differ")
               for v in verdicts), verdicts
    # and where a repetition of the Xeon run's cell passed a threshold, that too (round 56)
    assert {v for v in verdicts if "contention differs: " in v} == \
        {v for v in verdicts if re.search(r"\d+ of side B's \d+ repetitions ran with", v)} != set()


def test_a_report_of_several_runs_a_side_tests_run_means_and_prints_power_and_equivalence(tmp_path):
    out = tmp_path / "report.md"
    a1, a2, b1, b2 = (rescaled_run(QUICK_A, f, tmp_path) for f in (1.0, 1.01, 0.995, 1.003))  # one quick profile's parameters
    assert main(["report", "--runs-a", a1, a2, "--runs-b", b1, b2, "--out", str(out), "--no-chart"]) == 0
    text = out.read_text()
    assert "2 and 2 runs, each row tested on the runs' means" in text
    rows = _table_rows(text)
    tested = [r for r in rows if r[12] in ("equivalent", "inconclusive")]
    assert tested and all(r[9].endswith(" %") and r[10] != "–" for r in tested)  # detectable change, equivalence p


@pytest.mark.parametrize("where", [".", "a-file/report.md", "a-file"])
def test_a_report_that_cannot_be_written_is_one_line_naming_the_path(tmp_path, capsys, where):
    """A directory, a path through a file, or an existing file's replacement refused: one line
    naming the path, status 1, nothing left beside it (outfile)."""
    (tmp_path / "a-file").write_text("")
    if where == "a-file":  # a FIFO is never replaced
        (tmp_path / "a-file").unlink()
        os.mkfifo(tmp_path / "a-file")
    out = tmp_path / where
    before = sorted(p.name for p in tmp_path.rglob("*"))
    assert main(["report", QUICK_A, QUICK_B, "--out", str(out), "--no-chart"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"fsatlas report: {out}") and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.rglob("*")) == before


def test_a_report_into_a_folder_not_made_yet_is_written(tmp_path):
    out = tmp_path / "missing" / "report.md"
    assert main(["report", QUICK_A, QUICK_B, "--out", str(out), "--no-chart"]) == 0
    assert out.read_text().startswith("# ")


@pytest.mark.parametrize("argv", [["report"], ["report", QUICK_A], ["compare"], ["compare", QUICK_A],
                                  ["article", "new", "t", QUICK_A, QUICK_B, QUICK_A]])
def test_a_usage_error_names_its_command_once(capsys, argv):
    assert main(argv) == 1
    err = capsys.readouterr().err
    name = f"fsatlas {argv[0]}:"
    assert err.count("\n") == 1 and err.startswith(name) and err.count(name) == 1, err


def test_a_reports_method_names_the_family_it_used_and_no_test_where_none_was(tmp_path):
    for argv, tested in (([QUICK_A, QUICK_B], False),
                         (["--runs-a", rescaled_run(QUICK_A, 1.0, tmp_path), rescaled_run(QUICK_A, 1.01, tmp_path),
                           "--runs-b", rescaled_run(QUICK_A, 0.995, tmp_path), rescaled_run(QUICK_A, 1.003, tmp_path)], True)):
        out = tmp_path / "report.md"
        assert main(["report", *argv, "--out", str(out), "--no-chart"]) == 0
        text = out.read_text()
        method = text.split("## Every comparison", 1)[1].strip().split("\n", 1)[0]
        rows = _table_rows(text)
        count = sum(r[7] != "–" for r in rows)  # a row with a p was tested
        assert (count > 0) == tested
        if tested:
            assert f"Benjamini-Hochberg over the {count} tested rows" in method
        else:
            assert "No row was tested" in method and "Welch" not in method and "Benjamini" not in method
