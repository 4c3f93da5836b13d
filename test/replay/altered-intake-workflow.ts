// Test-only: the intake workflow (same type name, portfolioIntake) with one change that is NOT
// replay-safe: a timer inserted between the upload-complete and the verification, as a
// careless edit might add a "settle" pause. Everything before that point matches the real
// workflow, so an expired history (which never gets there) still replays, and every history that
// reached verification must fail with a DeterminismViolationError.
import { condition, patched, proxyActivities, setHandler, sleep, upsertSearchAttributes } from '@temporalio/workflow';
import { SHAPES } from '../../workflows/compat';
import {
  decisionUpdates,
  IntakeStatusKey,
  ReviewStatusKey,
  uploadCompleteUpdate,
  type Decision,
  type IntakeInput,
  type UploadCompleteSignal,
} from '../../workflows/messages';

// Inputs as a careless edit would send them: replay compares commands, not activity inputs.
interface AlteredActivities {
  expireSubmission(i: object): Promise<void>;
  verifyStagedMedia(i: object): Promise<{ ok: boolean }>;
}
const acts = proxyActivities<AlteredActivities>({ startToCloseTimeout: '2 minutes' });

export async function portfolioIntake(input: IntakeInput): Promise<string> {
  // As the real workflow: the shape asked first (each recorded shape has one of the markers here).
  for (const s of [...SHAPES].reverse()) if (patched(s.patch)) break;
  let upload: UploadCompleteSignal | undefined;
  let decision: Decision['signal'] | undefined;
  const taken = { taken: true as const, intakeStatus: 'verifying' as const };
  setHandler(uploadCompleteUpdate, (s) => ((upload ??= s), taken));
  setHandler(decisionUpdates.approve, (s) => ((decision ??= s), taken));
  setHandler(decisionUpdates.reject, (s) => ((decision ??= s), taken));
  const moveTo = (intake: string, review: string) =>
    upsertSearchAttributes([
      { key: IntakeStatusKey, value: intake },
      { key: ReviewStatusKey, value: review },
    ]);

  const uploaded = await condition(() => upload !== undefined, input.uploadDeadlineSeconds * 1000);
  if (!uploaded || !upload) {
    await acts.expireSubmission({ submissionId: input.submissionId, stagingKey: input.stagingKey });
    moveTo('expired', 'not_reviewed');
    return 'expired';
  }
  moveTo('verifying', 'review_required');
  await sleep('1 second'); // the change under test
  const verified = await acts.verifyStagedMedia({
    submissionId: input.submissionId,
    stagingKey: input.stagingKey,
    sizeBytes: input.sizeBytes,
    mimeType: input.mimeType,
    by: upload.by,
  });
  if (!verified.ok) return 'verification_failed';
  await condition(() => decision !== undefined);
  return 'decided';
}
