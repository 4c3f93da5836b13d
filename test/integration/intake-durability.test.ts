import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ISSUER } from '../../lib/identity';
import { detailsHash } from '../../lib/intake/decision-proof';
import { decisionUpdates, intakeWorkflowId } from '../../workflows/messages';
import { apiKeyActor, bearerActor, type TestCredential } from '../helpers/auth';
import { call, INTAKE, stageAndVerify } from '../helpers/intake';
import { eventually, startTestStack, type TestStack } from '../helpers/stack';

describe('durability: the worker goes away while submissions are in flight', () => {
  let stack: TestStack;
  let partner: TestCredential;
  let operator: TestCredential;
  beforeAll(async () => {
    stack = await startTestStack({ env: { TEMPORAL_RPC_DEADLINE_MS: '1500' } });
    partner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
    operator = await bearerActor(stack, { permissions: ['portfolio_intake:review'], operator: true });
  });
  afterAll(async () => stack?.stop());

  it('answers 503 with Retry-After while no worker polls, then every submission reaches its final state once with no duplicates', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await stageAndVerify(stack, partner)).id);
    await stack.stopWorker();
    // The signal routes share one worker check, whose "a worker is there" stands for
    // WORKER_CHECK_REUSE_MS (api/temporal/workflow-calls.ts): past that, a stopped worker is seen at once.
    await new Promise((r) => setTimeout(r, stack.api.deps.cfg.WORKER_CHECK_REUSE_MS));

    const started = Date.now();
    const blocked = await call(stack, 'POST', `${INTAKE}/submissions/${ids[0]}/approve`, { headers: operator.headers, body: { reviewNotes: 'while the worker is away' } });
    expect(blocked.status).toBe(503);
    expect(blocked.body.code).toBe('workflow_unavailable');
    expect(blocked.headers.get('retry-after')).toBeTruthy();
    expect(Date.now() - started).toBeLessThan(10_000); // bounded, not a hang

    // Decisions sent to Temporal while no worker runs wait there (admitted Updates, retried by the
    // client) and are taken once a worker is back; they must not be lost. Each carries the proof the
    // approve route signs (a decision without one changes nothing).
    const by = { actorId: operator.actorId, credentialId: `${LOCAL_ISSUER}#${operator.subject}` };
    const reviewNotes = 'approved offline';
    const sent: Promise<unknown>[] = [];
    for (const id of ids) {
      const requestId = `r-${id}`;
      const [row] = await stack.sql<{ verifiedSha256: string }[]>`select verified_sha256 from submissions where submission_id = ${id}`;
      const proof = await stack.api.deps.decisionSigner.sign({
        submissionId: id, decision: 'approve', ...by, sha256: row!.verifiedSha256, requestId, detailsHash: detailsHash({ reviewNotes }),
      });
      sent.push(stack.api.deps.temporal.client.workflow.getHandle(intakeWorkflowId(id)).executeUpdate(decisionUpdates.approve, { args: [{ requestId, by, reviewNotes, proof }] }));
    }
    await stack.startWorker();
    expect((await Promise.all(sent)).every((a) => (a as { taken: boolean }).taken)).toBe(true);
    await eventually(async () => {
      const rows = await stack.sql`select count(*)::int as n from submissions where submission_id = any(${ids}) and intake_status = 'promoted_to_media_store'`;
      return rows[0]!.n === ids.length;
    }, 40_000);

    const docs = await stack.sql`select count(*)::int as n, count(distinct submission_id)::int as d from media_documents where submission_id = any(${ids})`;
    expect(docs[0]).toEqual({ n: ids.length, d: ids.length });
    const dupEvents = await stack.sql`select count(*)::int as n from (select submission_id, to_status from intake_events where submission_id = any(${ids}) group by 1, 2 having count(*) > 1) x`;
    expect(dupEvents[0]!.n).toBe(0);
    const mediaDir = path.join(stack.dataDir, 'objects', 'media', 'drafts');
    expect(fs.readdirSync(mediaDir).filter((f) => ids.includes(f))).toHaveLength(ids.length);
  });
});
