#include "cluster/control_plane.h"
#include "common/wall_clock.h"

#include <openssl/rand.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <thread>

namespace tessel::cluster {
namespace {

bool same_endpoint(const NodeInfo& a, const NodeInfo& b) {
    return (a.listen_address == b.listen_address && a.storage_port == b.storage_port) ||
           (a.rpc_address == b.rpc_address && a.native_port == b.native_port);
}

}  // namespace

ControlPlane::ControlPlane(ControlPlaneOptions options, NodeInfo self, Membership* membership,
                           EtcdClient etcd)
    : options_(std::move(options)),
      self_(std::move(self)),
      membership_(membership),
      etcd_(std::move(etcd)),
      prefix_("/tessel/" + options_.cluster_name + "/") {}

ControlPlane::~ControlPlane() {
    stopping_ = true;
    watch_.reset();
    if (relister_.joinable()) relister_.join();
    std::lock_guard lock(mu_);
    lease_.reset();  // revokes the lease: the others see this node down at once
}

std::string ControlPlane::node_key(const std::string& host_id) const {
    return prefix_ + "nodes/" + host_id_hex(host_id);
}

std::string ControlPlane::removed_key(const std::string& host_id) const {
    return prefix_ + "removed/" + host_id_hex(host_id);
}

std::string ControlPlane::alive_key(const std::string& host_id) const {
    return prefix_ + "alive/" + host_id_hex(host_id);
}

std::string ControlPlane::tablets_key(const std::string& table_id) const {
    return prefix_ + "tablets/" + table_id;
}

Result<std::unique_ptr<ControlPlane>> ControlPlane::start(ControlPlaneOptions options,
                                                          NodeInfo self, Membership* membership) {
    TESSEL_ASSIGN_OR_RETURN(auto etcd, EtcdClient::create(options.etcd));
    std::unique_ptr<ControlPlane> cp(
        new ControlPlane(std::move(options), std::move(self), membership, std::move(etcd)));
    TESSEL_RETURN_IF_ERROR(cp->join());
    TESSEL_RETURN_IF_ERROR(cp->keep_alive());
    TESSEL_RETURN_IF_ERROR(cp->read_membership());
    return cp;
}

Status ControlPlane::join() {
    const std::string topology = prefix_ + "topology";
    TESSEL_ASSIGN_OR_RETURN(auto removed, etcd_.get(removed_key(self_.host_id)));
    if (!removed.kvs.empty()) {
        return Status::config("Cannot join cluster '" + options_.cluster_name + "': this node (" +
                              host_id_hex(self_.host_id) +
                              ") left it (decommission or removenode) and may not come back "
                              "with its old data; empty its data directory to join as a new "
                              "node");
    }
    for (int attempt = 0; attempt < 20; ++attempt) {
        TESSEL_ASSIGN_OR_RETURN(auto nodes, etcd_.get_prefix(prefix_ + "nodes/"));
        TESSEL_ASSIGN_OR_RETURN(auto topo, etcd_.get(topology));
        std::vector<NodeInfo> others;
        std::optional<NodeInfo> mine;
        for (const auto& kv : nodes.kvs) {
            auto n = decode_node(kv.value);
            if (!n.is_ok()) return n.status();
            if (n->host_id == self_.host_id) {
                mine = *n;
                continue;
            }
            if (same_endpoint(*n, self_)) {
                return Status::config("Cannot join cluster '" + options_.cluster_name +
                                      "': address " + self_.listen_address +
                                      " is already used by node " + host_id_hex(n->host_id) +
                                      " (remove it with tessel-admin removenode first)");
            }
            others.push_back(std::move(*n));
        }
        // A node rejoining keeps its tokens (its data is placed by them).
        self_.tokens = mine && !mine->tokens.empty()
                           ? mine->tokens
                           : Ring::allocate_tokens(others, options_.num_tokens);
        // A restart keeps the state (a leaving node goes on leaving); a new
        // node joins, unless it is the first one: nothing to join then.
        if (mine && mine->state != NodeState::kJoining) {
            self_.state = mine->state;
        } else {
            self_.state = others.empty() ? NodeState::kNormal : NodeState::kJoining;
        }
        state_ = self_.state;
        const int64_t seen = topo.kvs.empty() ? 0 : topo.kvs[0].mod_revision;
        std::vector<Compare> compares{Compare::mod_revision_is(topology, Compare::Op::kEqual, seen),
                                      Compare::absent(removed_key(self_.host_id))};
        std::vector<TxnOp> ops{TxnOp::put(node_key(self_.host_id), encode_node(self_)),
                               TxnOp::put(topology, host_id_hex(self_.host_id))};
        TESSEL_ASSIGN_OR_RETURN(auto txn, etcd_.txn(compares, ops, {}));
        if (txn.succeeded) {
            spdlog::info("joined cluster '{}' as {} ({} tokens, {} other nodes)",
                         options_.cluster_name, host_id_hex(self_.host_id), self_.tokens.size(),
                         others.size());
            return Status::ok();
        }
        // Another node joined meanwhile: allocate against the new ring.
        std::this_thread::sleep_for(std::chrono::milliseconds(20 * (attempt + 1)));
    }
    return Status::server("Cannot join cluster '" + options_.cluster_name +
                          "': too many nodes joining at once, try again");
}

Status ControlPlane::keep_alive() {
    TESSEL_ASSIGN_OR_RETURN(auto keeper,
                            LeaseKeeper::start(etcd_, options_.lease_ttl_seconds,
                                               [this](const Status& why) { on_lease_lost(why); }));
    std::lock_guard lock(mu_);
    if (alive_.started_at_ms == 0) alive_.started_at_ms = wall_clock_ms();
    auto put = etcd_.put(alive_key(self_.host_id), encode_alive(alive_), keeper->lease_id());
    if (!put.is_ok()) return put.status();
    lease_ = std::move(keeper);
    return Status::ok();
}

void ControlPlane::on_lease_lost(const Status& why) {
    if (stopping_) return;
    spdlog::warn("etcd lease of this node lost ({}); registering again", why.message());
    // The keeper reports on its own thread and must not be destroyed there:
    // a helper thread takes a new lease until it succeeds.
    std::lock_guard lock(mu_);
    if (relister_.joinable()) return;  // already at it
    relister_ = std::thread([this] {
        while (!stopping_) {
            if (keep_alive().is_ok()) break;
            std::this_thread::sleep_for(std::chrono::seconds(1));
        }
    });
}

Status ControlPlane::set_state(NodeState state) {
    NodeInfo record;
    {
        std::lock_guard lock(mu_);
        record = self_;
    }
    record.state = state;
    // Only while the record is there: a node that left stays gone.
    const std::string key = node_key(record.host_id);
    TESSEL_ASSIGN_OR_RETURN(auto txn,
                            etcd_.txn({Compare::create_revision_is(key, Compare::Op::kGreater, 0)},
                                      {TxnOp::put(key, encode_node(record))}, {}));
    if (!txn.succeeded) return Status::invalid("This node is no longer a member of the cluster");
    state_ = state;
    spdlog::info("this node is now {}", node_state_name(state));
    return Status::ok();
}

Status ControlPlane::leave() {
    const std::string& host = self_.host_id;
    TESSEL_ASSIGN_OR_RETURN(
        auto txn, etcd_.txn({},
                            {TxnOp::erase(node_key(host)),
                             TxnOp::put(removed_key(host), std::to_string(wall_clock_ms()))},
                            {}));
    (void)txn;
    stopping_ = true;  // no re-registering from here on
    std::unique_ptr<LeaseKeeper> lease;
    {
        std::lock_guard lock(mu_);
        lease = std::move(lease_);
    }
    lease.reset();  // revokes the lease: the alive record goes
    spdlog::info("this node left cluster '{}'", options_.cluster_name);
    return Status::ok();
}

Status ControlPlane::remove_node(const std::string& host_id) {
    if (host_id == self_.host_id) {
        return Status::invalid("Cannot remove self: use decommission to make this node leave");
    }
    const std::string key = node_key(host_id);
    TESSEL_ASSIGN_OR_RETURN(auto record, etcd_.get(key));
    if (record.kvs.empty()) return Status::invalid("Host ID not found: " + host_id_hex(host_id));
    auto node = decode_node(record.kvs[0].value);
    if (!node.is_ok()) return node.status();
    TESSEL_ASSIGN_OR_RETURN(
        auto txn,
        etcd_.txn(
            {Compare::absent(alive_key(host_id)),
             Compare::mod_revision_is(key, Compare::Op::kEqual, record.kvs[0].mod_revision)},
            {TxnOp::erase(key), TxnOp::put(removed_key(host_id), std::to_string(wall_clock_ms()))},
            {}));
    if (!txn.succeeded) {
        return Status::invalid("Node " + node->listen_address + ":" +
                               std::to_string(node->storage_port) +
                               " is alive and owns this ID. Use decommission command to remove "
                               "it from the ring");
    }
    spdlog::info("removed node {} ({}) from the cluster", host_id_hex(host_id),
                 node->listen_address);
    return Status::ok();
}

Status ControlPlane::report(const AliveInfo& alive) {
    std::lock_guard lock(mu_);
    const int64_t started = alive_.started_at_ms;
    alive_ = alive;
    alive_.started_at_ms = started;
    if (!lease_) return Status::server("etcd lease not held");
    auto put = etcd_.put(alive_key(self_.host_id), encode_alive(alive_), lease_->lease_id());
    return put.is_ok() ? Status::ok() : put.status();
}

Status ControlPlane::read_membership() {
    TESSEL_ASSIGN_OR_RETURN(auto all, etcd_.get_prefix(prefix_));
    std::map<std::string, NodeInfo> nodes;
    std::map<std::string, AliveInfo> alive;
    for (const auto& kv : all.kvs) {
        const std::string_view rest = std::string_view(kv.key).substr(prefix_.size());
        if (rest.rfind("nodes/", 0) == 0) {
            auto n = decode_node(kv.value);
            if (n.is_ok()) nodes[n->host_id] = std::move(*n);
        } else if (rest.rfind("alive/", 0) == 0) {
            auto host = host_id_from_hex(rest.substr(6));
            auto a = decode_alive(kv.value);
            if (host.is_ok() && a.is_ok()) alive[*host] = std::move(*a);
        }
    }
    membership_->set_records(std::move(nodes), std::move(alive));
    start_revision_ = all.revision;
    return Status::ok();
}

void ControlPlane::watch(Listener listener) {
    listener_ = std::move(listener);
    watch_ = etcd_.watch_prefix(prefix_, start_revision_ + 1,
                                [this](const WatchBatch& b) { on_watch(b); });
}

void ControlPlane::on_watch(const WatchBatch& batch) {
    if (batch.compacted) {
        // Events were lost: read everything again and watch from there.
        spdlog::warn("etcd history compacted past this node's watch; reloading cluster state");
        if (!read_membership().is_ok()) return;
        if (listener_.on_schema) listener_.on_schema(start_revision_);
        auto maps = etcd_.get_prefix(tablets_prefix(), start_revision_);
        if (maps.is_ok() && listener_.on_tablets) {
            for (const auto& kv : maps->kvs) {
                listener_.on_tablets(kv.key.substr(tablets_prefix().size()), kv.value,
                                     start_revision_);
            }
        }
        // (A watch may be replaced from its own callback.)
        watch_ = etcd_.watch_prefix(prefix_, start_revision_ + 1,
                                    [this](const WatchBatch& b) { on_watch(b); });
        return;
    }
    bool schema = false;
    int64_t schema_revision = 0;
    for (const auto& e : batch.events) {
        const std::string_view rest = std::string_view(e.kv.key).substr(prefix_.size());
        const bool put = e.type == WatchEvent::Type::kPut;
        if (rest.rfind("nodes/", 0) == 0) {
            auto host = host_id_from_hex(rest.substr(6));
            if (!host.is_ok()) continue;
            std::optional<NodeInfo> node;
            if (put) {
                auto n = decode_node(e.kv.value);
                if (!n.is_ok()) continue;
                node = std::move(*n);
            }
            membership_->set_node(*host, std::move(node));
        } else if (rest.rfind("alive/", 0) == 0) {
            auto host = host_id_from_hex(rest.substr(6));
            if (!host.is_ok()) continue;
            std::optional<AliveInfo> alive;
            if (put) {
                auto a = decode_alive(e.kv.value);
                if (!a.is_ok()) continue;
                alive = std::move(*a);
            }
            membership_->set_alive(*host, std::move(alive));
        } else if (rest.rfind("tablets/", 0) == 0) {
            if (listener_.on_tablets) {
                listener_.on_tablets(std::string(rest.substr(8)),
                                     put ? std::optional<std::string>(e.kv.value) : std::nullopt,
                                     e.kv.mod_revision);
            }
        } else if (rest.rfind("schema/", 0) == 0) {
            schema = true;
            schema_revision = std::max(schema_revision, e.kv.mod_revision);
        }
    }
    // After the tablet maps: a table created in the same transaction finds its map.
    if (schema && listener_.on_schema) listener_.on_schema(schema_revision);
}

Result<std::string> ControlPlane::cluster_secret() {
    const std::string key = prefix_ + "secret";
    std::string fresh(32, '\0');
    if (RAND_bytes(reinterpret_cast<unsigned char*>(fresh.data()), 32) != 1) {
        return Status::server("Cannot generate the cluster secret");
    }
    auto created = etcd_.txn({Compare::absent(key)}, {TxnOp::put(key, fresh)}, {});
    if (!created.is_ok()) return created.status();
    TESSEL_ASSIGN_OR_RETURN(auto got, etcd_.get(key));
    if (got.kvs.empty() || got.kvs[0].value.size() != 32) {
        return Status::server("The cluster secret in etcd is missing or damaged");
    }
    return got.kvs[0].value;
}

}  // namespace tessel::cluster
