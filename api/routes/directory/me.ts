// Owner-scoped reads (owner_portfolio_assets:read): the actor's own portfolio assets (runtime rows
// and private media-store drafts not yet projected) and designs, drafts included. The scope is in
// the SQL WHERE; another owner's record is 404, exactly like a missing one. Writes: 405.
import { Router } from 'express';
import { z } from 'zod';
import { plainText } from '../../../lib/validation/text';
import type { AppDeps } from '../../deps';
import { actorOf, requireAuth } from '../../auth/middleware';
import { AppError } from '../../http/errors';
import { parseInput } from '../../http/validate';
import { findOwnerAsset, findOwnerDesign, listOwnerAssets, listOwnerDesigns } from '../../../lib/directory/media';
import { limitParam, pageParam } from '../../../lib/directory/params';
import { blockWrites } from './blocked';
import { mediaPagination } from './envelopes';

export const ownerListQuery = z.object({ page: pageParam, limit: limitParam(20, 100) }).strict();
export const ownerItemParams = z.object({ id: plainText(200, 1) });

export function meRouter(deps: AppDeps): Router {
  const r = Router();
  for (const base of ['/me/portfolio-assets', '/me/designs']) {
    blockWrites(r, base, 'GET, HEAD');
    blockWrites(r, `${base}/:id`, 'GET, HEAD');
  }
  const auth = requireAuth(deps, { permission: 'owner_portfolio_assets:read' });

  r.get('/me/portfolio-assets', auth, async (req, res) => {
    const q = parseInput(ownerListQuery, req.query, 'query');
    const { rows, total } = await listOwnerAssets(deps.sql, actorOf(res), q);
    res.json({ success: true, data: rows, pagination: mediaPagination(q, total) });
  });
  r.get('/me/portfolio-assets/:id', auth, async (req, res) => {
    const { id } = parseInput(ownerItemParams, req.params, 'path');
    const asset = await findOwnerAsset(deps.sql, actorOf(res), id);
    if (!asset) throw new AppError('not_found', 'No such portfolio asset.');
    res.json({ success: true, data: asset });
  });
  r.get('/me/designs', auth, async (req, res) => {
    const q = parseInput(ownerListQuery, req.query, 'query');
    const { rows, total } = await listOwnerDesigns(deps.sql, actorOf(res), q);
    res.json({ success: true, data: rows, pagination: mediaPagination(q, total) });
  });
  r.get('/me/designs/:id', auth, async (req, res) => {
    const { id } = parseInput(ownerItemParams, req.params, 'path');
    const design = await findOwnerDesign(deps.sql, actorOf(res), id);
    if (!design) throw new AppError('not_found', 'No such design.');
    res.json({ success: true, data: design });
  });
  return r;
}
