# Included from the top CMakeLists.txt in every build (g++ or clang, with or
# without sanitizers): fuzz_replay runs every seed in fuzz/corpus/<target>/ and
# every saved crash input in fuzz/regressions/<target>/ through the fuzz target
# functions, so a crash once found stays fixed. No libFuzzer needed.
set(TESSEL_FUZZ_DIR ${PROJECT_SOURCE_DIR}/fuzz)
set(TESSEL_FUZZ_TARGET_SOURCES
    ${TESSEL_FUZZ_DIR}/fuzz_fail.cpp
    ${TESSEL_FUZZ_DIR}/target_frame.cpp
    ${TESSEL_FUZZ_DIR}/target_cql.cpp
    ${TESSEL_FUZZ_DIR}/target_values.cpp
    ${TESSEL_FUZZ_DIR}/target_compression.cpp
    ${TESSEL_FUZZ_DIR}/target_type_option.cpp
    ${TESSEL_FUZZ_DIR}/target_paging_state.cpp
    ${TESSEL_FUZZ_DIR}/target_messaging_frame.cpp
    # The paging-state codec and the internode frame codec are self-contained
    # files of the query and cluster modules, compiled in so the replay does
    # not need storage, RocksDB, Asio or OpenSSL's TLS.
    ${PROJECT_SOURCE_DIR}/src/query/paging_state.cpp
    ${PROJECT_SOURCE_DIR}/src/cluster/messaging_frame.cpp)
set(TESSEL_FUZZ_TARGET_LIBS tessel_protocol tessel_cql tessel_types OpenSSL::Crypto)

add_executable(fuzz_replay ${TESSEL_FUZZ_DIR}/replay_main.cpp ${TESSEL_FUZZ_TARGET_SOURCES})
target_include_directories(fuzz_replay PRIVATE ${TESSEL_FUZZ_DIR} ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(fuzz_replay PRIVATE ${TESSEL_FUZZ_TARGET_LIBS})
add_test(NAME fuzz_replay COMMAND fuzz_replay ${TESSEL_FUZZ_DIR})
# A regression input that hangs must fail the test, not stall CI.
set_tests_properties(fuzz_replay PROPERTIES LABELS unit TIMEOUT 300)

# Writes the generated part of the seed corpora (real frames, encoded values,
# type options, paging states) into fuzz/corpus/. Run by hand after a format
# change: `cmake --build build --target fuzz_seed_gen && build/bin/fuzz_seed_gen fuzz/corpus`.
add_executable(fuzz_seed_gen EXCLUDE_FROM_ALL ${TESSEL_FUZZ_DIR}/seed_gen.cpp
               ${PROJECT_SOURCE_DIR}/src/query/paging_state.cpp
               ${PROJECT_SOURCE_DIR}/src/cluster/messaging_frame.cpp)
target_include_directories(fuzz_seed_gen PRIVATE ${TESSEL_FUZZ_DIR} ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(fuzz_seed_gen PRIVATE tessel_protocol tessel_types OpenSSL::Crypto)
