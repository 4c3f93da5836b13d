-- Up Migration
-- Four studio indexes no read uses, each kept up to date by every studio write and rebuilt by a
-- first backfill (the two GiST builds over ll_to_earth are its costliest: 33 s of 144 at a million
-- studios). Every read of studios by place, city or radius is a public one (lib/directory/studios.ts
-- `where`: visibility public, not deprecated, active), which the partial indexes of migration
-- 1700000004000 answer: studios_public_geo (the radius and nearest first) and
-- studios_public_city_rating (a city). No read filters studios by styles or specialties (GET /search
-- filters search_documents). EXPLAIN at a million studios picks the same plan with and without them.
DROP INDEX IF EXISTS studios_geo;
DROP INDEX IF EXISTS studios_city;
DROP INDEX IF EXISTS studios_styles;
DROP INDEX IF EXISTS studios_specialties;
-- a first backfill killed before it rebuilt them dropped them already and keeps them on record:
-- the record goes too, so no later run builds them again
DELETE FROM cutover_deferred_indexes WHERE index_name IN ('studios_geo', 'studios_city', 'studios_styles', 'studios_specialties');

-- Down Migration
CREATE INDEX studios_specialties ON studios USING gin (specialties);
CREATE INDEX studios_styles ON studios USING gin (styles);
CREATE INDEX studios_city ON studios (city, rating DESC);
CREATE INDEX studios_geo ON studios USING gist (ll_to_earth(latitude, longitude));
