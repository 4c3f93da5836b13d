// Encrypted payloads on the real dev server (issue 43, item 4): an intake with partner text and an
// operator's notes leaves nothing of them in clear in the workflow history as the server stores it
// (read by a client without the codec), while the project's own client and the replayer, which
// carry the codec, read the same run normally.
import { Connection } from '@temporalio/client';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { temporalDataConverter } from '../../temporal/connection';
import { ENCRYPTED_ENCODING } from '../../temporal/payload-codec';
import { intakeStateQuery, intakeWorkflowId } from '../../workflows/messages';
import { apiKeyActor, bearerActor, type TestCredential } from '../helpers/auth';
import { call, INTAKE, stageAndVerify } from '../helpers/intake';
import { startTestStack, type TestStack } from '../helpers/stack';

const PARTNER_TEXT = {
  title: 'Koi sleeve for Marisol Quintanilla',
  description: 'Healed photo, left forearm, three sessions at Tinta Azul',
  tags: ['koiquintanilla', 'azulirezumi'],
  fileName: 'marisol-koi-sleeve.jpg',
};
const REVIEW_NOTES = 'Called Marisol: rights confirmed by the studio owner';

/**
 * Every payload-shaped object (metadata + data) in a history, by where it is, except the search
 * attributes (indexed by the server, never encoded), the patch markers' ids (written by the
 * SDK's core, which no codec sees: `{"id":"intake-verify-in-one-step"}`) and a local activity
 * marker's bookkeeping (core's: its sequence, attempt, activity type and times; its result is
 * checked like any other).
 */
const NOT_ENCODED = new Set(['searchAttributes', 'upsertWorkflowSearchAttributesEventAttributes', 'patch-data']);
function payloadsIn(v: unknown, at = '', out: { at: string; payload: Payload }[] = []): { at: string; payload: Payload }[] {
  if (Array.isArray(v)) v.forEach((x, i) => payloadsIn(x, `${at}[${i}]`, out));
  else if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (o.markerName === 'core_local_activity') return payloadsIn((o.details as Record<string, unknown> | undefined)?.result, `${at}.details.result`, out);
    if (o.metadata && typeof o.metadata === 'object' && 'encoding' in o.metadata) out.push({ at, payload: o as Payload });
    else for (const [k, x] of Object.entries(o)) if (!NOT_ENCODED.has(k)) payloadsIn(x, `${at}.${k}`, out);
  }
  return out;
}
const encodingOf = (p: Payload) => Buffer.from(p.metadata!.encoding!).toString('utf8');

describe('workflow histories hold partner text, operator notes and decision proofs only encrypted', () => {
  let stack: TestStack;
  let partner: TestCredential;
  let operator: TestCredential;
  let plain: Connection;
  let workflowId: string;
  beforeAll(async () => {
    stack = await startTestStack();
    partner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
    operator = await bearerActor(stack, { permissions: ['portfolio_intake:review'], operator: true });
    plain = await Connection.connect({ address: inject('temporalAddress') });
    const { id, done } = await stageAndVerify(stack, partner, undefined, PARTNER_TEXT);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const approved = await call(stack, 'POST', `${INTAKE}/submissions/${id}/approve`, { headers: operator.headers, body: { reviewNotes: REVIEW_NOTES } });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.data.intakeStatus).toBe('promoted_to_media_store');
    workflowId = intakeWorkflowId(id);
  });
  afterAll(async () => {
    await plain?.close();
    await stack?.stop();
  });

  const rawHistory = async () => {
    const r = await plain.workflowService.getWorkflowExecutionHistory({ namespace: stack.cfg.TEMPORAL_NAMESPACE, execution: { workflowId } });
    return r.history!;
  };

  it('as the server stores it, no partner text, note or proof appears in clear, and every payload is encrypted', async () => {
    const history = await rawHistory();
    const bytes = Buffer.from(temporal.api.history.v1.History.encode(history).finish());
    const asText = [bytes.toString('utf8'), bytes.toString('latin1'), JSON.stringify(history)].join('\n');
    for (const s of [PARTNER_TEXT.title, PARTNER_TEXT.description, ...PARTNER_TEXT.tags, 'Marisol', 'Tinta Azul', REVIEW_NOTES, 'rights confirmed'])
      expect(asText, s).not.toContain(s);
    expect(asText).not.toMatch(/reviewNotes|"proof"/);

    const payloads = payloadsIn(history.events, 'events');
    expect(payloads.length).toBeGreaterThan(5); // the input, the Updates, activity inputs and results, the result
    expect(payloads.filter((p) => encodingOf(p.payload) !== ENCRYPTED_ENCODING).map((p) => `${p.at}: ${encodingOf(p.payload)} ${Buffer.from(p.payload.data ?? []).toString('utf8').slice(0, 80)}`)).toEqual([]);
  });

  it('the decision proof the API signed is in the history, encrypted: decoded with the codec it is there, raw it is not', async () => {
    const history = await rawHistory();
    const codec = temporalDataConverter(stack.cfg).payloadCodecs![0]!;
    const updates = history.events!.map((e) => e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input).filter((x) => x?.name === 'approve');
    expect(updates).toHaveLength(1);
    const [input] = await codec.decode(updates[0]!.args!.payloads!);
    const approve = defaultPayloadConverter.fromPayload(input!) as { reviewNotes: string; proof: { protected: string; payload: string; signature: string } };
    expect(approve.reviewNotes).toBe(REVIEW_NOTES);
    expect(approve.proof.signature.length).toBeGreaterThan(40);
    const raw = Buffer.from(temporal.api.history.v1.History.encode(history).finish()).toString('latin1');
    for (const part of [approve.proof.protected, approve.proof.payload, approve.proof.signature]) expect(raw).not.toContain(part);
  });

  it("the project's own client (with the codec) reads the run normally: its state, its result and its history", async () => {
    const handle = stack.api.deps.temporal.client.workflow.getHandle(workflowId);
    expect(await handle.result()).toMatchObject({ intakeStatus: 'promoted_to_media_store', reviewStatus: 'approved' });
    expect(await handle.query(intakeStateQuery)).toMatchObject({ intakeStatus: 'promoted_to_media_store' });
    const d = await handle.describe();
    expect(d.status.name).toBe('COMPLETED');
  });

  it('a client without the codec cannot read the result, and the replayer with the data converter replays the encrypted run', async () => {
    const { Client } = await import('@temporalio/client');
    const noCodec = new Client({ connection: plain, namespace: stack.cfg.TEMPORAL_NAMESPACE });
    await expect(noCodec.workflow.getHandle(workflowId).result()).rejects.toThrow(/binary\/encrypted|encoding/i);
    const history = await stack.api.deps.temporal.client.workflow.getHandle(workflowId).fetchHistory();
    await expect(
      Worker.runReplayHistory({ workflowBundle: { codePath: inject('workflowBundlePath') }, dataConverter: temporalDataConverter(stack.cfg) }, history, workflowId),
    ).resolves.toBeUndefined();
  });
});
