// tesseld against the DataStax Node.js driver 4.x. Needs a running server:
// TESSEL_HOST / TESSEL_PORT (default 127.0.0.1:9042).
'use strict';

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const cassandra = require('cassandra-driver');

const host = process.env.TESSEL_HOST || '127.0.0.1';
const port = Number(process.env.TESSEL_PORT || 9042);
const KS = 'nodedriver';

function newClient(options = {}) {
  // No protocolOptions.maxVersion: the driver starts at DSE_V2 and must be
  // negotiated down to v4 by the server's version error.
  return new cassandra.Client({
    contactPoints: [host],
    localDataCenter: 'datacenter1',
    protocolOptions: { port },
    socketOptions: { readTimeout: 30000 },
    ...options,
  });
}

let client;

before(async () => {
  client = newClient();
  await client.connect();
  await client.execute(`DROP KEYSPACE IF EXISTS ${KS}`);
  await client.execute(`CREATE KEYSPACE ${KS} WITH replication = ` +
                       `{'class': 'SimpleStrategy', 'replication_factor': 1}`);
  await client.execute(`CREATE TABLE ${KS}.items (p int, c int, name text, price double, ` +
                       `tags set<text>, PRIMARY KEY (p, c))`);
});

after(async () => {
  if (client) await client.shutdown();
});

test('connects with localDataCenter and negotiates protocol v4', async () => {
  assert.equal(client.getState().getConnectedHosts().length, 1);
  const hosts = client.hosts.values();
  assert.equal(hosts.length, 1);
  assert.equal(hosts[0].datacenter, 'datacenter1');
  assert.equal(hosts[0].cassandraVersion, '4.0.11');
  assert.equal(client.controlConnection.protocolVersion, 4);
  const rs = await client.execute("SELECT key, release_version FROM system.local WHERE key='local'");
  assert.equal(rs.rowLength, 1);
  assert.equal(rs.first().key, 'local');
});

test('execute with prepare: true round-trips values', async () => {
  const insert = `INSERT INTO ${KS}.items (p, c, name, price, tags) VALUES (?, ?, ?, ?, ?)`;
  await client.execute(insert, [1, 1, 'apple', 1.5, ['red', 'green']], { prepare: true });
  await client.execute(insert, [1, 2, 'pear', 2.25, null], { prepare: true });
  const rs = await client.execute(`SELECT * FROM ${KS}.items WHERE p = ?`, [1], { prepare: true });
  assert.equal(rs.rowLength, 2);
  const apple = rs.rows[0];
  assert.equal(apple.name, 'apple');
  assert.equal(apple.price, 1.5);
  assert.deepEqual([...apple.tags].sort(), ['green', 'red']);
  assert.equal(rs.rows[1].tags, null);
  assert.deepEqual(rs.columns.map((c) => c.name), ['p', 'c', 'name', 'price', 'tags']);
});

test('eachRow and stream page through all rows', async () => {
  const insert = `INSERT INTO ${KS}.items (p, c, name) VALUES (?, ?, ?)`;
  const pending = [];
  for (let c = 0; c < 1000; c++) {
    pending.push(client.execute(insert, [2, c, `n${c}`], { prepare: true }));
  }
  await Promise.all(pending);

  const seen = await new Promise((resolve, reject) => {
    let count = 0;
    client.eachRow(`SELECT c FROM ${KS}.items WHERE p = ?`, [2],
      { prepare: true, fetchSize: 100, autoPage: true },
      () => { count++; },
      (err) => (err ? reject(err) : resolve(count)));
  });
  assert.equal(seen, 1000);

  const streamed = await new Promise((resolve, reject) => {
    const cs = [];
    client.stream(`SELECT c FROM ${KS}.items WHERE p = ?`, [2], { prepare: true, fetchSize: 64 })
      .on('readable', function () {
        let row;
        while ((row = this.read())) cs.push(row.c);
      })
      .on('end', () => resolve(cs))
      .on('error', reject);
  });
  assert.equal(streamed.length, 1000);
  assert.deepEqual(streamed.slice(0, 3), [0, 1, 2]);

  // Manual paging with a saved page state on another client.
  const first = await client.execute(`SELECT c FROM ${KS}.items WHERE p = ?`, [2],
                                     { prepare: true, fetchSize: 300 });
  assert.equal(first.rowLength, 300);
  assert.ok(first.pageState);
  const other = newClient();
  try {
    await other.connect();
    const second = await other.execute(`SELECT c FROM ${KS}.items WHERE p = ?`, [2],
                                       { prepare: true, fetchSize: 300, pageState: first.pageState });
    assert.equal(second.rows[0].c, 300);
  } finally {
    await other.shutdown();
  }
});

test('batch of prepared statements', async () => {
  const insert = `INSERT INTO ${KS}.items (p, c, name) VALUES (?, ?, ?)`;
  await client.batch([
    { query: insert, params: [3, 1, 'a'] },
    { query: insert, params: [3, 2, 'b'] },
    { query: `UPDATE ${KS}.items SET name = ? WHERE p = ? AND c = ?`, params: ['c', 3, 3] },
  ], { prepare: true });
  const rs = await client.execute(`SELECT c, name FROM ${KS}.items WHERE p = 3`);
  assert.deepEqual(rs.rows.map((r) => [r.c, r.name]), [[1, 'a'], [2, 'b'], [3, 'c']]);
  await client.batch([`INSERT INTO ${KS}.items (p, c, name) VALUES (4, 1, 'x')`],
                     { logged: false });
  assert.equal((await client.execute(`SELECT name FROM ${KS}.items WHERE p = 4`)).first().name, 'x');
});

test('metadata: keyspace, table, columns and token-aware routing info', async () => {
  const ks = client.metadata.keyspaces[KS];
  assert.ok(ks, 'keyspace metadata present');
  assert.equal(ks.strategy, 'org.apache.cassandra.locator.SimpleStrategy');
  const table = await client.metadata.getTable(KS, 'items');
  assert.ok(table);
  assert.deepEqual(table.partitionKeys.map((c) => c.name), ['p']);
  assert.deepEqual(table.clusteringKeys.map((c) => c.name), ['c']);
  // system_schema says 'text', which the driver maps to its text code.
  assert.ok([cassandra.types.dataTypes.text, cassandra.types.dataTypes.varchar]
    .includes(table.columnsByName.name.type.code));
  assert.equal(table.columnsByName.tags.type.code, cassandra.types.dataTypes.set);
  const replicas = client.getReplicas(KS, Buffer.from([0, 0, 0, 1]));
  assert.equal(replicas.length, 1);
});

test('errors map to the driver error classes', async () => {
  await assert.rejects(client.execute(`SELECT * FROM ${KS}.missing`), (err) => {
    assert.ok(err instanceof cassandra.errors.ResponseError);
    assert.equal(err.code, cassandra.types.responseErrorCodes.invalid);
    return true;
  });
  await assert.rejects(client.execute(`CREATE TABLE ${KS}.items (k int PRIMARY KEY)`), (err) => {
    assert.equal(err.code, cassandra.types.responseErrorCodes.alreadyExists);
    assert.equal(err.keyspace, KS);
    assert.equal(err.table, 'items');
    return true;
  });
  await assert.rejects(client.execute('SELEC nonsense'), (err) => {
    assert.equal(err.code, cassandra.types.responseErrorCodes.syntaxError);
    return true;
  });
});

test('schema change events reach a second client', async () => {
  const other = newClient();
  await other.connect();
  try {
    const ks = `${KS}_evt`;
    await client.execute(`DROP KEYSPACE IF EXISTS ${ks}`);
    assert.equal(other.metadata.keyspaces[ks], undefined);
    await client.execute(`CREATE KEYSPACE ${ks} WITH replication = ` +
                         `{'class': 'SimpleStrategy', 'replication_factor': 1}`);
    const deadline = Date.now() + 15000;
    while (!other.metadata.keyspaces[ks] && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(other.metadata.keyspaces[ks], 'the second client saw the new keyspace');
    await client.execute(`DROP KEYSPACE ${ks}`);
  } finally {
    await other.shutdown();
  }
});
