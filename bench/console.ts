// C1 (issue 14): the review console with 5,000 submissions awaiting review. Time until the first
// 50 queue rows with their thumbnails are shown in Chromium (navigation start -> 50 rows whose
// thumbnail images are decoded), p50 of 10 loads, beside the latency of the plain review-queue JSON
// route (GET /review-queue?limit=50, operator bearer) in the same run.
// Run: npm run bench:console [-- --submissions 5000 --loads 10]
import { stateFlagsOf } from '../lib/intake/lifecycle';
import crypto from 'node:crypto';
import fs from 'node:fs';
import sharp from 'sharp';
import { chromium } from 'playwright-core';
import { parseCli } from '../lib/cli';
import { createSigninCode } from '../lib/console/sessions';
import { LOCAL_ISSUER } from '../lib/identity';
import { createObjectStore } from '../lib/storage';
import { CHROMIUM_PATH } from '../scripts/tools/chromium';
import { printTable, writeResults } from './lib/results';
import { startBenchStack } from './lib/stack';
import { round, summarize } from './lib/stats';

const { values } = parseCli('C1: the review console with N submissions awaiting review, first 50 rows with thumbnails in Chromium, beside the review-queue JSON route.', 'npm run bench:console --', {
  options: { submissions: { type: 'string', default: '5000', description: 'submissions awaiting review in the queue' }, loads: { type: 'string', default: '10', description: 'console page loads measured in Chromium' }, 'json-requests': { type: 'string', default: '50', description: 'review-queue JSON requests measured (the baseline)' } },
});
const N = Number(values.submissions);
const LOADS = Number(values.loads);
const JSON_REQUESTS = Number(values['json-requests']);
if (!fs.existsSync(CHROMIUM_PATH)) throw new Error(`${CHROMIUM_PATH} is missing: \`npm run setup\` installs Debian's chromium`);

const stack = await startBenchStack();
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] });
try {
  // N submissions awaiting review as verification leaves them: rows, and a thumbnail and a large
  // preview beside each staged key (distinct images, so no cache serves one for another).
  const run = crypto.randomBytes(3).toString('hex');
  process.stderr.write(`inserting ${N} submissions awaiting review ...\n`);
  const flags = stateFlagsOf('awaiting_review');
  await stack.sql`
    insert into submissions (submission_id, tenant_id, artist_canonical_id, partner_actor_id, partner_organization_id, credential_id, source,
      file_name, mime_type, size_bytes, title, rights_posture, consent_posture, staging_key, intake_status, is_open, is_undecided, is_deciding, review_status,
      verified_sha256, image_format, image_width, image_height, awaiting_since, created_at)
    select 'sub_c1_' || ${run} || '_' || i, 'bench-tenant', 'artist-bench-' || (i % 50), 'bench-partner', 'bench-tenant', 'bench-key', 'partner_api',
      'tattoo-' || i || '.jpg', 'image/jpeg', 200000 + i, 'Bench piece ' || i, 'artist_attested', 'client_consented',
      'staging/sub_c1_' || ${run} || '_' || i, 'awaiting_review', ${flags.isOpen}, ${flags.isUndecided}, ${flags.isDeciding}, 'review_required',
      encode(sha256(i::text::bytea), 'hex'), 'jpeg', 1600, 1200, now() - make_interval(secs => ${N} - i), now() - make_interval(secs => ${N} - i)
    from generate_series(1, ${N}) i`;
  const store = createObjectStore({ STORAGE_DRIVER: 'local', DATA_DIR: stack.dataDir });
  for (let i = 1; i <= N; i++) {
    const hue = (i * 37) % 256;
    const thumb = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: hue, g: 255 - hue, b: (i * 11) % 256 } } }).webp({ quality: 70 }).toBuffer();
    await store.putPreview(`staging/sub_c1_${run}_${i}`, 'thumb', thumb);
  }

  // The JSON route an API client would use for the same page.
  const json: number[] = [];
  for (let i = 0; i < JSON_REQUESTS; i++) {
    const t = performance.now();
    const r = await fetch(`${stack.apiUrl}/api/private/portfolio-intake/v1/review-queue?limit=50`, { headers: stack.operator.headers });
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`review-queue: ${r.status}`);
    json.push(performance.now() - t);
  }

  // The console: signed in once with a one-time link, then LOADS fresh navigations.
  const context = await browser.newContext();
  const page = await context.newPage();
  const code = await createSigninCode(stack.sql, { subject: 'bench-operator', issuer: LOCAL_ISSUER, ttlSeconds: 600, sessionExpiresAt: new Date(Date.now() + 3600_000) });
  await page.goto(`${stack.apiUrl}/console/signin?code=${code}`);
  await page.waitForSelector('tr[data-submission]', { timeout: 60_000 });
  const shown: number[] = [];
  for (let i = 0; i < LOADS; i++) {
    // A new tab each time: no images already decoded in memory (the browser's HTTP cache is not used: no-store).
    const p = await context.newPage();
    await p.goto(`${stack.apiUrl}/console`, { waitUntil: 'commit' });
    await p.waitForFunction(
      () => {
        // In the page (no DOM types in this project's compile): 50 rows, their thumbnails decoded.
        const d = (globalThis as any).document;
        return d.querySelectorAll('tr[data-submission]').length >= 50 && [...d.querySelectorAll('table.queue img')].slice(0, 50).every((i: any) => i.complete && i.naturalWidth > 0);
      },
      undefined,
      { timeout: 60_000, polling: 10 },
    );
    shown.push(await p.evaluate('performance.now()') as number);
    await p.close();
  }
  const ours = summarize(shown);
  const base = summarize(json);
  const rows = [
    { id: 'C1 console', figure: `first 50 queue rows with thumbnails shown in Chromium (${N} awaiting), ms from navigation`, p50: round(ours.p50), p95: round(ours.p95), n: ours.n },
    { id: 'C1 JSON', figure: 'GET /review-queue?limit=50 (operator bearer), ms', p50: round(base.p50), p95: round(base.p95), n: base.n },
  ];
  printTable(`C1: the review console with ${N} submissions awaiting review`, rows);
  const file = writeResults('console', { submissions: N, loads: LOADS, console: ours, reviewQueueJson: base, rows });
  console.log(`\nwritten: ${file}`);
} finally {
  await browser.close();
  await stack.stop();
}
