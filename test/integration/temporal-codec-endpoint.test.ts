// The Temporal codec endpoint (issue 43, item 4): what the Web UI and `temporal --codec-endpoint`
// call to read encrypted payloads. Decoding hands partner text back in clear, so only a mapped human
// operator may call it (bearer token, or the console session from the Web UI's origin), and the
// browser may call it cross-origin from the Web UI (TEMPORAL_UI_URL) and from nowhere else.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { defaultPayloadConverter } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEMPORAL_CODEC_BASE } from '../../api/routing/bases';
import { createSession } from '../../lib/console/sessions';
import { LOCAL_ISSUER } from '../../lib/identity';
import { PAYLOAD_KEY_FILE } from '../../lib/payload-keys';
import { temporalDataConverter } from '../../temporal/connection';
import { ENCRYPTED_ENCODING, encryptionCodec } from '../../temporal/payload-codec';
import { payloadFromJson, payloadToJson } from '../../temporal/payload-json';
import { apiKeyActor, bearerActor, type TestCredential } from '../helpers/auth';
import { call } from '../helpers/intake';
import { startTestStack, type TestStack } from '../helpers/stack';

const WEB_UI = 'http://127.0.0.1:18233';
const DECODE = `${TEMPORAL_CODEC_BASE}/decode`;
const ENCODE = `${TEMPORAL_CODEC_BASE}/encode`;
const partnerText = { title: 'Koi sleeve for Marisol Quintanilla', reviewNotes: 'rights confirmed by phone' };

const toJson = payloadToJson;
const fromJson = payloadFromJson;

describe('the Temporal codec endpoint', () => {
  let stack: TestStack;
  let operator: TestCredential;
  let encrypted: ReturnType<typeof toJson>;
  let consoleCookie: string;
  beforeAll(async () => {
    stack = await startTestStack({ worker: false, env: { TEMPORAL_UI_URL: `${WEB_UI}/` } });
    operator = await bearerActor(stack, { permissions: ['portfolio_intake:review'], operator: true });
    // Sealed exactly as the API's and the worker's clients seal (the stack's key under DATA_DIR/secrets).
    const [sealed] = await temporalDataConverter(stack.cfg).payloadCodecs![0]!.encode([defaultPayloadConverter.toPayload(partnerText)]);
    encrypted = toJson(sealed!);
    const session = await createSession(stack.sql, { kind: 'bearer', subject: operator.subject!, issuer: LOCAL_ISSUER }, new Date(Date.now() + 3600_000), 'console');
    consoleCookie = `console_session=${session.token}`;
  });
  afterAll(async () => stack?.stop());

  const decode = (headers: Record<string, string>, payloads: unknown[] = [encrypted]) => call(stack, 'POST', DECODE, { headers, body: { payloads } });

  it("decodes for an operator's bearer token: the payload in clear, in the protocol's JSON", async () => {
    const plain = toJson(defaultPayloadConverter.toPayload({ untouched: true }));
    const r = await decode(operator.headers, [encrypted, plain]);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(r.body)).toEqual(['payloads']);
    const [decoded, passed] = (r.body.payloads as { metadata: Record<string, string>; data: string }[]).map(fromJson);
    expect(defaultPayloadConverter.fromPayload(decoded!)).toEqual(partnerText);
    // An unencrypted payload comes back as it was sent.
    expect(defaultPayloadConverter.fromPayload(passed!)).toEqual({ untouched: true });
  });

  it('encodes for an operator as the clients do: encrypted under the current key, and decodes back', async () => {
    const r = await call(stack, 'POST', ENCODE, { headers: operator.headers, body: { payloads: [toJson(defaultPayloadConverter.toPayload(partnerText))] } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const sealed = fromJson(r.body.payloads[0]);
    expect(Buffer.from(sealed.metadata!.encoding!).toString()).toBe(ENCRYPTED_ENCODING);
    expect(Buffer.from(sealed.data!).toString('latin1')).not.toContain('Marisol');
    const [opened] = await temporalDataConverter(stack.cfg).payloadCodecs![0]!.decode([sealed]);
    expect(defaultPayloadConverter.fromPayload(opened!)).toEqual(partnerText);
  });

  it('answers 401 problem+json without a credential, and 401 for a token that does not verify', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-a-token' }] as Record<string, string>[]) {
      const r = await decode(headers);
      expect(r.status).toBe(401);
      expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(r.body).toMatchObject({ success: false, code: expect.stringMatching(/^(unauthenticated|invalid_credential)$/) });
      expect(JSON.stringify(r.body)).not.toContain('Marisol');
    }
  });

  it("answers 403 to a partner's API key, to a non-operator's token, and to an operator without portfolio_intake:review", async () => {
    const partner = await apiKeyActor(stack, { permissions: ['portfolio_intake:stage', 'portfolios:read'] });
    const member = await bearerActor(stack, { permissions: ['portfolios:read'] });
    const publisher = await bearerActor(stack, { permissions: ['portfolios:publish'], operator: true });
    const cases: [TestCredential, string][] = [[partner, 'operator_required'], [member, 'operator_required'], [publisher, 'permission_denied']];
    for (const [who, code] of cases) {
      const r = await decode(who.headers);
      expect(r.status, code).toBe(403);
      expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(r.body.code).toBe(code);
      expect(JSON.stringify(r.body)).not.toContain('Marisol');
    }
  });

  it("takes the console session from the Web UI's origin without the console's CSRF token, and from no other origin", async () => {
    const fromUi = await decode({ cookie: consoleCookie, origin: WEB_UI });
    expect(fromUi.status, JSON.stringify(fromUi.body)).toBe(200);
    expect(fromUi.headers.get('access-control-allow-origin')).toBe(WEB_UI);
    expect(fromUi.headers.get('access-control-allow-credentials')).toBe('true');
    expect(defaultPayloadConverter.fromPayload(fromJson(fromUi.body.payloads[0]))).toEqual(partnerText);
    const elsewhere = await decode({ cookie: consoleCookie, origin: 'http://127.0.0.1:9999' });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.code).toBe('csrf_failed');
    expect(elsewhere.headers.get('access-control-allow-origin')).toBeNull();
    // The console's own writes still want their CSRF token, from the Web UI's origin too.
    const claim = await call(stack, 'POST', '/console/api/submissions/sub_x/claim', { headers: { cookie: consoleCookie, origin: WEB_UI } });
    expect(claim.status).toBe(403);
    expect(claim.body.code).toBe('csrf_failed');
  });

  it("answers the Web UI's preflight with its origin and credentials, and nobody else's", async () => {
    const preflight = (origin: string) =>
      fetch(`${stack.url}${DECODE}`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-namespace,authorization' } });
    const ui = await preflight(WEB_UI);
    expect(ui.status).toBe(204);
    expect(ui.headers.get('access-control-allow-origin')).toBe(WEB_UI);
    expect(ui.headers.get('access-control-allow-credentials')).toBe('true');
    expect(ui.headers.get('access-control-allow-methods')).toBe('POST');
    expect(ui.headers.get('access-control-allow-headers')).toMatch(/authorization.*content-type.*x-namespace/);
    const other = await preflight('https://evil.example');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    // No other route of the API answers CORS, even to the Web UI.
    const health = await fetch(`${stack.url}/api/v1/health/live`, { headers: { origin: WEB_UI } });
    expect(health.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers 422 payload_undecodable for a key id it does not hold or altered bytes, naming no key', async () => {
    const stranger = encryptionCodec([{ id: 'other-deployment', key: crypto.randomBytes(32) }]);
    const [foreign] = await stranger.encode([defaultPayloadConverter.toPayload(partnerText)]);
    const unknown = await decode(operator.headers, [toJson(foreign!)]);
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({ success: false, code: 'payload_undecodable' });
    expect(unknown.body.detail).toMatch(/other-deployment/);
    // The stack's key (generated into DATA_DIR/secrets: `id:base64`) is named by its id at most.
    const [keyId, keyText] = fs.readFileSync(path.join(stack.dataDir, 'secrets', PAYLOAD_KEY_FILE), 'utf8').trim().split(':');
    expect(unknown.body.detail).toContain(keyId);
    expect(JSON.stringify(unknown.body)).not.toContain(keyText!.slice(0, 16));
    const bytes = Buffer.from(encrypted.data, 'base64');
    bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 1;
    const altered = await decode(operator.headers, [{ ...encrypted, data: bytes.toString('base64') }]);
    expect(altered.status).toBe(422);
    expect(altered.body.code).toBe('payload_undecodable');
  });

  it('refuses a body that is not the protocol: 400 validation_failed', async () => {
    const r = await call(stack, 'POST', DECODE, { headers: operator.headers, body: { payloads: [{ data: 'not base64!' }] } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('validation_failed');
  });
});
