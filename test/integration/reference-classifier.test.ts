// The reference classifier (npm run classifier) against a real stack: with its own key it claims
// what awaits review, reads each context, fetches the preview and records a classification with
// the nudity flag from nsfwjs (WASM, offline); the submissions stay awaiting review.
import { afterAll, beforeAll, expect, it } from 'vitest';
import sharp from 'sharp';
import { run } from '../../classifier/main';
import { apiKeyActor, bearerActor, type TestCredential } from '../helpers/auth';
import { call, INTAKE, stageAndVerify } from '../helpers/intake';
import { startTestStack, type TestStack } from '../helpers/stack';

let stack: TestStack;
let partner: TestCredential;
let classifier: TestCredential;
let operator: TestCredential;

beforeAll(async () => {
  stack = await startTestStack();
  partner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
  classifier = await apiKeyActor(stack, { permissions: ['agent_context:read', 'portfolio_intake:classify'], organizationId: partner.organizationId!, selfService: false });
  operator = await bearerActor(stack, { permissions: ['portfolio_intake:review'], operator: true });
});
afterAll(async () => stack?.stop());

const image = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 180, g: 140, b: 120 } } })
    .composite([{ input: Buffer.from(`<svg width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="#222"/></svg>`) }])
    .jpeg()
    .toBuffer();

it('classifies each submission awaiting review once, nudity from nsfwjs and low quality from the dimensions; nothing moves', async () => {
  const small = await stageAndVerify(stack, partner, await image(320, 240));
  const large = await stageAndVerify(stack, partner, await image(1200, 900));
  for (const s of [small, large]) expect(s.done.body.data.intakeStatus).toBe('awaiting_review');
  const said: string[] = [];
  const done = await run({ url: stack.url, key: classifier.key!, batch: 5, idleMs: 100, once: true }, () => false, (line) => void said.push(line));
  expect(done).toEqual({ classified: 2, failed: 0 });
  const of = async (id: string) => (await call(stack, 'GET', `${INTAKE}/submissions/${id}/classifications`, { headers: operator.headers })).body.data;
  const [a] = await of(small.id);
  const [b] = await of(large.id);
  for (const c of [a, b]) {
    expect(c).toMatchObject({ kind: 'suggestion', actorId: classifier.actorId, model: { name: 'nsfwjs MobileNetV2 + dimensions' }, styles: [], placement: null });
    const nudity = c.contentFlags.find((f: { id: string }) => f.id === 'nudity');
    expect(nudity.confidence).toBeGreaterThanOrEqual(0);
    expect(nudity.confidence).toBeLessThan(0.5); // a dark disc on a skin-coloured field
  }
  const low = (c: { contentFlags: { id: string; confidence: number }[] }) => c.contentFlags.find((f) => f.id === 'low_quality')!.confidence;
  expect(low(a)).toBeGreaterThan(0.9);
  expect(low(b)).toBeLessThan(0.1);
  // One log line per classification, naming the submission, the classification and its flags.
  for (const [s, c] of [[small, a], [large, b]] as const) {
    expect(said.filter((l) => l.startsWith(`classifier: ${s.id}: recorded ${c.classificationId} (`))).toHaveLength(1);
  }
  expect(said.find((l) => l.includes(a.classificationId))).toMatch(/low_quality 0\.9\d|low_quality 1\.00/);
  // Classified once: the queue has nothing more for this classifier.
  expect(await run({ url: stack.url, key: classifier.key!, batch: 5, idleMs: 100, once: true })).toEqual({ classified: 0, failed: 0 });
  for (const s of [small, large]) expect((await call(stack, 'GET', `${INTAKE}/submissions/${s.id}`, { headers: partner.headers })).body.data.intakeStatus).toBe('awaiting_review');
}, 120_000);
