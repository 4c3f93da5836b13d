// The review console's page (issue 14; typed and built since issue 27): the same document for every
// console URL (/console, /console/submissions/{id}, /console/published, …: deep links, Back and
// Forward), and its script. The script is api/console/web/main.tsx bundled by esbuild into a hashed
// asset: `npm run build` writes dist/console/app-<hash>.js and dist/console/manifest.json (what
// production serves); outside production the sources are bundled in memory on first use, so
// `npm start` never serves a stale or missing bundle. Its JSON API is in the route list
// (api/console/routes.ts, auth kind `console`). Strict CSP: scripts and styles only from this
// origin, no inline anything.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import express, { type Request, type Response, type Router } from 'express';
import { PROJECT_ROOT } from '../../lib/config';
import type { AppDeps } from '../deps';
import { pageBundleOptions } from '../portal/page';

export { CONSOLE_COOKIE } from './session';
export { CLAIM_SECONDS } from './routes';

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

export function consoleRouter(deps: AppDeps): Router {
  const r = express.Router();
  const production = deps.cfg.NODE_ENV === 'production';
  const CSP = cspOf(deps.publicBaseUrl);
  const serve = (_req: Request, res: Response, next: (err?: unknown) => void) => {
    bundle(production).then((b) => void res.set('content-security-policy', CSP).set('cache-control', 'no-store').type('html').send(page(b.file)), next);
  };
  r.get('/console/assets/console.css', (_req, res) => void res.set('cache-control', 'no-cache').type('css').sendFile(CSS));
  r.get('/console/assets/:file', (req, res, next) => {
    bundle(production).then((b) => {
      if (req.params.file !== b.file) return next();
      // The name changes with the content: cached for good.
      res.set('cache-control', 'public, max-age=31536000, immutable').set('cross-origin-resource-policy', 'same-origin').type('js').send(b.js);
    }, next);
  });
  // Every console URL but its API and its assets is the page: the script reads the path.
  r.get('/console', serve);
  r.get('/console/{*rest}', (req, res, next) => {
    const rest = (req.params as { rest?: string[] }).rest ?? [];
    if (rest[0] === 'api' || rest[0] === 'assets') return next();
    serve(req, res, next);
  });
  return r;
}
