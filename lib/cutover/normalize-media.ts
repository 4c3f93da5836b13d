// Normalizing a legacy portfolio item or design into a runtime record (the cutover's one path for
// media, beside normalize.ts's studios and artists).
import type { MediaRecord, Normalized, Source, SourceMedia } from './records';
import { meta, runtimeIds, textRejection } from './normalize';
import { cleaned, plainText } from './text';
import { imageUrlOf } from './urls';
import { mapStyles } from './vocabulary';

/** The largest price the runtime holds (numeric(10, 2)). */
const PRICE_MAX = 99_999_999.99;
/** A design's price; negative, infinite, NaN or beyond PRICE_MAX: null with a note. */
function priceOf(price: number | null | undefined, notes: string[]): number | null {
  if (price === undefined || price === null) return null;
  if (Number.isFinite(price) && price >= 0 && price <= PRICE_MAX) return price;
  notes.push('price_implausible');
  return null;
}

const CONSENT: Record<string, 'client_consented' | 'not_required'> = { client_consented: 'client_consented', not_required: 'not_required', flash: 'not_required' };

/**
 * A portfolio item or a design; its image URL must be https (http too with `allowHttp`). Public only where the legacy row was public and its consent is known
 * (designs are flash: no client, consent not required). The image stays at its legacy URL, not
 * fetched and not verified: the partner resubmits it through intake for renditions.
 */
export function normalizeMedia(
  m: SourceMedia,
  src: Source,
  kind: 'portfolio' | 'design',
  artist: { id: string; studioId: string | null } | null,
  deleted = false,
  opts: { allowHttp?: boolean } = {},
): Normalized<MediaRecord> {
  const notes: string[] = [];
  if (deleted) return { ok: false, reason: 'deleted_in_legacy', notes };
  if (!artist) return { ok: false, reason: 'artist_not_imported', notes };
  const bad = textRejection(m, ['title', 'description', 'imageUrl', 'style', 'consent', 'tags[]'], notes);
  if (bad) return bad;
  if (!(m.imageUrl ?? '').trim()) return { ok: false, reason: 'missing_image_url', notes };
  const image = imageUrlOf(m.imageUrl!, opts.allowHttp === true);
  if ('refused' in image) return { ok: false, reason: image.refused, notes };
  const url = image.url;
  const title = cleaned(m.title);
  if (title.changed) notes.push('title_html_stripped');
  const description = cleaned(m.description);
  if (description.changed) notes.push('description_html_stripped');
  const styles = mapStyles(m.style ? [m.style] : []);
  for (const u of styles.unknown) notes.push(`unknown_style:${u}`);
  const tags = [...new Set((m.tags ?? []).map((t) => plainText(t).toLowerCase()).filter(Boolean))];
  const consent = m.consent === null ? undefined : CONSENT[m.consent];
  if (!consent) notes.push('consent_unknown');
  const isPublic = m.isPublic === true && consent !== undefined;
  if (m.isPublic === true && !isPublic) notes.push('public_withheld_consent_unknown');
  notes.push('image_not_verified_legacy_url');
  return {
    ok: true,
    notes,
    unknownStyles: styles.unknown,
    record: {
      id: kind === 'portfolio' ? runtimeIds.portfolio(src.key) : runtimeIds.design(src.key),
      artist_id: artist.id,
      studio_id: artist.studioId,
      title: title.text,
      description: description.text,
      image_url: url,
      tags,
      style_ids: styles.styles,
      is_public: isPublic,
      publish_state: isPublic ? 'published_public' : 'draft',
      rights_posture: isPublic ? 'artist_attested' : 'review_required',
      consent_posture: consent ?? 'review_required',
      price: kind === 'design' ? priceOf(m.price, notes) : null,
      ...meta(src, m, notes),
      source_url: url,
      record_state: 'normalized',
      verification_status: 'image_not_verified',
      approval_status: isPublic ? 'approved' : 'pending_review',
      visibility: isPublic ? 'public' : 'private',
      trust_notes: ['image still at the legacy URL, not verified; resubmit through intake for renditions'],
    },
  };
}
