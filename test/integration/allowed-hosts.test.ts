// Production answers only for its own Host names (issue 17: DNS rebinding); probes are exempt.
import crypto from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../helpers/stack';

let stack: TestStack;
const decisionKey = crypto.generateKeyPairSync('ed25519');
beforeAll(async () => {
  stack = await startTestStack({
    worker: false,
    env: {
      NODE_ENV: 'production',
      PUBLIC_BASE_URL: 'https://intake.example.test',
      ALLOWED_HOSTS: 'intake.internal:8080',
      UPLOAD_SIGNING_SECRET: 'a-signing-secret-of-at-least-32-characters',
      DECISION_SIGNING_KEY: decisionKey.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      DECISION_VERIFY_KEY: decisionKey.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      WEBHOOK_SECRET_KEY: crypto.randomBytes(32).toString('base64'),
      PORTAL_HANDOFF_KEY: crypto.randomBytes(32).toString('base64'),
      TEMPORAL_PAYLOAD_KEYS: `test:${crypto.randomBytes(32).toString('base64')}`,
    },
  });
});
afterAll(async () => stack?.stop());

function get(path: string, host: string): Promise<{ status: number; body: string }> {
  const url = new URL(stack.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path, method: 'GET', headers: { host } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('allowed hosts in production', () => {
  it('answers its own names, refuses others with 421 misdirected_request, and lets probes through', async () => {
    expect((await get('/api/v1/studios?limit=1', 'intake.example.test')).status).toBe(200);
    expect((await get('/api/v1/studios?limit=1', 'INTAKE.internal:8080')).status).toBe(200);
    const refused = await get('/api/v1/studios?limit=1', 'attacker.example:3000');
    expect(refused.status).toBe(421);
    expect(JSON.parse(refused.body).code).toBe('misdirected_request');
    expect((await get('/docs/config.json', 'attacker.example:3000')).status).toBe(421);
    expect((await get('/api/v1/health/live', '10.1.2.3:3000')).status).toBe(200);
  });
});
