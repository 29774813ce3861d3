// Roles and permissions: CREATE/ALTER/DROP ROLE|USER, LIST ROLES|USERS,
// GRANT/REVOKE (roles and permissions), LIST PERMISSIONS. Grammar as in
// Cassandra 3.11's Cql.g (roleName, roleOptions, permissionOrAll, resource).
#include <cctype>
#include <string>

#include "cql/parser_impl.h"

namespace tessel::cql {
namespace {

using Kind = AuthStatement::Kind;

struct PermissionName {
    std::string_view name;
    uint32_t bit;
};
constexpr PermissionName kPermissions[] = {
    {"create", kPermCreate},     {"alter", kPermAlter},   {"drop", kPermDrop},
    {"select", kPermSelect},     {"modify", kPermModify}, {"authorize", kPermAuthorize},
    {"describe", kPermDescribe},
};

bool at_permission(const Parser& p) {
    if (p.peek().is_keyword("all")) return true;
    for (const auto& perm : kPermissions) {
        if (p.peek().is_keyword(perm.name)) return true;
    }
    return p.peek().is_keyword("execute");
}

}  // namespace

// A role or user name: an identifier (lower-cased), a quoted identifier or a
// string literal (both kept as written).
Result<std::string> Parser::role_name() {
    const Token& t = peek();
    if (t.kind == TokenKind::kString || t.kind == TokenKind::kQuotedIdentifier ||
        t.kind == TokenKind::kIdentifier) {
        return advance().text;
    }
    return mismatched("a role name");
}

// WITH PASSWORD = 'x' AND LOGIN = true AND SUPERUSER = false
Status Parser::role_options(AuthStatement& s) {
    do {
        TESSEL_ASSIGN_OR_RETURN(std::string option, name());
        TESSEL_RETURN_IF_ERROR(expect_punct("="));
        const Token& v = peek();
        if (option == "password") {
            if (v.kind != TokenKind::kString) return mismatched("STRING_LITERAL");
            s.password = advance().text;
        } else if (option == "login" || option == "superuser") {
            if (v.kind != TokenKind::kBoolean) return mismatched("BOOLEAN");
            (option == "login" ? s.login : s.superuser) = advance().text == "true";
        } else if (option == "options") {
            return error_here("Custom role options are not supported");
        } else {
            return Status::syntax("Invalid role option: " + option);
        }
    } while (accept_keyword("and"));
    return Status::ok();
}

// After CREATE/ALTER/DROP: ROLE ... or USER ...
Result<StatementNode> Parser::role_statement(std::string_view verb) {
    AuthStatement s;
    s.user_syntax = accept_keyword("user");
    if (!s.user_syntax) TESSEL_RETURN_IF_ERROR(expect_keyword("role"));
    s.kind = verb == "create"  ? Kind::kCreateRole
             : verb == "alter" ? Kind::kAlterRole
                               : Kind::kDropRole;
    if (s.kind == Kind::kCreateRole) {
        TESSEL_ASSIGN_OR_RETURN(s.if_not_exists, if_not_exists());
    }
    if (s.kind == Kind::kDropRole) {
        TESSEL_ASSIGN_OR_RETURN(s.if_exists, if_exists());
    }
    TESSEL_ASSIGN_OR_RETURN(s.role, role_name());
    if (s.kind == Kind::kDropRole) return StatementNode(std::move(s));
    if (s.user_syntax) {
        // [WITH PASSWORD 'pw'] [SUPERUSER | NOSUPERUSER]; a user can log in.
        if (s.kind == Kind::kCreateRole) s.login = true;
        if (accept_keyword("with")) {
            TESSEL_RETURN_IF_ERROR(expect_keyword("password"));
            if (peek().kind != TokenKind::kString) return mismatched("STRING_LITERAL");
            s.password = advance().text;
        }
        if (accept_keyword("superuser")) s.superuser = true;
        if (accept_keyword("nosuperuser")) s.superuser = false;
        return StatementNode(std::move(s));
    }
    if (accept_keyword("with")) TESSEL_RETURN_IF_ERROR(role_options(s));
    return StatementNode(std::move(s));
}

// ALL [PERMISSIONS] | perm [PERMISSION] (also a comma-separated list).
Result<uint32_t> Parser::permissions() {
    if (accept_keyword("all")) {
        accept_keyword("permissions");
        return static_cast<uint32_t>(kAllPermissions);
    }
    uint32_t mask = 0;
    do {
        if (peek().is_keyword("execute")) {
            std::string perm = peek().text;
            for (char& c : perm)
                c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            return error_here(
                "Resource type DataResource does not support the requested "
                "permissions: " +
                perm);
        }
        bool found = false;
        for (const auto& perm : kPermissions) {
            if (accept_keyword(perm.name)) {
                mask |= perm.bit;
                found = true;
                break;
            }
        }
        if (!found) return no_viable();
        accept_keyword("permission");
    } while (accept_punct(","));
    return mask;
}

// ALL KEYSPACES | KEYSPACE ks | [TABLE] [ks.]t | ALL ROLES | ROLE r
Result<AuthResource> Parser::auth_resource() {
    AuthResource r;
    if (peek().is_keyword("all")) {
        advance();
        if (accept_keyword("keyspaces")) return r;
        if (accept_keyword("roles")) {
            r.level = AuthResource::Level::kAllRoles;
            return r;
        }
        if (peek().is_keyword("functions")) {
            return error_here("permissions on functions are not supported");
        }
        return mismatched("K_KEYSPACES");
    }
    if (accept_keyword("keyspace")) {
        r.level = AuthResource::Level::kKeyspace;
        TESSEL_ASSIGN_OR_RETURN(r.keyspace, name());
        return r;
    }
    if (accept_keyword("role")) {
        r.level = AuthResource::Level::kRole;
        TESSEL_ASSIGN_OR_RETURN(r.role, role_name());
        return r;
    }
    if (peek().is_keyword("function")) {
        return error_here("permissions on a function are not supported");
    }
    if (!accept_keyword("table")) accept_keyword("columnfamily");
    r.level = AuthResource::Level::kTable;
    TESSEL_ASSIGN_OR_RETURN(auto q, qualified_name());
    r.keyspace = std::move(q.keyspace);
    r.table = std::move(q.name);
    return r;
}

// GRANT ..., REVOKE ..., LIST ...
Result<StatementNode> Parser::auth_statement() {
    AuthStatement s;
    const std::string verb = advance().text;
    if (verb == "list") {
        if (accept_keyword("roles") || accept_keyword("users")) {
            s.kind = Kind::kListRoles;
            s.user_syntax = tokens_[pos_ - 1].text == "users";
            if (!s.user_syntax && accept_keyword("of")) {
                TESSEL_ASSIGN_OR_RETURN(s.role, role_name());
            }
            s.norecursive = accept_keyword("norecursive");
            return StatementNode(std::move(s));
        }
        s.kind = Kind::kListPermissions;
        if (!at_permission(*this)) return no_viable();
        TESSEL_ASSIGN_OR_RETURN(s.permissions, permissions());
        if (accept_keyword("on")) {
            TESSEL_ASSIGN_OR_RETURN(s.resource, auth_resource());
        }
        if (accept_keyword("of")) {
            TESSEL_ASSIGN_OR_RETURN(s.role, role_name());
        }
        s.norecursive = accept_keyword("norecursive");
        return StatementNode(std::move(s));
    }
    const bool grant = verb == "grant";
    const std::string_view to = grant ? "to" : "from";
    // A permission is followed by ON (or PERMISSION[S]); a role by TO/FROM.
    const bool is_permission =
        at_permission(*this) && (peek(1).is_keyword("on") || peek(1).is_keyword("permission") ||
                                 peek(1).is_keyword("permissions") || peek(1).is_punct(","));
    if (is_permission) {
        s.kind = grant ? Kind::kGrantPermission : Kind::kRevokePermission;
        TESSEL_ASSIGN_OR_RETURN(s.permissions, permissions());
        TESSEL_RETURN_IF_ERROR(expect_keyword("on"));
        TESSEL_ASSIGN_OR_RETURN(s.resource, auth_resource());
    } else {
        s.kind = grant ? Kind::kGrantRole : Kind::kRevokeRole;
        TESSEL_ASSIGN_OR_RETURN(s.granted_role, role_name());
    }
    TESSEL_RETURN_IF_ERROR(expect_keyword(to));
    TESSEL_ASSIGN_OR_RETURN(s.role, role_name());
    return StatementNode(std::move(s));
}

}  // namespace tessel::cql
