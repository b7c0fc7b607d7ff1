"""The results explorer's data: an index (every result file, cell key and metric, repeated
strings stored once) and one small chunk per result file with its rows as parallel arrays.
The page loads the index and only the chunks of the results the reader selects, so its
weight does not grow with the number of result files behind it.

Python computes everything that does not depend on the reader's choices (means, intervals,
share of the raw device); the explorer's JavaScript only filters, takes ratios to the
baseline the reader picks and their geometric means.
"""
EXPLORER_VERSION = 2
RESULT_STRINGS = ("machine", "kernel", "profile", "target", "virtualization", "cpu", "tools")


def _tools(result: dict) -> str:
    return "; ".join(f"{k} {v}" for k, v in sorted(result["tool"].items()))


def run_command(result: dict, cell: dict) -> str:
    """The command that re-runs exactly this cell on the reader's own machine."""
    profile = result.get("profile") or "standard"
    key = cell["key"].replace("'", "'\\''")
    target = "--directory DIR " if result["target"]["kind"] == "directory" else ""
    return f"fsatlas run --profile {profile} {target}--cell '{key}'"


def build(results: list[dict]) -> tuple:
    """(index, {result id: chunk})."""
    from . import matrix
    baselines = {name: w.get("baseline", "") for name, w in matrix.load().workloads.items()}
    keys, key_index, metrics, metric_index = [], {}, [], {}
    strings, string_index = [], {}
    columns = {name: [] for name in ("id", "created", "complete", *RESULT_STRINGS)}
    chunks = {}

    def text(value: str) -> int:
        if value not in string_index:
            string_index[value] = len(strings)
            strings.append(value)
        return string_index[value]

    for result in sorted(results, key=lambda r: (r["created"], r["id"])):
        baseline = result["target"].get("baseline", {})
        facts = {"machine": result["system"]["machine"], "kernel": result["system"]["kernel"],
                 "profile": result.get("profile", ""), "target": result["target"]["kind"],
                 "virtualization": result["system"]["virtualization"], "cpu": result["system"]["cpu_model"],
                 "tools": _tools(result)}
        columns["id"].append(result["id"])
        columns["created"].append(result["created"])
        columns["complete"].append(result.get("complete", True))
        for name in RESULT_STRINGS:
            columns[name].append(text(facts[name]))
        rows = {name: [] for name in ("k", "m", "mean", "lo", "hi", "n", "rsd", "flags", "share", "samples")}
        missing = {name: [] for name in ("k", "status", "reason")}
        chunks[result["id"]] = {"version": EXPLORER_VERSION, "rows": rows, "missing": missing}
        for cell in result["cells"]:
            if cell["key"] not in key_index:
                dims = cell["key"].split("|")[4] if cell["key"].count("|") >= 4 else ""
                key_index[cell["key"]] = len(keys)
                keys.append({"key": cell["key"], "filesystem": cell["filesystem"], "workload": cell["workload"],
                             "variant": cell.get("variant", "defaults"), "dims": dims,
                             "mkfs": " ".join(cell["mkfs_options"]), "mount": ",".join(cell["mount_options"]),
                             "driver": cell["driver"], "command": run_command(result, cell)})
            k_i = key_index[cell["key"]]
            if cell["status"] != "ok":
                for name, value in (("k", k_i), ("status", cell["status"]), ("reason", cell.get("reason", ""))):
                    missing[name].append(value)
                continue
            base_tp = baseline.get(baselines.get(cell["workload"], ""), {}).get("throughput", {}).get("mean")
            for name, m in cell["metrics"].items():
                if name not in metric_index:
                    metric_index[name] = len(metrics)
                    metrics.append({"name": name, "unit": m["unit"], "better": m["better"]})
                share = m["mean"] / base_tp if name == "throughput" and base_tp else None
                for col, value in (("k", k_i), ("m", metric_index[name]), ("mean", m["mean"]),
                                   ("lo", m["ci95"][0]), ("hi", m["ci95"][1]), ("n", len(m["samples"])),
                                   ("rsd", round(m["rsd_pct"], 3)), ("flags", ",".join(cell["flags"])),
                                   ("share", share), ("samples", m["samples"])):
                    rows[col].append(value)
    index = {"version": EXPLORER_VERSION, "strings": strings, "results": columns, "keys": keys, "metrics": metrics}
    return index, chunks

