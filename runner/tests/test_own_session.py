"""tools.in_own_session: what a command leaves running in its session when it ends is killed,
but for a command that starts a daemon (a FUSE mount: ntfs-3g forks its daemon and returns, and
the daemon leaves the session only when it calls setsid, a moment later). On a loaded machine the
probe's ntfs-3g daemon was killed before it left, and its mount answered "Transport endpoint is
not connected" (twice in CI-local)."""
import sys
import time

import pytest

from fsatlas.run import tools

# a parent that forks and returns at once; its child is slow to leave the session, as a loaded
# machine makes a daemon, then says it is alive by writing a file
SLOW_DAEMON = """
import os, sys, time
if os.fork() == 0:
    time.sleep(0.5)
    os.setsid()
    time.sleep(0.5)
    open(sys.argv[1], "w").write("alive")
    os._exit(0)
"""


@pytest.mark.parametrize("daemon", [False, True])
def test_a_daemon_outlives_its_command_only_where_it_is_meant_to(tmp_path, daemon):
    mark = tmp_path / "alive"
    done = tools.in_own_session([sys.executable, "-c", SLOW_DAEMON, str(mark)], 30, daemon=daemon)
    assert done.returncode == 0
    time.sleep(2)
    assert mark.exists() is daemon
