# The two commands of the quick start: `make run` and `make test`.
BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= $(shell nproc)
DATA_DIR   ?= ./data
CMAKE_GEN  := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")

.PHONY: deps configure build run test approve asan asan-build micro fuzz format format-check bench soak clean

deps:
	@bash scripts/install-deps.sh

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release

configure: deps $(BUILD)/CMakeCache.txt

build: configure
	cmake --build $(BUILD) -j $(JOBS)

# Builds and starts the server on 127.0.0.1:9042 with data in ./data.
run: build
	$(BUILD)/bin/tesseld --data-dir $(DATA_DIR) --listen 127.0.0.1 --port 9042

# Every test suite: unit tests, CQL approval files, driver and protocol tests.
test: build
	bash tests/run_all.sh $(BUILD)

# Rewrites tests/cql/*.result from the current build (review with git diff).
approve: build
	bash tests/cql/run.sh $(BUILD) --approve

# One clang build serves the sanitizer suites and the fuzzers: everything
# instrumented with ASan, UBSan and libFuzzer coverage (-O1 -g), the fuzz
# targets linked with the libFuzzer driver.
SAN_CMAKE = CC=clang CXX=clang++ cmake -S . -B $(ASAN_BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Debug \
	-DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" -DCMAKE_C_FLAGS_DEBUG="-O1 -g" -DTESSEL_FUZZ=ON

asan-build: deps
	$(SAN_CMAKE)
	cmake --build $(ASAN_BUILD) -j $(JOBS)

# Every suite under AddressSanitizer and UndefinedBehaviorSanitizer.
asan: asan-build
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 bash tests/run_all.sh $(ASAN_BUILD)

format:
	find src include tools tests bench -name '*.h' -o -name '*.cpp' | xargs clang-format -i

format-check:
	find src include tools tests bench -name '*.h' -o -name '*.cpp' | xargs clang-format --dry-run --Werror

# The side-by-side benchmark (Tessel, PostgreSQL, raw RocksDB): bench/results/latest.*
bench: build
	bash bench/run.sh $(BUILD)

# Google Benchmark micro-benchmarks of the storage paths.
micro: build
	@for b in $(BUILD)/bin/micro_*; do [ -x "$$b" ] && "$$b"; done

# libFuzzer targets for FUZZ_SECONDS each, on the sanitizer build; crash
# inputs land in $(ASAN_BUILD)/fuzz-artifacts/ (keep them in fuzz/regressions/).
FUZZ_SECONDS ?= 60
# fuzz/run.sh configures $(ASAN_BUILD) as asan-build does when needed and
# builds only the fuzz targets.
fuzz: deps
	FUZZ_BUILD=$(ASAN_BUILD) bash fuzz/run.sh $(FUZZ_SECONDS)

# Long runs kept out of CI: the crash test for CRASH_CYCLES (100) kill/restart
# cycles, then every fuzzer for SOAK_FUZZ_SECONDS (600) each.
CRASH_CYCLES      ?= 100
SOAK_FUZZ_SECONDS ?= 600
soak: build
	CRASH_CYCLES=$(CRASH_CYCLES) bash tests/suites/crash.sh $(BUILD)
	FUZZ_BUILD=$(ASAN_BUILD) bash fuzz/run.sh $(SOAK_FUZZ_SECONDS)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
