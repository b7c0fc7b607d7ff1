"""Workloads that wait for durability, as mail servers and databases do: each operation ends
only when the kernel says its data is on the device (fsync), so they measure what journaling
modes, barriers and the commit interval trade, which O_DIRECT streaming never asks for.

- mail-delivery (kind maildelivery): a maildir delivery, as Postfix and Dovecot do it: create a
  file in tmp/, write the message, fsync it, rename it into new/, fsync new/. Deliveries/s.
- sqlite-commits (kind sqlitecommits): Python's sqlite3 with synchronous=FULL (its default
  rollback journal), one INSERT per transaction. Commits/s.
The raw file keeps the count and the seconds, so validate recomputes the rate.
"""
import json
import os
import sqlite3
import time

from ...results import metrics
from .context import CpuMeter


def _rate(ctx, name: str, count: int, seconds: float, cpu: dict, **facts) -> dict:
    with open(ctx.raw(".json"), "w", encoding="utf-8") as f:
        json.dump({"rate": name, "count": count, "seconds": seconds, "cpu": cpu, **facts}, f, indent=1)
    return {name: count / seconds, **cpu}


class MailDelivery:
    METRICS = metrics.MAIL_DELIVERY

    @staticmethod
    def run(cell, ctx) -> dict:
        count, size = int(cell.parameters.get("messages", 200)), int(cell.parameters.get("message_size", 4096))
        tmp, new = os.path.join(ctx.workdir, "tmp"), os.path.join(ctx.workdir, "new")
        os.mkdir(tmp)
        os.mkdir(new)
        body = b"x" * size
        deadline = time.monotonic() + ctx.timeout
        new_fd = os.open(new, os.O_RDONLY | os.O_DIRECTORY)
        try:
            with CpuMeter(ctx) as cpu:
                start = time.perf_counter()
                for i in range(count):
                    name = f"{i}.M{i}P{os.getpid()}.fsatlas"
                    fd = os.open(os.path.join(tmp, name), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                    try:
                        os.write(fd, body)
                        os.fsync(fd)
                    finally:
                        os.close(fd)
                    os.rename(os.path.join(tmp, name), os.path.join(new, name))
                    os.fsync(new_fd)
                    if i % 64 == 0 and time.monotonic() > deadline:
                        raise TimeoutError(f"mail-delivery exceeded its budget of {ctx.timeout:.0f} s")
                seconds = time.perf_counter() - start
        finally:
            os.close(new_fd)
        return _rate(ctx, "deliveries_per_s", count, seconds, cpu.values, message_size=size)


class SqliteCommits:
    METRICS = metrics.SQLITE_COMMITS

    @staticmethod
    def run(cell, ctx) -> dict:
        count = int(cell.parameters.get("commits", 200))
        path = os.path.join(ctx.workdir, "commits.sqlite")
        db = sqlite3.connect(path, isolation_level=None)  # autocommit: each INSERT is a transaction
        try:
            db.execute("PRAGMA synchronous=FULL")
            journal = db.execute("PRAGMA journal_mode").fetchone()[0]
            db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, payload BLOB)")
            payload = b"x" * 100
            deadline = time.monotonic() + ctx.timeout
            with CpuMeter(ctx) as cpu:
                start = time.perf_counter()
                for i in range(count):
                    db.execute("INSERT INTO t (payload) VALUES (?)", (payload,))
                    if i % 64 == 0 and time.monotonic() > deadline:
                        raise TimeoutError(f"sqlite-commits exceeded its budget of {ctx.timeout:.0f} s")
                seconds = time.perf_counter() - start
        finally:
            db.close()
        return _rate(ctx, "commits_per_s", count, seconds, cpu.values, journal_mode=journal,
                     sqlite=sqlite3.sqlite_version)
