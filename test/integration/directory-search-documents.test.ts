// Issue 16: bounded totals, the search documents kept current with their source rows (the seed,
// plain writes, the governed projection and its takedown), relevance and typo tolerance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assetIdOf, projectDraft, unpublishAsset } from '../../lib/directory/projection';
import { RESCORE_WINDOW, search as searchDirectory, SEGMENTS } from '../../lib/directory/search';
import { call, seedTestDirectory } from '../helpers/directory-seed';
import { apiKeyActor, bearerActor, type TestCredential } from '../helpers/auth';
import { insertDraft } from '../helpers/publishing';
import { startTestStack, uid, type TestStack } from '../helpers/stack';

const CAP = 50;
let stack: TestStack;
let reader: TestCredential;
beforeAll(async () => {
  // A small cap, so the directory of the tests (about 1,400 searchable records) is "beyond" it.
  stack = await startTestStack({ worker: false, env: { SEARCH_TOTAL_CAP: String(CAP) } });
  await seedTestDirectory(stack);
  reader = await apiKeyActor(stack, { permissions: ['search:read'] });
});
afterAll(async () => stack?.stop());

const search = (qs = '') => call(stack, `/search${qs ? `?${qs}` : ''}`, { headers: reader.headers });

/** The documents as they are, and as the one definition (the view) says they should be. */
async function documentsMatchTheirSource() {
  const cols = 'type, id, name, search_tsv, city, state, country, latitude, longitude, styles, specialties, rating, review_count, verified, published_works, created_at, quality';
  const [r] = await stack.sql.unsafe<{ missing: number; extra: number; n: number }[]>(`
    select (select count(*)::int from (select ${cols} from search_document_source except all select ${cols} from search_documents) x) as missing,
           (select count(*)::int from (select ${cols} from search_documents except all select ${cols} from search_document_source) x) as extra,
           (select count(*)::int from search_documents) as n`);
  return r!;
}

const doc = async (type: string, id: string) =>
  (await stack.sql<{ city: string | null; publishedWorks: number; quality: number; name: string }[]>`
    select city, published_works, quality, name from search_documents where type = ${type} and id = ${id}`)[0];

describe('search documents', () => {
  it('hold exactly one document per searchable record after the seed', async () => {
    const r = await documentsMatchTheirSource();
    expect(r.n).toBeGreaterThan(1000);
    expect({ missing: r.missing, extra: r.extra }).toEqual({ missing: 0, extra: 0 });
  });

  it('follow every write to the source rows in the same transaction: insert, update, delete, a studio move', async () => {
    const studio = uid('std_t_');
    const artist = uid('art_t_');
    await stack.sql.begin(async (tx) => {
      await tx`insert into studios (id, name, city, state, country, latitude, longitude, price_range, source_type)
        values (${studio}, 'Quokka Needle House', 'Perth', 'WA', 'AU', -31.95, 115.86, '$$', 'test_fixture')`;
      await tx`insert into artists (id, studio_id, name, bio, source_type) values (${artist}, ${studio}, 'Wren Alder', 'Fine work.', 'test_fixture')`;
      // inside the writing transaction, before commit
      expect((await tx`select 1 from search_documents where id in (${studio}, ${artist})`).length).toBe(2);
    });
    expect((await doc('artist', artist))?.city).toBe('Perth');
    // the studio moves: its artist's location follows
    await stack.sql`update studios set city = 'Fremantle', latitude = -32.05, longitude = 115.75 where id = ${studio}`;
    expect((await doc('artist', artist))?.city).toBe('Fremantle');
    // the studio is hidden: its document goes, the artist stays without a location
    await stack.sql`update studios set visibility = 'private' where id = ${studio}`;
    expect(await doc('studio', studio)).toBeUndefined();
    expect((await doc('artist', artist))?.city).toBeNull();
    await stack.sql`delete from artists where id = ${artist}`;
    expect(await doc('artist', artist)).toBeUndefined();
    // a rolled-back write leaves no document
    await stack.sql
      .begin(async (tx) => {
        await tx`update studios set visibility = 'public' where id = ${studio}`;
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await doc('studio', studio)).toBeUndefined();
    expect(await documentsMatchTheirSource()).toMatchObject({ missing: 0, extra: 0 });
  });

  it('follow the governed projection and the takedown: the published work counts in the artist\'s quality', async () => {
    const artistId = uid('artist-canonical-sd-');
    await stack.sql`insert into artists (id, name, bio, source_type) values (${artistId}, 'Ottoline Marsh', 'Botanical linework.', 'test_fixture')`;
    const before = (await doc('artist', artistId))!;
    expect(before.publishedWorks).toBe(0);

    // a private draft as intake approval leaves it
    const documentId = await insertDraft(stack, { artistId, tenantId: 'tenant-sd', title: 'Fern sleeve', tags: ['fern'], styles: ['fine_line'] });
    const operator = await bearerActor(stack, { operator: true, permissions: ['portfolio_intake:review', 'portfolios:publish'] });
    const deps = { sql: stack.sql, store: stack.api.deps.store, maxImagePixels: 50_000_000 };
    expect((await projectDraft(deps, { documentId, operatorActorId: operator.actorId })).status).toBe('projected');

    const after = (await doc('artist', artistId))!;
    expect(after.publishedWorks).toBe(1);
    expect(after.quality).toBeGreaterThan(before.quality);

    await unpublishAsset(deps, { assetId: assetIdOf(documentId), operatorActorId: operator.actorId, reason: 'Client withdrew consent.' });
    const down = (await doc('artist', artistId))!;
    expect(down.publishedWorks).toBe(0);
    expect(down.quality).toBe(before.quality);
  });
});

describe('GET /search and GET /studios beyond the total cap', () => {
  it('count exactly up to the cap, then answer the cap with total_relation gte; pages follow from it', async () => {
    const { status, body } = await search('type=studio&include_facets=true');
    expect(status).toBe(200);
    expect(body.data.total).toBe(CAP);
    expect(body.data.total_relation).toBe('gte');
    expect(body.data.pagination).toEqual({ page: 1, limit: 20, total_pages: Math.ceil(CAP / 20), has_next: true, has_prev: false });
    // beyond the cap the facets are counted over the rescore window (the first matches by quality)
    const n = (await stack.sql<{ n: number }[]>`select count(*)::int as n from search_documents where type = 'studio'`)[0]!.n;
    expect(body.data.facets.types).toEqual([{ value: 'studio', count: Math.min(n, RESCORE_WINDOW) }]);
    // a narrower search within the cap is exact, facets too
    const narrow = await search('q=fixture&type=studio&include_facets=true');
    expect(narrow.body.data.total_relation).toBe('eq');
    expect(narrow.body.data.total).toBeLessThanOrEqual(CAP);
    expect(narrow.body.data.facets.types).toEqual([{ value: 'studio', count: narrow.body.data.total }]);
  });

  it('counts a text query over its segments exactly at every cap around the true count; the page is the same whichever way the window was found', async () => {
    // the most frequent word of the studios' documents: its matches spread over every segment
    const [w] = await stack.sql<{ word: string; n: number }[]>`
      select word, ndoc::int as n from ts_stat($$select search_tsv from search_documents$$) where length(word) > 3 order by ndoc desc, word limit 1`;
    const truth = (await stack.sql<{ n: number }[]>`select count(*)::int as n from search_documents where search_tsv @@ ${w!.word}::tsquery`)[0]!.n;
    const segs = (await stack.sql<{ segs: number }[]>`
      select count(distinct hashtext(id) & ${SEGMENTS - 1})::int as segs from search_documents where search_tsv @@ ${w!.word}::tsquery`)[0]!.segs;
    expect(segs).toBe(SEGMENTS);
    const base = { page: 1, limit: 20, type: 'all' as const, verifiedOnly: false, sortBy: 'relevance' as const, sortOrder: 'desc' as const, includeFacets: true, q: w!.word };
    const pages: string[][] = [];
    for (const cap of [3, truth - 1, truth, truth + 1, 100_000]) {
      const r = await searchDirectory(stack.sql, { ...base, totalCap: cap });
      expect({ cap, total: r.total, relation: r.totalRelation }).toEqual({ cap, total: Math.min(truth, cap), relation: truth > cap ? 'gte' : 'eq' });
      pages.push(r.results.map((x) => `${x.type}:${x.id}`));
      if (cap >= truth) {
        // within the cap the facets count every match, as SQL does
        const types = await stack.sql<{ value: string; count: number }[]>`
          select type as value, count(*)::int as count from search_documents where search_tsv @@ ${w!.word}::tsquery group by type order by 2 desc, 1`;
        expect(r.facets!.types).toEqual(types);
      }
    }
    expect(pages[0]!.length).toBe(20);
    // the window is the first RESCORE_WINDOW matches by quality however it was found (from the
    // counted rows, the quality walk or the bitmap), so the re-ranked page does not depend on the cap
    for (const p of pages) expect(p).toEqual(pages[0]);

    // narrowed to a city (intersected in the segments' indexes; the window walks the city's quality order)
    const city = (await stack.sql<{ city: string; n: number }[]>`
      select city, count(*)::int as n from search_documents where search_tsv @@ ${w!.word}::tsquery and city is not null
      group by city order by 2 desc, 1 limit 1`)[0]!;
    expect(city.n).toBeGreaterThan(20);
    const cityPages: string[][] = [];
    for (const cap of [3, city.n - 1, city.n, 100_000]) {
      const r = await searchDirectory(stack.sql, { ...base, city: city.city, totalCap: cap });
      expect({ cap, total: r.total, relation: r.totalRelation }).toEqual({ cap, total: Math.min(city.n, cap), relation: city.n > cap ? 'gte' : 'eq' });
      expect(r.results.every((x) => x.location.city === city.city)).toBe(true);
      cityPages.push(r.results.map((x) => `${x.type}:${x.id}`));
    }
    for (const p of cityPages) expect(p).toEqual(cityPages[0]);
  });

  it('pages best rated first in a radius the same whether walked along the rating index or sorted over every match', async () => {
    // the densest place of the documents, and a radius around it holding more than the cap; the test centre's few studios
    const [dense] = await stack.sql<{ latitude: number; longitude: number }[]>`
      select round(latitude::numeric, 1)::float8 as latitude, round(longitude::numeric, 1)::float8 as longitude
      from search_documents where latitude is not null group by 1, 2 order by count(*) desc, 1, 2 limit 1`;
    const circles = [{ ...dense!, radiusKm: 500 }, { ...dense!, radiusKm: 30 }, { latitude: 10.0, longitude: 20.0, radiusKm: 50 }];
    const base = { limit: 9, verifiedOnly: false, sortBy: 'relevance' as const, sortOrder: 'desc' as const, includeFacets: false };
    let beyond = 0;
    for (const geo of circles)
      for (const type of ['all', 'studio'] as const)
        for (const totalCap of [CAP, 100_000])
          for (const page of [1, 2, 6, 40]) {
            const f = { ...base, geo, type, totalCap, page };
            // walks: never (every match sorted), 30 documents (too short: sorted after it), a million (always enough)
            const [reference, short, long] = await Promise.all([searchDirectory(stack.sql, { ...f, walkRows: 0 }), searchDirectory(stack.sql, { ...f, walkRows: 30 }), searchDirectory(stack.sql, { ...f, walkRows: 1_000_000 })]);
            const view = (r: typeof reference) => ({ ids: r.results.map((x) => `${x.type}:${x.id}`), total: r.total, relation: r.totalRelation, hasNext: r.hasNext });
            expect({ f, short: view(short) }).toEqual({ f, short: view(reference) });
            expect({ f, long: view(long) }).toEqual({ f, long: view(reference) });
            const ratings = reference.results.map((x) => x.rating ?? -1);
            expect(ratings).toEqual([...ratings].sort((a, b) => b - a));
            if (reference.totalRelation === 'gte' && reference.results.length === 9) beyond++;
          }
    // (the long walk is always taken here: 1,400 documents, a page of 9, a million to walk)
    expect(beyond).toBeGreaterThan(0);
  });

  it('has_next stays true past the counted pages while there are more matches', async () => {
    const deep = await search(`type=studio&sort_by=name&limit=20&page=${Math.ceil(CAP / 20) + 1}`);
    expect(deep.body.data.results).toHaveLength(20);
    expect(deep.body.data.pagination.has_next).toBe(true);
    expect(deep.body.data.total_relation).toBe('gte');
  });

  it('bounds /studios the same way, with totalRelation beside the legacy pagination', async () => {
    const { body } = await call(stack, '/studios');
    expect(body.pagination).toEqual({ page: 1, limit: 20, total: CAP, totalPages: Math.ceil(CAP / 20), hasNext: true, hasPrev: false });
    expect(body.totalRelation).toBe('gte');
    const few = await call(stack, '/studios?city=Fixtureville');
    expect(few.body.totalRelation).toBe('eq');
    expect(few.body.pagination.total).toBeLessThan(CAP);
  });
});

describe('relevance and typo tolerance', () => {
  it('ranks an exact name match above a description match, even one of higher quality', async () => {
    await stack.sql`insert into studios (id, name, description, city, country, latitude, longitude, price_range, rating, review_count, verified, featured, source_type) values
      ('std_rel_name', 'Quillwort Parlour', 'A small room.', 'Relton', 'ZZ', -45, -30, '$', 3.0, 1, false, false, 'test_fixture'),
      ('std_rel_desc', 'Bramble Room', 'We love the quillwort parlour style.', 'Relton', 'ZZ', -45, -30, '$', 5.0, 900, true, true, 'test_fixture')`;
    const { body } = await search('q=quillwort%20parlour');
    const ids = body.data.results.map((r: any) => r.id);
    expect(ids.slice(0, 2)).toEqual(['std_rel_name', 'std_rel_desc']);
    expect(body.data.results[0].relevance_score).toBeGreaterThan(body.data.results[1].relevance_score);
  });

  it('finds a word by its nearest indexed word when no document holds it (q=tradtional finds traditional)', async () => {
    const { body } = await search('q=tradtional&limit=50');
    expect(body.data.total).toBeGreaterThan(0);
    for (const r of body.data.results) expect(`${r.name} ${r.description} ${r.styles.join(' ')} ${r.specialties.join(' ')}`).toMatch(/traditional/);
    // it says what it searched for
    expect(body.data.corrected_query).toBe('traditional');
    expect(body.data.corrections).toEqual([{ word: 'tradtional', used_instead: 'traditional' }]);
    const mixed = await search('q=Quillwort%20Parlur');
    expect(mixed.body.data.corrected_query).toBe('Quillwort parlour');
    // a word the documents hold is never replaced, and nothing is said
    const exact = await search('q=quillwort');
    expect(exact.body.data.results.map((r: any) => r.id).sort()).toEqual(['std_rel_desc', 'std_rel_name']);
    expect(exact.body.data).not.toHaveProperty('corrected_query');
    expect(exact.body.data).not.toHaveProperty('corrections');
    // nothing near: no results rather than anything, and the word named as not found
    const none = await search('q=zzzzqqqq');
    expect(none.body.data.total).toBe(0);
    expect(none.body.data).not.toHaveProperty('corrected_query');
    expect(none.body.data.corrections).toEqual([{ word: 'zzzzqqqq', used_instead: null }]);
  });
});
