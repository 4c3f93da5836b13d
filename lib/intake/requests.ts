// What every intake request that names a tenant checks, once: the request's fingerprint (for
// idempotency) and whether the actor may act for that tenant, artist and studio.
import crypto from 'node:crypto';
import type { Actor } from '../identity/actors';

/** sha256 of the canonical validated body (top-level keys sorted). */
export function fingerprintOf(body: Record<string, unknown>): string {
  return crypto.createHash('sha256').update(JSON.stringify(body, Object.keys(body).sort())).digest('hex');
}

/** Why the actor may not act for this target, or undefined when it may. */
export function scopeViolation(
  actor: Pick<Actor, 'organizationId' | 'capabilities' | 'artistScope' | 'studioScope'>,
  target: { tenantId: string; artistCanonicalId?: string | undefined; studioCanonicalId?: string | undefined },
): { code: 'out_of_scope' | 'artist_out_of_scope'; detail: string } | undefined {
  if (target.tenantId !== actor.organizationId && !actor.capabilities.includes('portfolio_intake:stage_cross_tenant'))
    return { code: 'out_of_scope', detail: "tenantId is outside the actor's organization." };
  // an artist the key may not stage for answers the same code whichever rule refused it (docs/partners.md)
  if (target.artistCanonicalId && actor.artistScope.length && !actor.artistScope.includes(target.artistCanonicalId))
    return { code: 'artist_out_of_scope', detail: "artistCanonicalId is outside the key's artist scope." };
  if (target.studioCanonicalId && actor.studioScope.length && !actor.studioScope.includes(target.studioCanonicalId))
    return { code: 'out_of_scope', detail: "studioCanonicalId is outside the actor's studio scope." };
  return undefined;
}
