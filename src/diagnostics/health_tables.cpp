#include "diagnostics/health_tables.h"

#include <algorithm>
#include <limits>

namespace tessel::diagnostics {

std::string encode_bigint(int64_t v) {
    std::string out(8, '\0');
    auto u = static_cast<uint64_t>(v);
    for (int i = 7; i >= 0; --i) {
        out[static_cast<size_t>(i)] = static_cast<char>(u & 0xff);
        u >>= 8;
    }
    return out;
}

std::string encode_int(int32_t v) {
    std::string out(4, '\0');
    auto u = static_cast<uint32_t>(v);
    for (int i = 3; i >= 0; --i) {
        out[static_cast<size_t>(i)] = static_cast<char>(u & 0xff);
        u >>= 8;
    }
    return out;
}

namespace {

// Counts beyond int64 cannot happen in practice; clamp rather than wrap.
std::string encode_count(uint64_t v) {
    constexpr auto kMax = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
    return encode_bigint(static_cast<int64_t>(std::min(v, kMax)));
}

// Keys recorded without a display form are shown as a blob literal, so the
// text column always holds valid UTF-8.
std::string hex_key(std::string_view key) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out = "0x";
    for (unsigned char c : key) {
        out += kDigits[c >> 4];
        out += kDigits[c & 0xf];
    }
    return out;
}

class LargePartitionsTable : public query::VirtualTable {
  public:
    explicit LargePartitionsTable(const LargePartitionTracker& tracker) : tracker_(tracker) {}

    std::string keyspace() const override { return "system"; }
    std::string name() const override { return "large_partitions"; }
    std::string schema_cql() const override {
        return "CREATE TABLE system.large_partitions (keyspace_name text, table_name text, "
               "partition_key text, partition_size bigint, rows bigint, tombstones bigint, "
               "first_seen timestamp, last_seen timestamp, "
               "PRIMARY KEY ((keyspace_name, table_name), partition_key))";
    }
    Result<std::vector<query::VirtualRow>> rows() const override {
        std::vector<query::VirtualRow> out;
        for (const LargePartitionRecord& r : tracker_.records()) {
            out.push_back(query::VirtualRow{
                encode_text(r.keyspace), encode_text(r.table), encode_text(r.partition_key),
                encode_count(r.partition_size), encode_count(r.rows), encode_count(r.tombstones),
                encode_timestamp(r.first_seen), encode_timestamp(r.last_seen)});
        }
        return out;
    }

  private:
    const LargePartitionTracker& tracker_;
};

class HotPartitionsTable : public query::VirtualTable {
  public:
    HotPartitionsTable(const HotPartitionsRegistry& registry, Clock clock, size_t top_k)
        : registry_(registry), clock_(std::move(clock)), top_k_(top_k) {}

    std::string keyspace() const override { return "system"; }
    std::string name() const override { return "hot_partitions"; }
    std::string schema_cql() const override {
        return "CREATE TABLE system.hot_partitions (keyspace_name text, table_name text, "
               "kind text, window text, rank int, partition_key text, count bigint, "
               "error bigint, unlisted_max bigint, window_start timestamp, "
               "window_end timestamp, "
               "PRIMARY KEY ((keyspace_name, table_name), kind, window, rank))";
    }
    Result<std::vector<query::VirtualRow>> rows() const override {
        const TimeMs now = clock_();
        std::vector<query::VirtualRow> out;
        for (const auto& entry : registry_.list()) {
            HotWindow windows[2] = {entry.hot->current(now, top_k_),
                                    entry.hot->previous(now, top_k_)};
            for (int w = 0; w < 2; ++w) {
                const HotWindow& win = windows[w];
                const TimeMs end = w == 0 ? now : win.start + win.length_ms;
                for (HotKind kind : kHotKinds) {
                    const TopKView& view = win.of(kind);
                    int32_t rank = 0;
                    for (const TopKEntry& e : view.entries) {
                        out.push_back(query::VirtualRow{
                            encode_text(entry.keyspace), encode_text(entry.table),
                            encode_text(hot_kind_name(kind)),
                            encode_text(w == 0 ? "current" : "previous"), encode_int(++rank),
                            encode_text(e.display.empty() ? hex_key(e.key) : e.display),
                            encode_count(e.count), encode_count(e.error), encode_count(view.floor),
                            encode_timestamp(win.start), encode_timestamp(end)});
                    }
                }
            }
        }
        return out;
    }

  private:
    const HotPartitionsRegistry& registry_;
    Clock clock_;
    size_t top_k_;
};

class PartitionAdviceTable : public query::VirtualTable {
  public:
    PartitionAdviceTable(StatisticsProvider statistics, AdvisorConfig config)
        : statistics_(std::move(statistics)), config_(config) {}

    std::string keyspace() const override { return "system"; }
    std::string name() const override { return "partition_advice"; }
    std::string schema_cql() const override {
        return "CREATE TABLE system.partition_advice (keyspace_name text, table_name text, "
               "rank int, kind text, message text, statement text, "
               "PRIMARY KEY ((keyspace_name, table_name), rank))";
    }
    Result<std::vector<query::VirtualRow>> rows() const override {
        if (!statistics_) return std::vector<query::VirtualRow>{};
        TESSEL_ASSIGN_OR_RETURN(std::vector<TableStatistics> tables, statistics_());
        std::vector<query::VirtualRow> out;
        for (const TableStatistics& t : tables) {
            int32_t rank = 0;
            for (const Recommendation& r : advise(t, config_)) {
                query::VirtualRow row{
                    encode_text(t.keyspace), encode_text(t.table),
                    encode_int(++rank),      encode_text(recommendation_kind_name(r.kind)),
                    encode_text(r.message),  std::nullopt};
                if (!r.statement.empty()) row[5] = encode_text(r.statement);
                out.push_back(std::move(row));
            }
        }
        return out;
    }

  private:
    StatisticsProvider statistics_;
    AdvisorConfig config_;
};

}  // namespace

std::unique_ptr<query::VirtualTable> make_large_partitions_table(
    const LargePartitionTracker& tracker) {
    return std::make_unique<LargePartitionsTable>(tracker);
}

std::unique_ptr<query::VirtualTable> make_hot_partitions_table(
    const HotPartitionsRegistry& registry, Clock clock, size_t top_k) {
    if (!clock) clock = now_ms;
    return std::make_unique<HotPartitionsTable>(registry, std::move(clock), top_k);
}

std::unique_ptr<query::VirtualTable> make_partition_advice_table(StatisticsProvider statistics,
                                                                 AdvisorConfig config) {
    return std::make_unique<PartitionAdviceTable>(std::move(statistics), config);
}

}  // namespace tessel::diagnostics
