"""Making and mounting filesystems: availability checks, mkfs, mount, read-back of options."""
import os
import shutil
import subprocess

from . import evidence, leftovers, tools


# Programs no registry this project reaches has a build of, with why; run/packages.txt pins those
# that have one (hfsprogs). A filesystem that needs one is skipped saying exactly that.
NO_BUILD = {"bcachefs": "bcachefs-tools, which holds it, has no build this project can install: Debian's archive "
                        "has none (no bcachefs-tools in bookworm's index, and none in its pool: "
                        "pool/main/b/bcachefs-tools/ answered 404 on 2026-11-28), and no other registry "
                        "reached here ships it"}


def _kernel_filesystems() -> set:
    try:
        with open("/proc/filesystems", encoding="utf-8") as f:
            return {line.split()[-1] for line in f if line.strip()}
    except OSError:
        return set()


def unavailable_reason(name: str, spec: dict) -> str:
    """Why this machine cannot run the filesystem, or '' when it can. The kernel comes first:
    without it, installing the tools would not help."""
    reasons = []
    kernel_fs = spec.get("kernel_fs", name)
    if kernel_fs not in _kernel_filesystems():
        if shutil.which("modprobe"):  # the module may be loadable though not loaded yet
            subprocess.run(["modprobe", "-q", kernel_fs], capture_output=True, timeout=30)
        if kernel_fs not in _kernel_filesystems():
            reasons.append(f"the running kernel ({os.uname().release}) has no {kernel_fs} support")
    for tool in [spec["mkfs"][0]] + ([f"mount.{spec['mount_type']}"] if spec.get("driver") == "fuse" else []):
        if not (shutil.which(tool) or shutil.which(tool, path="/sbin:/usr/sbin:/bin:/usr/bin")):
            reasons.append(f"{tool} is not installed" + (f" ({NO_BUILD[tool]})" if tool in NO_BUILD else ""))
    return "; ".join(reasons)


def mkfs(spec: dict, device: str, options) -> None:
    tools.run([*spec["mkfs"], *options, device], 600, "mkfs")


def mount_argv(spec: dict, device: str, mountpoint: str, options=()) -> list[str]:
    """The mount command of a filesystem of the matrix, with these options."""
    argv = ["mount", "-t", spec.get("mount_type", spec.get("kernel_fs", "")) or "auto"]
    if options:
        argv += ["-o", ",".join(options)]
    return [*argv, device, mountpoint]


def mount(spec: dict, device: str, mountpoint: str, options) -> str:
    """Mounts and returns the options the kernel actually applied (from /proc/self/mounts)."""
    before = evidence.device_users(device)
    tools.run(mount_argv(spec, device, mountpoint, options), 600, "mount")
    evidence.mounted(device, before)  # a FUSE daemon it started is the workload's helper
    return effective_options(mountpoint)


def _mounted_at(mountpoint: str) -> list[str]:
    """The /proc/self/mounts fields (source, mount point, type, options, ...) of the mount on
    mountpoint itself, or []."""
    real = os.path.realpath(mountpoint)
    found = [fields for fields in leftovers.mounts() if fields[1] == real]
    return found[-1] if found else []  # the last mount on a path is the visible one


def effective_options(mountpoint: str) -> str:
    fields = _mounted_at(mountpoint)
    return fields[3] if fields else ""


def driver(spec: dict, device: str, mountpoint: str) -> str:
    """The driver that mounted this filesystem, as /proc/self/mounts and sysfs tell: ext4's
    driver also registers the types ext2 and ext3 (fs/ext4/super.c, CONFIG_EXT4_USE_FOR_EXT2)
    and makes /sys/fs/ext4/<device> for every filesystem it mounts, which the ext2 driver never
    does; a FUSE mount's type is fuseblk, and the program is the matrix's mount_type (ntfs-3g);
    otherwise the type the kernel mounted (ntfs3, xfs, ...)."""
    fields = _mounted_at(mountpoint)
    kind = fields[2] if fields else ""
    if kind in ("fuseblk", "fuse"):
        return f"{spec.get('mount_type', kind)} (FUSE)"
    if kind in ("ext2", "ext3", "ext4") and os.path.isdir(os.path.join("/sys/fs/ext4", os.path.basename(os.path.realpath(device)))):
        return "ext4"
    return kind


def is_mounted(path: str) -> bool:
    return bool(_mounted_at(path))


def unmount(mountpoint: str) -> None:
    if is_mounted(mountpoint):
        leftovers.thaw(mountpoint)
        subprocess.run(["umount", mountpoint], capture_output=True, timeout=120)
        if is_mounted(mountpoint):
            subprocess.run(["umount", "-l", mountpoint], capture_output=True, timeout=60)
