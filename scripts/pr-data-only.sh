#!/usr/bin/env bash
# The pull-request check's gate (.github/workflows/pull-request.yml): refuses a contribution that
# changes anything outside data/results and data/raw, and lists the result files it changed.
#   scripts/pr-data-only.sh BASE_SHA [LIST_FILE]   run inside the contribution's checkout
# --no-renames: a rename is listed as the deletion of its old name and the addition of its new
# one (with git's default rename detection, `.github/x -> data/results/x.json` showed only the
# new name, and the deletion outside data/ went through); -z: every name as git holds it.
set -euo pipefail
base=$1
list=${2:-/dev/stdout}
outside=()
results=()
while IFS= read -r -d '' name; do
  case "$name" in
    data/results/*|data/raw/*) ;;
    *) outside+=("$name") ;;
  esac
  case "$name" in
    data/results/*.json) results+=("$name") ;;
  esac
done < <(git diff --no-renames --name-only -z "$base...HEAD")
if [ ${#outside[@]} -gt 0 ]; then
  printf '::error::this check only accepts data/results and data/raw; also changed:'
  printf ' %q' "${outside[@]}"
  printf '\n'
  exit 1
fi
if [ ${#results[@]} -gt 0 ]; then printf '%s\n' "${results[@]}" > "$list"; else : > "$list"; fi
