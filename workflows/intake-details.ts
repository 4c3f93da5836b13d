// The Web UI's "current details" line for on-call staff (in memory only: answered through the
// workflow metadata query, never written to history, so replays are unaffected).
import { heldIn } from '../lib/intake/decisions';
import { isWorking, WORK } from '../lib/intake/lifecycle';
import { detailsLineOf, isHeldStatus } from '../lib/intake/vocabulary';
import type { IntakeState } from './messages';

export function currentDetailsOf(s: Pick<IntakeState, 'intakeStatus' | 'failureCode' | 'rejectReasonCode' | 'mediaStoreDocumentId'>, at: Date, uploadDeadline: Date): string {
  const when = at.toISOString();
  // A work step says what it does (lib/intake/lifecycle.ts WORK), a held decision what it waits for
  // (lib/intake/decisions.ts held); every other state, here.
  if (isWorking(s.intakeStatus)) return `${WORK[s.intakeStatus].doing} since ${when}`;
  if (isHeldStatus(s.intakeStatus)) return `${heldIn(s.intakeStatus).doing} since ${when}`;
  // Every other state declares its line (lib/intake/vocabulary.ts INTAKE_STATES `details`).
  const facts = { when, uploadDeadline: uploadDeadline.toISOString(), failureCode: s.failureCode, rejectReasonCode: s.rejectReasonCode, mediaStoreDocumentId: s.mediaStoreDocumentId };
  return detailsLineOf(s.intakeStatus, facts) ?? `${s.intakeStatus} since ${when}`;
}
