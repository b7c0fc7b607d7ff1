"""KernelLog's rule: what it returns is what the kernel logged after it was made, naming the
device (as a word) or one of the words, in order; never a line from before, however full the
kernel's ring buffer is. CI found the rule broken where lines were counted before and after: a
full buffer drops an old line for each new one, so the count did not move and a refused mount
option was told in mount's generic words. The ring here is 2^17 bytes (CONFIG_LOG_BUF_SHIFT=17):
the tests write more than that through /dev/kmsg, with printk_devkmsg on so none is rate-limited."""
import contextlib
import fcntl

import pytest
from hypothesis import given, settings, strategies as st

from fsatlas.run import filesystems, matrix, probe_findings, probes, target
from testutil import loop_state

pytestmark = pytest.mark.root

DEVKMSG = "/proc/sys/kernel/printk_devkmsg"
RING_OVER = 6000  # records of about 100 bytes: several times the 128 KiB ring and its 4,096 descriptors


@contextlib.contextmanager
def devkmsg_unlimited():
    """printk_devkmsg on, and put back after; one test at a time (a lock file), so that a test in
    another worker neither restores rate limiting under this one's writes nor leaves it off."""
    with open("/tmp/fsatlas-test-devkmsg.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        with open(DEVKMSG) as f:
            before = f.read().strip()
        with open(DEVKMSG, "w") as f:
            f.write("on\n")
        try:
            yield
        finally:
            with open(DEVKMSG, "w") as f:
                f.write(before + "\n")


def write_kmsg(lines) -> None:
    with open("/dev/kmsg", "w") as kmsg:
        for line in lines:
            kmsg.write(f"<7>{line}\n")  # debug level: kept in the ring, not printed on the console
            kmsg.flush()  # one record a write


def test_a_refused_option_is_told_in_the_kernels_words_when_the_ring_is_full(tmp_path):
    spec = matrix.load().filesystems["ext4"]
    with target.LoopImage(str(tmp_path / "scratch"), 64 << 20) as image, devkmsg_unlimited():
        filesystems.mkfs(spec, image.device, [])
        filesystems.mount(spec, image.device, image.mountpoint, [])
        name = image.device.rsplit("/", 1)[-1]
        # the ring filled with lines that name the device, the filesystem and the option, as an
        # earlier image on the same device and an earlier refusal would
        write_kmsg(f"fsatlas-test {i}: {name} ext4: Unknown parameter 'fsatlas_no_such_option', an earlier image"
                   for i in range(RING_OVER))
        log = probe_findings.Transcript()
        refused = probes.MountAgain(spec, image, ["fsatlas_no_such_option"])(["fsatlas_no_such_option"], log)
        assert "Unknown parameter 'fsatlas_no_such_option'" in refused and "fsatlas-test" not in refused, refused
        assert "# kernel: ext4: Unknown parameter 'fsatlas_no_such_option'" in log.text()
        assert filesystems.is_mounted(image.mountpoint)
        filesystems.unmount(image.mountpoint)
    assert loop_state(tmp_path) == ([], [])


words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789 -_:'", min_size=1, max_size=60)


@settings(max_examples=15, deadline=None, database=None)
@given(before=st.lists(words, max_size=5), after=st.lists(words, max_size=40), filler=st.integers(0, RING_OVER),
       device=st.sampled_from(["loop1", "loop10", "sdb", None]))
def test_only_lines_logged_after_it_was_made_are_returned_in_order(before, after, filler, device):
    """A hand count beside it: the lines written after, filtered by the rule here, in order,
    whatever came before (filler wraps the ring in some examples)."""
    tag = "fsatlas-kl"
    with devkmsg_unlimited():
        write_kmsg(f"{tag} old {line} loop1" for line in before)
        write_kmsg("x" * 100 for _ in range(filler))  # some examples wrap the ring before it is made
        with probe_findings.KernelLog() as news:
            write_kmsg(f"{tag} {i} {line}" for i, line in enumerate(after))
            expected = [f"{tag} {i} {line}" for i, line in enumerate(after)
                        if (device and device in line.replace("-", " ").replace(":", " ").replace("'", " ").split())
                        or "zz" in line]
            got = [line for line in news.lines(f"/dev/{device}" if device else None, ["zz"]) if line.startswith(tag)]
    assert got == expected
