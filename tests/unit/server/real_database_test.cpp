// The C++ client against a real in-process server over a real Database in a
// temporary data directory, on an ephemeral port.
#include <gtest/gtest.h>

#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <random>

#include "client/client.h"
#include "server/server.h"
#include "types/bytes_util.h"

namespace tessel::server {
namespace {

class RealDatabaseTest : public ::testing::Test {
  protected:
    void SetUp() override {
        dir = std::filesystem::temp_directory_path() /
              ("tessel-server-test-" + std::to_string(std::random_device{}()));
        DatabaseOptions o;
        o.data_dir = dir.string();
        auto opened = Database::open(o);
        ASSERT_TRUE(opened.is_ok()) << opened.status().message();
        db = std::move(opened).value();
        ServerConfig config;
        config.port = 0;
        config.smp = 2;
        server = std::make_unique<Server>(config, *db);
        ASSERT_TRUE(server->start().is_ok());
        client = connect();
        ASSERT_TRUE(client);
    }
    void TearDown() override {
        if (client) client->close();
        if (server) server->stop();
        db.reset();
        std::filesystem::remove_all(dir);
    }
    std::unique_ptr<client::Client> connect(const std::string& keyspace = "") {
        client::ClientOptions o;
        o.port = server->port();
        o.keyspace = keyspace;
        auto r = client::Client::connect(o);
        EXPECT_TRUE(r.is_ok()) << (r.is_ok() ? "" : r.status().message());
        return r.is_ok() ? std::move(r).value() : nullptr;
    }
    void run(const std::string& cql) {
        auto r = client->query(cql);
        ASSERT_TRUE(r.is_ok()) << cql << ": " << r.status().message();
    }

    std::filesystem::path dir;
    std::unique_ptr<Database> db;
    std::unique_ptr<Server> server;
    std::unique_ptr<client::Client> client;
};

TEST_F(RealDatabaseTest, SystemLocalDescribesTheNode) {
    auto r = client->query("SELECT key, release_version, partitioner, host_id FROM system.local");
    ASSERT_TRUE(r.is_ok()) << r.status().message();
    ASSERT_EQ(r->rows.size(), 1u);
    EXPECT_EQ(r->rows[0][0], std::optional<std::string>("local"));
    EXPECT_EQ(r->rows[0][1], std::optional<std::string>("4.0.11"));
    EXPECT_EQ(r->rows[0][2],
              std::optional<std::string>("org.apache.cassandra.dht.Murmur3Partitioner"));
    EXPECT_EQ(r->rows[0][3], std::optional<std::string>(db->host_id()));
    EXPECT_EQ(r->columns[3].type->kind, TypeKind::kUuid);
    // One node: peers_v2 (Cassandra 4.0) answers with its columns and no rows.
    auto peers_v2 = client->query("SELECT * FROM system.peers_v2");
    ASSERT_TRUE(peers_v2.is_ok()) << peers_v2.status().message();
    EXPECT_TRUE(peers_v2->rows.empty());
    EXPECT_EQ(peers_v2->columns.size(), 12u);
}

TEST_F(RealDatabaseTest, DdlPreparedWritesPagingAndEvents) {
    auto listener = connect();
    ASSERT_TRUE(listener);
    std::mutex mu;
    std::condition_variable cv;
    std::vector<protocol::SchemaChange> events;
    ASSERT_TRUE(listener
                    ->register_schema_events([&](const protocol::SchemaChange& c) {
                        std::lock_guard lock(mu);
                        events.push_back(c);
                        cv.notify_one();
                    })
                    .is_ok());

    run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 1}");
    auto again = client->query(
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 1}");
    ASSERT_FALSE(again.is_ok());
    EXPECT_EQ(again.status().code(), ErrorCode::kAlreadyExists);
    EXPECT_EQ(again.status().detail1, "ks");
    run("CREATE TABLE ks.t (p int, c int, v text, PRIMARY KEY (p, c))");
    {
        std::unique_lock lock(mu);
        ASSERT_TRUE(
            cv.wait_for(lock, std::chrono::seconds(10), [&] { return events.size() >= 2; }));
        EXPECT_EQ(events[0].target, "KEYSPACE");
        EXPECT_EQ(events[1].target, "TABLE");
        EXPECT_EQ(events[1].name, "t");
    }

    auto session = connect("ks");
    ASSERT_TRUE(session);
    auto insert = session->prepare("INSERT INTO t (p, c, v) VALUES (?, ?, ?)");
    ASSERT_TRUE(insert.is_ok()) << insert.status().message();
    EXPECT_EQ(insert->pk_indexes, std::vector<uint16_t>{0});
    ASSERT_EQ(insert->bind_columns.size(), 3u);
    EXPECT_EQ(insert->bind_columns[2].type->kind, TypeKind::kVarchar);
    std::atomic<int> ok{0}, done{0};
    constexpr int kRows = 250;
    for (int i = 0; i < kRows; ++i) {
        client::QueryParameters p;
        p.values = {protocol::BoundValue::of(bytes::i32_bytes(1)),
                    protocol::BoundValue::of(bytes::i32_bytes(i)),
                    protocol::BoundValue::of("v" + std::to_string(i))};
        session->execute_async(*insert, p, [&](Result<client::QueryResult> r) {
            if (r.is_ok()) ++ok;
            std::lock_guard lock(mu);
            if (++done == kRows) cv.notify_one();
        });
    }
    {
        std::unique_lock lock(mu);
        ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(30), [&] { return done == kRows; }));
    }
    EXPECT_EQ(ok.load(), kRows);

    client::QueryParameters paged;
    paged.page_size = 100;
    std::vector<size_t> pages;
    std::vector<int> cs;
    ASSERT_TRUE(session
                    ->for_each_page("SELECT c, v FROM t WHERE p = 1", paged,
                                    [&](const client::QueryResult& page) {
                                        pages.push_back(page.rows.size());
                                        for (const auto& row : page.rows) {
                                            cs.push_back(bytes::read_i32(*row[0]));
                                        }
                                        return true;
                                    })
                    .is_ok());
    EXPECT_EQ(pages, (std::vector<size_t>{100, 100, 50}));
    ASSERT_EQ(cs.size(), static_cast<size_t>(kRows));
    for (int i = 0; i < kRows; ++i)
        EXPECT_EQ(cs[static_cast<size_t>(i)], i);

    auto bad = session->query("SELECT * FROM missing_table");
    ASSERT_FALSE(bad.is_ok());
    EXPECT_EQ(bad.status().code(), ErrorCode::kInvalid);
    auto syntax = session->query("SELEC 1");
    ASSERT_FALSE(syntax.is_ok());
    EXPECT_EQ(syntax.status().code(), ErrorCode::kSyntaxError);
}

}  // namespace
}  // namespace tessel::server
