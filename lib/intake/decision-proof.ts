// Decisions that cannot be forged. The API, after it verified a mapped human operator's bearer
// token, signs what that operator decided (submission, decision, actor, credential, the verified
// sha256 of the bytes, a hash of the notes, the time) with an Ed25519 key only the API holds. The
// worker holds the public key: it can verify a proof but never mint one, so a signal sent by hand
// through Temporal (the CLI, the Web UI's "Send Signal") carries no proof the worker accepts.
// Classifications are signed the same way (decision `classify`, the details hash over the body,
// lib/agents/vocabulary.ts classificationHash), for the classifier the API authenticated.
import crypto from 'node:crypto';
import { errors, importPKCS8, importSPKI, jwtVerify, SignJWT, type CryptoKey } from 'jose';
import { loadOrCreateFile } from '../secrets';
import { isSignedAct, type DecisionKeys, type SignedAct } from './decision-check';
import type { DecisionDetails } from './decisions';
import type { DecisionProof } from './vocabulary';

const ALG = 'EdDSA';
const TYP = 'intake-decision+jwt';
const ISSUER = 'urn:tattoo-intake:api';
const AUDIENCE = 'urn:tattoo-intake:intake-worker';
/** Embedded stack only: the generated key under DATA_DIR/secrets (PKCS#8 PEM, mode 0600). */
export const DECISION_KEY_FILE = 'decision-signing-key.pem';
/**
 * How old a proof may be when the worker acts on it. A decision is acted on within seconds; the
 * margin covers a worker outage while the signal waits in Temporal. A refused stale proof is
 * recorded, and the operator decides again.
 */
export const DECISION_PROOF_MAX_AGE_SECONDS = 24 * 3600;

/** What an operator decided (or a classifier classified: `classify`), as the API verified it. */
export interface DecisionClaims {
  submissionId: string;
  decision: SignedAct;
  actorId: string;
  credentialId: string;
  /** The sha256 verification recorded: the decision applies to exactly these bytes. */
  sha256: string;
  /** The signal's request id. */
  requestId: string;
  /** sha256 of the decision's details (notes, reason code): see detailsHash. */
  detailsHash: string;
  issuedAt: Date;
}

export type DecisionRefusal =
  | 'proof_missing'
  | 'proof_invalid'
  | 'proof_expired'
  | 'proof_mismatch'
  | 'operator_not_active'
  // A held decision (a second review) decided again by the operator who decided first.
  | 'same_operator';

export class DecisionProofError extends Error {
  constructor(
    readonly reason: DecisionRefusal,
    detail: string,
  ) {
    super(detail);
    this.name = 'DecisionProofError';
  }
}

/**
 * A decision's details (lib/intake/decisions.ts DecisionSpec.details) are part of what the
 * operator signed off: a proof covers the notes and reason code, and the ids of the similar-image
 * matches the operator was shown (sorted) and the suggestions accepted, when there were any.
 * Without those the hash is what it was before them, so proofs in flight still verify.
 */
export function detailsHash(d: DecisionDetails): string {
  const details: unknown[] = [d.reasonCode ?? null, d.reviewNotes ?? null];
  if (d.seenMatches?.length) details.push([...d.seenMatches].sort());
  // Accepted suggestions: what goes into the draft, in a fixed shape (absent: the hash is as before).
  if (d.accepted) details.push({ accepted: [d.accepted.classificationId, [...d.accepted.styleIds], d.accepted.placement ?? null, [...d.accepted.tags]] });
  // Why a second operator is needed, as the API found it (absent: the hash is as before).
  if (d.secondReview?.length) details.push({ secondReview: [...d.secondReview] });
  return crypto.createHash('sha256').update(JSON.stringify(details)).digest('hex');
}

/** Env values hold PEM with real line breaks or with `\n` escapes (one-line secrets stores). */
const pemOf = (v: string) => v.replace(/\\n/g, '\n').trim();

/** A public key as the workflow's validators take it: the raw 32 bytes, base64url (the JWK's x). */
const rawOf = (publicKey: crypto.KeyObject) => publicKey.export({ format: 'jwk' }).x as string;

const kidOf = (publicKey: crypto.KeyObject) =>
  'dk-' + crypto.createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('hex').slice(0, 16);

function ed25519(key: crypto.KeyObject, what: string): crypto.KeyObject {
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`${what} must be an Ed25519 key (openssl genpkey -algorithm ed25519)`);
  return key;
}

/** The embedded stack's key: created on first use (by the API or the worker, whichever starts first). */
export function loadOrCreateDecisionKeyPem(dataDir: string): string {
  return loadOrCreateFile(dataDir, DECISION_KEY_FILE, () => crypto.generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
}

export interface DecisionSigner {
  readonly kid: string;
  /** The public half, PEM (SPKI): what DECISION_VERIFY_KEY of the workers must hold. */
  readonly publicKeyPem: string;
  /** The same key for the intake workflow's Update validators (kid -> raw public key). */
  readonly decisionKeys: DecisionKeys;
  sign(c: Omit<DecisionClaims, 'issuedAt'>): Promise<DecisionProof>;
}

/** DECISION_SIGNING_KEY (PKCS#8 PEM), else the embedded stack's generated key. */
export async function createDecisionSigner(cfg: { DECISION_SIGNING_KEY?: string | undefined; DATA_DIR: string }): Promise<DecisionSigner> {
  const pem = cfg.DECISION_SIGNING_KEY ? pemOf(cfg.DECISION_SIGNING_KEY) : loadOrCreateDecisionKeyPem(cfg.DATA_DIR);
  const privateKey = ed25519(crypto.createPrivateKey(pem), 'DECISION_SIGNING_KEY');
  const publicKey = crypto.createPublicKey(privateKey);
  const kid = kidOf(publicKey);
  const key = await importPKCS8(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), ALG);
  return {
    kid,
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    decisionKeys: { [kid]: rawOf(publicKey) },
    async sign(c) {
      const jws = await new SignJWT({ sid: c.submissionId, dec: c.decision, cred: c.credentialId, sha256: c.sha256, dtl: c.detailsHash })
        .setProtectedHeader({ alg: ALG, typ: TYP, kid })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setSubject(c.actorId)
        .setJti(c.requestId)
        .setIssuedAt()
        .sign(key);
      const [protectedHeader, payload, signature] = jws.split('.');
      return { protected: protectedHeader!, payload: payload!, signature: signature! };
    },
  };
}

export interface DecisionVerifier {
  readonly kids: readonly string[];
  /** Every key it verifies with, for the intake workflow's Update validators (kid -> raw public key). */
  readonly decisionKeys: DecisionKeys;
  /** The claims of a proof this deployment's API signed; DecisionProofError otherwise. */
  verify(proof: unknown): Promise<DecisionClaims>;
}

const PEM_BLOCK = /-----BEGIN [A-Z ]+-----[\s\S]+?-----END [A-Z ]+-----/g;

/**
 * DECISION_VERIFY_KEY (one or more SPKI PEM blocks: several during a key rotation), else the
 * public half of the embedded stack's generated key (never in production: config requires the env).
 */
export async function createDecisionVerifier(cfg: { DECISION_VERIFY_KEY?: string | undefined; DATA_DIR: string }): Promise<DecisionVerifier> {
  const publicKeys = cfg.DECISION_VERIFY_KEY
    ? (pemOf(cfg.DECISION_VERIFY_KEY).match(PEM_BLOCK) ?? []).map((p) => ed25519(crypto.createPublicKey(p), 'DECISION_VERIFY_KEY'))
    : [crypto.createPublicKey(ed25519(crypto.createPrivateKey(loadOrCreateDecisionKeyPem(cfg.DATA_DIR)), 'the decision key'))];
  if (!publicKeys.length) throw new Error('DECISION_VERIFY_KEY holds no PEM public key');
  const keys = new Map<string, CryptoKey>();
  for (const k of publicKeys) keys.set(kidOf(k), await importSPKI(k.export({ type: 'spki', format: 'pem' }).toString(), ALG));
  return {
    kids: [...keys.keys()],
    decisionKeys: Object.fromEntries(publicKeys.map((k) => [kidOf(k), rawOf(k)])),
    async verify(proof) {
      if (proof === undefined || proof === null) throw new DecisionProofError('proof_missing', 'the decision carries no proof');
      const p = proof as Partial<DecisionProof>;
      if (typeof p !== 'object' || typeof p.protected !== 'string' || typeof p.payload !== 'string' || typeof p.signature !== 'string')
        throw new DecisionProofError('proof_invalid', 'the proof is not a signed decision');
      const jws = `${p.protected}.${p.payload}.${p.signature}`;
      let payload: Record<string, unknown>;
      try {
        const r = await jwtVerify(
          jws,
          (header) => {
            const key = header.kid ? keys.get(header.kid) : undefined;
            if (!key) throw new DecisionProofError('proof_invalid', 'the proof was signed by an unknown key');
            return key;
          },
          { algorithms: [ALG], typ: TYP, issuer: ISSUER, audience: AUDIENCE, maxTokenAge: DECISION_PROOF_MAX_AGE_SECONDS, clockTolerance: 30, requiredClaims: ['sub', 'jti', 'iat'] },
        );
        payload = r.payload;
      } catch (err) {
        if (err instanceof DecisionProofError) throw err;
        if (err instanceof errors.JWTExpired || (err instanceof errors.JWTClaimValidationFailed && err.claim === 'iat'))
          throw new DecisionProofError('proof_expired', 'the proof is older than a decision may wait');
        throw new DecisionProofError('proof_invalid', 'the proof does not verify');
      }
      const str = (k: string) => (typeof payload[k] === 'string' ? (payload[k] as string) : '');
      const decision = str('dec');
      if (!isSignedAct(decision)) throw new DecisionProofError('proof_invalid', 'the proof names no decision');
      return {
        submissionId: str('sid'),
        decision,
        actorId: str('sub'),
        credentialId: str('cred'),
        sha256: str('sha256'),
        requestId: str('jti'),
        detailsHash: str('dtl'),
        issuedAt: new Date(Number(payload.iat) * 1000),
      };
    },
  };
}
