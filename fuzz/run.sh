#!/usr/bin/env bash
# Runs every libFuzzer target for SECONDS (default 60) from its seed corpus.
#
#   fuzz/run.sh [SECONDS] [TARGET...]     e.g. fuzz/run.sh 600 (the soak), fuzz/run.sh 60 cql
#
# Builds build-asan with clang (TESSEL_FUZZ=ON, the build `make asan` runs
# the suites on) when needed. Each target
# fuzzes a temporary copy of fuzz/corpus/<target> so the repository corpus
# stays as committed; crash inputs are saved in the build directory
# (build-asan/fuzz-artifacts/<target>/) to be minimised and copied to
# fuzz/regressions/<target>/. Exits non-zero when any target crashed.
#
# Environment: FUZZ_BUILD (default build-asan), FUZZ_JOBS (build jobs, default 2),
# FUZZ_CMAKE_ARGS (extra configure arguments).
set -uo pipefail

SECONDS_PER_TARGET=${1:-60}
shift || true
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${FUZZ_BUILD:-$ROOT/build-asan}
JOBS=${FUZZ_JOBS:-2}
ALL_TARGETS=(frame cql values compression type_option paging_state messaging_frame)
if [[ $# -gt 0 ]]; then TARGETS=("$@"); else TARGETS=("${ALL_TARGETS[@]}"); fi

# Longest input per target: frames up to a few KiB (the fuzz parser's max
# frame is 4 KiB), statements and values shorter.
max_len() {
    case "$1" in
        frame) echo 16384 ;;
        cql) echo 4096 ;;
        values) echo 2048 ;;
        compression) echo 8192 ;;
        type_option) echo 1024 ;;
        paging_state) echo 1024 ;;
        messaging_frame) echo 16384 ;;
        *) echo 4096 ;;
    esac
}

if [[ ! -f "$BUILD/CMakeCache.txt" ]]; then
    # shellcheck disable=SC2086
    CC=clang CXX=clang++ cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
        -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" -DCMAKE_C_FLAGS_DEBUG="-O1 -g" \
        -DTESSEL_FUZZ=ON ${FUZZ_CMAKE_ARGS:-} || exit 2
fi
build_targets=()
for t in "${TARGETS[@]}"; do build_targets+=("fuzz_$t"); done
cmake --build "$BUILD" --target "${build_targets[@]}" -j "$JOBS" || exit 2

# UBSan reports are fatal (the libraries are built with recoverable checks).
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
passed=0
failed=0
failed_names=()
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for t in "${TARGETS[@]}"; do
    corpus="$work/$t"
    artifacts="$BUILD/fuzz-artifacts/$t"
    mkdir -p "$corpus" "$artifacts"
    cp -r "$ROOT/fuzz/corpus/$t/." "$corpus/" 2>/dev/null || true
    log="$BUILD/fuzz-artifacts/$t.log"
    echo "== fuzz_$t for ${SECONDS_PER_TARGET}s (log: $log)"
    "$BUILD/bin/fuzz_$t" "$corpus" -max_total_time="$SECONDS_PER_TARGET" \
        -max_len="$(max_len "$t")" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$artifacts/" >"$log" 2>&1
    rc=$?
    cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1)
    runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$')
    if [[ $rc -eq 0 ]]; then
        echo "   ok: ${cov:-cov: ?}, ${runs:-?} runs"
        passed=$((passed + 1))
    else
        echo "   FAILED (exit $rc): $(grep -m1 -E 'ERROR:|SUMMARY:|fuzz invariant' "$log")"
        grep -E '^artifact_prefix|Test unit written to' "$log" | sed 's/^/   /'
        failed=$((failed + 1))
        failed_names+=("$t")
    fi
done
echo "${passed} passed, ${failed} failed${failed_names[*]:+ (${failed_names[*]})}"
[[ $failed -eq 0 ]]
