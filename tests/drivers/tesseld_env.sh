# Sourced by tests/suites/{drivers,protocol}.sh: starts a real tesseld on a
# free port with a temporary data directory, and stops it again.
#   start_tesseld BUILD_DIR [ARGS...] -> sets TESSEL_HOST, TESSEL_PORT, TESSELD_PID, TESSELD_LOG
#                             (ARGS are passed on to tesseld, e.g. --config FILE)
#   stop_tesseld              -> SIGTERM, waits, fails if the exit code is not 0

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

start_tesseld() {
  local build="$1"
  shift
  local bin="$build/bin/tesseld"
  if [ ! -x "$bin" ]; then
    echo "tesseld not built: $bin" >&2
    return 1
  fi
  TESSELD_DATA="$(mktemp -d -t tesseld-data.XXXXXX)"
  TESSELD_LOG="$TESSELD_DATA.log"
  TESSEL_HOST=127.0.0.1
  TESSEL_PORT="$(free_port)"
  export TESSEL_HOST TESSEL_PORT
  "$bin" --data-dir "$TESSELD_DATA" --listen "$TESSEL_HOST" --port "$TESSEL_PORT" --smp 2 "$@" \
    >"$TESSELD_LOG" 2>&1 &
  TESSELD_PID=$!
  for _ in $(seq 1 300); do
    if grep -q "tesseld ready on" "$TESSELD_LOG" 2>/dev/null; then
      echo "tesseld (pid $TESSELD_PID) ready on $TESSEL_HOST:$TESSEL_PORT, data in $TESSELD_DATA"
      return 0
    fi
    if ! kill -0 "$TESSELD_PID" 2>/dev/null; then
      echo "tesseld exited during start-up:" >&2
      cat "$TESSELD_LOG" >&2
      return 1
    fi
    sleep 0.1
  done
  echo "tesseld did not become ready in 30 s:" >&2
  cat "$TESSELD_LOG" >&2
  kill -KILL "$TESSELD_PID" 2>/dev/null
  return 1
}

stop_tesseld() {
  [ -n "${TESSELD_PID:-}" ] || return 0
  local rc=0
  if kill -0 "$TESSELD_PID" 2>/dev/null; then
    kill -TERM "$TESSELD_PID"
    for _ in $(seq 1 300); do
      kill -0 "$TESSELD_PID" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$TESSELD_PID" 2>/dev/null; then
      echo "tesseld did not stop within 30 s of SIGTERM" >&2
      kill -KILL "$TESSELD_PID" 2>/dev/null
      rc=1
    fi
    wait "$TESSELD_PID" 2>/dev/null
    local code=$?
    if [ "$rc" -eq 0 ] && [ "$code" -ne 0 ]; then
      echo "tesseld exited with status $code after SIGTERM; log:" >&2
      tail -n 50 "$TESSELD_LOG" >&2
      rc=1
    fi
  else
    echo "tesseld (pid $TESSELD_PID) died during the tests; log:" >&2
    tail -n 50 "$TESSELD_LOG" >&2
    rc=1
  fi
  TESSELD_PID=
  rm -rf "$TESSELD_DATA" "$TESSELD_LOG"
  return "$rc"
}

# A python3 that can import the DataStax driver (Debian's python3-cassandra
# lives in /usr/lib/python3/dist-packages, which a pyenv python3 does not see).
driver_python() {
  local p
  for p in /usr/bin/python3 python3; do
    if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import cassandra' 2>/dev/null; then
      echo "$p"
      return 0
    fi
  done
  return 1
}
