"""`fsatlas article new` writes what `fsatlas compare` would show of the same inputs (issue #60,
round 15, finding 11): a run against itself (the same file, a copy with its id, or its samples
under another id) is refused in compare's own line and no article is written; and an article
whose comparisons cannot be tested says so in its opening sentences, never "significant first,
with its test", which it says only where some comparison is tested."""
import json
import shutil
from pathlib import Path

import pytest

from fsatlas.cli import main
from fsatlas.commands.compare import compared
from testutil import RESULTS, rescaled_run, under_id

QUICK_A, QUICK_B = (str(p) for p in sorted(RESULTS.glob("*-quick.json"))[:2])
STANDARD = str(sorted(RESULTS.glob("*-standard.json"))[-1])


def _twin(kind: str, tmp_path: Path) -> str:
    """QUICK_A again: the same path, a copy holding its id, or its samples under another id."""
    if kind == "same file":
        return QUICK_A
    if kind == "copy":  # in a data folder of its own, with its bundle, as validate requires
        (tmp_path / "copy" / "results").mkdir(parents=True)
        shutil.copytree(Path(QUICK_A).parent.parent / "raw", tmp_path / "copy" / "raw",
                        ignore=lambda folder, names: [n for n in names if not n.startswith(Path(QUICK_A).stem + ".")])
        return str(shutil.copy(QUICK_A, tmp_path / "copy" / "results"))
    return rescaled_run(QUICK_A, 1.0, tmp_path)


@pytest.mark.parametrize("kind", ["same file", "copy", "same samples, another id"])
@pytest.mark.parametrize("order", ["first", "second"])
def test_a_run_against_itself_is_refused_with_compares_line(tmp_path, capsys, kind, order):
    twin = _twin(kind, tmp_path)
    pair = [QUICK_A, twin] if order == "first" else [twin, QUICK_A]
    assert main(["compare", *pair]) == 1
    refused = capsys.readouterr().err
    assert refused.count("\n") == 1 and "compared with itself" in refused
    content = tmp_path / "content"
    assert main(["article", "new", "self", *pair, "--content", str(content)]) == 1
    err = capsys.readouterr().err
    assert err == refused.replace("fsatlas compare:", "fsatlas article:", 1)
    assert not content.exists() or not any(content.rglob("*.md"))


@pytest.mark.parametrize("argv", [[QUICK_A, QUICK_B], [QUICK_B, QUICK_A], [STANDARD, "--a", "ext4", "--b", "xfs"],
                                  [STANDARD, "--a", "ext2", "--b", "ext4:noatime"],
                                  [QUICK_A, "--a", "ext4", "--b", "xfs"]])
def test_the_article_says_significant_first_only_where_something_is_tested(tmp_path, capsys, argv):
    files = [a for a in argv if a.endswith(".json")]
    sides = dict(zip(argv[1::2], argv[2::2])) if "--a" in argv else {}
    rows = compared(files, None, None, sides.get("--a"), sides.get("--b"), False, "")[2]
    tested = any(r["status"] == "tested" for r in rows)
    content = tmp_path / "content"
    assert main(["article", "new", "An article", *argv, "--content", str(content)]) == 0
    (article,) = (content / "articles").glob("*.md")
    body = article.read_text().split("\n---\n", 1)[1]
    opening = body.strip().split("\n\n")[0]  # the first paragraph a reader sees
    if tested:
        assert "significant first, with its test" in body and "not tested" not in opening
    else:
        assert "significant first" not in body
        assert opening.startswith("**Nothing here is tested:**") and "No row was tested" in opening


def test_two_single_runs_are_never_tested_so_their_article_says_so(tmp_path):
    """Across files the run is the unit: two files are one run a side, which no test takes."""
    other = rescaled_run(QUICK_A, 1.05, tmp_path)
    content = tmp_path / "content"
    assert main(["article", "new", "A and a rescaled A", QUICK_A, other, "--content", str(content)]) == 0
    text = next((content / "articles").glob("*.md")).read_text()
    assert "one run per side" in text and "significant first" not in text
    assert json.loads(Path(other).read_text())["id"] in text


from hypothesis import assume, example, given, settings, strategies as st  # noqa: E402

from fsatlas.commands.compare import header  # noqa: E402
from fsatlas.errors import UserError  # noqa: E402
from fsatlas.site import report  # noqa: E402
from test_compare_inputs import run, stored  # noqa: E402
from fsatlas.site import articles  # noqa: E402


def _article(folder: Path, compare: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "a.md").write_text(f"---\ntitle: t\ncompare:\n{compare}\n---\nbody\n")


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["a", "b", "result"]), st.sampled_from(["4", "4.5", "true", "2026-11-27", "null", "[ext4]", "{x: 1}", "''"]))
def test_a_side_that_is_not_a_text_is_refused_in_one_line(tmp_path_factory, field, value):
    """The rule: each value of an article's compare entry is a non-empty text; any other YAML
    value (a number, a boolean, a date, null, a list, a mapping, an empty text) is refused naming
    the article and its entry, never a traceback (round 17: `a: 4` crashed the aggregate)."""
    entry = {"result": "R", "a": "ext4", "b": "xfs", field: None}
    line = "  - {" + ", ".join(f"{k}: {value if v is None else v}" for k, v in entry.items()) + "}"
    folder = tmp_path_factory.mktemp("articles")
    _article(folder, line)
    with pytest.raises(UserError) as refused:
        articles.named_comparisons(str(folder))
    assert "/compare/0" in str(refused.value) and "each a text" in str(refused.value)


def test_one_comparison_however_its_sides_are_spelled(tmp_path):
    """ext4, ext4: and ext4:defaults name one comparison: made once, the same rows under each key."""
    rid = Path(QUICK_A).stem
    _article(tmp_path, "\n".join(f"  - {{result: {rid}, a: '{a}', b: xfs}}" for a in ("ext4", "ext4:", "ext4:defaults")))
    made = articles.comparisons(str(tmp_path), {rid: QUICK_A})
    assert len(made) == 3 and made[f"{rid}|ext4|xfs"] is made[f"{rid}|ext4:|xfs"] is made[f"{rid}|ext4:defaults|xfs"]
    assert made[f"{rid}|ext4|xfs"]["rows"]


@pytest.mark.parametrize("compare", ["5", "true", "1.5", "2026-11-27", "ext4", "{a: x, b: y}"])
def test_a_compare_that_is_not_a_list_is_refused_in_one_line(tmp_path, compare):
    """Round 18, finding 9: `compare: 5` (or any value but a list) is refused naming the article
    and /compare, never a traceback."""
    (tmp_path / "a.md").write_text(f"---\ntitle: t\ncompare: {compare}\n---\nbody\n")
    with pytest.raises(UserError) as refused:
        articles.named_comparisons(str(tmp_path))
    assert str(refused.value).startswith(f"{tmp_path / 'a.md'}: /compare: ")


@pytest.mark.parametrize("a, b", [(" ", "xfs"), ("ext4", "ext4:defaults"), (" ext4", "xfs"), (":", "xfs"),
                                  ("ext4:defaults:", "xfs"), ("EXT4", "xfs")])
def test_every_refusal_of_a_comparison_names_the_article_and_its_entry(tmp_path, a, b):
    """Round 18, finding 10: whatever refuses a comparison within one run (a blank side, one
    configuration twice, a side the run does not hold) names the article and /compare/i."""
    rid = Path(QUICK_A).stem
    _article(tmp_path, f"  - {{result: {rid}, a: 'ext4', b: xfs}}\n  - {{result: {rid}, a: '{a}', b: '{b}'}}")
    with pytest.raises(UserError) as refused:
        articles.comparisons(str(tmp_path), {rid: QUICK_A})
    assert str(refused.value).startswith(f"{tmp_path / 'a.md'}: /compare/1: "), str(refused.value)


@settings(max_examples=5, deadline=None)
@example([900, 1000], [950, 1100]).via("two runs a side: tested")
@example([900], [950, 1100]).via("one run on side A: a ratio")
@given(st.lists(st.integers(800, 1250), min_size=1, max_size=3, unique=True),
       st.lists(st.integers(800, 1250), min_size=1, max_size=3, unique=True))
def test_an_article_of_several_runs_a_side_shows_the_rows_compare_gives_them(tmp_path_factory, scale_a, scale_b):
    """The rule (issue 60, item 1): across files the run is the unit, and one function decides it
    for compare and article new alike: an article pinned with --runs-a/--runs-b shows, row for
    row, what `fsatlas compare --runs-a ... --runs-b ...` gives those runs (tested on the runs'
    means with two or more a side, a ratio otherwise), and names every run it rests on."""
    tmp = tmp_path_factory.mktemp("runs")
    a = [rescaled_run(QUICK_A, k / 1000, tmp) for k in scale_a]
    b = [rescaled_run(QUICK_A, k / 1000 + 0.0005, tmp) for k in scale_b]  # never one of A's factors
    # each in a slot of its own (testutil.in_slot by its id): two in one slot ran at once, refused by that rule
    assume(len({json.loads(Path(p).read_text())["created"] for p in a + b}) == len(a + b))
    content = tmp / "content"
    assert main(["article", "new", "Runs", "--runs-a", *a, "--runs-b", *b, "--content", str(content)]) == 0
    import frontmatter
    page = frontmatter.load(content / "articles" / "runs.md")
    ids = {Path(p).stem: p for p in a + b}
    assert page["results"] == list(ids) and page["compare"] == [{"a": [Path(p).stem for p in a],
                                                                 "b": [Path(p).stem for p in b]}]
    (made,) = articles.comparisons(str(content / "articles"), ids).values()
    rows = compared([], a, b, None, None, False, "")[2]
    fields = ("key", "metric", "status", "verdict", "ratio", "p_adjusted", "n_a", "n_b")
    assert sorted(tuple(r[f] for f in fields) for r in made["rows"]) == sorted(tuple(r[f] for f in fields) for r in rows)
    tested = any(r["status"] == "tested" for r in rows)
    assert tested is (len(a) >= 2 and len(b) >= 2)
    assert ("significant first, with its test" in page.content) is tested
    assert ("tested on the runs' means" in made["differ"]) is tested


@pytest.mark.parametrize("argv", [["--runs-a", QUICK_A], [QUICK_B, "--runs-a", QUICK_A, "--runs-b", QUICK_B],
                                  ["--runs-a", QUICK_A, "--runs-b", QUICK_B, "--a", "ext4"], []])
def test_runs_a_side_go_together_or_are_refused_in_one_line(tmp_path, capsys, argv):
    assert main(["article", "new", "T", *argv, "--content", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--runs-a and --runs-b" in err
    assert not any(tmp_path.rglob("*.md"))


def test_a_list_of_runs_is_a_side_only_across_files(tmp_path):
    """{a: [R1, R2], b: [R3, R4]} names several runs a side; a list beside result:, an empty list
    or a run twice in one list is refused naming the article and its entry."""
    for line in ("  - {a: [x, y], b: [z]}",):
        _article(tmp_path, line)
        assert articles.named_comparisons(str(tmp_path))[0][1] == {"a": ["x", "y"], "b": ["z"]}
    for line in ("  - {result: r, a: [ext4], b: xfs}", "  - {a: [], b: [z]}", "  - {a: [x, x], b: [z]}",
                 "  - {a: [x, 4], b: [z]}", "  - {a: [[x]], b: [z]}"):
        _article(tmp_path, line)
        with pytest.raises(UserError) as refused:
            articles.named_comparisons(str(tmp_path))
        assert "/compare/0" in str(refused.value)


@settings(max_examples=10, deadline=None)
@given(st.lists(st.sampled_from(["a1", "a2", "a1-copy", "a3-part"]), min_size=1, max_size=3, unique=True),
       st.lists(st.sampled_from(["b1", "b2", "b3-part"]), min_size=1, max_size=3, unique=True))
def test_compare_report_and_the_article_state_one_design_over_the_same_rows(tmp_path_factory, side_a, side_b):
    """The rule (adversary of #60, round 70): compare's header, the report and an article say one
    design over the same rows: each run counted once (an exact copy is one run), contention judged
    cell by cell (a run lacking host records in one cell leaves those rows untested and says how
    many, never the whole table), "tested on the runs' means" exactly where a row is so tested."""
    pool = {"a1": run("a1", 1), "a2": run("a2", 2), "b1": run("b1", 3, 1.03), "b2": run("b2", 4, 1.03)}
    pool["a1-copy"] = under_id(pool["a1"], "a1-copy")  # one content under two ids: counted once
    for name, slot in (("a3-part", 5), ("b3-part", 6)):  # host records missing in one cell
        doc = run(name, slot, 1.03 if name[0] == "b" else 1.0)
        doc["cells"][0] = {k: v for k, v in doc["cells"][0].items() if k != "host"}
        pool[name] = doc
    tmp = tmp_path_factory.mktemp("design")
    paths = {n: stored(tmp / f"{n}.json", d) for n, d in pool.items()}
    a, b = [paths[n] for n in side_a], [paths[n] for n in side_b]
    runs_a, runs_b, rows = compared([], a, b, None, None, False, "")
    content = tmp / "content"
    assert main(["article", "new", "Design", "--runs-a", *a, "--runs-b", *b, "--content", str(content)]) == 0
    (made,) = articles.comparisons(str(content / "articles"), {n: paths[n] for n in pool}).values()
    said = report.build(runs_a, runs_b, rows, ("A", "B"), [])["differ"]
    assert made["differ"] == said
    (line,) = [x for x in header(runs_a, runs_b, rows) if x.startswith("Design: ")]
    tested = sum(r["status"] == "tested" for r in rows)
    assert ("tested on the runs' means" in said) is ("tested on the runs' means" in line) is (tested > 0)
    unknown = sum("contention unknown" in (r["why"] or "") for r in rows)
    if tested and unknown:
        assert f"{unknown} of {len(rows)} rows not tested" in said and f"{unknown} of {len(rows)} rows not tested" in line


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(["title", "compare", "results", "a", "b"]), st.booleans())
def test_a_key_given_twice_in_an_articles_front_matter_is_refused_naming_it(tmp_path_factory, key, bom):
    """The rule (adversary of #60, round 70): an article's front matter is read as the curated data
    is: a key given twice at any level is refused (the last would win unsaid), naming the article;
    a byte order mark before it changes nothing."""
    entry = {"a": "[x, y]", "b": "[z]"}
    lines = ["title: t", "results: [x, y, z]", "compare:", "  - a: " + entry["a"], "    b: " + entry["b"]]
    where = {"title": 0, "results": 1, "compare": 2, "a": 3, "b": 4}[key]
    doubled = lines[where] if key not in ("compare",) else "compare: []"
    if key in ("a", "b"):
        lines.insert(where + 1, "    " + doubled.strip())
    else:
        lines.append(doubled)
    folder = tmp_path_factory.mktemp("twice")
    path = folder / "a.md"
    path.write_text(("\ufeff" if bom else "") + "---\n" + "\n".join(lines) + "\n---\nbody\n", encoding="utf-8")
    for read in (lambda: articles.named_comparisons(str(folder)), lambda: articles.pinned(str(folder), articles.RANKING, {"x"})):
        with pytest.raises(UserError) as refused:
            read()
        assert str(refused.value).startswith(f"{path}: front matter not readable") and "twice" in str(refused.value)


@pytest.mark.parametrize("text", ["+++\ntitle = 't'\n[[compare]]\na = 'x'\nb = 'x'\n+++\nbody\n",
                                  '{"title": "t", "compare": [{"a": "x", "b": "x"}]}\nbody\n'])
def test_front_matter_fsatlas_does_not_read_is_refused_not_skipped(tmp_path, text):
    """TOML or JSON front matter, which Hugo reads but fsatlas would skip (its comparisons never
    checked), is refused naming the article; YAML after a byte order mark is read."""
    (tmp_path / "a.md").write_text(text)
    with pytest.raises(UserError) as refused:
        articles.named_comparisons(str(tmp_path))
    assert str(refused.value).startswith(f"{tmp_path / 'a.md'}: front matter not readable")
    (tmp_path / "a.md").write_text("\ufeff---\ncompare:\n  - {a: 4, b: y}\n---\nbody\n", encoding="utf-8")
    with pytest.raises(UserError) as refused:
        articles.named_comparisons(str(tmp_path))
    assert "/compare/0" in str(refused.value)


@pytest.mark.parametrize("argv, field", [(["  ", QUICK_A, QUICK_B], "TITLE"), (["T", QUICK_A, QUICK_B, "--content", ""], "--content")])
def test_an_empty_title_or_content_folder_is_refused_in_one_line(tmp_path, monkeypatch, capsys, argv, field):
    monkeypatch.chdir(tmp_path)
    assert main(["article", "new", *argv]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and field in err and not any(tmp_path.rglob("*.md"))
