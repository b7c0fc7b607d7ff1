#!/usr/bin/env bash
# Runs the whole test suite: runner unit tests, real loop-mount runs (root), the site build
# with htmltest, and the browser check in headless Chromium. `make test` calls it after setup.
set -euo pipefail
cd "$(dirname "$0")/.."
# two workers (pytest-xdist), one a core: the suite is bound by CPU (a third worker made it slower);
# -n 0 as an argument runs it one test at a time. The 25 slowest tests are listed at the end: the suite's
# budget is 20 minutes in CI, and that list says where it goes. --dist loadgroup: tests marked
# with one xdist_group share a worker (the guest's, so that its KVM trial is made once).
exec .venv/bin/python -m pytest -n 2 --dist loadgroup --durations=25 "$@"
