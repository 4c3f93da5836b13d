// The API's problems in plain words (pure: the unit tests import it).

/** A problem answer (application/problem+json). */
export interface Problem {
  status?: number;
  code?: string;
  title?: string;
  detail?: string;
  errors?: { path: string; message: string }[];
}

/** Field names as an operator reads them. */
const FIELD_LABELS: Record<string, string> = {
  reviewNotes: 'Notes',
  reasonCode: 'Reason',
  note: 'Note',
  reason: 'Reason for the takedown',
  artistId: 'Artist profile',
  artistCanonicalId: 'Artist',
  rightsPosture: 'Rights',
  consentPosture: 'Consent',
  token: 'Token',
};

/** A field's constraint in plain words (the API's messages are zod's). */
export function plainConstraint(message: string): string {
  const rules: [RegExp, (m: RegExpMatchArray) => string][] = [
    [/^Too small: expected string to have >=?(\d+) characters?$/, (m) => `write at least ${m[1]} characters`],
    [/^Too big: expected string to have <=?(\d+) characters?$/, (m) => `write at most ${m[1]} characters`],
    [/^Too small: expected array to have >=?(\d+) items?$/, (m) => `choose at least ${m[1]}`],
    [/^Too small: expected number to be >=?(-?[\d.]+)$/, (m) => `use ${m[1]} or more`],
    [/^Too big: expected number to be <=?(-?[\d.]+)$/, (m) => `use ${m[1]} or less`],
    [/^Invalid option: expected one of (.+)$/, (m) => `choose one of ${m[1]!.replaceAll('"', '').replaceAll('|', ', ')}`],
    [/^Invalid input: expected (\w+), received undefined$/, () => 'required'],
  ];
  for (const [re, say] of rules) {
    const m = re.exec(message);
    if (m) return say(m);
  }
  return message;
}

/** A problem in plain words: each field's constraint when the body was refused, else the detail. */
export function problemText(p: Problem | undefined, status?: number): string {
  if (p?.errors?.length)
    return p.errors
      .map((e) => {
        const field = e.path.replace(/^(body|query|path)\.?/, '');
        return `${FIELD_LABELS[field] ?? (field || 'The request')}: ${plainConstraint(e.message)}`;
      })
      .join('; ');
  return p?.detail ?? `The request failed${status ? ` (${status})` : ''}.`;
}
