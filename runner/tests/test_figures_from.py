"""The methodology page's table of where each figure comes from (metrics.FROM) names every
metric each kind of workload reports, and its fio paths, followed in a public fio output by
hand, give the figures the importer reads."""
import json
import re
from pathlib import Path

from fsatlas.results import fio_json, metrics

SAMPLES = Path(__file__).parent / "fixtures" / "samples" / "fio"
KINDS = {"fio": metrics.FIO, "dd": metrics.DD, "smallfiles": metrics.SMALL_FILES, "treecopy": metrics.TREE_COPY,
         "maildelivery": metrics.MAIL_DELIVERY, "sqlitecommits": metrics.SQLITE_COMMITS, "lifecycle": metrics.LIFECYCLE}


def test_every_metric_of_every_kind_is_said_where_it_comes_from():
    for kind, table in KINDS.items():
        said = " ".join(metrics.FROM[kind]) + " " + " ".join(metrics.FROM[kind].values())
        for name in table:
            phase = re.sub(r"^(create|stat|read|rename|delete)_per_s$", "<phase>_per_s", name) if kind == "smallfiles" else name
            short = re.sub(r"^sync_lat_(p50|p99|p999)_ns$", r"sync_lat_\1", phase)
            assert phase in said or short.replace("sync_lat_", "") in said, (kind, name)


def _at(document, path):
    """The value at a path as metrics.FROM writes it: jobs[0].write.clat_ns.percentile["99.000000"]."""
    for part in re.findall(r'\[(\d+)\]|\["([^"]+)"\]|\.?([A-Za-z_]+)', path):
        document = document[int(part[0])] if part[0] else document[part[1] or part[2]]
    return document


def test_the_fio_paths_give_the_figures_the_importer_reads():
    checked = 0
    for sample in sorted(SAMPLES.glob("*.json")):
        report = fio_json.parse(sample.read_text())
        if not report.get("jobs"):
            continue  # a client/server report: its jobs are under client_stats
        job = report["jobs"][0]
        for rw in ("read", "write"):
            if not isinstance(job.get(rw), dict) or not job[rw].get("total_ios") or "bw_bytes" not in job[rw]:
                continue  # fio before 3.0 printed KiB/s only: the importer converts it (importers/fio.py)
            got = fio_json.job_metrics(job, rw)
            for name in ("throughput", "iops", "lat_mean_ns", "lat_p50_ns", "lat_p99_ns", "lat_p999_ns",
                         "cpu_usr_pct", "cpu_sys_pct"):
                if name not in got:
                    continue
                path = metrics.FROM["fio"][name].replace("jobs[]", "jobs[0]").replace("<rw>", rw)
                assert float(_at(report, path)) == got[name], (sample.name, rw, name)
                checked += 1
    assert checked >= 6
