// The circle cover behind the geo radius count (lib/directory/geo-cells.ts): it must never put a
// point beyond the radius in an inside cell, nor leave a point within it out of both lists.
import { describe, expect, it } from 'vitest';
import { cellDistancesM, coverCircle, EARTH_RADIUS_M, geoCell, greatCircleM, mortonCode, spread, type CodeRange } from '../../lib/directory/geo-cells';
import { RADIUS_MAX_KM } from '../../lib/directory/params';
import { mulberry32 } from '../../scripts/seed/directory';

const RAD = Math.PI / 180;

/** The point at distanceM along the bearing from (lat, lon), longitude wrapped into [-180, 180]. */
function destination(lat: number, lon: number, bearing: number, distanceM: number) {
  const d = distanceM / EARTH_RADIUS_M;
  const p1 = lat * RAD;
  const p2 = Math.asin(Math.min(1, Math.max(-1, Math.sin(p1) * Math.cos(d) + Math.cos(p1) * Math.sin(d) * Math.cos(bearing))));
  const l2 = lon * RAD + Math.atan2(Math.sin(bearing) * Math.sin(d) * Math.cos(p1), Math.cos(d) - Math.sin(p1) * Math.sin(p2));
  let longitude = ((((l2 / RAD + 180) % 360) + 360) % 360) - 180;
  if (longitude === -180 && l2 > 0) longitude = 180;
  return { latitude: Math.max(-90, Math.min(90, p2 / RAD)), longitude };
}

function contains(ranges: CodeRange[], code: number): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [a, b] = ranges[mid]!;
    if (code < a) hi = mid - 1;
    else if (code > b) lo = mid + 1;
    else return true;
  }
  return false;
}

function checkSortedDisjoint(ranges: CodeRange[]) {
  for (let k = 0; k < ranges.length; k++) {
    const [lo, hi] = ranges[k]!;
    expect(Number.isSafeInteger(lo) && Number.isSafeInteger(hi) && lo <= hi).toBe(true);
    if (k > 0) expect(lo).toBeGreaterThan(ranges[k - 1]![1] + 1); // merged: never adjacent
  }
}

/** Centres that stress the cover: anywhere, near a pole, at the antimeridian, on the equator / prime meridian. */
function centre(rnd: () => number) {
  const kind = Math.floor(rnd() * 6);
  const any = () => ({ latitude: rnd() * 180 - 90, longitude: rnd() * 360 - 180 });
  if (kind === 0) return any();
  if (kind === 1) return { latitude: (rnd() < 0.5 ? -1 : 1) * (90 - rnd() ** 3 * 5), longitude: rnd() * 360 - 180 };
  if (kind === 2) return { latitude: rnd() * 140 - 70, longitude: (rnd() < 0.5 ? -1 : 1) * (180 - rnd() ** 3 * 3) };
  if (kind === 3) return { latitude: (rnd() - 0.5) * 0.01, longitude: (rnd() - 0.5) * 0.01 };
  if (kind === 4) return { latitude: rnd() < 0.5 ? 90 : -90, longitude: rnd() * 360 - 180 };
  return { latitude: rnd() * 140 - 70, longitude: rnd() < 0.5 ? 180 : -180 };
}

const radiusKm = (rnd: () => number) => Math.exp(Math.log(0.01) + rnd() * (Math.log(RADIUS_MAX_KM) - Math.log(0.01)));

describe('geo cell codes', () => {
  it('interleave the latitude row into the odd bits and the longitude column into the even bits', () => {
    const rnd = mulberry32(11);
    for (let n = 0; n < 2000; n++) {
      const i = Math.floor(rnd() * 2 ** 24);
      const j = Math.floor(rnd() * 2 ** 24);
      let expected = 0n;
      for (let b = 0n; b < 24n; b++) expected |= ((BigInt(i) >> b) & 1n) << (2n * b + 1n) | ((BigInt(j) >> b) & 1n) << (2n * b);
      expect(BigInt(mortonCode(i, j))).toBe(expected);
    }
    expect(spread(2 ** 24 - 1)).toBe(0x555555555555);
    expect(geoCell(-90, -180)).toBe(0);
    expect(geoCell(90, 180)).toBe(2 ** 48 - 1); // the last row and column hold the north pole and 180°
    expect(geoCell(0, 0)).toBe(mortonCode(2 ** 23, 2 ** 23));
  });
});

describe('coverCircle', () => {
  it('never misclassifies a point: inside ranges are within the radius, points in neither list beyond it', () => {
    const rnd = mulberry32(20240611);
    let insideHits = 0;
    let edgeHits = 0;
    let outsideHits = 0;
    for (let c = 0; c < 200; c++) {
      const o = centre(rnd);
      const r = radiusKm(rnd);
      const metres = r * 1000;
      const cover = coverCircle({ ...o, radiusKm: r });
      checkSortedDisjoint(cover.inside);
      checkSortedDisjoint(cover.edge);
      for (let n = 0; n < 300; n++) {
        // mostly near the circle's edge (where a wrong cell would show), some anywhere within 3 r
        const u = rnd();
        const d = u < 0.6 ? metres * (1 + (rnd() - 0.5) * 0.02) : u < 0.7 ? metres + (rnd() - 0.5) * 4 : rnd() * 3 * metres;
        const p = n % 50 === 0 ? { latitude: rnd() * 180 - 90, longitude: rnd() * 360 - 180 } : destination(o.latitude, o.longitude, rnd() * 2 * Math.PI, d);
        const code = geoCell(p.latitude, p.longitude);
        const inInside = contains(cover.inside, code);
        const inEdge = contains(cover.edge, code);
        expect(inInside && inEdge).toBe(false);
        const dist = greatCircleM(o, p);
        if (inInside) {
          insideHits++;
          if (dist > metres) throw new Error(`inside but ${dist} m > ${metres} m: centre ${JSON.stringify(o)}, point ${JSON.stringify(p)}`);
        } else if (inEdge) edgeHits++;
        else {
          outsideHits++;
          if (dist <= metres) throw new Error(`left out but ${dist} m <= ${metres} m: centre ${JSON.stringify(o)}, point ${JSON.stringify(p)}`);
        }
      }
    }
    // the property is not vacuous: every class is exercised
    expect(insideHits).toBeGreaterThan(1000);
    expect(edgeHits).toBeGreaterThan(1000);
    expect(outsideHits).toBeGreaterThan(1000);
  });

  it('puts the cell corners of a ring of points around the circle in the right class', () => {
    // points exactly on grid lines (cell corners at many levels) close to the circle
    const rnd = mulberry32(5);
    for (let c = 0; c < 100; c++) {
      const o = centre(rnd);
      const r = radiusKm(rnd);
      const cover = coverCircle({ ...o, radiusKm: r });
      for (let n = 0; n < 100; n++) {
        const p = destination(o.latitude, o.longitude, rnd() * 2 * Math.PI, r * 1000 * (0.9 + rnd() * 0.2));
        const level = 8 + Math.floor(rnd() * 16);
        const snap = (x: number, span: number) => Math.round((x / span) * 2 ** level) * (span / 2 ** level);
        const q = { latitude: Math.max(-90, Math.min(90, snap(p.latitude + 90, 180) - 90)), longitude: Math.max(-180, Math.min(180, snap(p.longitude + 180, 360) - 180)) };
        const code = geoCell(q.latitude, q.longitude);
        const dist = greatCircleM(o, q);
        if (contains(cover.inside, code)) expect(dist).toBeLessThanOrEqual(r * 1000);
        else if (!contains(cover.edge, code)) expect(dist).toBeGreaterThan(r * 1000);
      }
    }
  });

  it('covers the whole circle for a centre on a pole and across the antimeridian', () => {
    for (const o of [
      { latitude: 90, longitude: 0 },
      { latitude: -89.99, longitude: 179.99 },
      { latitude: 10, longitude: 180 },
      { latitude: -35, longitude: -179.95 },
    ]) {
      const cover = coverCircle({ ...o, radiusKm: 50 });
      for (let b = 0; b < 360; b += 3) {
        const p = destination(o.latitude, o.longitude, b * RAD, 49_000);
        const code = geoCell(p.latitude, p.longitude);
        expect(contains(cover.inside, code) || contains(cover.edge, code)).toBe(true);
        const far = destination(o.latitude, o.longitude, b * RAD, 51_000);
        expect(contains(cover.inside, geoCell(far.latitude, far.longitude))).toBe(false);
      }
    }
  });

  it('finds the exact nearest and farthest point of a cell, poles and the antimeridian included', () => {
    // against a dense sample of the cell (its edges and a grid inside): the computed nearest is never
    // farther than a sampled point, the farthest never nearer, and both are attained up to the
    // sample's spacing
    const rnd = mulberry32(314);
    for (let n = 0; n < 1500; n++) {
      const o = centre(rnd);
      const level = 1 + Math.floor(rnd() * 14);
      const size = 2 ** level;
      // a cell near the centre (or across the pole / antimeridian from it) half of the time
      const near = rnd() < 0.5;
      const lat = near ? Math.max(-90, Math.min(90, o.latitude + (rnd() - 0.5) * 4 * (180 / size))) : rnd() * 180 - 90;
      const lon = near ? o.longitude + (rnd() - 0.5) * 4 * (360 / size) + (rnd() < 0.2 ? 180 : 0) : rnd() * 360 - 180;
      const i = Math.min(size - 1, Math.floor(((lat + 90) / 180) * size));
      const j = ((Math.floor((((lon + 180) / 360) * size)) % size) + size) % size;
      const { nearM, farM } = cellDistancesM(o, level, i, j);
      const lat1 = -90 + (i * 180) / size;
      const lon1 = -180 + (j * 360) / size;
      let lo = Infinity;
      let hi = -Infinity;
      const steps = 40;
      for (let a = 0; a <= steps; a++)
        for (let b = 0; b <= steps; b++) {
          const d = greatCircleM(o, { latitude: lat1 + ((a / steps) * 180) / size, longitude: lon1 + ((b / steps) * 360) / size });
          lo = Math.min(lo, d);
          hi = Math.max(hi, d);
        }
      const spacing = greatCircleM({ latitude: 0, longitude: 0 }, { latitude: 180 / size / steps, longitude: 360 / size / steps }) + 1e-3;
      expect(nearM).toBeLessThanOrEqual(lo + 1e-3);
      expect(farM).toBeGreaterThanOrEqual(hi - 1e-3);
      expect(nearM).toBeGreaterThanOrEqual(lo - spacing);
      expect(farM).toBeLessThanOrEqual(hi + spacing);
    }
  });

  it('stays small: a bounded number of ranges for every radius', () => {
    const rnd = mulberry32(99);
    let most = 0;
    for (let c = 0; c < 400; c++) {
      const cover = coverCircle({ ...centre(rnd), radiusKm: c < 20 ? [0.01, 0.1, 1, 10, 100, 250, 500][c % 7]! : radiusKm(rnd) });
      most = Math.max(most, cover.inside.length + cover.edge.length);
      expect(cover.inside.length + cover.edge.length).toBeLessThan(2000);
      expect(cover.edge.length).toBeGreaterThan(0);
    }
    expect(most).toBeGreaterThan(10);
  });

  it('counts nothing as inside a radius under the margin, and everything in a radius around the world', () => {
    expect(coverCircle({ latitude: 1, longitude: 1, radiusKm: 0.0005 }).inside).toEqual([]);
    expect(coverCircle({ latitude: 1, longitude: 1, radiusKm: 30_000 })).toEqual({ inside: [[0, 2 ** 48 - 1]], edge: [] });
  });
});
