"""What a feature probe records: its transcript (every command, exit status and output) and its
finding (a value, a limit, "not available" with the reason, or failed), shared by the probes
of run/probes.py and those of run/probe_tools.py that ask a filesystem's own tools."""
import errno
import os
import re
import shlex
import subprocess

from . import filesystems, tools

IMAGE_BYTES = 512 * 1024 * 1024  # a probe's loop image: above XFS's 300 MB minimum


class Transcript:
    """The commands a probe ran, with their exit status and output, as the raw file keeps them."""

    def __init__(self):
        self.lines = []

    def note(self, text: str) -> None:
        self.lines.append(f"# {text}")

    def run(self, argv, timeout=120, cwd=None, answer: str | None = None, env: dict | None = None,
            daemon: bool = False) -> subprocess.CompletedProcess:
        """argv run with no terminal; answer: what is typed at its question (the transcript says so),
        else a question reads end of input; env: variables set for it beside this environment's;
        daemon: it starts a process meant to outlive it (tools.in_own_session)."""
        self.lines.append("$ " + "".join(f"{k}={shlex.quote(v)} " for k, v in (env or {}).items()) + shlex.join(argv)
                          + (f"   # answered {answer.strip()!r}" if answer else ""))
        try:
            done = tools.in_own_session(argv, timeout, answer or "", cwd, {**os.environ, **env} if env else None, daemon)
        except FileNotFoundError:
            self.lines.append(f"[not installed: {argv[0]}]")
            return subprocess.CompletedProcess(argv, 127, "", f"{argv[0]}: not installed")
        for stream in (done.stdout, done.stderr):
            self.lines += [f"  {line}" for line in stream.strip().splitlines()[-20:]]
        self.lines.append(f"[exit {done.returncode}]")
        return done

    def mount(self, spec: dict, image, options=()) -> subprocess.CompletedProcess:
        """The probe image mounted with options, in the transcript: a FUSE filesystem's daemon
        (ntfs-3g) outlives the mount command and is left running."""
        return self.run(filesystems.mount_argv(spec, image.device, image.mountpoint, list(options)), daemon=True)

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


class Finding(dict):
    """One probe's answer: status ok (with value or limit), "not available" or failed, and why."""

    @classmethod
    def value(cls, answer: str, detail: str):
        return cls(status="ok", value=answer, detail=detail)

    @classmethod
    def limit(cls, number: int, unit: str, detail: str, at_least: bool = False):
        return cls(status="ok", limit=number, unit=unit, at_least=at_least, detail=detail)

    @classmethod
    def unavailable(cls, reason: str):
        return cls(status="not available", detail=reason)


def errno_name(e: OSError) -> str:
    """ENOSPC for an OSError of that errno: how a transcript names a refusal."""
    return errno.errorcode.get(e.errno, str(e.errno))


class KernelLog:
    """The kernel's messages from the moment it is made on: /dev/kmsg opened at its end, so what
    it reads later is new. Counting dmesg's lines before and after is not: once the ring buffer is
    full (a long test run, a busy host), old lines leave as new ones come, and the lines that named
    a loop device may be another image's on the same device. Without /dev/kmsg (not root) it reads
    nothing, and callers fall back to the tool's own words."""

    def __init__(self):
        self.read = []
        try:
            self.fd = os.open("/dev/kmsg", os.O_RDONLY | os.O_NONBLOCK)
            os.lseek(self.fd, 0, os.SEEK_END)
        except OSError:
            self.fd = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def lines(self, device: str | None = None, words=(), log: Transcript | None = None) -> list[str]:
        """The new messages (text only) naming device or any of words, oldest first; those first
        read by this call are in the transcript too when log is given."""
        fresh = len(self.read)
        while self.fd is not None:
            try:  # one record a read: "prio,seq,usec,flags;text" then dictionary lines
                record = os.read(self.fd, 16384)
            except BlockingIOError:
                break
            except BrokenPipeError:  # records overwritten before they were read: go on with the next
                continue
            self.read.append(record.decode(errors="replace").split(";", 1)[-1].split("\n", 1)[0])
        device = re.compile(rf"\b{re.escape(os.path.basename(device))}\b") if device else None  # loop1, not loop10
        named = [i for i, line in enumerate(self.read)
                 if (device and device.search(line)) or any(w in line for w in words)]
        for i in named if log else ():
            if i >= fresh:
                log.note(f"kernel: {self.read[i]}")
        return [self.read[i] for i in named]

    def says(self, device: str, log: Transcript) -> str:
        """The kernel's last new message about device, without its "EXT4-fs (loop0): " prefix, or ''."""
        said = self.lines(device, (), log)
        return said[-1].split("): ", 1)[-1].strip() if said else ""


def made_and_mounted(spec: dict, image, options: list, log: Transcript) -> Finding | None:
    """mkfs with options, then mount, on a probe's image, each in the transcript: None when both
    worked; else the finding, a refused mkfs option the filesystem's "no", a refused mount this
    kernel's "not available" in its own words (dmesg), or mount's."""
    done = log.run([*spec["mkfs"], *options, image.device])
    if done.returncode:
        return Finding.value("no", f"mkfs {' '.join(options)} was refused: {done.stderr.strip()[-200:]}")
    with KernelLog() as news:
        done = log.mount(spec, image)
        said = news.says(image.device, log) if done.returncode else ""
    if done.returncode:  # the filesystem has it, this kernel may not: say which
        said = said or done.stderr.strip()[-200:]
        return Finding.unavailable(f"the running kernel ({os.uname().release}) would not mount it"
                                   + (f": {said}" if said else ""))
    return None
