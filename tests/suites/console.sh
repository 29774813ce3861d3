#!/usr/bin/env bash
# The web console against a real tesseld (--http-port), as a person would use
# it: a skewed write load (the hot-day example without sharding) runs while
# the JSON endpoints are checked (tests/drivers/python/test_console_api.py)
# and headless Chromium, driven by playwright-core, reads the page
# (tests/console/console_test.js); then, on a server with
# PasswordAuthenticator, the endpoints' authentication and the login form.
# Screenshots land in BUILD_DIR/test-artifacts/console/.
# Needs: python3-cassandra, node/npm (playwright-core from the npm registry,
# no browser download) and Debian's chromium (scripts/install-deps.sh).
# Usage: tests/suites/console.sh BUILD_DIR
set -uo pipefail
BUILD="$(cd "${1:-build}" && pwd)"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
source "$ROOT/tests/drivers/tesseld_env.sh"
CONF="$(mktemp -t tessel-console.XXXXXX.yaml)"
LOAD_PID=""
LOAD_LOG="$(mktemp -t tessel-console-load.XXXXXX.log)"
stop_load() {
  if [ -n "$LOAD_PID" ]; then
    kill -TERM "$LOAD_PID" 2>/dev/null
    wait "$LOAD_PID" 2>/dev/null
    LOAD_PID=""
  fi
}
trap 'stop_load; stop_tesseld; rm -f "$CONF" "$LOAD_LOG"' EXIT

PY="$(driver_python)" || { echo "python3-cassandra is not installed (apt-get install python3-cassandra)"; exit 1; }
CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
[ -x "$CHROMIUM" ] || { echo "chromium is not installed (scripts/install-deps.sh)"; exit 1; }
command -v npm >/dev/null || { echo "npm is not installed (scripts/install-deps.sh)"; exit 1; }

# playwright-core from the lock file, into the build directory (no browser:
# it drives Debian's chromium).
NPM_DIR="$BUILD/console-test-npm"
mkdir -p "$NPM_DIR"
if [ ! -f "$NPM_DIR/node_modules/playwright-core/package.json" ] ||
   ! cmp -s "$ROOT/tests/console/package-lock.json" "$NPM_DIR/package-lock.json"; then
  cp "$ROOT/tests/console/package.json" "$ROOT/tests/console/package-lock.json" "$NPM_DIR/"
  (cd "$NPM_DIR" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error) ||
    { echo "npm ci of playwright-core failed"; exit 1; }
fi
export PLAYWRIGHT_CORE="$NPM_DIR/node_modules/playwright-core"
export CHROMIUM
ARTIFACTS="$BUILD/test-artifacts/console"
mkdir -p "$ARTIFACTS"
export ARTIFACTS
export PYTHONPATH="$ROOT/tests/drivers/python${PYTHONPATH:+:$PYTHONPATH}"
export TESSEL_EXAMPLES="$ROOT/examples"
export CONSOLE_KS=consoleks

console_port() {
  local port=""
  for _ in $(seq 1 100); do
    port="$(sed -n 's|.*console on http://[^:]*:\([0-9]*\)/.*|\1|p' "$TESSELD_LOG" | head -1)"
    [ -n "$port" ] && break
    sleep 0.1
  done
  echo "$port"
}

failed=0

echo "--- the console under a skewed write load"
cat >"$CONF" <<'YAML'
partition_write_budget: 20
hot_partitions_window_ms: 10000
partition_size_warn_threshold: 64KiB
YAML
start_tesseld "$BUILD" --config "$CONF" --http-port 0 || exit 1
TESSEL_HTTP_PORT="$(console_port)"
[ -n "$TESSEL_HTTP_PORT" ] || { echo "no console port in the log"; cat "$TESSELD_LOG"; exit 1; }
export TESSEL_HTTP_PORT
echo "console on http://$TESSEL_HOST:$TESSEL_HTTP_PORT/"
"$PY" "$ROOT/tests/drivers/python/console_load.py" >"$LOAD_LOG" 2>&1 &
LOAD_PID=$!
for _ in $(seq 1 1200); do
  grep -q "load running" "$LOAD_LOG" && break
  kill -0 "$LOAD_PID" 2>/dev/null || break
  sleep 0.1
done
if ! grep -q "load running" "$LOAD_LOG"; then
  echo "the load did not start:"; cat "$LOAD_LOG"; exit 1
fi
"$PY" "$ROOT/tests/drivers/python/test_console_api.py" || failed=1
CONSOLE_URL="http://$TESSEL_HOST:$TESSEL_HTTP_PORT" CONSOLE_MODE=console \
  node "$ROOT/tests/console/console_test.js" || failed=1
stop_load
cat "$LOAD_LOG"
stop_tesseld || failed=1

echo "--- the console with PasswordAuthenticator (tablets split past 32 KiB)"
cat >"$CONF" <<'YAML'
authenticator: PasswordAuthenticator
tablet_split_size_bytes: 32768
tablet_evaluation_interval_ms: 1000
YAML
start_tesseld "$BUILD" --config "$CONF" --http-port 0 || exit 1
TESSEL_HTTP_PORT="$(console_port)"
[ -n "$TESSEL_HTTP_PORT" ] || { echo "no console port in the log"; cat "$TESSELD_LOG"; exit 1; }
export TESSEL_HTTP_PORT
TESSEL_CONSOLE_AUTH=1 "$PY" "$ROOT/tests/drivers/python/test_console_api.py" || failed=1
CONSOLE_URL="http://$TESSEL_HOST:$TESSEL_HTTP_PORT" CONSOLE_MODE=login \
  CONSOLE_USER=console_viewer CONSOLE_PASSWORD=viewer-pass \
  node "$ROOT/tests/console/console_test.js" || failed=1
stop_tesseld || failed=1
echo "screenshots in $ARTIFACTS"
exit "$failed"
