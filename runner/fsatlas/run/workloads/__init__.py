"""Workload kinds: each module runs one repetition of a cell and returns its metric values.

Every module exposes `run(cell, ctx) -> dict[str, float]` and `METRICS`, the unit and
direction of each metric it may report. `ctx` (a RepContext) gives the empty working
directory on the filesystem under test, where to write raw output, the time budget and,
for the kinds that need it, the loop image itself.
"""
from . import dd, durability, fio, lifecycle, smallfiles, treecopy

KINDS = {"fio": fio, "dd": dd, "smallfiles": smallfiles, "treecopy": treecopy, "lifecycle": lifecycle,
         "maildelivery": durability.MailDelivery, "sqlitecommits": durability.SqliteCommits}
