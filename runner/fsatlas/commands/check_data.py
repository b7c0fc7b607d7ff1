"""fsatlas check-data: checks the curated data (sources, features, mount options, history)."""
import os
import sys

from ..errors import UserError

from ..results import probefile
from ..site import feature_matrix, knowledge


def add_parser(sub):
    p = sub.add_parser("check-data", help="check data/sources.yaml, data/features, data/mount_options, data/history, data/probes")
    p.add_argument("--data", default="data", help="the data folder (default: data)")
    p.set_defaults(func=run)


def run(args) -> int:
    if not os.path.isfile(os.path.join(args.data, "sources.yaml")):
        raise UserError("no curated data here", where=args.data, expected="a folder holding sources.yaml")
    data, problems = knowledge.load(args.data)
    probe_files = probefile.files(args.data)
    problems += [p for path in probe_files for p in probefile.problems(path)]
    for problem in problems:
        print(problem, file=sys.stderr)
    counts = ", ".join(f"{len(data[k])} {k.replace('_', ' ')}" for k in ("sources", "features", "mount_options", "history"))
    counts += f", {len(probe_files)} probe results"
    errors = sum(p.severity == "error" for p in problems)
    print(f"checked {counts}: {errors} errors")
    if not data["features"]:
        return 1 if errors else 0
    if not data["feature_columns"]:  # malformed (its problems are named above): no matrix to count
        print(f"feature matrix: not counted ({os.path.join(args.data, 'feature_columns.yaml')} gives no columns)")
        return 1
    cells = feature_matrix.cells(data, knowledge.probe_records(args.data))
    unanswered, total = feature_matrix.count(cells)
    # a cell answered on sources that do not state it for its filesystem is unanswered too, and the
    # pages mark it so (feature_matrix.reasons): the goal holds for that count, both kinds listed
    unstated = feature_matrix.unstated(data, cells)
    honest = unanswered + len(unstated)
    print(f"feature matrix: {honest} of {total} cells unanswered ({100 * honest / total if total else 0.0:.2f} %; "
          f"at most {100 * feature_matrix.GOAL:g} %): {unanswered} that no source or probe answers, "
          f"{len(unstated)} answered on sources that do not state them for their filesystem")
    if unstated:  # 37 of 736 is 5.03 %, not "5.0 %" beside "at most 5 %"
        print("not stated for their filesystem:")
        for cell in unstated:
            print(f"  {cell['filesystem']} {cell['column']} ({cell['said']}): {cell['reason']}")
    if total and honest / total > feature_matrix.GOAL:
        print(f"{os.path.join(args.data, 'features')}: expected at most {100 * feature_matrix.GOAL:g} % of the feature "
              f"matrix's cells unanswered, found {honest} of {total} ({unanswered} unanswered, {len(unstated)} not "
              f"stated for their filesystem):", file=sys.stderr)
        for cell in cells:
            if not cell["answered"]:
                print(f"  {cell['filesystem']} {cell['column']}: {cell['reason']}", file=sys.stderr)
        for cell in unstated:
            print(f"  {cell['filesystem']} {cell['column']} ({cell['said']}): {cell['reason']}", file=sys.stderr)
        return 1
    return 1 if errors else 0
