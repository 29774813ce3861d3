#!/usr/bin/env bash
# CQL approval tests: runs every tests/cql/NAME.cql through the shell on a
# fresh embedded database and compares the output with NAME.result.
#   tests/cql/run.sh BUILD_DIR            check (prints a diff per mismatch)
#   tests/cql/run.sh BUILD_DIR --approve  rewrite the .result files; review with git diff
#   tests/cql/run.sh BUILD_DIR --approve NAME...   only these files
set -uo pipefail
BUILD="${1:-build}"
shift || true
APPROVE=0
if [ "${1:-}" = "--approve" ]; then
  APPROVE=1
  shift
fi
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
SHELL_BIN="$ROOT/$BUILD/bin/tessel"
[ -x "$SHELL_BIN" ] || SHELL_BIN="$BUILD/bin/tessel"
if [ ! -x "$SHELL_BIN" ]; then
  echo "no shell binary at $BUILD/bin/tessel"
  exit 1
fi

files=()
if [ "$#" -gt 0 ]; then
  for n in "$@"; do files+=("$ROOT/tests/cql/${n%.cql}.cql"); done
else
  files=("$ROOT"/tests/cql/*.cql)
fi

passed=0
failed=0
for cql in "${files[@]}"; do
  name="$(basename "$cql" .cql)"
  expected="${cql%.cql}.result"
  dir="$(mktemp -d)"
  actual="$dir/out.result"
  (cd "$ROOT/tests/cql" && "$SHELL_BIN" --data-dir "$dir/data" --echo -f "$cql" > "$actual" 2>&1)
  rc=$?
  if [ "$rc" -gt 1 ]; then
    echo "FAIL $name: shell exited with $rc"
    cat "$actual" | tail -20
    failed=$((failed + 1))
  elif [ "$APPROVE" -eq 1 ]; then
    cp "$actual" "$expected"
    passed=$((passed + 1))
  elif [ ! -f "$expected" ]; then
    echo "FAIL $name: no $name.result (run tests/cql/run.sh $BUILD --approve $name and review it)"
    failed=$((failed + 1))
  elif ! diff -u "$expected" "$actual" > "$dir/diff"; then
    echo "FAIL $name"
    head -60 "$dir/diff"
    failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
  rm -rf "$dir"
done
echo "cql: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
