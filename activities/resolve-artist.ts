import type { Sql } from '../lib/db';
import type { ArtistResolutionInput, ArtistResolutionResult, IdentityEvidenceStatus } from '../lib/identity/resolution';

export function normalizeHandle(h: string): string {
  return h.trim().replace(/^@/, '').toLowerCase();
}
export function normalizeProfileUrl(u: string): string {
  const url = new URL(u);
  return `${url.host.toLowerCase()}${url.pathname.replace(/\/+$/, '').toLowerCase()}`;
}

/**
 * Evidence in order: an existing mapping (by source message), the normalized phone hash, the
 * Instagram handle, the marketplace profile URL. The first hit decides; the result is stored once.
 */
export function resolveArtist(deps: { sql: Sql }) {
  return async (i: ArtistResolutionInput): Promise<ArtistResolutionResult> => {
    const { sql } = deps;
    const [stored] = await sql<{ status: IdentityEvidenceStatus; artistCanonicalId: string | null; reviewRequired: boolean; fingerprint: string }[]>`
      select status, artist_canonical_id, review_required, fingerprint from artist_resolutions
      where tenant_id = ${i.tenantId} and idempotency_key = ${i.idempotencyKey}`;
    if (stored) return { ...stored, legalKycVerified: false };

    const probes: { kind: string; value: string | undefined; status: IdentityEvidenceStatus }[] = [
      { kind: 'mapping', value: i.sourceMessageId, status: 'review_required' },
      { kind: 'phone_hash', value: i.phoneHash, status: 'phone_matched' },
      { kind: 'instagram_handle', value: i.instagramHandle && normalizeHandle(i.instagramHandle), status: 'review_required' },
      { kind: 'marketplace_profile_url', value: i.marketplaceProfileUrl && normalizeProfileUrl(i.marketplaceProfileUrl), status: 'review_required' },
    ];
    // The normalized evidence the request carried, kept so an operator can link it later (lib/identity/evidence-review.ts).
    const evidenceValues = Object.fromEntries(probes.filter((p) => p.value).map((p) => [p.kind, p.value!]));
    let result: Omit<ArtistResolutionResult, 'fingerprint' | 'legalKycVerified'> = { status: 'unmatched', artistCanonicalId: null, reviewRequired: true };
    let evidence: string | null = null;
    for (const p of probes) {
      if (!p.value) continue;
      const [hit] = await sql<{ artistCanonicalId: string; verifiedByOperator: boolean }[]>`
        select artist_canonical_id, verified_by_operator from artist_identity_evidence
        where tenant_id = ${i.tenantId} and kind = ${p.kind} and value = ${p.value}`;
      if (!hit) continue;
      evidence = p.kind;
      result = hit.verifiedByOperator
        ? { status: 'verified_by_operator', artistCanonicalId: hit.artistCanonicalId, reviewRequired: false }
        : { status: p.status, artistCanonicalId: hit.artistCanonicalId, reviewRequired: true };
      break;
    }
    await sql`
      insert into artist_resolutions (tenant_id, idempotency_key, actor_id, fingerprint, status, artist_canonical_id, review_required, evidence, evidence_values)
      values (${i.tenantId}, ${i.idempotencyKey}, ${i.actorId}, ${i.fingerprint}, ${result.status}, ${result.artistCanonicalId}, ${result.reviewRequired}, ${evidence},
        ${sql.json(evidenceValues)})
      on conflict do nothing`;
    return { ...result, fingerprint: i.fingerprint, legalKycVerified: false };
  };
}
