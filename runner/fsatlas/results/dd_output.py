"""dd's closing summary line, the one thing of dd's output that fsatlas reads: by the dd workload
when it runs, and by the importer and validation when they read a raw file."""
import re

# "4194304 bytes (4.2 MB, 4.0 MiB) copied, 1.23 s, 3.4 MB/s"
SUMMARY = re.compile(r"^(\d+) bytes .*copied, ([0-9.eE+-]+) s,", re.M)


def parse_summary(text: str) -> tuple[int, float]:
    """(bytes, seconds) from dd's closing summary line."""
    match = SUMMARY.search(text)
    if not match:
        raise ValueError("no dd summary line ('N bytes ... copied, S s, ...') in dd output")
    return int(match.group(1)), float(match.group(2))
