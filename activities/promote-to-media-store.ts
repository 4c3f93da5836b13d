import type { Sql } from '../lib/db';
import { insertDraftDocument, mediaDocumentId, mediaObjectKey } from '../lib/intake/drafts';
import { outcomeOf } from '../lib/intake/lifecycle';
import { ObjectChangedError, type ObjectStore } from '../lib/storage/types';
import { persist, persistOutcome, recordedRow } from './steps';
import type { AcceptDecisionInput, AcceptDecisionResult, PromoteInput, PromoteResult } from './types';

export interface PromotionHooks {
  /** Test-only: runs between the object copy and the row insert (fault injection F2). */
  afterMediaCopy?: (submissionId: string) => Promise<void>;
}

export function promoteToMediaStore(deps: {
  sql: Sql;
  store: ObjectStore;
  hooks?: PromotionHooks | undefined;
  /** Verifies a signed decision and writes its transition when it holds (activities/accept-decision.ts). */
  accept: (d: AcceptDecisionInput) => Promise<AcceptDecisionResult>;
}) {
  return async (i: PromoteInput): Promise<PromoteResult> => {
    const { sql } = deps;
    // The signed decision is checked before anything is written or copied; refused, nothing moves.
    const { decision, outcomes } = i;
    const accepted = await deps.accept(decision);
    if (!accepted.accepted) return { refused: true, reason: accepted.reason };
    const enter = decision.transition;
    const row = await recordedRow(sql, i.submissionId, await persist(sql, enter));
    if (row && row.intakeStatus !== enter.to) {
      if (row.mediaStoreDocumentId) return { ok: true, mediaStoreDocumentId: row.mediaStoreDocumentId };
      if (row.failureCode === 'object_changed') return { ok: false, code: 'object_changed' };
    }
    try {
      // Pinned to the verified sha256 / generation: exactly the bytes the operator approved.
      await deps.store.copyToMedia(i.stagingKey, mediaObjectKey(i.submissionId), i.sha256);
    } catch (err) {
      if (!(err instanceof ObjectChangedError)) throw err; // transient: the activity retries
      const result = { ok: false, code: 'object_changed' } as const;
      await persistOutcome(sql, outcomes, result);
      return result;
    }
    await deps.hooks?.afterMediaCopy?.(i.submissionId);
    const documentId = mediaDocumentId(i.submissionId);
    // The draft row and the promotion_done transition commit together.
    await persist(sql, outcomeOf(outcomes, { ok: true, mediaStoreDocumentId: documentId }), async (tx) => {
      await insertDraftDocument(tx, { submissionId: i.submissionId, sha256: i.sha256, approval: decision });
    });
    return { ok: true, mediaStoreDocumentId: documentId };
  };
}
