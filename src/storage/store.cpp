#include "storage/store.h"

#include <chrono>
#include <set>

#include <rocksdb/cache.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/table.h>
#include <rocksdb/write_batch.h>

#include "storage/compaction_filter.h"
#include "storage/merge_operator.h"
#include "storage/mutation_writer.h"
#include "storage/table_handle.h"

namespace tessel::storage {
namespace {

constexpr const char* kCatalogFamily = "catalog";
constexpr const char* kStatsFamily = "partition_stats";
constexpr const char* kLocalFamily = "local";
// Key prefix of table options records in the default family.
constexpr std::string_view kTableOptionsPrefix = "table_options/";

bool is_reserved(std::string_view name) {
    return name == rocksdb::kDefaultColumnFamilyName || name == kCatalogFamily ||
           name == kStatsFamily || name == kLocalFamily;
}

Status rocks_error(std::string_view what, const rocksdb::Status& s) {
    return Status::server(std::string(what) + ": " + s.ToString());
}

Status unknown_table(const std::string& table_id) {
    return Status::invalid("unconfigured table " + table_id);
}

std::string encode_table_options(const TableStorageOptions& o) {
    return "1:" + std::to_string(o.gc_grace_seconds);
}

bool decode_table_options(std::string_view in, TableStorageOptions* o) {
    if (!in.starts_with("1:")) return false;
    try {
        o->gc_grace_seconds = std::stoi(std::string(in.substr(2)));
    } catch (...) {
        return false;
    }
    return true;
}

std::string table_options_key(std::string_view table_id) {
    return std::string(kTableOptionsPrefix).append(table_id);
}

rocksdb::WriteOptions durable_write() {
    rocksdb::WriteOptions wo;
    wo.sync = true;
    return wo;
}

}  // namespace

Store::Store(std::string directory, StoreOptions options)
    : directory_(std::move(directory)), options_(std::move(options)) {
    if (!options_.clock) {
        options_.clock = [] {
            return std::chrono::duration_cast<std::chrono::seconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                .count();
        };
    }
    tables_.store(std::make_shared<const TableMap>());
}

Result<std::unique_ptr<Store>> Store::open(const std::string& directory, StoreOptions options) {
    std::unique_ptr<Store> store(new Store(directory, std::move(options)));
    TESSEL_RETURN_IF_ERROR(store->open_db());
    TESSEL_RETURN_IF_ERROR(store->load_table_options());
    store->stats_ = std::make_unique<PartitionStatsTracker>(store->db_.get(), store->stats_cf_);
    store->bg_thread_ = std::thread([s = store.get()] { s->background_loop(); });
    return store;
}

Store::~Store() {
    (void)close();
}

// Options with whole-key Bloom filters in the files and the memtable: a point
// lookup of an absent key is answered without a search.
rocksdb::ColumnFamilyOptions Store::filtered_cf_options() const {
    rocksdb::ColumnFamilyOptions cf;
    rocksdb::BlockBasedTableOptions t;
    t.block_cache = block_cache_;
    t.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
    cf.table_factory.reset(rocksdb::NewBlockBasedTableFactory(t));
    cf.memtable_prefix_bloom_size_ratio = 0.02;
    cf.memtable_whole_key_filtering = true;
    return cf;
}

// Point reads (single-row slices) skip the absent partition header and
// static row through the filters.
rocksdb::ColumnFamilyOptions Store::table_cf_options(std::shared_ptr<TableGcSettings> gc) const {
    rocksdb::ColumnFamilyOptions cf = filtered_cf_options();
    cf.write_buffer_size = options_.write_buffer_bytes;
    cf.merge_operator = make_table_merge_operator();
    cf.compaction_filter_factory = make_table_compaction_filter_factory(std::move(gc));
    return cf;
}

// Every write looks up its partition's totals (the large-partition check);
// most writes that start a partition find none, which the filters answer.
rocksdb::ColumnFamilyOptions Store::stats_cf_options() const {
    rocksdb::ColumnFamilyOptions cf = filtered_cf_options();
    cf.merge_operator = make_stats_merge_operator();
    return cf;
}

Status Store::open_db() {
    block_cache_ = rocksdb::NewLRUCache(options_.block_cache_bytes);
    rocksdb::DBOptions db_opts;
    db_opts.create_if_missing = true;
    db_opts.create_missing_column_families = true;
    db_opts.max_background_jobs = options_.max_background_jobs;

    std::vector<std::string> names;
    if (!rocksdb::DB::ListColumnFamilies(db_opts, directory_, &names).ok()) {
        names = {rocksdb::kDefaultColumnFamilyName};  // a new database
    }
    for (const char* required : {kCatalogFamily, kStatsFamily, kLocalFamily}) {
        if (std::find(names.begin(), names.end(), required) == names.end()) {
            names.emplace_back(required);
        }
    }
    rocksdb::BlockBasedTableOptions t;
    t.block_cache = block_cache_;
    rocksdb::ColumnFamilyOptions plain;
    plain.table_factory.reset(rocksdb::NewBlockBasedTableFactory(t));
    std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
    std::vector<std::shared_ptr<TableGcSettings>> gcs(names.size());
    for (size_t i = 0; i < names.size(); ++i) {
        if (is_reserved(names[i])) {
            rocksdb::ColumnFamilyOptions o = plain;
            if (names[i] == kStatsFamily) o = stats_cf_options();
            descriptors.emplace_back(names[i], o);
        } else {
            gcs[i] = std::make_shared<TableGcSettings>();
            gcs[i]->clock = options_.clock;
            descriptors.emplace_back(names[i], table_cf_options(gcs[i]));
        }
    }
    std::vector<rocksdb::ColumnFamilyHandle*> handles;
    rocksdb::DB* raw = nullptr;
    auto s = rocksdb::DB::Open(db_opts, directory_, descriptors, &handles, &raw);
    if (!s.ok()) return rocks_error("Cannot open storage at " + directory_, s);
    db_.reset(raw);
    auto map = std::make_shared<TableMap>();
    for (size_t i = 0; i < names.size(); ++i) {
        if (names[i] == rocksdb::kDefaultColumnFamilyName) {
            default_cf_ = handles[i];
        } else if (names[i] == kCatalogFamily) {
            catalog_cf_ = handles[i];
        } else if (names[i] == kStatsFamily) {
            stats_cf_ = handles[i];
        } else if (names[i] == kLocalFamily) {
            local_cf_ = handles[i];
        } else {
            (*map)[names[i]] = std::make_shared<const TableHandle>(raw, handles[i], gcs[i]);
        }
    }
    publish(std::move(map));
    return Status::ok();
}

Status Store::load_table_options() {
    auto map = tables_.load();
    for (const auto& [id, table] : *map) {
        TableStorageOptions o;
        std::string v;
        auto s = db_->Get(rocksdb::ReadOptions(), default_cf_, table_options_key(id), &v);
        if (s.ok() && !decode_table_options(v, &o)) {
            return Status::server("Corrupted storage options of table " + id);
        }
        if (!s.ok() && !s.IsNotFound()) return rocks_error("Cannot read table options", s);
        table->gc->gc_grace_seconds.store(o.gc_grace_seconds);
    }
    return Status::ok();
}

Status Store::close() {
    if (closed_ || !db_) return Status::ok();
    closed_ = true;
    {
        std::lock_guard lock(bg_mu_);
        stopping_ = true;
    }
    bg_cv_.notify_all();
    if (bg_thread_.joinable()) bg_thread_.join();
    Status result;
    if (stats_) result = stats_->flush();
    stats_.reset();
    auto s = db_->SyncWAL();
    if (!s.ok() && result.is_ok()) result = rocks_error("Cannot sync the commit log", s);
    tables_.store(std::make_shared<const TableMap>());  // destroys table handles
    for (auto* h : {default_cf_, catalog_cf_, stats_cf_, local_cf_}) {
        if (h) db_->DestroyColumnFamilyHandle(h);
    }
    s = db_->Close();
    if (!s.ok() && result.is_ok()) result = rocks_error("Cannot close storage", s);
    db_.reset();
    return result;
}

void Store::background_loop() {
    using Clock = std::chrono::steady_clock;
    const bool periodic = options_.commitlog_sync == CommitlogSync::kPeriodic &&
                          options_.commitlog_sync_period_ms > 0;
    const auto sync_period = std::chrono::milliseconds(options_.commitlog_sync_period_ms);
    const auto stats_period = std::chrono::milliseconds(options_.stats_flush_period_ms);
    auto next_sync = Clock::now() + sync_period;
    auto next_stats = Clock::now() + stats_period;
    std::unique_lock lock(bg_mu_);
    while (!stopping_) {
        auto wake = Clock::now() + std::chrono::hours(1);
        if (periodic) wake = std::min(wake, next_sync);
        if (options_.stats_flush_period_ms > 0) wake = std::min(wake, next_stats);
        if (resume_needed_) wake = std::min(wake, Clock::now() + std::chrono::seconds(1));
        bg_cv_.wait_until(lock, wake, [&] { return stopping_; });
        if (stopping_) break;
        const auto now = Clock::now();
        lock.unlock();
        // Failures here are retried next period; the WAL write itself
        // already succeeded, so a failed sync only widens the loss window.
        if (resume_needed_) try_resume();
        if (periodic && now >= next_sync) {
            (void)db_->SyncWAL();
            next_sync = now + sync_period;
        }
        if (options_.stats_flush_period_ms > 0 && now >= next_stats) {
            (void)stats_->flush();
            next_stats = now + stats_period;
        }
        lock.lock();
    }
}

void Store::try_resume() {
    // Resume() flushes the memtables and starts a new WAL; it fails (and is
    // retried next second) while the cause remains. A full disk is also
    // resumed by RocksDB itself (its SstFileManager) once a write buffer's
    // worth of space (64 MiB) is free; Resume() returns Busy meanwhile.
    auto s = db_->Resume();
    if (s.ok()) resume_needed_ = false;
}

void Store::publish(std::shared_ptr<const TableMap> map) {
    tables_.store(std::move(map));
}

std::shared_ptr<const TableHandle> Store::find_table(const std::string& table_id) const {
    auto map = tables_.load();
    auto it = map->find(table_id);
    return it == map->end() ? nullptr : it->second;
}

// ---- Catalog ----

Status Store::put_meta(std::string_view key, std::string_view value) {
    auto s = db_->Put(durable_write(), catalog_cf_, key, value);
    return s.ok() ? Status::ok() : rocks_error("Cannot write catalog", s);
}

Result<std::optional<std::string>> Store::get_meta(std::string_view key) {
    std::string v;
    auto s = db_->Get(rocksdb::ReadOptions(), catalog_cf_, key, &v);
    if (s.IsNotFound()) return std::optional<std::string>();
    if (!s.ok()) return rocks_error("Cannot read catalog", s);
    return std::optional<std::string>(std::move(v));
}

Status Store::delete_meta(std::string_view key) {
    auto s = db_->Delete(durable_write(), catalog_cf_, key);
    return s.ok() ? Status::ok() : rocks_error("Cannot write catalog", s);
}

Status Store::write_meta(
    const std::vector<std::pair<std::string, std::optional<std::string>>>& ops) {
    rocksdb::WriteBatch batch;
    for (const auto& [key, value] : ops) {
        auto s = value ? batch.Put(catalog_cf_, key, *value) : batch.Delete(catalog_cf_, key);
        if (!s.ok()) return rocks_error("Cannot write catalog", s);
    }
    auto s = db_->Write(durable_write(), &batch);
    return s.ok() ? Status::ok() : rocks_error("Cannot write catalog", s);
}

Result<std::vector<std::pair<std::string, std::string>>> Store::list_meta(std::string_view prefix) {
    std::vector<std::pair<std::string, std::string>> out;
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), catalog_cf_));
    for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
        out.emplace_back(it->key().ToString(), it->value().ToString());
    }
    if (!it->status().ok()) return rocks_error("Cannot read catalog", it->status());
    return out;
}

// ---- Node-local data ----

rocksdb::WriteOptions Store::data_write() const {
    rocksdb::WriteOptions wo;
    // Batch mode: sync=true; RocksDB's write group gives group commit.
    wo.sync = options_.commitlog_sync == CommitlogSync::kBatch;
    return wo;
}

Status Store::put_local(std::string_view key, std::string_view value) {
    auto s = db_->Put(data_write(), local_cf_, key, value);
    return s.ok() ? Status::ok() : rocks_error("Cannot write node-local data", s);
}

Status Store::delete_local(std::string_view key) {
    auto s = db_->Delete(data_write(), local_cf_, key);
    return s.ok() ? Status::ok() : rocks_error("Cannot write node-local data", s);
}

Result<std::optional<std::string>> Store::get_local(std::string_view key) {
    std::string v;
    auto s = db_->Get(rocksdb::ReadOptions(), local_cf_, key, &v);
    if (s.IsNotFound()) return std::optional<std::string>();
    if (!s.ok()) return rocks_error("Cannot read node-local data", s);
    return std::optional<std::string>(std::move(v));
}

Result<std::vector<std::pair<std::string, std::string>>> Store::list_local(std::string_view prefix,
                                                                           size_t limit) {
    std::vector<std::pair<std::string, std::string>> out;
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), local_cf_));
    for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
        if (limit != 0 && out.size() >= limit) break;
        out.emplace_back(it->key().ToString(), it->value().ToString());
    }
    if (!it->status().ok()) return rocks_error("Cannot read node-local data", it->status());
    return out;
}

// ---- Tables ----

Status Store::write_table_options(const std::string& table_id, const TableStorageOptions& o) {
    auto s = db_->Put(durable_write(), default_cf_, table_options_key(table_id),
                      encode_table_options(o));
    return s.ok() ? Status::ok() : rocks_error("Cannot write table options", s);
}

Status Store::create_table(const std::string& table_id, const TableStorageOptions& options) {
    if (table_id.empty()) return Status::invalid("Table id must not be empty");
    if (is_reserved(table_id)) {
        return Status::invalid("Table id '" + table_id + "' is reserved for internal use");
    }
    if (options.gc_grace_seconds < 0) {
        return Status::config("gc_grace_seconds must be non-negative");
    }
    std::lock_guard ddl(ddl_mu_);
    auto current = tables_.load();
    if (current->count(table_id)) {
        Status st(ErrorCode::kAlreadyExists, "Table storage " + table_id + " already exists");
        st.detail2 = table_id;
        return st;
    }
    TESSEL_RETURN_IF_ERROR(write_table_options(table_id, options));
    auto gc = std::make_shared<TableGcSettings>();
    gc->clock = options_.clock;
    gc->gc_grace_seconds.store(options.gc_grace_seconds);
    rocksdb::ColumnFamilyHandle* h = nullptr;
    auto s = db_->CreateColumnFamily(table_cf_options(gc), table_id, &h);
    if (!s.ok()) return rocks_error("Cannot create table storage " + table_id, s);
    auto map = std::make_shared<TableMap>(*current);
    (*map)[table_id] = std::make_shared<const TableHandle>(db_.get(), h, gc);
    publish(std::move(map));
    return Status::ok();
}

Status Store::drop_table(const std::string& table_id) {
    std::lock_guard ddl(ddl_mu_);
    auto current = tables_.load();
    auto it = current->find(table_id);
    if (it == current->end()) return unknown_table(table_id);
    auto s = db_->DropColumnFamily(it->second->cf);
    if (!s.ok()) return rocks_error("Cannot drop table storage " + table_id, s);
    auto map = std::make_shared<TableMap>(*current);
    map->erase(table_id);
    publish(std::move(map));
    s = db_->Delete(durable_write(), default_cf_, table_options_key(table_id));
    if (!s.ok()) return rocks_error("Cannot delete table options", s);
    return stats_->drop_table(table_id);
}

Status Store::truncate_table(const std::string& table_id) {
    std::lock_guard ddl(ddl_mu_);
    auto current = tables_.load();
    auto it = current->find(table_id);
    if (it == current->end()) return unknown_table(table_id);
    const auto& old = it->second;
    auto s = db_->DropColumnFamily(old->cf);
    if (!s.ok()) return rocks_error("Cannot truncate table storage " + table_id, s);
    rocksdb::ColumnFamilyHandle* h = nullptr;
    s = db_->CreateColumnFamily(table_cf_options(old->gc), table_id, &h);
    auto map = std::make_shared<TableMap>(*current);
    if (!s.ok()) {
        map->erase(table_id);
        publish(std::move(map));
        return rocks_error("Cannot recreate table storage " + table_id + " after truncation", s);
    }
    (*map)[table_id] = std::make_shared<const TableHandle>(db_.get(), h, old->gc);
    publish(std::move(map));
    return stats_->drop_table(table_id);
}

bool Store::has_table(const std::string& table_id) const {
    return find_table(table_id) != nullptr;
}

std::vector<std::string> Store::list_tables() const {
    auto map = tables_.load();
    std::vector<std::string> out;
    for (const auto& [id, t] : *map)
        out.push_back(id);
    std::sort(out.begin(), out.end());
    return out;
}

Status Store::set_table_options(const std::string& table_id, const TableStorageOptions& options) {
    if (options.gc_grace_seconds < 0) {
        return Status::config("gc_grace_seconds must be non-negative");
    }
    std::lock_guard ddl(ddl_mu_);
    auto table = find_table(table_id);
    if (!table) return unknown_table(table_id);
    TESSEL_RETURN_IF_ERROR(write_table_options(table_id, options));
    table->gc->gc_grace_seconds.store(options.gc_grace_seconds);
    return Status::ok();
}

Result<TableStorageOptions> Store::table_options(const std::string& table_id) const {
    auto table = find_table(table_id);
    if (!table) return unknown_table(table_id);
    TableStorageOptions o;
    o.gc_grace_seconds = table->gc->gc_grace_seconds.load();
    return o;
}

// ---- Data ----

Status Store::apply(const std::string& table_id, const PartitionMutation& mutation) {
    auto table = find_table(table_id);
    if (!table) return unknown_table(table_id);
    rocksdb::WriteBatch batch;
    PartitionStats delta;
    TESSEL_RETURN_IF_ERROR(build_write_batch(table->cf, mutation, &batch, &delta));
    if (batch.Count() == 0) return Status::ok();
    auto s = db_->Write(data_write(), &batch);
    if (!s.ok()) {
        if (!resume_needed_.exchange(true)) bg_cv_.notify_all();
        return rocks_error("Write to table " + table_id + " failed", s);
    }
    delta.last_write_time = options_.clock();
    stats_->record(table_id, mutation.partition_key, delta);
    return Status::ok();
}

Result<std::unique_ptr<PartitionReader>> Store::read_partition(const std::string& table_id,
                                                               std::string partition_key,
                                                               const SliceSpec& slice,
                                                               int64_t now_seconds) {
    auto table = find_table(table_id);
    if (!table) return unknown_table(table_id);
    return PartitionReader::open(std::move(table), std::move(partition_key), slice, now_seconds);
}

Result<std::unique_ptr<PartitionScanner>> Store::scan_partitions(const std::string& table_id,
                                                                 const KeyRange& range,
                                                                 int64_t now_seconds) {
    auto table = find_table(table_id);
    if (!table) return unknown_table(table_id);
    return PartitionScanner::open(std::move(table), range, now_seconds);
}

Result<PartitionMutation> Store::read_raw(const std::string& table_id,
                                          const std::string& partition_key,
                                          const ClusteringBound& start, const ClusteringBound& end,
                                          bool include_static) {
    auto table = find_table(table_id);
    if (!table) return unknown_table(table_id);
    return read_raw_partition(table, partition_key, start, end, include_static);
}

Result<RawScan> Store::scan_raw(const std::string& table_id, const KeyRange& range,
                                size_t max_bytes) {
    auto table = find_table(table_id);
    if (!table) return unknown_table(table_id);
    return storage::scan_raw(table, range, max_bytes);
}

Result<RangeDigests> Store::digest_ranges(const std::string& table_id, const KeyRange& range,
                                          const std::vector<std::string>& boundaries) {
    auto table = find_table(table_id);
    if (!table) return unknown_table(table_id);
    return storage::digest_ranges(table, range, boundaries);
}

// ---- Statistics ----

Result<PartitionStats> Store::get_partition_stats(const std::string& table_id,
                                                  std::string_view partition_key) {
    if (!has_table(table_id)) return unknown_table(table_id);
    return stats_->get(table_id, partition_key);
}

Status Store::for_each_partition_stats(
    const std::string& table_id,
    const std::function<void(std::string_view, const PartitionStats&)>& fn) {
    if (!has_table(table_id)) return unknown_table(table_id);
    return stats_->for_each(table_id, fn);
}

// ---- Maintenance ----

Status Store::flush() {
    TESSEL_RETURN_IF_ERROR(stats_->flush());
    std::vector<rocksdb::ColumnFamilyHandle*> cfs = {default_cf_, catalog_cf_, stats_cf_,
                                                     local_cf_};
    auto map = tables_.load();
    for (const auto& [id, t] : *map)
        cfs.push_back(t->cf);
    auto s = db_->Flush(rocksdb::FlushOptions(), cfs);
    return s.ok() ? Status::ok() : rocks_error("Flush failed", s);
}

Status Store::sync_wal() {
    auto s = db_->SyncWAL();
    return s.ok() ? Status::ok() : rocks_error("Cannot sync the commit log", s);
}

Status Store::compact(const std::string& table_id) {
    auto table = find_table(table_id);
    if (!table) return unknown_table(table_id);
    rocksdb::CompactRangeOptions o;
    // Rewrite the last level too, so the filter sees every record.
    o.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
    auto s = db_->CompactRange(o, table->cf, nullptr, nullptr);
    return s.ok() ? Status::ok() : rocks_error("Compaction of table " + table_id + " failed", s);
}

std::optional<std::string> Store::property(std::string_view name) const {
    std::string v;
    if (!db_->GetProperty(rocksdb::Slice(name.data(), name.size()), &v)) return std::nullopt;
    return v;
}

std::optional<std::string> Store::table_property(const std::string& table_id,
                                                 std::string_view name) const {
    auto table = find_table(table_id);
    std::string v;
    if (!table || !db_->GetProperty(table->cf, rocksdb::Slice(name.data(), name.size()), &v)) {
        return std::nullopt;
    }
    return v;
}

std::optional<uint64_t> Store::table_int_property(const std::string& table_id,
                                                  std::string_view name) const {
    auto table = find_table(table_id);
    uint64_t v = 0;
    if (!table || !db_->GetIntProperty(table->cf, rocksdb::Slice(name.data(), name.size()), &v)) {
        return std::nullopt;
    }
    return v;
}

}  // namespace tessel::storage
