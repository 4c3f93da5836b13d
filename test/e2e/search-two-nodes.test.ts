// Past one machine (issue 45): two OpenSearch nodes in one cluster, the index with 2 shards and
// 1 replica (each node holds a copy of every shard), the API given both nodes. The parity set
// answers the same before and after one node is stopped, from the engine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyActor, type TestCredential } from '../helpers/auth';
import { seedTestDirectory } from '../helpers/directory-seed';
import { caughtUp, engineOf, OPENSEARCH_RUNS, startTestOpenSearch } from '../helpers/opensearch';
import { bothAnswers, EXACT, expectSameExact, expectSameMatches, RELEVANCE } from '../helpers/search-parity';
import { eventually, startTestStack, type TestStack } from '../helpers/stack';
import { freePort } from '../../lib/net/free-port';
import type { OpenSearchNode } from '../../scripts/tools/opensearch-node';

let a: OpenSearchNode;
let b: OpenSearchNode;
let pg: TestStack;
let os: TestStack;
let reader: TestCredential;

beforeAll(async () => {
  if (!OPENSEARCH_RUNS) return;
  const [ta, tb] = [await freePort(), await freePort()];
  const managers = ['node-a', 'node-b'];
  [a, b] = await Promise.all([
    startTestOpenSearch({ name: 'node-a', transportPort: ta, peers: [tb], managers, cluster: 'two-nodes' }),
    startTestOpenSearch({ name: 'node-b', transportPort: tb, peers: [ta], managers, cluster: 'two-nodes' }),
  ]);
  pg = await startTestStack({ worker: false, env: { SEARCH_TOTAL_CAP: '150' } });
  await seedTestDirectory(pg);
  os = await startTestStack({
    worker: false,
    databaseUrl: pg.cfg.DATABASE_URL!,
    env: {
      SEARCH_TOTAL_CAP: '150',
      SEARCH_BACKEND: 'opensearch',
      SEARCH_OPENSEARCH_URL: `${a.url},${b.url}`,
      SEARCH_OPENSEARCH_SHARDS: '2',
      SEARCH_OPENSEARCH_REPLICAS: '1',
    },
  });
  reader = await apiKeyActor(pg, { permissions: ['search:read'] });
  await caughtUp(os, engineOf(a.url), 120_000);
}, 300_000);
afterAll(async () => {
  await os?.stop();
  await pg?.stop();
  await Promise.all([a?.stop(), b?.stop()]);
});

const both = (qs: string) => bothAnswers(pg, os, reader, qs);
async function parity() {
  for (const qs of EXACT) {
    const { pgBody, osBody } = await both(qs);
    expectSameExact(pgBody, osBody);
  }
  for (const qs of RELEVANCE) {
    const { pgBody, osBody } = await both(qs);
    expectSameMatches(pgBody, osBody);
  }
}

describe.skipIf(!OPENSEARCH_RUNS)('two OpenSearch nodes, one replica', () => {
  it('form one green cluster with every shard on both nodes, and answer the parity set', async () => {
    const health = await eventually(async () => {
      const h = (await (await fetch(`${a.url}/_cluster/health?wait_for_status=green&timeout=5s`)).json()) as { status: string; number_of_nodes: number; active_shards: number };
      return h.status === 'green' && h;
    }, 60_000);
    expect(health.number_of_nodes).toBe(2);
    expect(health.active_shards).toBe(4); // 2 primaries + 2 replicas
    await parity();
  });

  it('still answers the parity set from the engine with one node stopped', async () => {
    // stop the node that is not the elected cluster manager, so the other keeps a cluster to serve from
    const state = (await (await fetch(`${a.url}/_cluster/state/cluster_manager_node,nodes`)).json()) as { cluster_manager_node: string; nodes: Record<string, { name: string }> };
    const managerName = state.nodes[state.cluster_manager_node]!.name;
    const [stopped, kept] = managerName === 'node-a' ? [b, a] : [a, b];
    await stopped.stop();
    const h = (await (await fetch(`${kept.url}/_cluster/health?timeout=5s`)).json()) as { status: string; number_of_nodes: number };
    expect(h.number_of_nodes).toBe(1);
    expect(h.status).toBe('yellow'); // every primary answers; the replicas wait for the node
    await parity();
  });
});
