// Partners hear what happened (issue 15): signed webhooks delivered by Temporal from an outbox
// written with each transition, judged by the `standardwebhooks` package on a real receiver; the
// delivery log, redelivery, secret rotation; the events feed; organization scoping; SSRF refusals.
import { EVENT_TYPES } from '../../lib/intake/outbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { assetIdOf, projectDraft, unpublishAsset } from '../../lib/directory/projection';
import { signatureHeader } from '../../lib/webhooks/send';
import { startReceiver, type Receiver } from '../../bench/lib/webhook-receiver';
import { apiKeyActor, bearerActor, TEST_ARTIST, type TestCredential } from '../helpers/auth';
import { runtimeArtistProfile } from '../helpers/publishing';
import { call, INTAKE, stageAndVerify, submissionBody } from '../helpers/intake';
import { eventually, startTestStack, type TestStack } from '../helpers/stack';

let stack: TestStack;
let operator: TestCredential;
const receivers: Receiver[] = [];

beforeAll(async () => {
  // Fast retries so that a failing receiver is retried within the test's seconds.
  stack = await startTestStack({ env: { WEBHOOK_RETRY_INITIAL_SECONDS: '1', WEBHOOK_RETRY_MAX_INTERVAL_SECONDS: '2', WEBHOOK_SWEEP_SECONDS: '1' } });
  operator = await bearerActor(stack, { operator: true, permissions: ['portfolio_intake:review', 'portfolios:publish'] });
  await runtimeArtistProfile(stack, TEST_ARTIST); // publishing needs the artist's runtime profile
});
afterAll(async () => {
  for (const r of receivers) await r.close();
  await stack?.stop();
});

type Partner = TestCredential & { organizationId?: string };
const partner = (): Promise<Partner> => apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });

/** A receiver and an endpoint for it; the receiver verifies with the secret the API showed once. */
async function subscribed(p: Partner, body: Record<string, unknown> = {}) {
  const receiver = await startReceiver();
  receivers.push(receiver);
  const r = await call(stack, 'POST', `${INTAKE}/webhook-endpoints`, { headers: p.headers, body: { url: receiver.url, ...body } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  expect(r.body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  receiver.secrets.push(r.body.data.secret);
  endpointIds.set(receiver, r.body.data.endpointId);
  // the answer names the types it will receive, never null (every type when none were given)
  const types = (body.eventTypes as string[] | undefined) ?? [...EVENT_TYPES];
  expect(r.body.data).toMatchObject({ eventTypes: types, allEventTypes: body.eventTypes === undefined });
  return { receiver, endpointId: r.body.data.endpointId as string, secret: r.body.data.secret as string };
}

/** The endpoint registered for a receiver (each receiver here has one). */
const endpointOf = (r: Receiver) => endpointIds.get(r)!;
const endpointIds = new Map<Receiver, string>();
const attemptedSubmissions = async (endpointId: string) =>
  (await stack.sql<{ n: number }[]>`select count(distinct submission_id)::int as n from webhook_deliveries where endpoint_id = ${endpointId} and attempts >= 1`)[0]!.n;
async function deliveryStates(endpointId: string): Promise<Record<string, number>> {
  const rows = await stack.sql<{ status: string; n: number }[]>`select status, count(*)::int as n from webhook_deliveries where endpoint_id = ${endpointId} group by status`;
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}
/** The dispatcher has fanned this event out (its deliveries, if any, exist). */
const fannedOut = async (submissionId: string, type: string) =>
  (await stack.sql`select 1 from webhook_events where submission_id = ${submissionId} and event_type = ${type} and fanned_out`).length === 1;

const approve = (id: string) => call(stack, 'POST', `${INTAKE}/submissions/${id}/approve`, { headers: operator.headers, body: { reviewNotes: 'Looks right.' } });
const typesFor = (r: Receiver, id: string) => r.accepted().filter((x) => x.body.data.submissionId === id).map((x) => x.type);

describe('webhooks', () => {
  it('one intake, published and taken down: each event once, in order, verified by standardwebhooks', async () => {
    const p = await partner();
    const { receiver, endpointId } = await subscribed(p);
    const { id, done } = await stageAndVerify(stack, p);
    expect(done.body.data.intakeStatus).toBe('awaiting_review');
    expect((await approve(id)).status).toBe(200);
    const [row] = await stack.sql<{ mediaStoreDocumentId: string }[]>`select media_store_document_id from submissions where submission_id = ${id}`;
    const doc = row!.mediaStoreDocumentId;
    const deps = { sql: stack.sql, store: stack.api.deps.store, maxImagePixels: 50_000_000 };
    await projectDraft(deps, { documentId: doc, operatorActorId: operator.actorId });
    await unpublishAsset(deps, { assetId: assetIdOf(doc), operatorActorId: operator.actorId, reason: 'Client asked to remove it.' });

    const expected = ['submission.staged', 'submission.awaiting_review', 'submission.promoted', 'asset.published', 'asset.unpublished'];
    expect(await receiver.waitFor((a) => a.filter((x) => x.body.data.submissionId === id).length >= expected.length, 30_000)).toBe(true);
    expect(typesFor(receiver, id)).toEqual(expected);
    expect(receiver.all.every((x) => x.verified)).toBe(true);
    expect(new Set(receiver.all.map((x) => x.id)).size).toBe(receiver.all.length);

    const [staged, awaiting, promoted, published, unpublished] = receiver.accepted();
    // A takedown says so: no publicAssetUrl, takenDownAt, and the public surface still not activated by intake.
    expect(unpublished!.body.data).not.toHaveProperty('publicAssetUrl');
    expect(unpublished!.body.data.takenDownAt).toBe(unpublished!.body.timestamp);
    expect(unpublished!.body.data.governance.publicSurfaceActivated).toBe(false);
    expect(published!.body.data).not.toHaveProperty('takenDownAt');
    const view = await call(stack, 'GET', `${INTAKE}/submissions/${id}`, { headers: p.headers });
    expect(view.body.data).not.toHaveProperty('publicAssetUrl');
    expect(Date.parse(view.body.data.takenDownAt)).toBeGreaterThan(Date.parse(published!.body.timestamp) - 1000);
    expect(view.body.data.governance.publicSurfaceActivated).toBe(false);
    expect(staged!.body.data).toMatchObject({ submissionId: id, intakeStatus: 'staged', reviewStatus: 'review_required' });
    expect(staged!.body.data).not.toHaveProperty('awaitingReviewSince');
    expect(awaiting!.body.data.awaitingReviewSince).toBeTruthy();
    expect(promoted!.body.data).toMatchObject({ intakeStatus: 'promoted_to_media_store', mediaStoreDocumentId: doc });
    expect(promoted!.body.data.decidedAt).toBeTruthy();
    expect(published!.body.data.publicAssetUrl).toBe(`${stack.api.deps.publicBaseUrl}/media/${assetIdOf(doc)}/large.webp`);
    // Never review notes or storage pointers.
    expect(JSON.stringify(receiver.all.map((x) => x.body))).not.toMatch(/Looks right|staging\/|objects\//);
    expect(Date.parse(staged!.body.timestamp)).toBeGreaterThan(0);

    // The delivery log: one delivery per event, each succeeded at its first attempt.
    const log = await call(stack, 'GET', `${INTAKE}/webhook-endpoints/${endpointId}/deliveries`, { headers: p.headers });
    expect(log.status).toBe(200);
    expect(log.body.data.map((d: { eventType: string }) => d.eventType)).toEqual([...expected].reverse());
    expect(log.body.data.every((d: { status: string; attempts: number }) => d.status === 'succeeded' && d.attempts === 1)).toBe(true);
    expect(log.body.data[0].log[0]).toMatchObject({ attempt: 1, statusCode: 204, error: null });
  });

  it('a tampered body or an old timestamp fails standardwebhooks verification', async () => {
    const p = await partner();
    const { receiver, secret } = await subscribed(p);
    await call(stack, 'POST', `${INTAKE}/submissions`, { headers: p.headers, body: submissionBody(p) });
    expect(await receiver.waitFor((a) => a.length >= 1, 20_000)).toBe(true);
    const got = receiver.accepted()[0]!;
    const raw = JSON.stringify(got.body);
    const wh = new Webhook(secret);
    expect(() => wh.verify(raw, got.headers)).not.toThrow();
    expect(() => wh.verify(raw.replace('staged', 'promoted_to_media_store'), got.headers)).toThrow();
    const old = Math.floor(Date.now() / 1000) - 600;
    const stale = { ...got.headers, 'webhook-timestamp': String(old), 'webhook-signature': signatureHeader([secret], got.id, old, raw) };
    expect(() => wh.verify(raw, stale)).toThrow(/too old/i);
  });

  it('a receiver answering 500 three times gets every event; the log shows the attempts', async () => {
    const p = await partner();
    const { receiver, endpointId } = await subscribed(p);
    receiver.failNext(3);
    const { id } = await stageAndVerify(stack, p);
    expect(await receiver.waitFor((a) => a.length >= 2, 40_000)).toBe(true);
    expect(typesFor(receiver, id)).toEqual(['submission.staged', 'submission.awaiting_review']);
    expect(receiver.all.filter((x) => x.answered === 500)).toHaveLength(3);
    // Redeliveries carry the same webhook-id as the first attempt.
    expect(new Set(receiver.all.map((x) => x.id)).size).toBe(2);
    const log = await call(stack, 'GET', `${INTAKE}/webhook-endpoints/${endpointId}/deliveries`, { headers: p.headers });
    const staged = log.body.data.find((d: { eventType: string }) => d.eventType === 'submission.staged');
    expect(staged.status).toBe('succeeded');
    expect(staged.attempts).toBe(4);
    expect(staged.log.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 500, 500, 204]);
  });

  it('a receiver down while 20 intakes run gets every event once it is back, none twice', async () => {
    const p = await partner();
    const { receiver } = await subscribed(p);
    await receiver.down();
    const ids = (await Promise.all(Array.from({ length: 20 }, () => stageAndVerify(stack, p)))).map((x) => x.id);
    // every submission's first delivery has failed at least once against the dead receiver
    await eventually(async () => (await attemptedSubmissions(endpointOf(receiver))) === 20, 30_000);
    await receiver.up();
    expect(await receiver.waitFor((a) => a.length >= 40, 60_000)).toBe(true);
    // every delivery has finished (nothing pending or in flight could still arrive twice)
    await eventually(async () => (await deliveryStates(endpointOf(receiver))).succeeded === 40, 30_000);
    const accepted = receiver.accepted();
    expect(accepted).toHaveLength(40);
    expect(new Set(accepted.map((x) => x.id)).size).toBe(40);
    for (const id of ids) expect(typesFor(receiver, id)).toEqual(['submission.staged', 'submission.awaiting_review']);
  });

  it('the events feed has the same events and ids, paged with next_cursor, own organization only', async () => {
    const p = await partner();
    const other = await partner();
    const { receiver } = await subscribed(p);
    const { id } = await stageAndVerify(stack, p);
    await stageAndVerify(stack, other);
    expect(await receiver.waitFor((a) => a.length >= 2, 20_000)).toBe(true);
    const first = await call(stack, 'GET', `${INTAKE}/events?limit=1`, { headers: p.headers });
    expect(first.status).toBe(200);
    expect(first.body.has_more).toBe(true);
    // `cursor`, the name every list pages with; `after`, its older name, answers the same
    const second = await call(stack, 'GET', `${INTAKE}/events?cursor=${first.body.next_cursor}`, { headers: p.headers });
    expect((await call(stack, 'GET', `${INTAKE}/events?after=${first.body.next_cursor}`, { headers: p.headers })).body).toEqual(second.body);
    const both = await call(stack, 'GET', `${INTAKE}/events?cursor=${first.body.next_cursor}&after=${second.body.next_cursor}`, { headers: p.headers });
    expect([both.status, both.body.code]).toEqual([400, 'validation_failed']);
    const feed = [...first.body.data, ...second.body.data];
    expect(second.body.has_more).toBe(false);
    expect(feed.map((e: { id: string }) => e.id)).toEqual(receiver.accepted().map((x) => x.id));
    expect(feed[1]).toEqual({ id: receiver.accepted()[1]!.id, ...receiver.accepted()[1]!.body });
    expect(feed.every((e: { data: { submissionId: string } }) => e.data.submissionId === id)).toBe(true);
    // Polling again from the last cursor: nothing new, the same cursor back.
    const again = await call(stack, 'GET', `${INTAKE}/events?cursor=${second.body.next_cursor}`, { headers: p.headers });
    expect(again.body).toMatchObject({ data: [], next_cursor: second.body.next_cursor, has_more: false });
    expect((await call(stack, 'GET', `${INTAKE}/events?after=not-a-cursor`, { headers: p.headers })).body.code).toBe('validation_failed');
  });

  it("another organization cannot list, read, rotate or delete your endpoints, deliveries or events", async () => {
    const p = await partner();
    const intruder = await partner();
    const { endpointId, receiver } = await subscribed(p);
    await call(stack, 'POST', `${INTAKE}/submissions`, { headers: p.headers, body: submissionBody(p) });
    expect(await receiver.waitFor((a) => a.length >= 1, 20_000)).toBe(true);
    const delivery = (await call(stack, 'GET', `${INTAKE}/webhook-endpoints/${endpointId}/deliveries`, { headers: p.headers })).body.data[0].deliveryId;
    const h = { headers: intruder.headers };
    expect((await call(stack, 'GET', `${INTAKE}/webhook-endpoints`, h)).body.data).toEqual([]);
    expect((await call(stack, 'GET', `${INTAKE}/webhook-endpoints/${endpointId}`, h)).status).toBe(404);
    expect((await call(stack, 'GET', `${INTAKE}/webhook-endpoints/${endpointId}/deliveries`, h)).status).toBe(404);
    expect((await call(stack, 'POST', `${INTAKE}/webhook-endpoints/${endpointId}/deliveries/${delivery}/redeliver`, h)).status).toBe(404);
    expect((await call(stack, 'POST', `${INTAKE}/webhook-endpoints/${endpointId}/rotate-secret`, { ...h, body: {} })).status).toBe(404);
    expect((await call(stack, 'DELETE', `${INTAKE}/webhook-endpoints/${endpointId}`, h)).status).toBe(404);
    expect((await call(stack, 'GET', `${INTAKE}/events`, h)).body.data).toEqual([]);
    // Still there for its owner, and the list never shows a secret.
    const mine = await call(stack, 'GET', `${INTAKE}/webhook-endpoints`, { headers: p.headers });
    expect(mine.body.data.map((e: { endpointId: string }) => e.endpointId)).toEqual([endpointId]);
    expect(JSON.stringify(mine.body)).not.toMatch(/whsec_/);
  });

  it('rotation signs with both secrets during the overlap; redeliver resends the same id; delete stops deliveries', async () => {
    const p = await partner();
    const { receiver, endpointId, secret: oldSecret } = await subscribed(p, { eventTypes: ['submission.staged'] });
    const rotated = await call(stack, 'POST', `${INTAKE}/webhook-endpoints/${endpointId}/rotate-secret`, { headers: p.headers, body: { overlapSeconds: 3600 } });
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body.data.secret as string;
    expect(newSecret).not.toBe(oldSecret);
    receiver.secrets.splice(0, receiver.secrets.length, newSecret);
    const { id } = await stageAndVerify(stack, p);
    expect(await receiver.waitFor((a) => a.length >= 1, 20_000)).toBe(true);
    const got = receiver.accepted()[0]!;
    expect(got.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(() => new Webhook(oldSecret).verify(JSON.stringify(got.body), got.headers)).not.toThrow();
    // Only the subscribed type: the awaiting_review event was fanned out, to no delivery of this endpoint.
    await eventually(async () => fannedOut(id, 'submission.awaiting_review'), 20_000);
    expect(await stack.sql`select 1 from webhook_deliveries d join webhook_events e using (event_id) where d.endpoint_id = ${endpointId} and e.event_type <> 'submission.staged'`).toHaveLength(0);
    expect(typesFor(receiver, id)).toEqual(['submission.staged']);

    const deliveries = (await call(stack, 'GET', `${INTAKE}/webhook-endpoints/${endpointId}/deliveries`, { headers: p.headers })).body.data;
    const again = await call(stack, 'POST', `${INTAKE}/webhook-endpoints/${endpointId}/deliveries/${deliveries[0].deliveryId}/redeliver`, { headers: p.headers });
    expect(again.status).toBe(202);
    expect(await receiver.waitFor((a) => a.length >= 2, 20_000)).toBe(true);
    expect(receiver.accepted()[1]!.id).toBe(got.id);

    expect((await call(stack, 'DELETE', `${INTAKE}/webhook-endpoints/${endpointId}`, { headers: p.headers })).status).toBe(204);
    const after = await call(stack, 'POST', `${INTAKE}/submissions`, { headers: p.headers, body: submissionBody(p) });
    // its staged event was fanned out with the endpoint deleted: no delivery, nothing sent
    await eventually(async () => fannedOut(after.body.data.submission.submissionId, 'submission.staged'), 20_000);
    expect(await stack.sql`select 1 from webhook_deliveries where endpoint_id = ${endpointId} and submission_id = ${after.body.data.submission.submissionId}`).toHaveLength(0);
    expect(receiver.all).toHaveLength(2);
    expect((await call(stack, 'GET', `${INTAKE}/webhook-endpoints/${endpointId}`, { headers: p.headers })).status).toBe(404);
  });

  it('refuses metadata, private and non-http targets at registration', async () => {
    const p = await partner();
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://10.0.0.1/hook', 'http://[fd00::1]/x', 'ftp://example.com/', 'http://user:pw@127.0.0.1/x', 'not a url']) {
      const r = await call(stack, 'POST', `${INTAKE}/webhook-endpoints`, { headers: p.headers, body: { url } });
      expect(r.status, url).toBe(422);
      expect(r.body.code, url).toBe('webhook_target_refused');
    }
    const bad = await call(stack, 'POST', `${INTAKE}/webhook-endpoints`, { headers: p.headers, body: { url: 'http://127.0.0.1:9/x', eventTypes: ['submission.nope'] } });
    expect(bad.body.code).toBe('validation_failed');
  });
});
