#include "cql/prepare_functions.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <random>

#include "types/bytes_util.h"
#include "types/value.h"

namespace tessel::cql {
namespace {

// 100ns intervals between 1582-10-15 (UUID epoch) and 1970-01-01.
constexpr int64_t kUuidEpochOffset = 0x01B21DD213814000LL;
constexpr int64_t kMillisPerDay = 86400000LL;

std::string lower(std::string_view s) {
    std::string out(s);
    for (auto& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string uuid_from_time(int64_t ticks, uint64_t lsb) {
    const auto t = static_cast<uint64_t>(ticks);
    const uint64_t msb = ((t & 0xFFFFFFFFULL) << 32) | (((t >> 32) & 0xFFFFULL) << 16) | 0x1000ULL |
                         ((t >> 48) & 0x0FFFULL);
    std::string out = encode_bigint(static_cast<int64_t>(msb));
    out += encode_bigint(static_cast<int64_t>(lsb));
    return out;
}

int64_t uuid_ticks(std::string_view u) {
    const auto msb = static_cast<uint64_t>(decode_bigint(u.substr(0, 8)));
    const uint64_t time_low = msb >> 32;
    const uint64_t time_mid = (msb >> 16) & 0xFFFF;
    const uint64_t time_hi = msb & 0x0FFF;
    return static_cast<int64_t>((time_hi << 48) | (time_mid << 32) | time_low);
}

std::string encode_date_days(int64_t days_since_epoch) {
    const auto u = static_cast<uint32_t>(days_since_epoch + (1LL << 31));
    std::string out(4, '\0');
    for (int i = 0; i < 4; ++i)
        out[i] = static_cast<char>((u >> (24 - 8 * i)) & 0xFF);
    return out;
}

int64_t date_to_millis(std::string_view d) {
    uint32_t u = 0;
    for (unsigned char c : d.substr(0, 4))
        u = (u << 8) | c;
    return (static_cast<int64_t>(u) - (1LL << 31)) * kMillisPerDay;
}

int64_t floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}

TypePtr T(TypeKind k) {
    return native_type(k);
}

// --- implementations -------------------------------------------------------

Result<OptValue> fn_now(const ScalarFunction&, const std::vector<OptValue>&) {
    return OptValue(make_timeuuid(now_micros()));
}
Result<OptValue> fn_uuid(const ScalarFunction&, const std::vector<OptValue>&) {
    static thread_local std::mt19937_64 rng{std::random_device{}()};
    std::string out = encode_bigint(static_cast<int64_t>(rng()));
    out += encode_bigint(static_cast<int64_t>(rng()));
    out[6] = static_cast<char>((out[6] & 0x0F) | 0x40);
    out[8] = static_cast<char>((out[8] & 0x3F) | 0x80);
    return OptValue(out);
}
Result<OptValue> fn_current_timestamp(const ScalarFunction&, const std::vector<OptValue>&) {
    return OptValue(encode_bigint(now_micros() / 1000));
}
Result<OptValue> fn_current_date(const ScalarFunction&, const std::vector<OptValue>&) {
    return OptValue(encode_date_days(floor_div(now_micros() / 1000, kMillisPerDay)));
}
Result<OptValue> fn_current_time(const ScalarFunction&, const std::vector<OptValue>&) {
    const int64_t ms = now_micros() / 1000;
    return OptValue(encode_bigint((ms - floor_div(ms, kMillisPerDay) * kMillisPerDay) * 1000000));
}

// Millis since the epoch of a timeuuid, timestamp or date argument.
int64_t arg_millis(const ScalarFunction& f, std::string_view v) {
    switch (f.arg_types[0]->kind) {
        case TypeKind::kTimeuuid:
            return timeuuid_unix_millis(v);
        case TypeKind::kDate:
            return date_to_millis(v);
        default:
            return decode_bigint(v);
    }
}
Result<OptValue> fn_to_timestamp(const ScalarFunction& f, const std::vector<OptValue>& a) {
    if (!a[0] || a[0]->empty()) return OptValue();
    return OptValue(encode_bigint(arg_millis(f, *a[0])));
}
Result<OptValue> fn_to_unix(const ScalarFunction& f, const std::vector<OptValue>& a) {
    if (!a[0] || a[0]->empty()) return OptValue();
    return OptValue(encode_bigint(arg_millis(f, *a[0])));
}
Result<OptValue> fn_to_date(const ScalarFunction& f, const std::vector<OptValue>& a) {
    if (!a[0] || a[0]->empty()) return OptValue();
    return OptValue(encode_date_days(floor_div(arg_millis(f, *a[0]), kMillisPerDay)));
}
Result<OptValue> fn_min_timeuuid(const ScalarFunction&, const std::vector<OptValue>& a) {
    if (!a[0] || a[0]->empty()) return OptValue();
    const int64_t ticks = decode_bigint(*a[0]) * 10000 + kUuidEpochOffset;
    return OptValue(uuid_from_time(ticks, 0x8080808080808080ULL));
}
Result<OptValue> fn_max_timeuuid(const ScalarFunction&, const std::vector<OptValue>& a) {
    if (!a[0] || a[0]->empty()) return OptValue();
    const int64_t ticks = decode_bigint(*a[0]) * 10000 + 9999 + kUuidEpochOffset;
    return OptValue(uuid_from_time(ticks, 0x7f7f7f7f7f7f7f7fULL));
}
Result<OptValue> fn_identity(const ScalarFunction&, const std::vector<OptValue>& a) {
    return a[0];
}
Result<OptValue> fn_blob_as(const ScalarFunction& f, const std::vector<OptValue>& a) {
    if (!a[0]) return OptValue();
    Status st = validate_value(*f.return_type, *a[0]);
    if (!st.is_ok()) {
        return Status::invalid(
            "In call to function system." + f.name + ", value 0x" + bytes::to_hex(*a[0]) +
            " is not a valid binary representation for type " + f.return_type->cql_name());
    }
    return a[0];
}

std::vector<ScalarFunction> build_functions() {
    std::vector<ScalarFunction> fs;
    auto add = [&](std::string name, std::vector<TypePtr> args, TypePtr ret, bool pure, auto fn) {
        fs.push_back({std::move(name), std::move(args), ret, pure, fn});
    };
    add("now", {}, T(TypeKind::kTimeuuid), false, fn_now);
    add("currenttimeuuid", {}, T(TypeKind::kTimeuuid), false, fn_now);
    add("uuid", {}, T(TypeKind::kUuid), false, fn_uuid);
    add("currenttimestamp", {}, T(TypeKind::kTimestamp), false, fn_current_timestamp);
    add("currentdate", {}, T(TypeKind::kDate), false, fn_current_date);
    add("currenttime", {}, T(TypeKind::kTime), false, fn_current_time);
    for (auto k : {TypeKind::kTimeuuid, TypeKind::kDate}) {
        add("totimestamp", {T(k)}, T(TypeKind::kTimestamp), true, fn_to_timestamp);
    }
    for (auto k : {TypeKind::kTimeuuid, TypeKind::kTimestamp}) {
        add("todate", {T(k)}, T(TypeKind::kDate), true, fn_to_date);
    }
    for (auto k : {TypeKind::kTimeuuid, TypeKind::kTimestamp, TypeKind::kDate}) {
        add("tounixtimestamp", {T(k)}, T(TypeKind::kBigint), true, fn_to_unix);
    }
    add("dateof", {T(TypeKind::kTimeuuid)}, T(TypeKind::kTimestamp), true, fn_to_timestamp);
    add("unixtimestampof", {T(TypeKind::kTimeuuid)}, T(TypeKind::kBigint), true, fn_to_unix);
    add("mintimeuuid", {T(TypeKind::kTimestamp)}, T(TypeKind::kTimeuuid), true, fn_min_timeuuid);
    add("maxtimeuuid", {T(TypeKind::kTimestamp)}, T(TypeKind::kTimeuuid), true, fn_max_timeuuid);
    const std::pair<const char*, TypeKind> natives[] = {
        {"ascii", TypeKind::kAscii},       {"bigint", TypeKind::kBigint},
        {"boolean", TypeKind::kBoolean},   {"decimal", TypeKind::kDecimal},
        {"double", TypeKind::kDouble},     {"float", TypeKind::kFloat},
        {"int", TypeKind::kInt},           {"timestamp", TypeKind::kTimestamp},
        {"uuid", TypeKind::kUuid},         {"text", TypeKind::kVarchar},
        {"varchar", TypeKind::kVarchar},   {"varint", TypeKind::kVarint},
        {"timeuuid", TypeKind::kTimeuuid}, {"inet", TypeKind::kInet},
        {"date", TypeKind::kDate},         {"time", TypeKind::kTime},
        {"smallint", TypeKind::kSmallint}, {"tinyint", TypeKind::kTinyint},
        {"duration", TypeKind::kDuration}, {"counter", TypeKind::kCounter},
    };
    for (const auto& [n, k] : natives) {
        add(std::string(n) + "asblob", {T(k)}, T(TypeKind::kBlob), true, fn_identity);
        add(std::string("blobas") + n, {T(TypeKind::kBlob)}, T(k), true, fn_blob_as);
    }
    return fs;
}

const std::vector<ScalarFunction>& all_functions() {
    static const std::vector<ScalarFunction> fs = build_functions();
    return fs;
}

}  // namespace

std::vector<const ScalarFunction*> find_functions(std::string_view name, size_t arity) {
    const std::string n = lower(name);
    std::vector<const ScalarFunction*> out;
    for (const auto& f : all_functions()) {
        if (f.name == n && f.arg_types.size() == arity) out.push_back(&f);
    }
    return out;
}

const ScalarFunction* fromjson_function() {
    static const ScalarFunction f{
        "fromjson",
        {native_type(TypeKind::kVarchar)},
        native_type(TypeKind::kVarchar),  // the receiver's type, per use
        true,
        [](const ScalarFunction&, const std::vector<OptValue>&) -> Result<OptValue> {
            return Status::server("fromJson() evaluated without its receiver type");
        }};
    return &f;
}

const ScalarFunction* token_function() {
    // The coordinator evaluates token() itself (it needs the partitioner,
    // which this layer does not link); `call` is never reached there.
    static const ScalarFunction f{
        "token",
        {},
        native_type(TypeKind::kBigint),
        true,
        [](const ScalarFunction&, const std::vector<OptValue>&) -> Result<OptValue> {
            return Status::server("token() evaluated outside the coordinator");
        }};
    return &f;
}

bool is_scalar_function(std::string_view name) {
    const std::string n = lower(name);
    return std::any_of(all_functions().begin(), all_functions().end(),
                       [&](const ScalarFunction& f) { return f.name == n; });
}

int64_t now_micros() {
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::string make_timeuuid(int64_t unix_micros) {
    // Ticks are 100ns; a per-process counter below the microsecond keeps two
    // calls in the same microsecond distinct and increasing.
    static std::atomic<int64_t> last{0};
    static const uint64_t node = [] {
        std::random_device rd;
        return ((static_cast<uint64_t>(rd()) << 32) | rd()) & 0x3FFFFFFFFFFFFFFFULL;
    }();
    int64_t ticks = unix_micros * 10 + kUuidEpochOffset;
    int64_t prev = last.load();
    while (true) {
        const int64_t next = std::max(ticks, prev + 1);
        if (last.compare_exchange_weak(prev, next)) {
            ticks = next;
            break;
        }
    }
    return uuid_from_time(ticks, node | 0x8000000000000000ULL);
}

int64_t timeuuid_unix_millis(std::string_view uuid) {
    if (uuid.size() != 16) return 0;
    return floor_div(uuid_ticks(uuid) - kUuidEpochOffset, 10000);
}

std::string encode_bigint(int64_t v) {
    std::string out(8, '\0');
    const auto u = static_cast<uint64_t>(v);
    for (int i = 0; i < 8; ++i)
        out[i] = static_cast<char>((u >> (56 - 8 * i)) & 0xFF);
    return out;
}

int64_t decode_bigint(std::string_view b) {
    if (b.size() != 8) return 0;
    uint64_t u = 0;
    for (unsigned char c : b)
        u = (u << 8) | c;
    return static_cast<int64_t>(u);
}

std::string encode_int(int32_t v) {
    std::string out(4, '\0');
    const auto u = static_cast<uint32_t>(v);
    for (int i = 0; i < 4; ++i)
        out[i] = static_cast<char>((u >> (24 - 8 * i)) & 0xFF);
    return out;
}

int32_t decode_int(std::string_view b) {
    if (b.size() != 4) return 0;
    uint32_t u = 0;
    for (unsigned char c : b)
        u = (u << 8) | c;
    return static_cast<int32_t>(u);
}

bool castable(TypeKind from, TypeKind to) {
    auto number = [](TypeKind k) {
        return k == TypeKind::kTinyint || k == TypeKind::kSmallint || k == TypeKind::kInt ||
               k == TypeKind::kBigint || k == TypeKind::kFloat || k == TypeKind::kDouble ||
               k == TypeKind::kDecimal || k == TypeKind::kVarint || k == TypeKind::kCounter;
    };
    const bool to_text = to == TypeKind::kVarchar || to == TypeKind::kAscii;
    if (number(from)) return to_text || (number(to) && to != TypeKind::kCounter);
    switch (from) {
        case TypeKind::kAscii:
            return to == TypeKind::kVarchar;
        case TypeKind::kInet:
        case TypeKind::kBoolean:
        case TypeKind::kUuid:
        case TypeKind::kTime:
            return to_text;
        case TypeKind::kTimeuuid:
            return to_text || to == TypeKind::kDate || to == TypeKind::kTimestamp;
        case TypeKind::kTimestamp:
            return to_text || to == TypeKind::kDate;
        case TypeKind::kDate:
            return to_text || to == TypeKind::kTimestamp;
        default:
            return false;
    }
}

}  // namespace tessel::cql
