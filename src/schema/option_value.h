// OptionValue: the value of a WITH property as the CQL layer hands it over.
//
// Cassandra's grammar turns every scalar property value into its raw text and
// every {..} value into a map<string, string>, and each property then parses
// that text. OptionValue keeps the same shape: scalars carry their text (a
// string's content without quotes, a number or boolean as written), maps carry
// their entries with keys and values as text.
#pragma once

#include <map>
#include <string>
#include <utility>

namespace tessel {

struct OptionValue {
    enum class Kind { kString, kNumber, kBoolean, kMap };

    Kind kind = Kind::kString;
    std::string text;                        // scalars
    std::map<std::string, std::string> map;  // kMap

    bool is_map() const { return kind == Kind::kMap; }

    static OptionValue string(std::string s) { return {Kind::kString, std::move(s), {}}; }
    static OptionValue number(std::string s) { return {Kind::kNumber, std::move(s), {}}; }
    static OptionValue boolean(bool b) { return {Kind::kBoolean, b ? "true" : "false", {}}; }
    static OptionValue of_map(std::map<std::string, std::string> m) {
        return {Kind::kMap, {}, std::move(m)};
    }
};

}  // namespace tessel
