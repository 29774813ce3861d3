#!/usr/bin/env bash
# Authentication and authorization against a real tesseld started with
# PasswordAuthenticator and CassandraAuthorizer (fresh data directory, so the
# default superuser cassandra/cassandra is created), through the Python driver.
# Usage: tests/suites/auth.sh BUILD_DIR
set -uo pipefail
BUILD="$(cd "${1:-build}" && pwd)"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
source "$ROOT/tests/drivers/tesseld_env.sh"
CONF="$(mktemp -t tesseld-auth.XXXXXX.yaml)"
trap 'stop_tesseld; rm -f "$CONF"' EXIT
cat > "$CONF" <<YAML
authenticator: PasswordAuthenticator
authorizer: CassandraAuthorizer
YAML

PY="$(driver_python)" || { echo "python3-cassandra is not installed (apt-get install python3-cassandra)"; exit 1; }
failed=0
start_tesseld "$BUILD" --config "$CONF" || exit 1
"$PY" "$ROOT/tests/drivers/python/test_auth.py" || failed=1
stop_tesseld || failed=1
exit "$failed"
