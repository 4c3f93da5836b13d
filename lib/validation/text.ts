// Text fields as the documents state them. Only spaces, tabs and line breaks count as blank, the
// same class in the OpenAPI pattern and in this code, so a value the documents call valid is never
// refused here (and the other way round). NUL is refused everywhere: PostgreSQL text cannot hold it.
import { z } from 'zod';

const EDGE_SPACE = /^[ \t\r\n]+|[ \t\r\n]+$/g;

/** Any text of min..max characters without NUL. */
export const plainText = (max: number, min = 0) =>
  z
    .string()
    .min(min)
    .max(max)
    .regex(/^[^\u0000]*$/, 'must not contain NUL characters');

/** 1..max characters as sent, not blank, no NUL; spaces at the ends are dropped afterwards. */
export const trimmedText = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[^\u0000]*[^ \t\r\n\u0000][^\u0000]*$/, 'must not be blank or contain NUL characters')
    .transform((v) => v.replace(EDGE_SPACE, ''));

/** A query filter: min..max characters after trimming, no NUL (PostgreSQL would refuse the query, a 500). */
export const filterText = (max: number, min = 1) =>
  z
    .string()
    .trim()
    .min(min)
    .max(max)
    .regex(/^[^\u0000]*$/, 'must not contain NUL characters');
