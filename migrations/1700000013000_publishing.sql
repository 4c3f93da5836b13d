-- Up Migration
-- Publishing through the API (issue 14, items 4 and 5): the published asset carries the partner's
-- placement; a canonical artist is published under a runtime artist profile; an operator settles a
-- `review_required` rights / consent posture with a note; operators review identity evidence.

-- What the partner submitted, carried by the published asset (title, description, tags and styles
-- already have their columns).
ALTER TABLE portfolio_assets ADD COLUMN placement text;

-- The runtime artist profile (artists.id, what GET /api/v1/artists/{id} answers) a canonical
-- artist is published under, when it is not the canonical id itself. Written by the first real
-- publish that names it (lib/directory/projection.ts), audited there.
CREATE TABLE artist_runtime_profiles (
  artist_canonical_id text PRIMARY KEY,
  artist_id       text NOT NULL REFERENCES artists(id) ON DELETE CASCADE,
  linked_by       text NOT NULL,
  linked_at       timestamptz NOT NULL DEFAULT now()
);

-- An operator's settlement of a draft's `review_required` posture: who, with which credential,
-- from what to what, and why. The draft's postures (media_documents) change in the same transaction.
CREATE TABLE posture_settlements (
  id              bigserial PRIMARY KEY,
  document_id     text NOT NULL REFERENCES media_documents(document_id),
  rights_before   text NOT NULL,
  rights_after    text NOT NULL,
  consent_before  text NOT NULL,
  consent_after   text NOT NULL,
  operator_actor_id text NOT NULL,
  credential_id   text NOT NULL,
  note            text NOT NULL,
  at              timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX posture_settlements_document ON posture_settlements (document_id, at);

-- Identity evidence review: each resolution gets an id operators can name, keeps the normalized
-- evidence it carried (so an unmatched request can be linked later) and the operator's review.
ALTER TABLE artist_resolutions
  ADD COLUMN resolution_id text NOT NULL DEFAULT ('ares_' || replace(gen_random_uuid()::text, '-', '')),
  ADD COLUMN evidence_values jsonb NOT NULL DEFAULT '{}'::jsonb,
  ADD COLUMN reviewed_by text,
  ADD COLUMN reviewed_credential_id text,
  ADD COLUMN reviewed_at timestamptz,
  ADD COLUMN review_note text,
  ADD COLUMN reviewed_artist_canonical_id text;
CREATE UNIQUE INDEX artist_resolutions_resolution_id ON artist_resolutions (resolution_id);
-- the operators' list: resolutions still waiting for a review, oldest first
CREATE INDEX artist_resolutions_open ON artist_resolutions (created_at) WHERE reviewed_at IS NULL;

ALTER TABLE artist_identity_evidence
  ADD COLUMN verified_by text,
  ADD COLUMN verified_at timestamptz,
  ADD COLUMN verification_note text;

-- Down Migration
ALTER TABLE artist_identity_evidence DROP COLUMN verification_note, DROP COLUMN verified_at, DROP COLUMN verified_by;
DROP INDEX artist_resolutions_open;
DROP INDEX artist_resolutions_resolution_id;
ALTER TABLE artist_resolutions DROP COLUMN reviewed_artist_canonical_id, DROP COLUMN review_note, DROP COLUMN reviewed_at,
  DROP COLUMN reviewed_credential_id, DROP COLUMN reviewed_by, DROP COLUMN evidence_values, DROP COLUMN resolution_id;
DROP TABLE posture_settlements;
DROP TABLE artist_runtime_profiles;
ALTER TABLE portfolio_assets DROP COLUMN placement;
