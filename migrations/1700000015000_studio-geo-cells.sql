-- Up Migration
-- The total of a geo radius read (GET /studios?latitude&longitude&radius) without a distance per
-- row. The GiST index (studios_public_geo) answers the bounding cube, but the count then evaluates
-- earth_distance for every row in it (about 8 µs each), so a dense city counted in time
-- proportional to its studios. geo_cell is the Morton (Z-order) code of a point on a 2^24 x 2^24
-- latitude/longitude grid: a quadtree cell at any level is one contiguous range of codes. The
-- service covers the circle with cells (lib/directory/geo-cells.ts): rows in cells wholly inside
-- the circle are counted straight from this B-tree (an index-only range scan, no distance), and
-- only the rows in the few cells on the circle's edge get the exact earth_distance check.
--
-- geo_cell_spread(x): a zero bit between each of the low 24 bits of x, the classic magic-number
-- sequence written out as one expression (x := (x | x << 16) & 0x0000FFFF0000FFFF, then << 8 with
-- 0x00FF00FF00FF00FF, << 4 with 0x0F0F0F0F0F0F0F0F, << 2 with 0x3333333333333333, << 1 with
-- 0x5555555555555555): the planner inlines a single-expression SQL function, not a chain of them
-- (each step names x twice), and a SQL function it does not inline costs tens of µs a call.
CREATE FUNCTION geo_cell_spread(x bigint) RETURNS bigint
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT ((((((((((x | (x << 16)) & 281470681808895) | (((x | (x << 16)) & 281470681808895) << 8)) & 71777214294589695) | (((((x | (x << 16)) & 281470681808895) | (((x | (x << 16)) & 281470681808895) << 8)) & 71777214294589695) << 4)) & 1085102592571150095) | (((((((x | (x << 16)) & 281470681808895) | (((x | (x << 16)) & 281470681808895) << 8)) & 71777214294589695) | (((((x | (x << 16)) & 281470681808895) | (((x | (x << 16)) & 281470681808895) << 8)) & 71777214294589695) << 4)) & 1085102592571150095) << 2)) & 3689348814741910323) | (((((((((x | (x << 16)) & 281470681808895) | (((x | (x << 16)) & 281470681808895) << 8)) & 71777214294589695) | (((((x | (x << 16)) & 281470681808895) | (((x | (x << 16)) & 281470681808895) << 8)) & 71777214294589695) << 4)) & 1085102592571150095) | (((((((x | (x << 16)) & 281470681808895) | (((x | (x << 16)) & 281470681808895) << 8)) & 71777214294589695) | (((((x | (x << 16)) & 281470681808895) | (((x | (x << 16)) & 281470681808895) << 8)) & 71777214294589695) << 4)) & 1085102592571150095) << 2)) & 3689348814741910323) << 1)) & 6148914691236517205) $$;

-- The cell of a point: row i of its latitude, column j of its longitude, code spread(i) * 2 +
-- spread(j); lib/directory/geo-cells.ts computes the same code with the same float steps. PL/pgSQL
-- on purpose, so it is not inlined into the queries: inlined, its expression (some thousand nodes)
-- costs every query that names it 2-4 ms of planning, while a call costs about 4 µs (its own
-- expression is planned once per session, with geo_cell_spread inlined) and index scans match it
-- by name. The helper is schema-qualified: CREATE INDEX runs with search_path = pg_catalog, pg_temp
-- (PostgreSQL 17).
CREATE FUNCTION geo_cell(latitude double precision, longitude double precision) RETURNS bigint
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE STRICT
  AS $$
  BEGIN
    RETURN public.geo_cell_spread(greatest(least(floor((latitude + 90) / 180 * 16777216)::bigint, 16777215), 0)) * 2
         + public.geo_cell_spread(greatest(least(floor((longitude + 180) / 360 * 16777216)::bigint, 16777215), 0));
  END
  $$;

-- Public rows only, as the other read indexes; latitude and longitude included for the edge cells'
-- distance check, so the whole count is index-only.
CREATE INDEX studios_public_geo_cell ON studios (geo_cell(latitude, longitude))
  INCLUDE (latitude, longitude)
  WHERE visibility = 'public' AND record_state <> 'deprecated' AND is_active;

-- Down Migration
DROP INDEX studios_public_geo_cell;
DROP FUNCTION geo_cell(double precision, double precision);
DROP FUNCTION geo_cell_spread(bigint);
