// Where the database time goes: run a query function once on a connection that records the SQL it
// sends, then EXPLAIN (ANALYZE, BUFFERS) each statement and rank plan nodes by their own time
// (node time minus its children's), so a bench can print a profile beside a missed target.
import postgres from 'postgres';
import type { Sql } from '../../lib/db';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Total Time': number;
  'Actual Rows': number;
  'Actual Loops': number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

export interface NodeCost {
  node: string;
  selfMs: number;
  rows: number;
}

export interface StatementProfile {
  sql: string;
  executionMs: number;
  planningMs: number;
  top: NodeCost[];
  text: string;
}

function label(n: PlanNode): string {
  return [n['Node Type'], n['Index Name'] ?? n['Relation Name']].filter(Boolean).join(' on ');
}

function selfTimes(n: PlanNode, out: NodeCost[]): void {
  const total = n['Actual Total Time'] * n['Actual Loops'];
  const children = (n.Plans ?? []).reduce((a, c) => a + c['Actual Total Time'] * c['Actual Loops'], 0);
  out.push({ node: label(n), selfMs: Math.max(0, total - children), rows: n['Actual Rows'] * n['Actual Loops'] });
  for (const c of n.Plans ?? []) selfTimes(c, out);
}

/** EXPLAIN ANALYZE every statement `run` sends; `top` nodes by self time, the text plans kept. */
export async function explainQueries(url: string, run: (sql: Sql) => Promise<unknown>, topN = 4): Promise<StatementProfile[]> {
  const seen: { query: string; params: unknown[] }[] = [];
  const recorder = postgres(url, {
    max: 1,
    onnotice: () => {},
    transform: postgres.camel,
    // postgres.js hands debug its serialized parameters; a bool comes as 't' / 'f', which would be
    // serialized again (to 'f') on replay, so bools are turned back into booleans (oid 16).
    debug: (_conn, query, params, types) => {
      if (/^\s*explain/i.test(query) || /pg_catalog\.pg_type/.test(query)) return;
      seen.push({ query, params: (params as unknown[]).map((p, i) => ((types as number[])[i] === 16 && typeof p === 'string' ? p === 't' : p)) });
    },
  });
  try {
    await run(recorder);
    const out: StatementProfile[] = [];
    for (const s of seen) {
      const params = s.params as postgres.ParameterOrJSON<never>[];
      // A transaction's SET LOCAL is replayed for the session (one connection), so the plans are
      // made under the same settings; the transaction's own BEGIN / COMMIT are not statements to explain.
      if (/^\s*set\s+local\s/i.test(s.query)) {
        await recorder.unsafe(s.query.replace(/^\s*set\s+local\s/i, 'set '), params);
        continue;
      }
      if (!/^\s*(select|with)\b/i.test(s.query)) continue;
      const [json] = await recorder.unsafe(`explain (analyze, buffers, format json) ${s.query}`, params);
      const plan = (Object.values(json!)[0] as [{ Plan: PlanNode; 'Execution Time': number; 'Planning Time': number }])[0];
      const nodes: NodeCost[] = [];
      selfTimes(plan.Plan, nodes);
      nodes.sort((a, b) => b.selfMs - a.selfMs);
      const text = (await recorder.unsafe(`explain (analyze, buffers) ${s.query}`, params)).map((r) => Object.values(r)[0]).join('\n');
      out.push({
        sql: s.query.replace(/\s+/g, ' ').trim(),
        executionMs: plan['Execution Time'],
        planningMs: plan['Planning Time'],
        top: nodes.slice(0, topN).map((n) => ({ ...n, selfMs: Math.round(n.selfMs * 10) / 10 })),
        text,
      });
    }
    return out;
  } finally {
    await recorder.end({ timeout: 5 });
  }
}
