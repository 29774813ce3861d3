// A term bound to the type it must produce: what prepare makes of an AST Term
// (a constant, bind marker, function call or collection with markers), and
// what the coordinator evaluates against a request's bound values.
#pragma once

#include <string>
#include <vector>

#include "cql/prepare_functions.h"
#include "types/cql_type.h"
#include "types/literal.h"

namespace tessel::cql {

struct TermPlan {
    enum class Kind {
        kConstant,    // `constant` holds the encoded value
        kNull,        // NULL literal
        kMarker,      // bound value number `marker`
        kFunction,    // function(args)
        kCollection,  // list/set/map/tuple/UDT literal with non-constant parts
    };
    Kind kind = Kind::kNull;
    TypePtr type;  // the type the term produces
    std::string constant;
    int marker = -1;
    const ScalarFunction* function = nullptr;
    // kFunction: the arguments. kCollection: the elements (list/set/tuple/UDT
    // fields in type order) or, for maps, key and value alternating.
    std::vector<TermPlan> args;
    Literal::Kind collection_kind = Literal::Kind::kList;

    bool is_marker() const { return kind == Kind::kMarker; }
    bool is_constant() const { return kind == Kind::kConstant; }
    static TermPlan constant_of(TypePtr type, std::string bytes) {
        TermPlan t;
        t.kind = Kind::kConstant;
        t.type = std::move(type);
        t.constant = std::move(bytes);
        return t;
    }
};

}  // namespace tessel::cql
