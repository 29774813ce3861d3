#!/usr/bin/env bash
# Tessel clusters on this machine (etcd and tesseld on 127.0.0.1-4) through
# the Python and Node.js drivers: tests/cluster/ (replication and consistency,
# nodes joining and leaving, tablet migration).
# Usage: tests/suites/cluster.sh BUILD_DIR
set -uo pipefail
BUILD="$(cd "${1:-build}" && pwd)"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
source "$ROOT/tests/drivers/tesseld_env.sh"

PY="$(driver_python)" || { echo "python3-cassandra is not installed (apt-get install python3-cassandra)"; exit 1; }
if [ ! -x /usr/bin/etcd ]; then
  echo "etcd is not installed (apt-get install etcd-server)"
  exit 1
fi
status=0
"$PY" "$ROOT/tests/cluster/cluster_test.py" "$BUILD" || status=1
# Nodes joining and leaving, and tablets moving between nodes.
"$PY" "$ROOT/tests/cluster/lifecycle_test.py" "$BUILD" || status=1
"$PY" "$ROOT/tests/cluster/migration_test.py" "$BUILD" || status=1
# The web console of every node of a cluster.
"$PY" "$ROOT/tests/cluster/console_cluster_test.py" "$BUILD" || status=1
exit $status
