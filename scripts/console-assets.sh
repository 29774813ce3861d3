#!/usr/bin/env bash
# Builds the console's embedded assets: installs the console's npm
# dependencies (Apache ECharts, from src/console/web/package-lock.json) into
# WORK_DIR, then writes OUT_CPP, a C++ source holding the console's pages,
# script and style and echarts.min.js, so tesseld serves them with no network
# access. Run by the build (CMake); needs node/npm (scripts/install-deps.sh).
# Usage: scripts/console-assets.sh WEB_SRC_DIR WORK_DIR OUT_CPP
set -euo pipefail
WEB="$(cd "$1" && pwd)"
WORK="$2"
OUT="$3"
mkdir -p "$WORK" "$(dirname "$OUT")"
cp "$WEB/package.json" "$WEB/package-lock.json" "$WORK/"
if [ ! -f "$WORK/node_modules/echarts/dist/echarts.min.js" ] ||
   ! cmp -s "$WEB/package-lock.json" "$WORK/node_modules/.package-lock.json.console"; then
  (cd "$WORK" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error)
  cp "$WEB/package-lock.json" "$WORK/node_modules/.package-lock.json.console"
fi
python3 "$WEB/../embed_assets.py" "$OUT" \
  "/=$WEB/index.html" \
  "/login=$WEB/login.html" \
  "/assets/console.js=$WEB/console.js" \
  "/assets/console.css=$WEB/console.css" \
  "/assets/echarts.min.js=$WORK/node_modules/echarts/dist/echarts.min.js" \
  "/assets/LICENSE-echarts.txt=$WORK/node_modules/echarts/LICENSE"
