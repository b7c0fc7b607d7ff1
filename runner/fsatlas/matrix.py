"""The benchmark matrix: loads the matrix file and expands a profile into cells.

A cell is one (filesystem, mkfs options, mount options, workload, parameters); its key is
the stable string that --cell, --resume, claims and links use.
"""
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import yaml

from .errors import UserError

DEFAULT_MATRIX = resources.files("fsatlas") / "matrix" / "standard.yaml"
_SIZE = re.compile(r"^(\d+)([KMGT]?)$")


def parse_size(text, where: str = "", field_name: str = "") -> int:
    """'512M' -> bytes (powers of 1024)."""
    match = _SIZE.match(str(text).strip())
    if not match:
        raise UserError(where=where, field=field_name, expected="a size such as 512M or 2G",
                        found=repr(text))
    number, suffix = match.groups()
    return int(number) * 1024 ** " KMGT".index(suffix or " ")


@dataclass(frozen=True)
class Cell:
    filesystem: str
    workload: str
    kind: str
    mkfs_options: tuple = ()
    mount_options: tuple = ()
    parameters: dict = field(default_factory=dict, hash=False, compare=False)

    @property
    def key(self) -> str:
        return make_key(self.filesystem, self.mkfs_options, self.mount_options, self.workload)

    @property
    def group(self) -> tuple:
        """Cells of one group share one freshly made filesystem."""
        return (self.filesystem, self.mkfs_options, self.mount_options)


def make_key(filesystem, mkfs_options, mount_options, workload) -> str:
    return "|".join([filesystem, ",".join(mkfs_options) or "-", ",".join(mount_options) or "-",
                     workload])


@dataclass
class Profile:
    name: str
    image_bytes: int
    repetitions: int
    cells: list


@dataclass
class Matrix:
    path: str
    filesystems: dict
    workloads: dict
    profiles: dict

    def profile(self, name: str, filesystems=None, workloads=None) -> Profile:
        if name not in self.profiles:
            raise UserError(where=self.path, field=f"/profiles/{name}",
                            expected="one of " + ", ".join(sorted(self.profiles)), found=repr(name))
        spec = self.profiles[name]
        where = f"/profiles/{name}"
        fs_names = _select(spec["filesystems"], filesystems, "--fs", self.filesystems)
        wl_names = _select(list(spec["workloads"]), workloads, "--workload", self.workloads)
        cells = []
        for fs in fs_names:
            for wl in wl_names:
                workload = self.workloads[wl]
                params = {**workload.get("fio", {}), **(spec["workloads"][wl] or {})}
                cells.append(Cell(fs, wl, workload["kind"], parameters=params))
        return Profile(name, parse_size(spec["image_size"], self.path, where + "/image_size"),
                       int(spec["repetitions"]), cells)


def _select(planned: list, wanted, option: str, known: dict) -> list:
    if not wanted:
        return list(planned)
    for name in wanted:
        if name not in known:
            raise UserError(f"unknown name in {option}", expected="one of " + ", ".join(sorted(known)),
                            found=repr(name))
    return [name for name in planned if name in wanted] + [n for n in wanted if n not in planned]


def load(path: str | None = None) -> Matrix:
    source = Path(path) if path else DEFAULT_MATRIX
    where = str(path) if path else "matrix/standard.yaml"
    try:
        data = yaml.safe_load(source.read_text(encoding="utf-8"))
    except OSError as e:
        raise UserError(f"cannot read the matrix file: {e.strerror}", where=where) from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        at = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise UserError(f"not valid YAML{at}", where=where) from None
    _check_matrix(data, where)
    return Matrix(where, data["filesystems"], data["workloads"], data["profiles"])


def _check_matrix(data, where: str) -> None:
    def need(cond, field_name, expected, found):
        if not cond:
            raise UserError(where=where, field=field_name, expected=expected, found=found)

    need(isinstance(data, dict), "/", "a mapping with filesystems, workloads, profiles",
         type(data).__name__)
    for section in ("filesystems", "workloads", "profiles"):
        need(isinstance(data.get(section), dict) and data[section], f"/{section}",
             "a non-empty mapping", repr(data.get(section))[:60])
    for name, fs in data["filesystems"].items():
        need(isinstance(fs, dict) and isinstance(fs.get("mkfs"), list) and fs["mkfs"],
             f"/filesystems/{name}/mkfs", "a list: the mkfs command", repr(fs)[:60])
    for name, wl in data["workloads"].items():
        need(isinstance(wl, dict) and isinstance(wl.get("kind"), str),
             f"/workloads/{name}/kind", "a workload kind such as fio", repr(wl)[:60])
    for name, prof in data["profiles"].items():
        base = f"/profiles/{name}"
        need(isinstance(prof, dict), base, "a mapping", repr(prof)[:60])
        parse_size(prof.get("image_size"), where, base + "/image_size")
        reps = prof.get("repetitions")
        need(isinstance(reps, int) and not isinstance(reps, bool) and 1 <= reps <= 100,
             base + "/repetitions", "an integer from 1 to 100", repr(reps))
        need(isinstance(prof.get("filesystems"), list) and prof["filesystems"],
             base + "/filesystems", "a non-empty list", repr(prof.get("filesystems")))
        for fs in prof["filesystems"]:
            need(fs in data["filesystems"], base + "/filesystems", "a filesystem defined in /filesystems",
                 repr(fs))
        need(isinstance(prof.get("workloads"), dict) and prof["workloads"], base + "/workloads",
             "a non-empty mapping of workload to parameters", repr(prof.get("workloads"))[:60])
        for wl, params in prof["workloads"].items():
            need(wl in data["workloads"], base + "/workloads", "a workload defined in /workloads",
                 repr(wl))
            need(params is None or isinstance(params, dict), f"{base}/workloads/{wl}",
                 "a mapping of parameters", repr(params)[:60])
