// Webhook signing secrets at rest (issue 22): AES-256-GCM under WEBHOOK_SECRET_KEY, the key's id in
// every sealed value, bound to its row, previous keys still opening, the development key generated
// into DATA_DIR/secrets (0600) and the key required in production.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiConfigSchema, ConfigError, parseConfig, workerConfigSchema } from '../../lib/config';
import { parseSecretKey } from '../../lib/secrets';
import { createSecretBox, keyIdOf, loadWebhookSecretBox, SecretUnreadableError, WEBHOOK_SECRET_KEY_FILE } from '../../lib/webhooks/secret-box';
import { newSecret } from '../../lib/webhooks/send';

const key = () => crypto.randomBytes(32);

describe('the webhook secret box', () => {
  it('reads a key as 64 hex digits, base64 or base64url, and refuses any other length', () => {
    const k = key();
    for (const text of [k.toString('hex'), k.toString('base64'), k.toString('base64url'), ` ${k.toString('base64')}\n`]) expect(parseSecretKey(text)).toEqual(k);
    for (const text of ['', 'short', crypto.randomBytes(16).toString('base64'), crypto.randomBytes(31).toString('hex'), crypto.randomBytes(33).toString('base64'), 'z'.repeat(64)])
      expect(parseSecretKey(text), text).toBeUndefined();
  });

  it('seals with AES-256-GCM: the secret is not in the value, two seals differ, and the value opens to the secret', () => {
    const box = createSecretBox(key());
    const secret = newSecret();
    const [a, b] = [box.seal('whs_1', secret), box.seal('whs_1', secret)];
    expect(a).toMatch(new RegExp(`^whenc:v1:${box.keyId}:[A-Za-z0-9_-]+$`));
    expect(a).not.toBe(b); // a fresh IV each time
    expect(a).not.toContain(secret.slice(6));
    expect(box.open('whs_1', a)).toBe(secret);
    expect(box.open('whs_1', b)).toBe(secret);
    expect(box.isCurrent(a)).toBe(true);
  });

  it('refuses a value moved to another row, altered, truncated, or sealed under a key it does not hold', () => {
    const k = key();
    const box = createSecretBox(k);
    const sealed = box.seal('whs_1', newSecret());
    expect(() => box.open('whs_2', sealed)).toThrow(SecretUnreadableError);
    const body = Buffer.from(sealed.split(':')[3]!, 'base64url');
    body[20] = body[20]! ^ 1;
    expect(() => box.open('whs_1', `whenc:v1:${box.keyId}:${body.toString('base64url')}`)).toThrow(/does not authenticate/);
    expect(() => box.open('whs_1', `whenc:v1:${box.keyId}:AAAA`)).toThrow(/truncated/);
    const other = createSecretBox(key());
    let message = '';
    try {
      other.open('whs_1', sealed);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain(keyIdOf(k)); // names the key by its id ...
    expect(message).not.toContain(k.toString('base64')); // ... never the key
    expect(() => box.open('whs_1', 'something else')).toThrow(/not a sealed value/);
  });

  it('rotation: the new key seals, the previous keys still open what they sealed', () => {
    const [oldKey, newKey] = [key(), key()];
    const secret = newSecret();
    const old = createSecretBox(oldKey).seal('whs_1', secret);
    const rotated = createSecretBox(newKey, [oldKey]);
    expect(rotated.isCurrent(old)).toBe(false);
    expect(rotated.open('whs_1', old)).toBe(secret);
    expect(rotated.seal('whs_1', secret).startsWith(`whenc:v1:${keyIdOf(newKey)}:`)).toBe(true);
    expect(() => createSecretBox(newKey).open('whs_1', old)).toThrow(SecretUnreadableError);
  });

  it('a whsec_ value from before secrets were sealed opens as itself (the API seals it at its next start)', () => {
    const secret = newSecret();
    expect(createSecretBox(key()).open('whs_1', secret)).toBe(secret);
    expect(createSecretBox(key()).isCurrent(secret)).toBe(false);
  });

  it('development: the key is generated once into DATA_DIR/secrets with mode 0600 and used by every process', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'whkey-'));
    try {
      const api = loadWebhookSecretBox({ DATA_DIR: dataDir });
      const worker = loadWebhookSecretBox({ DATA_DIR: dataDir });
      expect(worker.keyId).toBe(api.keyId);
      expect(worker.open('whs_1', api.seal('whs_1', 'whsec_x'))).toBe('whsec_x');
      const file = path.join(dataDir, 'secrets', WEBHOOK_SECRET_KEY_FILE);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(parseSecretKey(fs.readFileSync(file, 'utf8'))).toHaveLength(32);
      // A configured key wins over the file.
      const configured = key();
      expect(loadWebhookSecretBox({ DATA_DIR: dataDir, WEBHOOK_SECRET_KEY: configured.toString('hex') }).keyId).toBe(keyIdOf(configured));
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('production: the API and the worker refuse to start without WEBHOOK_SECRET_KEY, and never echo a bad one', () => {
    const production = { NODE_ENV: 'production', DATABASE_URL: 'postgres://u:p@db/x', TEMPORAL_ADDRESS: 'temporal:7233' };
    const problems = (schema: typeof apiConfigSchema | typeof workerConfigSchema, env: Record<string, string>) => {
      try {
        parseConfig(schema, env);
        return [];
      } catch (err) {
        return (err as ConfigError).problems;
      }
    };
    for (const schema of [apiConfigSchema, workerConfigSchema]) {
      expect(problems(schema, production).find((p) => p.variable === 'WEBHOOK_SECRET_KEY')?.message).toMatch(/^required when NODE_ENV=production: the key webhook signing secrets are encrypted with/);
      const bad = problems(schema, { ...production, WEBHOOK_SECRET_KEY: 'not-a-key-of-32-bytes' }).find((p) => p.variable === 'WEBHOOK_SECRET_KEY');
      expect(bad?.message).toMatch(/expected 32 random bytes/);
      expect(JSON.stringify(bad)).not.toContain('not-a-key');
      expect(problems(schema, { ...production, WEBHOOK_SECRET_KEY: key().toString('base64') }).find((p) => p.variable.startsWith('WEBHOOK_SECRET'))).toBeUndefined();
      expect(problems(schema, { ...production, WEBHOOK_SECRET_KEY: key().toString('base64'), WEBHOOK_SECRET_PREVIOUS_KEYS: `${key().toString('hex')},nope` }).map((p) => p.variable)).toContain('WEBHOOK_SECRET_PREVIOUS_KEYS');
    }
    // Outside production the generated key serves.
    expect(problems(apiConfigSchema, { NODE_ENV: 'development' })).toEqual([]);
  });
});
