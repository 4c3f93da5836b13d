// The text query: q's words as the documents were indexed, with typo tolerance.
import type { Sql } from '../../db';

/** Query words looked at (more are ignored), and the shortest word a typo is corrected in. */
const MAX_WORDS = 8;
const MIN_TYPO_LENGTH = 4;

export interface TextQuery {
  /** A tsquery in its text form (every word, or its correction, ANDed); null: q has no words. */
  tsquery: string | null;
  /** The words searched (corrections applied), as indexed; empty when q has none. */
  words: string[];
  /** Words no document holds, with the indexed word used instead (none when nothing was near). */
  corrections: { word: string; usedInstead: string | null }[];
  /** The words searched (corrections applied), when some word was replaced. */
  correctedQuery?: string;
}

const tsqueryLiteral = (w: string) => `'${w.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/**
 * The words of q as the documents were indexed (to_tsvector('simple'), so the same parser splits
 * them), each checked against the dictionary; a word no document holds (4+ characters) is replaced
 * by its nearest indexed word by trigram similarity (at least pg_trgm's threshold, 0.3).
 */
export async function textQuery(sql: Sql, q: string): Promise<TextQuery> {
  const rows = await sql<{ word: string; known: boolean; nearest: string | null }[]>`
    select w.word, k.known,
      case when not k.known and length(w.word) >= ${MIN_TYPO_LENGTH} then
        (select s.word from search_words s where s.word % w.word order by s.word <-> w.word, s.word limit 1)
      end as nearest
    from (select unnest(tsvector_to_array(to_tsvector('simple', ${q}))) as word limit ${MAX_WORDS}) w
    cross join lateral (select exists (select 1 from search_words s where s.word = w.word) as known) k`;
  if (rows.length === 0) return { tsquery: null, words: [], corrections: [] };
  const words = rows.map((r) => (r.known || !r.nearest ? r.word : r.nearest));
  // q as the client wrote it, each replaced word swapped for what was searched instead
  const replaced = new Map(rows.filter((r) => !r.known && r.nearest).map((r) => [r.word, r.nearest!]));
  return {
    tsquery: words.map(tsqueryLiteral).join(' & '),
    words,
    corrections: rows.filter((r) => !r.known).map((r) => ({ word: r.word, usedInstead: r.nearest })),
    ...(replaced.size ? { correctedQuery: q.trim().replace(/[\p{L}\p{N}]+/gu, (w) => replaced.get(w.toLowerCase()) ?? w) } : {}),
  };
}
