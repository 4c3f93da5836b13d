// GET /artists and GET /artists/{id} (artists:read). POST /artists, PUT/PATCH/DELETE /artists/{id}: 405.
import { Router } from 'express';
import { z } from 'zod';
import { plainText } from '../../../lib/validation/text';
import type { AppDeps } from '../../deps';
import { requireAuth } from '../../auth/middleware';
import { AppError } from '../../http/errors';
import { parseInput } from '../../http/validate';
import { ARTIST_SORTS, findArtist, listArtists } from '../../../lib/directory/artists';
import { boolParam, limitParam, numParam, pageParam, textParam } from '../../../lib/directory/params';
import { blockWrites } from './blocked';
import { artistsPagination } from './envelopes';

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
export type ArtistsQuery = z.infer<typeof artistsQuery>;

export const artistParams = z.object({ id: plainText(200, 1) });

export function artistsRouter(deps: AppDeps): Router {
  const r = Router();
  blockWrites(r, '/artists', 'GET, HEAD', ['post']);
  blockWrites(r, '/artists/:id', 'GET, HEAD', ['put', 'patch', 'delete']);
  const auth = requireAuth(deps, { permission: 'artists:read' });

  r.get('/artists', auth, async (req, res) => {
    const q = parseInput(artistsQuery, req.query, 'query');
    const { rows, total } = await listArtists(deps.sql, {
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
    });
    res.json({ success: true, data: rows, pagination: artistsPagination(q, total) });
  });

  r.get('/artists/:id', auth, async (req, res) => {
    const { id } = parseInput(artistParams, req.params, 'path');
    const artist = await findArtist(deps.sql, id);
    if (!artist) throw new AppError('not_found', 'No such artist.');
    res.json({ success: true, data: artist });
  });
  return r;
}
