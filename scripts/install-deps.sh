#!/usr/bin/env bash
# Installs every Debian package Tessel needs to build, test and benchmark.
# Idempotent: does nothing when everything is present (unless --force).
set -euo pipefail

PACKAGES=(
  build-essential g++ cmake make ninja-build pkg-config clang-format
  librocksdb-dev libasio-dev libfmt-dev libspdlog-dev libcli11-dev libxxhash-dev
  liblz4-dev libsnappy-dev libssl-dev libgtest-dev libgmock-dev libbenchmark-dev
  libcurl4-openssl-dev nlohmann-json3-dev etcd-server etcd-client
  libcpp-httplib-dev chromium
  python3 python3-cassandra
  postgresql libpq-dev clang libclang-rt-14-dev
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js for the Node driver tests: machines may carry a Node.js build that
# bundles npm (and conflicts with Debian's npm package); install Debian's only
# when there is none.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  missing+=(nodejs npm)
fi
if [ "${#missing[@]}" -eq 0 ] && [ "${1:-}" != "--force" ]; then
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "installing: ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
