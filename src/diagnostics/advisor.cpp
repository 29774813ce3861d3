#include "diagnostics/advisor.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "diagnostics/large_partitions.h"

namespace tessel::diagnostics {

namespace {

// Whole numbers print without decimals, others with one.
std::string num(double v) {
    if (std::fabs(v - std::round(v)) < 1e-9) return fmt::format("{:.0f}", v);
    return fmt::format("{:.1f}", v);
}

std::string duration_text(double seconds) {
    if (seconds < 1) return "under a second";
    if (seconds < 120) return fmt::format("{} seconds", num(std::round(seconds)));
    if (seconds < 2 * 3600) return fmt::format("{} minutes", num(std::round(seconds / 60)));
    if (seconds < 2 * 86400) return fmt::format("{:.1f} hours", seconds / 3600);
    return fmt::format("{:.1f} days", seconds / 86400);
}

std::string table_name(const TableStatistics& s) {
    return cql_identifier(s.keyspace) + "." + cql_identifier(s.table);
}

std::string percent(double fraction) {
    return fmt::format("{}%", num(std::round(fraction * 1000) / 10));
}

std::optional<Recommendation> sharding_advice(const TableStatistics& s, const AdvisorConfig& c,
                                              std::string* checked) {
    if (s.hot_writes.empty()) return std::nullopt;
    auto hottest = std::max_element(
        s.hot_writes.begin(), s.hot_writes.end(),
        [](const auto& a, const auto& b) { return a.writes_per_sec < b.writes_per_sec; });
    const double rate = hottest->writes_per_sec;
    const int current = std::max(1, s.current_shards);
    const double per_shard_now = rate / current;
    if (per_shard_now <= c.partition_write_budget) {
        *checked += fmt::format("hottest partition '{}' takes {} writes/s{} (budget {} writes/s)",
                                hottest->partition_key, num(rate),
                                current > 1 ? fmt::format(" over {} shards", current) : "",
                                num(c.partition_write_budget));
        return std::nullopt;
    }
    const int shards =
        std::max(recommended_shards(rate, c.partition_write_budget, c.max_shards), current);
    if (shards <= current) {
        *checked +=
            fmt::format("hottest partition '{}' takes {} writes/s over {} shards, the most allowed",
                        hottest->partition_key, num(rate), current);
        return std::nullopt;
    }
    size_t over = 0;
    for (const auto& p : s.hot_writes)
        over += p.writes_per_sec > c.partition_write_budget * current;
    const double needed = std::ceil(rate / c.partition_write_budget);
    std::string msg = fmt::format(
        "Partition '{}' takes {} writes/s, over the per-partition budget of {} writes/s{}: "
        "ceil({} / {}) = {}, rounded up to a power of two = {} shards ({} writes/s per shard)",
        hottest->partition_key, num(rate), num(c.partition_write_budget),
        current > 1 ? fmt::format(" (with {} shards now)", current) : "", num(rate),
        num(c.partition_write_budget), num(needed), shards, num(rate / shards));
    if (shards == c.max_shards && needed > c.max_shards) {
        msg += fmt::format(", capped at {} shards", c.max_shards);
    }
    if (over > 1) msg += fmt::format("; {} partitions are over the budget", over);
    const bool calculated = s.reads_hit_single_rows && !s.calculated_columns.empty();
    std::string options =
        calculated ? fmt::format("{{'shards': {}, 'suffix': 'calculated', 'columns': '{}'}}",
                                 shards, s.calculated_columns)
                   : fmt::format("{{'shards': {}, 'suffix': 'random'}}", shards);
    msg += calculated ? "; reads name single rows, so a calculated suffix on " +
                            s.calculated_columns + " sends each of them to one shard"
                      : "; a random suffix spreads writes evenly and reads fan out to every shard";
    const std::string option = "write_sharding = " + options;
    if (s.write_sharded) {
        return Recommendation{RecommendationKind::kWriteSharding, msg,
                              fmt::format("ALTER TABLE {} WITH {};", table_name(s), option)};
    }
    msg += fmt::format(
        "; ALTER TABLE cannot add write_sharding to the unsharded table {} (it would move "
        "stored rows): create {}.{} with it, copy the data and switch the clients",
        table_name(s), cql_identifier(s.keyspace), cql_identifier(s.table + "_v2"));
    return Recommendation{RecommendationKind::kWriteSharding, msg, migration_statement(s, option)};
}

std::optional<Recommendation> bucket_advice(const TableStatistics& s, const AdvisorConfig& c,
                                            std::string* checked) {
    if (s.growth.empty() || s.partition_size_warn_threshold == 0) return std::nullopt;
    auto fastest = std::max_element(
        s.growth.begin(), s.growth.end(),
        [](const auto& a, const auto& b) { return a.bytes_per_sec < b.bytes_per_sec; });
    const double g = fastest->bytes_per_sec;
    if (g <= 0) return std::nullopt;
    const double threshold = static_cast<double>(s.partition_size_warn_threshold);
    const double target = c.bucket_target_fraction * threshold;
    const std::string limit = format_size(s.partition_size_warn_threshold);
    if (!checked->empty()) *checked += "; ";

    if (s.current_bucket_seconds) {
        const double bucket = g * static_cast<double>(*s.current_bucket_seconds);
        if (bucket <= target) {
            *checked += fmt::format(
                "fastest-growing partition '{}' adds {} bytes/s, {} per "
                "{}-second bucket ({} of the {} threshold)",
                fastest->partition_key, num(g), num(bucket), *s.current_bucket_seconds,
                percent(bucket / threshold), limit);
            return std::nullopt;
        }
    } else {
        const double remaining = threshold - static_cast<double>(fastest->size_bytes);
        const double eta = remaining > 0 ? remaining / g : 0;
        if (eta > c.growth_horizon_days * 86400) {
            *checked += fmt::format(
                "fastest-growing partition '{}' adds {} bytes/s and would reach {} in {} "
                "(beyond the {}-day horizon)",
                fastest->partition_key, num(g), limit, duration_text(eta),
                num(c.growth_horizon_days));
            return std::nullopt;
        }
    }

    const double eta = std::max(0.0, (threshold - static_cast<double>(fastest->size_bytes)) / g);
    std::string msg = fmt::format(
        "Partition '{}' grows {} bytes/s and {} the partition_size_warn_threshold of {}{}",
        fastest->partition_key, num(g), eta > 0 ? "would reach" : "has reached", limit,
        eta > 0 ? " in " + duration_text(eta) : "");
    if (s.current_bucket_seconds) {
        msg += fmt::format(" even with {}-second buckets ({} bytes per bucket)",
                           *s.current_bucket_seconds,
                           num(g * static_cast<double>(*s.current_bucket_seconds)));
    }
    if (!s.timestamp_clustering_column) {
        msg +=
            "; the table has no timestamp clustering column to bucket on: add a time bucket "
            "column to the partition key (primary keys are immutable, so create a new table "
            "and copy the data)";
        return Recommendation{RecommendationKind::kTimeBucket, msg, ""};
    }
    const BucketWidth* pick = nullptr;
    for (const BucketWidth& w : bucket_ladder()) {
        if (g * static_cast<double>(w.seconds) <= target) pick = &w;
    }
    const BucketWidth& chosen = pick ? *pick : bucket_ladder().front();
    const double bucket = g * static_cast<double>(chosen.seconds);
    msg += fmt::format(
        ": {} buckets hold {} x {} = {} bytes, {} of the threshold (target: at "
        "most {})",
        chosen.text, num(g), chosen.seconds, num(bucket), percent(bucket / threshold),
        percent(c.bucket_target_fraction));
    if (!pick) msg += "; even the narrowest bucket is over the target: add write_sharding too";
    if (s.current_bucket_seconds && chosen.seconds >= *s.current_bucket_seconds) {
        return Recommendation{RecommendationKind::kTimeBucket, msg, ""};
    }
    msg += fmt::format(
        "; ALTER TABLE cannot {} time_bucket (it would move stored rows): create {}.{} with it, "
        "copy the data and switch the clients",
        s.current_bucket_seconds ? "change" : "add", cql_identifier(s.keyspace),
        cql_identifier(s.table + "_v2"));
    return Recommendation{
        RecommendationKind::kTimeBucket, msg,
        migration_statement(s, fmt::format("time_bucket = {{'column': '{}', 'width': '{}'}}",
                                           *s.timestamp_clustering_column, chosen.text))};
}

std::optional<Recommendation> cardinality_advice(const TableStatistics& s, const AdvisorConfig& c,
                                                 std::string* checked) {
    if (s.distinct_partitions == 0) return std::nullopt;
    const uint64_t tablets = std::max<uint64_t>(1, s.tablets);
    const uint64_t needed = std::max(c.min_distinct_partitions, c.distinct_per_tablet * tablets);
    if (!checked->empty()) *checked += "; ";
    if (s.distinct_partitions >= needed) {
        *checked += fmt::format("{} distinct partition keys for {} tablets (need {})",
                                s.distinct_partitions, tablets, needed);
        return std::nullopt;
    }
    return Recommendation{
        RecommendationKind::kPartitionKey,
        fmt::format("Table {} has {} distinct partition keys for {} tablets; spreading load "
                    "needs at least {} (max({}, {} per tablet x {})): add a higher-cardinality "
                    "column to the partition key (a new table, primary keys are immutable) or "
                    "use write_sharding",
                    table_name(s), s.distinct_partitions, tablets, needed,
                    c.min_distinct_partitions, c.distinct_per_tablet, tablets),
        ""};
}

}  // namespace

std::string_view recommendation_kind_name(RecommendationKind kind) {
    switch (kind) {
        case RecommendationKind::kWriteSharding:
            return "write_sharding";
        case RecommendationKind::kTimeBucket:
            return "time_bucket";
        case RecommendationKind::kPartitionKey:
            return "partition_key";
        case RecommendationKind::kNoChange:
            return "no_change";
    }
    return "no_change";
}

int recommended_shards(double writes_per_sec, double budget, int max_shards) {
    if (max_shards < 1) max_shards = 1;
    if (!(budget > 0) || !(writes_per_sec > 0)) return 1;
    const double needed = std::ceil(writes_per_sec / budget);
    if (needed >= max_shards) return max_shards;
    int shards = 1;
    while (shards < needed)
        shards *= 2;
    return std::min(shards, max_shards);
}

const std::vector<BucketWidth>& bucket_ladder() {
    static const std::vector<BucketWidth> ladder = {
        {60, "1m"},    {300, "5m"},   {900, "15m"},   {3600, "1h"},
        {21600, "6h"}, {86400, "1d"}, {604800, "7d"},
    };
    return ladder;
}

std::vector<Recommendation> advise(const TableStatistics& stats, const AdvisorConfig& config) {
    std::vector<Recommendation> out;
    std::string checked;
    if (auto r = sharding_advice(stats, config, &checked)) out.push_back(std::move(*r));
    if (auto r = bucket_advice(stats, config, &checked)) out.push_back(std::move(*r));
    if (auto r = cardinality_advice(stats, config, &checked)) out.push_back(std::move(*r));
    if (out.empty()) {
        if (checked.empty()) checked = "no partition statistics yet";
        out.push_back(Recommendation{
            RecommendationKind::kNoChange,
            fmt::format("No change needed for {}: {}", table_name(stats), checked), ""});
    }
    return out;
}

std::string render_advice(std::string_view keyspace, std::string_view table,
                          const std::vector<Recommendation>& recommendations) {
    std::string out =
        fmt::format("Advice for {}.{}:\n", cql_identifier(keyspace), cql_identifier(table));
    int n = 0;
    for (const Recommendation& r : recommendations) {
        out += fmt::format("{}. [{}] {}\n", ++n, recommendation_kind_name(r.kind), r.message);
        if (!r.statement.empty()) out += fmt::format("   {}\n", r.statement);
    }
    return out;
}

std::string migration_statement(const TableStatistics& s, std::string_view option) {
    const std::string target = cql_identifier(s.keyspace) + "." + cql_identifier(s.table + "_v2");
    std::string text = s.create_statement;
    const size_t open = text.find('(');
    if (text.rfind("CREATE TABLE", 0) != 0 || open == std::string::npos) {
        return fmt::format("CREATE TABLE {} (<the columns and primary key of {}>) WITH {};", target,
                           table_name(s), option);
    }
    // A time_bucket or write_sharding already there is replaced by the new one.
    const std::string name(option.substr(0, option.find(' ')));
    while (!text.empty() && (text.back() == ';' || text.back() == '\n' || text.back() == ' ')) {
        text.pop_back();
    }
    std::string body = text.substr(open);
    for (const std::string sep : {"\n    AND ", " AND "}) {
        const size_t at = body.find(sep + name + " = ");
        if (at == std::string::npos) continue;
        size_t end = body.find(sep, at + sep.size());
        body.erase(at, end == std::string::npos ? std::string::npos : end - at);
    }
    const bool has_with = body.find(") WITH ") != std::string::npos ||
                          body.find(")\n    WITH ") != std::string::npos ||
                          body.find(") WITH\n") != std::string::npos;
    return fmt::format("CREATE TABLE {} {}{}{};", target, body, has_with ? "\n    AND " : " WITH ",
                       option);
}

std::string cql_identifier(std::string_view name) {
    bool plain = !name.empty() && name[0] >= 'a' && name[0] <= 'z';
    for (char ch : name) {
        plain = plain && ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_');
    }
    if (plain) return std::string(name);
    std::string out = "\"";
    for (char ch : name) {
        out += ch;
        if (ch == '"') out += '"';
    }
    return out + "\"";
}

}  // namespace tessel::diagnostics
