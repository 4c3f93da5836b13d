// The status sets the queries filter on, derived from the transition table; and the database's
// part (issue 56 item 3): since migrations/1700000036000_state-flags.sql the partial indexes read
// the flags the transition writer sets (lifecycle.ts stateFlagsOf), no migration after it lists
// intake statuses in an index, and the audit tables carry no CHECK list of decisions.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DECIDED, DECISIONS, OPEN, PENDING, stateFlagsOf, UNDECIDED } from '../../lib/intake/lifecycle';
import { DECIDING } from '../../lib/intake/decisions';
import { intakeStatuses } from '../../lib/intake/vocabulary';

const MIGRATIONS = path.join(__dirname, '../../migrations');
const FLAGS_MIGRATION = '1700000036000_state-flags.sql';


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

  it('the flags each status is written with are its membership of the sets', () => {
    for (const st of intakeStatuses)
      expect(stateFlagsOf(st), st).toEqual({ isOpen: OPEN.includes(st), isUndecided: UNDECIDED.includes(st), isDeciding: DECIDING.includes(st as never) });
  });

  it('the partial indexes read the flags: no migration since the flags lists intake statuses in an index, and none lists decisions in a CHECK', () => {
    const indexes = statusListIndexes();
    const since = (file: string) => file >= FLAGS_MIGRATION;
    expect(indexes.filter((i) => since(i.file)), 'an index over a status set reads its flag (is_open, is_undecided, is_deciding)').toEqual([]);
    // The last definition of each set's index reads its flag.
    const flagIndexes = flagPredicates();
    expect(flagIndexes).toEqual({ submissions_org_open: 'is_undecided', submissions_open_walk: 'is_open', submissions_review_queue: 'is_deciding' });
    for (const file of readdirSync(MIGRATIONS).filter((f) => f.endsWith('.sql') && since(f) && f !== FLAGS_MIGRATION)) {
      const up = readFileSync(path.join(MIGRATIONS, file), 'utf8').split(/--\s*Down Migration/i)[0]!;
      expect(up, `${file} lists decisions in a CHECK`).not.toMatch(/check\s*\(\s*decision\s+in/i);
    }
  });
});

/** The last `create index NAME ... where is_<flag>` of each name in the up migrations. */
function flagPredicates(): Record<string, string> {
  const found: Record<string, string> = {};
  for (const file of readdirSync(MIGRATIONS).filter((f) => f.endsWith('.sql')).sort()) {
    const up = readFileSync(path.join(MIGRATIONS, file), 'utf8').split(/--\s*Down Migration/i)[0]!;
    for (const m of up.matchAll(/create\s+index\s+(\w+)[^;]*?\bwhere\s+(is_\w+)\s*;/gi)) found[m[1]!] = m[2]!;
  }
  return found;
}
