#include "query/selection.h"

#include <cmath>

#include "query/cast.h"
#include "query/numbers.h"
#include "query/term_eval.h"
#include "types/bytes_util.h"
#include "types/value.h"

namespace tessel::query {
namespace {

using SK = cql::SelectorPlan::Kind;

using numbers::read_floating;
using numbers::read_integer;
using numbers::write_floating;
using numbers::write_integer;

bool is_integer(TypeKind k) {
    return numbers::is_fixed_integer(k);
}

std::string json_key(const std::string& name) {
    bool plain = !name.empty();
    for (char c : name) {
        if (!(std::islower(static_cast<unsigned char>(c)) ||
              std::isdigit(static_cast<unsigned char>(c)) || c == '_')) {
            plain = false;
        }
    }
    std::string inner = plain ? name : "\\\"" + name + "\\\"";
    return "\"" + inner + "\"";
}

}  // namespace

Selection::Selection(const cql::SelectPlan& plan, const std::vector<BoundValue>& values,
                     int64_t now_seconds)
    : plan_(plan), values_(values), now_(now_seconds), accs_(plan.selectors.size()) {}

Result<std::optional<std::string>> Selection::eval(const cql::SelectorPlan& s, const RowView& v) {
    const cql::TableInfo& t = *plan_.table;
    switch (s.kind) {
        case SK::kColumn:
            return column_value(t, v, s.column);
        case SK::kWritetime: {
            const storage::Cell* c = simple_cell(t, v, s.column);
            if (!c) return std::optional<std::string>();
            return std::optional<std::string>(bytes::i64_bytes(c->timestamp));
        }
        case SK::kTtl: {
            const storage::Cell* c = simple_cell(t, v, s.column);
            if (!c || c->ttl <= 0 || c->expiry <= 0) return std::optional<std::string>();
            const int64_t left = std::max<int64_t>(0, c->expiry - now_);
            return std::optional<std::string>(bytes::i32_bytes(static_cast<int32_t>(left)));
        }
        case SK::kToken: {
            if (!v.partition) return std::optional<std::string>();
            return std::optional<std::string>(bytes::i64_bytes(partition_token(*v.partition)));
        }
        case SK::kTerm: {
            if (!s.term) return std::optional<std::string>();
            TESSEL_ASSIGN_OR_RETURN(auto tv, evaluate(*s.term, values_));
            if (!tv.is_value()) return std::optional<std::string>();
            return std::optional<std::string>(std::move(tv.bytes));
        }
        case SK::kCast: {
            TESSEL_ASSIGN_OR_RETURN(auto a, eval(s.args[0], v));
            if (!a) return a;
            return cast_value(*s.args[0].type, *s.type, *a);
        }
        case SK::kField: {
            TESSEL_ASSIGN_OR_RETURN(auto a, eval(s.args[0], v));
            if (!a) return a;
            std::string_view in = *a;
            for (int i = 0; in.size() >= 4; ++i) {
                const int32_t len = bytes::read_i32(in);
                in.remove_prefix(4);
                if (len < 0) {
                    if (i == s.field_index) return std::optional<std::string>();
                    continue;
                }
                if (in.size() < static_cast<size_t>(len)) break;
                if (i == s.field_index)
                    return std::optional<std::string>(std::string(in.substr(0, len)));
                in.remove_prefix(len);
            }
            return std::optional<std::string>();
        }
        case SK::kFunction: {
            if (!s.function) {  // toJson
                TESSEL_ASSIGN_OR_RETURN(auto a, eval(s.args[0], v));
                if (!a) return std::optional<std::string>("null");
                return std::optional<std::string>(value_to_json(*s.args[0].type, *a));
            }
            std::vector<cql::OptValue> args;
            for (const auto& a : s.args) {
                TESSEL_ASSIGN_OR_RETURN(auto x, eval(a, v));
                args.push_back(std::move(x));
            }
            return s.function->call(*s.function, args);
        }
        default:
            return std::optional<std::string>();  // aggregates are not evaluated per row
    }
}

Result<OutRow> Selection::to_json(OutRow row) const {
    std::string json = "{";
    for (size_t i = 0; i < plan_.selectors.size(); ++i) {
        if (i) json += ", ";
        json += json_key(plan_.selectors[i].name) + ": ";
        json += row[i] ? value_to_json(*plan_.selectors[i].type, *row[i]) : "null";
    }
    json += "}";
    return OutRow{std::optional<std::string>(std::move(json))};
}

Result<OutRow> Selection::project(const RowView& view) {
    OutRow out;
    out.reserve(plan_.selectors.size());
    for (const auto& s : plan_.selectors) {
        TESSEL_ASSIGN_OR_RETURN(auto v, eval(s, view));
        out.push_back(std::move(v));
    }
    if (plan_.json) return to_json(std::move(out));
    return out;
}

std::vector<std::string> Selection::group_key(const RowView& v) const {
    std::vector<std::string> key;
    const int pk = v.partition ? static_cast<int>(v.partition->size()) : 0;
    for (int i = 0; i < plan_.group_by_columns; ++i) {
        if (i < pk) {
            key.push_back((*v.partition)[i]);
        } else if (v.clustering && static_cast<size_t>(i - pk) < v.clustering->size()) {
            key.push_back((*v.clustering)[i - pk]);
        } else {
            key.emplace_back();
        }
    }
    return key;
}

bool Selection::starts_new_group(const RowView& v) const {
    return group_rows_ > 0 && plan_.group_by_columns > 0 && group_key(v) != current_group_;
}

Status Selection::accumulate(const cql::SelectorPlan& s, Acc* acc, const RowView& v) {
    if (s.kind == SK::kCount) {
        if (s.args.empty()) {
            ++acc->count;
            return Status::ok();
        }
        TESSEL_ASSIGN_OR_RETURN(auto x, eval(s.args[0], v));
        if (x) ++acc->count;
        return Status::ok();
    }
    TESSEL_ASSIGN_OR_RETURN(auto x, eval(s.args[0], v));
    if (!x || x->empty()) return Status::ok();
    const CqlType& at = *s.args[0].type;
    ++acc->count;
    if (s.kind == SK::kMin || s.kind == SK::kMax) {
        if (!acc->best) {
            acc->best = *x;
        } else {
            const int c = compare_values(at, *x, *acc->best);
            if ((s.kind == SK::kMin && c < 0) || (s.kind == SK::kMax && c > 0)) acc->best = *x;
        }
        return Status::ok();
    }
    switch (at.kind) {
        case TypeKind::kFloat:
        case TypeKind::kDouble: {
            const double d = read_floating(at.kind, *x);
            acc->fsimple += d;
            const double t = d - acc->fcomp;
            const double rounded = acc->fsum + t;
            acc->fcomp = (rounded - acc->fsum) - t;
            acc->fsum = rounded;
            break;
        }
        case TypeKind::kDecimal: {
            const auto d = numbers::BigDecimal::from_decimal(*x);
            if (s.kind == SK::kSum) {
                acc->big = numbers::add(acc->big, d);
            } else {  // avg = avg + (value - avg) / count, as Cassandra computes it
                acc->big = numbers::add(
                    acc->big, numbers::divide_half_even(numbers::add(d, numbers::negate(acc->big)),
                                                        acc->count));
            }
            break;
        }
        case TypeKind::kVarint:
            acc->big = numbers::add(acc->big, numbers::BigDecimal::from_varint(*x));
            break;
        default: {
            if (!is_integer(at.kind)) {
                return Status::invalid("Aggregation on " + at.cql_name() +
                                       " values is not supported");
            }
            const int64_t v = read_integer(*x);
            acc->isum += static_cast<uint64_t>(v);
            acc->wide += v;
        }
    }
    return Status::ok();
}

std::optional<std::string> Selection::finish(const cql::SelectorPlan& s, const Acc& acc) const {
    if (s.kind == SK::kCount) return bytes::i64_bytes(acc.count);
    if (s.kind == SK::kMin || s.kind == SK::kMax) return acc.best;
    const TypeKind k = s.type->kind;
    const bool sum = s.kind == SK::kSum;
    switch (k) {
        case TypeKind::kFloat:
        case TypeKind::kDouble: {
            if (!sum && acc.count == 0) return write_floating(k, 0);
            double total = acc.fsum + acc.fcomp;
            if (std::isnan(total) && std::isinf(acc.fsimple)) total = acc.fsimple;
            return write_floating(k, sum ? total : total / static_cast<double>(acc.count));
        }
        case TypeKind::kDecimal:
            return acc.big.to_decimal();
        case TypeKind::kVarint:
            return (sum || acc.count == 0 ? acc.big : numbers::divide_truncated(acc.big, acc.count))
                .to_varint();
        default:
            if (sum) return write_integer(k, static_cast<int64_t>(acc.isum));
            // AVG divides the exact sum in integers, as Cassandra's avg does.
            return write_integer(k,
                                 acc.count == 0 ? 0 : static_cast<int64_t>(acc.wide / acc.count));
    }
}

Status Selection::add(const RowView& view) {
    if (group_rows_ == 0) {
        current_group_ = group_key(view);
        first_row_.assign(plan_.selectors.size(), std::nullopt);
        for (size_t i = 0; i < plan_.selectors.size(); ++i) {
            if (!plan_.selectors[i].is_aggregate()) {
                TESSEL_ASSIGN_OR_RETURN(first_row_[i], eval(plan_.selectors[i], view));
            }
        }
    }
    ++group_rows_;
    for (size_t i = 0; i < plan_.selectors.size(); ++i) {
        if (plan_.selectors[i].is_aggregate()) {
            TESSEL_RETURN_IF_ERROR(accumulate(plan_.selectors[i], &accs_[i], view));
        }
    }
    return Status::ok();
}

Result<OutRow> Selection::flush() {
    OutRow out(plan_.selectors.size());
    for (size_t i = 0; i < plan_.selectors.size(); ++i) {
        const auto& s = plan_.selectors[i];
        out[i] = s.is_aggregate() ? finish(s, accs_[i])
                                  : (i < first_row_.size() ? first_row_[i] : std::nullopt);
    }
    accs_.assign(plan_.selectors.size(), Acc{});
    first_row_.clear();
    group_rows_ = 0;
    if (plan_.json) return to_json(std::move(out));
    return out;
}

}  // namespace tessel::query
