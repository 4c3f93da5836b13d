// Geo cells: the quadtree of latitude/longitude rectangles behind the geo_cell index
// (migrations/1700000015000_studio-geo-cells.sql), and the cover of a circle by such cells.
//
// The grid has 2^24 rows of latitude and 2^24 columns of longitude; a point's code is the Morton
// (Z-order) interleave of its row i and column j, spread(i) * 2 + spread(j), below 2^48, so plain
// numbers (exact up to 2^53) carry it. A cell at level L (row i, column j of a 2^L x 2^L grid) holds
// exactly the codes [code(i << (24 - L), j << (24 - L)), that + 4^(24 - L) - 1].
//
// coverCircle classifies cells against the circle on the same sphere as earthdistance (its earth(),
// 6378168 m, great-circle distance): a cell is inside when its farthest point is within the radius,
// outside when its nearest point is beyond it, else on the edge. The count of a radius read takes
// the rows of inside cells as they are and checks the distance only for rows of edge cells.

/** Levels of the grid: 2^24 rows and columns (a finest cell is about 1.2 m by 2.4 m at the equator). */
export const GEO_CELL_LEVEL = 24;
const CELLS = 2 ** GEO_CELL_LEVEL;
/** The sphere of PostgreSQL's earthdistance (earth()), in metres. */
export const EARTH_RADIUS_M = 6378168;
/** Default bound on edge cells (64 to 512 measured at 100k and 1M studios: 128 to 256 alike, fastest). */
export const EDGE_CELL_BUDGET = 192;
/** Classification margin in metres, far above the float error of either side's distance. */
const MARGIN_M = 1;

export type CodeRange = [lo: number, hi: number];
export interface CircleCover {
  /** Codes of cells wholly inside the circle: their rows need no distance check. */
  inside: CodeRange[];
  /** Codes of cells the circle's edge crosses: their rows need the distance check. */
  edge: CodeRange[];
}

// spread of one byte: a zero bit between each of its bits
const SPREAD8 = Array.from({ length: 256 }, (_, x) => {
  let s = 0;
  for (let b = 0; b < 8; b++) if (x & (1 << b)) s += 2 ** (2 * b);
  return s;
});

/** A zero bit between each bit of x (0 <= x < 2^24), as geo_cell_spread; arithmetic, so past 32 bits. */
export function spread(x: number): number {
  return SPREAD8[x & 255]! + SPREAD8[(x >>> 8) & 255]! * 2 ** 16 + SPREAD8[(x >>> 16) & 255]! * 2 ** 32;
}

/** Morton code of row i (latitude) and column j (longitude) on the finest grid. */
export function mortonCode(i: number, j: number): number {
  return spread(i) * 2 + spread(j);
}

/** The code of a point, as geo_cell(latitude, longitude) computes it (the same float steps). */
export function geoCell(latitude: number, longitude: number): number {
  const i = Math.max(Math.min(Math.floor(((latitude + 90) / 180) * CELLS), CELLS - 1), 0);
  const j = Math.max(Math.min(Math.floor(((longitude + 180) / 360) * CELLS), CELLS - 1), 0);
  return mortonCode(i, j);
}

const RAD = Math.PI / 180;

/** The central angle (in metres on the sphere) of a haversine. */
const metresOf = (hav: number) => 2 * Math.asin(Math.sqrt(Math.min(1, Math.max(0, hav)))) * EARTH_RADIUS_M;

/** Great-circle distance in metres on earthdistance's sphere (haversine: exact for short distances too). */
export function greatCircleM(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const dp = Math.sin(((b.latitude - a.latitude) * RAD) / 2);
  const dl = Math.sin(((b.longitude - a.longitude) * RAD) / 2);
  return metresOf(dp * dp + Math.cos(a.latitude * RAD) * Math.cos(b.latitude * RAD) * dl * dl);
}

/** sin²(angle / 2), the haversine of a central angle (increasing over [0, π]); beyond [0, π], past either end. */
const havOf = (angle: number) => (angle < 0 ? -1 : angle >= Math.PI ? 2 : Math.sin(angle / 2) ** 2);

/**
 * Haversine bounds of the radius: a point whose haversine from the centre, sin²(Δφ/2) +
 * cos φc cos φ sin²(Δλ/2), is at most `inner` is within the radius (less the margin), above `outer`
 * beyond it (plus the margin); only between the two does the distance itself decide.
 */
export function radiusBounds(radiusKm: number): { inner: number; outer: number } {
  const metres = radiusKm * 1000;
  return { inner: havOf((metres - MARGIN_M) / EARTH_RADIUS_M), outer: havOf((metres + MARGIN_M) / EARTH_RADIUS_M) };
}

const INSIDE = 0;
const OUTSIDE = 1;
const EDGE = 2;

/**
 * The nearest and farthest points of grid cells from (latitude, longitude), as haversines of the
 * central angle, sin²(Δφ/2) + cos φc cos φ sin²(Δλ/2) (no cancellation at short distances; the
 * answer object is reused from call to call).
 *
 * Exact for a latitude/longitude rectangle: along a parallel the
 * distance is monotonic in |Δλ|, so its extremes are at the corners or on the meridians Δλ = 0 and
 * Δλ = 180°; the interior's only critical points (the centre, the antipode) lie on those meridians
 * too. Along a meridian, cos d = A sin φ + B cos φ (A = sin φc, B = cos φc cos Δλ) peaks at
 * φ* = atan2(A, B) and bottoms at φ* ± 180°, so the extremes on a meridian segment are its ends or
 * those angles when inside it. Checking the ends and those angles on the two edge meridians and
 * (when within the rectangle's longitudes) on the centre's and the antipode's meridians is exact,
 * poles and the antimeridian included (Δλ only enters through sin²(Δλ/2), periodic in 360°).
 */
function cellExtremes(latitude: number, longitude: number) {
  const phiC = latitude * RAD;
  const lambdaC = longitude * RAD;
  const sinC = Math.sin(phiC);
  const cosC = Math.cos(phiC);
  const antiLongitude = longitude + 180;
  const out = { near: 0, far: 0 };
  let near = 0;
  let far = 0;
  // the rectangle's latitudes (radians) and their terms, shared by its meridians
  let p1 = 0;
  let p2 = 0;
  let a1 = 0;
  let a2 = 0;
  let c1 = 0;
  let c2 = 0;

  function meridian(lonDeg: number) {
    const dl = Math.sin((lonDeg * RAD - lambdaC) / 2) ** 2;
    const h1 = a1 + c1 * dl;
    const h2 = a2 + c2 * dl;
    if (h1 < near) near = h1;
    if (h2 < near) near = h2;
    if (h1 > far) far = h1;
    if (h2 > far) far = h2;
    const star = Math.atan2(sinC, cosC * (1 - 2 * dl)); // cos Δλ = 1 - 2 sin²(Δλ/2)
    if (star > p1 && star < p2) {
      const h = Math.sin((star - phiC) / 2) ** 2 + cosC * Math.cos(star) * dl;
      if (h < near) near = h;
    }
    const anti = star > 0 ? star - Math.PI : star + Math.PI;
    if (anti > p1 && anti < p2) {
      const h = Math.sin((anti - phiC) / 2) ** 2 + cosC * Math.cos(anti) * dl;
      if (h > far) far = h;
    }
  }

  /** A meridian strictly between lon1 and lon2 (degrees), the longitude or a turn either side. */
  function between(l: number, lon1: number, lon2: number) {
    if (l > lon1 && l < lon2) meridian(l);
    else if (l - 360 > lon1 && l - 360 < lon2) meridian(l - 360);
    else if (l + 360 > lon1 && l + 360 < lon2) meridian(l + 360);
  }

  return (level: number, i: number, j: number): { near: number; far: number } => {
    const latStep = 180 / 2 ** level;
    const lonStep = 360 / 2 ** level;
    const lat1 = -90 + i * latStep;
    const lon1 = -180 + j * lonStep;
    const lon2 = lon1 + lonStep;
    p1 = lat1 * RAD;
    p2 = (lat1 + latStep) * RAD;
    a1 = Math.sin((p1 - phiC) / 2) ** 2;
    a2 = Math.sin((p2 - phiC) / 2) ** 2;
    c1 = cosC * Math.cos(p1);
    c2 = cosC * Math.cos(p2);
    near = Infinity;
    far = -Infinity;
    meridian(lon1);
    meridian(lon2);
    between(longitude, lon1, lon2);
    between(antiLongitude, lon1, lon2);
    out.near = near;
    out.far = far;
    return out;
  };
}

/** Nearest and farthest great-circle distance (metres) from the point to the cell (level, i, j). */
export function cellDistancesM(g: { latitude: number; longitude: number }, level: number, i: number, j: number): { nearM: number; farM: number } {
  const { near, far } = cellExtremes(g.latitude, g.longitude)(level, i, j);
  return { nearM: metresOf(near), farM: metresOf(far) };
}

/** The Morton codes of the cell (level, i, j). */
function rangeOf(level: number, i: number, j: number): CodeRange {
  const shift = GEO_CELL_LEVEL - level;
  const lo = mortonCode(i * 2 ** shift, j * 2 ** shift);
  return [lo, lo + 4 ** shift - 1];
}

/** Sorted, adjacent ranges (hi + 1 === next lo) merged. */
function merged(ranges: CodeRange[]): CodeRange[] {
  ranges.sort((a, b) => a[0] - b[0]);
  const out: CodeRange[] = [];
  for (const r of ranges) {
    const last = out[out.length - 1];
    if (last && last[1] + 1 >= r[0]) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}

/**
 * Cells covering the circle of radiusKm around the point: breadth-first from the whole world (level
 * 0), splitting the edge cells into their four children while the next level's edge cells stay
 * within `budget`, down to the finest level. Every point in an `inside` range is within the radius
 * (less a metre), every point in neither list is beyond it (plus a metre); only the `edge` ranges'
 * points need their distance checked.
 */
export function coverCircle(g: { latitude: number; longitude: number; radiusKm: number }, opts: { budget?: number } = {}): CircleCover {
  const budget = opts.budget ?? EDGE_CELL_BUDGET;
  // inside: the farthest point within the radius less the margin; outside: the nearest beyond it plus the margin
  const { inner, outer } = radiusBounds(g.radiusKm);
  const extremes = cellExtremes(g.latitude, g.longitude);
  const classify = (level: number, i: number, j: number) => {
    const e = extremes(level, i, j);
    return e.near > outer ? OUTSIDE : e.far <= inner ? INSIDE : EDGE;
  };
  const root = classify(0, 0, 0);
  if (root === OUTSIDE) return { inside: [], edge: [] };
  if (root === INSIDE) return { inside: [rangeOf(0, 0, 0)], edge: [] };
  const inside: CodeRange[] = [];
  // the edge cells of the current level, as flat (i, j) pairs
  let level = 0;
  let edge: number[] = [0, 0];
  while (level < GEO_CELL_LEVEL) {
    const nextInside: number[] = [];
    const nextEdge: number[] = [];
    for (let k = 0; k < edge.length && nextEdge.length <= 2 * budget; k += 2)
      for (let d = 0; d < 4; d++) {
        const i = edge[k]! * 2 + (d >> 1);
        const j = edge[k + 1]! * 2 + (d & 1);
        const c = classify(level + 1, i, j);
        if (c === INSIDE) nextInside.push(i, j);
        else if (c === EDGE) nextEdge.push(i, j);
      }
    if (nextEdge.length > 2 * budget) break;
    level++;
    for (let k = 0; k < nextInside.length; k += 2) inside.push(rangeOf(level, nextInside[k]!, nextInside[k + 1]!));
    edge = nextEdge;
  }
  const edgeRanges: CodeRange[] = [];
  for (let k = 0; k < edge.length; k += 2) edgeRanges.push(rangeOf(level, edge[k]!, edge[k + 1]!));
  return { inside: merged(inside), edge: merged(edgeRanges) };
}
