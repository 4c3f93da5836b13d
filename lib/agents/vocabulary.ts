// The words a classification may use (the agent context hands them to classifiers) and the shape
// of a classification, checked in plain code: the workflow's Update validator runs it on whatever
// reaches the run (anyone who can reach Temporal can send an Update), and the route's zod schema
// (lib/agents/answers.ts) is held to the same limits by a unit test. Pure: workflow code imports it.
import { STYLES } from '../directory/vocabulary';
import { sha256Hex } from '../intake/decision-check';
import { checkProof } from '../intake/signal-shapes';
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

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown, max: number, min = 1): v is string => typeof v === 'string' && v.length >= min && v.length <= max && !v.includes('\u0000');

function onlyKeys(o: Obj, keys: readonly string[], at: string, problems: string[]) {
  for (const k of Object.keys(o)) if (!keys.includes(k)) problems.push(`${at}${k}: unknown field`);
}

function scored(v: unknown, vocabulary: readonly string[], at: string, problems: string[]) {
  if (!isObj(v)) return problems.push(`${at}: expected {id, confidence}`);
  onlyKeys(v, ['id', 'confidence'], `${at}.`, problems);
  if (typeof v.id !== 'string' || !vocabulary.includes(v.id)) problems.push(`${at}.id: not in the vocabulary`);
  if (typeof v.confidence !== 'number' || !Number.isFinite(v.confidence) || v.confidence < 0 || v.confidence > 1) problems.push(`${at}.confidence: expected a number in [0, 1]`);
}

function scoredList(v: unknown, vocabulary: readonly string[], max: number, at: string, problems: string[]) {
  if (!Array.isArray(v)) return problems.push(`${at}: expected an array`);
  if (v.length > max) return problems.push(`${at}: at most ${max}`);
  v.forEach((x, i) => scored(x, vocabulary, `${at}[${i}]`, problems));
  const ids = v.map((x) => (isObj(x) ? x.id : undefined));
  if (new Set(ids).size !== ids.length) problems.push(`${at}: an id appears twice`);
}

const BODY_KEYS = ['styles', 'placement', 'subjects', 'contentFlags', 'model', 'rationale'] as const;

/** The problems of a classification body (empty: it is one). Strict: an unknown field anywhere is a problem. */
export function classificationProblems(b: unknown, extraKeys: readonly string[] = []): string[] {
  const problems: string[] = [];
  if (!isObj(b)) return ['payload: expected an object'];
  onlyKeys(b, [...BODY_KEYS, ...extraKeys], '', problems);
  scoredList(b.styles, STYLES, CLASSIFICATION_LIMITS.styles, 'styles', problems);
  if (b.placement !== null) scored(b.placement, PLACEMENTS, 'placement', problems);
  scoredList(b.subjects, SUBJECTS, CLASSIFICATION_LIMITS.subjects, 'subjects', problems);
  scoredList(b.contentFlags, CONTENT_FLAGS, CONTENT_FLAGS.length, 'contentFlags', problems);
  if (!isObj(b.model)) problems.push('model: expected {name, version}');
  else {
    onlyKeys(b.model, ['name', 'version'], 'model.', problems);
    if (!isText(b.model.name, CLASSIFICATION_LIMITS.modelName) || !MODEL_WORD.test(b.model.name)) problems.push('model.name: expected a model name');
    if (!isText(b.model.version, CLASSIFICATION_LIMITS.modelVersion) || !MODEL_WORD.test(b.model.version)) problems.push('model.version: expected a version');
  }
  if (!isText(b.rationale, CLASSIFICATION_LIMITS.rationale, 0) || !isRationale(b.rationale))
    problems.push(`rationale: expected text of at most ${CLASSIFICATION_LIMITS.rationale} characters, trimmed, without markup or control characters`);
  return problems;
}

/** The Update payload's problems: the body's, the request id's and the actor's. */
export function classifyPayloadProblems(p: unknown): string[] {
  if (!isObj(p)) return ['payload: expected an object'];
  const problems = classificationProblems(p, ['requestId', 'by', 'proof']);
  checkProof(p, problems);
  if (!isText(p.requestId, CLASSIFICATION_LIMITS.requestId)) problems.push('requestId: expected an id');
  if (!isObj(p.by)) problems.push('by: expected {actorId, credentialId}');
  else {
    onlyKeys(p.by, ['actorId', 'credentialId'], 'by.', problems);
    if (!isText(p.by.actorId, CLASSIFICATION_LIMITS.actorId)) problems.push('by.actorId: expected an id');
    if (!isText(p.by.credentialId, CLASSIFICATION_LIMITS.actorId)) problems.push('by.credentialId: expected an id');
  }
  return problems;
}
