// Splits shell input into complete CQL statements.
//
// A statement ends at a ';' outside string literals, quoted identifiers and
// comments, except inside BEGIN ... APPLY BATCH, whose inner statements end
// with ';' too. Text after the last ';' stays pending until more input arrives.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tessel::shell {

class StatementSplitter {
  public:
    // Appends input and returns the statements it completed (without the ';',
    // trimmed; empty statements are dropped).
    std::vector<std::string> feed(std::string_view input);
    // Text still waiting for its ';' (trimmed).
    std::string pending() const;
    bool has_pending() const { return !pending().empty(); }
    void clear() { buffer_.clear(); }

  private:
    std::string buffer_;
};

// Strips leading/trailing whitespace.
std::string trim(std::string_view s);

}  // namespace tessel::shell
