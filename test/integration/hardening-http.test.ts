// Hardening of the HTTP edge: a path parameter that does not percent-decode is the client's error
// (400, a warning, no stack trace), and the docs page hands its demo key only to a page served
// under one of the API's own host names (no DNS rebinding), and an unsafe object key on the upload
// route is the client's error (400), never a 500.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../lib/net/free-port';
import { signGrant } from '../../lib/storage/signing';
import { call, INTAKE } from '../helpers/intake';
import { startTestStack, type TestStack } from '../helpers/stack';

type LogLine = { level: number; msg?: string; req?: { path?: string }; res?: { statusCode?: number } } & Record<string, unknown>;

describe('a malformed percent-escape in a path parameter', () => {
  let stack: TestStack;
  const lines: LogLine[] = [];
  const raw: string[] = [];
  beforeAll(async () => {
    stack = await startTestStack({
      worker: false,
      env: { LOG_LEVEL: 'info' },
      logDestination: { write: (l) => void (raw.push(l), lines.push(JSON.parse(l))) },
    });
  });
  afterAll(async () => stack?.stop());

  it.each([
    ['GET', '/api/v1/artists/%'], // authenticated route, no credential
    ['GET', '/api/v1/artists/%E0%A4%A'],
    ['PUT', `${INTAKE}/uploads/%zz`], // public route (signed upload URL)
    ['DELETE', '/api/v1/api-keys/%'], // public retired route
    ['GET', '/media/%/thumb.webp'], // public image route
    ['DELETE', '/api/v1/artists/%'], // a blocked public write
    ['POST', `${INTAKE}/submissions/%/approve`], // operator route, no credential
  ])('%s %s answers 400 validation_failed problem+json, logged as a warning without a stack', async (method, url) => {
    const before = lines.length;
    const r = await call(stack, method, url, method === 'POST' || method === 'PUT' ? { body: {} } : {});
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
    expect(r.body).toMatchObject({ status: 400, success: false, code: 'validation_failed' });
    await new Promise((res) => setTimeout(res, 50)); // the request line is written on 'finish'
    const mine = lines.slice(before);
    expect(mine.some((l) => l.level === 40 && l.res?.statusCode === 400)).toBe(true);
    expect(mine.filter((l) => l.level >= 50)).toEqual([]);
    expect(raw.slice(before).join('\n')).not.toMatch(/"stack"|URIError|at .*\.js:\d+/);
  });

  it('a malformed escape under the docs assets is a 4xx problem, never a 500', async () => {
    const r = await call(stack, 'GET', '/docs/assets/%');
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
  });

  it('a well-formed escape still reaches the route (410 on a retired one, 401 without a credential)', async () => {
    expect((await call(stack, 'DELETE', '/api/v1/api-keys/key%5Fnope')).body.code).toBe('route_retired');
    expect((await call(stack, 'GET', '/api/v1/artists/art%5Fnope')).status).toBe(401);
  });
});

/** GET with a Host header of our choosing (fetch does not let a caller set Host). */
function getWithHost(url: string, host: string): Promise<{ status: number; body: any; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { host } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), headers: res.headers }));
    });
    req.on('error', reject);
  });
}

describe('the docs config hands out the demo key only under the API’s own host names', () => {
  const DEMO = 'tpk_demo_key_for_host_test';
  let stack: TestStack;
  let port: string;
  beforeAll(async () => {
    stack = await startTestStack({ worker: false });
    port = new URL(stack.url).port;
    const keyFile = path.join(stack.cfg.DATA_DIR, 'secrets', 'demo-partner-key');
    fs.mkdirSync(path.dirname(keyFile), { recursive: true });
    fs.writeFileSync(keyFile, DEMO);
  });
  afterAll(async () => stack?.stop());

  it('offers the key to 127.0.0.1, localhost and the listen host on the API port', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, new URL(stack.url).host]) {
      const r = await getWithHost(`${stack.url}/docs/config.json`, host);
      expect(r.status, host).toBe(200);
      expect(r.body.demoApiKey, host).toBe(DEMO);
    }
  });

  it('answers the config without the key to any other Host (a rebinding DNS name, another port)', async () => {
    const other = await freePort();
    for (const host of [`attacker.example:${port}`, 'attacker.example', `127.0.0.1:${other}`, `localhost.attacker.example:${port}`, `127.0.0.1:${port}.attacker.example`]) {
      const r = await getWithHost(`${stack.url}/docs/config.json`, host);
      expect(r.status, host).toBe(200);
      expect(r.body.demoApiKey, host).toBeUndefined();
      expect(r.body.urls, host).toHaveLength(2);
      expect(JSON.stringify(r.body)).not.toContain(DEMO);
    }
  });

  it('also offers it to the host of PUBLIC_BASE_URL, with its port', async () => {
    const behind = await startTestStack({ worker: false, env: { DATA_DIR: stack.cfg.DATA_DIR, PUBLIC_BASE_URL: 'https://intake.example.test:8443/' } });
    try {
      const url = `${behind.url}/docs/config.json`;
      expect((await getWithHost(url, 'intake.example.test:8443')).body.demoApiKey).toBe(DEMO);
      expect((await getWithHost(url, 'intake.example.test')).body.demoApiKey).toBeUndefined();
      expect((await getWithHost(url, 'evil.example.test:8443')).body.demoApiKey).toBeUndefined();
    } finally {
      await behind.stop();
    }
  });
});

describe('an unsafe object key on the upload route', () => {
  let stack: TestStack;
  const lines: LogLine[] = [];
  beforeAll(async () => {
    stack = await startTestStack({ worker: false, env: { LOG_LEVEL: 'info' }, logDestination: { write: (l) => void lines.push(JSON.parse(l)) } });
  });
  afterAll(async () => stack?.stop());

  /** PUT to the upload route for `key`, signed with the API's own secret (or not) as a signed URL would be. */
  async function put(key: string, o: { signed: boolean }) {
    const grant = { key, contentType: 'image/jpeg', sizeBytes: 3, expires: Math.floor(Date.now() / 1000) + 60 };
    const sig = o.signed ? signGrant(stack.api.deps.uploadSigningSecret, grant) : 'not-the-signature';
    const url = `${stack.url}${INTAKE}/uploads/${encodeURIComponent(key)}?ct=image%2Fjpeg&len=3&exp=${grant.expires}&sig=${sig}`;
    const res = await fetch(url, { method: 'PUT', headers: { 'content-type': 'image/jpeg' }, body: 'abc' });
    return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as { code?: string; errors?: { path: string }[] } };
  }

  it.each([
    ['a parent segment', '../../etc/passwd'],
    ['a parent segment inside', 'staging/../../secrets/upload-signing.key'],
    ['an encoded slash around ..', 'staging%2F..%2Fx'],
    ['a NUL byte', 'staging/sub_x\u0000.jpg'],
    ['an absolute path', '/etc/passwd'],
    ['a backslash', 'staging\\..\\x'],
    ['an empty segment', 'staging//x'],
    ['a dot segment', 'staging/./x'],
    ['a space', 'staging/a b'],
    ['a key over 300 characters', `staging/${'a'.repeat(300)}`],
  ])('%s answers 400 validation_failed problem+json, signed or not, and stores nothing', async (_what, key) => {
    const before = lines.length;
    for (const signed of [true, false]) {
      const r = await put(key, { signed });
      expect(r.status, `${JSON.stringify(key)} signed=${signed}`).toBe(400);
      expect(r.type).toContain('application/problem+json');
      expect(r.body).toMatchObject({ status: 400, success: false, code: 'validation_failed' });
      expect(new Set(r.body.errors?.map((e) => e.path))).toEqual(new Set(['path.key']));
    }
    expect(lines.slice(before).filter((l) => l.level >= 50)).toEqual([]);
    expect(fs.readdirSync(path.join(stack.dataDir, 'objects', 'staging'))).toEqual([]);
  });

  it('a safe key still reaches the route: signed for no submission is 404, unsigned 403', async () => {
    expect((await put('staging/sub_nothing', { signed: true })).body.code).toBe('not_found');
    expect((await put('staging/sub_nothing', { signed: false })).body.code).toBe('upload_url_invalid');
  });
});
