#!/usr/bin/env bash
# Crash and recovery tests against real tesseld processes (tests/reliability):
# SIGKILL under acknowledged writes in batch and periodic commitlog modes,
# torn WAL tails, missing or corrupt catalog and storage, a full disk.
# Usage: tests/suites/crash.sh BUILD_DIR      (CRASH_CYCLES=N, default 20; make soak: 100)
set -uo pipefail
BUILD="$(cd "${1:-build}" && pwd)"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
source "$ROOT/tests/drivers/tesseld_env.sh"

PY="$(driver_python)" || { echo "python3-cassandra is not installed (apt-get install python3-cassandra)"; exit 1; }
failed=0
echo "--- crash test (${CRASH_CYCLES:-20} cycles)"
"$PY" "$ROOT/tests/reliability/crash_test.py" "$BUILD" --cycles "${CRASH_CYCLES:-20}" || failed=1
echo "--- recovery tests"
"$PY" "$ROOT/tests/reliability/recovery_test.py" "$BUILD" || failed=1
exit "$failed"
