#include "console/heatmap_history.h"

#include <gtest/gtest.h>

namespace tessel::console {
namespace {

HeatBand band(const std::string& start, double writes, uint64_t size = 0) {
    HeatBand b;
    b.table = "ks.t";
    b.range_start = start;
    b.range_end = start + "~";
    b.y0 = 0;
    b.y1 = 0.5;
    b.writes_per_sec = writes;
    b.reads_per_sec = writes / 2;
    b.bytes_per_sec = writes * 100;
    b.size_bytes = size;
    return b;
}

HeatFrame frame(int64_t at, std::vector<HeatBand> bands, int64_t span = 10) {
    return HeatFrame{at, span, std::move(bands)};
}

HeatmapHistoryOptions small() {
    HeatmapHistoryOptions o;
    o.resolution_ms = 10;
    o.fine_capacity = 6;
    o.coarse_factor = 3;
    o.coarse_capacity = 4;
    return o;
}

TEST(HeatmapHistory, KeepsAtMostTheFineCapacity) {
    HeatmapHistory h(small());
    for (int i = 0; i < 20; ++i)
        h.record(frame(i * 10, {band("a", i)}));
    EXPECT_EQ(h.fine_size(), 6u);
    auto frames = h.since(140);
    ASSERT_EQ(frames.size(), 6u);
    EXPECT_EQ(frames.front().at, 140);
    EXPECT_EQ(frames.back().at, 190);
    EXPECT_DOUBLE_EQ(frames.back().bands[0].writes_per_sec, 19);
}

TEST(HeatmapHistory, KeepsAtMostTheCoarseCapacity) {
    HeatmapHistory h(small());
    for (int i = 0; i < 60; ++i)
        h.record(frame(i * 10, {band("a", 1)}));
    EXPECT_EQ(h.coarse_size(), 4u);  // 20 aggregated frames made, 4 kept
    EXPECT_EQ(h.fine_size(), 6u);
}

TEST(HeatmapHistory, RecentRangesComeFromTheFineFrames) {
    HeatmapHistory h(small());
    for (int i = 0; i < 12; ++i)
        h.record(frame(i * 10, {band("a", i)}));
    auto frames = h.since(90);
    ASSERT_EQ(frames.size(), 3u);
    for (const auto& f : frames)
        EXPECT_EQ(f.span_ms, 10);
}

TEST(HeatmapHistory, LongerRangesComeAggregated) {
    HeatmapHistory h(small());
    // 14 frames: four aggregates of three (0-110) and two still pending.
    for (int i = 0; i < 14; ++i)
        h.record(frame(i * 10, {band("a", i)}));
    auto frames = h.since(0);
    ASSERT_EQ(frames.size(), 6u);
    EXPECT_EQ(frames[0].at, 0);
    EXPECT_EQ(frames[0].span_ms, 30);
    EXPECT_DOUBLE_EQ(frames[0].bands[0].writes_per_sec, 1);  // mean of 0, 1, 2
    EXPECT_EQ(frames[3].at, 90);
    EXPECT_DOUBLE_EQ(frames[3].bands[0].writes_per_sec, 10);  // mean of 9, 10, 11
    EXPECT_EQ(frames[4].at, 120);                             // pending fine frames follow
    EXPECT_EQ(frames[4].span_ms, 10);
    EXPECT_EQ(frames[5].at, 130);
}

TEST(HeatmapHistory, EmptyHistoryHasNoFrames) {
    HeatmapHistory h(small());
    EXPECT_TRUE(h.since(0).empty());
}

TEST(HeatmapAggregation, WeightsRatesByTimeAndKeepsTheLastSize) {
    auto f =
        aggregate_frames({frame(0, {band("a", 10, 100)}, 10), frame(10, {band("a", 40, 300)}, 30)});
    EXPECT_EQ(f.at, 0);
    EXPECT_EQ(f.span_ms, 40);
    ASSERT_EQ(f.bands.size(), 1u);
    EXPECT_DOUBLE_EQ(f.bands[0].writes_per_sec, (10.0 * 10 + 40.0 * 30) / 40);
    EXPECT_DOUBLE_EQ(f.bands[0].reads_per_sec, (5.0 * 10 + 20.0 * 30) / 40);
    EXPECT_DOUBLE_EQ(f.bands[0].bytes_per_sec, (1000.0 * 10 + 4000.0 * 30) / 40);
    EXPECT_EQ(f.bands[0].size_bytes, 300u);
}

TEST(HeatmapAggregation, ATabletBornInASplitCountsFromItsBirth) {
    // "a" splits into "a" and "m" between the two frames.
    HeatBand whole = band("a", 20);
    whole.range_end = "z";
    HeatBand left = band("a", 10);
    left.range_end = "m";
    HeatBand right = band("m", 30);
    right.range_end = "z";
    auto f = aggregate_frames({frame(0, {whole}), frame(10, {left, right})});
    ASSERT_EQ(f.bands.size(), 3u);
    EXPECT_EQ(f.bands[0].range_end, "z");
    EXPECT_DOUBLE_EQ(f.bands[0].writes_per_sec, 10);  // 20 for half the time
    EXPECT_DOUBLE_EQ(f.bands[1].writes_per_sec, 5);
    EXPECT_DOUBLE_EQ(f.bands[2].writes_per_sec, 15);
}

TEST(HeatmapAggregation, DownsampleBoundsTheColumns) {
    std::vector<HeatFrame> frames;
    for (int i = 0; i < 10; ++i)
        frames.push_back(frame(i * 10, {band("a", i)}));
    EXPECT_EQ(downsample(frames, 20).size(), 10u);
    auto four = downsample(frames, 4);  // groups of three: 0-2, 3-5, 6-8, 9
    ASSERT_EQ(four.size(), 4u);
    EXPECT_EQ(four[1].at, 30);
    EXPECT_EQ(four[1].span_ms, 30);
    EXPECT_DOUBLE_EQ(four[1].bands[0].writes_per_sec, 4);
    EXPECT_DOUBLE_EQ(four[3].bands[0].writes_per_sec, 9);
}

TEST(HeatMetric, NamesRoundTrip) {
    for (HeatMetric m :
         {HeatMetric::kWrites, HeatMetric::kReads, HeatMetric::kBytesWritten, HeatMetric::kSize}) {
        HeatMetric parsed = HeatMetric::kWrites;
        ASSERT_TRUE(parse_heat_metric(heat_metric_name(m), &parsed));
        EXPECT_EQ(parsed, m);
    }
    HeatMetric m = HeatMetric::kReads;
    EXPECT_FALSE(parse_heat_metric("bytes", &m));
    EXPECT_FALSE(parse_heat_metric("", &m));
    EXPECT_EQ(m, HeatMetric::kReads);
    EXPECT_DOUBLE_EQ(band("a", 3, 7).value(HeatMetric::kSize), 7);
}

}  // namespace
}  // namespace tessel::console
