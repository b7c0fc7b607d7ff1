"""Issue #63, round 2, item 3: a "since" row of data/kernel_history.yaml may name no release later
than a kernel on which a probe record already shows its value, and its column must be the row's
own feature (one the document dating the commit states), never a column the release did not
change (the RAID1C3 row shown beside Snapshots). Each rule checked over every row and every
release or column in place of the row's own, against a count made apart from the module."""
import copy
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from test_feature_matrix import _hand_states

from fsatlas.site import knowledge

DATA = Path(__file__).resolve().parents[2] / "data"
RELEASES = ["2.6.28", "3.8", "4.1", "5.2", "5.5", "5.10", "5.13", "6.1", "6.6", "6.12", "6.13", "6.18", "6.19"]


@pytest.fixture(scope="module")
def world():
    data, problems = knowledge.load(str(DATA))
    assert not [p for p in problems if p.severity == "error"]
    return data, knowledge.probe_records(str(DATA)), {s["id"]: s for s in data["sources"]}


def _seen_on(records: dict) -> dict:
    """(filesystem, column) -> {release (as int tuple): {values an ok finding gave}}, read from the
    records directly (the kernel's first two numbers, as "6.12.117+deb13-amd64" names 6.12)."""
    out = {}
    for record in records.values():
        release = tuple(int(n) for n in record["system"]["kernel"].split("-")[0].split("+")[0].split(".")[:2])
        for f in record["findings"]:
            if f["status"] == "ok":
                out.setdefault((f["filesystem"], f["probe"]), {}).setdefault(release, set()).add(" ".join(str(f.get("value")).split()).lower())
    return out


def _rows_problems(data, records, by_id, rows):
    data = dict(data, kernel_history=rows)
    return knowledge.kernel_history_rules(data, by_id, "kernel_history.yaml", records)


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_a_release_later_than_a_probed_kernel_showing_the_value_is_refused(world, draw):
    data, records, by_id = world
    rows = [r for r in data["kernel_history"] if r.get("column")]
    i = draw.draw(st.integers(0, len(rows) - 1))
    release = draw.draw(st.sampled_from(RELEASES))
    row = dict(rows[i], release=release)
    seen = _seen_on(records).get((row["filesystem"], row["column"]), {})
    wanted = tuple(int(n) for n in release.split("."))
    earlier = [r for r, values in seen.items() if r < wanted and " ".join(row["value"].split()).lower() in values]
    problems = [p for p in _rows_problems(data, records, by_id, [row]) if p.path == "/0/release" and "probe already found" in p.message]
    assert bool(problems) == bool(earlier), (row, earlier, problems)
    if earlier:
        assert f"no later than Linux {'.'.join(map(str, min(earlier)))}," in problems[0].message


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_a_column_the_dating_document_does_not_state_is_refused(world, draw):
    data, records, by_id = world
    i = draw.draw(st.integers(0, len(data["kernel_history"]) - 1))
    column = draw.draw(st.sampled_from([c["key"] for c in data["feature_columns"]]))
    row = dict(data["kernel_history"][i], column=column)
    stated = {c["key"] for c in data["feature_columns"]
              if any(_hand_states(by_id[s], c["key"], row["filesystem"]) for s in row["sources"])}
    problems = [p for p in _rows_problems(data, records, by_id, [row]) if p.path == "/0/column"]
    assert bool(problems) == (column not in stated), (row, stated, problems)


def test_the_named_examples(world):
    """The adversary's two: XFS bigtime 'since 6.12' where Linux 6.1 was probed with it; RAID1C3's
    row beside Snapshots."""
    data, records, by_id = world
    rows = copy.deepcopy(data["kernel_history"])
    bigtime = next(r for r in rows if r["filesystem"] == "xfs" and r.get("column") == "year_2038")
    raid = next(r for r in rows if "RAID1C3" in r["feature"])
    bigtime["release"], raid["column"] = "6.12", "snapshots"
    said = {(p.path.split("/")[1], p.path.split("/")[2]) for p in _rows_problems(data, records, by_id, rows)}
    assert (str(rows.index(bigtime)), "release") in said and (str(rows.index(raid)), "column") in said
    assert not _rows_problems(data, records, by_id, data["kernel_history"])  # the committed rows keep both rules


def test_a_feature_a_release_added_is_never_shown_as_no(world):
    """Issue #63, round 2, item 6: a feature off by default is never written 'no'. Every row of
    the kernel's history that says a feature holds (yes or partial) since a release is what the
    cell says too, whether a fact or the probes answer it; F2FS's creation time, there only on a
    filesystem made with inode_crtime, is 'partial since 4.16' from its commit, not the probes' 'no'."""
    data, records, _ = world
    seen = _seen_on(records)
    for row in data["kernel_history"]:
        if not row.get("column") or row["value"] not in ("yes", "partial"):
            continue
        fact = data["features"][row["filesystem"]]["features"].get(row["column"])
        said = fact.get("value", fact.get("limit")) if fact else None
        if said is None:  # left to the probes: each kernel from the release on found the row's value
            wanted = tuple(int(n) for n in row["release"].split("."))
            said = {v for r, values in seen.get((row["filesystem"], row["column"]), {}).items() if r >= wanted for v in values}
            assert said == {row["value"]}, row
        else:
            assert said == row["value"] != "no", row
    crtime = next(r for r in data["kernel_history"] if (r["filesystem"], r.get("column")) == ("f2fs", "creation_time"))
    assert (crtime["value"], crtime["release"], crtime["commit"][:12]) == ("partial", "4.16", "1c1d35df7110")
    assert data["features"]["f2fs"]["features"]["creation_time"]["value"] == "partial"


def test_a_commit_is_named_by_one_id_wherever_its_subject_is(world):
    """Issue #63, round 2, item 9: F2FS's resize ioctl was 04f0b2eaa3b3 in its row and pull, and
    another id in the source the F2FS cells cite. Wherever a source names a row's subject, the
    commit id named nearest to it is the row's (read here by hand: every hex id of 12 or more
    digits and its gap from the subject's words)."""
    import re
    data, _, by_id = world
    checked = 0
    for row in data["kernel_history"]:
        for source in data["sources"]:
            for field in ("title", "covers"):
                text = str(source.get(field, "")).lower()
                at = text.find(row["subject"].lower())
                if at < 0:
                    continue
                end = at + len(row["subject"])
                ids = [(m.start(), m.end(), m.group()) for m in re.finditer(r"\b[0-9a-f]{12,40}\b", text)]
                if not ids:
                    continue
                # the gap between the id and the subject's span, before or after it
                nearest = min(ids, key=lambda found: max(found[0] - end, at - found[1], 0))[2]
                assert row["commit"].startswith(nearest[:12]) or nearest.startswith(row["commit"][:12]), (source["id"], row["subject"], nearest)
                checked += 1
    assert checked >= len(data["kernel_history"])  # each row's subject is named somewhere with an id
    assert by_id["kernel-f2fs-resize-ioctl"]["url"].endswith("04f0b2eaa3b3")
