#include "query/paging_state.h"

#include <gtest/gtest.h>

namespace tessel::query {
namespace {

PagingState sample() {
    PagingState s;
    s.table_id = "table-1";
    Fingerprint f;
    f.add("SELECT * FROM t");
    f.add_int(3);
    s.fingerprint = f.finish();
    s.columns = "cols-v1";
    s.partition_key = std::string("\x80\x00\x01\x02", 4);
    s.clustering = "ck";
    s.partition_done = true;
    s.remaining = 17;
    s.remaining_in_partition = 2;
    return s;
}

TEST(PagingState, RoundTrips) {
    const std::string secret(32, 's');
    const std::string bytes = encode_paging_state(sample(), secret);
    auto back = decode_paging_state(bytes, secret);
    ASSERT_TRUE(back.is_ok());
    EXPECT_EQ(back->table_id, "table-1");
    EXPECT_EQ(back->fingerprint, sample().fingerprint);
    EXPECT_EQ(back->columns, "cols-v1");
    EXPECT_EQ(back->partition_key, sample().partition_key);
    EXPECT_EQ(back->clustering, "ck");
    EXPECT_TRUE(back->partition_done);
    EXPECT_EQ(back->remaining, 17);
    EXPECT_EQ(back->remaining_in_partition, 2);
}

TEST(PagingState, EveryAlterationIsRejected) {
    const std::string secret(32, 's');
    const std::string bytes = encode_paging_state(sample(), secret);
    for (size_t i = 0; i < bytes.size(); ++i) {
        std::string forged = bytes;
        forged[i] ^= 0x20;
        auto r = decode_paging_state(forged, secret);
        ASSERT_FALSE(r.is_ok()) << "byte " << i;
        EXPECT_EQ(r.status().code(), ErrorCode::kInvalid);
        EXPECT_EQ(r.status().message(), "Invalid paging state");
    }
    for (size_t n = 0; n < bytes.size(); ++n) {
        EXPECT_FALSE(decode_paging_state(bytes.substr(0, n), secret).is_ok()) << n;
    }
    EXPECT_FALSE(decode_paging_state(bytes, std::string(32, 't')).is_ok());
}

TEST(PagingState, FingerprintDependsOnPartBoundaries) {
    Fingerprint a, b;
    a.add("ab");
    a.add("c");
    b.add("a");
    b.add("bc");
    EXPECT_NE(a.finish(), b.finish());
    EXPECT_EQ(a.finish().size(), 32u);
}

}  // namespace
}  // namespace tessel::query
