"""What the site shows of the probe results (data/probes): for each filesystem and probe, the
newest finding on each kernel it was tried on, beside what the cited sources say
(data/features)."""
import os

from ..results import bundle, probefile, resultfile
from ..run import probes_generic
from .limits import limit_agrees, limit_amount


def shown(finding: dict) -> str:
    """A finding in words: yes, no, a limit with its unit, or its status."""
    if "value" in finding:
        return finding["value"]
    if "limit" in finding:
        return ("at least " if finding.get("at_least") else "") + f"{finding['limit']:,} {finding['unit']}"
    return finding["status"]


def agreement(finding: dict, fact: dict | None) -> str | None:
    """'agrees' or 'disagrees' where the probe and the cited fact both say yes or no, or both give
    a limit (limits.limit_agrees: the probe's number in its unit, as the fact writes it,
    the rule check-data holds a fact citing the probe to); None when either does not (a partial
    whose note says where it holds, a status, a limit that is no number)."""
    fact = fact or {}
    if "limit" in finding and str(fact.get("limit", "")).strip().lower() == "not applicable":
        return "disagrees"  # a probe found a limit of what the fact says does not apply (round 47)
    if "limit" in finding and "limit" in fact and limit_amount(finding["probe"], fact["limit"]) is not None:
        return "disagrees" if limit_agrees(finding["probe"], fact["limit"], finding) else "agrees"
    said = fact.get("value")
    if finding.get("value") not in ("yes", "no") or said not in ("yes", "no"):
        return None
    return "agrees" if said == finding["value"] else "disagrees"


def driver_shown(finding: dict) -> str:
    """The driver that mounted the filesystem, where it is not the filesystem's own name (ext2
    by ext4's driver, NTFS by ntfs-3g): the answer may hold for that driver alone; "" where it is
    the filesystem's own, or the record is older than the driver's recording."""
    driver = finding.get("driver", "")
    return "" if driver == finding["filesystem"] else driver


def kernel_release(kernel: str) -> str:
    """'6.18' of '6.18.44-fc-v782', '6.1' of '6.1.0-56-amd64': how a page names a kernel."""
    return ".".join(kernel.split("-")[0].split(".")[:2])


def rows(data_dir: str, features: dict, publish) -> dict:
    """filesystem -> probe -> [what a page shows of the newest finding on each kernel release,
    newest release first]; publish(bundle path, id) puts each probe result's transcripts where
    the raw file viewer reads them."""
    newest = {}  # (filesystem, probe, release) -> (created, shown finding)
    for path in probefile.files(data_dir):
        data = resultfile.load_json(path)
        rid = data["id"]
        publish(bundle.path(os.path.dirname(path), rid), rid)
        release = kernel_release(data["system"]["kernel"])
        members = None
        for finding in data["findings"]:
            finding = probes_generic.read_now(finding)  # as the current rule reads it, saying so
            key = (finding["filesystem"], finding["probe"], release)
            # the newest record of a release, the larger id where two share a created time (as
            # feature_matrix.evidence reads them for the count: one answer on the page and in the count)
            if key in newest and newest[key][0] >= (data["created"], rid):
                continue
            fact = features.get(finding["filesystem"], {}).get("features", {}).get(finding["probe"])
            inferred = ""
            if finding["filesystem"] in probefile.MANY_DRIVERS and "driver" not in finding:
                # a record older than the driver's recording: its transcript's mount -t may still name it
                if members is None:
                    members = bundle.read(os.path.dirname(path), rid)
                named = probefile.transcript_drivers(finding["filesystem"], members.get(bundle.member_of(rid, finding["raw"]), b""))
                inferred = next(iter(named)) if len(named) == 1 else ""
            newest[key] = ((data["created"], rid), {
                "shown": shown(finding), "status": finding["status"], "detail": finding["detail"],
                "kernel": data["system"]["kernel"], "release": release, "date": data["created"][:10],
                "emulated": data.get("emulated", False), "result": rid, "member": bundle.member_of(rid, finding["raw"]),
                "driver": driver_shown({**finding, "driver": inferred}) if inferred else driver_shown(finding),
                "driver_inferred": bool(inferred),  # from the transcript's mount -t, which the page says
                "driver_missing": finding["filesystem"] in probefile.MANY_DRIVERS and "driver" not in finding and not inferred,
                "agreement": agreement(finding, fact),
                # a limit as a number in the probe's unit, for the tables' sorting (aggregate.limit_sort)
                **({"sort_number": repr(float(finding["limit"]))} if finding.get("limit") is not None else {})})
    out = {}
    for (fs, probe, release), (_, row) in sorted(newest.items(), key=lambda item: release_key(item[0][2]), reverse=True):
        out.setdefault(fs, {}).setdefault(probe, []).append(row)
    for by_probe in out.values():
        for found in by_probe.values():
            since(found)
    return out


def since(found: list) -> None:
    """Marks the newest kernel's finding with the release its answer has held since, among the
    kernels probed, and what the release before gave ("since": "6.12", "before": "no",
    "before_release": "6.1"), where two kernels answered differently; found: newest first."""
    answered = [row for row in found if row["status"] == "ok"]
    if len(answered) < 2 or len({row["shown"] for row in answered}) < 2:
        return
    first = answered[0]
    for older in answered[1:]:
        if older["shown"] != first["shown"]:
            first.update(before=older["shown"], before_release=older["release"])
            break
        first["since"] = older["release"]
    first.setdefault("since", first["release"])


def release_key(kernel: str) -> tuple:
    """(6, 18) of '6.18.44-fc-v782' or of '6.18': a kernel release to compare and sort by."""
    return tuple(int(part) if part.isdigit() else 0 for part in kernel_release(kernel).split("."))
