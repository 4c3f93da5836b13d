// The geo radius total of GET /studios (listStudios), counted by geo cells (studios_public_geo_cell,
// lib/directory/geo-cells.ts): on real PostgreSQL it must equal the brute-force count of public
// studios within earth_distance of the point, for circles anywhere (near a pole, across the
// antimeridian, tiny and large), with the other filters and the cap applied as before. And the page
// in a radius sorted by other than distance, walked along the sort or read through the circle's
// index, is the brute-force page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSql, type Sql } from '../../lib/db';
import { EARTH_RADIUS_M, geoCell } from '../../lib/directory/geo-cells';
import { RADIUS_MAX_KM } from '../../lib/directory/params';
import { mulberry32 } from '../../scripts/seed/directory';
import { listStudios, type StudioFilters } from '../../lib/directory/studios';
import { createTestDatabase } from '../helpers/stack';

const RAD = Math.PI / 180;

/** The point at distanceM along the bearing from (lat, lon), longitude wrapped into [-180, 180]. */
function destination(lat: number, lon: number, bearing: number, distanceM: number) {
  const d = distanceM / EARTH_RADIUS_M;
  const p1 = lat * RAD;
  const p2 = Math.asin(Math.min(1, Math.max(-1, Math.sin(p1) * Math.cos(d) + Math.cos(p1) * Math.sin(d) * Math.cos(bearing))));
  const l2 = lon + Math.atan2(Math.sin(bearing) * Math.sin(d) * Math.cos(p1), Math.cos(d) - Math.sin(p1) * Math.sin(p2)) / RAD;
  const round = (x: number) => Math.round(x * 1e7) / 1e7 + 0; // as the API passes coordinates (geoOf)
  return { latitude: Math.max(-90, Math.min(90, round(p2 / RAD))), longitude: Math.max(-180, Math.min(180, round(((((l2 + 180) % 360) + 360) % 360) - 180))) };
}

// clusters where a cover goes wrong first: a city, both sides of the antimeridian, near both
// poles, on the equator at the prime meridian
const CLUSTERS = [
  { latitude: 30.2672, longitude: -97.7431 },
  { latitude: -16.5, longitude: 179.9 },
  { latitude: 65.0, longitude: -179.95 },
  { latitude: 89.6, longitude: 10.0 },
  { latitude: -89.8, longitude: -120.0 },
  { latitude: 0.0, longitude: 0.0 },
];
const STUDIOS = 4000;

let db: { url: string; drop(): Promise<void> };
let sql: Sql;
beforeAll(async () => {
  db = await createTestDatabase();
  sql = createSql(db.url, { max: 4 });
  const rnd = mulberry32(4242);
  const rows = [];
  for (let n = 0; n < STUDIOS; n++) {
    const c = CLUSTERS[n % CLUSTERS.length]!;
    // dense near the cluster's centre, thinning out to 700 km; one in twenty anywhere
    const p = n % 20 === 19 ? { latitude: rnd() * 180 - 90, longitude: rnd() * 360 - 180 } : destination(c.latitude, c.longitude, rnd() * 2 * Math.PI, 700_000 * rnd() ** 2);
    const hidden = rnd();
    rows.push({
      id: `std_geo_count_${n}`,
      name: `Geo ${n}`,
      city: `Cluster ${n % CLUSTERS.length}`,
      country: 'ZZ',
      latitude: p.latitude,
      longitude: p.longitude,
      price_range: '$$',
      rating: Math.round(rnd() * 50) / 10,
      // (not from rnd: the circles of the tests below stay where they were)
      review_count: (n * 7919) % 500,
      created_at: new Date(Date.UTC(2020, 0, 1) + ((n * 104_729) % 1000) * 86_400_000),
      verified: rnd() < 0.5,
      // some of each kind of studio a public read must not count
      visibility: hidden < 0.05 ? 'private' : 'public',
      record_state: hidden >= 0.05 && hidden < 0.1 ? 'deprecated' : 'curated',
      is_active: !(hidden >= 0.1 && hidden < 0.15),
    });
  }
  for (let k = 0; k < rows.length; k += 500) await sql`insert into studios ${sql(rows.slice(k, k + 500))}`;
  await sql`vacuum analyze studios`;
}, 120_000);
afterAll(async () => {
  await sql?.end({ timeout: 5 });
  await db?.drop();
});

const base: StudioFilters = { page: 1, limit: 1, sort: 'rating', order: 'desc', totalCap: 1_000_000 };

async function bruteForce(g: { latitude: number; longitude: number; radiusKm: number }, extra = sql``): Promise<number> {
  const [r] = await sql<{ n: number }[]>`
    select count(*)::int as n from studios s
    where s.visibility = 'public' and s.record_state <> 'deprecated' and s.is_active ${extra}
      and earth_distance(ll_to_earth(${g.latitude}, ${g.longitude}), ll_to_earth(s.latitude, s.longitude)) <= ${g.radiusKm * 1000}`;
  return r!.n;
}

describe('the geo radius total (listStudios)', () => {
  it('computes the same cell as geo_cell in PostgreSQL for every studio', async () => {
    const rows = await sql<{ latitude: number; longitude: number; cell: string }[]>`select latitude, longitude, geo_cell(latitude, longitude)::text as cell from studios`;
    expect(rows.length).toBeGreaterThanOrEqual(STUDIOS);
    const wrong = rows.filter((r) => String(geoCell(r.latitude, r.longitude)) !== r.cell);
    expect(wrong).toEqual([]);
    const [edges] = await sql<{ a: string; b: string; c: string }[]>`select geo_cell(90, 180)::text as a, geo_cell(-90, -180)::text as b, geo_cell(0, 0)::text as c`;
    expect(edges).toEqual({ a: String(geoCell(90, 180)), b: String(geoCell(-90, -180)), c: String(geoCell(0, 0)) });
  });

  it('equals the brute-force count of public studios within earth_distance, for random circles and radii', async () => {
    const rnd = mulberry32(777);
    let nonEmpty = 0;
    for (let n = 0; n < 100; n++) {
      const c = CLUSTERS[n % CLUSTERS.length]!;
      const o = n % 8 === 7 ? { latitude: rnd() * 180 - 90, longitude: rnd() * 360 - 180 } : destination(c.latitude, c.longitude, rnd() * 2 * Math.PI, 300_000 * rnd() ** 2);
      const radiusKm = Math.round(Math.exp(Math.log(0.01) + rnd() * (Math.log(RADIUS_MAX_KM) - Math.log(0.01))) * 1000) / 1000;
      const geo = { ...o, radiusKm: Math.max(0.01, radiusKm) };
      const expected = await bruteForce(geo);
      const got = await listStudios(sql, { ...base, geo });
      expect({ geo, total: got.total, relation: got.totalRelation }).toEqual({ geo, total: expected, relation: 'eq' });
      if (expected > 0) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(30);
  });

  it('counts studios exactly on the circle, a centimetre inside and a centimetre outside, as earth_distance does', async () => {
    // a radius through existing studios: the boundary rows are the ones a wrong cover would miss
    const rows = await sql<{ latitude: number; longitude: number }[]>`
      select latitude, longitude from studios where visibility = 'public' and record_state <> 'deprecated' and is_active order by id limit 40`;
    const rnd = mulberry32(9);
    for (const [k, p] of rows.entries()) {
      const o = destination(p.latitude, p.longitude, rnd() * 2 * Math.PI, 50 + rnd() * 400_000);
      const [d] = await sql<{ m: number }[]>`select earth_distance(ll_to_earth(${o.latitude}, ${o.longitude}), ll_to_earth(${p.latitude}, ${p.longitude})) as m`;
      if (d!.m / 1000 > RADIUS_MAX_KM) continue;
      for (const radiusKm of [d!.m / 1000, d!.m / 1000 + 1e-5 * (k % 2 ? 1 : -1)]) {
        if (radiusKm < 0.01) continue;
        const geo = { ...o, radiusKm };
        expect((await listStudios(sql, { ...base, geo })).total).toBe(await bruteForce(geo));
      }
    }
  });

  it('pages a radius sorted by rating, name, review_count or created_at as the brute force does, walked along the sort or not', async () => {
    const circles = [
      { latitude: CLUSTERS[0]!.latitude, longitude: CLUSTERS[0]!.longitude, radiusKm: 500 }, // hundreds: walked
      { latitude: CLUSTERS[1]!.latitude, longitude: CLUSTERS[1]!.longitude, radiusKm: 120 }, // across the antimeridian
      { latitude: CLUSTERS[5]!.latitude + 0.3, longitude: CLUSTERS[5]!.longitude, radiusKm: 40 }, // a few: the circle's index
    ];
    const limit = 7;
    for (const geo of circles) {
      const inside = await bruteForce(geo);
      expect(inside).toBeGreaterThan(0);
      for (const sort of ['rating', 'name', 'review_count', 'created_at'] as const)
        for (const order of ['asc', 'desc'] as const) {
          const all = await sql<{ id: string }[]>`
            select s.id from studios s
            where s.visibility = 'public' and s.record_state <> 'deprecated' and s.is_active
              and earth_distance(ll_to_earth(${geo.latitude}, ${geo.longitude}), ll_to_earth(s.latitude, s.longitude)) <= ${geo.radiusKm * 1000}
            order by ${sql.unsafe(sort)} ${sql.unsafe(order)}, s.id asc`;
          // the last page too, and one past it. Walks: never (the circle's index); 200 studios (tried or
          // not, and cut short, by page); a million (always walked: 4,000 studios, a page of 7, at least
          // one inside); with a cap of 5 (more inside than the cap: always walked first) the default walk,
          // and a walk of 30 (too short for a page: read through the circle's index after it)
          for (const pg of [1, 2, Math.ceil(all.length / limit), Math.ceil(all.length / limit) + 1])
            for (const o of [{ walkRows: 0 }, { walkRows: 200 }, { walkRows: 1_000_000 }, { totalCap: 5 }, { totalCap: 5, walkRows: 30 }]) {
              const got = await listStudios(sql, { ...base, page: pg, limit, sort, order, geo, ...o });
              const want = all.slice((pg - 1) * limit, pg * limit).map((r) => r.id);
              const cap = o.totalCap ?? base.totalCap!;
              expect({ geo, sort, order, pg, o, ids: got.rows.map((r) => r.id), hasNext: got.hasNext, total: [got.total, got.totalRelation] }).toEqual({
                geo, sort, order, pg, o, ids: want, hasNext: all.length > pg * limit, total: [Math.min(all.length, cap), all.length > cap ? 'gte' : 'eq'],
              });
            }
        }
    }
  });

  it('applies the other filters to a page walked along the sort', async () => {
    const geo = { latitude: CLUSTERS[0]!.latitude, longitude: CLUSTERS[0]!.longitude, radiusKm: 500 };
    const all = await sql<{ id: string }[]>`
      select s.id from studios s
      where s.visibility = 'public' and s.record_state <> 'deprecated' and s.is_active and s.rating >= 2.5 and s.verified
        and earth_distance(ll_to_earth(${geo.latitude}, ${geo.longitude}), ll_to_earth(s.latitude, s.longitude)) <= ${geo.radiusKm * 1000}
      order by s.name desc, s.id asc`;
    expect(all.length).toBeGreaterThan(20);
    for (const page of [1, 2, 3])
      for (const walkRows of [0, 1_000_000]) {
        const got = await listStudios(sql, { ...base, page, limit: 9, sort: 'name', order: 'desc', geo, rating: 2.5, verified: true, walkRows });
        expect({ page, walkRows, ids: got.rows.map((r) => r.id), total: got.total }).toEqual({ page, walkRows, ids: all.slice((page - 1) * 9, page * 9).map((r) => r.id), total: all.length });
      }
  });

  it('applies the other filters inside the radius, and the cap', async () => {
    const geo = { latitude: CLUSTERS[0]!.latitude, longitude: CLUSTERS[0]!.longitude, radiusKm: 200 };
    const filtered = await listStudios(sql, { ...base, geo, rating: 2.5, verified: true, city: 'Cluster 0' });
    expect(filtered.total).toBe(await bruteForce(geo, sql`and s.rating >= 2.5 and s.verified and s.city = 'Cluster 0'`));
    expect(filtered.total).toBeGreaterThan(10);
    const all = await bruteForce(geo);
    const capped = await listStudios(sql, { ...base, geo, totalCap: 10 });
    expect(all).toBeGreaterThan(10);
    expect([capped.total, capped.totalRelation]).toEqual([10, 'gte']);
    const atCap = await listStudios(sql, { ...base, geo, totalCap: all });
    expect([atCap.total, atCap.totalRelation]).toEqual([all, 'eq']);
  });
});
