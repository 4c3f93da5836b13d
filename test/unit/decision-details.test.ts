// The decision proof's details hash covers the suggested labels an operator accepts into the draft:
// a decision sent around the API with other labels than those signed does not match its proof.
import { describe, expect, it } from 'vitest';
import { detailsHash } from '../../lib/intake/decision-proof';
import { checkDecisionShape, decisionDetails } from '../../lib/intake/decisions';

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
