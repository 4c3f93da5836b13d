-- Up Migration
-- The review console (issue 14): operator sessions (cookie), one-time sign-in codes, review claims.

-- A console session: the cookie holds a random token; only its sha256 is stored. Bound to the
-- operator's credential (kind, subject, issuer) and to the token's expiry; every request re-checks
-- the actor mapping through that credential. csrf is echoed by the page in X-Console-CSRF.
CREATE TABLE console_sessions (
  session_hash      text PRIMARY KEY,
  credential_kind   text NOT NULL,
  credential_subject text NOT NULL,
  credential_issuer text NOT NULL,
  csrf              text NOT NULL,
  created_at        timestamptz NOT NULL DEFAULT now(),
  expires_at        timestamptz NOT NULL,
  revoked_at        timestamptz
);
CREATE INDEX console_sessions_expiry ON console_sessions (expires_at);

-- One-time sign-in codes (the link `npm start` prints): short-lived, used once, stored hashed.
CREATE TABLE console_signin_codes (
  code_hash         text PRIMARY KEY,
  credential_subject text NOT NULL,
  credential_issuer text NOT NULL,
  expires_at        timestamptz NOT NULL,
  session_expires_at timestamptz NOT NULL,
  used_at           timestamptz
);

-- Who is reviewing what: opening an item claims it for a few minutes.
CREATE TABLE review_claims (
  submission_id text PRIMARY KEY REFERENCES submissions (submission_id),
  actor_id      text NOT NULL,
  claimed_at    timestamptz NOT NULL DEFAULT now(),
  claimed_until timestamptz NOT NULL
);

-- Down Migration
DROP TABLE review_claims;
DROP TABLE console_signin_codes;
DROP TABLE console_sessions;
