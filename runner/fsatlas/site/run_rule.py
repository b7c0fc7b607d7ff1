"""Which run a figure on a shared page comes from (rankings, filesystem pages, history,
shortcodes, the home page, the compare page, the explorer's first view): one rule, used by every
fold that picks a run (aggregate.NewestCells, knowledge.Rankings, the reference run of aggregate,
FirstRuns for the compare page) and stated on the methodology page from RULE."""
import datetime as dt
from functools import lru_cache

from ..run import matrix as matrix_mod
from . import best_per_key

RULE = ("Each figure comes from the run that measured the most filesystems on its workload with default "
        "options, the newest of those; where that run did not measure a filesystem or an option, from the "
        "newest run that did. A ranking compares the filesystems of one such run, and the home page's chart "
        "shows the complete run that measured the most filesystems, as does the explorer's first view. The compare page "
        "takes each workload of two filesystems from the run this rule picks among those that measured both, and says "
        "where that is not the run another page shows. Every figure names its run. Only cells of the "
        "project's matrix count here; an import's cells, or a sweep of a file's own, are on the result's own page "
        "and in the explorer.")


@lru_cache(maxsize=1)
def matrix_keys() -> frozenset:
    """Every cell key the project's matrix runs, in any profile."""
    m = matrix_mod.load()
    return frozenset(c.key for name in m.profiles for c in m.profile(name).cells)


def shared(key: str) -> bool:
    """Whether a cell key counts on the shared pages (the run rule, the filesystem pages, the
    home page's chart, the compare page's pairs): a key of the project's matrix, in any profile.
    Others (an import's, a sweep of a file's own) are on their result's page and in the
    explorer only: one valid file naming 100 filesystems of its own made the compare page 9,900
    pair tables (13.5 s, 401 MiB and 1.9 MB of page), one of 5,000 cells of its own made
    /filesystems/ext4/ 23.7 MB."""
    return key in matrix_keys()


def measured(digest: dict) -> dict:
    """(workload, dimensions, variant) -> the filesystems this run measured there (ok cells of
    shared keys), sorted."""
    out: dict[tuple, set] = {}
    for cell in digest["cells"]:
        if cell["status"] == "ok" and shared(cell["key"]):
            out.setdefault((cell["workload"], cell["dimensions"], cell["variant"]), set()).add(cell["filesystem"])
    return {group: sorted(members) for group, members in out.items()}


def breadth(digest: dict) -> dict:
    """(workload, dimensions, variant) -> how many filesystems this run measured there (ok
    cells of shared keys): RULE's "most filesystems", one count for all of a workload's metrics."""
    return {group: len(members) for group, members in measured(digest).items()}


def group_name(group: tuple) -> str:
    """A (workload, dimensions, variant) group as a JSON key (a run summary's "measured")."""
    return "|".join(group)


def group_of(name: str) -> tuple:
    """group_name's inverse (no workload, dimension or variant name holds "|": the key's parts)."""
    workload, dims, variant = name.split("|")
    return workload, dims, variant


@lru_cache(maxsize=None)
def moment(created: str) -> str:
    """A run's created time as RULE orders runs, "the newest": UTC to the microsecond in one form,
    so that text order is time order. As written, "…:56.5Z" sorted before "…:56Z" ("." before
    "Z") and "+00:00" beside "Z" by its digits (round 34). Text that is no time stays as it is."""
    try:
        when = dt.datetime.fromisoformat(str(created).replace("Z", "+00:00"))
    except ValueError:
        return str(created)
    if when.tzinfo is not None:
        when = when.astimezone(dt.timezone.utc)
    return when.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def rank(width: int, run: dict) -> tuple:
    """A run's place under RULE for one group it measured `width` filesystems of (run: a
    digest or summary, with its created and id): the larger, the first."""
    return (width, moment(run["created"]), run["id"])


class FirstRuns:
    """The runs RULE picks on the compare page, as a fold over runs (fed one digest at a time,
    with its "measured": group name -> filesystems): per group with default options, for each
    filesystem the run its figure comes from on every page, and for each ordered pair the one
    run that compares them, the first by rank() of the runs that measured both. Its outcome does
    not depend on the order runs come in (best_per_key), so the aggregate keeps it with its
    other folds: a pass over every run's groups took 0.58 s of adding one result to 10,000."""

    def __init__(self, state: list | None = None):
        self.best = best_per_key.Best().restore(state or [])  # (group name, a[, b]) -> run id

    def state(self) -> list:
        return self.best.state()

    def merge(self, state: list) -> None:
        self.best.merge(state)

    def add(self, digest: dict) -> None:
        for name, members in digest["measured"].items():
            if group_of(name)[2] != "defaults":
                continue
            rank_ = rank(len(members), digest)
            for a in members:
                self.best.offer((name, a), rank_, lambda: digest["id"])
                for b in members:
                    if a != b:
                        self.best.offer((name, a, b), rank_, lambda: digest["id"])

    def picks(self) -> dict:
        """(a, b) -> for each workload (workload, dimensions) with default options that some run
        measured both on, [workload, dimensions, "defaults", the run that compares them, the
        one picked for a alone, the one for b alone]: the last two are where each figure comes
        from on every other page. In the order of the groups, then of the pairs."""
        groups: dict[str, dict] = {}
        for key, (_, rid) in self.best.items.items():
            groups.setdefault(key[0], {})[key[1:]] = rid
        out: dict[tuple, list] = {}
        for name in sorted(groups, key=group_of):
            workload, dims, variant = group_of(name)
            picked = groups[name]
            for a, b in sorted(k for k in picked if len(k) == 2):
                out.setdefault((a, b), []).append([workload, dims, variant, picked[(a, b)], picked[(a,)], picked[(b,)]])
        return out


def reference(summaries: list) -> dict | None:
    """The run of the home page's chart and the list pages: the complete run that measured the
    most filesystems, the newest of those (an incomplete one only if no run is complete)."""
    return max(summaries, key=lambda s: (s["complete"], len(s.get("filesystems", [])), moment(s["created"]), s["id"]),
               default=None)
