#include "schema/keyspace_options.h"

#include <fmt/format.h>

#include <cctype>
#include <charconv>

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

// Java's Integer.parseInt followed by Cassandra's non-negative check.
Status validate_replication_factor(const std::string& rf) {
    std::string_view text = rf;
    if (!text.empty() && (text.front() == '+')) text.remove_prefix(1);
    int32_t n = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (text.empty() || ec != std::errc() || p != text.data() + text.size()) {
        return Status::config("Replication factor must be numeric; found " + rf);
    }
    if (n < 0) return Status::config("Replication factor must be non-negative; found " + rf);
    return Status::ok();
}

}  // namespace

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

Result<StringMap> normalize_replication(const StringMap& replication, std::string_view keyspace) {
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
        TESSEL_RETURN_IF_ERROR(validate_replication_factor(rf->second));
        for (const auto& [k, v] : out) {
            if (k != "replication_factor") {
                return Status::config(
                    fmt::format("Unrecognized strategy option {{{}}} passed to {} for keyspace {}",
                                k, simple, keyspace));
            }
        }
    } else if (simple == "NetworkTopologyStrategy") {
        for (const auto& [dc, rf] : out) {
            if (iequals(dc, "replication_factor")) {
                return Status::config(
                    "replication_factor is an option for SimpleStrategy, not "
                    "NetworkTopologyStrategy");
            }
            TESSEL_RETURN_IF_ERROR(validate_replication_factor(rf));
        }
    }
    out["class"] = full;
    return out;
}

}  // namespace tessel
