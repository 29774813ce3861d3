#!/usr/bin/env bash
# The tessel shell over the network (--host/--port) against a real tesseld:
# the same statements give the same cqlsh-style output as in embedded mode,
# errors are printed and a long result is paged through transparently.
# Usage: tests/suites/shell.sh BUILD_DIR
set -uo pipefail
BUILD="$(cd "${1:-build}" && pwd)"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
source "$ROOT/tests/drivers/tesseld_env.sh"
trap 'stop_tesseld' EXIT
start_tesseld "$BUILD" || exit 1

passed=0
failed=0
check() {  # check NAME EXPECTED_FILE ACTUAL_FILE
  if diff -u "$2" "$3"; then
    passed=$((passed + 1))
  else
    echo "FAIL $1"
    failed=$((failed + 1))
  fi
}

WORK="$(mktemp -d -t tessel-shell.XXXXXX)"
{
  echo "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};"
  echo "USE ks;"
  echo "CREATE TABLE t (k int, c int, v text, PRIMARY KEY (k, c));"
  for i in $(seq 1 150); do echo "INSERT INTO t (k, c, v) VALUES (1, $i, 'v$i');"; done
  echo "SELECT COUNT(*) FROM t;"
  echo "SELECT * FROM t WHERE k = 1 AND c > 145;"
  echo "SELECT * FROM t WHERE c = 1;"
  echo "SELECT k, c FROM t WHERE k = 1 AND c <= 130 ORDER BY c DESC LIMIT 3;"
} > "$WORK/script.cql"

# Network mode against the same statements run embedded: identical output.
"$BUILD/bin/tessel" --host "$TESSEL_HOST" --port "$TESSEL_PORT" --echo -f "$WORK/script.cql" \
  > "$WORK/network.out" 2>&1
"$BUILD/bin/tessel" --data-dir "$WORK/embedded" --echo -f "$WORK/script.cql" \
  > "$WORK/embedded.out" 2>&1
check "network output equals embedded output" "$WORK/embedded.out" "$WORK/network.out"

# A full page-through over the network (150 rows, pages of 100).
"$BUILD/bin/tessel" --host "$TESSEL_HOST" --port "$TESSEL_PORT" \
  -e "SELECT c FROM ks.t WHERE k = 1;" > "$WORK/all.out" 2>&1
if grep -q "^(150 rows)$" "$WORK/all.out" && [ "$(grep -c '^ *[0-9]\+$' "$WORK/all.out")" -eq 150 ]; then
  passed=$((passed + 1))
else
  echo "FAIL paging through 150 rows over the network"; tail -5 "$WORK/all.out"
  failed=$((failed + 1))
fi

# The error line names the rule, and the exit status says a statement failed.
if "$BUILD/bin/tessel" --host "$TESSEL_HOST" --port "$TESSEL_PORT" \
    -e "SELECT * FROM ks.t WHERE v = 'x';" > "$WORK/err.out" 2>&1; then
  echo "FAIL a failing statement exits 0"; failed=$((failed + 1))
elif grep -q 'code=2200 \[Invalid query\] message="Cannot execute this query as it might involve data filtering' "$WORK/err.out"; then
  passed=$((passed + 1))
else
  echo "FAIL error line"; cat "$WORK/err.out"; failed=$((failed + 1))
fi

# No server: a clear message naming host and port, exit status 2.
"$BUILD/bin/tessel" --host 127.0.0.1 --port "$(free_port)" -e "SELECT * FROM system.local;" \
  > "$WORK/noserver.out" 2>&1
rc=$?
if [ "$rc" -eq 2 ] && grep -q "127.0.0.1" "$WORK/noserver.out"; then
  passed=$((passed + 1))
else
  echo "FAIL no-server message (rc=$rc)"; cat "$WORK/noserver.out"; failed=$((failed + 1))
fi

rm -rf "$WORK"
stop_tesseld || failed=$((failed + 1))
trap - EXIT
echo "shell: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
