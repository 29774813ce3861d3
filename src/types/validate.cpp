// validate_value: is a byte string a well-formed value of a CQL type?
#include <fmt/format.h>

#include "types/bytes_util.h"
#include "types/collection.h"
#include "types/duration.h"
#include "types/timeutil.h"
#include "types/utf8.h"
#include "types/uuid.h"
#include "types/value.h"

namespace tessel {
namespace {

Status fixed_size(std::string_view b, size_t n, bool empty_ok, const char* what) {
    if (b.size() == n || (empty_ok && b.empty())) return Status::ok();
    return Status::invalid(fmt::format(fmt::runtime(what), b.size()));
}

Status validate_collection(const CqlType& type, std::string_view b) {
    if (b.empty()) return Status::ok();  // an empty frozen collection value
    bool is_map = type.kind == TypeKind::kMap;
    size_t expected = is_map ? 2 : 1;
    if (type.params.size() != expected) return Status::invalid("Malformed collection type");
    auto elems = collection::read_elements(b, is_map);
    if (!elems.is_ok()) return elems.status();
    for (size_t i = 0; i < elems->size(); ++i) {
        TESSEL_RETURN_IF_ERROR(validate_value(*type.params[i % expected], (*elems)[i]));
    }
    return Status::ok();
}

Status validate_fields(const CqlType& type, std::string_view b) {
    if (b.empty()) return Status::ok();
    auto fields = collection::read_fields(b);
    if (!fields.is_ok()) return fields.status();
    if (fields->size() > type.params.size()) {
        return Status::invalid(
            type.kind == TypeKind::kUdt
                ? fmt::format("Invalid user type value: expected at most {} fields but got {}",
                              type.params.size(), fields->size())
                : fmt::format("Invalid tuple value: expected at most {} components but got {}",
                              type.params.size(), fields->size()));
    }
    for (size_t i = 0; i < fields->size(); ++i) {
        if ((*fields)[i]) TESSEL_RETURN_IF_ERROR(validate_value(*type.params[i], *(*fields)[i]));
    }
    return Status::ok();
}

}  // namespace

Status validate_value(const CqlType& type, std::string_view b) {
    switch (type.kind) {
        case TypeKind::kAscii:
            for (unsigned char c : b) {
                if (c > 127) return Status::invalid(fmt::format("Invalid byte for ascii: {}", c));
            }
            return Status::ok();
        case TypeKind::kVarchar:
            if (!utf8::valid(b)) return Status::invalid("String didn't validate.");
            return Status::ok();
        case TypeKind::kBlob:
        case TypeKind::kCustom:
        case TypeKind::kVarint:
            return Status::ok();
        case TypeKind::kBoolean:
            return fixed_size(b, 1, true, "Expected 1 or 0 byte value ({})");
        case TypeKind::kInt:
            return fixed_size(b, 4, true, "Expected 4 or 0 byte int ({})");
        case TypeKind::kBigint:
        case TypeKind::kCounter:
            return fixed_size(b, 8, true, "Expected 8 or 0 byte long ({})");
        case TypeKind::kSmallint:
            return fixed_size(b, 2, false, "Expected 2 bytes for a smallint ({})");
        case TypeKind::kTinyint:
            return fixed_size(b, 1, false, "Expected 1 byte for a tinyint ({})");
        case TypeKind::kFloat:
            return fixed_size(b, 4, true, "Expected 4 or 0 byte value for a float ({})");
        case TypeKind::kDouble:
            return fixed_size(b, 8, true, "Expected 8 or 0 byte value for a double ({})");
        case TypeKind::kTimestamp:
            return fixed_size(b, 8, true, "Expected 8 or 0 byte long for date ({})");
        case TypeKind::kDate:
            return fixed_size(b, 4, false, "Expected 4 byte long for date ({})");
        case TypeKind::kTime: {
            TESSEL_RETURN_IF_ERROR(fixed_size(b, 8, false, "Expected 8 byte long for time ({})"));
            int64_t v = bytes::read_i64(b);
            if (v < 0 || v >= timeutil::kNanosPerDay) {
                return Status::invalid(fmt::format("Invalid time value: {} is not in [0, {})", v,
                                                   timeutil::kNanosPerDay));
            }
            return Status::ok();
        }
        case TypeKind::kDecimal:
            if (!b.empty() && b.size() < 4) {
                return Status::invalid(
                    fmt::format("Expected 0 or at least 4 bytes ({})", b.size()));
            }
            return Status::ok();
        case TypeKind::kUuid:
            return fixed_size(b, 16, true, "UUID should be 16 or 0 bytes ({})");
        case TypeKind::kTimeuuid:
            TESSEL_RETURN_IF_ERROR(
                fixed_size(b, 16, true, "TimeUUID should be 16 or 0 bytes ({})"));
            if (!b.empty() && uuid::version(b) != 1) {
                return Status::invalid("Invalid version for TimeUUID type.");
            }
            return Status::ok();
        case TypeKind::kInet:
            if (b.empty() || b.size() == 4 || b.size() == 16) return Status::ok();
            return Status::invalid(
                fmt::format("Invalid inet address: expected 4 or 16 bytes ({})", b.size()));
        case TypeKind::kDuration: {
            auto d = duration::decode(b);
            return d.is_ok() ? Status::ok() : d.status();
        }
        case TypeKind::kList:
        case TypeKind::kSet:
        case TypeKind::kMap:
            return validate_collection(type, b);
        case TypeKind::kTuple:
        case TypeKind::kUdt:
            return validate_fields(type, b);
    }
    return Status::invalid("Unknown type");
}

}  // namespace tessel
