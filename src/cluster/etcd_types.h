// The values the etcd client sends and returns (etcd_client.h).
//
// Keys and values are arbitrary bytes in std::string. Revisions are etcd's:
// one counter for the whole keyspace, raised by every write (a transaction
// is one revision however many keys it writes).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tessel::cluster {

struct EtcdOptions {
    // Client URLs of the cluster's members ("http://127.0.0.1:2379"). A
    // request that cannot reach one tries the next; the one that answered
    // is tried first next time.
    std::vector<std::string> endpoints;
    // Longest a call blocks, whatever the number of endpoints tried.
    int request_timeout_ms = 5000;
    // Longest a connection attempt to one endpoint takes.
    int connect_timeout_ms = 2000;
    // Keys per request when a prefix read is paged (get_prefix).
    int range_page_size = 1000;
};

struct KeyValue {
    std::string key;
    std::string value;
    int64_t create_revision = 0;  // revision of the write that created the key
    int64_t mod_revision = 0;     // revision of its latest write
    int64_t version = 0;          // number of writes since it was created
    int64_t lease = 0;            // 0: no lease

    bool operator==(const KeyValue&) const = default;
};

struct RangeResult {
    std::vector<KeyValue> kvs;  // in key order
    int64_t revision = 0;       // the store revision the read saw
};

// One condition of a transaction, on one key. A missing key has value "",
// version 0, create_revision 0 and mod_revision 0: create_revision(k,
// kEqual, 0) is "k does not exist".
struct Compare {
    enum class Target { kValue, kVersion, kCreateRevision, kModRevision };
    enum class Op { kEqual, kNotEqual, kLess, kGreater };

    std::string key;
    Target target = Target::kVersion;
    Op op = Op::kEqual;
    std::string value;   // kValue
    int64_t number = 0;  // the other targets

    static Compare value_is(std::string key, Op op, std::string value) {
        return {std::move(key), Target::kValue, op, std::move(value), 0};
    }
    static Compare version_is(std::string key, Op op, int64_t n) {
        return {std::move(key), Target::kVersion, op, {}, n};
    }
    static Compare create_revision_is(std::string key, Op op, int64_t n) {
        return {std::move(key), Target::kCreateRevision, op, {}, n};
    }
    static Compare mod_revision_is(std::string key, Op op, int64_t n) {
        return {std::move(key), Target::kModRevision, op, {}, n};
    }
    static Compare absent(std::string key) {
        return create_revision_is(std::move(key), Op::kEqual, 0);
    }
};

// One operation of a transaction branch.
struct TxnOp {
    enum class Kind { kPut, kDelete, kRange };

    Kind kind = Kind::kRange;
    std::string key;
    bool prefix = false;  // kDelete, kRange: every key starting with `key`
    std::string value;    // kPut
    int64_t lease = 0;    // kPut: attach to this lease (0: none)

    static TxnOp put(std::string key, std::string value, int64_t lease = 0) {
        return {Kind::kPut, std::move(key), false, std::move(value), lease};
    }
    static TxnOp erase(std::string key) { return {Kind::kDelete, std::move(key), false, {}, 0}; }
    static TxnOp erase_prefix(std::string prefix) {
        return {Kind::kDelete, std::move(prefix), true, {}, 0};
    }
    static TxnOp range(std::string key) { return {Kind::kRange, std::move(key), false, {}, 0}; }
    static TxnOp range_prefix(std::string prefix) {
        return {Kind::kRange, std::move(prefix), true, {}, 0};
    }
};

struct TxnResult {
    bool succeeded = false;  // every Compare held: the success branch ran
    int64_t revision = 0;    // the store revision after the transaction
    // One entry per kRange op of the branch that ran, in op order. A range
    // inside a transaction is not paged: it returns every key it covers.
    std::vector<RangeResult> ranges;
};

struct Lease {
    int64_t id = 0;
    int64_t ttl_seconds = 0;  // as granted (etcd raises TTLs below its minimum)
};

struct WatchEvent {
    enum class Type { kPut, kDelete };
    Type type = Type::kPut;
    // For kDelete: the key and mod_revision (the revision of the deletion).
    KeyValue kv;
};

// What a watch callback receives: events in revision order, or the news
// that the watch cannot go on because etcd compacted the revisions it needs.
struct WatchBatch {
    std::vector<WatchEvent> events;
    int64_t revision = 0;  // etcd's store revision when it sent the batch
    // The revision to resume from was compacted: events were lost. The watch
    // has stopped; its owner re-reads the prefix (get_prefix gives revision
    // R) and starts a new watch from R + 1. `events` is empty.
    bool compacted = false;
    int64_t compact_revision = 0;
};

}  // namespace tessel::cluster
