// The order of a search's page: relevance re-ranking over the rescore window, or a sort over every match.
import type { Sql } from '../../db';
import { direction } from '../records';
import { distanceKmExpr, WALK_ROWS } from '../studios';
import { matchWhere, type SearchFilters, type SearchSort } from './filters';
import { CANDIDATE, QUALITY_ORDER, RESCORE_WINDOW } from './matches';

/**
 * relevance_score, 0..1 (4 decimals): 0.6 x the full-text rank (ts_rank_cd: cover density with
 * field weights name 1.0, city / specialties 0.4, description 0.2; normalised as rank / (rank + 1))
 * + 0.3 x the trigram similarity of the name to q + 0.1 x the static quality. 0 without q.
 */
function relevance(sql: Sql, f: SearchFilters, tsq: string | null, alias: string) {
  if (!f.q || !tsq) return sql`0::float8`;
  const a = sql.unsafe(alias);
  return sql`round((0.6 * ts_rank_cd(${a}.search_tsv, ${tsq}::tsquery, 32) + 0.3 * similarity(${a}.name, ${f.q}) + 0.1 * ${a}.quality)::numeric, 4)::float8`;
}

function distance(sql: Sql, f: SearchFilters, alias: string) {
  return f.geo ? distanceKmExpr(sql, f.geo, alias) : sql`null::float8`;
}

/** Sort keys of a non-relevance order over `p` (ties broken by type and id, so pages are stable). */
function sortKeys(sql: Sql, f: SearchFilters, sortBy: Exclude<SearchSort, 'relevance'>, alias: string) {
  const a = sql.unsafe(alias);
  const dir = direction(sql, f.sortOrder);
  const keys = {
    rating: sql`${a}.rating ${dir} nulls last`,
    review_count: sql`${a}.review_count ${dir}`,
    name: sql`${a}.name ${dir}`,
    created_at: sql`${a}.created_at ${dir}`,
    distance: f.geo ? sql`${distanceKmExpr(sql, f.geo, alias)} ${dir} nulls last` : sql`${a}.rating desc nulls last`,
  };
  return sql`${keys[sortBy]}, ${a}.type asc, ${a}.id asc`;
}

/**
 * Best rated first in a radius (the order of a search with a point and no text): the page's rows
 * found by walking the first `walk` documents of the rating index (search_documents_rating; one
 * type's: search_documents_type_rating) and keeping the matches, where the radius's own index
 * would give every document in the circle to be sorted (963,489 in the box of 500 km of New York at
 * a million studios: 8 s a page; 25 km: 5-6 s). Walked only
 * when the bounded count (`counted`, read first in the same statement) says the matches are more
 * than the cap, or a large enough share of all documents to fill the page within half the walk;
 * kept when it holds the page (upTo rows, or every match); else every match is sorted, as before.
 */
function walkedInRadius(sql: Sql, f: SearchFilters, tsq: string | null, offset: number, upTo: number, cap: number, walk: number) {
  const keys = (alias: string) => sortKeys(sql, f, 'rating', alias);
  const walked = sql`(select count(*) from walk)`;
  const counted = sql`(select n from counted)`;
  // the walk holds the page: upTo rows, or every match (the count exact: not beyond the cap)
  const whole = sql`(${walked} >= ${upTo} or (${walked} = ${counted} and ${counted} <= ${cap}))`;
  // worth walking: more matches than the cap, or enough of all documents to fill the page in half the walk
  const documents = sql`greatest((select reltuples from pg_class where oid = 'search_documents'::regclass), 1)`;
  const worth = sql`(${counted} > ${cap} or ${upTo}::float8 * ${documents} / greatest(${counted}, 1) <= ${walk / 2})`;
  // the rating index's order (of one type: the type's own index)
  const order =
    f.type === 'all'
      ? sql`order by d.rating desc nulls last, d.type asc, d.id asc`
      : sql`where d.type = ${f.type} order by d.rating desc nulls last, d.id asc`;
  return sql`
    with walk as materialized (
      select ${sql.unsafe(CANDIDATE('d'))}
      from (select ${sql.unsafe(CANDIDATE('d'))} from search_documents d ${order} limit ${walk}) d
      where ${worth} and ${matchWhere(sql, f, tsq, 'd')}
      order by ${keys('d')} limit ${upTo})
    select u.type, u.id, u.city, u.state, u.country, ${relevance(sql, f, tsq, 'u')} as relevance_score, ${distance(sql, f, 'u')} as distance_km
    from (
      select * from walk where ${whole}
      union all
      (select ${sql.unsafe(CANDIDATE('d'))} from search_documents d
       where not ${whole} and ${matchWhere(sql, f, tsq, 'd')}
       order by ${keys('d')} limit ${upTo})
    ) u
    order by ${keys('u')}
    offset ${offset} limit ${f.limit + 1}`;
}

/**
 * The page's keys in the requested order, one row more than the page (so has_next is known): the
 * re-ranked window (then quality order past it), or the requested order over every match (best
 * rated first in a radius: walkedInRadius).
 */
export function pageQuery(sql: Sql, f: SearchFilters, tsq: string | null, offset: number, upTo: number, cap: number) {
  const byRelevance = f.sortBy === 'relevance' && Boolean(f.q);
  const sortBy: Exclude<SearchSort, 'relevance'> = f.sortBy === 'relevance' ? 'rating' : f.sortBy;
  if (byRelevance && upTo <= RESCORE_WINDOW) {
    return sql`
      select w.type, w.id, w.city, w.state, w.country, ${relevance(sql, f, tsq, 'w')} as relevance_score, ${distance(sql, f, 'w')} as distance_km
      from win w
      order by relevance_score desc, w.quality desc, w.type asc, w.id asc
      offset ${offset} limit ${f.limit + 1}`;
  } else if (byRelevance) {
    // Deep pages: the first window re-ranked, then the rest in quality order (the same sequence as the window path).
    return sql`
      select r.type, r.id, r.city, r.state, r.country, r.relevance_score, r.distance_km
      from (
        select s.type, s.id, s.city, s.state, s.country, s.pos, ${relevance(sql, f, tsq, 's')} as relevance_score, ${distance(sql, f, 's')} as distance_km
        from (
          select d.*, row_number() over (order by ${sql.unsafe(QUALITY_ORDER)}) as pos
          from (select ${sql.unsafe(CANDIDATE('d'))} from search_documents d where ${matchWhere(sql, f, tsq, 'd')} order by ${sql.unsafe(QUALITY_ORDER)} limit ${upTo}) d
        ) s
      ) r
      order by (r.pos > ${RESCORE_WINDOW}), case when r.pos <= ${RESCORE_WINDOW} then r.relevance_score end desc nulls last, r.pos
      offset ${offset} limit ${f.limit + 1}`;
  } else if (f.geo && sortBy === 'rating' && f.sortOrder === 'desc' && (f.walkRows ?? WALK_ROWS) > 0) {
    return walkedInRadius(sql, f, tsq, offset, upTo, cap, f.walkRows ?? WALK_ROWS);
  } else {
    return sql`
      select d.type, d.id, d.city, d.state, d.country, ${relevance(sql, f, tsq, 'd')} as relevance_score, ${distance(sql, f, 'd')} as distance_km
      from search_documents d
      where ${matchWhere(sql, f, tsq, 'd')}
      order by ${sortKeys(sql, f, sortBy, 'd')}
      offset ${offset} limit ${f.limit + 1}`;
  }
}
