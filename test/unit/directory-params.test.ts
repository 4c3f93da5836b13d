import { describe, expect, it } from 'vitest';
import { artistsQuery } from '../../api/routes/directory/artists';
import { designsQuery } from '../../api/routes/directory/designs';
import { legacyPagination, searchPagination } from '../../api/routes/directory/envelopes';
import { searchQuery } from '../../api/routes/directory/search';
import { studiosQuery } from '../../api/routes/directory/studios';
import { buildDocument } from '../../api/openapi/documents';
import { allRoutes } from '../../api/route-list';
import { boolParam, geoOf, intParam, numParam } from '../../lib/directory/params';
import { likeContains, prefixQuery } from '../../lib/directory/records';
import { mulberry32, plannedCounts } from '../../scripts/seed/directory';

describe('directory query schemas', () => {
  it('give /studios page 1, limit 20 and sort rating when nothing is sent', () => {
    expect(studiosQuery.parse({})).toMatchObject({ page: 1, limit: 20, sort: 'rating' });
  });

  it('give /search page 1, limit 20, type all, no facets, not verified-only', () => {
    expect(searchQuery.parse({})).toMatchObject({ page: 1, limit: 20, type: 'all', include_facets: false, verified_only: false });
  });

  it('give /artists sort by name ascending and allow a limit of 100', () => {
    expect(artistsQuery.parse({ limit: '100' })).toMatchObject({ limit: 100, sort_by: 'name', sort_order: 'asc' });
  });

  it('read numbers strictly: no empty strings, exponents, hex or spaces', () => {
    for (const limit of ['', ' ', '1e1', '0x10', ' 5', '5 ', '2.0']) expect(studiosQuery.safeParse({ limit }).success).toBe(false);
    expect(studiosQuery.parse({ rating: '4.25' }).rating).toBe(4.25);
    expect(studiosQuery.parse({ rating: '.5' }).rating).toBe(0.5);
  });

  it('read booleans only as true or false', () => {
    expect(designsQuery.parse({ public: 'false' }).public).toBe(false);
    for (const v of ['1', 'yes', 'TRUE', 'maybe']) expect(designsQuery.safeParse({ public: v }).success).toBe(false);
  });

  it('answer a bad boolean or number with the reader message, naming the parameter', () => {
    const issues = (q: Record<string, unknown>) => studiosQuery.safeParse(q).error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(issues({ verified: 'maybe' })).toEqual([['verified', 'expected true or false']]);
    expect(issues({ limit: '1e3' })).toEqual([['limit', 'expected a whole number']]);
    expect(issues({ rating: 'high' })).toEqual([['rating', 'expected a number']]);
    expect(issues({ limit: '51' })?.[0]?.[0]).toBe('limit');
    // a repeated parameter arrives as an array: refused, not read as one of its values
    expect(issues({ verified: ['true', 'false'] })).toEqual([['verified', 'expected true or false']]);
    // only query strings are read: the values they stand for are not accepted in their place
    for (const v of [true, 1, null]) expect(boolParam.safeParse(v).success).toBe(false);
    expect(intParam(1, 5).safeParse(3).success).toBe(false);
    expect(numParam(0, 5).safeParse(1.5).success).toBe(false);
  });

  it('split comma lists, trim and lower-case them, and drop duplicates', () => {
    expect(searchQuery.parse({ styles: ' Japanese, realism,japanese,' }).styles).toEqual(['japanese', 'realism']);
    expect(studiosQuery.parse({ price_range: '$$,$,$$' }).price_range).toEqual(['$$', '$']);
  });

  it('refuse blank list items, NUL characters and blank text, as the OpenAPI patterns say', () => {
    expect(searchQuery.safeParse({ styles: 'koi,,dragon' }).success).toBe(false);
    expect(searchQuery.safeParse({ styles: 'koi\u0000' }).success).toBe(false);
    expect(searchQuery.safeParse({ q: ' \t ' }).success).toBe(false);
    expect(searchQuery.parse({ q: '  koi  ' }).q).toBe('koi');
    expect(studiosQuery.safeParse({ price_range: '$,,$$' }).success).toBe(false);
  });

  it('refuse unknown parameters, naming them', () => {
    const r = studiosQuery.safeParse({ colour: 'red' });
    expect(r.success).toBe(false);
  });

  it('default the radius to 25 km once a point is given', () => {
    expect(geoOf({ latitude: 1, longitude: 2 })).toEqual({ latitude: 1, longitude: 2, radiusKm: 25 });
    expect(geoOf({})).toBeUndefined();
    // subnormal coordinates would underflow in earthdistance: they round to 0
    expect(geoOf({ latitude: 1e-320, longitude: -1e-310 })).toEqual({ latitude: 0, longitude: 0, radiusKm: 25 });
  });
});

describe('query parameters in the OpenAPI documents', () => {
  const routes = allRoutes({ maxMediaBytes: 1024 });
  const params = (['intake', 'public'] as const).flatMap((d) =>
    Object.entries(buildDocument(d, routes).paths ?? {}).flatMap(([p, item]) =>
      Object.values(item as Record<string, { parameters?: { name: string; in: string; schema: Record<string, unknown> }[] }>).flatMap((op) =>
        (op.parameters ?? []).map((x) => ({ where: `${p} ${x.in}.${x.name}`, name: x.name, path: p, schema: x.schema })),
      ),
    ),
  );
  const schemaOf = (path: string, name: string) => params.find((x) => x.path === path && x.name === name)?.schema;

  it('state booleans and numbers as what they mean, with bounds and defaults, not as their strings', () => {
    expect(schemaOf('/api/v1/studios', 'verified')).toEqual({ type: 'boolean' });
    expect(schemaOf('/api/v1/studios', 'limit')).toEqual({ type: 'integer', minimum: 1, maximum: 50, default: 20 });
    expect(schemaOf('/api/v1/studios', 'page')).toEqual({ type: 'integer', minimum: 1, maximum: 10_000, default: 1 });
    expect(schemaOf('/api/v1/studios', 'rating')).toEqual({ type: 'number', minimum: 0, maximum: 5, description: 'minimum rating' });
    expect(schemaOf('/api/v1/search', 'verified_only')).toEqual({ type: 'boolean', default: false });
    expect(schemaOf('/api/v1/designs', 'public')).toMatchObject({ type: 'boolean' });
  });

  it('leave no boolean or number documented as a string in either document', () => {
    const stringly = params.filter(({ schema: s }) => {
      const enumOf = (s.enum ?? []) as unknown[];
      const pattern = typeof s.pattern === 'string' ? new RegExp(s.pattern) : undefined;
      return (
        (enumOf.length > 0 && enumOf.every((v) => v === 'true' || v === 'false')) ||
        (s.type === 'string' && pattern !== undefined && ['0', '1', '12', '1.5'].every((v) => pattern.test(v)) && !pattern.test('koi'))
      );
    });
    expect(stringly.map((x) => x.where)).toEqual([]);
  });
});

describe('pagination blocks', () => {
  it('tell hasNext / has_next from the total', () => {
    expect(legacyPagination({ page: 2, limit: 10 }, 25)).toEqual({ page: 2, limit: 10, total: 25, totalPages: 3, hasNext: true, hasPrev: true });
    expect(searchPagination({ page: 3, limit: 10 }, 25)).toEqual({ page: 3, limit: 10, total_pages: 3, has_next: false, has_prev: true });
    expect(legacyPagination({ page: 1, limit: 20 }, 0)).toMatchObject({ totalPages: 0, hasNext: false, hasPrev: false });
  });
});

describe('text helpers', () => {
  it('turn user text into a prefix tsquery of letters and digits only', () => {
    expect(prefixQuery('Real  Tig!')).toBe('real:* & tig:*');
    expect(prefixQuery("a'b | !c & (d)")).toBe('a:* & b:* & c:* & d:*');
    expect(prefixQuery('%%')).toBeNull();
  });

  it('escape LIKE wildcards', () => {
    expect(likeContains('50%_off\\')).toBe('%50\\%\\_off\\\\%');
  });
});

describe('the seed plan', () => {
  it('is deterministic: the same seed gives the same sequence and counts', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    expect([a(), a(), a()]).toEqual([b(), b(), b()]);
    expect(plannedCounts(3, 500)).toEqual(plannedCounts(3, 500));
    expect(plannedCounts(3, 500)).not.toEqual(plannedCounts(4, 500));
  });

  it('keeps artists, assets and designs in proportion to studios', () => {
    const c = plannedCounts(1, 10_000);
    expect(c.artists / c.studios).toBeGreaterThan(2.3);
    expect(c.artists / c.studios).toBeLessThan(2.7);
    expect(c.portfolio_assets / c.artists).toBeGreaterThan(1.3);
    expect(c.designs / c.artists).toBeGreaterThan(0.85);
  });
});
