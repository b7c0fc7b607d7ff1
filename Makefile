# fsatlas: the verbs. `make` = setup + quick benchmark + site; `make test` = the whole suite.
SHELL := /bin/bash
VENV := .venv/bin
FSATLAS := $(VENV)/fsatlas
PROFILE ?= quick
BASE_URL ?=

.PHONY: all setup bench bench-standard data site serve test perf fuzz clean screenshots

all: setup bench site

setup:
	scripts/setup.sh

bench: setup
	$(FSATLAS) run --profile $(PROFILE)

bench-standard: setup
	$(FSATLAS) run --profile standard

# Validate every result file and the curated data, then derive the aggregates and generated pages.
data:
	$(FSATLAS) validate data/results
	$(FSATLAS) check-data
	$(FSATLAS) aggregate

# Every sample of every result as one Parquet file beside the explorer (results/export.py);
# made again only when a result file changed.
SAMPLES := build/static/downloads/fsatlas-samples.parquet
$(SAMPLES): $(wildcard data/results/*.json)
	$(FSATLAS) export data/results --out $@

# The same table as CSV, for spreadsheets (results/export.py writes it, with its formula guard).
SAMPLES_CSV := build/static/downloads/fsatlas-samples.csv
$(SAMPLES_CSV): $(wildcard data/results/*.json)
	$(FSATLAS) export data/results --format csv --out $@

# Renders only the result pages that changed (all of them when a template does): runner/fsatlas/site/build.py.
site: data $(SAMPLES) $(SAMPLES_CSV)
	$(FSATLAS) site --destination public $(if $(BASE_URL),--base-url $(BASE_URL))
	rm -rf public/pagefind  # the index is made anew each time; no stale fragments
	node_modules/.bin/pagefind --site public --output-subdir pagefind --silent
	.tools/bin/htmltest --conf .htmltest.yml

# Rebuilds the data and reloads the browser when a result or curated file is added, changed or removed.
serve: setup
	$(VENV)/python scripts/serve.py

test: setup
	scripts/test.sh

# A benchmark of fsatlas itself: prints figure, target, pass/fail; writes build/perf.json.
# FAST=1 takes the quick result perf kept for the code checked out now (scripts/perf_shape.py) instead of running it.
perf: setup
	$(VENV)/python scripts/perf.py

# Every page kind at 1280 and 375 px, as PNGs in build/screenshots/ (not committed), for a reviewer.
screenshots: site
	$(VENV)/python scripts/screenshots.py

# Many more fuzz examples than the test suite runs (FUZZ_EXAMPLES, default 2000).
fuzz: setup
	FSATLAS_FUZZ_EXAMPLES=$${FUZZ_EXAMPLES:-2000} $(VENV)/python -m pytest runner/tests/test_fuzz.py

clean:
	rm -rf public build data/aggregates .scratch
