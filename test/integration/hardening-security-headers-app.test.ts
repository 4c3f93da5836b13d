// The security headers on the real app (api/app.ts mounts securityHeaders first): JSON, problem,
// image and docs answers alike, the docs page under its own CSP, no HSTS outside production.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RENDITION_FORMAT } from '../../lib/media/renditions';
import { apiKeyActor } from '../helpers/auth';
import { seedTestDirectory } from '../helpers/directory-seed';
import { call, INTAKE } from '../helpers/intake';
import { startTestStack, type TestStack } from '../helpers/stack';

const WEBP = Buffer.from('RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00/\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00', 'binary');
const ASSET = 'pfa_fx_ok';

let stack: TestStack;
let reader: Record<string, string>;
beforeAll(async () => {
  stack = await startTestStack({ worker: false });
  await seedTestDirectory(stack);
  reader = (await apiKeyActor(stack, { permissions: ['artists:read'] })).headers;
  // A public rendition of the published fixture asset, as the projection writes one.
  const key = `renditions/${ASSET}/small.webp`;
  await stack.api.deps.store.putRendition(key, WEBP, RENDITION_FORMAT.contentType);
  await stack.sql`insert into public_renditions (media_id, name, ext, content_type, width, height, size_bytes, sha256, object_key)
    values (${ASSET}, 'small', ${RENDITION_FORMAT.ext}, ${RENDITION_FORMAT.contentType}, 1, 1, ${WEBP.length}, ${'0'.repeat(64)}, ${key})`;
});
afterAll(async () => stack?.stop());

const directives = (csp: string | null) => new Map((csp ?? '').split(';').map((d) => d.trim()).filter(Boolean).map((d) => [d.split(/\s+/)[0]!, d.split(/\s+/).slice(1).join(' ')]));

describe('security headers on every answer of the app', () => {
  it.each([
    ['JSON', 'GET', '/api/v1/health/live', {}, 200, 'application/json'],
    ['JSON with a credential', 'GET', '/api/v1/artists?limit=1', 'reader', 200, 'application/json'],
    ['401 problem', 'GET', '/api/v1/artists', {}, 401, 'application/problem+json'],
    ['404 problem', 'GET', '/api/v1/no-such-thing', {}, 404, 'application/problem+json'],
    ['400 problem for an undecodable path', 'GET', '/api/v1/artists/%', {}, 400, 'application/problem+json'],
    ['405 problem', 'DELETE', `${INTAKE}/submissions`, {}, 405, 'application/problem+json'],
    ['an image', 'GET', `/media/${ASSET}/small.webp`, {}, 200, 'image/webp'],
    ['the JWKS', 'GET', '/.well-known/jwks.json', {}, 200, 'application/json'],
  ] as const)('%s: nosniff, default-src none, frame-ancestors none, no-referrer, no HSTS', async (_name, method, url, headers, status, type) => {
    const r = await call(stack, method, url, { headers: headers === 'reader' ? reader : headers });
    expect(r.status).toBe(status);
    expect(r.headers.get('content-type')).toContain(type);
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('referrer-policy')).toBe('no-referrer');
    const csp = directives(r.headers.get('content-security-policy'));
    expect(csp.get('default-src')).toBe("'none'");
    expect(csp.get('frame-ancestors')).toBe("'none'");
    expect(r.headers.get('strict-transport-security')).toBeNull();
  });

  it('the public image stays embeddable cross-origin', async () => {
    const r = await fetch(`${stack.url}/media/${ASSET}/small.webp`);
    expect(r.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  });

  it('the docs page keeps its own CSP, with the other headers beside it', async () => {
    const r = await fetch(`${stack.url}/docs`);
    expect(r.status).toBe(200);
    const csp = directives(r.headers.get('content-security-policy'));
    expect(csp.get('script-src')).toBe("'self'");
    expect(csp.get('default-src')).toBe("'self'");
    expect(r.headers.get('referrer-policy')).toBe('no-referrer');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
