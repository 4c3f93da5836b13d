// A directory record's field table: for each field, its runtime column (also its TypeScript name),
// its SQL type, the name the API serves it under, its legacy column and its answer schema. The
// runtime select, the runtime upsert's columns, the legacy select, the shadow-read comparison and the
// zod answer schema are all read from it.
import { z } from 'zod';

export interface Field {
  /** The runtime column; rows read through the camel transform carry it camelCased. */
  column: string;
  sqlType: 'text' | 'text[]' | 'float8' | 'integer' | 'numeric' | 'boolean';
  /** The JSON name in the answer; null: stored, not served. */
  served: string | null;
  /** The legacy store's column it is normalized from; null: the normalization derives it. */
  legacy: string | null;
  schema: z.ZodType;
}

export const camel = (column: string) => column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

type Served<F> = F extends { served: infer S extends string; schema: infer T extends z.ZodType } ? [S, T] : never;
/** The answer schema's shape: served name -> schema, in table order. */
export type AnswerShape<T extends readonly Field[]> = { [E in Served<T[number]> as E[0]]: E[1] };

export function answerShape<T extends readonly Field[]>(fields: T): AnswerShape<T> {
  return Object.fromEntries(fields.filter((f) => f.served !== null).map((f) => [f.served, f.schema])) as AnswerShape<T>;
}

/** The served fields of a row read through the camel transform, under their served names. */
export function servedOf<T extends readonly Field[]>(fields: T, row: object): z.infer<z.ZodObject<AnswerShape<T>>> {
  return Object.fromEntries(fields.filter((f) => f.served !== null).map((f) => [f.served, (row as Record<string, unknown>)[camel(f.column)]])) as z.infer<z.ZodObject<AnswerShape<T>>>;
}

/** `alias.column` of each served field, for a runtime select. */
export const runtimeColumns = (fields: readonly Field[], alias: string) =>
  fields.filter((f) => f.served !== null).map((f) => `${alias}.${f.column}`).join(', ');

/** The runtime upsert's columns and their types. */
export const upsertColumns = (fields: readonly Field[]): [string, string][] => fields.map((f) => [f.column, f.sqlType]);

/** The served names a shadow read compares: the fields read from a legacy column. */
export const comparedFields = (fields: readonly Field[]) => fields.flatMap((f) => (f.legacy !== null && f.served !== null ? [f.served] : []));

type Camel<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;
/** A row of the served fields as read through the camel transform. */
export type RowOf<T extends readonly Field[]> = { [F in T[number] as F extends { served: string } ? Camel<F['column']> : never]: z.infer<F['schema']> };
/** A record of every field under its runtime column, as the cutover writes it. */
export type ColumnsOf<T extends readonly Field[]> = { [F in T[number] as F['column']]: z.infer<F['schema']> };
