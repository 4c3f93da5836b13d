// The shape checks every intake Update passes before the workflow records it (lib/intake/signal-shapes.ts;
// a decision's: its payload schema in lib/intake/decisions.ts).
import { describe, expect, it } from 'vitest';
import { checkDecisionShape, checkUploadComplete } from '../../lib/intake/decisions';
import { problemsLine, SIGNAL_LIMITS } from '../../lib/intake/signal-shapes';

const checkApprove = (p: unknown) => checkDecisionShape('approve', p);
const checkReject = (p: unknown) => checkDecisionShape('reject', p);

const by = { actorId: 'operator:ops-1', credentialId: 'cred_1' };
const proof = { protected: 'eyJh', payload: 'eyJz', signature: 'c2ln' };

describe('signal shapes', () => {
  it('accepts the payloads the API sends', () => {
    expect(checkUploadComplete({ requestId: 'r1', by }).ok).toBe(true);
    expect(checkApprove({ requestId: 'r1', by, reviewNotes: 'fine', proof }).ok).toBe(true);
    expect(checkApprove({ requestId: 'r1', by, reviewNotes: 'fine', proof, seenMatches: ['sub_1'] }).ok).toBe(true);
    // A decision without a proof is well-formed: the worker refuses it as proof_missing.
    expect(checkApprove({ requestId: 'r1', by, reviewNotes: 'fine' }).ok).toBe(true);
    expect(checkReject({ requestId: 'r1', by, reasonCode: 'duplicate', reviewNotes: 'seen before', proof }).ok).toBe(true);
    // Reject signals from before the lifecycle owner carried `notes`.
    expect(checkReject({ requestId: 'r1', by, reasonCode: 'other', notes: 'old name' }).ok).toBe(true);
  });

  it('refuses the shapes that wedged a submission, naming what is wrong and keeping what can be read', () => {
    const wedge = checkApprove({ requestId: 'x', by: null, reviewNotes: null, proof: { protected: 1, payload: [], signature: {} } });
    expect(wedge.ok).toBe(false);
    if (wedge.ok) return;
    expect(wedge.requestId).toBe('x');
    expect(wedge.by).toEqual({});
    expect(wedge.problems).toEqual([
      'by: expected an object with actorId and credentialId',
      `reviewNotes: expected a string of at most ${SIGNAL_LIMITS.notes} characters`,
      `proof.protected: expected a non-empty string of at most ${SIGNAL_LIMITS.proofPart} characters`,
      `proof.payload: expected a non-empty string of at most ${SIGNAL_LIMITS.proofPart} characters`,
      `proof.signature: expected a non-empty string of at most ${SIGNAL_LIMITS.proofPart} characters`,
    ]);
    const noCredential = checkReject({ requestId: 'y', by: { actorId: 'operator:ops-1' }, reasonCode: 'duplicate', reviewNotes: 'x', proof });
    expect(noCredential).toMatchObject({ ok: false, requestId: 'y', by: { actorId: 'operator:ops-1' } });
    if (!noCredential.ok) expect(noCredential.problems).toEqual([`by.credentialId: expected a string of 1-${SIGNAL_LIMITS.id} characters`]);
  });

  it('refuses every malformed variant of every field', () => {
    const bad: [string, (p: Record<string, unknown>) => boolean][] = [
      ['upload', (p) => checkUploadComplete(p).ok],
      ['approve', (p) => checkApprove({ reviewNotes: 'n', ...p }).ok],
      ['reject', (p) => checkReject({ reasonCode: 'other', ...p }).ok],
    ];
    const variants: Record<string, unknown>[] = [
      { by },
      { requestId: '', by },
      { requestId: 'r'.repeat(SIGNAL_LIMITS.id + 1), by },
      { requestId: 7, by },
      { requestId: 'r', by: 'operator' },
      { requestId: 'r', by: [] },
      { requestId: 'r', by: { actorId: 'a', credentialId: 5 } },
      { requestId: 'r', by: { actorId: '', credentialId: 'c' } },
    ];
    for (const [name, ok] of bad) for (const v of variants) expect(ok(v), `${name} ${JSON.stringify(v)}`).toBe(false);
    for (const p of [null, undefined, 42, 'approve', [], true]) {
      expect(checkUploadComplete(p).ok).toBe(false);
      expect(checkApprove(p).ok).toBe(false);
      expect(checkReject(p).ok).toBe(false);
    }
    expect(checkApprove({ requestId: 'r', by, reviewNotes: 'n'.repeat(SIGNAL_LIMITS.notes + 1) }).ok).toBe(false);
    expect(checkApprove({ requestId: 'r', by, reviewNotes: 'n', proof: null }).ok).toBe(false);
    expect(checkApprove({ requestId: 'r', by, reviewNotes: 'n', proof: { ...proof, signature: 'x'.repeat(SIGNAL_LIMITS.proofPart + 1) } }).ok).toBe(false);
    expect(checkApprove({ requestId: 'r', by, reviewNotes: 'n', seenMatches: 'sub_1' }).ok).toBe(false);
    expect(checkApprove({ requestId: 'r', by, reviewNotes: 'n', seenMatches: Array.from({ length: SIGNAL_LIMITS.seenMatches + 1 }, (_, i) => `s${i}`) }).ok).toBe(false);
    expect(checkReject({ requestId: 'r', by, reasonCode: 'because' }).ok).toBe(false);
    expect(checkReject({ requestId: 'r', by, reasonCode: 'other', reviewNotes: 3 }).ok).toBe(false);
  });

  it('keeps a refusal line bounded', () => {
    expect(problemsLine(['a', 'b'])).toBe('a; b');
    expect(problemsLine(['x'.repeat(50)], 10)).toHaveLength(10);
  });
});
