// The decision proof's details hash covers the suggested labels an operator accepts into the draft:
// a decision sent around the API with other labels than those signed does not match its proof.
import { describe, expect, it } from 'vitest';
import { detailsHash } from '../../lib/intake/decision-proof';
import { checkDecisionShape, decisionDetails, DECISION_KINDS, DECISION_TABLE, type Decision, type DecisionKind } from '../../lib/intake/decisions';

const checkApprove = (p: unknown) => checkDecisionShape('approve', p);

const accepted = { classificationId: 'cls_1', styleIds: ['blackwork'], placement: 'forearm', tags: ['floral'] };

describe('accepted suggestions in the decision', () => {
  it('the hash without them is the hash it always was; with them it changes with every label', () => {
    const base = { reviewNotes: 'ok' };
    expect(detailsHash({ ...base, accepted: undefined })).toBe(detailsHash(base));
    const h = detailsHash({ ...base, accepted });
    expect(h).not.toBe(detailsHash(base));
    for (const other of [{ ...accepted, classificationId: 'cls_2' }, { ...accepted, styleIds: ['realism'] }, { ...accepted, placement: undefined }, { ...accepted, tags: [] }])
      expect(detailsHash({ ...base, accepted: other })).not.toBe(h);
  });

  it('the approve payload carries them through its shape check into the details', () => {
    const payload = { requestId: 'r1', by: { actorId: 'op', credentialId: 'c' }, reviewNotes: 'ok', accepted };
    const checked = checkApprove(payload);
    expect(checked.ok).toBe(true);
    expect(decisionDetails({ kind: 'approve', signal: payload }).accepted).toEqual(accepted);
    expect(checkApprove({ ...payload, accepted: { ...accepted, approve: true } }).ok).toBe(false);
    expect(checkApprove({ ...payload, accepted: { ...accepted, styleIds: Array(11).fill('x') } }).ok).toBe(false);
  });
});

/**
 * Issue 56 item 2: nothing a decision carries is left unsigned. Every field of each decision's
 * Update payload (beside the request id, the actor and the proof itself) changes the details hash
 * its proof covers; a field added to a payload schema fails here until it is given a second value
 * below, and then fails again unless decisions.ts `details` and decision-proof.ts `detailsHash` take it.
 */
const by = { actorId: 'op', credentialId: 'c' };
const SAMPLES: { [K in DecisionKind]: { payload: Record<string, unknown>; other: Record<string, unknown> } } = {
  approve: {
    payload: { requestId: 'r1', by, reviewNotes: 'ok', seenMatches: ['sub_a'], accepted, secondReview: ['similar_images'] },
    other: { reviewNotes: 'ok too', seenMatches: ['sub_b'], accepted: { ...accepted, tags: [] }, secondReview: ['content_flag'] },
  },
  reject: {
    payload: { requestId: 'r1', by, reasonCode: 'duplicate', reviewNotes: 'seen before' },
    other: { reasonCode: 'other', reviewNotes: 'seen elsewhere' },
  },
};

describe('every field of a decision is signed', () => {
  it.each(DECISION_KINDS)('%s: each payload field changes the hash its proof covers', (kind) => {
    const shape = (DECISION_TABLE[kind].payload as unknown as { shape: Record<string, unknown> }).shape;
    const fields = Object.keys(shape).filter((k) => !['requestId', 'by', 'proof'].includes(k));
    const { payload, other } = SAMPLES[kind];
    expect(Object.keys(other).sort(), `${kind}: give each payload field a second value`).toEqual(fields.sort());
    expect(checkDecisionShape(kind, payload).ok).toBe(true);
    const hash = (p: Record<string, unknown>) => detailsHash(decisionDetails({ kind, signal: p } as Decision));
    for (const field of fields) {
      const changed = { ...payload, [field]: other[field] };
      expect(checkDecisionShape(kind, changed).ok, `${kind}.${field}`).toBe(true);
      expect(hash(changed), `${kind}.${field} is not covered by the proof`).not.toBe(hash(payload));
    }
  });
});
