// A directory record's field table: for each field, its runtime column (also its TypeScript name),
// its SQL type, the name the API serves it under, its legacy column and its answer schema. The
// runtime select, the runtime upsert's columns, the legacy select, the shadow-read comparison and the
// zod answer schema are all read from it. A field the answer serves in another order than the
// table's (the upsert's) is served through an order: the served names, in the answer's order.
import { z } from 'zod';

export interface Field {
  /** The runtime column; rows read through the camel transform carry it camelCased. */
  column: string;
  sqlType: 'text' | 'text[]' | 'float8' | 'integer' | 'numeric' | 'boolean' | 'json' | 'jsonb';
  /** The JSON name in the answer; null: stored, not served. */
  served: string | null;
  /** The legacy store's column it is normalized from; null: the normalization derives it. */
  legacy: string | null;
  schema: z.ZodType;
  /** The runtime select's expression for it (default `alias.column`), read under the column's name. */
  select?: (alias: string) => string;
  /** The legacy select's expression for it (default the legacy column), read under the legacy column's name. */
  legacySelect?: (alias: string) => string;
  /** false: the runtime store keeps it, the cutover does not write it (not in the upsert). */
  written?: false;
  /** true: the shadow read compares it though the normalization derives it (default: compared when read from a legacy column). */
  compared?: true;
}

export const camel = (column: string) => column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

type Served<F> = F extends { served: infer S extends string; schema: infer T extends z.ZodType } ? [S, T] : never;
/** The served names of a table. */
export type ServedName<T extends readonly Field[]> = Served<T[number]>[0];
/** The answer schema's shape: served name -> schema (of the names in O, every served one by default). */
export type AnswerShape<T extends readonly Field[], O extends string = ServedName<T>> = { [E in Served<T[number]> as E[0] extends O ? E[0] : never]: E[1] };

/** The served fields, in the table's order or in `order` (served names). */
function servedFields(fields: readonly Field[], order?: readonly string[]): Field[] {
  if (!order) return fields.filter((f) => f.served !== null);
  return order.map((name) => {
    const f = fields.find((x) => x.served === name);
    if (!f) throw new Error(`no served field ${name}`);
    return f;
  });
}

export function answerShape<T extends readonly Field[], const O extends readonly ServedName<T>[] = readonly ServedName<T>[]>(fields: T, order?: O): AnswerShape<T, O[number]> {
  return Object.fromEntries(servedFields(fields, order).map((f) => [f.served, f.schema])) as AnswerShape<T, O[number]>;
}

/** The served fields of a row read through the camel transform, under their served names (in `order` when given). */
export function servedOf<T extends readonly Field[], const O extends readonly ServedName<T>[] = readonly ServedName<T>[]>(fields: T, row: object, order?: O): z.infer<z.ZodObject<AnswerShape<T, O[number]>>> {
  return Object.fromEntries(servedFields(fields, order).map((f) => [f.served, (row as Record<string, unknown>)[camel(f.column)]])) as z.infer<z.ZodObject<AnswerShape<T, O[number]>>>;
}

/** `alias.column` (or the field's select expression) of each served field, for a runtime select. */
export const runtimeColumns = (fields: readonly Field[], alias: string) =>
  fields.filter((f) => f.served !== null).map((f) => (f.select ? `${f.select(alias)} as ${f.column}` : `${alias}.${f.column}`)).join(', ');

/** The runtime upsert's columns and their types. */
export const upsertColumns = (fields: readonly Field[]): [string, string][] => fields.flatMap((f): [string, string][] => (f.written === false ? [] : [[f.column, f.sqlType]]));

/** The served names a shadow read compares (of those in `order` when given): the fields read from a legacy column, and those marked compared. */
export const comparedFields = (fields: readonly Field[], order?: readonly string[]) =>
  servedFields(fields, order).flatMap((f) => (f.legacy !== null || f.compared ? [f.served!] : []));

/** A record's runtime columns camelCased, as a row read through the camel transform carries them. */
export const camelRow = (record: object): Record<string, unknown> => Object.fromEntries(Object.entries(record).map(([k, v]) => [camel(k), v]));

type Camel<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;
/** A row of the served fields as read through the camel transform. */
export type RowOf<T extends readonly Field[]> = { [F in T[number] as F extends { served: string } ? Camel<F['column']> : never]: z.infer<F['schema']> };
/** A record of every written field under its runtime column, as the cutover writes it. */
export type ColumnsOf<T extends readonly Field[]> = { [F in T[number] as F extends { written: false } ? never : F['column']]: z.infer<F['schema']> };
