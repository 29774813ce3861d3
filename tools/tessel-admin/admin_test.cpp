#include <gtest/gtest.h>

#include <sstream>

#include "admin.h"

namespace tessel::admin {
namespace {

TEST(Admin, Durations) {
    EXPECT_EQ(parse_duration_ms("10s"), 10000);
    EXPECT_EQ(parse_duration_ms("500ms"), 500);
    EXPECT_EQ(parse_duration_ms("2m"), 120000);
    EXPECT_EQ(parse_duration_ms("1h"), 3600000);
    EXPECT_EQ(parse_duration_ms("750"), 750);  // nodetool's -d is milliseconds
    EXPECT_FALSE(parse_duration_ms("").has_value());
    EXPECT_FALSE(parse_duration_ms("s").has_value());
    EXPECT_FALSE(parse_duration_ms("10d").has_value());
    EXPECT_FALSE(parse_duration_ms("99999999999999s").has_value());
}

TEST(Admin, TableRefs) {
    auto both = parse_table_ref("shop.orders");
    ASSERT_TRUE(both.has_value());
    EXPECT_EQ(both->keyspace, "shop");
    EXPECT_EQ(both->table, "orders");
    auto ks = parse_table_ref("shop");
    ASSERT_TRUE(ks.has_value());
    EXPECT_TRUE(ks->table.empty());
    EXPECT_FALSE(parse_table_ref("shop.").has_value());
    EXPECT_FALSE(parse_table_ref(".t").has_value());
    EXPECT_FALSE(parse_table_ref("a.b.c").has_value());
}

TEST(Admin, AlignedTable) {
    TextTable t({"Partition", "Count", "+/-"}, {false, true, true});
    t.add({"2024-05-01", "19873", "0"});
    t.add({"été", "12", "3"});
    std::ostringstream out;
    t.print(out, "  ");
    EXPECT_EQ(out.str(),
              "  Partition   Count  +/-\n"
              "  ----------  -----  ---\n"
              "  2024-05-01  19873    0\n"
              "  été            12    3\n");
}

TEST(Admin, Formatting) {
    EXPECT_EQ(human_bytes(512), "512 bytes");
    EXPECT_EQ(human_bytes(1536), "1.50 KiB");
    EXPECT_EQ(human_bytes(104857600), "100.00 MiB");
    EXPECT_EQ(rate_text(20000), "20000");
    EXPECT_EQ(rate_text(12.25), "12.2");
    EXPECT_EQ(rate_text(0.25), "0.25");
    EXPECT_EQ(rate_text(0), "0");
    EXPECT_EQ(cql_string("it's"), "'it''s'");
}

}  // namespace
}  // namespace tessel::admin
