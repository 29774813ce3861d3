#!/usr/bin/env python3
"""PasswordAuthenticator and CassandraAuthorizer through the DataStax Python driver.

Needs a server started with `authenticator: PasswordAuthenticator` and
`authorizer: CassandraAuthorizer` on a fresh data directory (tests/suites/auth.sh
does that): the default superuser cassandra/cassandra exists.

Run against a live server: TESSEL_HOST / TESSEL_PORT (default 127.0.0.1:9042).
    /usr/bin/python3 tests/drivers/python/test_auth.py
Prints a closing "N passed, N failed" line; exit status 1 on any failure.
"""

import unittest

from cassandra import AuthenticationFailed, InvalidRequest, Unauthorized
from cassandra.auth import PlainTextAuthProvider
from cassandra.cluster import NoHostAvailable
from cassandra.query import SimpleStatement

from driver_env import new_cluster, run

SUPERUSER = ("cassandra", "cassandra")


def connect(user, password):
    cluster = new_cluster(auth_provider=PlainTextAuthProvider(username=user, password=password))
    session = cluster.connect()
    session.default_timeout = 30
    return cluster, session


def auth_error_of(exc):
    """The AuthenticationFailed inside a NoHostAvailable, or None."""
    for err in getattr(exc, "errors", {}).values():
        if isinstance(err, AuthenticationFailed):
            return err
    return None


class AuthTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cluster, cls.admin = connect(*SUPERUSER)
        s = cls.admin
        s.execute("CREATE KEYSPACE IF NOT EXISTS pyauth WITH replication = "
                  "{'class': 'SimpleStrategy', 'replication_factor': 1}")
        s.execute("CREATE TABLE IF NOT EXISTS pyauth.a (k int, c int, v text, PRIMARY KEY (k, c))")
        s.execute("CREATE TABLE IF NOT EXISTS pyauth.b (k int, c int, v text, PRIMARY KEY (k, c))")
        for t in ("a", "b"):
            for c in range(10):
                s.execute(f"INSERT INTO pyauth.{t} (k, c, v) VALUES (1, {c}, '{t}{c}')")
        s.execute("CREATE ROLE IF NOT EXISTS reader WITH PASSWORD = 'r3ader' AND LOGIN = true")
        s.execute("GRANT SELECT ON TABLE pyauth.a TO reader")
        s.execute("CREATE ROLE IF NOT EXISTS nobody WITH PASSWORD = 'n0body' AND LOGIN = true")

    @classmethod
    def tearDownClass(cls):
        cls.cluster.shutdown()

    def test_wrong_password_is_authentication_failed(self):
        with self.assertRaises(NoHostAvailable) as ctx:
            connect("reader", "wrong")
        err = auth_error_of(ctx.exception)
        self.assertIsNotNone(err, ctx.exception)
        self.assertIn("Provided username reader and/or password are incorrect", str(err))

    def test_unknown_user_is_authentication_failed(self):
        with self.assertRaises(NoHostAvailable) as ctx:
            connect("ghost", "whatever")
        self.assertIsNotNone(auth_error_of(ctx.exception), ctx.exception)

    def test_role_without_login_cannot_connect(self):
        self.admin.execute("CREATE ROLE IF NOT EXISTS group_only WITH PASSWORD = 'g' "
                           "AND LOGIN = false")
        with self.assertRaises(NoHostAvailable) as ctx:
            connect("group_only", "g")
        err = auth_error_of(ctx.exception)
        self.assertIsNotNone(err, ctx.exception)
        self.assertIn("group_only is not permitted to log in", str(err))

    def test_granted_select_reads_and_missing_select_is_unauthorized(self):
        cluster, s = connect("reader", "r3ader")
        try:
            rows = list(s.execute("SELECT v FROM pyauth.a WHERE k = 1"))
            self.assertEqual(len(rows), 10)
            with self.assertRaises(Unauthorized) as ctx:
                s.execute("SELECT v FROM pyauth.b WHERE k = 1")
            self.assertIn("User reader has no SELECT permission on <table pyauth.b> "
                          "or any of its parents", str(ctx.exception))
            with self.assertRaises(Unauthorized) as ctx:
                s.execute("INSERT INTO pyauth.a (k, c, v) VALUES (2, 0, 'x')")
            self.assertIn("has no MODIFY permission on <table pyauth.a>", str(ctx.exception))
            # Prepared statements are checked at every execution too.
            with self.assertRaises(Unauthorized):
                s.execute(s.prepare("SELECT v FROM pyauth.b WHERE k = ?"), [1])
            # System tables the driver reads stay readable.
            self.assertEqual(len(list(s.execute("SELECT key FROM system.local"))), 1)
        finally:
            cluster.shutdown()

    def test_role_without_any_permission_cannot_read(self):
        cluster, s = connect("nobody", "n0body")
        try:
            with self.assertRaises(Unauthorized):
                s.execute("SELECT * FROM pyauth.a")
            with self.assertRaises(Unauthorized):
                s.execute("SELECT * FROM system_auth.roles")
        finally:
            cluster.shutdown()

    def test_paging_state_cannot_reach_another_table(self):
        cluster, s = connect("reader", "r3ader")
        try:
            first = s.execute(SimpleStatement("SELECT v FROM pyauth.a WHERE k = 1", fetch_size=3))
            state = first.paging_state
            self.assertIsNotNone(state)
            # The same paging state bound to a query on a table reader may not read.
            with self.assertRaises(Unauthorized):
                s.execute(SimpleStatement("SELECT v FROM pyauth.b WHERE k = 1", fetch_size=3),
                          paging_state=state)
            # And, for a superuser, a paging state of one table is no key to another.
            with self.assertRaises(InvalidRequest) as ctx:
                self.admin.execute(
                    SimpleStatement("SELECT v FROM pyauth.b WHERE k = 1", fetch_size=3),
                    paging_state=state)
            self.assertIn("Invalid paging state", str(ctx.exception))
            # It still resumes its own query.
            rest = s.execute(SimpleStatement("SELECT v FROM pyauth.a WHERE k = 1", fetch_size=3),
                             paging_state=state)
            self.assertEqual(rest.current_rows[0].v, "a3")
        finally:
            cluster.shutdown()

    def test_cannot_grant_what_it_lacks(self):
        cluster, s = connect("reader", "r3ader")
        try:
            with self.assertRaises(Unauthorized) as ctx:
                s.execute("GRANT SELECT ON TABLE pyauth.a TO nobody")
            self.assertIn("User reader has no AUTHORIZE permission on <table pyauth.a> "
                          "or any of its parents", str(ctx.exception))
            with self.assertRaises(Unauthorized):
                s.execute("GRANT MODIFY ON KEYSPACE pyauth TO nobody")
            with self.assertRaises(Unauthorized):
                s.execute("CREATE ROLE sneaky WITH SUPERUSER = true")
        finally:
            cluster.shutdown()
        # With AUTHORIZE on the table but without MODIFY, MODIFY cannot be handed on.
        self.admin.execute("CREATE ROLE IF NOT EXISTS delegate WITH PASSWORD = 'd' AND LOGIN = true")
        self.admin.execute("GRANT AUTHORIZE ON TABLE pyauth.a TO delegate")
        self.admin.execute("GRANT SELECT ON TABLE pyauth.a TO delegate")
        cluster, s = connect("delegate", "d")
        try:
            s.execute("GRANT SELECT ON TABLE pyauth.a TO nobody")
            with self.assertRaises(Unauthorized) as ctx:
                s.execute("GRANT MODIFY ON TABLE pyauth.a TO nobody")
            self.assertIn("User delegate has no MODIFY permission on <table pyauth.a>",
                          str(ctx.exception))
        finally:
            cluster.shutdown()
        self.admin.execute("REVOKE SELECT ON TABLE pyauth.a FROM nobody")

    def test_creator_gets_all_on_what_it_creates(self):
        self.admin.execute("CREATE ROLE IF NOT EXISTS builder WITH PASSWORD = 'b' AND LOGIN = true")
        self.admin.execute("GRANT CREATE ON ALL KEYSPACES TO builder")
        self.admin.execute("DROP KEYSPACE IF EXISTS pyauth_built")
        cluster, s = connect("builder", "b")
        try:
            s.execute("CREATE KEYSPACE pyauth_built WITH replication = "
                      "{'class': 'SimpleStrategy', 'replication_factor': 1}")
            s.execute("CREATE TABLE pyauth_built.t (k int PRIMARY KEY, v int)")
            s.execute("INSERT INTO pyauth_built.t (k, v) VALUES (1, 2)")
            self.assertEqual(s.execute("SELECT v FROM pyauth_built.t WHERE k = 1").one().v, 2)
            perms = {(r.resource, r.permission) for r in
                     s.execute("LIST ALL PERMISSIONS OF builder")}
            self.assertIn(("<keyspace pyauth_built>", "DROP"), perms)
            self.assertIn(("<table pyauth_built.t>", "SELECT"), perms)
            s.execute("DROP KEYSPACE pyauth_built")
            perms = {r.resource for r in s.execute("LIST ALL PERMISSIONS OF builder")}
            self.assertEqual(perms, {"<all keyspaces>"})
        finally:
            cluster.shutdown()

    def test_list_roles_and_permissions(self):
        s = self.admin
        s.execute("CREATE ROLE IF NOT EXISTS lister WITH LOGIN = false")
        s.execute("GRANT MODIFY ON KEYSPACE pyauth TO lister")
        s.execute("GRANT SELECT ON ALL KEYSPACES TO lister")
        roles = {r.role: r for r in s.execute("LIST ROLES")}
        self.assertTrue(roles["cassandra"].super)
        self.assertTrue(roles["cassandra"].login)
        self.assertFalse(roles["lister"].login)
        self.assertEqual(list(s.execute("LIST ROLES").one()._fields),
                         ["role", "super", "login", "options"])
        rows = [(r.role, r.username, r.resource, r.permission)
                for r in s.execute("LIST ALL PERMISSIONS OF lister")]
        self.assertEqual(rows, [("lister", "lister", "<all keyspaces>", "SELECT"),
                                ("lister", "lister", "<keyspace pyauth>", "MODIFY")])
        rows = [r.permission for r in s.execute("LIST MODIFY ON TABLE pyauth.a OF lister")]
        self.assertEqual(rows, ["MODIFY"])  # inherited from the keyspace
        rows = list(s.execute("LIST MODIFY ON TABLE pyauth.a OF lister NORECURSIVE"))
        self.assertEqual(rows, [])
        # A role granted to another passes its permissions on.
        s.execute("GRANT lister TO nobody")
        cluster, ns = connect("nobody", "n0body")
        try:
            self.assertEqual(len(list(ns.execute("SELECT * FROM pyauth.a WHERE k = 1"))), 10)
            self.assertEqual({r.role for r in ns.execute("LIST ROLES")}, {"nobody", "lister"})
            with self.assertRaises(Unauthorized):
                ns.execute("LIST ALL PERMISSIONS")
        finally:
            cluster.shutdown()
            s.execute("REVOKE lister FROM nobody")

    def test_system_auth_tables(self):
        rows = {r.role: r for r in self.admin.execute("SELECT * FROM system_auth.roles")}
        self.assertTrue(rows["cassandra"].is_superuser)
        self.assertTrue(rows["reader"].salted_hash.startswith("$pbkdf2-sha256$"))
        self.assertNotIn("r3ader", rows["reader"].salted_hash)
        perms = {(r.role, r.resource): r.permissions
                 for r in self.admin.execute("SELECT * FROM system_auth.role_permissions")}
        self.assertEqual(perms[("reader", "data/pyauth/a")], {"SELECT"})

    def test_role_management_errors(self):
        s = self.admin
        with self.assertRaises(InvalidRequest) as ctx:
            s.execute("CREATE ROLE reader")
        self.assertIn("reader already exists", str(ctx.exception))
        with self.assertRaises(InvalidRequest) as ctx:
            s.execute("DROP ROLE ghost")
        self.assertIn("ghost doesn't exist", str(ctx.exception))
        s.execute("DROP ROLE IF EXISTS ghost")
        with self.assertRaises(InvalidRequest) as ctx:
            s.execute("GRANT SELECT ON TABLE pyauth.nope TO reader")
        self.assertIn("Resource <table pyauth.nope> doesn't exist", str(ctx.exception))
        with self.assertRaises(InvalidRequest):
            s.execute("DROP ROLE cassandra")  # the current login

    def test_user_changes_own_password_and_superuser_password_change(self):
        self.admin.execute("CREATE ROLE IF NOT EXISTS changer WITH PASSWORD = 'one' AND LOGIN = true")
        cluster, s = connect("changer", "one")
        try:
            s.execute("ALTER ROLE changer WITH PASSWORD = 'two'")
            with self.assertRaises(Unauthorized):
                s.execute("ALTER ROLE changer WITH SUPERUSER = true")
        finally:
            cluster.shutdown()
        with self.assertRaises(NoHostAvailable):
            connect("changer", "one")
        cluster, _ = connect("changer", "two")
        cluster.shutdown()
        # The default superuser's password can be changed (and changed back).
        self.admin.execute("ALTER ROLE cassandra WITH PASSWORD = 'n3w'")
        try:
            with self.assertRaises(NoHostAvailable):
                connect(*SUPERUSER)
            cluster, s = connect("cassandra", "n3w")
            self.assertTrue({r.role: r for r in s.execute("LIST ROLES")}["cassandra"].super)
            cluster.shutdown()
        finally:
            self.admin.execute("ALTER USER cassandra WITH PASSWORD 'cassandra'")
        cluster, _ = connect(*SUPERUSER)
        cluster.shutdown()

    def test_permissions_on_roles(self):
        s = self.admin
        s.execute("CREATE ROLE IF NOT EXISTS roleadmin WITH PASSWORD = 'ra' AND LOGIN = true")
        cluster, ra = connect("roleadmin", "ra")
        try:
            with self.assertRaises(Unauthorized) as ctx:
                ra.execute("CREATE ROLE team")
            self.assertIn("User roleadmin has no CREATE permission on <all roles> "
                          "or any of its parents", str(ctx.exception))
            s.execute("GRANT CREATE ON ALL ROLES TO roleadmin")
            s.execute("DROP ROLE IF EXISTS team")
            ra.execute("CREATE ROLE team WITH PASSWORD = 't' AND LOGIN = true")
            # The creator gets ALTER, DROP and AUTHORIZE on the role it made.
            perms = {(r.resource, r.permission)
                     for r in ra.execute("LIST ALL PERMISSIONS OF roleadmin")}
            self.assertEqual(perms, {("<all roles>", "CREATE"), ("<role team>", "ALTER"),
                                     ("<role team>", "DROP"), ("<role team>", "AUTHORIZE")})
            ra.execute("ALTER ROLE team WITH PASSWORD = 't2'")
            with self.assertRaises(Unauthorized):
                ra.execute("ALTER ROLE reader WITH PASSWORD = 'x'")
            with self.assertRaises(Unauthorized):
                ra.execute("CREATE ROLE boss WITH SUPERUSER = true")
            # Only its own roles are listed without DESCRIBE on <all roles>.
            self.assertEqual({r.role for r in ra.execute("LIST ROLES")}, {"roleadmin"})
            s.execute("GRANT DESCRIBE ON ALL ROLES TO roleadmin")
            self.assertIn("cassandra", {r.role for r in ra.execute("LIST ROLES")})
            with self.assertRaises(InvalidRequest) as ctx:
                s.execute("GRANT SELECT ON ROLE team TO reader")
            self.assertIn("Resource type RoleResource does not support the requested "
                          "permissions: SELECT", str(ctx.exception))
            ra.execute("DROP ROLE team")
            perms = {r.resource for r in ra.execute("LIST ALL PERMISSIONS OF roleadmin")}
            self.assertEqual(perms, {"<all roles>"})
        finally:
            cluster.shutdown()

    def test_legacy_user_statements(self):
        s = self.admin
        s.execute("CREATE USER IF NOT EXISTS olduser WITH PASSWORD 'pw' NOSUPERUSER")
        users = {r.name: r.super for r in s.execute("LIST USERS")}
        self.assertEqual(users.get("olduser"), False)
        self.assertTrue(users["cassandra"])
        cluster, _ = connect("olduser", "pw")
        cluster.shutdown()
        s.execute("DROP USER olduser")
        self.assertNotIn("olduser", {r.name for r in s.execute("LIST USERS")})


if __name__ == "__main__":
    raise SystemExit(run(AuthTest))
