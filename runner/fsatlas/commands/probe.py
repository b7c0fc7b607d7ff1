"""fsatlas probe: tries each feature of each filesystem on fresh loop images and writes a
probe result (data/probes/<id>.json, its transcripts in data/probes/raw/<id>.tar.gz)."""
import concurrent.futures
import datetime as dt
import os
import shlex
import signal
import sys
import tempfile
import time

from .. import outfile
from ..errors import UserError
from ..results import bundle, probefile, resultfile
from ..run import filesystems, guest, interrupts, leftovers, matrix as matrix_mod, probes, system
from . import list_option

PROBED = ("ext2", "ext3", "ext4", "xfs", "btrfs", "ntfs", "ntfs3", "f2fs", "jfs", "reiserfs", "nilfs2", "hfsplus", "bcachefs")


def add_parser(sub):
    p = sub.add_parser("probe", help="try each feature of each filesystem on loop images and record what happened")
    p.add_argument("--fs", action="append", default=[], help="filesystems to probe (comma-separated; default: every "
                                                             "kernel filesystem of the matrix this machine has)")
    p.add_argument("--probe", action="append", default=[], help="only these probes (comma-separated; default: "
                                                                "all: " + ", ".join(probes.PROBES) + ")")
    p.add_argument("--scratch", default=".scratch", help="folder for the loop images (default: .scratch)")
    p.add_argument("--machine", help="a label for this machine (default: a short salted hash, never the hostname)")
    p.add_argument("--out", default="data", help="the data folder; the probe result goes into its probes/ (default: data)")
    p.add_argument("--kernel", metavar="NAME", help="probe inside a guest booted from this stock kernel "
                                                   "(run/kernels.txt, fetched by make setup): debian-6.1")
    p.set_defaults(func=run)


def run(args) -> int:
    if os.geteuid() != 0:
        raise UserError("loop devices, mkfs and mount need root: run as root (sudo)")
    specs = matrix_mod.load().filesystems
    wanted = list_option(args.fs) or [fs for fs in PROBED if fs in specs]
    unknown = [fs for fs in wanted if fs not in specs]
    if unknown:
        raise UserError(f"not a filesystem of the matrix: {', '.join(unknown)}", field="--fs",
                        expected=", ".join(sorted(specs)))
    only = list_option(args.probe) or None
    unknown = [name for name in only or () if name not in probes.PROBES]
    if unknown:
        raise UserError(f"not a probe: {', '.join(unknown)}", field="--probe", expected=", ".join(probes.PROBES))
    outfile.named(args.out)  # before any work: "-" and "" name no folder, as for run and import
    if args.kernel:
        return in_guest(args, wanted, only)
    created = dt.datetime.now(dt.timezone.utc).replace(microsecond=0)
    sysinfo = system.collect_system(args.machine)
    rid = f"{created:%Y%m%dT%H%M%SZ}-{sysinfo['machine']}-probe"
    findings, skipped, transcripts = [], [], {}
    started = time.monotonic()
    scratch = os.path.abspath(args.scratch)
    with leftovers.ScratchLock(scratch):
        for line in leftovers.clean(scratch):
            print(f"cleanup of an earlier run that died: {line}", file=sys.stderr)
        runnable = []
        for fs in wanted:
            reason = filesystems.unavailable_reason(fs, specs[fs])
            if reason:
                skipped.append({"filesystem": fs, "reason": reason})
                print(f"{fs}: skipped: {reason}", file=sys.stderr)
            else:
                runnable.append(fs)
        for fs, rows in _probe_all(runnable, specs, scratch, only):
            for name, found, transcript in rows:
                member = f"{fs}/{name}.txt"
                transcripts[member] = transcript.encode()
                findings.append({"filesystem": fs, "probe": name, **found, "raw": f"raw/{rid}/{member}"})
                shown = found.get("value") or (f"{found['limit']} {found['unit']}" if "limit" in found else found["status"])
                print(f"{fs}: {name}: {shown}: {found['detail']}", file=sys.stderr)
    data = {"schema_version": 1, "id": rid, "created": created.isoformat().replace("+00:00", "Z"),
            "wall_seconds": round(time.monotonic() - started, 1),
            "tool": {**system.package_versions(_commands(transcripts) | {specs[f["filesystem"]]["mkfs"][0] for f in findings}),
                     **system.collect_tools(), **_acl_version()},
            "system": sysinfo, "emulated": False, "skipped": skipped, "findings": findings}
    print(probefile.write(os.path.abspath(args.out), data, transcripts))
    return 0


# Filesystems that take far longer than the rest, started first so the other lane runs beside
# them: ntfs-3g's hard links cost time growing with their number (8,189 links in 65 s measured
# here, a thousand of them in 0.9 s), and FUSE runs them on a core of its own.
SLOW_FIRST = ("ntfs",)


def _probe_all(runnable: list, specs: dict, scratch: str, only):
    """(filesystem, rows) in the order asked, each as soon as it and those before it are done;
    probed two at a time on a machine with two cores or more: each filesystem has images, loop
    devices and mounts of its own. A signal, or a lane's failure, stops every lane at its next
    probe (probes.probe_filesystem asks), and each lane cleans up as it leaves."""
    lanes = max(1, min(2, os.cpu_count() or 1))
    order = sorted(runnable, key=lambda fs: fs not in SLOW_FIRST)
    with concurrent.futures.ThreadPoolExecutor(lanes) as pool:
        futures = {fs: pool.submit(probes.probe_filesystem, fs, specs[fs], scratch, only) for fs in order}
        try:
            for fs in runnable:
                yield fs, futures[fs].result()
        except BaseException:
            interrupts.received.append(signal.SIGINT)  # the lanes still running stop at their next probe
            raise


def in_guest(args, wanted: list, only) -> int:
    """The same probes in a guest of a stock kernel; its result is written here with what the
    guest was (kernel package, hypervisor, emulated or not)."""
    with tempfile.TemporaryDirectory(prefix="fsatlas-guest-") as rwdir:
        guest_info = guest.run(args.kernel, ["probe", "--out", rwdir, "--scratch", "/tmp/fsatlas-scratch",
                                             "--machine", args.machine or system.default_machine_label(),
                                             "--fs", ",".join(wanted), *(["--probe", ",".join(only)] if only else [])],
                            rwdir, timeout=3600)
        (path,) = probefile.files(rwdir)
        data = resultfile.load_json(path)
        transcripts = bundle.read(os.path.join(rwdir, probefile.FOLDER), data["id"])
    data.update(guest=guest_info, emulated=guest_info["emulated"])
    print(probefile.write(os.path.abspath(args.out), data, transcripts))
    return 0


def _commands(transcripts: dict) -> set:
    """The programs the transcripts show were run ("$ program args …" lines)."""
    found = set()
    for text in transcripts.values():
        for line in text.decode().splitlines():
            if line.startswith("$ "):
                try:
                    found.add(shlex.split(line[2:].split("   # answered")[0])[0])
                except (ValueError, IndexError):
                    continue
    return found


def _acl_version() -> dict:
    version = system.tool_version(["setfacl", "--version"])
    return {"acl": version} if version else {}
