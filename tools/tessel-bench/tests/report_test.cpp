#include "report.h"

#include <gtest/gtest.h>

namespace tessel::bench {
namespace {

PhaseResult result(const std::string& workload, const std::string& phase, const std::string& system,
                   double ops_per_s, double p99_us = 500) {
    PhaseResult r;
    r.workload = workload;
    r.phase = phase;
    r.system = system;
    r.ops = 1000;
    r.seconds = 1;
    r.ops_per_s = ops_per_s;
    r.p99_us = p99_us;
    return r;
}

const TargetCheck* target(const std::vector<TargetCheck>& all, const std::string& prefix) {
    for (const auto& t : all)
        if (t.target.rfind(prefix, 0) == 0) return &t;
    return nullptr;
}
// The result points into `all`: a temporary would leave it dangling.
const TargetCheck* target(std::vector<TargetCheck>&& all, const std::string& prefix) = delete;

TEST(Report, JsonQuoteEscapes) {
    EXPECT_EQ(json_quote("a\"b\\c\n\x01"), "\"a\\\"b\\\\c\\n\\u0001\"");
}

TEST(Report, XmlEscape) {
    EXPECT_EQ(xml_escape("<a & \"b\">"), "&lt;a &amp; &quot;b&quot;&gt;");
}

TEST(Report, ShortNumbers) {
    EXPECT_EQ(short_number(45210), "45.2k");
    EXPECT_EQ(short_number(1234567), "1.23M");
    EXPECT_EQ(short_number(812), "812");
    EXPECT_EQ(short_number(0), "0");
}

TEST(Report, RatiosPairTesselWithPostgresAndRawRocksDb) {
    RunReport r;
    r.results = {result("kv", "write", "tessel", 100000), result("kv", "write", "postgres", 40000),
                 result("kv", "write", "rocksdb-1t", 200000),
                 result("kv", "write", "tessel-batch", 5000),
                 result("kv", "write", "postgres-sync", 2500)};
    auto ratios = r.ratios();
    ASSERT_EQ(ratios.size(), 3u);
    EXPECT_EQ(ratios[0].denominator, "postgres");
    EXPECT_DOUBLE_EQ(ratios[0].value, 2.5);
    EXPECT_EQ(ratios[1].denominator, "rocksdb-1t");
    EXPECT_DOUBLE_EQ(ratios[1].value, 0.5);
    EXPECT_EQ(ratios[2].numerator, "tessel-batch");
    EXPECT_DOUBLE_EQ(ratios[2].value, 2.0);
}

TEST(Report, TargetsAreJudgedFromTheFigures) {
    RunReport r;
    r.results = {result("kv", "write", "tessel", 100000),
                 result("kv", "write", "postgres", 40000),
                 result("kv", "write", "rocksdb-1t", 150000),
                 result("kv", "write", "rocksdb-2t", 200000),
                 result("kv", "write@70%", "tessel", 70000, 2500),
                 result("hotday", "sharded16", "tessel", 95000)};
    r.results[4].target_rate = 70000;
    PhaseResult wide = result("widepartition", "page", "tessel", 100);
    wide.extra["rss_growth_mb"] = "12.5";
    wide.mb_per_s = 64;
    r.results.push_back(wide);
    auto t = r.targets();
    EXPECT_EQ(target(t, "kv writes >= 2x")->status, "met");
    // Compared with the best raw run (2 threads): 100k / 200k = 50%.
    EXPECT_EQ(target(t, "kv writes >= 60%")->status, "missed");
    EXPECT_EQ(target(t, "kv reads >= 1.5x")->status, "not measured");
    EXPECT_EQ(target(t, "kv write p99")->status, "missed");
    EXPECT_EQ(target(t, "hotday")->status, "met");
    EXPECT_EQ(target(t, "widepartition")->status, "met (smaller partition)");
}

TEST(Report, AFixedRateRowBehindItsScheduleSaysSo) {
    RunReport r;
    r.results = {result("kv", "read@70%", "tessel", 40000, 1500)};
    r.results[0].target_rate = 60000;
    const auto behind = r.targets();  // target() points into this vector
    const TargetCheck* t = target(behind, "kv read p99");
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->status, "met");
    EXPECT_NE(t->measured.find("schedule not kept"), std::string::npos) << t->measured;
    r.results[0].ops_per_s = 59900;
    const auto on_time = r.targets();
    EXPECT_EQ(target(on_time, "kv read p99")->measured.find("schedule not kept"),
              std::string::npos);
}

TEST(Report, OutputsCarryEveryResult) {
    RunReport r;
    r.started_at = "2026-01-01T00:00:00Z";
    r.machine.cpu_model = "Test CPU";
    r.results = {result("kv", "write", "tessel", 100000), result("kv", "write", "postgres", 40000)};
    r.results[0].extra["note"] = "x";
    r.features["timeseries"]["time_bucket"] = "false";
    std::string json = to_json(r);
    EXPECT_NE(json.find("\"system\": \"postgres\""), std::string::npos);
    EXPECT_NE(json.find("\"time_bucket\": false"), std::string::npos);
    EXPECT_NE(json.find("\"throughput_ratio\": 2.5"), std::string::npos);
    std::string md = to_markdown(r);
    EXPECT_NE(md.find("| kv.write | tessel |"), std::string::npos);
    EXPECT_NE(md.find("Test CPU"), std::string::npos);
    std::string svg = to_svg(r);
    EXPECT_EQ(svg.rfind("<svg", 0), 0u);
    EXPECT_NE(svg.find("</svg>"), std::string::npos);
    // Two panels x two systems.
    size_t bars = 0;
    for (size_t p = svg.find("<rect x="); p != std::string::npos; p = svg.find("<rect x=", p + 1))
        ++bars;
    EXPECT_EQ(bars, 4u + 2u);  // 4 bars + 2 legend swatches
}

}  // namespace
}  // namespace tessel::bench
