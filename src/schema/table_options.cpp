#include "schema/table_options.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <set>

namespace tessel {
namespace {

constexpr std::string_view kCompactionPrefix = "org.apache.cassandra.db.compaction.";
constexpr std::string_view kCompressionPrefix = "org.apache.cassandra.io.compress.";

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string upper(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

// Java's Set.toString of the offending keys: "[a, b]".
std::string key_list(const StringMap& m) {
    std::string out = "[";
    bool first = true;
    for (const auto& [k, v] : m) {
        if (!first) out += ", ";
        out += k;
        first = false;
    }
    return out + "]";
}

Result<std::string> scalar(std::string_view name, const OptionValue& v) {
    if (v.is_map()) {
        return Status::syntax(
            fmt::format("Invalid value for property '{}'. It should be a string", name));
    }
    return v.text;
}

Result<StringMap> as_map(std::string_view name, const OptionValue& v) {
    if (!v.is_map()) {
        return Status::syntax(
            fmt::format("Invalid value for property '{}'. It should be a map.", name));
    }
    return v.map;
}

std::optional<int64_t> parse_long(std::string_view text) {
    if (!text.empty() && text.front() == '+') text.remove_prefix(1);
    int64_t out = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    if (ec != std::errc() || p != text.data() + text.size() || text.empty()) return std::nullopt;
    return out;
}

Result<int32_t> parse_int(std::string_view name, const OptionValue& v) {
    TESSEL_ASSIGN_OR_RETURN(std::string text, scalar(name, v));
    auto n = parse_long(text);
    if (!n || *n < INT32_MIN || *n > INT32_MAX) {
        return Status::syntax(fmt::format("Invalid integer value {} for '{}'", text, name));
    }
    return static_cast<int32_t>(*n);
}

std::optional<double> parse_java_double(const std::string& text) {
    if (text.empty() || std::isspace(static_cast<unsigned char>(text.front()))) return std::nullopt;
    char* end = nullptr;
    double d = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size()) return std::nullopt;
    return d;
}

Result<double> parse_double(std::string_view name, const OptionValue& v) {
    TESSEL_ASSIGN_OR_RETURN(std::string text, scalar(name, v));
    auto d = parse_java_double(text);
    if (!d) return Status::syntax(fmt::format("Invalid double value {} for '{}'", text, name));
    return *d;
}

Status check_chance(std::string_view name, double d) {
    if (d < 0 || d > 1.0) {
        return Status::config(fmt::format(
            "{} must be larger than or equal to 0 and smaller than or equal to 1.0 (got {})", name,
            format_option_double(d)));
    }
    return Status::ok();
}

Status check_non_negative(std::string_view name, int32_t v) {
    if (v < 0) {
        return Status::config(
            fmt::format("{} must be greater than or equal to 0 (got {})", name, v));
    }
    return Status::ok();
}

Result<StringMap> normalize_caching(const StringMap& in) {
    StringMap rest = in;
    std::string keys = "NONE";
    if (auto it = rest.find("keys"); it != rest.end()) {
        std::string v = upper(it->second);
        if (v != "ALL" && v != "NONE") {
            return Status::config(fmt::format(
                "Invalid value '{}' for caching sub-option 'keys': only 'ALL' and 'NONE' are "
                "allowed",
                it->second));
        }
        keys = v;
        rest.erase(it);
    }
    std::string rows = "NONE";
    if (auto it = rest.find("rows_per_partition"); it != rest.end()) {
        std::string v = upper(it->second);
        bool numeric = !v.empty() && std::all_of(v.begin(), v.end(), [](char c) {
            return std::isdigit(static_cast<unsigned char>(c));
        });
        if (v != "ALL" && v != "NONE" && !(numeric && parse_long(v).value_or(-1) <= INT32_MAX)) {
            return Status::config(fmt::format(
                "Invalid value '{}' for caching sub-option 'rows_per_partition': only 'ALL', "
                "'NONE', and integer values are allowed",
                it->second));
        }
        rows = numeric ? std::to_string(*parse_long(v)) : v;
        if (rows == "0") rows = "NONE";
        rest.erase(it);
    }
    if (!rest.empty()) {
        return Status::config(fmt::format(
            "Invalid caching sub-options {}: only 'keys' and 'rows_per_partition' are allowed",
            key_list(rest)));
    }
    return StringMap{{"keys", keys}, {"rows_per_partition", rows}};
}

const std::set<std::string>& compaction_options_for(const std::string& simple_class) {
    static const std::set<std::string> kStcs{"min_sstable_size", "bucket_low", "bucket_high"};
    static const std::set<std::string> kLcs{"sstable_size_in_mb", "fanout_size"};
    static const std::set<std::string> kDtcs{"base_time_seconds", "max_sstable_age_days",
                                             "max_window_size_seconds", "timestamp_resolution"};
    static const std::set<std::string> kTwcs{
        "compaction_window_unit", "compaction_window_size", "timestamp_resolution",
        "expired_sstable_check_frequency_seconds", "unsafe_aggressive_sstable_expiration"};
    static const std::set<std::string> kNone;
    if (simple_class == "SizeTieredCompactionStrategy") return kStcs;
    if (simple_class == "LeveledCompactionStrategy") return kLcs;
    if (simple_class == "DateTieredCompactionStrategy") return kDtcs;
    if (simple_class == "TimeWindowCompactionStrategy") return kTwcs;
    return kNone;
}

Result<StringMap> normalize_compaction(const StringMap& in) {
    StringMap out = in;
    auto cls = out.find("class");
    if (cls == out.end()) {
        return Status::config("Missing sub-option 'class' for the 'compaction' option");
    }
    std::string full = cls->second.find('.') == std::string::npos
                           ? std::string(kCompactionPrefix) + cls->second
                           : cls->second;
    std::string simple =
        full.starts_with(kCompactionPrefix) ? full.substr(kCompactionPrefix.size()) : std::string();
    static const std::set<std::string> kKnown{
        "SizeTieredCompactionStrategy", "LeveledCompactionStrategy", "DateTieredCompactionStrategy",
        "TimeWindowCompactionStrategy"};
    if (!kKnown.count(simple)) {
        return Status::config(fmt::format("Unable to find compaction strategy class '{}'", full));
    }
    out["class"] = full;
    static const std::set<std::string> kCommon{"class",
                                               "enabled",
                                               "min_threshold",
                                               "max_threshold",
                                               "tombstone_threshold",
                                               "tombstone_compaction_interval",
                                               "unchecked_tombstone_compaction",
                                               "only_purge_repaired_tombstones",
                                               "log_all",
                                               "provide_overlapping_tombstones"};
    StringMap unknown;
    for (const auto& [k, v] : out) {
        if (!kCommon.count(k) && !compaction_options_for(simple).count(k)) unknown[k] = v;
    }
    if (!unknown.empty()) {
        return Status::config(fmt::format("Properties specified {} are not understood by {}",
                                          key_list(unknown), simple));
    }
    out.try_emplace("min_threshold", "4");
    out.try_emplace("max_threshold", "32");
    auto min = parse_long(out["min_threshold"]);
    auto max = parse_long(out["max_threshold"]);
    if (!min || !max) {
        return Status::config(fmt::format("Invalid value {} for compaction sub-option '{}'",
                                          min ? out["max_threshold"] : out["min_threshold"],
                                          min ? "max_threshold" : "min_threshold"));
    }
    if (*min <= 0 || *max <= 0) {
        return Status::config(
            "Disabling compaction by setting compaction thresholds to 0 has been removed, set the "
            "compaction option 'enabled' to false instead.");
    }
    if (*min <= 1) {
        return Status::config(
            fmt::format("Min compaction threshold cannot be less than 2 (got {})", *min));
    }
    if (*min > *max) {
        return Status::config(fmt::format(
            "Min compaction threshold (got {}) cannot be greater than max compaction threshold "
            "(got {})",
            *min, *max));
    }
    return out;
}

Result<StringMap> normalize_compression(const StringMap& in) {
    StringMap opts = in;
    // Pre-3.0 spellings are still accepted, as Cassandra does.
    if (auto it = opts.find("sstable_compression"); it != opts.end()) {
        opts.try_emplace("class", it->second);
        opts.erase(it);
    }
    if (auto it = opts.find("chunk_length_kb"); it != opts.end()) {
        opts.try_emplace("chunk_length_in_kb", it->second);
        opts.erase(it);
    }
    bool enabled = true;
    if (auto it = opts.find("enabled"); it != opts.end()) {
        enabled = lower(it->second) == "true";
        opts.erase(it);
    }
    if (!enabled) return StringMap{{"enabled", "false"}};
    if (in.empty()) return StringMap{{"enabled", "false"}};
    auto cls = opts.find("class");
    if (cls == opts.end() || cls->second.empty()) {
        if (cls != opts.end()) return StringMap{{"enabled", "false"}};
        return Status::config("Missing sub-option 'class' for the 'compression' option.");
    }
    std::string full = cls->second.find('.') == std::string::npos
                           ? std::string(kCompressionPrefix) + cls->second
                           : cls->second;
    static const std::set<std::string> kKnown{"org.apache.cassandra.io.compress.LZ4Compressor",
                                              "org.apache.cassandra.io.compress.SnappyCompressor",
                                              "org.apache.cassandra.io.compress.DeflateCompressor"};
    if (!kKnown.count(full)) {
        return Status::config(fmt::format("Could not create Compression for type {}", full));
    }
    opts.erase("class");
    opts.erase("crc_check_chance");  // moved to the table level; accepted for compatibility
    std::string chunk = "64";
    if (auto it = opts.find("chunk_length_in_kb"); it != opts.end()) {
        auto n = parse_long(it->second);
        if (!n) {
            return Status::config(
                fmt::format("Invalid value for chunk_length_in_kb: {}", it->second));
        }
        if (*n <= 0) return Status::config("Invalid negative or null chunk_length_in_kb");
        if ((*n & (*n - 1)) != 0) return Status::config("chunk_length_in_kb must be a power of 2");
        chunk = std::to_string(*n);
        opts.erase(it);
    }
    if (!opts.empty()) {
        return Status::config(fmt::format("Unknown compression options {}", key_list(opts)));
    }
    return StringMap{{"chunk_length_in_kb", chunk}, {"class", full}};
}

Result<std::string> normalize_speculative_retry(const std::string& value) {
    auto invalid = [&] {
        return Status::config(
            fmt::format("Invalid value {} for option 'speculative_retry'", value));
    };
    std::string up = upper(value);
    if (up.size() > 2 && up.ends_with("MS")) {
        auto d = parse_java_double(value.substr(0, value.size() - 2));
        if (!d) return invalid();
        return format_option_double(*d) + "ms";
    }
    if (up.ends_with("PERCENTILE")) {
        auto d = parse_java_double(value.substr(0, value.size() - 10));
        if (!d) return invalid();
        if (!(*d >= 0.0 && *d <= 100.0)) {
            return Status::config(fmt::format(
                "Invalid value {} for PERCENTILE option 'speculative_retry': must be between 0.0 "
                "and 100.0",
                value));
        }
        // DecimalFormat("#.#####"): at most five decimals, no trailing zeros.
        std::string s = fmt::format("{:.5f}", *d);
        while (s.back() == '0')
            s.pop_back();
        if (s.back() == '.') s.pop_back();
        return s + "PERCENTILE";
    }
    if (value == "NONE" || value == "ALWAYS") return value;
    return invalid();
}

// Column names inside a string option: unquoted names are case-insensitive
// (lowercased) and "Quoted" ones keep their case, as identifiers do in CQL.
std::optional<std::vector<std::string>> parse_column_list(std::string_view text) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= text.size()) {
        size_t comma = text.find(',', start);
        if (comma == std::string_view::npos) comma = text.size();
        std::string_view part = text.substr(start, comma - start);
        while (!part.empty() && std::isspace(static_cast<unsigned char>(part.front())))
            part.remove_prefix(1);
        while (!part.empty() && std::isspace(static_cast<unsigned char>(part.back())))
            part.remove_suffix(1);
        if (part.empty()) return std::nullopt;
        if (part.size() >= 2 && part.front() == '"' && part.back() == '"') {
            std::string name;
            for (size_t i = 1; i + 1 < part.size(); ++i) {
                name.push_back(part[i]);
                if (part[i] == '"' && i + 2 < part.size() && part[i + 1] == '"') ++i;
            }
            if (name.empty()) return std::nullopt;
            out.push_back(std::move(name));
        } else {
            out.push_back(lower(part));
        }
        start = comma + 1;
    }
    return out;
}

Result<WriteSharding> parse_write_sharding(const StringMap& in) {
    StringMap rest = in;
    WriteSharding ws;
    auto shards = rest.find("shards");
    if (shards == rest.end()) {
        return Status::config("Missing sub-option 'shards' for the 'write_sharding' option");
    }
    auto n = parse_long(shards->second);
    if (!n || *n < 1 || *n > 1024) {
        return Status::config(fmt::format(
            "write_sharding sub-option 'shards' must be an integer between 1 and 1024 (got {})",
            shards->second));
    }
    ws.shards = static_cast<int32_t>(*n);
    rest.erase(shards);
    if (auto it = rest.find("suffix"); it != rest.end()) {
        std::string s = lower(it->second);
        if (s != "random" && s != "calculated") {
            return Status::config(fmt::format(
                "Invalid value '{}' for write_sharding sub-option 'suffix': only 'random' and "
                "'calculated' are allowed",
                it->second));
        }
        ws.suffix = s == "random" ? ShardSuffix::kRandom : ShardSuffix::kCalculated;
        rest.erase(it);
    }
    if (auto it = rest.find("columns"); it != rest.end()) {
        if (ws.suffix != ShardSuffix::kCalculated) {
            return Status::config(
                "write_sharding sub-option 'columns' is only allowed with suffix 'calculated'");
        }
        auto cols = parse_column_list(it->second);
        if (!cols) {
            return Status::config(fmt::format(
                "Invalid value '{}' for write_sharding sub-option 'columns': expected a comma "
                "separated list of column names",
                it->second));
        }
        ws.columns = std::move(*cols);
        rest.erase(it);
    } else if (ws.suffix == ShardSuffix::kCalculated) {
        return Status::config(
            "write_sharding with suffix 'calculated' requires sub-option 'columns'");
    }
    if (!rest.empty()) {
        return Status::config(fmt::format(
            "Invalid write_sharding sub-options {}: only 'shards', 'suffix' and 'columns' are "
            "allowed",
            key_list(rest)));
    }
    return ws;
}

Result<TimeBucket> parse_time_bucket(const StringMap& in) {
    StringMap rest = in;
    TimeBucket tb;
    auto col = rest.find("column");
    if (col == rest.end()) {
        return Status::config("Missing sub-option 'column' for the 'time_bucket' option");
    }
    auto cols = parse_column_list(col->second);
    if (!cols || cols->size() != 1) {
        return Status::config(fmt::format(
            "Invalid value '{}' for time_bucket sub-option 'column': expected one column name",
            col->second));
    }
    tb.column = (*cols)[0];
    rest.erase(col);
    auto width = rest.find("width");
    if (width == rest.end()) {
        return Status::config("Missing sub-option 'width' for the 'time_bucket' option");
    }
    auto ms = parse_bucket_width(width->second);
    if (!ms) {
        return Status::config(fmt::format(
            "Invalid value '{}' for time_bucket sub-option 'width': expected a positive duration "
            "such as '30m', '1h' or '1d'",
            width->second));
    }
    tb.width_ms = *ms;
    rest.erase(width);
    if (!rest.empty()) {
        return Status::config(
            fmt::format("Invalid time_bucket sub-options {}: only 'column' and 'width' are allowed",
                        key_list(rest)));
    }
    return tb;
}

}  // namespace

std::string format_option_double(double v) {
    char buf[64];
    auto [p, ec] = std::to_chars(buf, buf + sizeof(buf), v);
    std::string s(buf, ec == std::errc() ? p : buf);
    if (s.find_first_of(".eni") == std::string::npos) s += ".0";
    return s;
}

std::optional<int64_t> parse_bucket_width(std::string_view text) {
    size_t digits = 0;
    while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits])))
        ++digits;
    if (digits == 0 || digits > 12) return std::nullopt;
    auto n = parse_long(text.substr(0, digits));
    std::string unit = lower(text.substr(digits));
    int64_t mult = 0;
    if (unit == "ms")
        mult = 1;
    else if (unit == "s")
        mult = 1000;
    else if (unit == "m")
        mult = 60'000;
    else if (unit == "h")
        mult = 3'600'000;
    else if (unit == "d")
        mult = 86'400'000;
    if (!n || mult == 0 || *n <= 0) return std::nullopt;
    return *n * mult;
}

std::string format_bucket_width(int64_t ms) {
    if (ms > 0 && ms % 86'400'000 == 0) return std::to_string(ms / 86'400'000) + "d";
    if (ms > 0 && ms % 3'600'000 == 0) return std::to_string(ms / 3'600'000) + "h";
    if (ms > 0 && ms % 60'000 == 0) return std::to_string(ms / 60'000) + "m";
    if (ms > 0 && ms % 1000 == 0) return std::to_string(ms / 1000) + "s";
    return std::to_string(ms) + "ms";
}

std::string_view distribution_name(Distribution d) {
    return d == Distribution::kOrdered ? "ordered" : "hash";
}

std::string_view shard_suffix_name(ShardSuffix s) {
    return s == ShardSuffix::kCalculated ? "calculated" : "random";
}

StringMap write_sharding_map(const WriteSharding& ws) {
    StringMap m{{"shards", std::to_string(ws.shards)},
                {"suffix", std::string(shard_suffix_name(ws.suffix))}};
    if (!ws.columns.empty()) {
        std::string cols;
        for (const auto& c : ws.columns)
            cols += (cols.empty() ? "" : ",") + c;
        m["columns"] = cols;
    }
    return m;
}

StringMap time_bucket_map(const TimeBucket& tb) {
    return {{"column", tb.column}, {"width", format_bucket_width(tb.width_ms)}};
}

bool is_layout_option(std::string_view name) {
    return name == "distribution" || name == "write_sharding" || name == "time_bucket";
}

Status apply_table_option(TableOptions& opts, std::string_view name, const OptionValue& value) {
    if (name == "bloom_filter_fp_chance") {
        TESSEL_ASSIGN_OR_RETURN(double d, parse_double(name, value));
        // Cassandra's BloomCalculations.minSupportedBloomFilterFpChance().
        constexpr double kMin = 6.710886400000001E-5;
        if (d <= kMin || d > 1) {
            return Status::config(fmt::format(
                "bloom_filter_fp_chance must be larger than {} and less than or equal to 1.0 "
                "(got {})",
                "6.710886400000001E-5", format_option_double(d)));
        }
        opts.bloom_filter_fp_chance = d;
    } else if (name == "caching") {
        TESSEL_ASSIGN_OR_RETURN(StringMap m, as_map(name, value));
        TESSEL_ASSIGN_OR_RETURN(opts.caching, normalize_caching(m));
    } else if (name == "comment") {
        TESSEL_ASSIGN_OR_RETURN(opts.comment, scalar(name, value));
    } else if (name == "compaction") {
        TESSEL_ASSIGN_OR_RETURN(StringMap m, as_map(name, value));
        TESSEL_ASSIGN_OR_RETURN(opts.compaction, normalize_compaction(m));
    } else if (name == "compression") {
        TESSEL_ASSIGN_OR_RETURN(StringMap m, as_map(name, value));
        TESSEL_ASSIGN_OR_RETURN(opts.compression, normalize_compression(m));
    } else if (name == "crc_check_chance" || name == "dclocal_read_repair_chance" ||
               name == "read_repair_chance") {
        TESSEL_ASSIGN_OR_RETURN(double d, parse_double(name, value));
        TESSEL_RETURN_IF_ERROR(check_chance(name, d));
        (name == "crc_check_chance"             ? opts.crc_check_chance
         : name == "dclocal_read_repair_chance" ? opts.dclocal_read_repair_chance
                                                : opts.read_repair_chance) = d;
    } else if (name == "default_time_to_live") {
        TESSEL_ASSIGN_OR_RETURN(int32_t v, parse_int(name, value));
        TESSEL_RETURN_IF_ERROR(check_non_negative(name, v));
        constexpr int32_t kMaxTtl = 20 * 365 * 24 * 60 * 60;  // Cassandra's Attributes.MAX_TTL
        if (v > kMaxTtl) {
            return Status::config(fmt::format(
                "default_time_to_live must be less than or equal to {} (got {})", kMaxTtl, v));
        }
        opts.default_time_to_live = v;
    } else if (name == "extensions") {
        TESSEL_ASSIGN_OR_RETURN(opts.extensions, as_map(name, value));
    } else if (name == "gc_grace_seconds" || name == "memtable_flush_period_in_ms") {
        TESSEL_ASSIGN_OR_RETURN(int32_t v, parse_int(name, value));
        TESSEL_RETURN_IF_ERROR(check_non_negative(name, v));
        (name == "gc_grace_seconds" ? opts.gc_grace_seconds : opts.memtable_flush_period_in_ms) = v;
    } else if (name == "min_index_interval") {
        TESSEL_ASSIGN_OR_RETURN(int32_t v, parse_int(name, value));
        if (v < 1) {
            return Status::config(
                fmt::format("min_index_interval must be greater than or equal to 1 (got {})", v));
        }
        opts.min_index_interval = v;
    } else if (name == "max_index_interval") {
        TESSEL_ASSIGN_OR_RETURN(opts.max_index_interval, parse_int(name, value));
    } else if (name == "speculative_retry") {
        TESSEL_ASSIGN_OR_RETURN(std::string s, scalar(name, value));
        TESSEL_ASSIGN_OR_RETURN(opts.speculative_retry, normalize_speculative_retry(s));
    } else if (name == "distribution") {
        TESSEL_ASSIGN_OR_RETURN(std::string s, scalar(name, value));
        std::string l = lower(s);
        if (l != "hash" && l != "ordered") {
            return Status::config(fmt::format(
                "Invalid value '{}' for option 'distribution': only 'hash' and 'ordered' are "
                "allowed",
                s));
        }
        opts.distribution = l == "hash" ? Distribution::kHash : Distribution::kOrdered;
    } else if (name == "write_sharding") {
        TESSEL_ASSIGN_OR_RETURN(StringMap m, as_map(name, value));
        TESSEL_ASSIGN_OR_RETURN(opts.write_sharding, parse_write_sharding(m));
    } else if (name == "time_bucket") {
        TESSEL_ASSIGN_OR_RETURN(StringMap m, as_map(name, value));
        TESSEL_ASSIGN_OR_RETURN(opts.time_bucket, parse_time_bucket(m));
    } else {
        return Status::syntax(fmt::format("Unknown property '{}'", name));
    }
    return Status::ok();
}

Status validate_table_options(const TableOptions& opts) {
    if (opts.max_index_interval < opts.min_index_interval) {
        return Status::config(fmt::format(
            "max_index_interval must be greater than or equal to min_index_interval ({}) (got {})",
            opts.min_index_interval, opts.max_index_interval));
    }
    return Status::ok();
}

}  // namespace tessel
