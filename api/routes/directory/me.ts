// Owner-scoped reads (owner_portfolio_assets:read): the actor's own portfolio assets (runtime rows
// and private media-store drafts not yet projected) and designs, drafts included. The scope is in
// the SQL WHERE; another owner's record is 404, exactly like a missing one. Writes: 405.
import { z } from 'zod';
import { plainText } from '../../../lib/validation/text';
import { AppError } from '../../http/errors';
import { blockedWrites, defineRoute, type Route } from '../../routing/route';
import * as C from '../../openapi/components';
import { PUBLIC_BASE } from '../../routing/bases';
import { findOwnerAsset, findOwnerDesign, listOwnerAssets, listOwnerDesigns } from '../../../lib/directory/media';
import { limitParam, pageParam } from '../../../lib/directory/params';
import { mediaPagination } from './envelopes';

export const ownerListQuery = z.object({ page: pageParam, limit: limitParam(20, 100) }).strict();
export const ownerItemParams = z.object({ id: plainText(200, 1) });

const owner = { doc: 'public', tag: 'owner', auth: 'any', permission: 'owner_portfolio_assets:read' } as const;

export function meRoutes(): Route[] {
  const assets = `${PUBLIC_BASE}/me/portfolio-assets`;
  const designs = `${PUBLIC_BASE}/me/designs`;
  return [
    ...[assets, designs].flatMap((base) => [...blockedWrites(base, 'GET, HEAD'), ...blockedWrites(`${base}/{id}`, 'GET, HEAD')]),
    defineRoute({
      ...owner, method: 'get', path: assets, operationId: 'listOwnAssets', summary: 'Your portfolio assets, drafts included',
      query: ownerListQuery, ok: { 200: ['a page', C.OwnerAssetsPage] },
      async handler({ deps, query, actor }) {
        const { rows, total } = await listOwnerAssets(deps.sql, actor(), query, deps.publicBaseUrl);
        return { data: rows, pagination: mediaPagination(query, total) };
      },
    }),
    defineRoute({
      ...owner, method: 'get', path: `${assets}/{id}`, operationId: 'getOwnAsset', summary: 'One of your portfolio assets',
      params: ownerItemParams, ok: { 200: ['the asset', C.envelope(C.OwnerAsset)] }, problems: [404],
      async handler({ deps, params, actor }) {
        const asset = await findOwnerAsset(deps.sql, actor(), params.id, deps.publicBaseUrl);
        if (!asset) throw new AppError('not_found', 'No such portfolio asset.');
        return { data: asset };
      },
    }),
    defineRoute({
      ...owner, method: 'get', path: designs, operationId: 'listOwnDesigns', summary: 'Your designs, drafts included',
      query: ownerListQuery, ok: { 200: ['a page', C.OwnerDesignsPage] },
      async handler({ deps, query, actor }) {
        const { rows, total } = await listOwnerDesigns(deps.sql, actor(), query, deps.publicBaseUrl);
        return { data: rows, pagination: mediaPagination(query, total) };
      },
    }),
    defineRoute({
      ...owner, method: 'get', path: `${designs}/{id}`, operationId: 'getOwnDesign', summary: 'One of your designs',
      params: ownerItemParams, ok: { 200: ['the design', C.envelope(C.OwnerDesign)] }, problems: [404],
      async handler({ deps, params, actor }) {
        const design = await findOwnerDesign(deps.sql, actor(), params.id, deps.publicBaseUrl);
        if (!design) throw new AppError('not_found', 'No such design.');
        return { data: design };
      },
    }),
  ];
}
