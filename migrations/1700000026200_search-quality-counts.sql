-- Up Migration
-- search_quality took the log of 1 + review_count in integer arithmetic: a count at the int4
-- maximum (2147483647, which the legacy store and the runtime columns allow) overflowed and refused
-- the row. The same formula, the sums in double precision (as ln took them).
CREATE OR REPLACE FUNCTION search_quality(rating double precision, review_count integer, verified boolean, featured boolean, published_works integer)
  RETURNS real LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT round((
        0.45 * CASE WHEN rating IS NULL THEN 0.8 ELSE least(greatest(rating, 0), 5) / 5.0 END
      + 0.25 * CASE WHEN review_count IS NULL THEN 0.5 ELSE least(1.0, ln(1::float8 + greatest(review_count, 0)) / ln(1001)) END
      + 0.10 * coalesce(verified, false)::int
      + 0.10 * coalesce(featured, false)::int
      + 0.10 * least(1.0, ln(1::float8 + greatest(coalesce(published_works, 0), 0)) / ln(51))
    )::numeric, 4)::real
  $$;

-- Down Migration
-- Nothing to undo: for every count the old function took, this one gives the same quality.
SELECT 1;
