// libFuzzer entry point for fuzz_type_option (see targets.h).
#include "targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    tessel::fuzz::fuzz_type_option(data, size);
    return 0;
}
