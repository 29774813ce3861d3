#!/usr/bin/env bash
# Limits against real tesseld processes (tests/reliability/limits_test.py):
# frame size, requests in flight per connection and per server, connections,
# request timeouts, key and value sizes, nesting depth, pages cut by bytes.
# Usage: tests/suites/limits.sh BUILD_DIR
set -uo pipefail
BUILD="$(cd "${1:-build}" && pwd)"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
source "$ROOT/tests/drivers/tesseld_env.sh"

PY="$(driver_python)" || { echo "python3-cassandra is not installed (apt-get install python3-cassandra)"; exit 1; }
"$PY" "$ROOT/tests/reliability/limits_test.py" "$BUILD"
