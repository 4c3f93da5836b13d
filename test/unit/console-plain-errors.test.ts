// The console's problems in plain words: the field's label and its constraint, as zod states it today.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { plainConstraint } from '../../api/console/web/format-problem';
import { plainText } from '../../lib/validation/text';
import { rejectReasonCodes } from '../../lib/intake/vocabulary';

const first = (schema: z.ZodType, value: unknown) => schema.safeParse(value).error!.issues[0]!.message;

describe('plainConstraint', () => {
  it('says the length a note needs, from the schema the API validates with', () => {
    expect(plainConstraint(first(plainText(2000, 3), 'ok'))).toBe('write at least 3 characters');
    expect(plainConstraint(first(plainText(20, 3), 'x'.repeat(21)))).toBe('write at most 20 characters');
  });
  it('names the choices of an enum, and a missing field as required', () => {
    expect(plainConstraint(first(z.enum(rejectReasonCodes), 'nope'))).toBe(`choose one of ${rejectReasonCodes.join(', ')}`);
    expect(plainConstraint(first(z.object({ a: z.string() }), {}))).toBe('required');
  });
  it('keeps a message it has no words for', () => {
    expect(plainConstraint('not a submission id')).toBe('not a submission id');
  });
});
