"""Importers: other tools' outputs turned into fsatlas result files.

Each format module exposes `parse(text, where, workload) -> list[Measurement]` for one input
file. Several input files are repetitions of the same test: measurements with the same
workload and parameters across files become the samples of one cell. The input files are
kept as the raw output of the result, so every figure can be traced back.
"""
from . import bonnie, dd, fio, iozone

FORMATS = {"fio": fio, "bonnie": bonnie, "dd": dd, "iozone": iozone}


def detect(text: str):
    """The format module that reads this output, or None: each says whether the text looks like
    its tool's. fio's JSON is asked first: it is most raw files, and its test is the cheapest."""
    for module in (fio, iozone, bonnie, dd):
        if module.looks_like(text):
            return module
    return None
