// Store::export_range, Store::ingest_range and Store::delete_range (declared
// in store.h).
#include "storage/range_files.h"

#include <cstdio>
#include <filesystem>
#include <memory>

#include <rocksdb/sst_file_writer.h>
#include <rocksdb/write_batch.h>

#include "storage/partition_stats.h"
#include "storage/store.h"
#include "storage/table_handle.h"

namespace tessel::storage {
namespace {

Status rocks_failed(std::string_view what, const rocksdb::Status& s) {
    return Status::server(std::string(what) + ": " + s.ToString());
}

// Numbered SST files of one family, each closed once it passes a size.
class FileSeries {
  public:
    FileSeries(rocksdb::Options options, std::string directory, std::string stem,
               uint64_t max_bytes, std::vector<std::string>* files)
        : options_(std::move(options)),
          directory_(std::move(directory)),
          stem_(std::move(stem)),
          max_bytes_(max_bytes),
          files_(files) {}

    // Keys must come in increasing order.
    Status add(const rocksdb::Slice& key, const rocksdb::Slice& value) {
        if (!writer_) {
            char name[32];
            std::snprintf(name, sizeof name, "-%06zu.sst", files_->size());
            const std::string path = (std::filesystem::path(directory_) / (stem_ + name)).string();
            writer_ = std::make_unique<rocksdb::SstFileWriter>(rocksdb::EnvOptions(), options_);
            auto s = writer_->Open(path);
            if (!s.ok()) return rocks_failed("Cannot create " + path, s);
            files_->push_back(path);
        }
        auto s = writer_->Merge(key, value);
        if (!s.ok()) return rocks_failed("Cannot write " + files_->back(), s);
        if (writer_->FileSize() >= max_bytes_) return finish();
        return Status::ok();
    }

    Status finish() {
        if (!writer_) return Status::ok();
        rocksdb::ExternalSstFileInfo info;
        auto s = writer_->Finish(&info);
        writer_.reset();
        if (!s.ok()) return rocks_failed("Cannot finish " + files_->back(), s);
        bytes_ += info.file_size;
        return Status::ok();
    }

    uint64_t bytes() const { return bytes_; }

  private:
    rocksdb::Options options_;
    std::string directory_;
    std::string stem_;
    uint64_t max_bytes_;
    std::vector<std::string>* files_;
    std::unique_ptr<rocksdb::SstFileWriter> writer_;
    uint64_t bytes_ = 0;
};

// Every record of `cf` with a key in [start, end) (an empty end: no bound), as
// `snapshot` sees it, into `out`.
Status copy_records(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* cf,
                    const rocksdb::Snapshot* snapshot, const std::string& start,
                    const std::string& end, FileSeries* out, uint64_t* records) {
    rocksdb::ReadOptions ro;
    ro.snapshot = snapshot;
    ro.fill_cache = false;
    const rocksdb::Slice upper(end);
    if (!end.empty()) ro.iterate_upper_bound = &upper;
    std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(ro, cf));
    for (it->Seek(start); it->Valid(); it->Next()) {
        TESSEL_RETURN_IF_ERROR(out->add(it->key(), it->value()));
        ++*records;
    }
    if (!it->status().ok()) return rocks_failed("Cannot read the range", it->status());
    return out->finish();
}

Status no_table(const std::string& table_id) {
    return Status::invalid("unconfigured table " + table_id);
}

}  // namespace

Result<RangeFiles> Store::export_range(const std::string& table_id, const RecordRange& range,
                                       const std::string& directory, uint64_t max_file_bytes) {
    auto table = find_table(table_id);
    if (!table) return no_table(table_id);
    std::error_code ec;
    std::filesystem::create_directories(directory, ec);
    if (ec) return Status::server("Cannot create " + directory + ": " + ec.message());
    // Pending statistics reach their family first, so the snapshot holds them.
    TESSEL_RETURN_IF_ERROR(stats_->flush());
    const rocksdb::Snapshot* snapshot = db_->GetSnapshot();
    RangeFiles out;
    FileSeries table_files(db_->GetOptions(table->cf), directory, "table", max_file_bytes,
                           &out.table_files);
    FileSeries stats_files(db_->GetOptions(stats_cf_), directory, "stats", max_file_bytes,
                           &out.stats_files);
    Status st = copy_records(db_.get(), table->cf, snapshot, range.start, range.end, &table_files,
                             &out.records);
    if (st.is_ok()) {
        uint64_t stats_records = 0;
        const std::string stats_end = range.end.empty()
                                          ? PartitionStatsTracker::table_end(table_id)
                                          : PartitionStatsTracker::key_of(table_id, range.end);
        st = copy_records(db_.get(), stats_cf_, snapshot,
                          PartitionStatsTracker::key_of(table_id, range.start), stats_end,
                          &stats_files, &stats_records);
    }
    db_->ReleaseSnapshot(snapshot);
    TESSEL_RETURN_IF_ERROR(st);
    out.bytes = table_files.bytes() + stats_files.bytes();
    return out;
}

Status Store::ingest_range(const std::string& table_id, const RangeFiles& files) {
    auto table = find_table(table_id);
    if (!table) return no_table(table_id);
    rocksdb::IngestExternalFileOptions o;
    o.move_files = true;  // a hard link on the same file system, a copy otherwise
    o.allow_global_seqno = true;
    o.allow_blocking_flush = true;
    if (!files.table_files.empty()) {
        auto s = db_->IngestExternalFile(table->cf, files.table_files, o);
        if (!s.ok()) return rocks_failed("Cannot ingest the range's records", s);
    }
    if (!files.stats_files.empty()) {
        auto s = db_->IngestExternalFile(stats_cf_, files.stats_files, o);
        if (!s.ok()) return rocks_failed("Cannot ingest the range's statistics", s);
    }
    return Status::ok();
}

Status Store::delete_range(const std::string& table_id, const RecordRange& range) {
    auto table = find_table(table_id);
    if (!table) return no_table(table_id);
    if (!range.end.empty() && range.end < range.start) {
        return Status::invalid("A range of table " + table_id + " ends before it starts");
    }
    rocksdb::WriteBatch batch;
    if (!range.end.empty()) {
        if (range.start < range.end) batch.DeleteRange(table->cf, range.start, range.end);
    } else {
        // DeleteRange takes an exclusive end, and no key sorts after every
        // key: delete up to the table's last key, and that key itself.
        std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), table->cf));
        it->SeekToLast();
        if (!it->status().ok()) return rocks_failed("Cannot read the range", it->status());
        if (it->Valid() && it->key().compare(range.start) >= 0) {
            batch.DeleteRange(table->cf, range.start, it->key());
            batch.Delete(table->cf, it->key());
        }
    }
    if (batch.Count() > 0) {
        // Fsynced: a deletion lost to a crash would leave data the node no
        // longer owns, which could come back if the range returns to it.
        rocksdb::WriteOptions wo;
        wo.sync = true;
        auto s = db_->Write(wo, &batch);
        if (!s.ok()) {
            if (!resume_needed_.exchange(true)) bg_cv_.notify_all();
            return rocks_failed("Cannot delete a range of table " + table_id, s);
        }
    }
    TESSEL_RETURN_IF_ERROR(stats_->drop_range(table_id, range.start, range.end));

    // Rewrite the files holding the range so its space is freed now, not
    // whenever compaction would reach them.
    rocksdb::CompactRangeOptions o;
    o.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
    const rocksdb::Slice begin(range.start), end(range.end);
    auto s = db_->CompactRange(o, table->cf, &begin, range.end.empty() ? nullptr : &end);
    if (!s.ok()) return rocks_failed("Cannot compact a range of table " + table_id, s);
    const std::string stats_begin = PartitionStatsTracker::key_of(table_id, range.start);
    const std::string stats_end = range.end.empty()
                                      ? PartitionStatsTracker::table_end(table_id)
                                      : PartitionStatsTracker::key_of(table_id, range.end);
    const rocksdb::Slice sb(stats_begin), se(stats_end);
    s = db_->CompactRange(o, stats_cf_, &sb, stats_end.empty() ? nullptr : &se);
    if (!s.ok()) return rocks_failed("Cannot compact the range's statistics", s);
    return Status::ok();
}

}  // namespace tessel::storage
