-- Up Migration
-- Text search: /studios `search` keeps the legacy substring semantics (trigram index over name,
-- description and city); /artists and /designs `search` match word prefixes in the weighted
-- tsvector (lib/directory/records.ts prefixQuery); /search ranks full text plus name similarity.
--
-- The runtime (directory) store: studios, artists, portfolio assets, designs. Public and beta read
-- routes read only these tables; the private media store (media_documents) reaches them only through
-- the governed projection (scripts/project-draft.ts).

-- array_to_string is only STABLE; a generated column needs an IMMUTABLE expression. Joining plain
-- text[] values does not depend on any setting, so this wrapper is safe to mark IMMUTABLE.
CREATE FUNCTION directory_words(text[]) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT coalesce(array_to_string($1, ' '), '') $$;

CREATE TABLE studios (
  id              text PRIMARY KEY,
  name            text NOT NULL,
  description     text NOT NULL DEFAULT '',
  address         text NOT NULL DEFAULT '',
  city            text NOT NULL,
  state           text NOT NULL DEFAULT '',
  country         text NOT NULL,
  latitude        double precision NOT NULL CHECK (latitude BETWEEN -90 AND 90),
  longitude       double precision NOT NULL CHECK (longitude BETWEEN -180 AND 180),
  price_range     text NOT NULL CHECK (price_range IN ('$', '$$', '$$$', '$$$$')),
  rating          double precision NOT NULL DEFAULT 0 CHECK (rating BETWEEN 0 AND 5),
  review_count    integer NOT NULL DEFAULT 0 CHECK (review_count >= 0),
  styles          text[] NOT NULL DEFAULT '{}',
  specialties     text[] NOT NULL DEFAULT '{}',
  verified        boolean NOT NULL DEFAULT false,
  featured        boolean NOT NULL DEFAULT false,
  is_active       boolean NOT NULL DEFAULT true,
  -- provenance (2.6)
  record_state    text NOT NULL DEFAULT 'normalized' CHECK (record_state IN ('raw', 'normalized', 'curated', 'verified', 'deprecated')),
  source_type     text NOT NULL DEFAULT 'directory_import',
  origin_authority text NOT NULL DEFAULT 'legacy_directory',
  source_url      text,
  source_collected_at timestamptz,
  license_status  text NOT NULL DEFAULT 'rights_unknown',
  consent_level   text NOT NULL DEFAULT 'recommendation_only',
  source_notes    text[] NOT NULL DEFAULT '{}',
  -- trust (2.6)
  verification_status text NOT NULL DEFAULT 'unverified',
  approval_status text NOT NULL DEFAULT 'pending_review',
  visibility      text NOT NULL DEFAULT 'public' CHECK (visibility IN ('public', 'private', 'owner_only')),
  cultural_sensitivity_level text NOT NULL DEFAULT 'none',
  trust_notes     text[] NOT NULL DEFAULT '{}',
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  -- /search: ranked full text; /studios `search`: substring over name, description, city (trigram)
  search_tsv      tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('simple', name), 'A') ||
    setweight(to_tsvector('simple', city), 'B') ||
    setweight(to_tsvector('simple', description || ' ' || directory_words(styles) || ' ' || directory_words(specialties)), 'C')
  ) STORED,
  search_text     text GENERATED ALWAYS AS (lower(name || ' ' || description || ' ' || city)) STORED
);
CREATE INDEX studios_search_tsv ON studios USING gin (search_tsv);
CREATE INDEX studios_search_text_trgm ON studios USING gin (search_text gin_trgm_ops);
CREATE INDEX studios_name_trgm ON studios USING gin (name gin_trgm_ops);
CREATE INDEX studios_geo ON studios USING gist (ll_to_earth(latitude, longitude));
CREATE INDEX studios_city ON studios (city, rating DESC);
CREATE INDEX studios_state ON studios (state, rating DESC);
-- the default listing (public, active, by rating) and its count: an index-only scan
CREATE INDEX studios_public_rating ON studios (rating DESC, id)
  WHERE visibility = 'public' AND is_active AND record_state <> 'deprecated';
CREATE INDEX studios_review_count ON studios (review_count DESC, id);
CREATE INDEX studios_name ON studios (name, id);
CREATE INDEX studios_created_at ON studios (created_at DESC, id);
CREATE INDEX studios_styles ON studios USING gin (styles);
CREATE INDEX studios_specialties ON studios USING gin (specialties);

CREATE TABLE artists (
  id              text PRIMARY KEY,
  studio_id       text REFERENCES studios(id) ON DELETE SET NULL,
  name            text NOT NULL,
  bio             text NOT NULL DEFAULT '',
  specialties     text[] NOT NULL DEFAULT '{}',
  styles          text[] NOT NULL DEFAULT '{}',
  years_experience integer NOT NULL DEFAULT 0 CHECK (years_experience >= 0),
  hourly_rate     numeric(10, 2) CHECK (hourly_rate >= 0),
  rating          double precision NOT NULL DEFAULT 0 CHECK (rating BETWEEN 0 AND 5),
  review_count    integer NOT NULL DEFAULT 0 CHECK (review_count >= 0),
  verified        boolean NOT NULL DEFAULT false,
  is_active       boolean NOT NULL DEFAULT true,
  record_state    text NOT NULL DEFAULT 'normalized' CHECK (record_state IN ('raw', 'normalized', 'curated', 'verified', 'deprecated')),
  source_type     text NOT NULL DEFAULT 'directory_import',
  origin_authority text NOT NULL DEFAULT 'legacy_directory',
  source_url      text,
  source_collected_at timestamptz,
  license_status  text NOT NULL DEFAULT 'rights_unknown',
  consent_level   text NOT NULL DEFAULT 'recommendation_only',
  source_notes    text[] NOT NULL DEFAULT '{}',
  verification_status text NOT NULL DEFAULT 'unverified',
  approval_status text NOT NULL DEFAULT 'pending_review',
  visibility      text NOT NULL DEFAULT 'public' CHECK (visibility IN ('public', 'private', 'owner_only')),
  cultural_sensitivity_level text NOT NULL DEFAULT 'none',
  trust_notes     text[] NOT NULL DEFAULT '{}',
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  search_tsv      tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('simple', name), 'A') ||
    setweight(to_tsvector('simple', directory_words(specialties)), 'B') ||
    setweight(to_tsvector('simple', bio), 'C')
  ) STORED
);
CREATE INDEX artists_studio ON artists (studio_id);
CREATE INDEX artists_search_tsv ON artists USING gin (search_tsv);
CREATE INDEX artists_name_trgm ON artists USING gin (name gin_trgm_ops);
CREATE INDEX artists_specialties ON artists USING gin (specialties);
CREATE INDEX artists_styles ON artists USING gin (styles);
CREATE INDEX artists_name ON artists (name, id);
CREATE INDEX artists_years ON artists (years_experience, id);
CREATE INDEX artists_rate ON artists (hourly_rate, id);
CREATE INDEX artists_created_at ON artists (created_at, id);

-- Portfolio assets and designs share one shape: runtime ownership (artist_id / studio_id), the
-- governance postures copied from intake, the publish state and the provenance / trust blocks.
-- A row is publicly readable only when lib/directory/visibility.ts says so.
CREATE TABLE portfolio_assets (
  id              text PRIMARY KEY,
  artist_id       text NOT NULL,
  studio_id       text,
  title           text NOT NULL DEFAULT '',
  description     text NOT NULL DEFAULT '',
  image_url       text NOT NULL,
  tags            text[] NOT NULL DEFAULT '{}',
  style_ids       text[] NOT NULL DEFAULT '{}',
  featured        boolean NOT NULL DEFAULT false,
  is_public       boolean NOT NULL DEFAULT false,
  publish_state   text NOT NULL DEFAULT 'draft' CHECK (publish_state IN ('draft', 'private', 'owner_only', 'published_public', 'archived')),
  rights_posture  text NOT NULL CHECK (rights_posture IN ('owner_attested', 'artist_attested', 'review_required')),
  consent_posture text NOT NULL CHECK (consent_posture IN ('client_consented', 'not_required', 'review_required')),
  -- the media-store draft this row was projected from; unique so projection is idempotent
  source_document_id text UNIQUE,
  projected_by    text,
  projected_at    timestamptz,
  record_state    text NOT NULL DEFAULT 'normalized' CHECK (record_state IN ('raw', 'normalized', 'curated', 'verified', 'deprecated')),
  source_type     text NOT NULL DEFAULT 'directory_import',
  origin_authority text NOT NULL DEFAULT 'legacy_directory',
  source_url      text,
  source_collected_at timestamptz,
  license_status  text NOT NULL DEFAULT 'rights_unknown',
  consent_level   text NOT NULL DEFAULT 'recommendation_only',
  source_notes    text[] NOT NULL DEFAULT '{}',
  verification_status text NOT NULL DEFAULT 'unverified',
  approval_status text NOT NULL DEFAULT 'pending_review',
  visibility      text NOT NULL DEFAULT 'private' CHECK (visibility IN ('public', 'private', 'owner_only')),
  cultural_sensitivity_level text NOT NULL DEFAULT 'none',
  trust_notes     text[] NOT NULL DEFAULT '{}',
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX portfolio_assets_artist ON portfolio_assets (artist_id, created_at DESC);
CREATE INDEX portfolio_assets_studio ON portfolio_assets (studio_id, created_at DESC);
CREATE INDEX portfolio_assets_tags ON portfolio_assets USING gin (tags);
CREATE INDEX portfolio_assets_styles ON portfolio_assets USING gin (style_ids);
CREATE INDEX portfolio_assets_public ON portfolio_assets (created_at DESC, id)
  WHERE publish_state = 'published_public' AND is_public AND visibility = 'public';

CREATE TABLE designs (
  id              text PRIMARY KEY,
  artist_id       text NOT NULL,
  studio_id       text,
  title           text NOT NULL DEFAULT '',
  description     text NOT NULL DEFAULT '',
  image_url       text NOT NULL,
  tags            text[] NOT NULL DEFAULT '{}',
  style_ids       text[] NOT NULL DEFAULT '{}',
  price           numeric(10, 2) CHECK (price >= 0),
  featured        boolean NOT NULL DEFAULT false,
  is_public       boolean NOT NULL DEFAULT false,
  publish_state   text NOT NULL DEFAULT 'draft' CHECK (publish_state IN ('draft', 'private', 'owner_only', 'published_public', 'archived')),
  rights_posture  text NOT NULL CHECK (rights_posture IN ('owner_attested', 'artist_attested', 'review_required')),
  consent_posture text NOT NULL CHECK (consent_posture IN ('client_consented', 'not_required', 'review_required')),
  runtime_trust_proof jsonb NOT NULL DEFAULT '{}',
  record_state    text NOT NULL DEFAULT 'normalized' CHECK (record_state IN ('raw', 'normalized', 'curated', 'verified', 'deprecated')),
  source_type     text NOT NULL DEFAULT 'directory_import',
  origin_authority text NOT NULL DEFAULT 'legacy_directory',
  source_url      text,
  source_collected_at timestamptz,
  license_status  text NOT NULL DEFAULT 'rights_unknown',
  consent_level   text NOT NULL DEFAULT 'recommendation_only',
  source_notes    text[] NOT NULL DEFAULT '{}',
  verification_status text NOT NULL DEFAULT 'unverified',
  approval_status text NOT NULL DEFAULT 'pending_review',
  visibility      text NOT NULL DEFAULT 'private' CHECK (visibility IN ('public', 'private', 'owner_only')),
  cultural_sensitivity_level text NOT NULL DEFAULT 'none',
  trust_notes     text[] NOT NULL DEFAULT '{}',
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  search_tsv      tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('simple', title), 'A') ||
    setweight(to_tsvector('simple', description || ' ' || directory_words(tags) || ' ' || directory_words(style_ids)), 'C')
  ) STORED
);
CREATE INDEX designs_artist ON designs (artist_id, created_at DESC);
CREATE INDEX designs_studio ON designs (studio_id, created_at DESC);
CREATE INDEX designs_tags ON designs USING gin (tags);
CREATE INDEX designs_styles ON designs USING gin (style_ids);
CREATE INDEX designs_search_tsv ON designs USING gin (search_tsv);
CREATE INDEX designs_title_trgm ON designs USING gin (title gin_trgm_ops);
CREATE INDEX designs_price ON designs (price) WHERE price IS NOT NULL;
CREATE INDEX designs_public ON designs (created_at DESC, id)
  WHERE publish_state = 'published_public' AND is_public AND visibility = 'public';

-- Down Migration
DROP TABLE designs;
DROP TABLE portfolio_assets;
DROP TABLE artists;
DROP TABLE studios;
DROP FUNCTION directory_words(text[]);
