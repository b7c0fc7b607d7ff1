"""Raw output bundles: one tar.gz a result (results/bundle.py), `fsatlas migrate`, and the
validation cache that lets a fresh checkout with restored caches skip unchanged results.
Hostile bundles (links, devices, '..', a tar bomb) are in test_hostile.py."""
import os
import shutil
import tarfile

import pytest

from testutil import FIXTURES, raw_files
from fsatlas.cli import main
from fsatlas.results import bundle, resultfile, validation
from fsatlas.results.resultfile import readable  # a result file in the read form (schema 2 stores no summaries)

RID = "fixture-valid"


def test_the_same_members_give_the_same_bytes_and_read_back(tmp_path):
    members = {"b/rep-1.json": b'{"x": 1}\n', "a/rep-1.json": b"", "a/deeper/raw.txt": "d\u00fcsseldorf".encode()}
    bundle.write(members, str(tmp_path / "one.tar.gz"))
    bundle.write(dict(reversed(list(members.items()))), str(tmp_path / "two.tar.gz"))
    assert (tmp_path / "one.tar.gz").read_bytes() == (tmp_path / "two.tar.gz").read_bytes()
    (tmp_path / "raw").mkdir()
    shutil.copy(tmp_path / "one.tar.gz", tmp_path / "raw" / "x.tar.gz")
    assert bundle.read(str(tmp_path), "x") == members
    with tarfile.open(tmp_path / "one.tar.gz") as archive:  # a plain tar.gz any tar reads
        assert sorted(archive.getnames()) == sorted(members)
        assert {m.mtime for m in archive.getmembers()} == {0} and {m.uname for m in archive.getmembers()} == {""}


def _folder_layout(tmp_path):
    """The fixture as a result was kept before bundles: raw/<id>/ with one file a repetition."""
    out = tmp_path / "out"
    shutil.copytree(FIXTURES, out)
    bundle.unpack(str(out), RID)
    (out / "raw" / f"{RID}.tar.gz").unlink()
    return out


def test_migrate_packs_the_folder_and_is_idempotent(tmp_path, capsys):
    out = _folder_layout(tmp_path)
    files = {str(p.relative_to(out / "raw" / RID)): p.read_bytes() for p in (out / "raw" / RID).rglob("*") if p.is_file()}
    assert len(files) == 6
    assert main(["validate", "--no-cache", str(out / "results")]) == 1
    assert f"found the folder raw/{RID}/" in capsys.readouterr().err  # said in one line, with the command to run
    result_before = resultfile.load_result(str(out / "results" / f"{RID}.json"))
    assert main(["migrate", "--data", str(out)]) == 0
    assert "1 results migrated, 0 already bundled" in capsys.readouterr().err
    assert not (out / "raw" / RID).exists() and bundle.read(str(out), RID) == files
    # references name the members as they were (the file is now in the current schema version)
    assert [c["raw"] for c in resultfile.load_result(str(out / "results" / f"{RID}.json"))["cells"]] == \
        [c["raw"] for c in result_before["cells"]]
    packed = (out / "raw" / f"{RID}.tar.gz").read_bytes()
    assert main(["migrate", "--data", str(out)]) == 0
    assert "0 results migrated, 1 already bundled" in capsys.readouterr().err
    assert (out / "raw" / f"{RID}.tar.gz").read_bytes() == packed
    assert main(["validate", "--no-cache", str(out / "results")]) == 0


def test_a_migration_that_stopped_half_way_is_finished_by_running_it_again(tmp_path, capsys):
    out = _folder_layout(tmp_path)
    bundle.write(bundle.folder_members(str(out), RID), bundle.path(str(out), RID))  # then it stopped
    assert main(["migrate", "--data", str(out)]) == 0
    assert not (out / "raw" / RID).exists()
    assert main(["validate", "--no-cache", str(out / "results")]) == 0


def test_import_adds_exactly_two_files(tmp_path):
    sample = FIXTURES / "samples" / "dd" / "dd-9.1-german.txt"
    out = tmp_path / "out"
    assert main(["import", "dd", str(sample), "--filesystem", "ext4", "--out", str(out)]) == 0
    added = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    (result,) = (out / "results").iterdir()
    assert added == [f"raw/{result.stem}.tar.gz", f"results/{result.name}"]
    import json
    data = readable(json.loads(result.read_text()))
    assert raw_files(out, data)[data["cells"][0]["raw"][0]] == sample.read_bytes()  # unchanged, byte for byte


def _no_check(*args, **kwargs):
    raise AssertionError("validated again")


def test_a_fresh_checkout_with_the_cache_restored_checks_nothing_again(tmp_path, monkeypatch):
    """A checkout gives every file a new mtime; the cache compares content digests, so only a
    file whose content changed is checked again (the publishing workflow restores build/)."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(FIXTURES, "data")
    files = ["data/results/fixture-valid.json"]
    cache = os.path.join("build", "cache", "validation.json")
    assert [p for p in validation.validate_files(files, cache) if p.severity == "error"] == []
    for path in ("data/results/fixture-valid.json", "data/raw/fixture-valid.tar.gz"):
        os.utime(path, (1, 1))  # as a checkout leaves them: same bytes, other times
    with monkeypatch.context() as m:
        m.setattr(validation, "_read_and_checked", _no_check)
        assert [p for p in validation.validate_files(files, cache) if p.severity == "error"] == []
    members = bundle.read("data", RID)
    name = sorted(members)[0]
    members[name] = members[name].replace(b'"bw_bytes" : ', b'"bw_bytes" : 1')  # other figures, same result file
    bundle.write(members, bundle.path("data", RID))
    with monkeypatch.context() as m:
        m.setattr(validation, "_read_and_checked", _no_check)
        with pytest.raises(AssertionError, match="validated again"):
            validation.validate_files(files, cache)
    errors = [p for p in validation.validate_files(files, cache) if p.severity == "error"]
    assert errors and all("recompute" in p.message for p in errors)  # a figure, or fio's rate of its counts
