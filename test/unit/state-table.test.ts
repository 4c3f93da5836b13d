// Issue 56 item 1: each intake status declared once (lib/intake/vocabulary.ts INTAKE_STATES), and
// what follows from it. Every status is a work step, a held state, or declares its partner event
// and its details line; the held, deciding and first-review sets, the events, their OpenAPI
// descriptions and the details lines derive from the table; and no production file compares a
// status by hand where the table should say it (the silent failures a new state met: an approval
// from it skipping the second-operator policy, a console without buttons on it).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/config';
import { DECIDING, isDeciding } from '../../lib/intake/decisions';
import { isWorking, WORK } from '../../lib/intake/lifecycle';
import { EVENT_DESCRIPTIONS, EVENT_TYPES, eventTypeOf } from '../../lib/intake/outbox';
import { detailsLineOf, firstReviewStatuses, HELD_STATES, heldStatuses, INTAKE_STATES, intakeStatuses, isFirstReview, isHeldStatus, partnerStatuses, type IntakeStatus } from '../../lib/intake/vocabulary';
import { currentDetailsOf } from '../../workflows/intake-details';

const facts = { when: '2026-01-01T00:00:00.000Z', uploadDeadline: '2026-01-02T00:00:00.000Z', failureCode: null, rejectReasonCode: null, mediaStoreDocumentId: null };

describe('the state table', () => {
  it('declares every status once, in the order the statuses are listed', () => {
    expect(intakeStatuses).toEqual(Object.keys(INTAKE_STATES));
    expect(new Set(intakeStatuses).size).toBe(intakeStatuses.length);
  });

  it.each(intakeStatuses)('%s is a work step, a held state, or says its partner event and its details line', (s: IntakeStatus) => {
    const kinds = [isWorking(s), isHeldStatus(s), eventTypeOf(s) !== undefined].filter(Boolean);
    expect(kinds).toHaveLength(1);
    if (isWorking(s)) expect(WORK[s].doing.length).toBeGreaterThan(0);
    if (eventTypeOf(s)) {
      expect(detailsLineOf(s, facts)).toMatch(/\S/);
      expect(EVENT_DESCRIPTIONS[eventTypeOf(s)!]).toMatch(/\S/);
    } else expect(detailsLineOf(s, facts)).toBeUndefined();
    // The Web UI's line is never the fallback for a declared state.
    expect(currentDetailsOf({ intakeStatus: s, failureCode: null, rejectReasonCode: null, mediaStoreDocumentId: null }, new Date(facts.when), new Date(facts.uploadDeadline))).not.toBe(`${s} since ${facts.when}`);
  });

  it('derives the deciding, first-review and held sets, and partners see no held state', () => {
    expect(DECIDING).toEqual([...firstReviewStatuses, ...heldStatuses]);
    expect(firstReviewStatuses.length).toBeGreaterThan(0);
    for (const s of intakeStatuses) expect(isDeciding(s)).toBe(isFirstReview(s) || isHeldStatus(s));
    for (const held of heldStatuses) {
      expect(isFirstReview(HELD_STATES[held].shownAs)).toBe(true);
      expect(partnerStatuses).not.toContain(held);
    }
  });

  it('every status event is one of the event types, once, and every event type has a description', () => {
    const fromStates = intakeStatuses.flatMap((s) => (eventTypeOf(s) ? [eventTypeOf(s)!] : []));
    expect(new Set(fromStates).size).toBe(fromStates.length);
    for (const t of fromStates) expect(EVENT_TYPES).toContain(t);
    for (const t of EVENT_TYPES) expect(EVENT_DESCRIPTIONS[t]).toMatch(/\S/);
  });
});

/**
 * Comparisons of a status by hand that stay, each for a reason the table does not carry: the
 * lifecycle's entry and work steps in the workflow's resume paths and the reconciler (their
 * transitions are lifecycle.ts rows), and the promoted state's own meaning. A deciding status
 * compared by hand is never on this list: its checks derive from the table.
 */
const ALLOWED: Record<string, IntakeStatus[]> = {
  'worker/reconciler.ts': ['staged', 'verifying'],
  'workflows/intake-steps.ts': ['staged', 'verifying', 'promoting'],
  'lib/intake/status-view.ts': ['promoted_to_media_store'],
  'api/operations/classifications.ts': ['promoted_to_media_store'],
};

describe('no status compared by hand outside the table', () => {
  const files = execFileSync('git', ['ls-files', '*.ts', '*.tsx'], { cwd: PROJECT_ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && !/^(test|bench|faults|scripts|migrations)\//.test(f) && f !== 'lib/intake/vocabulary.ts' && f !== 'lib/intake/lifecycle.ts');
  const alternatives = intakeStatuses.join('|');
  const compared = new RegExp(`([\\w.?()]+)\\s*[!=]==\\s*'(${alternatives})'|'(${alternatives})'\\s*[!=]==|intake_status\\s*(?:=|<>|!=)\\s*'(${alternatives})'|intake_status\\s+(?:not\\s+)?in\\s*\\(\\s*'`, 'g');
  /** Words other vocabularies share (a promise's `rejected`, a key's or link's `expired`): a status only beside a status's name. */
  const shared = new Set<string>(['expired', 'rejected']);
  const statusLike = /intakeStatus|intake_status|(^|\.)status\(\)$|^status$|(^|\.)(from|to)$/;

  it('production code compares statuses only through the table (deciding states never by hand)', () => {
    const found: string[] = [];
    for (const file of files) {
      const text = fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8');
      for (const m of text.matchAll(compared)) {
        const status = (m[2] ?? m[3] ?? m[4]) as IntakeStatus | undefined;
        if (m[1] && shared.has(m[2]!) && !statusLike.test(m[1])) continue;
        if (status && ALLOWED[file]?.includes(status)) continue;
        found.push(`${file}:${text.slice(0, m.index).split('\n').length}: ${m[0]}`);
      }
    }
    expect(found).toEqual([]);
    for (const statuses of Object.values(ALLOWED)) for (const s of statuses) expect(isDeciding(s), s).toBe(false);
  });
});
