"""Articles pinned to the runs they are written from.

An article's front matter names its runs (`results: [id, ...]`) and the comparisons it shows
(`compare: [{a: id, b: id}]`, `{a: [id, id], b: [id, id]}` for several runs a side, or
`{result: id, a: ext4, b: xfs}` for two sides of one run). The
aggregate computes each named comparison with results/comparison (the rows of `fsatlas compare`,
or of `fsatlas report --a --b`) into aggregates/comparisons.json, where the `comparison`
shortcode looks it up: the figures stay those of the named runs, whatever result comes later.
`fsatlas article new` writes such an article, ready to edit.
"""
import datetime as dt
import glob
import os
import re

import frontmatter
import yaml

from .. import safe_yaml
from ..errors import UserError
from ..results import resultfile, shares
from . import report, run_rule


def comparison_key(entry: dict) -> str:
    """The name a comparison has in aggregates/comparisons.json and in the shortcode: a side of
    several runs is their ids joined by "+" (which no result id holds)."""
    return "|".join("+".join(runs(entry[k])) for k in ("result", "a", "b") if entry.get(k))


def runs(side) -> list[str]:
    """The result ids a side of an entry names: one text, or a list of them."""
    return [str(x) for x in side] if isinstance(side, list) else [str(side)]


class _Strict(frontmatter.YAMLHandler):
    """Front matter read as the curated data is (safe_yaml: a key given twice refused, which PyYAML
    would let the last of win: a second `compare:` or `a:` replacing the first unsaid)."""

    def load(self, fm, **kwargs):
        return safe_yaml.load(fm)


def read(path: str) -> frontmatter.Post:
    """An article: its front matter YAML between --- lines, as every article here writes it. A
    byte order mark before it is dropped; TOML (+++) or JSON front matter, which Hugo reads too
    but whose comparisons and pins fsatlas would never see, is refused, as is unreadable YAML."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read().removeprefix("\ufeff")
        if text.lstrip().startswith(("+++", "{")):
            raise ValueError("expected YAML between --- lines (fsatlas reads the comparisons and pins there), "
                             "found TOML or JSON")
        return frontmatter.loads(text, handler=_Strict())
    except (yaml.YAMLError, ValueError, UnicodeDecodeError) as e:
        raise UserError(f"front matter not readable: {e}", where=path) from None


def named_comparisons(articles_dir: str) -> list[tuple[str, dict]]:
    """(where: the article's path and the entry's pointer, each comparison its front matter names)."""
    out = []
    for path in sorted(glob.glob(os.path.join(articles_dir, "*.md"))):
        meta = read(path).metadata
        named = meta.get("compare") or []
        if not isinstance(named, list):
            raise UserError("expected a list of comparisons ({a: RESULT, b: RESULT} or {result: RESULT, a: SIDE, "
                            "b: SIDE})", where=f"{path}: /compare")
        for i, entry in enumerate(named):
            # each a text with a word in it: YAML reads `a: 4` as a number, `result: 2026-11-27` as a date;
            # across files a side may be a list of such texts, each run once (several runs a side)
            if not isinstance(entry, dict) or not {"a", "b"} <= set(entry) or set(entry) - {"a", "b", "result"} \
                    or not all(_text(v) or "result" not in entry and k != "result" and _texts(v)
                               for k, v in entry.items()):
                raise UserError("expected {a: RESULT, b: RESULT}, {a: [RESULT, ...], b: [RESULT, ...]} or "
                                "{result: RESULT, a: SIDE, b: SIDE}, each a text (quote a number or a date)",
                                where=f"{path}: /compare/{i}")
            out.append((f"{path}: /compare/{i}", entry))
    return out


def _text(value) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _texts(value) -> bool:
    return isinstance(value, list) and bool(value) and all(map(_text, value)) and len(set(value)) == len(value)


def comparisons(articles_dir: str, paths: dict, summaries: list | None = None) -> dict:
    """key -> {a, b, rows, newer} for every comparison an article names; paths: result id ->
    file; summaries (newest first): the runs that may have measured the same sides since."""
    from ..results import comparison
    from ..results.comparison import between, design, factors
    from . import knowledge, report
    out, made = {}, {}
    for where, entry in named_comparisons(articles_dir):
        key = comparison_key(entry)
        if key in out:
            continue
        # one comparison however its sides are spelled (ext4, ext4:, ext4:defaults): made once,
        # under each key an article's shortcode names
        one = (entry.get("result", ""), *(spelled_side(entry[s], entry) for s in ("a", "b")))
        if one in made:
            out[key] = made[one]
            continue
        named = [entry["result"]] if "result" in entry else runs(entry["a"]) + runs(entry["b"])  # else sides
        missing = [rid for rid in named if rid not in paths]
        if missing:
            raise UserError(f"names a result this site does not hold: {', '.join(map(str, missing))}", where=where)
        if "result" in entry:
            result = resultfile.load_result(paths[entry["result"]])
            try:
                rows = report.within(result, entry["a"], entry["b"])
            except UserError as e:  # sides it does not hold, or one configuration twice: named with the article
                raise UserError(e.body, where=where) from None
            differ = report.differences(design([factors(result)], [factors(result)]), [result], [result],
                                        (entry["a"], entry["b"]))  # each side's tools from its own cells
        else:  # across files: comparison.design decides (one run a side: ratios, not tested)
            a, b = ([resultfile.load_result(paths[rid]) for rid in runs(entry[s])] for s in ("a", "b"))
            try:
                rows = between(a, b)
            except UserError as e:  # a run against itself: named with the article that asks for it
                raise UserError(e.body, where=where) from None
            plan, a, b, _ = comparison.runs_plan(a, b, rows)  # as compare's header and report say it
            differ = report.differences(plan, a, b)
        for r in rows:
            r["a_shown"], r["b_shown"] = knowledge.display(r["mean_a"], r["unit"]), knowledge.display(r["mean_b"], r["unit"])
        out[key] = {"a": shown(entry["a"]), "b": shown(entry["b"]), "result": entry.get("result", ""), "differ": differ,
                    "tests": comparison.tests_used(rows),
                    "rows": sorted(rows, key=lambda r: (not r["significant"], r["key"], r["metric"])),
                    "newer": newer_verdicts(entry, rows, paths, summaries or []) if "result" in entry else None}
        made[one] = out[key]
    return out


def spelled_side(side, entry: dict) -> str:
    """A comparison's side as one name: result ids as a set of them (a side's runs in any order);
    a configuration within one result in the one spelling of shares.spelled (ext4, ext4: and
    ext4:defaults are "ext4"; an import's "ext4:imported" stays apart from its "ext4", and is
    made again to the same rows)."""
    return shares.spelled(shares.configuration(side)) if "result" in entry else "+".join(sorted(runs(side)))


def shown(side) -> str:
    """A side as the shortcode names it: an id, a configuration, or several runs' ids."""
    return ", ".join(runs(side))


def newer_verdicts(entry: dict, rows: list, paths: dict, summaries: list) -> dict | None:
    """The newest run after the pinned one that measured the same two sides, and the rows it
    judges otherwise (each verdict from results/comparison, as the pinned rows'): what the
    article's author reads to decide whether to update it. None if no newer run measured both."""
    from . import report
    pinned = next((s for s in summaries if s["id"] == entry["result"]), None)
    if not pinned:
        return None
    # a side with default options needs its filesystem in the run's summary: no file read for the rest
    plain = [fs for fs, variant in map(shares.configuration, (entry["a"], entry["b"])) if variant == shares.DEFAULTS]
    for s in summaries:  # newest first
        if (run_rule.moment(s["created"]), s["id"]) <= (run_rule.moment(pinned["created"]), pinned["id"]) \
                or s["id"] not in paths \
                or not set(plain) <= set(s.get("filesystems", [])):
            continue
        try:
            theirs = report.within(resultfile.load_result(paths[s["id"]]), entry["a"], entry["b"])
        except UserError:  # it did not measure both sides
            continue
        by_cell = {(r["key"], r["metric"]): r for r in theirs}
        shared = [(r, by_cell[(r["key"], r["metric"])]) for r in rows if (r["key"], r["metric"]) in by_cell]
        if not shared:
            continue
        return {"result": s["id"], "created": s["created"], "shared": len(shared),
                "differ": [{"key": mine["key"], "metric": mine["metric"], "pinned": mine["verdict"],
                            "newer": other["verdict"], "ratio": other["ratio"], "p_adjusted": other["p_adjusted"],
                            # the newer run's n and interval, as the pinned row's (#62)
                            "ratio_ci95": other["ratio_ci95"], "n_a": other["n_a"], "n_b": other["n_b"]}
                           for mine, other in shared if mine["verdict"] != other["verdict"]]}
    return None


# the rankings an article's body shows: {{< ranking name="…" >}} or {{< chart name="ranking" of="…" >}}
RANKING = re.compile(r'\{\{<\s*(?:ranking\s+name|chart\s+name="ranking"\s+of)="([^"]+)"')


HISTORY = re.compile(r'\{\{<\s*history-compare\s+dataset="([^"]+)"')


def pinned(articles_dir: str, shortcode: re.Pattern, held) -> dict[str, set]:
    """result id -> the names the articles pinned to it (front matter `results: [id, ...]`) give
    the shortcode (its pattern's group), for the pins this site holds (held: ids): a pin it
    lacks, the shortcode's partial says so."""
    wanted: dict[str, set] = {}
    for path in sorted(glob.glob(os.path.join(articles_dir, "*.md"))):
        post = read(path)
        pins = post.metadata.get("results") or []
        if not isinstance(pins, list) or not all(isinstance(rid, str) for rid in pins):
            raise UserError("expected a list of result ids", where=f"{path}: /results")
        for rid in (rid for rid in pins if rid in held):
            wanted.setdefault(rid, set()).update(shortcode.findall(post.content))
    return wanted


def pinned_history(articles_dir: str, digest_of, knowledge: dict, summaries: list, run_cells) -> dict:
    """result id -> {dataset -> its history rows (knowledge.history_rows) with that run's
    figures alone} for each history-compare an article pinned to the run shows: the article's
    "measured here" stays the pinned run's, whatever runs come later. run_cells(digest): the
    cells of one run in aggregates/cells.json's shape."""
    from . import knowledge as knowledge_mod
    out = {}
    for rid, names in sorted(pinned(articles_dir, HISTORY, {s["id"] for s in summaries}).items()):
        rows = knowledge_mod.history_rows(knowledge, run_cells(digest_of(rid)))
        out[rid] = {name: rows[name] for name in sorted(names) if name in rows}
    return out


def pinned_rankings(articles_dir: str, digest_of, cells: dict, summaries: list) -> dict:
    """result id -> {ranking name -> the ranking of that run alone} for each ranking an article
    pinned to that run (front matter `results: [id, ...]`) shows; digest_of(id): the run's
    digest; cells: aggregates/cells.json (the figure every other page shows now). The ranking
    partial shows an article's rankings from the first run it pins that measured them, whatever
    runs come later; each row carries, as "newer", the figure the site shows now where a newer
    run gave it and it lies outside the pinned figure's 95 % interval: the article says so."""
    from . import knowledge
    created = {s["id"]: s["created"] for s in summaries}
    out = {}
    for rid, names in sorted(pinned(articles_dir, RANKING, created).items()):
        ranked = knowledge.rankings([digest_of(rid)])
        out[rid] = {name: ranked[name] for name in sorted(names) if name in ranked}
        for name, ranking in out[rid].items():
            *prefix, metric = name.split("|")
            for row in ranking["ranked"] + ranking["excluded"]:
                now = cells.get("|".join([row["filesystem"], "-", "-", *prefix]), {})
                m = now.get("metrics", {}).get(metric) if now.get("status") == "ok" else None
                # a pinned figure of one sample has no interval: any different figure lies outside it
                outside = m and (m["mean"] != row["mean"] if row["ci_low"] is None
                                 else not row["ci_low"] <= m["mean"] <= row["ci_high"])
                # the newer figure with its n and interval, as the pinned figure beside it (#62)
                row["newer"] = {"result": now["result"], "key": now["key"], "metric": metric, "display": m["display"],
                                "n": m["n"], "interval": knowledge.interval(m)} \
                    if outside and created.get(now["result"], "") > created[rid] else None
    return out


def scaffold(title: str, entry: dict, results: list[str], notes=(), draft=False, untested: str = "") -> str:
    """An article's Markdown: front matter pinned to the runs, the comparison and each run's chart;
    NOTES open the body (fsatlas measure: a change its comparisons could not detect), DRAFT keeps
    Hugo from publishing it. UNTESTED: where no comparison of the two sides can be tested, why
    (comparison.tests_used's sentence), said in the opening instead of "significant first"."""
    meta = {"title": title, "description": f"{shown(entry['a'])} against {shown(entry['b'])}, measured",
            "date": dt.date.today().isoformat(), "results": results, "compare": [entry], "draft": bool(draft)}
    charts = "\n\n".join(f'{{{{< chart name="throughput" result="{rid}" caption="Throughput per filesystem and '
                         f'workload, run {rid}" >}}}}' for rid in results)
    opening = "".join(f"**Note:** {report.md_text(note)}\n\n" for note in notes)
    if untested:
        opening += f"**Nothing here is tested:** {report.md_text(untested)}\n\n"
    rows = ("Every comparison of the two sides, with its ratio and why it is not tested" if untested else
            "Every comparison of the two sides, significant first, with its test")
    body = opening + (f"Write here what was compared and why: the question a reader brings, and the setup.\n\n"
            f"## What differs\n\n{rows}. The figures "
            f"come from the runs named in this page's front matter, whatever result this site gains later.\n\n"
            f"{{{{< comparison key=\"{comparison_key(entry)}\" >}}}}\n\n## The runs\n\n{charts}\n")
    return "---\n" + yaml.safe_dump(meta, sort_keys=False, allow_unicode=True) + "---\n\n" + body


def slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:80] or "article"
