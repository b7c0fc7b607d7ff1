#!/usr/bin/env bash
# Copies the browser builds of the pinned npm libraries into static/vendor/, so the site
# serves them itself (no CDN: it must work on an intranet with no internet).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p static/vendor
for f in vega/build/vega.min.js vega-lite/build/vega-lite.min.js \
         vega-embed/build/vega-embed.min.js d3/dist/d3.min.js; do
  cp -u "node_modules/$f" static/vendor/
done
