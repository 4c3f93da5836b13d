// A handler's answer, typed by its route's response schemas: a body (of the first success status)
// or reply(status, body); mountRoutes writes the `{ success: true, ... }` envelope around it.
import type { z } from 'zod';

export type OkTable = Readonly<Record<number, readonly [string, z.ZodType | null]>>;
/** What a handler returns for an answer: its schema's body without `success: true` (mountRoutes writes the envelope). */
export type Unsuccessful<T> = T extends { success: true } ? Omit<T, 'success'> : T;
export type BodyOf<S> = S extends z.ZodType ? Unsuccessful<z.input<S>> : never;
/** One of the route's success answers: `reply(201, body)`; a bare body is the first status's. */
export class Reply<Status extends number = number, Body = unknown> {
  constructor(
    readonly status: Status,
    readonly body: Body,
  ) {}
}
export const reply = <Status extends number, Body>(status: Status, body: Body) => new Reply(status, body);
export type Replies<OK extends OkTable> = { [K in keyof OK & number]: OK[K] extends readonly [string, infer S] ? (S extends z.ZodType ? Reply<K, BodyOf<S>> : never) : never }[keyof OK & number];
export type FirstBody<OK extends OkTable> = OK extends { 200: readonly [string, infer S] } ? BodyOf<S> : OK extends { 201: readonly [string, infer S] } ? BodyOf<S> : never;
/**
 * A handler answers by returning a body (of its first success status) or a Reply (any of its
 * success statuses), typed by the route's response schemas; it returns nothing only when it wrote
 * the answer itself (bytes, redirects, 204).
 */
export type Answer<OK extends OkTable> = FirstBody<OK> | Replies<OK> | void;
