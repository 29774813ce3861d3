// Leases and LeaseKeeper against a real etcd (its own: these tests pause it).
#include "cluster/etcd_lease_keeper.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>

#include "cluster/etcd_process.h"

namespace tessel::cluster {
namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

class EtcdLeaseTest : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        etcd_ = new test::EtcdProcess();
        std::string error;
        if (!etcd_->start(&error)) {
            delete etcd_;
            etcd_ = nullptr;
            FAIL() << error;
        }
    }
    static void TearDownTestSuite() {
        delete etcd_;
        etcd_ = nullptr;
    }
    void SetUp() override { ASSERT_NE(etcd_, nullptr) << "etcd did not start"; }
    void TearDown() override {
        if (etcd_) etcd_->resume();
    }

    static EtcdClient client(int request_timeout_ms = 5000) {
        EtcdOptions options;
        options.endpoints = {etcd_->endpoint()};
        options.request_timeout_ms = request_timeout_ms;
        return EtcdClient::create(options).value();
    }
    static std::string key(const std::string& name) {
        return std::string("lease/") +
               ::testing::UnitTest::GetInstance()->current_test_info()->name() + "/" + name;
    }

    static test::EtcdProcess* etcd_;
};
test::EtcdProcess* EtcdLeaseTest::etcd_ = nullptr;

// Records what a keeper reports.
struct LossLog {
    std::mutex mu;
    std::vector<std::string> reasons;
    std::atomic<int> count{0};
    LeaseKeeper::LostCallback callback() {
        return [this](const Status& why) {
            std::lock_guard lock(mu);
            reasons.push_back(why.message());
            ++count;
        };
    }
    std::string first() {
        std::lock_guard lock(mu);
        return reasons.empty() ? "" : reasons[0];
    }
};

TEST_F(EtcdLeaseTest, GrantKeepAliveRevoke) {
    auto c = client();
    auto lease = c.grant_lease(30);
    ASSERT_TRUE(lease.is_ok()) << lease.status().to_string();
    EXPECT_NE(lease->id, 0);
    EXPECT_EQ(lease->ttl_seconds, 30);
    ASSERT_TRUE(c.put(key("k"), "v", lease->id).is_ok());
    auto got = c.get(key("k"));
    ASSERT_TRUE(got.is_ok());
    EXPECT_EQ(got->kvs.at(0).lease, lease->id);

    auto ttl = c.keep_alive_once(lease->id);
    ASSERT_TRUE(ttl.is_ok()) << ttl.status().to_string();
    EXPECT_GT(*ttl, 25);
    ASSERT_TRUE(c.revoke_lease(lease->id).is_ok());
    EXPECT_TRUE(c.get(key("k"))->kvs.empty());  // revoking deletes the lease's keys
    auto gone = c.keep_alive_once(lease->id);
    ASSERT_TRUE(gone.is_ok()) << gone.status().to_string();
    EXPECT_EQ(*gone, 0);
    EXPECT_TRUE(c.revoke_lease(lease->id).is_ok());  // already gone: not an error
    EXPECT_FALSE(c.grant_lease(0).is_ok());
}

TEST_F(EtcdLeaseTest, KeyExpiresWithoutKeeperAndStaysWithOne) {
    auto c = client();
    auto abandoned = c.grant_lease(1);
    ASSERT_TRUE(abandoned.is_ok());
    ASSERT_TRUE(c.put(key("abandoned"), "v", abandoned->id).is_ok());
    LossLog losses;
    auto keeper = LeaseKeeper::start(c, 2, losses.callback());
    ASSERT_TRUE(keeper.is_ok()) << keeper.status().to_string();
    const int64_t kept_id = (*keeper)->lease_id();
    ASSERT_TRUE(c.put(key("kept"), "v", kept_id).is_ok());

    EXPECT_TRUE(
        test::eventually([&] { return c.get(key("abandoned"))->kvs.empty(); }, milliseconds(5000)));
    // Two TTLs of the kept lease pass: its key is still there.
    std::this_thread::sleep_for(milliseconds(2500));
    auto kept = c.get(key("kept"));
    ASSERT_TRUE(kept.is_ok());
    EXPECT_EQ(kept->kvs.size(), 1u);
    EXPECT_EQ(losses.count.load(), 0) << losses.first();
    EXPECT_FALSE((*keeper)->lost());

    // Destroying the keeper revokes its lease: the key goes at once.
    keeper->reset();
    EXPECT_TRUE(c.get(key("kept"))->kvs.empty());
}

TEST_F(EtcdLeaseTest, KeeperReportsARevokedLease) {
    auto c = client();
    LossLog losses;
    auto keeper = LeaseKeeper::start(c, 3, losses.callback());
    ASSERT_TRUE(keeper.is_ok());
    ASSERT_TRUE(c.revoke_lease((*keeper)->lease_id()).is_ok());
    // The next refresh (every TTL/3 = 1 s) finds the lease gone.
    ASSERT_TRUE(test::eventually([&] { return losses.count.load() > 0; }, milliseconds(3000)));
    EXPECT_TRUE((*keeper)->lost());
    EXPECT_NE(losses.first().find("expired or was revoked"), std::string::npos) << losses.first();
    std::this_thread::sleep_for(milliseconds(200));
    EXPECT_EQ(losses.count.load(), 1);  // once
}

TEST_F(EtcdLeaseTest, KeeperReportsLossWhenEtcdIsUnreachablePastTheTtl) {
    auto c = client(/*request_timeout_ms=*/20000);
    LossLog losses;
    auto keeper = LeaseKeeper::start(c, 1, losses.callback());
    ASSERT_TRUE(keeper.is_ok());
    std::this_thread::sleep_for(milliseconds(400));  // a refresh or two
    EXPECT_EQ(losses.count.load(), 0);
    etcd_->pause();
    const auto paused_at = Clock::now();
    // Each refresh is bounded by what is left of the 1 s TTL, not by the
    // 20 s request timeout (margins for a loaded machine).
    ASSERT_TRUE(test::eventually([&] { return losses.count.load() > 0; }, milliseconds(10000)));
    EXPECT_LT(Clock::now() - paused_at, milliseconds(8000));
    etcd_->resume();
    EXPECT_NE(losses.first().find("presumed lost"), std::string::npos) << losses.first();
    EXPECT_NE(losses.first().find("no answer within"), std::string::npos) << losses.first();
}

TEST_F(EtcdLeaseTest, DestroyingAKeeperIsPromptWhileEtcdHangs) {
    auto c = client(/*request_timeout_ms=*/800);
    LossLog losses;
    auto keeper = LeaseKeeper::start(c, 3, losses.callback());
    ASSERT_TRUE(keeper.is_ok());
    etcd_->pause();
    // The refresh due at 1 s is now waiting for an answer that never comes.
    std::this_thread::sleep_for(milliseconds(1300));
    const auto start = Clock::now();
    keeper->reset();  // abandons the refresh (about 1 s at most), revoke times out (0.8 s)
    EXPECT_LT(Clock::now() - start, milliseconds(6000));  // not the 20 s of a stuck wait
    etcd_->resume();
    EXPECT_EQ(losses.count.load(), 0) << losses.first();
}

}  // namespace
}  // namespace tessel::cluster
