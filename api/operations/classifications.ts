// The agent lane's operations: a classification goes to the submission's run as an Update while it
// awaits review (a suggestion), or is recorded as a proposal once the submission was promoted (its
// run is closed; nothing changes until an operator applies it). Either way nothing about the
// submission's status, draft or published record changes here.
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { status as grpcStatus } from '@grpc/grpc-js';
import { ClassificationConflict, classificationOfRequest, findClassification, inScope, insertClassification } from '../../lib/agents/classifications';
import { classificationHash } from '../../lib/agents/vocabulary';
import type { Classification, ClassificationBody } from '../../lib/agents/answers';
import { isFirstReview, type IntakeStatus } from '../../lib/intake/vocabulary';
import { classifyUpdate, REFUSAL_SEPARATOR } from '../../workflows/messages';
import type { Actor } from '../auth/middleware';
import { byActor } from '../auth/middleware';
import type { AppDeps } from '../deps';
import { AppError } from '../http/errors';
import { intakeHandle, requireWorker, temporalCall } from '../temporal/workflow-calls';

/** The caller's scope as the classification queries take it. */
export const scopeOf = (a: Actor) => ({ organizationId: a.organizationId, studioScope: a.studioScope, artistScope: a.artistScope });

/** The submission's status and verified sha256, when it is within the caller's scope (404 otherwise: another organization's submission is not revealed). */
export async function statusInScope(deps: AppDeps, actor: Actor, submissionId: string): Promise<{ intakeStatus: IntakeStatus; verifiedSha256: string | null }> {
  const [row] = await deps.sql<{ intakeStatus: IntakeStatus; verifiedSha256: string | null }[]>`
    select s.intake_status, s.verified_sha256 from submissions s where s.submission_id = ${submissionId} and ${inScope(deps.sql, scopeOf(actor))}`;
  if (!row) throw new AppError('not_found', 'No such submission.');
  return row;
}

function refusal(message: string, status: IntakeStatus): AppError {
  const cut = message.indexOf(REFUSAL_SEPARATOR);
  const reason = cut > 0 ? message.slice(0, cut) : message;
  const detail = cut > 0 ? message.slice(cut + REFUSAL_SEPARATOR.length) : '';
  if (reason === 'invalid_transition') return new AppError('invalid_transition', `Only a submission awaiting review takes a classification (status ${status}).`);
  return new AppError('classification_refused', `The workflow refused this classification (${reason}${detail ? `: ${detail}` : ''}); nothing was recorded.`);
}

/** A classification's Update id: one per actor and request (two actors sending one request id are two classifications). */
export const classifyUpdateId = (actorId: string, requestId: string) => `classify:${actorId}:${requestId}`;

/** Record a proposal; a write that met another of the same actor's (not expected: they are serialized) answers 409. */
async function proposal(deps: AppDeps, c: Parameters<typeof insertClassification>[1]): Promise<Classification> {
  try {
    return await insertClassification(deps.sql, c);
  } catch (err) {
    if (err instanceof ClassificationConflict) throw new AppError('classification_conflict', 'Another classification of this submission by you was being recorded at the same time; nothing was recorded. Retry.');
    throw err;
  }
}

/** Classify a submission as `actor`: a suggestion (awaiting review) or a proposal (promoted). */
export async function classify(deps: AppDeps, actor: Actor, submissionId: string, body: ClassificationBody, requestId: string): Promise<Classification> {
  const { intakeStatus: status, verifiedSha256 } = await statusInScope(deps, actor, submissionId);
  const by = { actorId: actor.actorId, credentialKind: actor.credential.kind, credentialId: actor.credential.id, organizationId: actor.organizationId };
  if (status === 'promoted_to_media_store') return proposal(deps, { submissionId, requestId, by, kind: 'proposal', body });
  if (!isFirstReview(status) || !verifiedSha256)
    throw new AppError('invalid_transition', `Only a submission awaiting review (a suggestion) or promoted (a proposal) takes a classification (status ${status}).`);
  await requireWorker(deps);
  // The proof that this API authenticated the classifier for this submission, request and body: the run takes nothing without it.
  const proof = await deps.decisionSigner.sign({
    submissionId, decision: 'classify', actorId: by.actorId, credentialId: by.credentialId, sha256: verifiedSha256, requestId, detailsHash: classificationHash(body),
  });
  let answer;
  try {
    answer = await temporalCall(deps, 'update', () =>
      intakeHandle(deps, submissionId).executeUpdate(classifyUpdate, { args: [{ ...body, requestId, by: byActor(actor), proof }], updateId: classifyUpdateId(by.actorId, requestId) }),
    );
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError) {
      const message = (err.cause as Error | undefined)?.message ?? err.message;
      // The same request again, after the run forgot its Update: the classification it recorded.
      const again = message.startsWith(`duplicate_request${REFUSAL_SEPARATOR}`) ? await classificationOfRequest(deps.sql, submissionId, by.actorId, requestId) : undefined;
      if (again) return again;
      throw refusal(message, status);
    }
    const code = (err as { code?: number; cause?: { code?: number } }).code ?? (err as { cause?: { code?: number } }).cause?.code;
    if ((err instanceof AppError && err.code === 'not_found') || code === grpcStatus.NOT_FOUND)
      throw new AppError('workflow_resuming', 'The submission\u2019s workflow run is gone and is being resumed; nothing was recorded. Retry shortly.', { headers: { 'Retry-After': '5' } });
    throw err;
  }
  if (!answer.recorded) throw new AppError('classification_refused', `The worker refused this classification (${answer.reason}); nothing was recorded.`);
  const mine = await findClassification(deps.sql, answer.classificationId);
  if (!mine) throw new AppError('dependency_unavailable', 'The classification was recorded but could not be read back; list the submission\u2019s classifications.');
  return mine;
}
