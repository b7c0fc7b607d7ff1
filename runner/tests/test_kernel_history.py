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
RECORDS = knowledge.probe_records(str(DATA))


def _problems(rows):
    return knowledge.kernel_history_rules({**KNOWN, "kernel_history": rows}, BY_ID, PATH, RECORDS)


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


@settings(max_examples=100)
@given(st.integers(0, len(KNOWN["kernel_history"]) - 1), st.text("0123456789abcdef", min_size=12, max_size=40))
def test_a_commit_no_cited_document_names_is_refused(i, commit):
    rows = copy.deepcopy(KNOWN["kernel_history"])
    texts = " ".join(str(BY_ID[s].get(k, "")) for s in rows[i]["sources"] for k in ("title", "covers"))
    rows[i]["commit"] = commit
    found = [p for p in _problems(rows) if p.path == f"/{i}/commit"]
    assert bool(found) == (commit[:12] not in texts), (commit, found)


@settings(max_examples=100)
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


# issue #63: a commit and its subject were not matched, and a probe-only column's value was not checked
def _pairs_sharing_a_source():
    rows = KNOWN["kernel_history"]
    return [(i, j) for i in range(len(rows)) for j in range(len(rows))
            if i != j and set(rows[i]["sources"]) & set(rows[j]["sources"])]


@settings(max_examples=30)
@given(st.sampled_from(_pairs_sharing_a_source()))
def test_a_commit_swapped_with_another_of_its_pull_request_is_refused(pair):
    i, j = pair
    rows = copy.deepcopy(KNOWN["kernel_history"])
    rows[i]["commit"] = KNOWN["kernel_history"][j]["commit"]  # named in the same document, beside another subject
    assert any(p.path == f"/{i}/subject" for p in _problems(rows)), rows[i]


def test_raid1c3_with_raid1c4_s_commit_is_refused():
    rows = copy.deepcopy(KNOWN["kernel_history"])
    c3 = next(i for i, r in enumerate(rows) if "raid1c3" in r["subject"])
    c4 = next(r for r in rows if "raid1c4" in r["subject"])
    rows[c3]["commit"] = c4["commit"]
    assert [p.path for p in _problems(rows)] == [f"/{c3}/subject"]


@settings(max_examples=100)
@given(st.lists(st.tuples(st.text("abcdefgh :-()", min_size=8, max_size=30), st.text("0123456789abcdef", min_size=12, max_size=12)),
                min_size=1, max_size=5, unique_by=(lambda p: p[0].strip().lower(), lambda p: p[1])),
       st.sampled_from([", ", " and ", "; ", ", then "]), st.booleans(), st.data())
def test_commit_named_with_pairs_each_subject_with_its_own_id(pairs, sep, id_first, data):
    """Against the pairs the text was made of: each subject with its own id is found, with another's is not
    (pairs written apart by a separator, as a pull request lists them: with none, which id goes with
    which subject is a reader's guess too)."""
    pairs = [(s.strip(), c) for s, c in pairs if s.strip() and not any(
        s.strip().lower() in o.strip().lower() for o, _ in pairs if o is not s)]
    if not pairs:
        return
    text = sep.join(f"{c} ('{s}')" if id_first else f"'{s}' ({c})" for s, c in pairs)
    k = data.draw(st.integers(0, len(pairs) - 1))
    subject, commit = pairs[k]
    assert knowledge.commit_named_with(text, commit, subject)
    for other, (_, wrong) in enumerate(pairs):
        if other != k and wrong != commit:
            assert not knowledge.commit_named_with(text, wrong, subject), (text, subject, wrong)


def test_a_probe_only_cell_s_value_is_checked_against_the_probes():
    rows = copy.deepcopy(KNOWN["kernel_history"])
    probe_only = [i for i, r in enumerate(rows) if r.get("column")
                  and r["column"] not in KNOWN["features"][r["filesystem"]]["features"]]
    assert probe_only  # ext4 casefold, XFS bigtime
    for i in probe_only:
        for value in ("no", "partial", "Yes, mostly"):
            changed = copy.deepcopy(rows)
            changed[i]["value"] = value
            assert any(p.path == f"/{i}/value" for p in _problems(changed)), (i, value)


def test_fscrypt_since_which_release_per_filesystem():
    """fscrypt per filesystem (issue #63 item 5): ext4's encryption policy ioctls, which the
    encryption probe asks, since 4.1, by the commit a fix marked for the stable kernels 'v4.1+'
    names; every such row's cell is one the probes answered yes on every kernel from then on (the
    rule), and a release the cited fix does not name is refused."""
    rows = [r for r in KNOWN["kernel_history"] if r.get("column") == "encryption"]
    assert [(r["filesystem"], r["release"], r["commit"][:12]) for r in rows] == [("ext4", "4.1", "9bd8212f981e")]
    assert _problems(rows) == []
    assert any("release 4.2" in p.message for p in _problems([{**rows[0], "release": "4.2"}]))
