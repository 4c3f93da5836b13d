// securityHeaders() on a tiny Express app: JSON, problem+json and image answers all carry the
// headers; the docs page keeps its own Content-Security-Policy; HSTS only in production.
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../../api/deps';
import { AppError } from '../../api/http/errors';
import { errorHandler } from '../../api/http/problem';
import { securityHeaders } from '../../api/http/security-headers';
import { docsRoutes } from '../../api/openapi/router';
import { mountRoutes } from '../../api/routing/mount';
import type { Authenticators } from '../../api/auth/kinds';

const WEBP = Buffer.from('RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00/\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00', 'binary');

async function serve(nodeEnv: 'test' | 'production') {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hardening-sh-'));
  const deps = { cfg: { NODE_ENV: nodeEnv, IDP_DRIVER: 'local', DOCS_PREFILL_DEMO_KEY: false, DATA_DIR: dataDir, HOST: '127.0.0.1' }, publicBaseUrl: 'http://127.0.0.1' } as unknown as AppDeps;
  const app = express();
  app.use(securityHeaders({ NODE_ENV: nodeEnv }));
  app.get('/json', (_req, res) => void res.json({ ok: true }));
  app.get('/problem', () => {
    throw new AppError('not_found', 'nope');
  });
  app.get('/image', (_req, res) => void res.set('cross-origin-resource-policy', 'cross-origin').type('image/webp').send(WEBP));
  app.get('/things/:id', (_req, res) => void res.json({}));
  // The docs routes are public: no authenticator is ever asked.
  const none = (() => Promise.reject(new Error('no credential kind here'))) as Authenticators[keyof Authenticators];
  mountRoutes(app, docsRoutes(), deps, { any: none, api_key: none, operator: none, console: none, portal: none, codec: none });
  app.use(errorHandler(pino({ level: 'silent' })));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** The directives of a CSP header, by name. */
const directives = (csp: string | null) => new Map((csp ?? '').split(';').map((d) => d.trim()).filter(Boolean).map((d) => [d.split(/\s+/)[0]!, d.split(/\s+/).slice(1).join(' ')]));

describe('securityHeaders', () => {
  let dev: Awaited<ReturnType<typeof serve>>;
  let prod: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    dev = await serve('test');
    prod = await serve('production');
  });
  afterAll(async () => {
    await dev?.close();
    await prod?.close();
  });

  it.each([
    ['a JSON answer', '/json', 200, 'application/json'],
    ['a problem answer', '/problem', 404, 'application/problem+json'],
    ['an undecodable path (400 problem)', '/things/%', 400, 'application/problem+json'],
    ['an image', '/image', 200, 'image/webp'],
  ])('%s carries nosniff, a restrictive CSP and no-referrer', async (_name, p, status, type) => {
    const res = await fetch(`${dev.url}${p}`);
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toContain(type);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const csp = directives(res.headers.get('content-security-policy'));
    expect(csp.get('default-src')).toBe("'none'");
    expect(csp.get('frame-ancestors')).toBe("'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-powered-by')).toBeNull();
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('lets a route relax Cross-Origin-Resource-Policy for itself (public images), same-origin elsewhere', async () => {
    expect((await fetch(`${dev.url}/image`)).headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect((await fetch(`${dev.url}/json`)).headers.get('cross-origin-resource-policy')).toBe('same-origin');
  });

  it('leaves the docs page its own CSP (Swagger UI needs self scripts and inline styles)', async () => {
    const res = await fetch(`${dev.url}/docs`);
    expect(res.status).toBe(200);
    const csp = directives(res.headers.get('content-security-policy'));
    expect(csp.get('script-src')).toBe("'self'");
    expect(csp.get('default-src')).toBe("'self'");
    expect(csp.get('frame-ancestors')).toBe("'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('adds HSTS only when NODE_ENV=production', async () => {
    for (const p of ['/json', '/problem', '/image']) {
      const hsts = (await fetch(`${prod.url}${p}`)).headers.get('strict-transport-security') ?? '';
      expect(hsts).toMatch(/max-age=31536000/);
      expect(hsts).toContain('includeSubDomains');
    }
  });
});
