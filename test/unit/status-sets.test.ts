// The partial indexes of the migrations list intake statuses by hand (SQL cannot import the
// lifecycle): each list must equal the lifecycle set the queries filter on, or the plans the
// indexes serve stop matching the queries.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DECIDED, DECISIONS, OPEN, PENDING, UNDECIDED } from '../../lib/intake/lifecycle';
import { DECIDING } from '../../lib/intake/decisions';
import type { IntakeStatus } from '../../lib/intake/vocabulary';

const MIGRATIONS = path.join(__dirname, '../../migrations');

/** Which set each index's predicate stands for; an index that lists intake statuses must be named here. */
const INDEX_SETS: Record<string, readonly IntakeStatus[]> = {
  submissions_org_open: UNDECIDED,
  submissions_open_walk: OPEN,
  submissions_review_queue: DECIDING,
};

/** The last `create index NAME ... where intake_status in (...)` of each name in the up migrations (a later migration redefines an index): name, file, statuses. */
function statusListIndexes(): { name: string; file: string; statuses: string[] }[] {
  const found = new Map<string, { name: string; file: string; statuses: string[] }>();
  for (const file of readdirSync(MIGRATIONS).filter((f) => f.endsWith('.sql')).sort()) {
    const up = readFileSync(path.join(MIGRATIONS, file), 'utf8').split(/--\s*Down Migration/i)[0]!;
    const re = /create\s+(?:unique\s+)?index\s+(?:if\s+not\s+exists\s+)?(\w+)[^;]*?\bwhere\b[^;]*?\b(?:intake_status|to_status)\s+in\s*\(([^)]*)\)/gi;
    for (const m of up.matchAll(re)) {
      const statuses = [...m[2]!.matchAll(/'([^']*)'/g)].map((s) => s[1]!);
      found.set(m[1]!, { name: m[1]!, file, statuses });
    }
  }
  return [...found.values()];
}

describe('the status sets, derived from the transition table', () => {
  it('name what the queries meant when they listed statuses by hand', () => {
    expect(OPEN).toEqual(['staged', 'verifying', 'awaiting_review', 'awaiting_second_review', 'promoting']);
    expect(PENDING).toEqual(['verifying', 'awaiting_review', 'awaiting_second_review', 'promoting']);
    expect([...DECIDED].sort()).toEqual(['promoted_to_media_store', 'promoting', 'rejected']);
    expect([...DECISIONS].sort()).toEqual(['promoting', 'rejected']);
    // Approved once is not decided: the quota still counts it, and a second operator decides it.
    expect(UNDECIDED).toEqual(['staged', 'verifying', 'awaiting_review', 'awaiting_second_review']);
  });

  it('equal the status lists of the migrations’ partial indexes', () => {
    const indexes = statusListIndexes();
    expect(indexes.map((i) => i.name)).toContain('submissions_org_open');
    for (const { name, file, statuses } of indexes) {
      const set = INDEX_SETS[name];
      expect(set, `${file}: index ${name} lists intake statuses; name its lifecycle set in INDEX_SETS`).toBeDefined();
      expect([...statuses].sort(), `${file}: index ${name}`).toEqual([...set!].sort());
    }
  });
});
