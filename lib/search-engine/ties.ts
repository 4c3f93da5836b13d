// A relevance page without sorting every match. The contract orders a text search by score, then
// quality (best first), type and id. Sorted that way, Lucene must score every match whose score
// equals the page's last one, and a corpus where thousands of documents share the best score
// (1M bench: 69,120 of koi's 112,266 matches, 86,944 of fine line's 481,345) has it score them all.
// Sorted by score alone it skips them (block-max WAND), but breaks ties by its own document order.
//
// So the page is found in two steps, and is exactly the contract's:
//  1. the top K by score alone (K = offset + limit + 1). Every match scoring above the K-th score s
//     is in it (A); of the matches tied at s (T), it holds m in no promised order.
//  2. The best m of T by (quality, type, id). Let w be the worst of the m held: at least m members of
//     T rank no lower than w, so the best m all have quality >= w's. Two searches find them:
//     - quality > w's, by score alone, |A| + max(WINDOW, m) rows: when the last row scores below s
//       (or the matches run out) it holds every member of T in that range;
//     - quality = w's, sorted by score, type and id: the best m of T at that quality.
//     When the first is cut short (that many or more of T above w's quality), the m-th best of the
//     members it did return becomes the new w and step 2 runs again, at most ROUNDS times.
// When none of that settles (or the index changed between the searches: a row above s that step 1
// did not return), the caller sends the page sorted in full, as before. The index is sorted by
// quality, type and id (documents.ts), so step 1 usually returns T's best already and step 2's
// ranges are a run of each segment's documents; the result does not depend on it.

/** What a row of a step carries, besides its score: the keys of the tie-break (doc values). */
export interface TieRow {
  score: number;
  quality: number;
  type: string;
  id: string;
}

/** Byte order, as the engine's keyword sort and the database's C collation compare (ids and types are ASCII). */
const bytes = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** The contract's tie-break: quality best first, then type, then id. */
export const byTieBreak = (a: TieRow, b: TieRow) => b.quality - a.quality || bytes(a.type, b.type) || bytes(a.id, b.id);
/** The contract's relevance order. */
export const byRelevance = (a: TieRow, b: TieRow) => b.score - a.score || byTieBreak(a, b);

/** How many rows of T above the bound's quality one round may read before it narrows the bound. */
export const WINDOW = 32;
export const ROUNDS = 3;
/** Past this K the page is sorted in full (a deep page: step 1 would read as much). */
export const MAX_K = 1_000;

/** Step 2's two searches for a bound quality: `above` by score alone, `at` by score, type and id. */
export interface BoundSearch {
  above: { quality: number; size: number };
  at: { quality: number; size: number };
}

/**
 * The exact top K from step 1's rows (by score, in the engine's order), or null: the caller sorts in
 * full. `search` runs step 2's pair and answers each one's rows in order.
 */
export async function exactTop<R extends TieRow>(first: R[], k: number, search: (b: BoundSearch) => Promise<[R[], R[]]>, window = WINDOW): Promise<R[] | null> {
  if (first.length < k) return [...first].sort(byRelevance);
  const s = first[k - 1]!.score;
  const above = first.filter((r) => r.score > s);
  const key = (r: TieRow) => `${r.type}:${r.id}`;
  const known = new Set(above.map(key));
  let held = first.filter((r) => r.score === s);
  const m = held.length;
  for (let round = 0; round < ROUNDS; round++) {
    const w = [...held].sort(byTieBreak)[m - 1]!;
    // at least m rows of T when cut short, so the next bound is the m-th best of real members of T
    const size = above.length + Math.max(window, m);
    const [hi, at] = await search({ above: { quality: w.quality, size }, at: { quality: w.quality, size: above.length + m } });
    // a row above s that step 1 did not have: the index changed in between
    if ([...hi, ...at].some((r) => r.score > s && !known.has(key(r)))) return null;
    const tied = [...hi, ...at].filter((r) => r.score === s);
    const complete = hi.length < size || hi[hi.length - 1]!.score < s;
    if (complete) return [...above, ...tied.sort(byTieBreak).slice(0, m)].sort(byRelevance);
    held = tied;
  }
  return null;
}
