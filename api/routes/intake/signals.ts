// upload-complete, approve, reject: the routes of the signal operations (api/operations/decisions.ts).
import { findOwnSubmission } from '../../../lib/intake/submissions';
import { uploadCompleteUpdate } from '../../../workflows/messages';
import { defineRoute, type Route } from '../../routing/route';
import * as C from '../../openapi/components';
import { decide, requestIdOf, signalReply, updateAndSettle } from '../../operations/decisions';
import { INTAKE_BASE } from '../../routing/bases';
import { approveSchema, rejectSchema, submissionIdParams } from './schemas';
import { byActor } from '../../auth/middleware';
import { surfaceOf } from '../../auth/session-surface';
import { AppError } from '../../http/errors';
import { flaggedMatchesOf } from '../../../lib/intake/similar';
import { acceptedMismatch } from '../../../lib/agents/classifications';

export function signalRoutes(): Route[] {
  const review = { doc: 'intake', tag: 'review', auth: 'operator', permission: 'portfolio_intake:review', params: submissionIdParams, problems: [404, 409] } as const;
  return [
    defineRoute({
      doc: 'intake', method: 'post', path: `${INTAKE_BASE}/submissions/{submissionId}/upload-complete`, operationId: 'completeUpload',
      tag: 'submissions', auth: 'api_key', permission: 'portfolio_intake:stage',
      summary: 'Say the upload is done: the bytes are verified', params: submissionIdParams,
      ok: { 200: ['verified: awaiting_review, or verification_failed with failureReason', C.SignalEnvelope], 202: ['still verifying (outcome accepted), or the outcome is unknown (outcome pending); read the status', C.SignalEnvelope] },
      problems: [404, 409],
      async handler({ deps, params: { submissionId }, actor, req }) {
        const signal = { requestId: requestIdOf(req), by: byActor(actor()) };
        return signalReply(
          await updateAndSettle(deps, submissionId, () => findOwnSubmission(deps.sql, submissionId, actor().actorId), 'upload_complete', uploadCompleteUpdate, async () => signal),
        );
      },
    }),
    defineRoute({
      ...review, method: 'post', path: `${INTAKE_BASE}/submissions/{submissionId}/approve`, operationId: 'approveSubmission',
      summary: 'Approve: the verified bytes become a private draft in the media store (the API signs the decision; the worker verifies it and re-checks the operator before anything moves)', body: approveSchema,
      ok: { 200: ['promoted_to_media_store (or verification_failed: object_changed)', C.SignalEnvelope], 202: ['still promoting (outcome accepted), or the outcome is unknown (outcome pending); read the status', C.SignalEnvelope] },
      async handler({ deps, params: { submissionId }, body, actor, req, res }) {
        // In the review console a match is advice the operator must say they saw (never a refusal).
        const { acknowledgeMatches, ...approval } = body;
        // Suggested labels taken into the draft: only those of the current classification named.
        const mismatch = approval.accepted && (await acceptedMismatch(deps.sql, submissionId, approval.accepted));
        if (mismatch) throw new AppError('suggestion_mismatch', `The accepted suggestion cannot be taken: ${mismatch}.`);
        if (surfaceOf(res) === 'console' && !acknowledgeMatches && (await flaggedMatchesOf(deps.sql, submissionId)).some((m) => m.flagged))
          throw new AppError('matches_not_acknowledged', 'The image matches another artist\'s published or pending work: look at the matches, say in the notes why approving is right, and acknowledge them.');
        return signalReply(await decide(deps, actor(), submissionId, { decision: 'approve', ...approval }, requestIdOf(req)));
      },
    }),
    defineRoute({
      ...review, method: 'post', path: `${INTAKE_BASE}/submissions/{submissionId}/reject`, operationId: 'rejectSubmission',
      summary: 'Reject with a reason code (signed and re-checked like approve)', body: rejectSchema,
      ok: { 200: ['rejected', C.SignalEnvelope], 202: ['still recording (outcome accepted), or the outcome is unknown (outcome pending); read the status', C.SignalEnvelope] },
      async handler({ deps, params: { submissionId }, body, actor, req }) {
        return signalReply(await decide(deps, actor(), submissionId, { decision: 'reject', ...body }, requestIdOf(req)));
      },
    }),
  ];
}
