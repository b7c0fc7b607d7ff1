"""The HTML of a result's tables (throughput per cell; every cell and metric; the raw files), made once by
`fsatlas aggregate` when the result arrives.

A result page's tables never pass through Hugo: aggregate writes them to TABLES_DIR/<id>.html
(each slot's HTML behind a comment naming it, in one file: `fsatlas site` reads one file a page,
not one a table, and splits it without decoding it: `pack`), and `fsatlas site` puts them in the
slots the page Hugo rendered leaves for them (`fill_slots`).
Hugo 0.111 spends about 30 ns on every byte a page carries (front matter decoding, and a scan
of everything it writes), and a current quick result has 70 cells with up to 8 metrics each:
as front matter, these tables doubled the time to render 10,000 result pages again. Articles
naming a result read its throughput table with readFile; the latest result's is in the
latest-result aggregate.

Why not a template: Hugo 0.111 spends 3-5 µs on every field a template prints (reflection and
html/template's escaper). The tables of a 20-cell quick result print about 1,300 fields and a
standard one's about 11,000, and every result page is rendered again whenever a template
changes. Measured on 2,000 copies of a 20-cell quick result's page (Hugo CPU a page): 6.5 ms
with the tables in templates, 1.5 ms with them as HTML in the front matter, 0.5 ms with
neither in the page. Every value goes through `html.escape`, as a template would do, but for
figures written from numbers in a unit the site knows, in which it would change nothing (_figures).
"""
import hashlib
import os
import re
import stat
from functools import lru_cache
from html import escape as _html_escape, unescape as _html_unescape
from urllib.parse import quote_plus, urlencode

import orjson

from ..results import flags, metrics
from . import result_chart
from .knowledge import DISPLAY_UNITS, display_number, percent_shown


# html.escape, remembered: the names, keys and members a table prints are alike in every result
# of a matrix (a quick result's tables escape 1,090 strings, 351 distinct, 290 of which the
# next result's escape too).
escape = lru_cache(maxsize=8192)(_html_escape)


def _cell(value, cls: str = "") -> str:
    return f'<td class="{cls}">{escape(str(value))}</td>' if cls else f"<td>{escape(str(value))}</td>"


def _figures(row: dict) -> str:
    """A metric row's mean, median, 95% CI, RSD and n, each in a td. The figures are digits,
    separators and the name of a unit in knowledge.DISPLAY_UNITS: nothing html.escape would
    change (escaping them took 0.35 of the 1.44 ms a quick result's three tables took), but for
    a unit the site does not know (which the schema refuses), escaped all the same."""
    shown = row["shown"]
    if row["unit"] in DISPLAY_UNITS:
        return (f'<td>{shown["mean"]}</td><td>{shown["median"]}</td><td>{shown["ci"]}</td>'
                f'<td>{shown["rsd"]}</td><td>{row["n"]}</td>')
    return _cell(shown["mean"]) + _cell(shown["median"]) + _cell(shown["ci"]) + _cell(shown["rsd"]) + _cell(row["n"])


def evidence(result: dict | None) -> dict:
    """Per ok cell key: (what the raw device delivered on the cell's own job, in MB/s, or why
    that figure cannot judge the cell; the host's contention over its repetitions), as text."""
    if not result:
        return {}
    target, out = result["target"], {}
    for cell in result["cells"]:
        if cell["status"] != "ok":
            continue
        base, judges = flags.baseline_throughput(target, cell["workload"], cell["key"])
        raw = ""
        if base:
            raw = display_number(base["mean"], "bytes/s")
            if not judges:
                raw += f" (cannot judge: {flags.baseline_doubt(target, cell['workload'], cell['key'])})"
        out[cell["key"]] = (raw, contention(cell))
    return out


def contention(cell: dict) -> str:
    """What else the host was doing during a cell's repetitions (run/evidence.py), in one line:
    the result page's and the explorer's words for it; "" where the file recorded nothing."""
    host = cell.get("host") or []
    if not host:
        return ""
    return (f"steal {sum(h['steal_pct'] for h in host) / len(host):.1f} %, I/O wait "
            f"{sum(h['iowait_pct'] for h in host) / len(host):.1f} %, other processes "
            f"{sum(h['others_cpu_s'] for h in host):.2f} s CPU")


def throughput_table(rows: list[dict], result: dict | None = None) -> str:
    """The text version of the throughput chart: the same rows (aggregate.throughput_rows), the
    same numbers, in MB/s as the chart shows them; beside each, the raw device's figure on the
    same job (the cached check's reference: results/flags) and the host's contention."""
    seen = evidence(result)
    out = ['<table class="data-table" tabindex="0">\n<caption>Throughput per filesystem and workload (MB/s = 10⁶ bytes/s); '
           f'flagged cached above {flags.CACHED_FACTOR:g} times the raw device on the same job</caption>\n'
           '<thead><tr><th scope="col">Filesystem</th><th scope="col">Workload</th>'
           '<th scope="col">Variant</th><th scope="col">mkfs / mount options</th><th scope="col">Mean</th>'
           '<th scope="col">95% CI</th><th scope="col">RSD</th><th scope="col">n</th>'
           '<th scope="col">Status</th><th scope="col">Raw device, same job</th>'
           '<th scope="col">Host during the repetitions</th></tr></thead>\n<tbody>\n']
    for row in rows:
        out.append("<tr>" + _cell(row["filesystem"]) + _cell(workload_text(row)) + _cell(row["variant"])
                   + _cell(f"{row['mkfs']} / {row['mount']}"))
        if row["status"] == "ok":
            shown = row["shown"]
            marks = "".join(f' <span class="flag">{escape(flag)}</span>' for flag in row["flags"])
            raw, host = seen.get(row.get("key"), ("", ""))
            out.append(_cell(shown["mean"], "num") + _cell(shown["ci"], "num") + _cell(shown["rsd"], "num")
                       + _cell(row["n"], "num") + f"<td>ok{marks}</td>" + _cell(raw, "num") + _cell(host))
        else:
            out.append('<td colspan="4"></td>' + _cell(f"{row['status']}: {row['reason']}") + '<td colspan="2"></td>')
        out.append("</tr>\n")
    out.append("</tbody>\n</table>\n")
    return "".join(out)


def dimensions(key: str) -> str:
    """A cell key's parameters ("file_size=100", run/matrix.make_key's last part), "" where none."""
    return key.split("|")[4] if key.count("|") >= 4 else ""


def workload_text(row: dict) -> str:
    """A row's workload with the parameters of its cell, which tell it from the other cells of
    that workload: small-files at 100, 1,000 and 10,000 bytes are three cells, and a table
    naming only "small-files" read three rows alike."""
    dims = dimensions(row["key"])
    return f"{row['workload']} {dims.replace(',', ', ')}" if dims else row["workload"]


def metrics_table(rows: list[dict]) -> str:
    """Every cell and metric of one result (aggregate.cell_rows, a cell's rows together): mean,
    median, 95% CI, RSD and the number of samples, in each metric's own unit. One row group
    per cell, its key printed once; every td is a figure (right-aligned by the stylesheet).
    The markup is lean on purpose: Hugo spends about 30 ns on every byte a page carries."""
    # tabindex: the table scrolls sideways in its own box, which a keyboard must reach (axe: scrollable-region-focusable)
    out = ['<table class="data-table metrics-table" tabindex="0">\n<thead><tr><th scope="col">Cell</th>'
           '<th scope="col">Metric</th><th scope="col">Mean</th><th scope="col">Median</th>'
           '<th scope="col">95% CI</th><th scope="col">RSD</th><th scope="col">n</th></tr></thead>\n']
    groups: dict[str, list[dict]] = {}
    for row in rows:
        groups.setdefault(row["key"], []).append(row)
    for key, group in groups.items():
        out.append(f'<tbody id="{cell_anchor(key)}"><tr><th scope="rowgroup" rowspan="{len(group)}"><code>{escape(key)}</code></th>')
        for i, row in enumerate(group):
            if i:
                out.append("<tr>")
            if row["status"] == "ok":
                label = metrics.label(row["metric"])  # its id beside it, where the words differ from it
                out.append(f'<th>{escape(label)}' + (f' <small>{escape(row["metric"])}</small>' if label != row["metric"] else "")
                           + '</th>' + _figures(row))
            else:
                out.append('<th colspan="6">' + escape(f"{row['status']}: {row['reason']}") + "</th>")
            out.append("</tr>\n")
        out.append("</tbody>\n")
    out.append("</table>\n")
    return "".join(out)


def cell_anchor(key: str) -> str:
    """The id of a cell's rows in metrics_table (on the result's page of every cell), which other
    pages link to: the key's letters and digits, readable, and a digest of the key itself, so
    keys that differ only in punctuation ("bs=4k", "bs-4k") never share one."""
    words = "-".join(re.findall(r"[A-Za-z0-9]+", key))
    return f"cell-{words}-{hashlib.sha1(key.encode()).hexdigest()[:6]}"


def raw_table(result: dict) -> str:
    """Each ok cell's raw files: the members of the result's bundle its figures were recomputed
    from (raw/<id>/x is the member x), in the order of its repetitions. One link a cell, to its
    first member in the raw file viewer, which lists the others (every member as a link made
    each page 40 % heavier); relative, as the list sits in results/<id>/ whatever the base URL."""
    prefix = f"raw/{result['id']}/"
    query_result = escape(urlencode({"result": result["id"]}))  # each link's query begins with it
    out = ['<ul class="raw-members">\n']
    for cell in result["cells"]:
        members = tuple(r[len(prefix):] for r in cell["raw"] if r.startswith(prefix)) if cell["status"] == "ok" else ()
        if members:
            member_query, item = _member_item(members)
            out.append(f'<li><a href="../../raw/?{query_result}{member_query}{item}</li>\n')
    out.append("</ul>\n")
    return "".join(out)


@lru_cache(maxsize=4096)
def _member_item(members: tuple) -> tuple[str, str]:
    """(the link's query after the result's, the rest of the list item) for a cell's members:
    the same in every result of a matrix, made once (the escaped query is the escaped parts)."""
    query = f"&member={quote_plus(members[0])}"  # as urlencode writes it
    folder = members[0].rpartition("/")[0]
    rest = ", ".join(escape(m.rpartition("/")[2] if m.startswith(folder + "/") else m) for m in members[1:])
    return escape(query), f'"><code>{escape(members[0])}</code></a>' + (f", {rest}" if rest else "")


TABLES_DIR = "tables"  # beside the generated content folder (build/)
# Beside it too: result id -> its page's other-runs slot (other_runs; aggregate.other_runs), one
# file of every result's, written every build: the sentence changes with other results.
OTHER_RUNS = "other-runs.json"


# what other_runs writes, and nothing else: found again in a filled page (build.refill_other_runs),
# and each sentence of the build folder's file checked against it before it goes into pages
# (build.Site.other_runs; #65 round 50: a paragraph with an event handler, or followed by a
# script, passed a looser pattern, and the refill then replaced only its first paragraph)
OTHER_RUNS_SENTENCE = re.compile(rb'<p id="other-runs" hidden></p>|<p id="other-runs">This machine \([^<>"]*\) and '
                                 rb'profile \([^<>"]*\) have [0-9,]+ other runs?: see <a href="\.\./#[^<>"]*">the '
                                 rb'list of their runs</a>\.</p>')
NO_OTHER_RUNS = '<p id="other-runs" hidden></p>'  # a run alone: nothing to read, a place to refill


def other_runs(summary: dict, others: int) -> str:
    """The sentence of a result page (aggregate.result_summary) leading to the other runs of its
    machine label and profile, `others` of them, in their list on /results/ (aggregate.run_groups);
    an empty hidden paragraph when there is none, so that a run added later can be said there
    without rendering the page again (build.refill_other_runs)."""
    if not others:
        return NO_OTHER_RUNS
    return (f'<p id="other-runs">This machine ({escape(summary["machine_name"])}) and profile '
            f'({escape(summary["profile"]) or "none named"}) have {others:,} other run{"" if others == 1 else "s"}: '
            f'see <a href="../#{escape(summary["runs_anchor"])}">the list of their runs</a>.</p>')


# A share of the row's best at or above each bound takes its shade (heat-0 the best; CSS colours
# them, in light and dark): the overview's heat map.
HEAT_BOUNDS = (99.5, 90.0, 75.0, 50.0)


def heat_class(share_pct: float) -> str:
    return f"heat-{next((i for i, bound in enumerate(HEAT_BOUNDS) if share_pct >= bound), len(HEAT_BOUNDS))}"


def gap_shown(share_pct: float) -> str:
    """A figure's difference from its row's best, share_pct being figure / best in percent, as
    the site prints a percent (knowledge.percent_shown): 99.62 % of the best is "−0.38 %", not a
    tie ("−0 %": only the best itself says "best"), 0.3 % is "−99.7 %", not "−100 %" (#62 round 11)."""
    return percent_shown(share_pct - 100).replace("-", "\u2212") + " %"


def overview_table(rows: list[dict]) -> str:
    """The run at a glance: for every workload and main measure (comparison.HEADLINE; a cell with
    none of them, as many an import's, its first measure) of its default cells (an import's: its
    "imported" ones), each filesystem's figure as a percent difference from the row's best (0 %
    for the best; "less is better" measures taken as best / figure), as a heat map (a table
    whose cells are shaded by that share), each linking to the cell's figures. A run of one
    filesystem has nothing to set its figures against: one column of figures, unshaded, and a
    caption that says so. Descriptive: nothing here is tested. "" for a run with no figure."""
    from ..results.comparison import HEADLINE
    ok = [r for r in rows if r["status"] == "ok" and r["mean"] and r["mean"] > 0]
    variant = "defaults" if any(r["variant"] == "defaults" for r in ok) else "imported"
    by_cell: dict[str, list] = {}
    for r in ok:
        if r["variant"] == variant:
            by_cell.setdefault(r["key"], []).append(r)
    chosen = [r for cell in by_cell.values() for r in ([m for m in cell if m["metric"] in HEADLINE] or cell[:1])]
    filesystems = sorted({r["filesystem"] for r in chosen})
    lines: dict[tuple, dict] = {}
    for r in chosen:
        parts = r["key"].split("|")
        workload = r["workload"] + (f" {parts[4]}" if len(parts) > 4 else "")
        order = HEADLINE.index(r["metric"]) if r["metric"] in HEADLINE else len(HEADLINE)
        lines.setdefault((workload, order, r["metric"]), {})[r["filesystem"]] = r
    if not lines:
        return ""
    if len(filesystems) == 1:
        caption = (f"Each main measure of this run. It measured one filesystem ({escape(filesystems[0])}), so no "
                   "figure here can be set against another of the same run: the figures are shown unshaded, each "
                   "linking to its n and interval on the page of every cell; the compare page sets runs side by side.")
    else:
        caption = ("Each main measure of this run, every filesystem as a percent difference from the best on its row "
                   "(for a measure where less is better, best / figure). Shaded from the best "
                   "(darkest) to under half of it; a figure flagged cached, cache-unknown or emulated is no measure "
                   "of the filesystem on its disk: it is not ranked, and no row's best. Each links to the cell's "
                   "figure, n and interval on the page of "
                   "every cell. Nothing here is tested: the compare page tests two filesystems of one run.")
    out = [f'<table class="data-table overview-table" tabindex="0"><caption>{caption}</caption><thead><tr>'
           '<th scope="col">Workload</th><th scope="col">Measure</th>'
           + "".join(f'<th scope="col">{escape(fs)}</th>' for fs in filesystems) + "</tr></thead><tbody>"]
    for (workload, _, metric), cells in sorted(lines.items()):
        higher = next(iter(cells.values()))["better"] == "higher"
        # the best among the figures a ranking would rank: a cached or cache-unknown figure is no
        # measure of the filesystem on its disk (flags.UNRANKED, as the rankings leave it out), so
        # it is no row's best and is set against none (#62 round 11: ntfs's cache-unknown seq-read
        # was "best", every other filesystem a percent below it)
        ranked = [r for r in cells.values() if not set(r["flags"]) & flags.UNRANKED]
        best = (max if higher else min)(r["mean"] for r in ranked) if ranked else None
        out.append(f'<tr><th scope="row">{escape(workload)}</th><td>{escape(metric)}</td>')
        for fs in filesystems:
            r = cells.get(fs)
            if r is None:
                out.append('<td class="num heat-none">–</td>')
                continue
            # the cell's figures (n, interval) are on the page of every cell (split_cells): one tap away
            link = f'<a href="{CELLS_PAGE}/#{cell_anchor(r["key"])}"'
            if len(filesystems) == 1:
                out.append(f'<td class="num">{link} title="its n and interval">{escape(r["shown"]["mean"])}</a></td>')
                continue
            unranked = sorted(set(r["flags"]) & flags.UNRANKED)
            if unranked:
                out.append(f'<td class="num heat-unranked">{link} title="{escape(r["shown"]["mean"])}: its n and interval">'
                           f'not ranked: {escape(", ".join(unranked))}</a></td>')
                continue
            share = 100 * (r["mean"] / best if higher else best / r["mean"])
            said = "best" if r["mean"] == best else gap_shown(share)
            out.append(f'<td class="num {heat_class(share)}">{link} '
                       f'title="{escape(r["shown"]["mean"])}: its n and interval">{said}</a></td>')
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def tables(result: dict, rows: list[dict], throughput: list[dict]) -> dict:
    """Slot name: HTML, for one result (aggregate.cell_rows and throughput_rows): its tables and
    its throughput chart's picture (result_chart; "" leaves the chart to the browser)."""
    return {"overview-table": overview_table(rows), "throughput-table": throughput_table(throughput, result),
            "metrics-table": metrics_table(rows), "raw-table": raw_table(result),
            "throughput-chart": result_chart.svg(throughput)}


def file_name(rid: str) -> str:
    """The file in TABLES_DIR holding the tables of one result (pack)."""
    return rid + ".html"


# A tables file: each slot's HTML behind <!--fsatlas-slot NAME-->, then the slot "end N", N the
# bytes before it, with nothing after it: a file cut short, or grown or shrunk by a rewrite (line
# ends converted), is no tables file. As JSON it was 0.5 ms of a filler's CPU a page to decode and
# encode again (orjson, 265 KB of a quick result's tables: 5 s of CPU when a template change fills
# 10,000 pages, #65); this is split on its bytes. No table holds the mark: every value a table
# prints is escaped, so "<" is "&lt;" there (pack checks it all the same). Templates read a slot
# with partials/results/table.html, which refuses what unpack refuses.
MARK = b"<!--fsatlas-slot "
LAST = b"end %d-->"  # the slot that ends a file written whole, with the bytes before it
SLOT_NAME = re.compile(rb"[a-z]+(-[a-z]+)*")  # a name SLOT finds, which no "-->" can end early


def pack(made: dict) -> bytes:
    """A result's tables file, from {slot name: HTML} (tables)."""
    parts = []
    for name, html in made.items():
        named, data = name.encode(), html.encode()
        if not SLOT_NAME.fullmatch(named) or named == b"end" or MARK in data:
            raise ValueError(f"the table of slot {name!r} cannot be packed")
        parts += [MARK, named, b"-->", data]
    body = b"".join(parts)
    return body + MARK + LAST % len(body)


def unpack(data: bytes) -> dict:
    """{slot name: HTML}, as UTF-8 bytes, from a tables file; ValueError where it is not what
    pack writes (cut short, changed, or written by something else)."""
    head, *parts = data.split(MARK)
    if head or not parts or parts[-1] != LAST % (len(data) - len(MARK) - len(parts[-1])):
        raise ValueError("not a tables file written whole by fsatlas aggregate")
    made = {}
    for part in parts[:-1]:
        name, closed, html = part.partition(b"-->")
        if not closed or not SLOT_NAME.fullmatch(name) or name in made:
            raise ValueError("not a tables file written whole by fsatlas aggregate")
        made[name] = html
    return made


def read_regular(path: str) -> bytes:
    """The bytes of a file fsatlas aggregate wrote in the build folder; OSError for anything
    else there (a folder; a FIFO, which an open for reading would wait on for ever: #65 round 49)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with open(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise IsADirectoryError(f"not a file: {path}")
        return f.read()


def read(path: str) -> dict:
    """What OTHER_RUNS holds, from the file aggregate wrote (JSON, which templates read too)."""
    return orjson.loads(read_regular(path))


# Where results/single.html wants a table (partials/results/table-slot.html writes it: an
# element, as html/template drops comments), its name the slot's, in the page's bytes
SLOT = re.compile(rb'<div data-fsatlas-slot="([a-z-]+)"></div>')


def fill_slots(page: bytes, tables: dict) -> bytes:
    """The page (UTF-8, as Hugo wrote it) with each table (slot name: HTML, both UTF-8 bytes:
    unpack) in place of its slot, in one pass over the page's bytes: at 10,000 pages a pass a
    slot over the page as text took 2.1 s and encoding and decoding it most of 5.7 s
    (PERFORMANCE.md, #65). KeyError for a slot tables has nothing for: no page is left with one."""
    return SLOT.sub(lambda m: tables[m[1]], page)


CELLS = '<section id="every-cell" data-fsatlas-cells>'  # layouts/results/single.html
SYSTEM = '<section id="system">'  # layouts/partials/results/system.html
CELLS_PAGE = "cells"  # the folder of that section's page, in the result page's folder
CELLS_LINK = ('<section id="every-cell"><h2>Every cell and metric</h2><p>Every cell\'s metrics (mean, '
              'median, 95% CI, RSD, n) and the raw output behind each figure are on '
              f'<a href="{CELLS_PAGE}/">a page of their own</a>.</p></section>')
CELLS_TITLE = "{}: every cell and metric"  # the cells page's title in search (the result page's heading)
BACK_LINK = '<p>Of the run on <a href="./">its result page</a>: its system, chart and tables.</p>'


def split_cells(page: bytes) -> tuple[bytes, bytes | None]:
    """(the result page, the page of every cell, or None where the page has no such section),
    as UTF-8 bytes (fill_slots).
    The largest tables, every cell's metrics and its raw output (230 KB of a standard run's
    420), move to a page of their own: parsing them on a slow CPU held back the first paint of
    the chart above them by 0.4 s (#62). That page is the result page's heading, its system
    table (a figure names its system where it is shown) and that section alone (no second copy
    of the chart to write for each of 10,000 results); its relative addresses (the raw table's,
    and "./" back to the result page) resolve from the result page's folder (<base>). It is in
    the search index under a title of its own (the result's heading and what the page holds):
    its tables' text (cell keys, metric names, raw output) is on no other page (#62)."""
    start = page.find(CELLS.encode())
    if start < 0:
        return page, None
    end = page.index(b"</section>", start) + len(b"</section>")
    heading = page.index(b"</h1>") + len(b"</h1>")
    at = page.find(SYSTEM.encode())
    system = page[at:page.index(b"</section>", at) + len(b"</section>")] if 0 <= at < start else b""
    h1 = page.rindex(b"<h1", 0, heading)
    title = page[page.index(b">", h1) + 1:heading - len(b"</h1>")].decode()
    named = _html_escape(CELLS_TITLE.format(_html_unescape(re.sub(r"<[^>]*>", "", title)).strip()))
    cells = (page[:h1] + f'<h1 data-pagefind-meta="title:{named}"'.encode() + page[h1 + 3:heading]
             + BACK_LINK.encode() + system + page[start:])
    cells = cells.replace(b"<head>", b'<head>\n  <base href="../">', 1)
    return page[:start] + CELLS_LINK.encode() + page[end:], cells