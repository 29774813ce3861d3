// HeatmapHistory: the console heat map's memory of tablet load, bounded.
//
// A sampler records one frame per resolution step (10 s by default): every
// tablet of every table with its place on the table's key axis and its
// rates. The history keeps the last `fine_capacity` frames (an hour at 10 s)
// and, for longer ranges, aggregated frames of `coarse_factor` fine frames
// each (one minute), at most `coarse_capacity` of them (a day). Memory is
// therefore bounded by (fine_capacity + coarse_capacity) frames of one band
// per tablet.
//
// Aggregation of frames into one: a band (a tablet, known by its table and
// range) gets its rates averaged over the aggregated time, weighted by each
// frame's span (a tablet that existed for part of it, say born in a split,
// counts zero for the rest: its load was its parent's then), and the size
// and position it had in the last frame it appears in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include "diagnostics/clock.h"

namespace tessel::console {

// The metrics a heat map can colour by.
enum class HeatMetric { kWrites, kReads, kBytesWritten, kSize };
// "writes", "reads", "bytes_written", "size"; parse_heat_metric is the inverse
// (false for any other text).
const char* heat_metric_name(HeatMetric metric);
bool parse_heat_metric(std::string_view text, HeatMetric* metric);

// One tablet in one frame.
struct HeatBand {
    std::string table;  // keyspace.table
    std::string range_start;
    std::string range_end;
    // The band's place on its table's key axis, fractions in [0, 1]
    // (token order for hash tables, key order for ordered ones).
    double y0 = 0;
    double y1 = 0;
    double reads_per_sec = 0;
    double writes_per_sec = 0;
    double bytes_per_sec = 0;
    uint64_t size_bytes = 0;

    double value(HeatMetric metric) const;
};

struct HeatFrame {
    diagnostics::TimeMs at = 0;  // start of the interval the frame covers
    int64_t span_ms = 0;         // its length
    std::vector<HeatBand> bands;
};

struct HeatmapHistoryOptions {
    int64_t resolution_ms = 10000;
    size_t fine_capacity = 360;  // one hour at 10 s
    size_t coarse_factor = 6;    // one minute per aggregated frame
    size_t coarse_capacity = 1440;
};

class HeatmapHistory {
  public:
    explicit HeatmapHistory(HeatmapHistoryOptions options = {});

    // Appends a frame (frames arrive in time order). Thread-safe.
    void record(HeatFrame frame);

    // The frames starting at or after `since`, oldest first: the fine frames
    // when they reach back that far, else the aggregated ones followed by the
    // fine frames not yet aggregated. Thread-safe.
    std::vector<HeatFrame> since(diagnostics::TimeMs since) const;

    size_t fine_size() const;
    size_t coarse_size() const;
    const HeatmapHistoryOptions& options() const { return options_; }

  private:
    HeatmapHistoryOptions options_;
    mutable std::mutex mu_;
    std::deque<HeatFrame> fine_;
    std::deque<HeatFrame> coarse_;
    std::vector<HeatFrame> pending_;  // fine frames not yet aggregated
};

// Several frames as one (see the file comment); an empty input gives an
// empty frame.
HeatFrame aggregate_frames(const std::vector<HeatFrame>& frames);

// At most `max_columns` frames: runs of consecutive frames aggregated into
// one, oldest first (unchanged when already within the limit).
std::vector<HeatFrame> downsample(const std::vector<HeatFrame>& frames, size_t max_columns);

}  // namespace tessel::console
