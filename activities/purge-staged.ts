// Bytes kept no longer than needed: once a submission is final, its staged object and previews
// serve nobody (a promoted one lives on in the private media store) and go after the retention.
import type { Sql } from '../lib/db';
import { isFinal } from '../lib/intake/lifecycle';
import { claimStagedPastRetention, markStagedPurged } from '../lib/intake/submissions';
import { intakeStatuses } from '../lib/intake/vocabulary';
import type { ObjectStore } from '../lib/storage/types';

const FINAL = intakeStatuses.filter(isFinal);

/** Delete up to `limit` staged objects (and previews) past the retention; returns how many. */
export function purgeStagedPastRetention(deps: { sql: Sql; store: ObjectStore }) {
  return async (o: { retentionSeconds: number; limit: number }): Promise<number> =>
    deps.sql.begin(async (tx) => {
      const due = await claimStagedPastRetention(tx, { finalStatuses: FINAL, retentionSeconds: o.retentionSeconds, limit: o.limit });
      for (const d of due) {
        await deps.store.deleteStaged(d.stagingKey);
        await deps.store.deletePreviews(d.stagingKey);
      }
      if (due.length) await markStagedPurged(tx, due.map((d) => d.submissionId));
      return due.length;
    });
}
