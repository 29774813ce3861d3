#include "console/tablet_changes.h"

#include <set>
#include <unordered_map>

namespace tessel::console {

namespace {

TabletChange change_of(std::vector<TabletRange> from, std::vector<TabletRange> to,
                       diagnostics::TimeMs at) {
    TabletChange c;
    c.at = at;
    c.kind = from.size() == 1 ? "split" : to.size() == 1 ? "merge" : "split_merge";
    c.from = std::move(from);
    c.to = std::move(to);
    return c;
}

}  // namespace

std::vector<TabletChange> diff_tablets(const std::vector<TabletRange>& before,
                                       const std::vector<TabletRange>& after,
                                       diagnostics::TimeMs at) {
    std::vector<TabletChange> out;
    if (before == after) return out;
    const bool same_space = !before.empty() && !after.empty() &&
                            before.front().start == after.front().start &&
                            before.back().end == after.back().end;
    if (!same_space) {
        if (!before.empty() && !after.empty()) out.push_back(change_of(before, after, at));
        if (!out.empty()) out.back().kind = "split_merge";
        return out;
    }
    std::unordered_map<std::string, size_t> before_end, after_end;
    for (size_t i = 0; i < before.size(); ++i)
        before_end[before[i].end] = i;
    for (size_t j = 0; j < after.size(); ++j)
        after_end[after[j].end] = j;
    size_t i = 0, j = 0;
    while (i < before.size() && j < after.size()) {
        const size_t gi = i, gj = j;
        // Advance to the group's common end: the earliest end of either list
        // that the other list has too.
        for (;;) {
            if (before[i].end == after[j].end) break;
            auto in_after = after_end.find(before[i].end);
            if (in_after != after_end.end() && in_after->second > j) {
                j = in_after->second;
                break;
            }
            auto in_before = before_end.find(after[j].end);
            if (in_before != before_end.end() && in_before->second > i) {
                i = in_before->second;
                break;
            }
            if (i + 1 >= before.size() || j + 1 >= after.size()) {
                i = before.size() - 1;
                j = after.size() - 1;
                break;
            }
            ++i;
            ++j;
        }
        if (i - gi != 0 || j - gj != 0 || !(before[gi] == after[gj])) {
            out.push_back(
                change_of(std::vector<TabletRange>(before.begin() + static_cast<long>(gi),
                                                   before.begin() + static_cast<long>(i) + 1),
                          std::vector<TabletRange>(after.begin() + static_cast<long>(gj),
                                                   after.begin() + static_cast<long>(j) + 1),
                          at));
        }
        ++i;
        ++j;
    }
    return out;
}

void TabletChanges::observe(const std::string& table, const std::vector<TabletRange>& tablets,
                            diagnostics::TimeMs now) {
    std::lock_guard lock(mu_);
    auto [it, inserted] = tables_.try_emplace(table);
    Table& t = it->second;
    if (!inserted) {
        for (TabletChange& c : diff_tablets(t.last, tablets, now)) {
            t.changes.push_back(std::move(c));
            while (t.changes.size() > per_table_)
                t.changes.pop_front();
        }
    }
    t.last = tablets;
}

void TabletChanges::retain(const std::vector<std::string>& tables) {
    const std::set<std::string> keep(tables.begin(), tables.end());
    std::lock_guard lock(mu_);
    for (auto it = tables_.begin(); it != tables_.end();) {
        if (keep.count(it->first) == 0) {
            it = tables_.erase(it);
        } else {
            ++it;
        }
    }
}

std::vector<TabletChange> TabletChanges::history(const std::string& table) const {
    std::lock_guard lock(mu_);
    auto it = tables_.find(table);
    if (it == tables_.end()) return {};
    return {it->second.changes.begin(), it->second.changes.end()};
}

}  // namespace tessel::console
