// MigrationDriver against a real etcd: the stages of a tablet replica move,
// rollback, resuming after a crash at every stage, and the map changes it
// makes (moves, drops, splits) racing each other. Streaming, dropping and
// barriers are recorded by the hooks.
#include "cluster/migration.h"

#include <gtest/gtest.h>

#include <mutex>
#include <set>
#include <thread>

#include "cluster/etcd_process.h"
#include "partition/token.h"

namespace tessel::cluster {
namespace {

const std::string kA(16, 'a'), kB(16, 'b'), kC(16, 'c'), kD(16, 'd');
const std::string kPrefix = "/test/tablets/";

class MigrationTest : public ::testing::Test {
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

    void SetUp() override {
        ASSERT_NE(etcd_, nullptr) << "etcd did not start";
        auto c = EtcdClient::create(EtcdOptions{{etcd_->endpoint()}});
        ASSERT_TRUE(c.is_ok()) << c.status().message();
        client_.emplace(*c);
        table_ = "t" + std::to_string(next_table_++);
        // Two tablets on {A, B}: [min, 0) and [0, max].
        Tablet t0, t1;
        t0.replicas = {kA, kB};
        t1.start = encode_token_prefix(0);
        t1.replicas = {kA, kB};
        auto map = TabletMap::of(true, {t0, t1});
        ASSERT_TRUE(map.is_ok()) << map.status().message();
        ASSERT_TRUE(client_->put(kPrefix + table_, map->encode()).is_ok());
    }

    MigrationHooks hooks() {
        MigrationHooks h;
        h.barrier = [this](const std::string& table, int64_t revision) {
            std::lock_guard lock(mu_);
            EXPECT_EQ(table, table_);
            auto m = map_now();
            stages_at_barrier_.push_back(m.at(0).transition
                                             ? std::string(stage_name(m.at(0).transition->stage))
                                             : std::string("none"));
            barrier_revisions_.push_back(revision);
            return barrier_status_;
        };
        h.stream = [this](const std::string& source, const std::string& target,
                          const std::string& table, const storage::RecordRange& range) {
            std::lock_guard lock(mu_);
            EXPECT_EQ(table, table_);
            streams_.push_back({source, target, range.start, range.end});
            if (on_stream_) on_stream_();
            return stream_status_;
        };
        h.drop_range = [this](const std::string& host, const std::string& table,
                              const storage::RecordRange& range) {
            std::lock_guard lock(mu_);
            EXPECT_EQ(table, table_);
            drops_.push_back({host, range.start, range.end});
            return Status::ok();
        };
        h.is_member = [this](const std::string& host) {
            std::lock_guard lock(mu_);
            return !removed_.count(host);
        };
        h.is_up = [this](const std::string& host) {
            std::lock_guard lock(mu_);
            return !down_.count(host) && !removed_.count(host);
        };
        h.now_ms = [] { return int64_t{1000}; };
        return h;
    }

    MigrationDriver driver() {
        MigrationOptions o;
        o.retry_delay_ms = 10;
        return MigrationDriver(*client_, kPrefix, hooks(), o);
    }

    TabletMap map_now() const {
        auto got = client_->get(kPrefix + table_);
        EXPECT_TRUE(got.is_ok() && got->kvs.size() == 1);
        auto map = TabletMap::decode(got->kvs.at(0).value);
        EXPECT_TRUE(map.is_ok());
        return *map;
    }

    // Rewrites tablet 0 as if a driver had crashed at `stage`.
    void crash_at(TransitionStage stage) {
        auto map = map_now();
        std::vector<Tablet> tablets = map.tablets();
        tablets[0].transition = TabletTransition{stage, kA, kC, 1000};
        auto next = TabletMap::of(true, tablets);
        ASSERT_TRUE(next.is_ok()) << next.status().message();
        ASSERT_TRUE(client_->put(kPrefix + table_, next->encode()).is_ok());
    }

    static test::EtcdProcess* etcd_;
    static int next_table_;
    std::optional<EtcdClient> client_;
    std::string table_;
    std::mutex mu_;
    std::vector<std::string> stages_at_barrier_;
    std::vector<int64_t> barrier_revisions_;
    std::vector<std::vector<std::string>> streams_;  // source, target, start, end
    std::vector<std::vector<std::string>> drops_;    // host, start, end
    std::set<std::string> down_, removed_;
    Status barrier_status_, stream_status_;
    std::function<void()> on_stream_;
};

test::EtcdProcess* MigrationTest::etcd_ = nullptr;
int MigrationTest::next_table_ = 0;

TEST_F(MigrationTest, CompletesAMoveThroughEveryStage) {
    auto d = driver();
    ASSERT_TRUE(d.start(table_, "", kA, kC).is_ok());
    auto m = map_now();
    ASSERT_TRUE(m.at(0).transition);
    EXPECT_EQ(m.at(0).transition->stage, TransitionStage::kWriteBothReadOld);
    // Writes reach C already; reads stay on A and B.
    EXPECT_EQ(m.at(0).write_replicas(), (std::vector<std::string>{kA, kB, kC}));
    EXPECT_EQ(m.at(0).read_replicas(), (std::vector<std::string>{kA, kB}));

    auto outcome = d.advance(table_, "");
    ASSERT_TRUE(outcome.is_ok()) << outcome.status().message();
    EXPECT_EQ(*outcome, MigrationDriver::Outcome::kCompleted);
    m = map_now();
    EXPECT_FALSE(m.at(0).transition);
    EXPECT_EQ(m.at(0).replicas, (std::vector<std::string>{kC, kB}));
    EXPECT_EQ(m.at(1).replicas, (std::vector<std::string>{kA, kB}));  // untouched
    // The range streamed from A to C, then A dropped it; a barrier before
    // each stage's work.
    const std::string mid = encode_token_prefix(0);
    ASSERT_EQ(streams_.size(), 1u);
    EXPECT_EQ(streams_[0], (std::vector<std::string>{kA, kC, "", mid}));
    ASSERT_EQ(drops_.size(), 1u);
    EXPECT_EQ(drops_[0], (std::vector<std::string>{kA, "", mid}));
    EXPECT_EQ(stages_at_barrier_,
              (std::vector<std::string>{"write_both_read_old", "write_both_read_new", "cleanup"}));
    for (size_t i = 1; i < barrier_revisions_.size(); ++i)
        EXPECT_GT(barrier_revisions_[i], barrier_revisions_[i - 1]);
    // Nothing left to do.
    outcome = d.advance(table_, "");
    ASSERT_TRUE(outcome.is_ok());
    EXPECT_EQ(*outcome, MigrationDriver::Outcome::kNone);
}

TEST_F(MigrationTest, RollsBackWhenStreamingKeepsFailing) {
    auto d = driver();
    stream_status_ = Status(ErrorCode::kServerError, "disk full");
    ASSERT_TRUE(d.start(table_, "", kA, kC).is_ok());
    auto outcome = d.advance(table_, "");
    ASSERT_TRUE(outcome.is_ok()) << outcome.status().message();
    EXPECT_EQ(*outcome, MigrationDriver::Outcome::kRolledBack);
    EXPECT_EQ(streams_.size(), 3u);
    auto m = map_now();
    EXPECT_FALSE(m.at(0).transition);
    EXPECT_EQ(m.at(0).replicas, (std::vector<std::string>{kA, kB}));
    // The target dropped what it may have received; the source kept its copy.
    ASSERT_EQ(drops_.size(), 1u);
    EXPECT_EQ(drops_[0][0], kC);
    EXPECT_EQ(stages_at_barrier_.back(), "cleanup_target");
}

TEST_F(MigrationTest, ResumesFromEveryStageAfterACrash) {
    struct Case {
        TransitionStage stage;
        MigrationDriver::Outcome outcome;
        size_t streams;
    };
    for (const Case& c :
         {Case{TransitionStage::kWriteBothReadOld, MigrationDriver::Outcome::kCompleted, 1},
          Case{TransitionStage::kStreaming, MigrationDriver::Outcome::kCompleted, 1},
          Case{TransitionStage::kWriteBothReadNew, MigrationDriver::Outcome::kCompleted, 0},
          Case{TransitionStage::kCleanup, MigrationDriver::Outcome::kCompleted, 0},
          Case{TransitionStage::kCleanupTarget, MigrationDriver::Outcome::kRolledBack, 0}}) {
        SCOPED_TRACE(std::string(stage_name(c.stage)));
        SetUp();
        streams_.clear();
        drops_.clear();
        crash_at(c.stage);
        auto outcome = driver().advance(table_, "");
        ASSERT_TRUE(outcome.is_ok()) << outcome.status().message();
        EXPECT_EQ(*outcome, c.outcome);
        EXPECT_EQ(streams_.size(), c.streams);
        ASSERT_EQ(drops_.size(), 1u);
        auto m = map_now();
        EXPECT_FALSE(m.at(0).transition);
        if (c.outcome == MigrationDriver::Outcome::kCompleted) {
            EXPECT_EQ(m.at(0).replicas, (std::vector<std::string>{kC, kB}));
            EXPECT_EQ(drops_[0][0], kA);
        } else {
            EXPECT_EQ(m.at(0).replicas, (std::vector<std::string>{kA, kB}));
            EXPECT_EQ(drops_[0][0], kC);
        }
    }
}

TEST_F(MigrationTest, RebuildsARemovedReplicaFromASurvivor) {
    removed_.insert(kA);
    auto d = driver();
    ASSERT_TRUE(d.start(table_, "", kA, kC).is_ok());
    auto outcome = d.advance(table_, "");
    ASSERT_TRUE(outcome.is_ok()) << outcome.status().message();
    EXPECT_EQ(*outcome, MigrationDriver::Outcome::kCompleted);
    ASSERT_EQ(streams_.size(), 1u);
    EXPECT_EQ(streams_[0][0], kB);  // A is gone: B streams
    EXPECT_TRUE(drops_.empty());    // nothing to drop on a removed node
    EXPECT_EQ(map_now().at(0).replicas, (std::vector<std::string>{kC, kB}));
}

TEST_F(MigrationTest, CleanupWaitsForADownSourceToComeBack) {
    auto d = driver();
    crash_at(TransitionStage::kCleanup);
    down_.insert(kA);
    auto outcome = d.advance(table_, "");
    ASSERT_FALSE(outcome.is_ok());
    EXPECT_EQ(outcome.status().code(), ErrorCode::kUnavailable);
    EXPECT_EQ(map_now().at(0).transition->stage, TransitionStage::kCleanup);
    down_.clear();
    outcome = d.advance(table_, "");
    ASSERT_TRUE(outcome.is_ok()) << outcome.status().message();
    EXPECT_EQ(*outcome, MigrationDriver::Outcome::kCompleted);
    EXPECT_EQ(drops_.size(), 1u);
}

TEST_F(MigrationTest, AFailedBarrierLeavesTheStageToBeDoneAgain) {
    auto d = driver();
    ASSERT_TRUE(d.start(table_, "", kA, kC).is_ok());
    barrier_status_ = Status(ErrorCode::kUnavailable, "node b did not answer");
    auto outcome = d.advance(table_, "");
    ASSERT_FALSE(outcome.is_ok());
    EXPECT_EQ(map_now().at(0).transition->stage, TransitionStage::kWriteBothReadOld);
    EXPECT_TRUE(streams_.empty());  // nothing streams before every node writes to both
    barrier_status_ = Status::ok();
    outcome = d.advance(table_, "");
    ASSERT_TRUE(outcome.is_ok()) << outcome.status().message();
    EXPECT_EQ(*outcome, MigrationDriver::Outcome::kCompleted);
}

TEST_F(MigrationTest, RefusesMovesThatDoNotFit) {
    auto d = driver();
    EXPECT_EQ(d.start(table_, "", kC, kD).code(), ErrorCode::kInvalid);   // C holds nothing
    EXPECT_EQ(d.start(table_, "", kA, kB).code(), ErrorCode::kInvalid);   // B holds it
    EXPECT_EQ(d.start(table_, "x", kA, kC).code(), ErrorCode::kInvalid);  // no such tablet
    ASSERT_TRUE(d.start(table_, "", kA, kC).is_ok());
    EXPECT_EQ(d.start(table_, "", kB, kD).code(), ErrorCode::kInvalid);  // moving already
    EXPECT_EQ(d.split(table_, "").code(), ErrorCode::kInvalid);          // moving: no split
}

TEST_F(MigrationTest, MovesOfTwoTabletsOfOneTableRaceWithoutLosingEither) {
    auto d1 = driver();
    auto d2 = driver();
    const std::string mid = encode_token_prefix(0);
    ASSERT_TRUE(d1.start(table_, "", kA, kC).is_ok());
    ASSERT_TRUE(d2.start(table_, mid, kB, kD).is_ok());
    std::thread other([&] {
        auto o = d2.advance(table_, mid);
        EXPECT_TRUE(o.is_ok()) << o.status().message();
    });
    auto o = d1.advance(table_, "");
    other.join();
    ASSERT_TRUE(o.is_ok()) << o.status().message();
    auto m = map_now();
    EXPECT_EQ(m.at(0).replicas, (std::vector<std::string>{kC, kB}));
    EXPECT_EQ(m.at(1).replicas, (std::vector<std::string>{kA, kD}));
    EXPECT_FALSE(m.at(0).transition);
    EXPECT_FALSE(m.at(1).transition);
}

TEST_F(MigrationTest, SplitsAndDropsAreMapChanges) {
    auto d = driver();
    ASSERT_TRUE(d.split(table_, "").is_ok());
    auto m = map_now();
    ASSERT_EQ(m.size(), 3u);
    EXPECT_EQ(m.at(0).replicas, m.at(1).replicas);
    EXPECT_TRUE(streams_.empty());
    ASSERT_TRUE(d.drop_replica(table_, m.at(1).start, kB).is_ok());
    m = map_now();
    EXPECT_EQ(m.at(1).replicas, (std::vector<std::string>{kA}));
    ASSERT_EQ(drops_.size(), 1u);
    EXPECT_EQ(drops_[0][0], kB);
    EXPECT_EQ(d.drop_replica(table_, m.at(1).start, kA).code(), ErrorCode::kInvalid);
}

}  // namespace
}  // namespace tessel::cluster
