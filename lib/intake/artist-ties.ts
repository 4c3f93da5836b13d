// Whose artists a partner may stage for. A stage actor stages only for an artist its
// organization is tied to: one in the actor's own artist scope, one an active mapping of its
// organization is scoped to (the artist's owner account belongs to it), or one the organization
// resolved (POST /artist-resolution-requests matched evidence of its own tenant to that artist).
// An approved service actor with portfolio_intake:stage_cross_tenant stages for any artist
// (governed staging, contract 5). Without this, a partner of organization B could stage content
// for organization A's artist, and once approved A's owner would see it as its own.
import type { Tx } from '../db';
import type { Actor } from '../identity/actors';

export async function artistTiedToOrganization(sql: Tx, organizationId: string, artistCanonicalId: string): Promise<boolean> {
  const [row] = await sql<{ tied: boolean }[]>`
    select exists (
      select 1 from artist_resolutions where tenant_id = ${organizationId} and artist_canonical_id = ${artistCanonicalId}
    ) or exists (
      select 1 from actor_mappings where organization_id = ${organizationId} and active and ${artistCanonicalId} = any(artist_scope)
    ) as tied`;
  return row?.tied === true;
}

/** Why the actor may not stage for this artist, or undefined when it may. */
export async function stageArtistViolation(
  sql: Tx,
  actor: Pick<Actor, 'organizationId' | 'capabilities' | 'artistScope'>,
  artistCanonicalId: string,
): Promise<string | undefined> {
  if (actor.capabilities.includes('portfolio_intake:stage_cross_tenant')) return undefined;
  if (actor.artistScope.includes(artistCanonicalId)) return undefined;
  if (await artistTiedToOrganization(sql, actor.organizationId, artistCanonicalId)) return undefined;
  return (
    `artistCanonicalId ${artistCanonicalId} is not an artist of your organization: stage only for artists your organization ` +
    'resolved (POST /artist-resolution-requests) or is scoped to.'
  );
}
