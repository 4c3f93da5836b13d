// Bytes kept no longer than needed (issue 13, part 6): after a final state and the retention, the
// staged object and its previews are deleted; the private draft of a promoted one stays; a
// submission still under review keeps everything.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeStagedPastRetention } from '../../activities/purge-staged';
import { createObjectStore } from '../../lib/storage';
import { apiKeyActor, bearerActor, type TestCredential } from '../helpers/auth';
import { call, INTAKE, stageAndVerify } from '../helpers/intake';
import { eventually, startTestStack, type TestStack } from '../helpers/stack';

let stack: TestStack;
let partner: TestCredential;
let operator: TestCredential;
beforeAll(async () => {
  stack = await startTestStack();
  partner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
  operator = await bearerActor(stack, { permissions: ['portfolio_intake:review'], operator: true });
});
afterAll(async () => stack?.stop());

const staged = (id: string) => path.join(stack.dataDir, 'objects', 'staging', 'staging', id);
const previews = (id: string) => path.join(stack.dataDir, 'objects', 'previews', 'staging', id);

describe('staged bytes after a final state', () => {
  it('are deleted with their previews once the retention has passed, and not before; the draft stays', async () => {
    const decide = async (kind: 'approve' | 'reject') => {
      const { id } = await stageAndVerify(stack, partner);
      await eventually(async () => fs.existsSync(path.join(previews(id), 'large.webp')), 10_000, 50);
      const body = kind === 'approve' ? { reviewNotes: 'Rights attested.' } : { reasonCode: 'other', reviewNotes: 'Not for us.' };
      expect((await call(stack, 'POST', `${INTAKE}/submissions/${id}/${kind}`, { headers: operator.headers, body })).status).toBe(200);
      return id;
    };
    const promoted = await decide('approve');
    const rejected = await decide('reject');
    const waiting = (await stageAndVerify(stack, partner)).id;
    await eventually(async () => fs.existsSync(path.join(previews(waiting), 'large.webp')), 10_000, 50);

    const purge = purgeStagedPastRetention({ sql: stack.sql, store: createObjectStore(stack.cfg) });
    expect(await purge({ retentionSeconds: 3600, limit: 100 })).toBe(0);
    for (const id of [promoted, rejected, waiting]) expect(fs.existsSync(staged(id)), id).toBe(true);

    // once the decided ones are more than a second old, a 1 s retention purges them
    let purged = 0;
    await eventually(async () => (purged += await purge({ retentionSeconds: 1, limit: 100 })) >= 2, 10_000, 100);
    expect(purged).toBeGreaterThanOrEqual(2);
    for (const id of [promoted, rejected]) {
      expect(fs.existsSync(staged(id)), id).toBe(false);
      expect(fs.existsSync(previews(id)), id).toBe(false);
      const [row] = await stack.sql`select staged_purged_at from submissions where submission_id = ${id}`;
      expect(row!.stagedPurgedAt).toBeInstanceOf(Date);
    }
    // Still awaiting review: the operator needs the bytes and the previews.
    expect(fs.existsSync(staged(waiting))).toBe(true);
    expect(fs.existsSync(path.join(previews(waiting), 'large.webp'))).toBe(true);
    // The promoted original lives on in the private media store.
    const [doc] = await stack.sql`select object_key from media_documents where submission_id = ${promoted}`;
    expect(fs.existsSync(path.join(stack.dataDir, 'objects', 'media', doc!.objectKey))).toBe(true);
    expect(await purge({ retentionSeconds: 1, limit: 100 })).toBe(0);
  });
});
