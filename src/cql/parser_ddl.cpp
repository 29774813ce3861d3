// Schema statements: USE, CREATE/ALTER/DROP KEYSPACE|TABLE|TYPE, TRUNCATE,
// DESCRIBE.
#include <cctype>
#include <charconv>
#include <cstdint>
#include <string>

#include "cql/parser_impl.h"

namespace tessel::cql {

Result<StatementNode> Parser::use_statement() {
    TESSEL_RETURN_IF_ERROR(expect_keyword("use"));
    UseStatement s;
    TESSEL_ASSIGN_OR_RETURN(s.keyspace, name());
    return StatementNode(std::move(s));
}

// Statement kinds Cassandra has and Tessel does not: named in the error so a
// user knows it is the feature, not their spelling, that is missing.
Status Parser::unsupported_object(std::string_view verb, std::string_view expected) {
    static constexpr std::string_view kKnown[] = {
        "index", "materialized", "function", "aggregate", "trigger", "role", "user", "custom",
    };
    for (std::string_view k : kKnown) {
        if (peek().is_keyword(k)) {
            std::string what = std::string(verb) + " " + std::string(k);
            for (char& c : what)
                c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            if (k == "materialized") what += " VIEW";
            const std::string shown(text_.substr(peek().offset, peek().length));
            return error_here("no viable alternative at input '" + shown + "' " + snippet() + ": " +
                              what + " is not supported");
        }
    }
    return mismatched(std::string(expected));
}

Result<StatementNode> Parser::create_statement() {
    TESSEL_RETURN_IF_ERROR(expect_keyword("create"));
    if (accept_keyword("keyspace") || accept_keyword("schema")) return create_keyspace();
    if (accept_keyword("table") || accept_keyword("columnfamily")) return create_table();
    if (accept_keyword("type")) return create_type();
    if (peek().is_keyword("role") || peek().is_keyword("user")) return role_statement("create");
    return unsupported_object("create", "K_KEYSPACE, K_TABLE or K_TYPE");
}

Result<StatementNode> Parser::create_keyspace() {
    CreateKeyspaceStatement s;
    TESSEL_ASSIGN_OR_RETURN(s.if_not_exists, if_not_exists());
    TESSEL_ASSIGN_OR_RETURN(s.keyspace, name());
    TESSEL_RETURN_IF_ERROR(expect_keyword("with"));
    TESSEL_ASSIGN_OR_RETURN(s.properties, properties());
    return StatementNode(std::move(s));
}

// col type [STATIC] [PRIMARY KEY]
Result<ColumnDefinition> Parser::column_definition(bool allow_primary_key) {
    ColumnDefinition c;
    TESSEL_ASSIGN_OR_RETURN(c.name, name());
    TESSEL_ASSIGN_OR_RETURN(c.type, type());
    if (accept_keyword("static")) c.is_static = true;
    if (allow_primary_key && accept_keyword("primary")) {
        TESSEL_RETURN_IF_ERROR(expect_keyword("key"));
        c.primary_key = true;
    }
    return c;
}

// ( definitions ): columns and at most one PRIMARY KEY, inline or as a clause.
Status Parser::table_body(CreateTableStatement& s) {
    TESSEL_RETURN_IF_ERROR(expect_punct("("));
    int primary_keys = 0;
    do {
        if (peek().is_keyword("primary")) {
            advance();
            TESSEL_RETURN_IF_ERROR(expect_keyword("key"));
            TESSEL_RETURN_IF_ERROR(expect_punct("("));
            ++primary_keys;
            s.partition_key.clear();
            s.clustering_key.clear();
            if (accept_punct("(")) {
                do {
                    TESSEL_ASSIGN_OR_RETURN(auto n, name());
                    s.partition_key.push_back(std::move(n));
                } while (accept_punct(","));
                TESSEL_RETURN_IF_ERROR(expect_punct(")"));
            } else {
                TESSEL_ASSIGN_OR_RETURN(auto n, name());
                s.partition_key.push_back(std::move(n));
            }
            while (accept_punct(",")) {
                TESSEL_ASSIGN_OR_RETURN(auto n, name());
                s.clustering_key.push_back(std::move(n));
            }
            TESSEL_RETURN_IF_ERROR(expect_punct(")"));
            continue;
        }
        TESSEL_ASSIGN_OR_RETURN(ColumnDefinition c, column_definition(true));
        if (c.primary_key) {
            ++primary_keys;
            s.partition_key = {c.name};
            s.clustering_key.clear();
        }
        s.columns.push_back(std::move(c));
    } while (accept_punct(","));
    TESSEL_RETURN_IF_ERROR(expect_punct(")"));
    if (primary_keys > 1) {
        return Status::invalid("Multiple PRIMARY KEYs specified (exactly one required)");
    }
    if (primary_keys == 0) {
        return Status::invalid("No PRIMARY KEY specified for table '" + s.table.name +
                               "' (exactly one required)");
    }
    return Status::ok();
}

// WITH option = value AND CLUSTERING ORDER BY (c DESC, ...) AND COMPACT STORAGE ...
Status Parser::table_properties(CreateTableStatement& s) {
    do {
        if (peek().is_keyword("clustering") && peek(1).is_keyword("order")) {
            advance();
            advance();
            TESSEL_RETURN_IF_ERROR(expect_keyword("by"));
            TESSEL_RETURN_IF_ERROR(expect_punct("("));
            do {
                ClusteringOrder o;
                TESSEL_ASSIGN_OR_RETURN(o.column, name());
                if (accept_keyword("desc")) {
                    o.descending = true;
                } else if (!accept_keyword("asc")) {
                    return mismatched("K_ASC or K_DESC");
                }
                s.clustering_order.push_back(std::move(o));
            } while (accept_punct(","));
            TESSEL_RETURN_IF_ERROR(expect_punct(")"));
        } else if (peek().is_keyword("compact") && peek(1).is_keyword("storage")) {
            advance();
            advance();
            s.compact_storage = true;
        } else {
            TESSEL_ASSIGN_OR_RETURN(Property p, property());
            TESSEL_RETURN_IF_ERROR(add_property(s.properties, std::move(p)));
        }
    } while (accept_keyword("and"));
    return Status::ok();
}

Result<StatementNode> Parser::create_table() {
    CreateTableStatement s;
    TESSEL_ASSIGN_OR_RETURN(s.if_not_exists, if_not_exists());
    TESSEL_ASSIGN_OR_RETURN(s.table, qualified_name());
    TESSEL_RETURN_IF_ERROR(table_body(s));
    if (accept_keyword("with")) TESSEL_RETURN_IF_ERROR(table_properties(s));
    return StatementNode(std::move(s));
}

Result<StatementNode> Parser::create_type() {
    CreateTypeStatement s;
    TESSEL_ASSIGN_OR_RETURN(s.if_not_exists, if_not_exists());
    TESSEL_ASSIGN_OR_RETURN(s.type, qualified_name());
    TESSEL_RETURN_IF_ERROR(expect_punct("("));
    do {
        FieldDefinition f;
        TESSEL_ASSIGN_OR_RETURN(f.name, name());
        TESSEL_ASSIGN_OR_RETURN(f.type, type());
        s.fields.push_back(std::move(f));
    } while (accept_punct(","));
    TESSEL_RETURN_IF_ERROR(expect_punct(")"));
    return StatementNode(std::move(s));
}

Result<StatementNode> Parser::alter_statement() {
    TESSEL_RETURN_IF_ERROR(expect_keyword("alter"));
    if (accept_keyword("keyspace") || accept_keyword("schema")) {
        AlterKeyspaceStatement s;
        TESSEL_ASSIGN_OR_RETURN(s.keyspace, name());
        TESSEL_RETURN_IF_ERROR(expect_keyword("with"));
        TESSEL_ASSIGN_OR_RETURN(s.properties, properties());
        return StatementNode(std::move(s));
    }
    if (accept_keyword("table") || accept_keyword("columnfamily")) return alter_table();
    if (accept_keyword("type")) return alter_type();
    if (peek().is_keyword("role") || peek().is_keyword("user")) return role_statement("alter");
    return unsupported_object("alter", "K_KEYSPACE, K_TABLE or K_TYPE");
}

// a TO b [AND c TO d]...
static Status renames(Parser& p, std::vector<std::pair<std::string, std::string>>& out) {
    do {
        TESSEL_ASSIGN_OR_RETURN(std::string from, p.name());
        TESSEL_RETURN_IF_ERROR(p.expect_keyword("to"));
        TESSEL_ASSIGN_OR_RETURN(std::string to, p.name());
        out.emplace_back(std::move(from), std::move(to));
    } while (p.accept_keyword("and"));
    return Status::ok();
}

Result<StatementNode> Parser::alter_table() {
    AlterTableStatement s;
    TESSEL_ASSIGN_OR_RETURN(s.table, qualified_name());
    if (accept_keyword("add")) {
        s.kind = AlterTableStatement::Kind::kAdd;
        const bool parens = accept_punct("(");
        do {
            TESSEL_ASSIGN_OR_RETURN(ColumnDefinition c, column_definition(false));
            s.added.push_back(std::move(c));
        } while (parens && accept_punct(","));
        if (parens) TESSEL_RETURN_IF_ERROR(expect_punct(")"));
    } else if (accept_keyword("drop")) {
        s.kind = AlterTableStatement::Kind::kDrop;
        if (peek().is_punct("(")) {
            TESSEL_ASSIGN_OR_RETURN(s.dropped, name_list_in_parens());
        } else {
            TESSEL_ASSIGN_OR_RETURN(auto n, name());
            s.dropped.push_back(std::move(n));
        }
        // DROP c USING TIMESTAMP n: cells written after n survive a re-ADD.
        if (accept_keyword("using")) {
            TESSEL_RETURN_IF_ERROR(expect_keyword("timestamp"));
            if (peek().kind != TokenKind::kInteger) return mismatched("INTEGER");
            const std::string& text = peek().text;
            int64_t ts = 0;
            const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), ts);
            if (ec != std::errc() || end != text.data() + text.size()) {
                return Status::syntax("Invalid timestamp " + text + " in ALTER TABLE DROP");
            }
            advance();
            s.drop_timestamp = ts;
        }
    } else if (accept_keyword("rename")) {
        s.kind = AlterTableStatement::Kind::kRename;
        TESSEL_RETURN_IF_ERROR(renames(*this, s.renames));
    } else if (accept_keyword("alter")) {
        s.kind = AlterTableStatement::Kind::kAlterType;
        TESSEL_ASSIGN_OR_RETURN(s.column, name());
        TESSEL_RETURN_IF_ERROR(expect_keyword("type"));
        TESSEL_ASSIGN_OR_RETURN(s.new_type, type());
    } else if (accept_keyword("with")) {
        s.kind = AlterTableStatement::Kind::kWith;
        TESSEL_ASSIGN_OR_RETURN(s.properties, properties());
    } else {
        return mismatched("K_ADD, K_DROP, K_RENAME, K_ALTER or K_WITH");
    }
    return StatementNode(std::move(s));
}

Result<StatementNode> Parser::alter_type() {
    AlterTypeStatement s;
    TESSEL_ASSIGN_OR_RETURN(s.type, qualified_name());
    if (accept_keyword("add")) {
        s.kind = AlterTypeStatement::Kind::kAdd;
        TESSEL_ASSIGN_OR_RETURN(s.added.name, name());
        TESSEL_ASSIGN_OR_RETURN(s.added.type, type());
    } else if (accept_keyword("rename")) {
        s.kind = AlterTypeStatement::Kind::kRename;
        TESSEL_RETURN_IF_ERROR(renames(*this, s.renames));
    } else if (accept_keyword("alter")) {
        s.kind = AlterTypeStatement::Kind::kAlterType;
        TESSEL_ASSIGN_OR_RETURN(s.added.name, name());
        TESSEL_RETURN_IF_ERROR(expect_keyword("type"));
        TESSEL_ASSIGN_OR_RETURN(s.added.type, type());
    } else {
        return mismatched("K_ADD, K_RENAME or K_ALTER");
    }
    return StatementNode(std::move(s));
}

Result<StatementNode> Parser::drop_statement() {
    TESSEL_RETURN_IF_ERROR(expect_keyword("drop"));
    if (accept_keyword("keyspace") || accept_keyword("schema")) {
        DropKeyspaceStatement s;
        TESSEL_ASSIGN_OR_RETURN(s.if_exists, if_exists());
        TESSEL_ASSIGN_OR_RETURN(s.keyspace, name());
        return StatementNode(std::move(s));
    }
    if (accept_keyword("table") || accept_keyword("columnfamily")) {
        DropTableStatement s;
        TESSEL_ASSIGN_OR_RETURN(s.if_exists, if_exists());
        TESSEL_ASSIGN_OR_RETURN(s.table, qualified_name());
        return StatementNode(std::move(s));
    }
    if (accept_keyword("type")) {
        DropTypeStatement s;
        TESSEL_ASSIGN_OR_RETURN(s.if_exists, if_exists());
        TESSEL_ASSIGN_OR_RETURN(s.type, qualified_name());
        return StatementNode(std::move(s));
    }
    if (peek().is_keyword("role") || peek().is_keyword("user")) return role_statement("drop");
    return unsupported_object("drop", "K_KEYSPACE, K_TABLE or K_TYPE");
}

Result<StatementNode> Parser::truncate_statement() {
    TESSEL_RETURN_IF_ERROR(expect_keyword("truncate"));
    TruncateStatement s;
    if (!accept_keyword("table")) accept_keyword("columnfamily");
    TESSEL_ASSIGN_OR_RETURN(s.table, qualified_name());
    return StatementNode(std::move(s));
}

// DESCRIBE|DESC KEYSPACES | KEYSPACE [ks] | TABLES | TABLE t | TYPES | TYPE t | [FULL] SCHEMA
Result<StatementNode> Parser::describe_statement() {
    advance();  // DESCRIBE or DESC
    DescribeStatement s;
    using K = DescribeStatement::Kind;
    if (accept_keyword("keyspaces")) {
        s.kind = K::kKeyspaces;
    } else if (accept_keyword("keyspace")) {
        s.kind = K::kKeyspace;
        if (at_name()) {
            TESSEL_ASSIGN_OR_RETURN(s.name.name, name());
        }
    } else if (accept_keyword("tables")) {
        s.kind = K::kTables;
    } else if (accept_keyword("table") || accept_keyword("columnfamily")) {
        s.kind = K::kTable;
        TESSEL_ASSIGN_OR_RETURN(s.name, qualified_name());
    } else if (accept_keyword("types")) {
        s.kind = K::kTypes;
    } else if (accept_keyword("type")) {
        s.kind = K::kType;
        TESSEL_ASSIGN_OR_RETURN(s.name, qualified_name());
    } else if (accept_keyword("schema") || (accept_keyword("full") && accept_keyword("schema"))) {
        s.kind = K::kSchema;
    } else {
        return mismatched(
            "K_KEYSPACES, K_KEYSPACE, K_TABLES, K_TABLE, K_TYPES, K_TYPE or K_SCHEMA");
    }
    return StatementNode(std::move(s));
}

}  // namespace tessel::cql
