#include "cql/prepare_term.h"

#include "types/literal_util.h"
#include "types/value.h"

namespace tessel::cql {
namespace {

bool is_scalar_literal(Literal::Kind k) {
    switch (k) {
        case Literal::Kind::kList:
        case Literal::Kind::kSet:
        case Literal::Kind::kMap:
        case Literal::Kind::kTuple:
        case Literal::Kind::kUdt:
        case Literal::Kind::kNull:
            return false;
        default:
            return true;
    }
}

bool literal_fits_kind(Literal::Kind lit, const CqlType& t) {
    switch (lit) {
        case Literal::Kind::kList:
            return t.kind == TypeKind::kList;
        case Literal::Kind::kSet:  // {} may also be an empty map or a UDT
            return t.kind == TypeKind::kSet || t.kind == TypeKind::kMap;
        case Literal::Kind::kMap:
            return t.kind == TypeKind::kMap || t.kind == TypeKind::kUdt;
        case Literal::Kind::kTuple:
            return t.kind == TypeKind::kTuple;
        case Literal::Kind::kUdt:
            return t.kind == TypeKind::kUdt;
        default:
            return true;
    }
}

// Which constants a native type accepts, as Cassandra's Constants.Literal
// decides: a quoted string is not a uuid, a number is not text, and only hex
// is a blob. Custom types accept anything their parser does.
bool scalar_literal_assignable(Literal::Kind lit, TypeKind t) {
    using K = TypeKind;
    auto any_of = [t](std::initializer_list<K> kinds) {
        for (K k : kinds) {
            if (k == t) return true;
        }
        return false;
    };
    switch (lit) {
        case Literal::Kind::kString:
            return any_of(
                {K::kAscii, K::kVarchar, K::kInet, K::kDate, K::kTime, K::kTimestamp, K::kCustom});
        case Literal::Kind::kInteger:
            return any_of({K::kBigint, K::kCounter, K::kDate, K::kDecimal, K::kDouble, K::kDuration,
                           K::kFloat, K::kInt, K::kSmallint, K::kTime, K::kTimestamp, K::kTinyint,
                           K::kVarint, K::kCustom});
        case Literal::Kind::kUuid:
            return any_of({K::kUuid, K::kTimeuuid, K::kCustom});
        case Literal::Kind::kFloat:
            return any_of({K::kDecimal, K::kDouble, K::kFloat, K::kCustom});
        case Literal::Kind::kBoolean:
            return any_of({K::kBoolean, K::kCustom});
        case Literal::Kind::kHex:
            return any_of({K::kBlob, K::kCustom});
        case Literal::Kind::kDuration:
            return any_of({K::kDuration, K::kCustom});
        default:
            return true;
    }
}

Result<TermPlan> prepare_literal(const Literal& lit, const TypePtr& receiver,
                                 const std::string& name) {
    if (lit.kind == Literal::Kind::kNull) {
        TermPlan t;
        t.kind = TermPlan::Kind::kNull;
        t.type = receiver;
        return t;
    }
    if (is_scalar_literal(lit.kind)) {
        auto v = scalar_literal_assignable(lit.kind, receiver->kind)
                     ? value_from_literal(*receiver, lit)
                     : Result<std::string>(Status::invalid("not assignable"));
        if (!v.is_ok()) {
            return Status::invalid("Invalid " + std::string(literals::literal_kind_name(lit.kind)) +
                                   " constant (" + lit.text + ") for \"" + name + "\" of type " +
                                   receiver->cql_name());
        }
        return TermPlan::constant_of(receiver, std::move(v).value());
    }
    if (!literal_fits_kind(lit.kind, *receiver)) {
        return Status::invalid(std::string("Invalid ") +
                               std::string(literals::literal_kind_name(lit.kind)) +
                               " literal for " + name + " of type " + receiver->cql_name());
    }
    auto v = value_from_literal(*receiver, lit);
    if (!v.is_ok()) return std::move(v).status();
    return TermPlan::constant_of(receiver, std::move(v).value());
}

Result<TermPlan> prepare_function(const FunctionCall& call, const TypePtr& receiver,
                                  const std::string& name, BindContext* ctx) {
    if (call.name == "fromjson") {
        if (call.args.size() != 1) {
            return Status::invalid(
                "Invalid number of arguments in call to function system.fromjson");
        }
        if (!receiver) {
            return Status::invalid(
                "fromJson() cannot be used in the selection clause of a SELECT "
                "statement");
        }
        TermPlan t;
        t.kind = TermPlan::Kind::kFunction;
        t.function = fromjson_function();
        t.type = receiver;
        TESSEL_ASSIGN_OR_RETURN(auto a, prepare_term(call.args[0], native_type(TypeKind::kVarchar),
                                                     "arg0(system.fromjson)", ctx));
        t.args.push_back(std::move(a));
        return t;
    }
    auto candidates = find_functions(call.name, call.args.size());
    if (candidates.empty()) {
        if (is_scalar_function(call.name)) {
            return Status::invalid("Invalid number of arguments in call to function system." +
                                   call.name);
        }
        return Status::invalid("Unknown function " + call.name);
    }
    Status last_error;
    for (const ScalarFunction* f : candidates) {
        TermPlan t;
        t.kind = TermPlan::Kind::kFunction;
        t.function = f;
        t.type = f->return_type;
        bool ok = true;
        for (size_t i = 0; i < call.args.size() && ok; ++i) {
            auto a = prepare_term(call.args[i], f->arg_types[i],
                                  "arg" + std::to_string(i) + "(system." + f->name + ")", ctx);
            if (!a.is_ok()) {
                last_error = std::move(a).status();
                ok = false;
            } else {
                t.args.push_back(std::move(a).value());
            }
        }
        if (!ok) continue;
        if (receiver && !type_assignable(*receiver, *f->return_type)) {
            return Status::invalid("Type error: cannot assign result of function system." +
                                   f->name + " (type " + f->return_type->cql_name() + ") to " +
                                   name + " (type " + receiver->cql_name() + ")");
        }
        return t;
    }
    return last_error;
}

Result<TermPlan> prepare_collection(const CollectionTerm& c, const TypePtr& receiver,
                                    const std::string& name, BindContext* ctx) {
    if (!literal_fits_kind(c.kind, *receiver)) {
        return Status::invalid("Invalid " + std::string(literals::literal_kind_name(c.kind)) +
                               " literal for " + name + " of type " + receiver->cql_name());
    }
    TermPlan t;
    t.kind = TermPlan::Kind::kCollection;
    t.type = receiver;
    t.collection_kind = c.kind;
    const auto& p = receiver->params;
    switch (receiver->kind) {
        case TypeKind::kList:
        case TypeKind::kSet:
            for (const auto& e : c.elements) {
                TESSEL_ASSIGN_OR_RETURN(auto a, prepare_term(e, p[0], "value(" + name + ")", ctx));
                t.args.push_back(std::move(a));
            }
            t.collection_kind =
                receiver->kind == TypeKind::kList ? Literal::Kind::kList : Literal::Kind::kSet;
            break;
        case TypeKind::kMap:
            for (const auto& [k, v] : c.entries) {
                TESSEL_ASSIGN_OR_RETURN(auto a, prepare_term(k, p[0], "key(" + name + ")", ctx));
                TESSEL_ASSIGN_OR_RETURN(auto b, prepare_term(v, p[1], "value(" + name + ")", ctx));
                t.args.push_back(std::move(a));
                t.args.push_back(std::move(b));
            }
            t.collection_kind = Literal::Kind::kMap;
            break;
        case TypeKind::kTuple:
            if (c.elements.size() > p.size()) {
                return Status::invalid("Invalid tuple literal for " + name +
                                       ": too many elements. Type " + receiver->cql_name() +
                                       " expects " + std::to_string(p.size()) + " but got " +
                                       std::to_string(c.elements.size()));
            }
            for (size_t i = 0; i < c.elements.size(); ++i) {
                TESSEL_ASSIGN_OR_RETURN(auto a, prepare_term(c.elements[i], p[i], name, ctx));
                t.args.push_back(std::move(a));
            }
            break;
        case TypeKind::kUdt: {
            // Fields in type order; missing fields are null.
            t.collection_kind = Literal::Kind::kUdt;
            for (size_t i = 0; i < receiver->field_names.size(); ++i) {
                TermPlan null_field;
                null_field.type = p[i];
                t.args.push_back(null_field);
            }
            for (const auto& [fname, fterm] : c.fields) {
                size_t idx = receiver->field_names.size();
                for (size_t i = 0; i < receiver->field_names.size(); ++i) {
                    if (receiver->field_names[i] == fname) idx = i;
                }
                if (idx == receiver->field_names.size()) {
                    return Status::invalid("Unknown field '" + fname +
                                           "' in value of user defined type " + receiver->udt_name);
                }
                TESSEL_ASSIGN_OR_RETURN(auto a,
                                        prepare_term(fterm, p[idx], name + "." + fname, ctx));
                t.args[idx] = std::move(a);
            }
            break;
        }
        default:
            break;
    }
    return t;
}

}  // namespace

void BindContext::record(int index, const std::string& name, TypePtr type) {
    if (index < 0 || static_cast<size_t>(index) >= specs.size()) return;
    specs[index] = ColumnSpec{keyspace, table, name, std::move(type)};
    seen[index] = true;
}

bool type_assignable(const CqlType& to, const CqlType& from) {
    if (to.equals(from)) return true;
    if (to.kind == TypeKind::kVarchar && from.kind == TypeKind::kAscii) return true;
    if (to.kind == TypeKind::kBlob && from.kind == TypeKind::kBlob) return true;
    if (to.kind == from.kind && to.params.empty() && from.params.empty()) return true;
    return false;
}

Result<TermPlan> prepare_term(const Term& term, const TypePtr& receiver, const std::string& name,
                              BindContext* ctx) {
    if (term.is_literal()) return prepare_literal(term.literal(), receiver, name);
    if (term.is_bind_marker()) {
        const auto& m = term.bind_marker();
        TermPlan t;
        t.kind = TermPlan::Kind::kMarker;
        t.type = receiver;
        t.marker = m.index;
        ctx->record(m.index, m.name.empty() ? name : m.name, receiver);
        return t;
    }
    if (term.is_function_call()) return prepare_function(term.function_call(), receiver, name, ctx);
    return prepare_collection(term.collection(), receiver, name, ctx);
}

}  // namespace tessel::cql
