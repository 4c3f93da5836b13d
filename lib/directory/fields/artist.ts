// The artist's fields (contract 2.9), in the upsert's order; ARTIST_SERVED is the answer's order.
import { z } from 'zod';
import { answerShape, type Field } from './table';

export const ARTIST_FIELDS = [
  // the joined studio's id (s: the studio when it is publicly listed), so a hidden studio is never named;
  // the cutover writes it from the legacy studio_id through the ledger
  { column: 'studio_id', sqlType: 'text', served: 'studio_id', legacy: null, compared: true, select: () => 's.id', schema: z.string().nullable() },
  { column: 'name', sqlType: 'text', served: 'name', legacy: 'name', schema: z.string() },
  { column: 'bio', sqlType: 'text', served: 'bio', legacy: 'bio', schema: z.string() },
  { column: 'specialties', sqlType: 'text[]', served: 'specialties', legacy: 'specialties', schema: z.array(z.string()) },
  { column: 'styles', sqlType: 'text[]', served: null, legacy: null, schema: z.array(z.string()) },
  { column: 'years_experience', sqlType: 'integer', served: 'years_experience', legacy: 'years_experience', schema: z.number().int() },
  { column: 'hourly_rate', sqlType: 'numeric', served: 'hourly_rate', legacy: 'hourly_rate', select: (a) => `${a}.hourly_rate::float8`, schema: z.number().nullable() },
  { column: 'is_active', sqlType: 'boolean', served: 'is_active', legacy: 'is_active', schema: z.boolean() },
] as const satisfies readonly Field[];

/** The artist answer's fields in its order (the answer adds id first). */
export const ARTIST_SERVED = ['name', 'studio_id', 'specialties', 'is_active', 'bio', 'years_experience', 'hourly_rate'] as const;

export const artistAnswerFields = answerShape(ARTIST_FIELDS, ARTIST_SERVED);
