#include "cluster/consistency.h"

namespace tessel::cluster {

std::optional<Consistency> consistency_from_code(uint16_t code) {
    if (code > static_cast<uint16_t>(Consistency::kLocalOne)) return std::nullopt;
    return static_cast<Consistency>(code);
}

std::string_view consistency_name(Consistency c) {
    switch (c) {
        case Consistency::kAny:
            return "ANY";
        case Consistency::kOne:
            return "ONE";
        case Consistency::kTwo:
            return "TWO";
        case Consistency::kThree:
            return "THREE";
        case Consistency::kQuorum:
            return "QUORUM";
        case Consistency::kAll:
            return "ALL";
        case Consistency::kLocalQuorum:
            return "LOCAL_QUORUM";
        case Consistency::kEachQuorum:
            return "EACH_QUORUM";
        case Consistency::kSerial:
            return "SERIAL";
        case Consistency::kLocalSerial:
            return "LOCAL_SERIAL";
        case Consistency::kLocalOne:
            return "LOCAL_ONE";
    }
    return "UNKNOWN";
}

}  // namespace tessel::cluster
