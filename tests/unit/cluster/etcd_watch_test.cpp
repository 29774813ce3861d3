// Watches against a real etcd (its own: these tests restart and pause it).
#include "cluster/etcd_watch.h"

#include <gtest/gtest.h>

#include <chrono>
#include <mutex>

#include "cluster/etcd_client.h"
#include "cluster/etcd_process.h"

namespace tessel::cluster {
namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

class EtcdWatchTest : public ::testing::Test {
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

    static EtcdClient client(std::vector<std::string> endpoints = {}) {
        EtcdOptions options;
        options.endpoints = endpoints.empty() ? std::vector{etcd_->endpoint()} : endpoints;
        options.request_timeout_ms = 10000;
        options.connect_timeout_ms = 500;
        return EtcdClient::create(options).value();
    }
    static std::string prefix() {
        return std::string("watch/") +
               ::testing::UnitTest::GetInstance()->current_test_info()->name() + "/";
    }

    static test::EtcdProcess* etcd_;
};
test::EtcdProcess* EtcdWatchTest::etcd_ = nullptr;

// What a watch delivered, for checking from the test thread.
struct Recorder {
    std::mutex mu;
    std::vector<WatchEvent> events;
    std::vector<WatchBatch> compactions;
    int batches = 0;
    bool out_of_order = false;

    EtcdClient::WatchCallback callback() {
        return [this](const WatchBatch& batch) {
            std::lock_guard lock(mu);
            ++batches;
            if (batch.compacted) compactions.push_back(batch);
            for (const auto& e : batch.events) {
                if (!events.empty() && e.kv.mod_revision < events.back().kv.mod_revision) {
                    out_of_order = true;
                }
                events.push_back(e);
            }
        };
    }
    size_t count() {
        std::lock_guard lock(mu);
        return events.size();
    }
    std::vector<WatchEvent> snapshot() {
        std::lock_guard lock(mu);
        return events;
    }
};

// (type, key, value, revision) of the writes a test made, to compare with
// what the watch saw.
struct Expected {
    WatchEvent::Type type;
    std::string key, value;
    int64_t revision;
};

void expect_events(const std::vector<WatchEvent>& got, const std::vector<Expected>& want) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) {
        EXPECT_EQ(got[i].type, want[i].type) << i;
        EXPECT_EQ(got[i].kv.key, want[i].key) << i;
        EXPECT_EQ(got[i].kv.mod_revision, want[i].revision) << i;
        if (want[i].type == WatchEvent::Type::kPut) {
            EXPECT_EQ(got[i].kv.value, want[i].value) << i;
        }
    }
}

TEST_F(EtcdWatchTest, EventsArriveInRevisionOrder) {
    auto c = client();
    const std::string p = prefix();
    auto start = c.get_prefix(p);
    ASSERT_TRUE(start.is_ok());
    Recorder rec;
    auto watch = c.watch_prefix(p, start->revision + 1, rec.callback());
    using T = WatchEvent::Type;
    std::vector<Expected> want;
    for (int i = 0; i < 10; ++i) {
        const std::string k = p + std::to_string(i % 3);
        auto r = c.put(k, "v" + std::to_string(i));
        ASSERT_TRUE(r.is_ok());
        want.push_back({T::kPut, k, "v" + std::to_string(i), *r});
    }
    ASSERT_TRUE(c.put("watch/elsewhere", "x").is_ok());  // outside the prefix
    auto d = c.erase(p + "1");
    ASSERT_TRUE(d.is_ok());
    want.push_back({T::kDelete, p + "1", "", *d});
    // One transaction: two events of one revision, in one batch.
    auto t = c.txn({}, {TxnOp::put(p + "a", "A"), TxnOp::put(p + "b", "B")}, {});
    ASSERT_TRUE(t.is_ok());
    want.push_back({T::kPut, p + "a", "A", t->revision});
    want.push_back({T::kPut, p + "b", "B", t->revision});

    ASSERT_TRUE(test::eventually([&] { return rec.count() >= want.size(); }));
    std::this_thread::sleep_for(milliseconds(100));  // nothing more arrives
    expect_events(rec.snapshot(), want);
    EXPECT_FALSE(rec.out_of_order);
    EXPECT_TRUE(watch->established());
    EXPECT_EQ(watch->next_revision(), t->revision + 1);
}

TEST_F(EtcdWatchTest, WatchFromNowSeesOnlyLaterChanges) {
    auto c = client();
    const std::string p = prefix();
    ASSERT_TRUE(c.put(p + "before", "x").is_ok());
    Recorder rec;
    auto watch = c.watch_prefix(p, 0, rec.callback());
    ASSERT_TRUE(test::eventually([&] { return watch->established(); }));
    auto r = c.put(p + "after", "y");
    ASSERT_TRUE(r.is_ok());
    ASSERT_TRUE(test::eventually([&] { return rec.count() >= 1; }));
    expect_events(rec.snapshot(), {{WatchEvent::Type::kPut, p + "after", "y", *r}});
}

TEST_F(EtcdWatchTest, SurvivesEtcdRestartWithoutLosingOrRepeatingEvents) {
    auto c = client();
    const std::string p = prefix();
    Recorder rec;
    auto watch = c.watch_prefix(p, 0, rec.callback());
    ASSERT_TRUE(test::eventually([&] { return watch->established(); }));
    std::vector<Expected> want;
    auto write = [&](int i) {
        auto r = c.put(p + std::to_string(i), std::to_string(i));
        ASSERT_TRUE(r.is_ok()) << r.status().to_string();
        want.push_back({WatchEvent::Type::kPut, p + std::to_string(i), std::to_string(i), *r});
    };
    for (int i = 0; i < 5; ++i)
        write(i);
    ASSERT_TRUE(test::eventually([&] { return rec.count() >= 5; }));

    std::string error;
    etcd_->stop();
    ASSERT_TRUE(etcd_->restart(&error)) << error;
    // Written right after the restart, probably before the watch is back:
    // it resumes from its last revision and gets them.
    for (int i = 5; i < 10; ++i)
        write(i);
    ASSERT_TRUE(test::eventually([&] { return rec.count() >= 10; }, milliseconds(8000)))
        << rec.count() << " events; " << watch->last_error().to_string();
    // A second restart while idle, then more writes.
    etcd_->kill();
    ASSERT_TRUE(etcd_->restart(&error)) << error;
    for (int i = 10; i < 13; ++i)
        write(i);
    ASSERT_TRUE(test::eventually([&] { return rec.count() >= 13; }, milliseconds(8000)))
        << watch->last_error().to_string();
    std::this_thread::sleep_for(milliseconds(200));
    expect_events(rec.snapshot(), want);
    EXPECT_FALSE(watch->last_error().is_ok());  // it did see the stream break
}

TEST_F(EtcdWatchTest, CompactedRevisionIsReported) {
    auto c = client();
    const std::string p = prefix();
    auto first = c.put(p + "k", "1");
    ASSERT_TRUE(first.is_ok());
    auto second = c.put(p + "k", "2");
    ASSERT_TRUE(second.is_ok());
    ASSERT_TRUE(etcd_->compact(*second));
    Recorder rec;
    auto watch = c.watch_prefix(p, *first, rec.callback());
    ASSERT_TRUE(test::eventually([&] { return watch->stopped(); }));
    std::lock_guard lock(rec.mu);
    ASSERT_EQ(rec.compactions.size(), 1u);
    EXPECT_TRUE(rec.compactions[0].compacted);
    EXPECT_EQ(rec.compactions[0].compact_revision, *second);
    EXPECT_TRUE(rec.events.empty());
    EXPECT_EQ(rec.batches, 1);

    // The owner's recovery: re-read, then watch from the read's revision + 1.
    auto now = c.get_prefix(p);
    ASSERT_TRUE(now.is_ok());
    EXPECT_EQ(now->kvs.at(0).value, "2");
    Recorder rec2;
    auto resumed = c.watch_prefix(p, now->revision + 1, rec2.callback());
    auto third = c.put(p + "k", "3");
    ASSERT_TRUE(third.is_ok());
    ASSERT_TRUE(test::eventually([&] { return rec2.count() >= 1; }));
    expect_events(rec2.snapshot(), {{WatchEvent::Type::kPut, p + "k", "3", *third}});
}

TEST_F(EtcdWatchTest, FailsOverToALiveEndpoint) {
    const std::string dead = "http://127.0.0.1:" + std::to_string(test::EtcdProcess::free_port());
    auto c = client({dead, etcd_->endpoint()});
    const std::string p = prefix();
    auto start = c.get_prefix(p);  // the client now prefers the live endpoint...
    ASSERT_TRUE(start.is_ok());
    auto dead_first = client({dead, etcd_->endpoint()});  // ...this one does not
    Recorder rec;
    auto watch = dead_first.watch_prefix(p, start->revision + 1, rec.callback());
    auto r = c.put(p + "k", "v");
    ASSERT_TRUE(r.is_ok());
    ASSERT_TRUE(test::eventually([&] { return rec.count() >= 1; }));
    expect_events(rec.snapshot(), {{WatchEvent::Type::kPut, p + "k", "v", *r}});
}

TEST_F(EtcdWatchTest, DestroyingAWatchIsPrompt) {
    auto c = client();
    const std::string p = prefix();
    auto timed_destroy = [](std::unique_ptr<EtcdWatch> w) {
        auto start = Clock::now();
        w.reset();
        return std::chrono::duration_cast<milliseconds>(Clock::now() - start);
    };
    Recorder rec;
    // An established, idle stream.
    auto idle = c.watch_prefix(p, 0, rec.callback());
    ASSERT_TRUE(test::eventually([&] { return idle->established(); }));
    EXPECT_LT(timed_destroy(std::move(idle)), milliseconds(2000));
    // One that keeps failing to connect (in its backoff).
    const std::string dead = "http://127.0.0.1:" + std::to_string(test::EtcdProcess::free_port());
    auto failing = client({dead}).watch_prefix(p, 0, rec.callback());
    std::this_thread::sleep_for(milliseconds(300));
    EXPECT_FALSE(failing->established());
    EXPECT_NE(failing->last_error().message().find("Connection refused"), std::string::npos)
        << failing->last_error().to_string();
    EXPECT_LT(timed_destroy(std::move(failing)), milliseconds(2000));
    // One waiting on an etcd that accepted the connection but hangs.
    etcd_->pause();
    auto hung = c.watch_prefix(p, 0, rec.callback());
    std::this_thread::sleep_for(milliseconds(200));
    EXPECT_LT(timed_destroy(std::move(hung)), milliseconds(2000));
    etcd_->resume();
}

TEST_F(EtcdWatchTest, CanBeDestroyedFromItsOwnCallback) {
    auto c = client();
    const std::string p = prefix();
    std::mutex mu;
    std::unique_ptr<EtcdWatch> watch;
    std::atomic<int> calls{0};
    {
        std::lock_guard lock(mu);
        watch = c.watch_prefix(p, 0, [&](const WatchBatch&) {
            std::lock_guard lock(mu);
            ++calls;
            watch.reset();
        });
    }
    ASSERT_TRUE(test::eventually([&] {
        std::lock_guard lock(mu);
        return watch->established();
    }));
    ASSERT_TRUE(c.put(p + "k", "1").is_ok());
    ASSERT_TRUE(test::eventually([&] {
        std::lock_guard lock(mu);
        return watch == nullptr;
    }));
    ASSERT_TRUE(c.put(p + "k", "2").is_ok());
    std::this_thread::sleep_for(milliseconds(200));
    EXPECT_EQ(calls.load(), 1);
}

}  // namespace
}  // namespace tessel::cluster
