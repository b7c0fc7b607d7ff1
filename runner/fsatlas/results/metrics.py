"""Every metric a result file may hold: name -> (unit, which way is better), per kind of
workload, as DESIGN.md's contract names them. The workloads in run/ report these; validation
checks a file's units and directions against them; both read this one table."""

CPU = {"cpu_usr_pct": ("percent", "lower"), "cpu_sys_pct": ("percent", "lower")}
FIO = {
    "throughput": ("bytes/s", "higher"),
    "iops": ("ops/s", "higher"),
    "lat_mean_ns": ("ns", "lower"),
    "lat_p50_ns": ("ns", "lower"),
    "lat_p99_ns": ("ns", "lower"),
    "lat_p999_ns": ("ns", "lower"),
    # jobs that sync: fio's sync latency, and the mean of a write with its share of the syncs
    "sync_lat_mean_ns": ("ns", "lower"),
    "sync_lat_p50_ns": ("ns", "lower"),
    "sync_lat_p99_ns": ("ns", "lower"),
    "sync_lat_p999_ns": ("ns", "lower"),
    "write_sync_lat_mean_ns": ("ns", "lower"),
    **CPU,
}
DD = {"throughput": ("bytes/s", "higher")}  # dd prints no CPU figures: none a raw file would back
LIFECYCLE = {"seconds": ("s", "lower"), **CPU}
SMALL_FILE_PHASES = ("create", "stat", "read", "rename", "delete")
SMALL_FILES = {f"{p}_per_s": ("ops/s", "higher") for p in SMALL_FILE_PHASES} | CPU
TREE_COPY = {"seconds": ("s", "lower"), "bytes_used": ("bytes", "lower"), "read_per_s": ("ops/s", "higher"), **CPU}
MAIL_DELIVERY = {"deliveries_per_s": ("ops/s", "higher"), **CPU}
SQLITE_COMMITS = {"commits_per_s": ("ops/s", "higher"), **CPU}

# Every metric name the runner may write, and those the importers add: a mixed read/write job's
# sides (fio's trim too) with their latencies, bonnie++'s total CPU and maximum latency.
KNOWN = {**FIO, **DD, **LIFECYCLE, **SMALL_FILES, **TREE_COPY, **MAIL_DELIVERY, **SQLITE_COMMITS}
KNOWN.update({f"{side}_{name}": KNOWN[name] for side in ("read", "write", "trim")
              for name in ("throughput", "iops", "lat_mean_ns", "lat_p50_ns", "lat_p99_ns", "lat_p999_ns")})
KNOWN.update(cpu_total_pct=("percent", "lower"), lat_max_ns=("ns", "lower"))
# bonnie++'s file tests: each phase's longest latency (create, stat, delete)
KNOWN.update({f"{phase}_lat_max_ns": ("ns", "lower") for phase in ("create", "stat", "delete")})
# what Phoronix Test Suite results count (importers/pts.py): fs-mark's files, postmark's transactions
KNOWN.update(files_per_s=("ops/s", "higher"), transactions_per_s=("ops/s", "higher"), ops_per_s=("ops/s", "higher"))

def scale(name: str) -> str:
    """The scale a comparison tests a metric on (results/comparison.py): a rate, a time, a latency
    or a size is positive and its effects are ratios, so its logarithm; a share of CPU may be zero
    and differs by points, so the values themselves."""
    unit = KNOWN.get(name, ("", ""))[0]
    return "linear" if unit == "percent" else "log"


# What each metric measures, in words, for a reader (axis titles, compare rows): the unit is
# printed beside it. A side of a mixed job ("read_lat_p99_ns") is its side's name before the words.
LABELS = {
    "throughput": "throughput", "iops": "I/O operations per second",
    "lat_mean_ns": "mean latency", "lat_p50_ns": "median latency", "lat_p99_ns": "99th-percentile latency",
    "lat_p999_ns": "99.9th-percentile latency", "lat_max_ns": "longest latency",
    "sync_lat_mean_ns": "mean sync latency", "sync_lat_p50_ns": "median sync latency",
    "sync_lat_p99_ns": "99th-percentile sync latency", "sync_lat_p999_ns": "99.9th-percentile sync latency",
    "write_sync_lat_mean_ns": "mean time of a write with its sync",
    "cpu_usr_pct": "CPU in user mode", "cpu_sys_pct": "CPU in the kernel", "cpu_total_pct": "CPU",
    "seconds": "time taken", "bytes_used": "space used",
    "create_per_s": "files created per second", "stat_per_s": "files stat'ed per second",
    "read_per_s": "files read per second", "rename_per_s": "files renamed per second",
    "delete_per_s": "files deleted per second", "deliveries_per_s": "mails delivered per second",
    "commits_per_s": "SQLite commits per second", "files_per_s": "files per second",
    "transactions_per_s": "transactions per second", "ops_per_s": "operations per second",
    "create_lat_max_ns": "longest latency of a create", "stat_lat_max_ns": "longest latency of a stat",
    "delete_lat_max_ns": "longest latency of a delete",
}


def label(name: str) -> str:
    """"lat_p99_ns" -> "99th-percentile latency", "read_throughput" -> "read throughput"; a name
    this table lacks (an imported tool's) with its underscores as spaces."""
    if name in LABELS:
        return LABELS[name]
    side, _, rest = name.partition("_")
    if side in ("read", "write", "trim") and rest in LABELS:
        return f"{side} {LABELS[rest]}"
    return name.replace("_", " ")


# Where each figure comes from in the raw file it is recomputed from (results/validation), per
# kind of workload: what a reader checks a figure against. <rw> is the job's direction (read or
# write; both for a mixed job, whose metrics then carry read_ or write_ before their names).
CPU_FROM = "the member's \"cpu\": the user and system CPU time of fsatlas and its children (getrusage) while the workload ran, as a share of one CPU over its wall time"
FROM = {
    "fio": {"throughput": "jobs[].<rw>.bw_bytes", "iops": "jobs[].<rw>.iops",
            "lat_mean_ns": "jobs[].<rw>.lat_ns.mean",
            "lat_p50_ns": 'jobs[].<rw>.clat_ns.percentile["50.000000"]',
            "lat_p99_ns": 'jobs[].<rw>.clat_ns.percentile["99.000000"]',
            "lat_p999_ns": 'jobs[].<rw>.clat_ns.percentile["99.900000"]',
            "sync_lat_mean_ns": "jobs[].sync.lat_ns.mean (and its percentiles for sync_lat_p50/p99/p999_ns)",
            "write_sync_lat_mean_ns": "jobs[].write.lat_ns.mean + jobs[].sync.lat_ns.mean × jobs[].sync.lat_ns.N ÷ jobs[].write.total_ios",
            "cpu_usr_pct": "jobs[].usr_cpu", "cpu_sys_pct": "jobs[].sys_cpu"},
    "dd": {"throughput": "bytes ÷ seconds of dd's summary line (\"N bytes (…) copied, S s, …\"), in any language dd prints"},
    "smallfiles": {"<phase>_per_s": "files ÷ seconds.<phase> of the runner's member (create, stat, read, rename, delete)",
                   "cpu_usr_pct, cpu_sys_pct": CPU_FROM},
    "treecopy": {"seconds": "seconds: the wall time of cp -a and a sync of the copy",
                 "bytes_used": "bytes_used: the filesystem's used space (statfs) after the copy less before",
                 "read_per_s": "files ÷ seconds.read (tree-read: every file of the tree on the filesystem read back)",
                 "cpu_usr_pct, cpu_sys_pct": CPU_FROM},
    "maildelivery": {"deliveries_per_s": "count ÷ seconds of the runner's member", "cpu_usr_pct, cpu_sys_pct": CPU_FROM},
    "sqlitecommits": {"commits_per_s": "count ÷ seconds of the runner's member", "cpu_usr_pct, cpu_sys_pct": CPU_FROM},
    "lifecycle": {"seconds": "seconds: the wall time of mkfs or mount, by the runner's clock around the tool",
                  "cpu_usr_pct, cpu_sys_pct": CPU_FROM},
}
