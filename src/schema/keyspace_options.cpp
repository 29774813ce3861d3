#include "schema/keyspace_options.h"

#include <fmt/format.h>

#include <cctype>
#include <cstdint>
#include <optional>
#include <vector>

namespace tessel {
namespace {

constexpr std::string_view kLocatorPrefix = "org.apache.cassandra.locator.";

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(a[i])) !=
            std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    }
    return true;
}

// Java's Integer.parseInt: an optional sign, then at least one decimal digit,
// within int32. Its NumberFormatException text is Cassandra's message.
Result<int32_t> parse_java_int(std::string_view text) {
    auto fail = [&] { return Status::config("For input string: \"" + std::string(text) + "\""); };
    std::string_view digits = text;
    bool negative = false;
    if (!digits.empty() && (digits.front() == '+' || digits.front() == '-')) {
        negative = digits.front() == '-';
        digits.remove_prefix(1);
    }
    if (digits.empty()) return fail();
    int64_t n = 0;
    for (char c : digits) {
        if (c < '0' || c > '9') return fail();
        n = n * 10 + (c - '0');
        if (n > int64_t{INT32_MAX} + 1) return fail();
    }
    if (negative) n = -n;
    if (n > INT32_MAX || n < INT32_MIN) return fail();
    return static_cast<int32_t>(n);
}

// Java's String.split("/"): trailing empty parts are dropped.
std::vector<std::string_view> split_slash(std::string_view text) {
    std::vector<std::string_view> parts;
    size_t from = 0;
    for (;;) {
        size_t at = text.find('/', from);
        if (at == std::string_view::npos) {
            parts.push_back(text.substr(from));
            break;
        }
        parts.push_back(text.substr(from, at - from));
        from = at + 1;
    }
    while (!parts.empty() && parts.back().empty())
        parts.pop_back();
    return parts;
}

// NetworkTopologyStrategy.prepareOptions: 'replication_factor' becomes one
// entry per known data centre the map leaves out; zero factors are dropped.
void expand_datacenters(StringMap& options, const std::set<std::string>& datacenters,
                        const StringMap& previous) {
    std::optional<std::string> replication;
    if (auto rf = options.find("replication_factor"); rf != options.end()) {
        replication = rf->second;
        options.erase(rf);
    }
    if (!replication && options.empty()) {
        // ALTER from SimpleStrategy to NetworkTopologyStrategy.
        if (auto rf = previous.find("replication_factor"); rf != previous.end()) {
            replication = rf->second;
        }
    } else if (replication) {
        // ALTER keeps the data centres already configured.
        for (const auto& [k, v] : previous) {
            if (k != "replication_factor" && k != "class") options.try_emplace(k, v);
        }
    }
    if (replication) {
        // Cassandra calls this hook reflectively and ignores what it throws:
        // an unreadable factor expands to nothing (and is reported later only
        // if no data centre remains).
        auto rf = parse_replication_factor(*replication);
        if (rf.is_ok()) {
            for (const auto& dc : datacenters)
                options.try_emplace(dc, std::to_string(*rf));
        }
    }
    std::erase_if(options, [](const auto& e) { return e.second == "0"; });
}

Status validate_network_topology(const StringMap& options, std::string_view keyspace,
                                 const std::set<std::string>& datacenters) {
    // The strategy's constructor reads every factor first.
    for (const auto& [dc, rf] : options) {
        if (iequals(dc, "replication_factor")) {
            return Status::config(
                "replication_factor should not appear as an option at construction time for "
                "NetworkTopologyStrategy");
        }
        TESSEL_RETURN_IF_ERROR(parse_replication_factor(rf));
    }
    if (options.empty()) {
        return Status::config("Configuration for at least one datacenter must be present");
    }
    for (const auto& [dc, _] : options) {
        if (!datacenters.contains(dc)) {
            return Status::config(fmt::format(
                "Unrecognized strategy option {{{}}} passed to NetworkTopologyStrategy for "
                "keyspace {}",
                dc, keyspace));
        }
    }
    return Status::ok();
}

}  // namespace

Result<int32_t> parse_replication_factor(std::string_view text) {
    int32_t replicas = 0;
    int32_t transient = 0;
    if (text.find('/') != std::string_view::npos) {
        auto parts = split_slash(text);
        if (parts.size() != 2) {
            return Status::config(
                "Replication factor format is <replicas> or <replicas>/<transient>");
        }
        TESSEL_ASSIGN_OR_RETURN(replicas, parse_java_int(parts[0]));
        TESSEL_ASSIGN_OR_RETURN(transient, parse_java_int(parts[1]));
    } else {
        TESSEL_ASSIGN_OR_RETURN(replicas, parse_java_int(text));
    }
    // ReplicationFactor.validate, with transient replication disabled.
    if (transient != 0) return Status::config("Transient replication is not enabled on this node");
    if (replicas < 0) {
        return Status::config(
            fmt::format("Replication factor must be non-negative, found {}", replicas));
    }
    return replicas;
}

std::vector<std::string> replication_warnings(
    const StringMap& normalized, std::string_view keyspace,
    const std::map<std::string, int>& nodes_per_datacenter) {
    std::vector<std::string> out;
    auto cls = normalized.find("class");
    if (cls == normalized.end()) return out;
    const std::string simple = short_strategy_name(cls->second);
    if (simple == "SimpleStrategy") {
        auto rf = normalized.find("replication_factor");
        if (rf == normalized.end()) return out;
        auto n = parse_replication_factor(rf->second);
        int nodes = 0;
        for (const auto& [_, count] : nodes_per_datacenter)
            nodes += count;
        if (n.is_ok() && *n > nodes && nodes != 0) {
            out.push_back(fmt::format(
                "Your replication factor {} for keyspace {} is higher than the number of nodes {}",
                *n, keyspace, nodes));
        }
    } else if (simple == "NetworkTopologyStrategy") {
        for (const auto& [dc, rf] : normalized) {
            if (dc == "class") continue;
            auto n = parse_replication_factor(rf);
            auto it = nodes_per_datacenter.find(dc);
            const int nodes = it == nodes_per_datacenter.end() ? 0 : it->second;
            if (n.is_ok() && *n > nodes) {
                out.push_back(fmt::format(
                    "Your replication factor {} for keyspace {} is higher than the number of "
                    "nodes {} for datacenter {}",
                    *n, keyspace, nodes, dc));
            }
        }
    }
    return out;
}

std::string short_strategy_name(std::string_view class_name) {
    if (class_name.starts_with(kLocatorPrefix)) class_name.remove_prefix(kLocatorPrefix.size());
    return std::string(class_name);
}

Status apply_keyspace_option(KeyspaceOptions& opts, std::string_view name,
                             const OptionValue& value) {
    if (name == "replication") {
        if (!value.is_map()) {
            return Status::syntax("Invalid value for property 'replication'. It should be a map.");
        }
        opts.replication = value.map;
    } else if (name == "durable_writes") {
        if (value.is_map()) {
            return Status::syntax(
                "Invalid value for property 'durable_writes'. It should be a string");
        }
        // PropertyDefinitions.getBoolean: anything but 1/true/yes is false.
        std::string l;
        for (char c : value.text)
            l.push_back(static_cast<char>(std::tolower(c)));
        opts.durable_writes = l == "1" || l == "true" || l == "yes";
    } else {
        return Status::syntax(fmt::format("Unknown property '{}'", name));
    }
    return Status::ok();
}

Result<StringMap> normalize_replication(const StringMap& replication, std::string_view keyspace,
                                        const std::set<std::string>& datacenters,
                                        const StringMap& previous) {
    StringMap out = replication;
    auto cls = out.find("class");
    if (cls == out.end()) return Status::config("Missing replication strategy class");
    std::string full = cls->second.find('.') == std::string::npos
                           ? std::string(kLocatorPrefix) + cls->second
                           : cls->second;
    std::string simple = short_strategy_name(full);
    if (!full.starts_with(kLocatorPrefix) ||
        (simple != "SimpleStrategy" && simple != "NetworkTopologyStrategy" &&
         simple != "LocalStrategy" && simple != "EverywhereStrategy")) {
        return Status::config(fmt::format("Unable to find replication strategy class '{}'", full));
    }
    if (simple == "LocalStrategy") {
        return Status::config(
            "Unable to use given strategy class: LocalStrategy is reserved for internal use.");
    }
    out.erase("class");
    if (simple == "SimpleStrategy") {
        auto rf = out.find("replication_factor");
        if (rf == out.end()) {
            return Status::config("SimpleStrategy requires a replication_factor strategy option.");
        }
        TESSEL_RETURN_IF_ERROR(parse_replication_factor(rf->second));
        for (const auto& [k, v] : out) {
            if (k != "replication_factor") {
                return Status::config(
                    fmt::format("Unrecognized strategy option {{{}}} passed to {} for keyspace {}",
                                k, simple, keyspace));
            }
        }
    } else if (simple == "NetworkTopologyStrategy") {
        expand_datacenters(out, datacenters, previous);
        TESSEL_RETURN_IF_ERROR(validate_network_topology(out, keyspace, datacenters));
    }
    out["class"] = full;
    return out;
}

}  // namespace tessel
