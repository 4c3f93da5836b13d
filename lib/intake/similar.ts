// Similar images of a submission: every other submission, draft and published asset,
// whoever's, whose image is within the index's guaranteed distance of this one's (pHash pairs,
// lib/media/fingerprints/index.ts), or whose verified bytes are the same. One entry per
// submission lineage, at its furthest stage: its published asset, else its draft, else itself.
import type { Tx } from '../db';
import type { SimilarMatch } from './similar-match';
import { PENDING } from './lifecycle';
import { fromSigned64 } from '../media/fingerprints/hashes';
import { absoluteUrl } from '../media/renditions';
import { MATCH_PAIRS, nearHashes, type Variant } from '../media/fingerprints/index';

export { SimilarMatch, type MatchKind } from './similar-match';

/** At most this many matches are answered (nearest first). */
export const MAX_MATCHES = 50;

/** Nearest distance per other submission, from the index and from identical verified bytes. */
async function nearestBySubmission(sql: Tx, submissionId: string, sha256: string | null): Promise<Map<string, number>> {
  const own = await sql<{ variant: Variant; hash: string }[]>`
    select variant, hash::text as hash from image_fingerprints where subject_kind = 'submission' and subject_id = ${submissionId}`;
  const mine = new Map(own.map((r) => [r.variant, fromSigned64(BigInt(r.hash))]));
  const nearest = new Map<string, number>();
  const note = (id: string, d: number) => {
    if (id !== submissionId && d < (nearest.get(id) ?? Infinity)) nearest.set(id, d);
  };
  for (const pair of MATCH_PAIRS) {
    const h = mine.get(pair.query);
    if (h === undefined) continue;
    for (const n of await nearHashes(sql, h, pair.stored)) note(n.submissionId, n.distance);
  }
  if (sha256) {
    const same = await sql<{ submissionId: string }[]>`select submission_id from submissions where verified_sha256 = ${sha256} and submission_id <> ${submissionId}`;
    for (const s of same) note(s.submissionId, 0);
  }
  return nearest;
}

interface LineageRow {
  submissionId: string;
  artistCanonicalId: string;
  partnerOrganizationId: string | null;
  intakeStatus: string;
  verifiedSha256: string | null;
  documentId: string | null;
  assetId: string | null;
  imageUrl: string | null;
  unpublishedAt: Date | null;
}

/** The matches of a submission, nearest first (exact copies first among equals); [] when it has none or no fingerprints. */
/** `o` gives the addresses of the previews; without it previewUrl is null (the audit trail keeps none). */
export async function similarTo(sql: Tx, submissionId: string, o: { publicBaseUrl?: string; intakeBase?: string }): Promise<SimilarMatch[]> {
  const [self] = await sql<{ verifiedSha256: string | null }[]>`select verified_sha256 from submissions where submission_id = ${submissionId}`;
  if (!self) return [];
  const nearest = await nearestBySubmission(sql, submissionId, self.verifiedSha256);
  if (nearest.size === 0) return [];
  const rows = await sql<LineageRow[]>`
    select s.submission_id, s.artist_canonical_id, s.partner_organization_id, s.intake_status, s.verified_sha256,
      d.document_id, a.id as asset_id, a.image_url, a.unpublished_at
    from submissions s
    left join media_documents d on d.submission_id = s.submission_id
    left join portfolio_assets a on a.source_document_id = d.document_id
    where s.submission_id = any(${[...nearest.keys()]}::text[])`;
  const base = o.publicBaseUrl?.replace(/\/$/, '');
  const matches = rows.map((r): SimilarMatch => {
    const common = {
      submissionId: r.submissionId,
      artistCanonicalId: r.artistCanonicalId,
      partnerOrganizationId: r.partnerOrganizationId,
      distance: nearest.get(r.submissionId)!,
      sameBytes: self.verifiedSha256 !== null && r.verifiedSha256 === self.verifiedSha256,
    };
    const preview = base === undefined ? null : `${base}${o.intakeBase ?? ''}/submissions/${encodeURIComponent(r.submissionId)}/preview?size=thumb`;
    if (r.assetId)
      return {
        ...common, kind: 'published_asset', id: r.assetId, assetId: r.assetId,
        status: r.unpublishedAt ? 'taken_down' : 'published',
        previewUrl: r.unpublishedAt || base === undefined ? null : absoluteUrl(base, r.imageUrl),
      };
    if (r.documentId) return { ...common, kind: 'draft', id: r.documentId, assetId: null, status: 'draft', previewUrl: preview };
    return { ...common, kind: 'submission', id: r.submissionId, assetId: null, status: r.intakeStatus, previewUrl: preview };
  });
  return matches
    .sort((a, b) => a.distance - b.distance || Number(b.sameBytes) - Number(a.sameBytes) || a.id.localeCompare(b.id))
    .slice(0, MAX_MATCHES);
}

/** Does a match show another artist's published or pending work (the console's queue flag)? */
export function isOtherArtistsWork(m: SimilarMatch, artistCanonicalId: string): boolean {
  if (m.artistCanonicalId === artistCanonicalId) return false;
  return (m.kind === 'published_asset' && m.status === 'published') || m.kind === 'draft' || (m.kind === 'submission' && (PENDING as readonly string[]).includes(m.status));
}

/** The matches of a submission, each marked when it shows another artist's published or pending work. */
export async function flaggedMatchesOf(sql: Tx, submissionId: string, o: { publicBaseUrl?: string; intakeBase?: string } = {}) {
  const [s] = await sql<{ artistCanonicalId: string }[]>`select artist_canonical_id from submissions where submission_id = ${submissionId}`;
  if (!s) return [];
  return (await similarTo(sql, submissionId, o)).map((m) => ({ ...m, flagged: isOtherArtistsWork(m, s.artistCanonicalId) }));
}
