// Credential -> proven identity (identity provider) -> actor (mapping in PostgreSQL) -> rule.
import { findActiveActor, type Actor } from '../../lib/identity/actors';
import type { Permission } from '../../lib/identity/permissions';
import { InvalidCredentialError, ProviderUnavailableError, type CredentialKind, type ProvenIdentity } from '../../lib/identity/types';
import type { AppDeps } from '../deps';
import { AppError } from '../http/errors';

export type { Actor };

export interface AuthRule {
  /** Permission the actor's mapping must hold. */
  permission?: Permission;
  /** Credential kinds this operation accepts (default: both). */
  credentials?: readonly CredentialKind[];
  /** Only a mapped human operator with a bearer token. */
  operator?: boolean;
  /** Also let through a mapped human operator (bearer) holding this permission, without `permission`. */
  orOperatorWith?: Permission;
}

/** Is the actor a mapped human operator, proven by a bearer token, holding `permission`? */
export function isOperatorWith(actor: Actor, permission: Permission): boolean {
  return actor.isHumanOperator && actor.credential.kind === 'bearer' && actor.permissions.includes(permission);
}

const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="tattoo-intake", ApiKey header="X-API-Key"' };

function readCredential(headers: { apiKey: string | undefined; authorization: string | undefined }): { kind: CredentialKind; value: string } {
  const { apiKey, authorization } = headers;
  if (apiKey === undefined && authorization === undefined) {
    throw new AppError('unauthenticated', 'A credential is required: X-API-Key or Authorization: Bearer.', { headers: CHALLENGE });
  }
  if (apiKey !== undefined && authorization !== undefined) {
    throw new AppError('invalid_credential', 'Send exactly one credential, not both.', { headers: CHALLENGE });
  }
  if (apiKey !== undefined) return { kind: 'api_key', value: apiKey.trim() };
  const m = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  if (!m) throw new AppError('invalid_credential', 'Authorization must be `Bearer <token>`.', { headers: CHALLENGE });
  return { kind: 'bearer', value: m[1]! };
}

export async function authenticate(deps: AppDeps, headers: { apiKey: string | undefined; authorization: string | undefined }): Promise<Actor> {
  const cred = readCredential(headers);
  let identity: ProvenIdentity;
  try {
    identity = cred.kind === 'api_key' ? await deps.identity.verifyApiKey(cred.value) : await deps.identity.verifyBearer(cred.value);
  } catch (err) {
    if (err instanceof InvalidCredentialError) throw new AppError('invalid_credential', 'The credential is not valid.', { headers: CHALLENGE });
    if (err instanceof ProviderUnavailableError)
      throw new AppError('identity_provider_unavailable', 'The identity provider cannot be reached; try again shortly.', { headers: { 'Retry-After': '5' } });
    throw err;
  }
  const actor = await findActiveActor(deps.sql, identity);
  if (!actor) throw new AppError('actor_not_mapped', 'The credential is valid but has no active actor mapping.');
  // A provider that reports the key's permissions narrows what the mapping grants.
  if (identity.providerPermissions) {
    const granted = new Set(identity.providerPermissions);
    return { ...actor, permissions: actor.permissions.filter((p) => granted.has(p)) };
  }
  return actor;
}

export function enforce(actor: Actor, rule: AuthRule): void {
  if (rule.credentials && !rule.credentials.includes(actor.credential.kind)) {
    throw new AppError(
      rule.operator ? 'operator_required' : 'forbidden',
      `This operation does not accept ${actor.credential.kind === 'api_key' ? 'an API key' : 'a bearer token'}.`,
    );
  }
  if (rule.orOperatorWith && isOperatorWith(actor, rule.orOperatorWith)) return;
  if (rule.operator && (!actor.isHumanOperator || actor.credential.kind !== 'bearer')) {
    throw new AppError('operator_required', 'Only a mapped human operator with a bearer token may do this.');
  }
  if (rule.permission && !actor.permissions.includes(rule.permission)) {
    throw new AppError('permission_denied', `The actor lacks the permission ${rule.permission}.`);
  }
}

/** Who did it, as rows and events record it: the actor and the credential it used. */
export const byActor = (actor: Actor) => ({ actorId: actor.actorId, credentialId: actor.credential.id });
