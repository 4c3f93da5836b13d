// The review console (issue 14) at /console: the page and its assets, served from the project
// (htm + Preact from npm, no CDN, strict CSP). Its JSON API is in the route list
// (api/console/routes.ts, auth kind `console`); its session in api/console/session.ts.
import fs from 'node:fs';
import path from 'node:path';
import express, { type Request, type Response, type Router } from 'express';
import { PROJECT_ROOT } from '../../lib/config';
import type { AppDeps } from '../deps';

export { CONSOLE_COOKIE } from './session';
export { CLAIM_SECONDS } from './routes';

const STATIC_DIR = path.join(PROJECT_ROOT, 'api', 'console', 'static');
const ASSETS: Record<string, { file: string; type: string }> = {
  'app.js': { file: path.join(STATIC_DIR, 'app.js'), type: 'text/javascript; charset=utf-8' },
  'console.css': { file: path.join(STATIC_DIR, 'console.css'), type: 'text/css; charset=utf-8' },
  'htm-preact.js': { file: path.join(PROJECT_ROOT, 'node_modules', 'htm', 'preact', 'standalone.module.js'), type: 'text/javascript; charset=utf-8' },
};
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function consoleRouter(_deps: AppDeps): Router {
  const r = express.Router();
  // The page: the same document for every console URL; it asks /console/api/me who is signed in.
  const page = (_req: Request, res: Response) => {
    res.set('content-security-policy', CSP).set('cache-control', 'no-store').type('html').send(INDEX_HTML);
  };
  r.get('/console', page);
  r.get('/console/', page);
  r.get('/console/assets/:name', (req, res, next) => {
    const asset = ASSETS[req.params.name!];
    if (!asset) return next();
    res.set('cache-control', 'no-cache').set('cross-origin-resource-policy', 'same-origin').type(asset.type);
    fs.createReadStream(asset.file).on('error', next).pipe(res);
  });
  return r;
}

const INDEX_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Review console</title>
<link rel="stylesheet" href="/console/assets/console.css">
<script type="module" src="/console/assets/app.js"></script>
</head>
<body><main id="app"><p class="muted">Loading…</p></main></body>
</html>
`;
