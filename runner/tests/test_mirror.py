"""site.mirror: the destination holds exactly the sources' files, as hard links, and a rebuild
places only what changed, trusting a folder's mtime only where that is safe; and the environment
the site's Hugo runs get."""
import os
import shutil

from fsatlas.site import build as site


def _write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def _replace(path, text):
    """As every fsatlas writer does: a new file renamed over the old one."""
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def _age(folder, seconds=60):
    """Makes a folder's mtime older than the racy window, as it is for folders left alone."""
    st = os.stat(folder)
    os.utime(folder, ns=(st.st_atime_ns, st.st_mtime_ns - seconds * 10**9))


def _mirror(tmp_path, trees):
    return site.mirror(trees, str(tmp_path / "dest"), str(tmp_path / "manifest.json"))


def _tree(tmp_path):
    src, other = tmp_path / "src", tmp_path / "other"
    _write(src / "a.txt", "a")
    _write(src / "d" / "b.txt", "b")
    _write(other / "c.txt", "c")
    for folder in (src, src / "d", other):
        _age(folder)
    return src, other, [(str(src), ""), (str(other), "x")]


def test_links_everything_then_places_only_what_changed(tmp_path):
    src, other, trees = _tree(tmp_path)
    dest = tmp_path / "dest"
    assert _mirror(tmp_path, trees) == {"copied": 3, "removed": 0, "files": 3}
    assert os.path.samefile(dest / "d" / "b.txt", src / "d" / "b.txt")
    assert (dest / "x" / "c.txt").read_text() == "c"
    assert _mirror(tmp_path, trees)["copied"] == 0

    _replace(src / "d" / "b.txt", "b, replaced")
    assert _mirror(tmp_path, trees)["copied"] == 1
    assert (dest / "d" / "b.txt").read_text() == "b, replaced"

    with open(src / "a.txt", "a") as f:  # edited in place: the link shows it at once
        f.write(", edited")
    assert (dest / "a.txt").read_text() == "a, edited"

    (src / "d" / "b.txt").unlink()
    assert _mirror(tmp_path, trees)["removed"] == 1
    assert not (dest / "d").exists()  # an emptied folder goes too


def test_later_trees_win(tmp_path):
    src, other, trees = _tree(tmp_path)
    _write(other / "a.txt", "from other")
    _mirror(tmp_path, [(str(src), ""), (str(other), "")])
    assert (tmp_path / "dest" / "a.txt").read_text() == "from other"


def test_a_change_within_the_racy_window_is_not_missed(tmp_path):
    """A folder whose mtime did not move but sits close to the last mirror is listed again."""
    src, other, trees = _tree(tmp_path)
    _mirror(tmp_path, trees)
    folder = src / "d"
    before = os.stat(folder).st_mtime_ns
    _replace(folder / "b.txt", "B")
    os.utime(folder, ns=(before, before))  # as if the clock had not ticked
    os.utime(folder / "b.txt", ns=(before + 1, before + 1))
    manifest = tmp_path / "manifest.json"
    text = manifest.read_text()  # the last mirror happened just after the folder's mtime
    import json
    stored = json.loads(text)
    stored["written"] = before + 10**9
    manifest.write_text(json.dumps(stored))
    assert _mirror(tmp_path, trees)["copied"] == 1
    assert (tmp_path / "dest" / "d" / "b.txt").read_text() == "B"


def test_a_replaced_destination_is_mirrored_afresh(tmp_path):
    src, other, trees = _tree(tmp_path)
    _mirror(tmp_path, trees)
    shutil.rmtree(tmp_path / "dest")
    assert _mirror(tmp_path, trees)["copied"] == 3
    assert (tmp_path / "dest" / "d" / "b.txt").read_text() == "b"


def test_a_destination_of_unknown_state_loses_what_no_tree_holds(tmp_path):
    src, other, trees = _tree(tmp_path)
    _write(tmp_path / "dest" / "stale.html", "old")
    result = _mirror(tmp_path, trees)
    assert result["removed"] == 1 and not (tmp_path / "dest" / "stale.html").exists()


def test_copies_are_checked_again(tmp_path, monkeypatch):
    """On another filesystem the mirror copies; an in-place edit then does not show through a
    link, so a folder holding a copy is listed on every mirror."""
    src, other, trees = _tree(tmp_path)

    def no_links(source, target):
        raise OSError(18, "Invalid cross-device link")

    monkeypatch.setattr(os, "link", no_links)
    assert _mirror(tmp_path, trees)["copied"] == 3
    assert not os.path.samefile(tmp_path / "dest" / "a.txt", src / "a.txt")
    with open(src / "a.txt", "a") as f:
        f.write(", edited")
    _age(src)
    assert _mirror(tmp_path, trees)["copied"] == 1
    assert (tmp_path / "dest" / "a.txt").read_text() == "a, edited"


def test_replaced_and_removed_files_go_to_the_trash_and_the_next_build_empties_it(tmp_path):
    src, other, trees = _tree(tmp_path)
    trash = str(tmp_path / "trash")
    site.mirror(trees, str(tmp_path / "dest"), str(tmp_path / "manifest.json"), trash=trash)
    _replace(src / "a.txt", "a2")
    (other / "c.txt").unlink()
    result = site.mirror(trees, str(tmp_path / "dest"), str(tmp_path / "manifest.json"), trash=trash)
    assert (result["copied"], result["removed"]) == (1, 1)
    assert (tmp_path / "dest" / "a.txt").read_text() == "a2"
    assert not (tmp_path / "dest" / "x").exists()
    assert sorted(p.read_text() for p in (tmp_path / "trash").iterdir()) == ["a", "c"]
    site.Trash.empty_in_background(trash).wait()
    assert not os.path.exists(trash) and not list(tmp_path.glob("trash.emptying-*"))
    assert site.Trash.empty_in_background(trash) is None  # nothing left to empty


def test_a_file_is_placed_again_where_its_folder_was_deleted(tmp_path):
    _write(tmp_path / "src" / "a.txt", "a")
    assert site._place(str(tmp_path / "src" / "a.txt"), str(tmp_path / "gone" / "a.txt"), exists=True) is False
    assert (tmp_path / "gone" / "a.txt").read_text() == "a"


def test_a_mirror_that_fails_midway_leaves_the_destination_as_it_was(tmp_path, monkeypatch):
    """Files replaced, added and removed before the failure are all put back."""
    src, other, trees = _tree(tmp_path)
    for i in range(40):
        _write(src / "many" / f"{i}.txt", f"old {i}")
    _age(src / "many")
    dest, trash = tmp_path / "dest", str(tmp_path / "trash")
    site.mirror(trees, str(dest), str(tmp_path / "manifest.json"), trash)
    before = {p.relative_to(dest): p.read_text() for p in dest.rglob("*") if p.is_file()}
    for i in range(0, 40, 2):
        _replace(src / "many" / f"{i}.txt", f"new {i}")
    for i in range(40, 60):
        _write(src / "many" / f"{i}.txt", f"added {i}")
    (src / "a.txt").unlink()
    calls, real = [], site._place

    def failing(source, target, exists, folder_made=False):
        calls.append(target)
        if len(calls) == 30:
            raise OSError(28, "No space left on device")
        return real(source, target, exists, folder_made)
    monkeypatch.setattr(site, "_place", failing)
    try:
        site.mirror(trees, str(dest), str(tmp_path / "manifest.json"), trash)
    except OSError as e:
        assert e.errno == 28
    else:
        raise AssertionError("the mirror did not fail")
    assert len(calls) >= 30
    assert {p.relative_to(dest): p.read_text() for p in dest.rglob("*") if p.is_file()} == before
    monkeypatch.setattr(site, "_place", real)
    site.mirror(trees, str(dest), str(tmp_path / "manifest.json"), trash)  # and the next build completes it
    assert (dest / "many" / "0.txt").read_text() == "new 0" and (dest / "many" / "59.txt").read_text() == "added 59"
    assert not (dest / "a.txt").exists()


def test_hugo_runs_with_the_collector_settings_unless_the_user_set_their_own(monkeypatch):
    monkeypatch.delenv("GOGC", raising=False)
    monkeypatch.delenv("GOMEMLIMIT", raising=False)
    env = site.hugo_env()
    assert (env["GOGC"], env["GOMEMLIMIT"]) == ("off", "512MiB")
    assert env["PATH"] == os.environ["PATH"]  # the rest of the environment as it is
    monkeypatch.setenv("GOGC", "200")  # a user's own choice of either is kept, and the other not added
    env = site.hugo_env()
    assert env["GOGC"] == "200" and "GOMEMLIMIT" not in env
    monkeypatch.delenv("GOGC")
    monkeypatch.setenv("GOMEMLIMIT", "2GiB")
    env = site.hugo_env()
    assert env["GOMEMLIMIT"] == "2GiB" and "GOGC" not in env


def test_a_killed_writes_temporary_file_is_never_published(tmp_path):
    """#65 round 53: an aggregate killed between writing and renaming left "<target>.tmp" in the
    static trees, and the site published a half-written result beside the whole one. Every
    temporary file a writer names (outfile.temporary_for, replacing()'s) is left out of the
    destination, at the first build and at a rebuild alike; the files beside it are placed."""
    from fsatlas import outfile
    src, other, trees = _tree(tmp_path)
    _write(tmp_path / "left.json", "{")
    os.replace(tmp_path / "left.json", outfile.temporary_for(str(src / "d" / "b.txt")))
    _write(src / ".tmp-abcdefgh.fsatlas-tmp", "{")
    _mirror(tmp_path, trees)
    placed = sorted(str(p.relative_to(tmp_path / "dest")) for p in (tmp_path / "dest").rglob("*") if p.is_file())
    assert placed == ["a.txt", "d/b.txt", "x/c.txt"]
    _write(type(other)(outfile.temporary_for(str(other / "c.txt"))), "half")  # a rebuild finds a new one
    _replace(src / "a.txt", "a2")
    _mirror(tmp_path, trees)
    placed = sorted(str(p.relative_to(tmp_path / "dest")) for p in (tmp_path / "dest").rglob("*") if p.is_file())
    assert placed == ["a.txt", "d/b.txt", "x/c.txt"] and (tmp_path / "dest" / "a.txt").read_text() == "a2"


def test_a_page_refilled_goes_through_a_temporary_the_mirror_never_publishes(tmp_path, monkeypatch):
    """#65 round 54: a filler's temporary page was "tmpXXXXXXXX" beside the page, which a killed
    build left for the mirror to publish. The refill writes through a temporary of the one form
    (outfile.is_temporary), and one interrupted before its rename is removed."""
    from fsatlas import outfile
    from fsatlas.site import result_tables
    page = tmp_path / "index.html"
    page.write_bytes(b"<p>a</p>" + result_tables.NO_OTHER_RUNS.encode() + b"<p>b</p>")
    seen = []
    real = os.replace

    def replace(src, dst):
        seen.append(os.path.basename(src))
        raise KeyboardInterrupt
    monkeypatch.setattr(os, "replace", replace)
    try:
        site.refill_other_runs(str(page), '<p id="other-runs">x</p>')
    except KeyboardInterrupt:
        pass
    monkeypatch.setattr(os, "replace", real)
    assert seen and all(outfile.is_temporary(name) for name in seen), seen
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index.html"]
    site.refill_other_runs(str(page), '<p id="other-runs">x</p>')
    assert page.read_bytes() == b'<p>a</p><p id="other-runs">x</p><p>b</p>'
