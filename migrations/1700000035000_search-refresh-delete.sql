-- Up Migration
-- search_documents_refresh (1700000011000) deleted the documents of records no longer searchable
-- with `NOT EXISTS (select from search_document_source where id = d.id)`. The planner cannot push
-- that correlated id through the view's UNION ALL and LATERAL counts: it walked every searchable
-- record of the type, counting each one's published works. At 1M studios, a studio update spent
-- 13.3 s in its trigger (8.5 s refreshing the studio, 7.3 s its designs); a design update, a
-- promotion writing portfolio_assets (it refreshes the studio) and every cutover batch paid it too.
-- Now the records still searchable are read once, by `id = any(ids)` (each branch's primary key),
-- and only the others are deleted: the same documents, in milliseconds.
CREATE OR REPLACE FUNCTION search_documents_refresh(doc_type text, ids text[]) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
  BEGIN
    IF ids IS NULL OR cardinality(ids) = 0 THEN
      RETURN;
    END IF;
    DELETE FROM search_documents d
    WHERE d.type = doc_type AND d.id = ANY (ids)
      AND d.id <> ALL (ARRAY(SELECT s.id FROM search_document_source s WHERE s.type = doc_type AND s.id = ANY (ids)));
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

-- Down Migration
CREATE OR REPLACE FUNCTION search_documents_refresh(doc_type text, ids text[]) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
  BEGIN
    IF ids IS NULL OR cardinality(ids) = 0 THEN
      RETURN;
    END IF;
    DELETE FROM search_documents d
    WHERE d.type = doc_type AND d.id = ANY (ids)
      AND NOT EXISTS (SELECT 1 FROM search_document_source s WHERE s.type = doc_type AND s.id = d.id);
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
