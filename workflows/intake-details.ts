// The Web UI's "current details" line for on-call staff (in memory only: answered through the
// workflow metadata query, never written to history, so replays are unaffected).
import { heldIn } from '../lib/intake/decisions';
import { isWorking, WORK, type WorkingStatus } from '../lib/intake/lifecycle';
import { isHeldStatus, type HeldStatus, type IntakeStatus } from '../lib/intake/vocabulary';
import type { IntakeState } from './messages';

export function currentDetailsOf(s: Pick<IntakeState, 'intakeStatus' | 'failureCode' | 'rejectReasonCode' | 'mediaStoreDocumentId'>, at: Date, uploadDeadline: Date): string {
  const when = at.toISOString();
  // A work step says what it does (lib/intake/lifecycle.ts WORK), a held decision what it waits for
  // (lib/intake/decisions.ts held); every other state, here.
  if (isWorking(s.intakeStatus)) return `${WORK[s.intakeStatus].doing} since ${when}`;
  if (isHeldStatus(s.intakeStatus)) return `${heldIn(s.intakeStatus).doing} since ${when}`;
  const lines: Record<Exclude<IntakeStatus, WorkingStatus | HeldStatus>, string> = {
    staged: `waiting for the upload and upload-complete until ${uploadDeadline.toISOString()}`,
    awaiting_review: `awaiting review since ${when}`,
    verification_failed: `verification failed: ${s.failureCode ?? 'unknown'} (${when})`,
    rejected: `rejected by an operator: ${s.rejectReasonCode ?? 'no reason code'} (${when})`,
    promoted_to_media_store: `promoted to the private media store as ${s.mediaStoreDocumentId ?? '?'} (${when})`,
    expired: `expired: no upload-complete within the upload window (${when})`,
  };
  return lines[s.intakeStatus];
}
