-- Up Migration
-- Decisions the worker refused: an approve or reject signal whose proof did not verify (made up,
-- replayed from another submission, of an operator no longer mapped). Not a transition, so not in
-- intake_events (one row per transition, UNIQUE (submission_id, to_status), read as the
-- lifecycle's history and by the partners' notifications): the submission stays where it was.
-- The claimed actor and credential are what the signal said, never authority.
CREATE TABLE decision_refusals (
  id            bigserial PRIMARY KEY,
  submission_id text NOT NULL REFERENCES submissions(submission_id),
  decision      text NOT NULL CHECK (decision IN ('approve', 'reject')),
  -- the signal's request id: a retried activity records one refusal per signal
  request_id    text NOT NULL,
  reason        text NOT NULL,
  claimed_actor_id      text NOT NULL,
  claimed_credential_id text NOT NULL,
  -- the operator the proof named, when it verified that far (a replayed or a stale proof)
  proof_actor_id text,
  at            timestamptz NOT NULL DEFAULT now(),
  UNIQUE (submission_id, request_id)
);
CREATE INDEX decision_refusals_at ON decision_refusals (at);

-- The stage check asks whether the partner's organization has resolved an artist, or has a
-- mapping scoped to it (lib/intake/artist-ties.ts): both lookups by organization.
CREATE INDEX artist_resolutions_tenant_artist ON artist_resolutions (tenant_id, artist_canonical_id) WHERE artist_canonical_id IS NOT NULL;
CREATE INDEX actor_mappings_organization ON actor_mappings (organization_id) WHERE active;

-- Down Migration
DROP INDEX actor_mappings_organization;
DROP INDEX artist_resolutions_tenant_artist;
DROP TABLE decision_refusals;
