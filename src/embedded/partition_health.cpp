#include "embedded/partition_health.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "diagnostics/advisor_inputs.h"
#include "query/key_codec.h"
#include "query/table_source.h"
#include "storage/store.h"
#include "types/value.h"

namespace tessel::embedded {
namespace {

// Per-row fixed overhead of the measure below: liveness, flags, lengths.
constexpr uint64_t kRowOverhead = 16;
constexpr uint64_t kCellOverhead = 12;

// What one mutation adds to its partition, measured without encoding it
// (storage's exact figure comes from the encoding; this is within a few bytes
// per cell of it, and costs a pass over the cells).
struct Measure {
    uint64_t bytes = 0;
    uint64_t rows = 0;
    uint64_t tombstones = 0;
    uint64_t largest_row = 0;
    uint64_t largest_cell = 0;
    bool deletes_only = true;
};

void measure_row(size_t clustering_bytes, const storage::RowFragment& row, Measure* m) {
    uint64_t bytes = clustering_bytes + kRowOverhead;
    if (!row.deletion.is_live()) ++m->tombstones;
    m->tombstones += row.complex_deletions.size();
    if (!row.marker.is_empty()) m->deletes_only = false;
    for (const auto& c : row.cells) {
        const uint64_t cell = c.value.size() + c.path.size() + kCellOverhead;
        bytes += cell;
        m->largest_cell = std::max<uint64_t>(m->largest_cell, c.value.size());
        if (c.kind == storage::Cell::Kind::kTombstone) {
            ++m->tombstones;
        } else {
            m->deletes_only = false;
        }
    }
    m->bytes += bytes;
    m->rows += 1;
    m->largest_row = std::max(m->largest_row, bytes);
}

Measure measure(const storage::PartitionMutation& pm) {
    Measure m;
    if (!pm.partition_deletion.is_live()) {
        ++m.tombstones;
        m.bytes += pm.partition_key.size() + kRowOverhead;
    }
    for (const auto& rt : pm.range_tombstones) {
        ++m.tombstones;
        m.bytes += rt.start.prefix.size() + rt.end.prefix.size() + kRowOverhead;
    }
    if (pm.static_row) measure_row(0, *pm.static_row, &m);
    for (const auto& [clustering, row] : pm.rows)
        measure_row(clustering.size(), row, &m);
    return m;
}

// The lowest enabled threshold of a warn/fail pair (0 when both are off).
uint64_t floor_of(uint64_t warn, uint64_t fail) {
    if (warn == 0) return fail;
    if (fail == 0) return warn;
    return std::min(warn, fail);
}

bool reached(uint64_t value, uint64_t floor) {
    return floor != 0 && value >= floor;
}

// The sketch key of a partition: its components, length-prefixed (the same
// bytes on the write path and the read path, whatever the table's layout).
std::string sketch_key(const std::vector<std::string>& components) {
    std::string out;
    for (const auto& c : components) {
        const auto n = static_cast<uint32_t>(c.size());
        out.push_back(static_cast<char>(n >> 24));
        out.push_back(static_cast<char>(n >> 16));
        out.push_back(static_cast<char>(n >> 8));
        out.push_back(static_cast<char>(n));
        out.append(c);
    }
    return out;
}

std::vector<std::string> components_of(std::string_view key) {
    std::vector<std::string> out;
    while (key.size() >= 4) {
        const uint32_t n = (static_cast<uint32_t>(static_cast<uint8_t>(key[0])) << 24) |
                           (static_cast<uint32_t>(static_cast<uint8_t>(key[1])) << 16) |
                           (static_cast<uint32_t>(static_cast<uint8_t>(key[2])) << 8) |
                           static_cast<uint32_t>(static_cast<uint8_t>(key[3]));
        key.remove_prefix(4);
        if (n > key.size()) break;
        out.emplace_back(key.substr(0, n));
        key.remove_prefix(n);
    }
    return out;
}

std::vector<TypePtr> partition_key_types(const cql::TableInfo& table) {
    std::vector<TypePtr> types;
    for (size_t i = 0; i < table.partition_key.size(); ++i)
        types.push_back(table.pk(i).type);
    return types;
}

// Components shown as their types show them, joined by ':'.
std::string display_components(const std::vector<TypePtr>& types,
                               const std::vector<std::string>& components) {
    std::string out;
    for (size_t i = 0; i < components.size() && i < types.size(); ++i) {
        if (i > 0) out += ':';
        out += format_value(*types[i], components[i]);
    }
    return out;
}

uint64_t next_instance_id() {
    static std::atomic<uint64_t> next{1};
    return next.fetch_add(1);
}

// The last partition this thread read (named by a tombstone failure).
thread_local std::vector<std::string> t_last_read_key;

}  // namespace

std::vector<std::string> partition_key_components(std::string_view sketch_key) {
    return components_of(sketch_key);
}

std::string display_partition_key(const cql::TableInfo& table,
                                  const std::vector<std::string>& components) {
    return display_components(partition_key_types(table), components);
}

PartitionHealth::PartitionHealth(storage::Store* store, PartitionHealthOptions options,
                                 TableLookup lookup)
    : store_(store),
      options_(options),
      lookup_(std::move(lookup)),
      large_(options.large),
      hot_(options.hot),
      instance_id_(next_instance_id()) {
    const auto& t = options_.large;
    size_floor_ = floor_of(t.partition_size_warn_threshold, t.partition_size_fail_threshold);
    rows_floor_ = floor_of(t.partition_rows_warn_threshold, t.partition_rows_fail_threshold);
    row_floor_ = floor_of(t.row_size_warn_threshold, t.row_size_fail_threshold);
    cell_floor_ = floor_of(t.cell_size_warn_threshold, t.cell_size_fail_threshold);
}

diagnostics::HotPartitions& PartitionHealth::hot_for(const cql::TableInfo& table) {
    // Each thread keeps the sketches it has used, so the registry's mutex is
    // taken once per (thread, table), not per request.
    struct Cached {
        uint64_t generation = 0;
        std::shared_ptr<diagnostics::HotPartitions> hot;
    };
    // The table of the thread's previous request first: most requests in a
    // row are to one table, and the map's key has to be built.
    struct Last {
        uint64_t instance = 0;
        uint64_t generation = 0;
        std::string table_id;
        diagnostics::HotPartitions* hot = nullptr;
    };
    thread_local Last last;
    const uint64_t gen = generation_.load(std::memory_order_acquire);
    if (last.hot && last.instance == instance_id_ && last.generation == gen &&
        last.table_id == table.id) {
        return *last.hot;
    }
    thread_local std::unordered_map<std::string, Cached> cache;
    std::string key = std::to_string(instance_id_) + '/' + table.id;
    auto it = cache.find(key);
    if (it == cache.end() || it->second.generation != gen) {
        if (cache.size() > 4096) cache.clear();
        Cached c{gen, hot_.get_or_create(table.keyspace, table.name)};
        // Keys are recorded without display text (see on_partition_read).
        c.hot->set_formatter([types = partition_key_types(table)](std::string_view key) {
            return display_components(types, components_of(key));
        });
        it = cache.insert_or_assign(std::move(key), std::move(c)).first;
    }
    // The map's entry holds the sketch while `last` points at it: a new
    // generation (or a clear) replaces it only on this thread, after which
    // `last` is set again before use.
    last = Last{instance_id_, gen, table.id, it->second.hot.get()};
    return *last.hot;
}

Status PartitionHealth::before_write(const cql::TableInfo& table,
                                     const std::vector<std::string>& partition_key,
                                     const storage::PartitionMutation& mutation) {
    if (table.is_virtual) return Status::ok();
    const diagnostics::TimeMs now = diagnostics::now_ms();
    const Measure m = measure(mutation);
    auto display = [&] { return display_partition_key(table, partition_key); };
    if (reached(m.largest_row, row_floor_) || reached(m.largest_cell, cell_floor_)) {
        auto obs = large_.observe_row(table.keyspace, table.name, display(), m.largest_row,
                                      m.largest_cell, now);
        if (!obs.fail.is_ok()) return obs.fail;
        if (obs.warn_crossed) spdlog::warn("{}", obs.warning);
    }
    if (!table.has_hidden_key() && (size_floor_ != 0 || rows_floor_ != 0)) {
        TESSEL_RETURN_IF_ERROR(check_partition_totals(table, partition_key, mutation, m.bytes,
                                                      m.rows, m.tombstones, m.deletes_only, now));
    }
    hot_for(table).record_write(sketch_key(partition_key), std::string_view(), m.bytes, now);
    return Status::ok();
}

Status PartitionHealth::check_partition_totals(const cql::TableInfo& table,
                                               const std::vector<std::string>& partition_key,
                                               const storage::PartitionMutation& mutation,
                                               uint64_t bytes, uint64_t rows, uint64_t tombstones,
                                               bool deletes_only, diagnostics::TimeMs now) {
    auto stats = store_->get_partition_stats(table.id, mutation.partition_key);
    if (!stats.is_ok()) return Status::ok();  // a table being dropped: not ours to fail
    const uint64_t total_bytes = stats->bytes_written + bytes;
    const uint64_t total_rows = stats->row_writes + rows;
    if (!reached(total_bytes, size_floor_) && !reached(total_rows, rows_floor_)) {
        return Status::ok();
    }
    const std::string key = display_partition_key(table, partition_key);
    if (!mutation.partition_deletion.is_live()) {
        // A partition deletion starts the partition's story anew.
        large_.forget_partition(table.keyspace, table.name, key);
        return Status::ok();
    }
    auto obs = large_.observe(table.keyspace, table.name, key, total_bytes, total_rows,
                              stats->tombstones_written + tombstones, now);
    if (!obs.fail.is_ok()) {
        if (deletes_only) return Status::ok();
        return obs.fail;
    }
    if (obs.warn_crossed) spdlog::warn("{}", obs.warning);
    return Status::ok();
}

void PartitionHealth::on_partition_read(const cql::TableInfo& table,
                                        const std::vector<std::string>& partition_key) {
    if (table.is_virtual) return;
    t_last_read_key = partition_key;
    // No display text: the sketch's formatter (set by hot_for) makes it for
    // the keys it lists, when they are asked for.
    hot_for(table).record_read(sketch_key(partition_key), std::string_view(),
                               diagnostics::now_ms());
}

Status PartitionHealth::after_read(const cql::TableInfo& table, uint64_t tombstones,
                                   uint64_t live_rows, std::string_view query_text,
                                   std::vector<std::string>* warnings) {
    const auto& t = options_.tombstones;
    if (diagnostics::tombstones_overwhelming(t, tombstones)) {
        Status st = diagnostics::tombstone_failure(tombstones, query_text,
                                                   display_partition_key(table, t_last_read_key));
        spdlog::error("{}", st.message());
        return st;
    }
    if (auto w = diagnostics::tombstone_warning(t, live_rows, tombstones, query_text)) {
        spdlog::warn("{}", *w);
        if (warnings) warnings->push_back(std::move(*w));
    }
    return Status::ok();
}

void PartitionHealth::forget_table(const std::string& keyspace, const std::string& table) {
    large_.forget_table(keyspace, table);
    hot_.drop(keyspace, table);
    generation_.fetch_add(1, std::memory_order_release);
}

Result<std::vector<diagnostics::TableStatistics>> PartitionHealth::advisor_statistics() const {
    std::vector<diagnostics::TableStatistics> out;
    const diagnostics::TimeMs now = diagnostics::now_ms();
    for (const auto& e : hot_.list()) {
        TableSchema schema = lookup_(e.keyspace, e.table);
        if (!schema.info) continue;
        const cql::TableInfo& t = *schema.info;
        const query::KeyLayout layout = query::layout_of(t);
        diagnostics::TableStatistics s;
        s.keyspace = e.keyspace;
        s.table = e.table;
        // Sizes are storage's, per physical partition: only meaningful for
        // tables without hidden key components.
        diagnostics::PartitionSizeLookup size_of;
        if (!t.has_hidden_key()) {
            size_of = [this, &t, &layout](std::string_view key) -> std::optional<uint64_t> {
                auto pk = query::encode_partition_key(layout, components_of(key));
                if (!pk.is_ok()) return std::nullopt;
                auto st = store_->get_partition_stats(t.id, *pk);
                if (!st.is_ok()) return std::nullopt;
                return st->bytes_written;
            };
        }
        diagnostics::fill_partition_rates(s, *e.hot, now, 10, size_of);
        // Distinct logical partition keys, from storage's statistics.
        std::unordered_set<std::string> distinct;
        constexpr size_t kMaxDistinct = 100000;
        Status st = store_->for_each_partition_stats(
            t.id, [&](std::string_view key, const storage::PartitionStats&) {
                if (distinct.size() >= kMaxDistinct) return;
                if (!t.has_hidden_key()) {
                    distinct.emplace(key);
                } else if (auto comps = query::decode_partition_key(layout, key); comps.is_ok()) {
                    distinct.insert(sketch_key(*comps));
                }
            });
        if (st.is_ok()) s.distinct_partitions = distinct.size();
        for (int ck : t.clustering) {
            const TypeKind k = t.columns[ck].type->kind;
            if (k == TypeKind::kTimestamp || k == TypeKind::kTimeuuid) {
                s.timestamp_clustering_column = t.columns[ck].name;
                break;
            }
        }
        s.write_sharded = t.sharded();
        s.current_shards = t.sharded() ? t.shards : 1;
        if (t.bucketed()) s.current_bucket_seconds = t.bucket_width_ms / 1000;
        s.create_statement = schema.create_statement;
        s.partition_size_warn_threshold = options_.large.partition_size_warn_threshold;
        out.push_back(std::move(s));
    }
    return out;
}

}  // namespace tessel::embedded
