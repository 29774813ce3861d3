// USING TIMESTAMP with bound values, as Cassandra 4.0: any timestamp but
// Long.MIN_VALUE is accepted (negative ones included); Long.MIN_VALUE is
// Invalid "Out of bound timestamp, ..." (UpdateParameters) for INSERT, UPDATE,
// DELETE and BATCH; null is Invalid "Invalid null value of timestamp"; unset
// means the statement's own timestamp. Literals: tests/cql/using_timestamp_bounds.cql.
#include <cstdint>
#include <limits>

#include "test_db.h"

namespace tessel::testing {
namespace {

using Rows = std::vector<std::string>;

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr const char* kOutOfBound =
    "Out of bound timestamp, must be in [-9223372036854775807, 9223372036854775807]";

class UsingTimestampTest : public ::testing::Test {
  protected:
    void SetUp() override {
        t.create_keyspace("ks");
        t.ok("USE ks");
        t.ok("CREATE TABLE t (k int PRIMARY KEY, v int)");
    }
    Result<ResultSet> run(const std::string& cql, std::vector<BoundValue> v) {
        auto p = t.session().prepare(cql);
        EXPECT_TRUE(p.is_ok()) << cql << ": " << p.status().to_string();
        if (!p.is_ok()) return p.status();
        return t.session().execute_prepared(p->id, values(std::move(v)));
    }
    static void expect_invalid(const Result<ResultSet>& r, const std::string& message) {
        ASSERT_FALSE(r.is_ok());
        EXPECT_EQ(r.status().code(), ErrorCode::kInvalid);
        EXPECT_EQ(r.status().message(), message);
    }
    TestDb t;
};

TEST_F(UsingTimestampTest, NegativeBoundTimestampsAreWriteTimestamps) {
    auto r = run("INSERT INTO t (k, v) VALUES (?, ?) USING TIMESTAMP ?",
                 {BoundValue::value(int_bytes(1)), BoundValue::value(int_bytes(1)),
                  BoundValue::value(bigint_bytes(-5))});
    ASSERT_TRUE(r.is_ok()) << r.status().to_string();
    EXPECT_EQ(t.rows("SELECT v, writetime(v) FROM t WHERE k = 1"), (Rows{"1|-5"}));
    r = run("UPDATE t USING TIMESTAMP ? SET v = ? WHERE k = ?",
            {BoundValue::value(bigint_bytes(kMin + 1)), BoundValue::value(int_bytes(2)),
             BoundValue::value(int_bytes(1))});
    ASSERT_TRUE(r.is_ok()) << r.status().to_string();
    EXPECT_EQ(t.rows("SELECT v, writetime(v) FROM t WHERE k = 1"), (Rows{"1|-5"}))
        << "older than -5";
    r = run("DELETE FROM t USING TIMESTAMP ? WHERE k = ?",
            {BoundValue::value(bigint_bytes(-5)), BoundValue::value(int_bytes(1))});
    ASSERT_TRUE(r.is_ok()) << r.status().to_string();
    EXPECT_TRUE(t.rows("SELECT v FROM t WHERE k = 1").empty());
}

TEST_F(UsingTimestampTest, LongMinValueIsOutOfBound) {
    const auto min = BoundValue::value(bigint_bytes(kMin));
    expect_invalid(run("INSERT INTO t (k, v) VALUES (?, ?) USING TIMESTAMP ?",
                       {BoundValue::value(int_bytes(1)), BoundValue::value(int_bytes(1)), min}),
                   kOutOfBound);
    expect_invalid(run("UPDATE t USING TIMESTAMP ? SET v = 1 WHERE k = ?",
                       {min, BoundValue::value(int_bytes(1))}),
                   kOutOfBound);
    expect_invalid(
        run("DELETE FROM t USING TIMESTAMP ? WHERE k = ?", {min, BoundValue::value(int_bytes(1))}),
        kOutOfBound);
    expect_invalid(
        run("BEGIN BATCH USING TIMESTAMP ? INSERT INTO t (k, v) VALUES (1, 1); APPLY BATCH", {min}),
        kOutOfBound);
    // A statement of a protocol BATCH with its own bound timestamp.
    auto p = t.session().prepare("INSERT INTO t (k, v) VALUES (?, 1) USING TIMESTAMP ?");
    ASSERT_TRUE(p.is_ok());
    std::vector<BatchEntry> entries{BatchEntry{"INSERT INTO t (k, v) VALUES (2, 2)", {}, {}},
                                    BatchEntry{{}, p->id, {BoundValue::value(int_bytes(3)), min}}};
    expect_invalid(t.session().execute_batch(BatchType::kLogged, entries, {}), kOutOfBound);
    // Nothing of a refused batch is applied.
    EXPECT_TRUE(t.rows("SELECT k FROM t").empty());
}

TEST_F(UsingTimestampTest, NullIsRefusedAndUnsetIsTheStatementsTimestamp) {
    expect_invalid(
        run("INSERT INTO t (k, v) VALUES (1, 1) USING TIMESTAMP ?", {BoundValue::null()}),
        "Invalid null value of timestamp");
    expect_invalid(run("BEGIN BATCH USING TIMESTAMP ? INSERT INTO t (k, v) VALUES (1, 1); "
                       "APPLY BATCH",
                       {BoundValue::null()}),
                   "Invalid null value of timestamp");
    auto r = run("INSERT INTO t (k, v) VALUES (1, 1) USING TIMESTAMP ?", {BoundValue::unset()});
    ASSERT_TRUE(r.is_ok()) << r.status().to_string();
    r = run("BEGIN BATCH USING TIMESTAMP ? INSERT INTO t (k, v) VALUES (2, 2); APPLY BATCH",
            {BoundValue::unset()});
    ASSERT_TRUE(r.is_ok()) << r.status().to_string();
    auto rs = t.ok("SELECT k, writetime(v) FROM t");
    ASSERT_EQ(rs.rows.size(), 2u);
}

}  // namespace
}  // namespace tessel::testing
