"""Builds the Hugo site incrementally, like make (`fsatlas site`).

One Hugo build holds every page in memory and renders all of them each time: at 10,000 result
files that is 15 s and 1.3 GB, almost all of it the result pages. Yet a result page depends
only on its own generated page (build/content/results/<id>.md) and the templates. So the site
is built in two passes, with config.toml and the same templates, each through a --config
overlay written from config.toml:

1. Result pages. Hugo renders only the pages whose source changed since they were last
   rendered (or their sentence on the other runs of their machine and profile, which counts
   them: aggregate.other_runs), or all of them when a template, asset, config.toml or Hugo itself changed, in
   batches of --batch pages so that memory does not grow with the number of results. Each
   page then gets its tables, which fsatlas aggregate wrote to build/tables/ and which never
   pass through Hugo (result_tables). Output: build/result-html/ (state in
   build/cache/result-html.json).
2. Everything else, at the same time. Hugo with the result pages excluded and without the
   bulk static trees (the explorer's chunks and the published result files, tens of thousands
   of files Hugo would copy each time) into a fresh build/site-main/.

The destination then mirrors the static trees, the result pages and the main pass, in that
order (a rendered page wins over a static file, as in Hugo): a file whose size and mtime
are unchanged is not copied again, and a file no pass produced is removed.

Plain `hugo` (and `hugo server`, whose template reads the tables itself) with config.toml
alone builds the same site in one pass, but for the tables' slots; a test checks that both
give the same files once those are filled.
"""
import hashlib
import itertools
import json
import os
import re
import shutil
import subprocess
import tempfile
import sys
import threading
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor

from . import report, result_tables
from ..results import resultfile
from .. import outfile
from ..errors import UserError
from ..results.filesig import stat_signature

GENERATED_CONTENT = "build/content"  # where fsatlas aggregate writes pages; results/ holds one per result
RESULTS = "results"
BULK_STATIC = ("build/static",)  # static mounts the mirror copies instead of Hugo
PAGE_DATA = ["aggregates/build.json"]  # the only data a result page may read (the chart's version label)
OTHER_KINDS = ["home", "section", "taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]
BATCH = 2000  # result pages per Hugo run: about 300 MB of Hugo's memory


class Site:
    """The folders of one site: ROOT holds config.toml, content/, layouts/, data/ and build/."""

    def __init__(self, root: str, base_url: str | None = None):
        self.root = os.path.abspath(root)
        self.hugo_args = ["--baseURL", base_url] if base_url else []
        config = os.path.join(self.root, "config.toml")
        try:
            with open(config, "rb") as f:
                settings = tomllib.load(f)
            self.mounts = settings["module"]["mounts"]
            # the base URL every address of a page is under (relURL), as Hugo takes it
            self.base_url = base_url or str(settings.get("baseURL") or "/")
        except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError) as e:
            raise UserError(f"cannot read the Hugo mounts: {e}", where=config,
                            expected="[[module.mounts]] entries") from None
        sources = {m.get("source") for m in self.mounts}
        for needed in (GENERATED_CONTENT, *BULK_STATIC):
            if needed not in sources:
                raise UserError(f"no mount of {needed}", where=config, expected=f"a [[module.mounts]] of {needed}")
        self.build_dir = os.path.join(self.root, "build")
        self.pages = os.path.join(self.root, GENERATED_CONTENT, RESULTS)
        self.result_html = os.path.join(self.build_dir, "result-html")
        self.main_html = os.path.join(self.build_dir, "site-main")
        self.hugo_dir = os.path.join(self.build_dir, "hugo")
        self.stage = os.path.join(self.hugo_dir, "stage")
        self.state_file = os.path.join(self.build_dir, "cache", "result-html.json")

    def path(self, relative: str) -> str:
        return os.path.join(self.root, relative)

    # --- the overlays ------------------------------------------------------------------------
    def _overlay(self, name: str, config: dict) -> str:
        path = os.path.join(self.hugo_dir, name)
        resultfile.write_atomic(path, config, durable=False)
        return path

    def pages_overlay(self) -> str:
        """Only the staged result pages, with the site's layouts and assets, nothing else."""
        empty = os.path.join(self.hugo_dir, "empty")
        os.makedirs(empty, exist_ok=True)
        mounts = [{"source": os.path.relpath(self.stage, self.root), "target": "content"},
                  {"source": os.path.relpath(empty, self.root), "target": "static"},
                  {"source": "data", "target": "data", "includeFiles": PAGE_DATA}]
        mounts += [m for m in self.mounts if m["target"].split("/")[0] in ("layouts", "assets", "i18n")]
        return self._overlay("pages.json", {"disableKinds": OTHER_KINDS, "module": {"mounts": mounts}})

    def main_overlay(self) -> str:
        """config.toml less the result pages and the bulk static trees."""
        mounts = []
        for m in self.mounts:
            if m["source"] in BULK_STATIC and m["target"].startswith("static"):
                continue
            if m["source"] == GENERATED_CONTENT and m["target"] == "content":
                m = {**m, "excludeFiles": [*m.get("excludeFiles", []), f"{RESULTS}/**"]}
            mounts.append(m)
        return self._overlay("main.json", {"module": {"mounts": mounts}})

    def bulk_trees(self) -> list[tuple[str, str]]:
        """(source folder, folder in the destination) of each bulk static mount."""
        return [(self.path(m["source"]), m["target"][len("static"):].strip("/")) for m in self.mounts
                if m["source"] in BULK_STATIC and m["target"].split("/")[0] == "static"]

    def section_index(self) -> str | None:
        """The hand-written results/_index.md (its title is the result pages' section)."""
        for m in self.mounts:
            if m["target"] == "content" and m["source"] != GENERATED_CONTENT:
                candidate = self.path(os.path.join(m["source"], RESULTS, "_index.md"))
                if os.path.isfile(candidate):
                    return candidate
        return None

    def inputs_digest(self, overlay: str) -> str:
        """Changes whenever anything but a page's own source could change a result page."""
        h = hashlib.sha256("\0".join([hugo_version(), *self.hugo_args]).encode())
        files = [self.path("config.toml"), overlay, self.section_index() or "", *PAGE_MAKERS]
        files += [self.path(os.path.join("data", name)) for name in PAGE_DATA]
        for m in self.mounts:  # templates and assets; the generated pages are tracked one by one
            if (m["target"].split("/")[0] in ("layouts", "assets", "i18n") and os.path.isdir(self.path(m["source"]))
                    and not m["source"].startswith(GENERATED_CONTENT)):
                for folder, dirs, names in os.walk(self.path(m["source"])):
                    dirs.sort()
                    files += [os.path.join(folder, n) for n in sorted(names)]
        for path in files:
            h.update(path.encode())
            if os.path.isfile(path):
                with open(path, "rb") as f:
                    h.update(hashlib.sha256(f.read()).digest())
        return h.hexdigest()[:16]

    # --- pass 1: result pages ----------------------------------------------------------------
    def render_result_pages(self, batch: int = BATCH) -> dict:
        """Renders the result pages that are new or changed; removes those of results gone."""
        overlay = self.pages_overlay()
        inputs = self.inputs_digest(overlay)
        try:
            with open(self.state_file, encoding="utf-8") as f:
                state = json.load(f)
        except (OSError, ValueError):
            state = {}
        rendered = state.get("pages", {}) if state.get("inputs") == inputs else {}
        # a page is its source (which holds its tables' and chart's digest: aggregate.result_page)
        # and its sentence on the other runs of its machine and profile, which changes with them
        # (aggregate.other_runs)
        names = [n[:-3] for n in os.listdir(self.pages) if n.endswith(".md") and n != "_index.md"] \
            if os.path.isdir(self.pages) else []
        others = self.other_runs() if names else {}
        if set(names) - set(others):  # aggregate writes one for every result, a hidden paragraph for a run alone
            raise UserError(f"no sentence on the other runs of {min(set(names) - set(others))}: delete the file and run "
                            "fsatlas aggregate (make data)", where=os.path.join(self.build_dir, result_tables.OTHER_RUNS))
        sources = {rid: [stat_signature(os.path.join(self.pages, rid + ".md")),
                         hashlib.sha256(others[rid].encode()).hexdigest()[:16]] for rid in names}
        out = os.path.join(self.result_html, RESULTS)
        os.makedirs(out, exist_ok=True)
        folders = set(os.listdir(out))
        for gone in folders - set(sources):
            shutil.rmtree(os.path.join(out, gone))
        present = {rid for rid in folders & set(sources) if os.path.isfile(os.path.join(out, rid, "index.html"))}
        rendered = {rid: sig for rid, sig in rendered.items() if rid in sources and rid in present}
        todo = sorted(rid for rid, sig in sources.items() if rendered.get(rid) != sig)
        # a page whose source is as rendered and whose sentence on the other runs alone changed gets
        # the new sentence in place of the old, without Hugo: a run added to a machine and profile
        # of 200 runs rendered all 200 pages again (1.9 s of a rebuild at 10,000 results, #65)
        refilled = [rid for rid in todo if rid in rendered and rendered[rid][0] == sources[rid][0]]
        for rid in refilled:
            refill_other_runs(os.path.join(out, rid, "index.html"), others.get(rid, ""))
            rendered[rid] = sources[rid]
        todo = sorted(set(todo) - set(refilled))

        def save():
            resultfile.write_atomic(self.state_file, {"inputs": inputs, "pages": rendered}, compact=True, durable=False)
        save()  # what is gone or stale is forgotten even when nothing is rendered
        parts = [todo[start:start + batch] for start in range(0, len(todo), batch)]
        following, done = self.stage + "-next", self.stage + "-done"

        fillers = _Fillers(self.build_dir, out, others, len(todo))

        def fill(part):
            """In the thread, beside the next Hugo run: each page of a rendered batch gets its
            tables and its chart's picture (result_tables), and only then counts as rendered."""
            fillers.fill(part)
            rendered.update((rid, sources[rid]) for rid in part)
            save()  # after each batch: an interrupted build resumes

        def prepare(n):
            """In a thread beside the Hugo run before: batch n staged in `following`, the folder
            of the batch before that removed (a link per page, an unlink per old page and per
            staged page: 1.3 s of file system calls at 10,000 pages under cProfile)."""
            shutil.rmtree(done, ignore_errors=True)
            if n < len(parts):
                self._stage(parts[n], following, out)

        for folder in (self.stage, following, done):
            shutil.rmtree(folder, ignore_errors=True)
        fills, finished = [], False
        try:  # the fillers end with the pass, interrupted or not (terminated unless it finished)
            with ThreadPoolExecutor(1) as helper:
                staged = helper.submit(prepare, 0)
                for n, part in enumerate(parts):
                    staged.result()
                    if os.path.isdir(self.stage):
                        os.rename(self.stage, done)
                    os.rename(following, self.stage)
                    named = part[0] if len(part) == 1 else f"{part[0]} … {part[-1]}"
                    hugo = Hugo(self.root, overlay, self.result_html, f"result pages {named}", self.hugo_args)
                    staged = helper.submit(prepare, n + 1)
                    try:
                        hugo.finish()
                    except BaseException:
                        hugo.stop()
                        raise
                    fills.append(helper.submit(fill, part))
                staged.result()
                for filled in fills:
                    filled.result()
                finished = True
        finally:
            fillers.close(finished)
        shutil.rmtree(self.stage, ignore_errors=True)
        return {"pages": len(sources), "rendered": len(todo), "refilled": len(refilled)}

    def _tables_are_files(self) -> None:
        """Every file of build/tables is a file (not a link, a FIFO or a folder), before Hugo reads
        any: an article's shortcode reads one through Hugo's readFile, which waited on a FIFO for
        its 30 s timeout and read a link to /dev/zero until memory ran out (#65 round 50)."""
        folder = os.path.join(self.build_dir, result_tables.TABLES_DIR)
        for entry in os.scandir(folder) if os.path.isdir(folder) else ():
            if not entry.is_file(follow_symlinks=False):
                raise UserError("not a file fsatlas aggregate wrote: delete it and run fsatlas aggregate (make data)",
                                where=entry.path)

    def other_runs(self) -> dict:
        """result id -> its page's sentence on its machine and profile's other runs, as fsatlas
        aggregate wrote them (result_tables.OTHER_RUNS); none before an aggregate that writes them."""
        path = os.path.join(self.build_dir, result_tables.OTHER_RUNS)
        try:
            others = result_tables.read(path)
        except FileNotFoundError:
            raise UserError("no sentences on other runs: run fsatlas aggregate (make data)", where=path) from None
        except (OSError, ValueError):  # cut short, or not a file: orjson's error is a ValueError
            others = None
        if not isinstance(others, dict) or not all(
                isinstance(v, str) and result_tables.OTHER_RUNS_SENTENCE.fullmatch(v.encode()) for v in others.values()):
            raise UserError("not the sentences on other runs that fsatlas aggregate writes: delete the file and run "
                            "fsatlas aggregate (make data)", where=path)
        return others

    def _stage(self, ids: list, folder: str, out: str) -> None:
        """A content folder holding just these pages (hard links, or copies across devices); their
        old output in OUT is unlinked, so that Hugo writes new files instead of rewriting those
        the destination links to (see mirror)."""
        pages = os.path.join(folder, RESULTS)
        os.makedirs(pages)
        index = self.section_index()
        for name, source in [(f"{rid}.md", os.path.join(self.pages, f"{rid}.md")) for rid in ids] + \
                            ([("_index.md", index)] if index else []):
            try:
                os.link(source, os.path.join(pages, name))
            except OSError:
                shutil.copy2(source, os.path.join(pages, name))
        for rid in ids:
            try:
                os.unlink(os.path.join(out, rid, "index.html"))
            except FileNotFoundError:
                pass

    # --- pass 2 and the destination ----------------------------------------------------------
    def build(self, destination: str, batch: int = BATCH) -> dict:
        made = self.path(os.path.join("data", PAGE_DATA[0]))
        if not os.path.isfile(made):
            raise UserError("the site's data is not derived yet: run fsatlas aggregate (make data) first",
                            where=made)
        self._tables_are_files()
        target = os.path.join(self.root, destination)
        named = "mirror-" + hashlib.sha256(os.path.abspath(target).encode()).hexdigest()[:16]
        manifest, trash = (os.path.join(self.build_dir, "cache", named + suffix) for suffix in (".json", "-trash"))
        shutil.rmtree(self.main_html, ignore_errors=True)
        main = Hugo(self.root, self.main_overlay(), self.main_html, "the site", self.hugo_args)
        trees = [*self.bulk_trees(), (self.result_html, ""), (self.main_html, "")]

        def main_pass() -> str:  # its charts drawn as soon as it is done, while result pages still render
            main.finish()
            return draw_charts(self.main_html, os.path.join(self.build_dir, "cache", "charts"), self.path(BULK_STATIC[0]),
                               self.base_url)
        with ThreadPoolExecutor(2) as helpers:
            # the static trees do not change during the passes: they are listed meanwhile
            listed = helpers.submit(list_ahead, trees[:-2], target, manifest)
            charts = helpers.submit(main_pass)
            try:  # the two passes are independent: the result pages render while the rest builds
                summary = self.render_result_pages(batch)
                summary["charts"] = charts.result()
            except BaseException:
                main.stop()
                raise
            summary.update(mirror(trees, target, manifest, trash, listed.result(), fresh=(self.main_html,)))
        Trash.empty_in_background(trash)
        return summary


FILL_PROCESSES_FROM = 50  # pages rendered before filling them on every core pays for its processes


class _Fillers:
    """Who fills the slots of rendered result pages (fill_page): this process for a few pages,
    else a process a core, each taking every page of a batch whose place is its own modulo their
    number. Filling is Python's work (parsing a page's tables, joining, and writing 276 KB of
    pages), so the one thread beside Hugo was the critical path of a build rendering every
    page: at 10,000 pages 17.9 s of its wall time, 12.5 s of its own CPU. The processes are
    spawned, not forked: this process runs threads (Hugo's main pass, the listing ahead), and a
    fork copies the locks they hold."""

    def __init__(self, build_dir: str, out: str, others: dict, pages: int):
        self.build_dir, self.out, self.others = build_dir, out, others
        self.count = min(os.cpu_count() or 1, 4)  # a cap chosen, not measured: this machine has 2 cores
        self.pool = None
        if pages >= FILL_PROCESSES_FROM and self.count > 1:
            import multiprocessing
            self.pool = multiprocessing.get_context("spawn").Pool(
                self.count, initializer=_filler_setup, initargs=(build_dir, out, others))

    def fill(self, part: list) -> None:
        if self.pool is None:
            for rid in part:
                fill_page(self.build_dir, os.path.join(self.out, rid, "index.html"), rid, self.others.get(rid, ""))
            return
        for failed in self.pool.map(_fill_share, [part[k::self.count] for k in range(self.count)], chunksize=1):
            if failed:  # a UserError in a filler, raised here with its file
                raise UserError(failed[0], where=failed[1])

    def close(self, done: bool) -> None:
        if self.pool is not None:
            (self.pool.close if done else self.pool.terminate)()
            self.pool.join()


_filler: tuple = ()  # in a filler process: (build_dir, out, others), from _filler_setup


# glibc's mallopt parameters (malloc.h): a block of at least M_MMAP_THRESHOLD bytes is mapped
# alone and unmapped when freed; the heap's free top past M_TRIM_THRESHOLD goes back to the kernel
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3


def _keep_freed_memory() -> None:
    """A filler's large blocks reused rather than given back to the kernel. A filler allocates
    and frees some ten blocks of 100 KB or more a page (the tables file, 265 KB for a quick
    result; the page filled, then split): glibc mapped each alone and unmapped it when freed, so
    each new one was faulted in again page by page. Filling 3,000 pages in one process took
    85,000 page faults and 1.3 s of system CPU, and 4,700 faults and 0.9 s with these kept
    (PERFORMANCE.md, #65). Nothing where the C library is not glibc."""
    import ctypes
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return
    mallopt(M_MMAP_THRESHOLD, 8 << 20)
    mallopt(M_TRIM_THRESHOLD, 128 << 20)


def _filler_setup(build_dir: str, out: str, others: dict) -> None:
    """A filler keeps what it fills with, ends quietly when the pool terminates it, and leaves
    a Ctrl-C to its parent."""
    import signal
    global _filler
    _filler = (build_dir, out, others)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _keep_freed_memory()


def _fill_share(rids: list) -> tuple | None:
    """fill_page for each page, in a filler: None, or (message, file) of the UserError that stopped it."""
    build_dir, out, others = _filler
    try:
        for rid in rids:
            fill_page(build_dir, os.path.join(out, rid, "index.html"), rid, others.get(rid, ""))
    except UserError as e:
        return e.body, e.where
    return None


def fill_page(build_dir: str, page: str, rid: str, others: str) -> None:
    """Writes a result page again with its tables and its chart's SVG (result_tables.tables: ""
    leaves the chart to the browser) and its sentence on the other runs of its machine and
    profile (others), in place: the file is the one Hugo has just written (its page staged,
    the old output unlinked: Site._stage), which nothing links to yet. build_dir: the site's
    build folder, which holds each result's tables."""
    table_file = os.path.join(build_dir, result_tables.TABLES_DIR, result_tables.file_name(rid))
    try:
        tables = result_tables.unpack(result_tables.read_regular(table_file))
    except FileNotFoundError:
        raise UserError("no tables for this result page: run fsatlas aggregate (make data)",
                        where=table_file) from None
    except (OSError, ValueError):  # cut short, written by something else, not a file
        tables = None
    with open(page, "r+b") as f:  # bytes end to end (result_tables.fill_slots)
        try:
            filled = result_tables.fill_slots(f.read(), {**tables, b"other-runs": others.encode()}) if tables else None
        except KeyError:  # a slot the file has no table for
            filled = None
        if filled is None:
            raise UserError("the tables of this result page are not the slots fsatlas aggregate writes: delete the "
                            "file and run fsatlas aggregate (make data)", where=table_file)
        html, cells = result_tables.split_cells(filled)
        f.seek(0)
        f.write(html)
        f.truncate()
    if cells is not None:  # a new file: the destination may hold the old one as a link (mirror)
        folder = os.path.join(os.path.dirname(page), result_tables.CELLS_PAGE)
        os.makedirs(folder, exist_ok=True)
        _replace_page(os.path.join(folder, "index.html"), cells)


def refill_other_runs(page: str, others: str) -> None:
    """A filled result page with its sentence on the other runs of its machine and profile
    (result_tables.OTHER_RUNS_SENTENCE, which holds one even for a run alone: an empty hidden
    paragraph) replaced by others, written as a new file: the destination may link to the old one
    (mirror). A page without that sentence is a page of another version: refused, as a build
    that changed fsatlas renders every page (inputs_digest)."""
    with open(page, "rb") as f:
        html = f.read()
    found = result_tables.OTHER_RUNS_SENTENCE.search(html)
    if found is None:
        raise UserError("a result page without its sentence on the other runs of its machine and profile: delete "
                        "build/result-html and build again", where=page)
    _replace_page(page, html[:found.start()] + others.encode() + html[found.end():])


def _replace_page(page: str, data: bytes) -> None:
    """A page's bytes as a new file renamed over it (the destination may link to the old one),
    its temporary in the one form the mirror never publishes (outfile.is_temporary: a killed
    filler's "tmpXXXXXXXX" was published beside the page, #65 round 54), removed if interrupted."""
    with tempfile.NamedTemporaryFile("wb", dir=os.path.dirname(page), delete=False, prefix=outfile.TEMP_PREFIX,
                                     suffix=outfile.TEMP_SUFFIX) as f:
        try:
            f.write(data)
            f.close()
            os.chmod(f.name, 0o644)
            os.replace(f.name, page)
        except BaseException:  # interrupted: no half-written page beside the old one for the mirror to copy
            os.unlink(f.name)
            raise


DRAW_CHARTS = os.path.join(report.REPO, "scripts", "draw-charts.mjs")


# What makes a result page besides Hugo and its own source: the code that fills and splits it;
# pages made with other versions are rendered again (inputs_digest).
PAGE_MAKERS = [result_tables.__file__, __file__]


def draw_charts(folder: str, cache: str, files: str, base_url: str = "/") -> str:
    """The charts of the pages in folder drawn to SVG in place (scripts/draw-charts.mjs): a page
    shows them with no script, and Vega loads only when a reader reaches for one. files: the
    folder of the site's files that are not in folder (a result's chart rows, for an article);
    base_url: the site's (Hugo's baseURL), which a page's addresses are under: a page with a
    byte budget counts the site's files it loads (draw-charts.mjs weighed())."""
    done = subprocess.run(["node", DRAW_CHARTS, folder, cache, files, base_url], capture_output=True, text=True,
                          cwd=report.REPO, timeout=600)
    if done.returncode != 0:
        raise UserError(f"drawing the charts failed: {done.stderr.strip()[-600:]}", where=DRAW_CHARTS)
    sys.stderr.write(done.stderr)
    return done.stdout.strip()


# Go's collector in every Hugo run fsatlas starts: off below a soft limit on Go's memory, past
# which Go collects as usual. A batch of 2,000 result pages then peaks at about 310 MB (240 MB
# with Go's default, GOGC=100), and Hugo spends 4.9-5.0 s of user CPU on 10,000 result pages
# where it spent 6.3-6.6 (GOGC=400: 5.5-5.6); measured in PERFORMANCE.md. Go 1.19 or later
# reads GOMEMLIMIT (Debian's Hugo 0.111.3 is built with 1.19.6). A user's own GOGC or
# GOMEMLIMIT wins.
HUGO_GC = {"GOGC": "off", "GOMEMLIMIT": "512MiB"}


def hugo_env() -> dict:
    """The environment a Hugo run gets: this one, with HUGO_GC unless it sets either."""
    env = dict(os.environ)
    if not {"GOGC", "GOMEMLIMIT"} & set(env):
        env.update(HUGO_GC)
    return env


def hugo_version() -> str:
    try:
        return subprocess.run(["hugo", "version"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError) as e:
        raise UserError(f"hugo is not installed or does not run ({e}): make setup installs it") from None


HUGO_ERROR = re.compile(r"ERROR \d{4}/\d\d/\d\d \d\d:\d\d:\d\d (.*)")  # a line Hugo 0.111 logs an error with
OWN_ERROR = re.compile(r"(build/[\w./-]+): (.+)")  # what an errorf of ours says of a file fsatlas wrote


class Hugo:
    """One Hugo build, started in the background; finish() waits for it. A failure is a
    UserError with Hugo's own error lines (not --quiet: that hides what errorf in a template
    says). Output goes to files, so a long report cannot block it on a full pipe."""

    def __init__(self, root: str, overlay: str, destination: str, what: str, args: list):
        self.root, self.what = root, what
        self.output = tempfile.TemporaryFile(mode="w+", encoding="utf-8")
        self.reading = threading.Lock()  # finish (in a thread) and stop (the main one, on an error) both close output
        self.proc = subprocess.Popen(["hugo", "--source", root, "--config", f"config.toml,{overlay}",
                                      "--destination", destination, *args], cwd=root, env=hugo_env(),
                                     stdout=self.output, stderr=subprocess.STDOUT, text=True)

    def finish(self) -> None:
        self.proc.wait()
        with self.reading:
            if self.output.closed:  # stopped: the build is failing already
                raise UserError(f"hugo was stopped building {self.what}", where=os.path.join(self.root, "config.toml"))
            self.output.seek(0)
            text = self.output.read()
            self.output.close()
        if self.proc.returncode != 0:
            lines = [line for line in text.splitlines() if "ERROR" in line or "Error" in line]
            said = sorted({m[1] for m in map(HUGO_ERROR.match, lines) if m})
            named = [OWN_ERROR.match(line) for line in said]
            if said and all(named):  # errorfs of templates of ours, each naming the file it refuses: one line
                more = f" (and {len(said) - 1} more like it)" if len(said) > 1 else ""
                raise UserError(named[0][2] + more, where=os.path.join(self.root, named[0][1]))
            raise UserError(f"hugo failed building {self.what}:", listing="\n".join(lines)[-3000:],
                            where=os.path.join(self.root, "config.toml"))

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        with self.reading:
            self.output.close()


class Manifest:
    """The source folders the last mirror listed, with their mtimes, and so what it placed in
    the destination: a folder whose mtime has not moved since is not listed again. That holds
    because its files change in one of two ways only. Replaced (fsatlas writes a new file and
    renames it; Hugo's output is unlinked first): the rename moves the folder's mtime. Edited in
    place: the destination is a hard link to the same inode, so it already shows the edit. A
    folder holding a copy (the destination on another filesystem) is always listed again, as is
    one modified less than RACY_NS before the manifest was written (mtimes have a coarse clock;
    git's index has the same rule). A destination replaced since (a placed file gone, or not
    the inode it was) is mirrored afresh. A tree made afresh by each build (the main pass's) is
    always listed: Hugo gives the folders it copies from static/ their source's mtime, which a
    file edited in place there does not move."""

    RACY_NS = 2_000_000_000
    PROBES = 32

    def __init__(self, path: str, destination: str):
        self.path, self.destination = path, destination
        self.folders, self.written, self.placed = {}, 0, {}
        try:
            with open(path, encoding="utf-8") as f:
                stored = json.load(f)
            if stored["destination"] == destination and self._probes_hold(stored["probes"]):
                self.folders, self.written = stored["folders"], stored["written"]
                self.placed = {rel: entry for rel, (_, entry) in self.files(stored["trees"], relist=False).items()}
        except (OSError, ValueError, KeyError, TypeError):
            self.folders = {}
        if not self.placed:  # a destination of unknown state: whatever is in it counts as placed
            for folder, _, names in os.walk(destination):
                for name in names:
                    self.placed[os.path.relpath(os.path.join(folder, name), destination)] = [-1, -1]
        self.visited = set()

    def _probes_hold(self, probes: list) -> bool:
        try:
            return all(os.lstat(os.path.join(self.destination, rel)).st_ino == ino for rel, ino in probes)
        except OSError:
            return False

    def _probes(self, placed: list) -> list:
        """[relative path, inode] of up to PROBES placed files spread over the destination."""
        step = max(1, len(placed) // self.PROBES)
        chosen = sorted(placed)[::step][:self.PROBES]
        return [[rel, os.lstat(os.path.join(self.destination, rel)).st_ino] for rel in chosen]

    def listing(self, folder: str, relist: bool = True, fresh: bool = False) -> tuple:
        """(files {name: [size, mtime]}, subfolders) of a source folder, listed again only
        when it may have changed (never, with relist=False: what the manifest holds; always,
        with fresh: a folder made anew by this build).
        An entry of the manifest: [mtime, holds a copy, subfolders, {name: [size, mtime]}]."""
        known = self.folders.get(folder)
        if relist:
            mtime = os.stat(folder).st_mtime_ns
            self.visited.add(folder)
            if fresh or not (known and known[0] == mtime and mtime < self.written - self.RACY_NS and not known[1]):
                known = self._list(folder, mtime)
        if not known:
            return {}, []
        return known[3], known[2]

    def _list(self, folder: str, mtime: int) -> list:
        files, folders = {}, []
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_dir():
                    folders.append(entry.name)
                elif outfile.is_temporary(entry.name):  # a killed write's: never published (#65 round 53)
                    continue
                else:
                    st = entry.stat()
                    files[entry.name] = [st.st_size, st.st_mtime_ns]
        self.folders[folder] = [mtime, False, folders, files]
        return self.folders[folder]

    def files(self, trees: list, relist: bool = True, fresh: tuple = ()) -> dict:
        """destination path -> (source folder, [size, mtime]) of every file of trees, later trees
        winning over earlier ones (paths are joined only for the files placed: 10,000s here);
        the trees rooted at a folder of fresh are listed in full."""
        wanted = {}
        for source, prefix in trees:
            if not (os.path.isdir(source) if relist else source in self.folders):
                continue
            base = prefix.strip("/") + "/" if prefix.strip("/") else ""
            todo = [(base, source)]
            while todo:
                rel, folder = todo.pop()
                found, subfolders = self.listing(folder, relist, source in fresh)
                wanted.update((rel + name, (folder, entry)) for name, entry in found.items())
                todo += [(rel + name + "/", folder + os.sep + name) for name in subfolders]
        return wanted

    def save(self, trees: list, copied_from: set, placed: list) -> None:
        self.folders = {folder: entry for folder, entry in self.folders.items() if folder in self.visited}
        for folder in copied_from:
            if folder in self.folders:
                self.folders[folder][1] = True
        self.written = time.time_ns()
        resultfile.write_atomic(self.path, {
            "destination": self.destination, "probes": self._probes(placed), "written": self.written,
            "trees": [list(tree) for tree in trees], "folders": self.folders}, compact=True, durable=False)


def _place(source: str, target: str, exists: bool, folder_made: bool = False) -> bool:
    """A hard link to source at target (a copy where the two sit on different filesystems);
    either way it has the source's size and mtime. An existing target is replaced by a rename,
    never left half-written; a missing folder is made. True if it had to copy."""
    tmp = target + ".fsatlas-tmp" if exists else target
    try:
        copied = _link_or_copy(source, tmp)
    except FileExistsError:  # a file the manifest did not know, or a temporary one an interrupted mirror left
        if exists:
            os.unlink(tmp)
        return _place(source, target, True, folder_made)
    except FileNotFoundError:
        if folder_made or not os.path.exists(source):
            raise
        # a new folder, or one deleted since; the other placing thread may be making it too
        os.makedirs(os.path.dirname(target), exist_ok=True)
        return _place(source, target, exists, True)
    if exists:
        try:
            os.replace(tmp, target)
        except IsADirectoryError:
            os.unlink(tmp)
            raise UserError("a folder where the site puts a file: remove it and build again", where=target) from None
        if os.path.lexists(tmp):  # one file under both names (a copy that kept hard links): rename(2) keeps both
            os.unlink(tmp)
    return copied


def _link_or_copy(source: str, target: str) -> bool:
    try:
        os.link(source, target)
        return False
    except (FileExistsError, FileNotFoundError):
        raise
    except OSError:
        shutil.copy2(source, target)
        return True


class Trash:
    """Where the mirror puts the files it replaces or removes, deleted in the background once
    the build is done (empty_in_background). Deleting a file frees its blocks, and on ext4
    mounted with discard, as here, that costs 0.2-0.3 ms a file, mostly waiting on the
    journal: replacing 10,000 result pages held the mirror up 2.7 s. Without a folder, or
    with the destination on another filesystem (a rename cannot move a file there), files
    are deleted where they are."""

    def __init__(self, folder: str | None, destination: str):
        self.folder, self.numbers, self.lock, self.made = folder, itertools.count(), threading.Lock(), False
        if folder:
            os.makedirs(os.path.dirname(folder), exist_ok=True)
        self.usable = bool(folder) and os.stat(os.path.dirname(folder)).st_dev == os.stat(destination).st_dev

    def _next(self) -> str:
        if not self.made:  # made when something first goes in, once whatever the threads
            with self.lock:
                if not self.made:
                    os.makedirs(self.folder, exist_ok=True)
                    self.made = True
        return os.path.join(self.folder, str(next(self.numbers)))

    def _into(self, put, path: str) -> str | None:
        """put(path, a new place in the trash) (a link or a rename); that place, or None."""
        if self.usable:
            try:
                kept = self._next()
                put(path, kept)
                return kept
            except OSError:
                pass  # then the file is freed now: slower, and no rollback can restore it
        return None

    def keep(self, path: str) -> str | None:
        """A second link to path's file, so that replacing path frees nothing now; where it is
        (what a rollback puts back), or None."""
        return self._into(os.link, path)

    def take(self, path: str) -> str | None:
        """Removes path from where it is, into the trash; where it went, or None."""
        kept = self._into(os.rename, path)
        if kept is None:
            os.unlink(path)
        return kept

    @staticmethod
    def empty_in_background(folder: str) -> subprocess.Popen | None:
        """Deletes the trash folder (and any an interrupted build left) in a process of its own
        that outlives this one, as `git gc --auto` detaches: the build is done when its files
        are in place, and the freeing overlaps whatever runs next, at the lowest priority, so
        that a build started right after (make serve, a benchmark) keeps both cores."""
        parent, name = os.path.split(folder)
        try:
            os.rename(folder, f"{folder}.emptying-{time.time_ns()}")
        except OSError:
            pass  # nothing was put in the trash
        parked = [os.path.join(parent, n) for n in os.listdir(parent) if n.startswith(name + ".emptying-")] \
            if os.path.isdir(parent) else []
        if not parked:
            return None
        return subprocess.Popen(["nice", "-n", "19", "rm", "-rf", "--", *parked], stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


def _roll_back(done: list) -> None:
    """Undoes the mirror's changes so far, newest first: each replaced or removed file back from
    the trash, each new one removed. A file the trash could not keep (another filesystem) is
    named in the error instead."""
    lost = []
    for target, kept, existed in reversed(done):
        try:
            if kept:
                os.makedirs(os.path.dirname(target), exist_ok=True)
                os.replace(kept, target)
            elif existed:
                lost.append(target)
            elif os.path.lexists(target):
                os.unlink(target)
        except OSError:
            lost.append(target)
    if lost:
        raise UserError(f"the mirror failed and {len(lost)} files could not be put back as they were "
                        f"(first: {lost[0]}); delete the destination and build again", where=os.path.dirname(lost[0]))


def list_ahead(trees: list[tuple[str, str]], destination: str, manifest_path: str) -> tuple:
    """What mirror lists first, done beforehand: (its Manifest, the files of these first trees,
    how many trees)."""
    manifest = Manifest(manifest_path, os.path.abspath(destination))
    return manifest, manifest.files(trees), len(trees)


def mirror(trees: list[tuple[str, str]], destination: str, manifest_path: str, trash: str | None = None,
           listed: tuple | None = None, fresh: tuple = ()) -> dict:
    """Makes destination hold exactly the files of trees [(source, prefix)], later trees winning
    over earlier ones; places only files whose size or mtime differ from what it placed last
    (see Manifest). The destination's files are hard links to the sources', so the passes never
    write into a source file in place: they make a new one, and the destination keeps the old
    until the mirror places the new. Files changed in the destination by hand are not noticed:
    delete it to start afresh. With a trash folder, the files replaced or removed go there
    (see Trash) instead of being deleted, and a mirror that fails midway (a full disk) puts
    them back: the destination is left as it was. listed: list_ahead of the first trees;
    fresh: the source folders made anew by this build (always listed in full)."""
    manifest, wanted, done = listed or (Manifest(manifest_path, os.path.abspath(destination)), {}, 0)
    wanted.update(manifest.files(trees[done:], fresh=fresh))
    os.makedirs(destination, exist_ok=True)
    old_files = Trash(trash, destination)
    changed = [(rel, source_folder, have) for rel, (source_folder, entry) in wanted.items()
               if (have := manifest.placed.get(rel)) != entry]

    done_so_far = []  # (target, the old file's place in the trash, or None where there was none)

    def place(part):  # the calls wait on the file system's journal: two threads overlap them
        copied = set()
        for rel, source_folder, have in part:
            target = os.path.join(destination, rel)
            existed = have is not None and os.path.lexists(target)
            kept = old_files.keep(target) if existed else None
            if _place(os.path.join(source_folder, rel.rsplit("/", 1)[-1]), target, exists=have is not None):
                copied.add(source_folder)
            done_so_far.append((target, kept, existed))
        return copied
    placed, removed = len(changed), 0
    emptied = set()
    try:
        with ThreadPoolExecutor(2) as pool:
            copied_from = set().union(*pool.map(place, [changed[0::2], changed[1::2]]))
        for rel in manifest.placed.keys() - wanted.keys():
            target = os.path.join(destination, rel)
            if os.path.lexists(target):
                done_so_far.append((target, old_files.take(target), True))
            emptied.add(os.path.dirname(target))
            removed += 1
    except BaseException:
        _roll_back(done_so_far)  # the destination as it was: a half-updated site is never left
        raise
    for folder in sorted(emptied, key=len, reverse=True):  # deepest first, then up while empty
        while folder != destination and folder.startswith(destination) and os.path.isdir(folder) \
                and not os.listdir(folder):
            os.rmdir(folder)
            folder = os.path.dirname(folder)
    manifest.save(trees, copied_from, list(wanted))
    return {"copied": placed, "removed": removed, "files": len(wanted)}
