"""The results explorer's data: an index (every result file, cell key and metric, repeated
strings stored once) and one small chunk per result file with its rows as parallel arrays.
The page loads the index and only the chunks of the results the reader selects, so its
weight does not grow with the number of result files behind it.

A chunk depends on its own result file only (it names its cell keys and metrics rather than
numbering them against the index), so a rebuild rewrites the chunks of changed results alone.

Python computes everything that does not depend on the reader's choices (means, intervals,
share of the raw device); the explorer's JavaScript only filters, takes ratios to the
baseline the reader picks and their geometric means.

The index describes only the cell keys of the project's matrix, which no result file can add
to; a key outside it (an imported tool's sweep, a key of an older matrix) is described in its
own result's chunk. For the filters the index keeps each result's vocabulary (results/shares),
so what one result file adds to the index every visitor loads is bounded (shares.index_share,
checked by `fsatlas validate`), however many cells it holds (#42).

Versions: 2, chunks numbered keys and metrics against the index; 3, each chunk lists the
keys and metric names its rows use; 4, and beside each key the host's contention during it;
5, keys outside the matrix described in their chunk, the filters' words in the index's vocabulary.
6, each key with its swept parameter as a number (dimName, dimValue: sweep_axis), for the scaling view.
7, each result's machine name and system line (CPU, memory, storage, kernel) among its strings.
8, its system table (system_table: machines.system_facts as JSON), which the details show, in place of the line.
9, each metric's words (label), which the metric picker and an empty view's caption show.
"""
import re
import shlex
from functools import lru_cache

from . import best_per_key, knowledge, result_tables, run_rule
from .run_rule import matrix_keys  # the keys the index describes
from ..results import flags, metrics as metric_words, shares

EXPLORER_VERSION = 9
RESULT_STRINGS = ("machine", "kernel", "profile", "target", "virtualization", "cpu", "tools", "rerun", "name", "system_table")


def describe(cell: dict) -> dict:
    """A cell key as the explorer's filters, labels and re-run command show it (a digest's cell);
    with its swept parameter's name and number, the x of the scaling view (sweep_axis)."""
    name, value = sweep_axis(cell["dimensions"])
    return {"key": cell["key"], "filesystem": cell["filesystem"], "workload": cell["workload"],
            "variant": cell["variant"], "dims": cell["dimensions"], "dimName": name, "dimValue": value,
            "mkfs": cell["mkfs"], "mount": cell["mount"], "driver": cell["driver"], "command": cell["command"]}


# fio's sizes: k, m, g, t as powers of 1024 (its default kb_base=1024), with or without "i" and "b"
_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*(?:([kmgt])i?)?b?", re.I)
_POWERS = {"k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}


@lru_cache(maxsize=4096)
def sweep_axis(dims: str) -> tuple[str | None, float | None]:
    """The swept parameter of a cell's dimensions and its value as a number, for the scaling
    view's x axis: "iodepth=16" -> ("iodepth", 16.0), "bs=4k" -> ("bs", 4096.0) (fio's sizes);
    of several ("job=a,iodepth=16") the last with a number; (None, None) where none has one."""
    for part in reversed(dims.split(",") if dims else []):
        name, _, value = part.partition("=")
        match = _SIZE.fullmatch(value.strip())
        if match:
            return name, float(match.group(1)) * _POWERS.get((match.group(2) or "").lower(), 1)
    return None, None


def run_command(result: dict, cell: dict) -> str:
    """The command that re-runs exactly this cell on the reader's own machine: the result's own
    profile and target, the cell's key. Readers paste it as root: every word from the result
    file is quoted, beside the schema's patterns for them. The explorer joins the two parts
    (a result's facts carry the first, its key index the second)."""
    prefix = shares.rerun_prefix(result)
    return prefix and prefix + cell_argument(cell["key"])  # an import has none


@lru_cache(maxsize=8192)
def cell_argument(key: str) -> str:  # the same in every result of a matrix
    return f"--cell {shlex.quote(key)}"


def rsd_value(rsd: float | None) -> float | None:
    """An RSD for the explorer's chunk: to the tenth every page prints it at (knowledge.shown_rsd),
    which format.js rsd() prints as they do; None for none (n = 1, no spread). Rounded to a
    thousandth, 5.1499 came as 5.15 and the browser printed 5.2 where the pages print 5.1
    (#62 round 7, item 3)."""
    return None if rsd is None else round(rsd, 1)


def chunk(result: dict, rows: list[dict], cells: list[dict]) -> dict:
    """One result's rows, from its cell_rows (aggregate: their intervals, taken as they are);
    a throughput's share is of the raw device's figure on the same job (results/flags), where
    that baseline can judge it; beside each key, what else the host was doing meanwhile; the
    description of each of its keys the index does not describe (cells: its digest's)."""
    keys, key_index, metrics, metric_index = [], {}, [], {}
    columns = {name: [] for name in ("k", "m", "mean", "lo", "hi", "n", "rsd", "flags", "share", "samples")}
    missing = {name: [] for name in ("k", "status", "reason")}
    k_, m_, mean_, lo_, hi_, n_, rsd_, flags_, share_, samples_ = columns.values()
    for row in rows:
        key = row["key"]
        if key not in key_index:  # a cell's first row (a cell not ok has one, a cell with no metric too)
            key_index[key] = len(keys)
            keys.append(key)
            if row["status"] != "ok":
                missing["k"].append(key_index[key])
                missing["status"].append(row["status"])
                missing["reason"].append(row["reason"])
        name = row["metric"]
        if row["status"] != "ok" or name is None:
            continue
        if name not in metric_index:
            metric_index[name] = len(metrics)
            metrics.append(name)
        base, judges = flags.baseline_throughput(result["target"], row["workload"], key) if name == "throughput" \
            else (None, False)
        tp = base["mean"] if judges else None
        k_.append(key_index[key])
        m_.append(metric_index[name])
        mean_.append(row["mean"])
        lo_.append(row["ci_low"])
        hi_.append(row["ci_high"])
        n_.append(row["n"])
        rsd_.append(rsd_value(row["rsd_pct"]))
        flags_.append(",".join(row["flags"]))
        share_.append(row["mean"] / tp if tp else None)
        samples_.append(row["samples"])
    hosts = {cell["key"]: result_tables.contention(cell) for cell in result["cells"]}
    return {"version": EXPLORER_VERSION, "keys": keys, "metrics": metrics, "rows": columns, "missing": missing,
            "contention": [hosts.get(key, "") for key in keys],
            "described": {cell["key"]: describe(cell) for cell in cells if cell["key"] not in matrix_keys()}}


class Index:
    """The explorer's index, fed one result digest at a time in any order."""

    def __init__(self, state: dict | None = None):
        state = state or {"strings": [], "results": [], "keys": [], "metrics": {}, "vocabulary": {}}
        self.strings = state["strings"]  # each result's facts as numbers into this (one machine, many results)
        self.string_index = {s: i for i, s in enumerate(self.strings)}
        self.results = [(tuple(rank), complete, facts) for rank, complete, facts in state["results"]]
        self.keys = best_per_key.Best(lowest=True).restore(state["keys"])  # the oldest result describes a key
        self.metrics = state["metrics"]  # name -> {name, unit, better}
        self.vocabulary = {name: _words(words) for name, words in state["vocabulary"].items()}  # the filters' words

    def state(self) -> dict:
        return {"strings": self.strings, "keys": self.keys.state(), "metrics": self.metrics,
                "vocabulary": {name: sorted(words) for name, words in self.vocabulary.items()},
                "results": [[list(rank), complete, facts] for rank, complete, facts in self.results]}

    def merge(self, state: dict) -> None:
        """Folds in another Index's state() (its results numbered into this one's strings)."""
        strings = state["strings"]
        self.results += [(tuple(rank), complete, [self._intern(strings[i]) for i in facts])
                         for rank, complete, facts in state["results"]]
        self.keys.merge(state["keys"])
        self._learn(state["vocabulary"])
        for name, metric in state["metrics"].items():
            self.metrics.setdefault(name, metric)

    def _learn(self, vocabulary: dict) -> None:
        for name, words in vocabulary.items():
            self.vocabulary.setdefault(name, set()).update(_words(words))

    def _intern(self, value: str) -> int:
        if value not in self.string_index:
            self.string_index[value] = len(self.strings)
            self.strings.append(value)
        return self.string_index[value]

    def add(self, digest: dict) -> None:
        rank = (digest["created"], digest["id"])  # kept as written; ordered by run_rule.moment
        self.results.append((rank, digest["complete"], [self._intern(digest["facts"][name]) for name in RESULT_STRINGS]))
        self._learn(digest["vocabulary"])
        in_matrix = matrix_keys()
        for cell in digest["cells"]:
            if cell["key"] in in_matrix:
                self.keys.offer(cell["key"], (run_rule.moment(rank[0]), rank[1]), lambda: describe(cell))
            for name, m in cell["metrics"].items():
                if name not in self.metrics:  # not setdefault: it would build the entry for each of 425 metrics
                    self.metrics[name] = {"name": name, "unit": m["unit"], "better": m["better"]}

    def result(self) -> dict:
        strings, string_index = [], {}
        columns = {name: [] for name in ("id", "created", "complete", *RESULT_STRINGS)}
        for (created, rid), complete, facts in sorted(self.results, key=lambda r: (run_rule.moment(r[0][0]), r[0][1])):
            columns["id"].append(rid)
            columns["created"].append(created)
            columns["complete"].append(complete)
            for name, interned in zip(RESULT_STRINGS, facts):
                value = self.strings[interned]
                if value not in string_index:  # numbered in date order, however the results came in
                    string_index[value] = len(strings)
                    strings.append(value)
                columns[name].append(string_index[value])
        return {"version": EXPLORER_VERSION, "strings": strings, "results": columns,
                "keys": self.keys.sorted_values(),
                "vocabulary": {name: [list(w) if isinstance(w, tuple) else w for w in sorted(self.vocabulary.get(name, ()))]
                               for name in shares.VOCABULARY},
                # each with its words (results/metrics.label), which the explorer's picker and captions show
                "metrics": [dict(m, label=metric_words.label(name)) for name, m in sorted(self.metrics.items())],
                # a ratio the reader takes between two runs: what the comparison module decides of it
                "across_runs": {k: v for k, v in pairs_across().items() if k in ("design", "why")},
                # what every page prints where one sample has no interval and no spread (lo, hi, rsd null)
                "words": {"no_interval": knowledge.NO_INTERVAL, "no_rsd": knowledge.NO_RSD}}


def pairs_across() -> dict:
    from .pairs import across_runs  # pairs imports knowledge, which the explorer's workers need not load
    return across_runs()


def _words(words) -> set:
    """A vocabulary's words as a set: JSON gives a configuration as a list, a set keeps a tuple."""
    return {tuple(w) if isinstance(w, list) else w for w in words}
