#!/usr/bin/env bash
# Partition health against a real tesseld with lowered thresholds: large
# partitions (warn log line, system.large_partitions, the fail tier), tombstone
# thresholds, hot partitions and tessel-admin toppartitions, the advisor on
# the daily hot-partition workload, and the Prometheus /metrics endpoint.
# Usage: tests/suites/health.sh BUILD_DIR
set -uo pipefail
BUILD="$(cd "${1:-build}" && pwd)"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
source "$ROOT/tests/drivers/tesseld_env.sh"
CONF="$(mktemp -t tessel-health.XXXXXX.yaml)"
trap 'stop_tesseld; rm -f "$CONF"' EXIT

PY="$(driver_python)" || { echo "python3-cassandra is not installed (apt-get install python3-cassandra)"; exit 1; }
cat >"$CONF" <<'YAML'
partition_size_warn_threshold: 20KiB
partition_rows_warn_threshold: 100000
partition_size_fail_threshold: 200KiB
tombstone_warn_threshold: 10
tombstone_failure_threshold: 50
partition_write_budget: 20
hot_partitions_window_ms: 10000
YAML
start_tesseld "$BUILD" --config "$CONF" --metrics-port 0 || exit 1
TESSEL_METRICS_PORT=""
for _ in $(seq 1 50); do
  TESSEL_METRICS_PORT="$(sed -n 's|.*metrics on http://[^:]*:\([0-9]*\)/metrics.*|\1|p' "$TESSELD_LOG" | head -1)"
  [ -n "$TESSEL_METRICS_PORT" ] && break
  sleep 0.1
done
[ -n "$TESSEL_METRICS_PORT" ] || { echo "no metrics port in the log"; cat "$TESSELD_LOG"; exit 1; }
export TESSEL_METRICS_PORT TESSELD_LOG
export TESSEL_ADMIN="$BUILD/bin/tessel-admin"
export TESSEL_EXAMPLES="$ROOT/examples"
failed=0
"$PY" "$ROOT/tests/drivers/python/test_health.py" || failed=1
stop_tesseld || failed=1
exit "$failed"
