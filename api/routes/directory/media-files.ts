// GET /media/{assetId}/{rendition}.{ext}: the public renditions of published portfolio assets,
// served by the API from the private media store (the bucket is never public). No credential:
// these are the URLs in image_url and renditions. Caches keep a rendition for 5 minutes and then
// revalidate it by its ETag (the sha256 of the bytes: 304 while it is still published), so a
// takedown, which answers 410 at once (and deletes the objects), reaches every cache within 5 minutes.
import { z } from 'zod';
import { findPublicRendition } from '../../../lib/directory/media';
import { RENDITION_FORMAT, RENDITION_NAMES } from '../../../lib/media/renditions';
import { AppError } from '../../http/errors';
import { blockedWrites, defineRoute, type Route } from '../../routing/route';
import * as C from '../../openapi/components';

export const MEDIA_BASE = '/media';
/** Never `immutable`: a rendition taken down must leave caches within max-age. */
export const RENDITION_CACHE_CONTROL = 'public, max-age=300';

export const renditionParams = z.object({
  assetId: z.string().regex(/^[A-Za-z0-9_-]{1,200}$/, 'letters, digits, - and _'),
  rendition: z.enum(RENDITION_NAMES),
  ext: z.literal(RENDITION_FORMAT.ext),
});

export function mediaFileRoutes(): Route[] {
  const path = `${MEDIA_BASE}/{assetId}/{rendition}.{ext}`;
  return [
    ...blockedWrites(path, 'GET, HEAD'),
    defineRoute({
      doc: 'public', method: 'get', path, operationId: 'getRendition', tag: 'portfolios', auth: 'public',
      summary: 'A public rendition of a published portfolio asset (WebP, metadata stripped)',
      params: renditionParams, okContentType: RENDITION_FORMAT.contentType,
      ok: { 200: ['the image', C.RenditionImage], 304: ['not modified (If-None-Match matched the ETag)', null] }, problems: [404, 410],
      async handler({ deps, params, req, res }) {
        const found = await findPublicRendition(deps.sql, params.assetId, params.rendition);
        if (found?.state === 'taken_down') throw new AppError('media_taken_down', 'This asset was taken down.');
        if (!found || found.ext !== params.ext) throw new AppError('not_found', 'No such rendition.');
        res.set({
          etag: `"${found.sha256}"`,
          'cache-control': RENDITION_CACHE_CONTROL,
          'x-content-type-options': 'nosniff',
          'cross-origin-resource-policy': 'cross-origin',
        });
        if (req.fresh) {
          res.status(304).end();
          return;
        }
        const bytes = await deps.store.readRendition(found.objectKey);
        if (!bytes) throw new AppError('not_found', 'No such rendition.');
        res.type(found.contentType).send(bytes);
      },
    }),
  ];
}
