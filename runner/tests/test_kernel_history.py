"""'Since which release' from the kernel's own history (data/kernel_history.yaml): at least ten
rows, each tied to a mainline commit id and a first release that a document it cites names, and
each row's value the one its cell's fact says; the rule fails for a commit or release no cited
document names, whatever they are."""
import copy
import re
from pathlib import Path

from hypothesis import given, settings, strategies as st

from fsatlas.site import knowledge

DATA = Path(__file__).resolve().parents[2] / "data"
KNOWN, _ = knowledge.load(str(DATA))
BY_ID = {s["id"]: s for s in KNOWN["sources"]}
PATH = str(DATA / "kernel_history.yaml")


def _problems(rows):
    return knowledge.kernel_history_rules({**KNOWN, "kernel_history": rows}, BY_ID, PATH)


def test_at_least_ten_since_values_each_tied_to_a_commit():
    rows = KNOWN["kernel_history"]
    assert len(rows) >= 10
    assert len({r["commit"] for r in rows}) == len(rows)  # one commit, one row
    for row in rows:
        assert re.fullmatch(r"[0-9a-f]{12,40}", row["commit"]) and re.fullmatch(r"\d\.\d{1,2}", row["release"])
        # the named example's form: XFS online shrink since 5.13, the commit in the 5.13 pull request
    shrink = [r for r in rows if (r["filesystem"], r.get("column")) == ("xfs", "online_shrink")]
    assert [(r["release"], r["commit"][:12]) for r in shrink] == [("5.13", "fb2fc1720185")]
    assert _problems(rows) == []


def test_the_cells_show_since_which_release():
    # the cells with a column: the fact of that cell says the same value (checked by the rule)
    shown = [r for r in KNOWN["kernel_history"] if r.get("column")]
    assert len(shown) >= 4
    for row in shown:
        fact = KNOWN["features"][row["filesystem"]]["features"].get(row["column"])
        if fact is not None:
            assert str(fact.get("value", fact.get("limit"))) == row["value"]


@settings(max_examples=100, deadline=None)
@given(st.integers(0, len(KNOWN["kernel_history"]) - 1), st.text("0123456789abcdef", min_size=12, max_size=40))
def test_a_commit_no_cited_document_names_is_refused(i, commit):
    rows = copy.deepcopy(KNOWN["kernel_history"])
    texts = " ".join(str(BY_ID[s].get(k, "")) for s in rows[i]["sources"] for k in ("title", "covers"))
    rows[i]["commit"] = commit
    found = [p for p in _problems(rows) if p.path == f"/{i}/commit"]
    assert bool(found) == (commit[:12] not in texts), (commit, found)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, len(KNOWN["kernel_history"]) - 1), st.integers(2, 9), st.integers(0, 30))
def test_a_release_no_cited_document_names_is_refused(i, major, minor):
    rows = copy.deepcopy(KNOWN["kernel_history"])
    release = f"{major}.{minor}"
    texts = " ".join(str(BY_ID[s].get(k, "")) for s in rows[i]["sources"] for k in ("title", "covers"))
    rows[i]["release"] = release
    found = [p for p in _problems(rows) if p.path == f"/{i}/release"]
    named = re.search(r"(?<![\d.])" + re.escape(release) + r"(?!\d)", texts)
    assert bool(found) == (named is None), (release, found)
    if release == "5.1" and "5.13" in texts:  # beside the named example: 5.1 is not 5.13
        assert found


def test_a_value_other_than_the_fact_s_is_refused():
    rows = copy.deepcopy(KNOWN["kernel_history"])
    i = next(i for i, r in enumerate(rows) if (r["filesystem"], r.get("column")) == ("xfs", "online_shrink"))
    rows[i]["value"] = "yes"  # the fact says partial: only the end of the last allocation group
    assert [p.path for p in _problems(rows)] == [f"/{i}/value"]
