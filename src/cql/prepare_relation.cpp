// Helpers for WHERE classification: operator kinds and key relation values.
#include "cql/prepare_relation.h"

namespace tessel::cql {

bool is_slice(Operator op) {
    return op == Operator::kLt || op == Operator::kLte || op == Operator::kGt ||
           op == Operator::kGte;
}
bool is_start(Operator op) {
    return op == Operator::kGt || op == Operator::kGte;
}
bool is_inclusive(Operator op) {
    return op == Operator::kGte || op == Operator::kLte;
}

const char* op_text(Operator op) {
    switch (op) {
        case Operator::kEq:
            return "=";
        case Operator::kNeq:
            return "!=";
        case Operator::kLt:
            return "<";
        case Operator::kLte:
            return "<=";
        case Operator::kGt:
            return ">";
        case Operator::kGte:
            return ">=";
        case Operator::kIn:
            return "IN";
        case Operator::kContains:
            return "CONTAINS";
        case Operator::kContainsKey:
            return "CONTAINS KEY";
        case Operator::kLike:
            return "LIKE";
        case Operator::kIsNotNull:
            return "IS NOT NULL";
    }
    return "?";
}

Result<KeyValues> single_values(const Relation& r, const ColumnInfo& col, BindContext* ctx) {
    KeyValues kv;
    if (r.op == Operator::kIn) {
        kv.is_in = true;
        if (r.in_values.is_list) {
            for (const auto& t : r.in_values.list) {
                TESSEL_ASSIGN_OR_RETURN(auto p, prepare_term(t, col.type, col.name, ctx));
                kv.alternatives.push_back({std::move(p)});
            }
        } else if (r.in_values.single) {
            TESSEL_ASSIGN_OR_RETURN(auto p,
                                    prepare_term(*r.in_values.single, list_type(col.type, false),
                                                 "in(" + col.name + ")", ctx));
            kv.list_marker = std::move(p);
        }
        return kv;
    }
    if (!r.value) return Status::invalid("Missing value for column " + col.name);
    TESSEL_ASSIGN_OR_RETURN(auto p, prepare_term(*r.value, col.type, col.name, ctx));
    kv.alternatives.push_back({std::move(p)});
    return kv;
}

Result<std::vector<TermPlan>> tuple_terms(const Term& t, const std::vector<const ColumnInfo*>& cols,
                                          std::optional<TermPlan>* marker, BindContext* ctx) {
    std::vector<TypePtr> types;
    std::string name = "(";
    for (size_t i = 0; i < cols.size(); ++i) {
        types.push_back(cols[i]->type);
        name += (i ? "," : "") + cols[i]->name;
    }
    name += ")";
    std::vector<TermPlan> out;
    if (t.is_bind_marker()) {
        TESSEL_ASSIGN_OR_RETURN(auto p, prepare_term(t, tuple_type(types), name, ctx));
        *marker = std::move(p);
        return out;
    }
    std::vector<const Term*> parts;
    std::vector<Term> literal_parts;
    if (t.is_literal() && t.literal().kind == Literal::Kind::kTuple) {
        for (const auto& e : t.literal().elements)
            literal_parts.push_back(Term{e, {}});
        for (const auto& e : literal_parts)
            parts.push_back(&e);
    } else if (t.is_collection() && t.collection().kind == Literal::Kind::kTuple) {
        for (const auto& e : t.collection().elements)
            parts.push_back(&e);
    } else {
        return Status::invalid("Expected a tuple of " + std::to_string(cols.size()) +
                               " values for " + name);
    }
    if (parts.size() != cols.size()) {
        return Status::invalid("Expected " + std::to_string(cols.size()) +
                               " elements in value tuple, but got " + std::to_string(parts.size()) +
                               ": " + to_string(t));
    }
    for (size_t i = 0; i < cols.size(); ++i) {
        TESSEL_ASSIGN_OR_RETURN(auto p, prepare_term(*parts[i], cols[i]->type, cols[i]->name, ctx));
        out.push_back(std::move(p));
    }
    return out;
}

}  // namespace tessel::cql
