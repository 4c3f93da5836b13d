-- Up Migration
-- Similar images (issue 26): the perceptual fingerprints of every verified submission and, from
-- publication, of its published asset; indexed by multi-index hashing. Each 64-bit hash is split
-- into four 16-bit chunks, each in a B-tree-indexed column. Two hashes within Hamming distance 7
-- have a chunk within distance 1 of each other (pigeonhole: four chunks at distance >= 2 differ in
-- >= 8 bits), so probing every chunk at its own value and its 16 one-bit neighbours finds every
-- hash within distance 7, exactly; candidates are verified by bit_count of the XOR
-- (lib/media/fingerprints/index.ts).
CREATE TABLE image_fingerprints (
  subject_kind   text NOT NULL CHECK (subject_kind IN ('submission', 'asset')),
  -- the submission id, or the portfolio asset id (pfa_...)
  subject_id     text NOT NULL,
  submission_id  text NOT NULL,
  -- phash: the whole image; phash_mirror: mirrored left to right; phash_crop5 / phash_crop10: the
  -- centre with 5% / 10% of width and height cut away; dhash: the whole image's difference hash
  variant        text NOT NULL CHECK (variant IN ('phash', 'phash_mirror', 'phash_crop5', 'phash_crop10', 'dhash')),
  hash           bigint NOT NULL,
  c0 integer GENERATED ALWAYS AS (((hash >> 48) & 65535)::integer) STORED,
  c1 integer GENERATED ALWAYS AS (((hash >> 32) & 65535)::integer) STORED,
  c2 integer GENERATED ALWAYS AS (((hash >> 16) & 65535)::integer) STORED,
  c3 integer GENERATED ALWAYS AS ((hash & 65535)::integer) STORED,
  created_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (subject_kind, subject_id, variant)
);
-- The hash rides in each chunk index, so candidates are verified from the index alone (index-only
-- scans); only the hashes within the distance are looked up again, by image_fingerprints_hash.
CREATE INDEX image_fingerprints_c0 ON image_fingerprints (c0) INCLUDE (hash);
CREATE INDEX image_fingerprints_c1 ON image_fingerprints (c1) INCLUDE (hash);
CREATE INDEX image_fingerprints_c2 ON image_fingerprints (c2) INCLUDE (hash);
CREATE INDEX image_fingerprints_c3 ON image_fingerprints (c3) INCLUDE (hash);
CREATE INDEX image_fingerprints_hash ON image_fingerprints (hash);
CREATE INDEX image_fingerprints_submission ON image_fingerprints (submission_id);

-- Exact copies (sameBytes), also of submissions verified before fingerprints existed.
CREATE INDEX submissions_verified_sha256 ON submissions (verified_sha256) WHERE verified_sha256 IS NOT NULL;

-- The matches an operator's decision was taken over: what the lookup found at decision time and
-- which of them the operator's console showed (their ids are in the decision proof's details
-- hash). Append-only: written once per decision request, never changed.
CREATE TABLE decision_matches (
  id             bigserial PRIMARY KEY,
  submission_id  text NOT NULL REFERENCES submissions(submission_id),
  decision       text NOT NULL CHECK (decision IN ('approve', 'reject')),
  request_id     text NOT NULL,
  actor_id       text NOT NULL,
  credential_id  text NOT NULL,
  matches        jsonb NOT NULL,
  seen_matches   text[],
  review_notes   text NOT NULL,
  at             timestamptz NOT NULL DEFAULT now(),
  UNIQUE (submission_id, request_id)
);
CREATE FUNCTION decision_matches_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'decision_matches is append-only';
END $$;
CREATE TRIGGER decision_matches_append_only BEFORE UPDATE OR DELETE ON decision_matches
  FOR EACH ROW EXECUTE FUNCTION decision_matches_append_only();

-- Down Migration
DROP TRIGGER decision_matches_append_only ON decision_matches;
DROP FUNCTION decision_matches_append_only();
DROP TABLE decision_matches;
DROP INDEX submissions_verified_sha256;
DROP TABLE image_fingerprints;
