// Serves the two OpenAPI documents and the docs page (/docs: Swagger UI from the swagger-ui-dist
// npm package, served from this origin; no CDN).
import fs from 'node:fs';
import path from 'node:path';
import type express from 'express';
import { z } from './zod';
import { createRequire } from 'node:module';
import { PROJECT_ROOT } from '../../lib/config';
import type { AppDeps } from '../deps';
import { defineRoute, type DocumentId, type Route } from '../routing/route';
import { INTAKE_BASE, portalUrlOf, PUBLIC_BASE } from '../routing/bases';
import * as C from './components';
import { AppError } from '../http/errors';
import { buildDocument } from './documents';

const DOCS_DIR = path.join(PROJECT_ROOT, 'api', 'docs');
const SWAGGER_UI_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'", // Swagger UI sets inline styles
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** The demo partner key of the embedded stack, only outside production with the local IdP. */
function demoApiKey(deps: AppDeps): string | undefined {
  const cfg = deps.cfg;
  if (cfg.NODE_ENV === 'production' || cfg.IDP_DRIVER !== 'local' || !cfg.DOCS_PREFILL_DEMO_KEY) return undefined;
  try {
    return fs.readFileSync(path.join(cfg.DATA_DIR, 'secrets', 'demo-partner-key'), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** `host` or `host:port` as a Host header carries it (IPv6 literals in brackets), lower case. */
const hostHeader = (host: string, port?: number | string) => {
  const h = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return (port === undefined || port === '' ? h : `${h}:${port}`).toLowerCase();
};

/**
 * The Host values this API answers to as itself: its listen host, localhost and 127.0.0.1 on the
 * port the request came in on, and the hosts of PUBLIC_BASE_URL and of the URL it announces. A
 * page on any other name (DNS rebinding: attacker.example resolving to 127.0.0.1) gets no key.
 */
export function isOwnHost(req: Pick<express.Request, 'headers' | 'socket'>, deps: Pick<AppDeps, 'cfg' | 'publicBaseUrl'>): boolean {
  const given = req.headers.host?.trim().toLowerCase();
  if (!given) return false;
  const port = req.socket.localPort;
  const own = new Set<string>();
  if (port !== undefined) for (const h of [deps.cfg.HOST, 'localhost', '127.0.0.1']) own.add(hostHeader(h, port));
  for (const url of [deps.cfg.PUBLIC_BASE_URL, deps.publicBaseUrl]) {
    if (!url) continue;
    try {
      own.add(new URL(url).host.toLowerCase());
    } catch {
      // not a URL: nothing to add
    }
  }
  return own.has(given);
}

/** The documents of the routes the app serves, built once per app on first request. */
export function openApiRoutes(): Route[] {
  const built = new WeakMap<readonly Route[], Map<DocumentId, unknown>>();
  const documentOf = (routes: readonly Route[], id: DocumentId) => {
    const docs = built.get(routes) ?? new Map<DocumentId, unknown>();
    built.set(routes, docs);
    if (!docs.has(id)) docs.set(id, buildDocument(id, routes, { serverUrl: '/' }));
    return docs.get(id);
  };
  const meta = { tag: 'meta', auth: 'public', summary: 'This document', ok: { 200: ['OpenAPI 3.1', C.OpenApiDocument] } } as const;
  return [
    defineRoute({ ...meta, doc: 'intake', method: 'get', path: `${INTAKE_BASE}/openapi.json`, operationId: 'intakeOpenApi', handler: ({ routes }) => documentOf(routes, 'intake') as Record<string, unknown> }),
    defineRoute({ ...meta, doc: 'public', method: 'get', path: `${PUBLIC_BASE}/openapi.json`, operationId: 'publicOpenApi', handler: ({ routes }) => documentOf(routes, 'public') as Record<string, unknown> }),
  ];
}

const DocsConfig = z
  .object({
    urls: z.array(z.object({ name: z.string(), url: z.string() })),
    demoApiKey: z.string().optional().describe('the embedded stack\'s demo partner key (outside production, on our own host names only)'),
    portalUrl: z.string().optional().describe('where partners make keys'),
  })
  .openapi('DocsConfig');
const assetParams = z.object({ file: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,100}$/, 'a file name of the docs page') });

/** The docs page (Swagger UI), its script and configuration, and Swagger UI's own files. */
export function docsRoutes(): Route[] {
  const common = { doc: 'public', tag: 'meta', auth: 'public', limit: 'none' } as const;
  const page = (res: express.Response) => res.set('content-security-policy', CSP).set('x-content-type-options', 'nosniff');
  const send = (res: express.Response, file: string) =>
    new Promise<void>((resolve, reject) => res.sendFile(file, (err) => (err ? reject((err as NodeJS.ErrnoException).code === 'ENOENT' ? new AppError('not_found', 'No such docs asset.') : err) : resolve())));
  return [
    defineRoute({
      ...common, method: 'get', path: '/docs', operationId: 'docsPage', summary: 'The API docs (Swagger UI): both documents, "Try it out" against this server',
      okContentType: 'text/html', ok: { 200: ['the docs page', z.string().openapi({ type: 'string', description: 'the docs page (HTML)' })] },
      handler: ({ res }) => send(page(res).type('html'), path.join(DOCS_DIR, 'index.html')),
    }),
    defineRoute({
      ...common, method: 'get', path: '/docs/init.js', operationId: 'docsScript', summary: 'The docs page\'s script',
      okContentType: 'text/javascript', ok: { 200: ['the script', z.string().openapi({ type: 'string', description: 'the docs page\'s script' })] },
      handler: ({ res }) => send(page(res).type('js'), path.join(DOCS_DIR, 'init.js')),
    }),
    defineRoute({
      ...common, method: 'get', path: '/docs/config.json', operationId: 'docsConfig', summary: 'What the docs page shows: the documents, the demo key where there is one, where keys are made',
      ok: { 200: ['the configuration', DocsConfig] },
      handler({ deps, req, res }) {
        // The key only to a page on one of our own names, never to one a rebinding DNS name served.
        const key = isOwnHost(req, deps) ? demoApiKey(deps) : undefined;
        const portalUrl = portalUrlOf(deps);
        res.set({ 'cache-control': 'no-store', vary: 'host' });
        return {
          urls: [
            { name: 'Portfolio intake (private) 1.0.0', url: `${INTAKE_BASE}/openapi.json` },
            { name: 'Directory (public and beta)', url: `${PUBLIC_BASE}/openapi.json` },
          ],
          ...(key ? { demoApiKey: key } : {}),
          // Where keys are made, for the page's "paste your key" note.
          ...(portalUrl ? { portalUrl } : {}),
        };
      },
    }),
    defineRoute({
      ...common, method: 'get', path: '/docs/assets/{file}', operationId: 'docsAsset', params: assetParams, problems: [404],
      summary: 'Swagger UI\'s own files (the swagger-ui-dist package), from this origin',
      okContentType: 'application/octet-stream', ok: { 200: ['the file', z.string().openapi({ type: 'string', format: 'binary', description: 'a Swagger UI file (script, stylesheet, icon)' })] },
      handler: ({ params, res }) => send(res, path.join(SWAGGER_UI_DIR, params.file)),
    }),
  ];
}
