// Races answer the truth (issue 55 item 6): two operators decide one submission at the same moment,
// on a real dev server and PostgreSQL. One decision is taken; the other answers 409
// invalid_transition (docs/operators.md), never 503 `workflow_resuming`, which docs/errors.md keeps
// for an open submission whose run is gone. The loser used to meet the run closed by the winner's
// promotion and was told the run was being resumed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyActor, bearerActor, type TestCredential } from '../helpers/auth';
import { call, INTAKE, jpegBytes, stageAndVerify } from '../helpers/intake';
import { startTestStack, type TestStack } from '../helpers/stack';

let stack: TestStack;
let partner: TestCredential;
let first: TestCredential;
let second: TestCredential;
beforeAll(async () => {
  stack = await startTestStack({ env: { LOG_LEVEL: 'error' } });
  partner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage'] });
  first = await bearerActor(stack, { permissions: ['portfolio_intake:review'], operator: true });
  second = await bearerActor(stack, { permissions: ['portfolio_intake:review'], operator: true });
}, 120_000);
afterAll(async () => stack?.stop());

const approve = (id: string, who: TestCredential) => call(stack, 'POST', `${INTAKE}/submissions/${id}/approve`, { headers: who.headers, body: { reviewNotes: 'race' } });
const reject = (id: string, who: TestCredential) => call(stack, 'POST', `${INTAKE}/submissions/${id}/reject`, { headers: who.headers, body: { reasonCode: 'rights_unclear', reviewNotes: 'race' } });

/** `n` submissions awaiting review, each raced by the two calls; every pair of answers. */
async function race(n: number, calls: (id: string) => [Promise<{ status: number; body: any }>, Promise<{ status: number; body: any }>]) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await stageAndVerify(stack, partner, jpegBytes(2048 + i));
    expect(r.done.body.data?.intakeStatus, JSON.stringify(r.done.body)).toBe('awaiting_review');
    ids.push(r.id);
  }
  const out: string[][] = [];
  for (const id of ids) out.push((await Promise.all(calls(id))).map((r) => `${r.status}${r.status >= 400 ? ` ${r.body.code}` : ''}`).sort());
  return out;
}

describe('two operators decide at once', () => {
  it('two approvals: one promotes, the other answers 409 invalid_transition, in every race', { timeout: 240_000 }, async () => {
    const answers = await race(8, (id) => [approve(id, first), approve(id, second)]);
    for (const a of answers) expect(a, JSON.stringify(answers)).toEqual(['200', '409 invalid_transition']);
  });

  it('an approval and a rejection: one is taken, the other answers 409 invalid_transition, in every race', { timeout: 240_000 }, async () => {
    const answers = await race(6, (id) => [approve(id, first), reject(id, second)]);
    for (const a of answers) expect(a, JSON.stringify(answers)).toEqual(['200', '409 invalid_transition']);
  });
});
