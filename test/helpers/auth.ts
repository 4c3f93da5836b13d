// Real credentials for tests: API keys created in PostgreSQL, bearer tokens signed by the local
// provider's key and verified by the API through its HTTP JWKS.
import { createApiKey } from '../../lib/identity/api-keys';
import { upsertMapping } from '../../lib/identity/actors';
import { LOCAL_ISSUER } from '../../lib/identity';
import { issueLocalToken } from '../../lib/identity/local-keys';
import { AGENT_PERMISSIONS, type Capability, type Permission } from '../../lib/identity/permissions';
import { uid, type TestStack } from './stack';


const agentLane = (permissions: readonly Permission[] = []) => permissions.some((p) => AGENT_PERMISSIONS.includes(p));

export interface ActorOptions {
  permissions?: Permission[];
  studioScope?: string[];
  artistScope?: string[];
  organizationId?: string;
  capabilities?: Capability[];
  selfService?: boolean;
  operator?: boolean;
  /** false: a valid credential with no mapping at all. */
  mapped?: boolean;
  active?: boolean;
  role?: string;
  /**
   * Artists the actor's organization is tied to, so it may stage for them (lib/intake/artist-ties.ts):
   * recorded as resolutions of the organization. Default for stage actors: the test artist
   * `artist-ink-001` (test/helpers/intake.ts submissionBody); [] for none.
   */
  stagesFor?: string[];
}

/** The default artist of test submissions (test/helpers/intake.ts). */
export const TEST_ARTIST = 'artist-ink-001';

/** Tie an artist to an organization as a resolution of its own would (the stage check accepts it). */
export async function tieArtist(stack: Pick<TestStack, 'sql'>, organizationId: string, artistCanonicalId: string, actorId = 'test-fixture'): Promise<void> {
  await stack.sql`
    insert into artist_resolutions (tenant_id, idempotency_key, actor_id, fingerprint, status, artist_canonical_id, review_required, evidence)
    values (${organizationId}, ${`test-tie-${artistCanonicalId}`}, ${actorId}, 'test-fixture', 'phone_matched', ${artistCanonicalId}, true, 'phone_hash')
    on conflict do nothing`;
}

async function tieStageArtists(stack: Pick<TestStack, 'sql'>, organizationId: string, actorId: string, o: ActorOptions): Promise<void> {
  if (!(o.permissions ?? []).includes('portfolio_intake:stage') || (o.mapped ?? true) === false) return;
  for (const artist of o.stagesFor ?? [TEST_ARTIST]) await tieArtist(stack, organizationId, artist, actorId);
}

export interface TestCredential {
  actorId: string;
  organizationId?: string;
  headers: Record<string, string>;
  keyId?: string;
  key?: string;
  token?: string;
  subject?: string;
}

export async function apiKeyActor(stack: Pick<TestStack, 'sql'>, o: ActorOptions = {}): Promise<TestCredential> {
  const organizationId = o.organizationId ?? uid('org-');
  const { keyId, key } = await createApiKey(stack.sql, { organizationId, label: 'test' });
  const actorId = uid('partner-');
  if (o.mapped ?? true) {
    await upsertMapping(stack.sql, {
      actorId,
      credentialKind: 'api_key',
      credentialSubject: keyId,
      role: o.role ?? 'partner',
      permissions: o.permissions ?? [],
      organizationId,
      studioScope: o.studioScope ?? [],
      artistScope: o.artistScope ?? [],
      capabilities: o.capabilities ?? [],
      // A key holding the agent lane's permissions is an approved service actor (iam create-key --service).
      selfService: o.selfService ?? !agentLane(o.permissions),
      active: o.active ?? true,
    });
    await tieStageArtists(stack, organizationId, actorId, o);
  }
  return { actorId, organizationId, keyId, key, headers: { 'x-api-key': key } };
}

export async function bearerActor(stack: TestStack, o: ActorOptions = {}): Promise<TestCredential> {
  const subject = uid('user-');
  const actorId = uid(o.operator ? 'operator-' : 'member-');
  const organizationId = o.organizationId ?? uid('org-');
  if (o.mapped ?? true) {
    await upsertMapping(stack.sql, {
      actorId,
      credentialKind: 'bearer',
      credentialSubject: subject,
      credentialIssuer: LOCAL_ISSUER,
      role: o.role ?? (o.operator ? 'operator' : 'team_member'),
      permissions: o.permissions ?? [],
      organizationId,
      studioScope: o.studioScope ?? [],
      artistScope: o.artistScope ?? [],
      capabilities: o.capabilities ?? [],
      isHumanOperator: o.operator ?? false,
      selfService: o.selfService ?? (!o.operator && !agentLane(o.permissions)),
      active: o.active ?? true,
    });
    await tieStageArtists(stack, organizationId, actorId, o);
  }
  const key = stack.api.deps.localSigningKey;
  if (!key) throw new Error('bearerActor needs the local identity provider');
  const token = await issueLocalToken(key, { subject, issuer: LOCAL_ISSUER });
  return { actorId, organizationId, subject, token, headers: { authorization: `Bearer ${token}` } };
}
