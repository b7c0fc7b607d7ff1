"""Issue #63, round 2, item 4: "no kernel here has it" is checked against the probe records: a
filesystem a record shows mounted is never given that reason, in a fact's note or in the reason
the page shows for an unanswered cell. Written from the rule over every filesystem, with a
finding added to a copy of the records."""
import copy
import json
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from fsatlas.cli import main
from fsatlas.site import feature_matrix, knowledge

DATA = Path(__file__).resolve().parents[2] / "data"
NEGATIONS = (("no",), ("none", "of", "the"), ("neither", "of", "the"), ("not", "any"), ("not", "on", "any"),
             ("not", "in", "any"), ("not", "one", "of", "the"), ("not", "any", "of", "the"), ("not", "on", "any", "of", "the"))


def _claims(text: str) -> bool:
    """The claim by hand, over words (case and white space as a reader reads them): a negation, at
    most two words, kernel(s), at most three words, here, and not "writes" next."""
    words = [w.strip(",;:()\"'") for w in text.lower().split()]
    for i in range(len(words)):
        for neg in NEGATIONS:
            if tuple(words[i:i + len(neg)]) != neg:
                continue
            after = i + len(neg)
            for k in range(after, min(after + 3, len(words))):
                if words[k] in ("kernel", "kernels"):
                    for h in range(k + 1, min(k + 5, len(words))):
                        if words[h] == "here" and (h + 1 >= len(words) or words[h + 1] != "writes"):
                            return True
    return False


class _Claim:  # the hand rule, searched like a pattern
    @staticmethod
    def search(text: str) -> bool:
        return _claims(text)


CLAIM = _Claim()


@pytest.fixture(scope="module")
def world():
    data, _ = knowledge.load(str(DATA))
    return data, knowledge.probe_records(str(DATA))


def _texts(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            if not k.startswith("_"):
                yield from _texts(v)
    elif isinstance(value, list):
        for v in value:
            yield from _texts(v)


def _with_finding(records: dict, fs: str, probe: str) -> dict:
    records = copy.deepcopy(records)
    rid = sorted(records)[-1]
    records[rid]["findings"].append({"filesystem": fs, "probe": probe, "status": "ok", "value": "yes", "detail": "mounted"})
    return records


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_a_mounted_filesystem_is_never_said_to_be_on_no_kernel(world, draw):
    data, records = world
    fs = draw.draw(st.sampled_from(sorted(data["features"])))
    probe = draw.draw(st.sampled_from(sorted(feature_matrix.probe_names())))
    changed = _with_finding(records, fs, probe)
    claims = [t for t in _texts(data["features"][fs]) if CLAIM.search(t)]
    problems = knowledge._no_kernel_claims(data, changed)
    assert {p.file for p in problems} == ({data["features"][fs]["_path"]} if claims else set())
    assert len(problems) == len(claims)
    # and no reason the page shows for a cell of a mounted filesystem says it, its note or the probe's part
    for cell in feature_matrix.cells(data, changed):
        if cell["filesystem"] == fs and not claims:
            assert not CLAIM.search(cell["reason"]), cell


def test_check_data_refuses_the_claim_once_a_record_shows_the_filesystem_mounted(tmp_path, capsys):
    """The named example: a ZFS finding added to a copy of a probe record, beside ZFS's note 'no
    kernel here has ZFS to probe it'."""
    for name in ("sources.yaml", "feature_columns.yaml", "corrections.yaml", "kernel_history.yaml", "features",
                 "mount_options", "history", "probes"):
        src = DATA / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, tmp_path / name)
    path = sorted((tmp_path / "probes").glob("*.json"))[-1]
    text = path.read_text()
    assert main(["check-data", "--data", str(tmp_path)]) == 0
    record = json.loads(text)
    record["findings"].append({**record["findings"][0], "filesystem": "zfs", "probe": "sparse_files"})
    path.write_text(json.dumps(record))
    capsys.readouterr()
    assert main(["check-data", "--data", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "zfs.yaml: error: /features/tail_packing/note: expected what probe record" in err, err


_SPACE = st.sampled_from([" ", "  ", "\n", " \t "])


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([" ".join(n) for n in NEGATIONS] + ["a", "the", "one", "every", "now"]),
       st.sampled_from(["", "guest ", "Linux ", "6.12 "]), st.sampled_from(["kernel", "kernels", "kernel's", "colonel"]),
       st.sampled_from(["", "probed ", "we run ", "that we boot "]), st.sampled_from(["here", "there", "here,"]),
       st.sampled_from(["has", "had", "mounts", "carries", "writes", "was built with", ""]),
       st.sampled_from(["upper", "title", "as is"]), _SPACE, st.data())
def test_every_spelling_of_the_claim_is_refused_for_a_mounted_filesystem(world, neg, pre, kernel, mid, here, verb, case,
                                                                         space, draw):
    """Issue #63, round 3: "no kernel  here" and "none of the kernels here has ntfs3" passed a narrow
    pattern. A claim built from its parts, in any case and white space, put in a note of a
    filesystem a record shows mounted, is refused exactly where the rule by hand finds it."""
    data, records = world
    mounted = sorted({f["filesystem"] for r in records.values() for f in r.get("findings", ())})
    fs = draw.draw(st.sampled_from(mounted))
    text = f"read the source; {neg} {pre}{kernel} {mid}{here} {verb} {fs}".replace(" ", "\0")
    text = text.replace("\0", draw.draw(_SPACE)) if space != " " else text.replace("\0", " ")
    text = {"upper": text.upper(), "title": text.title()}.get(case, text)
    key = sorted(data["features"][fs]["features"])[0]
    world_ = {"features": {fs: {"_path": data["features"][fs]["_path"], "features": {key: {"note": text}}}}}
    others = [t for t in _texts(data["features"][fs]) if _claims(t)]
    assert not others  # the committed data makes no such claim of a mounted filesystem
    flagged = [p for p in knowledge._no_kernel_claims(world_, records) if p.path == f"/features/{key}/note"]
    assert bool(flagged) is _claims(text), text
