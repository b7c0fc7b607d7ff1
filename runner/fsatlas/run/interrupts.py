"""Ctrl-C (SIGINT) and SIGTERM arrive as KeyboardInterrupt, and are remembered.

Python raises a signal handler's exception wherever the interpreter happens to be, and when
that is inside a destructor (a file or process object collected) the exception is printed as
"Exception ignored" and dropped: the run would go on to the end as if nobody had pressed
Ctrl-C. The run asks `raise_if_interrupted` between repetitions and before it calls itself
complete, so a signal that was received is acted on, wherever its first exception went; and
while it writes its bundle and its result (`held`), a signal waits until both are written.
"""
import contextlib
import signal

received: list[int] = []
_holding = [0]  # how many held() blocks the run is in


def _handler(signum, frame):
    received.append(signum)
    if not _holding[0]:
        raise KeyboardInterrupt(f"signal {signum}")


@contextlib.contextmanager
def held():
    """A signal received inside is remembered, not raised: a bundle packed and the result saved
    are never cut in half (#60 round 40: a Ctrl-C in the last pack left a result the bundle did
    not match, and one in its folder's removal lost raw files for good). After it the caller
    decides: the Ctrl-C handler raises anyway, a run that finished returns its complete result."""
    _holding[0] += 1
    try:
        yield
    finally:
        _holding[0] -= 1


def install() -> None:
    """SIGTERM always; SIGINT unless it is ignored (a job started in the background inherits
    SIGINT ignored, and a Ctrl-C meant for the foreground must not reach it)."""
    received.clear()  # a new command (tests run several in one process)
    signal.signal(signal.SIGTERM, _handler)
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, _handler)


def raise_if_interrupted() -> None:
    if received:
        raise KeyboardInterrupt(f"signal {received[-1]}")
