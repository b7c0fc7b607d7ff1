"""One figure set an importer read from another tool's output."""
import datetime as dt
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
