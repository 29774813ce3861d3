#include "query/schema_executor.h"

#include "schema/catalog.h"
#include "schema/describe.h"

namespace tessel::query {

using cluster::Replica;

namespace {

TypeSpec to_spec(const cql::TypeName& n) {
    TypeSpec s;
    s.name = n.name;
    s.keyspace = n.keyspace;
    s.frozen = n.frozen;
    for (const auto& p : n.params)
        s.params.push_back(to_spec(p));
    return s;
}

OptionValue to_option(const cql::Property& p) {
    const Literal& v = p.value;
    switch (v.kind) {
        case Literal::Kind::kMap: {
            std::map<std::string, std::string> m;
            for (const auto& [k, val] : v.entries)
                m[k.text] = val.text;
            return OptionValue::of_map(std::move(m));
        }
        case Literal::Kind::kSet:  // `{}`: an empty map
            return OptionValue::of_map({});
        case Literal::Kind::kInteger:
        case Literal::Kind::kFloat:
            return OptionValue::number(v.text);
        case Literal::Kind::kBoolean:
            return OptionValue::boolean(v.text == "true");
        default:
            return OptionValue::string(v.text);
    }
}

SchemaOutcome outcome(const CatalogChange& c) {
    SchemaOutcome o;
    o.changed = c.applied;
    o.change_type = c.type == CatalogChange::Type::kCreated   ? "CREATED"
                    : c.type == CatalogChange::Type::kUpdated ? "UPDATED"
                                                              : "DROPPED";
    o.target = c.target == CatalogChange::Target::kKeyspace ? "KEYSPACE"
               : c.target == CatalogChange::Target::kTable  ? "TABLE"
                                                            : "TYPE";
    o.keyspace = c.keyspace;
    o.name = c.name;
    o.warnings = c.warnings;
    return o;
}

Result<KeyspaceOptions> keyspace_options(const std::vector<cql::Property>& props) {
    KeyspaceOptions o;
    for (const auto& p : props)
        TESSEL_RETURN_IF_ERROR(apply_keyspace_option(o, p.name, to_option(p)));
    return o;
}

Result<SchemaOutcome> create_table(const cql::CreateTableStatement& c, const std::string& ks,
                                   Catalog& catalog, Replica& replica) {
    if (c.compact_storage) {
        return Status::invalid(
            "Compact tables are not allowed in Cassandra starting with 4.0 "
            "version. Use a regular table instead.");
    }
    TableSpec spec;
    spec.keyspace = ks;
    spec.name = c.table.name;
    for (const auto& col : c.columns) {
        tessel::ColumnDeclaration cs;
        cs.name = col.name;
        cs.type = to_spec(col.type);
        cs.is_static = col.is_static;
        spec.columns.push_back(std::move(cs));
    }
    spec.partition_key = c.partition_key;
    spec.clustering_key = c.clustering_key;
    for (const auto& o : c.clustering_order) {
        spec.clustering_order.emplace_back(
            o.column, o.descending ? ClusteringOrder::kDesc : ClusteringOrder::kAsc);
    }
    for (const auto& p : c.properties) {
        if (p.name == "id") {
            auto id = Uuid::parse(p.value.text);
            if (!id) return Status::config("Invalid table id " + p.value.text);
            spec.id = *id;
            continue;
        }
        TESSEL_RETURN_IF_ERROR(apply_table_option(spec.options, p.name, to_option(p)));
    }
    TESSEL_RETURN_IF_ERROR(validate_table_options(spec.options));
    TESSEL_ASSIGN_OR_RETURN(auto change, catalog.create_table(spec, c.if_not_exists));
    if (change.applied) {
        auto def = catalog.snapshot()->table(ks, c.table.name);
        if (!def) return Status::server("table vanished after creation");
        TESSEL_RETURN_IF_ERROR(
            replica.create_table(def->storage_name(), def->options.gc_grace_seconds));
    }
    return outcome(change);
}

Result<SchemaOutcome> alter_table(const cql::AlterTableStatement& a, const std::string& ks,
                                  Catalog& catalog, Replica& replica, int64_t ts) {
    using K = cql::AlterTableStatement::Kind;
    const std::string& t = a.table.name;
    Result<CatalogChange> change = Status::server("unreachable");
    switch (a.kind) {
        case K::kAdd: {
            std::vector<NewColumn> cols;
            for (const auto& c : a.added) {
                cols.push_back({c.name, to_spec(c.type),
                                c.is_static ? ColumnKind::kStatic : ColumnKind::kRegular});
            }
            change = catalog.alter_table_add(ks, t, cols);
            break;
        }
        case K::kDrop:
            change = catalog.alter_table_drop(ks, t, a.dropped, a.drop_timestamp.value_or(ts));
            break;
        case K::kRename:
            change = catalog.alter_table_rename(ks, t, a.renames);
            break;
        case K::kAlterType:
            change = catalog.alter_table_type(ks, t, a.column, to_spec(a.new_type));
            break;
        case K::kWith: {
            std::vector<std::pair<std::string, OptionValue>> opts;
            for (const auto& p : a.properties)
                opts.emplace_back(p.name, to_option(p));
            change = catalog.alter_table_options(ks, t, opts);
            break;
        }
    }
    if (!change.is_ok()) return std::move(change).status();
    if (a.kind == K::kWith) {
        if (auto def = catalog.snapshot()->table(ks, t)) {
            TESSEL_RETURN_IF_ERROR(
                replica.set_gc_grace(def->storage_name(), def->options.gc_grace_seconds));
        }
    }
    return outcome(*change);
}

Result<SchemaOutcome> drop_keyspace(const cql::DropKeyspaceStatement& d, Catalog& catalog,
                                    Replica& replica) {
    std::vector<std::string> families;
    if (auto ks = catalog.snapshot()->keyspace(d.keyspace)) {
        for (const auto& [_, t] : ks->tables)
            families.push_back(t->storage_name());
    }
    TESSEL_ASSIGN_OR_RETURN(auto change, catalog.drop_keyspace(d.keyspace, d.if_exists));
    if (change.applied) {
        for (const auto& f : families)
            TESSEL_RETURN_IF_ERROR(replica.drop_table(f));
    }
    return outcome(change);
}

Result<SchemaOutcome> drop_table(const cql::DropTableStatement& d, const std::string& ks,
                                 Catalog& catalog, Replica& replica) {
    auto def = catalog.snapshot()->table(ks, d.table.name);
    TESSEL_ASSIGN_OR_RETURN(auto change, catalog.drop_table(ks, d.table.name, d.if_exists));
    if (change.applied && def) TESSEL_RETURN_IF_ERROR(replica.drop_table(def->storage_name()));
    return outcome(change);
}

Result<SchemaOutcome> truncate(const cql::TruncateStatement& tr, const std::string& ks,
                               Catalog& catalog, Replica& replica) {
    auto schema = catalog.snapshot();
    auto def = schema->table(ks, tr.table.name);
    if (!def) {
        if (!schema->keyspace(ks)) return Status::invalid("Keyspace " + ks + " does not exist");
        return Status::invalid("unconfigured table " + tr.table.name);
    }
    TESSEL_RETURN_IF_ERROR(replica.truncate_table(def->storage_name()));
    return SchemaOutcome{};
}

Result<SchemaOutcome> describe(const cql::DescribeStatement& d, const std::string& ks,
                               const Catalog& catalog) {
    using K = cql::DescribeStatement::Kind;
    auto schema = catalog.snapshot();
    SchemaOutcome o;
    o.describe = true;
    auto add = [&](const std::string& k, const char* type, const std::string& name,
                   std::string text) {
        o.describe_rows.push_back({k, type, name, std::move(text)});
    };
    auto need_ks = [&](const std::string& name) -> Result<std::shared_ptr<const KeyspaceDef>> {
        if (name.empty()) {
            return Status::invalid("No keyspace specified and no current keyspace");
        }
        auto k = schema->keyspace(name);
        if (!k) return Status::invalid("'" + name + "' not found in keyspaces");
        return k;
    };
    switch (d.kind) {
        case K::kKeyspaces:
            for (const auto& [name, _] : schema->keyspaces)
                add(name, "keyspace", name, name);
            break;
        case K::kKeyspace: {
            TESSEL_ASSIGN_OR_RETURN(auto k, need_ks(d.name.name.empty() ? ks : d.name.name));
            add(k->name, "keyspace", k->name, describe_keyspace_full(*k));
            break;
        }
        case K::kTables: {
            for (const auto& [kname, k] : schema->keyspaces) {
                if (!ks.empty() && kname != ks) continue;
                for (const auto& [tname, _] : k->tables)
                    add(kname, "table", tname, tname);
            }
            break;
        }
        case K::kTable: {
            TESSEL_ASSIGN_OR_RETURN(auto k, need_ks(ks));
            auto t = k->table(d.name.name);
            if (!t) {
                return Status::invalid("'" + d.name.name + "' not found in keyspace '" + ks + "'");
            }
            add(ks, "table", t->name, describe_table(*t));
            break;
        }
        case K::kTypes: {
            for (const auto& [kname, k] : schema->keyspaces) {
                if (!ks.empty() && kname != ks) continue;
                for (const auto& [tname, _] : k->types)
                    add(kname, "type", tname, tname);
            }
            break;
        }
        case K::kType: {
            TESSEL_ASSIGN_OR_RETURN(auto k, need_ks(ks));
            auto t = k->type(d.name.name);
            if (!t) {
                return Status::invalid("User type '" + d.name.name + "' not found in keyspace '" +
                                       ks + "'");
            }
            add(ks, "type", t->name, describe_type(*t));
            break;
        }
        case K::kSchema:
            for (const auto& [kname, k] : schema->keyspaces) {
                add(kname, "keyspace", kname, describe_keyspace_full(*k));
            }
            break;
    }
    return o;
}

}  // namespace

Result<SchemaOutcome> execute_schema_statement(const cql::Statement& st, const std::string& ks,
                                               Catalog& catalog, Replica& replica, int64_t ts) {
    if (const auto* s = std::get_if<cql::CreateKeyspaceStatement>(&st.node)) {
        TESSEL_ASSIGN_OR_RETURN(auto opts, keyspace_options(s->properties));
        TESSEL_ASSIGN_OR_RETURN(auto c,
                                catalog.create_keyspace(s->keyspace, opts, s->if_not_exists));
        return outcome(c);
    }
    if (const auto* s = std::get_if<cql::AlterKeyspaceStatement>(&st.node)) {
        TESSEL_ASSIGN_OR_RETURN(auto opts, keyspace_options(s->properties));
        TESSEL_ASSIGN_OR_RETURN(auto c, catalog.alter_keyspace(s->keyspace, opts));
        return outcome(c);
    }
    if (const auto* s = std::get_if<cql::DropKeyspaceStatement>(&st.node)) {
        return drop_keyspace(*s, catalog, replica);
    }
    if (const auto* s = std::get_if<cql::CreateTableStatement>(&st.node)) {
        return create_table(*s, ks, catalog, replica);
    }
    if (const auto* s = std::get_if<cql::AlterTableStatement>(&st.node)) {
        return alter_table(*s, ks, catalog, replica, ts);
    }
    if (const auto* s = std::get_if<cql::DropTableStatement>(&st.node)) {
        return drop_table(*s, ks, catalog, replica);
    }
    if (const auto* s = std::get_if<cql::TruncateStatement>(&st.node)) {
        return truncate(*s, ks, catalog, replica);
    }
    if (const auto* s = std::get_if<cql::CreateTypeStatement>(&st.node)) {
        std::vector<std::pair<std::string, TypeSpec>> fields;
        for (const auto& f : s->fields)
            fields.emplace_back(f.name, to_spec(f.type));
        TESSEL_ASSIGN_OR_RETURN(auto c,
                                catalog.create_type(ks, s->type.name, fields, s->if_not_exists));
        return outcome(c);
    }
    if (const auto* s = std::get_if<cql::AlterTypeStatement>(&st.node)) {
        using K = cql::AlterTypeStatement::Kind;
        if (s->kind == K::kAdd) {
            TESSEL_ASSIGN_OR_RETURN(auto c, catalog.alter_type_add(ks, s->type.name, s->added.name,
                                                                   to_spec(s->added.type)));
            return outcome(c);
        }
        if (s->kind == K::kRename) {
            TESSEL_ASSIGN_OR_RETURN(auto c,
                                    catalog.alter_type_rename(ks, s->type.name, s->renames));
            return outcome(c);
        }
        return Status::invalid("Altering of types is not allowed");
    }
    if (const auto* s = std::get_if<cql::DropTypeStatement>(&st.node)) {
        TESSEL_ASSIGN_OR_RETURN(auto c, catalog.drop_type(ks, s->type.name, s->if_exists));
        return outcome(c);
    }
    if (const auto* s = std::get_if<cql::DescribeStatement>(&st.node)) {
        return describe(*s, ks, catalog);
    }
    return Status::invalid(std::string("Unsupported statement ") + cql::statement_kind_name(st));
}

std::shared_ptr<const Schema> catalog_snapshot(const Catalog& catalog) {
    return catalog.snapshot();
}

Status reconcile_storage(const Catalog& catalog, Replica& replica) {
    auto schema = catalog.snapshot();
    for (const auto& [_, ks] : schema->keyspaces) {
        for (const auto& [__, t] : ks->tables) {
            if (!replica.has_table(t->storage_name())) {
                TESSEL_RETURN_IF_ERROR(
                    replica.create_table(t->storage_name(), t->options.gc_grace_seconds));
            }
        }
    }
    return Status::ok();
}

}  // namespace tessel::query
