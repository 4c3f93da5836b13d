-- Up Migration
-- Local identity provider: API keys stored only as a hash beside their non-secret key id.
CREATE TABLE api_keys (
  key_id       text PRIMARY KEY,
  prefix       text NOT NULL,
  secret_hash  bytea NOT NULL,
  label        text NOT NULL DEFAULT '',
  organization_id text NOT NULL,
  owner_subject   text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  revoked_at   timestamptz
);

-- Actor mappings: what a proven credential may do. Non-secret metadata only.
CREATE TABLE actor_mappings (
  actor_id         text PRIMARY KEY,
  credential_kind  text NOT NULL CHECK (credential_kind IN ('api_key', 'bearer')),
  -- api_key: the key id; bearer: the token subject, qualified by its issuer
  credential_subject text NOT NULL,
  credential_issuer  text NOT NULL DEFAULT '',
  role             text NOT NULL,
  permissions      text[] NOT NULL DEFAULT '{}',
  organization_id  text NOT NULL,
  studio_scope     text[] NOT NULL DEFAULT '{}',
  artist_scope     text[] NOT NULL DEFAULT '{}',
  capabilities     text[] NOT NULL DEFAULT '{}',
  is_human_operator boolean NOT NULL DEFAULT false,
  self_service     boolean NOT NULL DEFAULT true,
  active           boolean NOT NULL DEFAULT true,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (credential_kind, credential_subject, credential_issuer)
);

-- Who changed access, and when (values are never secret).
CREATE TABLE access_audit (
  id          bigserial PRIMARY KEY,
  at          timestamptz NOT NULL DEFAULT now(),
  action      text NOT NULL,
  subject     text NOT NULL,
  detail      jsonb NOT NULL DEFAULT '{}'
);

-- Down Migration
DROP TABLE access_audit;
DROP TABLE actor_mappings;
DROP TABLE api_keys;
