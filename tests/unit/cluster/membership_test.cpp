// Membership: the events clients hear as node records come and go.
#include "cluster/membership.h"

#include <gtest/gtest.h>

#include <vector>

namespace tessel::cluster {
namespace {

NodeInfo node(const std::string& id, NodeState state) {
    NodeInfo n;
    n.host_id = id;
    n.listen_address = "127.0.0." + id.substr(0, 1);
    n.tokens = {static_cast<int64_t>(id[0]) * 1000};
    n.state = state;
    return n;
}

class MembershipEvents : public ::testing::Test {
  protected:
    MembershipEvents() {
        m_.set_listener([this](const ClusterEvent& e) { events_.push_back(e); });
    }
    std::vector<ClusterEvent::Kind> kinds() {
        std::vector<ClusterEvent::Kind> out;
        for (const auto& e : events_)
            out.push_back(e.kind);
        events_.clear();
        return out;
    }
    Membership m_;
    std::vector<ClusterEvent> events_;
};

using K = ClusterEvent::Kind;

// As in Cassandra: NEW_NODE once the node has joined, not when it starts
// joining; REMOVED_NODE when a node that had joined goes.
TEST_F(MembershipEvents, ANodeIsNewOnceItHasJoined) {
    m_.set_node("2", node("2", NodeState::kJoining));
    EXPECT_TRUE(kinds().empty());
    m_.set_alive("2", AliveInfo{});
    EXPECT_EQ(kinds(), std::vector<K>{K::kUp});
    m_.set_node("2", node("2", NodeState::kNormal));
    EXPECT_EQ(kinds(), std::vector<K>{K::kNewNode});
    m_.set_node("2", node("2", NodeState::kLeaving));  // still a member
    EXPECT_TRUE(kinds().empty());
    m_.set_alive("2", std::nullopt);
    m_.set_node("2", std::nullopt);
    EXPECT_EQ(kinds(), (std::vector<K>{K::kDown, K::kRemovedNode}));
}

TEST_F(MembershipEvents, ANormalNodeIsNewAtOnceAndAJoiningOneLeavesQuietly) {
    m_.set_node("3", node("3", NodeState::kNormal));
    EXPECT_EQ(kinds(), std::vector<K>{K::kNewNode});
    m_.set_node("4", node("4", NodeState::kJoining));
    m_.set_node("4", std::nullopt);
    EXPECT_TRUE(kinds().empty());
    EXPECT_EQ(m_.view()->node("3")->state, NodeState::kNormal);
    EXPECT_EQ(m_.view()->node("4"), nullptr);
}

}  // namespace
}  // namespace tessel::cluster
