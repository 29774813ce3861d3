#include "query/plan_cache.h"

#include <gtest/gtest.h>

namespace tessel::query {
namespace {

std::shared_ptr<CachedPlan> entry(const std::string& id) {
    auto e = std::make_shared<CachedPlan>();
    e->id = id;
    e->text = "text of " + id;
    return e;
}

TEST(PlanCache, EvictsLeastRecentlyUsedWhenFull) {
    PlanCache cache(10);
    for (int i = 0; i < 10; ++i)
        cache.put(entry("id" + std::to_string(i)));
    // id0 is used again, so it is younger than id1..id9.
    ASSERT_NE(cache.find("id0"), nullptr);
    cache.put(entry("id10"));
    EXPECT_LE(cache.size(), 10u);
    EXPECT_NE(cache.find("id0"), nullptr);
    EXPECT_NE(cache.find("id10"), nullptr);
    EXPECT_EQ(cache.find("id1"), nullptr);
    EXPECT_EQ(cache.find("never"), nullptr);
}

TEST(PlanCache, ReplacesAnEntryWithTheSameId) {
    PlanCache cache(4);
    cache.put(entry("a"));
    auto e = entry("a");
    e->text = "new";
    cache.put(e);
    EXPECT_EQ(cache.size(), 1u);
    EXPECT_EQ(cache.find("a")->text, "new");
}

}  // namespace
}  // namespace tessel::query
