// GET /portfolios (portfolios:read): published public portfolio assets only (lib/directory/records.ts
// publicMediaWhere). Writes on /portfolios and /portfolios/{id}: 405.
import { Router } from 'express';
import { z } from 'zod';
import type { AppDeps } from '../../deps';
import { requireAuth } from '../../auth/middleware';
import { parseInput } from '../../http/validate';
import { listPublicPortfolios } from '../../../lib/directory/media';
import { boolParam, limitParam, pageParam, slugListParam, textParam } from '../../../lib/directory/params';
import { blockWrites } from './blocked';
import { mediaPagination } from './envelopes';

export const mediaQueryShape = {
  page: pageParam,
  limit: limitParam(20, 100),
  artist_id: textParam().optional(),
  style_id: textParam(100).transform((v) => v.toLowerCase()).optional(),
  featured: boolParam.optional(),
  tags: slugListParam().optional().describe('comma-separated; any of them'),
};

export const portfoliosQuery = z.object(mediaQueryShape).strict();
export type PortfoliosQuery = z.infer<typeof portfoliosQuery>;

export function portfoliosRouter(deps: AppDeps): Router {
  const r = Router();
  blockWrites(r, '/portfolios', 'GET, HEAD');
  // No item route is served: an empty Allow says the resource answers no method here.
  blockWrites(r, '/portfolios/:id', '');
  r.get('/portfolios', requireAuth(deps, { permission: 'portfolios:read' }), async (req, res) => {
    const q = parseInput(portfoliosQuery, req.query, 'query');
    const { rows, total } = await listPublicPortfolios(deps.sql, {
      page: q.page,
      limit: q.limit,
      artistId: q.artist_id,
      styleId: q.style_id,
      featured: q.featured,
      tags: q.tags,
    });
    res.json({ success: true, data: rows, pagination: mediaPagination(q, total) });
  });
  return r;
}
