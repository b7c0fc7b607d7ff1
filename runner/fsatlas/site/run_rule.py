"""Which run a figure on a shared page comes from (rankings, filesystem pages, history,
shortcodes, the home page): one rule, used by every fold that picks a run (aggregate.NewestCells,
knowledge.Rankings, the reference run of aggregate) and stated on the methodology page from RULE."""

RULE = ("Each figure comes from the run that measured the most filesystems on its workload with default "
        "options, the newest of those; where that run did not measure a filesystem or an option, from the "
        "newest run that did. A ranking compares the filesystems of one such run, and the home page's chart "
        "shows the complete run that measured the most filesystems. Every figure names its run.")


def breadth(digest: dict) -> dict:
    """(workload, dimensions, variant) -> how many filesystems this run measured there (ok
    cells): RULE's "most filesystems", one count for all of a workload's metrics."""
    out: dict[tuple, set] = {}
    for cell in digest["cells"]:
        if cell["status"] == "ok":
            out.setdefault((cell["workload"], cell["dimensions"], cell["variant"]), set()).add(cell["filesystem"])
    return {group: len(members) for group, members in out.items()}


def reference(summaries: list) -> dict | None:
    """The run of the home page's chart and the list pages: the complete run that measured the
    most filesystems, the newest of those (an incomplete one only if no run is complete)."""
    return max(summaries, key=lambda s: (s["complete"], len(s.get("filesystems", [])), s["created"], s["id"]),
               default=None)
