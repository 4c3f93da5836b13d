-- Up Migration
-- Webhook signing secrets are sealed at rest (issue 22): AES-256-GCM under WEBHOOK_SECRET_KEY,
-- stored as `whenc:v1:<keyId>:<base64url iv|ciphertext|tag>` (lib/webhooks/secret-box.ts), so
-- reading the database no longer lets anyone forge a partner's webhooks. SQL has no key, so this
-- migration cannot seal the rows already there: the API seals every `whsec_` value when it starts
-- (lib/webhooks/secret-reseal.ts, idempotent), and the worker opens one that is still plaintext.
-- From here on no plaintext can be written: the check holds for every new or changed row
-- (NOT VALID: the rows already there are sealed by the API, not judged here).
COMMENT ON COLUMN webhook_endpoint_secrets.secret IS 'sealed: whenc:v1:<keyId>:<base64url(iv | AES-256-GCM ciphertext | tag)>, additional data the secret id; never the whsec_ secret itself';
ALTER TABLE webhook_endpoint_secrets ADD CONSTRAINT webhook_endpoint_secrets_sealed CHECK (secret LIKE 'whenc:%') NOT VALID;

-- Down Migration
-- The values stay sealed (SQL cannot open them): code from before this migration would sign with
-- the sealed text. Before going down, rotate every endpoint's secret, or restore from a backup.
ALTER TABLE webhook_endpoint_secrets DROP CONSTRAINT webhook_endpoint_secrets_sealed;
COMMENT ON COLUMN webhook_endpoint_secrets.secret IS NULL;
