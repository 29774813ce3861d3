// The tablet map barrier and the load report round-trip; truncated or
// trailing bytes are refused.
#include "cluster/migration_messages.h"

#include <gtest/gtest.h>

namespace tessel::cluster {
namespace {

TEST(MigrationMessages, BarrierRoundTrips) {
    TabletBarrier b{"table-1", 12345678901, 30000};
    TabletBarrier back;
    ASSERT_TRUE(decode(encode(b), &back).is_ok());
    EXPECT_EQ(back.table_id, "table-1");
    EXPECT_EQ(back.revision, 12345678901);
    EXPECT_EQ(back.timeout_ms, 30000u);
}

TEST(MigrationMessages, LoadReportRoundTrips) {
    TabletLoadReport r;
    r.host = std::string(16, '\x07');
    r.tablets.push_back({"t1", "", 1000, 1.5, 2.5, 300.0});
    r.tablets.push_back({"t2", std::string("\x80\x00\x01", 3), 0, 0, 0, 0});
    TabletLoadReport back;
    ASSERT_TRUE(decode(encode(r), &back).is_ok());
    EXPECT_EQ(back.host, r.host);
    ASSERT_EQ(back.tablets.size(), 2u);
    EXPECT_EQ(back.tablets[0].table_id, "t1");
    EXPECT_EQ(back.tablets[0].size_bytes, 1000u);
    EXPECT_DOUBLE_EQ(back.tablets[0].reads_per_sec, 1.5);
    EXPECT_DOUBLE_EQ(back.tablets[0].writes_per_sec, 2.5);
    EXPECT_DOUBLE_EQ(back.tablets[0].bytes_per_sec, 300.0);
    EXPECT_EQ(back.tablets[1].start, std::string("\x80\x00\x01", 3));
}

TEST(MigrationMessages, DamagedPayloadsAreRefused) {
    TabletLoadReport r;
    r.host = std::string(16, 'h');
    r.tablets.push_back({"t1", "s", 1, 1, 1, 1});
    const std::string bytes = encode(r);
    TabletLoadReport back;
    for (size_t cut = 0; cut < bytes.size(); ++cut)
        EXPECT_FALSE(decode(bytes.substr(0, cut), &back).is_ok()) << cut;
    EXPECT_FALSE(decode(bytes + "x", &back).is_ok());
    TabletBarrier b;
    EXPECT_FALSE(decode(encode(TabletBarrier{"t", 1, 2}).substr(1), &b).is_ok());
}

}  // namespace
}  // namespace tessel::cluster
