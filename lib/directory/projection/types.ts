// What the projection and the takedown take, answer and refuse.
import type { Sql } from '../../db';
import type { ObjectStore } from '../../storage/types';

export type ProjectionRefusal =
  | 'document_not_found'
  | 'operator_not_found'
  | 'operator_required'
  | 'permission_missing'
  | 'rights_posture_not_publishable'
  | 'consent_posture_not_publishable'
  | 'draft_missing'
  | 'draft_changed'
  | 'draft_not_renderable'
  | 'asset_taken_down'
  | 'asset_not_found'
  | 'reason_required'
  | 'artist_profile_missing'
  | 'artist_profile_conflict'
  | 'posture_not_review_required';

export class ProjectionRefusedError extends Error {
  constructor(
    readonly reason: ProjectionRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'ProjectionRefusedError';
  }
}

export interface ProjectionDeps {
  sql: Sql;
  store: ObjectStore;
  /** The decoder's pixel limit (MAX_IMAGE_PIXELS); the draft passed it at verification. */
  maxImagePixels: number;
}

export interface ProjectionInput {
  documentId: string;
  operatorActorId: string;
  /** The credential the operator was verified with (`<issuer>#<subject>`), for the audit row. */
  credentialId?: string | undefined;
  /**
   * The runtime artist profile (artists.id) to publish under when the draft's canonical artist
   * has none yet; the first real publish records the link (artist_runtime_profiles).
   */
  artistId?: string | undefined;
}

export interface ProjectionResult {
  status: 'projected' | 'already_projected';
  assetId: string;
  documentId: string;
}

export interface TakedownInput {
  assetId: string;
  operatorActorId: string;
  credentialId?: string | undefined;
  /** Why it comes down (3..2000 characters): kept on the asset and in the audit row. */
  reason: string;
}

export interface TakedownResult {
  status: 'unpublished' | 'already_unpublished';
  assetId: string;
  /** Rendition objects deleted from storage. */
  deletedRenditions: number;
}

export const assetIdOf = (documentId: string) => `pfa_${documentId}`;

export interface DraftRow {
  documentId: string;
  submissionId: string;
  tenantId: string;
  objectKey: string;
  mimeType: string;
  sha256: string;
  artistCanonicalId: string;
  studioCanonicalId: string | null;
  title: string | null;
  description: string | null;
  tags: string[];
  styleIds: string[];
  placement: string | null;
  rightsPosture: string;
  consentPosture: string;
  createdAt: Date;
}
