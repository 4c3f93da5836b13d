// A real OpenSearch node for a test file (scripts/tools/opensearch-node.ts), and what the
// search-engine tests share. Without the tool installed the files skip with a message, except
// under CI=true, where `npm test` has run `npm run setup` (which installs it) and they must run.
import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import type { EngineConfig } from '../../lib/search-engine/client';
import { opensearchInstalled, OPENSEARCH_HOME } from '../../scripts/tools/opensearch';
import { startOpenSearchNode, type OpenSearchNode, type OpenSearchNodeOptions } from '../../scripts/tools/opensearch-node';
import { eventually, uid, type TestStack } from './stack';

const CI = process.env.CI === 'true' || process.env.CI === '1';
/** Run the file: the tool is there, or CI must have it. */
export const OPENSEARCH_RUNS = opensearchInstalled() || CI;
if (!OPENSEARCH_RUNS) {
  console.warn(`SKIPPED: OpenSearch is not installed in ${OPENSEARCH_HOME} (run \`npm run setup -- --only opensearch\`); under CI=true these tests run and fail instead`);
}

export async function startTestOpenSearch(o: Partial<OpenSearchNodeOptions> = {}): Promise<OpenSearchNode> {
  const dataDir = o.dataDir ?? path.join(inject('tmpRoot'), uid('opensearch-'));
  fs.mkdirSync(dataDir, { recursive: true });
  return startOpenSearchNode({ heapMb: 384, ...o, dataDir });
}

export const engineOf = (url: string, alias = 'directory-search'): EngineConfig => ({ url, alias, timeoutMs: 10_000 });

/** The stack's indexer has caught up: no change pending, and the index holds every document. */
export async function caughtUp(stack: TestStack, e: EngineConfig, timeoutMs = 60_000): Promise<void> {
  await eventually(async () => {
    const [r] = await stack.sql<{ pending: number; docs: number }[]>`
      select (select count(*)::int from search_changes) as pending, (select count(*)::int from search_documents) as docs`;
    if (r!.pending !== 0) return false;
    await fetch(`${e.url}/${e.alias}/_refresh`, { method: 'POST' });
    const c = await fetch(`${e.url}/${e.alias}/_count`);
    if (!c.ok) return false;
    return ((await c.json()) as { count: number }).count === r!.docs;
  }, timeoutMs, 250);
}
