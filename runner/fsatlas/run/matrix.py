"""The benchmark matrix: loads the matrix file and expands a profile into cells.

A cell is one (filesystem, mkfs options, mount options, workload, parameters); its key,
`fs|mkfs|mount|workload[|dimension=value,...]`, is the stable string that --cell, --resume,
claims and links use. Cells that share (filesystem, mkfs, mount) share one fresh filesystem.
"""
import itertools
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import yaml

from .. import safe_yaml
from ..errors import UserError
from .sizes import parse_size
from ..results import flags

DEFAULT_MATRIX = resources.files("fsatlas") / "run" / "matrix" / "standard.yaml"
# Profile keys that steer the runner rather than the workload.
RUNNER_KEYS = {"budget_s"}
DEFAULT_BUDGET_S = 600


def make_key(filesystem, mkfs_options, mount_options, workload, dimensions=None) -> str:
    parts = [filesystem, ",".join(mkfs_options) or "-", ",".join(mount_options) or "-", workload]
    if dimensions:
        parts.append(",".join(f"{k}={v}" for k, v in dimensions.items()))
    return "|".join(parts)


FLUSHES = ("per-operation", "at-end", "none")  # whether a workload waits for durability (see standard.yaml)
IO = ("device", "page-cache")  # where a workload's figure is made (see standard.yaml; results/flags.page_cache)


@dataclass(frozen=True)
class Cell:
    filesystem: str
    workload: str
    kind: str
    mkfs_options: tuple = ()
    mount_options: tuple = ()
    variant: str = "defaults"
    parameters: dict = field(default_factory=dict, hash=False, compare=False)
    dimensions: dict = field(default_factory=dict, hash=False, compare=False)
    flags: tuple = ()
    budget_s: float = DEFAULT_BUDGET_S
    primary: str = ""
    baseline: str = ""  # the raw-device job it is measured against (results/flags.baseline_name), if any

    @property
    def key(self) -> str:
        return make_key(self.filesystem, self.mkfs_options, self.mount_options, self.workload,
                        self.dimensions)

    @property
    def group(self) -> tuple:
        return (self.filesystem, self.mkfs_options, self.mount_options)


@dataclass
class Profile:
    name: str
    image_bytes: int
    repetitions: int
    adaptive: bool
    cells: list
    interleave: bool = False  # a filesystem's variants run in rounds, one repetition each (execution)

    def subset(self, cells) -> "Profile":
        return Profile(self.name, self.image_bytes, self.repetitions, self.adaptive, list(cells), self.interleave)


@dataclass
class Matrix:
    path: str
    filesystems: dict
    workloads: dict
    variants: dict
    profiles: dict

    def profile(self, name: str, filesystems=None, workloads=None, variants=None, keys=None) -> Profile:
        if name not in self.profiles:
            raise UserError(where=self.path, field=f"/profiles/{name}",
                            expected="one of " + ", ".join(sorted(self.profiles)), found=repr(name))
        spec = self.profiles[name]
        fs_names = _select(spec["filesystems"], filesystems, "--fs", self.filesystems)
        wl_names = _select(list(spec["workloads"]), workloads, "--workload", self.workloads)
        for wl in wl_names:  # its sizes and budget are the profile's: a workload it does not list has none
            if wl not in spec["workloads"]:
                raise UserError(f"workload {wl!r} (--workload) is not part of profile {name!r}", where=self.path,
                                field=f"/profiles/{name}/workloads", expected="one of " + ", ".join(spec["workloads"]),
                                found=repr(wl))
        planned_variants = list(self.variants) if spec.get("variants") == "all" else spec.get("variants") or []
        named = [v for v in variants or [] if v != "defaults"]
        # --variant defaults alone is the cells without a variant, not every variant planned ('defaults' for none)
        variant_names = ["defaults"] + (_select(planned_variants, named, "--variant", {"defaults": {}, **self.variants})
                                        if named or not variants else [])
        if variants and "defaults" not in variants:
            variant_names.remove("defaults")
        cells = []
        for fs in fs_names:
            for variant in variant_names:
                v = self.variants.get(variant, {})
                if variant != "defaults" and fs not in v["filesystems"]:
                    continue
                for wl in wl_names:
                    if variant != "defaults" and wl not in v["workloads"]:
                        continue
                    cells += self._cells(fs, variant, v, wl, spec["workloads"][wl] or {})
        if keys:
            known = {c.key for c in cells}
            for key in keys:
                if key not in known:
                    raise UserError("unknown cell key in --cell", expected=f"a key listed by `fsatlas plan --profile {name}`",
                                    found=repr(key))
            cells = [c for c in cells if c.key in keys]
        return Profile(name, parse_size(spec["image_size"], self.path, f"/profiles/{name}/image_size"),
                       int(spec["repetitions"]), bool(spec.get("adaptive", False)), cells,
                       bool(spec.get("interleave", False)))

    def _cells(self, fs, variant, v, wl, profile_params) -> list:
        workload = self.workloads[wl]
        params = {**workload.get("fio", {}), **workload.get("parameters", {}),
                  **{k: val for k, val in profile_params.items() if k not in RUNNER_KEYS}}
        if workload["kind"] == "fio" and not self.filesystems[fs].get("direct_io", True):
            # no O_DIRECT (FUSE): buffered I/O ending with an fsync still reaches the device
            params.update(direct=0, end_fsync=1)
        dims = workload.get("dimensions", [])
        axes = [[(d, x) for x in (params[d] if isinstance(params.get(d), list) else [params.get(d)])]
                for d in dims]
        cells = []
        for combo in itertools.product(*axes):
            values = dict(combo)
            cells.append(Cell(
                filesystem=fs, workload=wl, kind=workload["kind"],
                mkfs_options=tuple(v.get("mkfs", [])), mount_options=tuple(v.get("mount", [])),
                variant=variant, parameters={**params, **values}, dimensions=values,
                flags=("not-striped",) if v.get("striped") else (),
                budget_s=float(profile_params.get("budget_s", DEFAULT_BUDGET_S)),
                primary=workload.get("primary", ""),
                baseline=flags.baseline_name(wl, make_key(fs, v.get("mkfs", []), v.get("mount", []), wl, values))
                if workload.get("baseline") else ""))
        return cells


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
    where = str(path) if path else "run/matrix/standard.yaml"
    try:
        data = safe_yaml.load(source.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise UserError(f"cannot read the matrix file: {getattr(e, 'strerror', None) or e}", where=where) from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        at = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(e, "problem", None)
        raise UserError(f"not valid YAML{at}" + (f": {problem}" if problem else ""), where=where) from None
    _check_matrix(data, where)
    return Matrix(where, data["filesystems"], data["workloads"], data.get("variants") or {}, data["profiles"])


def _check_matrix(data, where: str) -> None:
    from .workloads import KINDS

    def need(cond, field_name, expected, found):
        if not cond:
            raise UserError(where=where, field=field_name, expected=expected, found=str(found)[:80])

    def is_list_of_str(x):
        return isinstance(x, list) and all(isinstance(i, str) and i for i in x)

    need(isinstance(data, dict), "/", "a mapping with filesystems, workloads, profiles", type(data).__name__)
    for section in ("filesystems", "workloads", "profiles"):
        need(isinstance(data.get(section), dict) and data[section], f"/{section}", "a non-empty mapping",
             repr(data.get(section)))
    for name, fs in data["filesystems"].items():
        need(isinstance(name, str) and re.match(r"^[a-z0-9][a-z0-9_+.-]*$", name), "/filesystems",
             "a lower-case filesystem name", repr(name))
        need(isinstance(fs, dict) and is_list_of_str(fs.get("mkfs")) and fs["mkfs"],
             f"/filesystems/{name}/mkfs", "a list of strings: the mkfs command", repr(fs))
        need(fs.get("driver", "kernel") in ("kernel", "fuse"), f"/filesystems/{name}/driver",
             "kernel or fuse", repr(fs.get("driver")))
        need(is_list_of_str(fs.get("workload_mount", [])), f"/filesystems/{name}/workload_mount",
             "a list of mount options", repr(fs.get("workload_mount")))
    for name, wl in data["workloads"].items():
        need(isinstance(name, str) and re.match(r"^[a-z0-9][a-z0-9-]*$", name), "/workloads",
             "a lower-case workload name", repr(name))
        need(isinstance(wl, dict) and wl.get("kind") in KINDS, f"/workloads/{name}/kind",
             "one of " + ", ".join(KINDS), repr(wl.get("kind") if isinstance(wl, dict) else wl))
        for sub in ("fio", "parameters"):
            need(isinstance(wl.get(sub, {}), dict), f"/workloads/{name}/{sub}", "a mapping", repr(wl.get(sub)))
        need(is_list_of_str(wl.get("dimensions", [])), f"/workloads/{name}/dimensions", "a list of parameter names",
             repr(wl.get("dimensions")))
        need(wl.get("flushes", "none") in FLUSHES, f"/workloads/{name}/flushes", "one of " + ", ".join(FLUSHES),
             repr(wl.get("flushes")))
        need(wl.get("io", "device") in IO, f"/workloads/{name}/io", "one of " + ", ".join(IO), repr(wl.get("io")))
    variants = data.get("variants") or {}
    need(isinstance(variants, dict), "/variants", "a mapping of variant name to options", repr(variants))
    for name, v in variants.items():
        base = f"/variants/{name}"
        need(isinstance(v, dict) and name != "defaults", base, "a mapping (and not the name 'defaults')", repr(v))
        for sub in ("mkfs", "mount"):
            need(is_list_of_str(v.get(sub, [])), f"{base}/{sub}", "a list of option strings", repr(v.get(sub)))
        need(is_list_of_str(v.get("filesystems")) and all(f in data["filesystems"] for f in v["filesystems"]),
             f"{base}/filesystems", "a list of filesystems defined in /filesystems", repr(v.get("filesystems")))
        need(is_list_of_str(v.get("workloads")) and all(w in data["workloads"] for w in v["workloads"]),
             f"{base}/workloads", "a list of workloads defined in /workloads", repr(v.get("workloads")))
    for name, prof in data["profiles"].items():
        base = f"/profiles/{name}"
        need(isinstance(prof, dict), base, "a mapping", repr(prof))
        parse_size(prof.get("image_size"), where, base + "/image_size")
        reps = prof.get("repetitions")
        need(isinstance(reps, int) and not isinstance(reps, bool) and 1 <= reps <= 100,
             base + "/repetitions", "an integer from 1 to 100", repr(reps))
        need(is_list_of_str(prof.get("filesystems")) and prof["filesystems"], base + "/filesystems",
             "a non-empty list", repr(prof.get("filesystems")))
        for fs in prof["filesystems"]:
            need(fs in data["filesystems"], base + "/filesystems", "a filesystem defined in /filesystems", repr(fs))
        pv = prof.get("variants", [])
        need(pv == "all" or (is_list_of_str(pv) and all(x in variants for x in pv)) or pv == [],
             base + "/variants", "'all' or a list of variants defined in /variants", repr(pv))
        need(isinstance(prof.get("workloads"), dict) and prof["workloads"], base + "/workloads",
             "a non-empty mapping of workload to parameters", repr(prof.get("workloads")))
        for wl, params in prof["workloads"].items():
            need(wl in data["workloads"], base + "/workloads", "a workload defined in /workloads", repr(wl))
            need(params is None or isinstance(params, dict), f"{base}/workloads/{wl}",
                 "a mapping of parameters", repr(params))
            budget = (params or {}).get("budget_s", DEFAULT_BUDGET_S)
            need(isinstance(budget, (int, float)) and not isinstance(budget, bool) and budget > 0,
                 f"{base}/workloads/{wl}/budget_s", "a number of seconds above 0", repr(budget))
