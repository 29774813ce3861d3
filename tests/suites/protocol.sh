#!/usr/bin/env bash
# Raw-socket protocol tests (no driver) against a real tesseld: malformed,
# truncated and oversized frames, bad version bytes, garbage bodies.
# Usage: tests/suites/protocol.sh BUILD_DIR
set -uo pipefail
BUILD="$(cd "${1:-build}" && pwd)"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
source "$ROOT/tests/drivers/tesseld_env.sh"
trap 'stop_tesseld' EXIT

failed=0
start_tesseld "$BUILD" || exit 1
python3 "$ROOT/tests/drivers/protocol/raw_protocol_test.py" || failed=1
# The server must have survived everything and still stop cleanly.
stop_tesseld || failed=1

# Settings from a cassandra.yaml-style config file; SIGINT stops it with status 0.
echo "--- tesseld --config, SIGINT"
CONF_DIR="$(mktemp -d -t tesseld-conf.XXXXXX)"
CONF_PORT="$(free_port)"
cat >"$CONF_DIR/tessel.yaml" <<YAML
cluster_name: 'Config Test'
native_transport_port: $CONF_PORT
listen_address: 127.0.0.1
commitlog_sync: batch
data_file_directories:
    - $CONF_DIR/data
YAML
"$BUILD/bin/tesseld" --config "$CONF_DIR/tessel.yaml" --smp 1 >"$CONF_DIR/log" 2>&1 &
CONF_PID=$!
ready=0
for _ in $(seq 1 300); do
  grep -q "tesseld ready on 127.0.0.1:$CONF_PORT" "$CONF_DIR/log" && { ready=1; break; }
  kill -0 "$CONF_PID" 2>/dev/null || break
  sleep 0.1
done
if [ "$ready" -eq 1 ] && [ -d "$CONF_DIR/data" ]; then
  echo "ok: config file applied (port $CONF_PORT, data in $CONF_DIR/data)"
  kill -INT "$CONF_PID"
  wait "$CONF_PID"
  code=$?
  if [ "$code" -eq 0 ]; then
    echo "ok: SIGINT -> exit 0"
  else
    echo "FAIL: tesseld exited with $code after SIGINT"; cat "$CONF_DIR/log"; failed=1
  fi
else
  echo "FAIL: tesseld did not start from the config file"; cat "$CONF_DIR/log"; failed=1
  kill -KILL "$CONF_PID" 2>/dev/null
fi
rm -rf "$CONF_DIR"
exit "$failed"
