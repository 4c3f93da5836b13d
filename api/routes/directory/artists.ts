// GET /artists and GET /artists/{id} (artists:read). POST /artists, PUT/PATCH/DELETE /artists/{id}: 405.
import { z } from 'zod';
import { plainText } from '../../../lib/validation/text';
import { AppError } from '../../http/errors';
import { blockedWrites, defineRoute, type Route } from '../../routing/route';
import * as C from '../../openapi/components';
import { PUBLIC_BASE } from '../../routing/bases';
import { ARTIST_SORTS, findArtist, listArtists } from '../../../lib/directory/artists';
import { boolParam, limitParam, numParam, pageParam, textParam } from '../../../lib/directory/params';
import { artistsPagination } from './envelopes';
import { legacyCanListArtists, legacyFindArtist, legacyListArtists } from '../../../lib/cutover/legacy-reads';
import { artistMismatches } from '../../../lib/cutover/reads';
import { readSource, shadowAfter } from './cutover-source';

export const artistsQuery = z
  .object({
    page: pageParam,
    limit: limitParam(20, 100),
    studio_id: textParam().optional(),
    specialty: textParam(100).transform((v) => v.toLowerCase()).optional().describe('one specialty (style id)'),
    min_experience: numParam(0, 100).optional().describe('minimum years'),
    max_hourly_rate: numParam(0, 100_000).optional().describe('only artists with a rate'),
    is_active: boolParam.optional(),
    search: textParam().optional().describe('word prefixes in name, bio, specialties'),
    sort_by: z.enum(ARTIST_SORTS).default('name'),
    sort_order: z.enum(['asc', 'desc']).default('asc'),
  })
  .strict();

export const artistParams = z.object({ id: plainText(200, 1) });

export function artistsRoutes(): Route[] {
  return [
    ...blockedWrites(`${PUBLIC_BASE}/artists`, 'GET, HEAD', ['post']),
    ...blockedWrites(`${PUBLIC_BASE}/artists/{id}`, 'GET, HEAD', ['put', 'patch', 'delete']),
    defineRoute({
      doc: 'public', method: 'get', path: `${PUBLIC_BASE}/artists`, operationId: 'listArtists', tag: 'artists', auth: 'any', permission: 'artists:read',
      summary: 'Artists', query: artistsQuery, ok: { 200: ['a page of artists', C.ArtistsPage] },
      async handler({ deps, query: q, res }) {
        const filters = {
          page: q.page,
          limit: q.limit,
          studioId: q.studio_id,
          specialty: q.specialty,
          minExperience: q.min_experience,
          maxHourlyRate: q.max_hourly_rate,
          isActive: q.is_active,
          search: q.search,
          sortBy: q.sort_by,
          sortOrder: q.sort_order,
        };
        const source = await readSource(deps, res, legacyCanListArtists(filters));
        const { rows, total } = source.legacy ? await legacyListArtists(source.legacy, filters) : await listArtists(deps.sql, filters);
        if (source.shadow) shadowAfter(deps, 'GET /artists', () => artistMismatches(source.shadow!, rows));
        return { data: rows, pagination: artistsPagination(q, total) };
      },
    }),
    defineRoute({
      doc: 'public', method: 'get', path: `${PUBLIC_BASE}/artists/{id}`, operationId: 'getArtist', tag: 'artists', auth: 'any', permission: 'artists:read',
      summary: 'One artist', params: artistParams, ok: { 200: ['the artist', C.ArtistEnvelope] }, problems: [404],
      async handler({ deps, params, res }) {
        const source = await readSource(deps, res, true);
        const artist = source.legacy ? await legacyFindArtist(source.legacy, params.id) : await findArtist(deps.sql, params.id);
        if (source.shadow && artist) shadowAfter(deps, 'GET /artists/{id}', () => artistMismatches(source.shadow!, [artist]));
        if (!artist) throw new AppError('not_found', 'No such artist.');
        return { data: artist };
      },
    }),
  ];
}
