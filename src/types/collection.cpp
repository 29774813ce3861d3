#include "types/collection.h"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "types/bytes_util.h"
#include "types/value.h"

namespace tessel::collection {
namespace {

bool read_int(std::string_view* in, int32_t* v) {
    if (in->size() < 4) return false;
    *v = bytes::read_i32(*in);
    in->remove_prefix(4);
    return true;
}

}  // namespace

Result<std::vector<std::string_view>> read_elements(std::string_view bytes, bool is_map) {
    std::string_view in = bytes;
    int32_t n = 0;
    if (!read_int(&in, &n)) {
        return Status::invalid("Not enough bytes to read the size of a collection");
    }
    if (n < 0) return Status::invalid(fmt::format("Invalid collection size ({})", n));
    size_t items = static_cast<size_t>(n) * (is_map ? 2 : 1);
    // Each element needs at least its 4-byte length: bounds the reservation.
    if (items > in.size() / 4) {
        return Status::invalid("Not enough bytes to read the elements of a collection");
    }
    std::vector<std::string_view> out;
    out.reserve(items);
    for (size_t i = 0; i < items; ++i) {
        int32_t len = 0;
        if (!read_int(&in, &len)) {
            return Status::invalid(fmt::format("Not enough bytes to read {}th element", i));
        }
        if (len < 0) return Status::invalid("null is not supported inside collections");
        if (static_cast<size_t>(len) > in.size()) {
            return Status::invalid(fmt::format("Not enough bytes to read {}th element", i));
        }
        out.push_back(in.substr(0, static_cast<size_t>(len)));
        in.remove_prefix(static_cast<size_t>(len));
    }
    if (!in.empty()) {
        return Status::invalid("Unexpected extraneous bytes after collection value");
    }
    return out;
}

Result<std::vector<std::optional<std::string_view>>> read_fields(std::string_view bytes) {
    std::string_view in = bytes;
    std::vector<std::optional<std::string_view>> out;
    while (!in.empty()) {
        int32_t len = 0;
        if (!read_int(&in, &len)) {
            return Status::invalid(
                fmt::format("Not enough bytes to read size of component {}", out.size()));
        }
        if (len < 0) {
            out.emplace_back(std::nullopt);
            continue;
        }
        if (static_cast<size_t>(len) > in.size()) {
            return Status::invalid(
                fmt::format("Not enough bytes to read component {}", out.size()));
        }
        out.emplace_back(in.substr(0, static_cast<size_t>(len)));
        in.remove_prefix(static_cast<size_t>(len));
    }
    return out;
}

void append_item(std::string* out, const std::optional<std::string_view>& item) {
    if (!item) {
        bytes::append_be(out, 0xFFFFFFFFu, 4);
        return;
    }
    bytes::append_be(out, static_cast<uint32_t>(item->size()), 4);
    out->append(*item);
}

std::string write_elements(const std::vector<std::string>& elements, bool is_map) {
    std::string out;
    bytes::append_be(&out, static_cast<uint32_t>(is_map ? elements.size() / 2 : elements.size()),
                     4);
    for (const auto& e : elements)
        append_item(&out, std::string_view(e));
    return out;
}

std::string write_fields(const std::vector<std::optional<std::string>>& fields) {
    std::string out;
    for (const auto& f : fields) {
        append_item(&out, f ? std::optional<std::string_view>(*f) : std::nullopt);
    }
    return out;
}

std::string canonicalize(const CqlType& type, std::string_view value) {
    switch (type.kind) {
        case TypeKind::kList:
        case TypeKind::kSet:
        case TypeKind::kMap: {
            if (value.empty() || type.params.empty()) return std::string(value);
            bool is_map = type.kind == TypeKind::kMap;
            auto elems = read_elements(value, is_map);
            if (!elems.is_ok()) return std::string(value);
            size_t stride = is_map ? 2 : 1;
            size_t count = elems->size() / stride;
            std::vector<std::string> canon;
            canon.reserve(elems->size());
            for (size_t i = 0; i < elems->size(); ++i) {
                canon.push_back(canonicalize(*type.params[i % stride], (*elems)[i]));
            }
            if (type.kind == TypeKind::kList) return write_elements(canon, false);
            const CqlType& key_type = *type.params[0];
            std::vector<size_t> order(count);
            std::iota(order.begin(), order.end(), 0);
            // Stable so that among equal map keys the last written entry is kept.
            std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
                return compare_values(key_type, canon[a * stride], canon[b * stride]) < 0;
            });
            std::vector<std::string> out;
            for (size_t k = 0; k < order.size(); ++k) {
                size_t idx = order[k];
                bool last_of_run =
                    k + 1 == order.size() || compare_values(key_type, canon[idx * stride],
                                                            canon[order[k + 1] * stride]) != 0;
                if (!last_of_run) continue;
                for (size_t j = 0; j < stride; ++j)
                    out.push_back(canon[idx * stride + j]);
            }
            return write_elements(out, is_map);
        }
        case TypeKind::kTuple:
        case TypeKind::kUdt: {
            auto fields = read_fields(value);
            if (!fields.is_ok()) return std::string(value);
            std::vector<std::optional<std::string>> out;
            for (size_t i = 0; i < fields->size(); ++i) {
                const auto& f = (*fields)[i];
                if (!f || i >= type.params.size()) {
                    out.emplace_back(f ? std::optional<std::string>(std::string(*f))
                                       : std::nullopt);
                } else {
                    out.emplace_back(canonicalize(*type.params[i], *f));
                }
            }
            return write_fields(out);
        }
        default:
            return std::string(value);
    }
}

}  // namespace tessel::collection
