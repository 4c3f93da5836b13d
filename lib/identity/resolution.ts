// An artist resolution's input and result: what the resolution workflow takes and answers, and
// what its activity works with (workflows/artist-resolution.ts, activities/resolve-artist.ts).
export const identityEvidenceStatuses = ['unmatched', 'phone_matched', 'review_required', 'verified_by_operator'] as const;
export type IdentityEvidenceStatus = (typeof identityEvidenceStatuses)[number];

export interface ArtistResolutionInput {
  tenantId: string;
  idempotencyKey: string;
  fingerprint: string;
  actorId: string;
  sourceMessageId?: string | undefined;
  phoneHash?: string | undefined;
  instagramHandle?: string | undefined;
  marketplaceProfileUrl?: string | undefined;
}

export interface ArtistResolutionResult {
  status: IdentityEvidenceStatus;
  artistCanonicalId: string | null;
  reviewRequired: boolean;
  legalKycVerified: false;
  fingerprint: string;
}
