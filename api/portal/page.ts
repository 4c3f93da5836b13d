// The partner portal's page (/portal) and its assets, in the route list like every endpoint, served
// by the API while the identity provider is the local one (with IDP_DRIVER=external they answer 404
// naming PARTNER_PORTAL_URL, as the portal's API does). The script
// is api/portal/web/main.tsx bundled by esbuild: `npm run build` writes dist/portal/app.js (what
// production serves); outside production the sources are bundled in memory on first use.
// Strict CSP: scripts and styles only from this origin, no inline anything.
import fs from 'node:fs';
import path from 'node:path';
import { z } from '../openapi/zod';
import { PROJECT_ROOT } from '../../lib/config';
import { defineRoute, type Route } from '../routing/route';
import { requireLocalPortal } from './session';

export const PORTAL_WEB_ENTRY = path.join(PROJECT_ROOT, 'api', 'portal', 'web', 'main.tsx');
export const PORTAL_BUNDLE = path.join(PROJECT_ROOT, 'dist', 'portal', 'app.js');
const CSS = path.join(PROJECT_ROOT, 'api', 'portal', 'web', 'portal.css');

const CSP = ["default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self'", "connect-src 'self'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'"].join('; ');

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Partner portal</title>
    <link rel="stylesheet" href="/portal/assets/portal.css" />
    <link rel="icon" href="/docs/assets/favicon-32x32.png" />
  </head>
  <body>
    <div id="app"></div>
    <script type="module" src="/portal/assets/app.js"></script>
  </body>
</html>
`;

/** esbuild options of a browser page's bundle (Preact + TSX; the portal's and the console's). */
export const pageBundleOptions = (entry: string) => ({
  entryPoints: [entry],
  bundle: true,
  format: 'esm' as const,
  target: 'es2022',
  platform: 'browser' as const,
  jsx: 'automatic' as const,
  jsxImportSource: 'preact',
  minify: true,
  legalComments: 'none' as const,
  logLevel: 'silent' as const,
});

/** esbuild options of the portal page's bundle (the build and the in-memory bundle use the same). */
export const portalBundleOptions = pageBundleOptions(PORTAL_WEB_ENTRY);

let inMemory: Promise<string> | undefined;
async function bundle(production: boolean): Promise<string> {
  // Production serves what the build made; elsewhere the sources are bundled (never a stale dist/).
  if (production) {
    if (!fs.existsSync(PORTAL_BUNDLE)) throw new Error('dist/portal/app.js is missing: run npm run build');
    return fs.readFileSync(PORTAL_BUNDLE, 'utf8');
  }
  inMemory ??= import('esbuild').then(async ({ build }) => {
    const r = await build({ ...portalBundleOptions, write: false });
    return r.outputFiles[0]!.text;
  });
  return inMemory;
}

const Html = z.string().openapi({ type: 'string', description: 'the portal page (HTML)' });
const Script = z.string().openapi({ type: 'string', description: 'the portal\'s script' });
const Stylesheet = z.string().openapi({ type: 'string', description: 'the portal\'s stylesheet' });

export function portalPageRoutes(): Route[] {
  // Static, and without a database: never rate limited (a page load fetches three of these).
  const common = { doc: 'intake', tag: 'partner portal', auth: 'public', limit: 'none', problems: [404] } as const;
  return [
    defineRoute({
      ...common, method: 'get', path: '/portal', operationId: 'portalPage', summary: 'The partner portal (with the local identity provider)',
      okContentType: 'text/html', ok: { 200: ['the portal page', Html] },
      handler({ deps, res }) {
        requireLocalPortal(deps);
        res.set('content-security-policy', CSP).set('cache-control', 'no-store').type('html').send(PAGE);
      },
    }),
    defineRoute({
      ...common, method: 'get', path: '/portal/assets/portal.css', operationId: 'portalStylesheet', summary: 'The portal\'s stylesheet',
      okContentType: 'text/css', ok: { 200: ['the stylesheet', Stylesheet] },
      handler({ deps, res }) {
        requireLocalPortal(deps);
        return new Promise<void>((resolve, reject) => res.set('cache-control', 'no-cache').type('css').sendFile(CSS, (err) => (err ? reject(err) : resolve())));
      },
    }),
    defineRoute({
      ...common, method: 'get', path: '/portal/assets/app.js', operationId: 'portalScript', summary: 'The portal\'s script',
      okContentType: 'text/javascript', ok: { 200: ['the script', Script] },
      async handler({ deps, res }) {
        requireLocalPortal(deps);
        const js = await bundle(deps.cfg.NODE_ENV === 'production');
        res.set('cache-control', 'no-cache').type('js').send(js);
      },
    }),
  ];
}
