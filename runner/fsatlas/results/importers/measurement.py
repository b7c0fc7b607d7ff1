"""One figure set an importer read from another tool's output."""
import datetime as dt
from collections import Counter
from dataclasses import dataclass, field

from .. import resultfile
from ...errors import UserError

# Parameters that describe how one run went rather than name its test (bonnie++'s tests too
# fast to time differ between repetitions of one cell; a fio job's group is where it sat among
# the other jobs of its file): not compared with a cell's.
NOTES = frozenset({"too_fast_to_measure", "group"})


def bounds() -> tuple[int, int]:
    """(cells, samples of a metric) a result may hold, as its schema says: an output past either
    is refused where its runs are read, naming the line past the bound, not after (a bonnie++ CSV
    of 35,678 runs took 19.5 s of CPU, most of it wording the schema's refusal of the result;
    an IOzone table of 80,000 rows 1.1 GB: adversary of #65, round 74)."""
    schema = resultfile.schema()
    return schema["properties"]["cells"]["maxItems"], schema["$defs"]["metric"]["properties"]["samples"]["maxItems"]


class Bounds:
    """The cells of one result and the runs of each, counted as measurements are added: the one
    past either bound (bounds()) is refused where it is read, naming its line where the caller
    knows it (an importer, row by row: IOzone's Children lines past the bound named none,
    adversary of #65, round 78), before the rest is read."""

    def __init__(self):
        (self.most_cells, self.most_runs), self.cells, self.runs = bounds(), set(), Counter()

    def add(self, cell, m: "Measurement", where: str, field: str | None = None) -> None:
        """Counts measurement m, a run of the cell keyed cell."""
        self.cells.add(cell)
        if len(self.cells) > self.most_cells:
            raise UserError(f"more than {self.most_cells:,} cells (tests and parameters)", where=where, field=field,
                            expected=f"at most {self.most_cells:,} cells a result (import the output in parts)")
        for name in m.values:
            self.runs[cell, name] += 1
            if self.runs[cell, name] > self.most_runs:
                raise UserError(f"more than {self.most_runs:,} runs of {m.workload}", where=where, field=field,
                                expected=f"at most {self.most_runs:,} runs of a test: a cell holds at most "
                                         f"{self.most_runs:,} repetitions (import the output in parts)")


@dataclass
class Measurement:
    workload: str
    parameters: dict
    values: dict  # metric name -> value in base units
    units: dict  # metric name -> (unit, better)
    dimensions: dict = field(default_factory=dict)
    not_measured: str = ""  # why the tool gave no figure (bonnie++'s +++++), or why the job failed
    failed: bool = False  # the tool reported an error for this test (its cell is "failed")


EARLIEST = dt.datetime(1990, 1, 1, tzinfo=dt.timezone.utc)  # before every tool imported (IOzone 1991, fio 2005)


def check_time(found: dict, when: dt.datetime, where: str, place: str) -> dict:
    """found, where when (its time) is one a tool could have measured at: from 1990 to now (a
    local time up to 14 hours ahead of UTC, the largest offset there is)."""
    latest = dt.datetime.now(dt.timezone.utc) + (dt.timedelta(hours=14) if not found["utc"] else dt.timedelta(0))
    if not EARLIEST <= when <= latest:
        raise UserError(f"a measured time of {found['time']}", where=where, field=place,
                        expected="a time from 1990 to now (the import)")
    return found
