"""A source-tree copy: the time to copy a generated tree onto the filesystem, and its space;
and (phase: read) the rate at which the same tree, living on the filesystem, is read back.

Reproduces the 2006 magazine test that copied the kernel sources (about 20,000 files:
ext3 70 s, XFS 80 s, ReiserFS 100-110 s) and compared the space they took (ReiserFS 250 MB,
XFS 252 MB, ext3 260 MB). The tree is generated deterministically (seeded) with a size
distribution like a source tree (log-normal, median about 6 KB, few files above 100 KB),
once per run outside the filesystem under test; it stays in the page cache, so the copy
measures the writing side.
"""
import json
import math
import os
import random
import shutil
import tempfile
import time

from ...results import metrics
from .. import target
from .context import CpuMeter, run_tool

METRICS = metrics.TREE_COPY
SEED = 2006
FILES_PER_DIR = 24
SUFFIXES = (".c", ".h", ".S", ".txt", "Makefile", "Kconfig")


def tree_sizes(files: int, seed: int = SEED) -> list[int]:
    rng = random.Random(seed)
    return [min(int(rng.lognormvariate(math.log(6000), 1.3)), 2_000_000) for _ in range(files)]


def _text_block(rng, size=1 << 20) -> bytes:
    """Pseudo source text, so compression sees something like code, not zeros or noise."""
    words = ["static", "int", "return", "struct", "if", "else", "for", "unsigned", "long", "void",
             "const", "#define", "#include", "{", "}", "(", ")", ";", "->", "=", "==", "0", "1", "NULL",
             "inode", "page", "buffer", "lock", "err", "goto", "out", "size_t", "u32", "u64", "/*", "*/"]
    words += [f"fs_{rng.randrange(10**6):06d}" for _ in range(400)]
    out, n = [], 0
    while n < size:
        line = " ".join(rng.choice(words) for _ in range(rng.randrange(2, 12))) + "\n"
        out.append(line)
        n += len(line)
    return "".join(out).encode()[:size]


def generate_tree(root: str, files: int, seed: int = SEED) -> dict:
    """Writes the tree under root; the same (files, seed) always gives the same tree."""
    rng = random.Random(seed + 1)
    text = _text_block(rng)
    os.makedirs(root)
    sizes = tree_sizes(files, seed)
    dirs = [root]
    for i, size in enumerate(sizes):
        if i % FILES_PER_DIR == 0 and i:
            parent = dirs[rng.randrange(len(dirs))] if len(dirs) < 8 or rng.random() < 0.6 else root
            if parent.count(os.sep) - root.count(os.sep) >= 5:
                parent = root
            dirs.append(os.path.join(parent, f"dir{len(dirs):05d}"))
            os.makedirs(dirs[-1])
        name = f"file{i:06d}{SUFFIXES[i % len(SUFFIXES)]}"
        with open(os.path.join(dirs[-1], name), "wb") as f:
            start = rng.randrange(len(text))
            while size > 0:
                chunk = text[start:start + size]
                f.write(chunk)
                size -= len(chunk)
                start = 0
    return {"files": files, "directories": len(dirs), "bytes": sum(sizes), "seed": seed}


def source_tree(ctx, files: int) -> tuple[str, dict]:
    """The run's generated tree, made on first use in the run's shared scratch folder."""
    key = f"tree-{files}"
    if key not in ctx.shared:
        root = tempfile.mkdtemp(prefix=f"{key}-", dir=ctx.shared["dir"])
        info = generate_tree(os.path.join(root, "src"), files)
        target.write_out(root)  # on the host's disk before any copy is timed; it stays in the page cache
        ctx.shared[key] = (os.path.join(root, "src"), info)
    return ctx.shared[key]


def used_bytes(path: str) -> int:
    st = os.statvfs(path)
    return (st.f_blocks - st.f_bfree) * st.f_frsize


def read_tree(root: str) -> int:
    """Reads every file under root to its end, as tar or a backup would; returns the file count."""
    count = 0
    for here, _, names in os.walk(root):
        for name in names:
            with open(os.path.join(here, name), "rb", buffering=0) as f:
                while f.read(1 << 20):
                    pass
            count += 1
    return count


def run(cell, ctx) -> dict:
    if cell.parameters.get("phase") == "read":
        return run_read(cell, ctx)
    src, info = source_tree(ctx, int(cell.parameters.get("files", 20000)))
    target.sync(ctx.workdir)
    before = used_bytes(ctx.workdir)
    dest = os.path.join(ctx.workdir, "tree")
    with CpuMeter(ctx) as cpu:
        run_tool(["cp", "-a", src, dest], ctx.timeout, "cp")
        target.sync(dest)
    time.sleep(0.2)  # let delayed allocation and btrfs' async space accounting settle
    target.sync(ctx.workdir)
    used = used_bytes(ctx.workdir) - before
    with open(ctx.raw(".json"), "w", encoding="utf-8") as f:
        json.dump({"tree": info, "seconds": cpu.wall, "bytes_used": used, "cpu": cpu.values}, f, indent=1)
    shutil.rmtree(dest, ignore_errors=True)
    return {"seconds": cpu.wall, "bytes_used": float(max(used, 0)), **cpu.values}


def run_read(cell, ctx) -> dict:
    """tree-read: the tree copied onto the filesystem under test, synced and the caches dropped,
    then every file read back: each read is one an access-time option decides about (whether
    the file's atime is written), which tree-copy, reading its source on the host, never makes."""
    src, info = source_tree(ctx, int(cell.parameters.get("files", 20000)))
    tree = os.path.join(ctx.workdir, "tree")
    run_tool(["cp", "-a", src, tree], ctx.timeout, "cp")
    target.sync(tree)
    ctx.drop()
    with CpuMeter(ctx) as cpu:
        files = read_tree(tree)
        target.sync(tree)  # the access times the reads dirtied reach the device inside the timed part
    with open(ctx.raw(".json"), "w", encoding="utf-8") as f:
        json.dump({"tree": info, "files": files, "seconds": {"read": cpu.wall}, "cpu": cpu.values}, f, indent=1)
    shutil.rmtree(tree, ignore_errors=True)
    return {"read_per_s": files / cpu.wall if cpu.wall > 0 else 0.0, **cpu.values}
