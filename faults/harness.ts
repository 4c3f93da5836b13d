// What every fault scenario shares: its row, its own stack, and the books of what did not end promoted.
import { startBenchStack, type BenchStack, type BenchStackOptions } from '../bench/lib/stack';
import { INTAKE, send } from './client';

export type Size = 'short' | 'long';
export interface Row {
  id: string;
  fault: string;
  holds: string;
  measured: Record<string, number | string>;
  pass: boolean;
}
export type Scenario = { id: string; fault: string; holds: string; run: (size: Size) => Promise<Omit<Row, 'id' | 'fault' | 'holds'>> };

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A scenario's own stack (faults/webhook-scenario.ts too), stopped whatever happens. */
export async function withStack<T>(fn: (s: BenchStack) => Promise<T>, env: Record<string, string> = {}, o: Pick<BenchStackOptions, 'supervise' | 'realTemporal'> = {}): Promise<T> {
  // Rate limits are off unless a scenario is about them: the others send bursts on purpose.
  const s = await startBenchStack({ env: { TRANSITION_WAIT_MS: '3000', RATE_LIMITS_ENABLED: 'false', ...env }, ...o });
  try {
    return await fn(s);
  } finally {
    await s.stop();
  }
}

/** For a failing row: each submission not promoted, with PostgreSQL's status and the workflow's. */
export async function notPromoted(s: BenchStack, statuses: Record<string, string>): Promise<string> {
  const out: string[] = [];
  for (const [id, st] of Object.entries(statuses)) {
    if (st === 'promoted_to_media_store') continue;
    const r = await send(s, 'GET', `${INTAKE}/submissions/${id}`, { headers: s.partner.headers }).catch(() => null);
    out.push(`${id}:db=${st},workflow=${r?.body?.data?.intakeStatus ?? r?.status ?? 'none'}`);
  }
  return out.join(' ');
}

