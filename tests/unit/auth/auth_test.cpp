// Password hashes, role records, resources and the role/permission grammar.
#include <gtest/gtest.h>

#include "auth/password_hash.h"
#include "auth/resource.h"
#include "auth/role_store.h"
#include "cql/parser.h"

namespace tessel::auth {
namespace {

TEST(PasswordHashTest, SaltedAndVerifiable) {
    auto a = hash_password("secret", 1000);
    auto b = hash_password("secret", 1000);
    ASSERT_TRUE(a.is_ok() && b.is_ok());
    EXPECT_EQ(a->rfind("$pbkdf2-sha256$1000$", 0), 0u) << *a;
    EXPECT_NE(*a, *b);  // a fresh salt every time
    EXPECT_EQ(a->find("secret"), std::string::npos);
    EXPECT_TRUE(verify_password("secret", *a));
    EXPECT_TRUE(verify_password("secret", *b));
    EXPECT_FALSE(verify_password("Secret", *a));
    EXPECT_FALSE(verify_password("", *a));
}

TEST(PasswordHashTest, MalformedStoredHashesNeverMatch) {
    auto h = hash_password("pw", 10);
    ASSERT_TRUE(h.is_ok());
    for (std::string bad :
         {std::string(), std::string("pw"), std::string("$pbkdf2-sha256$"),
          std::string("$pbkdf2-sha256$0$AAAA$AAAA"), std::string("$pbkdf2-sha256$x$AAAA$AAAA"),
          h->substr(0, h->size() - 4), "$md5$" + h->substr(15)}) {
        EXPECT_FALSE(verify_password("pw", bad)) << bad;
    }
}

TEST(RoleStoreTest, RecordRoundTrip) {
    Role r;
    r.name = "alice";
    r.salted_hash = "$pbkdf2-sha256$1$x$y";
    r.can_login = true;
    r.member_of = {"readers", "writers"};
    r.permissions = {{"data", cql::kPermSelect}, {"data/ks/t", cql::kAllPermissions}};
    auto d = decode_role(encode_role(r));
    ASSERT_TRUE(d.is_ok());
    EXPECT_EQ(d->name, r.name);
    EXPECT_EQ(d->salted_hash, r.salted_hash);
    EXPECT_TRUE(d->can_login);
    EXPECT_FALSE(d->is_superuser);
    EXPECT_EQ(d->member_of, r.member_of);
    EXPECT_EQ(d->permissions, r.permissions);
    std::string bytes = encode_role(r);
    EXPECT_FALSE(decode_role(bytes.substr(0, bytes.size() - 1)).is_ok());
    EXPECT_FALSE(decode_role(bytes + "x").is_ok());
}

TEST(RoleStoreTest, InheritanceThroughGrantedRoles) {
    RoleSet set;
    set.roles["admin"] = Role{"admin", "", false, true, {}, {}};
    set.roles["readers"] = Role{"readers", "", false, false, {}, {{"data/ks", cql::kPermSelect}}};
    set.roles["bob"] = Role{"bob", "", true, false, {"readers"}, {{"data/ks", cql::kPermModify}}};
    set.roles["boss"] = Role{"boss", "", true, false, {"admin"}, {}};
    EXPECT_FALSE(set.is_superuser("boss"));  // not indexed yet
    set.index();
    EXPECT_EQ(set.permissions_on("bob", "data/ks"), cql::kPermSelect | cql::kPermModify);
    EXPECT_EQ(set.permissions_on("readers", "data/ks"), uint32_t(cql::kPermSelect));
    EXPECT_FALSE(set.is_superuser("bob"));
    EXPECT_TRUE(set.is_superuser("boss"));
    EXPECT_EQ(set.closure("bob"), (std::set<std::string>{"bob", "readers"}));
}

TEST(ResourceTest, NamesAndChain) {
    auto t = table_resource("ks", "t");
    EXPECT_EQ(resource_name(t), "data/ks/t");
    EXPECT_EQ(resource_display(t), "<table ks.t>");
    EXPECT_EQ(resource_display(keyspace_resource("ks")), "<keyspace ks>");
    EXPECT_EQ(resource_display(all_keyspaces()), "<all keyspaces>");
    auto chain = resource_chain(t);
    ASSERT_EQ(chain.size(), 3u);
    EXPECT_EQ(resource_name(chain[1]), "data/ks");
    EXPECT_EQ(resource_name(chain[2]), "data");
    for (const auto& r : chain)
        EXPECT_EQ(parse_resource_name(resource_name(r)), r);
    EXPECT_FALSE(parse_resource_name("data/").has_value());
    EXPECT_EQ(resource_display(role_resource("r")), "<role r>");
    EXPECT_EQ(resource_chain(role_resource("r")),
              (std::vector<AuthResource>{role_resource("r"), all_roles()}));
    EXPECT_EQ(parse_resource_name("roles/r"), role_resource("r"));
    EXPECT_EQ(parse_resource_name("roles"), all_roles());
    EXPECT_EQ(applicable_permissions(role_resource("r")),
              uint32_t(cql::kPermAlter | cql::kPermDrop | cql::kPermAuthorize));
    EXPECT_EQ(permission_names(cql::kPermSelect | cql::kPermCreate),
              (std::vector<std::string>{"CREATE", "SELECT"}));
}

cql::AuthStatement parse_auth(const std::string& text) {
    auto st = cql::parse_statement(text);
    EXPECT_TRUE(st.is_ok()) << text << ": " << (st.is_ok() ? "" : st.status().message());
    if (!st.is_ok() || !st->is<cql::AuthStatement>()) return {};
    return st->as<cql::AuthStatement>();
}

TEST(AuthGrammarTest, Roles) {
    using K = cql::AuthStatement::Kind;
    auto s = parse_auth(
        "CREATE ROLE IF NOT EXISTS Alice WITH PASSWORD = 'pw' AND LOGIN = true AND SUPERUSER = "
        "false");
    EXPECT_EQ(s.kind, K::kCreateRole);
    EXPECT_TRUE(s.if_not_exists);
    EXPECT_EQ(s.role, "alice");
    EXPECT_EQ(s.password, "pw");
    EXPECT_EQ(s.login, true);
    EXPECT_EQ(s.superuser, false);
    EXPECT_EQ(parse_auth("CREATE ROLE 'Bob'").role, "Bob");
    EXPECT_EQ(parse_auth("DROP ROLE IF EXISTS \"Bob\"").if_exists, true);
    s = parse_auth("CREATE USER u WITH PASSWORD 'x' SUPERUSER");
    EXPECT_TRUE(s.user_syntax);
    EXPECT_EQ(s.login, true);
    EXPECT_EQ(s.superuser, true);
    s = parse_auth("LIST ROLES OF bob NORECURSIVE");
    EXPECT_EQ(s.kind, K::kListRoles);
    EXPECT_EQ(s.role, "bob");
    EXPECT_TRUE(s.norecursive);
    EXPECT_TRUE(parse_auth("LIST USERS").user_syntax);
    s = parse_auth("GRANT readers TO bob");
    EXPECT_EQ(s.kind, K::kGrantRole);
    EXPECT_EQ(s.granted_role, "readers");
    EXPECT_EQ(s.role, "bob");
    EXPECT_EQ(parse_auth("REVOKE readers FROM bob").kind, K::kRevokeRole);
    EXPECT_FALSE(cql::parse_statement("CREATE ROLE r WITH COLOUR = 'red'").is_ok());
}

TEST(AuthGrammarTest, Permissions) {
    using K = cql::AuthStatement::Kind;
    using L = cql::AuthResource::Level;
    auto s = parse_auth("GRANT SELECT ON ks.t TO bob");
    EXPECT_EQ(s.kind, K::kGrantPermission);
    EXPECT_EQ(s.permissions, uint32_t(cql::kPermSelect));
    ASSERT_TRUE(s.resource.has_value());
    EXPECT_EQ(s.resource->level, L::kTable);
    EXPECT_EQ(s.resource->keyspace, "ks");
    EXPECT_EQ(s.resource->table, "t");
    s = parse_auth("GRANT ALL PERMISSIONS ON ALL KEYSPACES TO bob");
    EXPECT_EQ(s.permissions, uint32_t(cql::kAllPermissions));
    EXPECT_EQ(s.resource->level, L::kAllKeyspaces);
    s = parse_auth("REVOKE MODIFY PERMISSION ON KEYSPACE ks FROM bob");
    EXPECT_EQ(s.kind, K::kRevokePermission);
    EXPECT_EQ(s.resource->level, L::kKeyspace);
    s = parse_auth("REVOKE ALL ON TABLE t FROM bob");
    EXPECT_EQ(s.resource->keyspace, "");
    s = parse_auth("LIST ALL PERMISSIONS ON KEYSPACE ks OF bob NORECURSIVE");
    EXPECT_EQ(s.kind, K::kListPermissions);
    EXPECT_EQ(s.role, "bob");
    EXPECT_TRUE(s.norecursive);
    s = parse_auth("LIST AUTHORIZE");
    EXPECT_EQ(s.permissions, uint32_t(cql::kPermAuthorize));
    EXPECT_FALSE(s.resource.has_value());
    EXPECT_FALSE(cql::parse_statement("GRANT EXECUTE ON ALL KEYSPACES TO bob").is_ok());
    EXPECT_FALSE(cql::parse_statement("GRANT SELECT ON ALL FUNCTIONS TO bob").is_ok());
    s = parse_auth("GRANT CREATE ON ALL ROLES TO bob");
    EXPECT_EQ(s.resource->level, L::kAllRoles);
    s = parse_auth("REVOKE ALTER ON ROLE 'Alice' FROM bob");
    EXPECT_EQ(s.resource->level, L::kRole);
    EXPECT_EQ(s.resource->role, "Alice");
    EXPECT_EQ(parse_auth("LIST DESCRIBE ON ALL ROLES").permissions, uint32_t(cql::kPermDescribe));
    EXPECT_FALSE(cql::parse_statement("GRANT SELECT ON ks.t").is_ok());
}

}  // namespace
}  // namespace tessel::auth
