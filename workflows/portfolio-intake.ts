// One workflow per submission: wait for the upload, verify the bytes, wait for a human decision,
// promote into the private media store. Deterministic code only: all I/O happens in activities.
import {
  allHandlersFinished,
  condition,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { IntakeActivities } from '../activities/types';
import {
  approveSignal,
  AwaitingSinceKey,
  intakeStateQuery,
  IntakeStatusKey,
  rejectSignal,
  ReviewStatusKey,
  uploadCompleteSignal,
  type ApproveSignal,
  type IntakeInput,
  type IntakeState,
  type IntakeStatus,
  type RejectSignal,
  type ReviewStatus,
  type UploadCompleteSignal,
} from './messages';

const acts = proxyActivities<IntakeActivities>({
  // Each activity is seconds of work at most (hash and copy of up to 50 MiB, a few rows). The
  // timeout is also how long a task held by a crashed worker waits before its retry (fault suite
  // F1, F2), so it is kept short.
  startToCloseTimeout: '30 seconds',
  // Transient faults (storage or database briefly away) are retried; permanent ones come back as
  // results (verification) or non-retryable failures.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

type Decision = { kind: 'approve'; signal: ApproveSignal } | { kind: 'reject'; signal: RejectSignal };

export async function portfolioIntake(input: IntakeInput): Promise<IntakeState> {
  const state: IntakeState = {
    submissionId: input.submissionId,
    artistCanonicalId: input.artistCanonicalId,
    intakeStatus: 'staged',
    reviewStatus: 'review_required',
    mediaStoreDocumentId: null,
    failureCode: null,
    rejectReasonCode: null,
  };
  // Signals carry a request id: a repeated signal (a client retry) is a no-op.
  const handled = new Set<string>();
  let upload: UploadCompleteSignal | undefined;
  let decision: Decision | undefined;

  setHandler(intakeStateQuery, () => state);
  // Handlers only record; the main body acts. A signal in the wrong state is ignored: the HTTP
  // route has already answered 409 for it.
  setHandler(uploadCompleteSignal, (s) => {
    if (handled.has(s.requestId) || state.intakeStatus !== 'staged' || upload) return;
    handled.add(s.requestId);
    upload = s;
  });
  setHandler(approveSignal, (s) => {
    if (handled.has(s.requestId) || state.intakeStatus !== 'awaiting_review' || decision) return;
    handled.add(s.requestId);
    decision = { kind: 'approve', signal: s };
  });
  setHandler(rejectSignal, (s) => {
    if (handled.has(s.requestId) || state.intakeStatus !== 'awaiting_review' || decision) return;
    handled.add(s.requestId);
    decision = { kind: 'reject', signal: s };
  });

  const moveTo = (intakeStatus: IntakeStatus, reviewStatus: ReviewStatus = state.reviewStatus) => {
    state.intakeStatus = intakeStatus;
    state.reviewStatus = reviewStatus;
    upsertSearchAttributes([
      { key: IntakeStatusKey, value: intakeStatus },
      { key: ReviewStatusKey, value: reviewStatus },
      ...(intakeStatus === 'awaiting_review' ? [{ key: AwaitingSinceKey, value: new Date(Date.now()) }] : []),
    ]);
  };

  // The upload window is a workflow timer (not a workflow timeout), so expiry runs cleanup.
  const uploaded = await condition(() => upload !== undefined, input.uploadDeadlineSeconds * 1000);
  if (!uploaded || !upload) {
    await acts.expireSubmission({ submissionId: input.submissionId, stagingKey: input.stagingKey });
    moveTo('expired', 'not_reviewed');
    return finish(state);
  }

  moveTo('verifying');
  const verified = await acts.verifyStagedMedia({
    submissionId: input.submissionId,
    stagingKey: input.stagingKey,
    sizeBytes: input.sizeBytes,
    mimeType: input.mimeType,
    by: upload.by,
  });
  if (!verified.ok) {
    state.failureCode = verified.code;
    moveTo('verification_failed', 'not_reviewed');
    return finish(state);
  }
  moveTo('awaiting_review');

  // A human decides; there is no deadline on review. Operators see the queue in PostgreSQL and
  // on-call staff can filter on AwaitingSince in the Web UI.
  await condition(() => decision !== undefined);
  const d = decision as Decision | undefined;
  if (!d) throw new Error('unreachable: decision missing');
  if (d.kind === 'reject') {
    await acts.recordRejection({
      submissionId: input.submissionId,
      by: d.signal.by,
      reasonCode: d.signal.reasonCode,
      notes: d.signal.notes,
    });
    state.rejectReasonCode = d.signal.reasonCode;
    moveTo('rejected', 'rejected');
    return finish(state);
  }

  moveTo('promoting', 'approved');
  const promoted = await acts.promoteToMediaStore({
    submissionId: input.submissionId,
    stagingKey: input.stagingKey,
    sha256: verified.sha256,
    mimeType: input.mimeType,
    by: d.signal.by,
    reviewNotes: d.signal.reviewNotes,
  });
  if (!promoted.ok) {
    state.failureCode = promoted.code;
    moveTo('verification_failed');
    return finish(state);
  }
  state.mediaStoreDocumentId = promoted.mediaStoreDocumentId;
  moveTo('promoted_to_media_store');
  return finish(state);
}

async function finish(state: IntakeState): Promise<IntakeState> {
  // Let any in-flight handler finish before the run closes (no "unfinished handler" warnings).
  await condition(allHandlersFinished);
  return state;
}
