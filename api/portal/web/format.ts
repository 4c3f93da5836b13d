// How the portal writes times and the API's problems.

/** A time with its timezone (dateStyle/timeStyle cannot be combined with timeZoneName: V8 throws). */
export const when = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' }) : '–';

/** A problem answer (application/problem+json). */
export interface Problem {
  code?: string;
  detail?: string;
  errors?: { path: string; message: string }[];
}

/** A problem in plain words: the field constraints when there are some, else the detail. */
export function problemText(p: Problem | undefined, status: number): string {
  if (p?.errors?.length) return p.errors.map((e) => `${e.path.replace(/^body\./, '')}: ${e.message}`).join('; ');
  return p?.detail ?? `The request failed (${status}).`;
}

/** The message of a thrown Failure (or anything else thrown). */
export const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));
