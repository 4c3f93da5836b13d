-- Up Migration
-- Indexes found with the R3 benchmark profiles (bench/directory.ts, EXPLAIN ANALYZE at 100k and 1M
-- studios). The filtered GET /studios (city + rating, the directory's everyday query) counted its
-- total through a bitmap heap scan: one heap page per matching row, so the count grew with the
-- data. This partial index holds only rows a public read can return, in the list's rating order,
-- with the other common filters included, so both the page (index order) and the total (an
-- index-only scan) avoid the heap.
CREATE INDEX studios_public_city_rating ON studios (city, rating DESC, id)
  INCLUDE (verified, price_range, featured)
  WHERE visibility = 'public' AND record_state <> 'deprecated' AND is_active;

-- The geo radius read: the same idea for the GiST index. The cube opclass has no compress step, so
-- with latitude and longitude included and only public rows in it, the count inside the radius is
-- an index-only scan, and the nearest-first page walks the index in distance order (KNN).
CREATE INDEX studios_public_geo ON studios USING gist (ll_to_earth(latitude, longitude))
  INCLUDE (latitude, longitude)
  WHERE visibility = 'public' AND record_state <> 'deprecated' AND is_active;

-- Down Migration
DROP INDEX studios_public_geo;
DROP INDEX studios_public_city_rating;
