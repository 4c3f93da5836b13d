// Actor mappings: what a proven credential may do. Non-secret metadata only.
import { z } from 'zod';
import type { Sql } from '../db';
import type { TransactionSql } from 'postgres';
import { generateApiKey, storeApiKey } from './api-keys';
import { AGENT_PERMISSIONS, capabilitySchema, NOT_FOR_PARTNER_KEYS, permissionSchema, type Capability, type Permission } from './permissions';
import type { CredentialKind, ProvenIdentity } from './types';

export interface Actor {
  actorId: string;
  role: string;
  permissions: readonly Permission[];
  organizationId: string;
  studioScope: readonly string[];
  artistScope: readonly string[];
  capabilities: readonly Capability[];
  isHumanOperator: boolean;
  selfService: boolean;
  credential: { kind: CredentialKind; id: string };
}

export const mappingInputSchema = z.object({
  actorId: z.string().regex(/^[A-Za-z0-9:._-]{3,100}$/),
  credentialKind: z.enum(['api_key', 'bearer']),
  credentialSubject: z.string().min(1).max(200),
  credentialIssuer: z.string().max(500).default(''),
  role: z.string().min(1).max(50),
  permissions: z.array(permissionSchema).default([]),
  organizationId: z.string().min(1).max(200),
  studioScope: z.array(z.string().min(1)).default([]),
  artistScope: z.array(z.string().min(1)).default([]),
  capabilities: z.array(capabilitySchema).default([]),
  isHumanOperator: z.boolean().default(false),
  selfService: z.boolean().default(true),
  active: z.boolean().default(true),
});
export type MappingInput = z.input<typeof mappingInputSchema>;

export class MappingRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MappingRefusedError';
  }
}

/** The rules of the contract's section 5 that a mapping itself must obey. */
export function checkMappingRules(m: z.infer<typeof mappingInputSchema>): void {
  if (m.credentialKind === 'api_key') {
    const forbidden = m.permissions.filter((p) => NOT_FOR_PARTNER_KEYS.includes(p));
    if (forbidden.length) throw new MappingRefusedError(`not available on v1 partner keys: ${forbidden.join(', ')}`);
    if (m.permissions.includes('portfolio_intake:review')) throw new MappingRefusedError('portfolio_intake:review is reserved for mapped human operators (bearer)');
    if (m.isHumanOperator) throw new MappingRefusedError('an API key is never a human operator');
  }
  const agentPermissions = m.permissions.filter((p) => AGENT_PERMISSIONS.includes(p));
  if (agentPermissions.length && m.selfService) {
    throw new MappingRefusedError(`only approved service actors hold ${agentPermissions.join(', ')} (a classifier or an agent: --service), never a self-service key`);
  }
  if (m.capabilities.includes('portfolio_intake:stage_cross_tenant') && m.selfService) {
    throw new MappingRefusedError('portfolio_intake:stage_cross_tenant is only for approved service actors, never self-service keys');
  }
  if (m.permissions.includes('portfolio_intake:review') && !m.isHumanOperator) {
    throw new MappingRefusedError('portfolio_intake:review requires a human operator mapping');
  }
  if (m.permissions.includes('portfolios:publish') && !m.isHumanOperator) {
    throw new MappingRefusedError('portfolios:publish requires a human operator mapping');
  }
}

/** Parses a mapping and applies the rules; throws ZodError or MappingRefusedError, writes nothing. */
export function parseMapping(input: MappingInput): z.infer<typeof mappingInputSchema> {
  const m = mappingInputSchema.parse(input);
  checkMappingRules(m);
  return m;
}

/** The mapping row and its audit line; the caller holds the transaction. */
async function writeMapping(tx: TransactionSql, m: z.infer<typeof mappingInputSchema>): Promise<void> {
  await tx`
    insert into actor_mappings (actor_id, credential_kind, credential_subject, credential_issuer, role, permissions,
      organization_id, studio_scope, artist_scope, capabilities, is_human_operator, self_service, active)
    values (${m.actorId}, ${m.credentialKind}, ${m.credentialSubject}, ${m.credentialIssuer}, ${m.role}, ${m.permissions},
      ${m.organizationId}, ${m.studioScope}, ${m.artistScope}, ${m.capabilities}, ${m.isHumanOperator}, ${m.selfService}, ${m.active})
    on conflict (actor_id) do update set
      credential_kind = excluded.credential_kind, credential_subject = excluded.credential_subject,
      credential_issuer = excluded.credential_issuer, role = excluded.role, permissions = excluded.permissions,
      organization_id = excluded.organization_id, studio_scope = excluded.studio_scope, artist_scope = excluded.artist_scope,
      capabilities = excluded.capabilities, is_human_operator = excluded.is_human_operator,
      self_service = excluded.self_service, active = excluded.active, updated_at = now()`;
  await tx`insert into access_audit (action, subject, detail) values ('mapping_upserted', ${m.actorId},
    ${tx.json({ role: m.role, permissions: m.permissions, capabilities: m.capabilities, active: m.active })})`;
}

export async function upsertMapping(sql: Sql, input: MappingInput): Promise<void> {
  const m = parseMapping(input);
  await sql.begin((tx) => writeMapping(tx, m));
}

/** What a new key's mapping says; the credential fields come from the key itself. */
export type KeyMappingInput = Omit<MappingInput, 'actorId' | 'credentialKind' | 'credentialSubject' | 'credentialIssuer' | 'organizationId'> & {
  /** Default: `partner-<keyId>`. */
  actorId?: string | undefined;
};

/**
 * A new local API key together with its actor mapping: both rows are written in one transaction,
 * or neither. The mapping is parsed and checked against the rules before anything is written, so a
 * refused mapping (MappingRefusedError) leaves no unusable key behind.
 */
export async function createMappedApiKey(
  sql: Sql,
  o: { organizationId: string; label?: string | undefined; mapping: KeyMappingInput },
): Promise<{ keyId: string; key: string; actorId: string }> {
  const k = generateApiKey();
  const m = parseMapping({
    ...o.mapping,
    actorId: o.mapping.actorId ?? `partner-${k.keyId}`,
    credentialKind: 'api_key',
    credentialSubject: k.keyId,
    organizationId: o.organizationId,
  });
  await sql.begin(async (tx) => {
    await storeApiKey(tx, k, { organizationId: o.organizationId, label: o.label ?? '' });
    await writeMapping(tx, m);
  });
  return { keyId: k.keyId, key: k.key, actorId: m.actorId };
}

export async function findActiveActor(sql: Sql, id: ProvenIdentity): Promise<Actor | null> {
  const rows = await sql<
    {
      actorId: string;
      role: string;
      permissions: Permission[];
      organizationId: string;
      studioScope: string[];
      artistScope: string[];
      capabilities: Capability[];
      isHumanOperator: boolean;
      selfService: boolean;
    }[]
  >`
    select actor_id, role, permissions, organization_id, studio_scope, artist_scope, capabilities, is_human_operator, self_service
    from actor_mappings
    where credential_kind = ${id.kind} and credential_issuer = ${id.issuer} and active
      -- a key rotated away from authenticates, while its overlap lasts, as the actor its successor holds
      and credential_subject = ${id.kind === 'api_key' ? sql`api_key_mapping_subject(${id.subject})` : id.subject}`;
  const r = rows[0];
  if (!r) return null;
  return { ...r, credential: { kind: id.kind, id: id.kind === 'api_key' ? id.subject : `${id.issuer}#${id.subject}` } };
}

/**
 * Is `actorId` still an active human operator mapping, for this very credential (bearer: the
 * `<issuer>#<subject>` the API saw), holding `permission`? Asked by the worker before it acts on a
 * signed decision: a proof outlives neither the mapping nor the permission.
 */
export async function isActiveOperator(sql: Sql, o: { actorId: string; credentialId: string; permission: Permission }): Promise<boolean> {
  const [row] = await sql<{ ok: boolean }[]>`
    select true as ok from actor_mappings
    where actor_id = ${o.actorId} and active and is_human_operator and credential_kind = 'bearer'
      and credential_issuer || '#' || credential_subject = ${o.credentialId}
      and ${o.permission} = any(permissions)`;
  return row?.ok === true;
}
