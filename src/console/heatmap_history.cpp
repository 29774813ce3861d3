#include "console/heatmap_history.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <tuple>
#include <utility>

namespace tessel::console {

const char* heat_metric_name(HeatMetric metric) {
    switch (metric) {
        case HeatMetric::kWrites:
            return "writes";
        case HeatMetric::kReads:
            return "reads";
        case HeatMetric::kBytesWritten:
            return "bytes_written";
        case HeatMetric::kSize:
            return "size";
    }
    return "writes";
}

bool parse_heat_metric(std::string_view text, HeatMetric* metric) {
    for (HeatMetric m :
         {HeatMetric::kWrites, HeatMetric::kReads, HeatMetric::kBytesWritten, HeatMetric::kSize}) {
        if (text == heat_metric_name(m)) {
            *metric = m;
            return true;
        }
    }
    return false;
}

double HeatBand::value(HeatMetric metric) const {
    switch (metric) {
        case HeatMetric::kWrites:
            return writes_per_sec;
        case HeatMetric::kReads:
            return reads_per_sec;
        case HeatMetric::kBytesWritten:
            return bytes_per_sec;
        case HeatMetric::kSize:
            return static_cast<double>(size_bytes);
    }
    return 0;
}

HeatmapHistory::HeatmapHistory(HeatmapHistoryOptions options) : options_(options) {
    if (options_.resolution_ms < 1) options_.resolution_ms = 1;
    if (options_.fine_capacity < 1) options_.fine_capacity = 1;
    if (options_.coarse_factor < 1) options_.coarse_factor = 1;
    if (options_.coarse_capacity < 1) options_.coarse_capacity = 1;
}

void HeatmapHistory::record(HeatFrame frame) {
    std::lock_guard lock(mu_);
    pending_.push_back(frame);
    if (pending_.size() >= options_.coarse_factor) {
        coarse_.push_back(aggregate_frames(pending_));
        pending_.clear();
        while (coarse_.size() > options_.coarse_capacity)
            coarse_.pop_front();
    }
    fine_.push_back(std::move(frame));
    while (fine_.size() > options_.fine_capacity)
        fine_.pop_front();
}

std::vector<HeatFrame> HeatmapHistory::since(diagnostics::TimeMs since) const {
    std::lock_guard lock(mu_);
    std::vector<HeatFrame> out;
    // The fine frames cover [fine_.front().at, now): enough when the request
    // starts within them, or when nothing older was ever aggregated.
    const bool fine_enough = fine_.empty() || since >= fine_.front().at || coarse_.empty() ||
                             coarse_.front().at >= fine_.front().at;
    if (fine_enough) {
        for (const HeatFrame& f : fine_)
            if (f.at >= since) out.push_back(f);
        return out;
    }
    for (const HeatFrame& f : coarse_)
        if (f.at + f.span_ms > since) out.push_back(f);
    for (const HeatFrame& f : pending_)
        out.push_back(f);
    return out;
}

size_t HeatmapHistory::fine_size() const {
    std::lock_guard lock(mu_);
    return fine_.size();
}

size_t HeatmapHistory::coarse_size() const {
    std::lock_guard lock(mu_);
    return coarse_.size();
}

HeatFrame aggregate_frames(const std::vector<HeatFrame>& frames) {
    HeatFrame out;
    if (frames.empty()) return out;
    out.at = frames.front().at;
    const HeatFrame& last = frames.back();
    out.span_ms = last.at + last.span_ms - out.at;
    int64_t total = 0;
    for (const HeatFrame& f : frames)
        total += f.span_ms;
    if (total <= 0) total = 1;
    using Key = std::tuple<std::string, std::string, std::string>;
    struct Sum {
        size_t order = 0;  // first appearance, to keep the frames' band order
        HeatBand band;     // position and size of its last appearance
        double reads = 0, writes = 0, bytes = 0;
    };
    std::map<Key, Sum> sums;
    for (const HeatFrame& f : frames) {
        for (const HeatBand& b : f.bands) {
            auto [it, inserted] =
                sums.try_emplace(Key{b.table, b.range_start, b.range_end}, Sum{sums.size(), b});
            Sum& s = it->second;
            if (!inserted) s.band = b;
            const auto w = static_cast<double>(f.span_ms);
            s.reads += b.reads_per_sec * w;
            s.writes += b.writes_per_sec * w;
            s.bytes += b.bytes_per_sec * w;
        }
    }
    out.bands.resize(sums.size());
    for (auto& [key, s] : sums) {
        HeatBand b = std::move(s.band);
        b.reads_per_sec = s.reads / static_cast<double>(total);
        b.writes_per_sec = s.writes / static_cast<double>(total);
        b.bytes_per_sec = s.bytes / static_cast<double>(total);
        out.bands[s.order] = std::move(b);
    }
    return out;
}

std::vector<HeatFrame> downsample(const std::vector<HeatFrame>& frames, size_t max_columns) {
    if (max_columns == 0 || frames.size() <= max_columns) return frames;
    const size_t group = (frames.size() + max_columns - 1) / max_columns;
    std::vector<HeatFrame> out;
    for (size_t i = 0; i < frames.size(); i += group) {
        const size_t end = std::min(frames.size(), i + group);
        out.push_back(aggregate_frames(std::vector<HeatFrame>(
            frames.begin() + static_cast<long>(i), frames.begin() + static_cast<long>(end))));
    }
    return out;
}

}  // namespace tessel::console
