// PasswordAuthenticator and CassandraAuthorizer through the Node.js driver.
// Needs a server with both on and the default superuser (tests/suites/auth.sh):
// TESSEL_HOST / TESSEL_PORT (default 127.0.0.1:9042).
'use strict';

const { test, after } = require('node:test');
const assert = require('node:assert/strict');
const cassandra = require('cassandra-driver');

const host = process.env.TESSEL_HOST || '127.0.0.1';
const port = Number(process.env.TESSEL_PORT || 9042);
const clients = [];

function newClient(user, password) {
  const client = new cassandra.Client({
    contactPoints: [host],
    localDataCenter: 'datacenter1',
    protocolOptions: { port },
    socketOptions: { readTimeout: 30000 },
    authProvider: new cassandra.auth.PlainTextAuthProvider(user, password),
  });
  clients.push(client);
  return client;
}

after(async () => {
  for (const c of clients) await c.shutdown();
});

test('a wrong password is an AuthenticationError', async () => {
  const client = newClient('cassandra', 'wrong');
  await assert.rejects(client.connect(), (err) => {
    const inner = Object.values(err.innerErrors || {});
    assert.ok(inner.some((e) => e instanceof cassandra.errors.AuthenticationError &&
                               /Provided username cassandra and\/or password are incorrect/
                                   .test(e.message)),
              String(err));
    return true;
  });
});

test('the superuser logs in; a role without SELECT gets Unauthorized', async () => {
  const admin = newClient('cassandra', 'cassandra');
  await admin.connect();
  await admin.execute("CREATE KEYSPACE IF NOT EXISTS nodeauth WITH replication = " +
                      "{'class': 'SimpleStrategy', 'replication_factor': 1}");
  await admin.execute('CREATE TABLE IF NOT EXISTS nodeauth.t (k int PRIMARY KEY, v int)');
  await admin.execute("CREATE ROLE IF NOT EXISTS nodeuser WITH PASSWORD = 'pw' AND LOGIN = true");
  const user = newClient('nodeuser', 'pw');
  await user.connect();
  await assert.rejects(user.execute('SELECT * FROM nodeauth.t'), (err) => {
    assert.equal(err.code, 0x2100);
    assert.match(err.message, /User nodeuser has no SELECT permission on <table nodeauth.t>/);
    return true;
  });
  await admin.execute('GRANT SELECT ON KEYSPACE nodeauth TO nodeuser');
  const rs = await user.execute('SELECT * FROM nodeauth.t');
  assert.equal(rs.rows.length, 0);
});
