#!/usr/bin/env bash
# Runs the whole test suite: runner unit tests, real loop-mount runs (root), the site build
# with htmltest, and the browser check in headless Chromium. `make test` calls it after setup.
set -euo pipefail
cd "$(dirname "$0")/.."
exec .venv/bin/python -m pytest "$@"
