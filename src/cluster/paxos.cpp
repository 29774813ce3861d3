#include "cluster/paxos.h"

#include <algorithm>
#include <functional>

#include "common/record_codec.h"
#include "storage/store.h"

namespace tessel::cluster {
namespace {

constexpr uint8_t kFormat = 1;

void put_ballot(std::string* out, const Ballot& b) {
    record::put_u64(out, static_cast<uint64_t>(b.micros));
    record::put_u64(out, b.node);
}

bool read_ballot(record::Reader& r, Ballot* b) {
    uint64_t micros = 0;
    if (!r.u64(&micros) || !r.u64(&b->node)) return false;
    b->micros = static_cast<int64_t>(micros);
    return true;
}

void put_mutation(std::string* out, const std::optional<storage::PartitionMutation>& m) {
    out->push_back(m ? 1 : 0);
    if (m) record::put_str(out, encode(*m));
}

bool read_mutation(record::Reader& r, std::optional<storage::PartitionMutation>* m) {
    uint8_t has = 0;
    if (!r.u8(&has) || has > 1) return false;
    if (!has) return true;
    std::string bytes;
    if (!r.str(&bytes)) return false;
    m->emplace();
    return decode(bytes, &**m).is_ok();
}

Status malformed(const char* what) {
    return Status::protocol(std::string("Malformed Paxos message: ") + what);
}

// Shared by prepare and proposal messages: table, partition, ballot.
void put_head(std::string* out, const std::string& table, const std::string& key, const Ballot& b) {
    out->push_back(static_cast<char>(kFormat));
    record::put_str(out, table);
    record::put_str(out, key);
    put_ballot(out, b);
}

bool read_head(record::Reader& r, std::string* table, std::string* key, Ballot* b) {
    uint8_t format = 0;
    return r.u8(&format) && format == kFormat && r.str(table) && r.str(key) && read_ballot(r, b);
}

void put_ballots(std::string* out, const std::vector<Ballot>& bs) {
    record::put_u32(out, static_cast<uint32_t>(bs.size()));
    for (const auto& b : bs)
        put_ballot(out, b);
}

bool read_ballots(record::Reader& r, std::vector<Ballot>* bs) {
    uint32_t n = 0;
    if (!r.u32(&n) || n > r.remaining() / 16) return false;
    bs->resize(n);
    for (auto& b : *bs) {
        if (!read_ballot(r, &b)) return false;
    }
    return true;
}

}  // namespace

std::string encode(const PaxosPrepare& m) {
    std::string out;
    put_head(&out, m.table_id, m.partition_key, m.ballot);
    put_ballots(&out, m.origins);
    return out;
}

Status decode(std::string_view in, PaxosPrepare* out) {
    record::Reader r(in);
    if (!read_head(r, &out->table_id, &out->partition_key, &out->ballot) ||
        !read_ballots(r, &out->origins) || !r.done()) {
        return malformed("prepare");
    }
    return Status::ok();
}

std::string encode(const PaxosProposal& m) {
    std::string out;
    put_head(&out, m.table_id, m.partition_key, m.ballot);
    record::put_str(&out, encode(m.update));
    put_ballot(&out, m.origin);
    return out;
}

Status decode(std::string_view in, PaxosProposal* out) {
    record::Reader r(in);
    std::string update;
    if (!read_head(r, &out->table_id, &out->partition_key, &out->ballot) || !r.str(&update) ||
        !read_ballot(r, &out->origin) || !r.done() || !decode(update, &out->update).is_ok()) {
        return malformed("proposal");
    }
    return Status::ok();
}

std::string encode(const PaxosPromise& m) {
    std::string out;
    out.push_back(static_cast<char>(kFormat));
    out.push_back(m.promised ? 1 : 0);
    put_ballot(&out, m.promised_ballot);
    put_ballot(&out, m.accepted_ballot);
    put_mutation(&out, m.accepted);
    put_ballot(&out, m.committed_ballot);
    put_mutation(&out, m.committed);
    put_ballot(&out, m.committed_origin);
    put_ballot(&out, m.accepted_origin);
    out.push_back(m.origin_committed ? 1 : 0);
    return out;
}

Status decode(std::string_view in, PaxosPromise* out) {
    record::Reader r(in);
    uint8_t format = 0, promised = 0, origin_committed = 0;
    if (!r.u8(&format) || format != kFormat || !r.u8(&promised) || promised > 1 ||
        !read_ballot(r, &out->promised_ballot) || !read_ballot(r, &out->accepted_ballot) ||
        !read_mutation(r, &out->accepted) || !read_ballot(r, &out->committed_ballot) ||
        !read_mutation(r, &out->committed) || !read_ballot(r, &out->committed_origin) ||
        !read_ballot(r, &out->accepted_origin) || !r.u8(&origin_committed) ||
        origin_committed > 1 || !r.done()) {
        return malformed("promise");
    }
    out->promised = promised == 1;
    out->origin_committed = origin_committed == 1;
    return Status::ok();
}

std::string encode(const PaxosAccept& m) {
    std::string out;
    out.push_back(static_cast<char>(kFormat));
    out.push_back(m.accepted ? 1 : 0);
    return out;
}

Status decode(std::string_view in, PaxosAccept* out) {
    record::Reader r(in);
    uint8_t format = 0, accepted = 0;
    if (!r.u8(&format) || format != kFormat || !r.u8(&accepted) || accepted > 1 || !r.done()) {
        return malformed("accept");
    }
    out->accepted = accepted == 1;
    return Status::ok();
}

// --- replica state ------------------------------------------------------------

std::mutex& PaxosState::lock_for(const std::string& key) {
    return stripes_[std::hash<std::string>{}(key) % kStripes];
}

Result<PaxosState::Record> PaxosState::load(const std::string& key) {
    Record rec;
    TESSEL_ASSIGN_OR_RETURN(auto bytes, store_->get_local(key));
    if (!bytes) return rec;
    record::Reader r(*bytes);
    uint8_t format = 0;
    if (!r.u8(&format) || format != kFormat || !read_ballot(r, &rec.promised) ||
        !read_ballot(r, &rec.accepted_ballot) || !read_mutation(r, &rec.accepted) ||
        !read_ballot(r, &rec.committed) || !read_mutation(r, &rec.committed_update) ||
        !read_ballot(r, &rec.committed_origin) || !read_ballot(r, &rec.accepted_origin) ||
        !read_ballots(r, &rec.committed_origins) || !r.done()) {
        return Status::server("Corrupted Paxos state for a partition");
    }
    return rec;
}

Status PaxosState::save(const std::string& key, const Record& rec) {
    std::string out;
    out.push_back(static_cast<char>(kFormat));
    put_ballot(&out, rec.promised);
    put_ballot(&out, rec.accepted_ballot);
    put_mutation(&out, rec.accepted);
    put_ballot(&out, rec.committed);
    put_mutation(&out, rec.committed_update);
    put_ballot(&out, rec.committed_origin);
    put_ballot(&out, rec.accepted_origin);
    put_ballots(&out, rec.committed_origins);
    return store_->put_local(key, out);
}

namespace {
std::string state_key(const std::string& table, const std::string& partition) {
    std::string k = "paxos/";
    k += table;
    k += '/';
    k += partition;
    return k;
}
}  // namespace

Result<PaxosPromise> PaxosState::prepare(const PaxosPrepare& p) {
    const std::string key = state_key(p.table_id, p.partition_key);
    std::lock_guard lock(lock_for(key));
    TESSEL_ASSIGN_OR_RETURN(auto rec, load(key));
    PaxosPromise out;
    if (p.ballot > rec.promised) {
        rec.promised = p.ballot;
        TESSEL_RETURN_IF_ERROR(save(key, rec));
        out.promised = true;
    }
    out.promised_ballot = rec.promised;
    out.accepted_ballot = rec.accepted_ballot;
    out.accepted = rec.accepted;
    out.committed_ballot = rec.committed;
    out.committed = rec.committed_update;
    out.committed_origin = rec.committed_origin;
    out.accepted_origin = rec.accepted_origin;
    for (const auto& o : p.origins) {
        if (std::find(rec.committed_origins.begin(), rec.committed_origins.end(), o) !=
            rec.committed_origins.end()) {
            out.origin_committed = true;
        }
    }
    return out;
}

Result<PaxosAccept> PaxosState::propose(const PaxosProposal& p) {
    const std::string key = state_key(p.table_id, p.partition_key);
    std::lock_guard lock(lock_for(key));
    TESSEL_ASSIGN_OR_RETURN(auto rec, load(key));
    PaxosAccept out;
    if (p.ballot >= rec.promised) {
        rec.promised = p.ballot;
        rec.accepted_ballot = p.ballot;
        rec.accepted = p.update;
        rec.accepted_origin = p.origin;
        TESSEL_RETURN_IF_ERROR(save(key, rec));
        out.accepted = true;
    }
    return out;
}

Status PaxosState::commit(const PaxosProposal& p) {
    const std::string key = state_key(p.table_id, p.partition_key);
    std::lock_guard lock(lock_for(key));
    // The update carries the ballot's time: applying it twice, or after a
    // later one, changes nothing.
    TESSEL_RETURN_IF_ERROR(store_->apply(p.table_id, p.update));
    TESSEL_ASSIGN_OR_RETURN(auto rec, load(key));
    if (p.ballot > rec.committed) {
        rec.committed = p.ballot;
        rec.committed_update = p.update;
        rec.committed_origin = p.origin;
    }
    if (rec.accepted_ballot <= p.ballot) {
        rec.accepted.reset();
        rec.accepted_ballot = Ballot{};
        rec.accepted_origin = Ballot{};
    }
    auto& origins = rec.committed_origins;
    if (std::find(origins.begin(), origins.end(), p.origin) == origins.end()) {
        origins.push_back(p.origin);
        if (origins.size() > kRememberedOrigins) origins.erase(origins.begin());
    }
    return save(key, rec);
}

}  // namespace tessel::cluster
