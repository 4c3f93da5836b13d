// The one normalization path of the cutover: the legacy backfill, its delta and the file import
// all turn a source row into a runtime record here (pure: no I/O, same input, same record).
// Notes are machine-readable codes, stored as the record's provenance.sourceNotes and counted by
// the report; they never carry field values other than the unknown style kept.
import crypto from 'node:crypto';
import { checkCoordinates } from './coordinates';
import { countryCode, countryOfState, knownCity, placeKey, stateCode, titleCase } from './places';
import type { ArtistRecord, Normalized, RecordMeta, Source, SourceArtist, SourceStudio, SourceTime, StudioLink, StudioRecord } from './records';
import { checkText } from './row-check';
import { cleaned, plainText } from './text';
import { INT4_MAX, rankText, timestampOf } from './values';
import { fivePointRating, mapStyles, priceRangeOf } from './vocabulary';

export type * from './records';

const EPOCH = '1970-01-01T00:00:00.000Z';

/** A normalization that threw (a value no rule above foresaw) rejects its row alone, with the error's name as a note. */
export function normalizedSafely<T>(normalize: () => Normalized<T>): Normalized<T> {
  try {
    return normalize();
  } catch (err) {
    return { ok: false, reason: 'normalization_failed', notes: [`error:${(err as Error)?.name ?? 'unknown'}`] };
  }
}
const hash = (text: string) => crypto.createHash('sha256').update(text).digest('hex').slice(0, 20);

/** Address words written out or abbreviated, one form each, for the duplicate key. */
const ADDRESS_WORDS: Record<string, string> = { street: 'st', avenue: 'ave', av: 'ave', boulevard: 'blvd', road: 'rd', drive: 'dr', suite: 'ste', north: 'n', south: 's', east: 'e', west: 'w' };
function keyText(text: string): string {
  return plainText(text)
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .map((w) => ADDRESS_WORDS[w] ?? w)
    .join(' ');
}

/**
 * The duplicate key: normalized name and address (the city too when there is no address, so two
 * same-named studios without addresses in two cities stay two). Same key, same runtime studio.
 */
export function studioMergeKey(name: string, address: string, city: string): string {
  const a = keyText(address);
  return `${keyText(name)}|${a || `city:${keyText(city)}`}`;
}

/** Deterministic runtime ids: a rerun or a resumed run writes the same rows. */
export const runtimeIds = {
  studio: (mergeKey: string) => `std_lg_${hash(mergeKey)}`,
  artist: (s: Source) => (s.type === 'legacy_store' ? `art_lg_${s.key}` : `art_fi_${hash(`${s.authority}|${s.key}`)}`),
  portfolio: (legacyId: string) => `pfa_lg_${legacyId}`,
  design: (legacyId: string) => `dsg_lg_${legacyId}`,
};

/** The row's timestamps as ISO strings; an infinite or unreadable one is taken as absent, with a note. */
function times(createdAt: SourceTime, updatedAt: SourceTime, notes: string[]) {
  const one = (v: SourceTime, name: string) => {
    const t = timestampOf(v);
    if (t !== 'unreadable') return t;
    notes.push(`${name}_unreadable`);
    return null;
  };
  return { created: one(createdAt, 'created_at'), updated: one(updatedAt, 'updated_at') };
}

/**
 * The text fields of a row checked (row-check.ts): a rejection, or null with `text_not_utf8` noted
 * when some text held bytes that were not UTF-8.
 */
export function textRejection(row: object, fields: readonly string[], notes: string[]): Normalized<never> | null {
  const c = checkText(row, fields);
  if (c.reject) return { ok: false, reason: c.reject.reason, notes: [c.reject.note] };
  if (c.notUtf8) notes.push('text_not_utf8');
  return null;
}

export function meta(src: Source, row: { createdAt: SourceTime; updatedAt: SourceTime }, notes: string[]): Omit<RecordMeta, 'record_state' | 'verification_status' | 'approval_status' | 'visibility' | 'trust_notes'> {
  const t = times(row.createdAt, row.updatedAt, notes);
  return {
    source_type: src.type,
    origin_authority: src.authority,
    source_url: null,
    source_collected_at: t.updated,
    license_status: 'rights_unknown',
    consent_level: 'recommendation_only',
    source_notes: notes,
    cultural_sensitivity_level: 'none',
    created_at: t.created ?? t.updated ?? EPOCH,
    updated_at: t.updated ?? t.created ?? EPOCH,
    legacy_ids: [src.key],
    source_rank: rankText(src.rank),
  };
}

/** Legacy status -> listing: active is public; pending and hidden private; closed inactive and private. */
const STATUS: Record<string, { visibility: 'public' | 'private'; active: boolean; approval: string; note?: string }> = {
  active: { visibility: 'public', active: true, approval: 'approved' },
  pending: { visibility: 'private', active: true, approval: 'pending_review', note: 'legacy_status_pending' },
  hidden: { visibility: 'private', active: true, approval: 'approved', note: 'legacy_status_hidden' },
  closed: { visibility: 'private', active: false, approval: 'approved', note: 'legacy_status_closed' },
};

function place(s: SourceStudio, notes: string[]) {
  let raw = false;
  const cityText = plainText(s.city);
  const city = knownCity(cityText);
  let cityName = city?.city ?? titleCase(cityText);
  if (city && cityText !== city.city) notes.push('city_canonicalized');
  else if (!city && cityName !== cityText) notes.push('city_recased');
  if (!cityName) {
    notes.push('city_missing');
    raw = true;
    cityName = '';
  }
  const stateText = plainText(s.state);
  let state = stateCode(stateText);
  if (state && state !== stateText) notes.push('state_to_code');
  let country = countryCode(plainText(s.country));
  if (country && country !== plainText(s.country)) notes.push('country_to_iso');
  if (!country) {
    const inferred = (state && countryOfState(state)) ?? city?.country;
    if (inferred) {
      country = inferred;
      notes.push(plainText(s.country) ? 'country_unrecognized_inferred' : 'country_inferred');
    }
  }
  if (!state && !stateText && city && (country === undefined || country === city.country)) {
    state = city.state;
    notes.push('state_inferred');
  }
  // a two-letter state of another country than the US or Canada is left as typed
  const stateOut = state ?? (stateText ? titleCase(stateText) : '');
  if (!country) {
    notes.push('country_unrecognized');
    raw = true;
  }
  return { city, cityName, state: stateOut, country: country ?? plainText(s.country), raw };
}

export function normalizeStudio(s: SourceStudio, src: Source, deleted = false): Normalized<StudioRecord> {
  const notes: string[] = [];
  if (deleted) return { ok: false, reason: 'deleted_in_legacy', notes };
  const bad = textRejection(s, ['name', 'description', 'address', 'city', 'state', 'country', 'priceRange', 'status', 'styles[]'], notes);
  if (bad) return bad;
  if (s.reviewsCount !== null && (!Number.isInteger(s.reviewsCount) || s.reviewsCount > INT4_MAX))
    return { ok: false, reason: 'value_out_of_range', notes: ['value_out_of_range:reviews_count'] };
  const name = cleaned(s.name);
  if (!name.text) return { ok: false, reason: 'empty_name', notes };
  if (name.changed) notes.push('name_cleaned');
  else if (name.text !== s.name) notes.push('name_trimmed');
  const description = cleaned(s.description);
  if (description.changed) notes.push('description_html_stripped');
  const address = cleaned(s.address);
  if (address.changed) notes.push('address_cleaned');
  const p = place(s, notes);
  const coords = checkCoordinates(s.lat, s.lng, p.city && p.city.country === p.country ? p.city : undefined);
  notes.push(...coords.notes);
  const price = priceRangeOf(s.priceRange);
  if (price && price !== s.priceRange) notes.push('price_words_mapped');
  if (!price && s.priceRange) notes.push('price_unrecognized');
  const rating = fivePointRating(s.rating);
  if (rating.rescaled) notes.push('rating_rescaled_10_to_5');
  if (rating.rating === null && s.rating !== null) notes.push('rating_out_of_range');
  const styles = mapStyles(s.styles);
  for (const u of styles.unknown) notes.push(`unknown_style:${u}`);
  const reviews = s.reviewsCount !== null && s.reviewsCount >= 0 ? s.reviewsCount : 0;
  if (s.reviewsCount !== null && s.reviewsCount < 0) notes.push('review_count_negative');
  const status = STATUS[placeKey(s.status ?? 'active')];
  if (!status) notes.push('legacy_status_unknown');
  else if (status.note) notes.push(status.note);
  const listing = status ?? { visibility: 'private' as const, active: true, approval: 'pending_review' };
  const verified = s.isVerified === true;
  const mergeKey = studioMergeKey(name.text, address.text, p.cityName);
  return {
    ok: true,
    notes,
    unknownStyles: styles.unknown,
    record: {
      id: runtimeIds.studio(mergeKey),
      name: name.text,
      description: description.text,
      address: address.text,
      city: p.cityName,
      state: p.state,
      country: p.country,
      latitude: coords.latitude,
      longitude: coords.longitude,
      price_range: price,
      rating: rating.rating ?? 0,
      review_count: reviews,
      styles: styles.styles,
      specialties: [],
      verified,
      featured: s.isFeatured === true,
      is_active: listing.active,
      ...meta(src, s, notes),
      record_state: p.raw || !status ? 'raw' : 'normalized',
      verification_status: verified ? 'verified' : 'unverified',
      approval_status: listing.approval,
      visibility: listing.visibility,
      trust_notes: verified ? ['verified in the legacy directory'] : [],
    },
  };
}

export function normalizeArtist(a: SourceArtist, src: Source, studio: StudioLink | null | 'not_imported', deleted = false): Normalized<ArtistRecord> {
  const notes: string[] = [];
  if (deleted) return { ok: false, reason: 'deleted_in_legacy', notes };
  const bad = textRejection(a, ['name', 'bio', 'specialties[]'], notes);
  if (bad) return bad;
  const name = cleaned(a.name);
  if (!name.text) return { ok: false, reason: 'empty_name', notes };
  if (name.changed) notes.push('name_cleaned');
  else if (name.text !== a.name) notes.push('name_trimmed');
  const bio = cleaned(a.bio);
  if (bio.changed) notes.push('bio_html_stripped');
  const styles = mapStyles(a.specialties);
  for (const u of styles.unknown) notes.push(`unknown_style:${u}`);
  let years = a.yearsExperience ?? 0;
  if (!Number.isFinite(years) || years < 0 || years > 80) {
    notes.push('years_experience_implausible');
    years = 0;
  }
  let rate = a.hourlyRate;
  if (rate !== null && (!Number.isFinite(rate) || rate < 0 || rate > 100_000)) {
    notes.push('hourly_rate_implausible');
    rate = null;
  }
  if (studio === 'not_imported') notes.push('studio_not_imported');
  else if (studio && !studio.listed) notes.push('studio_not_listed');
  const active = a.isActive !== false;
  return {
    ok: true,
    notes,
    unknownStyles: styles.unknown,
    record: {
      id: runtimeIds.artist(src),
      studio_id: studio && studio !== 'not_imported' ? studio.id : null,
      name: name.text,
      bio: bio.text,
      specialties: styles.styles,
      styles: styles.styles,
      years_experience: Math.round(years),
      hourly_rate: rate,
      is_active: active,
      ...meta(src, a, notes),
      record_state: 'normalized',
      verification_status: 'unverified',
      approval_status: 'approved',
      visibility: 'public',
      trust_notes: [],
    },
  };
}
