// The review console's page, in the route list like every
// endpoint: the same document for every console URL (/console, /console/submissions/{id},
// /console/published, …: deep links, Back and Forward), and its script and stylesheet. The script is
// api/console/web/main.tsx bundled by esbuild into a hashed asset: `npm run build` writes
// dist/console/app-<hash>.js and dist/console/manifest.json (what production serves); outside
// production the sources are bundled in memory on first use, so `npm start` never serves a stale or
// missing bundle. Its JSON API is api/console/routes.ts (auth kind `console`). Strict CSP: scripts
// and styles only from this origin, no inline anything.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Response } from 'express';
import { z } from '../openapi/zod';
import { PROJECT_ROOT } from '../../lib/config';
import type { AppDeps } from '../deps';
import { AppError } from '../http/errors';
import { defineRoute, type Route } from '../routing/route';
import { pageBundleOptions } from '../portal/page';
import { submissionIdParams } from '../routes/intake/schemas';

export const CONSOLE_WEB_ENTRY = path.join(PROJECT_ROOT, 'api', 'console', 'web', 'main.tsx');
export const CONSOLE_DIST = path.join(PROJECT_ROOT, 'dist', 'console');
/** What the build writes beside the bundle: its hashed file name. */
export const CONSOLE_MANIFEST = 'manifest.json';
const CSS = path.join(PROJECT_ROOT, 'api', 'console', 'web', 'console.css');

/** The page's policy; images also from the public base URL's origin (the published renditions). */
const cspOf = (publicBaseUrl: string) => {
  let media = '';
  try {
    media = ` ${new URL(publicBaseUrl).origin}`;
  } catch {
    // a relative or empty base: this origin only
  }
  return ["default-src 'none'", "script-src 'self'", "style-src 'self'", `img-src 'self'${media}`, "connect-src 'self'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'"].join('; ');
};

/** esbuild options of the console's bundle (the build and the in-memory bundle use the same). */
export const consoleBundleOptions = pageBundleOptions(CONSOLE_WEB_ENTRY);

interface Bundle {
  /** app-<hash>.js */
  file: string;
  js: string;
}

/** The hashed name of a bundle (esbuild's [hash] is not needed: the content names itself). */
export const bundleFileName = (js: string) => `app-${crypto.createHash('sha256').update(js).digest('hex').slice(0, 12)}.js`;

let inMemory: Promise<Bundle> | undefined;
let built: Bundle | undefined;
async function bundle(production: boolean): Promise<Bundle> {
  // Production serves what the build made; elsewhere the sources are bundled (never a stale dist/).
  if (production) {
    if (!built) {
      const manifest = path.join(CONSOLE_DIST, CONSOLE_MANIFEST);
      if (!fs.existsSync(manifest)) throw new Error('dist/console/manifest.json is missing: run npm run build');
      const { file } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { file: string };
      built = { file, js: fs.readFileSync(path.join(CONSOLE_DIST, file), 'utf8') };
    }
    return built;
  }
  inMemory ??= import('esbuild').then(async ({ build }) => {
    const r = await build({ ...consoleBundleOptions, write: false });
    const js = r.outputFiles[0]!.text;
    return { file: bundleFileName(js), js };
  });
  return inMemory;
}

const page = (script: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Review console</title>
<link rel="stylesheet" href="/console/assets/console.css">
<link rel="icon" href="/docs/assets/favicon-32x32.png">
<script type="module" src="/console/assets/${script}"></script>
</head>
<body><main id="app"><p class="muted">Loading…</p></main></body>
</html>
`;

const Html = z.string().openapi({ type: 'string', description: 'the console page (HTML); its script reads the path' });
const Script = z.string().openapi({ type: 'string', description: 'the console\'s script (its name changes with its content)' });
const Stylesheet = z.string().openapi({ type: 'string', description: 'the console\'s stylesheet' });
/** One path segment that names a view (the page says when it knows none by that name). */
const viewParams = z.object({ view: z.string().regex(/^[a-z][a-z-]{0,39}$/, 'not a console view').describe('queue, status, decisions, published or evidence') });
const assetParams = z.object({ file: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, 'not an asset name').describe('app-<hash>.js, as the page names it') });

/** The page, under its strict policy; never cached (it names the current bundle). */
async function sendPage(deps: AppDeps, res: Response): Promise<void> {
  const b = await bundle(deps.cfg.NODE_ENV === 'production');
  res.set('content-security-policy', cspOf(deps.publicBaseUrl)).set('cache-control', 'no-store').type('html').send(page(b.file));
}

export function consolePageRoutes(): Route[] {
  // Static, and without a database: never rate limited (a page load fetches three of these).
  const common = { doc: 'intake', tag: 'review console', auth: 'public', limit: 'none' } as const;
  const pageOf = { ...common, okContentType: 'text/html', ok: { 200: ['the console page', Html] } } as const;
  return [
    defineRoute({
      ...pageOf, method: 'get', path: '/console', operationId: 'consolePage', summary: 'The review console: the queue',
      handler: ({ deps, res }) => sendPage(deps, res),
    }),
    defineRoute({
      ...pageOf, method: 'get', path: '/console/submissions/{submissionId}', operationId: 'consoleSubmissionPage', params: submissionIdParams,
      summary: 'The review console, at one submission (a link operators can share)',
      handler: ({ deps, res }) => sendPage(deps, res),
    }),
    defineRoute({
      ...common, method: 'get', path: '/console/assets/console.css', operationId: 'consoleStylesheet', summary: 'The console\'s stylesheet',
      okContentType: 'text/css', ok: { 200: ['the stylesheet', Stylesheet] },
      handler: ({ res }) => new Promise<void>((resolve, reject) => res.set('cache-control', 'no-cache').type('css').sendFile(CSS, (err) => (err ? reject(err) : resolve()))),
    }),
    defineRoute({
      ...common, method: 'get', path: '/console/assets/{file}', operationId: 'consoleScript', params: assetParams, problems: [404],
      summary: 'The console\'s script, by the hashed name the page gives (cached for good: the name changes with the content)',
      okContentType: 'text/javascript', ok: { 200: ['the script', Script] },
      async handler({ deps, params, res }) {
        const b = await bundle(deps.cfg.NODE_ENV === 'production');
        if (params.file !== b.file) throw new AppError('not_found', 'No such console asset (the page names the current one).');
        res.set('cache-control', 'public, max-age=31536000, immutable').set('cross-origin-resource-policy', 'same-origin').type('js').send(b.js);
      },
    }),
    // After the API's /console/signin and the asset paths; every other single segment is a view.
    defineRoute({
      ...pageOf, method: 'get', path: '/console/{view}', operationId: 'consoleViewPage', params: viewParams, problems: [404],
      summary: 'The review console at a view: /console/status, /console/decisions, /console/published, /console/evidence',
      async handler({ deps, params, res }) {
        if (params.view === 'api' || params.view === 'assets') throw new AppError('not_found', 'No such console page.');
        await sendPage(deps, res);
      },
    }),
  ];
}
