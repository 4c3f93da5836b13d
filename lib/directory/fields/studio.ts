// The studio's fields (contract 2.6): runtime column, SQL type, served name, legacy column, answer schema.
import { z } from 'zod';
import { PRICE_RANGES } from '../vocabulary';
import { answerShape, type Field } from './table';

export const STUDIO_FIELDS = [
  { column: 'name', sqlType: 'text', served: 'name', legacy: 'name', schema: z.string() },
  { column: 'description', sqlType: 'text', served: 'description', legacy: 'description', schema: z.string() },
  { column: 'address', sqlType: 'text', served: 'address', legacy: 'address', schema: z.string() },
  { column: 'city', sqlType: 'text', served: 'city', legacy: 'city', schema: z.string() },
  { column: 'state', sqlType: 'text', served: 'state', legacy: 'state', schema: z.string() },
  { column: 'country', sqlType: 'text', served: 'country', legacy: 'country', schema: z.string() },
  {
    column: 'latitude', sqlType: 'float8', served: 'latitude', legacy: 'lat',
    schema: z.number().nullable().describe('null when the source coordinates were impossible (provenance.sourceNotes says why)'),
  },
  { column: 'longitude', sqlType: 'float8', served: 'longitude', legacy: 'lng', schema: z.number().nullable() },
  {
    column: 'price_range', sqlType: 'text', served: 'price_range', legacy: 'price_range',
    schema: z.enum(PRICE_RANGES).nullable().describe('null when the source price could not be read'),
  },
  { column: 'rating', sqlType: 'float8', served: 'rating', legacy: 'rating', schema: z.number() },
  { column: 'review_count', sqlType: 'integer', served: 'review_count', legacy: 'reviews_count', schema: z.number().int() },
  { column: 'styles', sqlType: 'text[]', served: 'styles', legacy: 'styles', schema: z.array(z.string()) },
  { column: 'specialties', sqlType: 'text[]', served: 'specialties', legacy: null, schema: z.array(z.string()) },
  { column: 'verified', sqlType: 'boolean', served: 'verified', legacy: 'is_verified', schema: z.boolean() },
  { column: 'featured', sqlType: 'boolean', served: 'featured', legacy: 'is_featured', schema: z.boolean() },
  { column: 'is_active', sqlType: 'boolean', served: null, legacy: 'status', schema: z.boolean() },
] as const satisfies readonly Field[];

/** The served studio fields' schemas (the answer adds id, distance, provenance and trust). */
export const studioAnswerFields = answerShape(STUDIO_FIELDS);
