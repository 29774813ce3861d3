// libFuzzer entry point for fuzz_paging_state (see targets.h).
#include "targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    tessel::fuzz::fuzz_paging_state(data, size);
    return 0;
}
