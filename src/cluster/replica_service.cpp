#include "cluster/replica_service.h"

#include "storage/store.h"

namespace tessel::cluster {
namespace {

// Reads the rows of one partition slice: at most `limit` rows (0: all),
// and whether the slice holds more. Digests hash exactly what is returned.
struct SliceRows {
    std::optional<storage::Row> static_row;
    std::vector<storage::Row> rows;
    bool exhausted = true;
    uint64_t tombstones = 0;
};

Status read_slice(storage::PartitionReader& reader, uint32_t limit, SliceRows* out) {
    out->static_row = reader.static_row();
    storage::Row row;
    while (reader.next(&row)) {
        if (limit != 0 && out->rows.size() >= limit) {
            out->exhausted = false;
            break;
        }
        out->rows.push_back(std::move(row));
    }
    TESSEL_RETURN_IF_ERROR(reader.status());
    out->tombstones = reader.tombstones_scanned();
    return Status::ok();
}

void digest_slice(RowDigest& d, const std::optional<storage::Row>& static_row,
                  const std::vector<storage::Row>& rows, bool exhausted) {
    if (static_row) d.add_row(*static_row, true);
    for (const auto& r : rows)
        d.add_row(r, false);
    d.add_bytes(exhausted ? "end" : "more");
}

// A handler that decodes its command, runs `fn` and encodes its answer.
template <class Command, class Fn>
Handler handler(Fn fn) {
    return [fn](const InboundContext&, std::string payload) -> Task<Result<std::string>> {
        Command c;
        TESSEL_CO_RETURN_IF_ERROR(decode(payload, &c));
        auto r = fn(c);
        if constexpr (std::is_same_v<decltype(r), Status>) {
            if (!r.is_ok()) co_return r;
            co_return std::string();
        } else {
            if (!r.is_ok()) co_return std::move(r).status();
            co_return encode(*r);
        }
    };
}

}  // namespace

Status ReplicaService::register_handlers(MessagingService& m) {
    auto v = [](ReplicaVerb verb) { return static_cast<uint16_t>(verb); };
    TESSEL_RETURN_IF_ERROR(m.register_handler(
        v(ReplicaVerb::kMutation),
        handler<MutationMessage>([this](const MutationMessage& c) { return apply(c); })));
    TESSEL_RETURN_IF_ERROR(
        m.register_handler(v(ReplicaVerb::kRead),
                           handler<ReadCommand>([this](const ReadCommand& c) { return read(c); })));
    TESSEL_RETURN_IF_ERROR(
        m.register_handler(v(ReplicaVerb::kScan),
                           handler<ScanCommand>([this](const ScanCommand& c) { return scan(c); })));
    TESSEL_RETURN_IF_ERROR(m.register_handler(
        v(ReplicaVerb::kReadRaw),
        handler<RawReadCommand>([this](const RawReadCommand& c) { return read_raw(c); })));
    TESSEL_RETURN_IF_ERROR(m.register_handler(
        v(ReplicaVerb::kScanRaw),
        handler<RawScanCommand>([this](const RawScanCommand& c) { return scan_raw(c); })));
    TESSEL_RETURN_IF_ERROR(
        m.register_handler(v(ReplicaVerb::kRangeDigest),
                           handler<RangeDigestCommand>(
                               [this](const RangeDigestCommand& c) { return digest_ranges(c); })));
    TESSEL_RETURN_IF_ERROR(m.register_handler(
        v(ReplicaVerb::kPaxosPrepare),
        handler<PaxosPrepare>([this](const PaxosPrepare& c) { return paxos_.prepare(c); })));
    TESSEL_RETURN_IF_ERROR(m.register_handler(
        v(ReplicaVerb::kPaxosPropose),
        handler<PaxosProposal>([this](const PaxosProposal& c) { return paxos_.propose(c); })));
    TESSEL_RETURN_IF_ERROR(m.register_handler(
        v(ReplicaVerb::kPaxosCommit),
        handler<PaxosProposal>([this](const PaxosProposal& c) { return paxos_.commit(c); })));
    return m.register_handler(
        v(ReplicaVerb::kTruncate),
        handler<TruncateMessage>([this](const TruncateMessage& c) { return truncate(c); }));
}

Status ReplicaService::apply(const MutationMessage& m) {
    return store_->apply(m.table_id, m.mutation);
}

Result<ReadResponse> ReplicaService::read(const ReadCommand& c) {
    TESSEL_ASSIGN_OR_RETURN(
        auto reader, store_->read_partition(c.table_id, c.partition_key, c.slice, c.now_seconds));
    SliceRows s;
    TESSEL_RETURN_IF_ERROR(read_slice(*reader, c.row_limit, &s));
    ReadResponse r;
    r.exhausted = s.exhausted;
    r.tombstones = s.tombstones;
    if (!s.rows.empty()) r.last_clustering = s.rows.back().clustering;
    if (c.digest_only) {
        RowDigest d;
        digest_slice(d, s.static_row, s.rows, s.exhausted);
        r.digest = d.finish();
        return r;
    }
    r.static_row = std::move(s.static_row);
    r.rows = std::move(s.rows);
    return r;
}

Result<ScanResponse> ReplicaService::scan(const ScanCommand& c) {
    TESSEL_ASSIGN_OR_RETURN(auto scanner,
                            store_->scan_partitions(c.table_id, c.range, c.now_seconds));
    ScanResponse r;
    RowDigest d;
    r.exhausted = true;
    while (scanner->next()) {
        if (c.partition_limit != 0 && r.partitions.size() >= c.partition_limit) {
            r.exhausted = false;
            break;
        }
        TESSEL_ASSIGN_OR_RETURN(auto reader, scanner->read(c.slice));
        ScannedPartition p;
        p.key = scanner->partition_key();
        SliceRows s;
        TESSEL_RETURN_IF_ERROR(read_slice(*reader, c.row_limit, &s));
        r.tombstones += s.tombstones;
        p.static_row = std::move(s.static_row);
        p.rows = std::move(s.rows);
        p.exhausted = s.exhausted;
        r.last_key = p.key;
        if (c.digest_only) {
            d.add_partition(p.key);
            digest_slice(d, p.static_row, p.rows, p.exhausted);
        }
        r.partitions.push_back(std::move(p));
    }
    TESSEL_RETURN_IF_ERROR(scanner->status());
    if (c.digest_only) {
        d.add_bytes(r.exhausted ? "end" : "more");
        r.digest = d.finish();
        r.partitions.clear();
    }
    return r;
}

Result<storage::PartitionMutation> ReplicaService::read_raw(const RawReadCommand& c) {
    return store_->read_raw(c.table_id, c.partition_key, c.start, c.end, c.include_static);
}

Result<RawScanResponse> ReplicaService::scan_raw(const RawScanCommand& c) {
    TESSEL_ASSIGN_OR_RETURN(auto scan, store_->scan_raw(c.table_id, c.range, c.max_bytes));
    RawScanResponse r;
    r.exhausted = scan.exhausted;
    if (!scan.partitions.empty()) r.last_key = scan.partitions.back().partition_key;
    r.partitions = std::move(scan.partitions);
    return r;
}

Result<RangeDigestResponse> ReplicaService::digest_ranges(const RangeDigestCommand& c) {
    TESSEL_ASSIGN_OR_RETURN(auto d, store_->digest_ranges(c.table_id, c.range, c.boundaries));
    RangeDigestResponse r;
    r.digests = std::move(d.digests);
    r.partitions = std::move(d.partitions);
    return r;
}

Status ReplicaService::truncate(const TruncateMessage& m) {
    if (!store_->has_table(m.table_id)) return Status::ok();
    return store_->truncate_table(m.table_id);
}

}  // namespace tessel::cluster
