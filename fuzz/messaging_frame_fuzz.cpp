// libFuzzer entry point for fuzz_messaging_frame (see targets.h).
#include "targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    tessel::fuzz::fuzz_messaging_frame(data, size);
    return 0;
}
