#include "cluster/messaging_context.h"

#include <algorithm>

namespace tessel::cluster::detail {

Handshake MessagingContext::hello(const std::string& address) const {
    Handshake h;
    h.min_version = kMinMessagingVersion;
    h.max_version = kMessagingVersion;
    h.cluster_name = options.cluster_name;
    h.host_id = options.host_id;
    h.address = address;
    h.port = local_port;
    return h;
}

Handshake MessagingContext::accept_reply(uint16_t version) const {
    Handshake h = hello(options.listen_address);
    h.min_version = version;
    h.max_version = version;
    return h;
}

std::optional<uint16_t> MessagingContext::negotiate(uint16_t their_min, uint16_t their_max) {
    const uint16_t hi = std::min(their_max, kMessagingVersion);
    const uint16_t lo = std::max(their_min, kMinMessagingVersion);
    if (hi < lo) return std::nullopt;
    return hi;
}

std::string MessagingContext::check_hello(const Handshake& h, const std::string& remote_ip) const {
    if (h.refused) return "a hello must not be a refusal";
    if (!negotiate(h.min_version, h.max_version)) {
        return "it speaks messaging versions " + std::to_string(h.min_version) + ".." +
               std::to_string(h.max_version) + ", this node " +
               std::to_string(kMinMessagingVersion) + ".." + std::to_string(kMessagingVersion);
    }
    if (h.cluster_name != options.cluster_name) {
        return "its cluster name '" + h.cluster_name + "' is not this node's '" +
               options.cluster_name + "'";
    }
    // The address a node claims must be the one it connects from, so the
    // peer filter judges an address that cannot be forged by a field.
    asio::error_code ec;
    const auto claimed = asio::ip::make_address(h.address, ec);
    if (ec || ip_text(claimed) != remote_ip) {
        return "it claims the address '" + h.address + "' but connects from " + remote_ip;
    }
    if (h.port == 0) return "it names no storage port";
    if (filter && !filter(remote_ip, h.host_id)) {
        return "the peer filter refuses it (not a registered node)";
    }
    return {};
}

std::string MessagingContext::check_reply(const Handshake& h) const {
    if (h.refused) return "it refused this node: " + h.reason;
    if (h.min_version != h.max_version || !negotiate(h.min_version, h.max_version)) {
        return "it answered with messaging version " + std::to_string(h.max_version) +
               ", which this node does not speak";
    }
    if (h.cluster_name != options.cluster_name) {
        return "its cluster name '" + h.cluster_name + "' is not this node's '" +
               options.cluster_name + "'";
    }
    return {};
}

std::shared_ptr<PeerClock> MessagingContext::clock(const PeerAddress& peer) {
    std::lock_guard lock(mu_);
    auto& c = clocks_[peer];
    if (!c) c = std::make_shared<PeerClock>();
    return c;
}

std::shared_ptr<PeerClock> MessagingContext::find_clock(const PeerAddress& peer) const {
    std::lock_guard lock(mu_);
    auto it = clocks_.find(peer);
    return it == clocks_.end() ? nullptr : it->second;
}

void MessagingContext::add_inbound(const std::shared_ptr<InboundConnection>& c) {
    std::lock_guard lock(mu_);
    inbound_[c.get()] = c;
}

void MessagingContext::remove_inbound(const InboundConnection* c) {
    std::lock_guard lock(mu_);
    inbound_.erase(c);
}

std::vector<std::shared_ptr<InboundConnection>> MessagingContext::take_inbound() {
    std::lock_guard lock(mu_);
    std::vector<std::shared_ptr<InboundConnection>> out;
    for (auto& [ptr, weak] : inbound_) {
        if (auto c = weak.lock()) out.push_back(std::move(c));
    }
    inbound_.clear();
    return out;
}

std::string ip_text(const asio::ip::address& address) {
    if (address.is_v6() && address.to_v6().is_v4_mapped()) {
        return asio::ip::make_address_v4(asio::ip::v4_mapped, address.to_v6()).to_string();
    }
    return address.to_string();
}

}  // namespace tessel::cluster::detail
