#include "query/read_executor.h"

#include <algorithm>

#include "partition/token.h"
#include "query/key_values.h"
#include "query/term_eval.h"
#include "types/bytes_util.h"
#include "types/value.h"

namespace tessel::query {
namespace {

using cql::Operator;

struct FilterValues {
    const cql::Filter* filter;
    std::optional<std::string> value;
    std::vector<std::string> in;
    std::optional<std::string> map_key;
};

// Walks partitions and rows, applying limits and cutting pages.
class Reader {
  public:
    Reader(TableSource& src, const ReadRequest& req)
        : src_(src),
          req_(req),
          plan_(*req.plan),
          table_(*plan_.table),
          layout_(layout_of(table_)),
          selection_(plan_, *req.values, req.now_seconds) {}

    // execute_read drives a read: prepare(); then, unless empty(), either
    // key_targets() and read_partition() for each target that wants_target(),
    // then finish_keys(); or read_range(); last, finish().
    Status prepare() {
        TESSEL_ASSIGN_OR_RETURN(remaining_, eval_limit(plan_.limit, "limit"));
        TESSEL_ASSIGN_OR_RETURN(per_partition_limit_,
                                eval_limit(plan_.per_partition_limit, "per partition limit"));
        if (req_.resume) remaining_ = req_.resume->remaining;
        if (remaining_ == 0) empty_ = true;
        TESSEL_ASSIGN_OR_RETURN(intervals_,
                                clustering_intervals(plan_.where, table_, layout_, *req_.values));
        if (intervals_.empty()) empty_ = true;
        if (plan_.reversed) std::reverse(intervals_.begin(), intervals_.end());
        has_clustering_restrictions_ =
            plan_.where.clustering_prefix_columns > 0 || plan_.where.slice_first_column >= 0;
        // Every clustering column fixed by equality (or none declared): each
        // interval is one row, which storage can look up by key.
        single_rows_ =
            plan_.where.slice_first_column < 0 &&
            plan_.where.clustering_prefix_columns == static_cast<int>(table_.clustering.size());
        for (const auto& f : plan_.where.filters) {
            FilterValues fv{&f, {}, {}, {}};
            if (f.value) {
                TESSEL_ASSIGN_OR_RETURN(auto v, evaluate(*f.value, *req_.values));
                if (v.is_unset()) continue;
                if (!v.is_value()) {
                    return Status::invalid("Unsupported null value for column " +
                                           table_.columns[f.column].name);
                }
                fv.value = std::move(v.bytes);
            }
            if (f.op == Operator::kIn) {
                TESSEL_ASSIGN_OR_RETURN(
                    auto alts, evaluate_key_values(f.in_values, {table_.columns[f.column].name},
                                                   *req_.values));
                for (auto& a : alts)
                    fv.in.push_back(std::move(a[0]));
            }
            if (f.map_key) {
                TESSEL_ASSIGN_OR_RETURN(auto k, evaluate(*f.map_key, *req_.values));
                if (!k.is_value()) continue;
                fv.map_key = std::move(k.bytes);
            }
            filters_.push_back(std::move(fv));
        }
        // An aggregate without GROUP BY is one row: never paged.
        if (!plan_.aggregate || plan_.group_by_columns > 0) page_size_ = req_.page_size;
        return Status::ok();
    }

    // Nothing to read (LIMIT 0, or clustering restrictions no row meets).
    bool empty() const { return empty_; }
    // Restricted partition keys are read one by one; otherwise a range.
    bool reads_keys() const { return plan_.where.partition_restricted(); }

    // The partitions the restricted key names, starting at `*first` (past
    // those a resumed page already returned).
    Result<std::vector<PartitionTarget>> key_targets(size_t* first) {
        TESSEL_ASSIGN_OR_RETURN(auto targets,
                                partition_targets(plan_.where, table_, layout_, *req_.values));
        // ORDER BY over several partitions sorts their rows together (only
        // unpaged: the coordinator refuses to page such queries).
        merge_ = plan_.order_by && !plan_.aggregate && targets.size() > 1;
        *first = 0;
        if (req_.resume) {
            // The targets are a function of the (fingerprinted) values, so the
            // resumed partition is one of them.
            while (*first < targets.size() && targets[*first].key != req_.resume->partition_key) {
                ++*first;
            }
            if (*first == targets.size()) return Status::invalid("Invalid paging state");
            if (req_.resume->partition_done) ++*first;
        }
        // token() restrictions next to the partition key filter its partitions.
        token_filter_ = plan_.where.token_start || plan_.where.token_end;
        if (token_filter_) TESSEL_RETURN_IF_ERROR(token_bounds());
        return targets;
    }

    bool wants_target(const PartitionTarget& t) const {
        return !token_filter_ || in_token_range(partition_token(t.components));
    }

    void finish_keys() {
        if (merge_) finish_merge();
    }

    // The page, once the partitions are read (the Reader is spent).
    Result<ReadPage> finish() {
        if (plan_.aggregate) {
            if (selection_.has_rows() || (plan_.group_by_columns == 0 && page_.rows.empty())) {
                TESSEL_ASSIGN_OR_RETURN(auto row, selection_.flush());
                if (remaining_ != 0) page_.rows.push_back(std::move(row));
            }
        }
        if (has_more_) page_.next = std::move(last_);
        return std::move(page_);
    }

    enum class Flow { kContinue, kNextPartition, kStop };

  private:
    Result<int64_t> eval_limit(const std::optional<cql::TermPlan>& t, const char* what) {
        if (!t) return int64_t{-1};
        TESSEL_ASSIGN_OR_RETURN(auto v, evaluate(*t, *req_.values));
        if (v.is_unset()) return int64_t{-1};
        if (!v.is_value()) return Status::invalid(std::string("Invalid null value of ") + what);
        const int32_t n = bytes::read_i32(v.bytes);
        if (n <= 0) {
            return Status::invalid(
                std::string(what == std::string("limit") ? "LIMIT" : "PER PARTITION LIMIT") +
                " must be strictly positive");
        }
        return int64_t{n};
    }

    void finish_merge() {
        std::stable_sort(merged_.begin(), merged_.end(), [&](const auto& a, const auto& b) {
            return plan_.reversed ? a.first > b.first : a.first < b.first;
        });
        if (remaining_ > 0 && merged_.size() > static_cast<size_t>(remaining_)) {
            merged_.resize(remaining_);
        }
        for (auto& [_, row] : merged_)
            page_.rows.push_back(std::move(row));
        page_.next.reset();
    }

    // The token() bounds as numbers, for in_token_range().
    Status token_bounds() {
        const auto& w = plan_.where;
        for (auto* b : {&w.token_start, &w.token_end}) {
            if (!*b) continue;
            TESSEL_ASSIGN_OR_RETURN(auto v, evaluate((*b)->value, *req_.values));
            if (!v.is_value()) return Status::invalid("Invalid null value for partition key token");
            const int64_t tok = bytes::read_i64(v.bytes);
            if (b == &w.token_start) {
                token_start_ = tok;
                token_start_incl_ = (*b)->inclusive;
            } else {
                token_end_ = tok;
                token_end_incl_ = (*b)->inclusive;
            }
        }
        return Status::ok();
    }

    Result<KeyRange> key_range() {
        KeyRange range;
        const auto& w = plan_.where;
        auto token_bound = [&](const cql::TokenBound& b) -> Result<std::optional<std::string>> {
            TESSEL_ASSIGN_OR_RETURN(auto v, evaluate(b.value, *req_.values));
            if (!v.is_value()) return Status::invalid("Invalid null value for partition key token");
            return std::optional<std::string>(encode_token_prefix(bytes::read_i64(v.bytes)));
        };
        // token() is the logical key's token: ordered tables and tables with
        // hidden key components (whose physical order is not that token's)
        // check it partition by partition.
        const bool check_tokens = !table_.hashed || table_.has_hidden_key();
        if (check_tokens) TESSEL_RETURN_IF_ERROR(token_bounds());
        if (w.token_start && !check_tokens) {
            TESSEL_ASSIGN_OR_RETURN(auto k, token_bound(*w.token_start));
            range.start_key = *k;
            range.start_inclusive = w.token_start->inclusive;
        }
        if (w.token_end && !check_tokens) {
            TESSEL_ASSIGN_OR_RETURN(auto k, token_bound(*w.token_end));
            range.end_key = *k;
            range.end_inclusive = w.token_end->inclusive;
        }
        for (auto* b : {&w.key_start, &w.key_end}) {
            if (!*b) continue;
            TESSEL_ASSIGN_OR_RETURN(auto v, evaluate((*b)->values[0], *req_.values));
            if (!v.is_value()) return Status::invalid("Invalid null value for partition key");
            std::string enc;
            encode_key(*table_.pk(0).type, v.bytes, false, &enc);
            if (b == &w.key_start) {
                range.start_key = enc;
                range.start_inclusive = (*b)->inclusive;
            } else {
                range.end_key = enc;
                range.end_inclusive = (*b)->inclusive;
            }
        }
        if (req_.resume) {
            range.start_key = req_.resume->partition_key;
            range.start_inclusive = !req_.resume->partition_done;
        }
        return range;
    }

  public:
    Task<Status> read_range() {
        TESSEL_CO_ASSIGN_OR_RETURN(auto range, key_range());
        if (!range.start_key.empty() && !range.end_key.empty() &&
            storage::to_interval({range.start_key, range.start_inclusive},
                                 {range.end_key, range.end_inclusive})
                .empty) {
            co_return Status::ok();
        }
        TESSEL_CO_ASSIGN_OR_RETURN(auto cursor, co_await src_.scan(range));
        while (true) {
            if (!cursor->next()) {
                if (!cursor->needs_fetch()) break;
                TESSEL_CO_RETURN_IF_ERROR(co_await cursor->fetch());
                continue;
            }
            const std::string& key = cursor->partition_key();
            TESSEL_CO_ASSIGN_OR_RETURN(auto comps, decode_partition_key(layout_, key));
            if ((!table_.hashed || table_.has_hidden_key()) &&
                !in_token_range(partition_token(comps))) {
                continue;
            }
            Flow f = Flow::kContinue;
            TESSEL_CO_ASSIGN_OR_RETURN(f, co_await read_partition(key, comps, cursor.get()));
            if (f == Flow::kStop) co_return Status::ok();
        }
        co_return cursor->status();
    }

    // Ordered tables keep partitions in key order, so token() restrictions
    // are checked partition by partition.
  private:
    bool in_token_range(int64_t token) const {
        if (token_start_ &&
            (token < *token_start_ || (token == *token_start_ && !token_start_incl_))) {
            return false;
        }
        if (token_end_ && (token > *token_end_ || (token == *token_end_ && !token_end_incl_))) {
            return false;
        }
        return true;
    }

    Task<Result<std::unique_ptr<PartitionStream>>> open(PartitionCursor* cursor,
                                                        const std::string& key,
                                                        const SliceSpec& spec) {
        if (cursor) return cursor->read(spec);
        return src_.read(key, spec);
    }

    // Read_timeout once the request's deadline has passed.
    Status check_deadline() const {
        if (std::chrono::steady_clock::now() < req_.deadline) return Status::ok();
        return Status(ErrorCode::kReadTimeout, "Operation timed out - received only 0 responses.");
    }

  public:
    // Reads one partition; kStop ends the whole read.
    Task<Result<Flow>> read_partition(const std::string& key, const std::vector<std::string>& comps,
                                      PartitionCursor* cursor) {
        TESSEL_CO_RETURN_IF_ERROR(check_deadline());
        const bool resuming =
            req_.resume && !req_.resume->partition_done && key == req_.resume->partition_key;
        partition_count_ = 0;
        if (req_.observer) req_.observer->on_partition_read(table_, comps);
        if (resuming && per_partition_limit_ > 0) {
            partition_count_ = per_partition_limit_ - req_.resume->remaining_in_partition;
        }
        if (plan_.distinct) co_return co_await read_distinct(key, comps, cursor);
        std::optional<storage::Row> static_row;
        bool first = true;
        bool any_row = false;
        for (const auto& iv0 : intervals_) {
            storage::ClusteringInterval iv = iv0;
            if (resuming) {
                const std::string& pos = req_.resume->clustering;
                if (plan_.reversed) {
                    if (!iv.hi || pos < *iv.hi) iv.hi = pos;
                } else if (auto s = storage::prefix_successor(pos)) {
                    if (*s > iv.lo) iv.lo = *s;
                }
                if (iv.hi && iv.lo >= *iv.hi) continue;
            }
            SliceSpec spec;
            spec.start = interval_start(iv);
            spec.end = interval_end(iv);
            spec.reversed = plan_.reversed;
            spec.include_static = first && table_.has_static;
            spec.single_row = single_rows_ && !resuming;
            spec.fill_cache = !req_.resume;
            TESSEL_CO_ASSIGN_OR_RETURN(auto stream, co_await open(cursor, key, spec));
            if (first) static_row = stream->static_row();
            first = false;
            storage::Row row;
            while (true) {
                if (!stream->next(&row)) {
                    if (!stream->needs_fetch()) break;
                    TESSEL_CO_RETURN_IF_ERROR(co_await stream->fetch());
                    continue;
                }
                any_row = true;
                if ((++rows_scanned_ & 63) == 0) TESSEL_CO_RETURN_IF_ERROR(check_deadline());
                TESSEL_CO_ASSIGN_OR_RETURN(auto ck, decode_clustering(layout_, row.clustering));
                RowView v{&comps, &ck, &row, static_row ? &*static_row : nullptr, key};
                TESSEL_CO_ASSIGN_OR_RETURN(bool pass, matches(v));
                if (!pass) continue;
                Flow f = Flow::kContinue;
                TESSEL_CO_ASSIGN_OR_RETURN(f, emit(v, key, row.clustering, false));
                if (f != Flow::kContinue) {
                    page_.tombstones += stream->tombstones_scanned();
                    co_return f == Flow::kStop ? Flow::kStop : Flow::kContinue;
                }
            }
            TESSEL_CO_RETURN_IF_ERROR(stream->status());
            page_.tombstones += stream->tombstones_scanned();
        }
        // A partition with static data and no rows shows as one row with null
        // clustering columns.
        if (!any_row && !resuming && static_row && !has_clustering_restrictions_) {
            std::vector<std::string> no_ck;
            RowView v{&comps, &no_ck, nullptr, &*static_row, key};
            TESSEL_CO_ASSIGN_OR_RETURN(bool pass, matches(v));
            if (pass) {
                Flow f = Flow::kContinue;
                TESSEL_CO_ASSIGN_OR_RETURN(f, emit(v, key, "", true));
                if (f == Flow::kStop) co_return Flow::kStop;
            }
        }
        co_return Flow::kContinue;
    }

  private:
    Task<Result<Flow>> read_distinct(const std::string& key, const std::vector<std::string>& comps,
                                     PartitionCursor* cursor) {
        SliceSpec spec;
        spec.include_static = true;
        TESSEL_CO_ASSIGN_OR_RETURN(auto stream, co_await open(cursor, key, spec));
        std::optional<storage::Row> static_row = stream->static_row();
        storage::Row row;
        const bool has_row = co_await next_row(*stream, &row);
        TESSEL_CO_RETURN_IF_ERROR(stream->status());
        if (!static_row && !has_row) co_return Flow::kContinue;
        std::vector<std::string> no_ck;
        RowView v{&comps, &no_ck, nullptr, static_row ? &*static_row : nullptr, key};
        TESSEL_CO_ASSIGN_OR_RETURN(bool pass, matches(v));
        if (!pass) co_return Flow::kContinue;
        Flow f = Flow::kContinue;
        TESSEL_CO_ASSIGN_OR_RETURN(f, emit(v, key, "", true));
        co_return f == Flow::kStop ? Flow::kStop : Flow::kContinue;
    }

    Result<bool> matches(const RowView& v) {
        for (const auto& fv : filters_) {
            const cql::Filter& f = *fv.filter;
            const cql::ColumnInfo& col = table_.columns[f.column];
            TESSEL_ASSIGN_OR_RETURN(auto val, column_value(table_, v, f.column));
            if (!val) return false;
            const CqlType& type = *col.type;
            switch (f.op) {
                case Operator::kContains:
                case Operator::kContainsKey: {
                    TESSEL_ASSIGN_OR_RETURN(auto els, split_collection(type, *val));
                    const bool keys = f.op == Operator::kContainsKey;
                    const bool is_map = type.kind == TypeKind::kMap;
                    const CqlType& et = *(is_map && !keys ? type.params[1] : type.params[0]);
                    bool found = false;
                    for (size_t i = 0; i < els.size() && !found; ++i) {
                        if (is_map && ((i % 2 == 1) == keys)) continue;
                        found = compare_values(et, els[i], *fv.value) == 0;
                    }
                    if (!found) return false;
                    break;
                }
                case Operator::kIn: {
                    bool found = false;
                    for (const auto& x : fv.in)
                        found = found || compare_values(type, *val, x) == 0;
                    if (!found) return false;
                    break;
                }
                default: {
                    if (fv.map_key) {
                        TESSEL_ASSIGN_OR_RETURN(auto els, split_collection(type, *val));
                        bool ok = false;
                        for (size_t i = 0; i + 1 < els.size(); i += 2) {
                            if (compare_values(*type.params[0], els[i], *fv.map_key) == 0) {
                                ok = compare_values(*type.params[1], els[i + 1], *fv.value) == 0;
                            }
                        }
                        if (!ok) return false;
                        break;
                    }
                    if (!fv.value) break;
                    const int c = compare_values(type, *val, *fv.value);
                    const bool ok =
                        (f.op == Operator::kEq && c == 0) || (f.op == Operator::kLt && c < 0) ||
                        (f.op == Operator::kLte && c <= 0) || (f.op == Operator::kGt && c > 0) ||
                        (f.op == Operator::kGte && c >= 0);
                    if (!ok) return false;
                }
            }
        }
        return true;
    }

    Result<Flow> emit(const RowView& v, const std::string& key, const std::string& clustering,
                      bool partition_done) {
        if (plan_.aggregate) return emit_grouped(v, key, clustering, partition_done);
        if (merge_) {
            TESSEL_ASSIGN_OR_RETURN(auto row, selection_.project(v));
            merged_.emplace_back(clustering, std::move(row));
            ++partition_count_;
            const bool limit_hit =
                (remaining_ > 0 && partition_count_ >= remaining_) ||
                (per_partition_limit_ > 0 && partition_count_ >= per_partition_limit_);
            return limit_hit ? Flow::kNextPartition : Flow::kContinue;
        }
        if (page_full_) {  // a row exists beyond the page: stop and say so
            has_more_ = true;
            return Flow::kStop;
        }
        TESSEL_ASSIGN_OR_RETURN(auto row, selection_.project(v));
        for (const auto& c : row)
            page_bytes_ += c ? c->size() + 4 : 4;
        page_.rows.push_back(std::move(row));
        ++partition_count_;
        const bool partition_limit_hit =
            per_partition_limit_ > 0 && partition_count_ >= per_partition_limit_;
        // Where the next page would start; it becomes the page's paging state
        // only when a row is found beyond the page (assign reuses the buffers).
        last_.partition_key.assign(key);
        last_.clustering.assign(clustering);
        last_.partition_done = partition_done || partition_limit_hit;
        last_.remaining = remaining_ > 0 ? remaining_ - 1 : -1;
        last_.remaining_in_partition =
            per_partition_limit_ > 0 ? per_partition_limit_ - partition_count_ : -1;
        if (remaining_ > 0 && --remaining_ == 0) return Flow::kStop;
        if ((page_size_ > 0 && static_cast<int64_t>(page_.rows.size()) >= page_size_) ||
            page_bytes_ >= req_.max_page_bytes) {
            page_full_ = true;
        }
        return partition_limit_hit || partition_done ? Flow::kNextPartition : Flow::kContinue;
    }

    // Aggregates: a group ends at the first row of the next group. With
    // GROUP BY, LIMIT, PER PARTITION LIMIT and the page size count groups; a
    // page ends after a finished group, its paging state at the group's last
    // row, so the next page starts with the next group.
    Result<Flow> emit_grouped(const RowView& v, const std::string& key,
                              const std::string& clustering, bool partition_done) {
        const bool grouped = plan_.group_by_columns > 0;
        const bool starts_group = !selection_.has_rows() || selection_.starts_new_group(v);
        if (grouped && starts_group) {
            if (per_partition_limit_ > 0 && partition_count_ >= per_partition_limit_) {
                return Flow::kNextPartition;
            }
            if (selection_.has_rows()) {
                TESSEL_ASSIGN_OR_RETURN(auto row, selection_.flush());
                for (const auto& c : row)
                    page_bytes_ += c ? c->size() + 4 : 4;
                page_.rows.push_back(std::move(row));
                if (remaining_ > 0 && --remaining_ == 0) return Flow::kStop;
                if ((page_size_ > 0 && static_cast<int64_t>(page_.rows.size()) >= page_size_) ||
                    page_bytes_ >= req_.max_page_bytes) {
                    // This row begins a group beyond the page.
                    last_ = std::move(group_end_);
                    last_.remaining = remaining_;
                    has_more_ = true;
                    return Flow::kStop;
                }
            }
            ++partition_count_;
        }
        TESSEL_RETURN_IF_ERROR(selection_.add(v));
        if (grouped) {
            group_end_.partition_key.assign(key);
            group_end_.clustering.assign(clustering);
            group_end_.partition_done = partition_done;
            group_end_.remaining_in_partition =
                per_partition_limit_ > 0 ? per_partition_limit_ - partition_count_ : -1;
        }
        return partition_done ? Flow::kNextPartition : Flow::kContinue;
    }

    TableSource& src_;
    const ReadRequest& req_;
    const cql::SelectPlan& plan_;
    const cql::TableInfo& table_;
    KeyLayout layout_;
    Selection selection_;
    std::vector<storage::ClusteringInterval> intervals_;
    std::vector<FilterValues> filters_;
    bool has_clustering_restrictions_ = false;
    bool single_rows_ = false;
    bool empty_ = false;
    int64_t remaining_ = -1;
    int64_t per_partition_limit_ = -1;
    int64_t partition_count_ = 0;
    int64_t page_size_ = -1;
    size_t page_bytes_ = 0;
    uint64_t rows_scanned_ = 0;
    bool page_full_ = false;
    bool has_more_ = false;
    PagingState last_;  // position after the last row emitted
    bool merge_ = false;
    bool token_filter_ = false;  // token() restrictions next to the partition key
    std::optional<int64_t> token_start_, token_end_;
    bool token_start_incl_ = true, token_end_incl_ = true;
    std::vector<std::pair<std::string, OutRow>> merged_;
    PagingState group_end_;  // position of the last row added to the open group
    ReadPage page_;
};

}  // namespace

Task<Result<ReadPage>> execute_read(TableSource& source, const ReadRequest& request) {
    // Without clustering columns a partition is one row: once returned, its
    // partition is done, so the next page starts after it (not at it again).
    std::optional<ReadRequest> resumed;
    if (request.resume && !request.resume->partition_done &&
        request.plan->table->clustering.empty()) {
        resumed = request;
        resumed->resume->partition_done = true;
    }
    Reader r(source, resumed ? *resumed : request);
    TESSEL_CO_RETURN_IF_ERROR(r.prepare());
    if (!r.empty() && r.reads_keys()) {
        size_t first = 0;
        TESSEL_CO_ASSIGN_OR_RETURN(auto targets, r.key_targets(&first));
        for (size_t i = first; i < targets.size(); ++i) {
            const PartitionTarget& t = targets[i];
            if (!r.wants_target(t)) continue;
            Reader::Flow f = Reader::Flow::kContinue;
            TESSEL_CO_ASSIGN_OR_RETURN(f, co_await r.read_partition(t.key, t.components, nullptr));
            if (f == Reader::Flow::kStop) break;
        }
        r.finish_keys();
    } else if (!r.empty()) {
        TESSEL_CO_RETURN_IF_ERROR(co_await r.read_range());
    }
    co_return r.finish();
}

std::string columns_digest(const std::vector<ColumnSpec>& columns) {
    Fingerprint f;
    for (const auto& c : columns) {
        f.add(c.name);
        f.add(c.type ? c.type->cql_name() : std::string());
    }
    return f.finish().substr(0, 8);
}

Status check_resume(const PagingState& state, const cql::TableInfo& table,
                    const std::string& fingerprint, const std::string& columns) {
    if (state.table_id != table.id || state.fingerprint != fingerprint) {
        return Status::invalid("Invalid paging state");
    }
    // The rows of a page are positioned by primary key, which no ALTER
    // changes; but the columns a page carries must be the ones the client was
    // told about on the first page.
    if (state.columns != columns) {
        return Status::invalid("Table " + table.keyspace + "." + table.name +
                               " was altered since the previous page (its result columns "
                               "changed); run the query again from the first page");
    }
    return Status::ok();
}

}  // namespace tessel::query
