"""Issue 62, third round, item 1: the result page's "compare your own system" command runs
exactly the result's cells, no more and no fewer, and names those today's runner no longer knows.

The command is read as a reader pastes it (shlex) and resolved by the runner's own argument
parser and cell selection (commands/plan.select, what `fsatlas run` and its dry run `fsatlas plan`
call), over every committed result and subsets of their cells drawn by hypothesis."""
import contextlib
import io
import json
import shlex
from pathlib import Path

from hypothesis import given, settings, strategies as st

from fsatlas import cli
from fsatlas.cli import build_parser
from fsatlas.commands import plan
from fsatlas.results.resultfile import readable
from fsatlas.run import matrix as matrix_mod
from fsatlas.site import aggregate

RESULTS = sorted((Path(__file__).resolve().parents[2] / "data" / "results").glob("*.json"))
COMMITTED = [readable(json.loads(path.read_text())) for path in RESULTS]


def shown(result: dict) -> str:
    """The command as layouts/results/single.html shows it."""
    return f'fsatlas compare {result["id"]}.json "$({aggregate.own_run(result)["command"]})"'


def run_words(page_command: str) -> list:
    words = shlex.split(page_command)
    assert words[:3] == ["fsatlas", "compare", words[2]] and words[3].startswith("$(") and words[3].endswith(")")
    run = shlex.split(words[3][2:-1])
    assert run[:2] == ["fsatlas", "run"]
    return run[1:]


def resolved(page_command: str) -> list:
    """The keys of the cells `fsatlas run` would run for the pasted command, by its own code."""
    _, profile = plan.select(build_parser().parse_args(run_words(page_command)))
    return [c.key for c in profile.cells]


def today(result: dict) -> set:
    """The keys today's matrix runs in the result's profile, with any option variant (the
    runner's own expansion)."""
    m = matrix_mod.load()
    name = result.get("profile") or "standard"
    return {c.key for c in m.profile(name, variants=["defaults", *m.variants]).cells} if name in m.profiles else set()


def variant_cells(profile: str) -> list:
    """Cells of the profile that only --variant runs (a quick run with --variant noatime), as a
    result file would hold them: beside the committed examples, which ran their profile's plan."""
    m = matrix_mod.load()
    planned = {c.key for c in m.profile(profile).cells}
    return [{"key": c.key, "filesystem": c.filesystem, "workload": c.workload, "variant": c.variant, "status": "ok"}
            for c in m.profile(profile, variants=["defaults", *m.variants]).cells if c.key not in planned]


def check(result: dict) -> None:
    keys = [c["key"] for c in result["cells"]]
    made = aggregate.own_run(result)
    known = today(result)
    assert made["unknown"] == [k for k in dict.fromkeys(keys) if k not in known]
    if not made["command"]:
        assert not set(keys) & known
        return
    ran = resolved(shown(result))
    assert len(ran) == len(set(ran))
    assert set(ran) == set(keys) & known  # no more, no fewer
    assert set(ran) | set(made["unknown"]) == set(keys)


def test_every_committed_result_s_command_runs_exactly_its_cells():
    assert len(COMMITTED) >= 7
    for result in COMMITTED:
        check(result)
    # the adversary's examples: a 30-cell and a 20-cell run, and a standard run of 228 cells,
    # 6 of them gone from today's profile, named rather than dropped
    by_id = {r["id"]: r for r in COMMITTED}
    assert len(resolved(shown(by_id["20261124T192938Z-fsatlas-ci-vm-standard"]))) == 30
    assert len(resolved(shown(by_id["20261123T024558Z-m-042018a7f3-quick"]))) == 20
    gone = aggregate.own_run(by_id["20261125T085339Z-m-05e18e6041-standard"])["unknown"]
    assert len(gone) == 6 and "ext4|-|data=journal|seq-write" in gone


@settings(max_examples=40)
@given(st.data())
def test_any_subset_of_a_result_s_cells_is_run_exactly(data):
    """Beside the examples: any cells of any committed result, of any status (an all-failed run
    kept no --fs before), and keys today's matrix has never had."""
    result = data.draw(st.sampled_from(COMMITTED))
    cells = data.draw(st.lists(st.sampled_from(result["cells"]), min_size=1, max_size=40,
                               unique_by=lambda c: c["key"]))
    status = data.draw(st.sampled_from([None, "failed", "skipped"]))
    cells = [dict(c, status=status) if status else c for c in cells]
    if data.draw(st.booleans()):
        cells.append(dict(cells[0], key=data.draw(st.sampled_from(["ext4|-|-|gone", "zfs|-|-|seq-write",
                                                                   cells[0]["key"] + "|x=1"]))))
    beside = variant_cells(result.get("profile") or "standard")
    if beside and data.draw(st.booleans()):
        cells += data.draw(st.lists(st.sampled_from(beside), min_size=1, max_size=5, unique_by=lambda c: c["key"]))
        cells = list({c["key"]: c for c in cells}.values())
    check(dict(result, cells=cells))


def test_a_quick_run_with_a_variant_its_profile_does_not_plan_is_run_again_with_it():
    """`fsatlas run --profile quick --variant noatime` measures cells the quick profile plans
    only with --variant: the command says --variant, and does not call them unknown."""
    result = next(r for r in COMMITTED if r.get("profile") == "quick")
    noatime = [c for c in variant_cells("quick") if c["variant"] == "noatime"][:3]
    result = dict(result, cells=result["cells"][:2] + noatime)
    made = aggregate.own_run(result)
    assert made["unknown"] == [] and "--variant noatime" in made["command"] and "--variant defaults" in made["command"]
    check(result)


def test_the_dry_run_plans_the_same_cells():
    """`fsatlas plan` (the run's dry run) given the pasted command's words plans the same cells."""
    result = next(r for r in COMMITTED if r["id"] == "20261125T085339Z-m-05e18e6041-standard")
    result = dict(result, cells=result["cells"][::7])  # a --cell each
    words = run_words(shown(result))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["plan", "--json", *words[1:]]) == 0
    planned = [c["key"] for c in json.loads(out.getvalue())["cells"]]
    assert "--cell" in words and sorted(planned) == sorted(set(c["key"] for c in result["cells"]) & today(result))


def test_an_unknown_profile_runs_nothing_and_says_which_cells():
    result = dict(COMMITTED[0], profile="mine")
    made = aggregate.own_run(result)
    assert made["command"] == "" and made["unknown"] == list(dict.fromkeys(c["key"] for c in result["cells"]))
