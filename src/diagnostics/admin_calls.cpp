#include "diagnostics/admin_calls.h"

#include <fmt/format.h>

#include <cctype>
#include <vector>

namespace tessel::diagnostics {

namespace {

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool is_ident(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.';
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string quote(std::string_view s) {
    std::string out = "'";
    for (char c : s) {
        out += c;
        if (c == '\'') out += '\'';
    }
    return out + "'";
}

class Cursor {
  public:
    explicit Cursor(std::string_view s) : s_(s) {}
    void skip() {
        while (pos_ < s_.size() && is_space(s_[pos_]))
            ++pos_;
    }
    bool at_end() {
        skip();
        return pos_ >= s_.size();
    }
    bool eat(char c) {
        skip();
        if (pos_ < s_.size() && s_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }
    std::string_view word() {
        skip();
        size_t start = pos_;
        while (pos_ < s_.size() && is_ident(s_[pos_]))
            ++pos_;
        return s_.substr(start, pos_ - start);
    }
    // A string literal; nullopt when there is none or it is unterminated.
    std::optional<std::string> literal() {
        skip();
        if (pos_ >= s_.size() || s_[pos_] != '\'') return std::nullopt;
        std::string out;
        for (size_t i = pos_ + 1; i < s_.size(); ++i) {
            if (s_[i] != '\'') {
                out += s_[i];
            } else if (i + 1 < s_.size() && s_[i + 1] == '\'') {
                out += '\'';
                ++i;
            } else {
                pos_ = i + 1;
                return out;
            }
        }
        return std::nullopt;
    }

  private:
    std::string_view s_;
    size_t pos_ = 0;
};

}  // namespace

std::optional<Result<AdminCall>> parse_admin_call(std::string_view cql) {
    Cursor c(cql);
    if (lower(c.word()) != "call") return std::nullopt;
    std::string proc = lower(c.word());
    AdminCall call;
    if (proc == "system.flush") {
        call.op = AdminCall::Op::kFlush;
    } else if (proc == "system.compact") {
        call.op = AdminCall::Op::kCompact;
    } else if (proc == "system.repair") {
        call.op = AdminCall::Op::kRepair;
    } else if (proc == "system.decommission") {
        call.op = AdminCall::Op::kDecommission;
    } else if (proc == "system.removenode") {
        call.op = AdminCall::Op::kRemoveNode;
    } else {
        return Result<AdminCall>(Status::invalid(
            fmt::format("Unknown procedure '{}': expected system.flush, system.compact, "
                        "system.repair, system.decommission or system.removenode",
                        proc)));
    }
    if (!c.eat('(')) {
        return Result<AdminCall>(
            Status::syntax(fmt::format("line 1: expected '(' after {} in CALL statement", proc)));
    }
    std::vector<std::string> args;
    if (!c.eat(')')) {
        for (;;) {
            auto lit = c.literal();
            if (!lit) {
                return Result<AdminCall>(Status::syntax(
                    fmt::format("line 1: {} takes string literals ('keyspace', 'table')", proc)));
            }
            args.push_back(std::move(*lit));
            if (c.eat(')')) break;
            if (!c.eat(',')) {
                return Result<AdminCall>(
                    Status::syntax(fmt::format("line 1: expected ',' or ')' in {}(...)", proc)));
            }
        }
    }
    c.eat(';');
    if (!c.at_end()) {
        return Result<AdminCall>(
            Status::syntax(fmt::format("line 1: unexpected text after {}(...)", proc)));
    }
    if (call.op == AdminCall::Op::kDecommission) {
        if (!args.empty()) {
            return Result<AdminCall>(
                Status::invalid(fmt::format("{} takes no arguments, got {}", proc, args.size())));
        }
        return Result<AdminCall>(std::move(call));
    }
    if (call.op == AdminCall::Op::kRemoveNode) {
        if (args.size() != 1 || args[0].empty()) {
            return Result<AdminCall>(Status::invalid(
                fmt::format("{} takes one argument, the host id of the node to remove", proc)));
        }
        call.host_id = std::move(args[0]);
        return Result<AdminCall>(std::move(call));
    }
    if (args.size() > 2) {
        return Result<AdminCall>(Status::invalid(fmt::format(
            "{} takes at most 2 arguments (keyspace, table), got {}", proc, args.size())));
    }
    if (!args.empty()) call.keyspace = args[0];
    if (args.size() == 2) call.table = args[1];
    if (args.size() >= 1 && call.keyspace.empty()) {
        return Result<AdminCall>(Status::invalid(fmt::format("{}: empty keyspace name", proc)));
    }
    if (args.size() == 2 && call.table.empty()) {
        return Result<AdminCall>(Status::invalid(fmt::format("{}: empty table name", proc)));
    }
    return Result<AdminCall>(std::move(call));
}

std::string_view admin_call_name(AdminCall::Op op) {
    switch (op) {
        case AdminCall::Op::kFlush:
            return "flush";
        case AdminCall::Op::kCompact:
            return "compact";
        case AdminCall::Op::kRepair:
            return "repair";
        case AdminCall::Op::kDecommission:
            return "decommission";
        case AdminCall::Op::kRemoveNode:
            return "removenode";
    }
    return "";
}

std::string admin_call_text(const AdminCall& call) {
    std::string out = fmt::format("CALL system.{}(", admin_call_name(call.op));
    if (call.op == AdminCall::Op::kRemoveNode) return out + quote(call.host_id) + ")";
    if (!call.keyspace.empty()) {
        out += quote(call.keyspace);
        if (!call.table.empty()) out += ", " + quote(call.table);
    }
    return out + ")";
}

}  // namespace tessel::diagnostics
