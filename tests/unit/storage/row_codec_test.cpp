#include "storage/row_codec.h"

#include <gtest/gtest.h>

#include "storage_test_util.h"

namespace tessel::storage {
namespace {

using testing::live;
using testing::tomb;

TEST(RowCodec, RowRoundTripKeepsEveryField) {
    RowFragment r;
    r.marker = {1000, 60, 1'700'000'060};
    r.deletion = {900, 1'699'999'999};
    r.complex_deletions.push_back({7, {950, 1'700'000'001}});
    r.cells.push_back(live(3, "abc", 1001, "", 10, 1'700'000'010));
    r.cells.push_back(tomb(7, 1002, 1'700'000'002, "key"));
    r.cells.push_back(testing::counter(9, -5, 1003));
    std::string enc;
    encode_row(12, r, &enc);

    RowValue back;
    ASSERT_TRUE(decode_row(enc, &back));
    EXPECT_EQ(back.pk_length, 12u);
    EXPECT_EQ(back.row.marker.timestamp, 1000);
    EXPECT_EQ(back.row.marker.ttl, 60);
    EXPECT_EQ(back.row.marker.expiry, 1'700'000'060);
    EXPECT_EQ(back.row.deletion.timestamp, 900);
    EXPECT_EQ(back.row.deletion.local_deletion_time, 1'699'999'999);
    ASSERT_EQ(back.row.complex_deletions.size(), 1u);
    EXPECT_EQ(back.row.complex_deletions[0].column_id, 7u);
    EXPECT_EQ(back.row.complex_deletions[0].deletion.timestamp, 950);
    ASSERT_EQ(back.row.cells.size(), 3u);
    EXPECT_EQ(back.row.cells[0].value, "abc");
    EXPECT_EQ(back.row.cells[0].ttl, 10);
    EXPECT_EQ(back.row.cells[1].kind, Cell::Kind::kTombstone);
    EXPECT_EQ(back.row.cells[1].path, "key");
    EXPECT_EQ(back.row.cells[1].expiry, 1'700'000'002);
    EXPECT_EQ(back.row.cells[2].kind, Cell::Kind::kCounterDelta);
    EXPECT_EQ(decode_counter(back.row.cells[2].value), -5);

    auto prefix = peek_record(enc);
    ASSERT_TRUE(prefix);
    EXPECT_EQ(prefix->type, RecordType::kRow);
    EXPECT_EQ(prefix->pk_length, 12u);
}

TEST(RowCodec, HeaderRoundTrip) {
    HeaderValue h;
    h.pk_length = 4;
    h.partition_deletion = {77, 1234};
    h.range_tombstones.push_back({{"a", true}, {"c", false}, {80, 1235}});
    std::string enc;
    encode_header(h, &enc);
    HeaderValue back;
    ASSERT_TRUE(decode_header(enc, &back));
    EXPECT_EQ(back.pk_length, 4u);
    EXPECT_EQ(back.partition_deletion.timestamp, 77);
    ASSERT_EQ(back.range_tombstones.size(), 1u);
    EXPECT_EQ(back.range_tombstones[0].start.prefix, "a");
    EXPECT_TRUE(back.range_tombstones[0].start.inclusive);
    EXPECT_EQ(back.range_tombstones[0].end.prefix, "c");
    EXPECT_FALSE(back.range_tombstones[0].end.inclusive);
    EXPECT_EQ(peek_record(enc)->type, RecordType::kHeader);
    RowValue wrong;
    EXPECT_FALSE(decode_row(enc, &wrong));
}

TEST(RowCodec, RejectsEveryTruncationAndTrailingGarbage) {
    RowFragment r;
    r.marker.timestamp = 5;
    r.cells.push_back(live(1, "value", 5, "p"));
    std::string enc;
    encode_row(3, r, &enc);
    RowValue out;
    for (size_t n = 0; n < enc.size(); ++n) {
        EXPECT_FALSE(decode_row(enc.substr(0, n), &out)) << "prefix of " << n << " bytes";
    }
    EXPECT_FALSE(decode_row(enc + "x", &out));
    std::string bad_version = enc;
    bad_version[0] = 9;
    EXPECT_FALSE(decode_row(bad_version, &out));
    EXPECT_FALSE(peek_record(bad_version));
}

TEST(RowCodec, HugeCountInCorruptValueIsRejectedWithoutAllocating) {
    std::string enc;
    enc.push_back(static_cast<char>(kFormatVersion));
    enc.push_back('R');
    enc.push_back(1);                       // pk length
    enc.push_back(0);                       // flags
    enc.append("\xff\xff\xff\xff\x0f", 5);  // complex deletion count ~ 4 billion
    RowValue out;
    EXPECT_FALSE(decode_row(enc, &out));
}

TEST(RowCodec, KeysOrderHeaderStaticThenRows) {
    const std::string pk = "pk";
    EXPECT_LT(header_key(pk), static_key(pk));
    EXPECT_LT(static_key(pk), row_key(pk, ""));
    EXPECT_LT(row_key(pk, "a"), row_key(pk, "b"));
    EXPECT_LT(row_key(pk, "\xff\xff"), pk + kEndMarker);
}

TEST(RowCodec, CounterEncodingIsBigEndian) {
    EXPECT_EQ(encode_counter(1), std::string("\0\0\0\0\0\0\0\x01", 8));
    EXPECT_EQ(decode_counter(encode_counter(-42)), -42);
    EXPECT_EQ(decode_counter(encode_counter(INT64_MAX)), INT64_MAX);
}

}  // namespace
}  // namespace tessel::storage
