"""What a cache takes for an unchanged file (results/filesig): the rule is that a file whose
content changed is never taken for unchanged, whatever its size and mtime say. Size and mtime
alone failed it: a result edited and given its old mtime back (touch -r, cp -p, rsync -a) kept
its page's old chart (#65 round 31). Checked against the file's own SHA-256, over contents and
edits hypothesis makes, in this process and in the next (the memo saved and read again)."""
import hashlib
import os

from hypothesis import given, settings, strategies as st

from fsatlas.results import filesig


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


@settings(max_examples=60, deadline=None)
@given(st.binary(min_size=1, max_size=64).flatmap(
    lambda a: st.tuples(st.just(a), st.binary(min_size=len(a), max_size=len(a)))), st.booleans())
def test_a_changed_file_is_read_again_though_its_size_and_mtime_are_as_before(tmp_path_factory, contents, reloaded):
    before, after = contents
    folder, back = tmp_path_factory.mktemp("filesig"), os.getcwd()
    os.chdir(folder)  # the memo lives under build/cache of the working folder, as the caches do
    filesig._memo, filesig._changed = None, False
    try:
        path = folder / "result.json"
        path.write_bytes(before)
        assert filesig.signature(str(path)) == [len(before), digest(path)]
        stamp = os.stat(path)
        path.write_bytes(after)
        os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))  # touch -r: the old mtime back
        assert os.stat(path).st_mtime_ns == stamp.st_mtime_ns and os.stat(path).st_size == stamp.st_size
        if reloaded:  # the next process: the memo from its file
            filesig.save()
            filesig._memo = None
        assert filesig.signature(str(path)) == [len(after), digest(path)]
        assert filesig.signatures([str(path)]) == [[len(after), digest(path)]]
    finally:
        os.chdir(back)
        filesig._memo, filesig._changed = None, False


SEGMENT = st.sampled_from(["a", "b", "..", ".", "data", "results", "x.json", "é"])


@settings(max_examples=300, deadline=None)
@given(st.lists(SEGMENT, min_size=1, max_size=6), st.sampled_from(["relative", "below", "root", "elsewhere", "doubled"]),
       st.sampled_from(["/", "/tmp", "/tmp/a", "/tmp/a/b/"]))
def test_a_cache_key_is_the_path_relative_to_the_working_folder(parts, kind, cwd):
    """cache_key is relpath(abspath(path)), as os.path computes it, for relative paths (with . and
    .. anywhere) and absolute ones below the working folder, at it, or elsewhere: its shortcuts
    (a relative path kept as it is, an absolute one cut at the working folder) change no key."""
    os.makedirs(cwd, exist_ok=True)
    back = os.getcwd()
    os.chdir(cwd)
    try:
        here = os.getcwd()
        tail = os.path.join(*parts)
        path = {"relative": tail, "below": os.path.join(here, tail), "root": here,
                "elsewhere": os.path.join("/srv", tail), "doubled": "/" + os.path.join(here, tail)}[kind]
        assert filesig.cache_key(path) == os.path.relpath(os.path.abspath(path))
    finally:
        os.chdir(back)


def test_an_entry_of_another_shape_in_the_memo_is_forgotten(tmp_path):
    """Round 34: a memo entry that is not [size, mtime, digest, ctime, inode] (a number, a dict,
    a short list) made a rebuild raise; it is dropped when the memo is read, and the file is
    read again."""
    back = os.getcwd()
    os.chdir(tmp_path)
    filesig._memo, filesig._changed = None, False
    try:
        (tmp_path / "build" / "cache").mkdir(parents=True)
        path = tmp_path / "result.json"
        path.write_bytes(b"{}")
        import json
        for bad in (5, {"a": 1}, [2, 3], [2, 3, 4, 5, 6], [True, 1, "x", 1, 1], None):
            (tmp_path / filesig.MEMO_FILE).write_text(json.dumps({"result.json": bad}))
            filesig._memo = None
            assert filesig.signature("result.json") == [2, digest(path)]
            filesig.linked("result.json")
    finally:
        filesig._memo, filesig._changed = None, False
        os.chdir(back)
