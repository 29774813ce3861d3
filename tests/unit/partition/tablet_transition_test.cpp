// Tablet transitions: a replica moving between nodes, recorded in the map.
// Which nodes read and write at each stage, that a moving tablet neither
// splits nor merges, and the stored form (with maps written before
// transitions existed).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "partition/tablet_map.h"
#include "partition/tablet_policy.h"
#include "partition/token.h"

namespace tessel {
namespace {

using Hosts = std::vector<std::string>;

std::string host(char c) {
    return std::string(16, c);
}

const std::string A = host('a'), B = host('b'), C = host('c'), D = host('d');

// A hash map of `n` tablets on replicas {A, B, C}; tablet `moving` moves B to D.
TabletMap moving_map(size_t n, size_t moving, TransitionStage stage) {
    auto m = TabletMap::initial_hash(static_cast<int>(n), 1, 100);
    std::vector<Tablet> tablets = m.tablets();
    for (auto& t : tablets)
        t.replicas = {A, B, C};
    tablets[moving].transition = TabletTransition{stage, B, D, 4242};
    return TabletMap::of(true, std::move(tablets)).value();
}

TEST(TabletTransitionTest, StageNames) {
    EXPECT_EQ(stage_name(TransitionStage::kWriteBothReadOld), "write_both_read_old");
    EXPECT_EQ(stage_name(TransitionStage::kStreaming), "streaming");
    EXPECT_EQ(stage_name(TransitionStage::kWriteBothReadNew), "write_both_read_new");
    EXPECT_EQ(stage_name(TransitionStage::kCleanup), "cleanup");
    EXPECT_EQ(stage_name(TransitionStage::kCleanupTarget), "cleanup_target");
}

TEST(TabletTransitionTest, ReadsPendingAndWritesAtEachStage) {
    Tablet t;
    t.replicas = {A, B, C};
    EXPECT_EQ(t.read_replicas(), (Hosts{A, B, C}));
    EXPECT_TRUE(t.pending_replicas().empty());
    EXPECT_EQ(t.write_replicas(), (Hosts{A, B, C}));

    struct Want {
        TransitionStage stage;
        Hosts reads, pending, writes;
    };
    const Want wants[] = {
        {TransitionStage::kWriteBothReadOld, {A, B, C}, {D}, {A, B, C, D}},
        {TransitionStage::kStreaming, {A, B, C}, {D}, {A, B, C, D}},
        // D takes B's place (the primary order is kept); B still takes writes.
        {TransitionStage::kWriteBothReadNew, {A, D, C}, {}, {A, D, C, B}},
        {TransitionStage::kCleanup, {A, D, C}, {}, {A, D, C}},
        {TransitionStage::kCleanupTarget, {A, B, C}, {}, {A, B, C}},
    };
    for (const auto& w : wants) {
        t.transition = TabletTransition{w.stage, B, D, 1};
        EXPECT_EQ(t.read_replicas(), w.reads) << stage_name(w.stage);
        EXPECT_EQ(t.pending_replicas(), w.pending) << stage_name(w.stage);
        EXPECT_EQ(t.write_replicas(), w.writes) << stage_name(w.stage);
    }
    EXPECT_EQ(t.replicas, (Hosts{A, B, C}));  // the old set until the move ends
}

TEST(TabletTransitionTest, AMovingTabletNeitherSplitsNorMerges) {
    auto m = moving_map(3, 1, TransitionStage::kStreaming);
    const auto mid = m.token_midpoint(1);
    ASSERT_TRUE(mid);
    Status st = m.split(1, *mid, 1, 200);
    EXPECT_EQ(st.code(), ErrorCode::kInvalid);
    EXPECT_NE(st.message().find("tablet 1 cannot split while a replica moves (stage streaming)"),
              std::string::npos)
        << st.message();
    st = m.merge(0, 200);  // 0 with the moving 1
    EXPECT_EQ(st.code(), ErrorCode::kInvalid);
    EXPECT_NE(st.message().find("tablet 1 cannot merge"), std::string::npos) << st.message();
    EXPECT_EQ(m.merge(1, 200).code(), ErrorCode::kInvalid);  // the moving 1 with 2
    EXPECT_EQ(m.size(), 3u);

    // The tablets around it still split; the halves carry no transition.
    ASSERT_TRUE(m.split(2, *m.token_midpoint(2), 1, 200).is_ok());
    EXPECT_FALSE(m.at(3).transition);
    EXPECT_TRUE(m.at(1).transition);

    // Once the move ends (D replaces B, the transition is cleared) it splits
    // again, and its halves merge back.
    std::vector<Tablet> tablets = m.tablets();
    tablets[1].transition->stage = TransitionStage::kCleanup;
    tablets[1].replicas = tablets[1].read_replicas();
    tablets[1].transition.reset();
    m = TabletMap::of(true, std::move(tablets)).value();
    EXPECT_EQ(m.at(1).replicas, (Hosts{A, D, C}));
    ASSERT_TRUE(m.split(1, *m.token_midpoint(1), 1, 300).is_ok());
    EXPECT_EQ(m.at(2).replicas, (Hosts{A, D, C}));
    EXPECT_TRUE(m.merge(1, 300).is_ok());
}

TEST(TabletTransitionTest, ThePolicyPlansNoChangeForAMovingTablet) {
    TabletThresholds t;
    t.split_size_bytes = 1000;
    t.merge_size_bytes = 200;
    t.min_age_ms = 0;
    std::vector<TabletObservation> obs(4);
    // Tablet 1 is large (it would split), 2 and 3 are idle (they would
    // merge); 1 and 3 are moving.
    obs[1].size_bytes = 5000;
    auto m = moving_map(4, 3, TransitionStage::kWriteBothReadOld);
    auto mv = m.tablets();
    mv[1].transition = TabletTransition{TransitionStage::kCleanup, A, D, 1};
    m = TabletMap::of(true, std::move(mv)).value();
    EXPECT_TRUE(plan_tablet_changes(m, obs, t, 1, 1000).empty());
    // Without the moves: tablet 1 splits, 2 and 3 merge.
    auto still = m.tablets();
    for (auto& x : still)
        x.transition.reset();
    const auto plan = plan_tablet_changes(TabletMap::of(true, still).value(), obs, t, 1, 1000);
    ASSERT_EQ(plan.size(), 2u);
    EXPECT_EQ(plan[0].kind, TabletChange::Kind::kSplit);
    EXPECT_EQ(plan[1].kind, TabletChange::Kind::kMerge);
    EXPECT_EQ(plan[1].index, 2u);
}

TEST(TabletTransitionTest, OfRefusesMovesThatCannotBe) {
    auto tablets = TabletMap::initial_hash(2, 1, 0).tablets();
    tablets[0].replicas = {A, B};
    auto with = [&](TabletTransition move) {
        auto ts = tablets;
        ts[0].transition = std::move(move);
        auto map = TabletMap::of(true, std::move(ts));
        return map.is_ok() ? Status::ok() : map.status();
    };
    auto refused = [&](TabletTransition m) {
        const Status st = with(std::move(m));
        return !st.is_ok() && st.code() == ErrorCode::kInvalid;
    };
    EXPECT_TRUE(with({TransitionStage::kStreaming, B, D, 0}).is_ok());
    EXPECT_TRUE(refused({TransitionStage::kStreaming, C, D, 0}));  // C is not a replica
    EXPECT_TRUE(refused({TransitionStage::kStreaming, B, A, 0}));  // A already is one
    EXPECT_TRUE(refused({TransitionStage::kStreaming, B, "short", 0}));
    EXPECT_TRUE(refused({static_cast<TransitionStage>(9), B, D, 0}));
}

TEST(TabletTransitionTest, EncodeDecodeRoundTripAtEveryStage) {
    for (auto stage : {TransitionStage::kWriteBothReadOld, TransitionStage::kStreaming,
                       TransitionStage::kWriteBothReadNew, TransitionStage::kCleanup,
                       TransitionStage::kCleanupTarget}) {
        const auto m = moving_map(4, 2, stage);
        auto back = TabletMap::decode(m.encode());
        ASSERT_TRUE(back.is_ok()) << back.status().to_string();
        EXPECT_EQ(*back, m);
        ASSERT_TRUE(back->at(2).transition);
        EXPECT_EQ(back->at(2).transition->stage, stage);
        EXPECT_EQ(back->at(2).transition->from, B);
        EXPECT_EQ(back->at(2).transition->to, D);
        EXPECT_EQ(back->at(2).transition->started_ms, 4242);
        EXPECT_FALSE(back->at(1).transition);
    }
    // An ordered map, and one without replicas or moves.
    std::vector<Tablet> ordered(2);
    ordered[1].start = "k";
    ordered[0].replicas = {C};
    ordered[0].transition = TabletTransition{TransitionStage::kCleanupTarget, C, A, -5};
    const auto o = TabletMap::of(false, ordered).value();
    EXPECT_EQ(TabletMap::decode(o.encode()).value(), o);
    const auto plain = TabletMap::initial_ordered(7);
    EXPECT_EQ(TabletMap::decode(plain.encode()).value(), plain);
}

std::string u32(uint32_t v) {
    return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
            static_cast<char>(v)};
}
std::string u64(uint64_t v) {
    return u32(static_cast<uint32_t>(v >> 32)) + u32(static_cast<uint32_t>(v));
}

TEST(TabletTransitionTest, OlderFormatsStillDecode) {
    // Version 2 (replicas, no transitions), written byte by byte: hashed, two
    // tablets; the first on A and B, the second from token 0 on C.
    const std::string token0 = encode_token_prefix(0);
    const std::string v2 = std::string("\x02\x01", 2) + u32(2) +           // header
                           u32(0) + u32(0) + u64(1000) + "\x02" + A + B +  // tablet 0
                           u32(8) + token0 + u32(1) + u64(2000) + "\x01" + C;
    auto m = TabletMap::decode(v2);
    ASSERT_TRUE(m.is_ok()) << m.status().to_string();
    ASSERT_EQ(m->size(), 2u);
    EXPECT_TRUE(m->hashed());
    EXPECT_EQ(m->at(0).replicas, (Hosts{A, B}));
    EXPECT_EQ(m->at(1).start, token0);
    EXPECT_EQ(m->at(1).shard, 1);
    EXPECT_EQ(m->at(1).created_ms, 2000);
    EXPECT_EQ(m->at(1).replicas, (Hosts{C}));
    EXPECT_FALSE(m->at(0).transition);
    EXPECT_FALSE(m->at(1).transition);
    // Without a transition the map is still written as version 2 (nodes not
    // yet upgraded read it); with one, as version 3.
    EXPECT_EQ(m->encode(), v2);
    std::vector<Tablet> tablets = m->tablets();
    tablets[0].transition = TabletTransition{TransitionStage::kStreaming, A, D, 9};
    const auto moving = TabletMap::of(true, tablets).value();
    EXPECT_EQ(moving.encode()[0], 3);
    EXPECT_EQ(moving.encode().size(), v2.size() + 2 + 1 + 32 + 8);
    EXPECT_EQ(TabletMap::decode(moving.encode()).value(), moving);

    // Version 1 (no replicas): an ordered map of one tablet.
    const std::string v1 = std::string("\x01\x00", 2) + u32(1) + u32(0) + u32(3) + u64(77);
    auto one = TabletMap::decode(v1);
    ASSERT_TRUE(one.is_ok()) << one.status().to_string();
    EXPECT_FALSE(one->hashed());
    EXPECT_EQ(one->at(0).shard, 3);
    EXPECT_EQ(one->at(0).created_ms, 77);
    EXPECT_TRUE(one->at(0).replicas.empty());
    EXPECT_FALSE(one->at(0).transition);
}

TEST(TabletTransitionTest, DecodeRejectsDamagedTransitions) {
    const std::string good = moving_map(2, 1, TransitionStage::kStreaming).encode();
    for (size_t n = 0; n < good.size(); ++n) {
        EXPECT_FALSE(TabletMap::decode(good.substr(0, n)).is_ok()) << n;
    }
    // The transition is the record's tail: flag, stage, from, to, started.
    const size_t stage_at = good.size() - 8 - 32 - 1;
    ASSERT_EQ(good[stage_at], static_cast<char>(TransitionStage::kStreaming));
    auto damaged = [&](size_t at, std::string bytes) {
        std::string s = good;
        s.replace(at, bytes.size(), bytes);
        return TabletMap::decode(s);
    };
    EXPECT_FALSE(damaged(stage_at, "\x05").is_ok());      // no such stage
    EXPECT_FALSE(damaged(stage_at - 1, "\x02").is_ok());  // a flag neither 0 nor 1
    EXPECT_FALSE(damaged(stage_at + 1, D).is_ok());       // from: not a replica
    EXPECT_FALSE(damaged(stage_at + 17, C).is_ok());      // to: already a replica
    auto earlier = damaged(stage_at, std::string(1, '\0'));
    ASSERT_TRUE(earlier.is_ok());
    EXPECT_EQ(earlier->at(1).transition->stage, TransitionStage::kWriteBothReadOld);
}

}  // namespace
}  // namespace tessel
