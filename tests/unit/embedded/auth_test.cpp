// Roles and permissions through the embedded API: login, authorization and
// persistence across a restart.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "tessel/database.h"

namespace tessel::testing {
namespace {

class AuthDbTest : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() /
               ("tessel_auth_test_" + std::to_string(::getpid()));
        std::filesystem::remove_all(dir_);
        open();
    }
    void TearDown() override {
        db_.reset();
        std::filesystem::remove_all(dir_);
    }
    void open() {
        db_.reset();
        DatabaseOptions o;
        o.data_dir = dir_.string();
        o.authenticator = "org.apache.cassandra.auth.PasswordAuthenticator";
        o.authorizer = "CassandraAuthorizer";
        auto r = Database::open(o);
        ASSERT_TRUE(r.is_ok()) << r.status().to_string();
        db_ = std::move(r).value();
    }
    std::unique_ptr<Session> login(const std::string& user, const std::string& pw) {
        auto s = db_->login(user, pw);
        EXPECT_TRUE(s.is_ok()) << user << ": " << (s.is_ok() ? "" : s.status().to_string());
        return s.is_ok() ? std::move(s).value() : nullptr;
    }
    static void ok(Session& s, const std::string& cql) {
        auto r = s.execute(cql, {});
        EXPECT_TRUE(r.is_ok()) << cql << " -> " << (r.is_ok() ? "" : r.status().to_string());
    }

    std::filesystem::path dir_;
    std::unique_ptr<Database> db_;
};

TEST_F(AuthDbTest, DefaultSuperuserAndBadCredentials) {
    EXPECT_TRUE(db_->requires_login());
    auto bad = db_->login("cassandra", "nope");
    ASSERT_FALSE(bad.is_ok());
    EXPECT_EQ(bad.status().code(), ErrorCode::kBadCredentials);
    EXPECT_EQ(bad.status().message(), "Provided username cassandra and/or password are incorrect");
    EXPECT_NE(login("cassandra", "cassandra"), nullptr);
}

TEST_F(AuthDbTest, RolesAndPermissionsSurviveRestart) {
    {
        auto admin = login("cassandra", "cassandra");
        ASSERT_NE(admin, nullptr);
        ok(*admin,
           "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
           "'replication_factor': 1}");
        ok(*admin, "CREATE TABLE ks.t (k int PRIMARY KEY, v int)");
        ok(*admin, "CREATE ROLE app WITH PASSWORD = 'pw' AND LOGIN = true");
        ok(*admin, "GRANT SELECT ON KEYSPACE ks TO app");
        ok(*admin, "ALTER ROLE cassandra WITH PASSWORD = 'changed'");
    }
    open();
    EXPECT_FALSE(db_->login("cassandra", "cassandra").is_ok());
    EXPECT_NE(login("cassandra", "changed"), nullptr);
    auto app = login("app", "pw");
    ASSERT_NE(app, nullptr);
    ok(*app, "SELECT * FROM ks.t");
    auto w = app->execute("INSERT INTO ks.t (k, v) VALUES (1, 1)", {});
    ASSERT_FALSE(w.is_ok());
    EXPECT_EQ(w.status().code(), ErrorCode::kUnauthorized);
    EXPECT_EQ(w.status().message(),
              "User app has no MODIFY permission on <table ks.t> or any of its parents");
    // A batch is checked statement by statement.
    auto b = app->execute_batch(BatchType::kLogged,
                                {BatchEntry{"INSERT INTO ks.t (k, v) VALUES (1, 1)", {}, {}}}, {});
    ASSERT_FALSE(b.is_ok());
    EXPECT_EQ(b.status().code(), ErrorCode::kUnauthorized);
}

TEST_F(AuthDbTest, ConditionalWritesNeedSelectAndSuperusersAreProtected) {
    auto admin = login("cassandra", "cassandra");
    ASSERT_NE(admin, nullptr);
    ok(*admin,
       "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
       "'replication_factor': 1}");
    ok(*admin, "CREATE TABLE ks.t (k int PRIMARY KEY, v int)");
    ok(*admin, "CREATE ROLE writer WITH PASSWORD = 'pw' AND LOGIN = true");
    ok(*admin, "GRANT MODIFY ON TABLE ks.t TO writer");
    ok(*admin, "GRANT ALTER ON ALL ROLES TO writer");
    auto writer = login("writer", "pw");
    ASSERT_NE(writer, nullptr);
    ok(*writer, "INSERT INTO ks.t (k, v) VALUES (1, 1)");
    auto lwt = writer->execute("INSERT INTO ks.t (k, v) VALUES (2, 2) IF NOT EXISTS", {});
    ASSERT_FALSE(lwt.is_ok());
    EXPECT_EQ(lwt.status().message(),
              "User writer has no SELECT permission on <table ks.t> or any of its parents");
    auto alter = writer->execute("ALTER ROLE cassandra WITH PASSWORD = 'mine'", {});
    ASSERT_FALSE(alter.is_ok());
    EXPECT_EQ(alter.status().code(), ErrorCode::kUnauthorized);
    ok(*admin, "GRANT SELECT ON KEYSPACE ks TO writer");
    ok(*writer, "INSERT INTO ks.t (k, v) VALUES (2, 2) IF NOT EXISTS");
    // Operator commands: superusers (and the embedded API) only.
    Status flush = writer->require_superuser("flush");
    ASSERT_FALSE(flush.is_ok());
    EXPECT_EQ(flush.code(), ErrorCode::kUnauthorized);
    EXPECT_EQ(flush.message(), "Only superusers are allowed to flush");
    EXPECT_TRUE(admin->require_superuser("flush").is_ok());
    EXPECT_TRUE(db_->new_session()->require_superuser("flush").is_ok());
    auto call = writer->execute("CALL system.compact('ks', 't')", {});
    ASSERT_FALSE(call.is_ok());
    EXPECT_EQ(call.status().message(), "Only superusers are allowed to compact");
    ok(*admin, "CALL system.flush('ks')");
}

TEST(AuthConfigTest, AuthorizerNeedsPasswordAuthenticator) {
    DatabaseOptions o;
    o.data_dir =
        (std::filesystem::temp_directory_path() / ("tessel_auth_cfg_" + std::to_string(::getpid())))
            .string();
    o.authorizer = "CassandraAuthorizer";
    auto r = Database::open(o);
    EXPECT_FALSE(r.is_ok());
    o.authorizer = "AllowAllAuthorizer";
    o.authenticator = "KerberosAuthenticator";
    EXPECT_FALSE(Database::open(o).is_ok());
    std::filesystem::remove_all(o.data_dir);
}

}  // namespace
}  // namespace tessel::testing
