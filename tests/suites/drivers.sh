#!/usr/bin/env bash
# Real-driver tests against a real tesseld: the DataStax Python driver
# (python3-cassandra) and the Node.js cassandra-driver 4.x.
# Usage: tests/suites/drivers.sh BUILD_DIR
set -uo pipefail
BUILD="$(cd "${1:-build}" && pwd)"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
source "$ROOT/tests/drivers/tesseld_env.sh"
trap 'stop_tesseld' EXIT

failed=0

PY="$(driver_python)" || { echo "python3-cassandra is not installed (apt-get install python3-cassandra)"; exit 1; }
start_tesseld "$BUILD" || exit 1
echo "--- python driver ($("$PY" -c 'import cassandra; print(cassandra.__version__)'))"
"$PY" "$ROOT/tests/drivers/python/test_python_driver.py" || failed=1
"$PY" "$ROOT/tests/drivers/python/test_sharding.py" || failed=1
"$PY" "$ROOT/tests/drivers/python/test_tablets.py" || failed=1
"$PY" "$ROOT/tests/drivers/python/test_paging.py" || failed=1
"$PY" "$ROOT/tests/drivers/python/test_bind_markers.py" || failed=1
"$PY" "$ROOT/tests/drivers/python/test_non_ascii.py" || failed=1
stop_tesseld || failed=1

echo "--- node.js driver"
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "node/npm not installed"
  failed=1
else
  NODE_DIR="$ROOT/tests/drivers/node"
  if [ ! -d "$NODE_DIR/node_modules/cassandra-driver" ]; then
    (cd "$NODE_DIR" && npm install --no-audit --no-fund --loglevel=error) || failed=1
  fi
  if [ -d "$NODE_DIR/node_modules/cassandra-driver" ]; then
    start_tesseld "$BUILD" || exit 1
    (cd "$NODE_DIR" && node --test --test-concurrency=1 test/) || failed=1
    stop_tesseld || failed=1
  else
    failed=1
  fi
fi

exit "$failed"
