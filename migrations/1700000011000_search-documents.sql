-- Up Migration
-- Search documents (issue 16): GET /search reads one row per publicly searchable record (studio,
-- artist, public design) from one table: the weighted text vector, the location (an artist's or a
-- design's is its studio's, copied here so no search joins a studio per row), the facet columns and
-- a static quality score. A row exists exactly while its record may be searched: the public-read
-- rules of lib/directory/records.ts (publicDirectoryWhere, publicMediaWhere) are applied when the
-- document is written, so a search applies none of them.
--
-- Kept current in the same transaction as every write to the source tables: statement-level
-- triggers (with transition tables, so a COPY of a million rows is one set-based refresh, not a
-- million row triggers) recompute the documents of the rows a statement touched. The bulk seed
-- (lib/directory/seed.ts) switches them off for its own transaction (SET LOCAL
-- directory.search_sync = 'off') and rebuilds every document in static-quality order before it
-- commits, so the table's physical order follows the quality index that searches walk.
--
-- Typo tolerance reads search_words: every lexeme of every document (only ever added), with a
-- trigram index for the nearest words of a query word that has no exact match.

-- 0..1; the same formula for every type (lib/directory/search.ts and docs/read-clients.md say it in words):
-- rating (designs, without one: 0.8), review count (log; designs: 0.5), verified, featured, published portfolio works (log).
CREATE FUNCTION search_quality(rating double precision, review_count integer, verified boolean, featured boolean, published_works integer)
  RETURNS real LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT round((
        0.45 * CASE WHEN rating IS NULL THEN 0.8 ELSE least(greatest(rating, 0), 5) / 5.0 END
      + 0.25 * CASE WHEN review_count IS NULL THEN 0.5 ELSE least(1.0, ln(1 + greatest(review_count, 0)) / ln(1001)) END
      + 0.10 * coalesce(verified, false)::int
      + 0.10 * coalesce(featured, false)::int
      + 0.10 * least(1.0, ln(1 + greatest(coalesce(published_works, 0), 0)) / ln(51))
    )::numeric, 4)::real
  $$;

CREATE TABLE search_documents (
  type            text NOT NULL CHECK (type IN ('studio', 'artist', 'design')),
  id              text NOT NULL,
  name            text NOT NULL,
  search_tsv      tsvector NOT NULL,
  city            text,
  state           text,
  country         text,
  latitude        double precision,
  longitude       double precision,
  styles          text[] NOT NULL DEFAULT '{}',
  specialties     text[] NOT NULL DEFAULT '{}',
  rating          double precision,
  review_count    integer NOT NULL DEFAULT 0,
  verified        boolean NOT NULL DEFAULT false,
  published_works integer NOT NULL DEFAULT 0,
  created_at      timestamptz NOT NULL,
  quality         real NOT NULL CHECK (quality BETWEEN 0 AND 1),
  PRIMARY KEY (type, id)
);

CREATE TABLE search_words (
  word text PRIMARY KEY
);

-- What each searchable record's document is (the one definition: refreshes and the bulk rebuild read it).
CREATE VIEW search_document_source AS
  SELECT 'studio'::text AS type, s.id, s.name, s.search_tsv, s.city, s.state, s.country, s.latitude, s.longitude,
    s.styles, s.specialties, s.rating, s.review_count, s.verified, w.n AS published_works, s.created_at,
    search_quality(s.rating, s.review_count, s.verified, s.featured, w.n) AS quality
  FROM studios s
  CROSS JOIN LATERAL (
    SELECT count(*)::int AS n FROM portfolio_assets p
    WHERE p.studio_id = s.id AND p.publish_state = 'published_public' AND p.is_public AND p.visibility = 'public' AND p.record_state <> 'deprecated'
  ) w
  WHERE s.visibility = 'public' AND s.is_active AND s.record_state <> 'deprecated'
  UNION ALL
  SELECT 'artist'::text, a.id, a.name, a.search_tsv, st.city, st.state, st.country, st.latitude, st.longitude,
    a.styles, a.specialties, a.rating, a.review_count, a.verified, w.n, a.created_at,
    search_quality(a.rating, a.review_count, a.verified, false, w.n)
  FROM artists a
  LEFT JOIN studios st ON st.id = a.studio_id AND st.visibility = 'public' AND st.record_state <> 'deprecated'
  CROSS JOIN LATERAL (
    SELECT count(*)::int AS n FROM portfolio_assets p
    WHERE p.artist_id = a.id AND p.publish_state = 'published_public' AND p.is_public AND p.visibility = 'public' AND p.record_state <> 'deprecated'
  ) w
  WHERE a.visibility = 'public' AND a.is_active AND a.record_state <> 'deprecated'
  UNION ALL
  SELECT 'design'::text, d.id, d.title, d.search_tsv, st.city, st.state, st.country, st.latitude, st.longitude,
    d.style_ids, '{}'::text[], NULL::double precision, 0, d.verification_status = 'verified', 0, d.created_at,
    search_quality(NULL, NULL, d.verification_status = 'verified', d.featured, 0)
  FROM designs d
  LEFT JOIN studios st ON st.id = d.studio_id AND st.visibility = 'public' AND st.record_state <> 'deprecated'
  WHERE d.publish_state = 'published_public' AND d.is_public AND d.visibility = 'public' AND d.record_state <> 'deprecated'
    AND d.rights_posture IN ('owner_attested', 'artist_attested')
    AND d.consent_posture IN ('client_consented', 'not_required')
    AND d.license_status NOT IN ('rights_disputed', 'rights_revoked', 'rights_restricted')
    AND d.consent_level NOT IN ('consent_withdrawn', 'no_consent');

-- Recompute the documents of these records of one type: written when searchable, deleted when not,
-- and their words added to the dictionary. SECURITY DEFINER: the API's least-privilege role writes
-- the source rows; the documents follow whoever wrote them.
CREATE FUNCTION search_documents_refresh(doc_type text, ids text[]) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
  BEGIN
    IF ids IS NULL OR cardinality(ids) = 0 THEN
      RETURN;
    END IF;
    DELETE FROM search_documents d
    WHERE d.type = doc_type AND d.id = ANY (ids)
      AND NOT EXISTS (SELECT 1 FROM search_document_source s WHERE s.type = doc_type AND s.id = d.id);
    -- in id order, so concurrent refreshes of overlapping records take their row locks in one order
    INSERT INTO search_documents AS t (type, id, name, search_tsv, city, state, country, latitude, longitude, styles, specialties,
      rating, review_count, verified, published_works, created_at, quality)
    SELECT s.type, s.id, s.name, s.search_tsv, s.city, s.state, s.country, s.latitude, s.longitude, s.styles, s.specialties,
      s.rating, s.review_count, s.verified, s.published_works, s.created_at, s.quality
    FROM search_document_source s
    WHERE s.type = doc_type AND s.id = ANY (ids)
    ORDER BY s.id
    ON CONFLICT (type, id) DO UPDATE SET
      name = excluded.name, search_tsv = excluded.search_tsv, city = excluded.city, state = excluded.state, country = excluded.country,
      latitude = excluded.latitude, longitude = excluded.longitude, styles = excluded.styles, specialties = excluded.specialties,
      rating = excluded.rating, review_count = excluded.review_count, verified = excluded.verified,
      published_works = excluded.published_works, created_at = excluded.created_at, quality = excluded.quality
    WHERE (t.name, t.search_tsv, t.city, t.state, t.country, t.latitude, t.longitude, t.styles, t.specialties, t.rating,
           t.review_count, t.verified, t.published_works, t.created_at, t.quality)
      IS DISTINCT FROM
          (excluded.name, excluded.search_tsv, excluded.city, excluded.state, excluded.country, excluded.latitude, excluded.longitude,
           excluded.styles, excluded.specialties, excluded.rating, excluded.review_count, excluded.verified,
           excluded.published_works, excluded.created_at, excluded.quality);
    INSERT INTO search_words (word)
    SELECT DISTINCT w FROM search_documents d, unnest(tsvector_to_array(d.search_tsv)) w
    WHERE d.type = doc_type AND d.id = ANY (ids)
    ORDER BY w
    ON CONFLICT (word) DO NOTHING;
  END
  $$;

-- The documents of the rows already there, in quality order (the physical order the quality walk reads).
INSERT INTO search_documents (type, id, name, search_tsv, city, state, country, latitude, longitude, styles, specialties,
  rating, review_count, verified, published_works, created_at, quality)
SELECT type, id, name, search_tsv, city, state, country, latitude, longitude, styles, specialties,
  rating, review_count, verified, published_works, created_at, quality
FROM search_document_source
ORDER BY quality DESC, type, id;
INSERT INTO search_words (word) SELECT word FROM ts_stat('SELECT search_tsv FROM search_documents') ORDER BY word;


-- Rare terms: the GIN bitmap is small. Common terms: walk the quality index and stop after a page.
CREATE INDEX search_documents_tsv ON search_documents USING gin (search_tsv);
CREATE INDEX search_documents_quality ON search_documents (quality DESC, type, id);
CREATE INDEX search_documents_city ON search_documents (city, quality DESC, type, id);
CREATE INDEX search_documents_rating ON search_documents (rating DESC NULLS LAST, type, id);
-- Geo: the bounding box of the radius (lib/directory/search.ts geoBox), then the exact great-circle
-- check. A point GiST index builds sorted (seconds at a million rows; the cube index of ll_to_earth
-- took ten times as long to build).
CREATE INDEX search_documents_geo ON search_documents USING gist (point(longitude, latitude));
-- Honest statistics for the planner's choice between the two: the frequency of many more lexemes.
ALTER TABLE search_documents ALTER COLUMN search_tsv SET STATISTICS 1000;

CREATE INDEX search_words_trgm ON search_words USING gist (word gist_trgm_ops);
ANALYZE search_documents;
ANALYZE search_words;

-- The statement-level triggers: the records a statement touched (before and after the change).
-- (Transition tables are visible only inside the trigger function itself, hence the repetition.)
CREATE FUNCTION search_sync() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
  DECLARE
    ids text[];
    doc_type text := CASE TG_TABLE_NAME WHEN 'studios' THEN 'studio' WHEN 'artists' THEN 'artist' ELSE 'design' END;
  BEGIN
    IF current_setting('directory.search_sync', true) = 'off' THEN
      RETURN NULL; -- the bulk seed rebuilds every document before it commits
    END IF;
    IF TG_OP = 'INSERT' THEN
      ids := ARRAY(SELECT DISTINCT n.id FROM new_rows n);
    ELSIF TG_OP = 'DELETE' THEN
      ids := ARRAY(SELECT DISTINCT o.id FROM old_rows o);
    ELSE
      ids := ARRAY(SELECT n.id FROM new_rows n UNION SELECT o.id FROM old_rows o);
    END IF;
    PERFORM search_documents_refresh(doc_type, ids);
    IF doc_type = 'studio' THEN
      -- an artist's and a design's location is its studio's
      PERFORM search_documents_refresh('artist', ARRAY(SELECT a.id FROM artists a WHERE a.studio_id = ANY (ids)));
      PERFORM search_documents_refresh('design', ARRAY(SELECT d.id FROM designs d WHERE d.studio_id = ANY (ids)));
    END IF;
    RETURN NULL;
  END
  $$;

-- Published portfolio works count in the quality of their artist and studio: the governed
-- projection and the takedown write portfolio_assets, and the documents follow in their transaction.
CREATE FUNCTION search_sync_portfolio() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
  DECLARE
    artist_ids text[];
    studio_ids text[];
  BEGIN
    IF current_setting('directory.search_sync', true) = 'off' THEN
      RETURN NULL;
    END IF;
    IF TG_OP = 'INSERT' THEN
      artist_ids := ARRAY(SELECT DISTINCT n.artist_id FROM new_rows n);
      studio_ids := ARRAY(SELECT DISTINCT n.studio_id FROM new_rows n WHERE n.studio_id IS NOT NULL);
    ELSIF TG_OP = 'DELETE' THEN
      artist_ids := ARRAY(SELECT DISTINCT o.artist_id FROM old_rows o);
      studio_ids := ARRAY(SELECT DISTINCT o.studio_id FROM old_rows o WHERE o.studio_id IS NOT NULL);
    ELSE
      artist_ids := ARRAY(SELECT n.artist_id FROM new_rows n UNION SELECT o.artist_id FROM old_rows o);
      studio_ids := ARRAY(SELECT x FROM (SELECT n.studio_id AS x FROM new_rows n UNION SELECT o.studio_id FROM old_rows o) u WHERE x IS NOT NULL);
    END IF;
    PERFORM search_documents_refresh('artist', artist_ids);
    PERFORM search_documents_refresh('studio', studio_ids);
    RETURN NULL;
  END
  $$;

CREATE TRIGGER studios_search_insert AFTER INSERT ON studios REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_sync();
CREATE TRIGGER studios_search_update AFTER UPDATE ON studios REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_sync();
CREATE TRIGGER studios_search_delete AFTER DELETE ON studios REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION search_sync();
CREATE TRIGGER artists_search_insert AFTER INSERT ON artists REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_sync();
CREATE TRIGGER artists_search_update AFTER UPDATE ON artists REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_sync();
CREATE TRIGGER artists_search_delete AFTER DELETE ON artists REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION search_sync();
CREATE TRIGGER designs_search_insert AFTER INSERT ON designs REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_sync();
CREATE TRIGGER designs_search_update AFTER UPDATE ON designs REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_sync();
CREATE TRIGGER designs_search_delete AFTER DELETE ON designs REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION search_sync();
CREATE TRIGGER portfolio_assets_search_insert AFTER INSERT ON portfolio_assets REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_sync_portfolio();
CREATE TRIGGER portfolio_assets_search_update AFTER UPDATE ON portfolio_assets REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_sync_portfolio();
CREATE TRIGGER portfolio_assets_search_delete AFTER DELETE ON portfolio_assets REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION search_sync_portfolio();

-- /search no longer reads these (it reads search_documents); /studios, /artists and /designs keep theirs.
DROP INDEX studios_search_tsv;
DROP INDEX studios_name_trgm;
DROP INDEX artists_name_trgm;
DROP INDEX designs_title_trgm;

-- Down Migration
CREATE INDEX designs_title_trgm ON designs USING gin (title gin_trgm_ops);
CREATE INDEX artists_name_trgm ON artists USING gin (name gin_trgm_ops);
CREATE INDEX studios_name_trgm ON studios USING gin (name gin_trgm_ops);
CREATE INDEX studios_search_tsv ON studios USING gin (search_tsv);
DROP TRIGGER portfolio_assets_search_delete ON portfolio_assets;
DROP TRIGGER portfolio_assets_search_update ON portfolio_assets;
DROP TRIGGER portfolio_assets_search_insert ON portfolio_assets;
DROP TRIGGER designs_search_delete ON designs;
DROP TRIGGER designs_search_update ON designs;
DROP TRIGGER designs_search_insert ON designs;
DROP TRIGGER artists_search_delete ON artists;
DROP TRIGGER artists_search_update ON artists;
DROP TRIGGER artists_search_insert ON artists;
DROP TRIGGER studios_search_delete ON studios;
DROP TRIGGER studios_search_update ON studios;
DROP TRIGGER studios_search_insert ON studios;
DROP FUNCTION search_sync_portfolio();
DROP FUNCTION search_sync();
DROP FUNCTION search_documents_refresh(text, text[]);
DROP VIEW search_document_source;
DROP TABLE search_words;
DROP TABLE search_documents;
DROP FUNCTION search_quality(double precision, integer, boolean, boolean, integer);
