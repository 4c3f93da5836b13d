// The parity set of GET /search (issue 45): the fixed query set and the comparison both the
// parity suite and the two-node test run (test/e2e/search-parity.test.ts says what is promised).
import { expect } from 'vitest';
import type { TestCredential } from './auth';
import { call } from './directory-seed';
import type { TestStack } from './stack';

export async function bothAnswers(pg: TestStack, os: TestStack, reader: TestCredential, qs: string) {
  const [a, b] = await Promise.all([call(pg, `/search?${qs}`, { headers: reader.headers }), call(os, `/search?${qs}`, { headers: reader.headers })]);
  expect(a.status, `${qs}: postgres`).toBe(200);
  expect(b.status, `${qs}: opensearch ${JSON.stringify(b.body)}`).toBe(200);
  expect(b.headers.get('x-search-backend'), qs).toBe('opensearch');
  expect(a.headers.get('x-search-backend'), qs).toBeNull();
  return { pgBody: a.body.data, osBody: b.body.data };
}
const withoutScore = (d: any) => ({ ...d, results: d.results.map(({ relevance_score: _, ...r }: any) => r) });

// Every parameter with a non-relevance order: identical answers, order included.
export const EXACT = [
  '',
  'limit=50&page=2',
  'type=studio&sort_by=name',
  'type=studio&sort_by=name&sort_order=desc&page=3&limit=7',
  'sort_by=review_count&limit=50',
  'sort_by=created_at&sort_order=asc&limit=50&page=2',
  'type=artist&sort_by=rating&sort_order=asc&limit=50',
  'type=design&sort_by=created_at&limit=50',
  'city=Geoville',
  'latitude=10&longitude=20&radius=20',
  'latitude=10&longitude=20&radius=50&sort_by=distance&sort_order=desc',
  'latitude=10&longitude=20&radius=50&sort_by=rating',
  'latitude=10&longitude=20&radius=9.5&sort_by=name',
  'styles=japanese,realism&sort_by=name&limit=50',
  'specialties=custom_design,walk_ins&sort_by=review_count&limit=50',
  'min_rating=4.5&sort_by=rating&limit=50',
  'verified_only=true&type=studio&sort_by=name&limit=50',
  'country=ZZ&sort_by=name',
  'state=FX&include_facets=true&sort_by=name',
  'type=design&include_facets=true&sort_by=name&limit=50',
  'type=studio&city=Geoville&include_facets=true&sort_by=review_count',
  'q=tattoo&sort_by=name&limit=50',
  'q=tattoo&sort_by=rating&page=2&limit=50',
  'q=koi&sort_by=created_at&include_facets=true&limit=50',
  'q=fixture&sort_by=name&include_facets=true&limit=50',
  'q=Geoville&sort_by=distance&latitude=10&longitude=20&radius=100',
  'q=fixtre&sort_by=name&limit=50',
  'q=zzzqqqxx',
  'q=%21%21%21',
  'sort_by=name&limit=50&page=30',
];

// Relevance order: the backend's own; the matches, totals, corrections and facets are not.
export const RELEVANCE = ['q=fixture&limit=50', 'q=koi&type=design&limit=50', 'q=iron+anchor&limit=50', 'q=japanese&limit=50&include_facets=true', 'q=tattoo', 'q=fixtre&limit=50'];


/** Identical answers, order included (facets past the cap: the same lists, the counts each backend's own). */
export function expectSameExact(pgBody: any, osBody: any) {
  // Facets past the cap are counted over a window (PostgreSQL: the first 500 matches in quality
  // order) or over every match (OpenSearch): the same facet lists, their counts the backend's own.
  const facetsPastCap = pgBody.total_relation === 'gte' && pgBody.facets !== undefined;
  const strip = (d: any) => (facetsPastCap ? { ...withoutScore(d), facets: Object.keys(d.facets).sort() } : withoutScore(d));
  expect(strip(osBody)).toEqual(strip(pgBody));
}

/** Relevance order: the same matches, totals, corrections and facets; the engine's order follows its own score. */
export function expectSameMatches(pgBody: any, osBody: any) {
  expect(osBody.total).toBe(pgBody.total);
  expect(osBody.total_relation).toBe(pgBody.total_relation);
  expect(osBody.pagination).toEqual(pgBody.pagination);
  expect(osBody.corrected_query).toEqual(pgBody.corrected_query);
  expect(osBody.corrections).toEqual(pgBody.corrections);
  if (pgBody.total_relation === 'eq') expect(osBody.facets).toEqual(pgBody.facets);
  if (pgBody.total <= pgBody.pagination.limit) {
    const sorted = (d: any) => d.results.map((r: any) => `${r.type}:${r.id}`).sort();
    expect(sorted(osBody)).toEqual(sorted(pgBody));
  }
  const scores = osBody.results.map((r: any) => r.relevance_score);
  expect(scores).toEqual([...scores].sort((x, y) => y - x));
  expect(scores.every((x: number) => x > 0 && x < 1)).toBe(true);
}
