#!/usr/bin/env bash
# Client TLS against a real tesseld: certificates made here with openssl (a CA,
# a server certificate for 127.0.0.1 and a client certificate), then the
# Python driver over TLS: with server authentication only, with
# require_client_auth, and with optional (plain clients accepted too).
# Usage: tests/suites/tls.sh BUILD_DIR
set -uo pipefail
BUILD="$(cd "${1:-build}" && pwd)"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
source "$ROOT/tests/drivers/tesseld_env.sh"
CERTS="$(mktemp -d -t tesseld-tls.XXXXXX)"
trap 'stop_tesseld; rm -rf "$CERTS"' EXIT

PY="$(driver_python)" || { echo "python3-cassandra is not installed (apt-get install python3-cassandra)"; exit 1; }
command -v openssl >/dev/null || { echo "openssl is not installed"; exit 1; }

make_certs() {
  cd "$CERTS" || return 1
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=Tessel test CA" \
    -keyout ca.key -out ca.pem || return 1
  for who in server client; do
    local ext="subjectAltName=IP:127.0.0.1"
    [ "$who" = client ] && ext="extendedKeyUsage=clientAuth"
    openssl req -newkey rsa:2048 -nodes -subj "/CN=$who" -keyout "$who.key" -out "$who.csr" || return 1
    printf '%s\n' "$ext" > "$who.ext"
    openssl x509 -req -in "$who.csr" -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 \
      -extfile "$who.ext" -out "$who.pem" || return 1
  done
  cd - >/dev/null
}
make_certs >/dev/null 2>"$CERTS/openssl.log" || { cat "$CERTS/openssl.log"; exit 1; }

failed=0
run_mode() {  # require_client_auth: true|false, optional: true|false
  cat > "$CERTS/tesseld.yaml" <<YAML
client_encryption_options:
  enabled: true
  optional: $2
  keystore: $CERTS/server.pem
  private_key: $CERTS/server.key
  require_client_auth: $1
  truststore: $CERTS/ca.pem
YAML
  echo "--- TLS, require_client_auth: $1, optional: $2"
  start_tesseld "$BUILD" --config "$CERTS/tesseld.yaml" || { failed=1; return; }
  TESSEL_TLS_CA="$CERTS/ca.pem" TESSEL_TLS_CLIENT="$CERTS/client.pem:$CERTS/client.key" \
    TESSEL_TLS_REQUIRE_CLIENT_AUTH="$([ "$1" = true ] && echo 1 || echo 0)" \
    TESSEL_TLS_OPTIONAL="$([ "$2" = true ] && echo 1 || echo 0)" \
    "$PY" "$ROOT/tests/drivers/python/test_tls.py" || failed=1
  stop_tesseld || failed=1
}
run_mode false false
run_mode true false
run_mode false true
exit "$failed"
