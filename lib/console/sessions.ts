// Console sessions, one-time sign-in codes and review claims: SQL only. Tokens and codes are random
// and only their sha256 is stored, so a database read does not yield a usable cookie or link.
import crypto from 'node:crypto';
import type { Sql, Tx } from '../db';
import type { ProvenIdentity } from '../identity/types';

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
const random = () => crypto.randomBytes(32).toString('base64url');

/** The console's sessions and links, or the partner portal's (one table, told apart). */
export type SessionSurface = 'console' | 'portal';

export interface ConsoleSession {
  identity: ProvenIdentity;
  csrf: string;
  expiresAt: Date;
}

/** A new session for a verified operator credential; returns the cookie value (shown once). */
export async function createSession(sql: Tx, identity: ProvenIdentity, expiresAt: Date, surface: SessionSurface = 'console'): Promise<{ token: string; csrf: string }> {
  const token = random();
  const csrf = random();
  await sql`
    insert into console_sessions (session_hash, credential_kind, credential_subject, credential_issuer, csrf, expires_at, surface)
    values (${sha256(token)}, ${identity.kind}, ${identity.subject}, ${identity.issuer}, ${csrf}, ${expiresAt}, ${surface})`;
  return { token, csrf };
}

export async function findSession(sql: Tx, token: string, surface: SessionSurface = 'console'): Promise<ConsoleSession | undefined> {
  const [s] = await sql<{ credentialKind: 'bearer' | 'api_key'; credentialSubject: string; credentialIssuer: string; csrf: string; expiresAt: Date }[]>`
    select credential_kind, credential_subject, credential_issuer, csrf, expires_at from console_sessions
    where session_hash = ${sha256(token)} and surface = ${surface} and revoked_at is null and expires_at > now()`;
  if (!s) return undefined;
  return { identity: { kind: s.credentialKind, subject: s.credentialSubject, issuer: s.credentialIssuer }, csrf: s.csrf, expiresAt: s.expiresAt };
}

export async function revokeSession(sql: Tx, token: string): Promise<void> {
  await sql`update console_sessions set revoked_at = now() where session_hash = ${sha256(token)}`;
}

/** A one-time sign-in code for a bearer identity: valid `ttlSeconds`, the session it opens lasts until `sessionExpiresAt`. */
/** How long a console session opened from a one-time link lasts (the stack's banner link, `iam console-link`). */
export const CONSOLE_SESSION_HOURS = 12;

export async function createSigninCode(
  sql: Tx,
  o: { subject: string; issuer: string; ttlSeconds: number; sessionExpiresAt: Date; surface?: SessionSurface },
): Promise<string> {
  const code = random();
  await sql`
    insert into console_signin_codes (code_hash, credential_subject, credential_issuer, expires_at, session_expires_at, surface)
    values (${sha256(code)}, ${o.subject}, ${o.issuer}, now() + make_interval(secs => ${o.ttlSeconds}), ${o.sessionExpiresAt}, ${o.surface ?? 'console'})`;
  return code;
}

/** Use a code once: the identity it stands for, or undefined (unknown, used, expired, or another surface's). */
export async function redeemSigninCode(sql: Tx, code: string, surface: SessionSurface = 'console'): Promise<{ identity: ProvenIdentity; sessionExpiresAt: Date } | undefined> {
  const [c] = await sql<{ credentialSubject: string; credentialIssuer: string; sessionExpiresAt: Date }[]>`
    update console_signin_codes set used_at = now()
    where code_hash = ${sha256(code)} and surface = ${surface} and used_at is null and expires_at > now()
    returning credential_subject, credential_issuer, session_expires_at`;
  if (!c) return undefined;
  return { identity: { kind: 'bearer', subject: c.credentialSubject, issuer: c.credentialIssuer }, sessionExpiresAt: c.sessionExpiresAt };
}

// ---------------------------------------------------------------- claims

export interface Claim {
  actorId: string;
  claimedUntil: Date;
}

/**
 * Claim a submission for `seconds` (renewing one's own claim); another operator's live claim wins
 * and is returned instead.
 */
export async function claim(sql: Sql, submissionId: string, actorId: string, seconds: number): Promise<{ mine: boolean; claim: Claim }> {
  const [c] = await sql<Claim[]>`
    insert into review_claims (submission_id, actor_id, claimed_until)
    values (${submissionId}, ${actorId}, now() + make_interval(secs => ${seconds}))
    on conflict (submission_id) do update set actor_id = excluded.actor_id, claimed_at = now(), claimed_until = excluded.claimed_until
      where review_claims.actor_id = excluded.actor_id or review_claims.claimed_until <= now()
    returning actor_id, claimed_until`;
  if (c) return { mine: true, claim: c };
  const [other] = await sql<Claim[]>`select actor_id, claimed_until from review_claims where submission_id = ${submissionId}`;
  return { mine: other?.actorId === actorId, claim: other! };
}

export async function releaseClaim(sql: Tx, submissionId: string, actorId: string): Promise<void> {
  await sql`delete from review_claims where submission_id = ${submissionId} and actor_id = ${actorId}`;
}

/** Another operator's live claim on the submission, if any. */
export async function claimedByOther(sql: Tx, submissionId: string, actorId: string): Promise<Claim | undefined> {
  const [c] = await sql<Claim[]>`
    select actor_id, claimed_until from review_claims where submission_id = ${submissionId} and actor_id <> ${actorId} and claimed_until > now()`;
  return c;
}
