// The cutover's one normalization path (lib/cutover/normalize.ts), on the mess the legacy README lists.
import { describe, expect, it } from 'vitest';
import { checkCoordinates } from '../../lib/cutover/coordinates';
import { normalizeMedia } from '../../lib/cutover/normalize-media';
import { normalizeArtist, normalizeStudio, studioMergeKey, type Source, type SourceMedia, type SourceStudio } from '../../lib/cutover/normalize';
import { countryCode, knownCity, stateCode } from '../../lib/cutover/places';
import { plainText } from '../../lib/cutover/text';
import { parseTextArray, serializeTextArray } from '../../lib/cutover/text-arrays';
import { fivePointRating, mapStyles, priceRangeOf } from '../../lib/cutover/vocabulary';

const at = new Date('2024-05-01T10:00:00Z');
const src: Source = { type: 'legacy_store', authority: 'legacy_directory', key: '42', rank: 42 };
const studio = (over: Partial<SourceStudio> = {}): SourceStudio => ({
  name: 'Iron Anchor Tattoo', description: 'Walk-ins welcome', address: '12 Main St', city: 'Chicago', state: 'IL', country: 'US',
  lat: 41.88, lng: -87.63, priceRange: '$$', rating: 4.5, reviewsCount: 10, styles: ['traditional'], isVerified: false, isFeatured: false,
  status: 'active', createdAt: at, updatedAt: at, ...over,
});
const ok = <T>(n: { ok: boolean; record?: T }) => {
  if (!n.ok) throw new Error('expected a record');
  return n.record as T;
};

describe('text', () => {
  it('strips tags, decodes entities and collapses spaces, keeping emoji', () => {
    expect(plainText('  <p>Best&nbsp;ink <b>in</b> town</p>&amp; more 🌹 ')).toBe('Best ink in town & more 🌹');
    expect(plainText('1 < 2 &gt; 0 &lt;3')).toBe('1 < 2 > 0 <3');
    expect(plainText('<script>alert(1)</script>Safe')).toBe('Safe');
    expect(plainText('Caf&#233; &#x263A;')).toBe('Café ☺');
    expect(plainText(null)).toBe('');
  });
  it('strips markup written as entities, however many times encoded, and a tag left open', () => {
    expect(plainText('&lt;b&gt; goes too')).toBe('goes too');
    expect(plainText('&lt;script&gt;alert(1)&lt;/script&gt;Safe')).toBe('Safe');
    expect(plainText('Hi &amp;lt;img src=x onerror=alert(1)&amp;gt; there')).toBe('Hi there');
    expect(plainText('&amp;amp;lt;iframe src=javascript:alert(1)&amp;amp;gt;x')).toBe('x');
    expect(plainText('Hi <img src=x onerror=alert(1)')).toBe('Hi');
    expect(plainText('&#60;svg onload=alert(1)&#62;ok')).toBe('ok');
    expect(plainText('&#xD800;&#0;')).toBe('&#xD800;&#0;');
  });
});

describe('text[] of the legacy connection', () => {
  it('reads an unquoted NULL element as null and a quoted "NULL" as text, with escapes', () => {
    expect(parseTextArray('{NULL,fineline,"NULL","a \\"b\\" c","x,y",null}')).toEqual([null, 'fineline', 'NULL', 'a "b" c', 'x,y', null]);
    expect(parseTextArray('{}')).toEqual([]);
    expect(parseTextArray('[0:1]={a,b}')).toEqual(['a', 'b']);
    expect(parseTextArray('{{a,b},{c,NULL}}')).toEqual([['a', 'b'], ['c', null]]);
  });
  it('writes what it reads back', () => {
    const xs = [null, 'NULL', 'a "b" c', 'back\\slash', 'x,y', '{}'];
    expect(parseTextArray(serializeTextArray(xs))).toEqual(xs);
  });
});

describe('edge values', () => {
  it('takes infinite, invalid and out-of-range timestamps as absent, with a note', () => {
    for (const v of [new Date(NaN), Infinity, -Infinity, 'infinity', '-infinity', new Date('+275000-01-01T00:00:00Z'), '0000-12-31T00:00:00Z']) {
      const r = ok<any>(normalizeStudio(studio({ createdAt: v, updatedAt: v }), src));
      expect(r.source_notes).toEqual(expect.arrayContaining(['created_at_unreadable', 'updated_at_unreadable']));
      expect([r.source_collected_at, r.created_at, r.updated_at]).toEqual([null, '1970-01-01T00:00:00.000Z', '1970-01-01T00:00:00.000Z']);
    }
    const r = ok<any>(normalizeStudio(studio({ createdAt: '2024-05-01T10:00:00Z', updatedAt: 'infinity' }), src));
    expect(r).toMatchObject({ created_at: at.toISOString(), updated_at: at.toISOString(), source_collected_at: null });
  });
  it('carries ranks above 2^53 exactly', () => {
    expect(ok<any>(normalizeStudio(studio(), { ...src, key: '9223372036854775807', rank: 9223372036854775807n })).source_rank).toBe('9223372036854775807');
    expect(ok<any>(normalizeStudio(studio(), { ...src, key: '9007199254740993', rank: 9007199254740993n })).source_rank).toBe('9007199254740993');
  });
  it('takes review counts up to the int4 maximum and rejects larger or fractional ones', () => {
    expect(ok<any>(normalizeStudio(studio({ reviewsCount: 2147483647 }), src)).review_count).toBe(2147483647);
    for (const n of [2147483648, 1.5, NaN, Infinity]) expect(normalizeStudio(studio({ reviewsCount: n }), src)).toEqual({ ok: false, reason: 'value_out_of_range', notes: ['value_out_of_range:reviews_count'] });
  });
  it('drops implausible numbers with a note: NaN rates and years, prices beyond numeric(10, 2)', () => {
    const a = ok<any>(normalizeArtist({ name: 'A', bio: null, specialties: null, yearsExperience: NaN, hourlyRate: NaN, isActive: true, createdAt: at, updatedAt: at }, src, null));
    expect(a).toMatchObject({ years_experience: 0, hourly_rate: null });
    expect(a.source_notes).toEqual(expect.arrayContaining(['years_experience_implausible', 'hourly_rate_implausible']));
    const media = { title: 'x', description: null, imageUrl: 'https://a.example/x.png', tags: null, style: null, isPublic: true, consent: 'flash', createdAt: at, updatedAt: at };
    for (const price of [1e10, NaN, -1]) {
      const d = ok<any>(normalizeMedia({ ...media, price }, src, 'design', { id: 'art_lg_1', studioId: null }));
      expect([d.price, d.source_notes.includes('price_implausible')]).toEqual([null, true]);
    }
  });
  it('keeps text that held bytes other than UTF-8 (U+FFFD) and notes it; rejects NUL and lone surrogates', () => {
    expect(ok<any>(normalizeStudio(studio({ name: 'Caf\uFFFD' }), src)).source_notes).toContain('text_not_utf8');
    expect(normalizeStudio(studio({ description: 'a\u0000b' }), src)).toEqual({ ok: false, reason: 'invalid_text', notes: ['invalid_text:description'] });
    expect(normalizeStudio(studio({ city: 'x\uD800' }), src)).toEqual({ ok: false, reason: 'invalid_text', notes: ['invalid_text:city'] });
    expect(normalizeStudio(studio({ styles: ['ok', '\uDC00'] }), src)).toEqual({ ok: false, reason: 'invalid_text', notes: ['invalid_text:styles'] });
    expect(ok<any>(normalizeStudio(studio({ name: '🌹 Rose' }), src)).name).toBe('🌹 Rose');
  });
  it('drops NULL array elements and rejects values that are not text', () => {
    expect(ok<any>(normalizeStudio(studio({ styles: [null, 'Fine Line', null] }), src)).styles).toEqual(['fine_line']);
    expect(normalizeStudio(studio({ name: { a: 1 } as unknown as string }), src)).toEqual({ ok: false, reason: 'value_not_text', notes: ['value_not_text:name'] });
    expect(normalizeStudio(studio({ priceRange: 2 as unknown as string }), src)).toEqual({ ok: false, reason: 'value_not_text', notes: ['value_not_text:price_range'] });
    expect(normalizeStudio(studio({ styles: ['ok', 3 as unknown as string] }), src)).toEqual({ ok: false, reason: 'value_not_text', notes: ['value_not_text:styles'] });
  });
});

describe('places', () => {
  it('gives one spelling per city, whatever the case, spaces or abbreviation', () => {
    for (const c of ['NYC', 'new york', 'New York City ', 'NEW  YORK', 'nyc.']) expect(knownCity(c)?.city).toBe('New York');
    expect(knownCity('philly')?.city).toBe('Philadelphia');
    expect(knownCity('Springfield')).toBeUndefined();
  });
  it('writes US states and Canadian provinces as codes', () => {
    for (const s of ['CA', 'ca', 'California', 'calif.', 'Calif', 'CALIFORNIA ']) expect(stateCode(s)).toBe('CA');
    expect(stateCode('New York')).toBe('NY');
    expect(stateCode('N.Y.')).toBe('NY');
    expect(stateCode('Ontario')).toBe('ON');
    expect(stateCode('Bavaria')).toBeUndefined();
  });
  it('writes countries as ISO codes', () => {
    for (const c of ['US', 'USA', 'U.S.A.', 'United States', 'united states of america']) expect(countryCode(c)).toBe('US');
    expect(countryCode('Canada')).toBe('CA');
    expect(countryCode('UK')).toBe('GB');
    expect(countryCode('Narnia')).toBeUndefined();
  });
});

describe('coordinates', () => {
  const chicago = knownCity('Chicago');
  it('keeps good ones, repairs a swap the city confirms, nulls 0/0, missing and impossible ones with a note', () => {
    expect(checkCoordinates(41.88, -87.63, chicago)).toEqual({ latitude: 41.88, longitude: -87.63, notes: [] });
    expect(checkCoordinates(-87.63, 41.88, chicago)).toEqual({ latitude: 41.88, longitude: -87.63, notes: ['coordinates_swapped'] });
    expect(checkCoordinates(0, 0, chicago)).toEqual({ latitude: null, longitude: null, notes: ['coordinates_zero'] });
    expect(checkCoordinates(null, null, chicago).notes).toEqual(['coordinates_missing']);
    expect(checkCoordinates(-187.63, 41.88, chicago)).toEqual({ latitude: null, longitude: null, notes: ['coordinates_impossible'] });
    expect(checkCoordinates(120, 30, undefined)).toEqual({ latitude: null, longitude: null, notes: ['coordinates_impossible'] });
  });
  it('does not swap when no city confirms it', () => {
    expect(checkCoordinates(-87.63, 41.88, undefined)).toEqual({ latitude: -87.63, longitude: 41.88, notes: [] });
  });
});

describe('vocabulary', () => {
  it('maps price words to $..$$$$', () => {
    expect(['cheap', 'moderate', 'pricey', 'high end', 'High-End', '$$', ' $$$ '].map(priceRangeOf)).toEqual(['$', '$$', '$$$', '$$$$', '$$$$', '$$', '$$$']);
    expect(priceRangeOf('call us')).toBeNull();
    expect(priceRangeOf(null)).toBeNull();
  });
  it('moves 10-point ratings to the 5-point scale and refuses impossible ones', () => {
    expect(fivePointRating(4.5)).toEqual({ rating: 4.5, rescaled: false });
    expect(fivePointRating(9)).toEqual({ rating: 4.5, rescaled: true });
    expect(fivePointRating(11).rating).toBeNull();
    expect(fivePointRating(-1).rating).toBeNull();
  });
  it('maps free styles to the vocabulary and keeps unknown ones as slugs, reported', () => {
    expect(mapStyles(['Fine Line', 'fineline', 'TRADITIONAL', 'neo trad', 'Black & Grey', 'Sticker Bomb', null])).toEqual({
      styles: ['fine_line', 'traditional', 'neo_traditional', 'black_and_grey', 'sticker_bomb'],
      unknown: ['sticker_bomb'],
    });
  });
});

describe('studios', () => {
  it('a clean row is normalized with provenance from the legacy store and no notes', () => {
    const n = normalizeStudio(studio(), src);
    const r = ok<any>(n);
    expect(r.record_state).toBe('normalized');
    expect(r.source_type).toBe('legacy_store');
    expect(r.origin_authority).toBe('legacy_directory');
    expect(r.source_collected_at).toBe(at.toISOString());
    expect(r.source_notes).toEqual([]);
    expect(r.legacy_ids).toEqual(['42']);
    expect(r.visibility).toBe('public');
  });
  it('a messy row comes out canonical, with a note for every change', () => {
    const r = ok<any>(
      normalizeStudio(
        studio({ name: '  Iron &amp; Anchor  ', description: '<p>Hi <b>there</b></p>', city: 'chicago ', state: 'Illinois', country: 'United States', lat: -87.63, lng: 41.88, priceRange: 'pricey', rating: 9, styles: ['neo trad', 'Sticker Bomb'] }),
        src,
      ),
    );
    expect(r).toMatchObject({ name: 'Iron & Anchor', description: 'Hi there', city: 'Chicago', state: 'IL', country: 'US', latitude: 41.88, longitude: -87.63, price_range: '$$$', rating: 4.5, styles: ['neo_traditional', 'sticker_bomb'] });
    expect(r.source_notes).toEqual(
      expect.arrayContaining(['name_cleaned', 'description_html_stripped', 'city_canonicalized', 'state_to_code', 'country_to_iso', 'coordinates_swapped', 'price_words_mapped', 'rating_rescaled_10_to_5', 'unknown_style:sticker_bomb']),
    );
    expect(r.record_state).toBe('normalized');
  });
  it('infers the country from the state or the city, and marks a row raw when the country cannot be read', () => {
    expect(ok<any>(normalizeStudio(studio({ country: null }), src)).country).toBe('US');
    expect(ok<any>(normalizeStudio(studio({ country: null, state: null, city: 'Toronto', lat: 43.65, lng: -79.38 }), src))).toMatchObject({ country: 'CA', state: 'ON' });
    const raw = ok<any>(normalizeStudio(studio({ country: 'Narnia', state: 'Cair', city: 'Paravel', lat: 10, lng: 10 }), src));
    expect(raw.record_state).toBe('raw');
    expect(raw.source_notes).toContain('country_unrecognized');
  });
  it('impossible coordinates become null with a note', () => {
    const r = ok<any>(normalizeStudio(studio({ lat: 0, lng: 0 }), src));
    expect([r.latitude, r.longitude]).toEqual([null, null]);
    expect(r.source_notes).toContain('coordinates_zero');
  });
  it('honours the legacy status and flags', () => {
    expect(ok<any>(normalizeStudio(studio({ status: 'hidden' }), src)).visibility).toBe('private');
    expect(ok<any>(normalizeStudio(studio({ status: 'closed' }), src))).toMatchObject({ is_active: false, visibility: 'private' });
    expect(ok<any>(normalizeStudio(studio({ isVerified: true, isFeatured: true }), src))).toMatchObject({ verified: true, featured: true, verification_status: 'verified' });
  });
  it('rejects deleted rows and rows without a name, with a reason code', () => {
    expect(normalizeStudio(studio(), src, true)).toMatchObject({ ok: false, reason: 'deleted_in_legacy' });
    expect(normalizeStudio(studio({ name: ' <br> ' }), src)).toMatchObject({ ok: false, reason: 'empty_name' });
  });
  it('gives duplicates (same normalized name and address) one runtime id', () => {
    expect(studioMergeKey(' Iron Anchor Tattoo', '12 Main Street', 'Chicago')).toBe(studioMergeKey('iron anchor tattoo', '12 main st.', 'CHICAGO'));
    const a = ok<any>(normalizeStudio(studio({ name: 'Iron Anchor Tattoo ' }), src));
    const b = ok<any>(normalizeStudio(studio({ name: 'iron anchor tattoo', address: '12 Main Street' }), { ...src, key: '43', rank: 43 }));
    expect(a.id).toBe(b.id);
    expect(studioMergeKey('Ink', '', 'Chicago')).not.toBe(studioMergeKey('Ink', '', 'Denver'));
  });
  it('is deterministic: the same row, the same record', () => {
    expect(normalizeStudio(studio({ name: ' X ' }), src)).toEqual(normalizeStudio(studio({ name: ' X ' }), src));
  });
});

describe('artists', () => {
  const artist = { name: ' Maya Reyes ', bio: 'Loves <i>fine line</i>', specialties: ['fineline', 'Dotwork'], yearsExperience: 150, hourlyRate: -5, isActive: true, createdAt: at, updatedAt: at };
  it('cleans text, maps specialties and drops implausible numbers with notes', () => {
    const r = ok<any>(normalizeArtist(artist, { ...src, key: '7' }, { id: 'std_lg_x', listed: false }));
    expect(r).toMatchObject({ id: 'art_lg_7', name: 'Maya Reyes', bio: 'Loves fine line', specialties: ['fine_line', 'dotwork'], years_experience: 0, hourly_rate: null, studio_id: 'std_lg_x' });
    expect(r.source_notes).toEqual(expect.arrayContaining(['name_trimmed', 'bio_html_stripped', 'years_experience_implausible', 'hourly_rate_implausible', 'studio_not_listed']));
  });
  it('an artist whose studio was not imported keeps no studio, with a note', () => {
    const r = ok<any>(normalizeArtist(artist, src, 'not_imported'));
    expect(r.studio_id).toBeNull();
    expect(r.source_notes).toContain('studio_not_imported');
  });
});

describe('portfolio items and designs', () => {
  const item = (over: Partial<SourceMedia> = {}): SourceMedia => ({ title: 'Rose', description: null, imageUrl: 'https://legacy.example/a.jpg', tags: ['Rose', 'rose'], style: 'Fine Line', isPublic: true, consent: 'client_consented', createdAt: at, updatedAt: at, ...over });
  const artist = { id: 'art_lg_1', studioId: 'std_lg_1' };
  it('is public only where the legacy row was public and consent is known; the image stays at the legacy URL, not verified', () => {
    const r = ok<any>(normalizeMedia(item(), src, 'portfolio', artist));
    expect(r).toMatchObject({ id: 'pfa_lg_42', is_public: true, publish_state: 'published_public', visibility: 'public', image_url: 'https://legacy.example/a.jpg', verification_status: 'image_not_verified', tags: ['rose'], style_ids: ['fine_line'] });
    const unknown = ok<any>(normalizeMedia(item({ consent: null }), src, 'portfolio', artist));
    expect(unknown).toMatchObject({ is_public: false, publish_state: 'draft', visibility: 'private', consent_posture: 'review_required' });
    expect(unknown.source_notes).toContain('public_withheld_consent_unknown');
    expect(ok<any>(normalizeMedia(item({ isPublic: false }), src, 'portfolio', artist)).is_public).toBe(false);
  });
  it('designs are flash (consent not required) and keep a price', () => {
    const r = ok<any>(normalizeMedia(item({ consent: 'flash', price: 150 }), src, 'design', artist));
    expect(r).toMatchObject({ id: 'dsg_lg_42', is_public: true, consent_posture: 'not_required', price: 150 });
  });
  it('takes https image URLs, http only when allowed, and rejects every other scheme or non-URL', () => {
    expect(ok<any>(normalizeMedia(item({ imageUrl: ' https://cdn.example/a.jpg ' }), src, 'portfolio', artist)).image_url).toBe('https://cdn.example/a.jpg');
    expect(ok<any>(normalizeMedia(item({ imageUrl: 'https://cdn.example/a.jpg?x="><script>' }), src, 'portfolio', artist)).image_url).toBe('https://cdn.example/a.jpg?x=%22%3E%3Cscript%3E');
    expect(normalizeMedia(item({ imageUrl: 'http://cdn.example/a.jpg' }), src, 'portfolio', artist)).toMatchObject({ ok: false, reason: 'image_url_scheme_not_allowed' });
    expect(ok<any>(normalizeMedia(item({ imageUrl: 'http://cdn.example/a.jpg' }), src, 'portfolio', artist, false, { allowHttp: true })).image_url).toBe('http://cdn.example/a.jpg');
    for (const u of ['javascript:alert(1)', 'JavaScript:alert(1)', 'data:text/html;base64,PHNjcmlwdD4=', 'vbscript:msgbox(1)', 'file:///etc/passwd', 'ftp://x.example/a.jpg'])
      expect(normalizeMedia(item({ imageUrl: u }), src, 'portfolio', artist, false, { allowHttp: true })).toMatchObject({ ok: false, reason: 'image_url_scheme_not_allowed' });
    for (const u of ['java\tscript:alert(1)', 'not a url', '/relative.jpg', 'https://'])
      expect(normalizeMedia(item({ imageUrl: u }), src, 'portfolio', artist, false, { allowHttp: true })).toMatchObject({ ok: false, reason: 'image_url_invalid' });
  });
  it('rejects items of artists that were not imported, and items without an image', () => {
    expect(normalizeMedia(item(), src, 'portfolio', null)).toMatchObject({ ok: false, reason: 'artist_not_imported' });
    expect(normalizeMedia(item({ imageUrl: ' ' }), src, 'portfolio', artist)).toMatchObject({ ok: false, reason: 'missing_image_url' });
  });
});
