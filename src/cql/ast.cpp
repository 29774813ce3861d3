#include "cql/ast.h"

#include <string>
#include <type_traits>

namespace tessel::cql {
namespace {

const char* auth_statement_kind_name(const AuthStatement& s) {
    using K = AuthStatement::Kind;
    switch (s.kind) {
        case K::kCreateRole:
            return s.user_syntax ? "CREATE USER" : "CREATE ROLE";
        case K::kAlterRole:
            return s.user_syntax ? "ALTER USER" : "ALTER ROLE";
        case K::kDropRole:
            return s.user_syntax ? "DROP USER" : "DROP ROLE";
        case K::kListRoles:
            return s.user_syntax ? "LIST USERS" : "LIST ROLES";
        case K::kGrantRole:
        case K::kGrantPermission:
            return "GRANT";
        case K::kRevokeRole:
        case K::kRevokePermission:
            return "REVOKE";
        case K::kListPermissions:
            break;
    }
    return "LIST PERMISSIONS";
}

}  // namespace

const char* statement_kind_name(const Statement& statement) {
    return std::visit(
        [](const auto& s) -> const char* {
            using T = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<T, UseStatement>)
                return "USE";
            else if constexpr (std::is_same_v<T, CreateKeyspaceStatement>)
                return "CREATE KEYSPACE";
            else if constexpr (std::is_same_v<T, AlterKeyspaceStatement>)
                return "ALTER KEYSPACE";
            else if constexpr (std::is_same_v<T, DropKeyspaceStatement>)
                return "DROP KEYSPACE";
            else if constexpr (std::is_same_v<T, CreateTableStatement>)
                return "CREATE TABLE";
            else if constexpr (std::is_same_v<T, AlterTableStatement>)
                return "ALTER TABLE";
            else if constexpr (std::is_same_v<T, DropTableStatement>)
                return "DROP TABLE";
            else if constexpr (std::is_same_v<T, TruncateStatement>)
                return "TRUNCATE";
            else if constexpr (std::is_same_v<T, CreateTypeStatement>)
                return "CREATE TYPE";
            else if constexpr (std::is_same_v<T, AlterTypeStatement>)
                return "ALTER TYPE";
            else if constexpr (std::is_same_v<T, DropTypeStatement>)
                return "DROP TYPE";
            else if constexpr (std::is_same_v<T, InsertStatement>)
                return "INSERT";
            else if constexpr (std::is_same_v<T, UpdateStatement>)
                return "UPDATE";
            else if constexpr (std::is_same_v<T, DeleteStatement>)
                return "DELETE";
            else if constexpr (std::is_same_v<T, BatchStatement>)
                return "BATCH";
            else if constexpr (std::is_same_v<T, SelectStatement>)
                return "SELECT";
            else if constexpr (std::is_same_v<T, AuthStatement>)
                return auth_statement_kind_name(s);
            else
                return "DESCRIBE";
        },
        statement.node);
}

std::string to_string(const TypeName& type) {
    std::string out;
    if (type.custom) {
        out = "'" + type.name + "'";
    } else {
        if (!type.keyspace.empty()) out = type.keyspace + ".";
        out += type.name;
        if (!type.params.empty()) {
            out += "<";
            for (std::size_t i = 0; i < type.params.size(); ++i) {
                if (i > 0) out += ", ";
                out += to_string(type.params[i]);
            }
            out += ">";
        }
    }
    return type.frozen ? "frozen<" + out + ">" : out;
}

namespace {

std::string quote(const std::string& s) {
    std::string out = "'";
    for (char c : s) {
        if (c == '\'') out += '\'';
        out += c;
    }
    return out + "'";
}

template <typename T, typename F>
std::string join(const std::vector<T>& items, F&& render) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0) out += ", ";
        out += render(items[i]);
    }
    return out;
}

const char* open_of(Literal::Kind k) {
    switch (k) {
        case Literal::Kind::kList:
            return "[";
        case Literal::Kind::kTuple:
            return "(";
        default:
            return "{";
    }
}

const char* close_of(Literal::Kind k) {
    switch (k) {
        case Literal::Kind::kList:
            return "]";
        case Literal::Kind::kTuple:
            return ")";
        default:
            return "}";
    }
}

}  // namespace

std::string to_string(const Literal& l) {
    using K = Literal::Kind;
    switch (l.kind) {
        case K::kNull:
            return "null";
        case K::kString:
            return quote(l.text);
        case K::kList:
        case K::kSet:
        case K::kTuple:
            return open_of(l.kind) +
                   join(l.elements, [](const Literal& e) { return to_string(e); }) +
                   close_of(l.kind);
        case K::kMap:
            return "{" +
                   join(l.entries,
                        [](const auto& e) {
                            return to_string(e.first) + ": " + to_string(e.second);
                        }) +
                   "}";
        case K::kUdt:
            return "{" +
                   join(l.fields,
                        [](const auto& f) { return f.first + ": " + to_string(f.second); }) +
                   "}";
        default:
            return l.text;
    }
}

std::string to_string(const Term& term) {
    std::string hint;
    if (!term.type_hint.empty()) hint = "(" + to_string(term.type_hint.front()) + ") ";
    return hint + std::visit(
                      [](const auto& v) -> std::string {
                          using T = std::decay_t<decltype(v)>;
                          if constexpr (std::is_same_v<T, Literal>) {
                              return to_string(v);
                          } else if constexpr (std::is_same_v<T, BindMarker>) {
                              return (v.name.empty() ? std::string("?") : ":" + v.name) + "#" +
                                     std::to_string(v.index);
                          } else if constexpr (std::is_same_v<T, FunctionCall>) {
                              return (v.keyspace.empty() ? "" : v.keyspace + ".") + v.name + "(" +
                                     join(v.args, [](const Term& a) { return to_string(a); }) + ")";
                          } else {
                              using K = Literal::Kind;
                              if (v.kind == K::kMap) {
                                  return "{" +
                                         join(v.entries,
                                              [](const auto& e) {
                                                  return to_string(e.first) + ": " +
                                                         to_string(e.second);
                                              }) +
                                         "}";
                              }
                              if (v.kind == K::kUdt) {
                                  return "{" +
                                         join(v.fields,
                                              [](const auto& f) {
                                                  return f.first + ": " + to_string(f.second);
                                              }) +
                                         "}";
                              }
                              return open_of(v.kind) +
                                     join(v.elements, [](const Term& e) { return to_string(e); }) +
                                     close_of(v.kind);
                          }
                      },
                      term.value);
}

std::string to_string(const Selector& s) {
    switch (s.kind) {
        case Selector::Kind::kColumn:
            return s.column;
        case Selector::Kind::kStar:
            return "*";
        case Selector::Kind::kTerm:
            return s.term.empty() ? "" : to_string(s.term.front());
        case Selector::Kind::kField:
            return (s.args.empty() ? std::string() : to_string(s.args.front())) + "." + s.field;
        case Selector::Kind::kCast:
            return "cast(" + (s.args.empty() ? std::string() : to_string(s.args.front())) + " as " +
                   to_string(s.cast_type) + ")";
        case Selector::Kind::kFunction:
            return (s.keyspace.empty() ? "" : s.keyspace + ".") + s.function + "(" +
                   join(s.args, [](const Selector& a) { return to_string(a); }) + ")";
    }
    return "";
}

}  // namespace tessel::cql
