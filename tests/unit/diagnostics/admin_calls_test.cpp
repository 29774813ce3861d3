#include "diagnostics/admin_calls.h"

#include <gtest/gtest.h>

namespace tessel::diagnostics {
namespace {

AdminCall parsed(std::string_view cql) {
    auto r = parse_admin_call(cql);
    EXPECT_TRUE(r.has_value()) << cql;
    if (!r) return {};
    EXPECT_TRUE(r->is_ok()) << cql << ": " << r->status().message();
    return r->is_ok() ? r->value() : AdminCall{};
}

TEST(AdminCalls, ParsesEveryScope) {
    EXPECT_EQ(parsed("CALL system.flush()"), (AdminCall{AdminCall::Op::kFlush, "", "", ""}));
    EXPECT_EQ(parsed("call SYSTEM.COMPACT('ks');"),
              (AdminCall{AdminCall::Op::kCompact, "ks", "", ""}));
    EXPECT_EQ(parsed("  CALL system.flush ( 'ks' , 'it''s' ) ; "),
              (AdminCall{AdminCall::Op::kFlush, "ks", "it's", ""}));
    EXPECT_EQ(parsed("CALL system.repair('ks', 't')"),
              (AdminCall{AdminCall::Op::kRepair, "ks", "t", ""}));
}

TEST(AdminCalls, OtherStatementsAreNotCalls) {
    EXPECT_FALSE(parse_admin_call("SELECT * FROM system.local").has_value());
    EXPECT_FALSE(parse_admin_call("").has_value());
    EXPECT_FALSE(parse_admin_call("CALLX system.flush()").has_value());
}

TEST(AdminCalls, Errors) {
    auto unknown = parse_admin_call("CALL system.cleanup()");
    ASSERT_TRUE(unknown && !unknown->is_ok());
    EXPECT_EQ(unknown->status().code(), ErrorCode::kInvalid);
    EXPECT_EQ(unknown->status().message(),
              "Unknown procedure 'system.cleanup': expected system.flush, system.compact, "
              "system.repair, system.decommission or system.removenode");
    for (const char* bad : {"CALL system.flush", "CALL system.flush(ks)", "CALL system.flush('a'",
                            "CALL system.flush('a') x", "CALL system.flush('a' 'b')"}) {
        auto r = parse_admin_call(bad);
        ASSERT_TRUE(r.has_value()) << bad;
        ASSERT_FALSE(r->is_ok()) << bad;
        EXPECT_EQ(r->status().code(), ErrorCode::kSyntaxError) << bad;
    }
    auto many = parse_admin_call("CALL system.flush('a', 'b', 'c')");
    ASSERT_TRUE(many && !many->is_ok());
    EXPECT_EQ(many->status().code(), ErrorCode::kInvalid);
    auto empty = parse_admin_call("CALL system.flush('')");
    ASSERT_TRUE(empty && !empty->is_ok());
}

TEST(AdminCalls, NodeLifecycleCalls) {
    EXPECT_EQ(parsed("CALL system.decommission();").op, AdminCall::Op::kDecommission);
    AdminCall remove = parsed("call system.removenode('00112233445566778899aabbccddeeff')");
    EXPECT_EQ(remove.op, AdminCall::Op::kRemoveNode);
    EXPECT_EQ(remove.host_id, "00112233445566778899aabbccddeeff");
    EXPECT_EQ(parsed(admin_call_text(remove)), remove);
    EXPECT_EQ(admin_call_text(AdminCall{AdminCall::Op::kDecommission, "", "", ""}),
              "CALL system.decommission()");
    for (const char* bad : {"CALL system.decommission('ks')", "CALL system.removenode()",
                            "CALL system.removenode('a', 'b')", "CALL system.removenode('')"}) {
        auto r = parse_admin_call(bad);
        ASSERT_TRUE(r.has_value()) << bad;
        ASSERT_FALSE(r->is_ok()) << bad;
        EXPECT_EQ(r->status().code(), ErrorCode::kInvalid) << bad;
    }
}

TEST(AdminCalls, TextRoundTrips) {
    AdminCall c{AdminCall::Op::kCompact, "ks", "o'neil", ""};
    EXPECT_EQ(admin_call_text(c), "CALL system.compact('ks', 'o''neil')");
    EXPECT_EQ(parsed(admin_call_text(c)), c);
    EXPECT_EQ(admin_call_text(AdminCall{}), "CALL system.flush()");
}

}  // namespace
}  // namespace tessel::diagnostics
