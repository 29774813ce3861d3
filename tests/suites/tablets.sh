#!/usr/bin/env bash
# Tablets on a real tesseld with lowered thresholds: enough writes make the
# tables split (more rows in system.tablets), the map is the same after a
# restart on the same data directory, and every row reads back.
# Usage: tests/suites/tablets.sh BUILD_DIR
set -uo pipefail
BUILD="$(cd "${1:-build}" && pwd)"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
source "$ROOT/tests/drivers/tesseld_env.sh"

WORK="$(mktemp -d -t tessel-tablets.XXXXXX)"
DATA="$WORK/data"
PORT="$(free_port)"
PID=
passed=0
failed=0
ok() { passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failed=$((failed + 1)); }

cat > "$WORK/tesseld.yaml" <<YAML
tablet_split_size_bytes: 65536
tablet_merge_size_bytes: 1024
tablet_min_age_ms: 600000
tablet_evaluation_interval_ms: 200
YAML

start() {
  "$BUILD/bin/tesseld" --data-dir "$DATA" --listen 127.0.0.1 --port "$PORT" --smp 2 \
    --config "$WORK/tesseld.yaml" >>"$WORK/tesseld.log" 2>&1 &
  PID=$!
  for _ in $(seq 1 300); do
    [ "$(grep -c "tesseld ready on" "$WORK/tesseld.log")" -ge "$1" ] && return 0
    kill -0 "$PID" 2>/dev/null || { cat "$WORK/tesseld.log"; return 1; }
    sleep 0.1
  done
  return 1
}
stop() {
  kill -TERM "$PID" && wait "$PID"
}
cleanup() {
  [ -n "$PID" ] && kill -0 "$PID" 2>/dev/null && kill -KILL "$PID"
  rm -rf "$WORK"
}
trap cleanup EXIT
cql() { "$BUILD/bin/tessel" --host 127.0.0.1 --port "$PORT" -e "$1"; }
count_tablets() {  # count_tablets TABLE
  cql "SELECT tablet_id FROM system.tablets WHERE keyspace_name = 'ks' AND table_name = '$1';" |
    sed -n 's/^(\([0-9]*\) rows)$/\1/p'
}

start 1 || { echo "tesseld did not start"; exit 1; }
{
  echo "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};"
  echo "USE ks;"
  echo "CREATE TABLE kv (k int PRIMARY KEY, v text);"
  echo "CREATE TABLE o (a text, b int, c int, v text, PRIMARY KEY ((a, b), c)) WITH distribution = 'ordered';"
  pad="$(printf 'x%.0s' $(seq 1 200))"
  for i in $(seq 1 1500); do
    echo "INSERT INTO kv (k, v) VALUES ($i, '$pad');"
    echo "INSERT INTO o (a, b, c, v) VALUES ('p$((i % 7))', $i, 1, '$pad');"
  done
} > "$WORK/load.cql"
"$BUILD/bin/tessel" --host 127.0.0.1 --port "$PORT" -f "$WORK/load.cql" > "$WORK/load.out" 2>&1 ||
  fail "loading rows: $(tail -3 "$WORK/load.out")"

# Wait for the split/merge rounds to settle (same counts twice in a row).
prev=""
for _ in $(seq 1 60); do
  sleep 0.5
  now="$(count_tablets kv)/$(count_tablets o)"
  [ "$now" = "$prev" ] && break
  prev="$now"
done
kv_n="${now%/*}"
o_n="${now#*/}"
[ "${kv_n:-0}" -gt 4 ] && ok || fail "hash table did not split: $kv_n tablets"
[ "${o_n:-0}" -gt 1 ] && ok || fail "ordered table did not split: $o_n tablets"
echo "tablets after the writes: kv $kv_n, o $o_n"

MAP="SELECT table_name, tablet_id, range_start, range_end, shard, rows FROM system.tablets WHERE keyspace_name = 'ks';"
cql "$MAP" > "$WORK/before.out"
stop || fail "tesseld stop"
start 2 || { echo "tesseld did not restart"; exit 1; }
cql "$MAP" > "$WORK/after.out"
if diff -u "$WORK/before.out" "$WORK/after.out"; then ok; else fail "tablet map changed across the restart"; fi

for t in kv o; do
  n="$(cql "SELECT COUNT(*) FROM ks.$t;" | sed -n 's/^ *\([0-9]\+\)$/\1/p')"
  [ "$n" = "1500" ] && ok || fail "COUNT(*) of $t is $n after the restart"
done
# A paged full scan walks the tablets in order and returns each row once.
cql "SELECT k FROM ks.kv;" | sed -n 's/^ *\([0-9]\+\)$/\1/p' | sort -n | uniq > "$WORK/keys.out"
[ "$(wc -l < "$WORK/keys.out")" = "1500" ] && [ "$(head -1 "$WORK/keys.out")" = 1 ] &&
  [ "$(tail -1 "$WORK/keys.out")" = 1500 ] && ok || fail "full scan keys"
# Point reads route to the right tablet.
for k in 1 777 1500; do
  cql "SELECT k FROM ks.kv WHERE k = $k;" | grep -q "^(1 rows)$" && ok || fail "read of k = $k"
done
cql "SELECT b FROM ks.o WHERE a = 'p3' AND b = 10;" | grep -q "^(1 rows)$" && ok || fail "ordered read"

stop || fail "tesseld stop after the restart"
PID=
echo "tablets: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
