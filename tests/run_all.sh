#!/usr/bin/env bash
# Runs every test suite against one build directory (default: build).
# Prints a closing "N passed, N failed" line and exits non-zero on any failure.
set -uo pipefail
BUILD="${1:-build}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
passed=0
failed=0
failures=()

run_suite() {
  local name="$1"; shift
  echo "=== $name"
  if "$@"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    failures+=("$name")
  fi
}

run_suite "unit tests (ctest)" ctest --test-dir "$BUILD" --output-on-failure -L unit
for suite in tests/suites/*.sh; do
  [ -e "$suite" ] || continue
  run_suite "$(basename "$suite" .sh)" bash "$suite" "$BUILD"
done

echo
[ "${#failures[@]}" -eq 0 ] || echo "failed suites: ${failures[*]}"
echo "suites: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
