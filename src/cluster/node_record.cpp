#include "cluster/node_record.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace tessel::cluster {
namespace {

using json = nlohmann::json;

Status bad(const std::string& what) {
    return Status::server("Malformed node record in etcd: " + what);
}

// Reads `key` of the expected JSON type, or says what is wrong.
template <class T>
Status field(const json& j, const char* key, T* out) {
    auto it = j.find(key);
    if (it == j.end()) return bad(std::string("missing ") + key);
    try {
        *out = it->get<T>();
    } catch (const json::exception&) {
        return bad(std::string("wrong type for ") + key);
    }
    return Status::ok();
}

Result<json> parse(std::string_view text) {
    json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object()) return bad("not a JSON object");
    return j;
}

}  // namespace

std::string host_id_hex(std::string_view host_id) {
    static const char* kHex = "0123456789abcdef";
    std::string out;
    for (unsigned char c : host_id) {
        out.push_back(kHex[c >> 4]);
        out.push_back(kHex[c & 15]);
    }
    return out;
}

Result<std::string> host_id_from_hex(std::string_view hex) {
    if (hex.size() != 32) return bad("host id is not 32 hex digits");
    std::string out;
    auto nibble = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    };
    for (size_t i = 0; i < hex.size(); i += 2) {
        const int hi = nibble(hex[i]), lo = nibble(hex[i + 1]);
        if (hi < 0 || lo < 0) return bad("host id is not hex");
        out.push_back(static_cast<char>(hi * 16 + lo));
    }
    return out;
}

std::string encode_node(const NodeInfo& n) {
    json tokens = json::array();
    // As strings: JSON readers may keep 64-bit integers in doubles.
    for (int64_t t : n.tokens)
        tokens.push_back(std::to_string(t));
    json j = {{"host_id", host_id_hex(n.host_id)},
              {"rpc_address", n.rpc_address},
              {"native_port", n.native_port},
              {"listen_address", n.listen_address},
              {"storage_port", n.storage_port},
              {"dc", n.dc},
              {"rack", n.rack},
              {"tokens", tokens},
              {"state", node_state_name(n.state)},
              {"release_version", n.release_version}};
    return j.dump();
}

Result<NodeInfo> decode_node(std::string_view text) {
    TESSEL_ASSIGN_OR_RETURN(json j, parse(text));
    NodeInfo n;
    std::string hex, state;
    std::vector<std::string> tokens;
    TESSEL_RETURN_IF_ERROR(field(j, "host_id", &hex));
    TESSEL_ASSIGN_OR_RETURN(n.host_id, host_id_from_hex(hex));
    TESSEL_RETURN_IF_ERROR(field(j, "rpc_address", &n.rpc_address));
    TESSEL_RETURN_IF_ERROR(field(j, "native_port", &n.native_port));
    TESSEL_RETURN_IF_ERROR(field(j, "listen_address", &n.listen_address));
    TESSEL_RETURN_IF_ERROR(field(j, "storage_port", &n.storage_port));
    TESSEL_RETURN_IF_ERROR(field(j, "dc", &n.dc));
    TESSEL_RETURN_IF_ERROR(field(j, "rack", &n.rack));
    TESSEL_RETURN_IF_ERROR(field(j, "tokens", &tokens));
    TESSEL_RETURN_IF_ERROR(field(j, "state", &state));
    TESSEL_RETURN_IF_ERROR(field(j, "release_version", &n.release_version));
    for (const auto& t : tokens) {
        try {
            size_t used = 0;
            n.tokens.push_back(std::stoll(t, &used));
            if (used != t.size()) return bad("token " + t);
        } catch (const std::exception&) {
            return bad("token " + t);
        }
    }
    std::sort(n.tokens.begin(), n.tokens.end());
    if (state == "JOINING") {
        n.state = NodeState::kJoining;
    } else if (state == "LEAVING") {
        n.state = NodeState::kLeaving;
    } else if (state == "NORMAL") {
        n.state = NodeState::kNormal;
    } else {
        return bad("state " + state);
    }
    return n;
}

std::string encode_alive(const AliveInfo& a) {
    json j = {{"schema_version", host_id_hex(a.schema_version)},
              {"load_bytes", a.load_bytes},
              {"started_at_ms", a.started_at_ms}};
    return j.dump();
}

Result<AliveInfo> decode_alive(std::string_view text) {
    TESSEL_ASSIGN_OR_RETURN(json j, parse(text));
    AliveInfo a;
    std::string version;
    TESSEL_RETURN_IF_ERROR(field(j, "schema_version", &version));
    TESSEL_ASSIGN_OR_RETURN(a.schema_version, host_id_from_hex(version));
    TESSEL_RETURN_IF_ERROR(field(j, "load_bytes", &a.load_bytes));
    TESSEL_RETURN_IF_ERROR(field(j, "started_at_ms", &a.started_at_ms));
    return a;
}

}  // namespace tessel::cluster
