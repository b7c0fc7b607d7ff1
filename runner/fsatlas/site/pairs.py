"""The compare page's figures: for two filesystems, their default cells in one run, every
metric compared by the comparison module (results/comparison, through report.within: Welch's
or the paired test, the ratio with its interval, Benjamini-Hochberg across the table), for the
runs that measured both, in the order of the site's run rule (site/run_rule.py).

Across two runs only when the reader asks, behind a warning: a ratio across runs compares
machines and kernels as much as filesystems, and one run a side is no design to test (the
comparison module's design(): across_runs), so no row of it is tested. What that view needs of
each side is one file per filesystem, static/compare/sides/<fs>.json: the filesystem's default
figures in each of its first runs, with the raw device's figure on the same job in that run,
so the page can set both devices side by side and give the device-relative ratio.

One file per ordered pair, static/compare/<a>--<b>.json (b against a, as the module compares
them: turning a table round by hand would be a second way to compute it), fetched when the
reader picks the pair; the site's default pair is also in aggregates/compare.json, so the page
holds its table without a script and search finds it.
"""
import html
import itertools

from ..errors import UserError
from ..results import comparison, metrics
from ..results import flags as flags_mod
from . import knowledge as knowledge_mod, report, run_rule

# The runs of a pair (or of one filesystem, for the view across runs) whose tables the page
# holds: the first by the run rule. Every run has its cost: 0.6 ms of CPU a compared row, and the
# bytes of its table in the pair's file, which without a bound grew to 3.7 MB at 1,000 results
# and the tables' cache to every pair's. The other runs that measured both are listed ("also"),
# so an address naming one is told where its figures are (its result page), not that it did not
# measure them.
RUNS_PER_PAIR = 5
DEFAULT_PAIR = ("ext4", "xfs")  # the page's first view, where some run measured both
FOLDER = "compare"
SIDES = "sides"  # FOLDER/SIDES/<fs>.json: one filesystem's figures in its runs, for the view across runs


def also(summary: dict) -> dict:
    """A run listed without its table (beyond RUNS_PER_PAIR): what names it to the reader, its
    date as /results/ gives it (when it was measured; for an import whose output states none,
    when it was imported) and its machine's name."""
    created = summary.get("created", "")
    return {"id": summary["id"], "profile": summary.get("profile", ""), "created": created,
            "date": summary.get("measured_on") or f"not stated (imported {created[:10]})",
            "machine_name": summary.get("machine_name", "")}


def pair_name(a: str, b: str) -> str:
    return f"{a}--{b}"


def _by_rule(summaries: list) -> list:
    """The runs in the order of the site's run rule: the most filesystems, then the newest."""
    return sorted(summaries, key=lambda s: (len(s.get("filesystems", [])), run_rule.moment(s["created"]), s["id"]),
                  reverse=True)


def runs_of_pairs(summaries: list, picks: dict | None = None) -> dict:
    """(a, b) -> the ids of every run whose default cells measured both (the first RUNS_PER_PAIR
    get a table, the others are listed: an address naming the sixth run of a pair was told it
    had not measured the pair): first the run the site's rule picks for every workload of the
    pair where it picks one run (picks, as run_rule.FirstRuns.picks gives them), then the
    others by the most filesystems, then the newest; each summary lists the filesystems it
    measured. Both orders are listed: each is compared as the reader reads it (B against A)."""
    out: dict[tuple, list] = {}
    for s in _by_rule(summaries):
        for pair in itertools.permutations(sorted(s.get("filesystems", [])), 2):
            out.setdefault(pair, []).append(s["id"])
    for pair, chosen in (picks or {}).items():
        sole = {p[3] for p in chosen}
        if len(sole) == 1 and pair in out:
            rid = sole.pop()
            out[pair] = [rid] + [i for i in out[pair] if i != rid]
    return out


RULE_ID = "~rule"  # the table of the site's rule where it takes a pair's workloads from several runs (no run id has "~")


def runs_of_filesystems(summaries: list) -> dict:
    """fs -> the ids of every run whose default cells measured it, by the run rule (the first
    RUNS_PER_PAIR get their figures in the view across runs, the others are listed)."""
    out: dict[str, list] = {}
    for s in _by_rule(summaries):
        for fs in s.get("filesystems", []):
            out.setdefault(fs, []).append(s["id"])
    return out


def side(fs: str, d: dict) -> dict:
    """One filesystem's default figures in the run of digest d, for the view across two runs:
    each (workload, measure) with n, the mean in the site's units, and the raw device's mean on
    the same job in that run (None where the run has no baseline of that measure) with what
    weakens it: an image not written before the baseline ran, or a spread over
    flags.RSD_LIMIT_PCT."""
    rows = []
    for c in d["cells"]:
        if c["status"] != "ok" or c["filesystem"] != fs or c["variant"] != "defaults":
            continue
        job = (d.get("baseline") or {}).get(flags_mod.baseline_name(c["workload"], c["key"]), {})
        key = c["workload"] + (f"|{c['dimensions']}" if c["dimensions"] else "")
        for name, m in c["metrics"].items():
            device = job.get(name)
            device = device if device and device["unit"] == m["unit"] else None
            weak = [] if not device else \
                (["image not written before the baseline"] if not d.get("baseline_written") else []) + \
                ([f"baseline RSD {device['rsd_pct']:.1f} %"] if (device["rsd_pct"] or 0) > flags_mod.RSD_LIMIT_PCT
                 else ["baseline spread not recorded"] if device["rsd_pct"] is None else [])
            rows.append({"key": key, "metric": name, "workload": key.replace("|", " "), "label": metrics.label(name),
                         "better": _better(m["better"]),
                         "n": m["n"], "mean": m["mean"], "shown": knowledge_mod.display(m["mean"], m["unit"]),
                         "device": device["mean"] if device else None,
                         "device_shown": knowledge_mod.display(device["mean"], m["unit"]) if device else None,
                         "device_weak": "; ".join(weak), "flags": c["flags"]})
    rows.sort(key=_order)
    return {"id": d["id"], "created": d["created"], "machine": d["machine"], "machine_name": d["summary"]["machine_name"],
            "profile": d["summary"]["profile"], "system": d["summary"]["system"], "factors": d["factors"], "rows": rows}


def across_runs() -> dict:
    """What the comparison module decides for one filesystem's run against another's (the view
    across two runs): comparison.design of one run a side, so the page's rows say its "why"
    ("not tested: one run per side"); the page marks which of comparison.FACTORS (each run's
    `factors`, strings) differ between the two runs the reader picked."""
    same = {k: "" for k in comparison.FACTORS}
    plan = comparison.design([{"run": "A", **same}], [{"run": "B", **same}])
    return {"design": plan["design"], "tested": plan["tested"], "why": plan["why"], "factors": list(comparison.FACTORS)}


def run_table(a: str, b: str, d: dict) -> dict | None:
    """b against a in the run of digest d: the run and its table, or None where the two share
    no workload with a figure on both sides."""
    try:
        rows = report.within(d, a, b, all_metrics=True, run_of=lambda cell: d["factors"])
    except UserError:
        return None
    flagged = {(c["filesystem"], c["workload"] + (f"|{c['dimensions']}" if c["dimensions"] else "")): c["flags"]
               for c in d["cells"] if c["variant"] == "defaults" and c["filesystem"] in (a, b)}
    shown = [_row(r, b, flagged.get((a, r["key"]), []) + flagged.get((b, r["key"]), [])) for r in sorted(rows, key=_order)]
    run = {"id": d["id"], "created": d["created"], "machine": d["machine"], "profile": d["summary"]["profile"],
           "system": d["summary"]["system"]}
    return {**run, "table": table_html(a, b, run, shown)}


def needs_rule_table(chosen: list) -> bool:
    """Whether a pair's picks (run_rule.FirstRuns.picks) need rule_table rather than one run's
    table first: they take workloads from several runs, or a figure from another run than the
    other pages."""
    return len({p[3] for p in chosen}) > 1 or any(p[3] != p[4] or p[3] != p[5] for p in chosen)


def rule_table(a: str, b: str, picks: list, digests: dict) -> dict | None:
    """b against a by the site's rule where it takes the pair's workloads from several runs:
    each workload's two cells from the run FirstRuns.picks names for it (both cells of a row always
    from one run); digests: the digest of each run named. Each row is the row of its own run's
    table (run_table: the rows of that run adjusted together, as `fsatlas compare R --a a --b b`
    adjusts them), never adjusted again across this table's runs: one comparison of two cells
    has one p and one verdict wherever it is shown (#60 round 51: Benjamini-Hochberg across the
    mixed table gave a row "better" that the run's own table, the CLI and the explorer called
    inconclusive). A row whose figure of a or b comes from another run on the other pages (that
    run did not measure the other filesystem there) says so."""
    chosen = {(w, d): (rid, ra, rb) for w, d, _, rid, ra, rb in picks}
    of_row = {_key({"workload": w, "dimensions": d}): runs for (w, d), runs in chosen.items()}
    rows = []
    for rid in sorted({runs[0] for runs in chosen.values()}):
        d = digests[rid]
        try:
            own = report.within(d, a, b, all_metrics=True, run_of=lambda cell, d=d: d["factors"])
        except UserError:
            continue
        rows += [r for r in own if of_row.get(r["key"], (None,))[0] == rid]
    if not rows:
        return None
    cells = [{**c, "run": rid} for rid, d in digests.items() for c in d["cells"]
             if c["variant"] == "defaults" and c["filesystem"] in (a, b)
             and chosen.get((c["workload"], c["dimensions"]), (None,))[0] == rid]
    flagged = {(c["filesystem"], _key(c)): c["flags"] for c in cells}
    shown = []
    for r in sorted(rows, key=_order):
        rid, ra, rb = of_row[r["key"]]
        elsewhere = [f"{fs}'s figure on the other pages is from run {other}, which did not measure {them} here"
                     for fs, other, them in ((a, ra, b), (b, rb, a)) if other != rid]
        shown.append({**_row(r, b, flagged.get((a, r["key"]), []) + flagged.get((b, r["key"]), [])),
                      "run": rid, "elsewhere": "; ".join(elsewhere)})
    used = sorted({r["run"] for r in shown}, key=lambda rid: (-sum(r["run"] == rid for r in shown), rid))
    runs = [{"id": rid, "created": digests[rid]["created"], "machine": digests[rid]["machine"],
             "profile": digests[rid]["summary"]["profile"], "system": digests[rid]["summary"]["system"]} for rid in used]
    run = {"id": RULE_ID, "created": max((r["created"] for r in runs), key=run_rule.moment), "machine": "", "profile": "",
           "label": f"by the site's rule ({len(runs)} run{'s' if len(runs) > 1 else ''})",
           "system": "; ".join(f"run {r['id']}: {r['system']}" for r in runs), "runs": runs}
    return {**run, "table": table_html(a, b, run, shown)}


def _key(cell: dict) -> str:
    return cell["workload"] + (f"|{cell['dimensions']}" if cell["dimensions"] else "")


def _better(better: str) -> str:
    return "more is better" if better == "higher" else "less is better"


def _order(row: dict) -> tuple:
    """Main metrics first (comparison.HEADLINE, in its order), then each workload's others."""
    headline = row["metric"] in comparison.HEADLINE
    return (not headline, comparison.HEADLINE.index(row["metric"]) if headline else 0, row["key"], row["metric"])


def _row(r: dict, b: str, flags: list) -> dict:
    """What the page prints of one compared row: figures in the site's units, the test in words."""
    tested = r["status"] == "tested"
    ratio = "–"
    if tested:
        low, high = r["ratio_ci95"]
        ratio = f"{knowledge_mod.significant(r['ratio'])}× ({knowledge_mod.significant(low)}–{knowledge_mod.significant(high)})"
    return {"key": r["key"], "metric": r["metric"], "workload": r["key"].replace("|", " "), "label": metrics.label(r["metric"]),
            "better": _better(r["better"]),
            "n": f"{r['n_a']}, {r['n_b']}", "a": knowledge_mod.display(r["mean_a"], r["unit"]),
            "b": knowledge_mod.display(r["mean_b"], r["unit"]), "ratio": ratio,
            "p": f"{r['p_adjusted']:.2g}" if tested else "–", "verdict": r["verdict"],
            "said": f"{b} {r['verdict']}" if r["verdict"] in ("better", "worse") else r["verdict"],
            "test": comparison.describe(r), "flags": sorted(set(flags))}


def table_html(a: str, b: str, run: dict, rows: list) -> str:
    """One run's table, as the page shows it with or without a script (escaped here: it is
    inserted as HTML)."""
    e = html.escape
    several = "runs" in run  # rule_table's: each row names its run
    head = ["Workload", "Measure", "n", a, b, f"{b} / {a} (95 % interval of the row alone)", "adjusted p", "Verdict"] + (["Run"] if several else [])
    where = (f"by the site's rule, each workload from one run that measured both ({e(run['system'])})" if several else
             f"in run {e(run['id'])} ({e(run['profile'] or 'no profile')}, {e(run['created'])}): {e(run['system'])}")
    out = [f'<table class="data-table compare-table" data-run="{e(run["id"])}" tabindex="0"><caption>{e(b)} against {e(a)} {where}. Each row is '
           f"the comparison module's test of the two cells' repetitions; p is adjusted by Benjamini-Hochberg over the "
           f"headline measures of the row's run as one family and its other measures as another, so a headline row's p and "
           f"verdict are those of fsatlas compare of that run, which shows the headline measures. The interval is each row's own 95 % interval, "
           f"not adjusted for the table: "
           f"it leaves 1 out exactly where the row's p before adjustment is below 0.05, so a row can leave 1 out and "
           f"still be inconclusive once p is adjusted. For rates, times and sizes, tested on their logarithms, the ratio "
           f"is that of the geometric means, the quantity the test is about; for shares of CPU that of the means."
           f"</caption><thead><tr>"
           + "".join(f'<th scope="col">{e(h)}</th>' for h in head) + "</tr></thead><tbody>"]
    for r in rows:
        flags = "".join(f' <span class="flag">{e(f)}</span>' for f in r["flags"])
        run_cell, run_attr = "", ""
        if several:  # the link relative to /compare/, wherever the site is served
            note = f'<details class="note"><summary>elsewhere</summary>{e(r["elsewhere"])}</details>' if r["elsewhere"] else ""
            run_cell = f'<td><a href="../results/{e(r["run"])}/">{e(r["run"][:16])}</a>{note}</td>'
            run_attr = f' data-run="{e(r["run"])}"'
        out.append(f'<tr class="verdict-{r["verdict"].replace(" ", "-")}" data-key="{e(r["key"])}" '
                   f'data-metric="{e(r["metric"])}"{run_attr}><th scope="row">{e(r["workload"])}{flags}</th>'
                   f'<td>{e(r["label"])} <small>({r["better"]})</small></td><td class="num">{r["n"]}</td>'
                   f'<td class="num">{e(r["a"])}</td><td class="num">{e(r["b"])}</td><td class="num">{e(r["ratio"])}</td>'
                   f'<td class="num">{r["p"]}</td><td><details class="note"><summary>{e(r["said"])}</summary>'
                   f'{e(r["test"])}</details></td>{run_cell}</tr>')
    out.append("</tbody></table>")
    return "".join(out)


def default_pair(pairs) -> tuple | None:
    return DEFAULT_PAIR if DEFAULT_PAIR in pairs else (min(pairs) if pairs else None)
