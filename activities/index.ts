import type { Sql } from '../lib/db';
import { transitionOf, fromOf } from '../lib/intake/lifecycle';
import type { ObjectStore } from '../lib/storage/types';
import type { IntakeActivities } from './types';
import { acceptDecision, type DecisionDeps } from './accept-decision';
import { promoteToMediaStore, type PromotionHooks } from './promote-to-media-store';
import { resolveArtist } from './resolve-artist';
import { persist } from './steps';
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

export function createActivities(deps: ActivityDeps): IntakeActivities {
  const accept = acceptDecision(deps);
  return {
    verifyStagedMedia: verifyStagedMedia({ ...deps, maxImagePixels: deps.maxImagePixels ?? DEFAULT_MAX_IMAGE_PIXELS }),
    promoteToMediaStore: promoteToMediaStore({ ...deps, accept }),
    resolveArtist: resolveArtist(deps),
    async recordTransition(t) {
      // A decision's transition (a rejection) is written only when its signed proof holds.
      const { decision, ...transition } = t;
      if (decision) return accept(decision);
      await persist(deps.sql, transition);
      return undefined;
    },
    async recordRejection(i) {
      const at = { intakeStatus: fromOf('reject'), reviewStatus: 'review_required' as const };
      await persist(deps.sql, transitionOf(at, 'reject', { submissionId: i.submissionId, by: i.by, note: `${i.reasonCode}: ${i.notes}`, facts: { rejectReasonCode: i.reasonCode } }));
    },
    async expireSubmission(i) {
      const at = { intakeStatus: fromOf('upload_window_passed'), reviewStatus: 'review_required' as const };
      // The row first: from here on the upload route refuses bytes, so nothing lands after the delete.
      await persist(deps.sql, i.transition ?? transitionOf(at, 'upload_window_passed', { submissionId: i.submissionId, note: 'upload window passed' }));
      await deps.store.deleteStaged(i.stagingKey);
    },
  };
}
