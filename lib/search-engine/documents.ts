// The engine's document: a projection of one search_documents row, nothing else. The text is the
// row's own tsvector (search_tsv), lexeme by lexeme, one field per weight (A: name, B: city or
// specialties, C: description and the rest), each lexeme repeated once per position: the engine
// matches exactly the words PostgreSQL matches (the same parser made them), and BM25 sees the
// same term frequencies. Sort keys keep PostgreSQL's order: `name` as a keyword (byte order, the
// database's C collation), created_at in microseconds, quality as stored.
import type { Tx } from '../db';

export const DOCUMENT_MAPPINGS = {
  dynamic: 'strict',
  properties: {
    type: { type: 'keyword' },
    id: { type: 'keyword' },
    name: { type: 'keyword' },
    city: { type: 'keyword' },
    state: { type: 'keyword' },
    country: { type: 'keyword' },
    location: { type: 'geo_point' },
    latitude: { type: 'double', index: false },
    longitude: { type: 'double', index: false },
    styles: { type: 'keyword' },
    specialties: { type: 'keyword' },
    rating: { type: 'double' },
    review_count: { type: 'integer' },
    verified: { type: 'boolean' },
    quality: { type: 'double' },
    created_us: { type: 'long' },
    version: { type: 'long', index: false },
    w_a: { type: 'text', analyzer: 'lexeme' },
    w_b: { type: 'text', analyzer: 'lexeme' },
    w_c: { type: 'text', analyzer: 'lexeme' },
    w_d: { type: 'text', analyzer: 'lexeme' },
  },
} as const;

/** Index settings: shards and replicas by size (docs/deploy.md), the lexeme analyzer, deep pages as PostgreSQL serves them. */
export function indexSettings(o: { shards: number; replicas: number }) {
  return {
    number_of_shards: o.shards,
    number_of_replicas: o.replicas,
    // page 10,000 of 50 (lib/directory/params.ts MAX_PAGE) plus the row that says has_next
    max_result_window: 500_051,
    // a delete's version is remembered this long: a replayed older write arriving later is refused
    gc_deletes: '1h',
    'translog.durability': 'request',
    'sort.field': ['quality', 'type', 'id'],
    'sort.order': ['desc', 'asc', 'asc'],
    analysis: { analyzer: { lexeme: { type: 'custom', tokenizer: 'keyword' } } },
  };
}

export interface DocumentRow {
  type: string;
  id: string;
  name: string;
  city: string | null;
  state: string | null;
  country: string | null;
  latitude: number | null;
  longitude: number | null;
  styles: string[];
  specialties: string[];
  rating: number | null;
  reviewCount: number;
  verified: boolean;
  quality: number;
  createdUs: string;
  version: string;
  /** [lexeme, weights (one per position)] */
  lexemes: [string, string[] | null][];
}

/** The columns of a DocumentRow from search_documents `d`. */
export const DOCUMENT_COLUMNS = `d.type, d.id, d.name, d.city, d.state, d.country, d.latitude, d.longitude, d.styles, d.specialties,
  d.rating, d.review_count, d.verified, d.quality, ((extract(epoch from d.created_at) * 1000000)::bigint)::text as created_us, d.version::text as version,
  (select coalesce(json_agg(json_build_array(l.lexeme, l.weights)), '[]'::json) from unnest(d.search_tsv) l) as lexemes`;

export const docId = (type: string, id: string) => `${type}:${id}`;

export function toDocument(r: DocumentRow) {
  const w: Record<'A' | 'B' | 'C' | 'D', string[]> = { A: [], B: [], C: [], D: [] };
  for (const [lexeme, weights] of r.lexemes) {
    // a lexeme without positions (a stripped vector) counts once, as weight D
    for (const weight of weights ?? ['D']) w[(weight as keyof typeof w) in w ? (weight as keyof typeof w) : 'D'].push(lexeme);
  }
  const located = r.latitude !== null && r.longitude !== null;
  return {
    type: r.type,
    id: r.id,
    name: r.name,
    city: r.city,
    state: r.state,
    country: r.country,
    ...(located ? { location: { lat: r.latitude, lon: r.longitude } } : {}),
    latitude: r.latitude,
    longitude: r.longitude,
    styles: r.styles,
    specialties: r.specialties,
    rating: r.rating,
    review_count: r.reviewCount,
    verified: r.verified,
    quality: r.quality,
    created_us: Number(r.createdUs),
    version: Number(r.version),
    w_a: w.A,
    w_b: w.B,
    w_c: w.C,
    w_d: w.D,
  };
}

/** The documents of these keys as they are now (absent: deleted). */
export async function documentsOf(sql: Tx, keys: { type: string; id: string }[]): Promise<DocumentRow[]> {
  if (!keys.length) return [];
  return sql<DocumentRow[]>`
    select ${sql.unsafe(DOCUMENT_COLUMNS)}
    from search_documents d
    join (select unnest(${keys.map((k) => k.type)}::text[]) as type, unnest(${keys.map((k) => k.id)}::text[]) as id) k on k.type = d.type and k.id = d.id`;
}
