#!/usr/bin/env bash
# The pull-request check's gate (.github/workflows/pull-request.yml): refuses a contribution that
# changes anything outside data/results and data/raw, or that deletes, renames or changes a file
# already in them (a pull request adds results, never takes one away or alters it: the workflow
# validates the base tree with the contribution copied over it, so a deleted result was still
# validated there and the deletion merged unchecked; a published result is cited by its id and
# figures, and a correction is a new result), and lists the result files it added.
#   scripts/pr-data-only.sh BASE_SHA [LIST_FILE]   run inside the contribution's checkout
# --no-renames: a rename is listed as the deletion of its old name and the addition of its new
# one (with git's default rename detection, `.github/x -> data/results/x.json` showed only the
# new name, and the deletion outside data/ went through); -z: every name as git holds it.
set -euo pipefail
base=$1
list=${2:-/dev/stdout}
outside=()
results=()
not_added=()
while IFS= read -r -d '' status && IFS= read -r -d '' name; do
  case "$name" in
    data/results/*|data/raw/*) [ "$status" = A ] || not_added+=("$status:$name") ;;
    *) outside+=("$name") ;;
  esac
  case "$name" in
    data/results/*.json) [ "$status" = A ] && results+=("$name") ;;
  esac
done < <(git diff --no-renames --name-status -z "$base...HEAD")
if [ ${#outside[@]} -gt 0 ]; then
  printf '::error::this check only accepts data/results and data/raw; also changed:'
  printf ' %q' "${outside[@]}"
  printf '\n'
  exit 1
fi
if [ ${#not_added[@]} -gt 0 ]; then
  printf '::error::a pull request adds results, never deletes, renames or changes one (D deleted, M changed, T type changed):'
  printf ' %q' "${not_added[@]}"
  printf '\n'
  exit 1
fi
if [ ${#results[@]} -gt 0 ]; then printf '%s\n' "${results[@]}" > "$list"; else : > "$list"; fi
