#include "diagnostics/advisor_inputs.h"

#include <algorithm>

namespace tessel::diagnostics {

void fill_partition_rates(TableStatistics& stats, const HotPartitions& hot, TimeMs now, size_t k,
                          const PartitionSizeLookup& size_of) {
    HotWindow window = hot.previous(now, k);
    double seconds = static_cast<double>(window.length_ms) / 1000.0;
    HotWindow current = hot.current(now, k);
    // At least one second, so a burst just after a window opens does not
    // read as an enormous rate.
    const double current_seconds =
        std::max<double>(1.0, static_cast<double>(now - current.start) / 1000.0);
    auto top_rate = [](const HotWindow& w, double secs) {
        const auto& e = w.of(HotKind::kWrites).entries;
        return e.empty() ? 0.0 : static_cast<double>(e.front().count) / secs;
    };
    // The window whose hottest partition is the busier: a workload that
    // started late in the previous window is not averaged over all of it.
    if (window.of(HotKind::kWrites).entries.empty() ||
        top_rate(current, current_seconds) > top_rate(window, seconds)) {
        window = std::move(current);
        seconds = current_seconds;
    }
    stats.hot_writes.clear();
    stats.growth.clear();
    auto name = [](const TopKEntry& e) { return e.display.empty() ? e.key : e.display; };
    for (const TopKEntry& e : window.of(HotKind::kWrites).entries) {
        stats.hot_writes.push_back(
            PartitionWriteRate{name(e), static_cast<double>(e.count) / seconds});
    }
    for (const TopKEntry& e : window.of(HotKind::kBytes).entries) {
        PartitionGrowth g{name(e), static_cast<double>(e.count) / seconds, 0};
        if (size_of) g.size_bytes = size_of(e.key).value_or(0);
        stats.growth.push_back(std::move(g));
    }
}

}  // namespace tessel::diagnostics
