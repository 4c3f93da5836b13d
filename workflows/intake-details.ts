// The Web UI's "current details" line for on-call staff (in memory only: answered through the
// workflow metadata query, never written to history, so replays are unaffected).
import type { IntakeStatus } from '../lib/intake/vocabulary';
import type { IntakeState } from './messages';

export function currentDetailsOf(s: Pick<IntakeState, 'intakeStatus' | 'failureCode' | 'rejectReasonCode' | 'mediaStoreDocumentId'>, at: Date, uploadDeadline: Date): string {
  const when = at.toISOString();
  const lines: Record<IntakeStatus, string> = {
    staged: `waiting for the upload and upload-complete until ${uploadDeadline.toISOString()}`,
    verifying: `verifying the uploaded bytes since ${when}`,
    awaiting_review: `awaiting review since ${when}`,
    verification_failed: `verification failed: ${s.failureCode ?? 'unknown'} (${when})`,
    rejected: `rejected by an operator: ${s.rejectReasonCode ?? 'no reason code'} (${when})`,
    promoting: `approved; promoting into the private media store since ${when}`,
    promoted_to_media_store: `promoted to the private media store as ${s.mediaStoreDocumentId ?? '?'} (${when})`,
    expired: `expired: no upload-complete within the upload window (${when})`,
  };
  return lines[s.intakeStatus];
}
