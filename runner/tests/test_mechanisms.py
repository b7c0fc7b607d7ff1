"""The workloads the option claims rest on can show the options' mechanisms, as the loop
device's own counters record them (real ext4 on loop images, real fio): commit= on buffered
writes left to the kernel for longer than the commit interval, data= on writes through the page
cache, access times on a tree read back from the filesystem under test. The claims' judgement
(knowledge.cannot_show) reads these same counters, over each repetition's timed part."""
import json

import pytest

from fsatlas.cli import main
from fsatlas.site import knowledge
from testutil import loop_state
from fsatlas.results.resultfile import readable  # a result file in the read form (schema 2 stores no summaries)

pytestmark = pytest.mark.root

MATRIX = """
filesystems:
  # noinit_itable, as the standard matrix mounts ext4: otherwise its kernel thread zeroes the inode
  # tables in the timed parts (8 write requests in a noatime tree-read repetition once, in CI)
  ext4: {mkfs: [mkfs.ext4, -F, -q], workload_mount: [noinit_itable]}
workloads:
  background-writes: {kind: fio, flushes: none, primary: throughput,
                      fio: {rw: randwrite, bs: 4k, ioengine: psync, direct: 0, time_based: 1}}
  buffered-write: {kind: fio, flushes: at-end, primary: throughput,
                   fio: {rw: write, bs: 1M, ioengine: psync, direct: 0, end_fsync: 1}}
  fsync-write-4k: {kind: fio, flushes: per-operation, primary: throughput,
                   fio: {rw: write, bs: 4k, ioengine: sync, fdatasync: 1}}
  tree-read: {kind: treecopy, flushes: at-end, reads_fs: true, primary: read_per_s, parameters: {phase: read}}
variants:
  commit-60: {filesystems: [ext4], mount: [commit=60], workloads: [background-writes, fsync-write-4k]}
  data-journal: {filesystems: [ext4], mount: [data=journal], workloads: [buffered-write]}
  data-ordered: {filesystems: [ext4], mount: [data=ordered], workloads: [buffered-write]}
  noatime: {filesystems: [ext4], mount: [noatime], workloads: [tree-read]}
profiles:
  p:
    image_size: 512M
    repetitions: 2
    variants: all
    filesystems: [ext4]
    workloads:
      # 6 s: longer than ext4's default 5 s commit interval, so the default commits at least once
      background-writes: {size: 32M, runtime: 6}
      buffered-write: {size: 96M}
      fsync-write-4k: {size: 256K}
      tree-read: {files: 150}
"""


def test_commit_and_data_mode_claims_rest_on_workloads_whose_counters_show_them(tmp_path):
    (tmp_path / "m.yaml").write_text(MATRIX)
    before = loop_state(tmp_path)
    assert main(["run", "--matrix", str(tmp_path / "m.yaml"), "--profile", "p", "--out", str(tmp_path / "out"),
                 "--scratch", str(tmp_path / "s"), "--variant", "defaults,commit-60,data-journal,data-ordered,noatime"]) == 0
    assert loop_state(tmp_path) == before
    (path,) = (tmp_path / "out" / "results").iterdir()
    cells = {c["key"]: c for c in readable(json.loads(path.read_text()))["cells"]}
    flushes = {k: sum(r["flushes"] for r in c["timed_io"]) for k, c in cells.items()}
    commit = {"mechanism": "commit-interval"}

    # background-writes: its timed part's flushes come from writeback as much as from the commit
    # interval, and vary between repetitions (3 and 86 in one run of this test on a shared machine):
    # whether commit=60 moved them is decided against that spread, as counted here by hand
    pair = cells["ext4|-|commit=60|background-writes"], cells["ext4|-|-|background-writes"]
    a, b = ([r["flushes"] for r in c["timed_io"]] for c in reversed(pair))
    moved = abs(sum(b) / len(b) - sum(a) / len(a)) > max(max(a) - min(a), max(b) - min(b))
    assert (knowledge.cannot_show(commit, "background-writes", *pair) == "") == moved, (a, b)
    # an fdatasync after every write commits by itself: the interval cannot act, and the counters say so
    assert flushes["ext4|-|commit=60|fsync-write-4k"] >= 64 and flushes["ext4|-|-|fsync-write-4k"] >= 64, flushes
    assert "no larger than cells with identical settings" in knowledge.cannot_show(
        commit, "fsync-write-4k", cells["ext4|-|commit=60|fsync-write-4k"], cells["ext4|-|-|fsync-write-4k"])

    # data=journal writes the file data twice (journal, then home): more sectors reach the device than under
    # data=ordered, for the same 96 MiB, and both cells went through the page cache (like for like)
    journal, ordered = cells["ext4|-|data=journal|buffered-write"], cells["ext4|-|data=ordered|buffered-write"]
    sectors = [sum(r["write_sectors"] for r in c["device_io"]) for c in (journal, ordered)]
    assert sectors[0] > 1.5 * sectors[1], sectors
    assert {knowledge.io_path(c, "6.18")[0] for c in (journal, ordered)} == {"buffered"}

    # tree-read: laid out, synced, caches dropped, then read: the timed part reads the filesystem under test,
    # and the default relatime writes the access times of a first read after writing, which noatime does not
    # (the layout's writes are not in it)
    reads = {k: [r["reads"] for r in c["timed_io"]] for k, c in cells.items() if k.endswith("tree-read")}
    assert all(min(v) > 0 for v in reads.values()), reads
    writes = {k: [r["writes"] for r in c["timed_io"]] for k, c in cells.items() if k.endswith("tree-read")}
    assert min(writes["ext4|-|-|tree-read"]) > max(writes["ext4|-|noatime|tree-read"]), writes
    assert all(sum(w) < sum(r["writes"] for r in cells[k]["device_io"]) for k, w in writes.items())
    # relatime writes a first read's atime (above: every repetition of it wrote more than any of
    # noatime's); whether that counts is the rule's: the means apart by more than either cell's
    # own range of repetitions. A few write requests a repetition, a journal commit landing in one
    # moves that range (1.0 against 5.5 with a range of 5.0 once on a loaded machine): checked
    # against the rule computed here, not as one outcome
    atime = {"mechanism": "atime"}
    a, b = writes["ext4|-|-|tree-read"], writes["ext4|-|noatime|tree-read"]
    apart = abs(sum(b) / len(b) - sum(a) / len(a)) > max(max(a) - min(a), max(b) - min(b))
    said = knowledge.cannot_show(atime, "tree-read", cells["ext4|-|noatime|tree-read"], cells["ext4|-|-|tree-read"])
    assert (said == "") == apart, (said, a, b)
