"""fsatlas run: runs the matrix and writes OUT/results/<id>.json and OUT/raw/<id>/."""
import argparse
import os
import sys
import tempfile

from ..run import devices, execution, guest, leftovers, system, target
from ..run.workloads import fio
from ..results import bundle, flags, machines, resultfile, validation
from .. import outfile
from ..errors import UserError
from . import plan


def add_parser(sub):
    p = sub.add_parser("run", help="run the matrix and write a result file")
    plan.add_selection_options(p)
    where = p.add_mutually_exclusive_group()
    where.add_argument("--scratch", default=None, help="folder for the loop images (default: .scratch)")
    where.add_argument("--directory", metavar="DIR",
                       help="benchmark this existing directory instead (no root, no mkfs, no mount)")
    p.add_argument("--device", metavar="DEV", help="format and measure this block device: DESTROYS ITS DATA "
                                                       "(needs --destroy-data; refused when mounted or in use)")
    p.add_argument("--clients", metavar="HOSTFILE", help="run the fio workloads from every fio server listed "
                                                         "(fio --server on each) at once, in --directory DIR")
    p.add_argument("--shared-filesystem", metavar="NAME",
                   help="with --clients: what they share (nfs, cephfs, lustre...); default: DIR's type here")
    p.add_argument("--destroy-data", action="store_true", help="confirm that --device may be formatted")
    p.add_argument("--confirm-device", metavar="DEV",
                   help="repeat the device's name to format it although it carries a filesystem or partition table")
    p.add_argument("--machine", help="a label for this machine (default: a short salted hash, never the hostname)")
    p.add_argument("--machine-name", metavar="NAME", type=_machine_name,
                   help="the machine's name for readers (default: one made from its hardware, e.g. "
                        "\"Xeon 2 vCPU, KVM, virtio disk\"); --machine stays its id")
    p.add_argument("--out", default="data", help="output folder holding results/ and raw/ (default: data)")
    p.add_argument("--resume", metavar="ID", help="continue the result file ID, redoing only unfinished cells")
    p.add_argument("--kernel", metavar="NAME", help="run on loop images inside a guest booted from this stock kernel "
                                                   "(run/kernels.txt): its cells are flagged emulated when the guest is")
    p.set_defaults(func=run)


def run(args) -> int:
    if not args.directory and os.geteuid() != 0:  # say so before reading anything else
        raise UserError("loop devices, mkfs and mount need root: run as root (sudo), "
                        "or measure an existing folder with --directory DIR")
    out = outfile.named(args.out)
    if args.kernel:
        if args.directory or args.device or args.clients or args.resume:
            raise UserError("--kernel runs on loop images in a fresh guest: not with --directory, --device, "
                            "--clients or --resume", field="--kernel")
        return in_guest(args, out)
    resume = load_resume(out, args.resume) if args.resume else None
    if resume:
        check_same_system(resume, args.machine)
    if resume and resume.get("complete") and all(c["status"] == "ok" for c in resume["cells"]):
        # nothing to redo: the file is left as it is, with no session of a run that measured nothing
        # (#60 round 42: one added during another run made that run and this one "at once")
        print(f"fsatlas: run {resume['id']} is complete, every cell measured: nothing to resume", file=sys.stderr)
        return 0
    if resume and args.profile and args.profile != resume.get("profile"):
        raise UserError(f"--resume {args.resume} was a {resume.get('profile')!r} run", field="--profile",
                        expected=repr(resume.get("profile")), found=repr(args.profile))
    matrix, profile = plan.select(args, resume.get("profile") if resume else None)
    if args.directory and args.device:
        raise UserError("measure either an existing --directory or a --device to format, not both", field="--device")
    if args.clients and args.directory:  # fio is pointed at it in a job file, on every client: as given
        fio.check_folder(args.directory, "--directory")
    if args.clients:
        if not args.directory:
            raise UserError("--clients needs --directory DIR: the path on the shared filesystem every client writes in",
                            field="--clients")
        shared = args.shared_filesystem or target.backing_filesystem(args.directory) or "unknown"
        path, result = execution.run_clients(matrix, profile, out, args.directory, os.path.abspath(args.clients),
                                             shared, args.machine, resume, machine_name=args.machine_name)
    elif args.directory:
        if not os.path.isdir(args.directory):
            raise UserError("not a directory", where=args.directory, field="--directory")
        path, result = execution.run_directory(matrix, profile, out, fio.folder(args.directory, "--directory"),
                                               args.machine, resume, machine_name=args.machine_name)
    else:
        scratch = fio.folder(args.scratch or ".scratch", "--scratch")
        if args.device:
            devices.check(args.device, args.destroy_data, args.confirm_device)
            size = devices.describe(args.device)["device_bytes"]
            if size < profile.image_bytes:
                raise UserError("the device is smaller than the profile's image size", where=args.device,
                                expected=f"at least {profile.image_bytes} bytes", found=f"{size}")
        elif args.destroy_data or args.confirm_device:
            raise UserError("--destroy-data and --confirm-device go with --device", field="--destroy-data")
        else:
            checked = plan.build_plan(matrix, profile, scratch)
            plan.check_scratch(checked)
            for warning in checked["warnings"]:
                print(f"warning: {warning}", file=sys.stderr)
        with leftovers.ScratchLock(scratch):
            for line in leftovers.clean(scratch):
                print(f"cleanup of an earlier run that died: {line}", file=sys.stderr)
            path, result = execution.run_profile(matrix, profile, out, scratch, args.machine, resume,
                                                 os.path.realpath(args.device) if args.device else None,
                                                 machine_name=args.machine_name)
    failed = [c for c in result["cells"] if c["status"] == "failed"]
    for cell in failed:
        print(f"failed: {cell['key']}: {cell['reason']}", file=sys.stderr)
    ok = sum(c["status"] == "ok" for c in result["cells"])
    print(f"{ok} cells ok, {sum(c['status'] == 'skipped' for c in result['cells'])} skipped, {len(failed)} failed "
          f"in {result['wall_seconds'] / 60:.1f} min", file=sys.stderr)
    print(path)
    return 0


def in_guest(args, out: str) -> int:
    """The run in a guest of a stock kernel (run/guest.py); its result and raw bundle are
    written here with what the guest was, and, when it was emulated, every cell flagged so."""
    forwarded = ["--profile", args.profile or "quick"]
    for name in ("matrix", "fs", "workload", "variant", "cell"):
        value = getattr(args, name)
        for item in ([value] if isinstance(value, str) else value or []):
            forwarded += [f"--{name}", item]
    with tempfile.TemporaryDirectory(prefix="fsatlas-guest-") as rwdir:
        info = guest.run(args.kernel, ["run", *forwarded, "--out", rwdir, "--scratch", "/tmp/fsatlas-scratch",
                                       "--machine", args.machine or system.default_machine_label(),
                                       *(["--machine-name", args.machine_name] if args.machine_name else [])],
                         rwdir, timeout=24 * 3600)
        (path,) = resultfile.result_listing(os.path.join(rwdir, "results"))[0]
        result = resultfile.load_result(path)
        result["target"]["guest"] = info
        for cell in result["cells"]:  # emulated where the guest was: flags.derive's rule, as every reader applies it
            if cell["status"] == "ok":
                cell["flags"] = flags.derive(cell, result["target"])
        if os.path.exists(bundle.path(rwdir, result["id"])):
            bundle.write(bundle.read(rwdir, result["id"]), bundle.path(out, result["id"]))
        written = resultfile.write_result(out, result)
    print(written)
    return 0


def _machine_name(text: str) -> str:
    """--machine-name as the schema takes it (1 to machines.NAME_CHARS characters, not blank)."""
    text = " ".join(text.split())
    if not 0 < len(text) <= machines.NAME_CHARS:
        raise argparse.ArgumentTypeError(f"expected 1 to {machines.NAME_CHARS} characters, found {len(text)}")
    return text


def load_resume(out, result_id) -> dict:
    path = os.path.join(out, "results", f"{result_id}.json")
    if not os.path.isfile(path):
        raise UserError("no such result to resume", where=path, field="--resume")
    return resultfile.load_result(path)


def check_same_system(resume: dict, machine: str | None) -> None:
    """A resumed run adds cells to a result that names one system: refuse to go on where any of
    its facts differs here (the machine's label and hardware, its memory to the GiB as
    validation.hardware rounds it, kernel, OS, architecture, virtualization, container) or a
    tool both record has another version, so a result never mixes two systems or two fio
    versions under one id (#60 round 56: only the label and the kernel were compared)."""
    here = system.collect_system(machine)  # the same record a new result would carry
    was = resume["system"]
    for key in RESUME_FACTS:
        if key not in was:  # a file from before the runner recorded it
            continue
        if key == "memory_bytes":
            same = validation.hardware(was) == validation.hardware({**was, key: here.get(key)})
        else:
            same = was.get(key) == here.get(key)
        if not same:
            raise UserError("a resumed run must go on on the system that started it", where=resume["id"],
                            field=f"/system/{key}", expected=repr(was.get(key)), found=repr(here.get(key)))
    tools, recorded = system.collect_tools(), resume.get("tool") or {}
    for name in sorted(tools.keys() & recorded.keys()):  # a tool installed or removed since changes no figure
        if tools[name] != recorded[name]:
            raise UserError("a resumed run must go on with the tools that started it", where=resume["id"],
                            field=f"/tool/{name}", expected=repr(recorded[name]), found=repr(tools[name]))


RESUME_FACTS = ("machine", "kernel", "os", "arch", "cpu_model", "cpu_count", "memory_bytes", "virtualization",
                "container")
