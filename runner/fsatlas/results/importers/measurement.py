"""One figure set an importer read from another tool's output."""
from dataclasses import dataclass, field

# Parameters that describe how one run went rather than name its test (bonnie++'s tests too
# fast to time differ between repetitions of one cell): not compared with a cell's.
NOTES = frozenset({"too_fast_to_measure"})


@dataclass
class Measurement:
    workload: str
    parameters: dict
    values: dict  # metric name -> value in base units
    units: dict  # metric name -> (unit, better)
    dimensions: dict = field(default_factory=dict)
    not_measured: str = ""  # why the tool gave no figure (bonnie++'s +++++), or why the job failed
    failed: bool = False  # the tool reported an error for this test (its cell is "failed")
