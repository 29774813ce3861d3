// Prepare: statement dispatch, name resolution and batch rules.
#include "cql/prepare.h"

#include <algorithm>

namespace tessel::cql {
namespace {

const char* const kNoKeyspace =
    "No keyspace has been specified. USE a keyspace, or explicitly specify keyspace.tablename";

bool is_system_keyspace(const std::string& ks) {
    return ks == "system" || ks == "system_schema" || ks == "system_auth" ||
           ks == "system_distributed" || ks == "system_traces" || ks == "system_views" ||
           ks == "system_virtual_schema";
}

Result<std::string> keyspace_of(const QualifiedName& n, const std::string& session) {
    if (!n.keyspace.empty()) return n.keyspace;
    if (session.empty()) return Status::invalid(kNoKeyspace);
    return session;
}

Result<TablePtr> lookup_table(const QualifiedName& n, const std::string& session,
                              const SchemaView& schema) {
    TESSEL_ASSIGN_OR_RETURN(auto ks, keyspace_of(n, session));
    TablePtr t = schema.find_table(ks, n.name);
    if (t) return t;
    if (!schema.keyspace_exists(ks)) return Status::invalid("Keyspace " + ks + " does not exist");
    return Status::invalid("unconfigured table " + n.name);
}

Status check_writable(const TableInfo& t) {
    if (t.is_virtual || is_system_keyspace(t.keyspace)) {
        return Status::invalid("Modification to table " + t.keyspace + "." + t.name +
                               " is not allowed: system keyspace is not user-modifiable.");
    }
    return Status::ok();
}

std::vector<uint16_t> pk_indexes(const WherePlan& w, size_t pk_count) {
    std::vector<uint16_t> out;
    if (w.partition_values.size() != pk_count) return {};
    for (const auto& kv : w.partition_values) {
        if (kv.alternatives.size() != 1 || kv.alternatives[0].size() != 1 ||
            !kv.alternatives[0][0].is_marker()) {
            return {};
        }
        out.push_back(static_cast<uint16_t>(kv.alternatives[0][0].marker));
    }
    return out;
}

Result<ModifyPlan> prepare_modification(const BatchChild& child, const std::string& session,
                                        const SchemaView& schema, BindContext* ctx) {
    const QualifiedName& name =
        std::visit([](const auto& s) -> const QualifiedName& { return s.table; }, child);
    TESSEL_ASSIGN_OR_RETURN(auto table, lookup_table(name, session, schema));
    TESSEL_RETURN_IF_ERROR(check_writable(*table));
    ctx->keyspace = table->keyspace;
    ctx->table = table->name;
    if (const auto* ins = std::get_if<InsertStatement>(&child)) {
        return prepare_insert(*ins, table, ctx);
    }
    if (const auto* upd = std::get_if<UpdateStatement>(&child)) {
        return prepare_update(*upd, table, ctx);
    }
    return prepare_delete(std::get<DeleteStatement>(child), table, ctx);
}

bool is_counter_write(const ModifyPlan& p) {
    return p.table->is_counter;
}

Result<BatchPlan> prepare_batch(const BatchStatement& b, const std::string& session,
                                const SchemaView& schema, BindContext* ctx) {
    BatchPlan plan;
    plan.kind = b.kind;
    if (b.using_clause.ttl) {
        return Status::invalid("Global TTL on the BATCH statement is not supported.");
    }
    if (b.using_clause.timestamp) {
        TESSEL_ASSIGN_OR_RETURN(
            auto ts, prepare_term(*b.using_clause.timestamp, native_type(TypeKind::kBigint),
                                  "[timestamp]", ctx));
        plan.timestamp = std::move(ts);
    }
    bool has_counter = false, has_regular = false;
    for (const auto& child : b.statements) {
        TESSEL_ASSIGN_OR_RETURN(auto p, prepare_modification(child, session, schema, ctx));
        if (plan.timestamp && p.timestamp) {
            return Status::invalid(
                "Timestamp must be set either on BATCH or individual "
                "statements");
        }
        (is_counter_write(p) ? has_counter : has_regular) = true;
        plan.statements.push_back(std::move(p));
    }
    if (b.kind == BatchStatement::Kind::kCounter && has_regular) {
        return Status::invalid("Cannot include non-counter statement in a counter batch");
    }
    if (b.kind == BatchStatement::Kind::kLogged && has_counter) {
        return Status::invalid("Cannot include a counter statement in a logged batch");
    }
    if (has_counter && has_regular) {
        return Status::invalid("Counter and non-counter mutations cannot exist in the same batch");
    }
    return plan;
}

Result<std::string> schema_keyspace(const Statement& st, const std::string& session) {
    return std::visit(
        [&](const auto& s) -> Result<std::string> {
            using T = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<T, CreateKeyspaceStatement> ||
                          std::is_same_v<T, AlterKeyspaceStatement> ||
                          std::is_same_v<T, DropKeyspaceStatement>) {
                return s.keyspace;
            } else if constexpr (std::is_same_v<T, CreateTableStatement> ||
                                 std::is_same_v<T, AlterTableStatement> ||
                                 std::is_same_v<T, DropTableStatement> ||
                                 std::is_same_v<T, TruncateStatement>) {
                return keyspace_of(s.table, session);
            } else if constexpr (std::is_same_v<T, CreateTypeStatement> ||
                                 std::is_same_v<T, AlterTypeStatement> ||
                                 std::is_same_v<T, DropTypeStatement>) {
                return keyspace_of(s.type, session);
            } else if constexpr (std::is_same_v<T, DescribeStatement>) {
                return s.name.keyspace.empty() ? session : s.name.keyspace;
            } else {
                return session;
            }
        },
        st.node);
}

}  // namespace

Result<std::shared_ptr<const Plan>> prepare(const Statement& st, const std::string& session,
                                            const SchemaView& schema) {
    auto plan = std::make_shared<Plan>();
    plan->text = st.text;
    plan->keyspace = session;
    BindContext ctx(st.bind_count());
    if (st.is<UseStatement>()) {
        plan->node = UsePlan{st.as<UseStatement>().keyspace};
    } else if (st.is<AuthStatement>()) {
        plan->node = AuthPlan{st.as<AuthStatement>(), session};
    } else if (st.is<SelectStatement>()) {
        const auto& sel = st.as<SelectStatement>();
        TESSEL_ASSIGN_OR_RETURN(auto table, lookup_table(sel.table, session, schema));
        ctx.keyspace = table->keyspace;
        ctx.table = table->name;
        TESSEL_ASSIGN_OR_RETURN(auto sp, prepare_select(sel, table, &ctx, &plan->result_columns));
        plan->partition_key_indexes = pk_indexes(sp.where, table->partition_key.size());
        plan->node = std::move(sp);
    } else if (st.is<InsertStatement>() || st.is<UpdateStatement>() || st.is<DeleteStatement>()) {
        BatchChild child = st.is<InsertStatement>()   ? BatchChild(st.as<InsertStatement>())
                           : st.is<UpdateStatement>() ? BatchChild(st.as<UpdateStatement>())
                                                      : BatchChild(st.as<DeleteStatement>());
        TESSEL_ASSIGN_OR_RETURN(auto mp, prepare_modification(child, session, schema, &ctx));
        plan->partition_key_indexes = pk_indexes(mp.where, mp.table->partition_key.size());
        plan->node = std::move(mp);
    } else if (st.is<BatchStatement>()) {
        TESSEL_ASSIGN_OR_RETURN(auto bp,
                                prepare_batch(st.as<BatchStatement>(), session, schema, &ctx));
        plan->node = std::move(bp);
    } else {
        TESSEL_ASSIGN_OR_RETURN(auto ks, schema_keyspace(st, session));
        plan->node = SchemaPlan{st, ks};
    }
    for (size_t i = 0; i < ctx.specs.size(); ++i) {
        if (!ctx.seen[i]) {
            ctx.specs[i] =
                ColumnSpec{ctx.keyspace, ctx.table, st.bind_names[i], native_type(TypeKind::kBlob)};
        }
    }
    plan->bind_specs = std::move(ctx.specs);
    return std::shared_ptr<const Plan>(std::move(plan));
}

Result<TypePtr> resolve_type(const TypeName& n, const std::string& keyspace,
                             const SchemaView& schema) {
    std::vector<TypePtr> params;
    for (const auto& p : n.params) {
        TESSEL_ASSIGN_OR_RETURN(auto t, resolve_type(p, keyspace, schema));
        params.push_back(std::move(t));
    }
    if (n.name == "list" && params.size() == 1) return list_type(params[0], n.frozen);
    if (n.name == "set" && params.size() == 1) return set_type(params[0], n.frozen);
    if (n.name == "map" && params.size() == 2) return map_type(params[0], params[1], n.frozen);
    if (n.name == "tuple" && !params.empty()) return tuple_type(params);
    if (n.params.empty() && !n.custom) {
        if (TypePtr t = native_type_by_name(n.name)) return t;
        TypePtr udt = schema.find_type(n.keyspace.empty() ? keyspace : n.keyspace, n.name);
        if (udt) return n.frozen ? frozen_of(udt) : udt;
    }
    return Status::invalid("Unknown type " + to_string(n));
}

Result<TableInfo> table_info_from_create(const CreateTableStatement& c, const std::string& ks,
                                         const SchemaView& schema) {
    TableInfo t;
    t.keyspace = c.table.keyspace.empty() ? ks : c.table.keyspace;
    t.name = c.table.name;
    t.id = t.keyspace + "." + t.name;
    std::vector<ColumnInfo> pk(c.partition_key.size()), ck(c.clustering_key.size()), statics,
        regulars;
    uint32_t id = 0;
    for (const auto& def : c.columns) {
        ColumnInfo col;
        col.name = def.name;
        col.id = id++;
        TESSEL_ASSIGN_OR_RETURN(col.type, resolve_type(def.type, t.keyspace, schema));
        bool placed = false;
        for (size_t i = 0; i < c.partition_key.size(); ++i) {
            if (c.partition_key[i] == def.name) {
                col.kind = ColumnKind::kPartitionKey;
                col.position = static_cast<int>(i);
                pk[i] = col;
                placed = true;
            }
        }
        for (size_t i = 0; i < c.clustering_key.size(); ++i) {
            if (c.clustering_key[i] == def.name) {
                col.kind = ColumnKind::kClustering;
                col.position = static_cast<int>(i);
                for (const auto& o : c.clustering_order) {
                    if (o.column == def.name) col.descending = o.descending;
                }
                ck[i] = col;
                placed = true;
            }
        }
        if (placed) continue;
        col.kind = def.is_static ? ColumnKind::kStatic : ColumnKind::kRegular;
        (def.is_static ? statics : regulars).push_back(col);
    }
    auto by_name = [](const ColumnInfo& a, const ColumnInfo& b) { return a.name < b.name; };
    std::sort(statics.begin(), statics.end(), by_name);
    std::sort(regulars.begin(), regulars.end(), by_name);
    for (auto* group : {&pk, &ck, &statics, &regulars}) {
        for (auto& col : *group) {
            if (col.type == nullptr) {
                return Status::invalid("Unknown definition referenced in PRIMARY KEY of " + t.name);
            }
            const int idx = static_cast<int>(t.columns.size());
            if (col.kind == ColumnKind::kPartitionKey) t.partition_key.push_back(idx);
            if (col.kind == ColumnKind::kClustering) t.clustering.push_back(idx);
            if (col.kind == ColumnKind::kStatic) t.has_static = true;
            if (col.type->is_counter()) t.is_counter = true;
            t.columns.push_back(col);
        }
    }
    return t;
}

}  // namespace tessel::cql
