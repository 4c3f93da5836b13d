// A relevance page found by score alone with its ties settled (lib/search-engine/ties.ts): against
// an engine simulated here (score-only searches break ties in an order of their own), the page is
// always the contract's (score, then quality best first, type, id), or null when it cannot be.
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../scripts/seed/directory';
import { byRelevance, exactTop, type BoundSearch, type TieRow } from '../../lib/search-engine/ties';

/** The seed tooling's generator: the same corpus every run. */
const rng = mulberry32;

/** Few scores and few qualities: many ties at every level, as in the bench corpus. */
function corpus(n: number, seed: number): TieRow[] {
  const r = rng(seed);
  return Array.from({ length: n }, (_, i) => ({
    score: [9.5, 7.25, 7.25, 3.1, 3.1, 3.1][Math.floor(r() * 6)]!,
    quality: [0.9, 0.585, 0.585, 0.3][Math.floor(r() * 4)]!,
    type: ['artist', 'design', 'studio'][Math.floor(r() * 3)]!,
    id: `x_${String(Math.floor(r() * 1e6)).padStart(7, '0')}_${i}`,
  }));
}

/** The engine: score-only searches order ties by a document order that is not the contract's. */
function engine(rows: TieRow[], seed: number) {
  const r = rng(seed);
  const docOrder = new Map(rows.map((row) => [row, r()]));
  const byScoreAlone = (a: TieRow, b: TieRow) => b.score - a.score || docOrder.get(a)! - docOrder.get(b)!;
  const calls: BoundSearch[] = [];
  return {
    calls,
    first: (k: number) => [...rows].sort(byScoreAlone).slice(0, k),
    search: async (b: BoundSearch): Promise<[TieRow[], TieRow[]]> => {
      calls.push(b);
      const hi = rows.filter((x) => x.quality > b.above.quality).sort(byScoreAlone).slice(0, b.above.size);
      const at = rows.filter((x) => x.quality === b.at.quality).sort(byRelevance).slice(0, b.at.size);
      return [hi, at];
    },
  };
}

const ids = (rows: TieRow[] | null) => rows?.map((r) => r.id);

describe('exactTop', () => {
  it('returns the contract order for every page of many tied corpora', async () => {
    for (let seed = 1; seed <= 40; seed++) {
      const rows = corpus(400 + seed * 7, seed);
      const want = [...rows].sort(byRelevance);
      for (const k of [1, 21, 41, 121]) {
        const e = engine(rows, seed * 31);
        const got = await exactTop(e.first(k), k, e.search, 50);
        expect(ids(got), `seed ${seed}, k ${k}`).toEqual(ids(want.slice(0, k)));
      }
    }
  });

  it('a page shorter than k is every match, sorted, without a second search', async () => {
    const rows = corpus(15, 3);
    const e = engine(rows, 9);
    expect(ids(await exactTop(e.first(21), 21, e.search))).toEqual(ids([...rows].sort(byRelevance)));
    expect(e.calls).toHaveLength(0);
  });

  it('narrows the bound when the rows above it are cut short, and gives up after three rounds', async () => {
    // 300 rows tied at one score, 100 per quality: a window of 20 sees 20 of the 200 above the first bound
    const rows: TieRow[] = Array.from({ length: 300 }, (_, i) => ({ score: 5, quality: [0.9, 0.6, 0.3][i % 3]!, type: 'studio', id: `s_${String(i).padStart(4, '0')}` }));
    const want = [...rows].sort(byRelevance).slice(0, 21);
    // an engine whose score-only order puts the worst qualities first: the first bound is 0.3
    const e = engine(rows, 1);
    const first = [...rows].sort((a, b) => a.quality - b.quality).slice(0, 21);
    expect(ids(await exactTop(first, 21, e.search, 20))).toEqual(ids(want));
    expect(e.calls.map((c) => c.above.quality)).toEqual([0.3, 0.6, 0.9]);
    // every bound cut short: quality above the bound holds more than the window, three times
    const deep: TieRow[] = Array.from({ length: 2000 }, (_, i) => ({ score: 5, quality: 1 - i / 2000, type: 'studio', id: `d_${String(i).padStart(5, '0')}` }));
    const worstFirst = [...deep].sort((a, b) => a.quality - b.quality).slice(0, 21);
    const d = engine(deep, 2);
    expect(await exactTop(worstFirst, 21, d.search, 30)).toBeNull();
    expect(d.calls).toHaveLength(3);
  });

  it('a row above the page\'s last score that the first search did not return (the index changed) gives null', async () => {
    const rows = corpus(300, 5);
    const e = engine(rows, 4);
    const first = e.first(21);
    const newcomer: TieRow = { score: 99, quality: 1, type: 'studio', id: 'new' };
    const changed = async (b: BoundSearch): Promise<[TieRow[], TieRow[]]> => {
      const [hi, at] = await e.search(b);
      return [[newcomer, ...hi], at];
    };
    expect(await exactTop(first, 21, changed)).toBeNull();
  });
});
