// The books after a fault: PostgreSQL, the object store and Temporal must agree, with no duplicates.
import fs from 'node:fs';
import path from 'node:path';
import type { BenchStack } from '../bench/lib/stack';
import { intakeWorkflowId } from '../workflows/messages';
import { stackTemporalClient } from '../temporal/connection';

export interface Books {
  statuses: Record<string, string>;
  promoted: number;
  draftRows: number;
  objects: number;
  orphanObjects: number;
  duplicateDrafts: number;
  duplicateEvents: number;
  workflowsMissing: number;
  workflowsOpen: number;
}

/**
 * Wait (bounded) until every submission has left the transient states in PostgreSQL, and then until
 * their workflows have closed. The two are not simultaneous after a worker was killed: the activity
 * may have written its transition before the kill, and Temporal retries it only when its
 * start-to-close timeout runs out, so the workflow closes up to that timeout later.
 */
export async function waitFinal(s: BenchStack, ids: string[], timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const rows = await s.sql<{ n: number }[]>`select count(*)::int as n from submissions where submission_id = any(${ids}) and intake_status not in ('promoted_to_media_store','rejected','verification_failed','expired')`;
    if (rows[0]!.n === 0) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const { client, connection } = stackTemporalClient(s);
  try {
    let pending = [...ids];
    while (pending.length > 0 && Date.now() < deadline) {
      const still: string[] = [];
      for (const id of pending) {
        const d = await client.workflow.getHandle(intakeWorkflowId(id)).describe().catch(() => null);
        if (d?.status.name === 'RUNNING') still.push(id);
      }
      pending = still;
      if (pending.length > 0) await new Promise((r) => setTimeout(r, 500));
    }
  } finally {
    await connection.close();
  }
}

/** Wait (bounded) until the given submissions reach a status. */
export async function waitStatus(s: BenchStack, ids: string[], status: string, timeoutMs = 120_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const rows = await s.sql<{ n: number }[]>`select count(*)::int as n from submissions where submission_id = any(${ids}) and intake_status = ${status}`;
    if (rows[0]!.n === ids.length) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

export async function books(s: BenchStack, ids: string[]): Promise<Books> {
  const rows = await s.sql<{ submissionId: string; intakeStatus: string }[]>`select submission_id, intake_status from submissions where submission_id = any(${ids})`;
  const statuses = Object.fromEntries(rows.map((r) => [r.submissionId, r.intakeStatus]));
  const [drafts] = await s.sql<{ rows: number; dup: number }[]>`
    select count(*)::int as rows, (count(*) - count(distinct submission_id))::int as dup from media_documents where submission_id = any(${ids})`;
  const [events] = await s.sql<{ dup: number }[]>`
    select coalesce(sum(n - 1), 0)::int as dup from (select count(*) as n from intake_events where submission_id = any(${ids}) group by submission_id, to_status) x`;
  const keys = new Set((await s.sql<{ objectKey: string }[]>`select object_key from media_documents where submission_id = any(${ids})`).map((r) => r.objectKey));
  const mediaDir = path.join(s.dataDir, 'objects', 'media', 'drafts');
  const files = fs.existsSync(mediaDir) ? fs.readdirSync(mediaDir).filter((f) => ids.includes(f) && !f.endsWith('.part')) : [];
  const { client, connection } = stackTemporalClient(s);
  let missing = 0;
  let open = 0;
  try {
    for (const id of ids) {
      try {
        const d = await client.workflow.getHandle(intakeWorkflowId(id)).describe();
        if (d.status.name === 'RUNNING') open++;
      } catch {
        missing++;
      }
    }
  } finally {
    await connection.close();
  }
  return {
    statuses,
    promoted: Object.values(statuses).filter((x) => x === 'promoted_to_media_store').length,
    draftRows: drafts!.rows,
    objects: files.length,
    orphanObjects: files.filter((f) => !keys.has(`drafts/${f}`)).length,
    duplicateDrafts: drafts!.dup,
    duplicateEvents: events!.dup,
    workflowsMissing: missing,
    workflowsOpen: open,
  };
}
