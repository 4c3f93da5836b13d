-- Up Migration
-- Partners hear what happened (issue 15). The events are an outbox: each is written by the same
-- statement as the transition (or publication) that caused it, and is never updated except for
-- the fan-out mark. Deliveries are one row per (event, endpoint), delivered by Temporal.

-- A partner organization's receivers. Deleted endpoints stay (soft delete) so the delivery log of
-- what was sent to them remains readable by the organization's audit.
CREATE TABLE webhook_endpoints (
  endpoint_id     text PRIMARY KEY,
  organization_id text NOT NULL,
  url             text NOT NULL,
  description     text NOT NULL DEFAULT '',
  -- NULL: every event type.
  event_types     text[],
  created_by      text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  deleted_at      timestamptz
);
CREATE INDEX webhook_endpoints_org ON webhook_endpoints (organization_id, created_at) WHERE deleted_at IS NULL;

-- Signing secrets (whsec_...). Shown once at creation or rotation, never again; the delivery
-- signs with every secret not yet expired, so a rotated-out secret keeps verifying during its
-- overlap window.
CREATE TABLE webhook_endpoint_secrets (
  secret_id   text PRIMARY KEY,
  endpoint_id text NOT NULL REFERENCES webhook_endpoints (endpoint_id) ON DELETE CASCADE,
  secret      text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  -- NULL: the current secret.
  expires_at  timestamptz
);
CREATE INDEX webhook_endpoint_secrets_endpoint ON webhook_endpoint_secrets (endpoint_id);

-- The events, as facts of the submission at the time (its status view is composed from them and
-- the submission row when delivered or read, by the one status-view function).
CREATE TABLE webhook_events (
  seq                     bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  event_id                text PRIMARY KEY,
  organization_id         text NOT NULL,
  submission_id           text NOT NULL REFERENCES submissions (submission_id),
  event_type              text NOT NULL,
  occurred_at             timestamptz NOT NULL DEFAULT now(),
  intake_status           text NOT NULL,
  review_status           text NOT NULL,
  failure_code            text,
  reject_reason_code      text,
  media_store_document_id text,
  asset_id                text,
  fanned_out              boolean NOT NULL DEFAULT false
);
CREATE INDEX webhook_events_feed ON webhook_events (organization_id, seq);
CREATE INDEX webhook_events_unfanned ON webhook_events (seq) WHERE NOT fanned_out;
-- One event per (submission, type) for the lifecycle types: a retried transition writes none twice.
CREATE UNIQUE INDEX webhook_events_once ON webhook_events (submission_id, event_type) WHERE asset_id IS NULL;

CREATE TABLE webhook_deliveries (
  delivery_id     text PRIMARY KEY,
  event_id        text NOT NULL REFERENCES webhook_events (event_id),
  endpoint_id     text NOT NULL REFERENCES webhook_endpoints (endpoint_id),
  submission_id   text NOT NULL,
  seq             bigint NOT NULL,
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivering', 'succeeded', 'failed', 'cancelled')),
  attempts        integer NOT NULL DEFAULT 0,
  last_status_code integer,
  last_error      text,
  next_attempt_at timestamptz,
  dispatched_at   timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  completed_at    timestamptz,
  UNIQUE (event_id, endpoint_id)
);
-- The delivery workflow of (endpoint, submission) takes the lowest open seq first: order per submission.
CREATE INDEX webhook_deliveries_open ON webhook_deliveries (endpoint_id, submission_id, seq) WHERE status IN ('pending', 'delivering');
CREATE INDEX webhook_deliveries_log ON webhook_deliveries (endpoint_id, seq DESC);
CREATE INDEX webhook_deliveries_undispatched ON webhook_deliveries (dispatched_at) WHERE status = 'pending';

-- Every HTTP attempt of a delivery: what the receiver answered, or why nothing was answered.
CREATE TABLE webhook_attempts (
  delivery_id text NOT NULL REFERENCES webhook_deliveries (delivery_id) ON DELETE CASCADE,
  attempt     integer NOT NULL,
  at          timestamptz NOT NULL DEFAULT now(),
  status_code integer,
  error       text,
  duration_ms integer NOT NULL,
  PRIMARY KEY (delivery_id, attempt)
);

-- Down Migration
DROP TABLE webhook_attempts;
DROP TABLE webhook_deliveries;
DROP TABLE webhook_events;
DROP TABLE webhook_endpoint_secrets;
DROP TABLE webhook_endpoints;
