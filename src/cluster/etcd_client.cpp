#include "cluster/etcd_client.h"

#include <fmt/format.h>

#include "cluster/etcd_json.h"
#include "cluster/etcd_transport.h"
#include "cluster/etcd_watch.h"

namespace tessel::cluster {

namespace {

using etcd_json::base64_encode;
using etcd_json::Json;

// gRPC's NOT_FOUND, what etcd answers for a lease it does not have.
constexpr int64_t kGrpcNotFound = 5;

Status malformed(const EtcdReply& reply, std::string_view path, std::string_view what) {
    return Status::server(
        fmt::format("etcd at {} sent a malformed reply to {}: {}", reply.endpoint, path, what));
}

Json range_request(const std::string& key, bool prefix) {
    Json r = Json::object();
    r["key"] = base64_encode(key);
    if (prefix) r["range_end"] = base64_encode(etcd_json::prefix_range_end(key));
    return r;
}

const char* compare_target(Compare::Target t) {
    switch (t) {
        case Compare::Target::kValue:
            return "VALUE";
        case Compare::Target::kVersion:
            return "VERSION";
        case Compare::Target::kCreateRevision:
            return "CREATE";
        case Compare::Target::kModRevision:
            return "MOD";
    }
    return "VERSION";
}

const char* compare_op(Compare::Op op) {
    switch (op) {
        case Compare::Op::kEqual:
            return "EQUAL";
        case Compare::Op::kNotEqual:
            return "NOT_EQUAL";
        case Compare::Op::kLess:
            return "LESS";
        case Compare::Op::kGreater:
            return "GREATER";
    }
    return "EQUAL";
}

Json compare_json(const Compare& c) {
    Json j = Json::object();
    j["key"] = base64_encode(c.key);
    j["target"] = compare_target(c.target);
    j["result"] = compare_op(c.op);
    switch (c.target) {
        case Compare::Target::kValue:
            j["value"] = base64_encode(c.value);
            break;
        case Compare::Target::kVersion:
            j["version"] = std::to_string(c.number);
            break;
        case Compare::Target::kCreateRevision:
            j["create_revision"] = std::to_string(c.number);
            break;
        case Compare::Target::kModRevision:
            j["mod_revision"] = std::to_string(c.number);
            break;
    }
    return j;
}

Json op_json(const TxnOp& op) {
    Json j = Json::object();
    switch (op.kind) {
        case TxnOp::Kind::kPut: {
            Json put = Json::object();
            put["key"] = base64_encode(op.key);
            put["value"] = base64_encode(op.value);
            if (op.lease != 0) put["lease"] = std::to_string(op.lease);
            j["request_put"] = std::move(put);
            break;
        }
        case TxnOp::Kind::kDelete:
            j["request_delete_range"] = range_request(op.key, op.prefix);
            break;
        case TxnOp::Kind::kRange:
            j["request_range"] = range_request(op.key, op.prefix);
            break;
    }
    return j;
}

Json ops_json(const std::vector<TxnOp>& ops) {
    Json list = Json::array();
    for (const auto& op : ops)
        list.push_back(op_json(op));
    return list;
}

Json lease_request(int64_t lease_id) {
    Json j = Json::object();
    j["ID"] = std::to_string(lease_id);
    return j;
}

}  // namespace

Result<EtcdClient> EtcdClient::create(EtcdOptions options) {
    if (options.endpoints.empty()) {
        return Status::config("etcd client: no endpoint given (expected http://host:port)");
    }
    for (auto& endpoint : options.endpoints) {
        if (endpoint.rfind("http://", 0) != 0 && endpoint.rfind("https://", 0) != 0) {
            return Status::config(
                fmt::format("etcd endpoint '{}' is not an http:// or https:// URL", endpoint));
        }
        while (endpoint.size() > 8 && endpoint.back() == '/')
            endpoint.pop_back();
    }
    if (options.request_timeout_ms <= 0 || options.connect_timeout_ms <= 0) {
        return Status::config("etcd client: timeouts must be positive");
    }
    if (options.range_page_size <= 0) {
        return Status::config("etcd client: range_page_size must be positive");
    }
    return EtcdClient(std::make_shared<EtcdTransport>(std::move(options)));
}

const EtcdOptions& EtcdClient::options() const {
    return transport_->options();
}

Result<RangeResult> EtcdClient::get(const std::string& key) const {
    static constexpr std::string_view kPath = "/v3/kv/range";
    TESSEL_ASSIGN_OR_RETURN(auto reply, transport_->call({kPath, range_request(key, false).dump(),
                                                          /*idempotent=*/true}));
    std::string what;
    auto page = etcd_json::read_range_page(reply.body, &what);
    if (!page) return malformed(reply, kPath, what);
    if (page->result.kvs.size() > 1) return malformed(reply, kPath, "several keys for one");
    return std::move(page->result);
}

Result<RangeResult> EtcdClient::get_prefix(const std::string& prefix, int64_t revision) const {
    static constexpr std::string_view kPath = "/v3/kv/range";
    const std::string range_end = etcd_json::prefix_range_end(prefix);
    const int limit = options().range_page_size;
    RangeResult out;
    out.revision = revision;
    std::string from = prefix;
    for (;;) {
        Json request = Json::object();
        request["key"] = base64_encode(from);
        request["range_end"] = base64_encode(range_end);
        request["limit"] = std::to_string(limit);
        if (out.revision > 0) request["revision"] = std::to_string(out.revision);
        TESSEL_ASSIGN_OR_RETURN(auto reply,
                                transport_->call({kPath, request.dump(), /*idempotent=*/true}));
        std::string what;
        auto page = etcd_json::read_range_page(reply.body, &what);
        if (!page) return malformed(reply, kPath, what);
        auto& kvs = page->result.kvs;
        if (kvs.size() > static_cast<size_t>(limit)) {
            return malformed(reply, kPath, "more keys than the limit");
        }
        if (!kvs.empty() && !out.kvs.empty() && kvs.front().key <= out.kvs.back().key) {
            return malformed(reply, kPath, "keys out of order");
        }
        // A revision given in the request is the one the read saw (the
        // header carries the latest one).
        if (out.revision == 0) out.revision = page->result.revision;
        for (auto& kv : kvs)
            out.kvs.push_back(std::move(kv));
        if (!page->more) break;
        if (kvs.empty()) return malformed(reply, kPath, "\"more\" with no keys");
        from = out.kvs.back().key;
        from.push_back('\0');  // the smallest key after the last one read
    }
    return out;
}

Result<int64_t> EtcdClient::put(const std::string& key, const std::string& value,
                                int64_t lease) const {
    static constexpr std::string_view kPath = "/v3/kv/put";
    Json request = Json::object();
    request["key"] = base64_encode(key);
    request["value"] = base64_encode(value);
    if (lease != 0) request["lease"] = std::to_string(lease);
    TESSEL_ASSIGN_OR_RETURN(auto reply, transport_->call({kPath, request.dump()}));
    int64_t revision = 0;
    if (!etcd_json::read_header_revision(reply.body, &revision) || revision <= 0) {
        return malformed(reply, kPath, "no revision");
    }
    return revision;
}

Result<int64_t> EtcdClient::delete_range(const std::string& key, bool prefix) const {
    static constexpr std::string_view kPath = "/v3/kv/deleterange";
    TESSEL_ASSIGN_OR_RETURN(auto reply,
                            transport_->call({kPath, range_request(key, prefix).dump()}));
    int64_t revision = 0;
    if (!etcd_json::read_header_revision(reply.body, &revision) || revision <= 0) {
        return malformed(reply, kPath, "no revision");
    }
    return revision;
}

Result<int64_t> EtcdClient::erase(const std::string& key) const {
    return delete_range(key, false);
}

Result<int64_t> EtcdClient::erase_prefix(const std::string& prefix) const {
    return delete_range(prefix, true);
}

Result<TxnResult> EtcdClient::txn(const std::vector<Compare>& compares,
                                  const std::vector<TxnOp>& success,
                                  const std::vector<TxnOp>& failure) const {
    static constexpr std::string_view kPath = "/v3/kv/txn";
    Json request = Json::object();
    Json compare_list = Json::array();
    for (const auto& c : compares)
        compare_list.push_back(compare_json(c));
    request["compare"] = std::move(compare_list);
    request["success"] = ops_json(success);
    request["failure"] = ops_json(failure);
    // Only a transaction with nothing but reads may be retried elsewhere.
    bool read_only = true;
    for (const auto* branch : {&success, &failure}) {
        for (const auto& op : *branch)
            read_only = read_only && op.kind == TxnOp::Kind::kRange;
    }
    TESSEL_ASSIGN_OR_RETURN(auto reply, transport_->call({kPath, request.dump(), read_only}));

    TxnResult out;
    if (!etcd_json::read_header_revision(reply.body, &out.revision) || out.revision <= 0) {
        return malformed(reply, kPath, "no revision");
    }
    if (!etcd_json::read_bool(reply.body, "succeeded", &out.succeeded)) {
        return malformed(reply, kPath, "bad \"succeeded\"");
    }
    const auto& ran = out.succeeded ? success : failure;
    size_t expected_ranges = 0;
    for (const auto& op : ran)
        expected_ranges += op.kind == TxnOp::Kind::kRange ? 1 : 0;
    const Json* responses = etcd_json::member(reply.body, "responses");
    if (responses && !responses->is_null()) {
        if (!responses->is_array()) return malformed(reply, kPath, "\"responses\" is not a list");
        for (const Json& response : *responses) {
            const Json* range = etcd_json::member(response, "response_range");
            if (!range) continue;
            std::string what;
            auto page = etcd_json::read_range_page(*range, &what);
            if (!page) return malformed(reply, kPath, what);
            out.ranges.push_back(std::move(page->result));
        }
    }
    if (out.ranges.size() != expected_ranges) {
        return malformed(reply, kPath,
                         fmt::format("{} range results for {} range operations", out.ranges.size(),
                                     expected_ranges));
    }
    return out;
}

Result<Lease> EtcdClient::grant_lease(int64_t ttl_seconds) const {
    static constexpr std::string_view kPath = "/v3/lease/grant";
    if (ttl_seconds <= 0) return Status::invalid("a lease needs a positive TTL");
    Json request = Json::object();
    request["TTL"] = std::to_string(ttl_seconds);
    TESSEL_ASSIGN_OR_RETURN(auto reply, transport_->call({kPath, request.dump()}));
    Lease lease;
    if (!etcd_json::read_int64(reply.body, "ID", &lease.id) || lease.id == 0 ||
        !etcd_json::read_int64(reply.body, "TTL", &lease.ttl_seconds) || lease.ttl_seconds <= 0) {
        return malformed(reply, kPath, "no lease id or TTL");
    }
    return lease;
}

Result<int64_t> EtcdClient::keep_alive_once(int64_t lease_id, std::chrono::milliseconds timeout,
                                            const std::atomic<bool>* cancel) const {
    static constexpr std::string_view kPath = "/v3/lease/keepalive";
    EtcdCall call{kPath, lease_request(lease_id).dump(), /*idempotent=*/true};
    call.timeout = timeout;
    call.cancel = cancel;
    TESSEL_ASSIGN_OR_RETURN(auto reply, transport_->call(call));
    int64_t ttl = 0;
    if (!etcd_json::read_int64(reply.body, "TTL", &ttl)) return malformed(reply, kPath, "bad TTL");
    return ttl < 0 ? 0 : ttl;
}

Status EtcdClient::revoke_lease(int64_t lease_id) const {
    static constexpr std::string_view kPath = "/v3/lease/revoke";
    int64_t code = 0;
    auto reply =
        transport_->call({kPath, lease_request(lease_id).dump(), /*idempotent=*/true}, &code);
    if (!reply.is_ok() && code != kGrpcNotFound) return reply.status();
    return Status::ok();
}

std::unique_ptr<EtcdWatch> EtcdClient::watch_prefix(const std::string& prefix,
                                                    int64_t start_revision,
                                                    WatchCallback callback) const {
    return std::make_unique<EtcdWatch>(transport_, prefix, start_revision, std::move(callback));
}

}  // namespace tessel::cluster
