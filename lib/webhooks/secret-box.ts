// Webhook signing secrets at rest: sealed with AES-256-GCM under WEBHOOK_SECRET_KEY, so
// whoever reads the database (a backup, a replica, a leaked dump) cannot forge a partner's webhooks.
// A sealed value names the key that sealed it (`whenc:v1:<keyId>:<base64url iv|ciphertext|tag>`),
// and is bound to its row (the secret id is the additional authenticated data): a value copied
// onto another endpoint's row does not open. Keys rotate: the current key seals, the previous keys
// (WEBHOOK_SECRET_PREVIOUS_KEYS) still open, and `npm run iam -- rotate-webhook-key` reseals.
import crypto from 'node:crypto';
import { loadOrCreateSecret, parseSecretKey, parseSecretKeys, SECRET_KEY_BYTES } from '../secrets';
import { SECRET_PREFIX } from './send';

export const SEALED_PREFIX = 'whenc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The development key's file under DATA_DIR/secrets (generated on first use, 0600). */
export const WEBHOOK_SECRET_KEY_FILE = 'webhook-secret.key';

/** A short public name of a key (not the key: a hash of it), carried in every value it seals. */
export function keyIdOf(key: Buffer): string {
  return crypto.createHash('sha256').update('webhook-secret-key\0').update(key).digest('base64url').slice(0, 10);
}

export class SecretUnreadableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretUnreadableError';
  }
}

export interface SecretBox {
  /** The id of the key that seals now. */
  readonly keyId: string;
  seal(secretId: string, secret: string): string;
  /**
   * The secret of a stored value: sealed under the current or a previous key, or a plaintext
   * `whsec_` value not sealed yet (sealed at the API's next start).
   */
  open(secretId: string, stored: string): string;
  /** Whether a stored value is sealed under the current key (nothing to reseal). */
  isCurrent(stored: string): boolean;
}

const aadOf = (keyId: string, secretId: string) => Buffer.from(`${SEALED_PREFIX}${keyId}:${secretId}`);

export function createSecretBox(current: Buffer, previous: readonly Buffer[] = []): SecretBox {
  const keys = new Map<string, Buffer>();
  for (const k of [current, ...previous]) {
    if (k.length !== SECRET_KEY_BYTES) throw new Error(`a webhook secret key is ${SECRET_KEY_BYTES} bytes`);
    keys.set(keyIdOf(k), k);
  }
  const keyId = keyIdOf(current);
  return {
    keyId,
    seal(secretId, secret) {
      const iv = crypto.randomBytes(IV_BYTES);
      const cipher = crypto.createCipheriv('aes-256-gcm', current, iv);
      cipher.setAAD(aadOf(keyId, secretId));
      const sealed = Buffer.concat([iv, cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${SEALED_PREFIX}${keyId}:${sealed.toString('base64url')}`;
    },
    open(secretId, stored) {
      if (stored.startsWith(SECRET_PREFIX)) return stored;
      if (!stored.startsWith(SEALED_PREFIX)) throw new SecretUnreadableError(`secret ${secretId}: not a sealed value`);
      const [id, body] = stored.slice(SEALED_PREFIX.length).split(':');
      const key = keys.get(id ?? '');
      if (!key || !body) throw new SecretUnreadableError(`secret ${secretId}: sealed under key ${id}, which is neither WEBHOOK_SECRET_KEY nor one of WEBHOOK_SECRET_PREVIOUS_KEYS`);
      const raw = Buffer.from(body, 'base64url');
      if (raw.length < IV_BYTES + TAG_BYTES + 1) throw new SecretUnreadableError(`secret ${secretId}: truncated`);
      try {
        const decipher = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
        decipher.setAAD(aadOf(id!, secretId));
        decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
        return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretUnreadableError(`secret ${secretId}: does not authenticate (altered, or moved from another row)`);
      }
    },
    isCurrent(stored) {
      return stored.startsWith(`${SEALED_PREFIX}${keyId}:`);
    },
  };
}

/**
 * WEBHOOK_SECRET_KEY (required in production), else the embedded stack's key generated into
 * DATA_DIR/secrets; WEBHOOK_SECRET_PREVIOUS_KEYS still open what they sealed.
 */
export function loadWebhookSecretBox(cfg: { WEBHOOK_SECRET_KEY?: string | undefined; WEBHOOK_SECRET_PREVIOUS_KEYS?: string | undefined; DATA_DIR: string }): SecretBox {
  const text = cfg.WEBHOOK_SECRET_KEY ?? loadOrCreateSecret(cfg.DATA_DIR, WEBHOOK_SECRET_KEY_FILE, SECRET_KEY_BYTES);
  const current = parseSecretKey(text);
  if (!current) throw new Error('WEBHOOK_SECRET_KEY: expected 32 bytes, base64 or hex');
  const previous = cfg.WEBHOOK_SECRET_PREVIOUS_KEYS ? parseSecretKeys(cfg.WEBHOOK_SECRET_PREVIOUS_KEYS) : [];
  if (!previous) throw new Error('WEBHOOK_SECRET_PREVIOUS_KEYS: expected a comma list of 32-byte keys, base64 or hex');
  return createSecretBox(current, previous);
}
