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

echo "--- tessel shell"
SHELL_BIN="$BUILD/bin/tessel"
out="$("$SHELL_BIN" --host "$TESSEL_HOST" --port "$TESSEL_PORT" -u cassandra -p cassandra \
  -e "LIST USERS;" 2>&1)"
if echo "$out" | grep -q "cassandra |  True"; then
  echo "ok: the shell logs in with -u/-p"
else
  echo "FAIL: shell login: $out"; failed=1
fi
out="$("$SHELL_BIN" --host "$TESSEL_HOST" --port "$TESSEL_PORT" -e "LIST USERS;" 2>&1)"
if [ $? -ne 0 ] && echo "$out" | grep -q "requires authentication"; then
  echo "ok: the shell without credentials is refused"
else
  echo "FAIL: shell without credentials: $out"; failed=1
fi
out="$("$SHELL_BIN" --host "$TESSEL_HOST" --port "$TESSEL_PORT" -u cassandra -p bad -e "LIST USERS;" 2>&1)"
if [ $? -ne 0 ] && echo "$out" | grep -q "and/or password are incorrect"; then
  echo "ok: the shell with a wrong password is refused"
else
  echo "FAIL: shell with a wrong password: $out"; failed=1
fi
NODE_DIR="$ROOT/tests/drivers/node"
if command -v npm >/dev/null 2>&1 && [ ! -d "$NODE_DIR/node_modules/cassandra-driver" ]; then
  (cd "$NODE_DIR" && npm install --no-audit --no-fund --loglevel=error) || failed=1
fi
if command -v node >/dev/null 2>&1 && [ -d "$NODE_DIR/node_modules/cassandra-driver" ]; then
  echo "--- node.js driver"
  (cd "$NODE_DIR" && node --test --test-concurrency=1 auth/) || failed=1
else
  echo "--- node.js driver: not installed"
  failed=1
fi
stop_tesseld || failed=1
exit "$failed"
