// Clients generated from the published documents (openapi-typescript types + openapi-fetch) can
// call every operation with the values the contract means: booleans as booleans, numbers as
// numbers. The documents are fetched from a running stack, turned into types, and a program that
// calls every documented operation is type-checked with the project's TypeScript (strict). The
// parameter values come from the routes' own parsers, not from the documents, so a boolean or
// number documented as a string fails the check. A deliberately wrong program must fail it too, and
// the typed client sends `verified: true` to the running API for real.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { operations, type Operation } from '../../api/openapi/operations';
import { encodeCursor } from '../../api/routes/intake/schemas';
import { encodeSeq } from '../../api/openapi/webhook-schemas';
import { allRoutes } from '../../api/route-list';
import { seedDirectory } from '../../scripts/seed/directory';
import { startTestStack, uid, type TestStack } from '../helpers/stack';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TSC = path.join(ROOT, 'node_modules/.bin/tsc');
const DOCUMENTS = {
  intake: { url: '/api/private/portfolio-intake/v1/openapi.json', client: 'intake' },
  public: { url: '/api/v1/openapi.json', client: 'pub' },
} as const;
type DocId = keyof typeof DOCUMENTS;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: Json[];
  const?: Json;
  default?: Json;
  minLength?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}
interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  schema: JsonSchema;
}
interface DocOperation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: JsonSchema }> };
}
interface Document {
  paths: Record<string, Partial<Record<(typeof METHODS)[number], DocOperation>>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

// Inside the checkout (git-ignored), so tsc, tsx and vitest resolve openapi-fetch from node_modules.
const dir = path.join(ROOT, '.data/tmp', uid('typed-clients-'));
let stack: TestStack;
const docs = {} as Record<DocId, Document>;

beforeAll(async () => {
  stack = await startTestStack({ worker: false });
  await seedDirectory(stack.sql, { studios: 30, seed: 7 });
  fs.mkdirSync(dir, { recursive: true });
  for (const id of Object.keys(DOCUMENTS) as DocId[]) {
    const res = await fetch(`${stack.url}${DOCUMENTS[id].url}`);
    expect(res.status).toBe(200);
    docs[id] = (await res.json()) as Document;
    fs.writeFileSync(path.join(dir, `${id}.ts`), astToString(await openapiTS(structuredClone(docs[id]) as never, { silent: true })));
  }
});
afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
  await stack?.stop();
});

/**
 * What a parameter means, from the route's own parser: the first wire string it accepts, given as
 * the boolean or number it parses to, else as the string itself (text, enums, comma lists).
 */
function contractValue(schema: z.ZodType, doc: JsonSchema, where: string): Json {
  const wire = [
    'true',
    '1',
    ...(doc.enum ?? []).map(String),
    '$',
    'a'.repeat(Math.max(3, doc.minLength ?? 0)),
    '2026-01-01T00:00:00Z', // RFC 3339 filters (createdAfter, createdBefore)
    encodeCursor({ createdAt: '2026-01-01 00:00:00+00', submissionId: 'sub_sample' }), // a list cursor as the API gives them out
    encodeSeq('42'), // an events-feed or delivery-log cursor
    'AbCdEf0123456789', // an API key's id (the partner portal's keyId)
  ];
  for (const s of wire) {
    const r = schema.safeParse(s);
    if (!r.success) continue;
    if (typeof r.data === 'boolean' || typeof r.data === 'number') return r.data;
    // Text (or a comma list): a word reads better than "true" where the parser takes one.
    const word = 'koi'.padEnd(doc.minLength ?? 0, 'i');
    return doc.enum === undefined && schema.safeParse(word).success ? word : s;
  }
  throw new Error(`no wire value found for ${where}: extend the candidates`);
}

/** A value of a (JSON body) schema: required and optional properties, first of each choice. */
function sample(doc: Document, s: JsonSchema, depth = 0): Json {
  if (depth > 8) throw new Error('schema too deep to sample');
  if (s.$ref) return sample(doc, doc.components!.schemas![s.$ref.replace('#/components/schemas/', '')]!, depth + 1);
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0]!;
  const choice = s.anyOf ?? s.oneOf ?? s.allOf;
  if (choice) return sample(doc, choice[0]!, depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, sample(doc, v, depth + 1)]));
    case 'array':
      return s.items ? [sample(doc, s.items, depth + 1)] : [];
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'string':
      return 'a'.repeat(Math.max(8, s.minLength ?? 0));
    default:
      throw new Error(`cannot sample ${JSON.stringify(s)}`);
  }
}

const lit = (v: Json) => JSON.stringify(v);

/** One typed call per documented operation of a document. */
function callsOf(id: DocId, ops: Operation[]): string[] {
  const doc = docs[id];
  const calls: string[] = [];
  for (const [p, item] of Object.entries(doc.paths))
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const route = ops.find((o) => o.doc === id && o.method === method && o.path === p);
      if (!route) throw new Error(`${method.toUpperCase()} ${p} is documented but no route defines it`);
      const params: Record<string, Record<string, Json>> = {};
      for (const prm of op.parameters ?? []) {
        const shape = (prm.in === 'path' ? route.params : prm.in === 'query' ? route.query : undefined)?.shape as Record<string, z.ZodType> | undefined;
        const schema = shape?.[prm.name];
        if (!schema) throw new Error(`${method.toUpperCase()} ${p}: the route does not parse ${prm.in} parameter ${prm.name}`);
        (params[prm.in] ??= {})[prm.name] = contractValue(schema, prm.schema, `${method.toUpperCase()} ${p} ${prm.in}.${prm.name}`);
      }
      const init: string[] = [];
      if (Object.keys(params).length) init.push(`params: ${lit(params)}`);
      if (op.requestBody) {
        const [type, media] = Object.entries(op.requestBody.content)[0]!;
        init.push(`body: ${type === 'application/json' ? lit(sample(doc, media.schema ?? {})) : "'raw bytes'"}`);
      }
      calls.push(`  await ${DOCUMENTS[id].client}.${method.toUpperCase()}(${lit(p)}${init.length ? `, { ${init.join(', ')} }` : ''});`);
    }
  return calls;
}

const HEADER = [
  "import createClient from 'openapi-fetch';",
  "import type { paths as IntakePaths } from './intake';",
  "import type { paths as PublicPaths } from './public';",
  '',
];

function writeProgram(name: string, body: string[]): string {
  const file = path.join(dir, `${name}.ts`);
  fs.writeFileSync(file, [...HEADER, ...body, ''].join('\n'));
  fs.writeFileSync(
    path.join(dir, `tsconfig.${name}.json`),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2023', 'DOM'],
        module: 'ESNext',
        moduleResolution: 'Bundler',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
      files: [`${name}.ts`],
    }),
  );
  return file;
}

function tsc(name: string) {
  const r = spawnSync(TSC, ['--noEmit', '--strict', '-p', path.join(dir, `tsconfig.${name}.json`)], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, output: `${r.stdout}${r.stderr}` };
}

describe('clients generated from the documents with openapi-typescript and openapi-fetch', () => {
  it('type-check a call of every documented operation with the values the contract means', () => {
    const ops = operations(allRoutes({ maxMediaBytes: stack.cfg.MAX_MEDIA_BYTES }));
    const intakeCalls = callsOf('intake', ops);
    const publicCalls = callsOf('public', ops);
    expect(intakeCalls.length).toBe(ops.filter((o) => o.doc === 'intake').length);
    expect(publicCalls.length).toBe(ops.filter((o) => o.doc === 'public').length);
    // The values of the issue, as a person writes them.
    expect(publicCalls.join('\n')).toMatch(/pub\.GET\("\/api\/v1\/studios", \{ params: \{"query":\{[^}]*"verified":true/);
    writeProgram('every-operation', [
      'export async function studios(baseUrl: string) {',
      '  const pub = createClient<PublicPaths>({ baseUrl });',
      "  const { data, error, response } = await pub.GET('/api/v1/studios', { params: { query: { verified: true, limit: 5 } } });",
      '  return { status: response.status, verified: data?.data.map((s) => s.verified), error };',
      '}',
      '',
      'export async function everyOperation(baseUrl: string) {',
      '  const pub = createClient<PublicPaths>({ baseUrl });',
      '  const intake = createClient<IntakePaths>({ baseUrl });',
      ...intakeCalls,
      ...publicCalls,
      '}',
    ]);
    const r = tsc('every-operation');
    expect(r.output).toBe('');
    expect(r.code).toBe(0);
  });

  it('fail the check on a wrongly typed call (the check can fail)', () => {
    writeProgram('wrong', [
      'export async function wrong(baseUrl: string) {',
      '  const pub = createClient<PublicPaths>({ baseUrl });',
      "  await pub.GET('/api/v1/studios', { params: { query: { verified: 'yes' } } });",
      "  await pub.GET('/api/v1/studios', { params: { query: { limit: '5' } } });",
      "  await createClient<IntakePaths>({ baseUrl }).GET('/api/private/portfolio-intake/v1/review-queue', { params: { query: { page: true } } });",
      '}',
    ]);
    const r = tsc('wrong');
    expect(r.code).not.toBe(0);
    // One error per wrong call, each on its own line (lines 7 to 9 of the program), none elsewhere.
    const errors = r.output.split('\n').filter((l) => /error TS\d+/.test(l));
    expect(errors.map((l) => /^wrong\.ts\((\d+),/.exec(l)?.[1])).toEqual(['7', '8', '9']);
  });

  it('send GET /api/v1/studios?verified=true&limit=5 with the typed client: 200, verified studios only', async () => {
    const program = path.join(dir, 'every-operation.ts');
    expect(fs.existsSync(program)).toBe(true);
    const { studios } = (await import(pathToFileURL(program).href)) as {
      studios(baseUrl: string): Promise<{ status: number; verified?: boolean[]; error: unknown }>;
    };
    const r = await studios(stack.url);
    expect(r.error).toBeUndefined();
    expect(r.status).toBe(200);
    expect(r.verified!.length).toBeGreaterThan(0);
    expect(r.verified!.length).toBeLessThanOrEqual(5);
    expect(r.verified!.every((v) => v === true)).toBe(true);
  });
});
