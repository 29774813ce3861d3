// The Node.js driver against a running Tessel cluster: from one contact
// point it discovers every node (system.peers), routes by token, and reads
// what it wrote at QUORUM. Run by tests/cluster/cluster_test.py:
//   node cluster/hosts.js HOST PORT EXPECTED_NODES
'use strict';

const assert = require('node:assert/strict');
const cassandra = require('cassandra-driver');

async function main() {
  const [host, port, expected] = process.argv.slice(2);
  const client = new cassandra.Client({
    contactPoints: [host],
    localDataCenter: 'datacenter1',
    protocolOptions: { port: Number(port) },
    socketOptions: { readTimeout: 30000 },
    queryOptions: { consistency: cassandra.types.consistencies.quorum },
  });
  await client.connect();
  try {
    const hosts = client.hosts.values().map((h) => h.address.split(':')[0]).sort();
    assert.equal(hosts.length, Number(expected), `hosts seen: ${hosts}`);
    await client.execute(
      "CREATE KEYSPACE IF NOT EXISTS nodecluster WITH replication = " +
        "{'class': 'SimpleStrategy', 'replication_factor': 3}");
    await client.execute('CREATE TABLE IF NOT EXISTS nodecluster.t (k int PRIMARY KEY, v text)');
    await client.metadata.checkSchemaAgreement();
    for (let k = 0; k < 30; k++) {
      await client.execute('INSERT INTO nodecluster.t (k, v) VALUES (?, ?)', [k, `v${k}`],
                           { prepare: true });
    }
    const used = new Set();
    for (let k = 0; k < 30; k++) {
      const rs = await client.execute('SELECT v FROM nodecluster.t WHERE k = ?', [k],
                                      { prepare: true });
      assert.equal(rs.first().v, `v${k}`);
      used.add(rs.info.queriedHost.split(':')[0]);
    }
    // Token-aware routing spreads single-partition requests over the nodes.
    assert.ok(used.size > 1, `every read went to ${[...used]}`);
    console.log(`node.js driver: ${hosts.length} hosts (${hosts.join(', ')}), ` +
                `reads served by ${used.size} of them`);
  } finally {
    await client.shutdown();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
