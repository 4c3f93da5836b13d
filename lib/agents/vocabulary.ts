// The words a classification may use (the agent context hands them to classifiers) and the shape
// of a classification, checked in plain code: the workflow's Update validator runs it on whatever
// reaches the run (anyone who can reach Temporal can send an Update), and the route's zod schema
// (lib/agents/answers.ts) is held to the same limits by a unit test. Pure: workflow code imports it.
import { z } from 'zod';
import { STYLES } from '../directory/vocabulary';
import { sha256Hex } from '../intake/decision-check';
import { problemsOf, proofShape, say } from '../intake/signal-shapes';
import type { DecisionProof } from '../intake/vocabulary';

export { STYLES };
export type StyleId = (typeof STYLES)[number];

/** Where on the body the tattoo in the image is. */
export const PLACEMENTS = [
  'forearm', 'upper_arm', 'full_sleeve', 'hand', 'finger', 'wrist', 'shoulder', 'chest', 'back', 'ribs', 'stomach', 'hip',
  'thigh', 'calf', 'ankle', 'foot', 'neck', 'head', 'face', 'behind_ear', 'other', 'not_on_skin',
] as const;
export type PlacementId = (typeof PLACEMENTS)[number];

/** What the tattoo shows. */
export const SUBJECTS = [
  'animal', 'bird', 'insect', 'floral', 'plant', 'skull', 'human_figure', 'portrait', 'face', 'hand', 'eye', 'heart',
  'lettering', 'script', 'religious', 'mythological', 'fantasy', 'landscape', 'nautical', 'celestial', 'geometric_pattern',
  'mandala', 'abstract', 'object', 'weapon', 'vehicle', 'food', 'character', 'symbol', 'other',
] as const;
export type SubjectId = (typeof SUBJECTS)[number];

/**
 * What an operator should look at before approving. `not_a_tattoo`: the image shows no tattoo (a
 * flash sheet, a selfie, a screenshot); `nudity`; `face_visible`: a recognizable face (consent);
 * `text_or_watermark`: overlaid text, a logo or a watermark; `low_quality`: blurred, dark or too small.
 */
export const CONTENT_FLAGS = ['not_a_tattoo', 'nudity', 'face_visible', 'text_or_watermark', 'low_quality', 'violence', 'hate_symbol'] as const;
export type ContentFlag = (typeof CONTENT_FLAGS)[number];

export const CLASSIFICATION_LIMITS = { styles: 5, subjects: 10, modelName: 100, modelVersion: 100, rationale: 1000, requestId: 200, actorId: 200 } as const;
/** Model names and versions: printable words (no spaces at the ends, no markup, no line breaks). */
export const MODEL_WORD = /^[A-Za-z0-9](?:[A-Za-z0-9 ._:/@+-]*[A-Za-z0-9._:/@+-])?$/;
/**
 * What a rationale may not hold: control characters (but tab and line break), bidi controls (they
 * reorder what other readers see) and markup (a tag's opening). Its ends carry no white space.
 */
export const RATIONALE_FORBIDDEN = /[\u0000-\u0008\u000B-\u001F\u007F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]|<[A-Za-z/!?]/;
export const isRationale = (v: string) => !RATIONALE_FORBIDDEN.test(v) && v.trim() === v;

export interface Scored<T extends string> {
  id: T;
  confidence: number;
}

/** What a classifier says of one image. Every label is a vocabulary id with a confidence in [0, 1]. */
export interface ClassificationLabels {
  styles: Scored<StyleId>[];
  placement: Scored<PlacementId> | null;
  subjects: Scored<SubjectId>[];
  contentFlags: Scored<ContentFlag>[];
}

export interface ClassificationBody extends ClassificationLabels {
  model: { name: string; version: string };
  rationale: string;
}

/**
 * The Update's payload: the body as the API validated it, the request id, the actor the API
 * authenticated, and the API's proof of all three (lib/intake/decision-proof.ts, decision `classify`).
 */
export interface ClassifyPayload extends ClassificationBody {
  requestId: string;
  by: { actorId: string; credentialId: string };
  proof?: DecisionProof;
}

/**
 * The details hash a classification's proof carries: sha256 of the body in a fixed shape (labels as
 * [id, confidence], in the order given), so the API, the validator and the worker compute the same.
 */
export function classificationHash(b: ClassificationBody): string {
  const pairs = (xs: Scored<string>[]) => xs.map((x) => [x.id, x.confidence]);
  const placement = b.placement ? [b.placement.id, b.placement.confidence] : null;
  return sha256Hex(JSON.stringify(['classification/v1', pairs(b.styles), placement, pairs(b.subjects), pairs(b.contentFlags), [b.model.name, b.model.version], b.rationale]));
}

/** A classification's answer: recorded, or refused by the worker's re-check of the actor (nothing recorded). */
export type ClassifyAnswer = { recorded: true; classificationId: string } | { recorded: false; reason: string };

const unique = (xs: { id: string }[]) => new Set(xs.map((x) => x.id)).size === xs.length;

/**
 * The classification body's one schema, strict at every level (an unknown field anywhere is refused).
 * `trim` is the route's (lib/agents/answers.ts ClassificationBody): the model words and the
 * rationale are trimmed before the checks, and what is recorded and signed is the trimmed text.
 * Without it, the classify Update's check (a payload recorded as sent): untrimmed text is refused.
 */
export function classificationSchema(o: { trim: boolean }) {
  const CONFIDENCE = 'expected a number in [0, 1]';
  const confidence = z.number(say(CONFIDENCE)).min(0, say(CONFIDENCE)).max(1, say(CONFIDENCE)).describe('0 (a guess) to 1 (certain)');
  const scored = <T extends readonly [string, ...string[]]>(ids: T) =>
    z.strictObject({ id: z.enum(ids, say('not in the vocabulary')), confidence }, say('expected {id, confidence}'));
  const scoredList = <T extends readonly [string, ...string[]]>(ids: T, max: number) =>
    z.array(scored(ids), say('expected an array')).max(max, say(`at most ${max}`)).refine(unique, say('an id appears twice'));
  const text = (error: string) => (o.trim ? z.string(say(error)).trim() : z.string(say(error)));
  const MODEL = 'letters, digits, spaces and . _ : / @ + -';
  // The route's variant carries the pattern (the OpenAPI documents show it); the Update's is a
  // refinement: its schema sits frozen in the workflow thread's preloaded modules, where zod's regex
  // check (it resets the pattern's lastIndex) cannot run.
  const modelWord = (max: number, what: string) => {
    const word = text(`expected ${what}`).min(1, say(`expected ${what}`)).max(max, say(`expected ${what}`));
    return o.trim ? word.regex(MODEL_WORD, say(`expected ${what} (${MODEL})`)) : word.refine((v) => MODEL_WORD.test(v), say(`expected ${what} (${MODEL})`));
  };
  const RATIONALE = `expected text of at most ${CLASSIFICATION_LIMITS.rationale} characters, trimmed, without markup, bidi or other control characters (tab and line break are fine)`;
  return z.strictObject(
    {
      styles: scoredList(STYLES, CLASSIFICATION_LIMITS.styles).describe('style ids of the directory'),
      placement: scored(PLACEMENTS).nullable().describe('null: the classifier cannot tell'),
      subjects: scoredList(SUBJECTS, CLASSIFICATION_LIMITS.subjects),
      contentFlags: scoredList(CONTENT_FLAGS, CONTENT_FLAGS.length).describe('what an operator should look at; a flag absent is not a judgement that it does not apply'),
      model: z.strictObject({ name: modelWord(CLASSIFICATION_LIMITS.modelName, 'a model name'), version: modelWord(CLASSIFICATION_LIMITS.modelVersion, 'a version') }, say('expected {name, version}')),
      rationale: text(RATIONALE)
        .max(CLASSIFICATION_LIMITS.rationale, say(RATIONALE))
        .refine(isRationale, say(RATIONALE))
        .describe('a short reason, shown to operators as the classifier\u2019s words (ends trimmed; no markup, no bidi or control characters)'),
    },
    say('expected an object'),
  );
}

/** The body as the classify Update records it (no trimming: untrimmed text is refused). */
const storedClassification = classificationSchema({ trim: false });
const ACTOR_ID = 'expected an id';
const actorId = z.string(say(ACTOR_ID)).min(1, say(ACTOR_ID)).max(CLASSIFICATION_LIMITS.actorId, say(ACTOR_ID));
/** The classify Update's payload: the body as the API validated it, the request id, the actor it authenticated and its proof; nothing else. */
export const classifyPayload = storedClassification.extend({
  requestId: z.string(say('expected an id')).min(1, say('expected an id')).max(CLASSIFICATION_LIMITS.requestId, say('expected an id')),
  by: z.strictObject({ actorId, credentialId: actorId }, say('expected {actorId, credentialId}')),
  proof: proofShape,
});

/** The problems of a classification body as the Update records it (empty: it is one). */
export function classificationProblems(b: unknown): string[] {
  const r = storedClassification.safeParse(b);
  return r.success ? [] : problemsOf(r.error);
}

/** The Update payload's problems: the body's, the request id's, the actor's and the proof's. */
export function classifyPayloadProblems(p: unknown): string[] {
  const r = classifyPayload.safeParse(p);
  return r.success ? [] : problemsOf(r.error);
}
