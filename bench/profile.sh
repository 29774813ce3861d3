#!/usr/bin/env bash
# bench/profile.sh [BUILD_DIR]: instructions per operation of tesseld's request paths.
#
# Runs tesseld (one event loop) under valgrind's callgrind and drives a fixed
# number of operations per phase with tessel-bench. The counters are zeroed
# before each phase and dumped after it, so every phase gets its own profile:
# instruction counts are deterministic, unlike wall-clock figures on a shared
# machine. Prints one line per phase (instructions per operation, all server
# threads) and keeps the profiles for callgrind_annotate.
#
# Knobs (environment): PROFILE_OPS (operations per phase, 20000),
# PROFILE_WORKLOADS (kv,logistics,hotday), PROFILE_OUT (a new temporary
# directory), PROFILE_ARGS (extra tessel-bench options).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${1:-${BUILD:-$ROOT/build}}
case "$BUILD" in /*) ;; *) BUILD="$ROOT/$BUILD" ;; esac
OPS=${PROFILE_OPS:-20000}
WORKLOADS=${PROFILE_WORKLOADS:-kv,logistics,hotday}
OUT=${PROFILE_OUT:-$(mktemp -d /tmp/tessel-profile.XXXXXX)}
mkdir -p "$OUT"

command -v valgrind >/dev/null || { echo "bench/profile.sh: valgrind is not installed" >&2; exit 2; }
for bin in tesseld tessel-bench; do
    [ -x "$BUILD/bin/$bin" ] || { echo "bench/profile.sh: $BUILD/bin/$bin is missing" >&2; exit 2; }
done

PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
rm -rf "$OUT/data" "$OUT"/callgrind.out*
valgrind --tool=callgrind --callgrind-out-file="$OUT/callgrind.out" \
    "$BUILD/bin/tesseld" --data-dir "$OUT/data" --listen 127.0.0.1 --port "$PORT" --smp 1 \
    >"$OUT/tesseld.log" 2>&1 &
VPID=$!
trap 'kill -TERM $VPID 2>/dev/null || true; wait $VPID 2>/dev/null || true' EXIT
for _ in $(seq 1 600); do
    grep -q "ready on" "$OUT/tesseld.log" 2>/dev/null && break
    kill -0 "$VPID" 2>/dev/null || { tail -20 "$OUT/tesseld.log" >&2; exit 1; }
    sleep 0.2
done

# Counters are zeroed before a phase (-z) and dumped after it (-d), so a dump
# holds one phase plus the small cost of preparing its statement.
"$BUILD/bin/tessel-bench" --host 127.0.0.1 --port "$PORT" --systems tessel \
    --workloads "$WORKLOADS" --ops "$OPS" --warmup 0 --peak-fraction 0 \
    --connections 2 --depth 16 --no-progress --out-dir "$OUT" --name bench \
    --before-phase "callgrind_control -z $VPID >/dev/null 2>&1" \
    --after-phase "callgrind_control -d \"\$TESSEL_BENCH_PHASE\" $VPID >/dev/null 2>&1" \
    ${PROFILE_ARGS:-} 2>"$OUT/bench.log"

# instr/op counts every server thread (RocksDB's and the statistics flush
# included, which run when their timers say); loop/op counts the event loop
# thread only: the request path, the steadier figure.
printf '%-28s %10s %12s %12s\n' phase ops instr/op loop/op
for f in "$OUT"/callgrind.out.*; do
    phase=$(sed -n 's/^desc: Trigger: dump //p' "$f" | head -1)
    [ -n "$phase" ] || continue
    total=$(sed -n 's/^summary: //p' "$f" | head -1)
    loop=$(callgrind_annotate --inclusive=yes "$f" 2>/dev/null |
        awk '/EventLoops::start\(\)::\{lambda/ && !done {gsub(",", "", $1); print $1; done = 1}')
    printf '%-28s %10s %12s %12s\n' "${phase#tessel }" "$OPS" "$((total / OPS))" "$((${loop:-0} / OPS))"
done
echo "profiles in $OUT (callgrind_annotate --inclusive=yes FILE)"
