"""What the site shows of the probe results (data/probes): the newest finding of each
filesystem and probe, beside what the cited sources say (data/features)."""
import os

from ..results import bundle, probefile, resultfile


def shown(finding: dict) -> str:
    """A finding in words: yes, no, a limit with its unit, or its status."""
    if "value" in finding:
        return finding["value"]
    if "limit" in finding:
        return ("at least " if finding.get("at_least") else "") + f"{finding['limit']:,} {finding['unit']}"
    return finding["status"]


def agreement(finding: dict, fact: dict | None) -> str | None:
    """'agrees' or 'disagrees' where the probe and the cited fact both say yes or no; None when
    either does not (a limit, or a partial whose note says where it holds: shown side by side,
    for the reader to compare)."""
    said = (fact or {}).get("value")
    if finding.get("value") not in ("yes", "no") or said not in ("yes", "no"):
        return None
    return "agrees" if said == finding["value"] else "disagrees"


def rows(data_dir: str, features: dict, publish) -> dict:
    """filesystem -> probe -> what a page shows of the newest finding; publish(bundle path, id)
    puts each probe result's transcripts where the raw file viewer reads them."""
    out, newest = {}, {}
    for path in probefile.files(data_dir):
        data = resultfile.load_json(path)
        rid = data["id"]
        publish(bundle.path(os.path.dirname(path), rid), rid)
        for finding in data["findings"]:
            key = (finding["filesystem"], finding["probe"])
            if key in newest and newest[key] >= data["created"]:
                continue
            newest[key] = data["created"]
            fact = features.get(finding["filesystem"], {}).get("features", {}).get(finding["probe"])
            out.setdefault(finding["filesystem"], {})[finding["probe"]] = {
                "shown": shown(finding), "status": finding["status"], "detail": finding["detail"],
                "kernel": data["system"]["kernel"], "date": data["created"][:10], "emulated": data.get("emulated", False),
                "result": rid, "member": bundle.member_of(rid, finding["raw"]), "agreement": agreement(finding, fact)}
    return out
