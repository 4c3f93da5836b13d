// Facet counts of a search: over every match within the cap, else over the rescore window.
import type { Sql } from '../../db';

/** Facet lists longer than this keep their most frequent values. */
export const FACET_TOP = 20;

export interface FacetCount {
  value: string | boolean;
  count: number;
}

export interface SearchFacets {
  types: FacetCount[];
  cities: FacetCount[];
  states: FacetCount[];
  countries: FacetCount[];
  styles: FacetCount[];
  specialties: FacetCount[];
  verified: FacetCount[];
}
export type FacetColumns = { [K in keyof SearchFacets as `facet${Capitalize<K>}`]?: SearchFacets[K] };

/** The facet columns are prefixed (`facet_styles`): the page's own columns carry the plain names. */
export function pickFacets(r: FacetColumns): SearchFacets {
  return {
    types: r.facetTypes ?? [],
    cities: r.facetCities ?? [],
    states: r.facetStates ?? [],
    countries: r.facetCountries ?? [],
    styles: r.facetStyles ?? [],
    specialties: r.facetSpecialties ?? [],
    verified: r.facetVerified ?? [],
  };
}

/**
 * Facet counts, most frequent first: over every match when there are at most `cap` of them (the
 * count read them all), else over the rescore window (the first RESCORE_WINDOW matches in
 * static-quality order). The window CTE is only read in the second case.
 */
export function facetColumns(sql: Sql, cap: number) {
  const source = sql`(
    select type, city, state, country, styles, specialties, verified from matches where (select n from counted) <= ${cap}
    union all
    select type, city, state, country, styles, specialties, verified from win where (select n from counted) > ${cap}
  )`;
  const top = (col: string) => sql`
    (select coalesce(json_agg(json_build_object('value', value, 'count', n) order by n desc, value), '[]'::json)
     from (select ${sql.unsafe(col)} as value, count(*)::int as n from ${source} m where ${sql.unsafe(col)} is not null and ${sql.unsafe(col)} <> ''
           group by 1 order by n desc, value limit ${FACET_TOP}) x)`;
  const topArray = (col: string) => sql`
    (select coalesce(json_agg(json_build_object('value', value, 'count', n) order by n desc, value), '[]'::json)
     from (select v as value, count(*)::int as n from ${source} m, unnest(m.${sql.unsafe(col)}) v
           group by 1 order by n desc, value limit ${FACET_TOP}) x)`;
  return sql`
    ${top('type')} as facet_types, ${top('city')} as facet_cities, ${top('state')} as facet_states, ${top('country')} as facet_countries,
    ${topArray('styles')} as facet_styles, ${topArray('specialties')} as facet_specialties,
    (select coalesce(json_agg(json_build_object('value', verified, 'count', n) order by verified desc), '[]'::json)
     from (select verified, count(*)::int as n from ${source} m group by verified) x) as facet_verified`;
}
