// Query-string primitives for the directory reads. Query values arrive as strings; these parse them
// strictly, so `limit=`, `limit=1e3`, `verified=maybe` or a repeated parameter fail with a 400 that
// names the parameter instead of being coerced into something the client did not send.
import { z } from 'zod';
import { trimmedText } from '../validation/text';

const INT = /^[0-9]{1,9}$/;
// Decimal, optionally with an exponent (1e-05 is how many clients print small numbers).
const NUM = /^-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]{1,3})?$/;

/**
 * A query value read from its string by `read` (strictly: its issues are the answer when the string
 * is not acceptable) and then checked as what it means by `value`. zod-to-openapi documents the
 * output side of a preprocess, so the documents (and clients generated from them) state the type
 * the contract means, boolean, integer or number with its bounds and default, not the string that
 * carries it on the wire; `.default()` and `.describe()` on the result are documented too.
 */
export function fromQuery<V extends z.ZodType>(read: z.ZodType<z.input<V>, string>, value: V) {
  return z.preprocess((input, ctx) => {
    const r = read.safeParse(input);
    if (r.success) return r.data;
    // The reader's own messages (`expected a whole number`, ...), so a 400 reads as it always did.
    for (const { message, path } of r.error.issues) ctx.addIssue({ code: 'custom', message, path, input });
    return z.NEVER;
  }, value);
}

export const intParam = (min: number, max: number) =>
  fromQuery(z.string().regex(INT, 'expected a whole number').transform(Number), z.number().int().min(min).max(max));

export const numParam = (min: number, max: number) =>
  fromQuery(z.string().regex(NUM, 'expected a number').transform(Number), z.number().min(min).max(max));

export const boolParam = fromQuery(
  z.enum(['true', 'false'], { message: 'expected true or false' }).transform((v) => v === 'true'),
  z.boolean(),
);

/** Free text: 1..max characters as sent, not blank; spaces at the ends are dropped. */
export const textParam = (max = 200) => trimmedText(max);

/**
 * Comma-separated list of slugs (styles, specialties, tags), lower-cased; 1 to maxItems items of up
 * to 100 characters, none empty (one trailing comma is fine). The pattern is the whole rule, so the
 * documents state it exactly.
 */
export const slugListParam = (maxItems = 20) =>
  z
    .string()
    .max(1000)
    .regex(new RegExp(`^ *[^, \\u0000][^,\\u0000]{0,99}(?:, *[^, \\u0000][^,\\u0000]{0,99}){0,${maxItems - 1}}(?:, *)?$`), `1 to ${maxItems} comma-separated values of up to 100 characters`)
    .transform((v) => [...new Set(v.split(',').map((s) => s.replace(/^ +| +$/g, '').toLowerCase()))].filter(Boolean));

/** The deepest page any list answers: bounds OFFSET cost; narrower filters reach everything. */
export const MAX_PAGE = 10_000;

export const pageParam = intParam(1, MAX_PAGE).default(1);
export const limitParam = (def: number, max: number) => intParam(1, max).default(def);

/** Geographic radius in kilometres. */
export const RADIUS_DEFAULT_KM = 25;
export const RADIUS_MAX_KM = 500;

export const geoParams = {
  latitude: numParam(-90, 90).optional(),
  longitude: numParam(-180, 180).optional(),
  radius: numParam(0.01, RADIUS_MAX_KM).optional(),
};

/** latitude and longitude come together; radius needs both. */
export function checkGeo(v: { latitude?: number | undefined; longitude?: number | undefined; radius?: number | undefined }, ctx: z.RefinementCtx) {
  if (v.latitude !== undefined && v.longitude === undefined) ctx.addIssue({ code: 'custom', path: ['longitude'], message: 'required with latitude' });
  if (v.longitude !== undefined && v.latitude === undefined) ctx.addIssue({ code: 'custom', path: ['latitude'], message: 'required with longitude' });
  if (v.radius !== undefined && (v.latitude === undefined || v.longitude === undefined))
    ctx.addIssue({ code: 'custom', path: ['radius'], message: 'needs latitude and longitude' });
}

export interface GeoFilter {
  latitude: number;
  longitude: number;
  radiusKm: number;
}

/**
 * Coordinates to 1e-7 degrees (about a centimetre): more is noise, and subnormal values such as
 * 1e-320 would underflow in PostgreSQL's earthdistance functions (found by schemathesis).
 */
const coord = (x: number) => Math.round(x * 1e7) / 1e7 + 0; // + 0 turns -0 into 0

export function geoOf(v: { latitude?: number | undefined; longitude?: number | undefined; radius?: number | undefined }): GeoFilter | undefined {
  if (v.latitude === undefined || v.longitude === undefined) return undefined;
  return { latitude: coord(v.latitude), longitude: coord(v.longitude), radiusKm: v.radius ?? RADIUS_DEFAULT_KM };
}

export interface Page {
  page: number;
  limit: number;
}

export const offsetOf = (p: Page) => (p.page - 1) * p.limit;
export const totalPagesOf = (total: number, limit: number) => Math.ceil(total / limit);
