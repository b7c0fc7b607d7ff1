"""Workload kinds: each module runs one repetition of a cell and returns its metric values.

Every module exposes `run(cell, workdir, raw_path, timeout) -> dict[str, float]` and
`METRICS`, the unit and direction of each metric it reports.
"""
from . import fio

KINDS = {"fio": fio}
