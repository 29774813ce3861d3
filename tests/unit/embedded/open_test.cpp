// Opening: refusal on an unreadable catalog, page cutting by bytes.
#include "storage/store.h"
#include "test_db.h"

namespace tessel::testing {
namespace {

TEST(OpenTest, RefusesUnreadableCatalog) {
    std::string dir;
    {
        TestDb t;
        t.create_keyspace("ks");
        t.ok("CREATE TABLE ks.t (k int PRIMARY KEY)");
        dir = t.dir().string();
        t.close();
        auto store = storage::Store::open(dir + "/store");
        ASSERT_TRUE(store.is_ok()) << store.status().to_string();
        auto entries = (*store)->list_meta("schema/table/");
        ASSERT_TRUE(entries.is_ok());
        ASSERT_FALSE(entries->empty());
        ASSERT_TRUE((*store)->put_meta(entries->front().first, "not a table definition").is_ok());
        ASSERT_TRUE((*store)->close().is_ok());
        DatabaseOptions o;
        o.data_dir = dir;
        auto db = Database::open(o);
        ASSERT_FALSE(db.is_ok());
        EXPECT_NE(db.status().message().find("schema catalog cannot be read"), std::string::npos)
            << db.status().message();
    }
}

TEST(OpenTest, PagesAreCutByBytes) {
    TestDb t(/*max_page_bytes=*/200);
    t.ok(
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': "
        "1}");
    t.ok("CREATE TABLE ks.t (k int, c int, v text, PRIMARY KEY (k, c))");
    for (int c = 0; c < 30; ++c) {
        t.ok("INSERT INTO ks.t (k, c, v) VALUES (1, " + std::to_string(c) + ", '" +
             std::string(40, 'x') + "')");
    }
    // No page size: only the byte bound cuts pages (GROUP BY pages after a
    // whole group).
    for (const char* cql : {"SELECT * FROM ks.t WHERE k = 1",
                            "SELECT c, max(v) FROM ks.t WHERE k = 1 GROUP BY k, c"}) {
        QueryOptions o;
        size_t total = 0;
        int pages = 0;
        do {
            auto r = t.session().execute(cql, o);
            ASSERT_TRUE(r.is_ok());
            EXPECT_LE(r->rows.size(), 5u) << cql;
            total += r->rows.size();
            ++pages;
            o.paging_state = r->paging_state;
        } while (!o.paging_state.empty());
        EXPECT_EQ(total, 30u) << cql;
        EXPECT_GE(pages, 6) << cql;
    }
}

}  // namespace
}  // namespace tessel::testing
