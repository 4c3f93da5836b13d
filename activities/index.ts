import type { Sql } from '../lib/db';
import type { ObjectStore } from '../lib/storage/types';
import type { ExpireInput, RecordTransitionInput, RecordTransitionResult, RowState, SignalRefusalInput } from './types';
import type { Transition } from '../lib/intake/lifecycle';
import { classificationActivities } from './classifications';
import { acceptDecision, type DecisionDeps } from './accept-decision';
import { promoteToMediaStore, type PromotionHooks } from './promote-to-media-store';
import { resolveArtist } from './resolve-artist';
import { persist } from './steps';
import { insertRefusal } from '../lib/intake/refusals';
import { findSubmission } from '../lib/intake/submissions';
import { ApplicationFailure, log as activityLog } from '@temporalio/activity';
import { verifyStagedMedia } from './verify-staged-media';

export interface ActivityDeps {
  sql: Sql;
  store: ObjectStore;
  hooks?: PromotionHooks;
  /** MAX_IMAGE_PIXELS (default 50 megapixels). */
  maxImagePixels?: number;
  /** Verifies the API's signed decisions (lib/intake/decision-proof.ts); absent: every decision is refused. */
  decisions?: DecisionDeps['decisions'];
  /** The worker's log (decision refusals are logged as warnings). */
  log?: DecisionDeps['log'];
}

export const DEFAULT_MAX_IMAGE_PIXELS = 50_000_000;

/**
 * The intake's activities, by the name workflow code calls them (activities/types.ts
 * IntakeActivities is this function's answer): a new activity is registered by one line here.
 */
export function createActivities(deps: ActivityDeps) {
  const accept = acceptDecision(deps);
  return {
    verifyStagedMedia: verifyStagedMedia({ ...deps, maxImagePixels: deps.maxImagePixels ?? DEFAULT_MAX_IMAGE_PIXELS }),
    promoteToMediaStore: promoteToMediaStore({ ...deps, accept }),
    resolveArtist: resolveArtist(deps),
    ...classificationActivities(deps),
    /** A transition with no work attached (reject): the row, the event and the notification. */
    async recordTransition(t: RecordTransitionInput): Promise<RecordTransitionResult> {
      // A decision's transition (a rejection) is written only when its signed proof holds.
      const { decision, ...transition } = t;
      if (decision) return accept(decision);
      await persist(deps.sql, transition);
      return undefined;
    },
    async recordSignalRefusal(i: SignalRefusalInput): Promise<void> {
      const signal = i.signal === 'uploadComplete' ? 'upload_complete' : i.signal;
      const requestId = i.requestId ?? `malformed:${i.seq}`;
      const reason = i.reason ?? 'signal_malformed';
      await insertRefusal(deps.sql, { submissionId: i.submissionId, signal, requestId, reason, claimed: i.by, detail: i.detail });
      const fields = { submissionId: i.submissionId, signal, requestId, reason, claimedActorId: i.by.actorId, claimedCredentialId: i.by.credentialId };
      const msg = i.reason ? `${signal} refused: ${i.detail}` : `signal refused: not its shape (${i.detail}); nothing changed`;
      if (deps.log) deps.log.warn(fields, msg);
      else activityLog.warn(msg, fields);
    },
    /** Is the staged object there (an upload-complete is acted on only then)? */
    async stagedObjectPresent({ stagingKey }: { stagingKey: string }): Promise<boolean> {
      return (await deps.store.statStaged(stagingKey)) !== null;
    },
    /** Write `failed` if the row is still where it starts (a step gave up), then answer the row. */
    async settleStalledStep({ submissionId, failed }: { submissionId: string; failed: Transition | null }): Promise<RowState> {
      if (failed) await persist(deps.sql, failed);
      const row = await findSubmission(deps.sql, submissionId);
      if (!row) throw ApplicationFailure.nonRetryable(`no submission row ${submissionId}`, 'SubmissionMissing');
      const { intakeStatus, reviewStatus, failureCode, rejectReasonCode, mediaStoreDocumentId, verifiedSha256 } = row;
      return { intakeStatus, reviewStatus, failureCode, rejectReasonCode, mediaStoreDocumentId, verifiedSha256 };
    },
    async expireSubmission(i: ExpireInput): Promise<void> {
      // The row first: from here on the upload route refuses bytes, so nothing lands after the delete.
      await persist(deps.sql, i.transition);
      await deps.store.deleteStaged(i.stagingKey);
    },
  };
}
