"""A publishable comparison of two runs (`fsatlas report`): the two system tables, every
compared cell with its ratio, interval and adjusted p from results/comparison (the rows of
`fsatlas compare`, significant first), the feature differences of the two filesystems with
their citations, and a chart of the ratios drawn to SVG at build time; as one self-contained
Markdown or HTML file (no script, no external request).

The two sides are two result files (every cell both measured), or two filesystems, or two
variants, of one result file (each cell of one side against the same workload on the other).
"""
import base64
import datetime as dt
import html
import json
import os
import re
import subprocess

from ..errors import UserError
from ..results import comparison, flags, machines, resultfile
from . import knowledge as knowledge_mod
# the rows of two configurations of one run, as compare makes them (report.within: what compare,
# the pages' modules and the tests call)
from .cell_pairs import side_cells, side_tools, within  # noqa: F401

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
ORDER = {"better": 0, "worse": 0, "differs": 0, "equivalent": 1, "inconclusive": 2, "not tested": 3, "not testable": 3}
SYSTEM_ROWS = [("CPU", lambda r: _fact(r, "cpu_model")), ("Cores", lambda r: _fact(r, "cpu_count")),
               ("Memory", lambda r: _fact(r, "memory_bytes", machines.memory_text)),
               ("Kernel", lambda r: _fact(r, "kernel")), ("Distribution", lambda r: _fact(r, "os")),
               ("Virtualization", lambda r: _fact(r, "virtualization")),
               ("Target", lambda r: _target(r["target"])), ("Machine label", lambda r: r["system"]["machine"]),
               ("Profile", lambda r: r.get("profile", "")), ("Run", lambda r: f"{r['id']} ({r['created']})")]


def _fact(result: dict, name: str, shown=str) -> str:
    """One system fact as a report shows it, "system not recorded" where the result holds none."""
    system = result["system"]
    return shown(system[name]) if resultfile.system_recorded(system) else resultfile.NOT_RECORDED


def _target(t: dict) -> str:
    if t["kind"] == "loop-image":
        return (f"loop image of {t.get('image_bytes', 0) / 2**30:g} GiB, {machines.storage_line(t)}, "
                f"direct I/O {'on' if t.get('loop_direct_io') else 'off'}")
    return ", ".join(f"{k} {v}" for k, v in t.items() if not isinstance(v, (dict, list)))


def feature_differences(fs_a: str, fs_b: str, data_dir: str) -> list[dict]:
    """Facts the two filesystems' feature files give differently, with the sources of each. No
    curated data at data_dir, or data with errors, is refused (#60 round 56: `fsatlas report
    --data /nonexistent` printed no feature differences and said nothing)."""
    if not (os.path.isdir(os.path.join(data_dir, "features")) and os.path.isfile(os.path.join(data_dir, "sources.yaml"))):
        raise UserError("no curated data here", where=data_dir, expected="a folder holding sources.yaml and features/")
    knowledge = knowledge_mod.load_refusing(data_dir)
    a, b = knowledge["features"].get(fs_a), knowledge["features"].get(fs_b)
    if not a or not b or fs_a == fs_b:
        return []
    titles = {s["id"]: s for s in knowledge["sources"]}
    out = []
    for name in sorted(set(a.get("features", {})) | set(b.get("features", {}))):
        fa, fb = a["features"].get(name, {}), b["features"].get(name, {})
        va, vb = fa.get("value", fa.get("limit", "-")), fb.get("value", fb.get("limit", "-"))
        if va != vb:
            out.append({"feature": name, "a": str(va), "b": str(vb),
                        "sources": sorted({titles[s]["title"] for s in fa.get("sources", []) + fb.get("sources", [])
                                           if s in titles})})
    return out


def ratio_chart(rows: list[dict], title: str) -> str:
    """Every row's ratio B/A, with its interval where it was tested (a row not tested, one run a
    side, is its ratio alone: comparison.design), as an SVG drawn by Vega in Node."""
    values = [{"row": f"{r['key']} {r['metric']}", "ratio": r["ratio"],
               "low": r["ratio_ci95"][0] if r["ratio_ci95"] else r["ratio"],
               "high": r["ratio_ci95"][1] if r["ratio_ci95"] else r["ratio"], "verdict": r["verdict"]}
              for r in rows if r["ratio"] is not None and r["ratio"] > 0]
    if not values:
        return ""
    spec = {"$schema": "https://vega.github.io/schema/vega-lite/v6.json", "title": title, "width": 360,
            "data": {"values": values},
            "encoding": {"y": {"field": "row", "type": "nominal", "sort": None, "title": None,
                               "axis": {"labelLimit": 320}}},
            "layer": [
                {"mark": {"type": "rule"}, "encoding": {"x": {"field": "low", "type": "quantitative", "scale": {"type": "log"},
                                                              "title": "B / A (log scale), 95 % interval"},
                                                        "x2": {"field": "high"}}},
                {"mark": {"type": "point", "filled": True},
                 "encoding": {"x": {"field": "ratio", "type": "quantitative"},
                              "color": {"field": "verdict", "type": "nominal",
                                        "scale": {"domain": ["better", "worse", "differs", "equivalent", "inconclusive",
                                                             "not tested", "not testable"],
                                                  "range": ["#2e7d32", "#c62828", "#6a1b9a", "#1565c0", "#757575",
                                                            "#9e9e9e", "#bdbdbd"]}}}},
                {"mark": {"type": "rule", "strokeDash": [4, 4]}, "data": {"values": [{"one": 1}]},
                 "encoding": {"x": {"field": "one", "type": "quantitative"}, "y": {}}}]}
    done = subprocess.run(["node", os.path.join(REPO, "scripts", "render-svg.mjs")], input=json.dumps([spec]),
                          capture_output=True, text=True, cwd=REPO, timeout=120)
    if done.returncode != 0:
        raise UserError(f"drawing the chart failed: {done.stderr.strip()[:300]}", where="scripts/render-svg.mjs")
    return json.loads(done.stdout)[0]


def mark_flags(rows: list[dict], runs_a: list, runs_b: list, specs: tuple = ()) -> None:
    """Each row's "flags": (side A's, side B's), the flags (flags.MEANINGS) of the cells it
    compares, as the runner's rule derives them from each run (flags.derive), so that a row of an
    O_DIRECT cell above the raw device, of a page-cache workload or of a job whose baseline
    cannot tell says so where the site's tables do (#60 round 60: compare and report showed none).
    specs: (A, B) of two sides of one result, whose rows are keyed by workload and dimensions."""
    def of(runs, spec):
        out = {}
        for result in runs:
            cells = side_cells(result, spec).items() if spec else \
                ((c["key"], c) for c in result["cells"] if c["status"] == "ok")
            for key, cell in cells:
                key = f"{key[0]}{'|' + key[1] if key[1] else ''}" if spec else key
                found = flags.derive(cell, result["target"])
                out.setdefault(key, set()).update(f for f in found if f in flags.MEANINGS)
        return out
    sides = [of(runs, spec) for runs, spec in zip((runs_a, runs_b), specs or (None, None))]
    for r in rows:
        r["flags"] = tuple([f for f in flags.MEANINGS if f in side.get(r["key"], ())] for side in sides)


def flags_text(row: dict) -> str:
    """A row's flags as a table shows them: "above-device" where both sides have the same, "A:
    page-cache; B: none" where they differ, "" where neither has any."""
    a, b = row.get("flags") or ([], [])
    if a == b:
        return ", ".join(a)
    return f"A: {', '.join(a) or 'none'}; B: {', '.join(b) or 'none'}"


def build(a, b, rows: list[dict], sides: tuple[str, str], features: list[dict], specs: tuple = ()) -> dict:
    """What both formats print: the sides, system rows, sorted comparison rows, counts. a, b: a
    result file each, or a list of the runs of each side; specs: (A, B) of two sides of one result."""
    runs_a, runs_b = (x if isinstance(x, list) else [x] for x in (a, b))
    rows = sorted(rows, key=lambda r: (ORDER[r["verdict"]], r["p_adjusted"] if r["p_adjusted"] is not None else 2,
                                       r["key"], r["metric"]))
    counts = {v: sum(r["verdict"] == v for r in rows) for v in ORDER}
    plan, runs_a, runs_b, _ = comparison.runs_plan(runs_a, runs_b, rows, within=bool(specs))  # each run once

    def each(get, runs):  # one value, or each run's where they differ
        return " / ".join(dict.fromkeys(get(r) for r in runs))
    return {"sides": sides, "a": a, "b": b, "rows": rows, "counts": counts, "features": features,
            "differ": differences(plan, runs_a, runs_b, specs),
            "system": [(label, each(get, runs_a), each(get, runs_b)) for label, get in SYSTEM_ROWS],
            "made": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}


def differences(plan: dict, runs_a: list, runs_b: list, specs: tuple = ()) -> str:
    """The sentence a comparison opens with: its design (comparison.design's plan) and which of
    comparison.FACTORS differ between the sides' runs (specs: the two sides of one run, whose
    cells' tools are the sides' own: side_tools)."""
    if [r["id"] for r in runs_a] == [r["id"] for r in runs_b] and len(runs_a) == 1:
        tools = [side_tools(runs_a[0], spec) for spec in specs]
        if tools and (tools[0] != tools[1] or len(tools[0]) > 1 or len(tools[1]) > 1):
            return (f"Both sides come from one run, but its sides' outputs came from other tools: A "
                    f"{' / '.join(tools[0])}; B {' / '.join(tools[1])}: a difference between them may be theirs, "
                    f"not the filesystems'; a row is never called better, worse or equivalent for it.")
        return f"Both sides come from one run: its {comparison.FACTOR_NAMES} are the same."
    design = (f"Across result files the run is the unit: {plan['runs_a']} and {plan['runs_b']} runs, each row "
              f"tested on the runs' means" + (f" ({plan['untested']})." if plan.get("untested") else ".")
              if plan["tested"] else
              f"Across result files the run is the unit"
              f"{', and a verdict needs at least two runs on each side' if plan['design'] == comparison.ONE_RUN else ''}"
              f": each row gives the ratio, {plan['why']}.")
    if not plan["differ"]:
        return f"The runs have the same {comparison.FACTOR_NAMES}. {design}"
    mixed = f" ({', '.join(plan['mixed'])} varying within a side)" if plan.get("mixed") else ""
    return (f"The runs differ in {', '.join(plan['differ'])}{mixed} (see the systems below): a difference between "
            f"them may be theirs, not the filesystems'; a row is never called better, worse or equivalent for it. "
            f"{design}")


def _cells(r: dict) -> list[str]:
    show = knowledge_mod.display
    interval = f"{r['ratio_ci95'][0]:.3g}–{r['ratio_ci95'][1]:.3g}" if r["ratio_ci95"] else "–"
    others = [k for k in r["differ"] if k != "parameters"]  # differing parameters: the why names them already
    verdict = (f"differs ({comparison.they_differ(r['differ'])} too)" if r["verdict"] == "differs" else r["verdict"]) \
        if r["status"] == "tested" else f"{r['status']}: {r['why']}" + (f"; {comparison.they_differ(others)}" if others else "")
    return [r["key"], r["metric"], show(r["mean_a"], r["unit"]), show(r["mean_b"], r["unit"]), f"{r['n_a']}/{r['n_b']}",
            f"{r['ratio']:.3g}" if r["ratio"] is not None else "–", interval,
            f"{r['p']:.2g}" if r["p"] is not None else "–",
            f"{r['p_adjusted']:.2g}" if r["p_adjusted"] is not None else "–",
            f"{r['detectable_pct']:.2g} %" if r["detectable_pct"] is not None else "–",
            f"{r['p_equivalent_adjusted']:.2g}" if r["p_equivalent_adjusted"] is not None else "–",
            "higher" if r["better"] == "higher" else "lower", verdict, flags_text(r)]


HEADER = ["Cell", "Metric", "A", "B", "n", "B/A", "95 % interval", "p", "adjusted p", "detectable change",
          f"equivalence p (±{comparison.EQUIVALENCE_MARGIN_PCT:g} %)", "better", "verdict", "flags"]


def flags_legend(doc: dict) -> str:
    """What the flags on the table's rows mean (flags.legend), for under the table; "" where none has one."""
    return flags.legend(f for r in doc["rows"] for side in r.get("flags") or () for f in side)


def method(doc: dict) -> str:
    """How the rows were compared: the tests and the family actually used (comparison.tests_used)."""
    design = ("Within one run, each row compares the repetitions of A and B (paired where both ran in the same "
              "interleaved rounds); across result files the run is the unit, so a row is tested only with two runs or "
              "more a side, on the runs' means, and otherwise gives the ratio, not tested. ")
    if not any(r["status"] == "tested" for r in doc["rows"]):
        return design + comparison.tests_used(doc["rows"]) + " Made with fsatlas (runner/fsatlas/results/comparison.py)."
    return (design + f"Tests on the logarithms of rates, times and sizes: {comparison.tests_used(doc['rows'])} "
            f"A difference is significant below "
            f"{comparison.ALPHA:g}; equivalent means within ±{comparison.EQUIVALENCE_MARGIN_PCT:g} % by two one-sided "
            f"tests (their adjusted p is the equivalence column); the detectable change is the change at which the "
            f"row's own test has {comparison.POWER:.0%} power, given its sizes and each side's spread; a side with one repetition or no spread is "
            f"not testable; a metric that is another's samples scaled (iops, throughput) is one row. Made with fsatlas "
            f"(runner/fsatlas/results/comparison.py), the test that fsatlas compare and the site use.")


# What a Markdown reader (CommonMark, GitHub's, Hugo's goldmark with linkify) would take for
# markup in the middle of a line: emphasis, code, links and images ([, ], !), raw HTML and
# entities (<, >, &), strikethrough (~), a table's cell end (|), the autolinks (a scheme's
# colon, an e-mail's @, the dot after www), and an underscore unless between two letters or
# digits (acl_max_entries: no emphasis there in CommonMark). Each gets a backslash, CommonMark's
# escape of ASCII punctuation, which every renderer shows as the character itself.
_MD_MARKUP = re.compile(r"[\\`*\[\]<>!|&~:@]|(?<=www)\.|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])", re.I)


def md_text(value) -> str:
    """value as literal text on one line of a Markdown table or heading (a result's fields are
    the contributor's: a link, an image or HTML there is shown as written, never rendered)."""
    return _MD_MARKUP.sub(lambda m: "\\" + m.group(0), re.sub(r"\s+", " ", str(value)).strip())


def counts_sentence(doc: dict) -> str:
    """The count of each verdict, as both formats open with it."""
    c = doc["counts"]
    return (f"{len(doc['rows'])} comparisons: {c['better']} significantly in B's favour, {c['worse']} against it, "
            f"{c['equivalent']} equivalent, {c['inconclusive']} inconclusive, {c['not testable']} not testable, "
            f"{c['not tested']} not tested, {c['differs']} differ where more than the filesystems differ.")


def markdown(doc: dict, svg: str) -> str:
    esc = md_text
    a_name, b_name = doc["sides"]
    lines = [f"# {esc(a_name)} (A) against {esc(b_name)} (B)", "",
             f"{counts_sentence(doc)} Made {doc['made']}.", "", doc["differ"], "",
             *[x for note in doc.get("notes", []) for x in (f"**Note:** {esc(note)}", "")], "## The systems", "",
             "| | A | B |", "|---|---|---|"]
    lines += [f"| {label} | {esc(x)} | {esc(y)} |" for label, x, y in doc["system"]]
    lines += ["", "## Every comparison", "", method(doc), "",
              "| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(esc(x) for x in _cells(r)) + " |" for r in doc["rows"]]
    if flags_legend(doc):
        lines += ["", esc(flags_legend(doc))]
    if svg:
        lines += ["", "## The ratios", "",
                  f"![B/A with 95 % intervals](data:image/svg+xml;base64,{base64.b64encode(svg.encode()).decode()})"]
    if doc["features"]:
        lines += ["", "## Where the feature data differ", "", "| Feature | A | B | Sources |", "|---|---|---|---|"]
        lines += [f"| {esc(f['feature'])} | {esc(f['a'])} | {esc(f['b'])} | {esc('; '.join(f['sources']))} |"
                  for f in doc["features"]]
    return "\n".join(lines) + "\n"


def html_page(doc: dict, svg: str) -> str:
    e = html.escape
    a_name, b_name = doc["sides"]
    rows = "".join("<tr>" + "".join(f"<td>{e(x)}</td>" for x in _cells(r)) + "</tr>" for r in doc["rows"])
    system = "".join(f"<tr><th scope=\"row\">{e(label)}</th><td>{e(x)}</td><td>{e(y)}</td></tr>"
                     for label, x, y in doc["system"])
    features = "".join(f"<tr><th scope=\"row\">{e(f['feature'])}</th><td>{e(f['a'])}</td><td>{e(f['b'])}</td>"
                       f"<td>{e('; '.join(f['sources']))}</td></tr>" for f in doc["features"])
    style = ("body{font:15px/1.5 system-ui,sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem}"
             "table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #ccc;padding:.25rem .5rem;"
             "text-align:left;vertical-align:top}figure{margin:1rem 0}")
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{e(a_name)} against {e(b_name)}"
            f"</title><meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><style>{style}</style>"
            f"</head><body><h1>{e(a_name)} (A) against {e(b_name)} (B)</h1>"
            f"<p>{e(counts_sentence(doc), quote=False)} Made {e(doc['made'])}.</p><p>{e(doc['differ'])}</p>"
            + "".join(f"<p><strong>Note:</strong> {e(note)}</p>" for note in doc.get("notes", []))
            + f"<h2>The systems</h2><table><thead><tr><th></th><th scope=\"col\">A</th>"
            f"<th scope=\"col\">B</th></tr></thead><tbody>{system}</tbody></table>"
            f"<h2>Every comparison</h2><p>{e(method(doc))}</p><table><thead><tr>"
            + "".join(f"<th scope=\"col\">{e(h)}</th>" for h in HEADER) + f"</tr></thead><tbody>{rows}</tbody></table>"
            + (f"<p>{e(flags_legend(doc))}</p>" if flags_legend(doc) else "")
            + (f"<h2>The ratios</h2><figure>{svg}</figure>" if svg else "")
            + (f"<h2>Where the feature data differ</h2><table><thead><tr><th scope=\"col\">Feature</th><th scope=\"col\">A"
               f"</th><th scope=\"col\">B</th><th scope=\"col\">Sources</th></tr></thead><tbody>{features}</tbody></table>"
               if features else "") + "</body></html>\n")
