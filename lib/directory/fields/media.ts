// The portfolio asset's and the design's fields (contract 2.7, 2.8), in the upsert's order; the
// public answers serve theirs in PORTFOLIO_SERVED's and DESIGN_SERVED's order (the owner's view
// serves them all).
import { z } from 'zod';
import { answerShape, type Field } from './table';

export const PUBLISH_STATES = ['draft', 'private', 'owner_only', 'published_public', 'archived'] as const;

/** A public rendition as the answers give it. */
export const RENDITION = z.object({
  name: z.enum(['large', 'small']).describe('large: long edge at most 2048 px; small: at most 640 px'),
  width: z.number().int(),
  height: z.number().int(),
  content_type: z.string().describe('image/webp'),
  url: z.string().describe('absolute URL under the public base; cached for 5 minutes (ETag revalidation), 410 after a takedown'),
});

/** The record's public renditions as one JSON array, largest first (a primary-key lookup per row of the page). */
const renditionsOf = (alias: string) => `(
  select coalesce(json_agg(json_build_object('name', r.name, 'width', r.width, 'height', r.height, 'type', r.content_type,
    'path', '/media/' || r.media_id || '/' || r.name || '.' || r.ext) order by r.width desc), '[]'::json)
  from public_renditions r where r.media_id = ${alias}.id)`;

// artist_id, studio_id, the publish state and the postures: the normalization derives them (from the
// legacy artist, the public flag and the consent); the shadow read compares the artist and the state.
const MEDIA_FIELDS = [
  { column: 'artist_id', sqlType: 'text', served: 'artist_id', legacy: null, compared: true, schema: z.string() },
  { column: 'studio_id', sqlType: 'text', served: 'studio_id', legacy: null, schema: z.string().nullable() },
  { column: 'title', sqlType: 'text', served: 'title', legacy: 'title', schema: z.string() },
  { column: 'description', sqlType: 'text', served: 'description', legacy: 'description', schema: z.string() },
  {
    column: 'image_url', sqlType: 'text', served: 'image_url', legacy: 'image_url',
    schema: z.string().nullable().describe('the large rendition for assets published through intake'),
  },
  { column: 'tags', sqlType: 'text[]', served: 'tags', legacy: 'tags', schema: z.array(z.string()) },
  // one legacy style (text), mapped to the directory's styles
  { column: 'style_ids', sqlType: 'text[]', served: 'style_ids', legacy: 'style', legacySelect: (a) => `${a}.style`, schema: z.array(z.string()) },
  { column: 'featured', sqlType: 'boolean', served: 'featured', legacy: null, written: false, schema: z.boolean() },
  { column: 'is_public', sqlType: 'boolean', served: 'is_public', legacy: 'is_public', schema: z.boolean() },
  { column: 'publish_state', sqlType: 'text', served: 'publish_state', legacy: null, compared: true, schema: z.enum(PUBLISH_STATES) },
  { column: 'rights_posture', sqlType: 'text', served: 'rights_posture', legacy: null, schema: z.string() },
] as const satisfies readonly Field[];
const CONSENT = { column: 'consent_posture', sqlType: 'text', served: 'consent_posture', legacy: 'consent', schema: z.string() } as const satisfies Field;
const RENDITIONS = {
  column: 'renditions', sqlType: 'json', served: 'renditions', legacy: null, written: false, select: renditionsOf, schema: z.array(RENDITION),
} as const satisfies Field;

export const PORTFOLIO_FIELDS = [...MEDIA_FIELDS, CONSENT, RENDITIONS] as const satisfies readonly Field[];
export const DESIGN_FIELDS = [
  ...MEDIA_FIELDS,
  // designs are flash: no client, consent not required
  { ...CONSENT, legacySelect: () => `'flash'` },
  RENDITIONS,
  { column: 'price', sqlType: 'numeric', served: 'price', legacy: 'price', select: (a) => `${a}.price::float8`, schema: z.number().nullable() },
  { column: 'runtime_trust_proof', sqlType: 'jsonb', served: 'runtime_trust_proof', legacy: null, written: false, schema: z.record(z.string(), z.unknown()) },
] as const satisfies readonly Field[];

/** The public portfolio asset's fields in its order (the answer adds id first, provenance and trust last). */
export const PORTFOLIO_SERVED = ['artist_id', 'title', 'image_url', 'renditions', 'tags', 'is_public', 'publish_state'] as const;
/** What the public design serves after the asset's fields. */
export const DESIGN_EXTRA = ['description', 'price', 'runtime_trust_proof'] as const;
export const DESIGN_SERVED = [...PORTFOLIO_SERVED, ...DESIGN_EXTRA] as const;

export const portfolioAnswerFields = answerShape(PORTFOLIO_FIELDS, PORTFOLIO_SERVED);
export const designExtraFields = answerShape(DESIGN_FIELDS, DESIGN_EXTRA);
