// The agent lane's operations: a classification goes to the submission's run as an Update while it
// awaits review (a suggestion), or is recorded as a proposal once the submission was promoted (its
// run is closed; nothing changes until an operator applies it). Either way nothing about the
// submission's status, draft or published record changes here.
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { status as grpcStatus } from '@grpc/grpc-js';
import { findClassification, inScope, insertClassification } from '../../lib/agents/classifications';
import type { Classification, ClassificationBody } from '../../lib/agents/answers';
import type { IntakeStatus } from '../../lib/intake/vocabulary';
import { classifyUpdate, REFUSAL_SEPARATOR } from '../../workflows/messages';
import type { Actor } from '../auth/middleware';
import { byActor } from '../auth/middleware';
import type { AppDeps } from '../deps';
import { AppError } from '../http/errors';
import { intakeHandle, requireWorker, temporalCall } from '../temporal/workflow-calls';

/** The caller's scope as the classification queries take it. */
export const scopeOf = (a: Actor) => ({ organizationId: a.organizationId, studioScope: a.studioScope, artistScope: a.artistScope });

/** The submission's status, when it is within the caller's scope (404 otherwise: another organization's submission is not revealed). */
export async function statusInScope(deps: AppDeps, actor: Actor, submissionId: string): Promise<IntakeStatus> {
  const [row] = await deps.sql<{ intakeStatus: IntakeStatus }[]>`
    select s.intake_status from submissions s where s.submission_id = ${submissionId} and ${inScope(deps.sql, scopeOf(actor))}`;
  if (!row) throw new AppError('not_found', 'No such submission.');
  return row.intakeStatus;
}

function refusal(message: string, status: IntakeStatus): AppError {
  const cut = message.indexOf(REFUSAL_SEPARATOR);
  const reason = cut > 0 ? message.slice(0, cut) : message;
  const detail = cut > 0 ? message.slice(cut + REFUSAL_SEPARATOR.length) : '';
  if (reason === 'invalid_transition') return new AppError('invalid_transition', `Only a submission awaiting review takes a classification (status ${status}).`);
  return new AppError('classification_refused', `The workflow refused this classification (${reason}${detail ? `: ${detail}` : ''}); nothing was recorded.`);
}

/** Classify a submission as `actor`: a suggestion (awaiting review) or a proposal (promoted). */
export async function classify(deps: AppDeps, actor: Actor, submissionId: string, body: ClassificationBody, requestId: string): Promise<Classification> {
  const status = await statusInScope(deps, actor, submissionId);
  const by = { actorId: actor.actorId, credentialKind: actor.credential.kind, credentialId: actor.credential.id, organizationId: actor.organizationId };
  if (status === 'promoted_to_media_store') return insertClassification(deps.sql, { submissionId, requestId, by, kind: 'proposal', body });
  if (status !== 'awaiting_review') throw new AppError('invalid_transition', `Only a submission awaiting review (a suggestion) or promoted (a proposal) takes a classification (status ${status}).`);
  await requireWorker(deps);
  let answer;
  try {
    answer = await temporalCall(deps, 'update', () =>
      intakeHandle(deps, submissionId).executeUpdate(classifyUpdate, { args: [{ ...body, requestId, by: byActor(actor) }], updateId: `classify:${requestId}` }),
    );
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError) throw refusal((err.cause as Error | undefined)?.message ?? err.message, status);
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
