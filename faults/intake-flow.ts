// The partner's and the operator's path through one intake, as docs/errors.md tells a client to walk
// it while processes die: again after a 503; after a 202 `pending`, read the status and send again
// only while it has not moved. Shared by the scenarios in faults/.
import type { BenchStack } from '../bench/lib/stack';
import { approve, complete, INTAKE, retrying, send, type Reply } from './client';
import { sleep } from './harness';
import { isFirstReview } from '../lib/intake/vocabulary';

/**
 * upload-complete, poll the status over HTTP until verification is over, approve what awaits review.
 * (PostgreSQL can say awaiting_review a little before the workflow does, when a worker died before
 * reporting the activity's result; the workflow's view is the one that decides, so poll that.)
 */
export async function completeAndApprove(s: BenchStack, id: string): Promise<void> {
  const done = await asDocumented(s, id, () => complete(s, id), 'staged');
  // No object to verify (the upload was refused): the submission stays staged; nothing to approve.
  if (done.status === 409 && done.body?.code === 'upload_missing') return;
  const deadline = Date.now() + 150_000;
  let status = '';
  while (Date.now() < deadline) {
    status = await statusOf(s, id);
    if (status !== 'staged' && status !== 'verifying') break;
    await sleep(250);
  }
  if (isFirstReview(status)) await approveAsDocumented(s, id);
}

/** Approve as docs/errors.md tells an operator (see `asDocumented`). */
export const approveAsDocumented = (s: BenchStack, id: string): Promise<Reply> => asDocumented(s, id, () => approve(s, id), 'awaiting_review');

/**
 * Send a request again after a 503; after a 202 `pending` (sent, outcome unknown: a worker died with
 * the request not yet taken), read the status and send again only while it is still `unmoved`.
 * Bounded in count and time; answers the last reply.
 */
async function asDocumented(s: BenchStack, id: string, call: () => Promise<Reply>, unmoved: string): Promise<Reply> {
  const deadline = Date.now() + 120_000;
  let r = await retrying(call);
  for (let i = 0; i < 10 && Date.now() < deadline && r.status === 202 && r.body?.outcome === 'pending'; i++) {
    for (let seen = 0; seen < 40; seen++) {
      await sleep(250);
      if ((await statusOf(s, id)) !== unmoved) return r;
    }
    r = await retrying(call);
  }
  return r;
}

async function statusOf(s: BenchStack, id: string): Promise<string> {
  const r = await retrying(() => send(s, 'GET', `${INTAKE}/submissions/${id}`, { headers: s.partner.headers }));
  return r.body?.data?.intakeStatus ?? '';
}
