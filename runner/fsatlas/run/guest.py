"""A throwaway guest booted from a stock distribution kernel (run/kernels.txt), for what this
machine's own kernel cannot do: its filesystems (jfs, reiserfs, f2fs, nilfs2, hfsplus...).

virtme-ng boots the unpacked kernel in QEMU with the host's root shared read-only, runs one
command and powers off; --rwdir is the one folder the guest writes back. With hardware
virtualization when it works: a /dev/kvm that cannot run a stock kernel (a paravirtual
variant) hangs the guest, so a short boot is tried first and emulation (QEMU's TCG) used when
it does not answer in time. The guest's kernel, the hypervisor and whether it was emulated
are recorded with what it produced.
"""
import os
import shlex
import subprocess
import sys
from functools import lru_cache
from importlib import resources
from pathlib import Path

from ..errors import UserError
from .tools import TOOLS_DIR, in_own_session

KERNELS_DIR = TOOLS_DIR / "kernels"
EMULATED_ENV = "FSATLAS_GUEST_EMULATED"  # set to 1 for the commands of an emulated guest
# a stock kernel boots to a command in 2-5 s with KVM, 16-20 s emulated. Four times the slowest
# KVM boot: where /dev/kvm cannot run a stock kernel, the trial's QEMU spins a core until then; a
# trial that a loaded machine makes miss it only costs speed (the guest is emulated, and says so)
KVM_TRIAL_S = 20
MEMORY = "3G"  # loop images of 512 MiB in the guest's RAM-backed /tmp, one or two at a time


def kernels() -> dict:
    """name -> {package, version, sha256, image}, from run/kernels.txt."""
    out = {}
    for line in (resources.files("fsatlas") / "run" / "kernels.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, package, version, sha256, image, *path = line.split()
            out[name] = {"package": package, "version": version, "sha256": sha256, "image": image, "path": path}
    return out


def kernel_image(name: str) -> Path:
    known = kernels()
    if name not in known:
        raise UserError("no such kernel", field="--kernel", expected=", ".join(sorted(known)), found=name)
    image = KERNELS_DIR / name / known[name]["image"]
    if not image.is_file():
        raise UserError(f"the kernel {name} is not unpacked (make setup fetches it)", where=str(image))
    return image


def _vng() -> str:
    vng = Path(sys.executable).parent / "vng"
    if not vng.exists():
        raise UserError("virtme-ng is not installed in this environment (make setup installs it)", where=str(vng))
    return str(vng)


def _boot(image: Path, command: str, rwdir: str, emulated: bool, timeout: float) -> subprocess.CompletedProcess:
    argv = [_vng(), "--run", str(image), "--memory", MEMORY, "--rwdir", rwdir, "--exec", command]
    if emulated:
        # one emulated CPU: a second's TCG thread fights the host's other work for a core. Measured
        # on 2 cores with a jfs probe guest: beside one busy core 194 s with vng's default of two
        # CPUs, 50 s with one; with the host idle 62 s and 57 s (an emulated guest's speed is never
        # a figure: its cells are flagged emulated)
        argv[1:1] = ["--disable-kvm", "--cpus", "1"]
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}"}  # virtme-run
    # vng starts a shell, virtme-run and QEMU: on a timeout (the KVM trial's, where /dev/kvm cannot
    # boot a stock kernel) or an interrupt all of them are killed; subprocess.run's timeout killed
    # vng alone and left QEMU spinning at 100 % of a core (four such were found after a day's runs).
    return in_own_session(argv, timeout, env=env)


@lru_cache(maxsize=None)
def emulated(image: Path) -> bool:
    """Whether guests must be emulated here: True unless a guest with KVM answers in time."""
    if not os.access("/dev/kvm", os.R_OK | os.W_OK):
        return True
    try:
        done = _boot(image, "echo fsatlas-kvm-ok", "/tmp", False, KVM_TRIAL_S)
    except subprocess.TimeoutExpired:
        return True
    return "fsatlas-kvm-ok" not in done.stdout


def run(name: str, argv: list[str], rwdir: str, timeout: float) -> dict:
    """Runs argv (an fsatlas command, with this environment's Python) as root in a guest of the
    kernel `name`; returns what the guest was: {kernel, package, hypervisor, emulated}."""
    image = kernel_image(name)
    is_emulated = emulated(image)
    # an emulated guest's commands are told so: its devices run at the emulator's speed
    command = "modprobe loop; " + (f"{EMULATED_ENV}=1 " if is_emulated else "") + \
        shlex.join([sys.executable, "-m", "fsatlas.cli", *argv])
    try:
        done = _boot(image, command, rwdir, is_emulated, timeout)
    except subprocess.TimeoutExpired:
        raise UserError(f"the guest did not finish within {timeout:.0f} s", where=name) from None
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-5:]
        raise UserError(f"the guest's command failed (exit {done.returncode}): {' | '.join(tail)[-600:]}", where=name)
    sys.stderr.write(done.stderr)
    known = kernels()[name]
    return {"kernel": name, "package": f"{known['package']} {known['version']}",
            "hypervisor": "QEMU (virtme-ng)", "accelerator": "TCG (emulated)" if is_emulated else "KVM",
            "emulated": is_emulated}
