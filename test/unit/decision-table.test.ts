// The decision table (lib/intake/decisions.ts) and what derives from it agree: the kinds, the
// Update definitions, the lifecycle's triggers and rows, the routes and their bodies, the refusal
// texts and names, the proofs' acts and the console's labels. A kind added to the table without
// the rest (or the other way round) fails here, besides the compiler's checks.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REFUSED } from '../../api/operations/decisions';
import { decisionBodies } from '../../api/routes/intake/schemas';
import { signalRoutes } from '../../api/routes/intake/signals';
import { DecisionCounts, RecentDecision } from '../../lib/console/answers';
import { SIGNED_ACTS } from '../../lib/intake/decision-check';
import { DECIDING, DECISION_KINDS, DECISION_LABELS, DECISION_TABLE, HELD_TRIGGERS, checkDecisionShape, decisionDetails, decisionNote, heldIn, heldOf, type Decision } from '../../lib/intake/decisions';
import { eventTypeOf } from '../../lib/intake/outbox';
import { statusView } from '../../lib/intake/status-view';
import { heldStatuses, HELD_STATES, partnerStatus, partnerStatuses, type IntakeView } from '../../lib/intake/vocabulary';
import { currentDetailsOf } from '../../workflows/intake-details';
import { TRANSITIONS, triggers } from '../../lib/intake/lifecycle';
import { decisionUpdates } from '../../workflows/messages';

const kinds = [...DECISION_KINDS];
const by = { actorId: 'operator:ops-1', credentialId: 'cred_1' };

describe('the decision table', () => {
  it('names each kind once, in the order of DECISION_KINDS', () => {
    expect(Object.keys(DECISION_TABLE)).toEqual(kinds);
    expect(new Set(kinds).size).toBe(kinds.length);
    expect(new Set(DECISION_LABELS).size).toBe(kinds.length);
  });

  it('has one Update per kind, named as the kind', () => {
    expect(Object.keys(decisionUpdates)).toEqual(kinds);
    for (const k of kinds) expect(decisionUpdates[k].name).toBe(k);
  });

  it('gives the lifecycle one trigger and one operator row per kind from each state awaiting a decision, a held row where a kind holds, and no other operator row from there', () => {
    for (const k of kinds) {
      expect(triggers).toContain(k);
      const rows = TRANSITIONS.filter((t) => t.trigger === k);
      expect(rows).toEqual(DECIDING.map((from) => ({ from, trigger: k, source: 'client', to: DECISION_TABLE[k].transition.to, review: DECISION_TABLE[k].transition.review })));
    }
    const held = kinds.flatMap((k) => {
      const h = heldOf(k);
      return h ? [{ from: HELD_STATES[h.to].shownAs, trigger: h.trigger, source: 'client', to: h.to, review: HELD_STATES[h.to].review, of: k }] : [];
    });
    expect(held.map((h) => h.trigger)).toEqual([...HELD_TRIGGERS]);
    for (const h of held) expect(TRANSITIONS.filter((t) => t.trigger === h.trigger)).toEqual([h]);
    for (const from of DECIDING) {
      const rows = TRANSITIONS.filter((t) => t.from === from && t.source === 'client').map((t) => t.trigger);
      expect(rows).toEqual(from === 'awaiting_review' ? [...kinds, ...HELD_TRIGGERS] : kinds);
    }
  });

  it('holds every held state to one decision kind, and derives how it looks from vocabulary.ts HELD_STATES and the held rule', () => {
    expect(heldStatuses.length).toBeGreaterThan(0);
    for (const s of heldStatuses) {
      const holders = kinds.filter((k) => heldOf(k)?.to === s);
      expect(holders).toHaveLength(1);
      expect(heldIn(s)).toBe(heldOf(holders[0]!));
      // A decision is taken there; partners see where the hold began, hear of nothing, and the review still waits.
      expect(DECIDING).toContain(s);
      expect(partnerStatus(s)).toBe(HELD_STATES[s].shownAs);
      expect(partnerStatuses).not.toContain(s);
      expect(eventTypeOf(s)).toBeUndefined();
      const row: IntakeView = { submissionId: 'sub_1', artistCanonicalId: 'a', intakeStatus: s, reviewStatus: HELD_STATES[s].review, mediaStoreDocumentId: null, failureCode: null, rejectReasonCode: null };
      expect(statusView(row)).toMatchObject({ intakeStatus: HELD_STATES[s].shownAs, reviewStatus: HELD_STATES[s].review, governance: { reviewRequired: true } });
      const at = new Date('2026-01-02T03:04:05.000Z');
      expect(currentDetailsOf({ intakeStatus: s, failureCode: null, rejectReasonCode: null, mediaStoreDocumentId: null }, at, at)).toBe(`${heldIn(s).doing} since ${at.toISOString()}`);
    }
    // The state a hold begins in is itself seen by partners and has its event.
    for (const s of heldStatuses) expect(eventTypeOf(HELD_STATES[s].shownAs)).toBeDefined();
  });

  it('has one route per kind (POST …/{submissionId}/<kind>, the table’s operation id), with a body, a refusal text and a signed act', () => {
    const routes = signalRoutes().flatMap((r) => (r.kind === 'operation' && r.tag === 'review' ? [r] : []));
    expect(routes.map((r) => r.path.split('/').pop())).toEqual(kinds);
    for (const k of kinds) {
      const r = routes.find((x) => x.path.endsWith(`/{submissionId}/${k}`))!;
      expect(r).toMatchObject({ method: 'post', operationId: DECISION_TABLE[k].route.operationId, summary: DECISION_TABLE[k].route.summary });
      expect(r.body).toBe(decisionBodies[k]);
      expect(REFUSED[k]('staged')).toBe(DECISION_TABLE[k].refused('staged'));
      expect(SIGNED_ACTS).toContain(k);
    }
    expect(Object.keys(decisionBodies)).toEqual(kinds);
  });

  it('labels each kind for the console (recent decisions, counts)', () => {
    expect(RecentDecision.shape.decision.options).toEqual(DECISION_LABELS);
    expect(Object.keys(DecisionCounts.shape)).toEqual(DECISION_LABELS);
    expect(DECISION_LABELS).toEqual(kinds.map((k) => DECISION_TABLE[k].label));
  });

  it('is taken by the database: the CHECK constraints of decision_refusals and decision_matches (their last Up migration) list every kind', () => {
    const dir = path.join(__dirname, '../../migrations');
    const ups = fs.readdirSync(dir).filter((f) => f.endsWith('.sql')).sort().map((f) => fs.readFileSync(path.join(dir, f), 'utf8').split('-- Down Migration')[0]!);
    const lastCheck = (table: string) => {
      const found = ups.flatMap((sql) =>
        [...sql.matchAll(new RegExp(`(?:ALTER|CREATE) TABLE ${table}\\b[^;]*?CHECK \\(decision IN \\(([^)]*)\\)\\)`, 'g'))].map((m) => m[1]!.split(',').map((v) => v.trim().replace(/'/g, ''))),
      );
      return found.at(-1);
    };
    // A new kind needs a migration that widens both (a kind the database refuses cannot be recorded).
    expect(lastCheck('decision_matches')).toEqual(kinds);
    expect(lastCheck('decision_refusals')).toEqual([...kinds, 'upload_complete']);
  });

  it('keeps the payloads, details and notes of the two first kinds as they were', () => {
    const approve = { requestId: 'r1', by, reviewNotes: 'fine', seenMatches: ['m1'] };
    const reject = { requestId: 'r2', by, reasonCode: 'duplicate', reviewNotes: 'seen before' } as const;
    expect(checkDecisionShape('approve', approve)).toEqual({ ok: true, value: approve });
    expect(checkDecisionShape('reject', reject)).toEqual({ ok: true, value: reject });
    const a: Decision = { kind: 'approve', signal: approve };
    const r: Decision = { kind: 'reject', signal: reject };
    expect(decisionDetails(a)).toEqual({ reviewNotes: 'fine', seenMatches: ['m1'] });
    expect(decisionDetails(r)).toEqual({ reviewNotes: 'seen before', reasonCode: 'duplicate' });
    expect(decisionNote(a)).toBe('fine');
    expect(decisionNote(r)).toBe('duplicate: seen before');
    // A reject without notes (older payloads) hashes and notes as before: empty notes.
    expect(decisionDetails({ kind: 'reject', signal: { requestId: 'r3', by, reasonCode: 'other' } })).toEqual({ reviewNotes: '', reasonCode: 'other' });
  });
});
