// GET /designs (designs:read): published public designs only; public=false answers no records.
// Writes on /designs and /designs/{id}: 405.
import { Router } from 'express';
import { z } from 'zod';
import type { AppDeps } from '../../deps';
import { requireAuth } from '../../auth/middleware';
import { parseInput } from '../../http/validate';
import { listPublicDesigns } from '../../../lib/directory/media';
import { boolParam, numParam, textParam } from '../../../lib/directory/params';
import { blockWrites } from './blocked';
import { mediaPagination } from './envelopes';
import { mediaQueryShape } from './portfolios';

export const designsQuery = z
  .object({
    ...mediaQueryShape,
    public: boolParam.optional().describe('false answers no records: this route lists public designs only'),
    search: textParam().optional().describe('word prefixes in title and description'),
    min_price: numParam(0, 1_000_000).optional().describe('only designs with a price'),
    max_price: numParam(0, 1_000_000).optional().describe('only designs with a price'),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.min_price !== undefined && v.max_price !== undefined && v.min_price > v.max_price)
      ctx.addIssue({ code: 'custom', path: ['max_price'], message: 'must not be below min_price' });
  });
export type DesignsQuery = z.infer<typeof designsQuery>;

export function designsRouter(deps: AppDeps): Router {
  const r = Router();
  blockWrites(r, '/designs', 'GET, HEAD');
  blockWrites(r, '/designs/:id', '');
  r.get('/designs', requireAuth(deps, { permission: 'designs:read' }), async (req, res) => {
    const q = parseInput(designsQuery, req.query, 'query');
    const { rows, total } = await listPublicDesigns(deps.sql, {
      page: q.page,
      limit: q.limit,
      artistId: q.artist_id,
      styleId: q.style_id,
      featured: q.featured,
      tags: q.tags,
      public: q.public,
      search: q.search,
      minPrice: q.min_price,
      maxPrice: q.max_price,
    });
    res.json({ success: true, data: rows, pagination: mediaPagination(q, total) });
  });
  return r;
}
