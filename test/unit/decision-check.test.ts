// The Update validator's decision check (lib/intake/decision-check.ts), against proofs the API's
// real signer makes: shape, proof, claims, age and signature, in plain synchronous code.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { base64urlBytes, checkDecision, proofProblem, sha256Hex } from '../../lib/intake/decision-check';
import { createDecisionSigner, type DecisionSigner } from '../../lib/intake/decision-proof';

let signer: DecisionSigner;
let other: DecisionSigner;
beforeAll(async () => {
  const dir = (name: string) => fs.mkdtempSync(path.join(os.tmpdir(), name));
  signer = await createDecisionSigner({ DATA_DIR: dir('dk-a-') });
  other = await createDecisionSigner({ DATA_DIR: dir('dk-b-') });
});

const by = { actorId: 'operator:ana', credentialId: 'cred-1' };
async function decision(over: { submissionId?: string; decision?: 'approve' | 'reject'; signWith?: DecisionSigner } = {}) {
  const proof = await (over.signWith ?? signer).sign({
    submissionId: over.submissionId ?? 'sub_1', decision: over.decision ?? 'approve', actorId: by.actorId, credentialId: by.credentialId,
    sha256: 'a'.repeat(64), requestId: 'req-1', detailsHash: 'd',
  });
  return { requestId: 'req-1', by, reviewNotes: 'fine', proof };
}
const ctx = (keys = signer.decisionKeys, nowMs = Date.now()) => ({ submissionId: 'sub_1', nowMs, keys });

describe('checkDecision', () => {
  it('takes a decision the API signed for this submission, operator and request', async () => {
    expect(checkDecision('approve', await decision(), ctx())).toMatchObject({ ok: true });
  });

  it('refuses a malformed payload, a missing proof, and a foreign or tampered one, each with its reason', async () => {
    const good = await decision();
    const reasonOf = (kind: 'approve' | 'reject', p: unknown, c = ctx()) => {
      const r = checkDecision(kind, p, c);
      return r.ok ? 'ok' : r.reason;
    };
    expect(reasonOf('approve', 'approve')).toBe('signal_malformed');
    expect(reasonOf('approve', { ...good, reviewNotes: 'x'.repeat(5000) })).toBe('signal_malformed');
    expect(reasonOf('approve', { ...good, proof: undefined })).toBe('proof_missing');
    expect(reasonOf('approve', { ...good, proof: { ...good.proof, payload: 'not-json' } })).toBe('proof_invalid');
    expect(reasonOf('approve', await decision({ submissionId: 'sub_2' }))).toBe('proof_mismatch');
    expect(reasonOf('reject', { ...(await decision()), reasonCode: 'duplicate' })).toBe('proof_mismatch');
    expect(reasonOf('approve', { ...good, requestId: 'req-2' })).toBe('proof_mismatch');
    expect(reasonOf('approve', { ...good, by: { ...by, actorId: 'operator:eve' } })).toBe('proof_mismatch');
    // A flipped signature byte, and a proof from another key that claims this key's id.
    const sig = base64urlBytes(good.proof.signature)!;
    sig[0] = sig[0]! ^ 1;
    expect(reasonOf('approve', { ...good, proof: { ...good.proof, signature: Buffer.from(sig).toString('base64url') } })).toBe('proof_invalid');
    const foreign = await decision({ signWith: other });
    const header = JSON.parse(Buffer.from(foreign.proof.protected, 'base64url').toString());
    const relabelled = Buffer.from(JSON.stringify({ ...header, kid: signer.kid })).toString('base64url');
    expect(reasonOf('approve', { ...foreign, proof: { ...foreign.proof, protected: relabelled } })).toBe('proof_invalid');
    // Older than a decision may wait.
    expect(reasonOf('approve', good, ctx(signer.decisionKeys, Date.now() + 25 * 3600 * 1000))).toBe('proof_expired');
  });

  it('leaves a proof of a key the run does not know to the activity (the API key rotated after the run started)', async () => {
    expect(checkDecision('approve', await decision({ signWith: other }), ctx())).toMatchObject({ ok: true });
    expect(checkDecision('approve', await decision({ signWith: other }), ctx(other.decisionKeys))).toMatchObject({ ok: true });
  });

  it('a classification\u2019s proof is no decision and a decision\u2019s is no classification; a classification\u2019s proof holds only for its body', async () => {
    const signed = (decision: 'approve' | 'classify', detailsHash: string) =>
      signer.sign({ submissionId: 'sub_1', decision, actorId: by.actorId, credentialId: by.credentialId, sha256: 'a'.repeat(64), requestId: 'req-1', detailsHash });
    const classified = await signed('classify', 'body-hash');
    const approveCheck = checkDecision('approve', { requestId: 'req-1', by, reviewNotes: 'fine', proof: classified }, ctx());
    expect(approveCheck).toMatchObject({ ok: false, reason: 'proof_mismatch' });
    const classify = (proof: typeof classified, detailsHash: string) => proofProblem('classify', { requestId: 'req-1', by, proof, detailsHash }, ctx());
    expect(classify(classified, 'body-hash')).toBeNull();
    expect(classify(classified, 'another-body')).toMatchObject({ reason: 'proof_mismatch', detail: expect.stringContaining('details') });
    expect(classify(await signed('approve', 'body-hash'), 'body-hash')).toMatchObject({ reason: 'proof_mismatch', detail: expect.stringContaining('decision') });
  });

  it('hashes as node:crypto does', () => {
    for (const text of ['', 'abc', 'r\u00e9sum\u00e9 \u{1f600}', 'x'.repeat(1000)]) expect(sha256Hex(text)).toBe(crypto.createHash('sha256').update(text).digest('hex'));
  });

  it('decodes base64url as Buffer does, and refuses what is not base64url', () => {
    for (let n = 0; n < 40; n++) {
      const bytes = crypto.randomBytes(n);
      expect(Buffer.from(base64urlBytes(bytes.toString('base64url'))!)).toEqual(bytes);
    }
    expect(base64urlBytes('a+b/')).toBeNull();
    expect(base64urlBytes('abcde')).toBeNull();
  });
});
