"""The rows of two configurations of one run (`fsatlas compare R --a X --b Y`): each cell of
side A against the same workload and dimensions of side B, decided and adjusted by
results/comparison. Its own module so that the pages that quote these rows (the rankings and
the guides in site/knowledge, the compare page in site/pairs) and `fsatlas report`, which reads
the knowledge base, import it without importing each other."""
from ..errors import UserError
from ..results import comparison, shares


def side_cells(result: dict, spec: str, of_import: bool | None = None) -> dict:
    """(workload, dimensions) -> the measured cell of one side (a filesystem[:variant], as
    shares.configuration reads it in this result) of a result. of_import: whether the cells are
    an import's (None: shares.imported(result), known from the file's own marks)."""
    fs, variant = shares.configuration(spec, shares.imported(result) if of_import is None else of_import)
    out = {}
    for c in result["cells"]:
        if c["status"] == "ok" and c["filesystem"] == fs and c.get("variant", "defaults") == variant:
            parts = c["key"].split("|")
            out[(c["workload"], parts[4] if len(parts) > 4 else "")] = c
    return out


def side_tools(result: dict, spec: str) -> list[str]:
    """The tool versions one side's cells were measured with: an imported cell's own outputs'
    (imported_runs, comparison.cell_factors: the files of one import may come from several fio
    versions), else the run's."""
    run = comparison.factors(result)
    return sorted({tool for cell in side_cells(result, spec).values()
                   for tool in comparison.cell_factors(run, cell)["tools"].split(" / ")})


def within(result: dict, a_spec: str, b_spec: str, all_metrics: bool = False, run_of=None) -> list[dict]:
    """Cells of side A against the same workload and dimensions of side B in one result. A side
    without a variant is the filesystem's defaults, or in an imported result its cells imported
    without a variant (`fsatlas import --as ext4,xfs`); A and B one configuration however spelled
    (ext4, ext4:defaults) are refused (shares.two_configurations). Each pair of cells is decided
    as `fsatlas compare` decides it (comparison.cells_plan) and the rows adjusted as one table
    (comparison.adjust_table: headline metrics one family, the others a second).
    A cell's run factors are always derived by the code, never read from a key a document
    carries (#60 round 17: a file's own "factors" or a cell's "run_factors" got an import the
    paired test): for a result file, comparison.factors(result), every cell's.
    run_of: for a site digest only (aggregate.digest: its cells keep their parameters, host
    records and imported tools), cell -> the factors the aggregate derived for that cell's run
    (comparison.factors of the result file it read), so that the compare page, the explorer and
    the rankings decide each pair of cells as `fsatlas compare` does; pairs.rule_table's table
    takes workloads from several runs."""
    if run_of is None:
        run = comparison.factors(result)
        run_of = lambda cell: run  # noqa: E731
    of_import = any(run_of(c)["origin"] == shares.IMPORT for c in result["cells"])
    shares.two_configurations(a_spec, b_spec, of_import)
    side_a, side_b = side_cells(result, a_spec, of_import), side_cells(result, b_spec, of_import)
    rows = []
    for ident, cell in side_a.items():
        other = side_b.get(ident)
        if not other:
            continue
        plan = comparison.cells_plan(run_of(cell), cell, run_of(other), other)
        names = [n for n in cell["metrics"] if n in other["metrics"] and (all_metrics or n in comparison.HEADLINE)]
        tested_as = comparison.tested_as(names, *({n: c["metrics"][n]["samples"] for n in names} for c in (cell, other)))
        for name in (n for n in names if tested_as[n] == n):
            rows.append({**comparison.row_of(f"{ident[0]}{'|' + ident[1] if ident[1] else ''}", name,
                                             [cell["metrics"][name]], [other["metrics"][name]], plan),
                         # the metrics whose samples this one's scale (iops of throughput): one test, this row
                         "same_test": [n for n, k in tested_as.items() if k == name and n != name]})
    if not rows:
        raise UserError(f"{a_spec} and {b_spec} share no measured workload", where=result["id"])
    return comparison.adjust_table(rows)
