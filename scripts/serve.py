#!/usr/bin/env python3
"""`make serve`: the site on http://127.0.0.1:1313/ that follows the data.

Runs `fsatlas aggregate` and `hugo server`, then watches data/ (results, raw, curated
files): when a file is added, changed or removed it validates and aggregates again; Hugo
sees the regenerated aggregates and pages and reloads the browser. A broken file is
reported and the last good state keeps being served. Stop with Ctrl-C.
"""
import argparse
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FSATLAS = REPO / ".venv" / "bin" / "fsatlas"
WATCHED = ["data/results", "data/raw", "data/features", "data/mount_options", "data/history",
           "data/sources.yaml", "data/feature_columns.yaml"]


def snapshot(root: Path) -> dict:
    state = {}
    for name in WATCHED:
        path = root / name
        files = [path] if path.is_file() else (p for p in path.rglob("*") if p.is_file()) if path.is_dir() else []
        for f in files:
            try:
                state[str(f)] = f.stat().st_mtime_ns
            except FileNotFoundError:
                pass
    return state


def rebuild(root: Path) -> None:
    done = subprocess.run([FSATLAS, "aggregate", "--data", root / "data", "--content", root / "build" / "content"],
                          cwd=root, capture_output=True, text=True)
    print((done.stdout or done.stderr).strip(), flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=REPO, help="the site's folder (default: this repository)")
    parser.add_argument("--port", type=int, default=1313)
    args = parser.parse_args(argv)
    root = args.root.resolve()
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    rebuild(root)
    hugo = subprocess.Popen(["hugo", "server", "--source", root, "--bind", "127.0.0.1", "--port", str(args.port),
                             "--disableFastRender"], cwd=root)
    seen = snapshot(root)
    try:
        while hugo.poll() is None:
            time.sleep(1)
            now = snapshot(root)
            if now != seen:
                seen = now
                rebuild(root)
    except KeyboardInterrupt:
        pass
    finally:
        hugo.terminate()
        hugo.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
