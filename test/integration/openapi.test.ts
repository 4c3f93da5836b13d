// The OpenAPI documents: served, valid OpenAPI 3.1, in step with the routes Express really has,
// their security and response schemas true to what the API answers; and the docs page.
import fs from 'node:fs';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as C from '../../api/openapi/components';
import { securityOf } from '../../api/openapi/documents';
import { operations, type Operation } from '../../api/openapi/operations';
import { allRoutes } from '../../api/route-list';
import { directoryRoutes } from '../../api/routes/directory';
import { apiKeyActor, bearerActor, type TestCredential } from '../helpers/auth';
import { seedTestDirectory } from '../helpers/directory-seed';
import { call, INTAKE } from '../helpers/intake';
import { startTestStack, type TestStack } from '../helpers/stack';

let stack: TestStack;
let reader: TestCredential;
let ops: Operation[];
beforeAll(async () => {
  stack = await startTestStack({ worker: false });
  await seedTestDirectory(stack);
  reader = await apiKeyActor(stack, { permissions: ['search:read', 'artists:read', 'portfolios:read', 'designs:read', 'portfolio_intake:stage'] });
  ops = operations(allRoutes({ maxMediaBytes: stack.cfg.MAX_MEDIA_BYTES }));
});
afterAll(async () => stack?.stop());

/** A concrete URL for an operation: path parameters filled with harmless values. */
const urlOf = (op: Operation) => op.path.replace(/\{(\w+)\}/g, (_m, name: string) => (name === 'key' ? 'staging%2Fnone' : `x_${name}`));

describe('the documents', () => {
  it.each([
    [`${INTAKE}/openapi.json`, 'intake'],
    ['/api/v1/openapi.json', 'public'],
  ] as const)('%s is served without a credential and is a valid OpenAPI 3.1.0 document', async (url, doc) => {
    const res = await call(stack, 'GET', url);
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const result = await new Validator().validate(res.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    const documented = Object.entries(res.body.paths as Record<string, Record<string, unknown>>).flatMap(([p, item]) => Object.keys(item).map((m) => `${m} ${p}`));
    expect(documented.sort()).toEqual(ops.filter((o) => o.doc === doc).map((o) => `${o.method} ${o.path}`).sort());
    if (doc === 'intake') expect(res.body.info.version).toBe('1.0.0');
    expect(res.body.components.securitySchemes).toEqual({
      ApiKeyAuth: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }),
      BearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }),
      PortalSession: expect.objectContaining({ type: 'apiKey', in: 'cookie', name: 'portal_session' }),
      ConsoleSession: expect.objectContaining({ type: 'apiKey', in: 'cookie', name: 'console_session' }),
    });
    // The docs open on what people came for: the retired operations come last, under their own tag.
    const tags = (res.body.tags as { name: string }[]).map((t) => t.name);
    if (tags.includes('Retired')) expect(tags.at(-1)).toBe('Retired');
    const firstPath = Object.keys(res.body.paths)[0]!;
    expect(Object.values(res.body.paths[firstPath] as Record<string, { deprecated?: boolean }>).some((op) => op.deprecated)).toBe(false);
  });

  it('every error answer is problem+json and every operation has one security requirement per accepted credential', async () => {
    const { body } = await call(stack, 'GET', `${INTAKE}/openapi.json`);
    const approve = body.paths['/api/private/portfolio-intake/v1/submissions/{submissionId}/approve'].post;
    // An operator's bearer token, or the review console's session (one door).
    expect(approve.security).toEqual([{ BearerAuth: [] }, { ConsoleSession: [] }]);
    expect(Object.keys(approve.responses).sort()).toEqual(['200', '202', '400', '401', '403', '404', '409', '413', '429', '503']);
    expect(Object.keys(approve.responses['409'].content)).toEqual(['application/problem+json']);
    expect(approve.responses['503'].headers).toHaveProperty('Retry-After');
    expect(Object.keys(approve.responses['429'].headers).sort()).toEqual(['RateLimit', 'RateLimit-Policy', 'Retry-After']);
    // Probes are never rate limited, so they document no 429.
    const { body: pub } = await call(stack, 'GET', '/api/v1/openapi.json');
    expect(pub.paths['/api/v1/health/live'].get.responses).not.toHaveProperty('429');
    // /search says which backend answered (SEARCH_BACKEND=opensearch), absent on the default one.
    expect(pub.paths['/api/v1/search'].get.responses['200'].headers).toEqual({
      'X-Search-Backend': { description: expect.stringContaining('postgres-fallback'), required: false, schema: { type: 'string', enum: ['opensearch', 'postgres-fallback'] } },
    });
    const plain = await call(stack, 'GET', '/api/v1/search?type=studio', { headers: reader.headers });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('x-search-backend')).toBeNull();
    expect(body.paths['/api/private/portfolio-intake/v1/submissions/{submissionId}/upload-complete'].post.security).toEqual([{ ApiKeyAuth: [] }]);
    expect(body.paths['/api/private/portfolio-intake/v1/submissions'].post.security).toEqual([{ ApiKeyAuth: [] }, { BearerAuth: [] }]);
  });
});

describe('documents and routes stay in step', () => {
  it('every documented operation is routed: it reaches its credential check or its handler, never the 404 / 405 fallbacks', async () => {
    for (const op of ops) {
      const res = await call(stack, op.method.toUpperCase(), urlOf(op), op.body ? { body: {} } : {});
      const where = `${op.method} ${op.path}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`;
      expect(res.body?.code, where).not.toBe('method_not_allowed');
      expect(res.body?.detail, where).not.toBe('No such route.');
    }
  });

  it('OPTIONS on each documented path lists exactly the methods the definitions give it', async () => {
    const byPath = new Map<string, Set<string>>();
    for (const op of ops) byPath.set(op.path, (byPath.get(op.path) ?? new Set()).add(op.method.toUpperCase()));
    for (const [p, methods] of byPath) {
      const op = ops.find((o) => o.path === p)!;
      const res = await fetch(`${stack.url}${urlOf(op).split('?')[0]}`, { method: 'OPTIONS' });
      const expected = [...methods, ...(methods.has('GET') ? ['HEAD'] : [])].sort().join(', ');
      expect(res.status, p).toBe(204);
      expect(res.headers.get('allow'), p).toBe(expected);
    }
  });

  it('the documented security is what the routes enforce: no credential is 401, the wrong kind is 403', async () => {
    const operator = await bearerActor(stack, { permissions: ['portfolio_intake:review'], operator: true });
    for (const op of ops.filter((o) => o.auth !== 'public')) {
      const bare = await call(stack, op.method.toUpperCase(), urlOf(op), op.body ? { body: {} } : {});
      expect(bare.status, `${op.method} ${op.path}`).toBe(401);
      const schemes = securityOf(op).map((s) => Object.keys(s)[0]);
      if (schemes.every((x) => x === 'PortalSession' || x === 'ConsoleSession')) {
        // The portal's and the console's own routes take their session cookie only: a header credential is no session (401).
        for (const cred of [reader, operator]) expect((await call(stack, op.method.toUpperCase(), urlOf(op), { headers: cred.headers, ...(op.body ? { body: {} } : {}) })).status).toBe(401);
        continue;
      }
      if (!schemes.includes('ApiKeyAuth')) {
        const r = await call(stack, op.method.toUpperCase(), urlOf(op), { headers: reader.headers, ...(op.body ? { body: {} } : {}) });
        expect(r.status, `${op.method} ${op.path} with an API key`).toBe(403);
      }
      if (!schemes.includes('BearerAuth')) {
        const r = await call(stack, op.method.toUpperCase(), urlOf(op), { headers: operator.headers, ...(op.body ? { body: {} } : {}) });
        expect(r.status, `${op.method} ${op.path} with a bearer token`).toBe(403);
      }
    }
  });

  it('one rule for writes on the directory: every write method on every directory path it does not serve answers 405 public_writes_blocked with Allow, with or without a credential', async () => {
    const directory = directoryRoutes();
    const paths = [...new Set(directory.map((r) => r.path))];
    expect(paths.length).toBeGreaterThan(10);
    let checked = 0;
    for (const p of paths) {
      const served = new Set(directory.filter((r) => r.path === p && r.kind === 'operation').map((r) => r.method.toUpperCase()));
      const allow = [...served].flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m])).sort().join(', ');
      const url = p.replace(/\{(\w+)\}/g, (_m, name: string) => (name === 'key' ? 'staging%2Fnone' : `x_${name}`));
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => !served.has(m))) {
        for (const headers of [{}, reader.headers]) {
          const res = await call(stack, method, url, { headers, body: {} });
          expect([res.status, res.body?.code], `${method} ${p}`).toEqual([405, 'public_writes_blocked']);
          expect(res.headers.get('allow'), `${method} ${p}`).toBe(allow);
          checked++;
        }
      }
    }
    // the cases among them: writes on /studios and /search, PUT /artists, POST /artists/{id}
    for (const [method, url] of [['POST', '/api/v1/studios'], ['DELETE', '/api/v1/search'], ['PUT', '/api/v1/artists'], ['POST', '/api/v1/artists/x']]) {
      expect((await call(stack, method!, url!, { body: {} })).body.code, `${method} ${url}`).toBe('public_writes_blocked');
    }
    expect(checked).toBeGreaterThan(80);
  });

  it('a known path answers 405 with Allow for a method it does not serve', async () => {
    const res = await call(stack, 'DELETE', `${INTAKE}/submissions`, { headers: reader.headers });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(res.body.code).toBe('method_not_allowed');
    const get = await call(stack, 'PATCH', '/api/v1/health/live');
    expect(get.headers.get('allow')).toBe('GET, HEAD');
    const blocked = await call(stack, 'POST', '/api/v1/designs', { headers: reader.headers, body: {} });
    expect(blocked.status).toBe(405);
    expect(blocked.body.code).toBe('public_writes_blocked');
    expect((await call(stack, 'GET', '/api/v1/no-such-thing')).status).toBe(404);
  });
});

describe('the response schemas match real answers', () => {
  const cases: [string, string, { parse: (x: unknown) => unknown }, boolean][] = [
    ['studios', '/api/v1/studios?limit=50', C.StudiosPage, false],
    ['studios near a point', '/api/v1/studios?latitude=10&longitude=20&radius=50&sort=distance', C.StudiosPage, false],
    ['search with facets', '/api/v1/search?q=studio&include_facets=true&limit=50', C.SearchPage, true],
    ['search near a point', '/api/v1/search?latitude=10&longitude=20&radius=100', C.SearchPage, true],
    ['artists', '/api/v1/artists?limit=100', C.ArtistsPage, true],
    ['portfolios', '/api/v1/portfolios?limit=100', C.PortfoliosPage, true],
    ['designs', '/api/v1/designs?limit=100', C.DesignsPage, true],
    ['live', '/api/v1/health/live', C.Live, false],
    ['ready', '/api/v1/health/ready', C.Readiness, false],
    ['legacy health', '/api/v1/health', C.LegacyHealth, false],
  ];
  it.each(cases)('%s', async (_name, url, schema, auth) => {
    const res = await call(stack, 'GET', url, auth ? { headers: reader.headers } : {});
    expect([200, 503]).toContain(res.status);
    expect(() => schema.parse(res.body)).not.toThrow();
    if (res.body.data && Array.isArray(res.body.data)) expect(res.body.data.length).toBeGreaterThan(0);
  });

  it('an artist found by id matches Artist; a problem answer matches Problem', async () => {
    const list = await call(stack, 'GET', '/api/v1/artists?limit=1', { headers: reader.headers });
    const one = await call(stack, 'GET', `/api/v1/artists/${list.body.data[0].id}`, { headers: reader.headers });
    expect(() => C.ArtistEnvelope.parse(one.body)).not.toThrow();
    const missing = await call(stack, 'GET', '/api/v1/artists/nope', { headers: reader.headers });
    expect(() => C.Problem.parse(missing.body)).not.toThrow();
  });
});

describe('the docs page', () => {
  it('serves Swagger UI from this origin under a strict Content-Security-Policy', async () => {
    const res = await fetch(`${stack.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    const html = await res.text();
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThanOrEqual(4);
    for (const ref of refs) {
      expect(ref.startsWith('/docs/'), ref).toBe(true);
      expect((await fetch(`${stack.url}${ref}`)).status, ref).toBe(200);
    }
  });

  it('offers the demo partner key only when the embedded stack wrote one, and never when switched off', async () => {
    const keyFile = path.join(stack.cfg.DATA_DIR, 'secrets', 'demo-partner-key');
    const before = await call(stack, 'GET', '/docs/config.json');
    expect(before.body.demoApiKey).toBeUndefined();
    expect(before.body.urls.map((u: { url: string }) => u.url)).toEqual([`${INTAKE}/openapi.json`, '/api/v1/openapi.json']);
    fs.mkdirSync(path.dirname(keyFile), { recursive: true });
    fs.writeFileSync(keyFile, 'tpk_demo_key_for_docs_test');
    try {
      expect((await call(stack, 'GET', '/docs/config.json')).body.demoApiKey).toBe('tpk_demo_key_for_docs_test');
      const off = await startTestStack({ worker: false, env: { DOCS_PREFILL_DEMO_KEY: 'false', DATA_DIR: stack.cfg.DATA_DIR } });
      try {
        expect((await call(off, 'GET', '/docs/config.json')).body.demoApiKey).toBeUndefined();
      } finally {
        await off.stop();
      }
    } finally {
      fs.rmSync(keyFile);
    }
  });
});
