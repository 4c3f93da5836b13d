import type { Sql } from '../lib/db';
import type { ObjectStore } from '../lib/storage/types';
import type { IntakeActivities } from './types';
import { recordEvent, setSubmissionStatus, SYSTEM_ACTOR } from './intake-records';
import { promoteToMediaStore, type PromotionHooks } from './promote-to-media-store';
import { resolveArtist } from './resolve-artist';
import { verifyStagedMedia } from './verify-staged-media';

export interface ActivityDeps {
  sql: Sql;
  store: ObjectStore;
  hooks?: PromotionHooks;
}

export function createActivities(deps: ActivityDeps): IntakeActivities {
  return {
    verifyStagedMedia: verifyStagedMedia(deps),
    promoteToMediaStore: promoteToMediaStore(deps),
    resolveArtist: resolveArtist(deps),
    async recordRejection(i) {
      await deps.sql.begin(async (tx) => {
        await setSubmissionStatus(tx, i.submissionId, { intakeStatus: 'rejected', reviewStatus: 'rejected' });
        await recordEvent(tx, { submissionId: i.submissionId, by: i.by, from: 'awaiting_review', to: 'rejected', note: `${i.reasonCode}: ${i.notes}` });
      });
    },
    async expireSubmission(i) {
      await deps.store.deleteStaged(i.stagingKey);
      await deps.sql.begin(async (tx) => {
        await setSubmissionStatus(tx, i.submissionId, { intakeStatus: 'expired', reviewStatus: 'not_reviewed' });
        await recordEvent(tx, { submissionId: i.submissionId, by: SYSTEM_ACTOR, from: 'staged', to: 'expired', note: 'upload window passed' });
      });
    },
  };
}
