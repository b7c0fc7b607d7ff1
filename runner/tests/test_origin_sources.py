"""Issue #63, round 2, item 2: origin facts are checked like the others. The system a filesystem
was written for, its first release and its maker rest on a cited primary source that states them
(the registry's states); its year in Linux and the release that merged it on a primary source;
and a wiki (wikipedia.org, kernelnewbies.org, a host or path naming a wiki) is secondary whether
or not its entry says so. Each rule is written here apart from the module and walked over every
filesystem with its sources' standing drawn at random."""
import copy
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml
from hypothesis import given, settings, strategies as st

from fsatlas.cli import main
from fsatlas.site import feature_matrix, knowledge

DATA = Path(__file__).resolve().parents[2] / "data"
FIELDS = {"original_os": ("origin", "os"), "first_released": ("origin", "year"), "maker": ("origin", "maker"),
          "linux_year": ("linux", "year"), "linux_merged": ("linux", "merged")}


def _is_wiki(url: str) -> bool:
    parts = urlsplit(url)
    host = parts.hostname or ""
    return (host == "wikipedia.org" or host.endswith(".wikipedia.org") or host in ("kernelnewbies.org", "www.kernelnewbies.org")
            or "wiki" in host or "wiki" in [seg for seg in parts.path.split("/") if seg])


def _hand_answers(key: str, doc: dict, by_id: dict) -> bool:
    part, field = FIELDS[key]
    # In Linux since: the merging release, or a driver no release merges (user space, never merged, out of tree)
    never = key == "linux_merged" and doc["linux"]["driver"] in ("fuse", "never-merged", "out-of-tree")
    if doc[part].get(field) is None and not never:
        return False
    primary = [by_id[s] for s in doc[part]["sources"] if not by_id[s].get("secondary") and not _is_wiki(by_id[s].get("url", ""))]
    if key in ("original_os", "first_released", "maker"):
        return any(key in s.get("states", ()) for s in primary)
    return bool(primary)


@pytest.fixture(scope="module")
def world():
    data, problems = knowledge.load(str(DATA))
    assert not [p for p in problems if p.severity == "error"], problems[:3]
    return data, {s["id"]: s for s in data["sources"]}


def test_every_origin_cell_of_the_data_is_answered_as_the_rule_says(world):
    data, by_id = world
    for fs, doc in data["features"].items():
        for key in FIELDS:
            assert (feature_matrix.origin_why(key, doc, by_id) == "") is _hand_answers(key, doc, by_id), (fs, key)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_an_origin_fact_on_no_stating_primary_source_is_unanswered_and_refused(world, draw):
    data, by_id = world
    fs = draw.draw(st.sampled_from(sorted(data["features"])))
    key = draw.draw(st.sampled_from(sorted(FIELDS)))
    doc = copy.deepcopy(data["features"][fs])
    by_id = copy.deepcopy(by_id)
    part, field = FIELDS[key]
    for ident in doc[part]["sources"]:  # each cited source: left, made secondary, turned into a wiki, or its states emptied
        how = draw.draw(st.sampled_from(["left", "secondary", "wiki", "no states"]))
        if how == "secondary":
            by_id[ident]["secondary"] = True
        elif how == "wiki":
            by_id[ident] = {k: v for k, v in by_id[ident].items() if k != "secondary"}
            by_id[ident]["url"] = draw.draw(st.sampled_from(["https://en.wikipedia.org/wiki/X", "https://kernelnewbies.org/Linux_5.15",
                                                          "https://ext4.wiki.kernel.org/", "https://github.com/a/b/wiki/Page"]))
        elif how == "no states":
            by_id[ident]["states"] = []
    answered = _hand_answers(key, doc, by_id)
    assert (feature_matrix.origin_why(key, doc, by_id) == "") is answered
    refused = [p for p in knowledge._origin_rules(doc, by_id) if p.path == f"/{part}/{field}"]
    never = key == "linux_merged" and doc["linux"]["driver"] in ("fuse", "never-merged", "out-of-tree")
    assert bool(refused) is ((doc[part].get(field) is not None or never) and not answered), (fs, key, refused)


@settings(max_examples=80)
@given(st.sampled_from(["http", "https"]), st.sampled_from(["en.wikipedia.org", "wikipedia.org", "kernelnewbies.org", "reiser4.wiki.kernel.org",
                                                             "btrfs.wiki.kernel.org", "docs.kernel.org", "github.com", "lore.kernel.org",
                                                             "sort.veritas.com", "wiki.archlinux.org", "openzfs.github.io"]),
       st.lists(st.sampled_from(["wiki", "docs", "Linux_5.15", "tuxera", "ntfs-3g", "Page", "wikis"]), max_size=3))
def test_a_wiki_is_secondary_whatever_its_entry_says(scheme, host, path):
    url = f"{scheme}://{host}/{'/'.join(path)}"
    assert feature_matrix.secondary({"url": url}) is _is_wiki(url), url


def test_check_data_refuses_a_wiki_not_marked_secondary(tmp_path, capsys):
    """The adversary's case: a wiki cited without secondary: true passed; now one located line."""
    for name in ("sources.yaml", "feature_columns.yaml", "corrections.yaml", "kernel_history.yaml", "features",
                 "mount_options", "history", "probes"):
        src = DATA / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, tmp_path / name)
    sources = yaml.safe_load((tmp_path / "sources.yaml").read_text())
    i = next(i for i, s in enumerate(sources) if s["id"] == "reiser4-wiki")
    del sources[i]["secondary"]
    (tmp_path / "sources.yaml").write_text(yaml.safe_dump(sources, allow_unicode=True, sort_keys=False))
    capsys.readouterr()
    assert main(["check-data", "--data", str(tmp_path)]) == 1
    assert f"sources.yaml: error: /{i}/secondary: expected secondary: true" in capsys.readouterr().err
