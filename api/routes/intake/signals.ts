// upload-complete and one route per human decision (lib/intake/decisions.ts: its path segment,
// operation id, summary and answers; its body: schemas.ts decisionBodies): the routes of the
// Update operations (api/operations/decisions.ts).
import type { z } from 'zod';
import { DECISION_KINDS, DECISION_TABLE, type DecisionFields, type DecisionKind } from '../../../lib/intake/decisions';
import { isFirstReview, isHeldStatus } from '../../../lib/intake/vocabulary';
import { uploadCompleteUpdate } from '../../../workflows/messages';
import { defineRoute, type Route, type RouteContext } from '../../routing/route';
import * as C from '../../openapi/components';
import { decide, requestIdOf, sameOperator, signalReply, updateAndSettle, type DecisionInput } from '../../operations/decisions';
import { INTAKE_BASE } from '../../routing/bases';
import { decisionBodies, submissionIdParams } from './schemas';
import { byActor } from '../../auth/middleware';
import { surfaceOf } from '../../auth/session-surface';
import { AppError } from '../../http/errors';
import { flaggedMatchesOf } from '../../../lib/intake/similar';
import { acceptedMismatch, classificationsOf } from '../../../lib/agents/classifications';
import { firstDecisionOf, isFirstDecider, secondReviewReasons } from '../../../lib/intake/second-review';
import { findOwnSubmission, findSubmission } from '../../../lib/intake/submissions';
import { SIGNAL_LIMITS } from '../../../lib/intake/signal-shapes';

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
        const requestId = requestIdOf(req);
        const by = byActor(actor());
        // Signed as decisions are: the run's validator takes an upload-complete only with the API's proof.
        const signal = async () => ({
          requestId,
          by,
          proof: await deps.decisionSigner.sign({ submissionId, decision: 'upload_complete', actorId: by.actorId, credentialId: by.credentialId, sha256: '', requestId, detailsHash: '' }),
        });
        return signalReply(await updateAndSettle(deps, submissionId, () => findOwnSubmission(deps.sql, submissionId, actor().actorId), 'upload_complete', uploadCompleteUpdate, signal));
      },
    }),
    ...DECISION_KINDS.map((kind) => {
      const { operationId, summary, ok200, ok202 } = DECISION_TABLE[kind].route;
      return defineRoute({
        ...review, method: 'post', path: `${INTAKE_BASE}/submissions/{submissionId}/${kind}`, operationId, summary, body: decisionBodies[kind] as z.ZodType<Body<DecisionKind>>,
        ok: { 200: [ok200, C.SignalEnvelope], 202: [ok202, C.SignalEnvelope] },
        async handler(ctx) {
          const guard = GUARDS[kind] as Guard<DecisionKind> | undefined;
          const fields = guard ? await guard(ctx) : ctx.body;
          return signalReply(await decide(ctx.deps, ctx.actor(), ctx.params.submissionId, { decision: kind, ...fields } as DecisionInput, requestIdOf(ctx.req)));
        },
      });
    }),
  ];
}

type Body<K extends DecisionKind> = z.output<(typeof decisionBodies)[K]>;
/** What a decision's route checks before it decides, and the decision's fields it leaves of the body. */
type Guard<K extends DecisionKind> = (ctx: RouteContext<{ submissionId: string }, undefined, Body<K>>) => Promise<DecisionFields<K>>;

/** The decisions whose route checks more than its body: the rest decide with the body as sent. */
const GUARDS: { [K in DecisionKind]?: Guard<K> } = {
  async approve({ deps, params: { submissionId }, body, res, actor }) {
    // In the review console a match is advice the operator must say they saw (never a refusal).
    const { acknowledgeMatches, seenMatches, ...approval } = body;
    // Suggested labels taken into the draft: only those of the current classification named.
    const mismatch = approval.accepted && (await acceptedMismatch(deps.sql, submissionId, approval.accepted));
    if (mismatch) throw new AppError('suggestion_mismatch', `The accepted suggestion cannot be taken: ${mismatch}.`);
    const inConsole = surfaceOf(res) === 'console';
    const policy = { similarMatches: deps.cfg.SECOND_REVIEW_SIMILAR_MATCHES, contentFlagAtLeast: deps.cfg.SECOND_REVIEW_CONTENT_FLAG };
    // The matches only where someone looks at them: the console's acknowledgement, the policy.
    const [row, matches] = await Promise.all([findSubmission(deps.sql, submissionId), inConsole || policy.similarMatches ? flaggedMatchesOf(deps.sql, submissionId) : []]);
    if (inConsole && !acknowledgeMatches && matches.some((m) => m.flagged))
      throw new AppError('matches_not_acknowledged', 'The image matches another artist\'s published or pending work: look at the matches, say in the notes why approving is right, and acknowledge them.');
    // seenMatches only when there are some: the payload of an approval without matches is as before.
    const fields = { ...approval, ...(seenMatches?.length ? { seenMatches } : {}) };
    // The second-review policy (lib/intake/second-review.ts): the second approval is a different operator's.
    if (row && isHeldStatus(row.intakeStatus)) {
      const first = await firstDecisionOf(deps.sql, submissionId);
      if (first && (await isFirstDecider(deps.sql, first, actor().actorId))) throw sameOperator(first.at);
      return fields;
    }
    if (!row || !isFirstReview(row.intakeStatus)) return fields; // the decision route answers for any other state
    const classifications = policy.contentFlagAtLeast === null ? [] : await classificationsOf(deps.sql, submissionId, { currentOnly: true });
    const reasons = secondReviewReasons(policy, { matches, classifications });
    // secondReview only when the policy asks for it: the payload of any other approval is as before.
    return { ...fields, ...(reasons.length ? { secondReview: reasons.slice(0, SIGNAL_LIMITS.secondReviewReasons) } : {}) };
  },
};
