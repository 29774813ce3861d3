#!/usr/bin/env bash
# bench/run.sh [BUILD_DIR]: the whole benchmark in one run (what `make bench` calls).
#
# Starts, on 127.0.0.1 and in a temporary directory that is removed at the end:
#   - tesseld with its default periodic commitlog sync        -> system "tessel"
#   - tesseld with `commitlog_sync: batch` (fsync per write)  -> system "tessel-batch"
#   - PostgreSQL 15 (initdb'd cluster, unix socket in the temp dir)
#                       -> "postgres" (synchronous_commit=off), "postgres-sync" (on)
# and a raw RocksDB directory (rocksdb-1t, rocksdb-2t), runs build/bin/tessel-bench
# against all of them and writes bench/results/latest.{md,json,svg}.
#
# Knobs (environment): BENCH_DURATION (s, default 5), BENCH_WARMUP (s, 1),
# BENCH_CONNECTIONS (4), BENCH_DEPTH (32), BENCH_WORKLOADS (all),
# BENCH_WIDE_MB (64; 1024 for the 1 GB target), BENCH_SMP (tesseld event loops,
# default: all cores), BENCH_BLOCK_CACHE_MB (tesseld's block_cache_size_in_mb,
# default: the server's), BENCH_OUT (bench/results), BENCH_ARGS (extra tessel-bench
# options), PG_BIN (/usr/lib/postgresql/15/bin).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${1:-${BUILD:-$ROOT/build}}
case "$BUILD" in /*) ;; *) BUILD="$ROOT/$BUILD" ;; esac
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
OUT=${BENCH_OUT:-$ROOT/bench/results}
DURATION=${BENCH_DURATION:-5}
WARMUP=${BENCH_WARMUP:-1}
CONNECTIONS=${BENCH_CONNECTIONS:-4}
DEPTH=${BENCH_DEPTH:-32}
WORKLOADS=${BENCH_WORKLOADS:-kv,logistics,timeseries,hotday,widepartition}
WIDE_MB=${BENCH_WIDE_MB:-64}

for bin in tesseld tessel-bench; do
    if [ ! -x "$BUILD/bin/$bin" ]; then
        echo "bench/run.sh: $BUILD/bin/$bin is missing; build it first (cmake --build $BUILD)" >&2
        exit 2
    fi
done
if [ ! -x "$PG_BIN/initdb" ]; then
    echo "bench/run.sh: PostgreSQL 15 not found in $PG_BIN (apt-get install postgresql)" >&2
    exit 2
fi

TMP=$(mktemp -d /tmp/tessel-bench.XXXXXX)
chmod 755 "$TMP"
PIDS=()
PG_STARTED=0

# PostgreSQL refuses to run as root: run its commands as the postgres user then.
as_pg() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do
        kill -TERM "$pid" 2>/dev/null || true
    done
    for pid in "${PIDS[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    if [ "$PG_STARTED" = 1 ]; then
        as_pg "$PG_BIN/pg_ctl" -D "$TMP/pg" -m fast -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

wait_ready() {  # LOGFILE PID NAME
    local i
    for i in $(seq 1 300); do
        if grep -q "ready on" "$1" 2>/dev/null; then return 0; fi
        if ! kill -0 "$2" 2>/dev/null; then
            echo "bench/run.sh: $3 exited during startup:" >&2
            tail -20 "$1" >&2
            return 1
        fi
        sleep 0.1
    done
    echo "bench/run.sh: $3 not ready after 30 s" >&2
    return 1
}

RECORD=()
SMP_ARGS=()
if [ -n "${BENCH_SMP:-}" ]; then SMP_ARGS=(--smp "$BENCH_SMP"); fi

# Settings shared by both servers.
: >"$TMP/common.yaml"
if [ -n "${BENCH_BLOCK_CACHE_MB:-}" ]; then
    printf 'block_cache_size_in_mb: %s\n' "$BENCH_BLOCK_CACHE_MB" >>"$TMP/common.yaml"
fi
COMMON_YAML=$(tr '\n' ';' <"$TMP/common.yaml")

# Tessel, periodic commitlog sync (the default).
TPORT=$(free_port)
mkdir -p "$TMP/tessel"
cp "$TMP/common.yaml" "$TMP/periodic.yaml"
CMD=("$BUILD/bin/tesseld" --config "$TMP/periodic.yaml" --data-dir "$TMP/tessel" --listen 127.0.0.1 --port "$TPORT" "${SMP_ARGS[@]}")
"${CMD[@]}" >"$TMP/tesseld.log" 2>&1 &
TPID=$!
PIDS+=("$TPID")
RECORD+=(--record-command "${CMD[*]}  # periodic.yaml: ${COMMON_YAML:-empty}")
wait_ready "$TMP/tesseld.log" "$TPID" tesseld

# Tessel, every write fsynced before it is acknowledged.
BPORT=$(free_port)
mkdir -p "$TMP/tessel-batch"
{ cat "$TMP/common.yaml"; printf 'commitlog_sync: batch\n'; } >"$TMP/batch.yaml"
CMD=("$BUILD/bin/tesseld" --config "$TMP/batch.yaml" --data-dir "$TMP/tessel-batch" --listen 127.0.0.1 --port "$BPORT" "${SMP_ARGS[@]}")
"${CMD[@]}" >"$TMP/tesseld-batch.log" 2>&1 &
BPID=$!
PIDS+=("$BPID")
RECORD+=(--record-command "${CMD[*]}  # batch.yaml: ${COMMON_YAML}commitlog_sync: batch")
wait_ready "$TMP/tesseld-batch.log" "$BPID" "tesseld (batch)"

# PostgreSQL 15 on loopback, unix socket in the temp dir.
PGPORT=$(free_port)
mkdir -p "$TMP/pg" "$TMP/pgsock"
if [ "$(id -u)" = 0 ]; then chown postgres "$TMP/pg" "$TMP/pgsock"; fi
as_pg "$PG_BIN/initdb" -D "$TMP/pg" -U bench --auth=trust -E UTF8 --no-sync >"$TMP/initdb.log" 2>&1 ||
    { cat "$TMP/initdb.log" >&2; exit 1; }
PG_OPTS="-c listen_addresses=127.0.0.1 -p $PGPORT -c unix_socket_directories=$TMP/pgsock -c shared_buffers=256MB -c max_connections=100"
as_pg "$PG_BIN/pg_ctl" -D "$TMP/pg" -o "$PG_OPTS" -l "$TMP/pgsock/postgres.log" -w start >/dev/null
PG_STARTED=1
RECORD+=(--record-command "$PG_BIN/initdb -D PGDATA -U bench --auth=trust -E UTF8")
RECORD+=(--record-command "$PG_BIN/pg_ctl -D PGDATA -o \"$PG_OPTS\" -w start")
PG_VERSION=$("$PG_BIN/postgres" --version)
REV=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)

mkdir -p "$OUT"
set -x
"$BUILD/bin/tessel-bench" \
    --host 127.0.0.1 --port "$TPORT" --batch-port "$BPORT" --server-pid "$TPID" \
    --pg "host=$TMP/pgsock port=$PGPORT user=bench dbname=postgres" \
    --rocksdb-dir "$TMP/rocksdb" \
    --workloads "$WORKLOADS" --connections "$CONNECTIONS" --depth "$DEPTH" \
    --duration "$DURATION" --warmup "$WARMUP" --wide-mb "$WIDE_MB" \
    --out-dir "$OUT" --name latest \
    --version-info "tessel-git=$REV" --version-info "postgresql-server=$PG_VERSION" \
    "${RECORD[@]}" ${BENCH_ARGS:-}
{ set +x; } 2>/dev/null
