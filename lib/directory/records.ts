// Provenance and trust blocks (contract 2.6) and the visibility rules every read shares.
import type { Sql } from '../db';
import { PUBLISHABLE_CONSENT, PUBLISHABLE_RIGHTS } from './postures-vocabulary';

/** Columns every runtime table carries for the provenance and trust blocks. */
export const PROVENANCE_COLUMNS = [
  'record_state',
  'source_type',
  'origin_authority',
  'source_url',
  'source_collected_at',
  'license_status',
  'consent_level',
  'source_notes',
  'verification_status',
  'approval_status',
  'visibility',
  'cultural_sensitivity_level',
  'trust_notes',
] as const;

export interface ProvenanceRow {
  recordState: 'raw' | 'normalized' | 'curated' | 'verified' | 'deprecated';
  sourceType: string;
  originAuthority: string;
  sourceUrl: string | null;
  sourceCollectedAt: Date | null;
  licenseStatus: string;
  consentLevel: string;
  sourceNotes: string[];
  verificationStatus: string;
  approvalStatus: string;
  visibility: 'public' | 'private' | 'owner_only';
  culturalSensitivityLevel: string;
  trustNotes: string[];
}

/** `alias.record_state, alias.source_type, ...` for a select list; alias is a constant from our code. */
export function provenanceColumns(sql: Sql, alias: string) {
  if (!/^[a-z]{1,3}$/.test(alias)) throw new Error('alias must be a short constant');
  return sql.unsafe(PROVENANCE_COLUMNS.map((c) => `${alias}.${c}`).join(', '));
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function provenanceOf(r: ProvenanceRow) {
  return {
    recordState: r.recordState,
    sourceType: r.sourceType,
    originAuthority: r.originAuthority,
    sourceUrl: r.sourceUrl,
    sourceCollectedAt: iso(r.sourceCollectedAt),
    licenseStatus: r.licenseStatus,
    consentLevel: r.consentLevel,
    sourceNotes: r.sourceNotes,
  };
}

export function trustOf(r: ProvenanceRow) {
  return {
    verificationStatus: r.verificationStatus,
    approvalStatus: r.approvalStatus,
    visibility: r.visibility,
    culturalSensitivityLevel: r.culturalSensitivityLevel,
    trustNotes: r.trustNotes,
  };
}

// Governance postures that allow a public surface (the same sets the projection checks).
export { PUBLISHABLE_CONSENT, PUBLISHABLE_RIGHTS };

/**
 * The public-read rule for portfolio assets and designs: published, flagged public, visible,
 * not deprecated, and neither the postures nor the license / consent metadata contradict it.
 * Drafts, private, owner-only and review-required records never match.
 */
export function publicMediaWhere(sql: Sql, alias: 'p' | 'd') {
  const a = sql.unsafe(alias);
  return sql`
    ${a}.publish_state = 'published_public' and ${a}.is_public and ${a}.visibility = 'public'
    and ${a}.record_state <> 'deprecated'
    and ${a}.rights_posture in ('owner_attested', 'artist_attested')
    and ${a}.consent_posture in ('client_consented', 'not_required')
    and ${a}.license_status not in ('rights_disputed', 'rights_revoked', 'rights_restricted')
    and ${a}.consent_level not in ('consent_withdrawn', 'no_consent')`;
}

/** Studios and artists listed to the public / beta lanes. */
export function publicDirectoryWhere(sql: Sql, alias: 's' | 'a' | 'st') {
  const a = sql.unsafe(alias);
  return sql`${a}.visibility = 'public' and ${a}.record_state <> 'deprecated'`;
}

/** Escape LIKE wildcards in user text so `50%` searches for the characters, not a pattern. */
export function likeContains(text: string): string {
  return '%' + text.toLowerCase().replace(/[\\%_]/g, (c) => '\\' + c) + '%';
}

export const DIRECTIONS = { asc: 'asc', desc: 'desc' } as const;
export type Direction = keyof typeof DIRECTIONS;
export function direction(sql: Sql, d: Direction) {
  return sql.unsafe(DIRECTIONS[d]);
}

/**
 * A to_tsquery string matching every word of the user's text as a prefix (`real tig` -> `real:* & tig:*`).
 * Only letters and digits survive, so the string cannot carry tsquery syntax. null: no words at all.
 */
export function prefixQuery(text: string): string | null {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  if (!words) return null;
  return words.slice(0, 8).map((w) => `${w}:*`).join(' & ');
}

/** `alias.search_tsv` matches every word of text as a prefix (false when text has no words). */
export function matchesWords(sql: Sql, alias: 'a' | 'd', text: string) {
  const q = prefixQuery(text);
  if (!q) return sql`false`;
  return sql`${sql.unsafe(alias)}.search_tsv @@ to_tsquery('simple', ${q})`;
}
