-- Up Migration
CREATE TABLE submissions (
  submission_id     text PRIMARY KEY,
  tenant_id         text NOT NULL,
  studio_canonical_id text,
  artist_canonical_id text NOT NULL,
  partner_actor_id  text NOT NULL,
  credential_id     text NOT NULL,
  source            text NOT NULL,
  source_message_id text,
  file_name         text NOT NULL,
  mime_type         text NOT NULL,
  size_bytes        bigint NOT NULL CHECK (size_bytes >= 1),
  title             text,
  description       text,
  style_ids         text[] NOT NULL DEFAULT '{}',
  placement         text,
  tags              text[] NOT NULL DEFAULT '{}',
  rights_posture    text NOT NULL,
  consent_posture   text NOT NULL,
  staging_key       text NOT NULL UNIQUE,
  intake_status     text NOT NULL DEFAULT 'staged',
  review_status     text NOT NULL DEFAULT 'review_required',
  verified_sha256   text,
  failure_code      text,
  media_store_document_id text,
  created_at        timestamptz NOT NULL DEFAULT now(),
  awaiting_since    timestamptz,
  updated_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX submissions_review_queue ON submissions (awaiting_since) WHERE intake_status = 'awaiting_review';
CREATE INDEX submissions_actor ON submissions (partner_actor_id, created_at);

-- Idempotent create: scope is the actor plus the client's key; the fingerprint is the sha256 of
-- the canonical validated body.
CREATE TABLE idempotency_records (
  actor_id        text NOT NULL,
  idempotency_key text NOT NULL,
  operation       text NOT NULL,
  fingerprint     text NOT NULL,
  resource_id     text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (actor_id, operation, idempotency_key)
);

-- The audit trail of every transition; it outlives Temporal's retention.
CREATE TABLE intake_events (
  id            bigserial PRIMARY KEY,
  submission_id text NOT NULL REFERENCES submissions(submission_id),
  actor_id      text NOT NULL,
  credential_id text NOT NULL,
  from_status   text,
  to_status     text NOT NULL,
  note          text,
  at            timestamptz NOT NULL DEFAULT now(),
  -- one row per transition, so an activity retried after a crash cannot append it twice
  UNIQUE (submission_id, to_status)
);

-- The private media store's draft documents. Never public; a separate governed projection is the
-- only way into the runtime (public) tables.
CREATE TABLE media_documents (
  document_id     text PRIMARY KEY,
  submission_id   text NOT NULL UNIQUE REFERENCES submissions(submission_id),
  tenant_id       text NOT NULL,
  artist_canonical_id text NOT NULL,
  owner_actor_id  text NOT NULL,
  object_key      text NOT NULL,
  sha256          text NOT NULL,
  mime_type       text NOT NULL,
  size_bytes      bigint NOT NULL,
  title           text,
  description     text,
  tags            text[] NOT NULL DEFAULT '{}',
  style_ids       text[] NOT NULL DEFAULT '{}',
  rights_posture  text NOT NULL,
  consent_posture text NOT NULL,
  visibility      text NOT NULL DEFAULT 'private' CHECK (visibility = 'private'),
  publish_state   text NOT NULL DEFAULT 'draft',
  approved_by     text NOT NULL,
  review_notes    text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE artist_resolutions (
  tenant_id        text NOT NULL,
  idempotency_key  text NOT NULL,
  actor_id         text NOT NULL,
  fingerprint      text NOT NULL,
  status           text NOT NULL,
  artist_canonical_id text,
  review_required  boolean NOT NULL,
  evidence         text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, idempotency_key)
);

-- Known evidence for artist identity (non-public): phone hashes, handles, marketplace profiles.
CREATE TABLE artist_identity_evidence (
  tenant_id        text NOT NULL,
  kind             text NOT NULL CHECK (kind IN ('mapping', 'phone_hash', 'instagram_handle', 'marketplace_profile_url')),
  value            text NOT NULL,
  artist_canonical_id text NOT NULL,
  verified_by_operator boolean NOT NULL DEFAULT false,
  PRIMARY KEY (tenant_id, kind, value)
);

-- Down Migration
DROP TABLE artist_identity_evidence;
DROP TABLE artist_resolutions;
DROP TABLE media_documents;
DROP TABLE intake_events;
DROP TABLE idempotency_records;
DROP TABLE submissions;
