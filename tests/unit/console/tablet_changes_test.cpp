#include "console/tablet_changes.h"

#include <gtest/gtest.h>

namespace tessel::console {
namespace {

std::vector<TabletRange> ranges(std::vector<std::string> bounds) {
    // bounds: start of each tablet, then the end of the last.
    std::vector<TabletRange> out;
    for (size_t i = 0; i + 1 < bounds.size(); ++i)
        out.push_back({bounds[i], bounds[i + 1]});
    return out;
}

TEST(TabletChanges, NoChangeNoEvent) {
    EXPECT_TRUE(diff_tablets(ranges({"a", "m", "z"}), ranges({"a", "m", "z"}), 5).empty());
}

TEST(TabletChanges, FindsASplit) {
    auto changes = diff_tablets(ranges({"a", "m", "z"}), ranges({"a", "g", "m", "z"}), 5);
    ASSERT_EQ(changes.size(), 1u);
    EXPECT_EQ(changes[0].kind, "split");
    EXPECT_EQ(changes[0].at, 5);
    EXPECT_EQ(changes[0].from, ranges({"a", "m"}));
    EXPECT_EQ(changes[0].to, ranges({"a", "g", "m"}));
}

TEST(TabletChanges, FindsAMergeAndASplitInOneLook) {
    auto changes =
        diff_tablets(ranges({"a", "c", "e", "m", "z"}), ranges({"a", "e", "m", "q", "z"}), 7);
    ASSERT_EQ(changes.size(), 2u);
    EXPECT_EQ(changes[0].kind, "merge");
    EXPECT_EQ(changes[0].from, ranges({"a", "c", "e"}));
    EXPECT_EQ(changes[0].to, ranges({"a", "e"}));
    EXPECT_EQ(changes[1].kind, "split");
    EXPECT_EQ(changes[1].from, ranges({"m", "z"}));
    EXPECT_EQ(changes[1].to, ranges({"m", "q", "z"}));
}

TEST(TabletChanges, OverlappingRegroupingIsASplitMerge) {
    auto changes = diff_tablets(ranges({"a", "g", "z"}), ranges({"a", "d", "k", "z"}), 1);
    ASSERT_EQ(changes.size(), 1u);
    EXPECT_EQ(changes[0].kind, "split_merge");
    EXPECT_EQ(changes[0].from, ranges({"a", "g", "z"}));
    EXPECT_EQ(changes[0].to, ranges({"a", "d", "k", "z"}));
}

TEST(TabletChanges, KeepsABoundedHistoryPerTable) {
    TabletChanges changes(2);
    changes.observe("ks.t", ranges({"a", "z"}), 1);  // the first look: nothing to compare
    EXPECT_TRUE(changes.history("ks.t").empty());
    changes.observe("ks.t", ranges({"a", "m", "z"}), 2);
    changes.observe("ks.t", ranges({"a", "g", "m", "z"}), 3);
    changes.observe("ks.t", ranges({"a", "g", "m", "q", "z"}), 4);
    auto h = changes.history("ks.t");
    ASSERT_EQ(h.size(), 2u);
    EXPECT_EQ(h[0].at, 3);
    EXPECT_EQ(h[1].at, 4);
    EXPECT_TRUE(changes.history("ks.other").empty());
    changes.retain({"ks.other"});
    EXPECT_TRUE(changes.history("ks.t").empty());
}

}  // namespace
}  // namespace tessel::console
