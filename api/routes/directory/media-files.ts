// GET /media/{assetId}/{rendition}.{ext}: the public renditions of published portfolio assets,
// served by the API from the private media store (the bucket is never public). No credential:
// these are the URLs in image_url and renditions. The bytes never change under a URL, so they are
// cached for a year as immutable; a takedown answers 410 at once (and deletes the objects).
import { z } from 'zod';
import { findPublicRendition } from '../../../lib/directory/media';
import { RENDITION_FORMAT, RENDITION_NAMES } from '../../../lib/media/renditions';
import { AppError } from '../../http/errors';
import { blockedWrites, defineRoute, type Route } from '../../http/route';
import * as C from '../../openapi/components';

export const MEDIA_BASE = '/media';

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
          'cache-control': 'public, max-age=31536000, immutable',
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
