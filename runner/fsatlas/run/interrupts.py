"""Ctrl-C (SIGINT) and SIGTERM arrive as KeyboardInterrupt, and are remembered.

Python raises a signal handler's exception wherever the interpreter happens to be, and when
that is inside a destructor (a file or process object collected) the exception is printed as
"Exception ignored" and dropped: the run would go on to the end as if nobody had pressed
Ctrl-C. The run asks `raise_if_interrupted` between repetitions and before it calls itself
complete, so a signal that was received is acted on, wherever its first exception went.
"""
import signal

received: list[int] = []


def _handler(signum, frame):
    received.append(signum)
    raise KeyboardInterrupt(f"signal {signum}")


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
