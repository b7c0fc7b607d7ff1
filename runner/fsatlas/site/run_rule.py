"""Which run a figure on a shared page comes from (rankings, filesystem pages, history,
shortcodes, the home page, the compare page, the explorer's first view): one rule, used by every
fold that picks a run (aggregate.NewestCells, knowledge.Rankings, the reference run of aggregate,
pairs.rule_picks through first_runs) and stated on the methodology page from RULE."""
from functools import lru_cache

from ..run import matrix as matrix_mod

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


def rank(width: int, run: dict) -> tuple:
    """A run's place under RULE for one group it measured `width` filesystems of (run: a
    digest or summary, with its created and id): the larger, the first."""
    return (width, run["created"], run["id"])


def first_runs(summaries: list, group: tuple) -> tuple[dict, dict]:
    """The runs RULE picks for a group among the runs (summaries with "measured", as digest()
    makes them): ({filesystem: the run its figure comes from on every page}, {(a, b): the one
    run that compares them, the first of those that measured both}). One pass over the runs in
    the rule's order, which ends once every filesystem and pair has its run (a run that measured
    them all is the first, as a rule); a search of every run for each filesystem and each pair
    took 6.8 s of every site build for 10,000 runs of make perf's shape (this takes 0.64 s)."""
    name, everyone, holders = group_name(group), set(), []
    for s in summaries:
        members = s.get("measured", {}).get(name)
        if members is not None:
            everyone.update(members)
            holders.append((rank(len(members), s), members, s))
    holders.sort(key=lambda h: h[0], reverse=True)
    count, alone, both = len(everyone), {}, {}
    for _, members, s in holders:
        if len(alone) == count and len(both) == count * (count - 1):
            break
        for a in members:
            alone.setdefault(a, s)
            for b in members:
                if a != b:
                    both.setdefault((a, b), s)
    return alone, both


def reference(summaries: list) -> dict | None:
    """The run of the home page's chart and the list pages: the complete run that measured the
    most filesystems, the newest of those (an incomplete one only if no run is complete)."""
    return max(summaries, key=lambda s: (s["complete"], len(s.get("filesystems", [])), s["created"], s["id"]),
               default=None)
